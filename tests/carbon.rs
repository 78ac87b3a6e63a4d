//! End-to-end tests of the carbon figures: golden snapshots of every format on the demo plan and
//! small fixtures (`testdata/demo`, `testdata/carbon`, written by `testdata/demo/make_plan.py`),
//! hand-checked arithmetic, the carbon flags, `mappings check`, sensitive values and broken pipes.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use serde_json::Value;

use crate::common::{bin, stderr, stdout};

const FORMATS: [&str; 4] = ["human", "json", "markdown", "impact-framework"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary from the crate root (so paths in the output are relative and stable).
fn run_in_root(args: &[&str]) -> Output {
    // OpenTofu's wording, as snapshotted: the fixtures' providers are registry.terraform.io
    // ones, which the default `--flavor auto` would word as Terraform
    let flavor: &[&str] = if args.first() == Some(&"mappings") || args.contains(&"--flavor") {
        &[]
    } else {
        &["--flavor", "opentofu"]
    };
    bin()
        .args(flavor)
        .args(args)
        .current_dir(root())
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .expect("run carbon-show")
}

/// Runs one format on a file (relative to the crate root); asserts success.
fn show(file: &str, format: &str, extra: &[&str]) -> String {
    let mut args = vec![file, "--color", "never", "--format", format];
    args.extend_from_slice(extra);
    let o = run_in_root(&args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    assert!(stderr(&o).is_empty(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

fn json_report(file: &str, extra: &[&str]) -> Value {
    serde_json::from_str(&show(file, "json", extra)).expect("the json format is JSON")
}

fn resource<'a>(report: &'a Value, address: &str) -> &'a Value {
    report["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["address"] == address)
        .unwrap_or_else(|| panic!("{address} not in the report"))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

fn assert_close(actual: f64, expected: f64, what: &str) {
    let tol = 1e-6 * expected.abs().max(1e-12);
    assert!(
        (actual - expected).abs() <= tol,
        "{what}: {actual} != {expected} (hand calculation)"
    );
}

// ------------------------------------------------------------------ golden snapshots

const SNAPSHOT_FILES: [(&str, &str); 7] = [
    ("demo", "testdata/demo/plan.json"),
    ("create", "testdata/carbon/create.json"),
    ("changes", "testdata/carbon/changes.json"),
    ("modules", "testdata/carbon/modules.json"),
    ("mixed", "testdata/carbon/mixed.json"),
    ("unknown", "testdata/carbon/unknown.json"),
    ("state", "testdata/carbon/state.json"),
];

fn snapshot_all_formats(name: &str, file: &str) {
    for format in FORMATS {
        let out = show(file, format, &[]);
        insta::assert_snapshot!(format!("carbon_{name}_{format}"), out);
    }
}

#[test]
fn carbon_snapshots_demo() {
    snapshot_all_formats("demo", "testdata/demo/plan.json");
}

#[test]
fn carbon_snapshots_create() {
    snapshot_all_formats("create", "testdata/carbon/create.json");
}

#[test]
fn carbon_snapshots_changes() {
    snapshot_all_formats("changes", "testdata/carbon/changes.json");
}

#[test]
fn carbon_snapshots_modules() {
    snapshot_all_formats("modules", "testdata/carbon/modules.json");
}

#[test]
fn carbon_snapshots_mixed() {
    snapshot_all_formats("mixed", "testdata/carbon/mixed.json");
}

#[test]
fn carbon_snapshots_unknown() {
    snapshot_all_formats("unknown", "testdata/carbon/unknown.json");
}

#[test]
fn carbon_snapshots_state() {
    snapshot_all_formats("state", "testdata/carbon/state.json");
}

// ------------------------------------------------------------------ the demo plan is sound

#[test]
fn carbon_demo_plan_is_complete() {
    let r = json_report("testdata/demo/plan.json", &[]);
    // 15 estimated resources; the bucket is unsupported and says why (its size is not in the
    // plan: issue 16 D, it was "not estimated" while the summary said "0 unsupported"); the
    // ignored ones are deliberate.
    assert_eq!(
        r["counts"],
        serde_json::json!({"estimated": 15, "not_estimated": 0, "unsupported": 1, "ignored": 4, "from_usage": 0})
    );
    assert_eq!(r["unsupported"], serde_json::json!([]));
    let bucket = resource(&r, "google_storage_bucket.assets");
    assert_eq!(bucket["status"], "unsupported");
    assert_eq!(
        bucket["reason"], "needs storage_gb in carbon-usage.yml (carbon-show usage template)",
        "{bucket}"
    );
    for res in r["resources"].as_array().unwrap() {
        let addr = res["address"].as_str().unwrap();
        if addr == "google_storage_bucket.assets" {
            continue;
        }
        assert_eq!(res["status"], "estimated", "{addr}");
        for side in ["before", "after"] {
            let s = &res[side];
            if s.is_null() {
                continue;
            }
            assert!(s["region"].is_string(), "{addr} {side}: no region");
            assert!(f(&s["grid_g_per_kwh"]) > 0.0, "{addr} {side}");
            assert!(f(&s["per_hour"]["total_gco2eq"]) > 0.0, "{addr} {side}");
        }
        // the only warning-free exception is the deliberate unknown machine type
        assert_eq!(res["warnings"], serde_json::json!([]), "{addr}");
        let assumed = res["assumptions"].as_array().unwrap();
        if addr == "google_compute_instance.preview" {
            assert_eq!(assumed.len(), 1, "{addr}");
            assert!(assumed[0].as_str().unwrap().contains("n1-standard-1"));
        } else if addr == "aws_lambda_function.thumbnail" {
            assert_eq!(assumed.len(), 1, "{addr}");
            assert!(assumed[0].as_str().unwrap().contains("busy all hour"));
        } else if addr.starts_with("aws_instance.worker[") {
            // t3.medium: its published baseline, 20 % per vCPU, is its default utilisation
            assert_eq!(
                assumed,
                &[serde_json::json!(
                    "CPU utilisation 20 % (t3.medium's published baseline; --utilization overrides)"
                )],
                "{addr}"
            );
        } else {
            assert!(assumed.is_empty(), "{addr}: {assumed:?}");
        }
    }
    // the region given only through var.region, the aliased provider in module.eu
    assert_eq!(
        resource(&r, "aws_instance.worker[1]")["after"]["region"],
        "us-east-1"
    );
    assert_eq!(
        resource(&r, "module.eu.module.cache.aws_elasticache_cluster.this")["after"]["region"],
        "eu-west-1"
    );
    assert_eq!(
        resource(&r, "module.eu.aws_instance.app[\"api\"]")["after"]["region"],
        "eu-west-1"
    );
    let human = show("testdata/demo/plan.json", "human", &[]);
    assert!(human.contains("Plan: 17 to add, 2 to change, 2 to destroy."));
    assert!(human.contains("resources: 15 estimated, 0 not estimated, 1 unsupported, 4 ignored"));
    assert!(!human.contains("region unknown"));
}

// ------------------------------------------------------------------ hand calculations

/// aws_instance.web before the update: m5.large in us-east-1 (region from var.region),
/// 20 GB gp3 root volume, 50 % utilisation.
///
/// data/aws_instances.json: m5.large = 2 vCPU, 8192 MiB = 8 GB, CPUTypes [Skylake]
/// data/coefficients.json: Skylake 0.65 .. 4.26 W/vCPU; AWS memory 0.392 W/GB, SSD 1.2 W/TB,
///   PUE 1.135; data/grid_intensity.json: us-east-1 379.069 g/kWh
/// data/embodied.json: m5 family 1610.3792 kg over 35,040 h, largest size 96 vCPU
///
///   CPU     2 × (0.65 + 0.5 × (4.26 − 0.65)) = 2 × 2.455 = 4.91 W
///   memory  8 × 0.392                         = 3.136 W
///   SSD     0.020 TB × 1.2                    = 0.024 W
///   power                                      = 8.07 W
///   energy  8.07 / 1000 × 1.135               = 0.00915945 kWh
///   operational 0.00915945 × 379.069          = 3.47206… g
///   embodied 1610.3792 / 35040 × 2 / 96 × 1000 = 0.957465… g
///   total                                      = 4.42953… gCO2eq/h
#[test]
fn carbon_hand_calculation_m5_large_us_east_1() {
    let r = json_report("testdata/demo/plan.json", &[]);
    let side = &resource(&r, "aws_instance.web")["before"];
    assert_eq!(side["machine_type"], "m5.large");
    assert_eq!(side["region"], "us-east-1");
    let p = &side["per_hour"];
    let power = 2.0 * (0.65 + 0.5 * (4.26 - 0.65)) + 8.0 * 0.392 + 0.020 * 1.2;
    let energy = power / 1000.0 * 1.135;
    let operational = energy * 379.069;
    let embodied = 1610.3792 / 35040.0 * 2.0 / 96.0 * 1000.0;
    assert_close(power, 8.07, "power by hand");
    assert_close(f(&p["power_w"]), power, "power_w");
    assert_close(f(&p["energy_kwh"]), energy, "energy_kwh");
    assert_close(f(&p["operational_gco2eq"]), operational, "operational");
    assert_close(f(&p["embodied_gco2eq"]), embodied, "embodied");
    assert_close(f(&p["total_gco2eq"]), operational + embodied, "total");
    assert_close(f(&p["total_gco2eq"]), 4.429_53, "total ≈ 4.42953");
}

/// google_compute_instance.app: n2-standard-4 in europe-west1 (zone europe-west1-b),
/// 50 GB pd-ssd boot disk, 50 % utilisation.
///
/// data/gcp_instances.json: n2-standard-4 = 4 vCPU, 16384 MiB = 16 GB, cpuTypes [Cascade Lake]
/// data/coefficients.json: Cascade Lake 0.64 .. 3.97 W/vCPU; GCP memory 0.392 W/GB,
///   SSD 1.2 W/TB, PUE in europe-west1 1.09 (pueByRegion); grid europe-west1 110 g/kWh
/// data/embodied.json: n2-standard family 1887.9 kg over 35,040 h, largest 128 vCPU
///
///   CPU     4 × (0.64 + 0.5 × 3.33) = 4 × 2.305 = 9.22 W
///   memory  16 × 0.392              = 6.272 W
///   SSD     0.050 × 1.2             = 0.06 W
///   power                            = 15.552 W
///   energy  15.552 / 1000 × 1.09    = 0.01695168 kWh
///   operational × 110               = 1.8646848 g
///   embodied 1887.9 / 35040 × 4 / 128 × 1000 = 1.683701… g
///   total                            = 3.548386… gCO2eq/h
#[test]
fn carbon_hand_calculation_n2_standard_4_europe_west1() {
    let r = json_report("testdata/demo/plan.json", &[]);
    let side = &resource(&r, "google_compute_instance.app")["after"];
    assert_eq!(side["machine_type"], "n2-standard-4");
    assert_eq!(side["region"], "europe-west1");
    let p = &side["per_hour"];
    let power = 4.0 * (0.64 + 0.5 * (3.97 - 0.64)) + 16.0 * 0.392 + 0.050 * 1.2;
    let energy = power / 1000.0 * 1.09;
    let operational = energy * 110.0;
    // host model: n2-standard-128 (two sockets, 512 GB; CCF's 1,887.9 kg is not reproduced by
    // its parts, so it is the band's top) at CCF's coefficients: CPU and chassis 1,000 − 16 ×
    // 1.3869 + 100 kg by vCPU (4 of 128), memory 16 GB × 1.3869 kg
    let chassis = 1000.0 - 16.0 * 1.3869 + 100.0;
    let embodied = (chassis * 4.0 / 128.0 + 16.0 * 1.3869) / 35040.0 * 1000.0;
    assert_close(power, 15.552, "power by hand");
    assert_close(f(&p["power_w"]), power, "power_w");
    assert_close(f(&p["energy_kwh"]), energy, "energy_kwh");
    assert_close(f(&p["operational_gco2eq"]), operational, "operational");
    assert_close(f(&p["embodied_gco2eq"]), embodied, "embodied");
    assert_close(f(&p["total_gco2eq"]), operational + embodied, "total");
    assert_close(operational, 1.864_684_8, "operational ≈ 1.8646848");
}

/// azurerm_linux_virtual_machine.app: Standard_D2s_v5 in westeurope, 64 GB Premium_LRS OS disk.
///
/// data/azure_instances.json: Standard_D2s_v5 = 2 vCPU, 8 GB, cpuTypes [Ice Lake]; Ice Lake is
///   not in the architecture table, so `data::cpu_watts_per_vcpu` gives Azure's fallback
///   0.74 .. 3.54 W/vCPU; memory 0.392 W/GB, SSD 1.2 W/TB, PUE 1.185; westeurope 328.4 g/kWh
/// data/embodied.json: "D2s – D96s v5" family, a one-socket 96-vCPU, 384 GB host (CCF's 1510.4 kg
///   is its parts at CCF's coefficients, to 0.03 kg), shared by what the instance holds: CPU and
///   chassis (1,000 − 16 × 1.3869 kg) by vCPU, memory 1.3869 kg per GB
///
///   CPU     2 × (0.74 + 0.5 × 2.8) = 4.28 W
///   memory  8 × 0.392              = 3.136 W
///   SSD     0.064 × 1.2            = 0.0768 W
///   power                           = 7.4928 W
///   energy  7.4928 / 1000 × 1.185  = 0.008878968 kWh
///   operational × 328.4            = 2.915853… g
///   embodied ((1000 − 22.1904) × 2 / 96 + 8 × 1.3869) / 35040 × 1000 = 0.898009… g
///   total                           = 3.813862… gCO2eq/h
#[test]
fn carbon_hand_calculation_standard_d2s_v5_westeurope() {
    let r = json_report("testdata/demo/plan.json", &[]);
    let side = &resource(&r, "azurerm_linux_virtual_machine.app")["after"];
    assert_eq!(side["machine_type"], "Standard_D2s_v5");
    assert_eq!(side["region"], "westeurope");
    let p = &side["per_hour"];
    let power = 2.0 * (0.74 + 0.5 * (3.54 - 0.74)) + 8.0 * 0.392 + 0.064 * 1.2;
    let energy = power / 1000.0 * 1.185;
    let operational = energy * 328.4;
    let embodied = ((1000.0 - 16.0 * 1.3869) * 2.0 / 96.0 + 8.0 * 1.3869) / 35040.0 * 1000.0;
    assert_close(power, 7.4928, "power by hand");
    assert_close(f(&p["power_w"]), power, "power_w");
    assert_close(f(&p["energy_kwh"]), energy, "energy_kwh");
    assert_close(f(&p["operational_gco2eq"]), operational, "operational");
    assert_close(f(&p["embodied_gco2eq"]), embodied, "embodied");
    assert_close(f(&p["total_gco2eq"]), operational + embodied, "total");
}

/// The coefficients written out above are the ones the embedded tables hold.
#[test]
fn carbon_hand_calculation_coefficients_match_data() {
    use carbon_show::data::{self, Provider};
    let skylake = data::cpu_watts_per_vcpu(Provider::Aws, &["Skylake"]).unwrap();
    assert_eq!((skylake.min_watts, skylake.max_watts), (0.65, 4.26));
    let cascade = data::cpu_watts_per_vcpu(Provider::Gcp, &["Cascade Lake"]).unwrap();
    assert_eq!((cascade.min_watts, cascade.max_watts), (0.64, 3.97));
    let ice = data::cpu_watts_per_vcpu(Provider::Azure, &["Ice Lake"]).unwrap();
    assert_eq!((ice.min_watts, ice.max_watts), (0.74, 3.54));
    assert_eq!(
        data::pue_in_region(Provider::Gcp, "europe-west1"),
        Some(1.09)
    );
    assert_eq!(data::pue(Provider::Aws), Some(1.135));
    assert_eq!(data::pue(Provider::Azure), Some(1.185));
    let grid = |p, r| data::grid_intensity(p, r).unwrap().g_co2eq_per_kwh;
    assert_eq!(grid(Provider::Aws, "us-east-1"), 379.069);
    assert_eq!(grid(Provider::Gcp, "europe-west1"), 110.0);
    assert_eq!(grid(Provider::Azure, "westeurope"), 328.4);
    assert_close(
        data::embodied_kg_per_hour(Provider::Aws, "m5.large").unwrap(),
        1610.3792 / 35040.0 * 2.0 / 96.0,
        "m5.large embodied",
    );
}

#[test]
fn carbon_count_and_replicas_multiply() {
    let r = json_report("testdata/demo/plan.json", &[]);
    // multi-AZ RDS: 2 replicas of one db.m5.large, each like an m5.large with 100 GB SSD
    let db = &resource(&r, "aws_db_instance.main")["after"];
    assert_eq!(f(&db["instances"]), 2.0);
    let one = 2.0 * 2.455 + 8.0 * 0.392 + 0.1 * 1.2;
    assert_close(f(&db["per_hour"]["power_w"]), 2.0 * one, "db power × 2");
    assert_close(
        f(&db["per_hour"]["operational_gco2eq"]),
        2.0 * one / 1000.0 * 1.135 * 379.069,
        "db operational × 2",
    );
    // num_cache_nodes = 2
    let cache = &resource(&r, "module.eu.module.cache.aws_elasticache_cluster.this")["after"];
    assert_eq!(f(&cache["instances"]), 2.0);
    // count = 3: three instances, each with its own identical figures
    let w: Vec<f64> = (0..3)
        .map(|i| {
            f(&resource(&r, &format!("aws_instance.worker[{i}]"))["after"]["per_hour"]["total_gco2eq"])
        })
        .collect();
    assert!(w[0] > 0.0 && w[0] == w[1] && w[1] == w[2], "{w:?}");

    // modules fixture: multi_az only on "blue"
    let m = json_report("testdata/carbon/modules.json", &[]);
    let blue = &resource(&m, "module.app[\"blue\"].module.db.aws_db_instance.this")["after"];
    let green = &resource(&m, "module.app[\"green\"].module.db.aws_db_instance.this")["after"];
    assert_eq!(f(&blue["instances"]), 2.0);
    assert_eq!(f(&green["instances"]), 1.0);
    assert_close(
        f(&blue["per_hour"]["total_gco2eq"]),
        2.0 * f(&green["per_hour"]["total_gco2eq"]),
        "replicas double",
    );
}

#[test]
fn carbon_deletes_give_a_negative_delta() {
    let r = json_report("testdata/carbon/changes.json", &[]);
    let old = resource(&r, "aws_instance.old");
    assert!(old["after"].is_null());
    let before = f(&old["before"]["per_hour"]["total_gco2eq"]);
    assert!(before > 0.0);
    assert_close(
        f(&old["delta_per_hour"]["total_gco2eq"]),
        -before,
        "delete delta",
    );
    let demo = json_report("testdata/demo/plan.json", &[]);
    let scratch = resource(&demo, "aws_ebs_volume.scratch");
    // 500 GB st1 (HDD): 0.5 × 0.65 W × 1.135 / 1000 × 379.069 g/kWh
    assert_close(
        f(&scratch["delta_per_hour"]["operational_gco2eq"]),
        -(0.5 * 0.65 / 1000.0 * 1.135 * 379.069),
        "scratch volume saving",
    );
    let human = show("testdata/carbon/changes.json", "human", &[]);
    assert!(
        human.contains(
            "  # aws_instance.old will be destroyed\n  # ≈ -10.3 kgCO2eq/month [-14.1 to -5.80] · -14.1 g/h"
        ),
        "{human}"
    );
    // replacing an identical r5.large changes nothing
    let db = resource(&r, "aws_instance.db");
    assert_eq!(f(&db["delta_per_hour"]["total_gco2eq"]), 0.0);
}

#[test]
fn carbon_totals_equal_the_sum_of_resources() {
    for (_, file) in SNAPSHOT_FILES {
        let r = json_report(file, &[]);
        for (total, side) in [
            ("before_per_hour", Some("before")),
            ("after_per_hour", Some("after")),
            ("delta_per_hour", None),
        ] {
            for key in [
                "power_w",
                "energy_kwh",
                "operational_gco2eq",
                "embodied_gco2eq",
                "total_gco2eq",
            ] {
                let sum: f64 = r["resources"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|res| match side {
                        Some(s) if res[s].is_null() => 0.0,
                        Some(s) => f(&res[s]["per_hour"][key]),
                        None => f(&res["delta_per_hour"][key]),
                    })
                    .sum();
                let t = f(&r["totals"][total][key]);
                assert!(
                    (t - sum).abs() <= 1e-9 * sum.abs().max(1.0),
                    "{file} {total}.{key}: {t} != Σ {sum}"
                );
            }
        }
        let hours = f(&r["headline"]["hours"]);
        assert_eq!(hours, 730.0);
        assert_close(
            f(&r["headline"]["delta_gco2eq"]),
            f(&r["totals"]["delta_per_hour"]["total_gco2eq"]) * 730.0,
            file,
        );
    }
}

// ------------------------------------------------------------------ flags

/// The annotated rendering without its `# ≈` and `# ↳` lines and its Carbon summary block.
fn strip_carbon(annotated: &str) -> String {
    let lines: Vec<&str> = annotated.split_inclusive('\n').collect();
    let mut out: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.trim_start().starts_with("# ≈") || l.trim_start().starts_with("# ↳") {
            i += 1;
            continue;
        }
        if l.starts_with("Carbon ≈") || l.starts_with("Carbon: ") {
            // the summary: a blank line, `Carbon …`, then indented lines
            assert_eq!(out.pop(), Some("\n"), "no blank line before the summary");
            i += 1;
            while i < lines.len() && lines[i].starts_with("  ") {
                i += 1;
            }
            continue;
        }
        out.push(l);
        i += 1;
    }
    out.concat()
}

#[test]
fn carbon_no_carbon_is_the_plain_opentofu_rendering() {
    for (_, file) in SNAPSHOT_FILES {
        let plain = show(file, "human", &["--no-carbon"]);
        assert!(!plain.contains('≈'), "{file}: {plain}");
        assert!(!plain.contains("Carbon"), "{file}: {plain}");
        assert!(!plain.contains("CO2eq"), "{file}: {plain}");
        let annotated = show(file, "human", &[]);
        assert!(annotated.contains("# ≈"), "{file}");
        assert!(annotated.contains("\nCarbon ≈ "), "{file}");
        // the annotated rendering is exactly the plain one plus `≈` lines and the summary
        assert_eq!(strip_carbon(&annotated), plain, "{file}");
    }
    // --no-carbon prints exactly what OpenTofu printed for the render corpus
    let mut checked = 0;
    let corpus = root().join("testdata/render");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("plan.json").is_file() && p.join("expected.txt").is_file())
        .filter(|p| !p.join("args").exists())
        .collect();
    cases.sort();
    for case in cases {
        let mut cmd = bin();
        cmd.arg(case.join("plan.json"))
            .args(["--color", "never", "--no-carbon"]);
        if case.join("schemas.json").is_file() {
            cmd.arg("--schemas").arg(case.join("schemas.json"));
        }
        let o = cmd.stdin(Stdio::null()).output().unwrap();
        let expected = std::fs::read_to_string(case.join("expected.txt")).unwrap();
        assert_eq!(stdout(&o), expected, "{}", case.display());
        checked += 1;
    }
    assert!(checked >= 40, "{checked}");
}

#[test]
fn carbon_period_changes_the_headline() {
    let file = "testdata/carbon/create.json";
    let month = json_report(file, &[]);
    let per_hour = f(&month["totals"]["delta_per_hour"]["total_gco2eq"]);
    for (period, hours) in [("hour", 1.0), ("month", 730.0), ("year", 8760.0)] {
        let r = json_report(file, &["--period", period]);
        assert_eq!(r["headline"]["period"], period);
        assert_eq!(f(&r["headline"]["hours"]), hours);
        assert_close(f(&r["headline"]["delta_gco2eq"]), per_hour * hours, period);
    }
    let hour = show(file, "human", &["--period", "hour"]);
    let year = show(file, "human", &["--period", "year"]);
    let month = show(file, "human", &[]);
    assert!(hour.contains("Carbon ≈ +"), "{hour}");
    assert!(hour.contains("gCO2eq/h: "), "{hour}");
    assert!(year.contains("per year"), "{year}");
    assert!(year.contains("kgCO2eq/year [25.9–50.0] · "), "{year}");
    assert!(month.contains("per month"), "{month}");
    assert_ne!(hour, year);
}

#[test]
fn carbon_utilization_changes_cpu_power_as_the_formula_says() {
    let file = "testdata/carbon/create.json";
    let lo = json_report(file, &["--utilization", "0"]);
    let hi = json_report(file, &["--utilization", "1"]);
    let half = json_report(file, &["--utilization", "50%"]);
    assert_eq!(f(&lo["utilization"]), 0.0);
    assert_eq!(f(&hi["utilization"]), 1.0);
    let p = |r: &Value| f(&resource(r, "aws_instance.web")["after"]["per_hour"]["power_w"]);
    // m5.large: 2 vCPU × Skylake 0.65 W (u = 0) / 4.26 W (u = 1); memory 3.136 W; 100 GB SSD 0.12 W
    assert_close(p(&lo), 2.0 * 0.65 + 3.136 + 0.12, "power at u = 0");
    assert_close(p(&hi), 2.0 * 4.26 + 3.136 + 0.12, "power at u = 1");
    assert_close(p(&half), 2.0 * 2.455 + 3.136 + 0.12, "power at u = 0.5");
    // storage-only resources do not depend on utilisation
    let d = |r: &Value| f(&resource(r, "aws_ebs_volume.data")["after"]["per_hour"]["power_w"]);
    assert_eq!(d(&lo), d(&hi));
    assert_close(d(&lo), 0.2 * 1.2, "200 GB gp3");
}

#[test]
fn carbon_bad_flag_values_are_usage_errors() {
    for args in [
        &["--utilization", "2"][..],
        &["--utilization", "-0.1"][..],
        &["--utilization", "lots"][..],
        &["--fail-over", "10lb"][..],
        &["--fail-over", "10kg/fortnight"][..],
        &["--period", "week"][..],
        &["--format", "yaml"][..],
    ] {
        let mut a = vec!["testdata/carbon/create.json"];
        a.extend_from_slice(args);
        let o = run_in_root(&a);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}");
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}

#[test]
fn carbon_fail_over_exits_3_with_the_output_written() {
    // the demo adds 32.1 kgCO2eq/month (43.9 g/h)
    let full = show("testdata/demo/plan.json", "human", &[]);
    let o = run_in_root(&[
        "testdata/demo/plan.json",
        "--color",
        "never",
        "--fail-over",
        "10kg/month",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err:?}");
    assert!(err.contains("32.1 kgCO2eq/month"), "{err}");
    assert!(err.contains("10.0 kgCO2eq/month"), "{err}");
    // the output in full, the gate named under the headline
    let gate = "  not the defaults: fail-over 10kg/month (--fail-over)\n";
    assert!(stdout(&o).contains(gate), "{}", stdout(&o));
    assert_eq!(stdout(&o).replacen(gate, "", 1), full);
    // the same in every format
    for format in FORMATS {
        let o = run_in_root(&[
            "testdata/demo/plan.json",
            "--format",
            format,
            "--fail-over",
            "43g/h",
        ]);
        assert_eq!(o.status.code(), Some(3), "{format}");
        let mut out = (stdout(&o))
            .replacen("  not the defaults: fail-over 43g/h (--fail-over)\n", "", 1)
            .replacen(
                "\n**Not the defaults:** fail-over `43g/h` (`--fail-over`).\n",
                "",
                1,
            );
        // the verdict (issue 25): the comment's line under the headline, the JSON's member
        if let Some(start) = out.find("\n**⛔ Over the `--fail-over` budget**") {
            let end = start + 1 + out[start + 1..].find('\n').unwrap() + 1;
            out.replace_range(start..end, "");
        }
        if format == "json" {
            let mut v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["fail_over"]["exceeded"], true);
            v.as_object_mut().unwrap().remove("fail_over");
            let plain: serde_json::Value =
                serde_json::from_str(&show("testdata/demo/plan.json", format, &[])).unwrap();
            assert_eq!(v, plain);
            continue;
        }
        assert_eq!(out, show("testdata/demo/plan.json", format, &[]));
    }
    for budget in ["100kg/month", "32.6kg", "1t/year", "45g/h"] {
        let o = run_in_root(&["testdata/demo/plan.json", "--fail-over", budget]);
        assert_eq!(o.status.code(), Some(0), "{budget}: {}", stderr(&o));
        assert!(stderr(&o).is_empty());
    }
    // a plan that only saves never fails, even against a zero budget
    let o = run_in_root(&["testdata/carbon/changes.json", "--fail-over", "0g"]);
    let r = json_report("testdata/carbon/changes.json", &[]);
    let delta = f(&r["totals"]["delta_per_hour"]["total_gco2eq"]);
    assert_eq!(o.status.code(), Some(if delta > 0.0 { 3 } else { 0 }));
}

// ------------------------------------------------------------------ mappings

#[test]
fn carbon_mappings_check_good_and_broken_folders() {
    for good in ["mappings", "testdata/mapping/override"] {
        let o = run_in_root(&["mappings", "check", good]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{good}: {}{}",
            stdout(&o),
            stderr(&o)
        );
        assert!(stdout(&o).contains("0 error(s)"), "{}", stdout(&o));
    }
    let o = run_in_root(&["mappings", "check", "testdata/mapping/bad"]);
    assert_eq!(o.status.code(), Some(8), "{}", stderr(&o));
    let out = stdout(&o);
    let line = regex::Regex::new(r"^[^:\s]+\.yaml:\d+:\d+: .+$").unwrap();
    let problems: Vec<&str> = out.lines().filter(|l| line.is_match(l)).collect();
    for (file, needle) in [
        ("syntax.yaml", "YAML"),
        ("unknown_key.yaml", "unknown key \"propertees\""),
        ("bad_jq.yaml", "jq:"),
        ("bad_regex.yaml", "bad regex"),
        ("missing_data.yaml", "no_such_table.json"),
    ] {
        assert!(
            problems
                .iter()
                .any(|l| l.contains(file) && l.contains(needle)),
            "{file}: {needle:?} not reported in\n{out}"
        );
    }
    assert!(stderr(&o).lines().count() == 1, "{}", stderr(&o));
}

#[test]
fn carbon_mappings_check_reports_exact_positions() {
    let dir = tmp_dir("badmap");
    std::fs::create_dir_all(dir.join("aws")).unwrap();
    std::fs::write(
        dir.join("aws/broken.yaml"),
        "compute_resource:\n  aws_q:\n    paths: cbf::all_select(\"type\"; \"aws_q\")\n    propertees:\n      name:\n        - paths: .name\n",
    )
    .unwrap();
    // an unknown key is an error for the validator (loading only warns): exit 8
    let o = run_in_root(&["mappings", "check", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(8), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("broken.yaml:4:5: unknown key \"propertees\""),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("1 error(s)"), "{}", stdout(&o));
    // a bad regex too: both problems are listed with their positions
    std::fs::write(
        dir.join("aws/regex.yaml"),
        "compute_resource:\n  aws_r:\n    paths: cbf::all_select(\"type\"; \"aws_r\")\n    properties:\n      region:\n        - paths: .values.zone\n          regex:\n            pattern: '^(.+-\\d+[a-z'\n            group: 1\n",
    )
    .unwrap();
    let o = run_in_root(&["mappings", "check", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(8), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("broken.yaml:4:5: unknown key"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("regex.yaml:8:22: bad regex"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("2 error(s)"), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn carbon_user_mapping_overrides_a_shipped_resource() {
    let base = json_report("testdata/carbon/create.json", &[]);
    let over = json_report(
        "testdata/carbon/create.json",
        &["--mappings", "testdata/mapping/override"],
    );
    let side = |r: &Value| resource(r, "aws_ebs_volume.data")["after"].clone();
    // shipped: 200 GB gp3 SSD; override: size × 2, gp3 still SSD
    assert_eq!(f(&side(&base)["ssd_gb"]), 200.0);
    assert_eq!(f(&side(&over)["ssd_gb"]), 400.0);
    assert_close(
        f(&side(&over)["per_hour"]["power_w"]),
        2.0 * f(&side(&base)["per_hour"]["power_w"]),
        "override doubles the volume",
    );
    assert!(
        f(&over["totals"]["after_per_hour"]["total_gco2eq"])
            > f(&base["totals"]["after_per_hour"]["total_gco2eq"])
    );
    // and the override's ignored_resources applies: the coverage fixture's SageMaker endpoint
    // (no shipped mapping) is no longer unsupported
    let plain = json_report("testdata/carbon/coverage.json", &[]);
    assert_eq!(
        plain["unsupported"],
        serde_json::json!(["aws_sagemaker_endpoint.ep"])
    );
    let over = json_report(
        "testdata/carbon/coverage.json",
        &["--mappings", "testdata/mapping/override"],
    );
    assert_eq!(over["unsupported"], serde_json::json!([]));
    assert_eq!(
        f(&over["counts"]["ignored"]),
        f(&plain["counts"]["ignored"]) + 1.0
    );
}

// ------------------------------------------------------------------ sensitive values

fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("carbon-show-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Leaf strings (and numbers as text) of `v`, split into sensitive ones (under a `true` mark of
/// `mask`) and the others.
fn leaves(v: &Value, mask: &Value, sensitive: bool, out: &mut Vec<(String, bool)>) {
    let sensitive = sensitive || mask == &Value::Bool(true);
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                leaves(x, mask.get(k).unwrap_or(&Value::Null), sensitive, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                leaves(x, mask.get(i).unwrap_or(&Value::Null), sensitive, out);
            }
        }
        Value::String(s) => out.push((s.clone(), sensitive)),
        Value::Number(n) => out.push((n.to_string(), sensitive)),
        Value::Bool(_) | Value::Null => {}
    }
}

fn module_resources<'a>(m: &'a Value, out: &mut Vec<&'a Value>) {
    if let Some(rs) = m["resources"].as_array() {
        out.extend(rs);
    }
    if let Some(cs) = m["child_modules"].as_array() {
        for c in cs {
            module_resources(c, out);
        }
    }
}

/// The sensitive leaf values of a plan or state document: strings of length ≥ 4 that only
/// appear under a sensitive mark.
fn sensitive_strings(doc: &Value) -> Vec<String> {
    let mut all = Vec::new();
    for rc in doc["resource_changes"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(doc["resource_drift"].as_array().into_iter().flatten())
    {
        let c = &rc["change"];
        leaves(&c["before"], &c["before_sensitive"], false, &mut all);
        leaves(&c["after"], &c["after_sensitive"], false, &mut all);
    }
    for (_, oc) in doc["output_changes"].as_object().into_iter().flatten() {
        leaves(&oc["before"], &oc["before_sensitive"], false, &mut all);
        leaves(&oc["after"], &oc["after_sensitive"], false, &mut all);
    }
    for values in [
        &doc["planned_values"],
        &doc["prior_state"]["values"],
        &doc["values"],
    ] {
        let mut rs = Vec::new();
        module_resources(&values["root_module"], &mut rs);
        for r in rs {
            leaves(&r["values"], &r["sensitive_values"], false, &mut all);
        }
        for (_, o) in values["outputs"].as_object().into_iter().flatten() {
            let s = o["sensitive"] == Value::Bool(true);
            leaves(&o["value"], &Value::Bool(s), false, &mut all);
        }
    }
    let public: std::collections::HashSet<&str> = all
        .iter()
        .filter(|(_, s)| !s)
        .map(|(v, _)| v.as_str())
        .collect();
    let mut secret: Vec<String> = all
        .iter()
        .filter(|(v, s)| *s && v.len() >= 4 && !public.contains(v.as_str()))
        .map(|(v, _)| v.clone())
        .collect();
    secret.sort();
    secret.dedup();
    secret
}

/// Runs every format on `plan`; asserts exit 0, no panic, and none of `secrets` in stdout.
fn assert_no_leak(plan: &Path, schemas: Option<&Path>, secrets: &[String]) -> usize {
    let mut checked = 0;
    for format in FORMATS {
        let mut cmd = bin();
        cmd.arg(plan).args(["--color", "never", "--format", format]);
        if let Some(s) = schemas {
            cmd.arg("--schemas").arg(s);
        }
        let o = cmd.stdin(Stdio::null()).output().expect("run");
        let err = stderr(&o);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{} --format {format}: {err}",
            plan.display()
        );
        assert!(!err.contains("panicked"), "{err}");
        let out = stdout(&o);
        for s in secrets {
            assert!(
                !out.contains(s.as_str()),
                "{} --format {format} leaks the sensitive value {s:?}",
                plan.display()
            );
        }
        checked += 1;
    }
    checked
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json")
            && p.file_name().is_some_and(|n| n != "schemas.json")
        {
            out.push(p);
        }
    }
}

#[test]
fn carbon_sensitive_values_never_leak_from_real_plans() {
    let dir = crate::common::real_plans();
    assert!(dir.is_dir(), "{} is missing", dir.display());
    let mut plans = Vec::new();
    json_files(&dir, &mut plans);
    assert!(plans.len() >= 15, "{plans:?}");
    let mut walked = 0;
    for plan in &plans {
        let doc: Value = serde_json::from_slice(&std::fs::read(plan).unwrap()).unwrap();
        let secrets = sensitive_strings(&doc);
        // The real plans' only sensitive leaf is terraform-json/basic's output `foo` = "bar"
        // (too short, and public elsewhere): check the walk sees it, so the walk is exercised.
        if plan.ends_with("terraform-json/basic/plan.json") {
            let mut raw = Vec::new();
            let outputs = &doc["planned_values"]["outputs"];
            leaves(
                &outputs["foo"]["value"],
                &outputs["foo"]["sensitive"],
                false,
                &mut raw,
            );
            assert_eq!(raw, [("bar".to_string(), true)]);
            walked += 1;
        }
        let schemas = plan.with_file_name("schemas.json");
        let schemas = schemas.is_file().then_some(schemas);
        assert_no_leak(plan, schemas.as_deref(), &secrets);
    }
    assert_eq!(walked, 1);
}

#[test]
fn carbon_sensitive_values_never_leak_from_fixtures() {
    for (_, file) in SNAPSHOT_FILES {
        let path = root().join(file);
        let doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let mut secrets = sensitive_strings(&doc);
        if file.ends_with("demo/plan.json") {
            assert!(
                secrets.contains(&"SECRET-demo-1234".to_string()),
                "{secrets:?}"
            );
        }
        secrets.push("SECRET-".into());
        assert_no_leak(&path, None, &secrets);
    }
}

#[test]
fn carbon_sensitive_values_never_leak_from_a_synthetic_plan() {
    let dir = tmp_dir("synthetic");
    let plan = dir.join("plan.json");
    let st = std::process::Command::new("python3")
        .arg(root().join("scripts/gen-plan/gen_plan.py"))
        .args(["--resources", "300", "--seed", "7", "-o"])
        .arg(&plan)
        .output()
        .expect("python3 runs");
    assert!(st.status.success(), "{}", stderr(&st));
    let markers: Vec<String> = std::fs::read_to_string(dir.join("plan.json.secrets"))
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    assert!(markers.len() >= 5, "{markers:?}");
    let doc: Value = serde_json::from_slice(&std::fs::read(&plan).unwrap()).unwrap();
    let mut secrets = sensitive_strings(&doc);
    secrets.extend(markers);
    secrets.push("SECRET-".into());
    assert_eq!(assert_no_leak(&plan, None, &secrets), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------------------------------ broken pipe

fn head_one_line(args: &[&str]) -> (String, Output) {
    let mut child = bin()
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = String::new();
    {
        let mut r = BufReader::new(child.stdout.take().unwrap());
        r.read_line(&mut first).unwrap();
    } // stdout closed here, like `| head -1`
    let out = child.wait_with_output().expect("wait");
    (first, out)
}

#[test]
fn carbon_broken_pipe_exits_quietly() {
    let dir = tmp_dir("pipe");
    let plan = dir.join("plan.json");
    let st = std::process::Command::new("python3")
        .arg(root().join("scripts/gen-plan/gen_plan.py"))
        .args(["--resources", "300", "--seed", "7", "-o"])
        .arg(&plan)
        .output()
        .expect("python3 runs");
    assert!(st.status.success());
    let plan = plan.to_str().unwrap();
    for format in FORMATS {
        let (first, o) = head_one_line(&[plan, "--color", "never", "--format", format]);
        assert!(!first.is_empty(), "{format}");
        assert_eq!(o.status.code(), Some(0), "{format}: {}", stderr(&o));
        assert!(stderr(&o).is_empty(), "{format}: {}", stderr(&o));
    }
    let (_, o) = head_one_line(&["testdata/demo/plan.json", "--no-carbon"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stderr(&o).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
    // stdin variant: the plan written through a pipe too
    let mut child = bin()
        .args(["--color", "never"])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&std::fs::read(root().join("testdata/demo/plan.json")).unwrap())
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

// ------------------------------------------------------------------ regressions

/// A state document describes what runs: its resources are unchanged, not added (they used to
/// be reported as "after" only, so the state's whole footprint showed as a delta and could
/// trip `--fail-over`).
#[test]
fn carbon_state_document_adds_nothing() {
    let r = json_report("testdata/carbon/state.json", &[]);
    assert_eq!(f(&r["counts"]["estimated"]), 3.0);
    for res in r["resources"].as_array().unwrap() {
        assert_eq!(res["actions"], serde_json::json!(["no-op"]));
        assert_eq!(res["before"], res["after"], "{}", res["address"]);
        assert_eq!(f(&res["delta_per_hour"]["total_gco2eq"]), 0.0);
    }
    assert!(f(&r["totals"]["after_per_hour"]["total_gco2eq"]) > 0.0);
    assert_eq!(f(&r["totals"]["delta_per_hour"]["total_gco2eq"]), 0.0);
    assert_eq!(
        r["totals"]["before_per_hour"],
        r["totals"]["after_per_hour"]
    );
    let o = run_in_root(&["testdata/carbon/state.json", "--fail-over", "0g"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// ElastiCache `cache.*` node types price like their EC2 type (CPU microarchitecture and
/// embodied family figure), as RDS `db.*` classes do; they used to fall back to the provider's
/// average CPU watts and per-vCPU embodied figure.
///
/// cache.m5.large × 2 in eu-west-1 (278.6 g/kWh), no storage:
///   power per node 2 × 2.455 (Skylake) + 8 × 0.392 = 8.046 W
///   operational 2 × 8.046 / 1000 × 1.135 × 278.6; embodied 2 × 0.957465 g (m5 family)
#[test]
fn carbon_elasticache_node_types_use_their_ec2_type() {
    let r = json_report("testdata/demo/plan.json", &[]);
    let p =
        &resource(&r, "module.eu.module.cache.aws_elasticache_cluster.this")["after"]["per_hour"];
    let node = 2.0 * 2.455 + 8.0 * 0.392;
    assert_close(f(&p["power_w"]), 2.0 * node, "power");
    assert_close(
        f(&p["operational_gco2eq"]),
        2.0 * node / 1000.0 * 1.135 * 278.6,
        "operational",
    );
    assert_close(
        f(&p["embodied_gco2eq"]),
        2.0 * 1610.3792 / 35040.0 * 2.0 / 96.0 * 1000.0,
        "embodied",
    );
}

/// A deposed object (left from a failed create-before-destroy) runs beside the current object
/// of the same address. It used to replace the current object in the "before" figures (the
/// prior_state lookup was by address) and its destruction was not counted; now it is its own
/// entry, `… (deposed object KEY)`, and destroying it saves its whole footprint.
#[test]
fn carbon_deposed_objects_are_counted_apart_from_the_current_object() {
    let file = "testdata/carbon/deposed.json";
    let r = json_report(file, &[]);
    let current = resource(&r, "aws_instance.web");
    assert_eq!(current["actions"], serde_json::json!(["no-op"]));
    assert_eq!(current["before"]["machine_type"], "m5.large");
    assert_eq!(current["after"]["machine_type"], "m5.large");
    assert_eq!(f(&current["delta_per_hour"]["total_gco2eq"]), 0.0);
    let deposed = resource(&r, "aws_instance.web (deposed object 00000001)");
    assert_eq!(deposed["actions"], serde_json::json!(["delete"]));
    assert_eq!(deposed["before"]["machine_type"], "m5.4xlarge");
    assert!(deposed["after"].is_null());
    let saved = f(&deposed["before"]["per_hour"]["total_gco2eq"]);
    assert_close(
        f(&r["totals"]["delta_per_hour"]["total_gco2eq"]),
        -saved,
        "the delta is the deposed object's footprint",
    );
    assert_close(
        f(&r["totals"]["before_per_hour"]["total_gco2eq"]),
        saved + f(&current["before"]["per_hour"]["total_gco2eq"]),
        "before counts both objects",
    );
    let human = show(file, "human", &[]);
    assert!(
        human.contains(
            "  # (left over from a partially-failed replacement of this instance)\n  # ≈ -"
        ),
        "{human}"
    );
    assert_eq!(strip_carbon(&human), show(file, "human", &["--no-carbon"]));
}

/// A state document's human rendering carries its figures too: each resource's line under its
/// `# address:` header and the summary at the end (it used to print no carbon at all).
#[test]
fn carbon_state_document_is_annotated() {
    let human = show(
        "testdata/carbon/state.json",
        "human",
        &["--alternatives", "off"],
    );
    assert!(
        human.starts_with(
            "# aws_instance.web:\n# ≈ 3.26 kgCO2eq/month [2.16–4.17] · 4.47 g/h · 2 vCPU · 8 GiB · 100 GB SSD · us-east-1\nresource \"aws_instance\" \"web\" {\n"
        ),
        "{human}"
    );
    assert!(
        human.contains("# aws_db_instance.db:\n# ≈ 1.04 kgCO2eq/month [0.762–2.27] · 1.43 g/h"),
        "{human}"
    );
    assert!(
        human.contains(
            "token = (sensitive value)\n\nCarbon ≈ 6.83 kgCO2eq/month: what this state's resources emit, at 50 % CPU utilisation (burstables at their baseline)\n"
        ),
        "{human}"
    );
    assert_eq!(
        strip_carbon(&human),
        show("testdata/carbon/state.json", "human", &["--no-carbon"])
    );
}

/// A closed stdout does not defeat the budget gate: `carbon-show --fail-over … | head -1`
/// still exits 3 with its one-line message (it used to exit 0, losing the verdict).
#[test]
fn carbon_fail_over_survives_a_broken_pipe() {
    // a synthetic plan whose output (> 100 KB) cannot fit in the pipe buffer
    let dir = tmp_dir("pipe-budget");
    let plan = dir.join("plan.json");
    let st = std::process::Command::new("python3")
        .arg(root().join("scripts/gen-plan/gen_plan.py"))
        .args(["--resources", "300", "--seed", "7", "-o"])
        .arg(&plan)
        .output()
        .expect("python3 runs");
    assert!(st.status.success());
    let plan = plan.to_str().unwrap();
    let full = run_in_root(&[plan, "--color", "never"]);
    assert!(full.stdout.len() > 100_000, "{}", full.stdout.len());
    let (first, o) = head_one_line(&[plan, "--color", "never", "--fail-over", "1g/h"]);
    assert!(!first.is_empty());
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--fail-over limit"), "{err}");
    assert!(
        !err.contains("Broken pipe") && !err.contains("panicked"),
        "{err}"
    );
    // under budget: quiet success, as without --fail-over
    let (_, o) = head_one_line(&[plan, "--color", "never", "--fail-over", "1t/h"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}
