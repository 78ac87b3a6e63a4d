#!/usr/bin/env bash
# Benchmark carbon-show against `jq .` on synthetic 1k/10k/50k-resource plans.
#
#   bash scripts/bench/run.sh                 # build if needed, generate plans once, measure
#   bash scripts/bench/run.sh --build         # force `cargo build --release` first
#   bash scripts/bench/run.sh --bin 'python3 -c "import json,sys; json.load(open(sys.argv[-1]))"'
#
# Everything lands in target/bench/: plan-*.json (+ .secrets), hyperfine-*.json, rss-*.txt,
# results.md. See docs/performance.md for the method and what every column means.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$ROOT/target/bench"
BIN=""
BUILD=0
RUNS=""
WARMUP=1
SIZES="1000,10000,50000"
SEED=1
REGEN=0
IGNORE_FAILURE=0
HUMAN_ARGS="--color never"
JSON_ARGS="--format json"

usage() {
  cat <<'EOF'
usage: bash scripts/bench/run.sh [options]
  --bin CMD           program to benchmark (default: target/release/carbon-show, built if missing);
                      may be a command with arguments, inserted verbatim into a shell command
  --build             run `cargo build --release` even if the binary exists
  --runs N            timed runs per command and size (default: 10 for <=1k, 5 for <=10k, 3 above)
  --warmup N          warm-up runs per command (default 1)
  --sizes LIST        comma-separated resource counts (default 1000,10000,50000)
  --seed N            generator seed (default 1)
  --regen             regenerate the plans even if present
  --out DIR           output directory (default target/bench)
  --human-args ARGS   arguments for the human run (default "--color never")
  --json-args ARGS    arguments for the JSON run (default "--format json")
  --ignore-failure    do not abort when the benchmarked command exits non-zero
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --bin) BIN="$2"; shift 2 ;;
    --build) BUILD=1; shift ;;
    --runs) RUNS="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --sizes) SIZES="$2"; shift 2 ;;
    --seed) SEED="$2"; shift 2 ;;
    --regen) REGEN=1; shift ;;
    --out) OUT="$2"; shift 2 ;;
    --human-args) HUMAN_ARGS="$2"; shift 2 ;;
    --json-args) JSON_ARGS="$2"; shift 2 ;;
    --ignore-failure) IGNORE_FAILURE=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

log() { printf '[bench] %s\n' "$*" >&2; }

# ---- tools -------------------------------------------------------------------------------
apt_install() {
  local pkg="$1"
  log "installing $pkg (apt-get)"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get install -y "$pkg" >/dev/null 2>&1 ||
    { $sudo apt-get update >/dev/null 2>&1 && $sudo apt-get install -y "$pkg" >/dev/null; }
}
command -v jq >/dev/null || apt_install jq
command -v hyperfine >/dev/null || apt_install hyperfine || log "hyperfine unavailable: falling back to repeated /usr/bin/time runs"
[ -x /usr/bin/time ] || apt_install time
command -v python3 >/dev/null || { echo "run.sh: python3 is required for the plan generator" >&2; exit 1; }
HAVE_HYPERFINE=0
command -v hyperfine >/dev/null && HAVE_HYPERFINE=1

# ---- binary ------------------------------------------------------------------------------
if [ -z "$BIN" ]; then
  BIN="$ROOT/target/release/carbon-show"
  if [ "$BUILD" = 1 ] || [ ! -x "$BIN" ]; then
    log "cargo build --release"
    (cd "$ROOT" && cargo build --release)
  fi
fi
BIN_LABEL="$BIN"

# ---- plans -------------------------------------------------------------------------------
mkdir -p "$OUT"
GEN="$ROOT/scripts/gen-plan/gen_plan.py"
want_stamp="$(sha256sum "$GEN" | cut -c1-16) seed=$SEED"

label() { # 1000 -> 1k, 50000 -> 50k
  local n="$1"
  if [ $((n % 1000)) -eq 0 ] && [ "$n" -ge 1000 ]; then echo "$((n / 1000))k"; else echo "$n"; fi
}

IFS=',' read -r -a SIZE_LIST <<<"$SIZES"
for n in "${SIZE_LIST[@]}"; do
  f="$OUT/plan-$(label "$n").json"
  # <plan>.stamp records the generator's hash and the seed the plan was made with
  if [ "$REGEN" = 1 ] || [ ! -s "$f" ] || [ "$(cat "$f.stamp" 2>/dev/null)" != "$want_stamp" ]; then
    log "generating $f"
    start=$(date +%s.%N)
    python3 "$GEN" --resources "$n" --seed "$SEED" --output "$f"
    echo "$want_stamp" >"$f.stamp"
    log "  took $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.1f", e - s}') s"
  fi
done

# ---- measurements ------------------------------------------------------------------------
runs_for() {
  if [ -n "$RUNS" ]; then echo "$RUNS"; return; fi
  if [ "$1" -le 1000 ]; then echo 10; elif [ "$1" -le 10000 ]; then echo 5; else echo 3; fi
}

# peak RSS in kB of one run of a shell command (GNU time, max resident set size)
peak_rss_kb() {
  local cmd="$1" log="$2"
  if ! /usr/bin/time -v -o "$log" sh -c "exec $cmd" >/dev/null 2>>"$log.stderr"; then
    [ "$IGNORE_FAILURE" = 1 ] || { echo "run.sh: command failed: $cmd (see $log.stderr)" >&2; exit 1; }
  fi
  awk -F': ' '/Maximum resident set size/ {print $2}' "$log"
}

# mean wall time in seconds without hyperfine: median-free simple mean of N runs
fallback_time() {
  local cmd="$1" runs="$2" warm="$3" i s e total=0
  for ((i = 0; i < warm; i++)); do sh -c "$cmd" >/dev/null 2>&1 || true; done
  for ((i = 0; i < runs; i++)); do
    s=$(date +%s.%N); sh -c "$cmd" >/dev/null 2>&1 || true; e=$(date +%s.%N)
    total=$(awk -v t="$total" -v s="$s" -v e="$e" 'BEGIN{print t + e - s}')
  done
  awk -v t="$total" -v r="$runs" 'BEGIN{printf "%.6f", t / r}'
}

declare -A T_HUMAN T_JSON T_JQ RSS_HUMAN RSS_JSON RSS_JQ BYTES CPU
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
busy=$(awk -v l="${LOAD_BEFORE%% *}" -v c="$(nproc)" 'BEGIN{print (l > 0.5 * c) ? 1 : 0}' 2>/dev/null || echo 0)
[ "$busy" = 1 ] && log "warning: load average $LOAD_BEFORE on $(nproc) CPUs: wall-clock times will be noisy"
for n in "${SIZE_LIST[@]}"; do
  l="$(label "$n")"
  f="$OUT/plan-$l.json"
  BYTES[$n]=$(stat -c %s "$f")
  human="$BIN $HUMAN_ARGS $f"
  json="$BIN $JSON_ARGS $f"
  jqc="jq . $f"
  runs=$(runs_for "$n")
  log "size $l ($(awk -v b="${BYTES[$n]}" 'BEGIN{printf "%.1f", b/1e6}') MB): $runs runs, $WARMUP warm-up"
  if [ "$HAVE_HYPERFINE" = 1 ]; then
    hf=(hyperfine --warmup "$WARMUP" --runs "$runs" --style basic
        --export-json "$OUT/hyperfine-$l.json" --export-markdown "$OUT/hyperfine-$l.md")
    [ "$IGNORE_FAILURE" = 1 ] && hf+=(--ignore-failure)
    "${hf[@]}" -n "carbon-show human $l" "$human > /dev/null" \
      -n "carbon-show json $l" "$json > /dev/null" \
      -n "jq $l" "$jqc > /dev/null" >&2
    T_HUMAN[$n]=$(jq -r '.results[0].mean' "$OUT/hyperfine-$l.json")
    T_JSON[$n]=$(jq -r '.results[1].mean' "$OUT/hyperfine-$l.json")
    T_JQ[$n]=$(jq -r '.results[2].mean' "$OUT/hyperfine-$l.json")
    CPU[$n]=$(jq -r '[.results[] | (.user + .system)] | map(tostring) | join(" ")' "$OUT/hyperfine-$l.json")
  else
    T_HUMAN[$n]=$(fallback_time "$human" "$runs" "$WARMUP")
    T_JSON[$n]=$(fallback_time "$json" "$runs" "$WARMUP")
    T_JQ[$n]=$(fallback_time "$jqc" "$runs" "$WARMUP")
  fi
  RSS_HUMAN[$n]=$(peak_rss_kb "$human" "$OUT/rss-human-$l.txt")
  RSS_JSON[$n]=$(peak_rss_kb "$json" "$OUT/rss-json-$l.txt")
  RSS_JQ[$n]=$(peak_rss_kb "$jqc" "$OUT/rss-jq-$l.txt")
done

# ---- report ------------------------------------------------------------------------------
REPORT="$OUT/results.md"
{
  echo "carbon-show benchmark — $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) CPU(s), $(uname -m)"
  echo
  echo "binary: \`$BIN_LABEL\`; jq: $(jq --version); hyperfine: $([ "$HAVE_HYPERFINE" = 1 ] && hyperfine --version | cut -d' ' -f2 || echo 'not used')"
  echo "load average before: $LOAD_BEFORE, after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
  echo
  echo "| size | file MB | carbon-show human (s) | carbon-show json (s) | jq (s) | speed-up vs jq (human / json) | peak RSS MB (human / json) | RSS / file size | jq peak RSS MB |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$REPORT"

FAIL=0
CHECKS=""
for n in "${SIZE_LIST[@]}"; do
  l="$(label "$n")"
  b=${BYTES[$n]}
  row=$(awk -v b="$b" -v th="${T_HUMAN[$n]}" -v tj="${T_JSON[$n]}" -v tq="${T_JQ[$n]}" \
            -v rh="${RSS_HUMAN[$n]:-0}" -v rj="${RSS_JSON[$n]:-0}" -v rq="${RSS_JQ[$n]:-0}" '
    function f(x) { if (x < 0.1) return sprintf("%.4f", x); if (x < 10) return sprintf("%.3f", x); return sprintf("%.2f", x) }
    BEGIN {
      mb = b / 1e6; rhm = rh * 1024 / 1e6; rjm = rj * 1024 / 1e6; rqm = rq * 1024 / 1e6
      peak = (rhm > rjm) ? rhm : rjm
      printf "%.1f | %s | %s | %s | %.2f× / %.2f× | %.1f / %.1f | %.2f× | %.1f", mb, f(th), f(tj), f(tq), tq / th, tq / tj, rhm, rjm, peak / mb, rqm
    }')
  echo "| $l | $row |" >>"$REPORT"
  faster=$(awk -v th="${T_HUMAN[$n]}" -v tj="${T_JSON[$n]}" -v tq="${T_JQ[$n]}" 'BEGIN{print (th < tq && tj < tq) ? "PASS" : "FAIL"}')
  mem=$(awk -v b="$b" -v rh="${RSS_HUMAN[$n]:-0}" -v rj="${RSS_JSON[$n]:-0}" 'BEGIN{p = (rh > rj ? rh : rj) * 1024; printf "%s %.2f", (p < 3 * b) ? "PASS" : "FAIL", p / b}')
  [ "$faster" = PASS ] || FAIL=1
  [ "${mem%% *}" = PASS ] || FAIL=1
  CHECKS+="- $faster: carbon-show faster than jq at $l (human and json)"$'\n'
  CHECKS+="- ${mem%% *}: peak memory < 3 × file size at $l (${mem#* }×)"$'\n'
done

# scaling: largest / second-largest size (50k / 10k with the default sizes)
if [ "${#SIZE_LIST[@]}" -ge 2 ]; then
  big=${SIZE_LIST[-1]}; mid=${SIZE_LIST[-2]}
  for mode in human json; do
    if [ $mode = human ]; then tb=${T_HUMAN[$big]}; tm=${T_HUMAN[$mid]}; else tb=${T_JSON[$big]}; tm=${T_JSON[$mid]}; fi
    r=$(awk -v a="$tb" -v c="$tm" 'BEGIN{printf "%.2f", a / c}')
    ok=$(awk -v r="$r" 'BEGIN{print (r < 6) ? "PASS" : "FAIL"}')
    [ "$ok" = PASS ] || FAIL=1
    CHECKS+="- $ok: $(label "$big")/$(label "$mid") time ratio ($mode) = $r (target < 6; input ratio $(awk -v a="${BYTES[$big]}" -v c="${BYTES[$mid]}" 'BEGIN{printf "%.2f", a / c}'))"$'\n'
  done
  rq=$(awk -v a="${T_JQ[$big]}" -v c="${T_JQ[$mid]}" 'BEGIN{printf "%.2f", a / c}')
  CHECKS+="- info: jq $(label "$big")/$(label "$mid") time ratio = $rq"$'\n'
fi
if [ "$HAVE_HYPERFINE" = 1 ]; then
  {
    echo
    echo "CPU time (user + system, hyperfine mean, s) — less sensitive to other load than wall-clock:"
    echo
    echo "| size | carbon-show human | carbon-show json | jq |"
    echo "|---:|---:|---:|---:|"
    for n in "${SIZE_LIST[@]}"; do
      echo "| $(label "$n") | $(echo "${CPU[$n]}" | awk '{printf "%.3f | %.3f | %.3f", $1, $2, $3}') |"
    done
  } >>"$REPORT"
fi
{
  echo
  echo "Targets:"
  echo
  printf '%s' "$CHECKS"
  echo
  echo "Overall: $([ $FAIL = 0 ] && echo PASS || echo FAIL)"
} >>"$REPORT"

cat "$REPORT"
log "written $REPORT"
exit $FAIL
