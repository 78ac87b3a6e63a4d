#!/usr/bin/env bash
# Runs an Impact Framework manifest written by `carbon-show --format impact-framework` through the
# real if-run (installed by install.sh), fails unless if-run reports success, and prints the
# aggregated totals. With EXPECTED_GRAMS, also fails unless the total `carbon` is within 0.1 %.
#
# Usage: scripts/impact/verify.sh MANIFEST.yml [EXPECTED_GRAMS]
#   e.g. carbon-show --format impact-framework plan.json > plan.if.yml
#        scripts/impact/verify.sh plan.if.yml
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[[ $# -ge 1 && $# -le 2 ]] || { sed -n '2,8p' "$0" >&2; exit 2; }
manifest=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
expected=${2:-}
if_run=$here/node_modules/.bin/if-run
[[ -x $if_run ]] || { echo "verify.sh: if-run missing: run bash $here/install.sh" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# if-run writes OUTPUT with its extension replaced by .yaml, and exits 0 even when it fails:
# the verdict is `execution.status` in the output. It runs `npm list`, so run it from here.
(cd "$here" && "$if_run" --manifest "$manifest" --output "$out/result.yaml" >"$out/log" 2>&1) || {
    cat "$out/log" >&2; echo "verify.sh: if-run failed" >&2; exit 1; }
[[ -f $out/result.yaml ]] || { cat "$out/log" >&2; echo "verify.sh: if-run wrote no output" >&2; exit 1; }
NODE_PATH=$here/node_modules node - "$out/result.yaml" "$expected" <<'JS'
const fs = require('fs');
const yaml = require('js-yaml');
const [file, expected] = process.argv.slice(2);
const doc = yaml.load(fs.readFileSync(file, 'utf8'));
if (doc.execution?.status !== 'success') {
  console.error(`verify.sh: if-run status ${doc.execution?.status}: ${doc.execution?.error}`);
  process.exit(1);
}
const agg = doc.tree.aggregated ?? {};
const show = (name, a) =>
  console.log(`${name}: carbon ${a.carbon} gCO2eq, energy ${a.energy} kWh`);
show('total', { carbon: agg.carbon ?? 0, energy: agg.energy ?? 0 });
for (const [name, child] of Object.entries(doc.tree.children ?? {})) {
  show(`  ${name}`, child.aggregated ?? {});
}
if (expected) {
  const want = Number(expected);
  const got = agg.carbon ?? 0;
  const err = want === 0 ? Math.abs(got) : Math.abs(got - want) / Math.abs(want);
  if (!(err <= 1e-3)) {
    console.error(`verify.sh: total carbon ${got} g differs from expected ${want} g by ${(err * 100).toFixed(4)} %`);
    process.exit(1);
  }
  console.log(`verify.sh: total carbon agrees with ${want} g (relative error ${err.toExponential(2)})`);
}
JS
