//! Unit tests of the Impact Framework export: quoting, the golden manifest, and the pipeline replayed against the estimate.

use std::collections::HashMap;

use super::pipeline::AGGREGATED;
use super::yaml::{scalar_num, scalar_str};
use super::*;
use crate::estimate::estimate;

fn aws() -> Coefficients {
    Coefficients {
        cpu_min_w: 0.74,
        cpu_max_w: 3.5,
        memory_w_per_gb: 0.392,
        ssd_w_per_tb: 1.2,
        hdd_w_per_tb: 0.65,
        pue: 1.135,
        grid_g_per_kwh: Some(379.069),
        embodied_g_per_hour: 1.5,
    }
}

#[test]
fn module_paths_are_split_outside_quotes() {
    assert_eq!(
        ImpactResource::module_path_of(r#"module.a["x.y"].module.b.aws_instance.web[0]"#),
        vec![r#"module.a["x.y"]"#, "module.b"]
    );
    assert_eq!(
        ImpactResource::module_path_of(r#"module.m["a\"].b"].data.x.y"#),
        vec![r#"module.m["a\"].b"]"#]
    );
    assert!(ImpactResource::module_path_of("aws_instance.web").is_empty());
    assert_eq!(
        ImpactResource::module_path_of("module.solo"),
        vec!["module.solo"]
    );
}

#[test]
fn scalars_are_quoted_when_needed() {
    assert_eq!(scalar_str("module.app"), "module.app");
    assert_eq!(scalar_str("cpu-min-w"), "cpu-min-w");
    assert_eq!(
        scalar_str(r#"aws_instance.web["it's"]"#),
        r#""aws_instance.web[\"it's\"]""#
    );
    assert_eq!(scalar_str("yes"), "\"yes\"");
    assert_eq!(scalar_str("a: b # c"), "\"a: b # c\"");
    assert_eq!(
        scalar_str("2025-01-01T00:00:00Z"),
        "\"2025-01-01T00:00:00Z\""
    );
    assert_eq!(scalar_num(0.0000001), "0.0000001");
    assert_eq!(scalar_num(-0.0), "0");
    assert_eq!(scalar_num(2628000.0), "2628000");
}

/// Two modules (one nested, one with a for_each key holding quotes, a dot and brackets), a
/// count-indexed root resource, a GPU resource and one in a region of unknown intensity.
fn sample() -> (Vec<Footprint>, Vec<Coefficients>) {
    let fps = vec![
        Footprint {
            vcpus: 2.0,
            memory_gb: 8.0,
            ..Footprint::default()
        },
        Footprint {
            vcpus: 8.0,
            memory_gb: 61.0,
            ssd_tb: 0.5,
            gpus: vec![(35.0, 306.0)],
            ..Footprint::default()
        },
        Footprint {
            vcpus: 4.0,
            memory_gb: 16.0,
            hdd_tb: 2.0,
            ..Footprint::default()
        },
    ];
    let unknown = Coefficients {
        grid_g_per_kwh: None,
        ..aws()
    };
    (fps, vec![aws(), unknown])
}

fn sample_resources<'a>(fps: &'a [Footprint], cs: &'a [Coefficients]) -> Vec<ImpactResource<'a>> {
    let r = |address: &'a str, resource_type, fp, c, instances| ImpactResource {
        address,
        module_path: ImpactResource::module_path_of(address),
        resource_type,
        footprint: fp,
        coefficients: c,
        instances,
        utilization: 0.5,
        range: None,
    };
    vec![
        r("aws_instance.web[0]", "aws_instance", &fps[0], &cs[0], 1.0),
        r(
            r#"module.ml["it's.a \"model\""].aws_instance.gpu["p3.2xlarge"]"#,
            "aws_instance",
            &fps[1],
            &cs[0],
            2.0,
        ),
        r(
            "module.data.module.db.aws_db_instance.main",
            "aws_db_instance",
            &fps[2],
            &cs[1],
            3.0,
        ),
    ]
}

#[test]
fn golden_manifest() {
    let (fps, cs) = sample();
    let resources = sample_resources(&fps, &cs);
    let yaml = manifest_string(&resources, &ImpactOptions::new("plan", Period::Month)).unwrap();
    insta::assert_snapshot!(yaml);
}

#[test]
fn manifest_parses_back_with_addresses_and_figures_intact() {
    let (fps, cs) = sample();
    let resources = sample_resources(&fps, &cs);
    let yaml = manifest_string(&resources, &ImpactOptions::new("plan", Period::Year)).unwrap();
    let v: serde_json::Value = serde_saphyr::from_str(&yaml).expect("valid YAML");
    let ml = &v["tree"]["children"][r#"module.ml["it's.a \"model\""]"#];
    let gpu = &ml["children"][r#"module.ml["it's.a \"model\""].aws_instance.gpu["p3.2xlarge"]"#];
    let input = &gpu["inputs"][0];
    assert_eq!(input["timestamp"], DEFAULT_TIMESTAMP);
    assert_eq!(input["duration"].as_f64(), Some(8760.0 * 3600.0));
    assert_eq!(input["gpu-max-w"].as_f64(), Some(306.0));
    assert_eq!(input["instances"].as_f64(), Some(2.0));
    let db = &v["tree"]["children"]["module.data"]["children"]["module.db"]["children"]["module.data.module.db.aws_db_instance.main"];
    assert_eq!(db["inputs"][0]["grid-intensity"].as_f64(), Some(0.0));
    assert!(db["description"].as_str().unwrap().contains("unknown"));
    assert_eq!(v["aggregation"]["type"], "both");
    let plugins = v["initialize"]["plugins"].as_object().unwrap();
    let compute = v["tree"]["pipeline"]["compute"].as_array().unwrap();
    assert_eq!(compute.len(), plugins.len());
    for p in plugins.values() {
        assert_eq!(p["path"], "builtin");
    }
    for metric in AGGREGATED {
        let producer = plugins
            .values()
            .find(|p| p["parameter-metadata"]["outputs"].get(metric).is_some())
            .unwrap_or_else(|| panic!("no plugin produces {metric}"));
        let agg = &producer["parameter-metadata"]["outputs"][metric]["aggregation-method"];
        assert_eq!(
            (agg["time"].as_str(), agg["component"].as_str()),
            (Some("sum"), Some("sum"))
        );
    }
}

/// The pipeline, replayed in Rust over the manifest's own inputs, gives estimate()'s figures.
#[test]
fn pipeline_replayed_matches_estimate() {
    let (fps, cs) = sample();
    let resources = sample_resources(&fps, &cs);
    let opts = ImpactOptions::new("plan", Period::Month);
    let yaml = manifest_string(&resources, &opts).unwrap();
    let v: serde_json::Value = serde_saphyr::from_str(&yaml).unwrap();
    let plugins = &v["initialize"]["plugins"];
    let mut leaves = Vec::new();
    fn collect<'v>(
        key: &'v str,
        node: &'v serde_json::Value,
        out: &mut Vec<(&'v str, &'v serde_json::Value)>,
    ) {
        match node.get("children").and_then(|c| c.as_object()) {
            Some(children) => children.iter().for_each(|(k, c)| collect(k, c, out)),
            None => out.push((key, node)),
        }
    }
    collect("", &v["tree"], &mut leaves);
    assert_eq!(leaves.len(), resources.len());
    for (key, leaf) in leaves {
        let r = resources
            .iter()
            .find(|r| r.address == key)
            .expect("leaf keyed by address");
        let mut vals: HashMap<String, f64> = leaf["inputs"][0]
            .as_object()
            .unwrap()
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), v.as_f64()?)))
            .collect();
        for name in v["tree"]["pipeline"]["compute"].as_array().unwrap() {
            let p = &plugins[name.as_str().unwrap()];
            let cfg = &p["config"];
            let get =
                |vals: &HashMap<String, f64>, k: &serde_json::Value| vals[k.as_str().unwrap()];
            let (out, value) = match p["method"].as_str().unwrap() {
                "Divide" => (
                    cfg["output"].as_str().unwrap(),
                    get(&vals, &cfg["numerator"]) / cfg["denominator"].as_f64().unwrap(),
                ),
                method => {
                    let ins: Vec<f64> = cfg["input-parameters"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|k| get(&vals, k))
                        .collect();
                    let value = match method {
                        "Sum" => ins.iter().sum(),
                        "Multiply" => ins.iter().product(),
                        "Subtract" => ins[0] - ins[1..].iter().sum::<f64>(),
                        other => panic!("unexpected plugin {other}"),
                    };
                    (cfg["output-parameter"].as_str().unwrap(), value)
                }
            };
            vals.insert(out.to_string(), value);
        }
        let e = estimate(r.footprint, r.coefficients, r.utilization);
        let scale = r.instances * opts.period.hours();
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-9);
        assert!(close(vals["energy"], e.energy_kwh * scale), "{}", r.address);
        assert!(
            close(vals["carbon-operational"], e.operational_g * scale),
            "{}",
            r.address
        );
        assert!(
            close(vals["embodied-carbon"], e.embodied_g * scale),
            "{}",
            r.address
        );
        assert!(close(vals["carbon"], e.total_g() * scale), "{}", r.address);
    }
}

#[test]
fn output_is_deterministic_and_keeps_input_order() {
    let (fps, cs) = sample();
    let resources = sample_resources(&fps, &cs);
    let opts = ImpactOptions::new("plan", Period::Hour);
    let a = manifest_string(&resources, &opts).unwrap();
    let b = manifest_string(&resources, &opts).unwrap();
    assert_eq!(a, b);
    let web = a.find("aws_instance.web[0]").unwrap();
    let ml = a.find("module.ml[").unwrap();
    let data = a.find("module.data:").unwrap();
    assert!(web < ml && ml < data);
}

#[test]
fn duplicate_addresses_get_distinct_keys() {
    let fp = Footprint {
        vcpus: 1.0,
        ..Footprint::default()
    };
    let c = aws();
    let r = ImpactResource {
        address: "aws_instance.a",
        module_path: vec![],
        resource_type: "aws_instance",
        footprint: &fp,
        coefficients: &c,
        instances: 1.0,
        utilization: 0.5,
        range: None,
    };
    let yaml = manifest_string(&[r.clone(), r], &ImpactOptions::new("x", Period::Hour)).unwrap();
    let v: serde_json::Value = serde_saphyr::from_str(&yaml).unwrap();
    let children = v["tree"]["children"].as_object().unwrap();
    assert!(children.contains_key("aws_instance.a") && children.contains_key("aws_instance.a #2"));
}

#[test]
fn non_finite_figures_are_refused() {
    let fp = Footprint {
        vcpus: f64::NAN,
        ..Footprint::default()
    };
    let c = aws();
    let r = ImpactResource {
        address: "aws_instance.a",
        module_path: vec![],
        resource_type: "aws_instance",
        footprint: &fp,
        coefficients: &c,
        instances: 1.0,
        utilization: 0.5,
        range: None,
    };
    let mut out = Vec::new();
    let err = write_manifest(&[r], &ImpactOptions::new("x", Period::Hour), &mut out).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    assert!(err.to_string().contains("vcpus"), "{err}");
    assert!(out.is_empty());
}

#[test]
fn an_empty_plan_has_no_aggregation_block() {
    let yaml = manifest_string(&[], &ImpactOptions::new("empty", Period::Month)).unwrap();
    assert!(!yaml.contains("aggregation:"));
    assert!(yaml.contains("  children: {}\n"));
}
