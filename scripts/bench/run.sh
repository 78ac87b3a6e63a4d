#!/usr/bin/env bash
# Benchmark carbon-show against `jq .` and a plain serde_json parse on synthetic
# 1k/10k/50k/100k-resource plans (issue 14's targets: <= 0.3x jq's wall time and peak RSS
# <= 2.5x the file, from a file and from stdin, at 10k and 50k).
#
#   bash scripts/bench/run.sh                 # build if needed, generate plans once, measure
#   bash scripts/bench/run.sh --build         # force `cargo build --profile profiling` first
#   bash scripts/bench/run.sh --bin 'python3 -c "import json,sys; json.load(open(sys.argv[-1]))"'
#
# Everything lands in target/bench/: plan-*.json (+ .secrets), hyperfine-*.json, rss-*.txt,
# results.md. Times are hyperfine's minimum over the runs (the machine is shared; the minimum
# is the least disturbed run), with the mean beside it in hyperfine-*.md. See docs/performance.md for the method and what every column means.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$ROOT/target/bench"
BIN=""
BUILD=0
RUNS=""
WARMUP=1
SIZES="1000,10000,50000,100000"
TARGET_SIZES="10000,50000"
SEED=1
REGEN=0
IGNORE_FAILURE=0
HUMAN_ARGS="--color never"
JSON_ARGS="--format json"
SHAPE="mixed"

usage() {
  cat <<'EOF'
usage: bash scripts/bench/run.sh [options]
  --bin CMD           program to benchmark (default: target/profiling/carbon-show, built if missing);
                      may be a command with arguments, inserted verbatim into a shell command
  --build             run `cargo build --profile profiling` (and the parse_value example) even if built
  --runs N            timed runs per command and size (default: 10 for <=1k, 5 for <=10k, 3 above)
  --warmup N          warm-up runs per command (default 1)
  --sizes LIST        comma-separated resource counts (default 1000,10000,50000,100000)
  --target-sizes LIST the sizes the targets apply to (default 10000,50000; others are info)
  --seed N            generator seed (default 1)
  --regen             regenerate the plans even if present
  --out DIR           output directory (default target/bench)
  --human-args ARGS   arguments for the human run (default "--color never")
  --json-args ARGS    arguments for the JSON run (default "--format json")
  --ignore-failure    do not abort when the benchmarked command exits non-zero
  --shape NAME        the plan's shape (scripts/gen-plan --shape): mixed (default), dense,
                      instances, wide, deep, sensitive; plans land in plan-<shape>-<size>.json
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --bin) BIN="$2"; shift 2 ;;
    --build) BUILD=1; shift ;;
    --runs) RUNS="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --sizes) SIZES="$2"; shift 2 ;;
    --target-sizes) TARGET_SIZES="$2"; shift 2 ;;
    --seed) SEED="$2"; shift 2 ;;
    --regen) REGEN=1; shift ;;
    --out) OUT="$2"; shift 2 ;;
    --human-args) HUMAN_ARGS="$2"; shift 2 ;;
    --json-args) JSON_ARGS="$2"; shift 2 ;;
    --ignore-failure) IGNORE_FAILURE=1; shift ;;
    --shape) SHAPE="$2"; shift 2 ;;
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
  # the profiling profile: the release code, with line tables for perf/samply (Cargo.toml)
  BIN="$ROOT/target/profiling/carbon-show"
  if [ "$BUILD" = 1 ] || [ ! -x "$BIN" ]; then
    log "cargo build --profile profiling"
    (cd "$ROOT" && cargo build --locked --profile profiling)
  fi
fi
BIN_LABEL="$BIN"
# the floor: read the file and parse it into a serde_json::Value (benches/parse_value.rs)
PARSE="$ROOT/target/profiling/examples/parse_value"
if [ "$BUILD" = 1 ] || [ ! -x "$PARSE" ]; then
  log "cargo build --profile profiling --example parse_value"
  (cd "$ROOT" && cargo build --profile profiling --locked --example parse_value)
fi

# ---- plans -------------------------------------------------------------------------------
mkdir -p "$OUT"
GEN="$ROOT/scripts/gen-plan/gen_plan.py"
want_stamp="$(cat "$GEN" "$ROOT/scripts/gen-plan/shapes.py" | sha256sum | cut -c1-16) seed=$SEED shape=$SHAPE"
stem() { if [ "$SHAPE" = mixed ]; then echo plan; else echo "plan-$SHAPE"; fi; }

label() { # 1000 -> 1k, 50000 -> 50k
  local n="$1"
  if [ $((n % 1000)) -eq 0 ] && [ "$n" -ge 1000 ]; then echo "$((n / 1000))k"; else echo "$n"; fi
}

IFS=',' read -r -a SIZE_LIST <<<"$SIZES"
for n in "${SIZE_LIST[@]}"; do
  f="$OUT/$(stem)-$(label "$n").json"
  # <plan>.stamp records the generator's hash and the seed the plan was made with
  if [ "$REGEN" = 1 ] || [ ! -s "$f" ] || [ "$(cat "$f.stamp" 2>/dev/null)" != "$want_stamp" ]; then
    log "generating $f"
    start=$(date +%s.%N)
    python3 "$GEN" --shape "$SHAPE" --resources "$n" --seed "$SEED" --output "$f"
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
  # GNU time reports the largest of the shell and what it waited for (a pipeline's programs)
  if ! /usr/bin/time -v -o "$log" sh -c "$cmd" >/dev/null 2>>"$log.stderr"; then
    [ "$IGNORE_FAILURE" = 1 ] || { echo "run.sh: command failed: $cmd (see $log.stderr)" >&2; exit 1; }
  fi
  awk -F': ' '/Maximum resident set size/ {print $2}' "$log"
}

# minimum wall time in seconds of N runs, without hyperfine
fallback_time() {
  local cmd="$1" runs="$2" warm="$3" i s e best=""
  for ((i = 0; i < warm; i++)); do sh -c "$cmd" >/dev/null 2>&1 || true; done
  for ((i = 0; i < runs; i++)); do
    s=$(date +%s.%N); sh -c "$cmd" >/dev/null 2>&1 || true; e=$(date +%s.%N)
    best=$(awk -v b="$best" -v s="$s" -v e="$e" 'BEGIN{t = e - s; print (b == "" || t < b) ? t : b}')
  done
  printf '%.6f' "$best"
}

declare -A T_HUMAN T_JSON T_JQ T_PARSE M_HUMAN M_JQ RSS_HUMAN RSS_JSON RSS_STDIN RSS_JQ BYTES CPU ESTIMATED
# the process's fixed cost: peak RSS of the same human run on the bundled four-resource demo plan
# (the binary's code pages, the compiled mappings, the reference tables), to tell what grows with
# the plan from what every run pays
RSS_FIXED=$(peak_rss_kb "$BIN $HUMAN_ARGS $ROOT/testdata/demo/plan.json" "$OUT/rss-fixed.txt")
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
busy=$(awk -v l="${LOAD_BEFORE%% *}" -v c="$(nproc)" 'BEGIN{print (l > 0.5 * c) ? 1 : 0}' 2>/dev/null || echo 0)
[ "$busy" = 1 ] && log "warning: load average $LOAD_BEFORE on $(nproc) CPUs: wall-clock times will be noisy"
for n in "${SIZE_LIST[@]}"; do
  l="$(label "$n")"
  f="$OUT/$(stem)-$l.json"
  BYTES[$n]=$(stat -L -c %s "$f")
  human="$BIN $HUMAN_ARGS $f"
  json="$BIN $JSON_ARGS $f"
  jqc="jq . $f"
  parse="$PARSE $f"
  runs=$(runs_for "$n")
  log "size $l ($(awk -v b="${BYTES[$n]}" 'BEGIN{printf "%.1f", b/1e6}') MB): $runs runs, $WARMUP warm-up"
  if [ "$HAVE_HYPERFINE" = 1 ]; then
    hf=(hyperfine --warmup "$WARMUP" --runs "$runs" --style basic
        --export-json "$OUT/hyperfine-$l.json" --export-markdown "$OUT/hyperfine-$l.md")
    [ "$IGNORE_FAILURE" = 1 ] && hf+=(--ignore-failure)
    "${hf[@]}" -n "carbon-show human $l" "$human > /dev/null" \
      -n "carbon-show json $l" "$json > /dev/null" \
      -n "jq $l" "$jqc > /dev/null" \
      -n "serde_json parse $l" "$parse > /dev/null" >&2
    T_HUMAN[$n]=$(jq -r '.results[0].min' "$OUT/hyperfine-$l.json")
    T_JSON[$n]=$(jq -r '.results[1].min' "$OUT/hyperfine-$l.json")
    T_JQ[$n]=$(jq -r '.results[2].min' "$OUT/hyperfine-$l.json")
    T_PARSE[$n]=$(jq -r '.results[3].min' "$OUT/hyperfine-$l.json")
    M_HUMAN[$n]=$(jq -r '.results[0].mean' "$OUT/hyperfine-$l.json")
    M_JQ[$n]=$(jq -r '.results[2].mean' "$OUT/hyperfine-$l.json")
    CPU[$n]=$(jq -r '[.results[] | (.user + .system)] | map(tostring) | join(" ")' "$OUT/hyperfine-$l.json")
  else
    T_HUMAN[$n]=$(fallback_time "$human" "$runs" "$WARMUP")
    T_JSON[$n]=$(fallback_time "$json" "$runs" "$WARMUP")
    T_JQ[$n]=$(fallback_time "$jqc" "$runs" "$WARMUP")
    T_PARSE[$n]=$(fallback_time "$parse" "$runs" "$WARMUP")
    M_HUMAN[$n]=${T_HUMAN[$n]}
    M_JQ[$n]=${T_JQ[$n]}
  fi
  RSS_HUMAN[$n]=$(peak_rss_kb "$human" "$OUT/rss-human-$l.txt")
  RSS_JSON[$n]=$(peak_rss_kb "$json" "$OUT/rss-json-$l.txt")
  # standard input through a pipe, as `tofu show -json plan | carbon-show` gives it
  RSS_STDIN[$n]=$(peak_rss_kb "cat $f | $BIN $HUMAN_ARGS" "$OUT/rss-stdin-$l.txt")
  RSS_JQ[$n]=$(peak_rss_kb "$jqc" "$OUT/rss-jq-$l.txt")
  # the input is real: the report's own count of the plan's resources that were estimated
  ESTIMATED[$n]=$(sh -c "$json" 2>/dev/null | jq -r '.counts | "\(.estimated) \(.not_estimated) \(.unsupported) \(.ignored)"' 2>/dev/null || echo "0 ? ? ?")
done

# ---- report ------------------------------------------------------------------------------
REPORT="$OUT/results$([ "$SHAPE" = mixed ] || echo "-$SHAPE").md"
is_target() { case ",$TARGET_SIZES," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
{
  echo "carbon-show benchmark, shape $SHAPE — $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) CPU(s), $(uname -m)"
  echo
  echo "binary: \`$BIN_LABEL\`; jq: $(jq --version); hyperfine: $([ "$HAVE_HYPERFINE" = 1 ] && hyperfine --version | cut -d' ' -f2 || echo 'not used')"
  echo "load average before: $LOAD_BEFORE, after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
  echo "times: minimum of the timed runs (s); ratios: carbon-show human ÷ the other program"
  echo
  echo "fixed cost: peak RSS $(awk -v r="$RSS_FIXED" 'BEGIN{printf "%.1f", r * 1024 / 1e6}') MB on testdata/demo/plan.json (4 resources); \"above fixed\" is (largest peak − that) ÷ file"
  echo
  echo "| size | file MB | carbon-show human (s) | carbon-show json (s) | jq . (s) | human ÷ jq | serde_json parse (s) | human ÷ parse | peak RSS ÷ file: human / json / stdin | jq peak RSS MB | estimated / not / unsupported / ignored | above fixed ÷ file |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$REPORT"

FAIL=0
CHECKS=""
for n in "${SIZE_LIST[@]}"; do
  l="$(label "$n")"
  b=${BYTES[$n]}
  row=$(awk -v b="$b" -v th="${T_HUMAN[$n]}" -v tj="${T_JSON[$n]}" -v tq="${T_JQ[$n]}" -v tp="${T_PARSE[$n]}" \
            -v rh="${RSS_HUMAN[$n]:-0}" -v rj="${RSS_JSON[$n]:-0}" -v rs="${RSS_STDIN[$n]:-0}" -v rq="${RSS_JQ[$n]:-0}" '
    function f(x) { if (x < 0.1) return sprintf("%.4f", x); if (x < 10) return sprintf("%.3f", x); return sprintf("%.2f", x) }
    BEGIN {
      mb = b / 1e6
      printf "%.1f | %s | %s | %s | %.2f× | %s | %.2f× | %.2f× / %.2f× / %.2f× | %.1f", mb, f(th), f(tj), f(tq), th / tq, f(tp), th / tp, rh * 1024 / b, rj * 1024 / b, rs * 1024 / b, rq * 1024 / 1e6
    }')
  read -r est_n est_not est_uns est_ign <<<"${ESTIMATED[$n]}"
  above=$(awk -v b="$b" -v rh="${RSS_HUMAN[$n]:-0}" -v rj="${RSS_JSON[$n]:-0}" -v rs="${RSS_STDIN[$n]:-0}" -v fx="$RSS_FIXED" 'BEGIN{
    p = rh; if (rj > p) p = rj; if (rs > p) p = rs; printf "%.2f×", (p - fx) * 1024 / b}')
  echo "| $l | $row | $est_n / $est_not / $est_uns / $est_ign | $above |" >>"$REPORT"
  speed=$(awk -v th="${T_HUMAN[$n]}" -v tq="${T_JQ[$n]}" 'BEGIN{printf "%s %.2f", (th <= 0.3 * tq) ? "PASS" : "FAIL", th / tq}')
  mem=$(awk -v b="$b" -v rh="${RSS_HUMAN[$n]:-0}" -v rj="${RSS_JSON[$n]:-0}" -v rs="${RSS_STDIN[$n]:-0}" 'BEGIN{
    p = rh; if (rj > p) p = rj; if (rs > p) p = rs; p *= 1024
    printf "%s %.2f", (p <= 2.5 * b) ? "PASS" : "FAIL", p / b}')
  if ! [ "${est_n:-0}" -gt 0 ] 2>/dev/null; then
    FAIL=1
    CHECKS+="- FAIL: at $l the report estimated no resource: the input does not exercise the mappings"$'\n'
  fi
  if is_target "$n"; then
    [ "${speed%% *}" = PASS ] || FAIL=1
    [ "${mem%% *}" = PASS ] || FAIL=1
    CHECKS+="- ${speed%% *}: human render ≤ 0.3 × jq's time at $l (${speed#* }×)"$'\n'
    CHECKS+="- ${mem%% *}: peak RSS ≤ 2.5 × the file at $l, file and stdin (${mem#* }×)"$'\n'
  else
    CHECKS+="- info: $l: human render ${speed#* }× jq's time, peak RSS ${mem#* }× the file"$'\n'
  fi
done

# scaling exponent: least-squares slope of log(time) against log(resources), over all sizes
if [ "${#SIZE_LIST[@]}" -ge 2 ]; then
  slope() { # pairs "n t" on stdin
    awk '{ x = log($1); y = log($2); sx += x; sy += y; sxx += x * x; sxy += x * y; k++ }
         END { printf "%.2f", (k * sxy - sx * sy) / (k * sxx - sx * sx) }'
  }
  pairs() { local -n T=$1; for n in "${SIZE_LIST[@]}"; do echo "$n ${T[$n]}"; done; }
  CHECKS+="- info: scaling exponent (slope of log time vs log resources, $(label "${SIZE_LIST[0]}")–$(label "${SIZE_LIST[-1]}")): carbon-show human $(pairs T_HUMAN | slope), json $(pairs T_JSON | slope), jq $(pairs T_JQ | slope), serde_json parse $(pairs T_PARSE | slope); file size $(pairs BYTES | slope)"$'\n'
fi
if [ "$HAVE_HYPERFINE" = 1 ]; then
  {
    echo
    echo "Mean wall time (s) of the same runs, and CPU time (user + system, hyperfine mean, s) — CPU time is less sensitive to other load:"
    echo
    echo "| size | human mean | jq mean | CPU human | CPU json | CPU jq | CPU serde_json parse |"
    echo "|---:|---:|---:|---:|---:|---:|---:|"
    for n in "${SIZE_LIST[@]}"; do
      echo "| $(label "$n") | $(awk -v a="${M_HUMAN[$n]}" -v b="${M_JQ[$n]}" 'BEGIN{printf "%.3f | %.3f", a, b}') | $(echo "${CPU[$n]}" | awk '{printf "%.3f | %.3f | %.3f | %.3f", $1, $2, $3, $4}') |"
    done
  } >>"$REPORT"
fi
{
  echo
  echo "Targets (at $TARGET_SIZES resources):"
  echo
  printf '%s' "$CHECKS"
  echo
  echo "Overall: $([ $FAIL = 0 ] && echo PASS || echo FAIL)"
} >>"$REPORT"

cat "$REPORT"
log "written $REPORT"
exit $FAIL
