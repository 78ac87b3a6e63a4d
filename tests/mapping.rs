//! Mapping engine tests: Carbonifer compatibility, shipped mappings per resource type, language features, bad files.

use carbon_show::mapping::{self, DiagKind, DiskKind, Engine, MappedResource, MappingFile};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

fn td(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/mapping")
        .join(p)
}

fn carbonifer_data(name: &str) -> Option<Cow<'static, str>> {
    std::fs::read_to_string(td("carbonifer/data").join(name))
        .ok()
        .map(Cow::Owned)
}

fn carbonifer_engine() -> Engine {
    let files = mapping::read_dir(&td("carbonifer/mappings")).unwrap();
    Engine::from_files(&files, &carbonifer_data).unwrap()
}

fn plan(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn find<'a>(v: &'a [MappedResource], addr: &str) -> &'a MappedResource {
    v.iter().find(|r| r.address == addr).unwrap_or_else(|| {
        panic!(
            "{addr} not mapped; have {:?}",
            v.iter().map(|r| &r.address).collect::<Vec<_>>()
        )
    })
}

fn test_data(name: &str) -> Option<Cow<'static, str>> {
    std::fs::read_to_string(td("data").join(name))
        .ok()
        .map(Cow::Owned)
}

fn builtin() -> Engine {
    mapping::load(&[], &test_data).unwrap_or_else(|e| panic!("{e}"))
}

fn provider_of(ty: &str) -> &'static str {
    if ty.starts_with("aws_") {
        "registry.terraform.io/hashicorp/aws"
    } else if ty.starts_with("google_") {
        "registry.terraform.io/hashicorp/google"
    } else {
        "registry.terraform.io/hashicorp/azurerm"
    }
}

/// A planned (managed) resource at `addr` (`[module.x.]type.name[index]`).
fn res(addr: &str, values: Value) -> Value {
    let segs = mapping::region::split_address(addr);
    let n = segs.len();
    let (ty, name) = (segs[n - 2], segs[n - 1].split('[').next().unwrap());
    json!({"address": addr, "mode": "managed", "type": ty, "name": name, "provider_name": provider_of(ty), "values": values})
}

fn data_res(addr: &str, values: Value) -> Value {
    let mut r = res(addr.trim_start_matches("data."), values);
    r["address"] = json!(addr);
    r["mode"] = json!("data");
    r
}

/// A configuration resource (for `cbf::ref`): address and expressions.
fn cfg(addr: &str, expressions: Value) -> Value {
    let segs = mapping::region::split_address(addr);
    json!({"address": addr, "mode": "managed", "type": segs[0], "name": segs[1], "provider_config_key": provider_of(segs[0]).rsplit('/').next().unwrap(), "expressions": expressions})
}

/// A plan with these planned resources, configuration resources, prior_state data sources and after_unknown marks.
fn plan_doc(
    resources: Vec<Value>,
    config: Vec<Value>,
    data: Vec<Value>,
    unknown: Vec<(&str, Value)>,
) -> Value {
    let changes: Vec<Value> = unknown
        .into_iter()
        .map(|(a, u)| json!({"address": a, "change": {"actions": ["create"], "after_unknown": u}}))
        .collect();
    json!({
        "format_version": "1.2",
        "planned_values": {"root_module": {"resources": resources}},
        "prior_state": {"format_version": "1.0", "values": {"root_module": {"resources": data}}},
        "resource_changes": changes,
        "configuration": {
            "provider_config": {
                "aws": {"name": "aws", "expressions": {"region": {"constant_value": "eu-west-1"}}},
                "google": {"name": "google", "expressions": {"region": {"constant_value": "europe-west1"}}},
                "azurerm": {"name": "azurerm", "expressions": {}}
            },
            "root_module": {"resources": config}
        }
    })
}

fn simple(resources: Vec<Value>) -> Value {
    plan_doc(resources, vec![], vec![], vec![])
}

#[derive(Default)]
struct Exp {
    machine_type: Option<&'static str>,
    vcpus: Option<f64>,
    memory_gb: Option<f64>,
    count: u32,
    replication_factor: u32,
    storage: Vec<(f64, DiskKind)>,
    gpus: Vec<&'static str>,
    region: Option<&'static str>,
    assumed: bool,
}

fn exp(
    machine_type: Option<&'static str>,
    vcpus: Option<f64>,
    memory_gb: Option<f64>,
    count: u32,
    storage: Vec<(f64, DiskKind)>,
) -> Exp {
    Exp {
        machine_type,
        vcpus,
        memory_gb,
        count,
        replication_factor: 1,
        storage,
        ..Default::default()
    }
}

fn assert_exp(label: &str, r: &MappedResource, e: &Exp) {
    assert_eq!(
        r.machine_type.as_deref(),
        e.machine_type,
        "{label}: machine_type"
    );
    assert_eq!(r.vcpus, e.vcpus, "{label}: vcpus");
    assert_eq!(r.memory_gb, e.memory_gb, "{label}: memory_gb");
    assert_eq!(r.count, e.count, "{label}: count");
    assert_eq!(
        r.replication_factor, e.replication_factor,
        "{label}: replication_factor"
    );
    let st: Vec<(f64, DiskKind)> = r.storage.iter().map(|s| (s.size_gb, s.kind)).collect();
    assert_eq!(st, e.storage, "{label}: storage {:?}", r.storage);
    assert_eq!(r.gpus, e.gpus, "{label}: gpus");
    if let Some(reg) = e.region {
        assert_eq!(r.region.as_deref(), Some(reg), "{label}: region");
    }
    assert_eq!(
        !r.assumed.is_empty(),
        e.assumed,
        "{label}: assumed {:?}",
        r.assumed
    );
}

use DiskKind::{Hdd, Ssd};
use serde_json::{Value, json};

/// One row per shipped resource type: a small plan → the figures expected for one address.
#[test]
fn shipped_resource_types() {
    let lt_cfg = || cfg("aws_launch_template.lt", json!({}));
    let lt = || {
        res(
            "aws_launch_template.lt",
            json!({"name": "lt", "image_id": "ami-123", "instance_type": "t3.medium",
        "block_device_mappings": [{"device_name": "/dev/xvda", "ebs": [{"volume_size": 30, "volume_type": "gp3"}]}]}),
        )
    };
    let ami = || {
        data_res(
            "data.aws_ami.al2",
            json!({"image_id": "ami-123", "root_device_name": "/dev/xvda", "block_device_mappings": [
        {"device_name": "/dev/xvda", "ebs": {"volume_size": "8", "volume_type": "gp2"}},
        {"device_name": "/dev/xvdb", "ebs": {"volume_size": "50", "volume_type": "standard"}}]}),
        )
    };
    let tpl = || {
        res(
            "google_compute_instance_template.t",
            json!({"machine_type": "n2-standard-2", "self_link": null,
        "disk": [{"disk_size_gb": 20, "disk_type": "pd-standard", "source": null}], "guest_accelerator": []}),
        )
    };
    let gke = |v: Value| res("google_container_cluster.c", v);
    let aks = || {
        res(
            "azurerm_kubernetes_cluster.k",
            json!({"location": "North Europe", "default_node_pool": [{"vm_size": "Standard_D2s_v3", "node_count": 3}]}),
        )
    };
    let rows: Vec<(&str, Value, &str, Exp)> = vec![
        (
            "aws_instance root+ebs",
            simple(vec![res(
                "aws_instance.web",
                json!({"instance_type": "m5.large", "availability_zone": "eu-west-3a",
            "root_block_device": [{"volume_size": 50, "volume_type": "gp3"}],
            "ebs_block_device": [{"device_name": "/dev/sdf", "volume_size": 100, "volume_type": "st1"}]}),
            )]),
            "aws_instance.web",
            Exp {
                region: Some("eu-west-3"),
                ..exp(
                    Some("m5.large"),
                    Some(2.0),
                    Some(8.0),
                    1,
                    vec![(50.0, Ssd), (100.0, Hdd)],
                )
            },
        ),
        (
            "aws_instance launch template + AMI",
            plan_doc(
                vec![
                    res(
                        "aws_instance.lt_web",
                        json!({"launch_template": [{"id": null, "name": null}]}),
                    ),
                    lt(),
                ],
                vec![
                    cfg(
                        "aws_instance.lt_web",
                        json!({"launch_template": [{"id": {"references": ["aws_launch_template.lt.id", "aws_launch_template.lt"]}}]}),
                    ),
                    lt_cfg(),
                ],
                vec![ami()],
                vec![(
                    "aws_instance.lt_web",
                    json!({"instance_type": true, "ami": true, "root_block_device": true}),
                )],
            ),
            "aws_instance.lt_web",
            Exp {
                region: Some("eu-west-1"),
                ..exp(
                    Some("t3.medium"),
                    Some(2.0),
                    Some(4.0),
                    1,
                    vec![(30.0, Ssd), (50.0, Hdd)],
                )
            },
        ),
        (
            "aws_instance AMI only, instance store",
            plan_doc(
                vec![res(
                    "aws_instance.a",
                    json!({"instance_type": "m5d.large", "ami": "ami-123"}),
                )],
                vec![],
                vec![ami()],
                vec![],
            ),
            "aws_instance.a",
            exp(
                Some("m5d.large"),
                Some(2.0),
                Some(8.0),
                1,
                vec![(8.0, Ssd), (50.0, Hdd), (75.0, Ssd)],
            ),
        ),
        (
            "aws_instance GPUs from the table",
            simple(vec![res(
                "aws_instance.g",
                json!({"instance_type": "p3.2xlarge"}),
            )]),
            "aws_instance.g",
            Exp {
                gpus: vec!["V100"],
                ..exp(
                    Some("p3.2xlarge"),
                    Some(8.0),
                    Some(61.0),
                    1,
                    vec![(8.0, Ssd)],
                )
            },
        ),
        (
            "aws_launch_template",
            simple(vec![lt()]),
            "aws_launch_template.lt",
            exp(
                Some("t3.medium"),
                Some(2.0),
                Some(4.0),
                0,
                vec![(30.0, Ssd)],
            ),
        ),
        (
            "aws_autoscaling_group desired",
            plan_doc(
                vec![
                    res(
                        "aws_autoscaling_group.asg",
                        json!({"desired_capacity": 3, "min_size": 1, "max_size": 5, "availability_zones": ["eu-west-2b"]}),
                    ),
                    lt(),
                ],
                vec![
                    cfg(
                        "aws_autoscaling_group.asg",
                        json!({"launch_template": [{"id": {"references": ["aws_launch_template.lt.id", "aws_launch_template.lt"]}}]}),
                    ),
                    lt_cfg(),
                ],
                vec![ami()],
                vec![],
            ),
            "aws_autoscaling_group.asg",
            Exp {
                region: Some("eu-west-2"),
                ..exp(
                    Some("t3.medium"),
                    Some(2.0),
                    Some(4.0),
                    3,
                    vec![(30.0, Ssd), (50.0, Hdd)],
                )
            },
        ),
        (
            "aws_autoscaling_group min, launch configuration",
            plan_doc(
                vec![
                    res(
                        "aws_autoscaling_group.asg",
                        json!({"desired_capacity": null, "min_size": 2, "max_size": 5}),
                    ),
                    res(
                        "aws_launch_configuration.lc",
                        json!({"instance_type": "m5.xlarge", "root_block_device": [{"volume_size": 40, "volume_type": "standard"}]}),
                    ),
                ],
                vec![cfg(
                    "aws_autoscaling_group.asg",
                    json!({"launch_configuration": {"references": ["aws_launch_configuration.lc.name", "aws_launch_configuration.lc"]}}),
                )],
                vec![],
                vec![],
            ),
            "aws_autoscaling_group.asg",
            exp(
                Some("m5.xlarge"),
                Some(4.0),
                Some(16.0),
                2,
                vec![(40.0, Hdd)],
            ),
        ),
        (
            "aws_ebs_volume unset type is SSD",
            simple(vec![res(
                "aws_ebs_volume.v",
                json!({"size": 100, "availability_zone": "us-east-1c"}),
            )]),
            "aws_ebs_volume.v",
            Exp {
                region: Some("us-east-1"),
                ..exp(None, None, None, 1, vec![(100.0, Ssd)])
            },
        ),
        (
            "aws_db_instance multi-AZ",
            simple(vec![res(
                "aws_db_instance.db",
                json!({"instance_class": "db.r5.large", "multi_az": true, "allocated_storage": 100, "storage_type": "gp2"}),
            )]),
            "aws_db_instance.db",
            Exp {
                replication_factor: 2,
                ..exp(
                    Some("db.r5.large"),
                    Some(2.0),
                    Some(16.0),
                    1,
                    vec![(100.0, Ssd)],
                )
            },
        ),
        (
            "aws_db_instance class without db. in the table",
            simple(vec![res(
                "aws_db_instance.db",
                json!({"instance_class": "db.t3.micro", "multi_az": false, "allocated_storage": 20, "storage_type": "standard"}),
            )]),
            "aws_db_instance.db",
            exp(
                Some("db.t3.micro"),
                Some(2.0),
                Some(1.0),
                1,
                vec![(20.0, Hdd)],
            ),
        ),
        (
            "aws_rds_cluster_instance",
            simple(vec![res(
                "aws_rds_cluster_instance.i",
                json!({"instance_class": "db.r5.large"}),
            )]),
            "aws_rds_cluster_instance.i",
            exp(Some("db.r5.large"), Some(2.0), Some(16.0), 1, vec![]),
        ),
        (
            "aws_eks_node_group",
            simple(vec![res(
                "aws_eks_node_group.ng",
                json!({"instance_types": ["m5.large"], "disk_size": 50, "scaling_config": [{"desired_size": 4, "min_size": 1, "max_size": 6}]}),
            )]),
            "aws_eks_node_group.ng",
            exp(Some("m5.large"), Some(2.0), Some(8.0), 4, vec![(50.0, Ssd)]),
        ),
        (
            "aws_eks_node_group unknown instance type",
            plan_doc(
                vec![res(
                    "aws_eks_node_group.ng",
                    json!({"scaling_config": [{"desired_size": 2}]}),
                )],
                vec![],
                vec![],
                vec![("aws_eks_node_group.ng", json!({"instance_types": true}))],
            ),
            "aws_eks_node_group.ng",
            Exp {
                assumed: true,
                ..exp(
                    Some("t3.medium"),
                    Some(2.0),
                    Some(4.0),
                    2,
                    vec![(20.0, Ssd)],
                )
            },
        ),
        (
            "aws_elasticache_cluster",
            simple(vec![res(
                "aws_elasticache_cluster.c",
                json!({"node_type": "cache.m5.large", "num_cache_nodes": 2, "availability_zone": "eu-west-1b"}),
            )]),
            "aws_elasticache_cluster.c",
            exp(Some("cache.m5.large"), Some(2.0), Some(8.0), 2, vec![]),
        ),
        (
            "google_compute_instance",
            simple(vec![res(
                "google_compute_instance.vm",
                json!({"machine_type": "n2-standard-4", "zone": "europe-west1-b",
            "boot_disk": [{"initialize_params": [{"size": 50, "type": "pd-ssd"}]}], "scratch_disk": [{"interface": "NVME"}],
            "guest_accelerator": [{"count": 1, "type": "nvidia-tesla-t4"}]}),
            )]),
            "google_compute_instance.vm",
            Exp {
                gpus: vec!["nvidia-tesla-t4"],
                region: Some("europe-west1"),
                ..exp(
                    Some("n2-standard-4"),
                    Some(4.0),
                    Some(16.0),
                    1,
                    vec![(50.0, Ssd), (375.0, Ssd)],
                )
            },
        ),
        (
            "google_compute_instance custom type",
            simple(vec![res(
                "google_compute_instance.c",
                json!({"machine_type": "n2-custom-8-32768", "zone": "us-central1-a", "boot_disk": [{"initialize_params": [{}]}]}),
            )]),
            "google_compute_instance.c",
            exp(
                Some("n2-custom-8-32768"),
                Some(8.0),
                Some(32.0),
                1,
                vec![(10.0, Hdd)],
            ),
        ),
        (
            "google_compute_instance built-in GPU",
            simple(vec![res(
                "google_compute_instance.a2",
                json!({"machine_type": "a2-highgpu-1g", "zone": "us-central1-a"}),
            )]),
            "google_compute_instance.a2",
            Exp {
                gpus: vec!["nvidia-tesla-a100"],
                ..exp(Some("a2-highgpu-1g"), Some(12.0), Some(85.0), 1, vec![])
            },
        ),
        (
            "google_compute_instance unknown machine type",
            plan_doc(
                vec![res(
                    "google_compute_instance.u",
                    json!({"zone": "us-central1-a"}),
                )],
                vec![],
                vec![],
                vec![("google_compute_instance.u", json!({"machine_type": true}))],
            ),
            "google_compute_instance.u",
            Exp {
                assumed: true,
                ..exp(Some("n1-standard-1"), Some(1.0), Some(3.75), 1, vec![])
            },
        ),
        (
            "google_compute_instance_from_template",
            plan_doc(
                vec![
                    res(
                        "google_compute_instance_from_template.f",
                        json!({"zone": "europe-west9-a"}),
                    ),
                    tpl(),
                ],
                vec![cfg(
                    "google_compute_instance_from_template.f",
                    json!({"source_instance_template": {"references": ["google_compute_instance_template.t.self_link_unique", "google_compute_instance_template.t"]}}),
                )],
                vec![],
                vec![],
            ),
            "google_compute_instance_from_template.f",
            exp(
                Some("n2-standard-2"),
                Some(2.0),
                Some(8.0),
                1,
                vec![(20.0, Hdd)],
            ),
        ),
        (
            "google_compute_instance_template",
            simple(vec![tpl()]),
            "google_compute_instance_template.t",
            exp(
                Some("n2-standard-2"),
                Some(2.0),
                Some(8.0),
                0,
                vec![(20.0, Hdd)],
            ),
        ),
        (
            "google_compute_instance_group_manager zonal",
            plan_doc(
                vec![
                    res(
                        "google_compute_instance_group_manager.g",
                        json!({"target_size": 2, "zone": "europe-west1-c"}),
                    ),
                    tpl(),
                ],
                vec![cfg(
                    "google_compute_instance_group_manager.g",
                    json!({"version": [{"instance_template": {"references": ["google_compute_instance_template.t.id", "google_compute_instance_template.t"]}}]}),
                )],
                vec![],
                vec![],
            ),
            "google_compute_instance_group_manager.g",
            exp(
                Some("n2-standard-2"),
                Some(2.0),
                Some(8.0),
                2,
                vec![(20.0, Hdd)],
            ),
        ),
        (
            "google_compute_region_instance_group_manager autoscaled",
            plan_doc(
                vec![
                    res(
                        "google_compute_region_instance_group_manager.r",
                        json!({"target_size": null, "region": "europe-west4"}),
                    ),
                    tpl(),
                    res(
                        "google_compute_region_autoscaler.a",
                        json!({"autoscaling_policy": [{"min_replicas": 2, "max_replicas": 6}]}),
                    ),
                ],
                vec![
                    cfg(
                        "google_compute_region_instance_group_manager.r",
                        json!({"version": [{"instance_template": {"references": ["google_compute_instance_template.t.id", "google_compute_instance_template.t"]}}]}),
                    ),
                    cfg(
                        "google_compute_region_autoscaler.a",
                        json!({"target": {"references": ["google_compute_region_instance_group_manager.r.id", "google_compute_region_instance_group_manager.r"]}}),
                    ),
                ],
                vec![],
                vec![],
            ),
            "google_compute_region_instance_group_manager.r",
            Exp {
                region: Some("europe-west4"),
                ..exp(
                    Some("n2-standard-2"),
                    Some(2.0),
                    Some(8.0),
                    4,
                    vec![(20.0, Hdd)],
                )
            },
        ),
        (
            "google_compute_disk",
            simple(vec![res(
                "google_compute_disk.d",
                json!({"size": 100, "type": "pd-ssd", "zone": "asia-east1-a"}),
            )]),
            "google_compute_disk.d",
            Exp {
                region: Some("asia-east1"),
                ..exp(None, None, None, 1, vec![(100.0, Ssd)])
            },
        ),
        (
            "google_compute_region_disk",
            simple(vec![res(
                "google_compute_region_disk.r",
                json!({"size": 50, "type": "pd-balanced", "region": "europe-west1", "replica_zones": ["europe-west1-b", "europe-west1-c"]}),
            )]),
            "google_compute_region_disk.r",
            Exp {
                replication_factor: 2,
                ..exp(None, None, None, 1, vec![(50.0, Ssd)])
            },
        ),
        (
            "google_sql_database_instance db-custom",
            simple(vec![res(
                "google_sql_database_instance.db",
                json!({"region": "europe-west1",
            "settings": [{"tier": "db-custom-2-7680", "availability_type": "REGIONAL", "disk_size": 20, "disk_type": "PD_HDD"}]}),
            )]),
            "google_sql_database_instance.db",
            Exp {
                replication_factor: 2,
                ..exp(
                    Some("db-custom-2-7680"),
                    Some(2.0),
                    Some(7.5),
                    1,
                    vec![(20.0, Hdd)],
                )
            },
        ),
        (
            "google_sql_database_instance tier",
            simple(vec![res(
                "google_sql_database_instance.db",
                json!({"region": "europe-west1", "settings": [{"tier": "db-g1-small", "availability_type": "ZONAL"}]}),
            )]),
            "google_sql_database_instance.db",
            exp(
                Some("db-g1-small"),
                Some(1.0),
                Some(1740.0 / 1024.0),
                1,
                vec![(10.0, Ssd)],
            ),
        ),
        (
            "google_container_cluster regional default pool",
            simple(vec![gke(
                json!({"location": "europe-west1", "initial_node_count": 1, "node_config": [{"machine_type": "e2-standard-4", "disk_size_gb": 50, "disk_type": "pd-standard"}]}),
            )]),
            "google_container_cluster.c",
            Exp {
                region: Some("europe-west1"),
                ..exp(
                    Some("e2-standard-4"),
                    Some(4.0),
                    Some(16.0),
                    3,
                    vec![(50.0, Hdd)],
                )
            },
        ),
        (
            "google_container_cluster without default pool",
            simple(vec![gke(
                json!({"location": "europe-west1-b", "remove_default_node_pool": true, "initial_node_count": 1}),
            )]),
            "google_container_cluster.c",
            exp(
                Some("e2-medium"),
                Some(2.0),
                Some(4.0),
                0,
                vec![(100.0, Ssd)],
            ),
        ),
        (
            "google_container_node_pool autoscaled in a regional cluster",
            plan_doc(
                vec![
                    gke(json!({"location": "europe-west1", "remove_default_node_pool": true})),
                    res(
                        "google_container_node_pool.p",
                        json!({"autoscaling": [{"min_node_count": 1, "max_node_count": 3}], "node_config": [{"machine_type": "n1-standard-2"}]}),
                    ),
                ],
                vec![cfg(
                    "google_container_node_pool.p",
                    json!({"cluster": {"references": ["google_container_cluster.c.id", "google_container_cluster.c"]}}),
                )],
                vec![],
                vec![],
            ),
            "google_container_node_pool.p",
            Exp {
                region: Some("europe-west1"),
                ..exp(
                    Some("n1-standard-2"),
                    Some(2.0),
                    Some(7.5),
                    6,
                    vec![(100.0, Ssd)],
                )
            },
        ),
        (
            "google_container_node_pool zonal",
            simple(vec![res(
                "google_container_node_pool.p",
                json!({"location": "europe-west1-b", "node_count": 2, "node_config": [{"machine_type": "e2-medium", "local_ssd_count": 1}]}),
            )]),
            "google_container_node_pool.p",
            exp(
                Some("e2-medium"),
                Some(2.0),
                Some(4.0),
                2,
                vec![(100.0, Ssd), (375.0, Ssd)],
            ),
        ),
        (
            "azurerm_linux_virtual_machine",
            simple(vec![res(
                "azurerm_linux_virtual_machine.vm",
                json!({"size": "Standard_D2s_v3", "location": "West Europe", "os_disk": [{"disk_size_gb": 64, "storage_account_type": "Premium_LRS"}]}),
            )]),
            "azurerm_linux_virtual_machine.vm",
            Exp {
                region: Some("westeurope"),
                ..exp(
                    Some("Standard_D2s_v3"),
                    Some(2.0),
                    Some(8.0),
                    1,
                    vec![(64.0, Ssd)],
                )
            },
        ),
        (
            "azurerm_windows_virtual_machine",
            simple(vec![res(
                "azurerm_windows_virtual_machine.vm",
                json!({"size": "Standard_B2s", "location": "eastus", "os_disk": [{"storage_account_type": "Standard_LRS"}]}),
            )]),
            "azurerm_windows_virtual_machine.vm",
            exp(
                Some("Standard_B2s"),
                Some(2.0),
                Some(4.0),
                1,
                vec![(127.0, Hdd)],
            ),
        ),
        (
            "azurerm_virtual_machine",
            simple(vec![res(
                "azurerm_virtual_machine.vm",
                json!({"vm_size": "Standard_DS2_v2", "location": "eastus",
            "storage_os_disk": [{"disk_size_gb": 30, "managed_disk_type": "Standard_LRS"}], "storage_data_disk": [{"disk_size_gb": 100, "managed_disk_type": "Premium_LRS"}]}),
            )]),
            "azurerm_virtual_machine.vm",
            exp(
                Some("Standard_DS2_v2"),
                Some(2.0),
                Some(7.0),
                1,
                vec![(30.0, Hdd), (100.0, Ssd)],
            ),
        ),
        (
            "azurerm_linux_virtual_machine_scale_set",
            simple(vec![res(
                "azurerm_linux_virtual_machine_scale_set.s",
                json!({"sku": "Standard_B2s", "instances": 3, "location": "eastus",
            "os_disk": [{"storage_account_type": "StandardSSD_LRS"}], "data_disk": [{"disk_size_gb": 10, "storage_account_type": "Standard_LRS"}]}),
            )]),
            "azurerm_linux_virtual_machine_scale_set.s",
            exp(
                Some("Standard_B2s"),
                Some(2.0),
                Some(4.0),
                3,
                vec![(30.0, Ssd), (10.0, Hdd)],
            ),
        ),
        (
            "azurerm_windows_virtual_machine_scale_set",
            simple(vec![res(
                "azurerm_windows_virtual_machine_scale_set.s",
                json!({"sku": "Standard_D2s_v3", "instances": 2, "location": "eastus", "os_disk": [{"storage_account_type": "Premium_LRS"}]}),
            )]),
            "azurerm_windows_virtual_machine_scale_set.s",
            exp(
                Some("Standard_D2s_v3"),
                Some(2.0),
                Some(8.0),
                2,
                vec![(127.0, Ssd)],
            ),
        ),
        (
            "azurerm_managed_disk",
            simple(vec![res(
                "azurerm_managed_disk.d",
                json!({"disk_size_gb": 256, "storage_account_type": "StandardSSD_LRS", "location": "uksouth"}),
            )]),
            "azurerm_managed_disk.d",
            Exp {
                region: Some("uksouth"),
                ..exp(None, None, None, 1, vec![(256.0, Ssd)])
            },
        ),
        (
            "azurerm_kubernetes_cluster",
            simple(vec![aks()]),
            "azurerm_kubernetes_cluster.k",
            Exp {
                region: Some("northeurope"),
                ..exp(
                    Some("Standard_D2s_v3"),
                    Some(2.0),
                    Some(8.0),
                    3,
                    vec![(128.0, Ssd)],
                )
            },
        ),
        (
            "azurerm_kubernetes_cluster autoscaled",
            simple(vec![res(
                "azurerm_kubernetes_cluster.k",
                json!({"location": "eastus", "default_node_pool": [{"vm_size": "Standard_B2s", "auto_scaling_enabled": true, "min_count": 1, "max_count": 5, "os_disk_size_gb": 64}]}),
            )]),
            "azurerm_kubernetes_cluster.k",
            exp(
                Some("Standard_B2s"),
                Some(2.0),
                Some(4.0),
                3,
                vec![(64.0, Ssd)],
            ),
        ),
        (
            "azurerm_kubernetes_cluster_node_pool",
            plan_doc(
                vec![
                    aks(),
                    res(
                        "azurerm_kubernetes_cluster_node_pool.gpu",
                        json!({"vm_size": "Standard_NC6", "node_count": 2}),
                    ),
                ],
                vec![cfg(
                    "azurerm_kubernetes_cluster_node_pool.gpu",
                    json!({"kubernetes_cluster_id": {"references": ["azurerm_kubernetes_cluster.k.id", "azurerm_kubernetes_cluster.k"]}}),
                )],
                vec![],
                vec![],
            ),
            "azurerm_kubernetes_cluster_node_pool.gpu",
            Exp {
                gpus: vec!["NVIDIA Tesla K80"],
                region: Some("northeurope"),
                ..exp(
                    Some("Standard_NC6"),
                    Some(6.0),
                    Some(56.0),
                    2,
                    vec![(128.0, Ssd)],
                )
            },
        ),
    ];
    let e = builtin();
    let mut covered = std::collections::BTreeSet::new();
    for (label, doc, addr, want) in &rows {
        let m = e.map(doc);
        let r = find(&m.after, addr);
        assert_exp(label, r, want);
        covered.insert(r.resource_type.clone());
    }
    // every shipped resource type has a row
    let shipped = [
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
    for t in shipped {
        assert!(covered.contains(t), "no row for {t}");
    }
}

fn features_engine() -> Engine {
    let mut files = mapping::builtin_files();
    files.extend(mapping::read_dir(&td("features")).unwrap());
    let resolver = mapping::dir_resolver(vec![td("features/data"), td("data")], |_| None);
    Engine::from_files(&files, &*resolver).unwrap_or_else(|e| panic!("{e}"))
}

/// Every language feature, on one resource type (testdata/mapping/features).
#[test]
fn language_features() {
    let e = features_engine();
    let doc = simple(vec![
        res(
            "aws_feature_thing.a",
            json!({"size_name": "size-big", "peer_name": "p1", "name": "alpha", "mem_obj": {"mem_gb": 4},
            "nested": {"extra": 1}, "devices": ["/dev/sdc", "/dev/nvme1n1"],
            "disks": [{"mb": 1024, "kind": "slow", "dev": "/dev/xvdb", "prio": 1}, {"mb": 2048, "kind": "fast", "dev": "/dev/xvdb", "prio": 0}, {"kind": "fast"}]}),
        ),
        res(
            "aws_feature_thing.p",
            json!({"name": "p1", "region": "ap-south-1", "disk": "gp9"}),
        ),
    ]);
    let m = e.map(&doc);
    let a = find(&m.after, "aws_feature_thing.a");
    assert_eq!(
        a.machine_type.as_deref(),
        Some("big"),
        "paths fallback + regex group in a variable + ${{var}} in a string"
    );
    assert_eq!(a.vcpus, Some(16.0), "reference json_file + property");
    assert_eq!(a.memory_gb, Some(4.0), "property of a map + unit gb");
    assert_eq!(a.zone.as_deref(), Some("name=alpha"), "${{this.<jq>}}");
    assert_eq!(
        a.region.as_deref(),
        Some("ap-south-1"),
        "reference paths + return_path + ${{key}}"
    );
    assert_eq!(
        a.count, 44,
        "default variable, jq-path default, ${{config.…}}"
    );
    assert_eq!(
        a.replication_factor, 3,
        "default after paths that find nothing"
    );
    assert_eq!(a.cpu_types, vec!["gp9"], "reference paths + property");
    assert_eq!(a.gpus, vec!["c", "a"], "cbf::extract_disk_key");
    let st: Vec<(f64, DiskKind, Option<&str>)> = a
        .storage
        .iter()
        .map(|s| (s.size_gb, s.kind, s.key.as_deref()))
        .collect();
    assert_eq!(
        st,
        vec![(2.0, Ssd, Some("b")), (2048.0, Ssd, None)],
        "list items, units, general disk_types, key + override_priority"
    );
}

/// `${...}` placeholders compile to jq variables: a filter is compiled once, whatever the resource.
#[test]
fn filters_compile_once_per_load() {
    let e = features_engine();
    let before = e.filter_count();
    let many: Vec<Value> = (0..50)
        .map(|i| {
            res(
                &format!("aws_feature_thing.t{i}"),
                json!({"size_name": "size-small", "name": format!("n{i}")}),
            )
        })
        .collect();
    let m = e.map(&simple(many));
    assert_eq!(m.after.len(), 50);
    assert_eq!(
        find(&m.after, "aws_feature_thing.t7").zone.as_deref(),
        Some("name=n7")
    );
    assert_eq!(e.filter_count(), before, "no filter compiled while mapping");
}

#[test]
fn cbf_all_select_reads_dotted_paths_and_numbers() {
    let y = r#"
compute_resource:
  aws_sel:
    paths: cbf::all_select("values.group"; 7)
    properties:
      machine_type:
        - paths: '[cbf::all_select("values.tag.name"; "x", "y", "none") | .name] | join(",")'
"#;
    let mut files = mapping::builtin_files();
    files.push(MappingFile {
        path: "sel.yaml".into(),
        folder: None,
        text: y.into(),
    });
    let e = Engine::from_files(&files, &test_data).unwrap();
    let m = e.map(&simple(vec![
        res("aws_sel.a", json!({"group": 7, "tag": {"name": "x"}})),
        res("aws_sel.b", json!({"group": 8, "tag": {"name": "x"}})),
        res("aws_sel.c", json!({"group": 7})),
        res("aws_sel.d", json!({"group": 9, "tag": {"name": "y"}})),
    ]));
    let addrs: Vec<&str> = m.after.iter().map(|r| r.address.as_str()).collect();
    assert_eq!(addrs, vec!["aws_sel.a", "aws_sel.c"]);
    // several matches (x), exactly one (y) and none, in the resources' order
    assert_eq!(m.after[0].machine_type.as_deref(), Some("a,b,d"));
    assert_eq!(m.unsupported, vec!["aws_sel.b", "aws_sel.d"]);
}

/// Carbonifer's own files load unchanged; their problems are reported, located, without stopping the load.
#[test]
fn carbonifer_files_load_unchanged() {
    // (the fixture is an unchanged copy of Carbonifer's files: testdata/mapping/carbonifer/README.md)
    let e = carbonifer_engine();
    let diags: Vec<String> = e.diagnostics().iter().map(|d| d.to_string()).collect();
    let has = |frag: &str| diags.iter().any(|d| d.contains(frag));
    assert!(
        has("aws/ec2_asg.yaml:48:13: unknown key \"zone\" in reference"),
        "{diags:#?}"
    );
    assert!(
        has("gcp/compute.yaml:169:29: jq: undefined filter `size`"),
        "{diags:#?}"
    );
    assert!(
        diags
            .iter()
            .any(|d| d.contains("aws/ec2_asg.yaml:") && d.contains("expected closing quote")),
        "{diags:#?}"
    );
    assert!(e.diagnostics().iter().all(|d| !d.is_fatal()));
    let kinds: Vec<DiagKind> = e.diagnostics().iter().map(|d| d.kind).collect();
    assert!(
        kinds.contains(&DiagKind::UnknownKey) && kinds.contains(&DiagKind::Jq),
        "{kinds:?}"
    );
    assert_eq!(e.resource_mappings().count(), 10);
}

/// Carbonifer's mappings + data on its test plan: the figures its method implies.
#[test]
fn carbonifer_plan_figures() {
    let e = carbonifer_engine();
    let m = e.map(&plan(&td("carbonifer/plans/plan.json")));
    let g = |a| find(&m.after, a);
    // n1-standard-2: 2 vCPU, 7680 MB; boot disk 564 GB, no type → pd-standard → HDD; 2 × K80
    let r = g("google_compute_instance.default[0]");
    assert_eq!(
        (r.vcpus, r.memory_gb, r.count, r.replication_factor),
        (Some(2.0), Some(7.5), 1, 1)
    );
    assert_eq!(
        r.storage,
        vec![mapping::Storage {
            size_gb: 564.0,
            kind: Hdd,
            key: None
        }]
    );
    assert_eq!(r.gpus, vec!["nvidia-tesla-k80", "nvidia-tesla-k80"]);
    assert_eq!(r.region.as_deref(), Some("europe-west9"));
    // n2-standard-2: 2 vCPU, 8192 MB; image given by name (no size, not a data source) → 10 GB HDD
    let r = g("google_compute_instance.foo[1]");
    assert_eq!((r.vcpus, r.memory_gb), (Some(2.0), Some(8.0)));
    assert_eq!(
        r.storage,
        vec![mapping::Storage {
            size_gb: 10.0,
            kind: Hdd,
            key: None
        }]
    );
    // from template: the template's n2-standard-2 and its 20 GB disk
    let r = g("google_compute_instance_from_template.ifromtpl");
    assert_eq!(
        (
            r.vcpus,
            r.memory_gb,
            r.storage[0].size_gb,
            r.storage[0].kind
        ),
        (Some(2.0), Some(8.0), 20.0, Hdd)
    );
    // regional group manager: target_size 3 of the template
    let r = g("google_compute_region_instance_group_manager.my-group-manager");
    assert_eq!(
        (r.count, r.vcpus, r.memory_gb, r.storage[0].size_gb),
        (3, Some(2.0), Some(8.0), 20.0)
    );
    // disks: 10 GB default, pd-standard → HDD; the regional one replicated in 2 zones
    let r = g("google_compute_disk.first");
    assert_eq!(
        (
            r.storage[0].size_gb,
            r.storage[0].kind,
            r.replication_factor
        ),
        (10.0, Hdd, 1)
    );
    let r = g("google_compute_region_disk.second");
    assert_eq!(
        (
            r.storage[0].size_gb,
            r.replication_factor,
            r.region.as_deref()
        ),
        (10.0, 2, Some("europe-west9"))
    );
    // Cloud SQL db-g1-small: 1 vCPU, 1740 MB, REGIONAL → 2, PD_SSD 10 GB
    let r = g("google_sql_database_instance.instance");
    assert_eq!(
        (r.vcpus, r.memory_gb, r.replication_factor),
        (Some(1.0), Some(1740.0 / 1024.0), 2)
    );
    assert_eq!((r.storage[0].size_gb, r.storage[0].kind), (10.0, Ssd));
    assert_eq!(m.after.len(), 9);
    assert_eq!(
        m.ignored,
        vec![
            "google_compute_autoscaler.foobar",
            "google_compute_instance_template.my-instance-template"
        ]
    );
    assert_eq!(
        m.unsupported,
        vec![
            "google_compute_network.vpc_network",
            "google_compute_subnetwork.default"
        ]
    );
    // a plan with only configuration maps to nothing, without error
    let m = e.map(&plan(&td("carbonifer/plans/plan_with_module_calls.json")));
    assert!(m.after.is_empty() && m.before.is_empty());
}

/// Known upstream defects, done right with Carbonifer's own files.
#[test]
fn carbonifer_defects_fixed() {
    let e = carbonifer_engine();
    // for_each string keys (with quotes and dots) go through `"${this.address}"` filters unharmed
    let tpl = res(
        "google_compute_instance_template.t",
        json!({"machine_type": "n2-standard-2", "disk": [{"disk_size_gb": 20}]}),
    );
    let doc = plan_doc(
        vec![
            res(
                r#"google_compute_instance.vm["a.b \"c\""]"#,
                json!({"machine_type": "n1-standard-2", "zone": "europe-west1-b"}),
            ),
            res(
                r#"google_compute_instance_from_template.f["k"]"#,
                json!({"zone": "europe-west1-b"}),
            ),
            tpl,
            // mixed providers: AWS region from its provider, GCP from the zone
            res("aws_instance.web", json!({"instance_type": "m5.large"})),
        ],
        vec![cfg(
            "google_compute_instance_from_template.f",
            json!({"source_instance_template": {"references": ["google_compute_instance_template.t.id", "google_compute_instance_template.t"]}}),
        )],
        vec![],
        vec![],
    );
    let m = e.map(&doc);
    let vm = find(&m.after, r#"google_compute_instance.vm["a.b \"c\""]"#);
    assert_eq!(
        (vm.vcpus, vm.region.as_deref()),
        (Some(2.0), Some("europe-west1"))
    );
    let f = find(&m.after, r#"google_compute_instance_from_template.f["k"]"#);
    assert_eq!(
        f.vcpus, None,
        "Carbonifer's filter matches config addresses only: no figures, but no crash"
    );
    let aws = find(&m.after, "aws_instance.web");
    assert_eq!(
        (aws.vcpus, aws.memory_gb, aws.region.as_deref()),
        (Some(2.0), Some(8.0), Some("eu-west-1"))
    );
    // an unknown region is a warning on that resource, not an abort
    let mut doc = simple(vec![
        res("aws_instance.lost", json!({"instance_type": "m5.large"})),
        res(
            "aws_ebs_volume.v",
            json!({"size": 5, "availability_zone": "us-east-1a"}),
        ),
    ]);
    doc["configuration"]["provider_config"] = json!({});
    let m = e.map(&doc);
    let lost = find(&m.after, "aws_instance.lost");
    assert_eq!(lost.region, None);
    assert_eq!(lost.warnings, vec!["region unknown"]);
    assert_eq!(
        find(&m.after, "aws_ebs_volume.v").region.as_deref(),
        Some("us-east-1")
    );
}

/// User dirs layer over the embedded defaults: same-named resources replace, general merges key-wise.
#[test]
fn user_dirs_override_and_extend() {
    let e = mapping::load(&[td("override")], &test_data).unwrap();
    let doc = simple(vec![
        res("aws_ebs_volume.v", json!({"size": 10, "type": "gp2"})),
        res("aws_ebs_volume.w", json!({"size": 10, "type": "gp3"})),
        res("aws_sagemaker_endpoint.f", json!({})),
        res(
            "aws_instance.i",
            json!({"instance_type": "m5.large", "root_block_device": [{"volume_size": 10, "volume_type": "gp2"}]}),
        ),
    ]);
    let m = e.map(&doc);
    let v = find(&m.after, "aws_ebs_volume.v");
    assert_eq!(
        (v.storage[0].size_gb, v.storage[0].kind),
        (20.0, Hdd),
        "replaced mapping + overridden disk type"
    );
    assert_eq!(
        find(&m.after, "aws_ebs_volume.w").storage[0].kind,
        Ssd,
        "other disk types kept"
    );
    assert_eq!(
        find(&m.after, "aws_instance.i").storage[0].kind,
        Hdd,
        "general applies to shipped mappings too"
    );
    assert_eq!(
        m.ignored,
        vec!["aws_sagemaker_endpoint.f"],
        "ignored_resources appended"
    );
    assert!(m.unsupported.is_empty());
    // without the override: shipped behaviour
    let m = builtin().map(&doc);
    assert_eq!(find(&m.after, "aws_ebs_volume.v").storage[0].size_gb, 10.0);
    assert_eq!(m.unsupported, vec!["aws_sagemaker_endpoint.f"]);
}

/// Each broken file gives a located `file:line:column: message`.
#[test]
fn bad_mapping_files_are_located() {
    let check = |f: &str| -> Vec<String> {
        let dir =
            std::env::temp_dir().join(format!("carbon-show-mapping-{}-{f}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(td("bad").join(f), dir.join(f)).unwrap();
        let d = mapping::check(&dir, &test_data).unwrap();
        let out = d
            .iter()
            .map(|d| d.to_string().replace(&format!("{}/", dir.display()), ""))
            .collect();
        std::fs::remove_dir_all(&dir).unwrap();
        out
    };
    let syntax = check("syntax.yaml");
    assert_eq!(syntax.len(), 1, "{syntax:?}");
    assert!(
        syntax[0].starts_with("syntax.yaml:6:1: YAML syntax error")
            || syntax[0].starts_with("syntax.yaml:5:"),
        "{syntax:?}"
    );
    assert_eq!(
        check("unknown_key.yaml"),
        vec![r#"unknown_key.yaml:4:5: unknown key "propertees" in resource mapping"#]
    );
    let jq = check("bad_jq.yaml");
    // `'.values | (.a'` at column 18: the parser stops at the end of the filter, column 32
    assert!(
        jq.contains(
            &"bad_jq.yaml:6:32: jq: syntax error: expected closing parenthesis".to_string()
        ),
        "{jq:?}"
    );
    assert!(
        jq.contains(&"bad_jq.yaml:8:31: jq: undefined filter `no_such_function`".to_string()),
        "{jq:?}"
    );
    assert!(
        jq.contains(
            &"bad_jq.yaml:12:21: jq: syntax error: expected closing parenthesis".to_string()
        ),
        "a block scalar's error points into its own line: {jq:?}"
    );
    let re = check("bad_regex.yaml");
    assert_eq!(re.len(), 1, "{re:?}");
    assert!(
        re[0].starts_with("bad_regex.yaml:8:22: bad regex"),
        "{re:?}"
    );
    assert_eq!(
        check("missing_data.yaml"),
        vec![r#"missing_data.yaml:4:16: data file "no_such_table.json" not found"#]
    );
    // loading refuses fatal problems, with the same located message
    let err = mapping::load(&[td("bad")], &test_data)
        .err()
        .expect("fatal");
    let msg = err.to_string();
    assert!(
        msg.contains("missing_data.yaml:4:16: data file") && msg.contains("bad_regex.yaml:8:22"),
        "{msg}"
    );
    let as_error: carbon_show::Error = err.into();
    assert_eq!(as_error.exit_code(), carbon_show::ExitCode::Mapping);
    // the shipped mappings are clean
    assert_eq!(builtin().diagnostics(), &[]);
}

/// AWS + GCP + Azure in one plan, nested modules with for_each keys, provider aliases passed into
/// modules, an old-style module provider key, a module's own provider fed by a module argument.
#[test]
fn mixed_providers_modules_and_regions() {
    let m = builtin().map(&plan(&td("mixed_modules.json")));
    let reg = |a: &str| find(&m.after, a).region.clone();
    assert_eq!(
        reg("aws_instance.root").as_deref(),
        Some("eu-central-1"),
        "default provider, region from var.region"
    );
    assert_eq!(
        reg("aws_instance.west").as_deref(),
        Some("us-west-2"),
        "alias"
    );
    assert_eq!(
        reg("google_compute_disk.d").as_deref(),
        Some("asia-northeast1"),
        "GCP provider region from a variable"
    );
    assert_eq!(
        reg("azurerm_managed_disk.m").as_deref(),
        Some("francecentral"),
        "Azure location"
    );
    assert_eq!(
        reg(r#"module.app["blue"].aws_instance.web["a"]"#).as_deref(),
        Some("us-west-2"),
        "alias passed into a for_each module"
    );
    assert_eq!(
        reg(r#"module.app["blue"].module.db.aws_db_instance.this[0]"#).as_deref(),
        Some("us-west-2"),
        "passed two levels down"
    );
    assert_eq!(
        reg("module.legacy.aws_ebs_volume.v").as_deref(),
        Some("eu-central-1"),
        "old-style key falls back to the parent's provider"
    );
    assert_eq!(
        reg("module.own.aws_ebs_volume.v").as_deref(),
        Some("sa-east-1"),
        "module provider from a module argument"
    );
    let web = find(&m.after, r#"module.app["blue"].aws_instance.web["b"]"#);
    assert_eq!(
        (web.vcpus, web.memory_gb, web.provider.as_str()),
        (Some(4.0), Some(16.0), "aws")
    );
    let db = find(
        &m.after,
        r#"module.app["blue"].module.db.aws_db_instance.this[0]"#,
    );
    assert_eq!((db.replication_factor, db.vcpus), (2, Some(2.0)));
    assert_eq!(
        find(&m.after, "module.legacy.aws_ebs_volume.v").storage[0].kind,
        Hdd
    );
    assert_eq!(m.after.len(), 9);
    // before = prior_state
    let before: Vec<&str> = m.before.iter().map(|r| r.address.as_str()).collect();
    assert_eq!(before, vec!["aws_instance.root", "aws_instance.gone"]);
    let root_before = find(&m.before, "aws_instance.root");
    assert_eq!(
        (
            root_before.machine_type.as_deref(),
            root_before.region.as_deref(),
            root_before.zone.as_deref()
        ),
        (
            Some("t3.small"),
            Some("eu-central-1"),
            Some("eu-central-1b")
        )
    );
    assert_eq!(find(&m.before, "aws_instance.gone").vcpus, Some(8.0));
}

/// A state document (only `values`) maps into `after`.
#[test]
fn state_document_maps_into_after() {
    let m = builtin().map(&plan(&td("state.json")));
    assert!(m.before.is_empty());
    let s = find(&m.after, "google_compute_instance.s");
    assert_eq!(
        (s.vcpus, s.memory_gb, s.region.as_deref()),
        (Some(2.0), Some(4.0), Some("us-east1"))
    );
    assert_eq!(m.ignored, vec!["aws_vpc.v"]);
}

/// Real plans from other tools map without panics; every address is accounted for once.
#[test]
fn engine_is_shareable_across_threads() {
    fn send_sync<T: Send + Sync>(_: &T) {}
    send_sync(&builtin());
}

#[test]
fn real_plans_are_accounted_for() {
    let e = builtin();
    let mut n = 0;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/plans");
    for dir in ["infracost", "terraform-json", "carbonifer"].map(|d| root.join(d)) {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for f in rd.flatten() {
            let p = f.path();
            if p.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let Ok(doc) = serde_json::from_str::<Value>(&std::fs::read_to_string(&p).unwrap())
            else {
                continue;
            };
            let m = e.map(&doc);
            let mut seen = std::collections::HashSet::new();
            for a in m
                .after
                .iter()
                .map(|r| &r.address)
                .chain(&m.ignored)
                .chain(&m.unsupported)
            {
                assert!(seen.insert(a.clone()), "{}: {a} twice", p.display());
            }
            n += 1;
        }
    }
    // the fixture plans are always there
    let m = e.map(&plan(&td("carbonifer/plans/plan.json")));
    assert_eq!(m.after.len() + m.ignored.len() + m.unsupported.len(), 13);
    // infracost's five documents and Carbonifer's two (terraform-json's sit one folder down)
    assert_eq!(n, 7, "the real plans under testdata/plans");
}

/// Identical count/for_each instances are mapped once and keep their own addresses; an instance
/// that differs is mapped on its own.
#[test]
fn count_instances_keep_their_own_figures() {
    let e = builtin();
    let inst = |i: usize, t: &str| {
        let mut r = res(&format!("aws_instance.w[{i}]"), json!({"instance_type": t}));
        r["index"] = json!(i);
        r
    };
    let m = e.map(&plan_doc(
        vec![
            inst(0, "m5.large"),
            inst(1, "m5.xlarge"),
            inst(2, "m5.large"),
            inst(3, "m5.large"),
        ],
        vec![],
        vec![],
        vec![("aws_instance.w[3]", json!({"instance_type": true}))],
    ));
    let got: Vec<(&str, Option<f64>, bool)> = m
        .after
        .iter()
        .map(|r| (r.address.as_str(), r.vcpus, r.assumed.is_empty()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("aws_instance.w[0]", Some(2.0), true),
            ("aws_instance.w[1]", Some(4.0), true),
            ("aws_instance.w[2]", Some(2.0), true),
            ("aws_instance.w[3]", Some(2.0), true),
        ]
    );
}

/// GCP CPU platforms are named like the architecture tables ("Intel Cascade Lake" → "Cascade Lake").
#[test]
fn gcp_cpu_platform_names_match_architectures() {
    let m = builtin().map(&simple(vec![
        res("google_compute_instance.a", json!({"machine_type": "n2-standard-2", "zone": "us-central1-a", "min_cpu_platform": "Intel Cascade Lake"})),
        res("google_compute_instance.b", json!({"machine_type": "n2-standard-2", "zone": "us-central1-a"})),
    ]));
    assert_eq!(
        find(&m.after, "google_compute_instance.a").cpu_types,
        vec!["Cascade Lake"]
    );
    assert_eq!(
        find(&m.after, "google_compute_instance.b").cpu_types,
        vec!["Cascade Lake", "Ice Lake"],
        "the machine type's platforms"
    );
}

#[path = "support/lookup_plan.rs"]
mod lookup_plan;

/// Mapping work per resource stays the same as the plan grows: the lookups across the document
/// (`cbf::ref` to a `count` launch template, `cbf::referrers`, AMIs and templates by id) are
/// answered from indexes, and no jaq filter that could scan every resource runs per resource.
/// Counts, not timings: a return of the quadratic behaviour fails this test on any machine.
#[test]
fn mapping_work_per_resource_does_not_grow_with_the_plan() {
    let per_resource = |units: usize| {
        // a fresh engine each time: some answers are cached in the engine
        let e = builtin();
        let doc = lookup_plan::lookup_plan(units);
        let (m, stats) = e.map_sections_stats(&mapping::Sections::from_text(&doc.to_string()));
        assert_eq!(
            m.after.len() + m.ignored.len(),
            units * 10,
            "{:?}",
            m.unsupported
        );
        assert_eq!(m.before.len(), m.after.len());
        // the lookups found what they look for
        let asg = find(&m.after, "aws_autoscaling_group.asg1");
        assert_eq!(asg.machine_type.as_deref(), Some("m5.large"));
        let np = find(&m.after, "google_container_node_pool.np1");
        assert_eq!(np.machine_type.as_deref(), Some("e2-standard-2"));
        let pool = find(&m.after, "azurerm_kubernetes_cluster_node_pool.pool1");
        assert_eq!(pool.region.as_deref(), Some("westeurope"));
        let (resources, jaq, scan_runs, scanned, indexed) = stats.get();
        let r = resources as f64;
        (
            jaq as f64 / r,
            scan_runs as f64 / r,
            scanned as f64 / r,
            indexed,
        )
    };
    let (jaq_small, scans_small, scanned_small, _) = per_resource(10);
    let (jaq_big, scans_big, scanned_big, indexed) = per_resource(100);
    assert!(
        jaq_big <= jaq_small * 1.1 + 0.01,
        "jq runs per resource grew from {jaq_small} to {jaq_big}"
    );
    assert!(
        scans_big <= scans_small * 1.1 + 0.01,
        "scanning filters per resource grew from {scans_small} to {scans_big}"
    );
    assert!(
        scanned_big <= scanned_small * 1.1 + 0.01,
        "resources scanned per resource grew from {scanned_small} to {scanned_big}"
    );
    // the shipped mappings scan nothing per resource: their lookups use the indexes
    assert_eq!((scans_big, scanned_big), (0.0, 0.0));
    assert!(indexed > 0, "the index answered no lookup");
}

/// A lookup that starts from the resource's own attribute (`.snapshot_id | … as $s |
/// cbf::all_select("values.id"; $s)`) read that attribute from the whole document instead, so
/// it found nothing: a volume made from a snapshot got the 8 GB default, not the snapshot's
/// size. The same was true of the GCP boot disk's image size, a GKE node pool's cluster, an
/// instance group's template and an ASG's launch template found by name.
#[test]
fn a_lookup_from_the_resource_read_the_document_instead() {
    let doc = plan_doc(
        vec![
            res(
                "aws_ebs_volume.restored",
                json!({"availability_zone": "eu-west-1a", "type": "gp3", "snapshot_id": "snap-0abc"}),
            ),
            data_res(
                "data.aws_ebs_snapshot.base",
                json!({"id": "snap-0abc", "volume_size": 500}),
            ),
        ],
        vec![],
        vec![],
        vec![],
    );
    let m = builtin().map(&doc);
    let v = find(&m.after, "aws_ebs_volume.restored");
    assert_eq!(v.storage.len(), 1, "{v:?}");
    assert_eq!(v.storage[0].size_gb, 500.0, "{v:?}");
    // without the snapshot in the plan, the default stands
    let alone = plan_doc(
        vec![res(
            "aws_ebs_volume.restored",
            json!({"availability_zone": "eu-west-1a", "type": "gp3", "snapshot_id": "snap-0abc"}),
        )],
        vec![],
        vec![],
        vec![],
    );
    let m = builtin().map(&alone);
    assert_eq!(
        find(&m.after, "aws_ebs_volume.restored").storage[0].size_gb,
        8.0
    );
}

/// Mapping reads the plan's own text: a resource is built into a jaq value only for its
/// mapping or a lookup, and the configuration stays text. Mapping the same plan from its
/// text, pretty-printed or compact, gives the same figures, and a lookup through every index
/// kind (`cbf::ref`, `cbf::referrers`, `cbf::all_select` by a property named in a filter)
/// still finds its target among 1,000 other resources.
#[test]
fn lookups_find_their_target_in_a_plan_read_as_text() {
    let doc = lookup_plan::lookup_plan(100);
    let e = builtin();
    let compact = e.map_text(&doc.to_string());
    let pretty = e.map_text(&serde_json::to_string_pretty(&doc).unwrap());
    assert_eq!(compact, pretty);
    let asg = find(&compact.after, "aws_autoscaling_group.asg1");
    assert_eq!(asg.machine_type.as_deref(), Some("m5.large"));
}

/// The lookup shapes of the plan generator (templates, AMIs, clusters, referrers) map the same
/// with resources built whole as with only the members of `values` each mapping reads.
#[test]
fn partial_values_map_as_whole_resources() {
    let doc = lookup_plan::lookup_plan(30).to_string();
    let e = builtin();
    let partial = e.partial_mappings();
    assert!(partial > 0);
    let a = e.map_text(&doc);
    let b = builtin().without_partial_values().map_text(&doc);
    assert_eq!(a, b);
}

mod across;
mod lazy;
mod memo;
