//! The generated tables held to the JSON: every key of every table read with serde, as the binary read them at run time before, compared with what the lookups give.

use std::collections::HashMap;

use serde::Deserialize;

use super::tables;
use super::*;

#[derive(Deserialize)]
struct AwsRow {
    #[serde(rename = "VCPU")]
    vcpu: f64,
    #[serde(rename = "MemoryMb")]
    memory_mb: f64,
    #[serde(rename = "GPUs", default)]
    gpus: Vec<String>,
    #[serde(rename = "InstanceStorage")]
    instance_storage: Option<AwsStorage>,
    #[serde(rename = "Family")]
    family: Option<String>,
    #[serde(rename = "CPUTypes", default)]
    cpu_types: Vec<String>,
}

#[derive(Deserialize)]
struct AwsStorage {
    #[serde(rename = "SizePerDiskGB")]
    size_per_disk_gb: f64,
    #[serde(rename = "Count")]
    count: f64,
    #[serde(rename = "Type")]
    kind: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ShapeRow {
    vcpus: f64,
    memory_mb: f64,
    #[serde(default)]
    gpus: Option<Vec<String>>,
    #[serde(default)]
    cpu_types: Option<Vec<String>>,
    #[serde(default)]
    family: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ArchWatts {
    min_watts_per_vcpu: f64,
    max_watts_per_vcpu: f64,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GpuWatts {
    min_watts: f64,
    max_watts: f64,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CoefficientsFile {
    providers: HashMap<String, ProviderCoefficients>,
    cpu_architectures: HashMap<String, ArchWatts>,
    median_architectures: Vec<String>,
    architecture_aliases: HashMap<String, String>,
    gpus: HashMap<String, GpuWatts>,
    gpu_aliases: HashMap<String, String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct EmbodiedRow {
    family: String,
    platform: String,
    #[serde(rename = "platformKgCO2eq")]
    platform_kg_co2eq: f64,
    vcpus: f64,
    host_vcpus: f64,
    #[serde(rename = "kgCO2eqPerHour")]
    kg_co2eq_per_hour: f64,
    #[serde(rename = "kgCO2eqPerHourLow")]
    kg_co2eq_per_hour_low: f64,
    #[serde(rename = "kgCO2eqPerHourHigh")]
    kg_co2eq_per_hour_high: f64,
    method: String,
    parts_kg: PartsKg,
    #[serde(default)]
    server_name: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PartsKg {
    cpu_chassis: f64,
    memory: f64,
}

#[derive(Deserialize)]
struct EmbodiedFallbackRow {
    #[serde(rename = "kgCO2eqPerVcpuHour")]
    kg_co2eq_per_vcpu_hour: f64,
}

#[derive(Deserialize)]
struct GridFile {
    aws: HashMap<String, GridIntensity>,
    gcp: HashMap<String, GridIntensity>,
    azure: HashMap<String, GridIntensity>,
    fallback: HashMap<String, GridFallback>,
}

#[derive(Deserialize)]
struct EmbodiedFile {
    aws: HashMap<String, EmbodiedRow>,
    gcp: HashMap<String, EmbodiedRow>,
    azure: HashMap<String, EmbodiedRow>,
    fallback: HashMap<String, EmbodiedFallbackRow>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct HostsFile {
    baseline_utilization: HashMap<String, HashMap<String, f64>>,
}

fn parse<T: serde::de::DeserializeOwned>(file: &str) -> T {
    serde_json::from_str(json_file(file).unwrap()).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn group_gpus(list: &[String]) -> Vec<GpuCount> {
    let mut out: Vec<GpuCount> = Vec::new();
    for model in list {
        match out.iter_mut().find(|g| &g.model == model) {
            Some(g) => g.count += 1.0,
            None => out.push(GpuCount {
                model: model.clone(),
                count: 1.0,
            }),
        }
    }
    out
}

fn shape_instance(provider: Provider, name: &str, row: ShapeRow) -> Instance {
    Instance {
        provider,
        name: name.to_string(),
        vcpus: row.vcpus,
        memory_gib: row.memory_mb / 1024.0,
        gpus: group_gpus(&row.gpus.unwrap_or_default()),
        cpu_architectures: row.cpu_types.unwrap_or_default(),
        family: row.family,
        local_storage: None,
        origin: InstanceOrigin::Table,
    }
}

/// Every instance table as serde reads it.
fn instances_by_serde() -> Vec<(Provider, HashMap<String, Instance>)> {
    let aws: HashMap<String, AwsRow> = parse("aws_instances.json");
    let aws = aws
        .into_iter()
        .map(|(name, row)| {
            let local_storage = row
                .instance_storage
                .filter(|s| s.count > 0.0 && s.size_per_disk_gb > 0.0)
                .map(|s| LocalStorage {
                    disks: s.count,
                    gb_per_disk: s.size_per_disk_gb,
                    kind: s.kind,
                });
            let i = Instance {
                provider: Provider::Aws,
                name: name.clone(),
                vcpus: row.vcpu,
                memory_gib: row.memory_mb / 1024.0,
                gpus: group_gpus(&row.gpus),
                cpu_architectures: row.cpu_types,
                family: row.family,
                local_storage,
                origin: InstanceOrigin::Table,
            };
            (name, i)
        })
        .collect();
    let mut out = vec![(Provider::Aws, aws)];
    for (p, file) in [
        (Provider::Gcp, "gcp_instances.json"),
        (Provider::Azure, "azure_instances.json"),
    ] {
        let rows: HashMap<String, ShapeRow> = parse(file);
        let rows = rows
            .into_iter()
            .map(|(name, row)| (name.clone(), shape_instance(p, &name, row)))
            .collect();
        out.push((p, rows));
    }
    out
}

fn sorted_keys<V>(m: &HashMap<String, V>) -> Vec<&str> {
    let mut v: Vec<&str> = m.keys().map(String::as_str).collect();
    v.sort_unstable();
    v
}

#[test]
fn generated_instances_equal_the_json() {
    assert_eq!(load_error(), None);
    for (p, rows) in instances_by_serde() {
        assert!(rows.len() > 100, "{p}");
        assert_eq!(instance_types(p), sorted_keys(&rows), "{p}");
        for (name, want) in &rows {
            assert_eq!(instance(p, name).as_ref(), Some(want), "{p} {name}");
            // any case finds the same row
            let upper = name.to_ascii_uppercase();
            assert_eq!(instance(p, &upper).map(|i| i.name), Some(name.clone()));
        }
    }
    let sql: HashMap<String, ShapeRow> = parse("gcp_sql_tiers.json");
    let sql: HashMap<String, Instance> = sql
        .into_iter()
        .map(|(name, row)| (name.clone(), shape_instance(Provider::Gcp, &name, row)))
        .collect();
    assert_eq!(gcp_sql_tiers(), sorted_keys(&sql));
    for (name, want) in &sql {
        assert_eq!(gcp_sql_tier(name).as_ref(), Some(want), "{name}");
    }
}

#[test]
fn generated_coefficients_equal_the_json() {
    let c: CoefficientsFile = parse("coefficients.json");
    for p in Provider::ALL {
        let want = &c.providers[p.as_str()];
        assert_eq!(coefficients(p), Some(want), "{p}");
        for (region, pue) in &want.pue_by_region {
            assert_eq!(pue_in_region(p, region), Some(*pue), "{p} {region}");
        }
    }
    assert_eq!(architectures(), sorted_keys(&c.cpu_architectures));
    for (name, w) in &c.cpu_architectures {
        let want = (w.min_watts_per_vcpu, w.max_watts_per_vcpu);
        let got = architecture_watts(name).map(|r| (r.min_watts, r.max_watts));
        assert_eq!(got, Some(want), "{name}");
    }
    let median: Vec<&str> = tables::median_architectures()
        .iter()
        .map(|m| m.get())
        .collect();
    assert_eq!(median, c.median_architectures);
    assert!(!c.architecture_aliases.is_empty());
    for (alias, name) in &c.architecture_aliases {
        assert_eq!(canonical_architecture(alias), name);
    }
    assert_eq!(gpu_models(), sorted_keys(&c.gpus));
    for (slug, w) in &c.gpus {
        let got = gpu_watts(slug).map(|r| (r.min_watts, r.max_watts));
        assert_eq!(got, Some((w.min_watts, w.max_watts)), "{slug}");
    }
    let aliases: Vec<(&str, &str)> = tables::gpu_aliases()
        .iter()
        .map(|(a, s)| (a.get(), s.get()))
        .collect();
    let mut want: Vec<(&str, &str)> = c
        .gpu_aliases
        .iter()
        .map(|(a, s)| (a.as_str(), s.as_str()))
        .collect();
    want.sort_unstable();
    assert_eq!(aliases, want);
}

#[test]
fn generated_grid_equals_the_json() {
    let mut g: GridFile = parse("grid_intensity.json");
    for (p, rows) in [
        (Provider::Aws, &g.aws),
        (Provider::Gcp, &g.gcp),
        (Provider::Azure, &g.azure),
    ] {
        assert_eq!(regions(p), sorted_keys(rows), "{p}");
        for (region, want) in rows {
            assert_eq!(tables::provider(p).grid(region), Some(want), "{p} {region}");
            assert_eq!(grid_intensity(p, region), Some(want), "{p} {region}");
        }
    }
    for p in Provider::ALL {
        assert_eq!(grid_fallback(p), g.fallback.remove(p.as_str()).as_ref());
    }
}

#[test]
fn generated_embodied_equals_the_json() {
    let e: EmbodiedFile = parse("embodied.json");
    for (p, rows) in [
        (Provider::Aws, &e.aws),
        (Provider::Gcp, &e.gcp),
        (Provider::Azure, &e.azure),
    ] {
        let pt = tables::provider(p);
        assert_eq!(pt.embodied.len(), rows.len(), "{p}");
        for (name, want) in rows {
            let got = pt.embodied(name).unwrap_or_else(|| panic!("{p} {name}"));
            let got_text = (
                got.family.get(),
                got.platform.get(),
                got.ccf_total,
                got.server_name.map(|s| s.get()),
            );
            let want_text = (
                want.family.as_str(),
                want.platform.as_str(),
                want.method == "ccf-total",
                want.server_name.as_deref(),
            );
            assert_eq!(got_text, want_text, "{p} {name}");
            let got_numbers = [
                got.platform_kg_co2eq,
                got.vcpus,
                got.host_vcpus,
                got.kg_co2eq_per_hour,
                got.kg_co2eq_per_hour_low,
                got.kg_co2eq_per_hour_high,
                got.cpu_chassis_kg,
                got.memory_kg,
            ];
            let want_numbers = [
                want.platform_kg_co2eq,
                want.vcpus,
                want.host_vcpus,
                want.kg_co2eq_per_hour,
                want.kg_co2eq_per_hour_low,
                want.kg_co2eq_per_hour_high,
                want.parts_kg.cpu_chassis,
                want.parts_kg.memory,
            ];
            assert_eq!(got_numbers, want_numbers, "{p} {name}");
            assert_eq!(
                embodied_kg_per_hour(p, name),
                Some(want.kg_co2eq_per_hour),
                "{p} {name}"
            );
        }
        let fallback = e.fallback.get(p.as_str()).map(|f| f.kg_co2eq_per_vcpu_hour);
        assert_eq!(embodied_fallback_per_vcpu_hour(p), fallback, "{p}");
    }
}

#[test]
fn generated_baselines_equal_the_json() {
    let h: HostsFile = parse("hosts.json");
    for p in Provider::ALL {
        let rows = &h.baseline_utilization[p.as_str()];
        assert_eq!(tables::provider(p).baseline.len(), rows.len(), "{p}");
        for (name, want) in rows {
            assert_eq!(
                tables::provider(p).baseline(name),
                Some(*want),
                "{p} {name}"
            );
            assert_eq!(baseline_utilization(p, name), Some(*want), "{p} {name}");
        }
    }
}

#[test]
fn generated_sources_equal_the_json() {
    let want: Vec<Source> = parse("sources.json");
    assert!(want.len() > 3);
    assert_eq!(sources(), want.as_slice());
}
