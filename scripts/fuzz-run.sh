#!/bin/bash
# Runs each cargo-fuzz target for SECONDS (default 1800), one after the other, with the flags of
# docs/fuzzing.md, and prints libFuzzer's last figures of each. Needs `cargo install cargo-fuzz`;
# seeds the corpora first (scripts/fuzz-seed.sh). Logs: fuzz/logs/<target>.log (git-ignored).
#   scripts/fuzz-run.sh [SECONDS] [TARGET...]
set -u
cd "$(dirname "$0")/.."
secs=${1:-1800}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(mapping_load plan_render change_render)
sh scripts/fuzz-seed.sh
cd fuzz
mkdir -p logs
export RUSTC_BOOTSTRAP=1
cargo fuzz build || exit 1
common=(-max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 -detect_leaks=0)
for t in "${targets[@]}"; do
  case $t in
    # a filter past its budget ends the process with exit 8 by design: keep going, save it
    mapping_load) extra=(-dict=mapping_load.dict -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1) ;;
    plan_render) extra=(-dict=plan_render.dict) ;;
    *) extra=() ;;
  esac
  before=$(ls "corpus/$t" | wc -l)
  cargo fuzz run "$t" -- "${extra[@]}" "${common[@]}" > "logs/$t.log" 2>&1
  rc=$?
  echo "$t: exit $rc, corpus $before -> $(ls "corpus/$t" | wc -l) files, artifacts $(ls "artifacts/$t" 2>/dev/null | wc -l)"
  grep -E "^Done [0-9]+ runs|^#[0-9]+[[:space:]]+DONE|^#[0-9]+: cov" "logs/$t.log" | tail -2
done
