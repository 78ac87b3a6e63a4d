//! Sensitive means sensitive downstream (issue 24, item 6): a value worked out from a sensitive
//! input — a region from a sensitive zone, a GPU model from a sensitive accelerator path, a
//! provider region from a sensitive variable — never reaches any format, and a wholly
//! sensitive resource says what it hides.

use std::path::PathBuf;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::common::{bin, stderr, stdout};

const SENSITIVE: &str = "(sensitive value)";

/// Every output a plan can be shown as: the formats, and `explain` of `address`.
fn outputs(plan: &Value, name: &str, address: &str) -> Vec<(String, String)> {
    let dir = std::env::temp_dir().join(format!(
        "carbon-show-downstream-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join("plan.json");
    std::fs::write(&path, plan.to_string()).unwrap();
    let mut runs: Vec<(String, Vec<String>)> = ["human", "json", "markdown", "impact-framework"]
        .iter()
        .map(|f| {
            let args = vec![
                "--color".into(),
                "never".into(),
                "--format".into(),
                f.to_string(),
            ];
            (f.to_string(), args)
        })
        .collect();
    runs.push(("explain".into(), vec!["explain".into(), address.into()]));
    let mut out = Vec::new();
    for (what, mut args) in runs {
        if what == "explain" {
            args.push(path.display().to_string());
        } else {
            args.insert(0, path.display().to_string());
        }
        let o = bin()
            .args(&args)
            .current_dir(&dir)
            .env_remove("CLICOLOR_FORCE")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{name} {what}: {}", stderr(&o));
        out.push((what, stdout(&o) + &stderr(&o)));
    }
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// Asserts that no output holds any of `leaked`, and that the JSON report says `shown`
/// instead.
fn assert_hidden(
    plan: &Value,
    name: &str,
    address: &str,
    leaked: &[&str],
    shown: &str,
) -> Vec<(String, String)> {
    let outs = outputs(plan, name, address);
    for (what, text) in &outs {
        for l in leaked {
            assert!(!text.contains(l), "{name}: {what} shows {l:?}:\n{text}");
        }
    }
    let json = &outs.iter().find(|(w, _)| w == "json").unwrap().1;
    assert!(json.contains(shown), "{name}: {shown:?} not in {json}");
    outs
}

/// A plan of one resource, its values in both `planned_values` and `resource_changes`, with
/// `mask` as both `sensitive_values` and `after_sensitive`.
fn plan(ty: &str, provider: &str, values: Value, mask: Value, configuration: Value) -> Value {
    let base = json!({
        "address": format!("{ty}.x"), "mode": "managed", "type": ty, "name": "x",
        "provider_name": format!("registry.terraform.io/hashicorp/{provider}"),
    });
    let mut planned = base.clone();
    planned["values"] = values.clone();
    planned["sensitive_values"] = mask.clone();
    let mut change = base;
    change["change"] = json!({
        "actions": ["create"], "before": null, "after": values, "after_unknown": {},
        "before_sensitive": false, "after_sensitive": mask,
    });
    json!({
        "format_version": "1.2", "terraform_version": "1.9.0",
        "planned_values": {"root_module": {"resources": [planned]}},
        "resource_changes": [change],
        "configuration": configuration,
    })
}

fn aws_config() -> Value {
    json!({"provider_config": {"aws": {"name": "aws", "expressions": {
        "region": {"constant_value": "us-east-1"}}}}})
}

#[test]
fn a_sensitive_zone_leaked_as_its_region() {
    let p = plan(
        "aws_instance",
        "aws",
        json!({"instance_type": "t3.micro", "ami": "ami-1",
               "availability_zone": "corp-vault-zone-7x"}),
        json!({"availability_zone": true}),
        aws_config(),
    );
    let outs = assert_hidden(
        &p,
        "zone",
        "aws_instance.x",
        &["corp-vault-zone-7"],
        SENSITIVE,
    );
    // the machine type was not read from the zone: it is still priced
    let json = &outs.iter().find(|(w, _)| w == "json").unwrap().1;
    let report: Value = serde_json::from_str(json).unwrap();
    let after = &report["resources"][0]["after"];
    assert_eq!(after["machine_type"], "t3.micro", "{report}");
    assert_eq!(after["region"], "(sensitive value)", "{report}");
}

#[test]
fn a_gpu_model_read_from_a_sensitive_accelerator_leaked() {
    let p = plan(
        "google_compute_instance",
        "google",
        json!({"machine_type": "n1-standard-4", "zone": "us-central1-a",
               "guest_accelerator": [{"count": 1,
                   "type": "projects/corp/zones/us-central1-a/acceleratorTypes/nvidia-corp-secret-9"}]}),
        json!({"guest_accelerator": [{"type": true}]}),
        json!({}),
    );
    assert_hidden(
        &p,
        "gpu",
        "google_compute_instance.x",
        &["nvidia-corp-secret-9"],
        SENSITIVE,
    );
}

#[test]
fn a_provider_region_from_a_sensitive_variable_leaked() {
    let mut p = plan(
        "aws_instance",
        "aws",
        json!({"instance_type": "t3.micro", "ami": "ami-1"}),
        json!({}),
        json!({
            "provider_config": {"aws": {"name": "aws", "expressions": {
                "region": {"references": ["var.region"]}}}},
            "root_module": {"variables": {"region": {"sensitive": true}}},
        }),
    );
    p["variables"] = json!({"region": {"value": "corp-hidden-region-1"}});
    assert_hidden(
        &p,
        "provider",
        "aws_instance.x",
        &["corp-hidden-region-1"],
        SENSITIVE,
    );
}

#[test]
fn a_wholly_sensitive_resource_dropped_its_figures_silently() {
    let p = plan(
        "aws_instance",
        "aws",
        json!({"instance_type": "m5.corp-secret", "ami": "ami-1",
               "availability_zone": "us-east-1a"}),
        json!(true),
        aws_config(),
    );
    let outs = assert_hidden(
        &p,
        "whole",
        "aws_instance.x",
        &["corp-secret", "us-east-1"],
        "sensitive resource: its machine type, region, zone hidden",
    );
    for (what, text) in &outs {
        // the manifest lists estimated resources only
        if what != "impact-framework" {
            assert!(
                text.contains("sensitive resource: its machine type, region, zone hidden"),
                "{what} says what it hides:\n{text}"
            );
        }
    }
}

#[test]
fn a_user_mapping_derived_a_region_from_a_sensitive_zone() {
    // a user's mapping is read whole: whatever spelling its filter uses, a property of a
    // resource with a sensitive member is hidden
    let dir = std::env::temp_dir().join(format!(
        "carbon-show-downstream-{}-mapping",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("aws")).unwrap();
    std::fs::write(
        dir.join("aws/user.yaml"),
        "compute_resource:\n  aws_instance:\n    paths: cbf::all_select(\"type\"; \"aws_instance\")\n    type: resource\n    properties:\n      machine_type:\n        - paths: '.values.instance_type'\n      region:\n        - paths: '.[\"values\"][\"availability_zone\"] | .[0:-1]'\n",
    )
    .unwrap();
    let p = plan(
        "aws_instance",
        "aws",
        json!({"instance_type": "t3.micro", "ami": "ami-1",
               "availability_zone": "corp-vault-zone-7x"}),
        json!({"availability_zone": true}),
        aws_config(),
    );
    let file = dir.join("plan.json");
    std::fs::write(&file, p.to_string()).unwrap();
    for format in ["human", "json", "markdown", "impact-framework"] {
        let o = bin()
            .arg(&file)
            .args(["--color", "never", "--format", format, "--mappings"])
            .arg(&dir)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{format}: {}", stderr(&o));
        let out = stdout(&o) + &stderr(&o);
        assert!(!out.contains("corp-vault-zone-7"), "{format}:\n{out}");
        if format == "json" {
            // conservative: the machine type, read by the same mapping, is hidden too
            assert!(
                out.contains("unknown machine type \\\"(sensitive value)\\\""),
                "{out}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
