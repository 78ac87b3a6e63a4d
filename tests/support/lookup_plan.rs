//! A plan whose mappings look things up across the document, in the shapes of
//! `scripts/gen-plan/gen_plan.py`: configuration resources with expressions and references,
//! launch templates (with `count`, so references to them need the `name[` prefix match) used by
//! auto scaling groups and instances, AMIs read into `prior_state`, GKE/AKS node pools referring
//! to their clusters, instance group managers with autoscalers that refer to them, and a
//! `prior_state` holding every resource. Shared by `tests/mapping.rs` and `benches/mapping.rs`.

use serde_json::{Value, json};

const AWS: &str = "registry.opentofu.org/hashicorp/aws";
const GOOGLE: &str = "registry.opentofu.org/hashicorp/google";
const AZURE: &str = "registry.opentofu.org/hashicorp/azurerm";

fn provider_key(p: &str) -> &'static str {
    match p {
        AWS => "aws",
        GOOGLE => "google",
        _ => "azurerm",
    }
}

/// `units` copies of the lookup shapes (10 managed resources each, plus one AMI per 10 units).
pub fn lookup_plan(units: usize) -> Value {
    let mut planned = Vec::new();
    let mut config = Vec::new();
    let mut changes = Vec::new();
    let mut add = |ty: &str,
                   name: String,
                   index: Option<usize>,
                   provider: &str,
                   values: Value,
                   expressions: Value| {
        let block = format!("{ty}.{name}");
        let address = match index {
            Some(i) => format!("{block}[{i}]"),
            None => block.clone(),
        };
        let mut r = json!({"address": address, "mode": "managed", "type": ty, "name": name,
            "provider_name": provider, "schema_version": 0, "values": values,
            "sensitive_values": {}});
        if let Some(i) = index {
            r["index"] = json!(i);
        }
        changes.push(
            json!({"address": address, "mode": "managed", "type": ty, "name": name,
            "provider_name": provider, "change": {"actions": ["update"], "before": values,
            "after": values, "after_unknown": {}, "before_sensitive": {}, "after_sensitive": {}}}),
        );
        planned.push(r);
        let mut c = json!({"address": block, "mode": "managed", "type": ty, "name": name,
            "provider_config_key": provider_key(provider), "expressions": expressions,
            "schema_version": 0});
        if index.is_some() {
            c["count_expression"] = json!({"constant_value": 1});
        }
        config.push(c);
    };
    for u in 0..units {
        let ami = format!("ami-{:04}", u / 10);
        let lt = format!("lt{u}");
        add(
            "aws_launch_template",
            lt.clone(),
            Some(0),
            AWS,
            json!({"id": format!("lt-{u}"), "name": format!("lt-name-{u}"), "image_id": ami,
                "instance_type": "m5.large", "block_device_mappings": [{"device_name": "/dev/xvda",
                "ebs": [{"volume_size": 20, "volume_type": "gp3"}]}]}),
            json!({"image_id": {"references": ["data.aws_ami.ubuntu.id", "data.aws_ami.ubuntu"]},
                "instance_type": {"constant_value": "m5.large"}}),
        );
        let lt_ref = json!([{"id": {"references": [format!("aws_launch_template.{lt}[0].id"),
            format!("aws_launch_template.{lt}")]}}]);
        add(
            "aws_autoscaling_group",
            format!("asg{u}"),
            None,
            AWS,
            json!({"desired_capacity": 2, "min_size": 1, "max_size": 4,
                "launch_template": [{"id": format!("lt-{u}"), "name": format!("lt-name-{u}")}]}),
            json!({"launch_template": lt_ref, "desired_capacity": {"constant_value": 2}}),
        );
        add(
            "aws_instance",
            format!("vm{u}"),
            None,
            AWS,
            json!({"ami": ami, "instance_type": "t3.medium", "availability_zone": "eu-west-1a",
                "root_block_device": [], "ebs_block_device": [],
                "launch_template": [{"id": format!("lt-{u}"), "name": format!("lt-name-{u}")}]}),
            json!({"ami": {"references": ["data.aws_ami.ubuntu.id", "data.aws_ami.ubuntu"]},
                "launch_template": lt_ref}),
        );
        add(
            "google_container_cluster",
            format!("gke{u}"),
            None,
            GOOGLE,
            json!({"name": format!("gke-{u}"), "location": "europe-west1-b",
                "remove_default_node_pool": true, "initial_node_count": 1}),
            json!({"location": {"constant_value": "europe-west1-b"}}),
        );
        add(
            "google_container_node_pool",
            format!("np{u}"),
            None,
            GOOGLE,
            json!({"cluster": format!("gke-{u}"), "location": "europe-west1-b", "node_count": 2,
                "node_config": [{"machine_type": "e2-standard-2", "disk_size_gb": 50,
                "disk_type": "pd-balanced"}]}),
            json!({"cluster": {"references": [format!("google_container_cluster.gke{u}.name"),
                format!("google_container_cluster.gke{u}")]}}),
        );
        add(
            "google_compute_instance_template",
            format!("tpl{u}"),
            None,
            GOOGLE,
            json!({"self_link": format!("https://x/tpl-{u}"), "machine_type": "n2-standard-4",
                "disk": [{"disk_size_gb": 20, "disk_type": "pd-ssd", "boot": true}]}),
            json!({"machine_type": {"constant_value": "n2-standard-4"}}),
        );
        add(
            "google_compute_instance_group_manager",
            format!("igm{u}"),
            None,
            GOOGLE,
            json!({"zone": "europe-west1-b", "target_size": 3,
                "version": [{"instance_template": format!("https://x/tpl-{u}")}]}),
            json!({"version": [{"instance_template": {"references": [
                format!("google_compute_instance_template.tpl{u}.self_link"),
                format!("google_compute_instance_template.tpl{u}")]}}]}),
        );
        add(
            "google_compute_autoscaler",
            format!("as{u}"),
            None,
            GOOGLE,
            json!({"zone": "europe-west1-b", "autoscaling_policy": [{"min_replicas": 2,
                "max_replicas": 6}]}),
            json!({"target": {"references": [
                format!("google_compute_instance_group_manager.igm{u}.id"),
                format!("google_compute_instance_group_manager.igm{u}")]}}),
        );
        add(
            "azurerm_kubernetes_cluster",
            format!("aks{u}"),
            None,
            AZURE,
            json!({"location": "westeurope", "default_node_pool": [{"vm_size": "Standard_D4s_v5",
                "node_count": 2}]}),
            json!({"location": {"constant_value": "westeurope"}}),
        );
        add(
            "azurerm_kubernetes_cluster_node_pool",
            format!("pool{u}"),
            None,
            AZURE,
            json!({"vm_size": "Standard_D2s_v5", "node_count": 3}),
            json!({"kubernetes_cluster_id": {"references": [
                format!("azurerm_kubernetes_cluster.aks{u}.id"),
                format!("azurerm_kubernetes_cluster.aks{u}")]}}),
        );
    }
    let mut prior = planned.clone();
    for k in 0..units.div_ceil(10) {
        prior.push(
            json!({"address": format!("data.aws_ami.ubuntu{k}"), "mode": "data",
            "type": "aws_ami", "name": format!("ubuntu{k}"), "provider_name": AWS,
            "values": {"id": format!("ami-{k:04}"), "image_id": format!("ami-{k:04}"),
            "root_device_name": "/dev/xvda", "block_device_mappings": [{"device_name": "/dev/xvda",
            "ebs": {"volume_size": "16", "volume_type": "gp3"}}]}, "sensitive_values": {}}),
        );
    }
    json!({
        "format_version": "1.2",
        "terraform_version": "1.8.3",
        "variables": {"region": {"value": "eu-west-1"}},
        "planned_values": {"root_module": {"resources": planned}},
        "resource_changes": changes,
        "prior_state": {"format_version": "1.0", "values": {"root_module": {"resources": prior}}},
        "configuration": {
            "provider_config": {
                "aws": {"name": "aws", "full_name": AWS,
                    "expressions": {"region": {"references": ["var.region"]}}},
                "google": {"name": "google", "full_name": GOOGLE,
                    "expressions": {"region": {"constant_value": "europe-west1"}}},
                "azurerm": {"name": "azurerm", "full_name": AZURE, "expressions": {}}
            },
            "root_module": {"resources": config,
                "variables": {"region": {"default": "eu-west-1"}}}
        }
    })
}
