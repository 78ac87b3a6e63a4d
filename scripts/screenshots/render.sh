#!/usr/bin/env bash
# Renders a Markdown file (a carbon-show comment, or any other) as GitHub shows a comment, to a
# PNG: cmark-gfm (PyPI cmarkgfm: table, strikethrough, autolink and tagfilter extensions, raw
# HTML such as <details> kept; scripts/markdown/gfm.py) inside GitHub's stylesheet (npm
# github-markdown-css, pinned by package-lock.json), `diff` blocks coloured as GitHub's
# highlighter scopes their lines, in headless Chromium (Debian `chromium`). Installs what is
# missing itself: .venv-md (scripts/markdown/install.sh), node_modules here (npm ci), chromium
# (apt-get, with sudo when not root), and Pillow (PyPI, requirements.txt here) into .venv-md to
# write the PNG with a 64-colour palette (a third of the size; text stays sharp).
#
# Usage: scripts/screenshots/render.sh COMMENT.md OUT.png [--width PX] [--height PX] [--open]
#   --width   the browser's width (default 900: a pull request's comment column and margins)
#   --height  the page height shot (default 1600); what is below is left out
#   --open    every <details> open (to show the folded plan); default closed, as GitHub shows it
#   --from T  only from the fold whose summary starts with T (e.g. `Plan: `) on
#   --html F  also keep the HTML page in F
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
usage() { sed -n '2,16p' "$0" >&2; exit 2; }
[[ $# -ge 2 ]] || usage
md=$1 png=$2
shift 2
width=900 height=1600 open=0 keep="" from=""
while [[ $# -gt 0 ]]; do
    case $1 in
        --width) width=$2; shift 2 ;;
        --height) height=$2; shift 2 ;;
        --open) open=1; shift ;;
        --html) keep=$2; shift 2 ;;
        --from) from=$2; shift 2 ;;
        *) usage ;;
    esac
done
[[ -f $md ]] || { echo "render.sh: $md: no such file" >&2; exit 2; }

# what it needs, installed when missing
py=$root/.venv-md/bin/python
if ! { [[ -x $py ]] && "$py" -c 'import cmarkgfm' 2>/dev/null; }; then
    bash "$root/scripts/markdown/install.sh" >&2
fi
if ! "$py" -c 'import PIL' 2>/dev/null; then
    "$root/.venv-md/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt" >&2
fi
css=$here/node_modules/github-markdown-css/github-markdown-light.css
if [[ ! -f $css ]]; then
    (cd "$here" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
chromium=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $chromium ]]; then
    sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get install -y --no-install-recommends chromium >/dev/null 2>&1 ||
        { $sudo apt-get update >/dev/null && $sudo apt-get install -y --no-install-recommends chromium >/dev/null; }
    chromium=$(command -v chromium)
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
body=$("$py" "$root/scripts/markdown/gfm.py" --highlight <"$md")
if [[ -n $from ]]; then
    head=${body%%"<details><summary>$from"*}
    [[ $head != "$body" ]] || { echo "render.sh: no fold starts with $from" >&2; exit 2; }
    body=${body#"$head"}
fi
if [[ $open == 1 ]]; then
    body=${body//<details>/<details open>}
fi
{
    printf '<!doctype html>\n<html><head><meta charset="utf-8">\n<style>\n'
    cat "$css"
    printf '\nbody { margin: 0; background: #fff; }\n'
    printf '.markdown-body { box-sizing: border-box; padding: 16px 24px; max-width: %spx; }\n' "$width"
    printf '</style></head>\n<body><article class="markdown-body">\n'
    printf '%s\n' "$body"
    printf '</article></body></html>\n'
} >"$tmp/page.html"
[[ -n $keep ]] && cp "$tmp/page.html" "$keep"
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --mute-audio \
    --no-first-run --disable-extensions --force-device-scale-factor=1 \
    --user-data-dir="$tmp/profile" --window-size="$width,$height" \
    --screenshot="$tmp/shot.png" "file://$tmp/page.html" >/dev/null 2>&1
"$py" - "$tmp/shot.png" "$png" <<'PY'
import sys
from PIL import Image
shot = Image.open(sys.argv[1]).convert("RGB")
shot.quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
    sys.argv[2], optimize=True
)
PY
echo "render.sh: $png ($(wc -c <"$png") bytes, ${width}x${height})"
