//! The gate and the settings that move figures: named in the headline whatever their source,
//! refused from a configuration file when the workflow pins the gate (`--pin-gate`,
//! `CARBON_SHOW_PIN_GATE`), and a budget's period never silently differs from the figures'.

use std::path::{Path, PathBuf};

use crate::common::{assert_one_line_error, run_in, stderr, stdout};

/// 3.34 kgCO2eq/month at the defaults; 734 gCO2eq/month at 0 % in eu-north-1.
fn plan() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/carbon/create.json");
    p.to_string_lossy().into_owned()
}

/// A folder holding `.carbon-show.toml` with `toml` (a pull request's repository).
fn repo(name: &str, toml: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("carbon-show-gate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join(".carbon-show.toml"), toml).unwrap();
    d
}

const LOOSENING: &str = "utilization = 0\n[regions]\naws = \"eu-north-1\"\n";

#[test]
fn a_repository_file_loosened_the_gate_and_the_headline_did_not_say_so() {
    let plan = plan();
    // the gate fails at the defaults
    let clean = repo("clean", "period = \"month\"\n");
    let o = run_in(&clean, &["--fail-over", "1kg/month", &plan], &[]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    // the pull request's file turns it into a pass: then the headline names what did it
    let pr = repo("loose", LOOSENING);
    let o = run_in(
        &pr,
        &["--fail-over", "1kg/month", "--color", "never", &plan],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let summary: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Carbon"))
        .collect();
    assert!(
        summary[0].starts_with("Carbon ≈ +734 gCO2eq/month"),
        "{out}"
    );
    assert_eq!(
        summary[1..3],
        [
            "  not the defaults: utilization 0 % (.carbon-show.toml:1)",
            "    region aws eu-north-1 (.carbon-show.toml:3) · fail-over 1kg/month (--fail-over)"
        ]
    );
    // and the comment's first lines
    let o = run_in(
        &pr,
        &["--fail-over", "1kg/month", "--format", "markdown", &plan],
        &[],
    );
    let md = stdout(&o);
    let head: Vec<&str> = md.lines().take(6).collect();
    assert_eq!(
        head[5],
        "**Not the defaults:** utilization `0 %` (`.carbon-show.toml:1`) · region aws \
         `eu-north-1` (`.carbon-show.toml:3`) · fail-over `1kg/month` (`--fail-over`).",
        "{md}"
    );
}

#[test]
fn a_pinned_gate_refuses_what_a_repository_file_moves_figures_with() {
    let plan = plan();
    let pr = repo("pinned", LOOSENING);
    let args = ["--fail-over", "1kg/month", &plan];
    let by_flag: Vec<&str> = ["--pin-gate"].into_iter().chain(args).collect();
    for (args, env) in [
        (&by_flag[..], &[][..]),
        (&args[..], &[("CARBON_SHOW_PIN_GATE", "1")][..]),
    ] {
        let o = run_in(&pr, args, env);
        assert_one_line_error(
            &o,
            10,
            ".carbon-show.toml:1: utilization cannot come from a configuration file while the \
             gate is pinned (--pin-gate or CARBON_SHOW_PIN_GATE): set it in the workflow \
             (--utilization or CARBON_SHOW_UTILIZATION), or remove it from the file",
        );
        assert!(stdout(&o).is_empty());
    }
    // each key that moves figures or the gate, at its own line
    for (toml, needle) in [
        (
            "\n[regions]\ngcp = \"europe-west4\"\n",
            ":3: [regions] cannot",
        ),
        (
            "period = \"month\"\nfail-over = \"1t/month\"\n",
            ":2: fail-over cannot",
        ),
        ("mappings = [\"m\"]\n", ":1: mappings cannot"),
        ("data = [\"d\"]\n", ":1: data cannot"),
    ] {
        let o = run_in(&repo("key", toml), &["--pin-gate", &plan], &[]);
        assert_one_line_error(&o, 10, needle);
    }
    // what the workflow sets itself still applies, and the gate still holds
    let o = run_in(
        &repo("pinned-ok", "period = \"month\"\nalternatives = \"off\"\n"),
        &[
            "--pin-gate",
            "--utilization",
            "0",
            "--fail-over",
            "1kg/month",
            &plan,
        ],
        &[("CARBON_SHOW_REGION_AWS", "eu-north-1")],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run_in(&repo("pinned-3", "period = \"month\"\n"), &by_flag, &[]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    // the file cannot unpin it: not a key
    let o = run_in(&repo("unpin", "pin-gate = false\n"), &by_flag, &[]);
    assert_one_line_error(&o, 10, ".carbon-show.toml:1: unknown field `pin-gate`");
}

#[test]
fn fail_over_without_a_period_was_per_month_beside_period_year() {
    let plan = plan();
    let none = repo("period", "alternatives = \"on\"\n");
    let o = run_in(
        &none,
        &["--fail-over", "50kg", "--period", "year", &plan],
        &[],
    );
    assert_one_line_error(
        &o,
        10,
        "--fail-over: fail-over \"50kg\" names no period while figures are per year (period \
         from flag --period): write \"50kg/year\", or \"50kg/month\"",
    );
    // the same from the file's period
    let yearly = repo("period-file", "period = \"year\"\n");
    let o = run_in(&yearly, &["--fail-over", "50kg", &plan], &[]);
    assert_one_line_error(&o, 10, "(period from ");
    let o = run_in(&yearly, &["--fail-over", "50kg/year", &plan], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // 40.1 kg a year is over 30kg/year, though under 30kg a month
    let o = run_in(&yearly, &["--fail-over", "30kg/year", &plan], &[]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    // an amount alone at the default period is still per month
    let o = run_in(&none, &["--fail-over", "3kg", &plan], &[]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
}

#[test]
fn config_printed_two_tonnes_a_year_as_grams_with_a_decimal() {
    let d = repo("describe", "fail-over = \"2t/year\"\n");
    let o = run_in(&d, &["config"], &[]);
    assert!(
        stdout(&o).contains("fail-over = \"2t/year\" "),
        "{}",
        stdout(&o)
    );
    let d = repo("describe-kg", "fail-over = \"8.07kg/month\"\n");
    let o = run_in(&d, &["config"], &[]);
    assert!(
        stdout(&o).contains("fail-over = \"8.07kg/month\" "),
        "{}",
        stdout(&o)
    );
}

/// Issue 25 item 3: with `--fail-over` exceeded the job went red, but neither the comment nor
/// the JSON said so. Both now carry the verdict, and the exit code still tells.
#[test]
fn the_comment_and_the_json_did_not_say_the_gate_failed() {
    let d = repo("verdict", "period = \"month\"\n");
    for (budget, exceeded, code) in [("1kg/month", true, 3), ("1t/year", false, 0)] {
        let md = run_in(
            &d,
            &["--format", "markdown", "--fail-over", budget, &plan()],
            &[],
        );
        assert_eq!(md.status.code(), Some(code), "{}", stderr(&md));
        let text = stdout(&md);
        let line = if exceeded {
            "**⛔ Over the `--fail-over` budget** of"
        } else {
            "**✅ Within the `--fail-over` budget** of"
        };
        assert!(text.contains(line), "{budget}: {text}");
        // above the tables: a reviewer sees it first
        assert!(text.find(line) < text.find("| kgCO2eq"), "{text}");
        let json = run_in(
            &d,
            &["--format", "json", "--fail-over", budget, &plan()],
            &[],
        );
        assert_eq!(json.status.code(), Some(code));
        let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(v["fail_over"]["exceeded"], exceeded, "{budget}");
        let added = v["fail_over"]["added_per_hour_gco2eq"].as_f64().unwrap();
        let delta = v["totals"]["delta_per_hour"]["total_gco2eq"]
            .as_f64()
            .unwrap();
        assert_eq!(added, delta);
        let limit = v["fail_over"]["limit_per_hour_gco2eq"].as_f64().unwrap();
        assert_eq!(added > limit, exceeded);
    }
    // no budget: no verdict, and no `fail_over` member
    let json = run_in(&d, &["--format", "json", &plan()], &[]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(v.get("fail_over").is_none());
    let _ = std::fs::remove_dir_all(&d);
}
