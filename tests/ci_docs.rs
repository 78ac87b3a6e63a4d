//! The recipes for other CI systems (docs/ci/*.md): every snippet parses (`bash -n`, YAML,
//! Python), names only options that exist, every page is linked, and the Atlantis workflow's
//! `run` steps, run as Atlantis runs them, comment the annotated plan and keep the gate.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common::{run_in, stderr, stdout};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh folder under the temporary directory.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("carbon-show-cidocs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// One fenced code block of a Markdown page: its info string, text and first line number.
struct Block {
    lang: String,
    text: String,
    line: usize,
}

/// The fenced code blocks (```` ``` ```` fences at the start of a line) of `md`.
fn blocks(md: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, l) in md.lines().enumerate() {
        match open.take() {
            None => {
                if let Some(info) = l.strip_prefix("```") {
                    open = Some(Block {
                        lang: info.trim().to_string(),
                        text: String::new(),
                        line: i + 2,
                    });
                }
            }
            Some(mut b) => {
                if l == "```" {
                    out.push(b);
                } else {
                    b.text.push_str(l);
                    b.text.push('\n');
                    open = Some(b);
                }
            }
        }
    }
    assert!(open.is_none(), "a code fence left open");
    out
}

/// docs/ci/*.md, sorted.
fn pages() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("docs/ci"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    v.sort();
    v
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap().display().to_string()
}

/// The `--flags` given to `command` (a word ending in it, e.g. `carbon-show`, `/x/comment.py`)
/// in shell text: up to the end of the command (`|`, `;`, `&`, `>`, `)`, a line end; `\` line
/// continuations joined).
fn flags_after(text: &str, command: &str) -> Vec<String> {
    let joined = text.replace("\\\n", " ");
    let mut flags = Vec::new();
    for line in joined.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            let w = w.trim_matches(|c| c == '"' || c == '\'' || c == '(' || c == '`');
            if !(w == command || w.ends_with(&format!("/{command}"))) {
                continue;
            }
            for a in &words[i + 1..] {
                if a.starts_with(['|', ';', '&', '>', ')']) || a.starts_with("2>") {
                    break;
                }
                // a flag is `--` and a lowercase word (not `-->`, the end of an HTML comment)
                if let Some(f) = a
                    .strip_prefix("--")
                    .filter(|f| f.starts_with(|c: char| c.is_ascii_lowercase()))
                {
                    let f = f.split('=').next().unwrap().trim_matches('"');
                    flags.push(format!("--{f}"));
                }
            }
        }
    }
    flags
}

/// The shell commands of a CI file: the strings (or lists of strings, one script) under the
/// keys CI systems run with a shell.
fn shell_texts(v: &Value, out: &mut Vec<String>) {
    const KEYS: [&str; 7] = [
        "script",
        "bash",
        "run",
        "command",
        "before",
        "after",
        "before_script",
    ];
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::String(s) if KEYS.contains(&k.as_str()) => out.push(s.clone()),
                    Value::Array(a)
                        if KEYS.contains(&k.as_str()) && a.iter().all(Value::is_string) =>
                    {
                        let lines: Vec<&str> = a.iter().map(|l| l.as_str().unwrap()).collect();
                        out.push(lines.join("\n"));
                    }
                    _ => shell_texts(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| shell_texts(x, out)),
        _ => {}
    }
}

fn help_of(cmd: &mut Command) -> String {
    let o = cmd.stdin(Stdio::null()).output().expect("run --help");
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

fn has_flag(help: &str, flag: &str) -> bool {
    help.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .any(|w| w == flag)
}

#[test]
fn ci_docs_snippets_parse_and_use_only_options_that_exist() {
    let carbon_help = help_of(crate::common::bin().arg("--help"));
    let comment_help = help_of(
        Command::new("python3")
            .arg(root().join("scripts/ci/comment.py"))
            .arg("--help"),
    );
    let install_usage = std::fs::read_to_string(root().join("scripts/ci/install.sh")).unwrap();
    let dir = scratch("snippets");
    let file = dir.join("snippet");
    let bash_n = |at: &str, text: &str| {
        std::fs::write(&file, text).unwrap();
        let o = Command::new("bash").arg("-n").arg(&file).output().unwrap();
        assert!(o.status.success(), "{at}: bash -n: {}\n{text}", stderr(&o));
    };
    // (where, shell text) of every snippet: shell blocks, and the commands inside YAML blocks
    let mut shells: Vec<(String, String)> = Vec::new();
    let mut checked = 0;
    let mut yaml_files: Vec<(String, String)> = Vec::new();
    for page in pages() {
        let md = std::fs::read_to_string(&page).unwrap();
        for b in blocks(&md) {
            let at = format!("{}:{}", rel(&page), b.line);
            match b.lang.as_str() {
                "bash" | "sh" => shells.push((at, b.text)),
                "yaml" => yaml_files.push((at, b.text)),
                "python" => {
                    std::fs::write(&file, &b.text).unwrap();
                    let o = Command::new("python3")
                        .args(["-c", "import ast,sys; ast.parse(open(sys.argv[1]).read())"])
                        .arg(&file)
                        .output()
                        .unwrap();
                    assert!(o.status.success(), "{at}: python: {}", stderr(&o));
                    checked += 1;
                }
                _ => {}
            }
        }
    }
    let job = std::fs::read_to_string(root().join("docs/ci/gitlab-ci.yml")).unwrap();
    yaml_files.push(("docs/ci/gitlab-ci.yml".to_string(), job));
    for (at, text) in yaml_files {
        let v: Value = match serde_saphyr::from_str(&text) {
            Ok(v) => v,
            Err(e) => panic!("{at}: not YAML: {e}"),
        };
        let mut cmds = Vec::new();
        shell_texts(&v, &mut cmds);
        shells.extend(cmds.into_iter().map(|c| (at.clone(), c)));
        checked += 1;
    }
    for (at, text) in &shells {
        bash_n(at, text);
        for f in flags_after(text, "carbon-show")
            .into_iter()
            .chain(flags_after(text, "$CARBON_SHOW_BIN"))
        {
            assert!(has_flag(&carbon_help, &f), "{at}: carbon-show has no {f}");
        }
        for f in flags_after(text, "comment.py") {
            assert!(has_flag(&comment_help, &f), "{at}: comment.py has no {f}");
        }
        for f in flags_after(text, "install.sh") {
            assert!(has_flag(&install_usage, &f), "{at}: install.sh has no {f}");
        }
        checked += 1;
    }
    // every page's recipe runs carbon-show with the pinned gate
    for page in pages() {
        let md = std::fs::read_to_string(&page).unwrap();
        if page.ends_with("gitlab.md") {
            continue; // the job's CARBON_SHOW_PIN_GATE: gitlab_job_pins_the_gate_…
        }
        assert!(
            md.contains("--pin-gate --fail-over"),
            "{}: no pinned gate",
            rel(&page)
        );
    }
    assert!(checked >= 10, "only {checked} snippets found");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ci_docs_flag_check_catches_a_flag_that_does_not_exist() {
    let text = "tofu show -json p | carbon-show --colour never --fail-over=1kg -\nm = \"<!-- carbon-show -->\"\n";
    assert_eq!(
        flags_after(text, "carbon-show"),
        ["--colour", "--fail-over"]
    );
    let help = help_of(crate::common::bin().arg("--help"));
    assert!(!has_flag(&help, "--colour") && has_flag(&help, "--fail-over"));
}

#[test]
fn every_ci_page_is_linked_from_docs_ci_md_and_the_readme() {
    let ci = std::fs::read_to_string(root().join("docs/ci.md")).unwrap();
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let all = pages();
    assert!(all.len() >= 7, "{all:?}");
    for p in all {
        let name = p.file_name().unwrap().to_str().unwrap();
        assert!(
            ci.contains(&format!("(ci/{name})")),
            "docs/ci.md does not link {name}"
        );
        assert!(
            readme.contains(&format!("docs/ci/{name}")),
            "README does not list {name}"
        );
    }
}

/// The `run` steps of the Atlantis page's `carbon` workflow: (command, shown in the comment).
fn atlantis_steps() -> Vec<(String, bool)> {
    let md = std::fs::read_to_string(root().join("docs/ci/atlantis.md")).unwrap();
    let repos = blocks(&md)
        .into_iter()
        .find(|b| b.lang == "yaml" && b.text.contains("workflows:"))
        .expect("the repos.yaml block");
    let v: Value = serde_saphyr::from_str(&repos.text).unwrap();
    assert_eq!(v["repos"][0]["workflow"], "carbon");
    let steps = v["workflows"]["carbon"]["plan"]["steps"]
        .as_array()
        .unwrap();
    steps
        .iter()
        .filter_map(|s| match &s["run"] {
            Value::String(c) => Some((c.clone(), true)),
            Value::Object(m) => Some((
                m["command"].as_str().unwrap().to_string(),
                m.get("output").and_then(Value::as_str) != Some("hide"),
            )),
            _ => None, // a built-in step (init)
        })
        .collect()
}

/// Runs the steps as Atlantis's RunStepRunner does (`sh -c` in the project folder, the server's
/// environment plus PLANFILE/SHOWFILE), stopping at the first failure: the comment's text (the
/// shown steps' output joined) and the last exit code.
fn run_atlantis(project: &Path, bin: &Path, fixture: &Path) -> (String, i32) {
    let mut shown = Vec::new();
    for (cmd, show) in atlantis_steps() {
        let o = Command::new("sh")
            .arg("-c")
            .arg(&cmd)
            .current_dir(project)
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .env("PLANFILE", project.join("default.tfplan"))
            .env("SHOWFILE", project.join("default.json"))
            .env("FIXTURE_PLAN", fixture)
            .env("ATLANTIS_GH_TOKEN", "ghp_server_token_secret")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let code = o.status.code().unwrap_or(-1);
        if show {
            shown.push(format!("{}{}", stdout(&o), stderr(&o)));
        }
        if code != 0 {
            return (shown.join("\n"), code);
        }
    }
    (shown.join("\n"), 0)
}

fn executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn atlantis_workflow_shows_the_annotated_plan_and_keeps_the_gate() {
    let d = scratch("atlantis");
    let bin = d.join("bin");
    let project = d.join("project");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    // a stand-in terraform: `plan -out FILE` writes the plan file, `show -json FILE` prints
    // the fixture plan when FILE is there
    std::fs::write(
        bin.join("terraform"),
        "#!/bin/sh\ncase \"$1\" in\n  plan) : > \"$PLANFILE\" ;;\n  show) [ \"$2\" = -json ] && [ -f \"$3\" ] && cat \"$FIXTURE_PLAN\" ;;\n  *) exit 1 ;;\nesac\n",
    )
    .unwrap();
    let real = PathBuf::from(env!("CARGO_BIN_EXE_carbon-show"));
    std::os::unix::fs::symlink(&real, bin.join("carbon-show")).unwrap();
    executable(&bin.join("terraform"));

    // within the budget: the comment is carbon-show's text rendering of the plan, exit 0
    let demo = root().join("testdata/demo/plan.json");
    let (comment, code) = run_atlantis(&project, &bin, &demo);
    assert_eq!(code, 0, "{comment}");
    let direct = run_in(
        &project,
        &[
            "--color",
            "never",
            "--pin-gate",
            "--fail-over",
            "50kg/month",
            demo.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(comment, stdout(&direct));
    assert!(comment.contains("# aws_instance.web will be updated in-place"));
    assert!(comment.contains("kgCO2eq/month"), "{comment}");
    assert!(
        !comment.contains("```"),
        "a fence would end Atlantis's diff block"
    );

    // over the budget (this plan adds about 54 kg/month): exit 3 stops the plan, the output is
    // still in the comment
    let big = root().join("testdata/plans/infracost/example_plan.json");
    let (comment, code) = run_atlantis(&project, &bin, &big);
    assert_eq!(code, 3, "{comment}");
    assert!(comment.contains("kgCO2eq/month"), "{comment}");

    // a pull request's .carbon-show.toml cannot loosen the pinned gate: exit 10, one line
    std::fs::write(
        project.join(".carbon-show.toml"),
        "fail-over = \"1t/month\"\n",
    )
    .unwrap();
    let (comment, code) = run_atlantis(&project, &bin, &big);
    assert_eq!(code, 10, "{comment}");
    assert!(
        comment.contains(".carbon-show.toml:1: fail-over cannot come from a configuration file"),
        "{comment}"
    );
    std::fs::remove_file(project.join(".carbon-show.toml")).unwrap();

    // the server's token does not reach carbon-show: a stand-in that prints its environment
    std::fs::remove_file(bin.join("carbon-show")).unwrap();
    std::fs::write(bin.join("carbon-show"), "#!/bin/sh\nenv\n").unwrap();
    executable(&bin.join("carbon-show"));
    let (env, code) = run_atlantis(&project, &bin, &demo);
    assert_eq!(code, 0, "{env}");
    assert!(env.contains("PATH="), "{env}");
    assert!(!env.contains("ghp_server_token_secret"), "{env}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn gitlab_job_pins_the_gate_and_the_page_pipeline_includes_it() {
    let job: Value = serde_saphyr::from_str(
        &std::fs::read_to_string(root().join("docs/ci/gitlab-ci.yml")).unwrap(),
    )
    .unwrap();
    let job = &job["carbon-show"];
    assert_eq!(job["variables"]["CARBON_SHOW_PIN_GATE"], "on");
    assert!(job["variables"]["CARBON_SHOW_FAIL_OVER"].is_string());
    let script = job["script"].to_string();
    assert!(
        script.contains("--args \\\"$CARBON_SHOW_ARGS\\\""),
        "{script}"
    );
    // the page's pipeline includes that file at a tag and overrides only variables
    let md = std::fs::read_to_string(root().join("docs/ci/gitlab.md")).unwrap();
    let pipeline = blocks(&md)
        .into_iter()
        .find(|b| b.lang == "yaml" && b.text.contains("include:"))
        .expect("the pipeline block");
    let v: Value = serde_saphyr::from_str(&pipeline.text).unwrap();
    let remote = v["include"][0]["remote"].as_str().unwrap();
    assert!(
        remote.ends_with("/v0.1.0/docs/ci/gitlab-ci.yml"),
        "{remote}"
    );
    let overridden: Vec<&String> = v["carbon-show"].as_object().unwrap().keys().collect();
    assert_eq!(overridden, ["variables"]);
    assert!(
        v["plan"]["script"]
            .to_string()
            .contains("show -json plan.tfplan > plan.json")
    );
}
