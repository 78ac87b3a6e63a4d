//! Keeping the comment within `--max-chars`: the least important sections lose rows or lines
//! first, and a last guard cuts between lines.

use super::plan::plan_fold_within;
use super::{CommentOptions, Group, Part, PlanText, Summary, more_resources, sections, table};
use crate::render::carbon::greener;

fn join(parts: &[(Part, String)]) -> String {
    let mut out = String::new();
    for (i, (_, text)) in parts.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(text);
    }
    out
}

pub(super) fn chars(s: &str) -> usize {
    s.chars().count()
}

/// The comment within the budget. Over it, the least important goes first: the plan is cut
/// between lines (its code fence and fold stay closed, a note says how much is left out),
/// then the modules' folded resources, the folded rows, the module table, the greener savings
/// and the top rows are cut from the smallest up (a note says how many rows). The headline,
/// the totals, what was not counted and the footer stay unless they alone pass the budget:
/// then [`guard`] cuts the comment between lines, so that it never passes `--max-chars`.
pub fn fit(s: &Summary, plan: PlanText, opts: &CommentOptions) -> String {
    let text = fit_sections(s, plan, opts);
    match opts.max_chars {
        Some(max) => guard(text, Within::of(max, opts)),
        None => text,
    }
}

/// The budget a note says a comment kept to: `--max-chars`, or a project's share of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Within {
    /// The characters this comment had.
    pub max: usize,
    /// The whole comment's `--max-chars`, when this comment is one project's share of it.
    pub share_of: Option<usize>,
}

impl Within {
    /// The budget `max` of a comment written with `opts`.
    pub fn of(max: usize, opts: &CommentOptions) -> Self {
        Within {
            max,
            share_of: opts.share_of,
        }
    }
}

impl std::fmt::Display for Within {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.share_of {
            None => write!(f, "{} characters (`--max-chars`)", self.max),
            Some(whole) => write!(
                f,
                "this project's share, {} of the comment's {whole} characters (`--max-chars`)",
                self.max
            ),
        }
    }
}

/// The last resort of [`fit`]: the comment's whole lines from the start while they fit, the
/// open code fence and folds closed after them, and a note. (Plan text is on one line in a
/// code span, or in the fenced block, so no construct is cut open.)
pub(crate) fn guard(text: String, within: Within) -> String {
    let max = within.max;
    if chars(&text) <= max {
        return text;
    }
    let note = format!("\n*The rest of the comment is left out to stay within {within}.*\n");
    // what closes the constructs open after a line: the fence, then each fold
    let closers = |fence: &Option<String>, folds: usize| {
        let mut c = fence.as_ref().map_or(String::new(), |f| format!("{f}\n"));
        c.push_str(&"\n</details>\n".repeat(folds));
        c
    };
    let (mut out, mut used) = (String::new(), 0);
    let (mut fence, mut folds): (Option<String>, usize) = (None, 0);
    for l in text.split_inclusive('\n') {
        let (mut f, mut d) = (fence.clone(), folds);
        let bare = l.trim_end_matches('\n');
        match &f {
            Some(open) if bare == open => f = None,
            Some(_) => {}
            None if bare.starts_with("```") => {
                f = Some("`".repeat(crate::escape::longest_run(bare, '`')));
            }
            None => {
                d += bare.matches("<details>").count();
                d = d.saturating_sub(bare.matches("</details>").count());
            }
        }
        let n = chars(l) + usize::from(!l.ends_with('\n'));
        if used + n + chars(&closers(&f, d)) + chars(&note) > max {
            break;
        }
        out.push_str(l);
        if !l.ends_with('\n') {
            out.push('\n');
        }
        used += n;
        (fence, folds) = (f, d);
    }
    out.push_str(&closers(&fence, folds));
    out.push_str(&note);
    out
}

/// The sections within the budget, as far as leaving out rows and plan lines goes.
fn fit_sections(s: &Summary, plan: PlanText, opts: &CommentOptions) -> String {
    let mut parts = sections(s, plan, opts);
    let Some(max) = opts.max_chars else {
        return join(&parts);
    };
    // what the notes say they kept to
    let within = Within::of(max, opts);
    // chars(&join(parts)), without joining (the plan part alone can be tens of MB)
    let total = |parts: &[(Part, String)]| {
        parts.iter().map(|(_, text)| chars(text)).sum::<usize>() + parts.len().saturating_sub(1)
    };
    if total(&parts) <= max {
        return join(&parts);
    }
    // 1. the plan
    if let Some(i) = parts.iter().position(|(p, _)| *p == Part::Plan) {
        let others = total(&parts) - chars(&parts[i].1);
        let whole = std::mem::take(&mut parts[i].1);
        parts[i].1 = plan_fold_within(s, plan, whole, max.saturating_sub(others), within);
        if total(&parts) <= max {
            return join(&parts);
        }
    }
    // 2. the modules' folded resources, 3. the folded rows, 4. the module table, 5. the
    // greener savings (without a note: the `# ↳` lines and the JSON have them), then 6. the
    // top rows
    let top = opts.top.max(1).min(s.groups.len());
    let modules = crate::render::carbon::modules::comment_rows(s, opts.top);
    let greener = greener::top(s, greener::COMMENT_TOP).len();
    let section = |part: Part, shown: usize| match part {
        Part::Rest => rows_section(s, part, &s.groups[top..], shown, within),
        Part::Largest => rows_section(s, part, &s.groups[..top], shown, within),
        Part::Greener => greener::markdown(s, shown).unwrap_or_default(),
        _ => crate::render::carbon::modules::section(s, part, opts.top, shown, Some(within))
            .unwrap_or_default(),
    };
    for (part, items) in [
        (Part::ModuleResources, modules),
        (Part::Rest, s.groups.len() - top),
        (Part::Modules, modules),
        (Part::Greener, greener),
        (Part::Largest, top),
    ] {
        let Some(i) = parts.iter().position(|(p, _)| *p == part) else {
            continue;
        };
        let others = total(&parts) - chars(&parts[i].1);
        let room = max.saturating_sub(others);
        // the most rows that fit (a section's length grows with its rows)
        let (mut lo, mut hi) = (0, items);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if chars(&section(part, mid)) <= room {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        parts[i].1 = section(part, lo);
        if parts[i].1.is_empty() {
            parts.remove(i);
        }
        if total(&parts) <= max {
            break;
        }
    }
    join(&parts)
}

/// The rows section `part` with only the first `shown` of `groups`, and a note for the rest.
fn rows_section(s: &Summary, part: Part, groups: &[Group], shown: usize, within: Within) -> String {
    let left = groups.len() - shown;
    let note = format!(
        "*{left} more resources left out to stay within {within}; `--format json` has them all.*\n"
    );
    let table_text = if shown > 0 {
        table(s, &groups[..shown])
    } else {
        String::new()
    };
    let body = match (shown, left) {
        (_, 0) => table_text,
        (0, _) => note,
        _ => format!("{table_text}\n{note}"),
    };
    match part {
        Part::Rest => format!(
            "<details><summary>{}</summary>\n\n{body}\n</details>\n",
            more_resources(groups.len())
        ),
        _ => format!(
            "**Largest changes** ({shown} of {} resources)\n\n{body}",
            s.groups.len()
        ),
    }
}
