#!/usr/bin/env python3
"""Runs carbon-show on a plan and posts its Markdown as one sticky pull-request comment.

Used by action.yml (GitHub) and docs/ci/gitlab-ci.yml (GitLab); docs/ci.md explains both.

1. Runs `carbon-show --format markdown --output FILE [--fail-over X] [--comment-tag T] PLAN`.
   Exit 0 or 3 (over budget) go on; any other code stops here with carbon-show's code.
   carbon-show runs without the tokens in its environment (TOKEN_VARIABLES): only this
   script's HTTP requests carry one. `--max-chars` is the platform's own limit unless the
   caller sets one.
2. Finds the comment of its own (written by the token's identity: GitHub `GET /user`, else
   `github-actions[bot]`, or --commenter; GitLab `GET /user`) whose body's FIRST line is the
   marker `<!-- carbon-show -->` (or `<!-- carbon-show:TAG -->` with --tag) among the pull
   request's comments (GitHub) or the merge request's notes (GitLab), and updates it; posts a
   new one when there is none. A marker elsewhere in a body, or in someone else's comment, is
   never matched. The marker is put on the first line when carbon-show's output lacks it there.
   Pagination follows GitHub's `Link: rel="next"` only on the API's own scheme and host.
3. A read-only token (HTTP 403 to the POST/PATCH, as on a pull request from a fork) is not a
   failure: the comment is in the job summary ($GITHUB_STEP_SUMMARY), and one line on stderr
   says why.
4. Exits with carbon-show's code: 3 fails the job when --fail-over is exceeded.

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
import urllib.parse
import urllib.request

GITHUB_LIMIT = 65536  # characters in an issue comment
GITLAB_LIMIT = 1000000  # characters in a note
GITHUB_BOT = "github-actions[bot]"  # who the workflow's own GITHUB_TOKEN comments as
# Never in carbon-show's environment: it reads the pull request's files, the token is only
# for this script's requests.
TOKEN_VARIABLES = (
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "GH_ENTERPRISE_TOKEN",
    "GITHUB_ENTERPRISE_TOKEN",
    "GITLAB_TOKEN",
    "CI_JOB_TOKEN",
    "ACTIONS_RUNTIME_TOKEN",
    "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
    "ACTIONS_ID_TOKEN_REQUEST_URL",
)


def marker(tag):
    return "<!-- carbon-show:%s -->" % tag if tag else "<!-- carbon-show -->"


def first_line(body):
    return (body or "").split("\n", 1)[0].rstrip("\r")


def with_marker(body, tag):
    m = marker(tag)
    return body if first_line(body) == m else m + "\n" + body


def fail(message):
    """One line on stderr, exit 1."""
    raise SystemExit("carbon-show comment: " + " ".join(str(message).split()))


class HttpError(Exception):
    def __init__(self, method, url, code, detail):
        super().__init__("%s %s: HTTP %d %s" % (method, url, code, detail))
        self.code = code


class Api:
    """A small JSON-over-HTTP client; with dry_run, prints each request instead.

    Absolute URLs (pagination) are followed only on the base URL's own scheme and host, so the
    token never goes anywhere else."""

    def __init__(self, base, headers, dry_run, out):
        self.base = base.rstrip("/")
        self.origin = origin(self.base)
        self.headers = headers
        self.dry_run = dry_run
        self.out = out

    def same_origin(self, url):
        return origin(url) == self.origin

    def request(self, method, path, body=None):
        url = path if "://" in path else self.base + path
        if not self.same_origin(url):
            fail("refusing %s %s: not the API's own host %s" % (method, url, self.origin))
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
            detail = e.read().decode(errors="replace")[:300]
            raise HttpError(method, url, e.code, " ".join(detail.split()))
        except urllib.error.URLError as e:
            fail("%s %s: %s" % (method, url, e.reason))


def origin(url):
    u = urllib.parse.urlsplit(url)
    return "%s://%s" % (u.scheme.lower(), u.netloc.lower())


def next_link(headers):
    """The rel="next" URL of a GitHub Link header."""
    link = headers.get("Link") or headers.get("link") or ""
    for part in link.split(","):
        if 'rel="next"' in part:
            return part.split(";")[0].strip().strip("<>")
    return None


def call(api, method, path, body=None):
    """api.request, with an HTTP error as one line and exit 1."""
    try:
        return api.request(method, path, body)
    except HttpError as e:
        fail(e)


def github_identity(api, args):
    """The login whose comments are this script's own."""
    if args.commenter:
        return args.commenter
    if api.dry_run:
        api.request("GET", "/user")
        return GITHUB_BOT
    try:
        user, _ = api.request("GET", "/user")
    except HttpError as e:
        if e.code != 403:  # 403: an installation token (GITHUB_TOKEN) cannot read /user
            fail(e)
        return GITHUB_BOT
    return (user or {}).get("login") or GITHUB_BOT


def github_find(api, repo, number, me, m):
    """This script's own sticky comment on the pull request, or None."""
    url = "/repos/%s/issues/%s/comments?per_page=100" % (repo, number)
    while url:
        comments, headers = call(api, "GET", url)
        for c in comments or []:
            login = ((c.get("user") or {}).get("login") or "").lower()
            if login == me.lower() and first_line(c.get("body")) == m:
                return c
        url = next_link(headers)
        if url and not api.same_origin(url):
            print("carbon-show comment: ignored a next page on another host (%s): "
                  "not the API's own %s" % (origin(url), api.origin), file=sys.stderr)
            url = None
    return None


def read_only(e, body, out):
    """A write the token may not make (a fork's pull request): say so, do not fail."""
    where = "the job summary" if os.environ.get("GITHUB_STEP_SUMMARY") else "stdout"
    print("carbon-show comment: cannot comment (%s): the token is read-only, as on a pull "
          "request from a fork; the comment is in %s instead" % (e, where), file=sys.stderr)
    if where == "stdout":
        out.write(body + "\n")


def github(args, body, out):
    token = os.environ.get("GITHUB_TOKEN", "")
    repo = os.environ.get("GITHUB_REPOSITORY", "")
    number = args.pr or pr_from_event(os.environ.get("GITHUB_EVENT_PATH"))
    if not number:
        print("carbon-show comment: not a pull request: no comment posted", file=out)
        return
    if not repo:
        fail("GITHUB_REPOSITORY is not set")
    if not token and not args.dry_run:
        fail("GITHUB_TOKEN is not set")
    if len(body) > GITHUB_LIMIT:
        fail("the comment is %d characters, over GitHub's %d: lower --max-chars"
             % (len(body), GITHUB_LIMIT))
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
    me = github_identity(api, args)
    found = github_find(api, repo, number, me, marker(args.tag))
    try:
        if found is not None:
            api.request("PATCH", "/repos/%s/issues/comments/%s" % (repo, found["id"]), {"body": body})
            action, cid = "updated", found["id"]
        else:
            made, _ = api.request("POST", "/repos/%s/issues/%s/comments" % (repo, number), {"body": body})
            action, cid = "created", made.get("id")
    except HttpError as e:
        if e.code != 403:
            fail(e)
        return read_only(e, body, out)
    print("carbon-show comment: %s comment %s on #%s as %s" % (action, cid, number, me), file=out)
    write_output("comment-id", cid)


def gitlab_find(api, base, me, m):
    """This script's own sticky note on the merge request, or None."""
    page = 1
    while True:
        notes, _ = call(api, "GET", "%s?per_page=100&page=%d" % (base, page))
        for n in notes or []:
            author = (n.get("author") or {}).get("id")
            if not n.get("system") and author == me and first_line(n.get("body")) == m:
                return n
        if len(notes or []) < 100:
            return None
        page += 1


def gitlab(args, body, out):
    token = os.environ.get("GITLAB_TOKEN", "")
    project = os.environ.get("CI_PROJECT_ID", "")
    number = args.pr or os.environ.get("CI_MERGE_REQUEST_IID")
    if not number:
        print("carbon-show comment: not a merge request pipeline: no comment posted", file=out)
        return
    if not project:
        fail("CI_PROJECT_ID is not set")
    if not token and not args.dry_run:
        fail("GITLAB_TOKEN is not set (a token with the api scope)")
    if len(body) > GITLAB_LIMIT:
        fail("the comment is %d characters, over GitLab's %d: lower --max-chars"
             % (len(body), GITLAB_LIMIT))
    api = Api(
        os.environ.get("CI_API_V4_URL", "https://gitlab.com/api/v4"),
        {"PRIVATE-TOKEN": token, "User-Agent": "carbon-show-comment"},
        args.dry_run,
        out,
    )
    user, _ = call(api, "GET", "/user")
    me = user.get("id") if isinstance(user, dict) else None
    if me is None and not api.dry_run:
        fail("GET %s/user did not name the token's user: cannot tell its own note apart" % api.base)
    base = "/projects/%s/merge_requests/%s/notes" % (project, number)
    found = gitlab_find(api, base, me, marker(args.tag))
    try:
        if found is not None:
            api.request("PUT", "%s/%s" % (base, found["id"]), {"body": body})
            action, cid = "updated", found["id"]
        else:
            made, _ = api.request("POST", base, {"body": body})
            action, cid = "created", made.get("id")
    except HttpError as e:
        if e.code != 403:
            fail(e)
        return read_only(e, body, out)
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


def carbon_show_command(args, platform, md):
    """The carbon-show command line: Markdown into `md`, the platform's comment limit."""
    cmd = [args.carbon_show, "--format", "markdown", "--output", md]
    if args.fail_over:
        cmd += ["--fail-over", args.fail_over]
    if args.fail_over_per_project:
        cmd += ["--fail-over-per-project", args.fail_over_per_project]
    if args.tag:
        cmd += ["--comment-tag", args.tag]
    extra = shlex.split(args.args)
    caller_sets_limit = os.environ.get("CARBON_SHOW_MAX_CHARS") or any(
        a == "--max-chars" or a.startswith("--max-chars=") for a in extra
    )
    if not caller_sets_limit:
        limit = GITLAB_LIMIT if platform == "gitlab" else GITHUB_LIMIT
        cmd += ["--max-chars", str(limit)]
    # `--`: a plan whose name starts with `-` is a plan, not a flag; several plans are one
    # project each, in one comment
    return cmd + extra + ["--"] + args.plan


def without_tokens(environ):
    return {k: v for k, v in environ.items() if k not in TOKEN_VARIABLES}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("plan", nargs="+",
                   help="plan JSON (tofu show -json plan.tfplan); several: one project each")
    p.add_argument("--carbon-show", default=os.environ.get("CARBON_SHOW_BIN", "carbon-show"),
                   help="the binary (default: carbon-show on PATH, or $CARBON_SHOW_BIN)")
    p.add_argument("--fail-over", default="", help="budget, e.g. 10kg/month: exit 3 when exceeded")
    p.add_argument("--fail-over-per-project", default="",
                   help="budget of each project, e.g. 5kg/month: exit 3 when one exceeds it")
    p.add_argument("--tag", default="", help="tells several sticky comments of one PR apart")
    p.add_argument("--pr", default="", help="the PR/MR number (default: from the CI's environment)")
    p.add_argument("--platform", choices=["auto", "github", "gitlab"], default="auto")
    p.add_argument("--commenter", default="",
                   help="GitHub login whose comment is updated (default: GET /user, else %s)"
                   % GITHUB_BOT)
    p.add_argument("--no-comment", action="store_true", help="render and gate only")
    p.add_argument("--dry-run", action="store_true", help="print the HTTP requests, send none")
    p.add_argument("--output", default="", help="also keep the Markdown in this file")
    p.add_argument("--args", default="", help="more carbon-show arguments, one string (shell words)")
    args = p.parse_args(argv)
    out = sys.stdout
    platform = args.platform
    if platform == "auto":
        platform = "gitlab" if os.environ.get("GITLAB_CI") else "github"

    md = args.output or os.path.join(tempfile.mkdtemp(prefix="carbon-show-"), "comment.md")
    cmd = carbon_show_command(args, platform, md)
    try:
        code = subprocess.call(cmd, env=without_tokens(os.environ))
    except OSError as e:
        fail("cannot run %s: %s" % (args.carbon_show, e))
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
        (gitlab if platform == "gitlab" else github)(args, body, out)
    if code == 3:
        print("carbon-show comment: over the --fail-over budget (exit 3)", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
