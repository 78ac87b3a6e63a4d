#!/usr/bin/env python3
"""Extracts EC2 instance specifications from a pinned moto release into moto_ec2.json
(committed), for scripts/data/generate.mjs.

moto (Apache-2.0) ships moto/ec2/resources/instance_types.json.gz, the output of EC2's
DescribeInstanceTypes API that its maintainers refresh with scripts/ec2_get_instance_type_offerings
/ get_instance_info. We keep, per type: default vCPUs, memory (MiB), GPUs (model name, count and
partition size as AWS states them), instance storage, processor manufacturer and clock,
bare metal, burstable, current generation.

Usage: python3 -m venv /tmp/moto && /tmp/moto/bin/pip install --no-deps moto==5.2.5
       /tmp/moto/bin/python extract_moto_ec2.py        # rewrites moto_ec2.json
(`--no-deps`: only the data file is read; moto's own dependencies are not needed.)
"""
import gzip
import hashlib
import json
import sys
from importlib import metadata, util
from pathlib import Path

PIN = "5.2.5"
version = metadata.version("moto")
if version != PIN:
    sys.exit(f"extract_moto_ec2.py: moto {version} installed, {PIN} pinned")
spec = util.find_spec("moto")
path = Path(spec.submodule_search_locations[0]) / "ec2" / "resources" / "instance_types.json.gz"
raw = path.read_bytes()
api = json.loads(gzip.decompress(raw))

types = {}
for name, t in sorted(api.items()):
    gpus = [
        {
            "name": g["Name"],
            "manufacturer": g.get("Manufacturer", ""),
            "count": g.get("Count", 0),
            "partition": g.get("GpuPartitionSize", 1.0),
            "memoryMiB": g.get("MemoryInfo", {}).get("SizeInMiB", 0),
        }
        for g in t.get("GpuInfo", {}).get("Gpus", [])
    ]
    disks = t.get("InstanceStorageInfo", {}).get("Disks", [])
    p = t.get("ProcessorInfo", {})
    types[name] = {
        "vcpus": t["VCpuInfo"]["DefaultVCpus"],
        "memoryMiB": t["MemoryInfo"]["SizeInMiB"],
        "gpus": gpus,
        "gpuMemoryMiB": t.get("GpuInfo", {}).get("TotalGpuMemoryInMiB", 0),
        "storage": [{"count": d["Count"], "sizeGB": d["SizeInGB"], "type": d["Type"]} for d in disks],
        "manufacturer": p.get("Manufacturer", ""),
        "clockGhz": p.get("SustainedClockSpeedInGhz"),
        "accelerators": sorted(
            a["Name"]
            for key, inner in (("NeuronInfo", "NeuronDevices"), ("InferenceAcceleratorInfo", "Accelerators"), ("FpgaInfo", "Fpgas"))
            for a in t.get(key, {}).get(inner, [])
        ),
        "bareMetal": t.get("BareMetal", False),
        "burstable": t.get("BurstablePerformanceSupported", False),
        "currentGeneration": t.get("CurrentGeneration", False),
    }
out = {
    "source": {
        "package": "moto",
        "version": version,
        "licence": "Apache-2.0",
        "file": "moto/ec2/resources/instance_types.json.gz",
        "sha256": hashlib.sha256(raw).hexdigest(),
        "note": "EC2 DescribeInstanceTypes output, refreshed by moto's maintainers from the AWS API",
    },
    "types": types,
}
# One line per type, so a refresh shows as a readable diff.
lines = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in types.items())
text = '{\n"source": ' + json.dumps(out["source"], indent=1) + ',\n"types": {\n' + lines + "\n}\n}\n"
assert json.loads(text) == out
Path(__file__).with_name("moto_ec2.json").write_text(text)
print(f"moto_ec2.json: {len(types)} types from moto {version}", file=sys.stderr)
