//! The module rollup worded: the human summary's closing "by module" lines and the Markdown
//! comment's module table with each module's resources folded under it, over the
//! [`crate::report::modules`] tree the [`Summary`] carries.
//!
//! A row is one node of the folded tree with its *own* resources (those declared in it and in
//! the modules folded into it), so the rows of a plan add up to its total and a module shown
//! at depth 2 is not counted again in its parent's row. Rows are ranked like the resources:
//! by the size of their change (a state's by what they emit), largest first; a row that
//! changes nothing is left out of a plan's. A plan with the root module only has no rollup.

use super::markdown::{Part, cell, num, signed_num, table, unit_for};
use super::summary::{DocumentKind, Group, Line, Summary, Tone, Verdict};
use super::{COLUMNS, signed};
use crate::estimate::Mass;
use crate::report::modules::Module;

/// Module rows the human summary shows before `and N more`.
pub const HUMAN_ROWS: usize = 5;

/// The name of the root module's row.
pub const ROOT_LABEL: &str = "(root module)";

/// One row of the rollup: a module and the figures of its own resources, gCO2eq per hour.
#[derive(Debug, Clone, PartialEq)]
pub struct Row<'m> {
    pub module: &'m Module,
    /// `(root module)`, `module.eu`, or `module.app ×2` for two instances of one call.
    pub label: String,
    pub before: f64,
    pub after: f64,
    pub delta: f64,
}

impl Row<'_> {
    /// Resources in this row.
    pub fn count(&self) -> usize {
        self.module.resources.len()
    }
}

/// The rollup's rows, ranked; empty when the plan has only the root module (or the depth is
/// 0), when nothing was estimated, or when no row changes.
pub fn rows<'m>(s: &'m Summary) -> Vec<Row<'m>> {
    let root = &s.modules.root;
    if root.children.is_empty()
        || !matches!(
            s.verdict,
            Verdict::Changed | Verdict::Footprint | Verdict::Unchanged
        )
    {
        return Vec::new();
    }
    let mut rows: Vec<Row> = root
        .walk()
        .into_iter()
        .filter(|m| !m.resources.is_empty())
        .map(|m| Row {
            module: m,
            label: match (m.address.as_str(), m.instances) {
                ("", _) => ROOT_LABEL.to_string(),
                (a, 1) => a.to_string(),
                (a, n) => format!("{a} ×{n}"),
            },
            before: m.own.before_per_hour.total_gco2eq,
            after: m.own.after_per_hour.total_gco2eq,
            delta: m.own.delta_per_hour.total_gco2eq,
        })
        .collect();
    let size = |r: &Row| match s.kind {
        DocumentKind::State => r.after,
        DocumentKind::Plan => r.delta.abs(),
    };
    rows.retain(|r| size(r) != 0.0);
    rows.sort_by(|a, b| {
        size(b)
            .total_cmp(&size(a))
            .then_with(|| a.label.cmp(&b.label))
    });
    rows
}

fn resources(n: usize) -> String {
    format!("{n} resource{}", if n == 1 { "" } else { "s" })
}

/// The closing lines of the human summary: the top modules, each with before → after and
/// its number of resources.
pub fn human_lines(s: &Summary) -> Vec<Line> {
    let rows = rows(s);
    if rows.is_empty() {
        return Vec::new();
    }
    let h = s.hours();
    let mut out: Vec<Line> = vec![vec![(
        Tone::Detail,
        format!(
            "  by module per {} (--module-depth {}):",
            s.period_name(),
            s.modules.depth
        ),
    )]];
    let shown = &rows[..rows.len().min(HUMAN_ROWS)];
    let figures: Vec<String> = shown
        .iter()
        .map(|r| match s.kind {
            DocumentKind::State => Mass(r.after * h).to_string(),
            DocumentKind::Plan => signed(r.delta * h),
        })
        .collect();
    let width = figures.iter().map(|f| f.chars().count()).max().unwrap_or(0);
    for (r, f) in shown.iter().zip(&figures) {
        let tone = match s.kind {
            DocumentKind::Plan if r.delta > 0.0 => Tone::Up,
            DocumentKind::Plan if r.delta < 0.0 => Tone::Down,
            _ => Tone::Label,
        };
        let count = resources(r.count());
        let detail = match s.kind {
            DocumentKind::Plan => format!(
                "  {}: {} → {} · {count}",
                r.label,
                Mass(r.before * h),
                Mass(r.after * h)
            ),
            DocumentKind::State => format!("  {} · {count}", r.label),
        };
        // too wide: the label and the count only
        let detail = if 4 + width + detail.chars().count() > COLUMNS {
            format!("  {} · {count}", r.label)
        } else {
            detail
        };
        out.push(vec![
            (Tone::Detail, "    ".into()),
            (tone, format!("{f:>width$}")),
            (Tone::Detail, detail),
        ]);
    }
    if rows.len() > shown.len() {
        out.push(vec![(
            Tone::Detail,
            format!(
                "    and {} more (--format json or markdown for all)",
                rows.len() - shown.len()
            ),
        )]);
    }
    out
}

/// Which of the comment's module sections say something the resource table above does not.
///
/// The rule: the folds (each module's resources) are left out when the resource table lists
/// every resource that changes (none folded under "N more resources"): they would list the
/// same rows again. The module table is left out when each of its rows stands for one row
/// of the resource table (no module holds two of the resources that change): its rows would
/// repeat those figures under the module's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shown {
    pub table: bool,
    pub folds: bool,
}

impl Shown {
    /// `all_listed`: the resource table shows every resource group of the summary.
    pub fn new(s: &Summary, all_listed: bool) -> Shown {
        let rows = rows(s);
        let mut row_of: std::collections::HashMap<&str, usize> = Default::default();
        for (i, r) in rows.iter().enumerate() {
            row_of.extend(r.module.resources.iter().map(|a| (a.as_str(), i)));
        }
        let mut groups = vec![0usize; rows.len()];
        for g in &s.groups {
            if let Some(&i) = row_of.get(g.members[0].address.as_str()) {
                groups[i] += 1;
            }
        }
        Shown {
            table: groups.iter().any(|&n| n > 1),
            folds: !all_listed,
        }
    }
}

/// How many module rows the comment can show: the rows, at most `top`.
pub fn comment_rows(s: &Summary, top: usize) -> usize {
    rows(s).len().min(top.max(1))
}

/// The comment's module sections with their first `shown` rows (table, or resources
/// folded under each), and a note for the rows left out to stay within `max` characters
/// (`None`: no budget cut them). `None` when there is no rollup.
pub fn section(
    s: &Summary,
    part: Part,
    top: usize,
    shown: usize,
    max: Option<super::markdown::Within>,
) -> Option<String> {
    let rows = rows(s);
    if rows.is_empty() {
        return None;
    }
    let listed = rows.len().min(top.max(1));
    let shown = shown.min(listed);
    let cut = listed - shown;
    let note = |what: &str| match max {
        Some(max) if cut > 0 => Some(format!(
            "*{cut} more {what} left out to stay within {max}; `--format json` has them all.*\n"
        )),
        _ => None,
    };
    let mut out = String::new();
    match part {
        // no row fits: one line says so (the folded resources are gone before)
        Part::Modules if shown == 0 && max.is_some() => {
            if let Some(max) = max {
                out.push_str(&format!(
                    "*The module table is left out to stay within {max}.*\n"
                ));
            }
        }
        Part::Modules => {
            out.push_str(&format!(
                "**By module** (modules nested deeper than {} folded into their parent, \
                 `--module-depth`)\n\n",
                s.modules.depth
            ));
            if shown > 0 {
                out.push_str(&module_table(s, &rows[..shown]));
            }
            if rows.len() > listed {
                out.push_str(&format!(
                    "\n*{} more modules: `--format json` has them all.*\n",
                    rows.len() - listed
                ));
            }
            if let Some(n) = note("modules") {
                out.push('\n');
                out.push_str(&n);
            }
        }
        // none fits: left out without a note (the table's rows say where they are)
        Part::ModuleResources if shown == 0 => return None,
        Part::ModuleResources => {
            for r in &rows[..shown] {
                out.push_str(&details(s, r));
            }
            if let Some(n) = note("modules' resources") {
                out.push('\n');
                out.push_str(&n);
            }
        }
        _ => return None,
    }
    Some(out)
}

/// The top modules: resources, before, after, change, in one unit.
fn module_table(s: &Summary, rows: &[Row]) -> String {
    let h = s.hours();
    let per = s.period_name();
    let (unit, scale) = unit_for(
        rows.iter()
            .flat_map(|r| [r.before, r.after, r.delta])
            .map(|g| g * h)
            .collect::<Vec<_>>(),
    );
    let label = |r: &Row| {
        if r.module.address.is_empty() {
            r.label.clone()
        } else {
            match r.module.instances {
                1 => cell(&r.label),
                n => format!("{} ×{n}", cell(&r.module.address)),
            }
        }
    };
    let mut out = String::new();
    if s.kind == DocumentKind::State {
        out.push_str(&format!(
            "| module ({unit} per {per}) | resources | emits |\n|---|---:|---:|\n"
        ));
        for r in rows {
            out.push_str(&format!(
                "| {} | {} | {} |\n",
                label(r),
                r.count(),
                num(r.after * h, scale)
            ));
        }
    } else {
        out.push_str(&format!(
            "| module ({unit} per {per}) | resources | before | after | change |\n\
             |---|---:|---:|---:|---:|\n"
        ));
        for r in rows {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                label(r),
                r.count(),
                num(r.before * h, scale),
                num(r.after * h, scale),
                signed_num(r.delta * h, scale),
            ));
        }
    }
    out
}

/// One module's resources, folded: the summary names the module and its change.
fn details(s: &Summary, r: &Row) -> String {
    let h = s.hours();
    let own: std::collections::HashSet<&str> =
        r.module.resources.iter().map(String::as_str).collect();
    let groups: Vec<Group> = s
        .groups
        .iter()
        .filter(|g| own.contains(g.members[0].address.as_str()))
        .cloned()
        .collect();
    let figure = match s.kind {
        DocumentKind::Plan => signed(r.delta * h),
        DocumentKind::State => Mass(r.after * h).to_string(),
    };
    let listed: usize = groups.iter().map(|g| g.members.len()).sum();
    let mut body = if groups.is_empty() {
        String::new()
    } else {
        table(s, &groups)
    };
    // the module's other resources: no change of figures, or no figures
    if let Some(n) = r.count().checked_sub(listed).filter(|&n| n > 0) {
        if !body.is_empty() {
            body.push('\n');
        }
        body.push_str(&if n == 1 {
            "*And 1 more resource: its figures do not change, or could not be estimated.*\n"
                .to_string()
        } else {
            format!(
                "*And {n} more resources: their figures do not change, or could not be \
                 estimated.*\n"
            )
        });
    }
    // the module's address comes from the plan: in `<code>`, escaped
    let name = match (r.module.address.as_str(), r.module.instances) {
        ("", _) => super::markdown::escape(&r.label),
        (a, 1) => super::markdown::html_code(a),
        (a, n) => format!("{} ×{n}", super::markdown::html_code(a)),
    };
    format!(
        "<details><summary>{name}: {figure} per {}, {}</summary>\n\n{body}\n</details>\n",
        s.period_name(),
        resources(r.count())
    )
}
