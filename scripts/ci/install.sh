#!/usr/bin/env bash
# Installs carbon-show for a CI job without running anything from the checkout it is about to
# read (docs/ci.md "Installing"; the threat model is docs/security.md).
#
#   bash install.sh --dest DIR --mode auto|release|cargo [--version vX.Y.Z] [--repo OWNER/NAME]
#                   [--cache DIR] [--source DIR] [--toolchain NAME] [--platform ARCH-OS]
#
# - release: downloads carbon-show-<ARCH>-<OS>.tar.gz of release --version of --repo with curl
#   (no token) from $CARBON_SHOW_DOWNLOAD_URL (default https://github.com), with the
#   published <asset>.sha256 beside it, and installs the binary only when the archive's SHA-256
#   equals the published one. With --cache, a cached archive is used when it passes that same
#   check (the checksum is always fetched from the release), and a fresh download is kept there.
# - cargo: builds --source (the action's own folder) with `cargo install --locked`, with
#   RUSTUP_TOOLCHAIN set (--toolchain, default stable) and a working directory outside the
#   checkout, so no rust-toolchain.toml or .cargo/config.toml of the checkout applies.
# - auto: a carbon-show already on PATH outside the checkout ($GITHUB_WORKSPACE or
#   $CI_PROJECT_DIR), else release.
# Never runs a program from the checkout or the working directory: PATH entries that are
# relative or inside the checkout are dropped before anything is looked up.
# Prints the installed binary's path as its only line on stdout (progress goes to stderr);
# errors are one line on stderr, exit 1.
set -euo pipefail

die() {
  printf 'carbon-show install: %s\n' "$*" >&2
  exit 1
}

DEST="" MODE="auto" VERSION="" REPO="" CACHE="" SOURCE="" TOOLCHAIN="stable" PLATFORM=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dest) DEST="$2"; shift 2 ;;
    --mode) MODE="$2"; shift 2 ;;
    --version) VERSION="$2"; shift 2 ;;
    --repo) REPO="$2"; shift 2 ;;
    --cache) CACHE="$2"; shift 2 ;;
    --source) SOURCE="$2"; shift 2 ;;
    --toolchain) TOOLCHAIN="$2"; shift 2 ;;
    --platform) PLATFORM="$2"; shift 2 ;;
    *) die "unknown argument '$1' (see the comment at the top of scripts/ci/install.sh)" ;;
  esac
done
[ -n "$DEST" ] || die "--dest DIR is required"
case "$DEST" in /*) ;; [A-Za-z]:[\\/]*) ;; *) die "--dest must be an absolute path, not '$DEST'" ;; esac

# The checkout: never a source of programs.
CHECKOUT="${GITHUB_WORKSPACE:-${CI_PROJECT_DIR:-}}"
real() { (cd "$1" 2>/dev/null && pwd -P) || printf '%s' "$1"; }
CHECKOUT_REAL=""
[ -n "$CHECKOUT" ] && CHECKOUT_REAL="$(real "$CHECKOUT")"
inside_checkout() {
  local d
  d="$(real "$1")"
  [ -n "$CHECKOUT_REAL" ] && { [ "$d" = "$CHECKOUT_REAL" ] || [[ "$d" == "$CHECKOUT_REAL"/* ]]; }
}
safe_path=""
IFS=: read -r -a entries <<<"${PATH:-}"
for e in "${entries[@]}"; do
  case "$e" in /*) ;; *) continue ;; esac # "", ".", "bin", …: relative to the working directory
  inside_checkout "$e" && continue
  safe_path="${safe_path:+$safe_path:}$e"
done
export PATH="$safe_path"
hash -r
mkdir -p "$DEST"
cd "$DEST" # a working directory outside the checkout for every command below
[ -z "$CHECKOUT_REAL" ] || ! inside_checkout "$DEST" || die "--dest $DEST is inside the checkout $CHECKOUT"

EXE=""
case "$(uname -s)" in MINGW* | MSYS* | CYGWIN*) EXE=".exe" ;; esac
BIN="$DEST/carbon-show$EXE"

from_path() {
  local found
  found="$(command -v "carbon-show$EXE" 2>/dev/null)" || return 1
  case "$found" in /*) ;; *) return 1 ;; esac
  inside_checkout "$(dirname "$found")" && return 1
  echo "carbon-show install: using $found from PATH" >&2
  printf '%s\n' "$found"
}

platform() {
  if [ -n "$PLATFORM" ]; then printf '%s' "$PLATFORM"; return; fi
  local arch="${RUNNER_ARCH:-}" os="${RUNNER_OS:-}"
  if [ -z "$arch" ]; then
    case "$(uname -m)" in
      x86_64 | amd64) arch=X64 ;;
      aarch64 | arm64) arch=ARM64 ;;
      *) die "no release asset for the machine type $(uname -m): use --mode cargo" ;;
    esac
  fi
  if [ -z "$os" ]; then
    case "$(uname -s)" in
      Linux) os=Linux ;;
      Darwin) os=macOS ;;
      MINGW* | MSYS* | CYGWIN*) os=Windows ;;
      *) die "no release asset for the system $(uname -s): use --mode cargo" ;;
    esac
  fi
  printf '%s-%s' "$arch" "$os"
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d' ' -f1
  else
    die "neither sha256sum nor shasum is on PATH: cannot verify the download"
  fi
}

fetch() { # URL FILE
  local base="${CARBON_SHOW_DOWNLOAD_URL:-https://github.com}" proto="=https"
  case "$base" in
    https://*) ;;
    http://127.0.0.1[:/]* | http://localhost[:/]*) proto="=http" ;; # a test's fake release server
    *) die "CARBON_SHOW_DOWNLOAD_URL must be an https:// URL, not '$base'" ;;
  esac
  curl --fail --silent --show-error --location --proto "$proto" --proto-redir "=https" \
    --retry 3 --connect-timeout 10 --max-time 120 --output "$2" "$1" 2>"$2.err" || {
    local why
    why="$(tail -n 1 "$2.err" | tr -d '\r')"
    rm -f "$2" "$2.err"
    die "cannot download $1: ${why:-curl failed} (needs a v* tag of the action with a published release is needed, or install: cargo)"
  }
  rm -f "$2.err"
}

release() {
  [ -n "$REPO" ] || die "--repo OWNER/NAME is required for a release download"
  [[ "$VERSION" == v* ]] || die "the action is used at '${VERSION:-no ref}', not a v* release tag: use it at a release tag (uses: $REPO@vX.Y.Z) or set install: cargo"
  [[ "$VERSION" =~ ^v[0-9A-Za-z.+_-]+$ ]] || die "'$VERSION' is not a release tag"
  command -v curl >/dev/null 2>&1 || die "curl is not on PATH"
  local asset base url tmp want got archive
  asset="carbon-show-$(platform).tar.gz"
  base="${CARBON_SHOW_DOWNLOAD_URL:-https://github.com}"
  url="${base%/}/$REPO/releases/download/$VERSION/$asset"
  tmp="$(mktemp -d "$DEST/.download.XXXXXX")"
  fetch "$url.sha256" "$tmp/$asset.sha256"
  want="$(cut -d' ' -f1 <"$tmp/$asset.sha256" | tr -d '\r\n' | tr 'A-F' 'a-f')"
  [[ "$want" =~ ^[0-9a-f]{64}$ ]] || die "$url.sha256 is not a SHA-256 checksum"
  archive=""
  if [ -n "$CACHE" ] && [ -f "$CACHE/$VERSION/$asset" ]; then
    got="$(sha256_of "$CACHE/$VERSION/$asset")"
    if [ "$got" = "$want" ]; then
      archive="$CACHE/$VERSION/$asset"
      echo "carbon-show install: cached $asset verified (sha256 $want)" >&2
    else
      echo "carbon-show install: cached $asset does not match the release's checksum: downloading it again" >&2
    fi
  fi
  if [ -z "$archive" ]; then
    fetch "$url" "$tmp/$asset"
    got="$(sha256_of "$tmp/$asset")"
    [ "$got" = "$want" ] || die "$asset from $url has SHA-256 $got, but the release publishes $want: refusing it"
    echo "carbon-show install: $asset verified (sha256 $want)" >&2
    archive="$tmp/$asset"
    if [ -n "$CACHE" ]; then
      mkdir -p "$CACHE/$VERSION" && cp "$archive" "$CACHE/$VERSION/$asset.tmp" &&
        mv "$CACHE/$VERSION/$asset.tmp" "$CACHE/$VERSION/$asset" ||
        echo "carbon-show install: could not keep $asset in $CACHE (going on)" >&2
    fi
  fi
  mkdir "$tmp/x"
  tar -xzf "$archive" -C "$tmp/x" || die "$asset is not a gzip tar archive"
  [ -f "$tmp/x/carbon-show$EXE" ] || die "$asset has no carbon-show$EXE at its root"
  chmod +x "$tmp/x/carbon-show$EXE"
  mv -f "$tmp/x/carbon-show$EXE" "$BIN"
  rm -rf "$tmp"
  printf '%s\n' "$BIN"
}

build() {
  [ -n "$SOURCE" ] || die "--source DIR (the action's own folder) is required to build"
  [ -z "$CHECKOUT_REAL" ] || ! inside_checkout "$SOURCE" ||
    die "refusing to build $SOURCE: it is inside the checkout (use the action at a tag, not uses: ./)"
  [ -f "$SOURCE/Cargo.toml" ] || die "$SOURCE has no Cargo.toml"
  command -v cargo >/dev/null 2>&1 || die "cargo is not on PATH (install a Rust toolchain first)"
  RUSTUP_TOOLCHAIN="$TOOLCHAIN" cargo install --locked --path "$SOURCE" --root "$DEST/cargo" >&2
  cp -f "$DEST/cargo/bin/carbon-show$EXE" "$BIN"
  printf '%s\n' "$BIN"
}

case "$MODE" in
  auto) from_path || release ;;
  release) release ;;
  cargo) build ;;
  *) die "--mode must be auto, release or cargo, not '$MODE'" ;;
esac
