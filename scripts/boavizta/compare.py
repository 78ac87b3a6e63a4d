#!/usr/bin/env python3
"""carbon-show beside Boavizta for 40 common instance types per cloud: operational (use) and
embodied gCO2eq per hour, the ratio, and the figures that explain a ratio.

Boavizta (PyPI `boaviztapi`, AGPL-3.0) is a local test oracle only: it runs in-process here,
nothing of it is shipped, vendored or imported by carbon-show. Our figures come from the
carbon-show binary itself, run on a plan of the same types (built here, in memory).

Usage (Python 3.11; boaviztapi is not a project dependency):
    python3 -m venv /tmp/boa && /tmp/boa/bin/pip install boaviztapi==2.5.0 httpx
    cargo build --locked
    /tmp/boa/bin/python scripts/boavizta/compare.py [--bin target/debug/carbon-show] > /tmp/boavizta.md

Both sides run at the same CPU load: 50 %, or a burstable type's published baseline (carbon-show's
default, data/hosts.json), passed to Boavizta as time_workload. Regions: aws us-east-1, gcp
us-central1, azure eastus; Boavizta's usage_location USA for all three.
"""
import argparse
import json
import subprocess
import sys
import tempfile
import warnings
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# 40 commonly used types per cloud, chosen by hand (no public usage statistics are available
# offline): the burstable and small-to-mid general-purpose, compute- and memory-optimised sizes of
# the current and previous generations, and the common GPU types.
TYPES = {
    "aws": "t3.micro t3.small t3.medium t3.large t3.xlarge t2.micro t2.small t2.medium t3a.medium t3a.large "
           "t4g.micro t4g.small t4g.medium m5.large m5.xlarge m5.2xlarge m5.4xlarge m6i.large m6i.xlarge m6g.large "
           "m6g.xlarge m7g.large m7i.large c5.large c5.xlarge c5.2xlarge c6i.large c6g.large c7g.large r5.large "
           "r5.xlarge r5.2xlarge r6i.large r6g.large m5a.large i3.large g4dn.xlarge g5.xlarge p3.2xlarge m4.large",
    "gcp": "e2-micro e2-small e2-medium e2-standard-2 e2-standard-4 e2-standard-8 e2-standard-16 e2-highmem-2 "
           "e2-highmem-4 e2-highcpu-2 e2-highcpu-4 n1-standard-1 n1-standard-2 n1-standard-4 n1-standard-8 "
           "n1-highmem-2 n1-highmem-4 n1-highcpu-4 n2-standard-2 n2-standard-4 n2-standard-8 n2-standard-16 "
           "n2-highmem-2 n2-highmem-4 n2-highcpu-4 n2d-standard-2 n2d-standard-4 n2d-standard-8 c2-standard-4 "
           "c2-standard-8 c2d-standard-4 t2d-standard-2 t2d-standard-4 t2a-standard-2 c3-standard-4 n4-standard-2 "
           "n4-standard-4 g2-standard-4 a2-highgpu-1g f1-micro",
    "azure": "Standard_B1s Standard_B1ms Standard_B2s Standard_B2ms Standard_B4ms Standard_B2s_v2 Standard_B4s_v2 "
             "Standard_D2s_v3 Standard_D4s_v3 Standard_D8s_v3 Standard_D2s_v4 Standard_D4s_v4 Standard_D2s_v5 "
             "Standard_D4s_v5 Standard_D8s_v5 Standard_D16s_v5 Standard_D2as_v5 Standard_D4as_v5 Standard_D2ds_v5 "
             "Standard_D4ds_v5 Standard_D2_v3 Standard_D4_v3 Standard_DS1_v2 Standard_DS2_v2 Standard_DS3_v2 "
             "Standard_E2s_v3 Standard_E4s_v3 Standard_E8s_v3 Standard_E2s_v5 Standard_E4s_v5 Standard_E8s_v5 "
             "Standard_F2s_v2 Standard_F4s_v2 Standard_F8s_v2 Standard_A2_v2 Standard_D2s_v6 Standard_D4s_v6 "
             "Standard_NC6s_v3 Standard_NC4as_T4_v3 Standard_NC24ads_A100_v4",
}
TYPES = {p: t.split() for p, t in TYPES.items()}
REGION = {"aws": "us-east-1", "gcp": "us-central1-a", "azure": "eastus"}
RESOURCE = {"aws": ("aws_instance", "instance_type"), "gcp": ("google_compute_instance", "machine_type"),
            "azure": ("azurerm_linux_virtual_machine", "size")}
PROVIDER_KEY = {"aws": "aws", "gcp": "google", "azure": "azurerm"}


def plan():
    """A plan creating one VM of every type (no disks), in the regions above."""
    changes, config = [], []
    for p, types in TYPES.items():
        rtype, attr = RESOURCE[p]
        for i, t in enumerate(types):
            after = {attr: t, "name": f"x{i}"}
            after.update({"gcp": {"zone": REGION[p], "network_interface": [{"network": "default"}]},
                          "azure": {"location": REGION[p], "resource_group_name": "rg"}, "aws": {"ami": "ami-1"}}[p])
            addr = f"{rtype}.{p}_{i}"
            changes.append({"address": addr, "mode": "managed", "type": rtype, "name": f"{p}_{i}",
                            "provider_name": f"registry.terraform.io/hashicorp/{PROVIDER_KEY[p]}",
                            "change": {"actions": ["create"], "before": None, "after": after,
                                       "after_unknown": {"id": True}, "before_sensitive": False, "after_sensitive": {}}})
            config.append({"address": addr, "mode": "managed", "type": rtype, "name": f"{p}_{i}",
                           "provider_config_key": PROVIDER_KEY[p], "expressions": {}, "schema_version": 0})
    providers = {"aws": {"name": "aws", "full_name": "registry.terraform.io/hashicorp/aws",
                         "expressions": {"region": {"constant_value": "us-east-1"}}},
                 "google": {"name": "google", "full_name": "registry.terraform.io/hashicorp/google",
                            "expressions": {"region": {"constant_value": "us-central1"}}},
                 "azurerm": {"name": "azurerm", "full_name": "registry.terraform.io/hashicorp/azurerm",
                             "expressions": {"features": [{}]}}}
    return {"format_version": "1.2", "terraform_version": "1.9.0", "resource_changes": changes,
            "planned_values": {"root_module": {"resources": [
                {"address": c["address"], "mode": "managed", "type": c["type"], "name": c["name"],
                 "provider_name": c["provider_name"], "schema_version": 0, "values": c["change"]["after"],
                 "sensitive_values": {}} for c in changes]}},
            "configuration": {"provider_config": providers, "root_module": {"resources": config}}}


def ours(binary):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(plan(), f)
    out = subprocess.run([binary, f.name, "--format", "json"], capture_output=True, text=True, check=True)
    rows = {}
    for r in json.loads(out.stdout)["resources"]:
        p, i = r["address"].split(".")[1].split("_")
        rows[(p, TYPES[p][int(i)])] = r
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "target" / "debug" / "carbon-show"))
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    from fastapi.testclient import TestClient  # boaviztapi's own dependency
    from boaviztapi.main import app

    client = TestClient(app)
    hosts = json.loads((ROOT / "data" / "hosts.json").read_text())
    mine = ours(args.bin)
    print(f"carbon-show vs boaviztapi {version('boaviztapi')}, gCO2eq per hour (usage_location USA)\n")
    print("| cloud | type | load % | ours op | Boavizta use | op ratio | ours W | Boavizta W | ours g/kWh | Boavizta g/kWh | "
          "ours emb | Boavizta emb (min–max) | emb ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    stats = {"op": [], "emb": []}
    outliers = {"op": [], "emb": []}
    for p, types in TYPES.items():
        known = set(client.get("/v1/cloud/instance/all_instances", params={"provider": p}).json())
        for t in types:
            r = mine[(p, t)]
            if r["status"] != "estimated":
                print(f"| {p} | {t} | | not estimated by carbon-show: {r.get('reason')} |")
                continue
            side = r["after"]
            load = hosts["baselineUtilization"][p].get(t, 0.5)
            bname = t.removeprefix("Standard_").lower() if p == "azure" else t
            if bname not in known:
                print(f"| {p} | {t} | {load * 100:g} | {side['per_hour']['operational_gco2eq']:.2f} | not in Boavizta | | "
                      f"{side['per_hour']['power_w']:.1f} | | | | {side['per_hour']['embodied_gco2eq']:.3f} | not in Boavizta | |")
                continue
            b = client.post("/v1/cloud/instance", params={"verbose": "true", "criteria": "gwp", "duration": 1},
                            json={"provider": p, "instance_type": bname,
                                  "usage": {"usage_location": "USA", "time_workload": load * 100}}).json()
            use = b["impacts"]["gwp"]["use"]["value"] * 1000
            emb = b["impacts"]["gwp"]["embedded"]
            bw = b["verbose"]["avg_power"]["value"]
            bf = b["verbose"]["gwp_factor"]["value"] * 1000
            o, e = side["per_hour"]["operational_gco2eq"], side["per_hour"]["embodied_gco2eq"]
            grid = side["grid_g_per_kwh"]
            ro, re_ = o / use, e / (emb["value"] * 1000)
            stats["op"].append(ro)
            stats["emb"].append(re_)
            for k, x in (("op", ro), ("emb", re_)):
                if not 0.5 <= x <= 2:
                    outliers[k].append(f"{t} {x:.2f}")
            flag = lambda x: f"**{x:.2f}**" if not 0.5 <= x <= 2 else f"{x:.2f}"
            print(f"| {p} | {t} | {load * 100:g} | {o:.2f} | {use:.2f} | {flag(ro)} | {side['per_hour']['power_w']:.1f} | {bw:.1f} | "
                  f"{grid:.0f} | {bf:.0f} | {e:.3f} | {emb['value'] * 1000:.3f} ({emb['min'] * 1000:.3f}–{emb['max'] * 1000:.3f}) | {flag(re_)} |")
    for k, xs in stats.items():
        xs = sorted(xs)
        out = sum(1 for x in xs if not 0.5 <= x <= 2)
        print(f"\n- {k}: {len(xs)} types, median ratio {xs[len(xs) // 2]:.2f} (range {xs[0]:.2f}–{xs[-1]:.2f}), "
              f"{out} outside 0.5–2: {', '.join(outliers[k])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
