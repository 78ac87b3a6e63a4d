//! Resource-type coverage (docs/mappings.md, "Coverage"): how many types the shipped mappings
//! estimate, one fixture resource per type (`testdata/carbon/coverage.json`, written by
//! `testdata/carbon/make_coverage.py`), the reason of every unsupported case, and hand-checked
//! figures for the new methods.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Stdio;

use carbon_show::data::{self, Provider};
use carbon_show::mapping;
use serde_json::Value;

use crate::common::{bin, stderr, stdout};

const FIXTURE: &str = "testdata/carbon/coverage.json";

fn report() -> Value {
    let o = bin()
        .args([FIXTURE, "--format", "json"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .stdin(Stdio::null())
        .output()
        .expect("run carbon-show");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("json")
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

fn close(actual: f64, expected: f64, what: &str) {
    let tol = 1e-6 * expected.abs().max(1e-9);
    assert!(
        (actual - expected).abs() <= tol,
        "{what}: {actual} != {expected} (hand calculation)"
    );
}

/// The resource types of the embedded mappings, from their entry paths
/// (`cbf::all_select("type"; "<type>")`): (estimated, unsupported with a reason). A type is
/// "unsupported" when its mapping lives in an `unsupported.yaml`, or in a `usage.yaml` (issue
/// 26: without a usage file its figure is unsupported, with the keys that would estimate it).
fn shipped_types() -> (BTreeSet<String>, BTreeSet<String>) {
    let entry = regex::Regex::new(r#"all_select\("type";\s*"([a-z0-9_]+)"\)"#).unwrap();
    let (mut supported, mut unsupported) = (BTreeSet::new(), BTreeSet::new());
    for f in mapping::builtin_files() {
        let set = if f.path.ends_with("/unsupported.yaml") || f.path.ends_with("/usage.yaml") {
            &mut unsupported
        } else {
            &mut supported
        };
        for c in entry.captures_iter(&f.text) {
            set.insert(c[1].to_string());
        }
    }
    (supported, unsupported)
}

/// Issue 16 item 8: at least 50 resource types are estimated (26 before the coverage work).
#[test]
fn coverage_at_least_50_supported_types() {
    let (supported, unsupported) = shipped_types();
    // the types come from mappings that load: every file's mapping name is one the engine has
    let engine = mapping::load(&[], &|n: &str| data::json_file(n).map(Into::into)).unwrap();
    let names: BTreeSet<&str> = engine.resource_mappings().collect();
    assert!(names.contains("aws_lambda_function") && names.contains("aws_s3_bucket"));
    assert!(
        supported.len() >= 50,
        "{} supported types: {supported:?}",
        supported.len()
    );
    assert!(supported.is_disjoint(&unsupported));
    for t in [
        "aws_lambda_function",
        "aws_ecs_service",
        "aws_rds_cluster_instance",
        "aws_rds_cluster",
        "aws_redshift_cluster",
        "aws_opensearch_domain",
        "aws_msk_cluster",
        "aws_emr_cluster",
        "google_container_cluster",
        "google_cloud_run_v2_service",
        "google_dataproc_cluster",
        "google_redis_instance",
        "azurerm_virtual_machine",
        "azurerm_windows_virtual_machine",
        "azurerm_linux_virtual_machine_scale_set",
        "azurerm_windows_virtual_machine_scale_set",
        "azurerm_kubernetes_cluster",
        "azurerm_mssql_database",
        "azurerm_postgresql_flexible_server",
        "azurerm_service_plan",
        "azurerm_redis_cache",
    ] {
        assert!(supported.contains(t), "{t} is not supported");
    }
    for t in [
        "aws_s3_bucket",
        "google_bigtable_instance",
        "google_spanner_instance",
    ] {
        assert!(unsupported.contains(t), "{t} has no reason");
    }
}

/// Every type of the coverage fixture is estimated, or unsupported with the mapping's reason
/// (never a silent zero, never the validator's wrapper).
#[test]
fn coverage_fixture_every_type_estimated_or_says_why() {
    let (supported, unsupported) = shipped_types();
    let r = report();
    // cases of supported types that have no method, each with its reason
    let reasoned = [
        "aws_ecs_service.on_ec2",
        "aws_rds_cluster.aurora",
        "azurerm_mssql_database.dtu",
        "azurerm_service_plan.consumption",
    ];
    let mut seen = BTreeSet::new();
    for x in r["resources"].as_array().unwrap() {
        let (addr, ty) = (x["address"].as_str().unwrap(), x["type"].as_str().unwrap());
        let text = x.to_string();
        assert!(!text.contains("validator"), "{addr}: {text}");
        if unsupported.contains(ty) || reasoned.contains(&addr) {
            assert_eq!(x["status"], "unsupported", "{addr}");
            let reason = x["reason"].as_str().unwrap();
            assert!(
                !reason.is_empty() && !reason.starts_with("unsupported: "),
                "{addr}: {reason}"
            );
        } else if supported.contains(ty) {
            assert_eq!(x["status"], "estimated", "{addr}: {text}");
            assert!(f(&x["after"]["per_hour"]["power_w"]) >= 0.0);
            // only a template runs nothing
            if ty != "aws_ecs_task_definition" {
                assert!(
                    f(&x["after"]["per_hour"]["total_gco2eq"]) > 0.0,
                    "{addr}: a zero"
                );
            }
            seen.insert(ty.to_string());
        }
    }
    // every type added by the coverage work has an estimated resource in the fixture
    let old = [
        "aws_instance",
        "aws_launch_template",
        "aws_autoscaling_group",
        "aws_ebs_volume",
        "aws_db_instance",
        "aws_rds_cluster_instance",
        "aws_eks_node_group",
        "aws_elasticache_cluster",
        "google_compute_instance",
        "google_compute_instance_from_template",
        "google_compute_instance_template",
        "google_compute_region_instance_template",
        "google_compute_instance_group_manager",
        "google_compute_region_instance_group_manager",
        "google_compute_disk",
        "google_compute_region_disk",
        "google_sql_database_instance",
        "google_container_cluster",
        "google_container_node_pool",
        "azurerm_linux_virtual_machine",
        "azurerm_windows_virtual_machine",
        "azurerm_virtual_machine",
        "azurerm_linux_virtual_machine_scale_set",
        "azurerm_windows_virtual_machine_scale_set",
        "azurerm_managed_disk",
        "azurerm_kubernetes_cluster",
        "azurerm_kubernetes_cluster_node_pool",
    ];
    for t in &supported {
        if !old.contains(&t.as_str()) {
            assert!(seen.contains(t), "{t}: no estimated resource in {FIXTURE}");
        }
    }
}

/// The coefficients of one provider, as the estimate uses them: (CPU min, CPU max) W per vCPU for
/// these microarchitectures, memory W/GB, SSD W/TB, HDD W/TB, PUE, embodied kg per vCPU-hour.
fn coef(p: Provider, archs: &[&str]) -> (f64, f64, f64, f64, f64, f64, f64) {
    let c = data::coefficients(p).unwrap();
    let cpu = data::cpu_watts_per_vcpu(p, archs).unwrap();
    (
        cpu.min_watts,
        cpu.max_watts,
        c.memory_watts_per_gb,
        c.ssd_watts_per_tb,
        c.hdd_watts_per_tb,
        c.pue,
        data::embodied_fallback_per_vcpu_hour(p).unwrap(),
    )
}

fn check_side(side: &Value, power: f64, pue: f64, grid: f64, embodied_g: f64, what: &str) {
    let p = &side["per_hour"];
    let energy = power / 1000.0 * pue;
    close(f(&p["power_w"]), power, &format!("{what} power_w"));
    close(f(&p["energy_kwh"]), energy, &format!("{what} energy_kwh"));
    close(
        f(&p["operational_gco2eq"]),
        energy * grid,
        &format!("{what} operational"),
    );
    close(
        f(&p["embodied_gco2eq"]),
        embodied_g,
        &format!("{what} embodied"),
    );
}

/// aws_lambda_function.fn: 1,769 MB, arm64, us-east-1: 1,769 / 1,769 = 1 vCPU (AWS: 1,769 MB is
/// one vCPU), 1,769 MiB = 1.7275 GB, Graviton2 CPU coefficients, one environment busy all hour
/// (said as an assumption); embodied per vCPU (no machine type).
///
/// Today's data: Graviton2 0.47 .. 1.69 W/vCPU, memory 0.392 W/GB, PUE 1.135, us-east-1
/// 379.069 g/kWh: CPU 1 × (0.47 + 0.5 × 1.22) = 1.08 W, memory 1.7275 × 0.392 = 0.677 W.
#[test]
fn coverage_hand_calculation_lambda() {
    let r = report();
    let x = resource(&r, "aws_lambda_function.fn");
    let side = &x["after"];
    assert_eq!(f(&side["vcpus"]), 1.0);
    close(f(&side["memory_gb"]), 1769.0 / 1024.0, "memory");
    assert_eq!(f(&side["instances"]), 1.0);
    let (min, max, mem, _, _, pue, emb) = coef(Provider::Aws, &["AWS Graviton2"]);
    let power = 1.0 * (min + 0.5 * (max - min)) + 1769.0 / 1024.0 * mem;
    let grid = data::grid_intensity(Provider::Aws, "us-east-1")
        .unwrap()
        .g_co2eq_per_kwh;
    check_side(side, power, pue, grid, emb * 1.0 * 1000.0, "lambda");
    assert!(
        x["assumptions"].as_array().unwrap().iter().any(|a| a
            .as_str()
            .unwrap()
            .starts_with("one execution environment busy")),
        "{x}"
    );
    // 128 MB (the default size): 128 / 1,769 vCPU
    let small = &resource(&r, "aws_lambda_function.small")["after"];
    close(f(&small["vcpus"]), 128.0 / 1769.0, "small vcpus");
}

/// aws_ecs_service.app on Fargate: task cpu "512" = 0.5 vCPU, memory "1024" MiB = 1 GB, 20 GB of
/// ephemeral SSD, × desired_count 3; AWS's average CPU coefficients (no architecture given).
#[test]
fn coverage_hand_calculation_fargate() {
    let r = report();
    let side = &resource(&r, "aws_ecs_service.app")["after"];
    assert_eq!(f(&side["vcpus"]), 0.5);
    assert_eq!(f(&side["memory_gb"]), 1.0);
    assert_eq!(f(&side["ssd_gb"]), 20.0);
    assert_eq!(f(&side["instances"]), 3.0);
    let (min, max, mem, ssd, _, pue, emb) = coef(Provider::Aws, &[]);
    let one = 0.5 * (min + 0.5 * (max - min)) + 1.0 * mem + 0.020 * ssd;
    let grid = data::grid_intensity(Provider::Aws, "us-east-1")
        .unwrap()
        .g_co2eq_per_kwh;
    check_side(
        side,
        3.0 * one,
        pue,
        grid,
        3.0 * emb * 0.5 * 1000.0,
        "fargate",
    );
    // the task definition itself runs nothing
    let td = &resource(&r, "aws_ecs_task_definition.app")["after"];
    assert_eq!(f(&td["instances"]), 0.0);
    assert_eq!(f(&td["per_hour"]["total_gco2eq"]), 0.0);
}

/// aws_opensearch_domain.search: 3 r6g.large.search data nodes (2 vCPU, 16 GiB each) + 3
/// m6g.large.search dedicated masters (2 vCPU, 8 GiB) = per data node 2 + 2 × 3/3 = 4 vCPU and
/// 16 + 8 = 24 GB, with its 100 GB gp3 volume; × 3.
#[test]
fn coverage_hand_calculation_opensearch_with_masters() {
    let r = report();
    let side = &resource(&r, "aws_opensearch_domain.search")["after"];
    assert_eq!(f(&side["vcpus"]), 4.0);
    assert_eq!(f(&side["memory_gb"]), 24.0);
    assert_eq!(f(&side["ssd_gb"]), 100.0);
    assert_eq!(f(&side["instances"]), 3.0);
    assert!(
        side["machine_type"].is_null(),
        "two node types: no one machine type"
    );
    let (min, max, mem, ssd, _, pue, emb) = coef(Provider::Aws, &["AWS Graviton2"]);
    let one = 4.0 * (min + 0.5 * (max - min)) + 24.0 * mem + 0.1 * ssd;
    let grid = data::grid_intensity(Provider::Aws, "us-east-1")
        .unwrap()
        .g_co2eq_per_kwh;
    check_side(
        side,
        3.0 * one,
        pue,
        grid,
        3.0 * emb * 4.0 * 1000.0,
        "opensearch",
    );
}

/// aws_emr_cluster.emr: 1 m5.xlarge master (4 vCPU, 16 GiB, 32 GB gp2) + 3 r5.2xlarge core
/// nodes (8 vCPU, 64 GiB, 2 × 64 GB gp2) = 4 nodes of (4 + 24) / 4 = 7 vCPU,
/// (16 + 192) / 4 = 52 GB, (32 + 384) / 4 = 104 GB SSD.
#[test]
fn coverage_emr_nodes_are_averaged() {
    let r = report();
    let side = &resource(&r, "aws_emr_cluster.emr")["after"];
    assert_eq!(f(&side["vcpus"]), 7.0);
    assert_eq!(f(&side["memory_gb"]), 52.0);
    assert_eq!(f(&side["ssd_gb"]), 104.0);
    assert_eq!(f(&side["instances"]), 4.0);
}

/// Node types under service names map to their EC2 type: kafka.m5.large, dms.t3.medium,
/// mq.m5.large, db.r6g.large (MemoryDB), m5.large.elasticsearch; Redshift from its own table.
#[test]
fn coverage_service_node_types() {
    let r = report();
    let want = [
        // address, vcpus, memory GB, instances (count × replicas), ssd GB, hdd GB
        ("aws_msk_cluster.kafka", 2.0, 8.0, 3.0, 1000.0, 0.0),
        (
            "aws_dms_replication_instance.dms",
            2.0,
            4.0,
            2.0,
            100.0,
            0.0,
        ),
        ("aws_mq_broker.mq", 2.0, 8.0, 2.0, 0.0, 0.0),
        ("aws_memorydb_cluster.mem", 2.0, 16.0, 4.0, 0.0, 0.0),
        (
            "aws_elasticache_replication_group.redis",
            2.0,
            16.0,
            4.0,
            0.0,
            0.0,
        ),
        ("aws_elasticsearch_domain.legacy", 2.0, 8.0, 2.0, 50.0, 0.0),
        ("aws_redshift_cluster.dw", 2.0, 15.0, 2.0, 160.0, 0.0),
        ("aws_redshift_cluster.ra3", 4.0, 32.0, 2.0, 0.0, 0.0),
        ("aws_rds_cluster.multi_az", 2.0, 16.0, 3.0, 100.0, 0.0),
        (
            "aws_fsx_windows_file_system.win",
            0.0,
            0.0,
            2.0,
            0.0,
            2000.0,
        ),
        ("google_dataproc_cluster.spark", 4.0, 16.0, 4.0, 25.0, 250.0),
        ("google_memcache_instance.cache", 1.0, 1.0, 2.0, 0.0, 0.0),
        ("google_redis_instance.cache", 0.0, 5.0, 2.0, 0.0, 0.0),
        ("google_alloydb_instance.primary", 4.0, 32.0, 2.0, 0.0, 0.0),
        ("google_filestore_instance.nfs", 0.0, 0.0, 1.0, 0.0, 1024.0),
        ("google_cloud_run_v2_service.api", 2.0, 1.0, 2.0, 0.0, 0.0),
        (
            "google_cloud_run_v2_service.scale_to_zero",
            1.0,
            0.5,
            1.0,
            0.0,
            0.0,
        ),
        ("google_cloud_run_service.v1", 1.0, 0.5, 1.0, 0.0, 0.0),
        (
            "google_cloudfunctions2_function.fn",
            0.583,
            1.0,
            1.0,
            0.0,
            0.0,
        ),
        (
            "google_cloudfunctions_function.gen1",
            0.333,
            0.5,
            1.0,
            0.0,
            0.0,
        ),
        ("azurerm_mssql_database.gp", 2.0, 10.2, 1.0, 32.0, 0.0),
        ("azurerm_mssql_database.bc", 4.0, 20.4, 4.0, 100.0, 0.0),
        ("azurerm_mssql_elasticpool.pool", 4.0, 20.4, 1.0, 50.0, 0.0),
        (
            "azurerm_postgresql_flexible_server.pg",
            2.0,
            8.0,
            2.0,
            32.0,
            0.0,
        ),
        ("azurerm_mysql_flexible_server.my", 1.0, 2.0, 1.0, 20.0, 0.0),
        ("azurerm_service_plan.plan", 2.0, 8.0, 2.0, 0.0, 0.0),
        ("azurerm_app_service_plan.legacy", 1.0, 1.75, 2.0, 0.0, 0.0),
        ("azurerm_redis_cache.cache", 0.0, 1.0, 2.0, 0.0, 0.0),
        ("azurerm_container_group.aci", 1.5, 2.0, 1.0, 0.0, 0.0),
        ("azurerm_container_app.app", 0.5, 1.0, 2.0, 0.0, 0.0),
        (
            "azurerm_virtual_machine_scale_set.classic",
            2.0,
            8.0,
            3.0,
            64.0,
            0.0,
        ),
        (
            "azurerm_orchestrated_virtual_machine_scale_set.flex",
            2.0,
            8.0,
            2.0,
            64.0,
            0.0,
        ),
    ];
    for (addr, vcpus, mem, n, ssd, hdd) in want {
        let s = &resource(&r, addr)["after"];
        close(f(&s["vcpus"]), vcpus, &format!("{addr} vcpus"));
        close(f(&s["memory_gb"]), mem, &format!("{addr} memory"));
        close(f(&s["instances"]), n, &format!("{addr} instances"));
        close(f(&s["ssd_gb"]), ssd, &format!("{addr} ssd"));
        close(f(&s["hdd_gb"]), hdd, &format!("{addr} hdd"));
    }
    // memory-only estimates say so
    for addr in ["google_redis_instance.cache", "azurerm_redis_cache.cache"] {
        let x = resource(&r, addr);
        assert_eq!(f(&x["after"]["per_hour"]["embodied_gco2eq"]), 0.0);
        assert!(x["assumptions"].to_string().contains("memory only"), "{x}");
    }
    // the MSK and OpenSearch node names resolve to their EC2 type's embodied figure
    close(
        data::embodied_kg_per_hour(Provider::Aws, "kafka.m5.large").unwrap(),
        data::embodied_kg_per_hour(Provider::Aws, "m5.large").unwrap(),
        "kafka.m5.large embodied",
    );
}
