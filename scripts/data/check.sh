#!/usr/bin/env bash
# Installs the pinned npm sources (npm ci, from package-lock.json) and checks that data/ is
# exactly what scripts/data/generate.mjs produces from them. Exit 0: up to date; 1: stale.
# Regenerate instead with: scripts/data/check.sh --write
set -euo pipefail
cd "$(dirname "$0")"
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
if [[ "${1:-}" == "--write" ]]; then
  node generate.mjs
else
  node generate.mjs --check
fi
