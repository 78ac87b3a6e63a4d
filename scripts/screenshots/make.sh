#!/usr/bin/env bash
# Makes docs/screenshots/*.png: the demo's comment (folds closed, as a reviewer first sees it),
# the demo's plan fold open (the `diff` colours), and a 10,000-resource plan's comment
# (scripts/gen-plan/gen_plan.py --resources 10000 --seed 1), and a three-project comment (the
# demo and two test plans: what sits above the projects' folds), each through render.sh.
# Usage: scripts/screenshots/make.sh [BINARY]   (default target/debug/carbon-show)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/debug/carbon-show}
out=docs/screenshots
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" --format markdown testdata/demo/plan.json >"$tmp/demo.md"
python3 scripts/gen-plan/gen_plan.py --resources 10000 --seed 1 -o "$tmp/plan-10k.json"
"$bin" --format markdown "$tmp/plan-10k.json" >"$tmp/10k.md"
"$bin" --format markdown app=testdata/demo/plan.json data=testdata/carbon/mixed.json \
    edge=testdata/carbon/changes.json >"$tmp/projects.md"
r=scripts/screenshots/render.sh
bash $r "$tmp/demo.md" "$out/demo-comment.png" --height 1720
bash $r "$tmp/demo.md" "$out/demo-plan.png" --open --height 1400 --from "Plan: "
bash $r "$tmp/10k.md" "$out/10k-comment.png" --height 2320
bash $r "$tmp/projects.md" "$out/projects-comment.png" --height 1000
