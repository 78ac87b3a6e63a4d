//! The folded plan at the end of the comment: OpenTofu's text in a `diff` fenced block, its
//! action markers moved to the first column where GitHub's diff highlighting reads them.
//!
//! GitHub colours a `diff` block's line by its first character (the TextMate diff grammar:
//! `+` inserted, green; `-` deleted, red; `!` changed, orange; `@@` a range; `<` and `>`
//! followed by a space deleted and inserted). OpenTofu indents its markers (`  + resource`,
//! `      ~ attr`), so [`push_line`] moves a `+`, `-` or `~` that follows the indentation to
//! column 0 and keeps the indentation after it: every other character stays in its column.
//! `~` becomes `!`, the one marker GitHub colours as a change. `-/+` and `+/-` already start
//! their lines; `<=` (a read) stays indented, uncoloured. The human output is not touched.

use super::fit::chars;
use super::{DocumentKind, PlanText, Summary, escape};

/// Appends `line` (without its line break) to `out`, its indented action marker moved to
/// column 0 (`  + a` → `+   a`, `      ~ b` → `!       b`): no line is built on its own, as a
/// large plan has hundreds of thousands.
fn push_line(out: &mut String, line: &str) {
    let body = line.trim_start_matches(' ');
    let indent = line.len() - body.len();
    let b = body.as_bytes();
    let spaced = matches!(b.get(1), None | Some(b' ' | b'\r'));
    match b.first() {
        Some(&m @ (b'+' | b'-' | b'~')) if indent > 0 && spaced => {
            out.push(if m == b'~' { '!' } else { char::from(m) });
            out.push_str(&line[..indent]);
            out.push_str(&body[1..]);
        }
        _ => out.push_str(line),
    }
}

/// Appends the plan's text (through [`crate::escape::fenced`]) for the `diff` block, each
/// line through [`push_line`]; a line keeps its length in characters.
fn push_diff(out: &mut String, text: &str) {
    for l in text.split_inclusive('\n') {
        let bare = l.strip_suffix('\n').unwrap_or(l);
        push_line(out, bare);
        out.push_str(&l[bare.len()..]);
    }
}

pub(super) fn fold_summary(s: &Summary, plan: PlanText) -> String {
    match (plan.plan_line, s.kind) {
        (Some(l), _) => escape(l.trim()),
        (None, DocumentKind::Plan) => "The plan".to_string(),
        (None, DocumentKind::State) => "The state".to_string(),
    }
}

pub(super) fn plan_fold(s: &Summary, plan: PlanText) -> String {
    let summary = fold_summary(s, plan);
    // no HTML comment (a marker) from the plan in the comment's raw text, markers first
    let text = crate::escape::fenced(plan.text);
    let fence = plan_fence(plan, &text);
    let mut out = format!("<details><summary>{summary}</summary>\n\n{fence}diff\n");
    out.reserve(text.len() + 2 * fence.len() + 16);
    push_diff(&mut out, &text);
    if !text.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!("{fence}\n\n</details>\n"));
    out
}

/// The plan fold within `room` characters: whole lines only, the fence and the fold closed,
/// and a note saying how many lines were left out. `whole` is `plan_fold(s, plan)`.
pub(super) fn plan_fold_within(
    s: &Summary,
    plan: PlanText,
    whole: String,
    room: usize,
    within: super::Within,
) -> String {
    if plan.cut.is_none() && chars(&whole) <= room {
        return whole;
    }
    let summary = fold_summary(s, plan);
    let text = crate::escape::fenced(plan.text);
    let fence = plan_fence(plan, &text);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // the whole plan's lines, of which `lines` may be the first
    let all = plan.cut.map_or(lines.len(), |c| c.lines);
    let head = format!("<details><summary>{summary}</summary>\n\n{fence}diff\n");
    let tail = |left: usize| {
        format!(
            "{fence}\n\n*{left} more lines of the plan left out to stay within {within}.*\n\n\
             </details>\n"
        )
    };
    let mut used = chars(&head) + chars(&tail(all));
    let mut kept = 0;
    for l in &lines {
        let n = chars(l) + usize::from(!l.ends_with('\n'));
        if used + n > room {
            break;
        }
        used += n;
        kept += 1;
    }
    if kept == 0 {
        return format!("*The plan text is left out to stay within {within}.*\n");
    }
    let mut out = head;
    for l in &lines[..kept] {
        push_diff(&mut out, l);
        if !l.ends_with('\n') {
            out.push('\n');
        }
    }
    out.push_str(&tail(all - kept));
    out
}

/// The fence of the plan's block: longer than any run of backticks in the whole plan's text
/// (`text`, or what its [`super::Cut`] counted).
fn plan_fence(plan: PlanText, text: &str) -> String {
    match plan.cut {
        Some(cut) => "`".repeat((cut.longest_backticks + 1).max(3)),
        None => fence_for(text),
    }
}

/// A code fence longer than any run of backticks inside `text`.
pub(super) fn fence_for(text: &str) -> String {
    // the longest run of backticks, found a run at a time (`find` skips to the next one)
    let mut longest = 0;
    let mut rest = text;
    while let Some(at) = rest.find('`') {
        rest = &rest[at..];
        let run = rest.len() - rest.trim_start_matches('`').len();
        longest = longest.max(run);
        rest = &rest[run..];
    }
    "`".repeat((longest + 1).max(3))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff_text(text: &str) -> String {
        let mut out = String::new();
        push_diff(&mut out, &crate::escape::fenced(text));
        out
    }

    #[test]
    fn markers_move_to_the_first_column_and_nothing_else_moves() {
        let plan = "  + create\n  ~ update in-place\n-/+ destroy and then create replacement\n                     <= read (data resources)\n  # aws_instance.web will be updated in-place\n                      # ≈ +3.23 kgCO2eq/month\n  ~ resource \"aws_instance\" \"web\" {\n                          ~ instance_type = \"m5.large\" -> \"m5.xlarge\"\n      - tags = {} -> null\n                            id = \"i-1\"\n    }\n  <= data \"x\" \"y\" {\n      + a = 1\n      +\n  ~x\n";
        let want = "+   create\n!   update in-place\n-/+ destroy and then create replacement\n                     <= read (data resources)\n  # aws_instance.web will be updated in-place\n                      # ≈ +3.23 kgCO2eq/month\n!   resource \"aws_instance\" \"web\" {\n!                           instance_type = \"m5.large\" -> \"m5.xlarge\"\n-       tags = {} -> null\n                            id = \"i-1\"\n    }\n  <= data \"x\" \"y\" {\n+       a = 1\n+      \n  ~x\n";
        let got = diff_text(plan);
        assert_eq!(got, want);
        for (a, b) in plan.lines().zip(got.lines()) {
            assert_eq!(a.chars().count(), b.chars().count(), "{a:?} → {b:?}");
        }
        assert_eq!(diff_text("no markers\n"), "no markers\n");
        assert_eq!(diff_text("  + a <!-- b\n"), "+   a \\x3c!-- b\n");
    }

    #[test]
    fn fences_outgrow_backtick_runs() {
        assert_eq!(fence_for("plain"), "```");
        assert_eq!(fence_for("a ```` b"), "`````");
        assert_eq!(fence_for("`é``````"), "```````");
        assert_eq!(fence_for("``é`` ```x"), "````");
    }

    /// The fold of a plan captured only as far as the comment can show it is the fold of the
    /// whole text: the same lines kept, the same count of lines left out, the same fence (set
    /// by a backtick run past the kept lines).
    #[test]
    fn a_captured_plan_folds_as_its_whole_text() {
        use crate::estimate::Period;
        use crate::render::carbon::summary::{DocumentKind, Summary};
        use crate::report::Report;
        use std::io::Write as _;
        let report = Report::new(vec![], vec![], 0, 0.5, Period::Month);
        let s = Summary::new(&report, DocumentKind::Plan, Period::Month);
        let mut text = String::new();
        for i in 0..2000 {
            text.push_str(&format!(
                "  + resource \"aws_instance\" \"n{i}\" {{ # é <!-- x\n"
            ));
        }
        text.push_str("      + user_data = \"`````\"\n  no final line break");
        let within = super::super::Within {
            max: 5000,
            share_of: None,
        };
        let whole = PlanText {
            text: &text,
            plan_line: Some("Plan: 2000 to add."),
            cut: None,
        };
        let mut c = super::super::Capture::new(Some(5000));
        for chunk in text.as_bytes().chunks(777) {
            c.write_all(chunk).unwrap();
        }
        let (kept, cut) = c.finish();
        let kept = String::from_utf8(kept).unwrap();
        assert!(kept.len() < text.len() / 10 && cut.is_some());
        let captured = PlanText {
            text: &kept,
            cut,
            ..whole
        };
        for room in [0, 100, 3000, 4999, 5000] {
            let a = plan_fold_within(&s, whole, plan_fold(&s, whole), room, within);
            let b = plan_fold_within(&s, captured, plan_fold(&s, captured), room, within);
            assert_eq!(a, b, "within {room}");
        }
        assert!(
            plan_fold_within(&s, captured, plan_fold(&s, captured), 5000, within)
                .contains("``````diff\n")
        );
    }
}
