//! Unit tests of the reference data: every table parses, and lookups give the published figures.

use super::*;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn every_table_parses() {
    assert_eq!(load_error(), None);
    for name in json_file_names() {
        let text = json_file(name).unwrap();
        serde_json::from_str::<serde_json::Value>(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    assert!(json_file("aws_instances").is_some());
    assert!(json_file("data/gcp_instances.json").is_some());
    assert!(json_file("nope.json").is_none());
}

#[test]
fn providers_parse() {
    assert_eq!(Provider::parse("aws"), Some(Provider::Aws));
    assert_eq!(Provider::parse("Google"), Some(Provider::Gcp));
    assert_eq!(
        Provider::parse("registry.terraform.io/hashicorp/google-beta"),
        Some(Provider::Gcp)
    );
    assert_eq!(Provider::parse("azurerm"), Some(Provider::Azure));
    assert_eq!("gcp".parse::<Provider>(), Ok(Provider::Gcp));
    assert!("oracle".parse::<Provider>().is_err());
    assert_eq!(Provider::Azure.to_string(), "azure");
}

#[test]
fn spot_checks() {
    let m5 = instance(Provider::Aws, "m5.large").unwrap();
    assert_eq!((m5.vcpus, m5.memory_gib), (2.0, 8.0));
    let n2 = instance(Provider::Gcp, "n2-standard-4").unwrap();
    assert_eq!((n2.vcpus, n2.memory_gib), (4.0, 16.0));
    let d2 = instance(Provider::Azure, "Standard_D2s_v5").unwrap();
    assert_eq!((d2.vcpus, d2.memory_gib), (2.0, 8.0));
    assert_eq!(
        instance(Provider::Azure, "standard_d2s_v5").unwrap().name,
        "Standard_D2s_v5"
    );
    assert_eq!(
        instance(Provider::Azure, "D2s_v5").unwrap().name,
        "Standard_D2s_v5"
    );
    let p3 = instance(Provider::Aws, "p3.8xlarge").unwrap();
    assert_eq!(
        p3.gpus,
        vec![GpuCount {
            model: "nvidia-tesla-v100".into(),
            count: 4.0
        }]
    );
    assert!(instance(Provider::Aws, "nope.large").is_none());
    assert!(instance(Provider::Gcp, "").is_none());
}

#[test]
fn gcp_custom_types_parse() {
    let c = instance(Provider::Gcp, "custom-4-16384").unwrap();
    assert_eq!(
        (c.vcpus, c.memory_gib, c.origin),
        (4.0, 16.0, InstanceOrigin::FromName)
    );
    assert!(!c.cpu_architectures.is_empty());
    let n2 = instance(Provider::Gcp, "n2-custom-8-32768-ext").unwrap();
    assert_eq!((n2.vcpus, n2.memory_gib), (8.0, 32.0));
    assert_eq!(n2.cpu_architectures, vec!["Cascade Lake".to_string()]);
    assert_eq!(
        instance(Provider::Gcp, "e2-custom-small-2048")
            .unwrap()
            .vcpus,
        2.0
    );
    assert!(instance(Provider::Gcp, "custom-0-1024").is_none());
    assert!(instance(Provider::Gcp, "zz-custom-2-2048").is_none());
    assert!(instance(Provider::Gcp, "custom-4").is_none());
    assert!(instance(Provider::Gcp, "custom-99999999999-1").is_none());
    assert_eq!(
        instance(Provider::Gcp, "db-custom-2-7680").unwrap().vcpus,
        2.0
    );
    assert_eq!(
        instance(Provider::Gcp, "db-n1-standard-4").unwrap().vcpus,
        4.0
    );
    let sql = gcp_sql_tier("db-custom-2-7680").unwrap();
    assert_eq!((sql.vcpus, sql.memory_gib), (2.0, 7.5));
    assert!(gcp_sql_tier("db-custom-x-1").is_none());
}

#[test]
fn cpu_rule_matches_ccf() {
    let sky = cpu_watts_per_vcpu(Provider::Aws, &["Skylake"]).unwrap();
    assert_eq!((sky.min_watts, sky.max_watts), (0.65, 4.26));
    // Alias and average: (0.64 + 0.65) / 2, (3.97 + 4.26) / 2.
    let two = cpu_watts_per_vcpu(Provider::Gcp, &["Intel Cascade Lake", "Skylake"]).unwrap();
    assert!(close(two.min_watts, 0.645, 1e-9) && close(two.max_watts, 4.115, 1e-9));
    // Median when Sandy/Ivy Bridge is listed (N1): Skylake, Broadwell, Haswell, Sandy, Ivy.
    let n1 = cpu_watts_per_vcpu(
        Provider::Gcp,
        &[
            "Skylake",
            "Broadwell",
            "Haswell",
            "Sandy Bridge",
            "Ivy Bridge",
        ],
    )
    .unwrap();
    assert_eq!((n1.min_watts, n1.max_watts), (1.0, 4.74));
    let none: [&str; 0] = [];
    let fb = cpu_watts_per_vcpu(Provider::Gcp, &none).unwrap();
    assert_eq!((fb.min_watts, fb.max_watts), (0.68, 4.11));
    let unknown = cpu_watts_per_vcpu(Provider::Aws, &["Ice Lake"]).unwrap();
    assert_eq!((unknown.min_watts, unknown.max_watts), (0.74, 3.5));
    assert!(close(sky.at(0.5), 2.455, 1e-12));
    assert_eq!(sky.at(f64::NAN), 0.65);
}

#[test]
fn regions_and_zones() {
    assert_eq!(
        grid_intensity(Provider::Aws, "us-east-1")
            .unwrap()
            .g_co2eq_per_kwh,
        379.069
    );
    assert_eq!(
        grid_intensity(Provider::Aws, "us-east-1a")
            .unwrap()
            .g_co2eq_per_kwh,
        379.069
    );
    assert!(grid_intensity(Provider::Gcp, "us-central1-a").is_some());
    assert!(grid_intensity(Provider::Azure, "West Europe").is_some());
    assert!(grid_intensity(Provider::Aws, "mars-north-1").is_none());
    assert_eq!(
        grid_intensity(Provider::Aws, "us-east-1-bos-1a"),
        grid_intensity(Provider::Aws, "us-east-1")
    );
    assert!(grid_intensity(Provider::Aws, "").is_none());
    assert!(grid_intensity(Provider::Gcp, "-").is_none());
    assert!(grid_fallback(Provider::Aws).unwrap().g_co2eq_per_kwh > 0.0);
    assert_eq!(pue_in_region(Provider::Gcp, "europe-west4"), Some(1.07));
    assert_eq!(pue_in_region(Provider::Gcp, "mars1"), Some(1.1));
}

#[test]
fn elasticache_node_types_use_their_ec2_type() {
    let ec2 = instance(Provider::Aws, "m5.large").unwrap();
    let cache = instance(Provider::Aws, "cache.m5.large").unwrap();
    assert_eq!(cache.name, "cache.m5.large");
    assert_eq!(cache.vcpus, ec2.vcpus);
    assert_eq!(cache.cpu_architectures, ec2.cpu_architectures);
    let e = embodied(Provider::Aws, "cache.m5.large").unwrap();
    assert_eq!(e.method, EmbodiedMethod::Family);
    assert_eq!(
        e.kg_co2eq_per_hour,
        embodied_kg_per_hour(Provider::Aws, "m5.large").unwrap()
    );
    assert!(instance(Provider::Aws, "cache.zz.huge").is_none());
}

#[test]
fn embodied_methods() {
    let m5 = embodied(Provider::Aws, "m5.large").unwrap();
    assert_eq!(m5.method, EmbodiedMethod::Family);
    assert!(close(m5.kg_co2eq_per_hour * 730.0, 0.699, 0.001));
    assert_eq!(
        embodied(Provider::Aws, "db.m5.large")
            .unwrap()
            .kg_co2eq_per_hour,
        m5.kg_co2eq_per_hour
    );
    // An RDS class absent from the table (c5 is no RDS family) uses its EC2 type.
    assert!(!instance_types(Provider::Aws).contains(&"db.c5.large"));
    let db_c5 = embodied(Provider::Aws, "db.c5.large").unwrap();
    assert_eq!(db_c5.method, EmbodiedMethod::Family);
    assert_eq!(
        db_c5.kg_co2eq_per_hour,
        embodied_kg_per_hour(Provider::Aws, "c5.large").unwrap()
    );
    let custom = embodied(Provider::Gcp, "n2-custom-4-16384").unwrap();
    assert_eq!(custom.method, EmbodiedMethod::CustomFamily);
    let std4 = embodied(Provider::Gcp, "n2-standard-4").unwrap();
    // the same vCPUs and memory as n2-standard-4: the same share of the same host
    assert!(close(
        custom.kg_co2eq_per_hour,
        std4.kg_co2eq_per_hour,
        1e-8
    ));
    // more memory at the same vCPUs: more embodied
    let more = embodied(Provider::Gcp, "n2-custom-4-32768").unwrap();
    assert!(more.kg_co2eq_per_hour > custom.kg_co2eq_per_hour);
    assert!(more.kg_co2eq_per_hour_low < more.kg_co2eq_per_hour_high);
    // a family without a CCF total is priced from its host's parts, not a fallback
    let parts = embodied(Provider::Gcp, "c3-standard-8").unwrap();
    assert_eq!(parts.method, EmbodiedMethod::HostParts);
    assert!(parts.kg_co2eq_per_hour > 0.0);
    assert!(embodied(Provider::Azure, "Standard_Nope").is_none());
}

#[test]
fn sources_listed() {
    let s = sources();
    assert!(
        s.iter()
            .any(|s| s.name == "@cloud-carbon-footprint/core" && s.version == "0.17.3")
    );
    assert!(s.iter().all(|s| !s.licence.is_empty() && s.year >= 2020));
}
