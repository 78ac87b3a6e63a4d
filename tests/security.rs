//! Hostile mapping files and data folders: every one ends with exit 8 and one line naming the
//! mapping file:line and the resource, within its budget (issues 14 and 15).

use crate::common::{bin, stderr};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn plan() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/security/one-instance.json")
}

/// A mapping folder whose `aws_instance` machine type is `filter`.
fn mapping_dir(name: &str, filter: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("carbon-show-sec-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("aws")).unwrap();
    let yaml = format!(
        "compute_resource:\n  aws_instance:\n    paths: cbf::all_select(\"type\"; \"aws_instance\")\n    type: resource\n    properties:\n      machine_type:\n        - paths: '{}'\n",
        filter.replace('\'', "''")
    );
    std::fs::write(dir.join("aws/hostile.yaml"), yaml).unwrap();
    dir
}

/// Runs a show with the hostile mapping under a 1 s budget: exit 8, one line naming the
/// mapping's place and the resource, well within the budget plus start-up.
fn assert_stopped(name: &str, filter: &str, needle: &str) {
    let dir = mapping_dir(name, filter);
    let t = Instant::now();
    let o = bin()
        .arg("--mappings")
        .arg(&dir)
        .args(["--mapping-budget", "1s", "--format", "json"])
        .arg(plan())
        .output()
        .unwrap();
    let took = t.elapsed();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(8), "{name}: {err}");
    assert_eq!(err.lines().count(), 1, "{name}: one line: {err:?}");
    assert!(err.contains("hostile.yaml:7"), "{name}: {err}");
    assert!(err.contains(needle), "{name}: {needle:?} not in {err}");
    assert!(o.stdout.is_empty(), "{name}: nothing is half printed");
    assert!(took < Duration::from_secs(20), "{name}: took {took:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_filter_that_never_ends_hung_the_run() {
    assert_stopped(
        "loop",
        "def f: f; f",
        "time budget of 1s on aws_instance.web",
    );
}

#[test]
fn deep_jq_recursion_aborted_with_a_stack_overflow() {
    assert_stopped(
        "recursion",
        "def f(n): if n == 0 then 0 else f(n-1) + 1 end; f(1e6)",
        "recursed too deep (stack overflow) on aws_instance.web",
    );
}

#[test]
fn fromjson_of_a_deep_string_aborted_with_a_stack_overflow() {
    assert_stopped(
        "fromjson",
        r#""[" * 100000 | fromjson"#,
        "on aws_instance.web",
    );
}

#[test]
fn a_deeply_nested_value_aborted_with_a_stack_overflow() {
    assert_stopped(
        "nested",
        "reduce range(1e6) as $i (null; [.])",
        "on aws_instance.web",
    );
}

#[test]
fn filters_that_grow_memory_without_bound_are_stopped() {
    for (name, f) in [
        ("range", "[range(1e9)] | length"),
        ("repeat", "[limit(1e9; repeat(1))]"),
        ("closures", "def f(g): f(g|g); f(.)"),
        ("doubling", r#"reduce range(64) as $i ("a"; .+.)"#),
    ] {
        assert_stopped(name, f, "budget");
    }
}

#[test]
fn a_memory_budget_stops_a_doubling_string() {
    let dir = mapping_dir("membudget", r#"reduce range(64) as $i ("a"; .+.)"#);
    let o = bin()
        .arg("--mappings")
        .arg(&dir)
        .args(["--mapping-budget", "30s,64MB"])
        .arg(plan())
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(8), "{err}");
    assert!(
        err.contains("memory budget of 64 MiB on aws_instance.web"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn halt_ended_the_process_silently_with_exit_0() {
    for (name, f) in [
        ("halt", "halt"),
        ("halt_error", "halt_error(0)"),
        ("halt_error5", r#""x" | halt_error(5)"#),
        ("input", "input"),
        ("env", "env.HOME"),
        ("dollar_env", "$ENV.HOME"),
    ] {
        let dir = mapping_dir(name, f);
        let o = bin()
            .arg("--mappings")
            .arg(&dir)
            .arg(plan())
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(8), "{name}: {err}");
        assert!(err.contains("hostile.yaml:7:"), "{name}: {err}");
        assert!(err.contains("is not allowed in a mapping"), "{name}: {err}");
        // and `mappings check` says so, located
        let o = bin()
            .args(["mappings", "check"])
            .arg(&dir)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(8), "{name}: {out}");
        assert!(out.contains("hostile.yaml:7:"), "{name}: {out}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn field_names_like_input_and_env_are_not_flagged() {
    let dir = mapping_dir(
        "fields",
        r#".values.input // .values.env // {input: 1, "env": 2}.env"#,
    );
    let o = bin()
        .arg("--mappings")
        .arg(&dir)
        .arg(plan())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_mapping_budget_is_a_usage_error() {
    let o = bin()
        .args(["--mapping-budget", "fast"])
        .arg(plan())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
