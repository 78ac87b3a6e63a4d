"""Plan shapes other than gen_plan.py's mixed plan, for scripts/bench (issue 28).

  dense      every resource distinct and mapped (VMs, disks, databases, buckets on three clouds)
  instances  one small mapped resource with `count = N`
  wide       one resource whose attributes and tags number N each
  deep       mapped resources spread over a module tree 8 calls deep
  sensitive  mapped resources with several sensitive values each (markers in <plan>.secrets)

Each returns (document text, secret markers, resource_changes count). Python 3.11 standard
library only; the same shape, size and seed give byte-identical output.
"""
from __future__ import annotations

import json
import random

AWS = "registry.opentofu.org/hashicorp/aws"
GOOGLE = "registry.opentofu.org/hashicorp/google"
AZURE = "registry.opentofu.org/hashicorp/azurerm"

AWS_TYPES = ["t3.micro", "t3.medium", "m5.large", "m5.xlarge", "m6i.2xlarge", "c5.xlarge",
             "r5.large", "m6g.large", "c6g.2xlarge", "m7i.large"]
GCP_TYPES = ["e2-medium", "n2-standard-4", "n2-standard-8", "c2-standard-8", "e2-standard-2",
             "n1-standard-4", "t2d-standard-4"]
AZURE_SIZES = ["Standard_D2s_v3", "Standard_D4s_v5", "Standard_B2s", "Standard_E4s_v5",
               "Standard_F8s_v2"]


def _config():
    return {
        "provider_config": {
            "aws": {"name": "aws", "full_name": AWS,
                    "expressions": {"region": {"constant_value": "us-east-1"}}},
            "google": {"name": "google", "full_name": GOOGLE,
                       "expressions": {"region": {"constant_value": "us-central1"}}},
            "azurerm": {"name": "azurerm", "full_name": AZURE,
                        "expressions": {"features": [{}]}},
        },
        "root_module": {},
    }


def _resource(address, rtype, name, provider, values, index=None, sensitive=None):
    r = {"address": address, "mode": "managed", "type": rtype, "name": name}
    if index is not None:
        r["index"] = index
    r.update({"provider_name": provider, "schema_version": 0, "values": values,
              "sensitive_values": sensitive or {}})
    return r


def _change(r, actions, before, after, after_sensitive=None, before_sensitive=None):
    c = {k: r[k] for k in ("address", "mode", "type", "name") if k in r}
    if "index" in r:
        c["index"] = r["index"]
    c["provider_name"] = r["provider_name"]
    c["change"] = {"actions": actions, "before": before, "after": after,
                   "after_unknown": {"id": True} if after is not None else {},
                   "before_sensitive": before_sensitive or ({} if before is not None else False),
                   "after_sensitive": after_sensitive or ({} if after is not None else False)}
    return c


def _doc(planned, prior, changes, modules=None):
    root = {"resources": planned}
    if modules:
        root["child_modules"] = modules
    doc = {
        "format_version": "1.2",
        "terraform_version": "1.8.3",
        "planned_values": {"root_module": root},
        "resource_changes": changes,
        "prior_state": {"format_version": "1.0", "terraform_version": "1.8.3",
                        "values": {"root_module": {"resources": prior}}},
        "configuration": _config(),
        "timestamp": "2026-11-23T05:00:00Z",
        "applyable": True, "complete": True, "errored": False,
    }
    return json.dumps(doc, separators=(",", ":"))


def _mapped(i, rng):
    """One distinct mapped resource: (type, provider, values)."""
    kind = i % 8
    if kind in (0, 1, 2):
        return "aws_instance", AWS, {
            "ami": f"ami-{i:017x}", "instance_type": rng.choice(AWS_TYPES),
            "availability_zone": "us-east-1a",
            "root_block_device": [{"volume_size": 20 + i % 80, "volume_type": "gp3"}],
            "tags": {"Name": f"vm-{i}", "team": f"team-{i % 17}"}}
    if kind == 3:
        return "aws_ebs_volume", AWS, {"availability_zone": "us-east-1b",
                                       "size": 50 + i % 500, "type": rng.choice(["gp3", "st1"])}
    if kind == 4:
        return "google_compute_instance", GOOGLE, {
            "machine_type": rng.choice(GCP_TYPES), "zone": "us-central1-a",
            "boot_disk": [{"initialize_params": [{"size": 30, "type": "pd-ssd"}]}],
            "labels": {"team": f"team-{i % 13}"}}
    if kind == 5:
        return "google_compute_disk", GOOGLE, {"zone": "europe-west1-b", "size": 100 + i % 900,
                                              "type": "pd-standard"}
    if kind == 6:
        return "azurerm_linux_virtual_machine", AZURE, {
            "size": rng.choice(AZURE_SIZES), "location": "westeurope",
            "os_disk": [{"disk_size_gb": 64, "storage_account_type": "Premium_LRS"}]}
    return "aws_s3_bucket", AWS, {"bucket": f"bucket-{i}", "tags": {"n": str(i)}}


def dense(n: int, seed: int):
    rng = random.Random(seed)
    planned, prior, changes = [], [], []
    for i in range(n):
        rtype, prov, values = _mapped(i, rng)
        name = f"r{i}"
        r = _resource(f"{rtype}.{name}", rtype, name, prov, values)
        act = rng.random()
        if act < 0.6:
            planned.append(r)
            changes.append(_change(r, ["create"], None, values))
        elif act < 0.85:
            before = dict(values)
            planned.append(r)
            prior.append(_resource(r["address"], rtype, name, prov, before))
            after = dict(values)
            if "instance_type" in after:
                after["instance_type"] = rng.choice(AWS_TYPES)
            r["values"] = after
            changes.append(_change(r, ["update"], before, after))
        else:
            prior.append(r)
            changes.append(_change(r, ["delete"], values, None))
    return _doc(planned, prior, changes), [], len(changes)


def instances(n: int, seed: int):
    del seed
    planned, changes = [], []
    for i in range(n):
        values = {"ami": "ami-0c55b159cbfafe1f0", "instance_type": "t3.micro",
                  "tags": {"Name": f"node-{i}"}}
        r = _resource(f"aws_instance.node[{i}]", "aws_instance", "node", AWS, values, index=i)
        planned.append(r)
        changes.append(_change(r, ["create"], None, values))
    return _doc(planned, [], changes), [], len(changes)


def wide(n: int, seed: int):
    rng = random.Random(seed)
    attrs = {f"attribute_{i:06d}": f"value-{rng.getrandbits(48):012x}" for i in range(n)}
    tags = {f"tag-{i:06d}": f"v{i}" for i in range(n)}
    before = {"instance_type": "m5.large", **attrs, "tags": tags}
    after = dict(before)
    after["instance_type"] = "m5.xlarge"
    after["tags"] = {**tags, "tag-000000": "changed"}
    r = _resource("aws_instance.wide", "aws_instance", "wide", AWS, after)
    p = _resource("aws_instance.wide", "aws_instance", "wide", AWS, before)
    return _doc([r], [p], [_change(r, ["update"], before, after)]), [], 1


def deep(n: int, seed: int, depth: int = 8):
    rng = random.Random(seed)
    changes = []
    root: dict = {"resources": [], "child_modules": []}
    # a chain of module calls, each level holding an equal share of the resources
    levels = []
    prefix = ""
    for d in range(depth):
        prefix = f"{prefix}module.m{d}."
        levels.append({"address": prefix[:-1], "resources": []})
    for i in range(n):
        lvl = levels[i % depth]
        rtype, prov, values = _mapped(i, rng)
        name = f"r{i}"
        r = _resource(f"{lvl['address']}.{rtype}.{name}", rtype, name, prov, values)
        lvl["resources"].append(r)
        changes.append(_change(r, ["create"], None, values))
    # nest them: level d's module holds level d+1's
    child = None
    for lvl in reversed(levels):
        if child is not None:
            lvl["child_modules"] = [child]
        child = lvl
    root["child_modules"] = [child]
    doc = json.loads(_doc([], [], changes))
    doc["planned_values"]["root_module"] = root
    return json.dumps(doc, separators=(",", ":")), [], len(changes)


def sensitive(n: int, seed: int):
    rng = random.Random(seed)
    planned, changes, secrets = [], [], []
    for i in range(n):
        rtype, prov, values = _mapped(i, rng)
        mask = {}
        for k in ("password", "token", "connection"):
            s = f"SECRET-{rng.getrandbits(64):016x}"
            secrets.append(s)
            values[k] = f"{k}={s}"
            mask[k] = True
        name = f"s{i}"
        r = _resource(f"{rtype}.{name}", rtype, name, prov, values, sensitive=mask)
        planned.append(r)
        changes.append(_change(r, ["create"], None, values, after_sensitive=mask))
    return _doc(planned, [], changes), secrets, len(changes)


SHAPES = {"dense": dense, "instances": instances, "wide": wide, "deep": deep,
          "sensitive": sensitive}
