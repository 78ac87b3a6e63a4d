//! `--format markdown`: a pull-request comment laid out for the reviewer. Above the fold,
//! in this order: a hidden marker a CI job finds its own comment by, a heading that is a
//! sentence (direction marker, change, relative change) and the `--fail-over` verdict
//! ([`headline`]), the totals in one table with one unit and the sources as links to the
//! methodology ([`footer`]), what could be greener ([`super::greener`]), the resources that
//! change most (ranked by the size of their change), what was not counted grouped by type
//! ([`not_counted`]), the top modules ([`super::modules`]) and a footer naming the tool, its
//! version and the comment's tag. Then the folds: the rest of the resources, each module's
//! resources, and the annotated plan in a `diff` block ([`plan`]).
//!
//! The comment is built as sections in document order, each with a priority, and kept within
//! a character budget (`--max-chars`, GitHub's 65,536 by default) by leaving out the least
//! important first: the plan's last lines, then the smallest rows ([`fit`]).

mod capture;
mod fit;
pub mod footer;
mod headline;
mod not_counted;
mod plan;

use std::io::{self, Write};

pub use capture::{Capture, Cut};
pub use fit::Within;
pub use fit::fit;
pub(crate) use fit::guard;
use headline::headline;
pub(crate) use headline::not_the_defaults;
use plan::plan_fold;

use super::summary::{DocumentKind, Group, Summary, Verdict};
use crate::estimate::sig3;

/// Resource rows shown before the rest is folded.
pub const DEFAULT_TOP: usize = 10;
/// GitHub refuses comments longer than 65,536 characters (GitLab's notes allow 1,000,000).
pub const DEFAULT_MAX_CHARS: usize = 65_536;
/// The smallest budget `--max-chars` accepts: the headline, totals and a few rows fit.
pub const MIN_MAX_CHARS: usize = 2_000;
/// A table cell's address is shortened in the middle to this many characters ([`cell`]).
pub const CELL_CHARS: usize = 60;

/// The human plan as the comment shows it: its plain text (with the `# ≈` lines, without the
/// carbon summary) and its headline (`Plan: …` or `No changes. …`), both given as values.
#[derive(Debug, Clone, Copy)]
pub struct PlanText<'a> {
    pub text: &'a str,
    pub plan_line: Option<&'a str>,
    /// Set when `text` is only the first lines of the plan's text ([`Capture`]): what the fold
    /// says of the whole.
    pub cut: Option<Cut>,
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
    /// What a multi-project comment says once above its folds, left out of this comment
    /// (a project's, folded): nothing for a single plan's.
    pub said_above: SaidAbove,
    /// The whole comment's `--max-chars` when this comment is one project's share of it
    /// (`max_chars`): its notes then say that they kept to a share, not to `--max-chars`.
    pub share_of: Option<usize>,
}

/// The sections a multi-project comment says once, above the folds
/// ([`super::projects::comment`]), for a project's own comment to leave out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SaidAbove {
    /// The footer (tool, version, comment tag, methodology).
    pub footer: bool,
    /// The range and sources line under the totals (said above when every project's is the
    /// same).
    pub sources: bool,
}

impl Default for CommentOptions {
    fn default() -> Self {
        CommentOptions {
            tag: None,
            top: DEFAULT_TOP,
            max_chars: Some(DEFAULT_MAX_CHARS),
            said_above: SaidAbove::default(),
            share_of: None,
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
    /// The footer: tool, version, tag, methodology.
    Footer,
    /// The largest savings of the greener alternatives.
    Greener,
    /// Unsupported and not-estimated resources, grouped by type.
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

/// The comment's sections, in document order: everything a reviewer acts on first, then the
/// folds (so that the footer, the last line above them, is seen with the folds closed).
pub fn sections(s: &Summary, plan: PlanText, opts: &CommentOptions) -> Vec<(Part, String)> {
    let mut v = vec![(Part::Headline, headline(s, opts))];
    if matches!(
        s.verdict,
        Verdict::Changed | Verdict::Unchanged | Verdict::Footprint
    ) {
        v.push((Part::Totals, totals(s, !opts.said_above.sources)));
    }
    if let Some(w) = &s.report.what_if {
        let text = crate::alternatives::words::what_if_markdown(w, s.report, s.period);
        v.push((Part::Totals, text));
    }
    if let Some(g) = super::greener::markdown(s, super::greener::COMMENT_TOP) {
        v.push((Part::Greener, g));
    }
    let top = opts.top.max(1).min(s.groups.len());
    let (shown, rest) = s.groups.split_at(top);
    if !shown.is_empty() {
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
    }
    if let Some(p) = not_counted::section(s) {
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
    let modules = super::modules::Shown::new(s, rest.is_empty());
    let top = opts.top.max(1);
    if modules.table
        && let Some(m) = super::modules::section(s, Part::Modules, top, top, None)
    {
        v.push((Part::Modules, m));
    }
    if !opts.said_above.footer {
        v.push((Part::Footer, footer::footer(opts.tag.as_deref())));
    }
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
    if modules.folds
        && let Some(m) = super::modules::section(s, Part::ModuleResources, top, top, None)
    {
        v.push((Part::ModuleResources, m));
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

/// The totals table, and under it the range and sources line when `sources`.
fn totals(s: &Summary, sources: bool) -> String {
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
    if let Some(footer) = footer::sources_line(s).filter(|_| sources) {
        out.push('\n');
        out.push_str(&footer);
    }
    out
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
            out.push_str(&format!("| {} | {} |\n", cell(&g.label), side(g.after)));
        }
    } else {
        out.push_str(&format!(
            "| resource ({unit} per {per}) | action | before | after | change |\n\
             |---|---|---:|---:|---:|\n"
        ));
        for g in groups {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                cell(&g.label),
                g.action(),
                side(g.before),
                side(g.after),
                signed_num(g.delta * h, scale),
            ));
        }
    }
    out
}

/// `1 more resource`, `2 more resources`.
pub(super) fn more_resources(n: usize) -> String {
    format!("{n} more resource{}", if n == 1 { "" } else { "s" })
}

/// Plan text (an address, a label) in a code span, safe in a table cell: on one line (a raw
/// newline would end the row), a fence no backtick run inside can close, no `|` to split the
/// cell ([`crate::escape::code_span`]).
pub(super) fn code(address: &str) -> String {
    crate::escape::code_span(address, true)
}

/// A resource label in a table cell ([`code`]), shortened to [`CELL_CHARS`] in the middle
/// ([`super::shorten`]): on a large plan the figures stay in view; the plan fold has the address whole.
pub(crate) fn cell(label: &str) -> String {
    code(&super::shorten(&crate::escape::line(label), CELL_CHARS))
}

/// Plan or repository text (an address, a reason quoting a machine type) in a code span in
/// running text: no link, image, autolink, HTML, mention or reference can form from it.
pub(super) fn code_text(text: &str) -> String {
    crate::escape::code_span(text, false)
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn long_addresses_were_pushing_the_figures_out_of_view() {
        let long = "module.platform[\"eu-west-1\"].module.services[\"checkout\"].module.workers.aws_instance.worker[0..2] ×3";
        let short = super::super::shorten(long, 60);
        assert_eq!(short.chars().count(), 60, "{short}");
        assert!(short.ends_with("aws_instance.worker[0..2] ×3"), "{short}");
        assert!(short.starts_with("module.platform["), "{short}");
        assert!(short.contains('…'), "{short}");
        let key = format!("aws_instance.app[\"{}\"] ×2", "k".repeat(80));
        let short = super::super::shorten(&key, 60);
        assert_eq!(short.chars().count(), 60, "{short}");
        assert!(short.starts_with("aws_instance.app"), "{short}");
        assert!(short.ends_with("kk\"] ×2"), "{short}");
        let both = format!("module.a.{key}");
        let short = super::super::shorten(&both, 60);
        assert!(short.starts_with("…aws_instance."), "{short}");
        assert_eq!(short.chars().count(), 60, "{short}");
        assert_eq!(
            super::super::shorten("aws_instance.web", 60),
            "aws_instance.web"
        );
        assert_eq!(cell("aws_instance.web|x"), "`aws_instance.web\\|x`");
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
