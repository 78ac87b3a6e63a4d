#!/usr/bin/env python3
"""Writes testdata/carbon/families.json: one created VM per instance family added to the
reference data for issue 16 (EC2 2025 launches from moto and hand rows, Azure Cobalt 100, Fasv6,
AMD Turin v7, ND H200 v5 and ND GB200 v6 series, GCP C4D/N4D/N4A/H4D/M4/C4N and C4 from Google's
machineTypes API, GCP A3 Edge/A4/A4X/G4 from Google's GPU page), for tests/data.rs. Run from the crate root:
    python3 testdata/carbon/make_families.py
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "demo"))
from make_plan import AWS, AZURE, GOOGLE, R, aws_instance, build, gce, write  # noqa: E402

CFG = {
    "aws": {"name": "aws", "full_name": AWS, "expressions": {"region": {"constant_value": "us-east-1"}}},
    "google": {"name": "google", "full_name": GOOGLE, "expressions": {"region": {"constant_value": "us-central1"}}},
    "azurerm": {"name": "azurerm", "full_name": AZURE, "expressions": {}},
}

# (family group, instance type): one per group of families that share a source and a CPU platform
AWS_TYPES = [
    ("amd-turin", "c8a.large"), ("amd-turin", "m8a.xlarge"), ("amd-turin", "r8a.large"),
    ("amd-turin", "x8aedz.large"), ("amd-turin", "m8azn.large"),
    ("intel-granite-rapids", "c8i.large"), ("intel-granite-rapids", "m8i-flex.large"),
    ("intel-granite-rapids", "r8i.large"), ("intel-granite-rapids", "x8i.large"),
    ("graviton4", "c8gd.large"), ("graviton4", "c8gn.large"), ("graviton4", "i8ge.large"),
    ("graviton5", "m9g.large"),
    ("emerald-rapids", "i7i.large"),
    ("metal", "c7i.metal-48xl"),
    ("gpu-b200", "p6-b200.48xlarge"), ("gpu-b300", "p6-b300.48xlarge"),
    ("gpu-l4-partition", "g6f.large"), ("gpu-rtx-pro-6000", "g7e.2xlarge"), ("gpu-rtx-pro-4500", "g7.2xlarge"),
    ("gpu-gb200", "p6e-gb200.36xlarge"), ("memory-hand-row", "u7inh-32tb.480xlarge"),
]
AZURE_SIZES = [
    ("cobalt-100", "Standard_D2ps_v6"), ("cobalt-100", "Standard_D4plds_v6"), ("cobalt-100", "Standard_E96ps_v6"),
    ("amd-genoa-f", "Standard_F2as_v6"), ("amd-genoa-f", "Standard_F4als_v6"), ("amd-genoa-f", "Standard_F8ams_v6"),
    ("amd-turin-v7", "Standard_D2as_v7"), ("amd-turin-v7", "Standard_E4ads_v7"), ("amd-turin-v7", "Standard_F2als_v7"),
    ("gpu-h200", "Standard_ND96isr_H200_v5"), ("gpu-gb200", "Standard_ND128isr_NDR_GB200_v6"),
]
GCP_TYPES = [("c4", "c4-standard-2"), ("c4", "c4-highmem-2"), ("c4", "c4-standard-288"),
             ("amd-turin", "c4d-standard-2"), ("amd-turin", "n4d-standard-4"), ("amd-turin", "h4d-standard-192"),
             ("axion", "n4a-standard-2"), ("memory", "m4-megamem-56"), ("c3d", "c3d-highcpu-30"),
             ("network", "c4n-standard-2"), ("gpu-h100-edge", "a3-edgegpu-8g"), ("gpu-b200", "a4-highgpu-8g"),
             ("gpu-gb200", "a4x-highgpu-4g"), ("gpu-rtx-pro-6000-eighth", "g4-standard-6"),
             ("gpu-rtx-pro-6000", "g4-standard-48")]


def families():
    rs = []
    for group, t in AWS_TYPES:
        name = t.replace(".", "_").replace("-", "_")
        rs.append(R(f"aws_instance.{name}", "aws_instance", name, "aws", ["create"],
                    after=aws_instance(t, tags={"group": group}), after_unknown={"id": True}))
    for group, size in AZURE_SIZES:
        name = size.lower()
        rs.append(R(f"azurerm_linux_virtual_machine.{name}", "azurerm_linux_virtual_machine", name, "azurerm",
                    ["create"],
                    after={"name": name, "location": "westeurope", "resource_group_name": "rg", "size": size,
                           "admin_username": "azureuser", "tags": {"group": group},
                           "os_disk": [{"caching": "ReadWrite", "storage_account_type": "Premium_LRS",
                                        "disk_size_gb": 64}]},
                    after_unknown={"id": True}))
    for group, t in GCP_TYPES:
        name = t.replace("-", "_")
        rs.append(R(f"google_compute_instance.{name}", "google_compute_instance", name, "google", ["create"],
                    after=gce(t, "us-central1-a", name=name), after_unknown={"id": True}))
    return build(rs, provider_config=CFG)


if __name__ == "__main__":
    write("testdata/carbon/families.json", families())
