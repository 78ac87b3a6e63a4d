"""Schemas served by the fake providers: a realistic subset of aws, google and azurerm.

Each attribute is a dict: type (cty type as JSON), and flags: required, optional, computed,
sensitive, write_only, force_new (a change plans a replacement), fill (the value apply gives a
computed attribute left unset), update_unknown (becomes unknown on any in-place update).
Each block type: nesting (single, group, list, set, map), min/max items, computed_block (an
SDKv2 Optional+Computed block: filled on apply, wholly unknown when the resource is replaced),
force_new (a change of the block replaces the resource), and the nested block.
"""

S, N, B = "string", "number", "bool"


def lst(t):
    return ["list", t]


def st(t):
    return ["set", t]


def mp(t):
    return ["map", t]


def a(t, **flags):
    return dict(type=t, **flags)


def req(t, **f):
    return a(t, required=True, **f)


def opt(t, **f):
    return a(t, optional=True, **f)


def comp(t, fill=None, **f):
    return a(t, computed=True, fill=fill, **f)


def oc(t, fill=None, **f):
    return a(t, optional=True, computed=True, fill=fill, **f)


def blk(nesting, attrs, blocks=None, **f):
    return dict(nesting=nesting, block=dict(attributes=attrs, blocks=blocks or {}), **f)


def tags():
    return {"tags": opt(mp(S)), "tags_all": comp(mp(S), fill="$tags")}


AWS_INSTANCE = dict(
    attributes={
        "id": comp(S, fill="i-$id"),
        "ami": req(S, force_new=True),
        "arn": comp(S, fill="arn:aws:ec2:$region:123456789012:instance/i-$id"),
        "associate_public_ip_address": oc(B, fill=False, force_new=True),
        "availability_zone": oc(S, fill="${region}a", force_new=True),
        "disable_api_termination": oc(B, fill=False),
        "ebs_optimized": oc(B, fill=False, force_new=True),
        "get_password_data": opt(B),
        "host_id": oc(S, fill="", force_new=True),
        "iam_instance_profile": oc(S, fill=""),
        "instance_state": comp(S, fill="running"),
        "instance_type": oc(S, fill="t3.micro"),
        "ipv6_address_count": oc(N, fill=0, force_new=True),
        "key_name": oc(S, fill="", force_new=True),
        "monitoring": oc(B, fill=False),
        "password_data": comp(S, fill="", sensitive=True),
        "placement_group": oc(S, fill="", force_new=True),
        "primary_network_interface_id": comp(S, fill="eni-$id"),
        "private_dns": comp(S, fill="ip-10-0-0-$n.ec2.internal"),
        "private_ip": oc(S, fill="10.0.0.$n", force_new=True),
        "public_dns": comp(S, fill=""),
        "public_ip": comp(S, fill=""),
        "region": oc(S, fill="$region", force_new=True),
        "secondary_private_ips": oc(st(S), fill=[]),
        "security_groups": oc(st(S), fill=[], force_new=True),
        "source_dest_check": opt(B),
        "subnet_id": oc(S, fill="subnet-0a1b2c3d", force_new=True),
        "tenancy": oc(S, fill="default", force_new=True),
        "user_data": opt(S, force_new=True),
        "user_data_replace_on_change": opt(B),
        "vpc_security_group_ids": oc(st(S), fill=["sg-0123456789"]),
        **tags(),
    },
    blocks={
        "root_block_device": blk(
            "list",
            {
                "delete_on_termination": opt(B),
                "device_name": comp(S, fill="/dev/xvda"),
                "encrypted": oc(B, fill=False, force_new=True),
                "iops": oc(N, fill=3000),
                "kms_key_id": oc(S, fill="", force_new=True),
                "tags": opt(mp(S)),
                "throughput": oc(N, fill=125),
                "volume_id": comp(S, fill="vol-$id"),
                "volume_size": oc(N, fill=8),
                "volume_type": oc(S, fill="gp3"),
            },
            max_items=1,
            computed_block=True,
        ),
        "ebs_block_device": blk(
            "set",
            {
                "delete_on_termination": opt(B),
                "device_name": req(S),
                "encrypted": oc(B, fill=False),
                "iops": oc(N, fill=3000),
                "snapshot_id": oc(S, fill=""),
                "volume_id": comp(S, fill="vol-e$id"),
                "volume_size": oc(N, fill=8),
                "volume_type": oc(S, fill="gp3"),
            },
            force_new=True,
            computed_block=True,
        ),
        "cpu_options": blk(
            "list",
            {
                "amd_sev_snp": oc(S, fill="", force_new=True),
                "core_count": oc(N, fill=1, force_new=True),
                "threads_per_core": oc(N, fill=2, force_new=True),
            },
            max_items=1,
            computed_block=True,
        ),
        "metadata_options": blk(
            "list",
            {
                "http_endpoint": oc(S, fill="enabled"),
                "http_protocol_ipv6": oc(S, fill="disabled"),
                "http_put_response_hop_limit": oc(N, fill=2),
                "http_tokens": oc(S, fill="required"),
                "instance_metadata_tags": oc(S, fill="disabled"),
            },
            max_items=1,
            computed_block=True,
        ),
        "credit_specification": blk("list", {"cpu_credits": opt(S)}, max_items=1),
        "timeouts": blk("single", {"create": opt(S), "delete": opt(S), "update": opt(S)}),
    },
)

AWS_EBS_VOLUME = dict(
    attributes={
        "id": comp(S, fill="vol-$id"),
        "arn": comp(S, fill="arn:aws:ec2:$region:123456789012:volume/vol-$id"),
        "availability_zone": req(S, force_new=True),
        "encrypted": oc(B, fill=False, force_new=True),
        "final_snapshot": opt(B),
        "iops": oc(N, fill=3000),
        "region": oc(S, fill="$region", force_new=True),
        "size": oc(N, fill=8),
        "snapshot_id": oc(S, fill="", force_new=True),
        "throughput": oc(N, fill=125),
        "type": oc(S, fill="gp3"),
        **tags(),
    },
    blocks={},
)

AWS_DB_INSTANCE = dict(
    attributes={
        "id": comp(S, fill="db-$id"),
        "address": comp(S, fill="db-$id.$region.rds.amazonaws.com"),
        "allocated_storage": oc(N, fill=20),
        "engine": oc(S, fill="postgres", force_new=True),
        "engine_version": oc(S, fill="16.3"),
        "identifier": oc(S, fill="terraform-$id", force_new=True),
        "instance_class": req(S),
        "multi_az": oc(B, fill=False),
        "password": opt(S, sensitive=True),
        "password_wo": opt(S, sensitive=True, write_only=True),
        "password_wo_version": opt(N),
        "region": oc(S, fill="$region", force_new=True),
        "skip_final_snapshot": opt(B),
        "storage_type": oc(S, fill="gp2"),
        "username": oc(S, fill="postgres", force_new=True),
        **tags(),
    },
    blocks={},
)

GOOGLE_COMPUTE_INSTANCE = dict(
    attributes={
        "id": comp(S, fill="projects/$project/zones/$zone/instances/$id"),
        "allow_stopping_for_update": opt(B),
        "can_ip_forward": opt(B, force_new=True),
        "cpu_platform": comp(S, fill="Intel Broadwell"),
        "current_status": comp(S, fill="RUNNING"),
        "deletion_protection": opt(B),
        "description": opt(S, force_new=True),
        "desired_status": opt(S),
        "effective_labels": comp(mp(S), fill="$labels"),
        "enable_display": opt(B),
        "hostname": opt(S, force_new=True),
        "instance_id": comp(S, fill="$n$n$n$n"),
        "label_fingerprint": comp(S, fill="42WmSpB8rSM=", update_unknown=True),
        "labels": opt(mp(S)),
        "machine_type": req(S),
        "metadata": opt(mp(S)),
        "metadata_fingerprint": comp(S, fill="mdfp$id", update_unknown=True),
        "metadata_startup_script": opt(S, force_new=True),
        "min_cpu_platform": oc(S, fill=""),
        "name": req(S, force_new=True),
        "project": oc(S, fill="$project", force_new=True),
        "resource_policies": opt(lst(S)),
        "self_link": comp(S, fill="https://www.googleapis.com/compute/v1/projects/$project/zones/$zone/instances/$name"),
        "tags": opt(st(S)),
        "tags_fingerprint": comp(S, fill="tfp$id", update_unknown=True),
        "terraform_labels": comp(mp(S), fill="$labels"),
        "zone": oc(S, fill="$zone", force_new=True),
    },
    blocks={
        "boot_disk": blk(
            "list",
            {
                "auto_delete": opt(B, force_new=True),
                "device_name": oc(S, fill="persistent-disk-0", force_new=True),
                "disk_encryption_key_raw": opt(S, sensitive=True, force_new=True),
                "disk_encryption_key_sha256": comp(S, fill="", ),
                "kms_key_self_link": oc(S, fill="", force_new=True),
                "mode": opt(S, force_new=True),
                "source": oc(S, fill="projects/$project/zones/$zone/disks/$name", force_new=True),
            },
            {
                "initialize_params": blk(
                    "list",
                    {
                        "image": oc(S, fill="debian-cloud/debian-12", force_new=True),
                        "labels": oc(mp(S), fill={}, force_new=True),
                        "resource_manager_tags": opt(mp(S), force_new=True),
                        "size": oc(N, fill=10, force_new=True),
                        "type": oc(S, fill="pd-standard", force_new=True),
                    },
                    max_items=1,
                    computed_block=True,
                    force_new=True,
                ),
            },
            min_items=1,
            max_items=1,
        ),
        "network_interface": blk(
            "list",
            {
                "name": comp(S, fill="nic0"),
                "network": oc(S, fill="default", force_new=True),
                "network_ip": oc(S, fill="10.128.0.$n"),
                "stack_type": oc(S, fill="IPV4_ONLY"),
                "subnetwork": oc(S, fill="default"),
                "subnetwork_project": oc(S, fill="$project"),
            },
            {
                "access_config": blk(
                    "list",
                    {
                        "nat_ip": oc(S, fill="34.1.2.$n"),
                        "network_tier": oc(S, fill="PREMIUM"),
                        "public_ptr_domain_name": opt(S),
                    },
                ),
                "alias_ip_range": blk(
                    "list",
                    {"ip_cidr_range": req(S), "subnetwork_range_name": opt(S)},
                ),
            },
            min_items=1,
        ),
        "scheduling": blk(
            "list",
            {
                "automatic_restart": opt(B),
                "on_host_maintenance": oc(S, fill="MIGRATE"),
                "preemptible": opt(B, force_new=True),
                "provisioning_model": oc(S, fill="STANDARD", force_new=True),
            },
            max_items=1,
            computed_block=True,
        ),
        "guest_accelerator": blk(
            "list",
            {"count": req(N, force_new=True), "type": req(S, force_new=True)},
            force_new=True,
        ),
        "service_account": blk(
            "list",
            {"email": oc(S, fill="$n-compute@developer.gserviceaccount.com"), "scopes": req(st(S))},
            max_items=1,
        ),
        "attached_disk": blk(
            "list",
            {
                "device_name": oc(S, fill="persistent-disk-1"),
                "mode": opt(S),
                "source": req(S),
            },
        ),
    },
)

GOOGLE_COMPUTE_DISK = dict(
    attributes={
        "id": comp(S, fill="projects/$project/zones/$zone/disks/$name"),
        "creation_timestamp": comp(S, fill="2026-01-01T00:00:00.000-00:00"),
        "effective_labels": comp(mp(S), fill="$labels"),
        "image": opt(S, force_new=True),
        "labels": opt(mp(S)),
        "name": req(S, force_new=True),
        "physical_block_size_bytes": oc(N, fill=4096, force_new=True),
        "project": oc(S, fill="$project", force_new=True),
        "size": oc(N, fill=10),
        "type": opt(S, force_new=True),
        "zone": oc(S, fill="$zone", force_new=True),
        # Nested attributes (plugin-framework style), one per nesting mode.
        "disk_encryption_key": opt(
            None,
            nested=dict(
                nesting="single",
                attributes={
                    "raw_key": opt(S, sensitive=True),
                    "kms_key_self_link": opt(S),
                    "sha256": comp(S, fill="sha$id"),
                },
            ),
        ),
        "guest_os_features": opt(
            None, nested=dict(nesting="set", attributes={"type": req(S)})
        ),
        "async_replicas": opt(
            None,
            nested=dict(nesting="list", attributes={"disk": req(S), "state": comp(S, fill="ACTIVE")}),
        ),
        "resource_policies": opt(
            None, nested=dict(nesting="map", attributes={"policy": req(S), "weight": opt(N)})
        ),
    },
    blocks={},
)

AZURERM_LINUX_VM = dict(
    attributes={
        "id": comp(S, fill="/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/$rg/providers/Microsoft.Compute/virtualMachines/$name"),
        "admin_password": opt(S, sensitive=True, force_new=True),
        "admin_username": req(S, force_new=True),
        "computer_name": oc(S, fill="$name", force_new=True),
        "disable_password_authentication": opt(B, force_new=True),
        "location": req(S, force_new=True),
        "name": req(S, force_new=True),
        "network_interface_ids": req(lst(S)),
        "private_ip_address": comp(S, fill="10.0.2.$n"),
        "private_ip_addresses": comp(lst(S), fill=["10.0.2.$n"]),
        "public_ip_address": comp(S, fill=""),
        "resource_group_name": req(S, force_new=True),
        "size": req(S),
        "tags": opt(mp(S)),
        "virtual_machine_id": comp(S, fill="vmid-$id"),
        "zone": opt(S, force_new=True),
    },
    blocks={
        "os_disk": blk(
            "list",
            {
                "caching": req(S),
                "disk_size_gb": oc(N, fill=30),
                "name": oc(S, fill="$name_OsDisk_1", force_new=True),
                "storage_account_type": opt(S, force_new=True),
                "write_accelerator_enabled": opt(B),
            },
            min_items=1,
            max_items=1,
        ),
        "source_image_reference": blk(
            "list",
            {"offer": req(S), "publisher": req(S), "sku": req(S), "version": req(S)},
            max_items=1,
            force_new=True,
        ),
        "admin_ssh_key": blk(
            "set", {"public_key": req(S), "username": req(S)}, force_new=True
        ),
        "identity": blk(
            "list",
            {
                "identity_ids": opt(st(S)),
                "principal_id": comp(S, fill="pid-$id"),
                "tenant_id": comp(S, fill="tid-$id"),
                "type": req(S),
            },
            max_items=1,
        ),
        "additional_capabilities": blk("group", {"ultra_ssd_enabled": opt(B)}),
        "gallery_application": blk(
            "map", {"version_id": req(S), "order": opt(N)}
        ),
        "timeouts": blk("single", {"create": opt(S), "delete": opt(S), "update": opt(S)}),
    },
)

AZURERM_MANAGED_DISK = dict(
    attributes={
        "id": comp(S, fill="/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/$rg/providers/Microsoft.Compute/disks/$name"),
        "create_option": req(S, force_new=True),
        "disk_size_gb": oc(N, fill=32),
        "disk_iops_read_write": oc(N, fill=500),
        "location": req(S, force_new=True),
        "name": req(S, force_new=True),
        "resource_group_name": req(S, force_new=True),
        "storage_account_type": req(S),
        "tags": opt(mp(S)),
    },
    blocks={},
)

PROVIDERS = {
    "aws": dict(
        config=dict(
            attributes={
                "region": opt(S),
                "access_key": opt(S),
                "secret_key": opt(S, sensitive=True),
                "skip_credentials_validation": opt(B),
            },
            blocks={"default_tags": blk("list", {"tags": opt(mp(S))}, max_items=1)},
        ),
        defaults={"region": "us-east-1"},
        resources={
            "aws_instance": AWS_INSTANCE,
            "aws_ebs_volume": AWS_EBS_VOLUME,
            "aws_db_instance": AWS_DB_INSTANCE,
        },
    ),
    "google": dict(
        config=dict(
            attributes={"project": opt(S), "region": opt(S), "zone": opt(S), "credentials": opt(S, sensitive=True)},
            blocks={},
        ),
        defaults={"project": "my-project", "region": "us-central1", "zone": "us-central1-a"},
        resources={
            "google_compute_instance": GOOGLE_COMPUTE_INSTANCE,
            "google_compute_disk": GOOGLE_COMPUTE_DISK,
        },
    ),
    "azurerm": dict(
        config=dict(
            attributes={"subscription_id": opt(S), "location": opt(S), "skip_provider_registration": opt(B)},
            blocks={"features": blk("list", {}, max_items=1)},
        ),
        defaults={"location": "westeurope"},
        resources={
            "azurerm_linux_virtual_machine": AZURERM_LINUX_VM,
            "azurerm_managed_disk": AZURERM_MANAGED_DISK,
        },
    ),
}
