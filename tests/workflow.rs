//! CI and platform workflow: the configuration file and its precedence, `--output`/`--quiet`,
//! completions and the man page, and the JSON Schema (the CI comment script's tests are in
//! tests/comment.rs).

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::LazyLock;

use carbon_show::app;
use carbon_show::cli::{CarbonOptions, ColorMode, Format, Input, Options};
use carbon_show::mapping::{self, Engine};
use serde_json::{Value, json};

use crate::common::{assert_one_line_error, run_in, stderr, stdout};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn demo() -> PathBuf {
    root().join("testdata/demo/plan.json")
}

/// A fresh folder under the temporary directory.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("carbon-show-wf-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn json_of(o: &Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(o));
    serde_json::from_slice(&o.stdout).expect("JSON output")
}

#[test]
fn config_precedence_flags_over_environment_over_file_over_defaults() {
    let d = scratch("precedence");
    let deep = d.join("infra/prod");
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(
        d.join(".carbon-show.toml"),
        "utilization = \"10%\"\nperiod = \"year\"\n",
    )
    .unwrap();
    let plan = demo();
    let plan = plan.to_str().unwrap();
    let args = ["--format", "json", plan];
    // defaults: no file above the scratch folder's sibling
    let none = scratch("precedence-none");
    let v = json_of(&run_in(&none, &args, &[]));
    assert_eq!(
        (v["utilization"].clone(), v["period"]["name"].clone()),
        (json!(0.5), json!("month"))
    );
    // the file, found two levels up
    let v = json_of(&run_in(&deep, &args, &[]));
    assert_eq!(
        (v["utilization"].clone(), v["period"]["name"].clone()),
        (json!(0.1), json!("year"))
    );
    // the environment beats the file
    let env = [("CARBON_SHOW_UTILIZATION", "0.2")];
    let v = json_of(&run_in(&deep, &args, &env));
    assert_eq!(
        (v["utilization"].clone(), v["period"]["name"].clone()),
        (json!(0.2), json!("year"))
    );
    // a flag beats the environment
    let v = json_of(&run_in(
        &deep,
        &[
            "--utilization",
            "30%",
            "--period",
            "hour",
            "--format",
            "json",
            plan,
        ],
        &env,
    ));
    assert_eq!(
        (v["utilization"].clone(), v["period"]["name"].clone()),
        (json!(0.3), json!("hour"))
    );
    // `config` says where each came from
    let o = run_in(&deep, &["config"], &env);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let file = d.join(".carbon-show.toml");
    assert!(
        text.contains(&format!("# configuration file: {}", file.display())),
        "{text}"
    );
    let line = |key: &str| {
        text.lines()
            .find(|l| l.starts_with(key))
            .unwrap_or("")
            .to_string()
    };
    assert!(
        line("utilization = 0.2").ends_with("# env CARBON_SHOW_UTILIZATION"),
        "{text}"
    );
    assert!(
        line("period = \"year\"").ends_with(&format!("# {}:2", file.display())),
        "{text}"
    );
    assert!(line("# flavor = auto").ends_with("# default"), "{text}");
    let _ = std::fs::remove_dir_all(&d);
    let _ = std::fs::remove_dir_all(&none);
}

#[test]
fn config_file_sets_flavor_fail_over_and_folders() {
    let d = scratch("keys");
    std::fs::create_dir_all(d.join("no-such-mappings-yet")).unwrap();
    std::fs::write(
        d.join("team.toml"),
        "flavor = \"terraform\"\nfail-over = \"1g/month\"\nmappings = [\"no-such-mappings-yet\"]\n",
    )
    .unwrap();
    let plan = demo();
    let o = run_in(
        &d,
        &[
            "--config",
            "team.toml",
            "--color",
            "never",
            plan.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(
        o.status.code(),
        Some(3),
        "the file's fail-over applies: {}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("Terraform will perform the following actions"));
    // CARBON_SHOW_CONFIG names the file too; a flag still wins
    let o = run_in(
        &d,
        &["--fail-over", "1t/month", "--quiet", plan.to_str().unwrap()],
        &[("CARBON_SHOW_CONFIG", "team.toml")],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_config_is_one_line_naming_file_and_line_exit_10() {
    let d = scratch("bad");
    std::fs::write(
        d.join(".carbon-show.toml"),
        "period = \"month\"\n# ok\nutilization = 7\n",
    )
    .unwrap();
    let plan = demo();
    let o = run_in(&d, &[plan.to_str().unwrap()], &[]);
    assert_one_line_error(&o, 10, ".carbon-show.toml:3: utilization");
    let o = run_in(&d, &["config"], &[]);
    assert_one_line_error(&o, 10, ".carbon-show.toml:3:");
    std::fs::write(
        d.join(".carbon-show.toml"),
        "[regions]\naws = \"atlantis-1\"\n",
    )
    .unwrap();
    assert_one_line_error(
        &run_in(&d, &[plan.to_str().unwrap()], &[]),
        10,
        ".carbon-show.toml:2: unknown aws region",
    );
    std::fs::write(d.join(".carbon-show.toml"), "alternatives = \"on\"\n").unwrap();
    assert_eq!(
        run_in(&d, &["--quiet", plan.to_str().unwrap()], &[])
            .status
            .code(),
        Some(0)
    );
    std::fs::write(d.join(".carbon-show.toml"), "alternatives = true\n").unwrap();
    assert_one_line_error(
        &run_in(&d, &[plan.to_str().unwrap()], &[]),
        10,
        ".carbon-show.toml:1:",
    );
    let o = run_in(
        &d,
        &["--config", "missing.toml", plan.to_str().unwrap()],
        &[],
    );
    assert_one_line_error(&o, 10, "missing.toml: cannot read the configuration file");
    let none = scratch("bad-env");
    let o = run_in(
        &none,
        &[plan.to_str().unwrap()],
        &[("CARBON_SHOW_MAX_CHARS", "lots")],
    );
    assert_one_line_error(&o, 10, "environment variable CARBON_SHOW_MAX_CHARS");
    let _ = std::fs::remove_dir_all(&d);
    let _ = std::fs::remove_dir_all(&none);
}

#[test]
fn region_override_replaces_the_plans_region_and_says_so() {
    let d = scratch("regions");
    let plan = demo();
    let args = ["--format", "json", plan.to_str().unwrap()];
    let before = json_of(&run_in(&d, &args, &[]));
    std::fs::write(
        d.join(".carbon-show.toml"),
        "[regions]\naws = \"eu-north-1\"\n",
    )
    .unwrap();
    let after = json_of(&run_in(&d, &args, &[]));
    // the after side, or the before side of a deleted resource
    let side = |r: &Value| {
        if r["after"].is_null() {
            r["before"].clone()
        } else {
            r["after"].clone()
        }
    };
    let aws = |v: &Value| -> Vec<(String, String, String)> {
        v["resources"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| side(r)["provider"] == "aws")
            .map(|r| {
                (
                    r["address"].as_str().unwrap().to_string(),
                    side(r)["region"].as_str().unwrap_or("").to_string(),
                    r["assumptions"].to_string(),
                )
            })
            .collect()
    };
    let (b, a) = (aws(&before), aws(&after));
    assert!(!a.is_empty());
    assert_eq!(b.len(), a.len());
    assert!(
        b.iter().any(|r| r.1 != "eu-north-1"),
        "the demo has other AWS regions: {b:?}"
    );
    for r in &a {
        assert_eq!(r.1, "eu-north-1", "{r:?}");
    }
    assert!(
        a.iter()
            .any(|r| r.2.contains("region eu-north-1 from the configuration")),
        "{a:?}"
    );
    assert_ne!(
        before["totals"]["after_per_hour"]["total_gco2eq"],
        after["totals"]["after_per_hour"]["total_gco2eq"]
    );
    // GCP and Azure resources are untouched
    let others = |v: &Value| -> Vec<Value> {
        v["resources"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| side(r)["provider"] != "aws")
            .cloned()
            .collect()
    };
    assert_eq!(others(&before), others(&after));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn output_file_is_written_whole_and_quiet_prints_nothing() {
    let d = scratch("output");
    let plan = demo();
    let plan = plan.to_str().unwrap();
    let expected = run_in(&d, &["--format", "markdown", plan], &[]);
    assert_eq!(expected.status.code(), Some(0));
    let out = d.join("comment.md");
    std::fs::write(&out, "stale").unwrap();
    let o = run_in(
        &d,
        &["--format", "markdown", "--output", "comment.md", plan],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
    assert_eq!(std::fs::read(&out).unwrap(), expected.stdout);
    // `--color auto` (the default) means no colour in a file, even with CLICOLOR_FORCE
    let o = run_in(&d, &["-o", "plan.txt", plan], &[("CLICOLOR_FORCE", "1")]);
    assert_eq!(o.status.code(), Some(0));
    let text = std::fs::read_to_string(d.join("plan.txt")).unwrap();
    assert!(text.contains("Plan: ") && !text.contains('\x1b'));
    let o = run_in(&d, &["-o", "plan.txt", "--color", "always", plan], &[]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        std::fs::read_to_string(d.join("plan.txt"))
            .unwrap()
            .contains('\x1b')
    );
    std::fs::remove_file(d.join("plan.txt")).unwrap();
    // over budget: the output is still written, and the exit code is 3
    let o = run_in(
        &d,
        &[
            "-o",
            "gate.json",
            "--format",
            "json",
            "--fail-over",
            "1g",
            plan,
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(3));
    let gate: Value = serde_json::from_slice(&std::fs::read(d.join("gate.json")).unwrap()).unwrap();
    assert!(gate["totals"].is_object());
    // a failing run leaves the old file alone and no temporary file behind
    let o = run_in(
        &d,
        &[
            "-o",
            "comment.md",
            "--format",
            "markdown",
            "no-such-plan.json",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(4));
    assert_eq!(std::fs::read(&out).unwrap(), expected.stdout);
    let mut names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["comment.md", "gate.json"]);
    // --quiet: nothing on stdout, the verdict in the exit code
    let o = run_in(&d, &["--quiet", "--fail-over", "1g", plan], &[]);
    assert_eq!(o.status.code(), Some(3));
    assert!(o.stdout.is_empty());
    assert_eq!(stderr(&o).lines().count(), 1);
    let o = run_in(&d, &["-q", plan], &[]);
    assert_eq!((o.status.code(), o.stdout.len()), (Some(0), 0));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn completions_for_every_shell_and_a_man_page() {
    let d = scratch("completions");
    for (shell, needle) in [
        ("bash", "complete -F _carbon__show"),
        ("zsh", "#compdef carbon-show"),
        ("fish", "complete -c carbon-show"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let o = run_in(&d, &["completions", shell], &[]);
        let text = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        assert!(text.contains(needle), "{shell}: {needle:?} missing");
        for flag in ["fail-over", "utilization", "output", "config"] {
            assert!(text.contains(flag), "{shell} completes --{flag}");
        }
    }
    let o = run_in(&d, &["completions", "tcsh"], &[]);
    assert_eq!(o.status.code(), Some(2));
    let o = run_in(&d, &["man"], &[]);
    let page = stdout(&o);
    assert!(
        page.starts_with(".ie") || page.contains(".TH carbon-show 1"),
        "{page}"
    );
    assert!(page.contains(".TH carbon-show 1"));
    assert!(
        page.contains("fail\\-over") && page.contains("bad configuration"),
        "{page}"
    );
    if Command::new("bash").arg("--version").output().is_ok() {
        // the bash script at least parses and defines its function
        let script = stdout(&run_in(&d, &["completions", "bash"], &[]));
        let check = Command::new("bash")
            .arg("-c")
            .arg(format!("{script}\ndeclare -F _carbon__show"))
            .output()
            .unwrap();
        assert_eq!(
            check.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&check.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

// ---- the JSON Schema ----

const SCHEMA_PATH: &str = "docs/carbon-show.schema.json";

/// Regenerate with `CARBON_SHOW_UPDATE_SCHEMA=1 cargo test schema`.
#[test]
fn committed_schema_matches_the_types() {
    let generated = carbon_show::render::json::schema_text();
    let path = root().join(SCHEMA_PATH);
    if std::env::var_os("CARBON_SHOW_UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{SCHEMA_PATH} differs from the report types: regenerate it with \
         `CARBON_SHOW_UPDATE_SCHEMA=1 cargo test schema` and review the diff"
    );
}

fn validator() -> (boon::Schemas, boon::SchemaIndex) {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join(SCHEMA_PATH)).unwrap()).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource("file:///carbon-show.schema.json", schema)
        .unwrap();
    let idx = compiler
        .compile("file:///carbon-show.schema.json", &mut schemas)
        .expect("the schema compiles");
    (schemas, idx)
}

static ENGINE: LazyLock<Engine> = LazyLock::new(|| {
    mapping::load(&[], &|name: &str| {
        carbon_show::data::json_file(name).map(Cow::Borrowed)
    })
    .expect("embedded mappings")
});

/// `--format json` of a document through the library (the binary's code path after the flags).
fn json_report(path: &Path, bytes: &[u8], period: carbon_show::estimate::Period) -> Option<Value> {
    let plan = carbon_show::plan::parse(path, bytes).ok()?;
    let mut c = CarbonOptions::default();
    c.settings.period = period;
    let opts = Options {
        input: Input::File(path.to_path_buf()),
        inputs: Vec::new(),
        schemas: None,
        flavor_auto: false,
        comment: Default::default(),
        color: ColorMode::Never,
        human: Default::default(),
        format: Format::Json,
        carbon: Some(c),
    };
    let mut out = Vec::new();
    match app::show(&opts, path, bytes, &plan, None, Some(&ENGINE), &mut out) {
        Ok(()) | Err(carbon_show::Error::OverBudget(_)) => {
            Some(serde_json::from_slice(&out).expect("JSON"))
        }
        Err(_) => None,
    }
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

#[test]
fn every_testdata_plans_json_output_validates_against_the_schema() {
    let (schemas, idx) = validator();
    let mut files = Vec::new();
    json_files(&root().join("testdata"), &mut files);
    let mut validated = 0;
    let mut with_resources = 0;
    let periods = [
        carbon_show::estimate::Period::Hour,
        carbon_show::estimate::Period::Month,
        carbon_show::estimate::Period::Year,
    ];
    for (i, f) in files.iter().enumerate() {
        let bytes = std::fs::read(f).unwrap();
        // only plans and states: data tables, schemas and expected outputs are not documents
        let Ok(v) = serde_json::from_slice::<Value>(&bytes) else {
            continue;
        };
        if v.get("format_version").is_none() {
            continue;
        }
        let Some(report) = json_report(f, &bytes, periods[i % 3]) else {
            continue;
        };
        if let Err(e) = schemas.validate(&report, idx) {
            panic!("{}: the JSON output does not validate:\n{e:#}", f.display());
        }
        validated += 1;
        if report["resources"]
            .as_array()
            .is_some_and(|r| !r.is_empty())
        {
            with_resources += 1;
        }
    }
    eprintln!(
        "{validated} outputs validated ({with_resources} with resources) of {} JSON files",
        files.len()
    );
    assert!(validated >= 200, "only {validated} plans validated");
    assert!(
        with_resources >= 10,
        "only {with_resources} outputs had resources"
    );
}

#[test]
fn the_binarys_json_validates_and_the_schema_rejects_a_broken_one() {
    let (schemas, idx) = validator();
    let d = scratch("schema");
    let plan = demo();
    let v = json_of(&run_in(
        &d,
        &[
            "--format",
            "json",
            "--period",
            "year",
            plan.to_str().unwrap(),
        ],
        &[],
    ));
    schemas
        .validate(&v, idx)
        .expect("the demo's output validates");
    let not_estimated = v["resources"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["status"] == "not_estimated");
    let estimated = v["resources"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["status"] == "estimated");
    assert!(estimated, "the demo has estimated resources");
    let _ = not_estimated;
    let mut broken = v.clone();
    broken["totals"]
        .as_object_mut()
        .unwrap()
        .remove("delta_per_hour");
    assert!(
        schemas.validate(&broken, idx).is_err(),
        "a missing field is caught"
    );
    let mut broken = v.clone();
    broken["resources"][0]["delta_per_hour"]["total_gco2eq"] = json!("12 g");
    assert!(
        schemas.validate(&broken, idx).is_err(),
        "a wrong type is caught"
    );
    let mut broken = v.clone();
    broken["resources"][0]["status"] = json!("guessed");
    assert!(
        schemas.validate(&broken, idx).is_err(),
        "an unknown status is caught"
    );
    let _ = std::fs::remove_dir_all(&d);
}
