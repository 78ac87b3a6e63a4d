#!/usr/bin/env bash
# Builds one release binary and its archive + SHA-256, as .github/workflows/release.yml does for
# every target and .ci/run does for this machine's (so a tag cannot find these commands broken).
#
#   bash scripts/ci/release-build.sh [--target TRIPLE] [--out DIR] [--no-build]
#
# --target   a Rust target triple; without it, the host's, built into target/release (shared
#            with `cargo build --release` and scripts/bench/run.sh's comparisons)
# --out      where the archive goes (default target/dist)
# --no-build package the binary already built for that target
#
# Writes DIR/carbon-show-<ARCH>-<OS>.tar.gz (the binary at its root; the names action.yml and
# scripts/ci/install.sh look for, after GitHub's RUNNER_ARCH/RUNNER_OS: X64|ARM64 -
# Linux|macOS|Windows) and DIR/carbon-show-<ARCH>-<OS>.tar.gz.sha256 (`sha256sum` format).
# Fails when the binary is over MAX_BYTES (20 MB): the release profile ships no debug info.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

TARGET="" OUT="target/dist" BUILD=1
MAX_BYTES=$((20 * 1000 * 1000))
while [ $# -gt 0 ]; do
  case "$1" in
    --target) TARGET="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    *) echo "release-build: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

host="$(rustc -vV | sed -n 's/^host: //p')"
triple="${TARGET:-$host}"
case "$triple" in
  x86_64-*-linux-*) platform=X64-Linux ;;
  aarch64-*-linux-*) platform=ARM64-Linux ;;
  x86_64-apple-darwin) platform=X64-macOS ;;
  aarch64-apple-darwin) platform=ARM64-macOS ;;
  x86_64-pc-windows-*) platform=X64-Windows ;;
  aarch64-pc-windows-*) platform=ARM64-Windows ;;
  *) echo "release-build: no asset name for the target $triple" >&2; exit 2 ;;
esac
exe=""
case "$triple" in *-windows-*) exe=".exe" ;; esac

if [ -n "$TARGET" ]; then
  target_args=(--target "$TARGET")
  bin="target/$TARGET/release/carbon-show$exe"
else
  target_args=()
  bin="target/release/carbon-show$exe"
fi
if [ "$BUILD" = 1 ]; then
  cargo build --release --locked --bin carbon-show "${target_args[@]}"
fi
[ -f "$bin" ] || { echo "release-build: $bin is not built" >&2; exit 1; }

size="$(wc -c <"$bin" | tr -d ' ')"
echo "release-build: $bin is $size bytes"
if [ "$size" -gt "$MAX_BYTES" ]; then
  echo "release-build: $bin is $size bytes, over $MAX_BYTES: the release profile must ship no debug info" >&2
  exit 1
fi
if [ "$triple" = "$host" ]; then
  "$bin" --version
  "$bin" --color never testdata/demo/plan.json >/dev/null
fi

mkdir -p "$OUT"
asset="carbon-show-$platform.tar.gz"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp "$bin" "$stage/carbon-show$exe"
# reproducible: with GNU tar (the Linux and Windows jobs), a fixed owner, mode and time and a
# gzip header without name or time, so the same binary gives the same archive and checksum;
# other tars (macOS) keep the build's owner-less defaults
if tar --version 2>/dev/null | grep -q GNU; then
  tar -cf - --owner=0 --group=0 --numeric-owner --mode=0755 --mtime=@0 -C "$stage" "carbon-show$exe" |
    gzip -n -9 >"$OUT/$asset"
else
  tar -czf "$OUT/$asset" -C "$stage" "carbon-show$exe"
fi
if command -v sha256sum >/dev/null 2>&1; then
  (cd "$OUT" && sha256sum "$asset" >"$asset.sha256")
else
  (cd "$OUT" && shasum -a 256 "$asset" >"$asset.sha256")
fi
echo "release-build: $OUT/$asset ($(cut -d' ' -f1 <"$OUT/$asset.sha256"))"
