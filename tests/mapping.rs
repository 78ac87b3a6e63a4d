//! Mapping engine tests: Carbonifer compatibility, shipped mappings per resource type, language features, bad files.

use carbon_show::mapping::{self, DiagKind, DiskKind, Engine, MappedPlan, MappedResource, MappingFile};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

fn td(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/mapping").join(p)
}

fn carbonifer_data(name: &str) -> Option<Cow<'static, str>> {
    std::fs::read_to_string(td("carbonifer/data").join(name)).ok().map(Cow::Owned)
}

fn carbonifer_engine() -> Engine {
    let files = mapping::read_dir(&td("carbonifer/mappings")).unwrap();
    Engine::from_files(&files, &carbonifer_data).unwrap()
}

fn plan(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn find<'a>(v: &'a [MappedResource], addr: &str) -> &'a MappedResource {
    v.iter().find(|r| r.address == addr).unwrap_or_else(|| panic!("{addr} not mapped; have {:?}", v.iter().map(|r| &r.address).collect::<Vec<_>>()))
}

fn test_data(name: &str) -> Option<Cow<'static, str>> {
    std::fs::read_to_string(td("data").join(name)).ok().map(Cow::Owned)
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
fn plan_doc(resources: Vec<Value>, config: Vec<Value>, data: Vec<Value>, unknown: Vec<(&str, Value)>) -> Value {
    let changes: Vec<Value> = unknown.into_iter().map(|(a, u)| json!({"address": a, "change": {"actions": ["create"], "after_unknown": u}})).collect();
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

fn exp(machine_type: Option<&'static str>, vcpus: Option<f64>, memory_gb: Option<f64>, count: u32, storage: Vec<(f64, DiskKind)>) -> Exp {
    Exp { machine_type, vcpus, memory_gb, count, replication_factor: 1, storage, ..Default::default() }
}

fn assert_exp(label: &str, r: &MappedResource, e: &Exp) {
    assert_eq!(r.machine_type.as_deref(), e.machine_type, "{label}: machine_type");
    assert_eq!(r.vcpus, e.vcpus, "{label}: vcpus");
    assert_eq!(r.memory_gb, e.memory_gb, "{label}: memory_gb");
    assert_eq!(r.count, e.count, "{label}: count");
    assert_eq!(r.replication_factor, e.replication_factor, "{label}: replication_factor");
    let st: Vec<(f64, DiskKind)> = r.storage.iter().map(|s| (s.size_gb, s.kind)).collect();
    assert_eq!(st, e.storage, "{label}: storage {:?}", r.storage);
    assert_eq!(r.gpus, e.gpus, "{label}: gpus");
    if let Some(reg) = e.region {
        assert_eq!(r.region.as_deref(), Some(reg), "{label}: region");
    }
    assert_eq!(!r.assumed.is_empty(), e.assumed, "{label}: assumed {:?}", r.assumed);
}

use DiskKind::{Hdd, Ssd};
use serde_json::{Value, json};

/// One row per shipped resource type: a small plan → the figures expected for one address.
#[test]
fn shipped_resource_types() {
    let lt_cfg = || cfg("aws_launch_template.lt", json!({}));
    let lt = || res("aws_launch_template.lt", json!({"name": "lt", "image_id": "ami-123", "instance_type": "t3.medium",
        "block_device_mappings": [{"device_name": "/dev/xvda", "ebs": [{"volume_size": 30, "volume_type": "gp3"}]}]}));
    let ami = || data_res("data.aws_ami.al2", json!({"image_id": "ami-123", "root_device_name": "/dev/xvda", "block_device_mappings": [
        {"device_name": "/dev/xvda", "ebs": {"volume_size": "8", "volume_type": "gp2"}},
        {"device_name": "/dev/xvdb", "ebs": {"volume_size": "50", "volume_type": "standard"}}]}));
    let tpl = || res("google_compute_instance_template.t", json!({"machine_type": "n2-standard-2", "self_link": null,
        "disk": [{"disk_size_gb": 20, "disk_type": "pd-standard", "source": null}], "guest_accelerator": []}));
    let gke = |v: Value| res("google_container_cluster.c", v);
    let aks = || res("azurerm_kubernetes_cluster.k", json!({"location": "North Europe", "default_node_pool": [{"vm_size": "Standard_D2s_v3", "node_count": 3}]}));
    let rows: Vec<(&str, Value, &str, Exp)> = vec![
        ("aws_instance root+ebs", simple(vec![res("aws_instance.web", json!({"instance_type": "m5.large", "availability_zone": "eu-west-3a",
            "root_block_device": [{"volume_size": 50, "volume_type": "gp3"}],
            "ebs_block_device": [{"device_name": "/dev/sdf", "volume_size": 100, "volume_type": "st1"}]}))]),
            "aws_instance.web", Exp { region: Some("eu-west-3"), ..exp(Some("m5.large"), Some(2.0), Some(8.0), 1, vec![(50.0, Ssd), (100.0, Hdd)]) }),
        ("aws_instance launch template + AMI", plan_doc(
            vec![res("aws_instance.lt_web", json!({"launch_template": [{"id": null, "name": null}]})), lt()],
            vec![cfg("aws_instance.lt_web", json!({"launch_template": [{"id": {"references": ["aws_launch_template.lt.id", "aws_launch_template.lt"]}}]})), lt_cfg()],
            vec![ami()], vec![("aws_instance.lt_web", json!({"instance_type": true, "ami": true, "root_block_device": true}))]),
            "aws_instance.lt_web", Exp { region: Some("eu-west-1"), ..exp(Some("t3.medium"), Some(2.0), Some(4.0), 1, vec![(30.0, Ssd), (50.0, Hdd)]) }),
        ("aws_instance AMI only, instance store", plan_doc(vec![res("aws_instance.a", json!({"instance_type": "m5d.large", "ami": "ami-123"}))], vec![], vec![ami()], vec![]),
            "aws_instance.a", exp(Some("m5d.large"), Some(2.0), Some(8.0), 1, vec![(8.0, Ssd), (50.0, Hdd), (75.0, Ssd)])),
        ("aws_instance GPUs from the table", simple(vec![res("aws_instance.g", json!({"instance_type": "p3.2xlarge"}))]),
            "aws_instance.g", Exp { gpus: vec!["V100"], ..exp(Some("p3.2xlarge"), Some(8.0), Some(61.0), 1, vec![(8.0, Ssd)]) }),
        ("aws_launch_template", simple(vec![lt()]), "aws_launch_template.lt", exp(Some("t3.medium"), Some(2.0), Some(4.0), 0, vec![(30.0, Ssd)])),
        ("aws_autoscaling_group desired", plan_doc(vec![res("aws_autoscaling_group.asg", json!({"desired_capacity": 3, "min_size": 1, "max_size": 5, "availability_zones": ["eu-west-2b"]})), lt()],
            vec![cfg("aws_autoscaling_group.asg", json!({"launch_template": [{"id": {"references": ["aws_launch_template.lt.id", "aws_launch_template.lt"]}}]})), lt_cfg()], vec![ami()], vec![]),
            "aws_autoscaling_group.asg", Exp { region: Some("eu-west-2"), ..exp(Some("t3.medium"), Some(2.0), Some(4.0), 3, vec![(30.0, Ssd), (50.0, Hdd)]) }),
        ("aws_autoscaling_group min, launch configuration", plan_doc(vec![
                res("aws_autoscaling_group.asg", json!({"desired_capacity": null, "min_size": 2, "max_size": 5})),
                res("aws_launch_configuration.lc", json!({"instance_type": "m5.xlarge", "root_block_device": [{"volume_size": 40, "volume_type": "standard"}]}))],
            vec![cfg("aws_autoscaling_group.asg", json!({"launch_configuration": {"references": ["aws_launch_configuration.lc.name", "aws_launch_configuration.lc"]}}))], vec![], vec![]),
            "aws_autoscaling_group.asg", exp(Some("m5.xlarge"), Some(4.0), Some(16.0), 2, vec![(40.0, Hdd)])),
        ("aws_ebs_volume unset type is SSD", simple(vec![res("aws_ebs_volume.v", json!({"size": 100, "availability_zone": "us-east-1c"}))]),
            "aws_ebs_volume.v", Exp { region: Some("us-east-1"), ..exp(None, None, None, 1, vec![(100.0, Ssd)]) }),
        ("aws_db_instance multi-AZ", simple(vec![res("aws_db_instance.db", json!({"instance_class": "db.r5.large", "multi_az": true, "allocated_storage": 100, "storage_type": "gp2"}))]),
            "aws_db_instance.db", Exp { replication_factor: 2, ..exp(Some("db.r5.large"), Some(2.0), Some(16.0), 1, vec![(100.0, Ssd)]) }),
        ("aws_db_instance class without db. in the table", simple(vec![res("aws_db_instance.db", json!({"instance_class": "db.t3.micro", "multi_az": false, "allocated_storage": 20, "storage_type": "standard"}))]),
            "aws_db_instance.db", exp(Some("db.t3.micro"), Some(2.0), Some(1.0), 1, vec![(20.0, Hdd)])),
        ("aws_rds_cluster_instance", simple(vec![res("aws_rds_cluster_instance.i", json!({"instance_class": "db.r5.large"}))]),
            "aws_rds_cluster_instance.i", exp(Some("db.r5.large"), Some(2.0), Some(16.0), 1, vec![])),
        ("aws_eks_node_group", simple(vec![res("aws_eks_node_group.ng", json!({"instance_types": ["m5.large"], "disk_size": 50, "scaling_config": [{"desired_size": 4, "min_size": 1, "max_size": 6}]}))]),
            "aws_eks_node_group.ng", exp(Some("m5.large"), Some(2.0), Some(8.0), 4, vec![(50.0, Ssd)])),
        ("aws_eks_node_group unknown instance type", plan_doc(vec![res("aws_eks_node_group.ng", json!({"scaling_config": [{"desired_size": 2}]}))], vec![], vec![], vec![("aws_eks_node_group.ng", json!({"instance_types": true}))]),
            "aws_eks_node_group.ng", Exp { assumed: true, ..exp(Some("t3.medium"), Some(2.0), Some(4.0), 2, vec![(20.0, Ssd)]) }),
        ("aws_elasticache_cluster", simple(vec![res("aws_elasticache_cluster.c", json!({"node_type": "cache.m5.large", "num_cache_nodes": 2, "availability_zone": "eu-west-1b"}))]),
            "aws_elasticache_cluster.c", exp(Some("cache.m5.large"), Some(2.0), Some(8.0), 2, vec![])),
        ("google_compute_instance", simple(vec![res("google_compute_instance.vm", json!({"machine_type": "n2-standard-4", "zone": "europe-west1-b",
            "boot_disk": [{"initialize_params": [{"size": 50, "type": "pd-ssd"}]}], "scratch_disk": [{"interface": "NVME"}],
            "guest_accelerator": [{"count": 1, "type": "nvidia-tesla-t4"}]}))]),
            "google_compute_instance.vm", Exp { gpus: vec!["nvidia-tesla-t4"], region: Some("europe-west1"), ..exp(Some("n2-standard-4"), Some(4.0), Some(16.0), 1, vec![(50.0, Ssd), (375.0, Ssd)]) }),
        ("google_compute_instance custom type", simple(vec![res("google_compute_instance.c", json!({"machine_type": "n2-custom-8-32768", "zone": "us-central1-a", "boot_disk": [{"initialize_params": [{}]}]}))]),
            "google_compute_instance.c", exp(Some("n2-custom-8-32768"), Some(8.0), Some(32.0), 1, vec![(10.0, Hdd)])),
        ("google_compute_instance built-in GPU", simple(vec![res("google_compute_instance.a2", json!({"machine_type": "a2-highgpu-1g", "zone": "us-central1-a"}))]),
            "google_compute_instance.a2", Exp { gpus: vec!["nvidia-tesla-a100"], ..exp(Some("a2-highgpu-1g"), Some(12.0), Some(85.0), 1, vec![]) }),
        ("google_compute_instance unknown machine type", plan_doc(vec![res("google_compute_instance.u", json!({"zone": "us-central1-a"}))], vec![], vec![], vec![("google_compute_instance.u", json!({"machine_type": true}))]),
            "google_compute_instance.u", Exp { assumed: true, ..exp(Some("n1-standard-1"), Some(1.0), Some(3.75), 1, vec![]) }),
        ("google_compute_instance_from_template", plan_doc(vec![res("google_compute_instance_from_template.f", json!({"zone": "europe-west9-a"})), tpl()],
            vec![cfg("google_compute_instance_from_template.f", json!({"source_instance_template": {"references": ["google_compute_instance_template.t.self_link_unique", "google_compute_instance_template.t"]}}))], vec![], vec![]),
            "google_compute_instance_from_template.f", exp(Some("n2-standard-2"), Some(2.0), Some(8.0), 1, vec![(20.0, Hdd)])),
        ("google_compute_instance_template", simple(vec![tpl()]), "google_compute_instance_template.t", exp(Some("n2-standard-2"), Some(2.0), Some(8.0), 0, vec![(20.0, Hdd)])),
        ("google_compute_instance_group_manager zonal", plan_doc(vec![res("google_compute_instance_group_manager.g", json!({"target_size": 2, "zone": "europe-west1-c"})), tpl()],
            vec![cfg("google_compute_instance_group_manager.g", json!({"version": [{"instance_template": {"references": ["google_compute_instance_template.t.id", "google_compute_instance_template.t"]}}]}))], vec![], vec![]),
            "google_compute_instance_group_manager.g", exp(Some("n2-standard-2"), Some(2.0), Some(8.0), 2, vec![(20.0, Hdd)])),
        ("google_compute_region_instance_group_manager autoscaled", plan_doc(vec![
                res("google_compute_region_instance_group_manager.r", json!({"target_size": null, "region": "europe-west4"})), tpl(),
                res("google_compute_region_autoscaler.a", json!({"autoscaling_policy": [{"min_replicas": 2, "max_replicas": 6}]}))],
            vec![cfg("google_compute_region_instance_group_manager.r", json!({"version": [{"instance_template": {"references": ["google_compute_instance_template.t.id", "google_compute_instance_template.t"]}}]})),
                 cfg("google_compute_region_autoscaler.a", json!({"target": {"references": ["google_compute_region_instance_group_manager.r.id", "google_compute_region_instance_group_manager.r"]}}))], vec![], vec![]),
            "google_compute_region_instance_group_manager.r", Exp { region: Some("europe-west4"), ..exp(Some("n2-standard-2"), Some(2.0), Some(8.0), 4, vec![(20.0, Hdd)]) }),
        ("google_compute_disk", simple(vec![res("google_compute_disk.d", json!({"size": 100, "type": "pd-ssd", "zone": "asia-east1-a"}))]),
            "google_compute_disk.d", Exp { region: Some("asia-east1"), ..exp(None, None, None, 1, vec![(100.0, Ssd)]) }),
        ("google_compute_region_disk", simple(vec![res("google_compute_region_disk.r", json!({"size": 50, "type": "pd-balanced", "region": "europe-west1", "replica_zones": ["europe-west1-b", "europe-west1-c"]}))]),
            "google_compute_region_disk.r", Exp { replication_factor: 2, ..exp(None, None, None, 1, vec![(50.0, Ssd)]) }),
        ("google_sql_database_instance db-custom", simple(vec![res("google_sql_database_instance.db", json!({"region": "europe-west1",
            "settings": [{"tier": "db-custom-2-7680", "availability_type": "REGIONAL", "disk_size": 20, "disk_type": "PD_HDD"}]}))]),
            "google_sql_database_instance.db", Exp { replication_factor: 2, ..exp(Some("db-custom-2-7680"), Some(2.0), Some(7.5), 1, vec![(20.0, Hdd)]) }),
        ("google_sql_database_instance tier", simple(vec![res("google_sql_database_instance.db", json!({"region": "europe-west1", "settings": [{"tier": "db-g1-small", "availability_type": "ZONAL"}]}))]),
            "google_sql_database_instance.db", exp(Some("db-g1-small"), Some(1.0), Some(1740.0 / 1024.0), 1, vec![(10.0, Ssd)])),
        ("google_container_cluster regional default pool", simple(vec![gke(json!({"location": "europe-west1", "initial_node_count": 1, "node_config": [{"machine_type": "e2-standard-4", "disk_size_gb": 50, "disk_type": "pd-standard"}]}))]),
            "google_container_cluster.c", Exp { region: Some("europe-west1"), ..exp(Some("e2-standard-4"), Some(4.0), Some(16.0), 3, vec![(50.0, Hdd)]) }),
        ("google_container_cluster without default pool", simple(vec![gke(json!({"location": "europe-west1-b", "remove_default_node_pool": true, "initial_node_count": 1}))]),
            "google_container_cluster.c", exp(Some("e2-medium"), Some(2.0), Some(4.0), 0, vec![(100.0, Ssd)])),
        ("google_container_node_pool autoscaled in a regional cluster", plan_doc(vec![
                gke(json!({"location": "europe-west1", "remove_default_node_pool": true})),
                res("google_container_node_pool.p", json!({"autoscaling": [{"min_node_count": 1, "max_node_count": 3}], "node_config": [{"machine_type": "n1-standard-2"}]}))],
            vec![cfg("google_container_node_pool.p", json!({"cluster": {"references": ["google_container_cluster.c.id", "google_container_cluster.c"]}}))], vec![], vec![]),
            "google_container_node_pool.p", Exp { region: Some("europe-west1"), ..exp(Some("n1-standard-2"), Some(2.0), Some(7.5), 6, vec![(100.0, Ssd)]) }),
        ("google_container_node_pool zonal", simple(vec![res("google_container_node_pool.p", json!({"location": "europe-west1-b", "node_count": 2, "node_config": [{"machine_type": "e2-medium", "local_ssd_count": 1}]}))]),
            "google_container_node_pool.p", exp(Some("e2-medium"), Some(2.0), Some(4.0), 2, vec![(100.0, Ssd), (375.0, Ssd)])),
        ("azurerm_linux_virtual_machine", simple(vec![res("azurerm_linux_virtual_machine.vm", json!({"size": "Standard_D2s_v3", "location": "West Europe", "os_disk": [{"disk_size_gb": 64, "storage_account_type": "Premium_LRS"}]}))]),
            "azurerm_linux_virtual_machine.vm", Exp { region: Some("westeurope"), ..exp(Some("Standard_D2s_v3"), Some(2.0), Some(8.0), 1, vec![(64.0, Ssd)]) }),
        ("azurerm_windows_virtual_machine", simple(vec![res("azurerm_windows_virtual_machine.vm", json!({"size": "Standard_B2s", "location": "eastus", "os_disk": [{"storage_account_type": "Standard_LRS"}]}))]),
            "azurerm_windows_virtual_machine.vm", exp(Some("Standard_B2s"), Some(2.0), Some(4.0), 1, vec![(127.0, Hdd)])),
        ("azurerm_virtual_machine", simple(vec![res("azurerm_virtual_machine.vm", json!({"vm_size": "Standard_DS2_v2", "location": "eastus",
            "storage_os_disk": [{"disk_size_gb": 30, "managed_disk_type": "Standard_LRS"}], "storage_data_disk": [{"disk_size_gb": 100, "managed_disk_type": "Premium_LRS"}]}))]),
            "azurerm_virtual_machine.vm", exp(Some("Standard_DS2_v2"), Some(2.0), Some(7.0), 1, vec![(30.0, Hdd), (100.0, Ssd)])),
        ("azurerm_linux_virtual_machine_scale_set", simple(vec![res("azurerm_linux_virtual_machine_scale_set.s", json!({"sku": "Standard_B2s", "instances": 3, "location": "eastus",
            "os_disk": [{"storage_account_type": "StandardSSD_LRS"}], "data_disk": [{"disk_size_gb": 10, "storage_account_type": "Standard_LRS"}]}))]),
            "azurerm_linux_virtual_machine_scale_set.s", exp(Some("Standard_B2s"), Some(2.0), Some(4.0), 3, vec![(30.0, Ssd), (10.0, Hdd)])),
        ("azurerm_windows_virtual_machine_scale_set", simple(vec![res("azurerm_windows_virtual_machine_scale_set.s", json!({"sku": "Standard_D2s_v3", "instances": 2, "location": "eastus", "os_disk": [{"storage_account_type": "Premium_LRS"}]}))]),
            "azurerm_windows_virtual_machine_scale_set.s", exp(Some("Standard_D2s_v3"), Some(2.0), Some(8.0), 2, vec![(127.0, Ssd)])),
        ("azurerm_managed_disk", simple(vec![res("azurerm_managed_disk.d", json!({"disk_size_gb": 256, "storage_account_type": "StandardSSD_LRS", "location": "uksouth"}))]),
            "azurerm_managed_disk.d", Exp { region: Some("uksouth"), ..exp(None, None, None, 1, vec![(256.0, Ssd)]) }),
        ("azurerm_kubernetes_cluster", simple(vec![aks()]), "azurerm_kubernetes_cluster.k", Exp { region: Some("northeurope"), ..exp(Some("Standard_D2s_v3"), Some(2.0), Some(8.0), 3, vec![(128.0, Ssd)]) }),
        ("azurerm_kubernetes_cluster autoscaled", simple(vec![res("azurerm_kubernetes_cluster.k", json!({"location": "eastus", "default_node_pool": [{"vm_size": "Standard_B2s", "auto_scaling_enabled": true, "min_count": 1, "max_count": 5, "os_disk_size_gb": 64}]}))]),
            "azurerm_kubernetes_cluster.k", exp(Some("Standard_B2s"), Some(2.0), Some(4.0), 3, vec![(64.0, Ssd)])),
        ("azurerm_kubernetes_cluster_node_pool", plan_doc(vec![aks(), res("azurerm_kubernetes_cluster_node_pool.gpu", json!({"vm_size": "Standard_NC6", "node_count": 2}))],
            vec![cfg("azurerm_kubernetes_cluster_node_pool.gpu", json!({"kubernetes_cluster_id": {"references": ["azurerm_kubernetes_cluster.k.id", "azurerm_kubernetes_cluster.k"]}}))], vec![], vec![]),
            "azurerm_kubernetes_cluster_node_pool.gpu", Exp { gpus: vec!["NVIDIA Tesla K80"], region: Some("northeurope"), ..exp(Some("Standard_NC6"), Some(6.0), Some(56.0), 2, vec![(128.0, Ssd)]) }),
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
    let shipped = ["aws_instance", "aws_launch_template", "aws_autoscaling_group", "aws_ebs_volume", "aws_db_instance", "aws_rds_cluster_instance",
        "aws_eks_node_group", "aws_elasticache_cluster", "google_compute_instance", "google_compute_instance_from_template", "google_compute_instance_template",
        "google_compute_instance_group_manager", "google_compute_region_instance_group_manager", "google_compute_disk", "google_compute_region_disk",
        "google_sql_database_instance", "google_container_cluster", "google_container_node_pool", "azurerm_linux_virtual_machine",
        "azurerm_windows_virtual_machine", "azurerm_virtual_machine", "azurerm_linux_virtual_machine_scale_set", "azurerm_windows_virtual_machine_scale_set",
        "azurerm_managed_disk", "azurerm_kubernetes_cluster", "azurerm_kubernetes_cluster_node_pool"];
    for t in shipped {
        assert!(covered.contains(t), "no row for {t}");
    }
}
