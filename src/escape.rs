//! Escaping per destination: text from the plan or the repository made inert where it leaves —
//! the terminal and stderr (Go's quoting, as Terraform's diff), Markdown (code spans) and YAML
//! (double-quoted scalars).
//!
//! One predicate, [`unprintable`], decides what never leaves raw: C0 and C1 controls, DEL,
//! line and paragraph separators, every space but U+0020, format characters (bidi controls
//! U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C, zero-widths, BOM, tags) and private-use or
//! non-characters — what Go's `strconv.IsPrint` refuses, as far as a fixed list can say.

use std::borrow::Cow;

/// Whether `c` is written as an escape rather than as itself (Go's `!strconv.IsPrint`, for
/// the categories that matter to a terminal: Cc, Cf, Co, Zl, Zp, Zs but U+0020, and the
/// non-characters).
pub fn unprintable(c: char) -> bool {
    let u = c as u32;
    // ASCII, nearly every character written: only the C0 controls and DEL (the ASCII
    // whitespace but the space is all in C0)
    if u < 0x80 {
        return u < 0x20 || u == 0x7f;
    }
    c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(
            u,
            // format characters (Cf): soft hyphen, Arabic marks, ALM, Mongolian vowel separator,
            // zero-widths, LRM/RLM, bidi embeddings and isolates, invisible operators, BOM,
            // interlinear annotations, and the tag characters
            0xad | 0x600..=0x605
                | 0x61c
                | 0x6dd
                | 0x70f
                | 0x890..=0x891
                | 0x8e2
                | 0x180e
                | 0x200b..=0x200f
                | 0x2028..=0x202e
                | 0x2060..=0x2064
                | 0x2066..=0x206f
                | 0xfeff
                | 0xfff9..=0xfffb
                | 0x110bd
                | 0x110cd
                | 0x13430..=0x1343f
                | 0x1bca0..=0x1bca3
                | 0x1d173..=0x1d17a
                | 0xe0001
                | 0xe0020..=0xe007f
                // private use (Co)
                | 0xe000..=0xf8ff
                | 0xf0000..=0xffffd
                | 0x100000..=0x10fffd
        )
        // non-characters
        || (u & 0xfffe) == 0xfffe
        || (0xfdd0..=0xfdef).contains(&u)
}

/// Whether no character of `s` is [`unprintable`]: `!s.chars().any(unprintable)`, with the
/// ASCII bytes (nearly all of a line) checked as bytes, without decoding a character.
fn all_printable(s: &str) -> bool {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x80 {
            if b < 0x20 || b == 0x7f {
                return false;
            }
            i += 1;
            continue;
        }
        // a character of several bytes starts here (`i` is on a boundary)
        let Some(c) = s.get(i..).and_then(|rest| rest.chars().next()) else {
            return false;
        };
        if !plainly_printable(c as u32) && unprintable(c) {
            return false;
        }
        i += c.len_utf8();
    }
    true
}

/// Whether `u` lies in a block of the characters carbon-show's own wording uses (`·`, `×`,
/// `–`, `→`, `≈`, `⚠`) that holds no [`unprintable`] character: Latin-1 past the controls but
/// the soft hyphen, through Hebrew; the dashes and quotes before U+2028; the arrows,
/// mathematical operators and symbols up to U+2FFF.
fn plainly_printable(u: u32) -> bool {
    matches!(u, 0xa1..=0xac | 0xae..=0x5ff | 0x2010..=0x2027 | 0x2030..=0x205e | 0x2070..=0x2fff)
}

/// Appends `c` as Go writes an unprintable character inside a quoted string.
fn push_go_escape(out: &mut String, c: char) {
    use std::fmt::Write as _;
    let _ = match c {
        '\u{7}' => out.write_str("\\a"),
        '\u{8}' => out.write_str("\\b"),
        '\u{c}' => out.write_str("\\f"),
        '\n' => out.write_str("\\n"),
        '\r' => out.write_str("\\r"),
        '\t' => out.write_str("\\t"),
        '\u{b}' => out.write_str("\\v"),
        c if (c as u32) < 0x20 || c as u32 == 0x7f => write!(out, "\\x{:02x}", c as u32),
        c if (c as u32) < 0x10000 => write!(out, "\\u{:04x}", c as u32),
        c => write!(out, "\\U{:08x}", c as u32),
    };
}

/// A value printed bare in a terminal line (a region, zone, machine type, GPU model): itself
/// when every character is printable, else quoted as Terraform's diff quotes a string
/// ([`crate::computed::go_quote`]): `"eu\x1b[2J"`.
pub fn value(s: &str) -> Cow<'_, str> {
    if s.chars().any(unprintable) {
        Cow::Owned(crate::computed::go_quote(s))
    } else {
        Cow::Borrowed(s)
    }
}

/// One line for the terminal or a log: every [`unprintable`] character written as its Go
/// escape (`\n`, `\x1b`, `\u202e`), so the text stays on its line and moves no cursor. Quotes
/// and backslashes stay as they are (the line is carbon-show's wording around values).
pub fn line(s: &str) -> Cow<'_, str> {
    if all_printable(s) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if unprintable(c) {
            push_go_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Text of several lines for the terminal: each line through [`line`], the line breaks kept.
pub fn lines(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| c != '\n' && unprintable(c)) {
        return Cow::Borrowed(s);
    }
    let parts: Vec<Cow<str>> = s.split('\n').map(line).collect();
    Cow::Owned(parts.join("\n"))
}

/// The one line carbon-show writes on stderr for `message`: `carbon-show: ` and the message
/// with its line breaks and controls escaped, so that no text from the plan, the repository
/// or a file name can start a line of its own (a CI workflow command such as `::error` or
/// `##vso[`).
pub fn stderr_line(message: &str) -> String {
    format!("carbon-show: {}", line(message))
}

/// A message of several lines (the tool's own `Error:` block under `--schemas auto`): every
/// line under carbon-show's prefix, each escaped as [`line`] escapes it, so that none can start
/// a CI workflow command even once its indentation is trimmed.
pub fn stderr_block(message: &str) -> String {
    message
        .split('\n')
        .map(|l| {
            if l.is_empty() {
                "carbon-show:".to_string()
            } else {
                format!("carbon-show: {}", line(l))
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Writes [`stderr_line`] to standard error.
pub fn eprint(message: &str) {
    eprintln!("{}", stderr_line(message));
}

/// Plan text in Markdown is shortened to this many characters, in the middle.
pub const MARKDOWN_SPAN: usize = 200;

/// `s` within `max` characters: its start and end with ` … ` between, when longer.
pub fn middle(s: &str, max: usize) -> Cow<'_, str> {
    let n = s.chars().count();
    if n <= max {
        return Cow::Borrowed(s);
    }
    let keep = max.saturating_sub(3);
    let head = keep.div_ceil(2);
    let tail = keep - head;
    let start: String = s.chars().take(head).collect();
    let end: String = s.chars().skip(n - tail).collect();
    Cow::Owned(format!("{start} … {end}"))
}

/// Plan or repository text as a Markdown code span, inert by construction: on one line (its
/// controls as Go escapes), shortened to [`MARKDOWN_SPAN`], fenced by a backtick run longer
/// than any inside it, and with `<!--` written `\x3c!--` so that the comment's raw text holds
/// no HTML comment (a marker) from the plan. Inside a code span no link, image, autolink, raw
/// HTML, mention or reference forms. `in_table`: each `|` written `\|` (GFM splits a row on
/// it even inside a code span) and a `\` before it as `\x5c`.
pub fn code_span(s: &str, in_table: bool) -> String {
    let text = line(s);
    let text = middle(&text, MARKDOWN_SPAN);
    let mut body = text.replace("<!--", "\\x3c!--");
    if in_table {
        body = body.replace("\\|", "\\x5c|").replace('|', "\\|");
    }
    if body.is_empty() {
        return "`\"\"`".to_string();
    }
    let fence = "`".repeat(longest_run(&body, '`') + 1);
    // CommonMark strips one space from each end when both are there; a body that starts or
    // ends with a backtick needs them to stay apart from the fence
    let pad = body.starts_with('`')
        || body.ends_with('`')
        || (body.starts_with(' ') && body.ends_with(' ') && !body.trim().is_empty());
    if pad {
        format!("{fence} {body} {fence}")
    } else {
        format!("{fence}{body}{fence}")
    }
}

/// The longest run of `c` in `text`.
pub fn longest_run(text: &str, c: char) -> usize {
    let (mut longest, mut run) = (0, 0);
    for x in text.chars() {
        if x == c {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

/// Text for a fenced code block in Markdown (the plan): its lines as they are, with `<!--`
/// written `\x3c!--` so that the comment's raw text holds no HTML comment from the plan. (The
/// fence itself is made longer than any backtick run inside, so the text cannot close it.)
pub fn fenced(text: &str) -> Cow<'_, str> {
    if text.contains("<!--") {
        Cow::Owned(text.replace("<!--", "\\x3c!--"))
    } else {
        Cow::Borrowed(text)
    }
}

/// A YAML double-quoted scalar valid for any string: `"` and `\` escaped, and every
/// [`unprintable`] character (C0, DEL, C1 with NEL, U+2028/9, BOM, bidi controls,
/// non-characters) as a YAML escape, so that no reader takes a byte of it for a line break,
/// a document marker or an invalid character.
pub fn yaml_quoted(s: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        let _ = match c {
            '"' => out.write_str("\\\""),
            '\\' => out.write_str("\\\\"),
            '\0' => out.write_str("\\0"),
            '\t' => out.write_str("\\t"),
            '\n' => out.write_str("\\n"),
            '\r' => out.write_str("\\r"),
            c if unprintable(c) && (c as u32) < 0x100 => write!(out, "\\x{:02x}", c as u32),
            c if unprintable(c) && (c as u32) < 0x10000 => write!(out, "\\u{:04x}", c as u32),
            c if unprintable(c) => write!(out, "\\U{:08x}", c as u32),
            c => {
                out.push(c);
                Ok(())
            }
        };
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ASCII shortcut answers as the general rule does for every ASCII character.
    #[test]
    fn the_ascii_shortcut_agrees_with_the_general_rule() {
        for c in (0u8..0x80).map(char::from) {
            let general = c.is_control() || (c.is_whitespace() && c != ' ');
            assert_eq!(unprintable(c), general, "{:?}", c);
        }
    }

    /// No character of the blocks `plainly_printable` takes without a look is unprintable.
    #[test]
    fn plainly_printable_blocks_hold_no_unprintable_character() {
        for c in (0x80..0x3000).filter_map(char::from_u32) {
            if plainly_printable(c as u32) {
                assert!(!unprintable(c), "{:x}", c as u32);
            }
        }
        for c in ['·', '×', '–', '→', '≈', '⚠', '↳'] {
            assert!(plainly_printable(c as u32), "{c}");
        }
    }

    proptest::proptest! {
        /// The byte-wise check answers as `chars().any(unprintable)` does, over any text
        /// (controls, separators, bidi and private-use characters among plain ones).
        #[test]
        fn all_printable_agrees_with_every_char_checked(
            s in "(\\PC|[\u{0}-\u{1f}\u{7f}-\u{a0}\u{2028}\u{202e}\u{e000}\u{feff}≈·–→×]){0,40}"
        ) {
            proptest::prop_assert_eq!(all_printable(&s), !s.chars().any(unprintable), "{:?}", s);
        }
    }

    #[test]
    fn terminal_controls_and_bidi_are_escaped_as_go_does() {
        assert_eq!(line("us-east-1"), "us-east-1");
        assert_eq!(
            line("a\u{1b}]52;c;eA==\u{7}b\r\n\u{9b}2J\u{7f}"),
            "a\\x1b]52;c;eA==\\ab\\r\\n\\u009b2J\\x7f"
        );
        assert_eq!(
            line("\u{202e}\u{2066}\u{2069}\u{200e}\u{200f}\u{61c}\u{85}\u{2028}\u{feff}"),
            "\\u202e\\u2066\\u2069\\u200e\\u200f\\u061c\\u0085\\u2028\\ufeff"
        );
        assert_eq!(line("\u{e0041}"), "\\U000e0041");
        assert_eq!(value("eu-west-1"), "eu-west-1");
        assert_eq!(value("eu\u{1b}[2J"), "\"eu\\x1b[2J\"");
        assert_eq!(lines("a\u{1b}\nb"), "a\\x1b\nb");
    }

    #[test]
    fn stderr_stays_one_line_under_the_prefix() {
        let l = stderr_line("mappings/x\n::error::owned.yaml:1: bad");
        assert_eq!(l, "carbon-show: mappings/x\\n::error::owned.yaml:1: bad");
        assert_eq!(l.lines().count(), 1);
    }

    #[test]
    fn code_spans_outgrow_backticks_and_break_markers() {
        assert_eq!(code_span("a.b", false), "`a.b`");
        assert_eq!(code_span("a``b", false), "```a``b```");
        assert_eq!(code_span("`x", false), "`` `x ``");
        assert_eq!(code_span("a|b", true), "`a\\|b`");
        assert_eq!(code_span("a\\|b", true), "`a\\x5c\\|b`");
        assert_eq!(
            code_span("<!-- carbon-show -->", false),
            "`\\x3c!-- carbon-show -->`"
        );
        assert_eq!(code_span("x\ny", false), "`x\\ny`");
        assert_eq!(code_span("", false), "`\"\"`");
        let long = "a".repeat(1000);
        assert_eq!(code_span(&long, false).chars().count(), MARKDOWN_SPAN + 2);
        assert!(code_span(&long, false).contains(" … "));
    }

    #[test]
    fn yaml_escapes_every_unprintable() {
        assert_eq!(yaml_quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(
            yaml_quoted("\u{7f}\u{85}\u{2028}\u{2029}\u{feff}\u{0}\u{1b}\u{fffe}"),
            "\"\\x7f\\x85\\u2028\\u2029\\ufeff\\0\\x1b\\ufffe\""
        );
    }
}
