#!/usr/bin/env python3
"""Renders Markdown (stdin) to HTML (stdout) as github.com renders a comment: cmark-gfm with the
table, strikethrough, autolink and tagfilter extensions, raw HTML kept (GitHub's sanitiser keeps
<details>, <summary> and <sub>; the tagfilter extension disarms <script>, <style>, <iframe>, …),
and a code block's language on <pre lang="…"> as GitHub writes it.

With --highlight, the lines of a `diff` block are wrapped as GitHub's highlighter scopes them
(the TextMate diff grammar: a line's first character `+` inserted, `-` deleted, `!` changed,
`@@` a range; pl-mi1, pl-md, pl-mc, pl-mdr in github-markdown-css), for screenshots.
"""
import html
import re
import sys

import cmarkgfm
from cmarkgfm.cmark import Options

EXTENSIONS = ["table", "strikethrough", "autolink", "tagfilter"]
OPTIONS = Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_GITHUB_PRE_LANG


def render(text):
    return cmarkgfm.markdown_to_html_with_extensions(
        text, options=OPTIONS, extensions=EXTENSIONS
    )


def scope(line):
    if line.startswith("@@"):
        return "pl-mdr"
    return {"+": "pl-mi1", "-": "pl-md", "!": "pl-mc"}.get(line[:1])


def highlight(out):
    def block(m):
        lines = m.group(2).split("\n")
        wrapped = []
        for raw in lines:
            cls = scope(html.unescape(raw))
            wrapped.append(f'<span class="{cls}">{raw}</span>' if cls and raw else raw)
        return m.group(1) + "\n".join(wrapped) + m.group(3)

    return re.sub(
        r'(<pre lang="diff"><code>)(.*?)(</code></pre>)', block, out, flags=re.S
    )


def main():
    out = render(sys.stdin.read())
    if "--highlight" in sys.argv[1:]:
        out = highlight(out)
    sys.stdout.write(out)


if __name__ == "__main__":
    main()
