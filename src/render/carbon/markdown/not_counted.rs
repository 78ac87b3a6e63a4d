//! What the figures leave out, grouped by resource type and reason with counts
//! (`aws_lambda_function` × 12 — why), below the main table: a few lines however large the
//! plan, where the addresses would be a wall.

use super::{Summary, code_text};
use crate::render::carbon::type_of;
use crate::report::Status;

/// Lines listed before `and N more`.
const LINES: usize = 15;

/// Why a resource is not counted, in the comment's words; the reason is the report's.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Why<'r> {
    NoMapping,
    NoMethod(&'r str),
    Missing(&'r str),
}

/// (type, why, count), most resources first, then by type.
fn groups<'r>(s: &'r Summary) -> Vec<(&'r str, Why<'r>, usize)> {
    let r = s.report;
    let mut counts: std::collections::BTreeMap<(&str, Why), usize> = Default::default();
    for a in &r.unsupported {
        *counts.entry((type_of(a), Why::NoMapping)).or_default() += 1;
    }
    for res in &r.resources {
        let why = match &res.status {
            Status::Unsupported { reason } => Why::NoMethod(reason),
            Status::NotEstimated { reason } => Why::Missing(reason),
            _ => continue,
        };
        *counts.entry((type_of(&res.address), why)).or_default() += 1;
    }
    let mut v: Vec<(&str, Why, usize)> = counts.into_iter().map(|((t, w), n)| (t, w, n)).collect();
    v.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| (a.0, &a.1).cmp(&(b.0, &b.1))));
    v
}

/// The "Not counted" section: one line per resource type and reason, with the count;
/// `None` when every resource is counted (the ignored ones alone are no section).
pub fn section(s: &Summary) -> Option<String> {
    let groups = groups(s);
    if groups.is_empty() {
        return None;
    }
    let c = &s.report.counts;
    let total: usize = groups.iter().map(|g| g.2).sum();
    let ignored = if c.ignored > 0 {
        format!(
            "; {} ignored, with no emissions of their own (networks, IAM, …)",
            c.ignored
        )
    } else {
        String::new()
    };
    let mut out = format!(
        "**Not counted:** {total} resource{} without figures{ignored}.\n\n",
        if total == 1 { "" } else { "s" }
    );
    for (ty, why, n) in groups.iter().take(LINES) {
        let why = match why {
            Why::NoMapping => "unsupported: no mapping covers this type".to_string(),
            Why::NoMethod(r) => format!("unsupported, no sourced method: {}", code_text(r)),
            Why::Missing(r) => format!("not estimated, a figure was missing: {}", code_text(r)),
        };
        out.push_str(&format!("- {} × {n} — {why}\n", code_text(ty)));
    }
    if groups.len() > LINES {
        out.push_str(&format!(
            "- and {} more (`--format json` lists every resource)\n",
            groups.len() - LINES
        ));
    }
    Some(out)
}
