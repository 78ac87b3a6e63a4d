//! "Could be greener": the largest savings the greener alternatives offer across the plan
//! (`crate::alternatives`, the same choices as each resource's `# ↳` line), per resource
//! group, as data ([`top`]) and worded for the human summary and the comment.

use super::summary::{Group, Line, Summary, Tone};
use super::{percent, signed};
use crate::alternatives::{AlternativeKind, worth_showing};
use crate::report::Text;

/// Savings the comment lists.
pub const COMMENT_TOP: usize = 5;
/// Savings the human summary lists.
pub const HUMAN_TOP: usize = 3;

/// One saving: a resource group moved to another region, or run as another type.
#[derive(Debug, Clone, PartialEq)]
pub struct Saving<'s> {
    /// The group's label (`aws_instance.worker[0..2] ×3`).
    pub label: &'s str,
    pub kind: AlternativeKind,
    /// The region or machine type the group has now, when its members share one.
    pub from: Option<Text>,
    /// The region or machine type of the alternative, when the members' alternatives share one.
    pub to: Option<Text>,
    /// gCO2eq per hour saved, all members together (positive).
    pub per_hour: f64,
    /// The saving as a share of the group's after figure (0..1).
    pub share: f64,
}

impl Saving<'_> {
    /// `region us-east-1 → us-west-1`, `type m5.large → m6g.large`, with each value written
    /// by `value` (a code span in Markdown, the terminal's escaping in the human summary).
    pub fn change(&self, value: &dyn Fn(&str) -> String) -> String {
        let (what, arrow_only) = match self.kind {
            AlternativeKind::Region => ("region", "in"),
            AlternativeKind::Arm => ("type", "as"),
        };
        let to = self.to.as_deref().map_or("(several)".to_string(), value);
        match &self.from {
            Some(from) if self.to.is_some() => format!("{what} {} → {to}", value(from)),
            _ => format!("{arrow_only} {to}"),
        }
    }
}

/// The one value the members share, if they do.
fn shared(values: impl IntoIterator<Item = Option<Text>>) -> Option<Text> {
    let mut it = values.into_iter();
    let first = it.next()??;
    it.all(|v| v.as_deref() == Some(&*first)).then_some(first)
}

fn savings_of<'s>(g: &'s Group, kind: AlternativeKind) -> Option<Saving<'s>> {
    let mut from = Vec::new();
    let mut to = Vec::new();
    let mut per_hour = 0.0;
    for m in &g.members {
        let Some(a) = m
            .alternatives
            .iter()
            .find(|a| a.kind == kind && worth_showing(a))
        else {
            continue;
        };
        per_hour += a.saving_gco2eq_per_hour;
        let side = m.after.as_ref();
        match kind {
            AlternativeKind::Region => {
                from.push(side.and_then(|s| s.region.clone()));
                to.push(a.region.clone());
            }
            AlternativeKind::Arm => {
                from.push(side.and_then(|s| s.machine_type.clone()));
                to.push(a.machine_type.clone());
            }
        }
    }
    let after = g.after.unwrap_or(0.0);
    (per_hour > 0.0 && after > 0.0).then(|| Saving {
        label: &g.label,
        kind,
        from: shared(from),
        to: shared(to),
        per_hour,
        share: per_hour / after,
    })
}

/// The `n` largest savings of the summary's resource groups (those the plan changes; a
/// state's all), largest first; each group has at most one per kind. Empty when the
/// alternatives are off (`--alternatives off`) or none saves [`crate::alternatives::SHOW_FROM`]
/// of its resource's figure.
pub fn top<'s>(s: &'s Summary, n: usize) -> Vec<Saving<'s>> {
    if !s.alternatives {
        return Vec::new();
    }
    let mut v: Vec<Saving> = s
        .groups
        .iter()
        .flat_map(|g| {
            [AlternativeKind::Region, AlternativeKind::Arm]
                .into_iter()
                .filter_map(move |k| savings_of(g, k))
        })
        .collect();
    v.sort_by(|a, b| {
        b.per_hour
            .total_cmp(&a.per_hour)
            .then_with(|| a.label.cmp(b.label))
    });
    v.truncate(n);
    v
}

/// The human summary's `could be greener` lines (none when there is no saving).
pub fn human_lines(s: &Summary) -> Vec<Line> {
    let shown = top(s, HUMAN_TOP);
    if shown.is_empty() {
        return Vec::new();
    }
    let h = s.hours();
    let mut out = vec![vec![(
        Tone::Detail,
        format!(
            "  could be greener, per {} (docs/alternatives.md):",
            s.period_name()
        ),
    )]];
    let figures: Vec<String> = shown.iter().map(|x| signed(-x.per_hour * h)).collect();
    let width = figures.iter().map(|f| f.chars().count()).max().unwrap_or(0);
    let value = |v: &str| crate::escape::value(v).into_owned();
    for (x, f) in shown.iter().zip(&figures) {
        let tail = format!(": {} ({})", x.change(&value), percent(-x.share * 100.0));
        // within the summary's columns: the label gives way, in the middle
        let room = super::COLUMNS.saturating_sub(4 + width + 2 + tail.chars().count());
        let label = super::shorten(x.label, room.max(24));
        out.push(vec![
            (Tone::Detail, "    ".into()),
            (Tone::Down, format!("{f:>width$}")),
            (Tone::Detail, format!("  {label}{tail}")),
        ]);
    }
    out
}

/// The comment's "Could be greener" table of the `n` largest savings, `None` when there is
/// none (or `n` is 0).
pub fn markdown(s: &Summary, n: usize) -> Option<String> {
    use super::markdown::{cell, code, signed_num, unit_for};
    let shown = top(s, n);
    if shown.is_empty() {
        return None;
    }
    let h = s.hours();
    let (unit, scale) = unit_for(shown.iter().map(|x| x.per_hour * h).collect::<Vec<_>>());
    let mut out = format!(
        "**Could be greener** ([how they are chosen]({}))\n\n\
         | resource ({unit} per {}) | greener choice | change | of its figure |\n\
         |---|---|---:|---:|\n",
        super::markdown::footer::doc_url("alternatives.md", ""),
        s.period_name()
    );
    let value = |v: &str| code(v);
    for x in &shown {
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            cell(x.label),
            x.change(&value),
            signed_num(-x.per_hour * h, scale),
            percent(-x.share * 100.0)
        ));
    }
    Some(out)
}

/// The multi-project comment's table has a project column: its addresses are shortened to
/// this many characters (in the middle), so that the columns fit a comment's width.
pub const ACROSS_CELL_CHARS: usize = 40;

/// The multi-project comment's "Could be greener": the `n` largest savings over every project
/// (`(name, summary)`, one period), with a project column, in `unit` (name, grams per unit:
/// the projects table's); `None` when no project has one.
pub fn markdown_across(
    projects: &[(&str, &Summary)],
    n: usize,
    (unit, scale): (&str, f64),
) -> Option<String> {
    use super::markdown::{code, signed_num};
    let cell = |text: &str, max: usize| code(&super::shorten(&crate::escape::line(text), max));
    let mut shown: Vec<(&str, Saving, f64)> = (projects.iter())
        .flat_map(|(name, s)| top(s, n).into_iter().map(|x| (*name, x, s.hours())))
        .collect();
    let per = projects.first()?.1.period_name();
    shown.sort_by(|(_, a, ha), (_, b, hb)| (b.per_hour * hb).total_cmp(&(a.per_hour * ha)));
    shown.truncate(n);
    if shown.is_empty() {
        return None;
    }
    let mut out = format!(
        "**Could be greener** across the projects ([how they are chosen]({}))\n\n\
         | project | resource | greener choice | change | of its figure |\n\
         |---|---|---|---:|---:|\n",
        super::markdown::footer::doc_url("alternatives.md", ""),
    );
    let value = |v: &str| code(v);
    for (name, x, h) in &shown {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            cell(name, ACROSS_CELL_CHARS),
            cell(x.label, ACROSS_CELL_CHARS),
            x.change(&value),
            signed_num(-x.per_hour * h, scale),
            percent(-x.share * 100.0)
        ));
    }
    // the unit as the table of projects gives it
    out.push_str(&format!("\n*In {unit} per {per}.*\n"));
    Some(out)
}
