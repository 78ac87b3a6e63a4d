//! Ranges, sources, regions and `explain` (issue 16, items 5–7): every estimated figure has a
//! band and its source ids; a region is found through the configuration's references or
//! estimated with the provider's range; the AWS per-resource `region` wins; an update to a
//! machine type known only after apply keeps its before figures; `explain` lets a reader redo
//! one resource's arithmetic by hand.

use std::path::Path;
use std::process::{Output, Stdio};

use serde_json::Value;

use crate::common::{bin, stderr, stdout};

const REGIONS: &str = "testdata/carbon/regions.json";

fn run(args: &[&str]) -> Output {
    bin()
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::null())
        .output()
        .expect("run carbon-show")
}

fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

fn report(file: &str) -> Value {
    serde_json::from_str(&ok(&[file, "--format", "json"])).expect("JSON")
}

fn resource<'a>(r: &'a Value, address: &str) -> &'a Value {
    r["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["address"] == address)
        .unwrap_or_else(|| panic!("{address} not in the report"))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

const FIGURES: [&str; 5] = [
    "power_w",
    "energy_kwh",
    "operational_gco2eq",
    "embodied_gco2eq",
    "total_gco2eq",
];

#[test]
fn figures_every_estimated_side_has_a_band_around_it_and_source_ids() {
    let mut sides = 0;
    for file in [
        "testdata/demo/plan.json",
        "testdata/carbon/create.json",
        "testdata/carbon/changes.json",
        "testdata/carbon/modules.json",
        "testdata/carbon/mixed.json",
        "testdata/carbon/unknown.json",
        "testdata/carbon/state.json",
        REGIONS,
    ] {
        let r = report(file);
        assert_eq!(r["schema_version"], "1.5");
        for res in r["resources"].as_array().unwrap() {
            for side in [&res["before"], &res["after"]] {
                if side.is_null() {
                    continue;
                }
                sides += 1;
                let what = format!("{file} {}", res["address"]);
                for k in FIGURES {
                    let (lo, c, hi) = (
                        f(&side["range_per_hour"]["low"][k]),
                        f(&side["per_hour"][k]),
                        f(&side["range_per_hour"]["high"][k]),
                    );
                    assert!(
                        lo <= c + 1e-12 && c <= hi + 1e-12,
                        "{what} {k}: {lo} {c} {hi}"
                    );
                }
                let sources = side["sources"].as_array().unwrap();
                assert!(
                    sources.iter().any(|s| s == "coefficients"),
                    "{what}: {sources:?}"
                );
                for s in sources {
                    let id = s.as_str().unwrap();
                    let meta = Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("data")
                        .join(format!("{id}.source.json"));
                    assert!(meta.is_file(), "{what}: source id {id} has no {meta:?}");
                }
            }
            let d = &res["delta_range_per_hour"];
            for k in FIGURES {
                assert!(f(&d["low"][k]) <= f(&d["high"][k]), "{k}");
            }
        }
        let t = &r["totals"];
        for which in ["before", "after"] {
            let (lo, c, hi) = (
                f(&t[format!("{which}_range_per_hour")]["low"]["total_gco2eq"]),
                f(&t[format!("{which}_per_hour")]["total_gco2eq"]),
                f(&t[format!("{which}_range_per_hour")]["high"]["total_gco2eq"]),
            );
            assert!(lo <= c + 1e-12 && c <= hi + 1e-12, "{file} {which}");
        }
    }
    assert!(sides > 30, "{sides}");
}

#[test]
fn figures_region_from_a_resource_group_through_a_module_variable() {
    let r = report(REGIONS);
    let vm = resource(&r, "module.app.azurerm_linux_virtual_machine.vm");
    assert_eq!(vm["status"], "estimated");
    assert_eq!(vm["after"]["region"], "northeurope");
    assert_eq!(
        vm["assumptions"][0],
        "region northeurope (from azurerm_resource_group.rg.location in the configuration)"
    );
    assert_eq!(vm["warnings"], serde_json::json!([]));
}

#[test]
fn figures_unknown_region_is_estimated_with_the_provider_range_not_skipped() {
    let r = report(REGIONS);
    let lost = resource(&r, "azurerm_linux_virtual_machine.lost");
    assert_eq!(lost["status"], "estimated");
    let a = &lost["after"];
    assert!(a["region"].is_null());
    let (lo, c, hi) = (
        f(&a["range_per_hour"]["low"]["operational_gco2eq"]),
        f(&a["per_hour"]["operational_gco2eq"]),
        f(&a["range_per_hour"]["high"]["operational_gco2eq"]),
    );
    // Azure's regions span 5.67–960 gCO2eq/kWh: far wider than the utilisation alone
    assert!(hi / lo > 10.0, "{lo} {c} {hi}");
    let w = lost["warnings"][0].as_str().unwrap();
    assert!(
        w.starts_with("region unknown: azure average grid intensity used, range "),
        "{w}"
    );
    let human = ok(&[REGIONS, "--color", "never"]);
    let mut lines = human
        .lines()
        .skip_while(|l| !l.contains("azurerm_linux_virtual_machine.lost will be created"))
        .skip(1);
    let (figures, notes) = (lines.next().unwrap(), lines.next().unwrap());
    // the figures line ends with the region; the warning has the notes line
    assert!(figures.ends_with(" · region unknown"), "{figures}");
    assert!(
        notes.starts_with("  # ≈ ⚠ region unknown: azure average"),
        "{notes}"
    );
    assert!(!human.contains("not estimated: region unknown"), "{human}");
}

/// Regression: an instance on a Tokyo alias with `region = "sa-east-1"` (AWS provider 6.x) was
/// priced in ap-northeast-1.
#[test]
fn figures_aws_resource_region_wins_over_its_provider_alias() {
    let r = report(REGIONS);
    let sp = resource(&r, "aws_instance.sp");
    assert_eq!(sp["after"]["region"], "sa-east-1");
}

/// Regression: an update from m5.large to a type known only after apply had `before: null`, and
/// the plan's before total left it out.
#[test]
fn figures_update_to_a_machine_type_known_after_apply_keeps_its_before_figures() {
    let r = report(REGIONS);
    let grow = resource(&r, "aws_instance.grow");
    assert_eq!(grow["status"], "not_estimated");
    assert_eq!(grow["before"]["machine_type"], "m5.large");
    assert!(grow["after"].is_null());
    assert_eq!(f(&grow["delta_per_hour"]["total_gco2eq"]), 0.0);
    let b = f(&grow["before"]["per_hour"]["total_gco2eq"]);
    assert!(b > 0.0);
    // the only resource with a before side: the before total is its figure
    assert_eq!(f(&r["totals"]["before_per_hour"]["total_gco2eq"]), b);
    let creates: f64 = r["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["actions"][0] == "create")
        .map(|x| f(&x["after"]["per_hour"]["total_gco2eq"]))
        .sum();
    let delta = f(&r["totals"]["delta_per_hour"]["total_gco2eq"]);
    assert!((delta - creates).abs() < 1e-9, "{delta} vs {creates}");
}

/// `name = value  (low L, high H)` lines of one section of `explain`'s output.
struct Parsed {
    central: std::collections::HashMap<String, f64>,
    low: std::collections::HashMap<String, f64>,
    high: std::collections::HashMap<String, f64>,
}

fn parse_section(text: &str, header: &str) -> Parsed {
    let mut p = Parsed {
        central: Default::default(),
        low: Default::default(),
        high: Default::default(),
    };
    let section = text
        .split("\n== ")
        .find(|s| s.starts_with(header))
        .unwrap_or_else(|| panic!("no section {header:?} in\n{text}"));
    for line in section.lines().filter(|l| l.starts_with("  ")) {
        let Some((k, rest)) = line.trim().split_once(" = ") else {
            continue;
        };
        if k.contains(' ') {
            continue; // not a `name = …` line
        }
        let num = |s: &str| s.trim_end_matches([',', ')']).parse::<f64>().ok();
        // `k = v …`, or an arithmetic line `k = formula = numbers = result`: its result
        let value = rest.rsplit(" = ").next().unwrap_or(rest);
        if let Some(v) = value.split_whitespace().next().and_then(num) {
            p.central.insert(k.to_string(), v);
        }
        if let Some(i) = rest.find("(low ") {
            let mut w = rest[i + 5..].split_whitespace();
            let l = w.next().and_then(num).unwrap();
            assert_eq!(w.next(), Some("high"));
            let h = w.next().and_then(num).unwrap();
            p.low.insert(k.to_string(), l);
            p.high.insert(k.to_string(), h);
        }
    }
    p
}

/// CCF's arithmetic, written out again from the formula in docs/methodology.md.
fn by_hand(
    inputs: &std::collections::HashMap<String, f64>,
    c: &std::collections::HashMap<String, f64>,
) -> f64 {
    let v = |k: &str| {
        *inputs
            .get(k)
            .or_else(|| c.get(k))
            .unwrap_or_else(|| panic!("{k}"))
    };
    let u = c["utilization"];
    let cpu = v("vcpus") * (c["cpu_min_w"] + u * (c["cpu_max_w"] - c["cpu_min_w"]));
    let mem = v("memory_gb") * c["memory_w_per_gb"];
    let storage = v("ssd_tb") * c["ssd_w_per_tb"] + v("hdd_tb") * c["hdd_w_per_tb"];
    let gpu = v("gpu_min_w") + u * (v("gpu_max_w") - v("gpu_min_w"));
    let kwh = (cpu + mem + storage + gpu) / 1000.0 * c["pue"];
    (kwh * c["grid_g_per_kwh"] + c["embodied_g_per_hour"]) * v("instances")
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn figures_explain_lets_a_reader_redo_one_resource_by_hand() {
    let demo = "testdata/demo/plan.json";
    let text = ok(&["explain", "aws_instance.web", demo]);
    let json = report(demo);
    let web = resource(&json, "aws_instance.web");
    for (header, side) in [
        ("before the change", "before"),
        ("after the change", "after"),
    ] {
        let p = parse_section(&text, header);
        let central = by_hand(&p.central, &p.central);
        assert!(
            close(central, p.central["total_g_per_hour"]),
            "{header}: {central}\n{text}"
        );
        assert!(
            close(central, f(&web[side]["per_hour"]["total_gco2eq"])),
            "{header}: {central} vs the report"
        );
        let low = by_hand(&p.central, &p.low);
        let high = by_hand(&p.central, &p.high);
        assert!(
            close(low, p.central["low_total_g_per_hour"]),
            "{header} low"
        );
        assert!(
            close(high, p.central["high_total_g_per_hour"]),
            "{header} high"
        );
        assert!(close(
            low,
            f(&web[side]["range_per_hour"]["low"]["total_gco2eq"])
        ));
        assert!(close(
            high,
            f(&web[side]["range_per_hour"]["high"]["total_gco2eq"])
        ));
        assert!(low < central && central < high);
    }
    // every coefficient line names its source
    for k in [
        "cpu_min_w",
        "memory_w_per_gb",
        "pue",
        "grid_g_per_kwh",
        "embodied_g_per_hour",
    ] {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{k} = ")))
            .unwrap();
        assert!(line.contains("  ["), "{line}");
    }
    assert!(text.contains("[grid_intensity: aws us-east-1: "), "{text}");
    assert!(text.contains("sources = aws_instances, coefficients, embodied, grid_intensity"));
}

#[test]
fn figures_explain_of_an_unknown_region_shows_the_provider_range() {
    let text = ok(&["explain", "azurerm_linux_virtual_machine.lost", REGIONS]);
    let p = parse_section(&text, "after the change");
    assert!(p.low["grid_g_per_kwh"] < p.central["grid_g_per_kwh"]);
    assert!(p.central["grid_g_per_kwh"] < p.high["grid_g_per_kwh"]);
    assert!(text.contains("region unknown"), "{text}");
}

#[test]
fn figures_explain_of_an_address_not_in_the_plan_is_a_one_line_usage_error() {
    let o = run(&["explain", "aws_instance.nope", REGIONS]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("no resource \"aws_instance.nope\""), "{e}");
    assert!(stdout(&o).is_empty());
}

/// A sensitive machine type that the tables know is priced, and `explain` never prints it.
#[test]
fn figures_explain_hides_a_sensitive_machine_type() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text =
        std::fs::read_to_string(root.join("testdata/regressions/sensitive-machine-type.json"))
            .unwrap()
            .replace("SECRET-abc", "m5.large");
    let dir = std::env::temp_dir().join(format!("carbon-show-explain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("plan.json");
    std::fs::write(&file, text).unwrap();
    let out = ok(&["explain", "aws_instance.r", file.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!out.contains("m5.large"), "{out}");
    assert!(out.contains("machine type (sensitive value)"), "{out}");
    assert!(out.contains("total_g_per_hour = "), "{out}");
}

/// A burstable type is explained at its own published baseline (main's burstable baselines):
/// its central utilisation is the baseline, its range still spans 10–90 %, and
/// `--utilization` given on the command line wins, as it does for a run.
#[test]
fn figures_explain_uses_a_burstable_types_baseline_and_utilization_overrides_it() {
    let text = ok(&[
        "explain",
        "aws_instance.worker[0]",
        "testdata/demo/plan.json",
    ]);
    assert!(
        text.contains("  utilization = 0.2  (low 0.1, high 0.9)\n"),
        "{text}"
    );
    assert!(
        text.contains("assumed: CPU utilisation 20 % (t3.medium's published baseline"),
        "{text}"
    );
    // the host platform the embodied share is taken of is named, with its source id
    assert!(text.contains("hosts: platform m5: "), "{text}");
    let given = ok(&[
        "explain",
        "aws_instance.worker[0]",
        "testdata/demo/plan.json",
        "--utilization",
        "50%",
    ]);
    assert!(
        given.contains("  utilization = 0.5  (low 0.1, high 0.9)\n"),
        "{given}"
    );
    assert!(!given.contains("published baseline"), "{given}");
}
