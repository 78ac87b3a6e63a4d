#!/usr/bin/env python3
"""Generate large synthetic `tofu show -json` / `terraform show -json` plans.

The shapes follow the real plans in /work/shared/plans (infracost AWS/Azure, carbonifer GCP,
terraform-json testdata) and Terraform/OpenTofu's JSON output format 1.2:

  * resource_changes (create, update, delete, replace both orders, no-op, read) with
    after_unknown, before_sensitive/after_sensitive, replace_paths, action_reason,
    previous_address (moved), deposed objects, importing;
  * planned_values and prior_state as module trees (root_module + nested child_modules,
    0-3 module levels, count and for_each module instances);
  * configuration: provider_config (regions, aliases, a region given by reference, a provider
    block inside a module), module_calls with count/for_each expressions, resources with
    constant_value / references expressions, variables, outputs;
  * variables, output_changes (including a sensitive one and an unknown one), resource_drift,
    relevant_attributes, checks.

Every sensitive value contains a marker `SECRET-<16 hex>`; the markers are written one per line
to `<plan>.secrets` so tests can grep a rendering for leaks.

Python 3.11 standard library only. Same --seed and --resources give byte-identical output.

  python3 scripts/gen-plan/gen_plan.py --resources 10000 --seed 1 -o plan-10k.json
  python3 scripts/gen-plan/gen_plan.py --output-dir target/bench --sizes 1000,10000,50000
  python3 scripts/gen-plan/gen_plan.py --validate plan-10k.json
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import random
import sys
import time

FORMAT_VERSION = "1.2"
TOFU_VERSION = "1.8.3"
TIMESTAMP = "2026-11-23T05:00:00Z"

PROVIDERS = {
    "aws": "registry.opentofu.org/hashicorp/aws",
    "google": "registry.opentofu.org/hashicorp/google",
    "azurerm": "registry.opentofu.org/hashicorp/azurerm",
}

# Root provider configurations: key -> (provider, alias, region or None, region reference)
ROOT_PROVIDER_CONFIGS = [
    ("aws", None, "us-east-1", None),
    ("aws.eu", "eu", "eu-west-1", None),
    ("aws.frankfurt", "frankfurt", "eu-central-1", None),
    ("aws.apac", "apac", "ap-southeast-2", None),
    ("aws.oregon", "oregon", "us-west-2", None),
    # region only known through a variable: the value is in .variables, not in the expression
    ("aws.dyn", "dyn", None, "var.secondary_region"),
    ("google", None, "europe-west9", None),
    ("google.us", "us", "us-central1", None),
    ("google.belgium", "belgium", "europe-west1", None),
    ("google.tokyo", "tokyo", "asia-northeast1", None),
    ("azurerm", None, None, None),
]
SECONDARY_REGION = "ca-central-1"
# a module that declares its own provider block (legacy pattern): key "module.<name>:aws"
LEGACY_MODULE_REGION = "sa-east-1"

AWS_REGION_OF = {k: r for k, _, r, _ in ROOT_PROVIDER_CONFIGS if k.startswith("aws")}
AWS_REGION_OF["aws.dyn"] = SECONDARY_REGION
GCP_REGION_OF = {k: r for k, _, r, _ in ROOT_PROVIDER_CONFIGS if k.startswith("google")}
AZURE_LOCATIONS = ["westeurope", "northeurope", "eastus", "eastus2", "uksouth", "swedencentral",
                   "francecentral", "germanywestcentral", "westus2", "australiaeast"]

EC2_TYPES = ["t3.micro", "t3.medium", "t3a.large", "m5.large", "m5.xlarge", "m6i.large",
             "m6i.2xlarge", "c6i.2xlarge", "c5.4xlarge", "r5.large", "r6g.xlarge", "t4g.small",
             "m7g.medium", "g4dn.xlarge", "p3.2xlarge", "c7g.large", "i3.large"]
RDS_CLASSES = ["db.t3.micro", "db.t3.medium", "db.m5.large", "db.m6i.2xlarge", "db.r6g.xlarge",
               "db.r5.large", "db.m6g.large"]
GCE_TYPES = ["n2-standard-4", "e2-medium", "e2-standard-2", "e2-micro", "n1-standard-2",
             "c2-standard-8", "n2d-highmem-4", "t2d-standard-1", "n2-standard-8",
             "e2-highcpu-4", "a2-highgpu-1g", "c3-standard-4"]
SQL_TIERS = ["db-f1-micro", "db-g1-small", "db-custom-2-7680", "db-n1-standard-4",
             "db-custom-4-15360"]
AZ_SIZES = ["Standard_D2s_v5", "Standard_D4s_v5", "Standard_B2s", "Standard_E4s_v5",
            "Standard_F8s_v2", "Standard_D8as_v5", "Standard_B1ms", "Standard_D2s_v3",
            "Standard_NC6s_v3", "Standard_E8ds_v5"]
AKS_SIZES = ["Standard_D4s_v5", "Standard_D8s_v5", "Standard_E4s_v5", "Standard_D4as_v5"]
EBS_TYPES = ["gp3", "gp2", "io2", "st1", "sc1"]
PD_TYPES = ["pd-balanced", "pd-ssd", "pd-standard"]
AZ_DISK_TYPES = ["Premium_LRS", "StandardSSD_LRS", "Standard_LRS", "Premium_ZRS"]

# for_each keys that a parser must escape/unescape correctly
AWKWARD_KEYS = ["web.prod", "eu-west-1.a", 'team "blue"', "v1.2.3", "api/internal",
                "with space", "ünïcødé", "back\\slash", "a.b.c.d", "x[0]", "tab\there",
                "dollar-${literal}"]
PLAIN_KEYS = ["blue", "green", "alpha", "beta", "gamma", "primary", "secondary", "canary",
              "batch", "frontend", "backend", "worker", "cache", "queue", "search"]

WORDS = ["app", "web", "api", "db", "cache", "worker", "batch", "etl", "auth", "billing",
         "search", "media", "edge", "ml", "ingest", "report", "queue", "stream", "core", "ops"]


def hcl_quote(s: str) -> str:
    """Quote a for_each key the way Terraform/OpenTofu print it in an address."""
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\":
            out.append("\\\\")
        elif c == '"':
            out.append('\\"')
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif c in "$%" and i + 1 < len(s) and s[i + 1] == "{":
            out.append(c + c)
        else:
            out.append(c)
        i += 1
    return '"' + "".join(out) + '"'


def key_suffix(index) -> str:
    if index is None:
        return ""
    if isinstance(index, int):
        return f"[{index}]"
    return "[" + hcl_quote(index) + "]"


class Gen:
    def __init__(self, n: int, seed: int):
        self.n = n
        self.rng = random.Random(seed)
        self.secrets: list[str] = []
        self.serial = 0

    # ---- small helpers -------------------------------------------------------------------
    def hex(self, k: int) -> str:
        return "%0*x" % (k, self.rng.getrandbits(4 * k))

    def secret(self, prefix: str = "") -> str:
        m = "SECRET-" + self.hex(16)
        self.secrets.append(m)
        return prefix + m

    def word(self) -> str:
        return self.rng.choice(WORDS)

    def tags(self, name: str) -> dict:
        t = {"Name": name, "env": self.rng.choice(["prod", "staging", "dev"]),
             "team": self.word()}
        if self.rng.random() < 0.3:
            t["managed-by"] = "opentofu"
        return t

    def next_id(self) -> int:
        self.serial += 1
        return self.serial

    # ---- resource kinds ------------------------------------------------------------------
    # Each returns a dict:
    #   values:    full known state (what a no-op shows in before/after)
    #   computed:  paths (tuples) unknown until apply on create/replace
    #   sensitive: sensitive mask (same shape as values; True on sensitive leaves/blocks)
    #   config:    top-level attribute names written in configuration (constant_value)
    #   refs:      attribute -> list of references (expression references)
    #   update:    list of (attribute, new value) candidates for an in-place update
    #   replace:   (attribute, new value) forcing replacement
    #   unknown_ok: attributes that may be unknown at plan time even though configured

    def aws_instance(self, ctx):
        az = ctx["region"] + self.rng.choice("abc")
        name = f"{ctx['name']}-{self.next_id()}"
        it = self.rng.choice(EC2_TYPES)
        iid = "i-0" + self.hex(16)
        v = {
            "ami": "ami-0" + self.hex(16),
            "arn": f"arn:aws:ec2:{ctx['region']}:123456789012:instance/{iid}",
            "associate_public_ip_address": self.rng.random() < 0.3,
            "availability_zone": az,
            "ebs_optimized": True,
            "id": iid,
            "instance_type": it,
            "monitoring": self.rng.random() < 0.5,
            "private_ip": "10.%d.%d.%d" % (self.rng.randrange(256), self.rng.randrange(256),
                                           self.rng.randrange(1, 255)),
            "root_block_device": [{
                "delete_on_termination": True, "encrypted": True, "iops": 3000,
                "throughput": 125, "volume_id": "vol-0" + self.hex(16),
                "volume_size": self.rng.choice([8, 20, 30, 50, 100]),
                "volume_type": self.rng.choice(["gp3", "gp2"]), "tags": None}],
            "ebs_block_device": [],
            "subnet_id": "subnet-0" + self.hex(8),
            "tags": self.tags(name),
            "user_data": None,
            "vpc_security_group_ids": ["sg-0" + self.hex(8)],
        }
        v["tags_all"] = dict(v["tags"])
        sens = {"ebs_block_device": [], "root_block_device": [{}], "tags": {}, "tags_all": {},
                "vpc_security_group_ids": [False]}
        if self.rng.random() < 0.5:
            for i in range(self.rng.choice([1, 1, 2, 3])):
                v["ebs_block_device"].append({
                    "device_name": "/dev/sd" + "fghij"[i], "encrypted": True,
                    "volume_id": "vol-0" + self.hex(16),
                    "volume_size": self.rng.choice([50, 100, 200, 500, 1000]),
                    "volume_type": self.rng.choice(EBS_TYPES), "tags": {}})
                sens["ebs_block_device"].append({"tags": {}})
        if self.rng.random() < 0.25:
            v["user_data"] = ("#!/bin/bash\nexport DB_PASSWORD='" + self.secret() +
                              "'\nsystemctl start app\n")
            sens["user_data"] = True
        return {
            "values": v,
            "computed": [("arn",), ("id",), ("private_ip",), ("tags_all",),
                         ("root_block_device", 0, "volume_id"),
                         *[("ebs_block_device", i, "volume_id")
                           for i in range(len(v["ebs_block_device"]))],
                         ("root_block_device", 0, "iops"), ("root_block_device", 0, "throughput")],
            "sensitive": sens,
            "config": ["instance_type", "monitoring", "tags", "root_block_device",
                       "ebs_block_device"],
            "refs": {"ami": ["data.aws_ami.ubuntu.id", "data.aws_ami.ubuntu"],
                     "user_data": ["var.bootstrap"],
                     "subnet_id": ["var.subnet_id"],
                     "vpc_security_group_ids": ["aws_security_group.this.id",
                                                "aws_security_group.this"]},
            "update": [("instance_type", self.rng.choice(EC2_TYPES)),
                       ("tags", {**v["tags"], "env": "prod", "owner": "platform"}),
                       ("monitoring", not v["monitoring"])],
            "replace": ("ami", "ami-0" + self.hex(16)),
            "unknown_ok": ["instance_type", "availability_zone"],
        }

    def aws_ebs_volume(self, ctx):
        vid = "vol-0" + self.hex(16)
        typ = self.rng.choice(EBS_TYPES)
        size = self.rng.choice([20, 100, 250, 500, 1000, 2000, 4000])
        v = {"arn": f"arn:aws:ec2:{ctx['region']}:123456789012:volume/{vid}",
             "availability_zone": ctx["region"] + self.rng.choice("abc"),
             "encrypted": True, "final_snapshot": False, "id": vid,
             "iops": 3000 if typ in ("gp3", "io2") else 0, "kms_key_id": "",
             "multi_attach_enabled": False, "size": size, "snapshot_id": "",
             "tags": self.tags(f"{ctx['name']}-data"), "throughput": 125 if typ == "gp3" else 0,
             "type": typ}
        v["tags_all"] = dict(v["tags"])
        return {"values": v, "computed": [("arn",), ("id",), ("kms_key_id",), ("tags_all",)],
                "sensitive": {"tags": {}, "tags_all": {}},
                "config": ["availability_zone", "size", "type", "encrypted", "tags"],
                "refs": {}, "update": [("size", size * 2), ("type", "gp3")],
                "replace": ("availability_zone", ctx["region"] + "c"),
                "unknown_ok": ["size"]}

    def aws_db_instance(self, ctx):
        ident = f"{ctx['name']}-db-{self.next_id()}"
        size = self.rng.choice([20, 100, 500, 1000])
        v = {"address": f"{ident}.c{self.hex(10)}.{ctx['region']}.rds.amazonaws.com",
             "allocated_storage": size, "arn": f"arn:aws:rds:{ctx['region']}:123456789012:db:{ident}",
             "backup_retention_period": 7, "db_name": "app", "deletion_protection": True,
             "engine": self.rng.choice(["postgres", "mysql", "aurora-postgresql"]),
             "engine_version": "15.4", "id": "db-" + self.hex(20).upper(), "identifier": ident,
             "instance_class": self.rng.choice(RDS_CLASSES), "iops": 0,
             "multi_az": self.rng.random() < 0.5,
             "password": self.secret("pw-"), "port": 5432, "publicly_accessible": False,
             "storage_encrypted": True, "storage_type": self.rng.choice(["gp3", "gp2", "io1"]),
             "tags": self.tags(ident), "username": "app_admin",
             "vpc_security_group_ids": ["sg-0" + self.hex(8)]}
        v["tags_all"] = dict(v["tags"])
        return {"values": v,
                "computed": [("address",), ("arn",), ("id",), ("tags_all",)],
                "sensitive": {"password": True, "tags": {}, "tags_all": {},
                              "vpc_security_group_ids": [False]},
                "config": ["allocated_storage", "engine", "engine_version", "instance_class",
                           "multi_az", "storage_type", "identifier", "tags"],
                "refs": {"password": ["var.db_password"],
                         "vpc_security_group_ids": ["aws_security_group.this.id",
                                                    "aws_security_group.this"]},
                "update": [("instance_class", self.rng.choice(RDS_CLASSES)),
                           ("multi_az", not v["multi_az"]), ("allocated_storage", size * 2)],
                "replace": ("identifier", ident + "-v2"), "unknown_ok": []}

    def aws_launch_template(self, ctx):
        lid = "lt-0" + self.hex(16)
        v = {"arn": f"arn:aws:ec2:{ctx['region']}:123456789012:launch-template/{lid}",
             "block_device_mappings": [{"device_name": "/dev/xvda", "ebs": [{
                 "delete_on_termination": "true", "encrypted": "true",
                 "volume_size": self.rng.choice([20, 50, 100]), "volume_type": "gp3"}]}],
             "default_version": 1, "id": lid, "image_id": "ami-0" + self.hex(16),
             "instance_type": self.rng.choice(EC2_TYPES), "latest_version": 1,
             "name": f"{ctx['name']}-lt-{self.next_id()}", "tags": {},
             "user_data": self.secret("IyEvYmluL2Jhc2gK")}
        v["tags_all"] = {}
        return {"values": v, "computed": [("arn",), ("id",), ("latest_version",), ("tags_all",)],
                "sensitive": {"block_device_mappings": [{"ebs": [{}]}], "tags": {},
                              "tags_all": {}, "user_data": True},
                "config": ["block_device_mappings", "instance_type", "name"],
                "refs": {"image_id": ["data.aws_ami.ubuntu.id", "data.aws_ami.ubuntu"],
                         "user_data": ["var.bootstrap"]},
                "update": [("instance_type", self.rng.choice(EC2_TYPES))],
                "replace": ("name", v["name"] + "-v2"), "unknown_ok": []}

    def aws_autoscaling_group(self, ctx):
        name = f"{ctx['name']}-asg-{self.next_id()}"
        mn = self.rng.choice([1, 2, 3])
        des = mn + self.rng.randrange(0, 6)
        v = {"arn": f"arn:aws:autoscaling:{ctx['region']}:123456789012:autoScalingGroup:{self.hex(8)}",
             "availability_zones": [ctx["region"] + "a", ctx["region"] + "b"],
             "desired_capacity": des, "health_check_type": "EC2", "id": name,
             "launch_template": [{"id": "lt-0" + self.hex(16), "name": name + "-lt",
                                  "version": "$Latest"}],
             "max_size": des + 4, "min_size": mn, "name": name,
             "tag": [{"key": "team", "propagate_at_launch": True, "value": self.word()}],
             "vpc_zone_identifier": ["subnet-0" + self.hex(8), "subnet-0" + self.hex(8)]}
        return {"values": v, "computed": [("arn",), ("id",), ("launch_template", 0, "id")],
                "sensitive": {"availability_zones": [False, False], "launch_template": [{}],
                              "tag": [{}], "vpc_zone_identifier": [False, False]},
                "config": ["desired_capacity", "max_size", "min_size", "name", "tag"],
                "refs": {"launch_template": ["aws_launch_template.this.id",
                                             "aws_launch_template.this"],
                         "vpc_zone_identifier": ["var.subnet_ids"]},
                "update": [("desired_capacity", des + 2), ("max_size", des + 10)],
                "replace": ("name", name + "-v2"), "unknown_ok": ["desired_capacity"]}

    def aws_security_group(self, ctx):
        sid = "sg-0" + self.hex(16)
        v = {"arn": f"arn:aws:ec2:{ctx['region']}:123456789012:security-group/{sid}",
             "description": "Managed by OpenTofu", "id": sid,
             "ingress": [{"cidr_blocks": ["10.0.0.0/8"], "description": "internal",
                          "from_port": 443, "ipv6_cidr_blocks": [], "prefix_list_ids": [],
                          "protocol": "tcp", "security_groups": [], "self": False,
                          "to_port": 443}],
             "name": f"{ctx['name']}-sg-{self.next_id()}", "vpc_id": "vpc-0" + self.hex(8),
             "tags": {}}
        v["tags_all"] = {}
        return {"values": v, "computed": [("arn",), ("id",), ("tags_all",)],
                "sensitive": {"ingress": [{"cidr_blocks": [False], "ipv6_cidr_blocks": [],
                                           "prefix_list_ids": [], "security_groups": []}],
                              "tags": {}, "tags_all": {}},
                "config": ["description", "ingress", "name"],
                "refs": {"vpc_id": ["var.vpc_id"]},
                "update": [("description", "Managed by OpenTofu (platform)")],
                "replace": ("name", v["name"] + "-v2"), "unknown_ok": []}

    def aws_iam_role(self, ctx):
        name = f"{ctx['name']}-role-{self.next_id()}"
        doc = json.dumps({"Version": "2012-10-17", "Statement": [{
            "Action": "sts:AssumeRole", "Effect": "Allow",
            "Principal": {"Service": "ec2.amazonaws.com"}}]}, separators=(",", ":"))
        v = {"arn": f"arn:aws:iam::123456789012:role/{name}", "assume_role_policy": doc,
             "id": name, "max_session_duration": 3600, "name": name, "path": "/",
             "unique_id": "AROA" + self.hex(16).upper(), "tags": {}}
        v["tags_all"] = {}
        return {"values": v, "computed": [("arn",), ("id",), ("unique_id",), ("tags_all",)],
                "sensitive": {"tags": {}, "tags_all": {}},
                "config": ["assume_role_policy", "name", "path"], "refs": {},
                "update": [("max_session_duration", 7200)],
                "replace": ("name", name + "-v2"), "unknown_ok": []}

    def aws_iam_role_policy_attachment(self, ctx):
        v = {"id": f"{ctx['name']}-role-{self.hex(8)}",
             "policy_arn": "arn:aws:iam::aws:policy/" + self.rng.choice(
                 ["AmazonSSMManagedInstanceCore", "CloudWatchAgentServerPolicy",
                  "AmazonEC2ContainerRegistryReadOnly"]),
             "role": f"{ctx['name']}-role"}
        return {"values": v, "computed": [("id",)], "sensitive": {}, "config": ["policy_arn"],
                "refs": {"role": ["aws_iam_role.this.name", "aws_iam_role.this"]},
                "update": [], "replace": ("role", v["role"] + "-v2"), "unknown_ok": []}

    def google_compute_instance(self, ctx):
        zone = ctx["region"] + "-" + self.rng.choice("abc")
        name = f"{ctx['name']}-vm-{self.next_id()}"
        mt = self.rng.choice(GCE_TYPES)
        v = {"boot_disk": [{"auto_delete": True, "device_name": "persistent-disk-0",
                            "disk_encryption_key_raw": None,
                            "initialize_params": [{
                                "image": "debian-cloud/debian-12",
                                "labels": {}, "size": self.rng.choice([10, 20, 50, 100, 564]),
                                "type": self.rng.choice(PD_TYPES)}],
                            "mode": "READ_WRITE",
                            "source": f"projects/acme-prod/zones/{zone}/disks/{name}"}],
             "can_ip_forward": False, "deletion_protection": False,
             "guest_accelerator": [], "id": f"projects/acme-prod/zones/{zone}/instances/{name}",
             "instance_id": str(self.rng.randrange(10**18, 10**19)),
             "labels": {"team": self.word(), "env": self.rng.choice(["prod", "dev"])},
             "machine_type": mt, "metadata": {"enable-oslogin": "TRUE"},
             "name": name,
             "network_interface": [{"access_config": [], "network": "default",
                                    "network_ip": "10.132.0.%d" % self.rng.randrange(2, 250),
                                    "subnetwork": "default"}],
             "project": "acme-prod", "scratch_disk": [],
             "service_account": [], "tags": ["ssh", "web"], "zone": zone}
        if mt.startswith("n1-") and self.rng.random() < 0.3:
            v["guest_accelerator"] = [{"count": self.rng.choice([1, 2]), "type": "nvidia-tesla-t4"}]
        sens = {"boot_disk": [{"disk_encryption_key_raw": True,
                               "initialize_params": [{"labels": {}}]}],
                "guest_accelerator": [{}] * len(v["guest_accelerator"]),
                "labels": {}, "metadata": {}, "network_interface": [{"access_config": []}],
                "scratch_disk": [], "service_account": [], "tags": [False, False]}
        if self.rng.random() < 0.1:
            v["scratch_disk"] = [{"interface": "NVME", "size": 375}]
            sens["scratch_disk"] = [{}]
        return {"values": v,
                "computed": [("id",), ("instance_id",),
                             ("boot_disk", 0, "source"), ("boot_disk", 0, "device_name"),
                             ("network_interface", 0, "network_ip"), ("project",)],
                "sensitive": sens,
                "config": ["machine_type", "zone", "name", "boot_disk", "labels", "tags",
                           "guest_accelerator", "scratch_disk"],
                "refs": {"network_interface": ["google_compute_network.vpc.id",
                                               "google_compute_network.vpc"]},
                "update": [("machine_type", self.rng.choice(GCE_TYPES)),
                           ("labels", {**v["labels"], "env": "prod", "owner": "sre"})],
                "replace": ("name", name + "-v2"), "unknown_ok": ["machine_type", "zone"]}

    def google_compute_disk(self, ctx):
        zone = ctx["region"] + "-" + self.rng.choice("abc")
        name = f"{ctx['name']}-disk-{self.next_id()}"
        v = {"id": f"projects/acme-prod/zones/{zone}/disks/{name}", "labels": {},
             "name": name, "physical_block_size_bytes": 4096, "project": "acme-prod",
             "self_link": f"https://www.googleapis.com/compute/v1/projects/acme-prod/zones/{zone}/disks/{name}",
             "size": self.rng.choice([10, 100, 250, 500, 1000, 2048]),
             "type": self.rng.choice(PD_TYPES), "zone": zone}
        return {"values": v, "computed": [("id",), ("self_link",), ("project",)],
                "sensitive": {"labels": {}}, "config": ["name", "size", "type", "zone"],
                "refs": {}, "update": [("size", v["size"] * 2)],
                "replace": ("type", "pd-ssd" if v["type"] != "pd-ssd" else "pd-balanced"),
                "unknown_ok": ["size"]}

    def google_compute_instance_template(self, ctx):
        name = f"{ctx['name']}-tpl-{self.next_id()}"
        v = {"disk": [{"auto_delete": True, "boot": True,
                       "disk_size_gb": self.rng.choice([20, 50, 100]),
                       "disk_type": self.rng.choice(PD_TYPES),
                       "source_image": "projects/debian-cloud/global/images/family/debian-12"}],
             "id": f"projects/acme-prod/global/instanceTemplates/{name}",
             "machine_type": self.rng.choice(GCE_TYPES), "name": name,
             "network_interface": [{"network": "default", "access_config": []}],
             "project": "acme-prod", "region": ctx["region"],
             "self_link": f"https://www.googleapis.com/compute/v1/projects/acme-prod/global/instanceTemplates/{name}"}
        return {"values": v, "computed": [("id",), ("self_link",), ("project",)],
                "sensitive": {"disk": [{}], "network_interface": [{"access_config": []}]},
                "config": ["disk", "machine_type", "name"], "refs": {}, "update": [],
                "replace": ("machine_type", self.rng.choice(GCE_TYPES)), "unknown_ok": []}

    def google_compute_region_instance_group_manager(self, ctx):
        name = f"{ctx['name']}-mig-{self.next_id()}"
        r = ctx["region"]
        v = {"base_instance_name": name, "distribution_policy_zones": [r + "-a", r + "-b"],
             "id": f"projects/acme-prod/regions/{r}/instanceGroupManagers/{name}",
             "name": name, "project": "acme-prod", "region": r,
             "target_size": self.rng.choice([1, 2, 3, 5, 8, 12]),
             "version": [{"instance_template": f"projects/acme-prod/global/instanceTemplates/{name}-tpl",
                          "name": "primary", "target_size": []}],
             "wait_for_instances": False}
        return {"values": v, "computed": [("id",), ("project",), ("version", 0, "instance_template")],
                "sensitive": {"distribution_policy_zones": [False, False],
                              "version": [{"target_size": []}]},
                "config": ["base_instance_name", "name", "region", "target_size"],
                "refs": {"version": ["google_compute_instance_template.this.id",
                                     "google_compute_instance_template.this"]},
                "update": [("target_size", v["target_size"] + 2)],
                "replace": ("name", name + "-v2"), "unknown_ok": ["target_size"]}

    def google_sql_database_instance(self, ctx):
        name = f"{ctx['name']}-sql-{self.next_id()}"
        v = {"connection_name": f"acme-prod:{ctx['region']}:{name}",
             "database_version": self.rng.choice(["POSTGRES_15", "MYSQL_8_0"]),
             "deletion_protection": True, "id": name, "name": name, "project": "acme-prod",
             "region": ctx["region"], "root_password": self.secret("root-"),
             "settings": [{"activation_policy": "ALWAYS",
                           "availability_type": self.rng.choice(["ZONAL", "REGIONAL"]),
                           "disk_autoresize": True,
                           "disk_size": self.rng.choice([10, 100, 500]),
                           "disk_type": self.rng.choice(["PD_SSD", "PD_HDD"]),
                           "tier": self.rng.choice(SQL_TIERS), "user_labels": {}}]}
        return {"values": v, "computed": [("connection_name",), ("id",), ("project",)],
                "sensitive": {"root_password": True, "settings": [{"user_labels": {}}]},
                "config": ["database_version", "name", "region", "settings"],
                "refs": {"root_password": ["var.db_password"]},
                "update": [("settings", [{**v["settings"][0], "tier": self.rng.choice(SQL_TIERS)}])],
                "replace": ("database_version", "POSTGRES_16"), "unknown_ok": []}

    def google_container_node_pool(self, ctx):
        name = f"{ctx['name']}-pool-{self.next_id()}"
        v = {"autoscaling": [{"max_node_count": 10, "min_node_count": 1,
                              "location_policy": "BALANCED"}],
             "cluster": f"{ctx['name']}-gke", "id": f"projects/acme-prod/locations/{ctx['region']}/clusters/{ctx['name']}-gke/nodePools/{name}",
             "location": ctx["region"], "name": name,
             "node_config": [{"disk_size_gb": self.rng.choice([50, 100, 200]),
                              "disk_type": self.rng.choice(PD_TYPES),
                              "machine_type": self.rng.choice(GCE_TYPES),
                              "oauth_scopes": ["https://www.googleapis.com/auth/cloud-platform"],
                              "labels": {}, "preemptible": False, "spot": self.rng.random() < 0.2}],
             "node_count": self.rng.choice([1, 2, 3, 4]), "project": "acme-prod"}
        return {"values": v, "computed": [("id",), ("project",)],
                "sensitive": {"autoscaling": [{}], "node_config": [{"labels": {},
                                                                     "oauth_scopes": [False]}]},
                "config": ["location", "name", "node_config", "node_count", "autoscaling"],
                "refs": {"cluster": ["google_container_cluster.this.name",
                                     "google_container_cluster.this"]},
                "update": [("node_count", v["node_count"] + 1)],
                "replace": ("name", name + "-v2"), "unknown_ok": ["node_count"]}

    def google_compute_firewall(self, ctx):
        name = f"{ctx['name']}-fw-{self.next_id()}"
        v = {"allow": [{"ports": ["443"], "protocol": "tcp"}], "direction": "INGRESS",
             "id": f"projects/acme-prod/global/firewalls/{name}", "name": name,
             "network": "default", "priority": 1000, "project": "acme-prod",
             "source_ranges": ["10.0.0.0/8"]}
        return {"values": v, "computed": [("id",), ("project",)],
                "sensitive": {"allow": [{"ports": [False]}], "source_ranges": [False]},
                "config": ["allow", "name", "network", "source_ranges"], "refs": {},
                "update": [("priority", 900)], "replace": ("name", name + "-v2"),
                "unknown_ok": []}

    def azurerm_linux_virtual_machine(self, ctx):
        name = f"{ctx['name']}-vm-{self.next_id()}"
        rg = f"rg-{ctx['name']}"
        v = {"admin_username": "azureuser",
             "admin_password": self.secret("Az!") if self.rng.random() < 0.3 else None,
             "admin_ssh_key": [{"public_key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5" + self.secret(),
                                "username": "azureuser"}],
             "custom_data": None,
             "id": f"/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/{rg}/providers/Microsoft.Compute/virtualMachines/{name}",
             "location": ctx["location"], "name": name,
             "network_interface_ids": [f"/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/{rg}/providers/Microsoft.Network/networkInterfaces/{name}-nic"],
             "os_disk": [{"caching": "ReadWrite",
                          "disk_size_gb": self.rng.choice([30, 64, 128, 256]),
                          "name": f"{name}-osdisk",
                          "storage_account_type": self.rng.choice(AZ_DISK_TYPES)}],
             "resource_group_name": rg, "size": self.rng.choice(AZ_SIZES),
             "source_image_reference": [{"offer": "0001-com-ubuntu-server-jammy",
                                         "publisher": "Canonical", "sku": "22_04-lts-gen2",
                                         "version": "latest"}],
             "tags": {"env": self.rng.choice(["prod", "dev"])}, "zone": self.rng.choice(["1", "2", "3", None])}
        # the whole admin_ssh_key block is sensitive (one whole sensitive nested block)
        sens = {"admin_ssh_key": True, "network_interface_ids": [False], "os_disk": [{}],
                "source_image_reference": [{}], "tags": {}}
        if v["admin_password"] is not None:
            sens["admin_password"] = True
        if self.rng.random() < 0.2:
            v["custom_data"] = self.secret("I2Nsb3VkLWNvbmZpZwo")
            sens["custom_data"] = True
        return {"values": v, "computed": [("id",), ("os_disk", 0, "name")], "sensitive": sens,
                "config": ["admin_username", "location", "name", "os_disk", "size",
                           "source_image_reference", "tags", "zone", "resource_group_name"],
                "refs": {"admin_ssh_key": ["var.ssh_public_key"],
                         "admin_password": ["var.vm_password"],
                         "network_interface_ids": ["azurerm_network_interface.this.id",
                                                   "azurerm_network_interface.this"]},
                "update": [("size", self.rng.choice(AZ_SIZES)),
                           ("tags", {**v["tags"], "owner": "infra"})],
                "replace": ("zone", "2" if v["zone"] != "2" else "3"),
                "unknown_ok": ["location"]}

    def azurerm_managed_disk(self, ctx):
        name = f"{ctx['name']}-disk-{self.next_id()}"
        rg = f"rg-{ctx['name']}"
        v = {"create_option": "Empty",
             "disk_size_gb": self.rng.choice([32, 128, 512, 1024, 4096]),
             "id": f"/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/{rg}/providers/Microsoft.Compute/disks/{name}",
             "location": ctx["location"], "name": name, "resource_group_name": rg,
             "storage_account_type": self.rng.choice(AZ_DISK_TYPES), "tags": {}}
        return {"values": v, "computed": [("id",)], "sensitive": {"tags": {}},
                "config": ["create_option", "disk_size_gb", "location", "name",
                           "storage_account_type", "resource_group_name"],
                "refs": {}, "update": [("disk_size_gb", v["disk_size_gb"] * 2)],
                "replace": ("create_option", "Copy"), "unknown_ok": ["disk_size_gb"]}

    def azurerm_kubernetes_cluster_node_pool(self, ctx):
        name = "np" + self.hex(6)
        v = {"enable_auto_scaling": self.rng.random() < 0.5,
             "id": f"/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-{ctx['name']}/providers/Microsoft.ContainerService/managedClusters/aks-{ctx['name']}/agentPools/{name}",
             "kubernetes_cluster_id": f"/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-{ctx['name']}/providers/Microsoft.ContainerService/managedClusters/aks-{ctx['name']}",
             "max_count": None, "min_count": None, "mode": "User", "name": name,
             "node_count": self.rng.choice([1, 2, 3, 5]), "os_disk_size_gb": 128,
             "os_disk_type": "Managed", "os_type": "Linux", "priority": "Regular",
             "tags": {}, "vm_size": self.rng.choice(AKS_SIZES), "zones": ["1", "2"]}
        if v["enable_auto_scaling"]:
            v["min_count"], v["max_count"] = 1, 10
        return {"values": v, "computed": [("id",)],
                "sensitive": {"tags": {}, "zones": [False, False]},
                "config": ["name", "node_count", "vm_size", "mode", "zones"],
                "refs": {"kubernetes_cluster_id": ["azurerm_kubernetes_cluster.this.id",
                                                   "azurerm_kubernetes_cluster.this"]},
                "update": [("node_count", v["node_count"] + 1)],
                "replace": ("vm_size", self.rng.choice(AKS_SIZES)),
                "unknown_ok": ["node_count"]}

    def azurerm_network_security_group(self, ctx):
        name = f"nsg-{ctx['name']}-{self.next_id()}"
        v = {"id": f"/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-{ctx['name']}/providers/Microsoft.Network/networkSecurityGroups/{name}",
             "location": ctx["location"], "name": name, "resource_group_name": f"rg-{ctx['name']}",
             "security_rule": [], "tags": {}}
        return {"values": v, "computed": [("id",)], "sensitive": {"security_rule": [], "tags": {}},
                "config": ["location", "name", "resource_group_name"], "refs": {},
                "update": [("tags", {"env": "prod"})], "replace": ("name", name + "-v2"),
                "unknown_ok": []}

    def data_source(self, typ, ctx):
        """A data source read during apply (action read): values mostly unknown."""
        if typ == "aws_ami":
            v = {"most_recent": True, "owners": ["099720109477"],
                 "filter": [{"name": "name", "values": ["ubuntu/images/*22.04-amd64*"]}]}
            unk = {"id": True, "image_id": True, "arn": True, "filter": [{"values": [False]}],
                   "owners": [False]}
            sens = {"filter": [{"values": [False]}], "owners": [False]}
        elif typ == "google_compute_image":
            v = {"family": "debian-12", "project": "debian-cloud"}
            unk = {"id": True, "self_link": True, "name": True}
            sens = {}
        else:  # azurerm_resource_group
            v = {"name": f"rg-{ctx['name']}"}
            unk = {"id": True, "location": True, "tags": True}
            sens = {}
        return v, unk, sens


# resource mix: (kind, provider, weight). Weights give a realistic share of estimable resources
MIX = [
    ("aws_instance", "aws", 10), ("aws_ebs_volume", "aws", 5), ("aws_db_instance", "aws", 2),
    ("aws_launch_template", "aws", 1.5), ("aws_autoscaling_group", "aws", 1.5),
    ("aws_security_group", "aws", 8), ("aws_iam_role", "aws", 7),
    ("aws_iam_role_policy_attachment", "aws", 36),
    ("google_compute_instance", "google", 7), ("google_compute_disk", "google", 4),
    ("google_compute_instance_template", "google", 1.5),
    ("google_compute_region_instance_group_manager", "google", 1.5),
    ("google_sql_database_instance", "google", 1.5), ("google_container_node_pool", "google", 2),
    ("google_compute_firewall", "google", 10),
    ("azurerm_linux_virtual_machine", "azurerm", 7), ("azurerm_managed_disk", "azurerm", 4),
    ("azurerm_kubernetes_cluster_node_pool", "azurerm", 2),
    ("azurerm_network_security_group", "azurerm", 9),
]
DATA_MIX = [("aws_ami", "aws"), ("google_compute_image", "google"),
            ("azurerm_resource_group", "azurerm")]

ACTIONS = [("create", 34), ("no-op", 30), ("update", 15), ("delete", 8),
           ("replace_dc", 5), ("replace_cd", 3)]


def strip_paths(values, paths):
    """Remove computed leaves from values; return the after_unknown mask."""
    unk = {}
    for p in paths:
        node, mask = values, unk
        ok = True
        for i, step in enumerate(p[:-1]):
            try:
                node = node[step]
            except (KeyError, IndexError, TypeError):
                ok = False
                break
            nxt = p[i + 1]
            if isinstance(step, int):
                while len(mask) <= step:
                    mask.append({})
                mask = mask[step]
            else:
                mask = mask.setdefault(step, [] if isinstance(nxt, int) else {})
        if not ok or not isinstance(node, dict) or p[-1] not in node:
            continue
        del node[p[-1]]
        mask[p[-1]] = True
    return unk


def to_expr(value):
    """constant_value expressions; nested blocks become lists of expression objects."""
    if isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
        return [{k: to_expr(x) for k, x in item.items() if x is not None} for item in value]
    return {"constant_value": value}


def dumps(obj) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class ModuleNode:
    def __init__(self, name, parent, depth, keys, source, provider_map, own_provider=False):
        self.name = name            # call name ("" for root)
        self.parent = parent
        self.depth = depth
        self.keys = keys            # None (single), list[int] (count) or list[str] (for_each)
        self.source = source
        self.provider_map = provider_map  # provider -> root provider config key
        self.own_provider = own_provider
        self.children: list[ModuleNode] = []
        self.blocks: list[dict] = []
        self.variables = {}
        self.instances: list[str] = []   # absolute module instance addresses

    def expand(self):
        if self.parent is None:
            self.instances = [""]
            return
        out = []
        for pa in self.parent.instances:
            base = (pa + "." if pa else "") + "module." + self.name
            if self.keys is None:
                out.append(base)
            else:
                out.extend(base + key_suffix(k) for k in self.keys)
        self.instances = out

    def config_prefix(self):
        parts = []
        n = self
        while n.parent is not None:
            parts.append("module." + n.name)
            n = n.parent
        return ".".join(reversed(parts))


def build(n: int, seed: int):
    g = Gen(n, seed)
    rng = g.rng
    kinds = [k for k, _, _ in MIX]
    weights = [w for _, _, w in MIX]
    prov_of = {k: p for k, p, _ in MIX}
    aws_keys = [k for k in AWS_REGION_OF]
    gcp_keys = [k for k in GCP_REGION_OF]

    root = ModuleNode("", None, 0, None, None, {"aws": "aws", "google": "google",
                                                  "azurerm": "azurerm"})
    root.expand()
    nodes = [root]
    remaining = n
    used_names = set()

    def new_call_name(depth):
        while True:
            nm = rng.choice(WORDS) + ("_" + rng.choice(WORDS) if rng.random() < 0.5 else "")
            if rng.random() < 0.3:
                nm += "_%d" % rng.randrange(100)
            if (nm, depth) not in used_names:
                used_names.add((nm, depth))
                return nm

    def module_keys():
        r = rng.random()
        if r < 0.55:
            return None
        if r < 0.75:
            return list(range(rng.choice([2, 2, 3])))
        pool = AWKWARD_KEYS if rng.random() < 0.4 else PLAIN_KEYS
        return rng.sample(pool, rng.choice([2, 2, 3]))

    def block_keys(mult, budget):
        r = rng.random()
        if r < 0.45:
            keys = None
            cnt = 1
        elif r < 0.8:
            keys = list(range(rng.choice([1, 2, 3, 4, 6, 8, 12])))
            cnt = len(keys)
        else:
            pool = AWKWARD_KEYS if rng.random() < 0.3 else PLAIN_KEYS
            keys = rng.sample(pool, rng.choice([2, 3, 4, 5]))
            cnt = len(keys)
        if cnt * mult > budget:
            c = budget // mult
            if c <= 0:
                return None, 0
            keys = None if c == 1 else list(range(c))
            cnt = c
        return keys, cnt

    legacy_done = False

    def add_blocks(node, k):
        nonlocal remaining
        mult = len(node.instances)
        for _ in range(k):
            if remaining <= 0:
                return
            data = rng.random() < 0.04
            keys, cnt = block_keys(mult, remaining)
            if cnt == 0:
                return
            if data:
                typ, prov = rng.choice(DATA_MIX)
                mode = "data"
            else:
                typ = rng.choices(kinds, weights)[0]
                prov = prov_of[typ]
                mode = "managed"
            name = rng.choice(["this", "main", "primary", "app", "web", "db", "cache",
                               "worker", "data", "logs", "extra"]) + (
                "_%d" % len(node.blocks) if rng.random() < 0.7 else "")
            taken = {(b["mode"], b["type"], b["name"]) for b in node.blocks}
            while (mode, typ, name) in taken:
                name += "_x"
            node.blocks.append({"mode": mode, "type": typ, "name": name, "keys": keys,
                                "provider": prov, "pkey": node.provider_map[prov]})
            remaining -= cnt * mult

    # root resources first (a few percent of the plan)
    add_blocks(root, max(3, n // 400))
    while remaining > 0:
        # one top-level module call with up to 3 levels below root
        def make(parent, depth):
            nonlocal legacy_done
            own = (not legacy_done) and depth == 1 and rng.random() < 0.2
            keys = None if own else module_keys()
            pmap = dict(parent.provider_map)
            if own:
                legacy_done = True
                pmap["aws"] = None  # filled below
            elif rng.random() < 0.5:
                # providers = { aws = aws.eu, google = google.us } style passing
                pmap["aws"] = rng.choice(aws_keys)
                pmap["google"] = rng.choice(gcp_keys)
            src = rng.choice(["./modules/", "git::https://github.com/acme/tf-modules.git//",
                              "terraform-aws-modules/", "app.terraform.io/acme/"])
            node = ModuleNode(new_call_name(depth), parent, depth, keys, src, pmap, own)
            if own:
                node.provider_map["aws"] = f"{node.config_prefix()}:aws"
            src_name = node.name.replace("_", "-")
            node.source = src + src_name + ("?ref=v1.4.2" if src.startswith("git") else "")
            if src.endswith("acme/") or src.startswith("terraform-aws"):
                node.source = src + src_name + "/aws"
                node.version = "~> 5.1"
            else:
                node.version = None
            node.expand()
            parent.children.append(node)
            nodes.append(node)
            add_blocks(node, rng.randrange(2, 9))
            if depth < 3 and not own:
                for _ in range(rng.choice([0, 0, 1, 1, 2])):
                    if remaining <= 0:
                        break
                    make(node, depth + 1)
            return node

        before = remaining
        make(root, 1)
        if remaining == before:
            # module multiplicity too high for what is left: finish at root with a count
            keys = None if remaining == 1 else list(range(remaining))
            root.blocks.append({"mode": "managed", "type": "aws_security_group",
                                "name": "filler_%d" % len(root.blocks), "keys": keys,
                                "provider": "aws", "pkey": "aws"})
            remaining = 0
    return g, root, nodes


def region_for(node_pkey, prov, rng, legacy):
    if prov == "aws":
        if node_pkey and node_pkey.endswith(":aws"):
            return LEGACY_MODULE_REGION
        return AWS_REGION_OF.get(node_pkey, "us-east-1")
    if prov == "google":
        return GCP_REGION_OF.get(node_pkey, "europe-west9")
    return None


def generate(n: int, seed: int):
    t0 = time.time()
    deposed_budget = max(1, n // 5000) if n >= 10 else 0
    g, root, nodes = build(n - deposed_budget, seed)
    rng = g.rng
    act_names = [a for a, _ in ACTIONS]
    act_w = [w for _, w in ACTIONS]

    rcs = []                 # (address, deposed, json string)
    planned = {}             # module instance address -> list of (address, json)
    prior = {}
    drift = []
    relevant = []
    config_resources = {}    # node -> list of config resource dicts
    moved_budget = max(1, n // 2000)
    import_budget = max(1, n // 3000)
    unknown_mapped_rate = 0.03
    deposed_cands = []

    def add_deposed(address, base, vals, sens, mi):
        dk = g.hex(8)
        old = copy.deepcopy(vals)
        drc = dict(base)
        drc["deposed"] = dk
        drc["change"] = {"actions": ["delete"], "before": old, "after": None,
                         "after_unknown": {}, "before_sensitive": sens,
                         "after_sensitive": False}
        rcs.append((address, dk, dumps(drc)))
        dps = dict(base)
        dps.pop("module_address", None)
        dps.update({"schema_version": 0, "values": old,
                    "sensitive_values": sens, "deposed_key": dk})
        prior.setdefault(mi, []).append((address + "#" + dk, dumps(dps)))

    for node in nodes:
        cres = config_resources.setdefault(node, [])
        for b in node.blocks:
            typ, prov, mode = b["type"], b["provider"], b["mode"]
            pkey = b["pkey"]
            provider_name = PROVIDERS[prov]
            keys = b["keys"]
            ctx_name = b["name"].replace("_", "-")
            config_entry = None
            has_config = True
            # a single managed block may be deleted because its config is gone
            single_delete = (mode == "managed" and keys is None and rng.random() < 0.04)
            if single_delete:
                has_config = False
            # count blocks: the tail beyond the configured count is deleted
            count_cut = None
            if mode == "managed" and isinstance(keys, list) and keys and isinstance(keys[0], int) \
                    and len(keys) >= 3 and rng.random() < 0.25:
                count_cut = len(keys) - rng.choice([1, 2])
            for mi in node.instances:
                for idx in (keys if keys is not None else [None]):
                    addr_local = (f"data.{typ}.{b['name']}" if mode == "data"
                                  else f"{typ}.{b['name']}") + key_suffix(idx)
                    address = (mi + "." if mi else "") + addr_local
                    ctx = {"name": ctx_name,
                           "region": region_for(pkey, prov, rng, False) or "",
                           "location": rng.choice(AZURE_LOCATIONS)}
                    base = {"address": address}
                    if mi:
                        base["module_address"] = mi
                    base.update({"mode": mode, "type": typ, "name": b["name"]})
                    if idx is not None:
                        base["index"] = idx
                    base["provider_name"] = provider_name

                    if mode == "data":
                        v, unk, sens = g.data_source(typ, ctx)
                        ch = {"actions": ["read"], "before": None, "after": v,
                              "after_unknown": unk, "before_sensitive": False,
                              "after_sensitive": sens}
                        rc = dict(base)
                        rc["change"] = ch
                        rc["action_reason"] = rng.choice(["read_because_config_unknown",
                                                          "read_because_dependency_pending"])
                        rcs.append((address, "", dumps(rc)))
                        pv = dict(base)
                        pv.pop("module_address", None)
                        pv.update({"schema_version": 0, "values": v, "sensitive_values": sens})
                        planned.setdefault(mi, []).append((address, dumps(pv)))
                        if config_entry is None:
                            config_entry = {"expressions": {k: to_expr(x) for k, x in v.items()}}
                        continue

                    spec = getattr(g, typ)(ctx)
                    vals = spec["values"]
                    sens = spec["sensitive"]
                    if single_delete:
                        action = "delete"
                    elif count_cut is not None and isinstance(idx, int) and idx >= count_cut:
                        action = "delete"
                    else:
                        action = rng.choices(act_names, act_w)[0]
                        if action == "delete":
                            action = "create" if rng.random() < 0.5 else "no-op"
                    if config_entry is None and has_config:
                        config_entry = spec
                    rc = dict(base)
                    change = {}
                    pv_vals = None
                    extra = {}
                    if action == "create":
                        after = copy.deepcopy(vals)
                        unk = strip_paths(after, spec["computed"])
                        if spec["unknown_ok"] and rng.random() < unknown_mapped_rate:
                            a = rng.choice(spec["unknown_ok"])
                            if a in after:
                                del after[a]
                                unk[a] = True
                        change = {"actions": ["create"], "before": None, "after": after,
                                  "after_unknown": unk, "before_sensitive": False,
                                  "after_sensitive": sens}
                        pv_vals = after
                        if import_budget > 0 and rng.random() < 0.01:
                            import_budget -= 1
                            change = {"actions": ["no-op"], "before": vals, "after": vals,
                                      "after_unknown": {}, "before_sensitive": sens,
                                      "after_sensitive": sens,
                                      "importing": {"id": str(vals.get("id", "imported"))}}
                            pv_vals = vals
                    elif action == "no-op":
                        change = {"actions": ["no-op"], "before": vals, "after": vals,
                                  "after_unknown": {}, "before_sensitive": sens,
                                  "after_sensitive": sens}
                        pv_vals = vals
                        if moved_budget > 0 and rng.random() < 0.01:
                            moved_budget -= 1
                            extra["previous_address"] = address.replace(
                                f"{typ}.{b['name']}", f"{typ}.legacy_{b['name']}", 1)
                        if rng.random() < 0.02:
                            d = dict(base)
                            dv = copy.deepcopy(vals)
                            if "tags" in dv and isinstance(dv["tags"], dict):
                                dv["tags"] = {**dv["tags"], "drifted": "true"}
                            d["change"] = {"actions": ["update"], "before": dv, "after": vals,
                                           "after_unknown": {}, "before_sensitive": sens,
                                           "after_sensitive": sens}
                            drift.append((address, dumps(d)))
                    elif action == "update":
                        after = copy.deepcopy(vals)
                        unk = {}
                        if spec["update"]:
                            for attr, nv in rng.sample(spec["update"],
                                                       min(len(spec["update"]),
                                                           rng.choice([1, 1, 2]))):
                                after[attr] = nv
                            if "tags_all" in after and "tags" in after:
                                if after["tags"] != vals.get("tags"):
                                    del after["tags_all"]
                                    unk["tags_all"] = True
                        else:
                            after["id"] = after.get("id")
                        change = {"actions": ["update"], "before": vals, "after": after,
                                  "after_unknown": unk, "before_sensitive": sens,
                                  "after_sensitive": sens}
                        pv_vals = after
                    elif action in ("replace_dc", "replace_cd"):
                        after = copy.deepcopy(vals)
                        attr, nv = spec["replace"]
                        after[attr] = nv
                        unk = strip_paths(after, spec["computed"])
                        acts = ["delete", "create"] if action == "replace_dc" else ["create", "delete"]
                        change = {"actions": acts, "before": vals, "after": after,
                                  "after_unknown": unk, "before_sensitive": sens,
                                  "after_sensitive": sens, "replace_paths": [[attr]]}
                        extra["action_reason"] = rng.choice(
                            ["replace_because_cannot_update"] * 4 +
                            ["replace_because_tainted", "replace_by_request"])
                        pv_vals = after
                    else:  # delete
                        change = {"actions": ["delete"], "before": vals, "after": None,
                                  "after_unknown": {}, "before_sensitive": sens,
                                  "after_sensitive": False}
                        if single_delete:
                            extra["action_reason"] = ("delete_because_no_module"
                                                      if mi and rng.random() < 0.3
                                                      else "delete_because_no_resource_config")
                        else:
                            extra["action_reason"] = "delete_because_count_index"
                    rc["change"] = change
                    rc.update(extra)
                    rcs.append((address, "", dumps(rc)))
                    if pv_vals is not None:
                        pv = dict(base)
                        pv.pop("module_address", None)
                        pv.update({"schema_version": 1 if prov == "aws" else 0,
                                   "values": pv_vals, "sensitive_values": sens})
                        planned.setdefault(mi, []).append((address, dumps(pv)))
                    if action != "create":
                        ps = dict(base)
                        ps.pop("module_address", None)
                        ps.update({"schema_version": 1 if prov == "aws" else 0,
                                   "values": vals, "sensitive_values": sens})
                        if action in ("update", "replace_dc", "replace_cd") and rng.random() < 0.5:
                            ps["depends_on"] = [f"{typ}.{b['name']}".replace(b["name"], "dep", 1)]
                        prior.setdefault(mi, []).append((address, dumps(ps)))
                    # deposed object left over by an interrupted create_before_destroy
                    if action == "no-op" and change.get("importing") is None:
                        deposed_cands.append((address, base, vals, sens, mi))
                        if deposed_budget > 0 and rng.random() < 0.002:
                            deposed_budget -= 1
                            add_deposed(*deposed_cands.pop())
                    if typ == "aws_instance" and rng.random() < 0.002:
                        relevant.append({"resource": address, "attribute": ["private_ip"]})
            if not has_config or config_entry is None:
                continue
            # configuration entry for the block (module-relative address)
            caddr = (f"data.{typ}.{b['name']}" if mode == "data" else f"{typ}.{b['name']}")
            cr = {"address": caddr, "mode": mode, "type": typ, "name": b["name"],
                  "provider_config_key": pkey}
            if mode == "data":
                cr["expressions"] = config_entry["expressions"]
            else:
                ex = {}
                for k in config_entry["config"]:
                    if k in config_entry["values"] and config_entry["values"][k] is not None:
                        ex[k] = to_expr(config_entry["values"][k])
                for k, refs in config_entry["refs"].items():
                    if k in config_entry["values"] and config_entry["values"][k] is not None:
                        ex[k] = {"references": refs}
                cr["expressions"] = ex
            cr["schema_version"] = 1 if prov == "aws" else 0
            if isinstance(keys, list) and keys and isinstance(keys[0], int):
                n_count = count_cut if count_cut is not None else len(keys)
                if rng.random() < 0.5:
                    cr["count_expression"] = {"constant_value": n_count}
                else:
                    cr["count_expression"] = {"references": ["var.instance_count"]}
            elif isinstance(keys, list):
                cr["for_each_expression"] = {"references": ["local.instances"]}
            if rng.random() < 0.05:
                cr["depends_on"] = ["aws_iam_role.this"]
            cres.append(cr)

    while deposed_budget > 0 and deposed_cands:
        deposed_budget -= 1
        add_deposed(*deposed_cands.pop(rng.randrange(len(deposed_cands))))

    # ---- assemble the document --------------------------------------------------------------
    db_password = g.secret("dbpw-")
    vm_password = g.secret("vmpw-")
    ssh_key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5" + g.secret()
    out_secret = g.secret("token-")
    variables = {
        "secondary_region": {"value": SECONDARY_REGION},
        "instance_count": {"value": 3},
        "db_password": {"value": db_password},
        "vm_password": {"value": vm_password},
        "ssh_public_key": {"value": ssh_key},
        "environment": {"value": "prod"},
        "subnet_ids": {"value": ["subnet-0a1b2c3d", "subnet-0e5f6a7b"]},
        "tags": {"value": {"owner": "platform", "cost-center": "cc-0042"}},
    }

    # child_modules nest by instance: build instance tree
    inst_children = {}
    inst_node = {"": root}
    for node in nodes[1:]:
        for mi in node.instances:
            inst_node[mi] = node
    for node in nodes[1:]:
        for mi in node.instances:
            # parent instance: strip the last "module.name[key]" segment
            parent_node = node.parent
            cand = [p for p in parent_node.instances if mi.startswith(p + "." if p else "")]
            parent_mi = max(cand, key=len)
            inst_children.setdefault(parent_mi, []).append(mi)

    def render_module(store, mi, is_root):
        """Emit a module object as a JSON string; skip empty subtrees. None if empty."""
        kids = []
        for c in sorted(inst_children.get(mi, [])):
            s = render_module(store, c, False)
            if s is not None:
                kids.append(s)
        res = sorted(store.get(mi, []))
        if not res and not kids and not is_root:
            return None
        parts = []
        if res:
            parts.append('"resources":[' + ",".join(j for _, j in res) + "]")
        if not is_root:
            parts.insert(0, '"address":' + dumps(mi))
        if kids:
            parts.append('"child_modules":[' + ",".join(kids) + "]")
        return "{" + ",".join(parts) + "}"

    planned_root = render_module(planned, "", True)
    prior_root = render_module(prior, "", True)

    # outputs
    first_vm = next((a for a, _, j in rcs if '"type":"aws_instance"' in j[:300]), None)
    output_changes = {
        "environment": {"actions": ["no-op"], "before": "prod", "after": "prod",
                        "after_unknown": False, "before_sensitive": False,
                        "after_sensitive": False},
        "instance_ids": {"actions": ["update"], "before": ["i-0aaa", "i-0bbb"],
                         "after_unknown": True, "before_sensitive": False,
                         "after_sensitive": False},
        "db_connection": {"actions": ["update"], "before": "postgres://app:" + g.secret() + "@db",
                          "after": "postgres://app:" + out_secret + "@db", "after_unknown": False,
                          "before_sensitive": True, "after_sensitive": True},
        "regions": {"actions": ["create"], "before": None,
                    "after": {"aws": "us-east-1", "gcp": "europe-west9"}, "after_unknown": False,
                    "before_sensitive": False, "after_sensitive": False},
        "legacy_endpoint": {"actions": ["delete"], "before": "https://legacy.example.com",
                            "after": None, "after_unknown": False, "before_sensitive": False,
                            "after_sensitive": False},
    }
    planned_outputs = {
        "environment": {"sensitive": False, "type": "string", "value": "prod"},
        "db_connection": {"sensitive": True, "type": "string",
                          "value": "postgres://app:" + out_secret + "@db"},
        "regions": {"sensitive": False, "type": ["object", {"aws": "string", "gcp": "string"}],
                    "value": {"aws": "us-east-1", "gcp": "europe-west9"}},
        "instance_ids": {"sensitive": False},
    }

    # configuration
    provider_config = {}
    for key, alias, region, ref in ROOT_PROVIDER_CONFIGS:
        prov = key.split(".")[0]
        pc = {"name": prov, "full_name": PROVIDERS[prov]}
        if alias:
            pc["alias"] = alias
        pc["version_constraint"] = {"aws": "~> 5.70", "google": ">= 5.0.0, < 7.0.0",
                                    "azurerm": "~> 4.8"}[prov]
        ex = {}
        if region:
            ex["region"] = {"constant_value": region}
        elif ref:
            ex["region"] = {"references": [ref]}
        if prov == "google":
            ex["project"] = {"constant_value": "acme-prod"}
        if prov == "azurerm":
            ex["features"] = [{}]
            ex["subscription_id"] = {"references": ["var.subscription_id"]}
        if prov == "aws" and alias is None:
            ex["default_tags"] = [{"tags": {"references": ["var.tags"]}}]
        pc["expressions"] = ex
        provider_config[key] = pc
    for node in nodes[1:]:
        mp = node.config_prefix()
        if node.own_provider:
            provider_config[f"{mp}:aws"] = {
                "name": "aws", "full_name": PROVIDERS["aws"], "module_address": mp,
                "expressions": {"region": {"constant_value": LEGACY_MODULE_REGION}}}
        elif node.version:
            provider_config[f"{mp}:aws"] = {"name": "aws", "full_name": PROVIDERS["aws"],
                                            "version_constraint": ">= 4.0",
                                            "module_address": mp}

    def config_module(node):
        m = {}
        outs = {}
        if node.parent is not None:
            outs["ids"] = {"expression": {"references": [
                f"{b['type']}.{b['name']}" for b in node.blocks[:2] if b["mode"] == "managed"]}}
            if rng.random() < 0.2:
                outs["secret"] = {"sensitive": True, "expression": {"references": ["var.db_password"]}}
        else:
            outs = {"environment": {"expression": {"references": ["var.environment"]}},
                    "db_connection": {"sensitive": True,
                                      "expression": {"references": ["var.db_password"]}},
                    "regions": {"expression": {}},
                    "instance_ids": {"expression": {"references": ["module.*"]}}}
        if outs:
            m["outputs"] = outs
        if config_resources.get(node):
            m["resources"] = config_resources[node]
        if node.children:
            calls = {}
            for c in node.children:
                call = {"source": c.source}
                ex = {"environment": {"references": ["var.environment"]},
                      "db_password": {"references": ["var.db_password"]},
                      "instance_count": {"constant_value": rng.choice([1, 2, 3])}}
                call["expressions"] = ex
                if isinstance(c.keys, list) and c.keys and isinstance(c.keys[0], int):
                    call["count_expression"] = {"constant_value": len(c.keys)}
                elif isinstance(c.keys, list):
                    call["for_each_expression"] = {"references": ["local.shards"]}
                call["module"] = config_module(c)
                if c.version:
                    call["version_constraint"] = c.version
                calls[c.name] = call
            m["module_calls"] = calls
        if node.parent is None:
            m["variables"] = {
                "secondary_region": {"default": SECONDARY_REGION},
                "instance_count": {"default": 2},
                "db_password": {"sensitive": True, "description": "Master DB password"},
                "vm_password": {"sensitive": True},
                "ssh_public_key": {"sensitive": True},
                "environment": {"default": "dev"},
                "subnet_ids": {}, "tags": {"default": {}},
            }
        else:
            m["variables"] = {"environment": {}, "db_password": {"sensitive": True},
                              "instance_count": {"default": 1}}
        return m

    configuration = {"provider_config": provider_config, "root_module": config_module(root)}

    rcs.sort(key=lambda t: (t[0], t[1]))
    drift.sort()
    parts = [
        '{"format_version":' + dumps(FORMAT_VERSION),
        '"terraform_version":' + dumps(TOFU_VERSION),
        '"variables":' + dumps(variables),
        '"planned_values":{"outputs":' + dumps(planned_outputs) + ',"root_module":' + planned_root + "}",
        '"resource_drift":[' + ",".join(j for _, j in drift) + "]",
        '"resource_changes":[' + ",".join(j for _, _, j in rcs) + "]",
        '"output_changes":' + dumps(output_changes),
        '"prior_state":{"format_version":"1.0","terraform_version":' + dumps(TOFU_VERSION) +
        ',"values":{"outputs":' + dumps({"environment": {"sensitive": False, "value": "prod",
                                                          "type": "string"}}) +
        ',"root_module":' + prior_root + "}}",
        '"configuration":' + dumps(configuration),
        '"relevant_attributes":' + dumps(relevant),
        '"checks":' + dumps([{"address": {"kind": "output_value", "name": "environment",
                                          "to_display": "output.environment"},
                              "status": "pass",
                              "instances": [{"address": {"to_display": "output.environment"},
                                             "status": "pass"}]}]),
        '"timestamp":' + dumps(TIMESTAMP),
        '"applyable":true,"complete":true,"errored":false}',
    ]
    doc = ",".join(parts)
    return doc, g.secrets, len(rcs), time.time() - t0


# ---- validation ---------------------------------------------------------------------------

def collect_module(mod, out):
    for r in mod.get("resources", []):
        out.setdefault(r["address"], []).append(r)
    for c in mod.get("child_modules", []):
        if "address" not in c:
            raise ValueError("child module without address")
        for r in c.get("resources", []):
            if not r["address"].startswith(c["address"] + "."):
                raise ValueError(f"{r['address']} is not inside module {c['address']}")
        collect_module(c, out)


MARKER = "SECRET-"


def count_markers(value, mask) -> tuple[int, int]:
    """(markers under a sensitive mask, markers not under one) in value."""
    if mask is True:
        n = dumps(value).count(MARKER)
        return n, 0
    if isinstance(value, str):
        return 0, value.count(MARKER)
    hidden = shown = 0
    if isinstance(value, dict):
        for k, x in value.items():
            h, s = count_markers(x, mask.get(k) if isinstance(mask, dict) else None)
            hidden += h
            shown += s
    elif isinstance(value, list):
        for i, x in enumerate(value):
            m = mask[i] if isinstance(mask, list) and i < len(mask) else None
            h, s = count_markers(x, m)
            hidden += h
            shown += s
    return hidden, shown


def check_secrets(doc, raw: bytes, problems: list):
    """Every SECRET- marker must sit in a value marked sensitive."""
    hidden = shown = 0

    def add(value, mask):
        nonlocal hidden, shown
        h, s = count_markers(value, mask)
        hidden += h
        shown += s

    for rc in doc.get("resource_changes", []) + doc.get("resource_drift", []):
        ch = rc["change"]
        add(ch.get("before"), ch.get("before_sensitive"))
        add(ch.get("after"), ch.get("after_sensitive"))

    def walk(mod):
        for r in mod.get("resources", []):
            add(r.get("values"), r.get("sensitive_values"))
        for c in mod.get("child_modules", []):
            walk(c)
    walk(doc["planned_values"]["root_module"])
    walk(doc["prior_state"]["values"]["root_module"])
    cvars = doc["configuration"]["root_module"].get("variables", {})
    for name, v in doc.get("variables", {}).items():
        add(v.get("value"), True if cvars.get(name, {}).get("sensitive") else None)
    for name, o in doc.get("output_changes", {}).items():
        add(o.get("before"), o.get("before_sensitive"))
        add(o.get("after"), o.get("after_sensitive"))
    for name, o in doc["planned_values"].get("outputs", {}).items():
        add(o.get("value"), True if o.get("sensitive") else None)
    total = raw.count(MARKER.encode())
    if shown:
        problems.append(f"{shown} secret markers in values not marked sensitive")
    if hidden != total:
        problems.append(f"{total - hidden - shown} secret markers outside values "
                        f"(configuration or metadata)")
    return total


def validate(path: str) -> dict:
    with open(path, "rb") as f:
        raw = f.read()
    doc = json.loads(raw)
    planned, prior = {}, {}
    collect_module(doc["planned_values"]["root_module"], planned)
    collect_module(doc["prior_state"]["values"]["root_module"], prior)
    problems = []
    counts = {}
    seen = set()
    for rc in doc["resource_changes"]:
        a = rc["address"]
        acts = rc["change"]["actions"]
        key = (a, rc.get("deposed", ""))
        if key in seen:
            problems.append(f"duplicate resource_change {a}")
        seen.add(key)
        counts[",".join(acts)] = counts.get(",".join(acts), 0) + 1
        if rc.get("deposed"):
            if not any(r.get("deposed_key") == rc["deposed"] for r in prior.get(a, [])):
                problems.append(f"deposed {a} {rc['deposed']} not in prior_state")
            continue
        in_planned = any("deposed_key" not in r for r in planned.get(a, []))
        in_prior = any("deposed_key" not in r for r in prior.get(a, []))
        if acts == ["delete"]:
            ok = in_prior and not in_planned
        elif acts in (["create"], ["read"]):
            ok = in_planned and not in_prior
        else:
            ok = in_planned and in_prior
        if acts == ["no-op"] and "importing" in rc["change"]:
            ok = in_planned
        if not ok:
            problems.append(f"{a} {acts}: planned={in_planned} prior={in_prior}")
        if rc.get("module_address") and not a.startswith(rc["module_address"] + "."):
            problems.append(f"{a}: module_address {rc['module_address']}")
        if acts in (["create"], ["update"], ["no-op"]) or len(acts) == 2:
            pv = [r for r in planned.get(a, []) if "deposed_key" not in r][0]
            if pv["values"] != rc["change"]["after"]:
                problems.append(f"{a}: planned values differ from change.after")
    markers = check_secrets(doc, raw, problems)
    rc_addrs = {rc["address"] for rc in doc["resource_changes"]}
    for a in planned:
        if a not in rc_addrs:
            problems.append(f"planned {a} has no resource_change")
    return {"bytes": len(raw), "resource_changes": len(doc["resource_changes"]),
            "planned": sum(len(v) for v in planned.values()),
            "prior": sum(len(v) for v in prior.values()), "actions": counts,
            "marker_occurrences": markers,
            "problems": problems}


def generate_shape(shape: str, n: int, seed: int):
    """`generate` for the mixed plan, else one of shapes.SHAPES (issue 28's benchmark shapes)."""
    if shape == "mixed":
        return generate(n, seed)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import shapes  # noqa: E402 (beside this file)

    t = time.time()
    doc, secrets, nrc = shapes.SHAPES[shape](n, seed)
    return doc, secrets, nrc, time.time() - t


def write_plan(path: str, n: int, seed: int, check: bool, shape: str = "mixed"):
    doc, secrets, nrc, dt = generate_shape(shape, n, seed)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(doc)
    os.replace(tmp, path)
    with open(path + ".secrets", "w", encoding="utf-8") as f:
        f.write("\n".join(secrets) + "\n")
    size = os.path.getsize(path)
    print(f"{path}: {nrc} resource_changes, {size} bytes ({size / 1e6:.1f} MB), "
          f"{len(secrets)} secret markers, {dt:.1f}s", file=sys.stderr)
    if check and shape == "mixed":
        t = time.time()
        rep = validate(path)
        status = "OK" if not rep["problems"] else "FAILED"
        print(f"  validate {status} in {time.time() - t:.1f}s: {rep['resource_changes']} changes, "
              f"{rep['planned']} planned, {rep['prior']} prior, "
              f"{rep['marker_occurrences']} marker occurrences all in sensitive values, "
              f"actions {rep['actions']}",
              file=sys.stderr)
        for p in rep["problems"][:20]:
            print("   ", p, file=sys.stderr)
        if rep["problems"]:
            sys.exit(1)


def human_size(n: int) -> str:
    return f"{n // 1000}k" if n % 1000 == 0 and n >= 1000 else str(n)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--resources", "-n", type=int, default=1000,
                    help="number of resource_changes entries (default 1000)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--output", "-o", help="output plan file (default: stdout)")
    ap.add_argument("--output-dir", help="write plan-<size>.json for every --sizes entry")
    ap.add_argument("--sizes", default="1000,10000,50000",
                    help="comma-separated sizes for --output-dir (default 1000,10000,50000)")
    ap.add_argument("--shape", default="mixed",
                    choices=["mixed", "dense", "instances", "wide", "deep", "sensitive"],
                    help="mixed (default: the realistic mix), dense (every resource distinct "
                         "and mapped), instances (one resource, count = N), wide (one resource "
                         "with N attributes and N tags), deep (modules 8 calls deep), "
                         "sensitive (3 sensitive values a resource)")
    ap.add_argument("--check", action="store_true",
                    help="re-read every written plan and validate it")
    ap.add_argument("--validate", metavar="PLAN", nargs="+",
                    help="only validate existing plan file(s)")
    a = ap.parse_args(argv)

    if a.validate:
        bad = False
        for p in a.validate:
            rep = validate(p)
            print(json.dumps({"file": p, **{k: v for k, v in rep.items() if k != "problems"},
                              "problems": rep["problems"][:20]}, indent=1))
            bad |= bool(rep["problems"])
        sys.exit(1 if bad else 0)
    if a.output_dir:
        os.makedirs(a.output_dir, exist_ok=True)
        for s in [int(x) for x in a.sizes.split(",") if x.strip()]:
            stem = "plan" if a.shape == "mixed" else f"plan-{a.shape}"
            write_plan(os.path.join(a.output_dir, f"{stem}-{human_size(s)}.json"), s, a.seed,
                       a.check, a.shape)
        return
    if a.output:
        write_plan(a.output, a.resources, a.seed, a.check, a.shape)
        return
    doc, secrets, nrc, dt = generate_shape(a.shape, a.resources, a.seed)
    sys.stdout.write(doc)


if __name__ == "__main__":
    main()
