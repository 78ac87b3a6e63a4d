//! Many roots, one review: several inputs (`FILE`, `NAME=FILE`, `-`) and streams of
//! concatenated documents, each a project, rendered under its name with one summary, one
//! JSON document, one comment; `--fail-over` on the total and `--fail-over-per-project` on
//! each; every project's figures are those of its plan alone.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use serde_json::Value;

use crate::common::*;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The binary in the repository's root, with `stdin` fed and no `CARBON_SHOW_*` variable.
fn show(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut c = bin();
    c.current_dir(root())
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, _) in carbon_show::config::ENV_VARS {
        c.env_remove(k);
    }
    let mut child = c.spawn().expect("spawn carbon-show");
    let mut pipe = child.stdin.take().expect("stdin");
    let bytes = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&bytes);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    out
}

fn ok(args: &[&str], stdin: &[u8]) -> String {
    let o = show(args, stdin);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

const CREATE: &str = "testdata/carbon/create.json";
const CHANGES: &str = "testdata/carbon/changes.json";
const MIXED: &str = "testdata/carbon/mixed.json";

fn json(args: &[&str], stdin: &[u8]) -> Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    serde_json::from_str(&ok(&all, stdin)).expect("JSON")
}

fn delta(doc: &Value) -> f64 {
    doc["totals"]["delta_per_hour"]["total_gco2eq"]
        .as_f64()
        .unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// A temporary folder of this test process.
fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "carbon-show-projects-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The plan's own text of a single run: everything before its summary.
fn plan_part(human: &str) -> &str {
    let at = human.rfind("\nCarbon ≈ ").expect("a summary");
    &human[..at]
}

#[test]
fn projects_two_files_are_rendered_under_their_names_with_one_summary() {
    let one = ok(&["--color", "never", CREATE], b"");
    let two = ok(&["--color", "never", CHANGES], b"");
    let both = ok(&["--color", "never", CREATE, CHANGES], b"");
    // each plan as it renders alone, under a header naming its project
    let first = format!("── project testdata/carbon/create ──\n{}", plan_part(&one));
    let second = format!("── project testdata/carbon/changes ──\n{}", plan_part(&two));
    assert!(both.starts_with(&first), "{both}");
    let at = both
        .find(&second)
        .expect("the second project under its header");
    assert!(at > first.len(), "{both}");
    // one summary, after both plans, with a row per project
    assert_eq!(both.matches("\nCarbon").count(), 1, "{both}");
    let summary = &both[both.find("\nCarbon of 2 projects ≈ ").expect(&both)..];
    assert!(summary.contains("  testdata/carbon/create  ("), "{summary}");
    assert!(
        summary.contains("  testdata/carbon/changes  ("),
        "{summary}"
    );
    // the total is the sum of the two plans'
    let (a, b) = (json(&[CREATE], b""), json(&[CHANGES], b""));
    let total = json(&[CREATE, CHANGES], b"");
    assert!(close(delta(&total), delta(&a) + delta(&b)));
    let month = (delta(&a) + delta(&b)) * 730.0;
    let words = format!("{}", carbon_show::estimate::Mass(month.abs()));
    assert!(summary.contains(&words), "{words} not in {summary}");
}

#[test]
fn projects_json_holds_each_plans_own_report_and_the_total() {
    let total = json(&[CREATE, "db=testdata/carbon/changes.json", MIXED], b"");
    assert_eq!(total["schema_version"], "1.5");
    let projects = total["projects"].as_array().unwrap();
    let names: Vec<&str> = projects
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["testdata/carbon/create", "db", "testdata/carbon/mixed"]
    );
    assert_eq!(projects[1]["input"], "testdata/carbon/changes.json");
    let mut sum = 0.0;
    let mut estimated = 0;
    for (p, file) in projects.iter().zip([CREATE, CHANGES, MIXED]) {
        // a project is its plan's single report, plus its name, input and what it adds and removes
        let alone = json(&[file], b"");
        let mut p = p.clone();
        let o = p.as_object_mut().unwrap();
        for k in [
            "name",
            "input",
            "added_per_hour_gco2eq",
            "removed_per_hour_gco2eq",
        ] {
            assert!(o.remove(k).is_some(), "{k}");
        }
        assert_eq!(p, alone, "{file}");
        sum += delta(&alone);
        estimated += alone["counts"]["estimated"].as_u64().unwrap();
    }
    assert!(close(delta(&total), sum), "{} vs {sum}", delta(&total));
    assert_eq!(total["counts"]["estimated"].as_u64().unwrap(), estimated);
    assert!(close(
        total["headline"]["delta_gco2eq"].as_f64().unwrap(),
        sum * 730.0
    ));
    // added − removed is the net
    let net = total["added_per_hour_gco2eq"].as_f64().unwrap()
        + total["removed_per_hour_gco2eq"].as_f64().unwrap();
    assert!(close(net, sum), "{net} vs {sum}");
}

/// One input keeps today's output byte for byte, named or not, in every format.
#[test]
fn projects_a_single_named_input_is_todays_output() {
    for format in ["human", "json", "markdown", "impact-framework"] {
        let plain = ok(&["--color", "never", "--format", format, CREATE], b"");
        let named = ok(
            &[
                "--color",
                "never",
                "--format",
                format,
                "app=testdata/carbon/create.json",
            ],
            b"",
        );
        assert_eq!(plain, named, "{format}");
        assert!(!plain.contains("projects"), "{format}");
    }
}

fn stream_of(files: &[&str]) -> Vec<u8> {
    let mut s = Vec::new();
    for f in files {
        // `terragrunt run-all show -json` prints each root's document on a line of its own
        let doc: Value = serde_json::from_slice(&std::fs::read(root().join(f)).unwrap()).unwrap();
        s.extend(serde_json::to_vec(&doc).unwrap());
        s.push(b'\n');
    }
    s
}

#[test]
fn projects_a_stream_on_stdin_or_in_a_file_is_one_project_per_document() {
    let stream = stream_of(&[CREATE, CHANGES]);
    let files = json(&[CREATE, CHANGES], b"");
    let stdin = json(&[], &stream);
    let names: Vec<&str> = (stdin["projects"].as_array().unwrap().iter())
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["stdin#1", "stdin#2"]);
    assert_eq!(stdin["projects"][1]["input"], "-#2");
    assert!(close(delta(&stdin), delta(&files)));
    let dir = temp("stream");
    let file = dir.join("all.json");
    std::fs::write(&file, &stream).unwrap();
    let f = file.to_str().unwrap();
    let named = json(&[&format!("stack={f}")], b"");
    assert_eq!(named["projects"][0]["name"], "stack#1");
    assert_eq!(named["projects"][1]["name"], "stack#2");
    assert!(close(delta(&named), delta(&files)));
    // human and Markdown too
    let human = ok(&["--color", "never", f], b"");
    let base = f.strip_suffix(".json").unwrap();
    assert!(
        human.contains(&format!("── project {base}#2 ──")),
        "{human}"
    );
    let md = ok(&["--format", "markdown", "-"], &stream);
    assert!(md.contains("<code>stdin#1</code>"), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn projects_a_piece_of_a_stream_that_is_not_json_is_named_with_its_offset() {
    let mut stream = stream_of(&[CREATE]);
    let offset = stream.len();
    stream.extend(b"OpenTofu will perform the following actions:\n");
    stream.extend(stream_of(&[CHANGES]));
    let o = show(&[], &stream);
    assert_one_line_error(&o, 5, "<stdin>#2: invalid JSON at line 2, column 1");
    assert!(
        stderr(&o).contains(&format!("from byte offset {offset}")),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("perform"), "the input is never quoted");
    // a document followed by a setup action's log lines keeps its hint
    let mut logged = stream_of(&[CREATE]);
    logged.extend(b"::debug::exitcode: 0\n");
    let o = show(&[], &logged);
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    assert!(stderr(&o).contains("log lines"), "{}", stderr(&o));
}

#[test]
fn projects_two_inputs_of_one_name_are_refused() {
    let dir = temp("dupes");
    for sub in ["a", "b"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::copy(root().join(CREATE), dir.join(sub).join("plan.json")).unwrap();
    }
    let o = run_in(&dir, &["a/plan.json", "b/plan.json", "a=b/plan.json"], &[]);
    assert_one_line_error(
        &o,
        2,
        "two inputs are both named project `a` (a/plan.json and b/plan.json)",
    );
    let o = run_in(&dir, &["x=a/plan.json", "x=b/plan.json"], &[]);
    assert_one_line_error(&o, 2, "named project `x`");
    // names them apart, it runs
    let o = run_in(
        &dir,
        &["--format", "json", "a/plan.json", "b=b/plan.json"],
        &[],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn projects_an_input_named_like_a_subcommand_is_refused_naming_it() {
    let o = show(&[CREATE, "config"], b"");
    assert_one_line_error(
        &o,
        2,
        "input 2 `config` is a subcommand's name and no such file",
    );
    let o = show(&["-", "-"], b"");
    assert_one_line_error(&o, 2, "standard input (`-`) is given more than once");
    let o = show(&["=x.json"], b"");
    assert_one_line_error(&o, 2, "NAME=FILE needs a name and a file");
    // subcommands still work
    let o = show(&["config"], b"");
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn projects_fail_over_applies_to_the_total_and_per_project_to_each() {
    let (a, b) = (json(&[CREATE], b""), json(&[MIXED], b""));
    let (da, db) = (delta(&a), delta(&b));
    assert!(da > 0.0 && db > 0.0 && da != db, "{da} {db}");
    let (big, small) = if da > db {
        ("create", "mixed")
    } else {
        ("mixed", "create")
    };
    // per hour: between the two projects, and above the total
    let between = format!("{}g/h", (da + db) / 2.0);
    let above = format!("{}g/h", (da + db) * 1.01);
    let below = format!("{}g/h", (da + db) * 0.99);
    let run = |extra: &[&str]| {
        let mut args = vec![CREATE, MIXED];
        args.extend_from_slice(extra);
        show(&args, b"")
    };
    // the total within --fail-over: 0, and the summary says the budget is not the default
    let o = run(&["--fail-over", &above, "--color", "never"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let summary = &out[out.find("\nCarbon of 2 projects").expect(&out)..];
    assert!(
        summary.contains("\n  not the defaults: fail-over ")
            && summary.contains("g/h (--fail-over)\n"),
        "{summary}"
    );
    assert!(
        summary.contains("\n  within the --fail-over budget of "),
        "{summary}"
    );
    // the total over it: 3, saying the total
    let o = run(&["--fail-over", &below]);
    assert_one_line_error(&o, 3, "the projects together add");
    // each within the total's budget, one over the budget of each: 3, naming that one only
    let o = run(&["--fail-over", &above, "--fail-over-per-project", &between]);
    assert_one_line_error(&o, 3, &format!("testdata/carbon/{big} adds"));
    assert!(!stderr(&o).contains(small), "{}", stderr(&o));
    // the JSON and the comment say which
    let o = run(&["--fail-over-per-project", &between, "--format", "json"]);
    assert_eq!(o.status.code(), Some(3));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v["fail_over_per_project"]["over"],
        serde_json::json!([format!("testdata/carbon/{big}")])
    );
    assert_eq!(v["fail_over_per_project"]["exceeded"], true);
    assert!(v.get("fail_over").is_none());
    let i = usize::from(big == "mixed");
    assert_eq!(v["projects"][i]["fail_over"]["exceeded"], true);
    assert_eq!(v["projects"][1 - i]["fail_over"]["exceeded"], false);
    let o = run(&["--fail-over-per-project", &between, "--format", "markdown"]);
    assert_eq!(o.status.code(), Some(3));
    let md = stdout(&o);
    assert!(
        md.contains(&format!(
            "**⛔ Over the `--fail-over-per-project` budget** of {}",
            carbon_show::estimate::Mass((da + db) / 2.0)
        )),
        "{md}"
    );
    let line = md
        .lines()
        .find(|l| l.contains("Over the `--fail-over-per-project`"))
        .unwrap();
    assert!(line.contains(&format!("`testdata/carbon/{big}`")), "{line}");
    assert!(!line.contains(small), "{line}");
    // a variable sets it like the flag
    let o = run_in(
        root(),
        &[CREATE, MIXED],
        &[("CARBON_SHOW_FAIL_OVER_PER_PROJECT", &between)],
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
}

#[test]
fn projects_markdown_is_one_comment_with_a_row_per_project() {
    let md = ok(
        &[
            "--format",
            "markdown",
            CREATE,
            "db=testdata/carbon/mixed.json",
        ],
        b"",
    );
    assert!(
        md.starts_with("<!-- carbon-show -->\n### ▲ These 2 projects add "),
        "{md:.300}"
    );
    assert_eq!(
        md.matches("<!--").count(),
        1,
        "one marker, no other HTML comment"
    );
    let html = crate::summary::gfm(&md);
    assert!(html.contains("Project</th>"), "{html:.2000}");
    assert!(html.contains("><code>db</code></td>"), "{html:.2000}");
    assert!(
        html.contains("><strong>Total</strong></td>"),
        "{html:.2000}"
    );
    // each project's own comment, folded, its heading a level down
    assert_eq!(md.matches("<details><summary><code>").count(), 2, "{md}");
    assert_eq!(md.matches("\n#### ▲ This plan adds ").count(), 2, "{md}");
    assert_eq!(
        md.matches("<details>").count(),
        md.matches("</details>").count()
    );
}

/// Three projects of 1,000 resources each: the comment fits `--max-chars` whatever the count,
/// and every project keeps its headline (the budget is shared, not spent on the first).
#[test]
fn projects_three_large_projects_fit_max_chars_with_a_fair_share_each() {
    let dir = temp("large");
    let mut args = vec!["--format".to_string(), "markdown".to_string()];
    args.extend(three_large(&dir));
    for max in [65_536usize, 20_000, 6_000] {
        let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
        let m = max.to_string();
        a.extend(["--max-chars", &m]);
        let md = ok(&a, b"");
        let len = md.chars().count();
        assert!(len <= max, "{len} characters over {max}");
        assert!(len > max * 8 / 10, "the budget is used: {len} of {max}");
        assert_eq!(
            md.matches("<details>").count(),
            md.matches("</details>").count(),
            "{max}"
        );
        let fences = md.lines().filter(|l| l.starts_with("```")).count();
        assert_eq!(fences % 2, 0, "a code fence left open at {max}");
        // the top-level sections come first in the budget: the footer, once, above the folds
        let fold = md.find("<details>").expect("a fold");
        assert!(md[..fold].contains("<sub>carbon-show "), "{max}");
        assert_eq!(md.matches("<sub>carbon-show ").count(), 1, "{max}");
        for name in ["one", "two", "three"] {
            let open = format!("<details><summary><code>{name}</code>");
            let at = md
                .find(&open)
                .unwrap_or_else(|| panic!("{name} at {max}: {md:.3000}"));
            assert!(
                md[at..].contains("#### ▲ This plan adds "),
                "{name} at {max}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Impact Framework manifest has one child node per project under its root.
#[test]
fn projects_impact_manifest_has_a_node_per_project() {
    let y = ok(
        &[
            "--format",
            "impact-framework",
            "app=testdata/carbon/create.json",
            MIXED,
        ],
        b"",
    );
    let v: Value = serde_saphyr::from_str(&y).expect("YAML");
    let children = v["tree"]["children"].as_object().expect("children");
    let keys: Vec<&String> = children.keys().collect();
    assert_eq!(keys, ["app", "testdata/carbon/mixed"], "{y:.1000}");
    assert_eq!(v["name"], "carbon-show 2 projects");
    assert_eq!(children["app"]["description"], "project app");
    assert!(
        children["app"]["children"]["aws_instance.web"].is_object(),
        "{y:.2000}"
    );
}

/// `--no-carbon`: the plans under their headers, nothing else.
#[test]
fn projects_without_carbon_are_the_plans_under_their_headers() {
    let one = ok(&["--no-carbon", CREATE], b"");
    let both = ok(
        &[
            "--no-carbon",
            "a=testdata/carbon/create.json",
            "b=testdata/carbon/create.json",
        ],
        b"",
    );
    assert_eq!(
        both,
        format!("── project a ──\n{one}\n── project b ──\n{one}")
    );
    // a project's name is escaped on the terminal
    let o = show(
        &[
            "--no-carbon",
            "a\u{1b}[2J=testdata/carbon/create.json",
            CHANGES,
        ],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("── project a\\x1b[2J ──\n"),
        "{}",
        stdout(&o)
    );
}

/// `.venv-tf`'s Python (`bash scripts/terraform/install.sh`), when it is there.
fn venv_python() -> Option<PathBuf> {
    let p = root().join(".venv-tf/bin/python");
    if p.is_file() {
        return Some(p);
    }
    loud(
        "\n!! .venv-tf is missing: the Terragrunt example's roots were NOT planned again by \
         Terraform (bash scripts/terraform/install.sh); the committed stream was checked\n",
    );
    if std::env::var("CARBON_SHOW_REQUIRE_TF").as_deref() == Ok("1") {
        panic!("CARBON_SHOW_REQUIRE_TF=1 but .venv-tf is missing");
    }
    None
}

/// The worked example of examples/terragrunt/: two roots planned by real Terraform, their
/// `show -json` documents concatenated as `terragrunt run-all show -json` prints them.
#[test]
fn projects_terragrunt_run_all_stream_is_two_projects_and_their_total() {
    let stream = "examples/terragrunt/run-all.json";
    let v = json(&[stream], b"");
    let projects = v["projects"].as_array().unwrap();
    let names: Vec<&str> = projects
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "examples/terragrunt/run-all#1",
            "examples/terragrunt/run-all#2"
        ]
    );
    // the AWS root, then the Google one, each with its one instance estimated
    let types: Vec<&str> = (projects.iter())
        .map(|p| p["resources"][0]["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["aws_instance", "google_compute_instance"]);
    for p in projects {
        assert_eq!(p["counts"]["estimated"], 1, "{}", p["name"]);
        assert!(delta(p) > 0.0, "{}", p["name"]);
    }
    assert!(close(delta(&v), delta(&projects[0]) + delta(&projects[1])));
    // and each is the root's own plan: the documents given one by one say the same
    let text = std::fs::read_to_string(root().join(stream)).unwrap();
    let docs: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(docs.len(), 2);
    for (doc, p) in docs.iter().zip(projects) {
        assert!(close(delta(&json(&[], doc.as_bytes())), delta(p)));
    }
    let human = ok(&["--color", "never", stream], b"");
    assert!(
        human.contains("── project examples/terragrunt/run-all#2 ──\n"),
        "{human}"
    );
    assert!(human.contains("\nCarbon of 2 projects ≈ +"), "{human}");
    // planned again by Terraform: the same figures
    let Some(python) = venv_python() else { return };
    let dir = temp("terragrunt");
    let again = dir.join("run-all.json");
    let o = std::process::Command::new(python)
        .arg(root().join("examples/terragrunt/make_stream.py"))
        .arg(&again)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let w = json(&[again.to_str().unwrap()], b"");
    assert!(
        close(delta(&w), delta(&v)),
        "{} vs {}",
        delta(&w),
        delta(&v)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `carbon-show a.json b.json` was refused: clap took the second file for a subcommand
/// ("the subcommand 'b.json' cannot be used").
#[test]
fn a_second_plan_file_was_taken_for_a_subcommand() {
    let o = show(&["--color", "never", CREATE, MIXED], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("subcommand"), "{}", stderr(&o));
    assert!(stdout(&o).contains("── project testdata/carbon/mixed ──"));
}

/// `cat a.json b.json | carbon-show` (what `terragrunt run-all show -json` prints) failed as
/// "trailing characters".
#[test]
fn a_stream_of_two_plans_failed_as_trailing_characters() {
    let o = show(&["--color", "never"], &stream_of(&[CREATE, MIXED]));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("── project stdin#2 ──"));
}

/// A three-project comment, `extra` flags first.
fn three_projects(extra: &[&str]) -> String {
    let mut args = vec!["--format", "markdown"];
    args.extend_from_slice(extra);
    args.extend([
        "web=testdata/demo/plan.json",
        "db=testdata/demo/plan.json",
        "st=testdata/carbon/state.json",
    ]);
    ok(&args, b"")
}

/// The folds of a multi-project comment's projects (`names`, in order), each up to the next.
fn folds<'m>(md: &'m str, names: &[&str]) -> Vec<&'m str> {
    let at: Vec<usize> = (names.iter())
        .map(|n| {
            let open = format!("<details><summary><code>{n}</code>: ");
            md.find(&open).unwrap_or_else(|| panic!("{open} in {md}"))
        })
        .chain([md.len()])
        .collect();
    at.windows(2).map(|w| &md[w[0]..w[1]]).collect()
}

/// The reviewer's essentials were only inside each project's fold: now the greener savings
/// over every project (with a project column) and one footer sit before the first fold, as
/// GitHub renders them; no fold repeats the footer.
#[test]
fn projects_greener_and_footer_were_only_inside_each_fold() {
    let md = three_projects(&["--comment-tag", "prod"]);
    let fold = md.find("<details>").expect("a fold");
    let above = &md[..fold];
    assert_eq!(md.matches("<sub>carbon-show ").count(), 1, "{md}");
    assert!(above.contains("<sub>carbon-show "), "{above}");
    assert!(above.contains("comment tag `prod`"), "{above}");
    assert!(
        above.contains("**Could be greener** across the projects"),
        "{above}"
    );
    for f in folds(&md, &["web", "db", "st"]) {
        assert!(!f.contains("<sub>carbon-show"), "a footer in {f:.200}");
    }
    // the top 5 over all projects: a project column, the largest first, the table's unit
    let rows: Vec<&str> = (above.lines())
        .skip_while(|l| !l.starts_with("| project | resource | greener choice | change |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(rows.len(), 5, "{above}");
    assert!(rows[0].starts_with("| `web` | "), "{}", rows[0]);
    assert!(rows[1].starts_with("| `db` | "), "{}", rows[1]);
    let saving = |r: &str| -> f64 { r.split(" | ").nth(3).unwrap().parse().unwrap() };
    assert!(
        rows.windows(2).all(|w| saving(w[0]) <= saving(w[1])),
        "{rows:?}"
    );
    // in the unit of the table of projects, said under each table
    assert_eq!(
        above.matches("\n*In kgCO2eq per month.*\n").count(),
        2,
        "{above}"
    );
    // as GitHub renders it
    let Some(py) = crate::markdown::cmarkgfm() else {
        return;
    };
    let html = crate::markdown::gfm(&py, &md);
    let first = html.find("<details>").expect("a fold");
    for needle in [
        "<th>project</th>",
        "<strong>Could be greener</strong> across the projects",
        "<sub>carbon-show ",
    ] {
        let at = html
            .find(needle)
            .unwrap_or_else(|| panic!("{needle} in {html}"));
        assert!(at < first, "{needle} after the first fold");
        assert_eq!(html.matches(needle).count(), 1, "{needle}");
    }
    for t in html.split("<table>").skip(1) {
        let t = &t[..t.find("</table>").unwrap()];
        let mut rows = t.split("<tr>").skip(1);
        let head = rows.next().unwrap().matches("<th").count();
        for r in rows {
            assert_eq!(r.matches("<td").count(), head, "{r}");
        }
    }
}

/// The range and sources paragraph was repeated in every fold: said once above the folds when
/// it is every project's, kept in each fold when the projects' differ.
#[test]
fn projects_the_sources_paragraph_was_repeated_in_every_fold() {
    let md = three_projects(&[]);
    assert_eq!(md.matches("Sources: [").count(), 1, "{md}");
    assert!(md.find("Sources: [").unwrap() < md.find("<details>").unwrap());
    // moved.json's sources are not create.json's
    let md = ok(
        &[
            "--format",
            "markdown",
            "a=testdata/carbon/create.json",
            "b=testdata/carbon/moved.json",
        ],
        b"",
    );
    assert!(
        !md[..md.find("<details>").unwrap()].contains("Sources: ["),
        "{md}"
    );
    for f in folds(&md, &["a", "b"]) {
        assert_eq!(f.matches("Sources: [").count(), 1, "{f}");
    }
}

/// At the smallest `--max-chars`, the savings above the folds filled the budget and the last
/// guard cut the footer: now the savings give way row by row, and the footer stays.
#[test]
fn projects_a_small_max_chars_cut_the_footer_above_the_folds() {
    let dir = temp("small");
    let mut args = vec!["--format", "markdown", "--max-chars", "2000"];
    let files = three_large(&dir);
    args.extend(files.iter().map(String::as_str));
    let md = ok(&args, b"");
    assert!(md.chars().count() <= 2000, "{md}");
    let fold = md.find("<details>").expect("a fold");
    assert!(md[..fold].contains("<sub>carbon-show "), "{md}");
    assert!(
        md[..fold].contains("**Could be greener** across the projects"),
        "{md}"
    );
    assert_eq!(
        md.matches("<details>").count(),
        md.matches("</details>").count()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A project's folded comment said "left out to stay within 6123 characters (`--max-chars`)"
/// when the run was given `--max-chars 20000`: its notes named its share as if it were the
/// flag's value. They now say it is the project's share of the flag's.
#[test]
fn projects_a_folds_note_named_its_share_as_the_max_chars_given() {
    let dir = temp("share-note");
    let mut args = vec!["--format".to_string(), "markdown".to_string()];
    args.extend(three_large(&dir));
    args.extend(["--max-chars".into(), "20000".into()]);
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let md = ok(&a, b"");
    let notes: Vec<&str> = md
        .lines()
        .filter(|l| l.contains("to stay within"))
        .collect();
    assert!(!notes.is_empty(), "nothing was cut at 20000: {md:.2000}");
    let fold = md.find("<details>").expect("a fold");
    for n in &notes {
        let at = md.find(n).unwrap();
        if at > fold {
            assert!(
                n.contains("this project's share, ")
                    && n.contains(" of the comment's 20000 characters (`--max-chars`)"),
                "{n}"
            );
        } else {
            assert!(n.contains("within 20000 characters (`--max-chars`)"), "{n}");
        }
    }
    // one plan's comment keeps naming the flag's value
    let one = ok(
        &[
            "--format",
            "markdown",
            "--max-chars",
            "3000",
            dir.join("one.json").to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        one.contains("within 3000 characters (`--max-chars`)"),
        "{one}"
    );
    assert!(!one.contains("share"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A state among the projects read `| st | 0 | 0 | 0 |` in the comment's table, as if it
/// changed nothing and emitted nothing: its row now says it is a state and what it emits.
#[test]
fn projects_a_states_row_in_the_comment_read_zero() {
    let md = ok(
        &[
            "--format",
            "markdown",
            "st=testdata/carbon/state.json",
            "c=testdata/carbon/create.json",
        ],
        b"",
    );
    let row = (md.lines())
        .find(|l| l.starts_with("| `st`"))
        .unwrap_or_else(|| panic!("{md}"));
    assert!(
        row.starts_with("| `st` (a state) | – | – | emits "),
        "{row}"
    );
    let emits: f64 = row
        .split("emits ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(emits > 0.0, "{row}");
    // the JSON's figure for the state, in the table's unit
    let json: serde_json::Value = serde_json::from_str(&ok(
        &["--format", "json", "testdata/carbon/state.json"],
        b"",
    ))
    .unwrap();
    let per_month = json["totals"]["after_per_hour"]["total_gco2eq"]
        .as_f64()
        .unwrap()
        * 730.0;
    assert!(md.contains("*In kgCO2eq per month.*"), "{md}");
    assert!(
        (emits - per_month / 1000.0).abs() / emits < 0.01,
        "{emits} vs {per_month} g"
    );
    // the plan's row is unchanged
    assert!(md.lines().any(|l| l.starts_with("| `c` | +")), "{md}");
}

/// Three copies of a 1,000-instance plan in `dir`, as the inputs `one=…`, `two=…`, `three=…`.
fn three_large(dir: &Path) -> Vec<String> {
    let plan = crate::summary::many_instances(1_000);
    (["one", "two", "three"].iter())
        .map(|name| {
            let f = dir.join(format!("{name}.json"));
            std::fs::write(&f, &plan).unwrap();
            format!("{name}={}", f.display())
        })
        .collect()
}
