#!/usr/bin/env bash
# Installs the Impact Framework pinned in package-lock.json (@grnsft/if 1.1.0) into
# scripts/impact/node_modules, for tests/impact.rs and verify.sh. Needs Node.js >= 18 and npm.
# Usage: bash scripts/impact/install.sh      (idempotent: skips when 1.1.0 is already there)
set -euo pipefail
cd "$(dirname "$0")"
want=1.1.0
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "install.sh: node and npm are needed to install the Impact Framework (if-run)" >&2
    exit 1
fi
have=$(node -p "require('./node_modules/@grnsft/if/package.json').version" 2>/dev/null || true)
if [[ "$have" == "$want" && -x node_modules/.bin/if-run && "${1:-}" != "--force" ]]; then
    echo "install.sh: @grnsft/if $have already installed"
    exit 0
fi
npm ci --no-audit --no-fund --loglevel=error
have=$(node -p "require('./node_modules/@grnsft/if/package.json').version")
[[ "$have" == "$want" ]] || { echo "install.sh: got @grnsft/if $have, want $want" >&2; exit 1; }
echo "install.sh: @grnsft/if $have installed: $(pwd)/node_modules/.bin/if-run"
