#!/usr/bin/env python3
"""Extracts EC2 instance specifications from a pinned apache-libcloud release into
libcloud_ec2.json (committed), for scripts/data/generate.mjs.

apache-libcloud (Apache-2.0) ships libcloud/compute/constants/ec2_instance_types.py, generated
by its maintainers from the AWS Price List API (contrib/scrape-ec2-sizes.py). We keep, per type:
vCPUs, memory (MiB), GPU count and GPU memory as AWS states them, instance storage, and AWS's
processor name.

Usage: python3 -m venv /tmp/lc && /tmp/lc/bin/pip install apache-libcloud==3.9.1
       /tmp/lc/bin/python extract_libcloud_ec2.py        # rewrites libcloud_ec2.json
"""
import hashlib
import json
import sys
from importlib import metadata
from pathlib import Path

PIN = "3.9.1"
version = metadata.version("apache-libcloud")
if version != PIN:
    sys.exit(f"extract_libcloud_ec2.py: apache-libcloud {version} installed, {PIN} pinned")
from libcloud.compute.constants import ec2_instance_types as mod  # noqa: E402

src = Path(mod.__file__).read_bytes()
types = {}
for name, t in sorted(mod.INSTANCE_TYPES.items()):
    x = t["extra"]
    gpus = int(x["gpu"]) if x.get("gpu", "NA") not in ("NA", "") else 0
    types[name] = {
        "vcpus": int(x["vcpu"]),
        "memoryMiB": int(t["ram"]),
        "gpus": gpus,
        "gpuMemory": x.get("gpuMemory", "NA"),
        "storage": x.get("storage", "NA"),
        "processor": x.get("physicalProcessor", "NA"),
        "currentGeneration": x.get("currentGeneration") == "Yes",
    }
out = {
    "source": {
        "package": "apache-libcloud",
        "version": version,
        "licence": "Apache-2.0",
        "file": "libcloud/compute/constants/ec2_instance_types.py",
        "sha256": hashlib.sha256(src).hexdigest(),
        "note": "generated upstream by contrib/scrape-ec2-sizes.py from the AWS Price List API",
    },
    "types": types,
}
Path(__file__).with_name("libcloud_ec2.json").write_text(json.dumps(out, indent=1, sort_keys=False) + "\n")
print(f"libcloud_ec2.json: {len(types)} types from apache-libcloud {version}", file=sys.stderr)
