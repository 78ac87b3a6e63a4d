//! The CI comment script (scripts/ci/comment.py) against a fake GitHub/GitLab API on
//! 127.0.0.1: one sticky comment of its own, pagination on the API's own host only, a
//! read-only token (fork) falling back to the job summary, and no token in carbon-show's
//! environment.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use crate::common::{bin, stderr, stdout};
use crate::fake_http::{self, Request, Response, Server};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn demo() -> PathBuf {
    root().join("testdata/demo/plan.json")
}

/// A fresh folder under the temporary directory.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("carbon-show-cm-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The token the fake accepts, and the login it belongs to.
const TOKEN: &str = "test-token";
const ME: &str = "carbon-bot";

/// One comment on the fake pull request #7 of acme/infra.
#[derive(Debug, Clone)]
struct Comment {
    id: u64,
    login: String,
    body: String,
}

fn mine(id: u64, body: &str) -> Comment {
    Comment {
        id,
        login: ME.into(),
        body: body.into(),
    }
}

/// How the fake GitHub behaves beyond the happy path.
#[derive(Clone, Default)]
struct Behaviour {
    /// `GET /user` answers 403, as for the workflow's installation token.
    installation_token: bool,
    /// POST and PATCH answer 403, as for a fork's read-only token.
    read_only: bool,
    /// The first page's `Link: rel="next"` points at this base URL instead of the fake's own.
    next_page_on: Option<String>,
}

/// A fake of the GitHub endpoints the script uses: `GET /user`, list an issue's comments
/// (100 a page, with a `Link: rel="next"`), create one, update one.
struct FakeGitHub {
    url: String,
    server: Server,
    comments: Arc<Mutex<Vec<Comment>>>,
}

impl FakeGitHub {
    fn start(comments: Vec<Comment>) -> FakeGitHub {
        FakeGitHub::with(Behaviour::default(), comments)
    }

    fn with(behaviour: Behaviour, comments: Vec<Comment>) -> FakeGitHub {
        let comments = Arc::new(Mutex::new(comments));
        let c = comments.clone();
        let server = fake_http::serve(move |req, base| {
            if req.header("authorization") != Some(&format!("Bearer {TOKEN}")) {
                return Response::json("401 Unauthorized", &json!({"message": "Bad credentials"}));
            }
            respond(req, &behaviour, &c, base)
        });
        FakeGitHub {
            url: server.url.clone(),
            server,
            comments,
        }
    }

    fn requests(&self) -> Vec<Request> {
        self.server.requests()
    }

    fn bodies(&self) -> Vec<String> {
        self.comments
            .lock()
            .unwrap()
            .iter()
            .map(|c| c.body.clone())
            .collect()
    }
}

fn respond(
    req: &Request,
    behaviour: &Behaviour,
    comments: &Mutex<Vec<Comment>>,
    base: &str,
) -> Response {
    let mut comments = comments.lock().unwrap();
    let (route, query) = req.path.split_once('?').unwrap_or((&req.path, ""));
    let login = if behaviour.installation_token {
        "github-actions[bot]"
    } else {
        ME
    };
    let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
    let forbidden = || {
        Response::json(
            "403 Forbidden",
            &json!({"message": "Resource not accessible by integration"}),
        )
    };
    match (req.method.as_str(), route) {
        ("GET", "/user") if behaviour.installation_token => forbidden(),
        ("GET", "/user") => Response::json("200 OK", &json!({"login": ME, "id": 1})),
        ("GET", "/repos/acme/infra/issues/7/comments") => {
            let page: usize = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("page="))
                .map_or(1, |p| p.parse().unwrap());
            let all: Vec<Value> = comments
                .iter()
                .map(|c| json!({"id": c.id, "body": c.body, "user": {"login": c.login}}))
                .collect();
            let chunk: Vec<Value> = all
                .iter()
                .skip((page - 1) * 100)
                .take(100)
                .cloned()
                .collect();
            let mut resp = Response::json("200 OK", &Value::Array(chunk));
            if all.len() > page * 100 {
                let host = behaviour.next_page_on.as_deref().unwrap_or(base);
                resp.headers.push((
                    "Link".into(),
                    format!(
                        "<{host}/repos/acme/infra/issues/7/comments?per_page=100&page={}>; rel=\"next\"",
                        page + 1
                    ),
                ));
            }
            resp
        }
        ("POST" | "PATCH", _) if behaviour.read_only => forbidden(),
        ("POST", "/repos/acme/infra/issues/7/comments") => {
            let id = 9000 + comments.len() as u64;
            comments.push(Comment {
                id,
                login: login.into(),
                body: body["body"].as_str().unwrap_or("").to_string(),
            });
            Response::json("201 Created", &json!({"id": id}))
        }
        ("PATCH", r) if r.starts_with("/repos/acme/infra/issues/comments/") => {
            let id: u64 = r.rsplit('/').next().unwrap().parse().unwrap();
            match comments.iter_mut().find(|c| c.id == id) {
                Some(c) => {
                    c.body = body["body"].as_str().unwrap_or("").to_string();
                    Response::json("200 OK", &json!({"id": id}))
                }
                None => Response::json("404 Not Found", &json!({"message": "Not Found"})),
            }
        }
        _ => Response::json("404 Not Found", &json!({"message": "Not Found"})),
    }
}

fn python() -> &'static str {
    "python3"
}

/// scripts/ci/comment.py as the GitHub action runs it, against `api`, with `env` on top.
fn comment_script_env(
    api: &str,
    args: &[&str],
    carbon_show: &Path,
    env: &[(&str, &str)],
) -> Output {
    let mut c = Command::new(python());
    c.arg(root().join("scripts/ci/comment.py"))
        .args(args)
        .env("CARBON_SHOW_BIN", carbon_show)
        .env("GITHUB_API_URL", api)
        .env("GITHUB_REPOSITORY", "acme/infra")
        .env("GITHUB_TOKEN", TOKEN)
        .env_remove("GITHUB_EVENT_PATH")
        .env_remove("GITHUB_OUTPUT")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITLAB_CI")
        .env_remove("CARBON_SHOW_MAX_CHARS")
        .stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output()
        .expect("python3 runs scripts/ci/comment.py (CI installs Python 3)")
}

/// scripts/ci/comment.py as the GitHub action runs it, against `api`.
fn comment_script(api: &str, args: &[&str], carbon_show: &Path) -> Output {
    comment_script_env(api, args, carbon_show, &[])
}

fn carbon_show_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_carbon-show"))
}

fn executable(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// The binary, or — while the Markdown renderer has no `--comment-tag` yet — a wrapper that
/// drops that flag (the script then adds the tagged marker itself).
fn carbon_show_for_tags(dir: &Path) -> PathBuf {
    let help = stdout(&bin().arg("--help").output().unwrap());
    if help.contains("--comment-tag") {
        return carbon_show_bin();
    }
    let w = dir.join("carbon-show-no-tag");
    executable(
        &w,
        &format!(
            "#!/usr/bin/env bash\nargs=()\nwhile [ $# -gt 0 ]; do\n  if [ \"$1\" = --comment-tag ]; then shift 2; continue; fi\n  args+=(\"$1\"); shift\ndone\nexec '{}' \"${{args[@]}}\"\n",
            carbon_show_bin().display()
        ),
    );
    w
}

/// A fake carbon-show that writes its environment to `env.txt` beside it and the Markdown
/// given as `marker_body` to its `--output` file.
fn env_dumping_carbon_show(dir: &Path, markdown: &str) -> PathBuf {
    let md = dir.join("fake.md");
    std::fs::write(&md, markdown).unwrap();
    let w = dir.join("carbon-show-env");
    executable(
        &w,
        &format!(
            "#!/usr/bin/env bash\nenv > '{env}'\nprintf '%s\\n' \"$@\" > '{args}'\nwhile [ $# -gt 0 ]; do\n  if [ \"$1\" = --output ]; then cp '{md}' \"$2\"; fi\n  shift\ndone\n",
            env = dir.join("env.txt").display(),
            args = dir.join("args.txt").display(),
            md = md.display()
        ),
    );
    w
}

#[test]
fn comment_script_creates_then_updates_one_sticky_comment() {
    let api = FakeGitHub::start(vec![mine(1, "LGTM"), mine(2, "<!-- other-bot -->\nhello")]);
    let plan = demo();
    let plan = plan.to_str().unwrap();
    let o = comment_script(&api.url, &["--pr", "7", plan], &carbon_show_bin());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("created comment 9002 on #7"),
        "{}",
        stdout(&o)
    );
    let o = comment_script(
        &api.url,
        &["--pr", "7", "--args=--period year", plan],
        &carbon_show_bin(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("updated comment 9002 on #7"),
        "{}",
        stdout(&o)
    );
    let seen = api.requests();
    let calls: Vec<(String, String)> = seen
        .iter()
        .map(|s| {
            (
                s.method.clone(),
                s.path.split('?').next().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        calls,
        [
            ("GET".into(), "/user".into()),
            ("GET".into(), "/repos/acme/infra/issues/7/comments".into()),
            ("POST".into(), "/repos/acme/infra/issues/7/comments".into()),
            ("GET".into(), "/user".into()),
            ("GET".into(), "/repos/acme/infra/issues/7/comments".into()),
            (
                "PATCH".into(),
                "/repos/acme/infra/issues/comments/9002".into()
            ),
        ]
    );
    let comments = api.bodies();
    assert_eq!(
        comments.len(),
        3,
        "one sticky comment, the others untouched"
    );
    assert_eq!(comments[0], "LGTM");
    let sticky = &comments[2];
    assert!(sticky.contains("<!-- carbon-show -->"));
    assert!(
        sticky.contains("per year"),
        "the update carries the new run's text"
    );
    let patch: Value = serde_json::from_slice(&seen[5].body).unwrap();
    assert_eq!(patch["body"].as_str().unwrap(), sticky);
}

#[test]
fn comment_script_finds_the_marker_on_a_later_page_and_keeps_tags_apart() {
    let mut existing: Vec<Comment> = (1..=150)
        .map(|i| mine(i, &format!("comment {i}")))
        .collect();
    existing[129].body = "<!-- carbon-show -->\nold".into(); // id 130, on page 2
    existing[10].body = "<!-- carbon-show:staging -->\nold staging".into(); // id 11
    let api = FakeGitHub::start(existing);
    let d = scratch("tags");
    let wrapper = carbon_show_for_tags(&d);
    let plan = demo();
    let plan = plan.to_str().unwrap();
    // untagged: the tagged comment on page 1 is not it; the one on page 2 is
    let o = comment_script(&api.url, &["--pr", "7", plan], &carbon_show_bin());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("updated comment 130"), "{}", stdout(&o));
    // tagged: its own comment
    let o = comment_script(&api.url, &["--pr", "7", "--tag", "staging", plan], &wrapper);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("updated comment 11"), "{}", stdout(&o));
    // a new tag: a new comment
    let o = comment_script(&api.url, &["--pr", "7", "--tag", "prod", plan], &wrapper);
    assert!(stdout(&o).contains("created comment"), "{}", stdout(&o));
    let comments = api.bodies();
    assert_eq!(comments.len(), 151);
    assert!(comments[10].starts_with("<!-- carbon-show:staging -->"));
    assert!(comments[10].contains("Plan:") || comments[10].contains("carbon-show"));
    assert!(comments[150].contains("<!-- carbon-show:prod -->"));
    assert!(!comments[150].contains("<!-- carbon-show -->"));
    let pages: Vec<String> = api
        .requests()
        .iter()
        .filter(|s| s.method == "GET")
        .map(|s| s.path.clone())
        .collect();
    assert!(pages.iter().any(|p| p.contains("page=2")), "{pages:?}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn comment_script_fails_the_job_over_budget_and_stops_on_errors() {
    let api = FakeGitHub::start(Vec::new());
    let plan = demo();
    let plan = plan.to_str().unwrap();
    // over budget: the comment is still posted, then exit 3
    let o = comment_script(
        &api.url,
        &["--pr", "7", "--fail-over", "1g/month", plan],
        &carbon_show_bin(),
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("over the --fail-over budget"));
    assert_eq!(api.bodies().len(), 1);
    // a plan carbon-show cannot read: its exit code, nothing posted
    let n = api.requests().len();
    let o = comment_script(
        &api.url,
        &["--pr", "7", "no-such-plan.json"],
        &carbon_show_bin(),
    );
    assert_eq!(o.status.code(), Some(4));
    assert!(stderr(&o).contains("no comment posted"));
    assert_eq!(api.requests().len(), n, "no request made");
    // a bad token: one line naming the request, non-zero
    let o = Command::new(python())
        .arg(root().join("scripts/ci/comment.py"))
        .args(["--pr", "7", plan])
        .env("CARBON_SHOW_BIN", carbon_show_bin())
        .env("GITHUB_API_URL", &api.url)
        .env("GITHUB_REPOSITORY", "acme/infra")
        .env("GITHUB_TOKEN", "wrong")
        .env_remove("GITLAB_CI")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("HTTP 401"), "{}", stderr(&o));
    // not a pull request: no comment, the gate still works
    let o = comment_script(&api.url, &["--fail-over", "1g", plan], &carbon_show_bin());
    assert_eq!(o.status.code(), Some(3));
    assert!(stdout(&o).contains("not a pull request"));
}

#[test]
fn comment_script_dry_run_prints_the_requests_and_reads_the_event() {
    let d = scratch("dryrun");
    let event = d.join("event.json");
    std::fs::write(&event, r#"{"pull_request": {"number": 42}}"#).unwrap();
    let summary = d.join("summary.md");
    let plan = demo();
    let o = Command::new(python())
        .arg(root().join("scripts/ci/comment.py"))
        .args(["--dry-run", plan.to_str().unwrap()])
        .env("CARBON_SHOW_BIN", carbon_show_bin())
        .env("GITHUB_API_URL", "http://127.0.0.1:9")
        .env("GITHUB_REPOSITORY", "acme/infra")
        .env("GITHUB_EVENT_PATH", &event)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env_remove("GITHUB_TOKEN")
        .env_remove("GITLAB_CI")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains(
            "dry-run: GET http://127.0.0.1:9/repos/acme/infra/issues/42/comments?per_page=100"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "dry-run: POST http://127.0.0.1:9/repos/acme/infra/issues/42/comments (body: "
        ),
        "{text}"
    );
    assert!(
        std::fs::read_to_string(&summary)
            .unwrap()
            .contains("<!-- carbon-show -->")
    );
    // GitLab: the merge request's notes
    let o = Command::new(python())
        .arg(root().join("scripts/ci/comment.py"))
        .args(["--dry-run", plan.to_str().unwrap()])
        .env("CARBON_SHOW_BIN", carbon_show_bin())
        .env("GITLAB_CI", "true")
        .env("CI_API_V4_URL", "https://gitlab.example/api/v4")
        .env("CI_PROJECT_ID", "12")
        .env("CI_MERGE_REQUEST_IID", "5")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("dry-run: GET https://gitlab.example/api/v4/projects/12/merge_requests/5/notes?per_page=100&page=1"), "{text}");
    assert!(
        text.contains(
            "dry-run: POST https://gitlab.example/api/v4/projects/12/merge_requests/5/notes (body: "
        ),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn action_yml_runs_the_comment_script_it_ships() {
    let action = std::fs::read_to_string(root().join("action.yml")).unwrap();
    assert!(action.contains("using: composite") || action.contains("using: \"composite\""));
    assert!(action.contains("scripts/ci/comment.py"));
    assert!(action.contains("scripts/ci/install.sh"));
    assert!(root().join("scripts/ci/comment.py").is_file());
    // both parse as YAML
    let parsed: Value = serde_saphyr::from_str(&action).expect("action.yml is YAML");
    assert_eq!(parsed["runs"]["using"], "composite");
    assert_eq!(parsed["inputs"]["plan"]["required"], true);
    let gitlab = std::fs::read_to_string(root().join("docs/ci/gitlab-ci.yml")).unwrap();
    let job: Value = serde_saphyr::from_str(&gitlab).expect("the GitLab snippet is YAML");
    assert!(job["carbon-show"]["script"].is_array());
    assert!(gitlab.contains("scripts/ci/comment.py") && gitlab.contains("merge_request_event"));
}

/// The comments of the fake after a run of the script with `behaviour` over `existing`.
fn one_run(behaviour: Behaviour, existing: Vec<Comment>, args: &[&str]) -> (FakeGitHub, Output) {
    let api = FakeGitHub::with(behaviour, existing);
    let plan = demo();
    let mut all = vec!["--pr", "7"];
    all.extend_from_slice(args);
    all.push(plan.to_str().unwrap());
    let o = comment_script(&api.url, &all, &carbon_show_bin());
    (api, o)
}

#[test]
fn comment_script_never_updates_someone_elses_comment_carrying_the_marker() {
    let foreign = Comment {
        id: 5,
        login: "mallory".into(),
        body: "<!-- carbon-show -->\nlooks like the bot's".into(),
    };
    let (api, o) = one_run(Behaviour::default(), vec![foreign], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("created comment 9001"),
        "{}",
        stdout(&o)
    );
    let bodies = api.bodies();
    assert_eq!(bodies[0], "<!-- carbon-show -->\nlooks like the bot's");
    assert!(bodies[1].starts_with("<!-- carbon-show -->\n"));
    assert!(!api.requests().iter().any(|r| r.method == "PATCH"));
}

#[test]
fn comment_script_never_updates_a_comment_whose_marker_is_not_its_first_line() {
    // its own comment, quoting another job's marker inside (as a plan string could)
    let quoted = "Plan text:\n<!-- carbon-show -->\n<!-- carbon-show:prod -->";
    let (api, o) = one_run(Behaviour::default(), vec![mine(3, quoted)], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("created comment 9001"),
        "{}",
        stdout(&o)
    );
    assert_eq!(api.bodies()[0], quoted);
    let (api, o) = one_run(
        Behaviour::default(),
        vec![mine(3, quoted)],
        &["--tag", "prod"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(api.bodies()[0], quoted, "{}", stdout(&o));
    assert!(api.bodies()[1].starts_with("<!-- carbon-show:prod -->\n"));
}

#[test]
fn comment_script_never_follows_a_next_page_link_to_another_host() {
    let elsewhere = fake_http::serve(|_, _| Response::json("200 OK", &json!([])));
    let mut existing: Vec<Comment> = (1..=150)
        .map(|i| mine(i, &format!("comment {i}")))
        .collect();
    existing[120].body = "<!-- carbon-show -->\nold".into(); // on page 2, which is elsewhere
    let behaviour = Behaviour {
        next_page_on: Some(elsewhere.url.clone()),
        ..Behaviour::default()
    };
    let (api, o) = one_run(behaviour, existing, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        elsewhere.requests().is_empty(),
        "{:?}",
        elsewhere.requests()
    );
    let err = stderr(&o);
    assert!(err.contains("ignored a next page on another host"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // every request went to the API itself, with the token
    let requests = api.requests();
    assert!(requests.len() >= 3, "{requests:?}");
    for r in &requests {
        assert_eq!(
            r.header("authorization"),
            Some("Bearer test-token"),
            "{r:?}"
        );
    }
    assert!(stdout(&o).contains("created comment"), "{}", stdout(&o));
}

#[test]
fn comment_script_with_the_workflow_token_updates_github_actions_bots_comment() {
    let bot = Comment {
        id: 4,
        login: "github-actions[bot]".into(),
        body: "<!-- carbon-show -->\nold".into(),
    };
    let behaviour = Behaviour {
        installation_token: true,
        ..Behaviour::default()
    };
    let (api, o) = one_run(
        behaviour.clone(),
        vec![mine(3, "<!-- carbon-show -->\nx"), bot.clone()],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("updated comment 4 on #7 as github-actions[bot]"),
        "{}",
        stdout(&o)
    );
    assert_eq!(api.bodies()[0], "<!-- carbon-show -->\nx");
    // --commenter names the identity instead (no GET /user)
    let (api, o) = one_run(
        behaviour,
        vec![mine(3, "<!-- carbon-show -->\nx"), bot],
        &["--commenter", ME],
    );
    assert!(
        stdout(&o).contains("updated comment 3 on #7 as carbon-bot"),
        "{}",
        stdout(&o)
    );
    assert!(!api.requests().iter().any(|r| r.path == "/user"));
}

#[test]
fn comment_script_on_a_read_only_token_writes_the_job_summary_and_passes() {
    let d = scratch("fork");
    let summary = d.join("summary.md");
    let api = FakeGitHub::with(
        Behaviour {
            installation_token: true,
            read_only: true,
            ..Behaviour::default()
        },
        Vec::new(),
    );
    let plan = demo();
    let plan = plan.to_str().unwrap();
    let env = [("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())];
    let o = comment_script_env(&api.url, &["--pr", "7", plan], &carbon_show_bin(), &env);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("HTTP 403") && err.contains("read-only") && err.contains("job summary"),
        "{err}"
    );
    let text = std::fs::read_to_string(&summary).unwrap();
    assert!(
        text.starts_with("<!-- carbon-show -->\n") && text.contains("kgCO2eq"),
        "{text}"
    );
    assert!(api.bodies().is_empty());
    // the budget still fails the job
    let o = comment_script_env(
        &api.url,
        &["--pr", "7", "--fail-over", "1g", plan],
        &carbon_show_bin(),
        &env,
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("read-only"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn comment_script_runs_carbon_show_without_the_tokens() {
    let d = scratch("env");
    let fake = env_dumping_carbon_show(&d, "<!-- carbon-show -->\nhello\n");
    let api = FakeGitHub::start(Vec::new());
    let secrets = [
        ("GH_TOKEN", "secret-gh"),
        ("GITLAB_TOKEN", "secret-gitlab"),
        ("ACTIONS_ID_TOKEN_REQUEST_TOKEN", "secret-oidc"),
        ("CARBON_SHOW_WITNESS", "kept"),
    ];
    let o = comment_script_env(&api.url, &["--pr", "7", "plan.json"], &fake, &secrets);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        api.bodies(),
        ["<!-- carbon-show -->\nhello\n"],
        "the token still reached the API"
    );
    let env = std::fs::read_to_string(d.join("env.txt")).unwrap();
    assert!(env.contains("CARBON_SHOW_WITNESS=kept"), "{env}");
    for secret in [TOKEN, "secret-gh", "secret-gitlab", "secret-oidc"] {
        assert!(!env.contains(secret), "{secret} reached carbon-show");
    }
    // GitHub's comment limit, or GitLab's, unless the caller sets one
    let args = std::fs::read_to_string(d.join("args.txt")).unwrap();
    assert!(args.contains("--max-chars\n65536\n"), "{args}");
    let o = comment_script_env(
        &api.url,
        &["--platform", "gitlab", "--no-comment", "plan.json"],
        &fake,
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let args = std::fs::read_to_string(d.join("args.txt")).unwrap();
    assert!(args.contains("--max-chars\n1000000\n"), "{args}");
    let o = comment_script_env(
        &api.url,
        &["--no-comment", "--args=--max-chars 500", "plan.json"],
        &fake,
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let args = std::fs::read_to_string(d.join("args.txt")).unwrap();
    assert_eq!(args.matches("--max-chars").count(), 1, "{args}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The fake GitLab's notes: (id, author id, body).
type Notes = Arc<Mutex<Vec<(u64, u64, String)>>>;

/// A fake GitLab notes API: `GET /user` is user 5; notes carry an author id.
fn fake_gitlab(notes: Vec<(u64, u64, &str)>) -> (Server, Notes) {
    let notes: Vec<(u64, u64, String)> = notes
        .into_iter()
        .map(|(i, a, b)| (i, a, b.to_string()))
        .collect();
    let notes = Arc::new(Mutex::new(notes));
    let n = notes.clone();
    let server = fake_http::serve(move |req, _| {
        if req.header("private-token") != Some(TOKEN) {
            return Response::json("401 Unauthorized", &json!({"message": "401 Unauthorized"}));
        }
        let mut notes = n.lock().unwrap();
        let base = "/api/v4/projects/12/merge_requests/5/notes";
        let route = req.path.split('?').next().unwrap_or("");
        let text = || {
            let v: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
            v["body"].as_str().unwrap_or("").to_string()
        };
        match (req.method.as_str(), route) {
            ("GET", "/api/v4/user") => {
                Response::json("200 OK", &json!({"id": 5, "username": "project_12_bot"}))
            }
            ("GET", r) if r == base => {
                let all: Vec<Value> = notes
                    .iter()
                    .map(|(id, a, b)| json!({"id": id, "body": b, "author": {"id": a}, "system": false}))
                    .collect();
                Response::json("200 OK", &Value::Array(all))
            }
            ("POST", r) if r == base => {
                let id = 700 + notes.len() as u64;
                notes.push((id, 5, text()));
                Response::json("201 Created", &json!({"id": id}))
            }
            ("PUT", r) if r.starts_with(base) => {
                let id: u64 = r.rsplit('/').next().unwrap().parse().unwrap();
                let t = text();
                match notes.iter_mut().find(|x| x.0 == id) {
                    Some(x) => {
                        x.2 = t;
                        Response::json("200 OK", &json!({"id": id}))
                    }
                    None => Response::json("404 Not Found", &json!({})),
                }
            }
            _ => Response::json("404 Not Found", &json!({})),
        }
    });
    (server, notes)
}

#[test]
fn comment_script_on_gitlab_updates_only_its_own_note_with_the_marker_first() {
    let (server, notes) = fake_gitlab(vec![
        (1, 9, "<!-- carbon-show -->\nsomeone else's"),
        (2, 5, "quoted: <!-- carbon-show -->"),
        (3, 5, "<!-- carbon-show -->\nmine"),
    ]);
    let plan = demo();
    let api = format!("{}/api/v4", server.url);
    let o = Command::new(python())
        .arg(root().join("scripts/ci/comment.py"))
        .args(["--platform", "gitlab", plan.to_str().unwrap()])
        .env("CARBON_SHOW_BIN", carbon_show_bin())
        .env("CI_API_V4_URL", &api)
        .env("CI_PROJECT_ID", "12")
        .env("CI_MERGE_REQUEST_IID", "5")
        .env("GITLAB_TOKEN", TOKEN)
        .env_remove("CARBON_SHOW_MAX_CHARS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("updated note 3 on !5"),
        "{}",
        stdout(&o)
    );
    let notes = notes.lock().unwrap().clone();
    assert_eq!(notes.len(), 3);
    assert_eq!(notes[0].2, "<!-- carbon-show -->\nsomeone else's");
    assert_eq!(notes[1].2, "quoted: <!-- carbon-show -->");
    assert!(notes[2].2.starts_with("<!-- carbon-show -->\n") && notes[2].2.contains("kgCO2eq"));
}

// ---- issue 24: a hostile pull request, end to end ----

/// The secrets a CI job holds while carbon-show runs.
const JOB_SECRETS: [(&str, &str); 3] = [
    ("AWS_SECRET_ACCESS_KEY", "aws-secret-0123456789abcdef"),
    ("TF_VAR_db_password", "tfvar-secret-hunter2"),
    ("GITHUB_ACTIONS_RUNTIME_TOKEN", "runtime-secret-token"),
];

/// A pull request's checkout: a repository with `.carbon-show.toml` and the files given.
fn pr_checkout(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let d = scratch(&format!("pr-{name}"));
    std::fs::create_dir_all(d.join(".git")).unwrap();
    for (path, text) in files {
        let p = d.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    d
}

/// comment.py run in `checkout` as the action runs it, with the job's secrets in its
/// environment; asserts no secret is in its output or any request the API received.
fn run_in_checkout(api: &FakeGitHub, checkout: &Path, plan: &Path) -> Output {
    let mut c = Command::new(python());
    c.current_dir(checkout)
        .arg(root().join("scripts/ci/comment.py"))
        .args(["--pr", "7"])
        .arg(plan)
        .env("CARBON_SHOW_BIN", carbon_show_bin())
        .env("GITHUB_API_URL", &api.url)
        .env("GITHUB_REPOSITORY", "acme/infra")
        .env("GITHUB_TOKEN", TOKEN)
        .env_remove("GITHUB_EVENT_PATH")
        .env_remove("GITHUB_OUTPUT")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITLAB_CI")
        .stdin(Stdio::null());
    for (k, _) in carbon_show::config::ENV_VARS {
        c.env_remove(k);
    }
    for (k, v) in JOB_SECRETS {
        c.env(k, v);
    }
    let o = c.output().expect("python3 runs comment.py");
    let seen: String = api
        .requests()
        .iter()
        .map(|r| {
            format!(
                "{} {} {}\n",
                r.method,
                r.path,
                String::from_utf8_lossy(&r.body)
            )
        })
        .collect();
    for (k, v) in JOB_SECRETS.iter().chain([("GITHUB_TOKEN", TOKEN)].iter()) {
        assert!(!stdout(&o).contains(v), "{k} in comment.py's stdout");
        assert!(!stderr(&o).contains(v), "{k} in comment.py's stderr");
        if *k != "GITHUB_TOKEN" {
            assert!(!seen.contains(v), "{k} sent to the API: {seen}");
        }
    }
    o
}

#[test]
fn a_hostile_pull_requests_mapping_folder_printed_the_jobs_environment_in_the_comment() {
    // the repository's own configuration loads its own mapping folder, whose filter reaches
    // jq's `env` through a spelling the old filter-text check missed
    let checkout = pr_checkout(
        "env",
        &[
            (".carbon-show.toml", "mappings = [\"ci/mappings\"]\n"),
            (
                "ci/mappings/aws/hostile.yaml",
                "compute_resource:\n  aws_instance:\n    paths: cbf::all_select(\"type\"; \"aws_instance\")\n    type: resource\n    properties:\n      machine_type:\n        - paths: '[][env:] | tostring'\n",
            ),
        ],
    );
    let api = FakeGitHub::start(vec![]);
    let plan = root().join("testdata/security/one-instance.json");
    let o = run_in_checkout(&api, &checkout, &plan);
    // the mapping does not compile: the job stops with carbon-show's exit 8, nothing posted
    assert_eq!(o.status.code(), Some(8), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is not available to a mapping"),
        "{}",
        stderr(&o)
    );
    assert!(
        api.requests().iter().all(|r| r.method == "GET"),
        "nothing is posted: {:?}",
        api.requests()
    );
    // and a configuration that reaches for the runner's files stops before any mapping runs
    std::fs::write(checkout.join(".carbon-show.toml"), "data = [\"/\"]\n").unwrap();
    let api = FakeGitHub::start(vec![]);
    let o = run_in_checkout(&api, &checkout, &plan);
    assert_eq!(o.status.code(), Some(10), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("outside the repository"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&checkout);
}

#[test]
fn a_hostile_plan_string_hijacked_another_comment_and_formed_links_and_mentions() {
    let hostile = "m5.large](https://evil.example/x) @acme/admins ![px](https://evil.example/p.png) \
                   <!-- carbon-show --> acme/infra#1 <https://evil.example> www.evil.example";
    let text = std::fs::read_to_string(root().join("testdata/security/one-instance.json"))
        .unwrap()
        .replace("t3.micro", &hostile.replace('"', "\\\""));
    let checkout = pr_checkout("plan", &[("plan.json", &text)]);
    // someone else's comment carries the marker as its first line
    let foreign = Comment {
        id: 1,
        login: "mallory".into(),
        body: "<!-- carbon-show -->\nplease merge".into(),
    };
    let api = FakeGitHub::start(vec![foreign]);
    let o = run_in_checkout(&api, &checkout, &checkout.join("plan.json"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bodies = api.bodies();
    assert_eq!(bodies[0], "<!-- carbon-show -->\nplease merge", "untouched");
    assert_eq!(bodies.len(), 2, "a comment of its own was created");
    let body = &bodies[1];
    assert!(body.starts_with("<!-- carbon-show -->\n"), "{body}");
    assert_eq!(body.matches("<!--").count(), 1, "one marker only: {body}");
    assert!(
        body.contains("m5.large"),
        "the machine type is quoted: {body}"
    );
    // rendered as GitHub does: no link, image or HTML, and no @, # or URL outside code
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let mut outside_code = String::new();
    let mut in_block = false;
    for ev in Parser::new_ext(body, Options::all()) {
        match ev {
            Event::Start(Tag::CodeBlock(_)) => in_block = true,
            Event::End(TagEnd::CodeBlock) => in_block = false,
            Event::Text(_) if in_block => {}
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. }) => {
                assert!(!dest_url.contains("evil"), "a link formed: {dest_url}")
            }
            Event::Text(t) => outside_code.push_str(&t),
            Event::Html(h) | Event::InlineHtml(h) => {
                assert!(!h.contains("evil"), "HTML from the plan: {h}")
            }
            _ => {}
        }
    }
    for needle in ["@acme", "evil.example", "acme/infra#1"] {
        assert!(
            !outside_code.contains(needle),
            "{needle} outside code: {outside_code}"
        );
    }
    let _ = std::fs::remove_dir_all(&checkout);
}

/// Issue 24 item 3: the action pins the gate whenever the workflow sets one (`pin-gate: auto`),
/// so a pull request's `.carbon-show.toml` cannot loosen it: the step's script, run as the
/// runner runs it, gives comment.py (and so carbon-show) `CARBON_SHOW_PIN_GATE=on`.
#[test]
fn the_action_left_the_gate_loose_for_a_repository_file() {
    let action = std::fs::read_to_string(root().join("action.yml")).unwrap();
    let parsed: Value = serde_saphyr::from_str(&action).expect("action.yml is YAML");
    let step = parsed["runs"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "run")
        .expect("the run step")
        .clone();
    let script = step["run"].as_str().unwrap();
    assert_eq!(parsed["inputs"]["pin-gate"]["default"], "auto");
    // the action's folder with a comment.py that records what it was given
    let d = scratch("pin-gate");
    std::fs::create_dir_all(d.join("scripts/ci")).unwrap();
    std::fs::write(
        d.join("scripts/ci/comment.py"),
        "import os\nprint('PIN=' + os.environ.get('CARBON_SHOW_PIN_GATE', 'unset'))\n",
    )
    .unwrap();
    for (pin, fail_over, each, expected) in [
        ("auto", "50kg/month", "", "PIN=on"),
        ("auto", "", "", "PIN=unset"),
        ("auto", "", "20kg/month", "PIN=on"),
        ("true", "", "", "PIN=on"),
        ("false", "50kg/month", "20kg/month", "PIN=unset"),
    ] {
        let o = Command::new("bash")
            .arg("-c")
            .arg(script)
            .env("GITHUB_ACTION_PATH", &d)
            .env("PIN_GATE", pin)
            .env("FAIL_OVER", fail_over)
            .env("FAIL_OVER_PER_PROJECT", each)
            .env("PLAN", "plan.json")
            .env("COMMENT", "true")
            .env("TAG", "")
            .env("ARGS", "")
            .env("COMMENTER", "")
            .env_remove("CARBON_SHOW_PIN_GATE")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            stdout(&o).trim(),
            expected,
            "pin-gate {pin}, fail-over {fail_over:?}, per project {each:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// The action's `plan` input names several plans and globs: the action's own shell expands
/// them (a match holding spaces or a newline stays one argument) and never runs the input's
/// text (`$(…)`, backticks, `;`), and comment.py posts one comment with a row per project.
#[test]
fn action_plan_input_expands_globs_into_one_comment_without_running_the_input() {
    let action: Value =
        serde_saphyr::from_str(&std::fs::read_to_string(root().join("action.yml")).unwrap())
            .unwrap();
    let steps = action["runs"]["steps"].as_array().unwrap();
    let step = steps
        .iter()
        .find(|s| s["id"] == "run")
        .expect("the action's run step");
    let script = step["run"].as_str().unwrap();
    let d = scratch("action-globs");
    let live = d.join("live");
    for dir in ["app", "db one", "odd\nname"] {
        std::fs::create_dir_all(live.join(dir)).unwrap();
    }
    let demo = std::fs::read(demo()).unwrap();
    std::fs::write(live.join("app/plan.json"), &demo).unwrap();
    std::fs::write(live.join("db one/plan.json"), &demo).unwrap();
    std::fs::write(live.join("odd\nname/plan.json"), &demo).unwrap();
    std::fs::write(d.join("extra.json"), &demo).unwrap();
    std::fs::write(d.join("step.sh"), script).unwrap();
    let event = d.join("event.json");
    std::fs::write(&event, r#"{"pull_request": {"number": 7}}"#).unwrap();
    let api = FakeGitHub::start(vec![]);
    let hostile =
        "live/**/plan.json\n extra.json  $(touch${IFS}pwned) `touch pwned2`;touch pwned3\n";
    // the action's run step with the plan input `plan`, against the fake GitHub
    let step = |plan: &str| {
        Command::new("bash")
            .arg("-eo")
            .arg("pipefail")
            .arg(d.join("step.sh"))
            .current_dir(&d)
            .env("GITHUB_ACTION_PATH", root())
            .env("CARBON_SHOW_BIN", carbon_show_bin())
            .env("GITHUB_API_URL", &api.url)
            .env("GITHUB_REPOSITORY", "acme/infra")
            .env("GITHUB_EVENT_PATH", &event)
            .env("GITHUB_TOKEN", TOKEN)
            .env("PLAN", plan)
            .env("FAIL_OVER", "")
            .env("FAIL_OVER_PER_PROJECT", "")
            .env("TAG", "")
            .env("ARGS", "")
            .env("COMMENT", "true")
            .env("COMMENTER", "")
            .env("PIN_GATE", "auto")
            .env_remove("GITHUB_OUTPUT")
            .env_remove("GITHUB_STEP_SUMMARY")
            .env_remove("GITLAB_CI")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let o = step(hostile);
    for f in ["pwned", "pwned2", "pwned3"] {
        assert!(!d.join(f).exists(), "the plan input's text ran: {f}");
    }
    // the words that match nothing are passed as written: carbon-show names the first, exit 4
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("$(touch${IFS}pwned)"), "{}", stderr(&o));
    assert!(api.bodies().is_empty(), "nothing posted");
    // the globs alone: one comment with a row per project
    let o = step("live/**/plan.json\n extra.json\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bodies = api.bodies();
    assert_eq!(bodies.len(), 1, "one comment");
    let body = &bodies[0];
    assert!(
        body.starts_with("<!-- carbon-show -->\n### ▲ These 4 projects add "),
        "{body:.400}"
    );
    for name in [
        "`live/app`",
        "`live/db one`",
        "`live/odd\\nname`",
        "`extra`",
    ] {
        assert!(
            body.contains(&format!("| {name} |")),
            "{name} in {body:.2000}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}
