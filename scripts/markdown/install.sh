#!/usr/bin/env bash
# Installs cmarkgfm (PyPI; GitHub's cmark-gfm) into .venv-md at the repository root, for
# tests/markdown.rs and scripts/screenshots/render.sh. Idempotent: pip skips what is there.
# Usage: bash scripts/markdown/install.sh   (PYTHON picks the interpreter, >= 3.9)
set -euo pipefail
cd "$(dirname "$0")/../.."
py=${PYTHON:-python3}
if [[ ! -x .venv-md/bin/python ]]; then
    "$py" -m venv .venv-md
fi
.venv-md/bin/pip install --quiet --disable-pip-version-check -r scripts/markdown/requirements.txt
echo "install.sh: scripts/markdown/requirements.txt in $(pwd)/.venv-md"
