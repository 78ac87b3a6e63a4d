#!/usr/bin/env python3
"""Coverage of carbon-show's instance tables against the type names the providers' SDKs list.

  python3 -m venv /tmp/cov && /tmp/cov/bin/pip install botocore==1.44.5 azure-mgmt-compute==39.0.0
  /tmp/cov/bin/python scripts/data/coverage.py [--missing]

AWS: the EC2 InstanceType enum of botocore's ec2 service model (every type AWS's API accepts).
Azure: the VirtualMachineSizeTypes enum of azure-mgmt-compute (Microsoft documents it as a
frozen, deprecated list: sizes added since are not in it), so it is a floor, not the full list.
GCP: no Google SDK on PyPI or npm lists machine types (they are served by the
machineTypes.list API only); the denominator is that API's list as dumped in
scripts/data/vendor/gce_machine_types.json.
"""
import json
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
show_missing = "--missing" in sys.argv


def table(name):
    return json.loads((ROOT / "data" / name).read_text())


def report(provider, sdk, sdk_names, ours):
    known = sorted(n for n in sdk_names if n.lower() in ours)
    missing = sorted(set(sdk_names) - set(known))
    print(f"{provider}: {len(known)} / {len(sdk_names)} type names of {sdk} known "
          f"({100 * len(known) / len(sdk_names):.1f} %); the table has {len(ours)} types")
    if show_missing:
        print("  missing:", " ".join(missing))


import botocore.session  # noqa: E402

model = botocore.session.get_session().get_service_model("ec2")
aws_sdk = model.shape_for("InstanceType").enum
aws_ours = {k.lower() for k, v in table("aws_instances.json").items() if v["Service"] == "ec2"}
report("aws", f"botocore {metadata.version('botocore')} (ec2 InstanceType enum)", aws_sdk, aws_ours)

from azure.mgmt.compute.models import VirtualMachineSizeTypes  # noqa: E402

az_sdk = [m.value for m in VirtualMachineSizeTypes]
az_ours = {k.lower() for k in table("azure_instances.json")}
report("azure", f"azure-mgmt-compute {metadata.version('azure-mgmt-compute')} (VirtualMachineSizeTypes enum)", az_sdk, az_ours)

gce = json.loads((ROOT / "scripts/data/vendor/gce_machine_types.json").read_text())
report("gcp", f"the GCE machineTypes API dump at {gce['source']['commit'][:12]} (no SDK lists machine types)",
       list(gce["types"]), {k.lower() for k in table("gcp_instances.json")})
