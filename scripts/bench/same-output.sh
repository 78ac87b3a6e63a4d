#!/usr/bin/env bash
# Do two carbon-show binaries write the same bytes? Runs BEFORE and AFTER on every fixture plan
# (testdata/, tests/fixtures/) and on each bench shape's plan (mixed, dense, instances, wide,
# deep, sensitive; 10k resources by default), in the human, JSON and Markdown formats, and
# compares stdout, stderr and the exit code byte for byte.
#
#   bash scripts/bench/same-output.sh /tmp/native-before target/profiling/carbon-show
#   bash scripts/bench/same-output.sh --size 1000 OLD NEW      # quicker shape plans
#
# Shape plans are generated once into target/bench/ (plan-<shape>-<size>.json, seed 1, as
# scripts/bench/run.sh names them). Exit 0: every output identical; 1: some differ (listed,
# with the first differing lines); 2: usage.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SIZE=10000
OUT="$ROOT/target/bench"
while [ $# -gt 0 ]; do
  case "$1" in
    --size) SIZE="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "same-output.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -ne 2 ]; then
  echo "usage: bash scripts/bench/same-output.sh [--size N] [--out DIR] BEFORE AFTER" >&2
  exit 2
fi
BEFORE="$(realpath "$1")"
AFTER="$(realpath "$2")"
for b in "$BEFORE" "$AFTER"; do
  [ -x "$b" ] || { echo "same-output.sh: $b is not an executable" >&2; exit 2; }
done

human_size() {
  local n="$1"
  if [ $((n % 1000)) -eq 0 ]; then echo "$((n / 1000))k"; else echo "$n"; fi
}

mkdir -p "$OUT"
plans=()
while IFS= read -r -d '' f; do
  plans+=("$f")
done < <(find "$ROOT/testdata" "$ROOT/tests/fixtures" -name '*.json' ! -name 'schemas.json' -print0 | sort -z)
for shape in mixed dense instances wide deep sensitive; do
  stem="plan-$shape"
  [ "$shape" = mixed ] && stem="plan"
  f="$OUT/$stem-$(human_size "$SIZE").json"
  if [ ! -s "$f" ]; then
    echo "[same-output] generating $f" >&2
    python3 "$ROOT/scripts/gen-plan/gen_plan.py" --shape "$shape" --resources "$SIZE" \
      --seed 1 --output "$f" >/dev/null
  fi
  plans+=("$f")
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
runs=0
differ=0
cd "$ROOT"
for plan in "${plans[@]}"; do
  rel="${plan#"$ROOT"/}"
  for format in human json markdown; do
    args=(--color never)
    [ "$format" != human ] && args+=(--format "$format")
    for side in before after; do
      bin="$BEFORE"
      [ "$side" = after ] && bin="$AFTER"
      set +e
      "$bin" "${args[@]}" "$rel" >"$work/$side.out" 2>"$work/$side.err" </dev/null
      echo "exit $?" >>"$work/$side.err"
      set -e
    done
    runs=$((runs + 1))
    if ! cmp -s "$work/before.out" "$work/after.out" || ! cmp -s "$work/before.err" "$work/after.err"; then
      differ=$((differ + 1))
      echo "DIFFERS: $rel ($format)"
      diff "$work/before.out" "$work/after.out" | head -5 || true
      diff "$work/before.err" "$work/after.err" | head -5 || true
    fi
  done
done
echo "[same-output] ${#plans[@]} plans x 3 formats: $runs runs, $differ differ" >&2
[ "$differ" -eq 0 ]
