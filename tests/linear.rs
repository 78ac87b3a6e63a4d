//! Linear on hostile input (issue 24, item 7): secrets that share every window the old
//! redactor indexed them by, and tens of thousands of `replace_paths`, generated here (the same
//! shapes as `scripts/hostile/plans.py`). The bounds are hang guards for a debug build, not
//! timings; the work itself is counted in the unit tests (`redact::automaton`).

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{bin, stderr, stdout};

/// A secret of the n-th tag: `a` × 24, the number, `a` × 8.
fn secret(n: usize) -> String {
    format!("{}{n:06}{}", "a".repeat(24), "a".repeat(8))
}

/// `resources` instances with `per` sensitive tags each, and an unknown instance type made of
/// the windows every secret shares (each reason that quotes it holds them).
pub fn secrets_plan(resources: usize, per: usize) -> Value {
    let mut planned = Vec::new();
    let mut changes = Vec::new();
    for r in 0..resources {
        let tags: serde_json::Map<String, Value> = (0..per)
            .map(|i| (format!("t{i}"), Value::from(secret(r * per + i))))
            .collect();
        let values = json!({"instance_type": format!("x{}", "a".repeat(40)), "ami": "ami-1",
                            "tags": tags});
        let base = json!({"address": format!("aws_instance.w{r}"), "mode": "managed",
            "type": "aws_instance", "name": format!("w{r}"),
            "provider_name": "registry.terraform.io/hashicorp/aws"});
        let mut p = base.clone();
        p["values"] = values.clone();
        p["sensitive_values"] = json!({"tags": {}});
        planned.push(p);
        let mut c = base;
        c["change"] = json!({"actions": ["create"], "before": null, "after": values,
            "after_unknown": {}, "before_sensitive": false, "after_sensitive": {"tags": true}});
        changes.push(c);
    }
    document(planned, changes)
}

/// One bucket replaced because of each of its `attributes` attributes.
pub fn replace_plan(attributes: usize) -> Value {
    let attrs = |word: &str| -> serde_json::Map<String, Value> {
        (0..attributes)
            .map(|i| {
                (
                    format!("attr_{i:05}"),
                    Value::from(format!("{word}-value-{i:05}")),
                )
            })
            .collect()
    };
    let after = attrs("new");
    let base = json!({"address": "aws_s3_bucket.b", "mode": "managed", "type": "aws_s3_bucket",
        "name": "b", "provider_name": "registry.terraform.io/hashicorp/aws"});
    let mut p = base.clone();
    p["values"] = Value::Object(after.clone());
    let mut c = base;
    c["action_reason"] = json!("replace_because_cannot_update");
    c["change"] = json!({"actions": ["delete", "create"], "before": attrs("old"),
        "after": after.clone(), "after_unknown": {}, "before_sensitive": {},
        "after_sensitive": {}, "replace_paths": after.keys().map(|k| json!([k])).collect::<Vec<_>>()});
    document(vec![p], vec![c])
}

fn document(planned: Vec<Value>, changes: Vec<Value>) -> Value {
    json!({"format_version": "1.2", "terraform_version": "1.9.0",
        "planned_values": {"root_module": {"resources": planned}},
        "resource_changes": changes,
        "configuration": {"provider_config": {"aws": {"name": "aws", "expressions": {
            "region": {"constant_value": "us-east-1"}}}}}})
}

/// Runs `args` on `plan` (written to a file): its output, and how long it took.
fn timed(plan: &Value, name: &str, args: &[&str]) -> (String, Duration) {
    let dir =
        std::env::temp_dir().join(format!("carbon-show-linear-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join("plan.json");
    std::fs::write(&path, plan.to_string()).unwrap();
    let t = Instant::now();
    let o = bin()
        .arg(&path)
        .args(args)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let took = t.elapsed();
    assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
    (stdout(&o), took)
}

#[test]
fn overlapping_secrets_made_redaction_quadratic() {
    // 20,000 secrets sharing every window, as in the issue
    let plan = secrets_plan(2000, 10);
    for format in ["human", "json", "markdown", "impact-framework"] {
        let (out, took) = timed(&plan, format, &["--color", "never", "--format", format]);
        eprintln!("{format}: {took:?}");
        assert!(took < Duration::from_secs(30), "{format}: took {took:?}");
        for n in [0, 7, 19_999] {
            assert!(!out.contains(&secret(n)), "{format} shows secret {n}");
        }
        // the instance type is not a secret: reasons still quote it (the Impact Framework
        // manifest has none)
        if format != "impact-framework" {
            assert!(out.contains(&"a".repeat(40)), "{format}");
        }
    }
}

#[test]
fn many_replace_paths_made_rendering_quadratic() {
    let plan = replace_plan(40_000);
    let (out, took) = timed(&plan, "replace", &["--color", "never", "--no-carbon"]);
    eprintln!("replace: {took:?}");
    assert!(took < Duration::from_secs(30), "took {took:?}");
    assert_eq!(out.matches("# forces replacement").count(), 40_000);
    assert!(out.contains(
        "~ attr_39999 = \"old-value-39999\" -> \"new-value-39999\" # forces replacement"
    ));
}
