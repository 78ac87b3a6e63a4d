//! Reference data: spot checks against the sources, table integrity, the CCF worked example, and
//! that data/ is exactly what scripts/data/generate.mjs makes from the pinned sources.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;
use std::process::Command;

use carbon_show::data::{self, EmbodiedMethod, GpuCount, InstanceOrigin, Provider};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn spot_checks_against_sources() {
    // Carbonifer (AWS API) and CCF agree: m5.large = 2 vCPU / 8 GiB, Skylake (CCF).
    let m5 = data::instance(Provider::Aws, "m5.large").unwrap();
    assert_eq!((m5.vcpus, m5.memory_gib), (2.0, 8.0));
    assert_eq!(m5.cpu_architectures, vec!["Skylake".to_string()]);
    // RDS classes are the EC2 type with a db. prefix.
    let db = data::instance(Provider::Aws, "db.m5.large").unwrap();
    assert_eq!((db.vcpus, db.memory_gib), (2.0, 8.0));
    let n2 = data::instance(Provider::Gcp, "n2-standard-4").unwrap();
    assert_eq!((n2.vcpus, n2.memory_gib), (4.0, 16.0));
    assert_eq!(n2.cpu_architectures, vec!["Cascade Lake".to_string()]);
    let d2 = data::instance(Provider::Azure, "Standard_D2s_v5").unwrap();
    assert_eq!((d2.vcpus, d2.memory_gib), (2.0, 8.0));
    // GPU types carry their GPUs, model and count.
    let p3 = data::instance(Provider::Aws, "p3.8xlarge").unwrap();
    assert_eq!(
        p3.gpus,
        vec![GpuCount {
            model: "nvidia-tesla-v100".into(),
            count: 4.0
        }]
    );
    let a2 = data::instance(Provider::Gcp, "a2-highgpu-2g").unwrap();
    assert_eq!(
        a2.gpus,
        vec![GpuCount {
            model: "nvidia-tesla-a100".into(),
            count: 2.0
        }]
    );
    let nc = data::instance(Provider::Azure, "Standard_NC24s_v3").unwrap();
    assert_eq!(nc.gpu_count(), 4.0);
    assert!(data::gpu_watts(&p3.gpus[0].model).is_some());
    assert!(data::gpu_watts(&a2.gpus[0].model).is_some());
    // Custom GCP types and Cloud SQL tiers are computed from the name.
    let custom = data::instance(Provider::Gcp, "custom-4-16384").unwrap();
    assert_eq!(
        (custom.vcpus, custom.memory_gib, custom.origin),
        (4.0, 16.0, InstanceOrigin::FromName)
    );
    let sql = data::gcp_sql_tier("db-custom-4-15360").unwrap();
    assert_eq!((sql.vcpus, sql.memory_gib), (4.0, 15.0));
    assert_eq!(data::gcp_sql_tier("db-n1-standard-2").unwrap().vcpus, 2.0);
    // Unknown keys are None, not panics.
    assert!(data::instance(Provider::Aws, "zz9.huge").is_none());
    assert!(data::instance(Provider::Gcp, "custom-a-b").is_none());
    assert!(data::gpu_watts("no-such-gpu").is_none());
    assert!(data::json_file("no-such-file.json").is_none());
}

/// Deserializes any JSON, failing on an object with a repeated key (serde_json's Map would
/// silently keep the last one).
struct NoDuplicateKeys;

impl<'de> Deserialize<'de> for NoDuplicateKeys {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NoDupVisitor)
    }
}

struct NoDupVisitor;

impl<'de> Visitor<'de> for NoDupVisitor {
    type Value = NoDuplicateKeys;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(NoDuplicateKeys)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<NoDuplicateKeys>()?.is_some() {}
        Ok(NoDuplicateKeys)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!("duplicate key {key:?}")));
            }
            map.next_value::<NoDuplicateKeys>()?;
        }
        Ok(NoDuplicateKeys)
    }
}

#[test]
fn no_duplicate_keys_in_any_table() {
    assert_eq!(data::load_error(), None);
    let mut files = 0;
    for name in data::json_file_names() {
        let text = data::json_file(name).unwrap();
        let mut de = serde_json::Deserializer::from_str(text);
        if let Err(e) = NoDuplicateKeys::deserialize(&mut de) {
            panic!("data/{name}: {e}");
        }
        files += 1;
    }
    assert!(files >= 8);
    // The check itself works.
    let mut de = serde_json::Deserializer::from_str(r#"{"a": {"b": 1, "b": 2}}"#);
    assert!(NoDuplicateKeys::deserialize(&mut de).is_err());
}

#[test]
fn every_instance_is_sound() {
    for p in Provider::ALL {
        let names = data::instance_types(p);
        assert!(names.len() > 100, "{p}: only {} types", names.len());
        for name in names {
            let i = data::instance(p, name).unwrap();
            assert!(
                i.vcpus > 0.0 && i.memory_gib > 0.0,
                "{p} {name}: {} vCPU, {} GiB",
                i.vcpus,
                i.memory_gib
            );
            let w = data::cpu_watts_per_vcpu(p, &i.cpu_architectures).unwrap();
            assert!(
                w.min_watts > 0.0 && w.max_watts > w.min_watts,
                "{p} {name}: {w:?}"
            );
            for g in &i.gpus {
                assert!(g.count >= 1.0, "{p} {name}: {g:?}");
            }
        }
    }
    for name in data::gcp_sql_tiers() {
        let t = data::gcp_sql_tier(name).unwrap();
        assert!(t.vcpus > 0.0 && t.memory_gib > 0.0, "{name}");
    }
}

#[test]
fn no_zero_watts_for_a_known_architecture() {
    let archs = data::architectures();
    assert!(archs.len() >= 10);
    for a in archs {
        let w = data::architecture_watts(a).unwrap();
        assert!(w.min_watts > 0.0 && w.max_watts > w.min_watts, "{a}: {w:?}");
    }
    // Carbonifer's defect: 'Intel Cascade Lake' must not give 0 W.
    assert_eq!(
        data::architecture_watts("Intel Cascade Lake"),
        data::architecture_watts("Cascade Lake")
    );
    for m in data::gpu_models() {
        let w = data::gpu_watts(m).unwrap();
        assert!(w.min_watts > 0.0 && w.max_watts > w.min_watts, "{m}: {w:?}");
    }
    for p in Provider::ALL {
        let c = data::coefficients(p).unwrap();
        assert!(
            c.memory_watts_per_gb > 0.0
                && c.ssd_watts_per_tb > 0.0
                && c.hdd_watts_per_tb > 0.0
                && c.pue >= 1.0
        );
        assert!(close(
            c.memory_watts_per_gb,
            c.memory_kwh_per_gb_hour * 1000.0,
            1e-12
        ));
    }
}

#[test]
fn every_region_has_an_intensity() {
    for p in Provider::ALL {
        let regions = data::regions(p);
        assert!(regions.len() >= 25, "{p}: {} regions", regions.len());
        for r in regions {
            let g = data::grid_intensity(p, r).unwrap();
            assert!(g.g_co2eq_per_kwh > 0.0, "{p} {r}");
            assert!((2019..=2026).contains(&g.year), "{p} {r}: year {}", g.year);
            assert!(!g.source.is_empty() && !g.via.is_empty(), "{p} {r}");
        }
        assert!(data::grid_fallback(p).unwrap().g_co2eq_per_kwh > 0.0);
        assert!(data::embodied_fallback_per_vcpu_hour(p).unwrap() > 0.0);
    }
}

/// CCF worked example: one m5.large in us-east-1 at 50 % CPU for 730 h.
///
/// Operational, with CCF's AWS coefficients (@cloud-carbon-footprint/aws 0.15.0 / core 0.17.3):
///   CPU     2 vCPU × (0.74 + 0.5 × (3.50 − 0.74)) W = 2 × 2.12 W = 4.240 W   (AWS average min/max)
///   memory  8 GiB × 0.392 W/GB                        = 3.136 W
///   total   7.376 W × 730 h = 5.38448 kWh
///   × PUE 1.135 = 6.1113848 kWh
///   × 379.069 gCO2eq/kWh (us-east-1, EPA eGRID2020) = 2316.6 g ≈ 2.317 kg   (≈ 2.318 kg, within 0.1 %)
///   With m5.large's own microarchitecture (Skylake, 0.65/4.26 W) the CPU term is
///   2 × 2.455 = 4.910 W and the total 2.527 kg.
/// Embodied, CCF's m5 family total 1.6103792 tCO2eq:
///   1610.3792 kg × 730 h / 35 040 h × 2 vCPU / 96 vCPU (m5.24xlarge) = 0.6990 kg
#[test]
fn m5_large_worked_check() {
    let p = Provider::Aws;
    let m5 = data::instance(p, "m5.large").unwrap();
    let hours = 730.0;
    let none: [&str; 0] = [];
    let cpu = data::cpu_watts_per_vcpu(p, &none).unwrap();
    assert_eq!((cpu.min_watts, cpu.max_watts), (0.74, 3.5));
    let cpu_w = m5.vcpus * cpu.at(0.5);
    assert!(close(cpu_w, 4.24, 1e-9));
    let mem_w = m5.memory_gib * data::memory_watts_per_gb(p).unwrap();
    assert!(close(mem_w, 3.136, 1e-9));
    let kwh = (cpu_w + mem_w) * hours / 1000.0;
    assert!(close(kwh, 5.38448, 1e-9));
    let pue = data::pue_in_region(p, "us-east-1").unwrap();
    assert_eq!(pue, 1.135);
    let grid = data::grid_intensity(p, "us-east-1").unwrap();
    assert_eq!((grid.g_co2eq_per_kwh, grid.year), (379.069, 2020));
    let operational_kg = kwh * pue * grid.g_co2eq_per_kwh / 1000.0;
    assert!(close(operational_kg, 2.31663, 1e-4), "{operational_kg}");
    assert!(
        close(operational_kg, 2.318, 0.0025),
        "{operational_kg} vs CCF's 2.318"
    );

    let sky = data::cpu_watts_per_vcpu(p, &m5.cpu_architectures).unwrap();
    let with_arch_kg =
        (m5.vcpus * sky.at(0.5) + mem_w) * hours / 1000.0 * pue * grid.g_co2eq_per_kwh / 1000.0;
    assert!(close(with_arch_kg, 2.5273, 1e-3), "{with_arch_kg}");

    let e = data::embodied(p, "m5.large").unwrap();
    assert_eq!(e.method, EmbodiedMethod::Family);
    assert_eq!(
        (e.platform.as_deref(), e.platform_kg_co2eq, e.host_vcpus),
        (Some("m5"), Some(1610.3792), Some(96.0))
    );
    let embodied_kg = e.kg_co2eq_per_hour * hours;
    let by_hand = 1610.3792 * hours / 35040.0 * 2.0 / 96.0;
    assert!(
        close(embodied_kg, by_hand, 1e-6),
        "{embodied_kg} vs {by_hand}"
    );
    assert!(close(embodied_kg, 0.699, 0.0005), "{embodied_kg}");
}

#[test]
fn sources_are_recorded() {
    let s = data::sources();
    for pkg in ["aws", "azure", "core", "common"] {
        let name = format!("@cloud-carbon-footprint/{pkg}");
        assert!(
            s.iter().any(|x| x.name == name && !x.version.is_empty()),
            "{name}"
        );
    }
    assert!(
        s.iter()
            .any(|x| x.name.contains("Carbonifer") && x.version.contains("v0.4.0"))
    );
    for name in
        data::json_file_names().filter(|n| !n.ends_with(".source.json") && *n != "sources.json")
    {
        let sidecar = name.replace(".json", ".source.json");
        let text = data::json_file(&sidecar).unwrap_or_else(|| panic!("{name} has no {sidecar}"));
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        let sources = v["sources"].as_array().unwrap();
        assert!(!sources.is_empty());
        for src in sources {
            for field in ["name", "version", "year", "licence", "url"] {
                assert!(!src[field].is_null(), "{sidecar}: a source lacks {field}");
            }
        }
    }
}

/// Runs a node command for the test `name`; where node cannot run, the test is skipped loudly
/// (`hint` says what to do), and fails under CARBON_SHOW_REQUIRE_DATA_SOURCES.
fn node(cmd: &mut Command, name: &str, hint: &str) -> Option<std::process::Output> {
    match cmd.output() {
        Ok(out) => Some(out),
        Err(e) => {
            assert!(
                std::env::var_os("CARBON_SHOW_REQUIRE_DATA_SOURCES").is_none(),
                "CARBON_SHOW_REQUIRE_DATA_SOURCES is set but node cannot run: {e}"
            );
            crate::common::loud(&format!(
                "\n!!! SKIPPED {name}: cannot run node ({e}).{hint}\n"
            ));
            None
        }
    }
}

/// data/ must be exactly what the generator makes from the pinned sources. Runs
/// `node scripts/data/generate.mjs --check`; skipped (loudly) only where the npm sources are not
/// installed (`scripts/data/check.sh` installs them with `npm ci` and runs the same check).
#[test]
fn generated_data_matches_pinned_sources() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("scripts/data/generate.mjs");
    let modules = root.join("scripts/data/node_modules/@cloud-carbon-footprint/core");
    let required = std::env::var_os("CARBON_SHOW_REQUIRE_DATA_SOURCES").is_some();
    if !modules.is_dir() {
        assert!(
            !required,
            "CARBON_SHOW_REQUIRE_DATA_SOURCES is set but {} is missing",
            modules.display()
        );
        crate::common::loud(&format!(
            "\n!!! SKIPPED generated_data_matches_pinned_sources: the pinned npm sources are not installed \
             ({}). Run scripts/data/check.sh to install them (npm ci) and check data/.\n",
            modules.display()
        ));
        return;
    }
    let Some(out) = node(
        Command::new("node").arg(&script).arg("--check"),
        "generated_data_matches_pinned_sources",
        " Run scripts/data/check.sh.",
    ) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "data/ is stale or the generator failed:\n{stderr}"
    );
    eprintln!("{}", stderr.trim());
}

/// The host model's own tests (`node --test scripts/data/host_model.test.mjs`: CCF's coefficients
/// reproduce its totals, placeholders are detected, the generator fails on one). They need node
/// only, not the npm sources; skipped loudly without node (a failure under
/// CARBON_SHOW_REQUIRE_DATA_SOURCES).
#[test]
fn host_model_node_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let test = root.join("scripts/data/host_model.test.mjs");
    let Some(out) = node(
        Command::new("node").arg("--test").arg(&test),
        "host_model_node_tests",
        "",
    ) else {
        return;
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "host_model.test.mjs failed:\n{stdout}"
    );
    assert!(
        stdout.contains("# fail 0") && stdout.contains("# pass 4"),
        "{stdout}"
    );
}

/// Issue 16: g6.xlarge and p5.48xlarge were "unknown machine type": the AWS table lacked every
/// family launched since 2023. Types launched through 2025 on the three clouds are known, with
/// their vCPUs, memory and GPUs as the providers publish them.
#[test]
fn types_launched_through_2025_are_known() {
    let cases: &[(Provider, &str, f64, f64, f64)] = &[
        (Provider::Aws, "m7i.large", 2.0, 8.0, 0.0),
        // 2025 EC2 launches, from EC2's DescribeInstanceTypes as pinned moto ships it
        (Provider::Aws, "c8a.large", 2.0, 4.0, 0.0),
        (Provider::Aws, "m8a.xlarge", 4.0, 16.0, 0.0),
        (Provider::Aws, "r8a.large", 2.0, 16.0, 0.0),
        (Provider::Aws, "c8i.large", 2.0, 4.0, 0.0),
        (Provider::Aws, "m8i-flex.large", 2.0, 8.0, 0.0),
        (Provider::Aws, "r8i.large", 2.0, 16.0, 0.0),
        (Provider::Aws, "c8gd.large", 2.0, 4.0, 0.0),
        (Provider::Aws, "c8gn.large", 2.0, 4.0, 0.0),
        (Provider::Aws, "i7i.large", 2.0, 16.0, 0.0),
        (Provider::Aws, "i8ge.large", 2.0, 16.0, 0.0),
        (Provider::Aws, "x8aedz.large", 2.0, 64.0, 0.0),
        (Provider::Aws, "p6-b200.48xlarge", 192.0, 2048.0, 8.0),
        (Provider::Aws, "p6-b300.48xlarge", 192.0, 4096.0, 8.0),
        (Provider::Aws, "g6f.large", 2.0, 8.0, 1.0),
        (Provider::Aws, "p5.4xlarge", 16.0, 256.0, 1.0),
        (Provider::Aws, "c7i.metal-48xl", 192.0, 384.0, 0.0),
        (Provider::Aws, "r7i.large", 2.0, 16.0, 0.0),
        (Provider::Aws, "c7g.large", 2.0, 4.0, 0.0),
        (Provider::Aws, "c8g.large", 2.0, 4.0, 0.0),
        (Provider::Aws, "m8g.large", 2.0, 8.0, 0.0),
        (Provider::Aws, "g6.xlarge", 4.0, 16.0, 1.0),
        (Provider::Aws, "g6e.xlarge", 4.0, 32.0, 1.0),
        (Provider::Aws, "p5.48xlarge", 192.0, 2048.0, 8.0),
        (Provider::Gcp, "c3-standard-4", 4.0, 16.0, 0.0),
        // 7 GB, not 2 x 3.75 (Google's C4 table; was 7.5 before)
        (Provider::Gcp, "c4-standard-2", 2.0, 7.0, 0.0),
        (Provider::Gcp, "c4-highmem-2", 2.0, 15.0, 0.0),
        (Provider::Gcp, "c4-standard-8", 8.0, 30.0, 0.0),
        (Provider::Gcp, "c4d-standard-2", 2.0, 7.0, 0.0),
        (Provider::Gcp, "n4a-standard-2", 2.0, 8.0, 0.0),
        (Provider::Gcp, "n4-standard-2", 2.0, 8.0, 0.0),
        (Provider::Gcp, "a3-highgpu-8g", 208.0, 1872.0, 8.0),
        (Provider::Gcp, "g2-standard-4", 4.0, 16.0, 1.0),
        (Provider::Azure, "Standard_D2s_v5", 2.0, 8.0, 0.0),
        (Provider::Azure, "Standard_D2s_v6", 2.0, 8.0, 0.0),
        // 2024-2025 series, from Microsoft's size tables: Cobalt 100 and AMD Fasv6/Falsv6/Famsv6
        (Provider::Azure, "Standard_D2ps_v6", 2.0, 8.0, 0.0),
        (Provider::Azure, "Standard_D4plds_v6", 4.0, 8.0, 0.0),
        (Provider::Azure, "Standard_E96ps_v6", 96.0, 672.0, 0.0),
        (Provider::Azure, "Standard_F2as_v6", 2.0, 8.0, 0.0),
        (Provider::Azure, "Standard_F4als_v6", 4.0, 8.0, 0.0),
        (Provider::Azure, "Standard_F64ams_v6", 64.0, 512.0, 0.0),
        (
            Provider::Azure,
            "Standard_NC24ads_A100_v4",
            24.0,
            220.0,
            1.0,
        ),
        (
            Provider::Azure,
            "Standard_NC40ads_H100_v5",
            40.0,
            320.0,
            1.0,
        ),
        (
            Provider::Azure,
            "Standard_ND96isr_H100_v5",
            96.0,
            1900.0,
            8.0,
        ),
        // AMD Turin v7 series and the 2024-2025 ND GPU series, from Microsoft's size tables
        (Provider::Azure, "Standard_D160as_v7", 160.0, 640.0, 0.0),
        (Provider::Azure, "Standard_E2ads_v7", 2.0, 16.0, 0.0),
        (Provider::Azure, "Standard_F1amds_v7", 1.0, 8.0, 0.0),
        (
            Provider::Azure,
            "Standard_ND96isr_H200_v5",
            96.0,
            1850.0,
            8.0,
        ),
        (
            Provider::Azure,
            "Standard_ND128isr_NDR_GB200_v6",
            128.0,
            900.0,
            4.0,
        ),
        // GCP accelerator-optimized types of 2024-2025, from Google's GPU machine-types page
        (Provider::Gcp, "a3-edgegpu-8g", 208.0, 1872.0, 8.0),
        (Provider::Gcp, "a4-highgpu-8g", 224.0, 3968.0, 8.0),
        (Provider::Gcp, "a4x-highgpu-4g", 140.0, 884.0, 4.0),
        (Provider::Gcp, "g4-standard-384", 384.0, 1440.0, 8.0),
        (Provider::Gcp, "c4n-highmem-96", 96.0, 744.0, 0.0),
        // EC2 hand rows (types moto lacks)
        (Provider::Aws, "p6e-gb200.36xlarge", 144.0, 960.0, 4.0),
        (Provider::Aws, "u7inh-32tb.480xlarge", 1920.0, 32768.0, 0.0),
    ];
    for &(p, name, vcpus, gib, gpus) in cases {
        let i = data::instance(p, name).unwrap_or_else(|| panic!("{p} {name} unknown"));
        assert_eq!(
            (i.vcpus, i.memory_gib, i.gpu_count()),
            (vcpus, gib, gpus),
            "{name}"
        );
        for g in &i.gpus {
            assert!(data::gpu_watts(&g.model).is_some(), "{name}: {g:?}");
        }
        assert!(data::embodied(p, name).is_some(), "{name}");
    }
    // The model behind the count: p5 H100 (700 W SXM), g6 L4 (72 W).
    let p5 = data::instance(Provider::Aws, "p5.48xlarge").unwrap();
    assert_eq!(data::gpu_watts(&p5.gpus[0].model).unwrap().max_watts, 700.0);
    let g6 = data::instance(Provider::Aws, "g6.xlarge").unwrap();
    assert_eq!(data::gpu_watts(&g6.gpus[0].model).unwrap().max_watts, 72.0);
    // p6-b200: B200 at 1,000 W; g6f.large: an eighth of an L4, an eighth of its watts.
    let p6 = data::instance(Provider::Aws, "p6-b200.48xlarge").unwrap();
    assert_eq!(
        data::gpu_watts(&p6.gpus[0].model).unwrap().max_watts,
        1000.0
    );
    let g6f = data::instance(Provider::Aws, "g6f.large").unwrap();
    assert_eq!(data::gpu_watts(&g6f.gpus[0].model).unwrap().max_watts, 9.0);
}

/// Every host in data/hosts.json is at least as large as every type that runs on it, so no
/// instance is charged more than one whole host; burstable families name their platform.
#[test]
fn every_instance_fits_its_host() {
    for p in Provider::ALL {
        for name in data::instance_types(p) {
            let Some(e) = data::embodied(p, name) else {
                continue;
            };
            if let Some(host) = e.host_vcpus {
                assert!(
                    e.vcpus <= host,
                    "{p} {name}: {} vCPU on a {host}-vCPU host",
                    e.vcpus
                );
            }
        }
    }
    for (p, name, platform, host) in [
        (Provider::Aws, "t3.medium", "m5", 96.0),
        (Provider::Aws, "t4g.micro", "m6g", 64.0),
        (Provider::Gcp, "e2-micro", "n2-standard", 128.0),
        (Provider::Azure, "Standard_B2s_v2", "D2s – D96s v5", 96.0),
    ] {
        let e = data::embodied(p, name).unwrap();
        assert_eq!(
            (e.platform.as_deref(), e.host_vcpus),
            (Some(platform), Some(host)),
            "{name}"
        );
    }
}

/// Issue 16 C: the three hand tables were typed without a live check. Rows checked against the
/// providers' documentation (each table's `sources[0].version` says against what) keep those
/// figures, and every hand table's sources are listed in `data/sources.json` (`--version`,
/// docs) like the generated tables'.
#[test]
fn hand_tables_match_the_checked_documentation_and_list_their_sources() {
    let table = |name: &str| -> serde_json::Value {
        serde_json::from_str(data::json_file(&format!("{name}.json")).unwrap()).unwrap()
    };
    let redshift = table("aws_redshift_nodes");
    // Redshift Management Guide, "Node type details": vCPU, RAM GiB, storage per node
    for (node, vcpu, gib, gb) in [
        ("dc2.large", 2, 15, 160),
        ("dc2.8xlarge", 32, 244, 2560),
        ("ds2.xlarge", 4, 31, 2000),
        ("ds2.8xlarge", 36, 244, 16000),
        ("ra3.xlplus", 4, 32, 0),
        ("ra3.4xlarge", 12, 96, 0),
        ("ra3.16xlarge", 48, 384, 0),
    ] {
        let r = &redshift[node];
        assert_eq!(
            (
                r["VCPU"].as_i64(),
                r["MemoryMb"].as_i64(),
                r["StorageGB"].as_i64()
            ),
            (Some(vcpu), Some(gib * 1024), Some(gb)),
            "{node}"
        );
    }
    // Azure Cache for Redis FAQ: cache size per node (C0 250 MB)
    let redis = table("azure_redis_cache_sizes");
    for (size, mb) in [
        ("C0", 250),
        ("C1", 1024),
        ("C2", 2560),
        ("C3", 6144),
        ("C4", 13 * 1024),
        ("C5", 26 * 1024),
        ("C6", 53 * 1024),
        ("P1", 6144),
        ("P2", 13 * 1024),
        ("P3", 26 * 1024),
        ("P4", 53 * 1024),
        ("P5", 120 * 1024),
    ] {
        assert_eq!(redis[size]["memoryMb"].as_i64(), Some(mb), "{size}");
    }
    // Functions Premium plan (EP), Logic Apps Standard (WS), and the pricing-page sizes
    let plans = table("azure_app_service_plans");
    for (sku, cores, mb) in [
        ("EP1", 1, 3584),
        ("EP2", 2, 7168),
        ("EP3", 4, 14336),
        ("WS1", 1, 3584),
        ("WS3", 4, 14336),
        ("B1", 1, 1792),
        ("P0v3", 1, 4096),
        ("P1mv3", 2, 16384),
        ("P5mv3", 32, 262144),
        ("I6v2", 64, 262144),
    ] {
        let r = &plans[sku];
        assert_eq!(
            (r["vcpus"].as_i64(), r["memoryMb"].as_i64()),
            (Some(cores), Some(mb)),
            "{sku}"
        );
    }
    let listed = data::sources();
    for name in [
        "aws_redshift_nodes",
        "azure_app_service_plans",
        "azure_redis_cache_sizes",
    ] {
        let sidecar: serde_json::Value =
            serde_json::from_str(data::json_file(&format!("{name}.source.json")).unwrap()).unwrap();
        let first = &sidecar["sources"][0];
        assert!(
            first["version"].as_str().unwrap().contains("checked"),
            "{name}: {first}"
        );
        for s in sidecar["sources"].as_array().unwrap() {
            assert!(
                listed.iter().any(|x| x.name == s["name"].as_str().unwrap()
                    && x.url == s["url"].as_str().unwrap()),
                "{name}: {} is not in data/sources.json",
                s["name"]
            );
        }
    }
}

/// Issue 16 A: one VM per family group added for the 2025 launches
/// (`testdata/carbon/families.json`, written by `testdata/carbon/make_families.py`) is
/// estimated by the binary, with its vCPUs, memory and GPUs, and no "unknown machine type" or
/// GPU warning; before the moto and Microsoft-page tables, every one of them was "unknown
/// machine type" (and c4-standard-2 had 7.5 GB).
#[test]
fn families_launched_in_2025_are_estimated_end_to_end() {
    let out = crate::common::bin()
        .args(["testdata/carbon/families.json", "--format", "json"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run carbon-show");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        crate::common::stderr(&out)
    );
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        r["counts"],
        serde_json::json!({"estimated": 48, "not_estimated": 0, "unsupported": 0, "ignored": 0, "from_usage": 0})
    );
    let expect: &[(&str, f64, f64, u64)] = &[
        ("aws_instance.c8a_large", 2.0, 4.0, 0),
        ("aws_instance.x8aedz_large", 2.0, 64.0, 0),
        ("aws_instance.m8i_flex_large", 2.0, 8.0, 0),
        ("aws_instance.c8gn_large", 2.0, 4.0, 0),
        ("aws_instance.m9g_large", 2.0, 8.0, 0),
        ("aws_instance.i7i_large", 2.0, 16.0, 0),
        ("aws_instance.c7i_metal_48xl", 192.0, 384.0, 0),
        ("aws_instance.p6_b200_48xlarge", 192.0, 2048.0, 8),
        ("aws_instance.p6_b300_48xlarge", 192.0, 4096.0, 8),
        ("aws_instance.g6f_large", 2.0, 8.0, 1),
        ("aws_instance.g7e_2xlarge", 8.0, 64.0, 1),
        ("aws_instance.g7_2xlarge", 8.0, 32.0, 1),
        (
            "azurerm_linux_virtual_machine.standard_d2ps_v6",
            2.0,
            8.0,
            0,
        ),
        (
            "azurerm_linux_virtual_machine.standard_e96ps_v6",
            96.0,
            672.0,
            0,
        ),
        (
            "azurerm_linux_virtual_machine.standard_f8ams_v6",
            8.0,
            64.0,
            0,
        ),
        ("google_compute_instance.c4_standard_2", 2.0, 7.0, 0),
        ("google_compute_instance.c4_highmem_2", 2.0, 15.0, 0),
        // Google's machineTypes API (the GCE dump): 2025 families, and c3d-highcpu-30's 59 GB
        ("google_compute_instance.c4_standard_288", 288.0, 1080.0, 0),
        ("google_compute_instance.c4d_standard_2", 2.0, 7.0, 0),
        ("google_compute_instance.n4d_standard_4", 4.0, 16.0, 0),
        ("google_compute_instance.h4d_standard_192", 192.0, 720.0, 0),
        ("google_compute_instance.n4a_standard_2", 2.0, 8.0, 0),
        ("google_compute_instance.m4_megamem_56", 56.0, 744.0, 0),
        ("google_compute_instance.c3d_highcpu_30", 30.0, 59.0, 0),
        // hand rows from the providers' pages (curated.json): GPU machines of 2024-2025, v7 sizes
        ("aws_instance.p6e_gb200_36xlarge", 144.0, 960.0, 4),
        ("aws_instance.u7inh_32tb_480xlarge", 1920.0, 32768.0, 0),
        (
            "azurerm_linux_virtual_machine.standard_d2as_v7",
            2.0,
            8.0,
            0,
        ),
        (
            "azurerm_linux_virtual_machine.standard_f2als_v7",
            2.0,
            4.0,
            0,
        ),
        (
            "azurerm_linux_virtual_machine.standard_nd96isr_h200_v5",
            96.0,
            1850.0,
            8,
        ),
        (
            "azurerm_linux_virtual_machine.standard_nd128isr_ndr_gb200_v6",
            128.0,
            900.0,
            4,
        ),
        ("google_compute_instance.c4n_standard_2", 2.0, 7.0, 0),
        ("google_compute_instance.a3_edgegpu_8g", 208.0, 1872.0, 8),
        ("google_compute_instance.a4_highgpu_8g", 224.0, 3968.0, 8),
        ("google_compute_instance.a4x_highgpu_4g", 140.0, 884.0, 4),
        // 1/8 of an RTX PRO 6000: one partition, an eighth of the GPU's watts
        ("google_compute_instance.g4_standard_6", 6.0, 22.0, 1),
        ("google_compute_instance.g4_standard_48", 48.0, 180.0, 1),
    ];
    let resources = r["resources"].as_array().unwrap();
    for x in resources {
        let addr = x["address"].as_str().unwrap();
        assert_eq!(x["status"], "estimated", "{addr}: {x}");
        let text = x["warnings"].to_string();
        assert!(
            !text.contains("GPU") && !text.contains("unknown machine type"),
            "{addr}: {text}"
        );
    }
    for &(addr, vcpus, gib, gpus) in expect {
        let x = resources
            .iter()
            .find(|x| x["address"] == addr)
            .unwrap_or_else(|| panic!("{addr} not in the report"));
        let a = &x["after"];
        assert_eq!(
            (
                a["vcpus"].as_f64(),
                a["memory_gb"].as_f64(),
                a["gpus"].as_u64()
            ),
            (Some(vcpus), Some(gib), Some(gpus)),
            "{addr}"
        );
    }
    // the B200s' watts are in: 8 × the idle 114.4 W is a floor of the power before PUE
    let p6 = resources
        .iter()
        .find(|x| x["address"] == "aws_instance.p6_b200_48xlarge")
        .unwrap();
    assert!(p6["after"]["per_hour"]["power_w"].as_f64().unwrap() > 8.0 * 114.4);
}
