#!/usr/bin/env python3
"""Writes testdata/demo/plan.json (and the small fixtures under testdata/carbon/).

The plans are built from a list of resource changes so that resource_changes, planned_values,
prior_state and configuration always agree. Run from the crate root:
    python3 testdata/demo/make_plan.py
"""
import copy
import json
import os

AWS = "registry.terraform.io/hashicorp/aws"
GOOGLE = "registry.terraform.io/hashicorp/google"
AZURE = "registry.terraform.io/hashicorp/azurerm"
PROVIDER = {"aws": AWS, "google": GOOGLE, "azurerm": AZURE}


def sens_of(values, sensitive):
    """A values-shaped `sensitive_values` object: true for sensitive leaves only."""
    return copy.deepcopy(sensitive or {})


def R(address, type_, name, provider, actions, before=None, after=None, *, module=None,
      index=None, after_unknown=None, before_sensitive=None, after_sensitive=None,
      replace_paths=None, config_key=None, action_reason=None, expressions=None):
    return dict(address=address, type=type_, name=name, provider=provider, actions=actions,
                before=before, after=after, module=module, index=index,
                after_unknown=after_unknown or {}, before_sensitive=before_sensitive,
                after_sensitive=after_sensitive, replace_paths=replace_paths,
                config_key=config_key or provider, action_reason=action_reason,
                expressions=expressions or {})


def module_tree(entries, key):
    """planned_values / prior_state root_module from (module, resource-json) entries."""
    root = {"resources": []}
    mods = {}

    def get(addr):
        if addr is None:
            return root
        if addr in mods:
            return mods[addr]
        parent_addr = addr.rsplit(".module.", 1)[0] if ".module." in addr else None
        parent = get(parent_addr)
        m = {"resources": [], "address": addr}
        parent.setdefault("child_modules", []).append(m)
        mods[addr] = m
        return m

    for module, res in entries:
        get(module)["resources"].append(res)
    for m in list(mods.values()) + [root]:
        if not m["resources"]:
            del m["resources"]
    return root


def build(rs, *, variables=None, provider_config=None, config_modules=None, outputs=None,
          output_changes=None, prior_outputs=None, version="1.9.0"):
    planned, prior, changes = [], [], []
    for r in rs:
        full = PROVIDER[r["provider"]]
        base = {"address": r["address"], "mode": "managed", "type": r["type"],
                "name": r["name"], "provider_name": full, "schema_version": 0}
        if r["index"] is not None:
            base["index"] = r["index"]
        if r["after"] is not None:
            p = dict(base, values=r["after"], sensitive_values=sens_of(r["after"], r["after_sensitive"]))
            planned.append((r["module"], p))
        if r["before"] is not None:
            s = dict(base, values=r["before"], sensitive_values=sens_of(r["before"], r["before_sensitive"]))
            prior.append((r["module"], s))
        rc = dict(base)
        del rc["schema_version"]
        if r["module"]:
            rc["module_address"] = r["module"]
        rc["change"] = {
            "actions": r["actions"],
            "before": r["before"],
            "after": r["after"],
            "after_unknown": r["after_unknown"],
            "before_sensitive": False if r["before"] is None else (r["before_sensitive"] or {}),
            "after_sensitive": False if r["after"] is None else (r["after_sensitive"] or {}),
        }
        if r["replace_paths"]:
            rc["change"]["replace_paths"] = r["replace_paths"]
        if r["action_reason"]:
            rc["action_reason"] = r["action_reason"]
        changes.append(rc)

    # configuration: one entry per resource block
    croot = {"resources": []}
    if config_modules:
        croot["module_calls"] = copy.deepcopy(config_modules)
    seen = set()
    for r in rs:
        mod = r["module"]
        rel = r["address"][len(mod) + 1:] if mod else r["address"]
        rel = rel.split("[")[0]
        key = (mod.split("[")[0] if mod else None, rel)
        if key in seen:
            continue
        seen.add(key)
        target = croot
        if mod:
            for part in mod.split("module.")[1:]:
                name = part.rstrip(".").split("[")[0]
                target = target["module_calls"][name]["module"]
        block = {"address": rel, "mode": "managed", "type": r["type"], "name": r["name"],
                 "provider_config_key": r["config_key"], "expressions": r["expressions"],
                 "schema_version": 0}
        target.setdefault("resources", []).append(block)

    doc = {"format_version": "1.2", "terraform_version": version}
    if variables:
        doc["variables"] = {k: {"value": v} for k, v in variables.items()}
    pv_root = module_tree(planned, "planned")
    doc["planned_values"] = {"root_module": pv_root}
    if outputs:
        doc["planned_values"]["outputs"] = outputs
    doc["resource_changes"] = changes
    if output_changes:
        doc["output_changes"] = output_changes
    doc["prior_state"] = {"format_version": "1.0", "terraform_version": version,
                          "values": {"root_module": module_tree(prior, "prior")}}
    if prior_outputs:
        doc["prior_state"]["values"]["outputs"] = prior_outputs
    doc["configuration"] = {"provider_config": provider_config or {}, "root_module": croot}
    doc["timestamp"] = "2026-11-23T06:00:00Z"
    doc["applyable"] = True
    doc["complete"] = True
    doc["errored"] = False
    return doc


def aws_instance(itype, ami="ami-0c55b159cbfafe1f0", az=None, tags=None, size=20):
    v = {"ami": ami, "instance_type": itype,
         "root_block_device": [{"volume_size": size, "volume_type": "gp3", "delete_on_termination": True}],
         "tags": tags or {}}
    if az:
        v["availability_zone"] = az
    return v


def gce(machine, zone, image="debian-cloud/debian-12", size=50, dtype="pd-ssd", name=None):
    return {"name": name or "vm", "machine_type": machine, "zone": zone,
            "boot_disk": [{"auto_delete": True, "initialize_params": [{"image": image, "size": size, "type": dtype}]}],
            "network_interface": [{"network": "default"}], "labels": {"team": "platform"}}


def demo():
    rs = []
    # --- AWS, default provider: region only through var.region (us-east-1)
    rs.append(R("aws_instance.web", "aws_instance", "web", "aws", ["update"],
                before=dict(aws_instance("m5.large", tags={"Name": "web"}), id="i-0abc123def4567890"),
                after=dict(aws_instance("m5.large".replace("large", "xlarge"), tags={"Name": "web"}), id="i-0abc123def4567890"),
                expressions={"instance_type": {"references": ["var.web_size"]}}))
    for i in range(3):
        rs.append(R(f"aws_instance.worker[{i}]", "aws_instance", "worker", "aws", ["create"],
                    after=aws_instance("t3.medium", tags={"Name": f"worker-{i}"}), index=i,
                    after_unknown={"id": True, "arn": True, "public_ip": True}))
    rs.append(R("aws_db_instance.main", "aws_db_instance", "main", "aws", ["create"],
                after={"identifier": "demo-main", "engine": "postgres", "engine_version": "16.3",
                       "instance_class": "db.m5.large", "allocated_storage": 100, "storage_type": "gp3",
                       "multi_az": True, "username": "app", "password": "SECRET-demo-1234"},
                after_unknown={"id": True, "endpoint": True},
                after_sensitive={"password": True}))
    rs.append(R("aws_ebs_volume.scratch", "aws_ebs_volume", "scratch", "aws", ["delete"],
                before={"availability_zone": "us-east-1a", "size": 500, "type": "st1", "id": "vol-0123456789abcdef0"},
                action_reason="delete_because_no_resource_config"))
    rs.append(R("aws_security_group.web", "aws_security_group", "web", "aws", ["create"],
                after={"name": "web", "description": "web traffic", "ingress": [{"from_port": 443, "to_port": 443, "protocol": "tcp", "cidr_blocks": ["0.0.0.0/0"]}]},
                after_unknown={"id": True, "arn": True}))
    rs.append(R("aws_iam_role.app", "aws_iam_role", "app", "aws", ["create"],
                after={"name": "demo-app", "assume_role_policy": "{\"Version\":\"2012-10-17\",\"Statement\":[]}"},
                after_unknown={"id": True, "arn": True}))
    rs.append(R("aws_lambda_function.thumbnail", "aws_lambda_function", "thumbnail", "aws", ["create"],
                after={"function_name": "thumbnail", "runtime": "python3.12", "memory_size": 512, "handler": "main.handler"},
                after_unknown={"arn": True, "role": True}))
    # --- AWS, module.eu with the aliased provider aws.eu (eu-west-1); for_each with string keys
    for key in ["api", "web"]:
        rs.append(R(f'module.eu.aws_instance.app["{key}"]', "aws_instance", "app", "aws", ["create"],
                    after=aws_instance("m5.large", tags={"Name": f"eu-{key}"}), module="module.eu", index=key,
                    after_unknown={"id": True}, config_key="aws.eu"))
    # nested module: module.eu.module.cache
    rs.append(R("module.eu.module.cache.aws_elasticache_cluster.this", "aws_elasticache_cluster", "this", "aws",
                ["create"], after={"cluster_id": "eu-cache", "engine": "redis", "node_type": "cache.m5.large",
                                   "num_cache_nodes": 2},
                module="module.eu.module.cache", after_unknown={"id": True}, config_key="aws.eu"))
    # --- GCP: region europe-west1 from a constant in the provider block
    rs.append(R("google_compute_instance.app", "google_compute_instance", "app", "google", ["create"],
                after=gce("n2-standard-4", "europe-west1-b", name="app"), after_unknown={"id": True, "self_link": True}))
    rs.append(R("google_compute_instance.batch", "google_compute_instance", "batch", "google", ["delete", "create"],
                before=dict(gce("e2-standard-2", "europe-west1-c", image="debian-cloud/debian-11", size=20, dtype="pd-balanced", name="batch"), id="projects/demo/zones/europe-west1-c/instances/batch"),
                after=gce("e2-standard-2", "europe-west1-c", image="debian-cloud/debian-12", size=20, dtype="pd-balanced", name="batch"),
                after_unknown={"id": True},
                replace_paths=[["boot_disk", 0, "initialize_params", 0, "image"]],
                action_reason="replace_because_cannot_update"))
    unknown = gce("n1-standard-1", "europe-west1-d", name="preview")
    del unknown["machine_type"]
    rs.append(R("google_compute_instance.preview", "google_compute_instance", "preview", "google", ["create"],
                after=unknown, after_unknown={"id": True, "machine_type": True}))
    rs.append(R("google_compute_firewall.allow_https", "google_compute_firewall", "allow_https", "google", ["create"],
                after={"name": "allow-https", "network": "default", "allow": [{"protocol": "tcp", "ports": ["443"]}]},
                after_unknown={"id": True}))
    rs.append(R("google_storage_bucket.assets", "google_storage_bucket", "assets", "google", ["create"],
                after={"name": "demo-assets", "location": "EU", "storage_class": "STANDARD"},
                after_unknown={"id": True, "url": True}))
    # --- Azure: location on the resources
    rs.append(R("azurerm_resource_group.demo", "azurerm_resource_group", "demo", "azurerm", ["create"],
                after={"name": "demo", "location": "westeurope"}, after_unknown={"id": True}))
    rs.append(R("azurerm_linux_virtual_machine.app", "azurerm_linux_virtual_machine", "app", "azurerm", ["create"],
                after={"name": "app", "location": "westeurope", "resource_group_name": "demo", "size": "Standard_D2s_v5",
                       "admin_username": "azureuser",
                       "os_disk": [{"caching": "ReadWrite", "storage_account_type": "Premium_LRS", "disk_size_gb": 64}]},
                after_unknown={"id": True, "private_ip_address": True}))
    rs.append(R("azurerm_managed_disk.data", "azurerm_managed_disk", "data", "azurerm", ["update"],
                before={"name": "data", "location": "westeurope", "storage_account_type": "Standard_LRS", "disk_size_gb": 256, "id": "/subscriptions/0000/disks/data"},
                after={"name": "data", "location": "westeurope", "storage_account_type": "Standard_LRS", "disk_size_gb": 512, "id": "/subscriptions/0000/disks/data"}))

    provider_config = {
        "aws": {"name": "aws", "full_name": AWS, "expressions": {"region": {"references": ["var.region"]}}},
        "aws.eu": {"name": "aws", "full_name": AWS, "alias": "eu",
                   "expressions": {"region": {"constant_value": "eu-west-1"}}},
        "google": {"name": "google", "full_name": GOOGLE,
                   "expressions": {"project": {"constant_value": "demo-project"}, "region": {"constant_value": "europe-west1"}}},
        "azurerm": {"name": "azurerm", "full_name": AZURE, "expressions": {"features": [{}]}},
    }
    modules = {"eu": {"source": "./modules/regional", "providers": {"aws": "aws.eu"}, "expressions": {"name": {"constant_value": "eu"}},
                      "module": {"module_calls": {"cache": {"source": "./cache", "module": {}}},
                                 "variables": {"name": {}}}}}
    outputs = {"web_instance_type": {"sensitive": False, "type": "string", "value": "m5.xlarge"}}
    output_changes = {"web_instance_type": {"actions": ["update"], "before": "m5.large", "after": "m5.xlarge",
                                            "after_unknown": False, "before_sensitive": False, "after_sensitive": False},
                      "db_password": {"actions": ["create"], "before": None, "after": "SECRET-demo-1234",
                                      "after_unknown": False, "before_sensitive": False, "after_sensitive": True}}
    return build(rs, variables={"region": "us-east-1", "web_size": "m5.xlarge"},
                 provider_config=provider_config, config_modules=modules, outputs=outputs,
                 output_changes=output_changes,
                 prior_outputs={"web_instance_type": {"sensitive": False, "value": "m5.large", "type": "string"}})


AWS_CFG = {"aws": {"name": "aws", "full_name": AWS, "expressions": {"region": {"constant_value": "us-east-1"}}}}


def create_only():
    rs = [R("aws_instance.web", "aws_instance", "web", "aws", ["create"],
            after=aws_instance("m5.large", size=100), after_unknown={"id": True}),
          R("aws_ebs_volume.data", "aws_ebs_volume", "data", "aws", ["create"],
            after={"availability_zone": "us-east-1b", "size": 200, "type": "gp3"}, after_unknown={"id": True})]
    return build(rs, provider_config=AWS_CFG)


def changes():
    rs = [R("aws_instance.app", "aws_instance", "app", "aws", ["update"],
            before=dict(aws_instance("m5.large", size=100), id="i-1"), after=dict(aws_instance("m5.xlarge", size=100), id="i-1")),
          R("aws_instance.db", "aws_instance", "db", "aws", ["delete", "create"],
            before=dict(aws_instance("r5.large", ami="ami-old", size=100), id="i-2"),
            after=aws_instance("r5.large", ami="ami-new", size=100),
            after_unknown={"id": True}, replace_paths=[["ami"]], action_reason="replace_because_cannot_update"),
          R("aws_instance.old", "aws_instance", "old", "aws", ["delete"],
            before=dict(aws_instance("c5.2xlarge", size=100), id="i-3"))]
    return build(rs, provider_config=AWS_CFG)


def modules():
    rs = []
    for i in range(2):
        rs.append(R(f"aws_instance.node[{i}]", "aws_instance", "node", "aws", ["create"],
                    after=aws_instance("t3.large"), index=i, after_unknown={"id": True}))
    for k in ["blue", "green"]:
        rs.append(R(f'module.app["{k}"].aws_instance.web', "aws_instance", "web", "aws", ["create"],
                    after=aws_instance("m5.large"), module=f'module.app["{k}"]', after_unknown={"id": True},
                    config_key="aws.west"))
        rs.append(R(f'module.app["{k}"].module.db.aws_db_instance.this', "aws_db_instance", "this", "aws", ["create"],
                    after={"instance_class": "db.t3.medium", "allocated_storage": 50, "storage_type": "gp2",
                           "multi_az": k == "blue", "engine": "mysql", "password": f"SECRET-mod-{k}"},
                    after_sensitive={"password": True},
                    module=f'module.app["{k}"].module.db', after_unknown={"id": True}, config_key="aws.west"))
    cfg = dict(AWS_CFG)
    cfg["aws.west"] = {"name": "aws", "full_name": AWS, "alias": "west",
                       "expressions": {"region": {"constant_value": "us-west-2"}}}
    mods = {"app": {"source": "./app", "for_each_expression": {"constant_value": {"blue": {}, "green": {}}},
                    "providers": {"aws": "aws.west"},
                    "module": {"module_calls": {"db": {"source": "./db", "module": {}}}}}}
    return build(rs, provider_config=cfg, config_modules=mods)


def mixed():
    rs = [R("aws_instance.a", "aws_instance", "a", "aws", ["create"], after=aws_instance("m5.large"), after_unknown={"id": True}),
          R("google_compute_instance.g", "google_compute_instance", "g", "google", ["create"],
            after=gce("n2-standard-4", "europe-west1-b", name="g"), after_unknown={"id": True}),
          R("azurerm_linux_virtual_machine.z", "azurerm_linux_virtual_machine", "z", "azurerm", ["create"],
            after={"name": "z", "location": "West Europe", "resource_group_name": "rg", "size": "Standard_D2s_v5",
                   "os_disk": [{"caching": "ReadWrite", "storage_account_type": "Premium_LRS", "disk_size_gb": 30}]},
            after_unknown={"id": True})]
    cfg = dict(AWS_CFG)
    cfg["google"] = {"name": "google", "full_name": GOOGLE, "expressions": {"region": {"constant_value": "europe-west1"}}}
    cfg["azurerm"] = {"name": "azurerm", "full_name": AZURE, "expressions": {"features": [{}]}}
    return build(rs, provider_config=cfg)


def unknowns():
    g = gce("n1-standard-1", "us-central1-a", name="u")
    del g["machine_type"]
    a = aws_instance("m5.large")
    rs = [R("google_compute_instance.u", "google_compute_instance", "u", "google", ["create"], after=g,
            after_unknown={"id": True, "machine_type": True}),
          R("aws_instance.nowhere", "aws_instance", "nowhere", "aws", ["create"], after=a,
            after_unknown={"id": True}),
          R("aws_instance.mystery", "aws_instance", "mystery", "aws", ["create"],
            after={k: v for k, v in aws_instance("m5.large", az="us-east-1a").items() if k != "instance_type"},
            after_unknown={"id": True, "instance_type": True})]
    cfg = {"google": {"name": "google", "full_name": GOOGLE, "expressions": {"region": {"constant_value": "us-central1"}}},
           "aws": {"name": "aws", "full_name": AWS, "expressions": {}}}
    return build(rs, provider_config=cfg)


def unsupported_only():
    """Nothing estimable: AWS and Google resources that no mapping covers, and one ignored."""
    rs = [R(f"aws_sagemaker_notebook_instance.nb[{i}]", "aws_sagemaker_notebook_instance", "nb", "aws",
            ["create"], after={"name": f"nb-{i}", "instance_type": "ml.t3.medium"},
            index=i, after_unknown={"id": True}) for i in range(2)]
    rs.append(R("google_composer_environment.flows", "google_composer_environment", "flows", "google",
                ["create"], after={"name": "flows", "region": "europe-west1"},
                after_unknown={"id": True}))
    rs.append(R("aws_iam_role.fn", "aws_iam_role", "fn", "aws", ["create"],
                after={"name": "fn", "assume_role_policy": "{}"}, after_unknown={"id": True}))
    cfg = dict(AWS_CFG)
    cfg["google"] = {"name": "google", "full_name": GOOGLE, "expressions": {"region": {"constant_value": "europe-west1"}}}
    return build(rs, provider_config=cfg)


def replace_unchanged():
    """A replacement whose figures do not change (a new image, the same machine)."""
    rs = [R("google_compute_instance.batch", "google_compute_instance", "batch", "google", ["delete", "create"],
            before=dict(gce("e2-standard-2", "europe-west1-c", image="debian-cloud/debian-11", size=20,
                            dtype="pd-balanced", name="batch"), id="projects/demo/zones/europe-west1-c/instances/batch"),
            after=gce("e2-standard-2", "europe-west1-c", image="debian-cloud/debian-12", size=20,
                      dtype="pd-balanced", name="batch"),
            after_unknown={"id": True},
            replace_paths=[["boot_disk", 0, "initialize_params", 0, "image"]],
            action_reason="replace_because_cannot_update")]
    cfg = {"google": {"name": "google", "full_name": GOOGLE, "expressions": {"region": {"constant_value": "europe-west1"}}}}
    return build(rs, provider_config=cfg)


def regions():
    """Regions found the hard way: an Azure VM whose location is a module variable set from a
    resource group, one whose location no reference reveals, an AWS instance whose own `region`
    (provider 6.x) overrides its Tokyo provider alias, and an update to a machine type known only
    after apply."""
    vm = {"name": "app", "resource_group_name": "rg", "size": "Standard_D2s_v5",
          "os_disk": [{"caching": "ReadWrite", "storage_account_type": "Premium_LRS", "disk_size_gb": 30}]}
    rs = [R("azurerm_resource_group.rg", "azurerm_resource_group", "rg", "azurerm", ["create"],
            after={"name": "rg", "location": "North Europe"}, after_unknown={"id": True}),
          R("module.app.azurerm_linux_virtual_machine.vm", "azurerm_linux_virtual_machine", "vm", "azurerm",
            ["create"], after=dict(vm), module="module.app",
            after_unknown={"id": True, "location": True},
            expressions={"location": {"references": ["var.location"]}}),
          R("azurerm_linux_virtual_machine.lost", "azurerm_linux_virtual_machine", "lost", "azurerm",
            ["create"], after=dict(vm, name="lost"), after_unknown={"id": True, "location": True},
            expressions={"location": {"references": ["local.where"]}}),
          R("aws_instance.sp", "aws_instance", "sp", "aws", ["create"],
            after=dict(aws_instance("m5.large"), region="sa-east-1"), after_unknown={"id": True},
            config_key="aws.tokyo", expressions={"region": {"constant_value": "sa-east-1"}}),
          R("aws_instance.grow", "aws_instance", "grow", "aws", ["update"],
            before=dict(aws_instance("m5.large"), id="i-1"),
            after={k: v for k, v in dict(aws_instance("m5.large"), id="i-1").items() if k != "instance_type"},
            after_unknown={"instance_type": True})]
    cfg = {"aws": {"name": "aws", "full_name": AWS, "expressions": {"region": {"constant_value": "us-east-1"}}},
           "aws.tokyo": {"name": "aws", "full_name": AWS, "alias": "tokyo",
                         "expressions": {"region": {"constant_value": "ap-northeast-1"}}},
           "azurerm": {"name": "azurerm", "full_name": AZURE, "expressions": {"features": [{}]}}}
    mods = {"app": {"source": "./app",
                    "expressions": {"location": {"references": ["azurerm_resource_group.rg.location",
                                                                "azurerm_resource_group.rg"]}},
                    "module": {"variables": {"location": {}}}}}
    return build(rs, provider_config=cfg, config_modules=mods)


def state():
    return {
        "format_version": "1.0", "terraform_version": "1.9.0",
        "values": {"outputs": {"ip": {"sensitive": False, "value": "10.0.0.5", "type": "string"},
                               "token": {"sensitive": True, "value": "SECRET-state-token", "type": "string"}},
                   "root_module": {"resources": [
                       {"address": "aws_instance.web", "mode": "managed", "type": "aws_instance", "name": "web",
                        "provider_name": AWS, "schema_version": 1,
                        "values": dict(aws_instance("m5.large", az="us-east-1a", size=100), id="i-9"),
                        "sensitive_values": {}},
                       {"address": "google_compute_instance.g", "mode": "managed", "type": "google_compute_instance",
                        "name": "g", "provider_name": GOOGLE, "schema_version": 6,
                        "values": gce("n2-standard-4", "europe-west1-b", name="g"), "sensitive_values": {}},
                       {"address": "aws_db_instance.db", "mode": "managed", "type": "aws_db_instance", "name": "db",
                        "provider_name": AWS, "schema_version": 2,
                        "values": {"instance_class": "db.t3.micro", "availability_zone": "eu-west-1a",
                                   "allocated_storage": 20, "password": "SECRET-state-pass"},
                        "sensitive_values": {"password": True}}]}}}


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    write("testdata/demo/plan.json", demo())
    write("testdata/carbon/create.json", create_only())
    write("testdata/carbon/changes.json", changes())
    write("testdata/carbon/modules.json", modules())
    write("testdata/carbon/mixed.json", mixed())
    write("testdata/carbon/unknown.json", unknowns())
    write("testdata/carbon/state.json", state())
    write("testdata/carbon/unsupported.json", unsupported_only())
    write("testdata/carbon/replace.json", replace_unchanged())
    write("testdata/carbon/regions.json", regions())
