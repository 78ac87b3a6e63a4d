//! Usage files (docs/usage.md): the template written and rerun through the binary, the
//! coverage of every real plan with a filled template, bad usage files with their messages,
//! `--usage` and the configuration's `usage` key, and where a usage figure says where it
//! comes from.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use serde_json::Value;

use crate::common::{bin, real_plans, stderr, stdout};

fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("carbon-show-usage-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs the binary in `dir` (no configuration file is found above a temporary folder's).
fn run_in(dir: &Path, args: &[&str]) -> Output {
    bin()
        .args(args)
        .current_dir(dir)
        .env_remove("CARBON_SHOW_CONFIG")
        .stdin(Stdio::null())
        .output()
        .expect("run carbon-show")
}

fn json_in(dir: &Path, args: &[&str]) -> Value {
    let mut a = vec!["--format", "json"];
    a.extend_from_slice(args);
    let o = run_in(dir, &a);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn plan(name: &str) -> String {
    real_plans().join(name).display().to_string()
}

/// Every plan and state document under testdata/plans (the shared real plans).
fn all_plans() -> Vec<PathBuf> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "json")
                && p.file_name().is_some_and(|n| n != "schemas.json")
            {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&real_plans(), &mut out);
    out.sort();
    out
}

/// estimated ÷ (estimated + unsupported + not estimated), and that denominator.
fn coverage(v: &Value) -> (f64, u64) {
    let c = &v["counts"];
    let n = |k: &str| c[k].as_u64().unwrap();
    let d = n("estimated") + n("unsupported") + n("not_estimated");
    let ratio = if d == 0 {
        1.0
    } else {
        n("estimated") as f64 / d as f64
    };
    (ratio, d)
}

/// Issue 26's acceptance: on every real plan, the template with each `null` replaced by a
/// number estimates at least 90 % of the resources that draw power; without a usage file,
/// every unsupported usage-dependent resource's reason names its usage keys.
#[test]
fn every_real_plan_reaches_ninety_percent_with_its_filled_template() {
    for p in all_plans() {
        let d = tmp_dir("coverage");
        let path = p.display().to_string();
        let before = json_in(&d, &[&path]);
        for r in before["resources"].as_array().unwrap() {
            let reason = r["reason"].as_str().unwrap_or_default();
            if reason.starts_with("needs ") {
                assert!(
                    reason.contains("carbon-show usage template"),
                    "{path}: {reason}"
                );
                assert!(
                    reason.contains("_gb") || reason.contains("monthly_"),
                    "{path}: {reason}"
                );
            }
        }
        let o = run_in(&d, &["usage", "template", &path]);
        assert_eq!(o.status.code(), Some(0), "{path}: {}", stderr(&o));
        let file = d.join("carbon-usage.yml");
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(&file, text.replace(": null", ": 100")).unwrap();
        let after = json_in(&d, &[&path]);
        let (ratio, denominator) = coverage(&after);
        assert!(ratio >= 0.9, "{path}: {ratio} of {denominator}");
        // the template lists exactly the resources whose figures now rest on usage
        let listed = text.matches(": null").count();
        let from_usage = after["counts"]["from_usage"].as_u64().unwrap();
        assert!(
            from_usage as usize <= listed,
            "{path}: {from_usage} > {listed}"
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}

/// The template written, filled in part, then rerun: the values stay, the resources the
/// user removed come back with nulls, nothing is duplicated.
#[test]
fn template_rerun_keeps_values_and_adds_resources() {
    let d = tmp_dir("template");
    let p = plan("infracost/example_plan.json");
    let o = run_in(&d, &["usage", "template", &p]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("3 resources whose figure depends on usage, 3 new"),
        "{}",
        stderr(&o)
    );
    let file = d.join("carbon-usage.yml");
    let first = std::fs::read_to_string(&file).unwrap();
    assert!(
        first.contains("  \"aws_s3_bucket.usage\":\n    storage_gb: null # GB stored"),
        "{first}"
    );
    // the user fills the bucket and drops a function's entry
    let start = first.find("  # Lambda function: read it in").unwrap();
    let end = start + 1 + first[start + 1..].find("  # ").unwrap();
    let edited = format!("{}{}", &first[..start], &first[end..])
        .replace("storage_gb: null", "storage_gb: 42");
    std::fs::write(&file, &edited).unwrap();
    let o = run_in(&d, &["usage", "template", &p]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("3 resources whose figure depends on usage, 1 new"),
        "{}",
        stderr(&o)
    );
    let second = std::fs::read_to_string(&file).unwrap();
    assert!(second.contains("storage_gb: 42 #"), "{second}");
    assert_eq!(
        second.matches("\"aws_lambda_function.").count(),
        2,
        "{second}"
    );
    assert_eq!(
        second.matches("\"aws_s3_bucket.usage\"").count(),
        1,
        "{second}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

fn with_usage(name: &str, usage: &str) -> (PathBuf, Output) {
    let d = tmp_dir(name);
    std::fs::write(d.join("carbon-usage.yml"), usage).unwrap();
    let o = run_in(
        &d,
        &["--format", "json", &plan("infracost/example_plan.json")],
    );
    (d, o)
}

#[test]
fn a_wrong_type_is_one_line_at_file_and_line_exit_10() {
    let (d, o) = with_usage(
        "wrong-type",
        "version: 0.1\nresource_usage:\n  aws_s3_bucket.usage:\n    storage_gb: \"500 GB\"\n",
    );
    crate::common::assert_one_line_error(
        &o,
        10,
        "carbon-usage.yml:4: \"aws_s3_bucket.usage\": storage_gb: expected a number (GB stored, monthly average), not a string",
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_negative_number_is_one_line_at_file_and_line_exit_10() {
    let (d, o) = with_usage(
        "negative",
        "resource_usage:\n  aws_s3_bucket.usage:\n    storage_gb: -1\n",
    );
    crate::common::assert_one_line_error(
        &o,
        10,
        "carbon-usage.yml:3: \"aws_s3_bucket.usage\": storage_gb is -1: it cannot be negative",
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_unknown_key_is_warned_about_by_name() {
    let (d, o) = with_usage(
        "unknown-key",
        "resource_usage:\n  aws_s3_bucket.usage:\n    storage_tb: 1\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("carbon-show: warning: carbon-usage.yml:3: \"aws_s3_bucket.usage\": unknown usage key \"storage_tb\" ignored"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_address_that_matches_nothing_is_warned_about_by_name() {
    let (d, o) = with_usage(
        "unmatched",
        "resource_usage:\n  aws_s3_bucket.usage:\n    storage_gb: 1\n  aws_s3_bucket.typo:\n    storage_gb: 1\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("carbon-show: warning: carbon-usage.yml:4: resource_usage \"aws_s3_bucket.typo\" matches no resource of the plan"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// With usage, the figure says where it comes from: the JSON lists the inputs and counts the
/// figure, the `# ≈` line and the summary say it, and so does `explain`.
#[test]
fn a_usage_figure_says_it_comes_from_the_usage_file() {
    let (d, o) = with_usage(
        "provenance",
        "resource_usage:\n  aws_s3_bucket.usage:\n    storage_gb: 500\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["schema_version"], "1.5");
    assert_eq!(v["counts"]["from_usage"], 1);
    let bucket = v["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["address"] == "aws_s3_bucket.usage")
        .unwrap();
    assert_eq!(bucket["status"], "estimated");
    assert_eq!(bucket["usage"][0]["key"], "storage_gb");
    assert_eq!(bucket["usage"][0]["value"], 500.0);
    assert_eq!(bucket["usage"][0]["file"], "carbon-usage.yml");
    // 0.5 TB × 3 copies × 0.65 W/TB × 1.135 ÷ 1000 × 379.069 g/kWh
    let g = bucket["after"]["per_hour"]["total_gco2eq"]
        .as_f64()
        .unwrap();
    assert!((g - 0.975 * 1.135 / 1000.0 * 379.069).abs() < 1e-9, "{g}");
    let p = plan("infracost/example_plan.json");
    let human = stdout(&run_in(&d, &["--color", "never", &p]));
    assert!(
        human.contains(
            "# ≈ assumed from carbon-usage.yml: storage_gb = 500 (GB stored, monthly average)"
        ),
        "{human}"
    );
    assert!(
        human.contains("from declared usage: 1 figure rests on usage declared in carbon-usage.yml"),
        "{human}"
    );
    let md = stdout(&run_in(&d, &["--format", "markdown", &p]));
    assert!(md.contains("**From declared usage:** 1 estimated figure rests on usage declared in `carbon-usage.yml`"), "{md}");
    let explain = stdout(&run_in(&d, &["explain", "aws_s3_bucket.usage", &p]));
    assert!(
        explain.contains("usage from carbon-usage.yml: storage_gb = 500"),
        "{explain}"
    );
    assert!(explain.contains("instances = 3"), "{explain}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `--usage FILE` and the configuration's `usage` key name the file; `--usage` wins.
#[test]
fn usage_flag_and_configuration_key() {
    let d = tmp_dir("flag");
    std::fs::write(
        d.join("a.yml"),
        "resource_usage:\n  aws_s3_bucket.usage:\n    storage_gb: 100\n",
    )
    .unwrap();
    std::fs::write(
        d.join("b.yml"),
        "resource_usage:\n  aws_s3_bucket.usage:\n    storage_gb: 200\n",
    )
    .unwrap();
    std::fs::write(d.join(".carbon-show.toml"), "usage = \"a.yml\"\n").unwrap();
    let p = plan("infracost/example_plan.json");
    let gb = |v: &Value| {
        v["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["address"] == "aws_s3_bucket.usage")
            .unwrap()["usage"][0]["value"]
            .as_f64()
    };
    assert_eq!(gb(&json_in(&d, &[&p])), Some(100.0));
    assert_eq!(gb(&json_in(&d, &["--usage", "b.yml", &p])), Some(200.0));
    let o = run_in(&d, &["config"]);
    assert!(
        stdout(&o).contains("usage = \"") && stdout(&o).contains("a.yml"),
        "{}",
        stdout(&o)
    );
    let o = run_in(&d, &["--usage", "missing.yml", &p]);
    crate::common::assert_one_line_error(&o, 10, "missing.yml: cannot read the usage file");
    let _ = std::fs::remove_dir_all(&d);
}

/// Issue 26 item 3, every new type by hand (testdata/usage/plan.json, us-east-1: grid 379.069
/// g/kWh, PUE 1.135): the fleets are their instance type × target capacity (an m5.large's
/// figure is the `aws_instance`'s without its 8 GB root volume); the EKS control plane and a
/// Batch environment are unsupported with their reasons; the NAT gateway, load balancer,
/// bucket and function are priced from the usage file; `monthly_hours` scales the fleet.
#[test]
fn new_types_by_hand() {
    let d = tmp_dir("new-types");
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/usage/plan.json")
        .display()
        .to_string();
    let find = |v: &Value, a: &str| -> Value {
        v["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["address"] == a)
            .unwrap()
            .clone()
    };
    let g = |r: &Value| r["after"]["per_hour"]["total_gco2eq"].as_f64().unwrap();
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
    let per_kwh = 1.135 * 379.069 / 1000.0; // g per W for one hour
    let v = json_in(&d, &[&p]);
    let one = find(&v, "aws_instance.one");
    let m5 = g(&one) - one["after"]["ssd_gb"].as_f64().unwrap() / 1000.0 * 1.2 * per_kwh;
    assert_eq!(one["after"]["ssd_gb"], 8.0);
    assert!(close(g(&find(&v, "aws_ec2_fleet.dev")), 4.0 * m5));
    assert!(close(
        g(&find(&v, "aws_spot_fleet_request.batch")),
        3.0 * m5
    ));
    assert_eq!(
        find(&v, "aws_eks_cluster.main")["reason"],
        "EKS control plane: AWS documents no size for it (node groups are counted)"
    );
    assert_eq!(
        find(&v, "aws_batch_compute_environment.jobs")["reason"],
        "Batch sets its instances from the queued jobs at run time: no count in the plan"
    );
    for (a, key) in [
        ("aws_nat_gateway.main", "monthly_data_processed_gb"),
        ("aws_lb.web", "monthly_data_processed_gb"),
        ("aws_s3_bucket.logs", "storage_gb"),
    ] {
        assert_eq!(
            find(&v, a)["reason"],
            format!("needs {key} in carbon-usage.yml (carbon-show usage template)")
        );
    }
    // the function without usage: one environment busy all hour, 1 vCPU (1,769 MB) at 50 %
    // and 1.7275 GiB, plus the AWS embodied fallback per vCPU-hour (data/embodied.json: the
    // host model's median, g per vCPU-hour)
    let embodied: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/embodied.json"))
            .unwrap(),
    )
    .unwrap();
    let fallback_g = embodied["fallback"]["aws"]["kgCO2eqPerVcpuHour"]
        .as_f64()
        .unwrap()
        * 1000.0;
    let busy = (2.12 + 1769.0 / 1024.0 * 0.392) * per_kwh + fallback_g;
    assert!(close(g(&find(&v, "aws_lambda_function.api")), busy));

    std::fs::write(
        d.join("carbon-usage.yml"),
        "resource_usage:\n  aws_nat_gateway.main:\n    monthly_data_processed_gb: 1000\n  aws_lb.web:\n    monthly_data_processed_gb: 7300\n  aws_s3_bucket.logs:\n    storage_gb: 500\n  aws_lambda_function.api:\n    monthly_requests: 2000000\n    average_duration_ms: 120\n  aws_ec2_fleet.dev:\n    monthly_hours: 219\n",
    )
    .unwrap();
    let v = json_in(&d, &[&p]);
    assert_eq!(v["counts"]["from_usage"], 5);
    assert!(close(
        g(&find(&v, "aws_nat_gateway.main")),
        1000.0 * 0.001 * 1000.0 / 730.0 * per_kwh
    ));
    assert!(close(g(&find(&v, "aws_lb.web")), 10.0 * per_kwh));
    assert!(close(
        g(&find(&v, "aws_s3_bucket.logs")),
        0.5 * 3.0 * 0.65 * per_kwh
    ));
    let share = 2_000_000.0 * 0.120 / (730.0 * 3600.0);
    assert!(close(g(&find(&v, "aws_lambda_function.api")), share * busy));
    assert!(close(
        g(&find(&v, "aws_ec2_fleet.dev")),
        4.0 * m5 * 219.0 / 730.0
    ));
    let f = find(&v, "aws_lambda_function.api");
    assert!(
        !f["assumptions"].to_string().contains("busy all hour"),
        "{}",
        f["assumptions"]
    );
    let _ = std::fs::remove_dir_all(&d);
}
