//! `--format markdown`: a pull-request comment laid out for the reviewer — a hidden marker a
//! CI job finds its own comment by, a heading that is a sentence (direction marker, change,
//! relative change), the totals in one table with one unit, what was not counted, the
//! resources that change most (ranked by the size of their change, the rest folded), the top
//! modules with each one's resources folded ([`super::modules`]), and the annotated plan
//! folded at the end.
//!
//! The comment is built as sections in document order, each with a priority, and kept within
//! a character budget (`--max-chars`, GitHub's 65,536 by default) by leaving out the least
//! important first: the plan's last lines, then the smallest rows ([`fit`]).

use std::io::{self, Write};

use super::summary::{DocumentKind, Group, Summary, Verdict};
use super::{capped, signed};
use crate::estimate::{Mass, sig3};

/// Resource rows shown before the rest is folded.
pub const DEFAULT_TOP: usize = 10;
/// GitHub refuses comments longer than 65,536 characters (GitLab's notes allow 1,000,000).
pub const DEFAULT_MAX_CHARS: usize = 65_536;
/// The smallest budget `--max-chars` accepts: the headline, totals and a few rows fit.
pub const MIN_MAX_CHARS: usize = 2_000;
/// Names listed in the "not counted" paragraph before `and N more`.
const NAMES_LISTED: usize = 10;

/// The human plan as the comment shows it: its plain text (with the `# ≈` lines, without the
/// carbon summary) and its headline (`Plan: …` or `No changes. …`), both given as values.
#[derive(Debug, Clone, Copy)]
pub struct PlanText<'a> {
    pub text: &'a str,
    pub plan_line: Option<&'a str>,
}

/// How the comment is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommentOptions {
    /// `--comment-tag`: names the hidden marker, so that several jobs can each update their
    /// own comment on one pull request.
    pub tag: Option<String>,
    /// Resource rows shown before the rest is folded.
    pub top: usize,
    /// `--max-chars`: the comment's length limit in characters (`None`: no limit).
    pub max_chars: Option<usize>,
}

impl Default for CommentOptions {
    fn default() -> Self {
        CommentOptions {
            tag: None,
            top: DEFAULT_TOP,
            max_chars: Some(DEFAULT_MAX_CHARS),
        }
    }
}

/// The hidden first line a CI job looks for to update its comment in place:
/// `<!-- carbon-show -->`, or `<!-- carbon-show:TAG -->` with `--comment-tag TAG`.
pub fn marker(tag: Option<&str>) -> String {
    match tag {
        Some(t) => format!("<!-- carbon-show:{t} -->"),
        None => "<!-- carbon-show -->".to_string(),
    }
}

/// What a section of the comment is, in the order of importance (a budget drops the last
/// first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    /// The marker, heading and the sentence under it.
    Headline,
    /// The totals table.
    Totals,
    /// Unsupported and not-estimated resources, named.
    NotCounted,
    /// The top resource rows.
    Largest,
    /// The top modules' table (`render::carbon::modules`).
    Modules,
    /// The folded remaining rows.
    Rest,
    /// Each top module's resources, folded.
    ModuleResources,
    /// The folded plan text.
    Plan,
}

/// The comment's sections, in document order.
pub fn sections(s: &Summary, plan: PlanText, opts: &CommentOptions) -> Vec<(Part, String)> {
    let mut v = vec![(Part::Headline, headline(s, opts))];
    if matches!(
        s.verdict,
        Verdict::Changed | Verdict::Unchanged | Verdict::Footprint
    ) {
        v.push((Part::Totals, totals(s)));
    }
    if let Some(w) = &s.report.what_if {
        let text = crate::alternatives::words::what_if_markdown(w, s.report, s.period);
        v.push((Part::Totals, text));
    }
    if let Some(p) = not_counted(s) {
        v.push((Part::NotCounted, p));
    }
    if let Some((n, file)) = super::summary::from_usage(s.report) {
        v.push((
            Part::NotCounted,
            format!(
                "**From declared usage:** {n} estimated {} on usage declared in {} (GB stored, GB processed, requests): review it with the plan.\n",
                if n == 1 { "figure rests" } else { "figures rest" },
                code(&file)
            ),
        ));
    }
    if !s.groups.is_empty() {
        let top = opts.top.max(1).min(s.groups.len());
        let (shown, rest) = s.groups.split_at(top);
        let title = match s.kind {
            DocumentKind::Plan if rest.is_empty() => "**Changes by resource**".to_string(),
            DocumentKind::Plan => format!(
                "**Largest changes** ({} of {} resources)",
                shown.len(),
                s.groups.len()
            ),
            DocumentKind::State => "**Resources**".to_string(),
        };
        v.push((Part::Largest, format!("{title}\n\n{}", table(s, shown))));
        if !rest.is_empty() {
            v.push((
                Part::Rest,
                format!(
                    "<details><summary>{}</summary>\n\n{}\n</details>\n",
                    more_resources(rest.len()),
                    table(s, rest)
                ),
            ));
        }
    }
    let top = opts.top.max(1);
    for part in [Part::Modules, Part::ModuleResources] {
        if let Some(m) = super::modules::section(s, part, top, top, None) {
            v.push((part, m));
        }
    }
    v.push((Part::Plan, plan_fold(s, plan)));
    v
}

/// Writes the whole comment, within `opts.max_chars` ([`fit`]).
pub fn write_comment(
    s: &Summary,
    plan: PlanText,
    opts: &CommentOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    out.write_all(fit(s, plan, opts).as_bytes())
}

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

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// The comment within the budget. Over it, the least important goes first: the plan is cut
/// between lines (its code fence and fold stay closed, a note says how much is left out),
/// then the modules' folded resources, the folded rows, the module table and the top rows
/// are cut from the smallest change up (a note says how many). The headline, the totals and
/// what was not counted stay unless they alone pass the budget: then [`guard`] cuts the comment
/// between lines, so that it never passes `--max-chars`.
pub fn fit(s: &Summary, plan: PlanText, opts: &CommentOptions) -> String {
    let text = fit_sections(s, plan, opts);
    match opts.max_chars {
        Some(max) => guard(text, max),
        None => text,
    }
}

/// The last resort of [`fit`]: the comment's whole lines from the start while they fit, the
/// open code fence and folds closed after them, and a note. (Plan text is on one line in a
/// code span, or in the fenced block, so no construct is cut open.)
pub(crate) fn guard(text: String, max: usize) -> String {
    if chars(&text) <= max {
        return text;
    }
    let note = format!(
        "\n*The rest of the comment is left out to stay within {max} characters \
         (`--max-chars`).*\n"
    );
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
        parts[i].1 = plan_fold_within(s, plan, whole, max.saturating_sub(others), max);
        if total(&parts) <= max {
            return join(&parts);
        }
    }
    // 2. the modules' folded resources, 3. the folded rows, 4. the module table, then 5. the
    // top rows
    let top = opts.top.max(1).min(s.groups.len());
    let modules = super::modules::comment_rows(s, opts.top);
    let section = |part: Part, shown: usize| match part {
        Part::Rest => rows_section(s, part, &s.groups[top..], shown, max),
        Part::Largest => rows_section(s, part, &s.groups[..top], shown, max),
        _ => super::modules::section(s, part, opts.top, shown, Some(max)).unwrap_or_default(),
    };
    for (part, items) in [
        (Part::ModuleResources, modules),
        (Part::Rest, s.groups.len() - top),
        (Part::Modules, modules),
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
fn rows_section(s: &Summary, part: Part, groups: &[Group], shown: usize, max: usize) -> String {
    let left = groups.len() - shown;
    let note = format!(
        "*{left} more resources left out to stay within {max} characters (`--max-chars`); \
         `--format json` has them all.*\n"
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

/// The plan fold within `room` characters: whole lines only, the fence and the fold closed,
/// and a note saying how many lines were left out. `whole` is `plan_fold(s, plan)`.
fn plan_fold_within(s: &Summary, plan: PlanText, whole: String, room: usize, max: usize) -> String {
    if chars(&whole) <= room {
        return whole;
    }
    let summary = fold_summary(s, plan);
    let text = crate::escape::fenced(plan.text);
    let fence = fence_for(&text);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let head = format!("<details><summary>{summary}</summary>\n\n{fence}text\n");
    let tail = |left: usize| {
        format!(
            "{fence}\n\n*{left} more lines of the plan left out to stay within {max} characters \
             (`--max-chars`).*\n\n</details>\n"
        )
    };
    let mut used = chars(&head) + chars(&tail(lines.len()));
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
        return format!(
            "*The plan text is left out to stay within {max} characters (`--max-chars`).*\n"
        );
    }
    let mut out = head;
    for l in &lines[..kept] {
        out.push_str(l);
        if !l.ends_with('\n') {
            out.push('\n');
        }
    }
    out.push_str(&tail(lines.len() - kept));
    out
}

fn headline(s: &Summary, opts: &CommentOptions) -> String {
    let h = s.hours();
    let per = s.period_name();
    let doc = match s.kind {
        DocumentKind::Plan => "plan",
        DocumentKind::State => "state",
    };
    let (heading, sentence) = match s.verdict {
        Verdict::Changed => {
            let rel = s.relative().map(|p| format!(" ({p})")).unwrap_or_default();
            let (marker, verb) = if s.delta > 0.0 {
                ("▲", "adds")
            } else {
                ("▼", "saves")
            };
            (
                format!(
                    "{marker} This plan {verb} {} per {per}{rel}",
                    Mass(s.delta.abs() * h)
                ),
                format!(
                    "From {} to {} per {per}, at {}: {} per hour{}.",
                    Mass(s.before * h),
                    Mass(s.after * h),
                    s.utilisation(),
                    signed(s.delta),
                    per_year(s, signed(s.delta * crate::estimate::Period::Year.hours())),
                ),
            )
        }
        Verdict::Unchanged => (
            format!(
                "= This plan leaves emissions unchanged at {} per {per}",
                Mass(s.after * h)
            ),
            format!(
                "The resources it changes emit as much after as before, at {}.",
                s.utilisation()
            ),
        ),
        Verdict::Footprint => (
            format!(
                "This state's resources emit {} per {per}",
                Mass(s.after * h)
            ),
            format!(
                "At {}: {} per hour{}.",
                s.utilisation(),
                Mass(s.after),
                per_year(
                    s,
                    Mass(s.after * crate::estimate::Period::Year.hours()).to_string()
                ),
            ),
        ),
        Verdict::NothingEstimated => (
            format!("⚠ carbon-show could not estimate this {doc}"),
            "No resource in it has figures to add up, so there is no total: read \
             **not counted** below, not a zero."
                .to_string(),
        ),
        Verdict::Silent => (
            format!("carbon-show found nothing to estimate in this {doc}"),
            "It has no AWS, Google Cloud or Azure resource the mappings know of.".to_string(),
        ),
    };
    let settings = if s.settings.is_empty() {
        String::new()
    } else {
        let items: Vec<String> = (s.settings.iter())
            .map(|m| {
                format!(
                    "{} {} ({})",
                    escape(&m.setting),
                    code(&m.value),
                    code(&m.source)
                )
            })
            .collect();
        format!("\n**Not the defaults:** {}.\n", items.join(" · "))
    };
    format!(
        "{}\n### {}\n\n{}\n{settings}{}",
        marker(opts.tag.as_deref()),
        escape(&heading),
        sentence,
        gate_line(s)
    )
}

/// The `--fail-over` verdict under the headline, when a budget is set: a reviewer sees why the
/// check is red (or that it is green) without opening the job's log.
fn gate_line(s: &Summary) -> String {
    let Some(g) = s.report.fail_over else {
        return String::new();
    };
    let hours = match g.period {
        "hour" => crate::estimate::Period::Hour,
        "year" => crate::estimate::Period::Year,
        _ => crate::estimate::Period::Month,
    }
    .hours();
    let limit = crate::estimate::Mass(g.limit_gco2eq);
    if g.exceeded {
        format!(
            "\n**⛔ Over the `--fail-over` budget** of {limit} per {p}: the plan adds {} per {p}, \
             so this check fails.\n",
            crate::estimate::Mass(g.added_per_hour_gco2eq * hours),
            p = g.period
        )
    } else {
        format!(
            "\n**✅ Within the `--fail-over` budget** of {limit} per {p}: the plan's change is \
             {} per {p}.\n",
            super::signed(g.added_per_hour_gco2eq * hours),
            p = g.period
        )
    }
}

/// `, 8.81 kgCO2eq per year` after the hourly figure, unless the headline is per year already.
fn per_year(s: &Summary, figure: String) -> String {
    if s.period == crate::estimate::Period::Year {
        String::new()
    } else {
        format!(", {figure} per year")
    }
}

/// The unit a table's figures are given in, from its largest figure: (name, grams per unit).
pub(super) fn unit_for(figures: impl IntoIterator<Item = f64>) -> (&'static str, f64) {
    let max = figures.into_iter().fold(0.0f64, |m, g| m.max(g.abs()));
    if max >= 1e6 {
        ("tCO2eq", 1e6)
    } else if max >= 1e3 {
        ("kgCO2eq", 1e3)
    } else {
        ("gCO2eq", 1.0)
    }
}

pub(super) fn num(g: f64, scale: f64) -> String {
    sig3(g / scale)
}

pub(super) fn signed_num(g: f64, scale: f64) -> String {
    format!("{}{}", super::sign(g), sig3(g / scale))
}

fn totals(s: &Summary) -> String {
    let h = s.hours();
    let t = &s.report.totals;
    type Pick = fn(&crate::report::Figures) -> f64;
    let rows: [(&str, Pick); 3] = [
        ("operational", |f: &crate::report::Figures| {
            f.operational_gco2eq
        }),
        ("embodied", |f: &crate::report::Figures| f.embodied_gco2eq),
        ("**total**", |f: &crate::report::Figures| f.total_gco2eq),
    ];
    let all = rows.iter().flat_map(|(_, f)| {
        [
            f(&t.before_per_hour) * h,
            f(&t.after_per_hour) * h,
            f(&t.delta_per_hour) * h,
        ]
    });
    let (unit, scale) = unit_for(all.collect::<Vec<_>>());
    let per = s.period_name();
    let mut out = String::new();
    let bold = |name: &str, v: String| {
        if name.starts_with("**") {
            format!("**{v}**")
        } else {
            v
        }
    };
    // the after figures' low–high, in the table's unit
    let range = |f: Pick| {
        let b = &t.after_range_per_hour;
        let (low, high) = (num(f(&b.low) * h, scale), num(f(&b.high) * h, scale));
        // a figure without spread (embodied) is one value
        if low == high {
            low
        } else {
            format!("{low}–{high}")
        }
    };
    if s.kind == DocumentKind::State {
        out.push_str(&format!(
            "| {unit} per {per} | emits | range |\n|---|---:|---:|\n"
        ));
        for (name, f) in rows {
            out.push_str(&format!(
                "| {name} | {} | {} |\n",
                bold(name, num(f(&t.after_per_hour) * h, scale)),
                range(f),
            ));
        }
    } else {
        out.push_str(&format!(
            "| {unit} per {per} | before | after | change | after range |\n\
             |---|---:|---:|---:|---:|\n"
        ));
        for (name, f) in rows {
            out.push_str(&format!(
                "| {name} | {} | {} | {} | {} |\n",
                bold(name, num(f(&t.before_per_hour) * h, scale)),
                bold(name, num(f(&t.after_per_hour) * h, scale)),
                bold(name, signed_num(f(&t.delta_per_hour) * h, scale)),
                range(f),
            ));
        }
    }
    if let Some(footer) = sources_footer(s) {
        out.push('\n');
        out.push_str(&footer);
    }
    out
}

/// Under the totals: what the range is and the ids of the data tables the figures come from.
fn sources_footer(s: &Summary) -> Option<String> {
    let mut sources: Vec<&str> = s
        .report
        .resources
        .iter()
        .flat_map(|r| [&r.before, &r.after])
        .flatten()
        .flat_map(|side| side.sources.iter())
        .collect();
    sources.sort_unstable();
    sources.dedup();
    (!sources.is_empty()).then(|| {
        format!(
            "Range: utilisation {}–{} % and the spread of the coefficients that could apply. \
             Sources: {} (`data/<id>.source.json`).\n",
            super::trim_num(crate::estimate::LOW_UTILIZATION * 100.0),
            super::trim_num(crate::estimate::HIGH_UTILIZATION * 100.0),
            sources
                .iter()
                .map(|id| format!("`{id}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// A table of resource groups, with one unit for all its figures.
pub(super) fn table(s: &Summary, groups: &[Group]) -> String {
    let h = s.hours();
    let per = s.period_name();
    let all: Vec<f64> = groups
        .iter()
        .flat_map(|g| [g.before.unwrap_or(0.0), g.after.unwrap_or(0.0), g.delta])
        .map(|g| g * h)
        .collect();
    let (unit, scale) = unit_for(all);
    let side = |v: Option<f64>| v.map_or("–".to_string(), |g| num(g * h, scale));
    let mut out = String::new();
    if s.kind == DocumentKind::State {
        out.push_str(&format!(
            "| resource ({unit} per {per}) | emits |\n|---|---:|\n"
        ));
        for g in groups {
            out.push_str(&format!("| {} | {} |\n", code(&g.label), side(g.after)));
        }
    } else {
        out.push_str(&format!(
            "| resource ({unit} per {per}) | action | before | after | change |\n\
             |---|---|---:|---:|---:|\n"
        ));
        for g in groups {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                code(&g.label),
                g.action(),
                side(g.before),
                side(g.after),
                signed_num(g.delta * h, scale),
            ));
        }
    }
    out
}

fn not_counted(s: &Summary) -> Option<String> {
    let c = &s.report.counts;
    let mut parts: Vec<String> = Vec::new();
    if !s.unsupported.is_empty() {
        let names: Vec<String> = if s.verdict == Verdict::NothingEstimated {
            s.unsupported_types
                .iter()
                .map(|t| code_type_count(t))
                .collect()
        } else {
            s.unsupported.iter().map(|a| code_text(a)).collect()
        };
        parts.push(format!(
            "{} unsupported, no mapping covers them: {}",
            s.report.unsupported.len(),
            capped(&names, NAMES_LISTED)
        ));
    }
    if !s.unsupported_reasons.is_empty() {
        let names: Vec<String> = s
            .unsupported_reasons
            .iter()
            .map(|n| format!("{} ({})", code_text(&n.label), code_text(&n.reason)))
            .collect();
        parts.push(format!(
            "{} unsupported, no sourced method: {}",
            c.unsupported - s.report.unsupported.len(),
            capped(&names, NAMES_LISTED)
        ));
    }
    if !s.not_estimated.is_empty() {
        let names: Vec<String> = s
            .not_estimated
            .iter()
            .map(|n| format!("{} ({})", code_text(&n.label), code_text(&n.reason)))
            .collect();
        parts.push(format!(
            "{} not estimated, a figure was missing: {}",
            c.not_estimated,
            capped(&names, NAMES_LISTED)
        ));
    }
    if parts.is_empty() {
        return None;
    }
    let mut p = format!("**Not counted:** {}.", parts.join("; "));
    if c.ignored > 0 {
        p.push_str(&format!(
            " Ignored, with no emissions of their own (networks, IAM, …): {}.",
            c.ignored
        ));
    }
    p.push('\n');
    Some(p)
}

fn fold_summary(s: &Summary, plan: PlanText) -> String {
    match (plan.plan_line, s.kind) {
        (Some(l), _) => escape(l.trim()),
        (None, DocumentKind::Plan) => "The plan".to_string(),
        (None, DocumentKind::State) => "The state".to_string(),
    }
}

fn plan_fold(s: &Summary, plan: PlanText) -> String {
    let summary = fold_summary(s, plan);
    // no HTML comment (a marker) from the plan in the comment's raw text
    let text = crate::escape::fenced(plan.text);
    let fence = fence_for(&text);
    let mut out = format!("<details><summary>{summary}</summary>\n\n{fence}text\n");
    out.push_str(&text);
    if !text.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!("{fence}\n\n</details>\n"));
    out
}

/// `1 more resource`, `2 more resources`.
fn more_resources(n: usize) -> String {
    format!("{n} more resource{}", if n == 1 { "" } else { "s" })
}

/// Plan text (an address, a label) in a code span, safe in a table cell: on one line (a raw
/// newline would end the row), a fence no backtick run inside can close, no `|` to split the
/// cell ([`crate::escape::code_span`]).
pub(super) fn code(address: &str) -> String {
    crate::escape::code_span(address, true)
}

/// Plan or repository text (an address, a reason quoting a machine type) in a code span in
/// running text: no link, image, autolink, HTML, mention or reference can form from it.
pub(super) fn code_text(text: &str) -> String {
    crate::escape::code_span(text, false)
}

/// `aws_lambda_function ×2` with the type in a code span.
fn code_type_count(t: &str) -> String {
    match t.rsplit_once(' ') {
        Some((ty, n)) => format!("{} {n}", code_text(ty)),
        None => code_text(t),
    }
}

/// Plan text inside an HTML block (a fold's `<summary>`): in `<code>`, entity-escaped, on one
/// line and shortened, so that no tag, mention or reference forms from it.
pub(super) fn html_code(text: &str) -> String {
    let text = crate::escape::line(text);
    let text = crate::escape::middle(&text, crate::escape::MARKDOWN_SPAN);
    format!("<code>{}</code>", escape(&text))
}

/// Escapes carbon-show's own text for a Markdown table cell or HTML summary (plan text goes in
/// a code span: [`code`], [`code_text`], [`html_code`]).
pub(super) fn escape(s: &str) -> String {
    crate::escape::line(s)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
}

/// A code fence longer than any run of backticks inside `text`.
fn fence_for(text: &str) -> String {
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

    #[test]
    fn fences_outgrow_backtick_runs() {
        assert_eq!(fence_for("plain"), "```");
        assert_eq!(fence_for("a ```` b"), "`````");
        assert_eq!(fence_for("`é``````"), "```````");
        assert_eq!(fence_for("``é`` ```x"), "````");
    }

    #[test]
    fn cells_escape_markup() {
        assert_eq!(escape("a|b<c>&"), "a\\|b&lt;c&gt;&amp;");
        assert_eq!(code("a.b[\"x|`\"]"), "``a.b[\"x\\|`\"]``");
        assert_eq!(
            html_code("module.a[\"<b>@o/t\"]"),
            "<code>module.a[\"&lt;b&gt;@o/t\"]</code>"
        );
    }

    #[test]
    fn a_raw_newline_in_an_address_broke_the_table() {
        assert_eq!(code("a.b[\"x\n|```y\"]"), "````a.b[\"x\\n\\|```y\"]````");
        assert_eq!(escape("a\r\nb\u{7}"), "a\\r\\nb\\a");
    }

    #[test]
    fn one_unit_from_the_largest_figure() {
        assert_eq!(unit_for([5.0, -2500.0]), ("kgCO2eq", 1e3));
        assert_eq!(unit_for([5.0]), ("gCO2eq", 1.0));
        assert_eq!(unit_for([3e6]), ("tCO2eq", 1e6));
        assert_eq!(marker(None), "<!-- carbon-show -->");
        assert_eq!(marker(Some("prod")), "<!-- carbon-show:prod -->");
    }
}
