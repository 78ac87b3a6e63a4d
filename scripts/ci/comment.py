#!/usr/bin/env python3
"""Runs carbon-show on a plan and posts its Markdown as one sticky pull-request comment.

Used by action.yml (GitHub) and docs/ci/gitlab-ci.yml (GitLab); docs/ci.md explains both.

1. Runs `carbon-show --format markdown --output FILE [--fail-over X] [--comment-tag T] PLAN`.
   Exit 0 or 3 (over budget) go on; any other code stops here with carbon-show's code.
2. Finds the comment that carries the marker `<!-- carbon-show -->` (or
   `<!-- carbon-show:TAG -->` with --tag) among the pull request's comments (GitHub) or the
   merge request's notes (GitLab), and updates it; posts a new one when there is none. The
   marker is added to the body when carbon-show's output does not carry it.
3. Exits with carbon-show's code: 3 fails the job when --fail-over is exceeded.

--dry-run prints the HTTP requests instead of sending them (and assumes no comment exists).
Only the standard library is used, so any Python 3.8+ runs it.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

GITHUB_LIMIT = 65536  # characters in an issue comment
GITLAB_LIMIT = 1000000  # characters in a note


def marker(tag):
    return "<!-- carbon-show:%s -->" % tag if tag else "<!-- carbon-show -->"


def with_marker(body, tag):
    m = marker(tag)
    return body if m in body else m + "\n" + body


class Api:
    """A small JSON-over-HTTP client; with dry_run, prints each request instead."""

    def __init__(self, base, headers, dry_run, out):
        self.base = base.rstrip("/")
        self.headers = headers
        self.dry_run = dry_run
        self.out = out

    def request(self, method, path, body=None):
        url = path if path.startswith("http") else self.base + path
        data = None if body is None else json.dumps(body).encode()
        if self.dry_run:
            line = "%s %s" % (method, url)
            if body is not None:
                line += " (body: %d characters)" % len(body.get("body", ""))
            print("dry-run: " + line, file=self.out)
            return [] if method == "GET" else {"id": 0}, {}
        req = urllib.request.Request(url, data=data, method=method)
        for k, v in self.headers.items():
            req.add_header(k, v)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                text = resp.read().decode()
                return (json.loads(text) if text else None), dict(resp.headers)
        except urllib.error.HTTPError as e:
            detail = e.read().decode(errors="replace")[:300].replace("\n", " ")
            raise SystemExit("carbon-show comment: %s %s: HTTP %d %s" % (method, url, e.code, detail))
        except urllib.error.URLError as e:
            raise SystemExit("carbon-show comment: %s %s: %s" % (method, url, e.reason))


def next_link(headers):
    """The rel="next" URL of a GitHub Link header."""
    link = headers.get("Link") or headers.get("link") or ""
    for part in link.split(","):
        if 'rel="next"' in part:
            return part.split(";")[0].strip().strip("<>")
    return None


def github(args, body, out):
    token = os.environ.get("GITHUB_TOKEN", "")
    repo = os.environ.get("GITHUB_REPOSITORY", "")
    number = args.pr or pr_from_event(os.environ.get("GITHUB_EVENT_PATH"))
    if not number:
        print("carbon-show comment: not a pull request: no comment posted", file=out)
        return
    if not repo:
        raise SystemExit("carbon-show comment: GITHUB_REPOSITORY is not set")
    if not token and not args.dry_run:
        raise SystemExit("carbon-show comment: GITHUB_TOKEN is not set")
    if len(body) > GITHUB_LIMIT:
        raise SystemExit(
            "carbon-show comment: the comment is %d characters, over GitHub's %d: lower --max-chars"
            % (len(body), GITHUB_LIMIT)
        )
    api = Api(
        os.environ.get("GITHUB_API_URL", "https://api.github.com"),
        {
            "Authorization": "Bearer " + token,
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
            "User-Agent": "carbon-show-comment",
        },
        args.dry_run,
        out,
    )
    m = marker(args.tag)
    url = "/repos/%s/issues/%s/comments?per_page=100" % (repo, number)
    found = None
    while url and found is None:
        comments, headers = api.request("GET", url)
        found = next((c for c in comments or [] if m in (c.get("body") or "")), None)
        url = next_link(headers)
    if found is not None:
        api.request("PATCH", "/repos/%s/issues/comments/%s" % (repo, found["id"]), {"body": body})
        action, cid = "updated", found["id"]
    else:
        made, _ = api.request("POST", "/repos/%s/issues/%s/comments" % (repo, number), {"body": body})
        action, cid = "created", made.get("id")
    print("carbon-show comment: %s comment %s on #%s" % (action, cid, number), file=out)
    write_output("comment-id", cid)


def gitlab(args, body, out):
    token = os.environ.get("GITLAB_TOKEN", "")
    project = os.environ.get("CI_PROJECT_ID", "")
    number = args.pr or os.environ.get("CI_MERGE_REQUEST_IID")
    if not number:
        print("carbon-show comment: not a merge request pipeline: no comment posted", file=out)
        return
    if not project:
        raise SystemExit("carbon-show comment: CI_PROJECT_ID is not set")
    if not token and not args.dry_run:
        raise SystemExit("carbon-show comment: GITLAB_TOKEN is not set (a token with the api scope)")
    if len(body) > GITLAB_LIMIT:
        raise SystemExit(
            "carbon-show comment: the comment is %d characters, over GitLab's %d: lower --max-chars"
            % (len(body), GITLAB_LIMIT)
        )
    api = Api(
        os.environ.get("CI_API_V4_URL", "https://gitlab.com/api/v4"),
        {"PRIVATE-TOKEN": token, "User-Agent": "carbon-show-comment"},
        args.dry_run,
        out,
    )
    m = marker(args.tag)
    base = "/projects/%s/merge_requests/%s/notes" % (project, number)
    found, page = None, 1
    while found is None:
        notes, _ = api.request("GET", "%s?per_page=100&page=%d" % (base, page))
        found = next((n for n in notes or [] if m in (n.get("body") or "")), None)
        if len(notes or []) < 100:
            break
        page += 1
    if found is not None:
        api.request("PUT", "%s/%s" % (base, found["id"]), {"body": body})
        action, cid = "updated", found["id"]
    else:
        made, _ = api.request("POST", base, {"body": body})
        action, cid = "created", made.get("id")
    print("carbon-show comment: %s note %s on !%s" % (action, cid, number), file=out)


def pr_from_event(path):
    """The pull request number of a GitHub event payload, if it is about one."""
    if not path or not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        event = json.load(f)
    pr = event.get("pull_request") or {}
    if pr.get("number"):
        return str(pr["number"])
    issue = event.get("issue") or {}
    if issue.get("pull_request") and issue.get("number"):
        return str(issue["number"])
    return None


def write_output(name, value):
    path = os.environ.get("GITHUB_OUTPUT")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write("%s=%s\n" % (name, value))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("plan", help="plan JSON (tofu show -json plan.tfplan)")
    p.add_argument("--carbon-show", default=os.environ.get("CARBON_SHOW_BIN", "carbon-show"),
                   help="the binary (default: carbon-show on PATH, or $CARBON_SHOW_BIN)")
    p.add_argument("--fail-over", default="", help="budget, e.g. 10kg/month: exit 3 when exceeded")
    p.add_argument("--tag", default="", help="tells several sticky comments of one PR apart")
    p.add_argument("--pr", default="", help="the PR/MR number (default: from the CI's environment)")
    p.add_argument("--platform", choices=["auto", "github", "gitlab"], default="auto")
    p.add_argument("--no-comment", action="store_true", help="render and gate only")
    p.add_argument("--dry-run", action="store_true", help="print the HTTP requests, send none")
    p.add_argument("--output", default="", help="also keep the Markdown in this file")
    p.add_argument("--args", default="", help="more carbon-show arguments, one string (shell words)")
    args = p.parse_args(argv)
    out = sys.stdout

    md = args.output or os.path.join(tempfile.mkdtemp(prefix="carbon-show-"), "comment.md")
    cmd = [args.carbon_show, "--format", "markdown", "--output", md]
    if args.fail_over:
        cmd += ["--fail-over", args.fail_over]
    if args.tag:
        cmd += ["--comment-tag", args.tag]
    cmd += shlex.split(args.args) + [args.plan]
    try:
        code = subprocess.call(cmd)
    except OSError as e:
        raise SystemExit("carbon-show comment: cannot run %s: %s" % (args.carbon_show, e))
    if code not in (0, 3):
        print("carbon-show comment: carbon-show exited %d: no comment posted" % code, file=sys.stderr)
        return code
    with open(md, encoding="utf-8") as f:
        body = with_marker(f.read(), args.tag)
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as f:
            f.write(body + "\n")
    if not args.no_comment:
        platform = args.platform
        if platform == "auto":
            platform = "gitlab" if os.environ.get("GITLAB_CI") else "github"
        (gitlab if platform == "gitlab" else github)(args, body, out)
    if code == 3:
        print("carbon-show comment: the plan is over the --fail-over budget (exit 3)", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
