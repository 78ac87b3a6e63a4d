//! `--format markdown`: a pull-request comment — totals first, a table of changed resources with
//! their deltas, and the full plan folded in a `<details>` block.

use std::io::{self, Write};

use crate::estimate::{Mass, Period};
use crate::report::{Report, Side, Status, banded, sign};

/// Writes the comment. `plan_text` is the plain (uncoloured) human plan; `plan_line` is its
/// `Plan: …` or `No changes.` line, used as the fold's summary.
pub fn write_comment(
    report: &Report,
    period: Period,
    plan_text: &str,
    plan_line: &str,
    out: &mut dyn Write,
) -> io::Result<()> {
    let t = &report.totals;
    let h = period.hours();
    let d = t.delta_per_hour.total_gco2eq;
    writeln!(
        out,
        "### carbon-show: {}{}/{} ({} → {})",
        sign(d),
        Mass(d * h),
        period.unit(),
        Mass(t.before_per_hour.total_gco2eq * h),
        Mass(t.after_per_hour.total_gco2eq * h),
    )?;
    writeln!(out)?;
    writeln!(out, "| | per hour | per month | per year |")?;
    writeln!(out, "|---|---:|---:|---:|")?;
    for (name, f, signed) in [
        ("before", &t.before_per_hour, false),
        ("after", &t.after_per_hour, false),
        ("**delta**", &t.delta_per_hour, true),
    ] {
        writeln!(
            out,
            "| {name} | {} | {} | {} |",
            cell(f.total_gco2eq, signed),
            cell(f.total_gco2eq * Period::Month.hours(), signed),
            cell(f.total_gco2eq * Period::Year.hours(), signed),
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "After the change: operational {} + embodied {} per {}, at {} % CPU utilisation.",
        Mass(t.after_per_hour.operational_gco2eq * h),
        Mass(t.after_per_hour.embodied_gco2eq * h),
        period.unit(),
        crate::report::trim_num(report.utilization * 100.0),
    )?;
    let changed: Vec<_> = report
        .resources
        .iter()
        .filter(|r| {
            r.delta_per_hour.total_gco2eq != 0.0 || matches!(r.status, Status::NotEstimated { .. })
        })
        .collect();
    if !changed.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "| resource | action | before /{p} | after /{p} | delta /{p} |",
            p = period.unit()
        )?;
        writeln!(out, "|---|---|---:|---:|---:|")?;
        for r in changed {
            // central [low–high]
            let side = |s: Option<&Side>| {
                s.map_or("–".to_string(), |s| {
                    let b = &s.range_per_hour;
                    banded(
                        s.per_hour.total_gco2eq * h,
                        b.low.total_gco2eq * h,
                        b.high.total_gco2eq * h,
                    )
                })
            };
            let delta = match &r.status {
                Status::NotEstimated { reason } => format!("not estimated: {}", escape(reason)),
                Status::Estimated => cell(r.delta_per_hour.total_gco2eq * h, true),
            };
            writeln!(
                out,
                "| `{}` | {} | {} | {} | {} |",
                r.address.replace('`', "'").replace('|', "\\|"),
                r.actions.join(", "),
                side(r.before.as_ref()),
                side(r.after.as_ref()),
                delta,
            )?;
        }
    }
    let c = &report.counts;
    writeln!(out)?;
    writeln!(
        out,
        "{} estimated · {} not estimated · {} unsupported · {} ignored",
        c.estimated, c.not_estimated, c.unsupported, c.ignored
    )?;
    let mut sources: Vec<&str> = report
        .resources
        .iter()
        .flat_map(|r| [&r.before, &r.after])
        .flatten()
        .flat_map(|s| s.sources.iter().map(String::as_str))
        .collect();
    sources.sort_unstable();
    sources.dedup();
    if !sources.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "Figures are central [low–high]: utilisation {}–{} % and the spread of the coefficients \
             that could apply. Sources: {} (`data/<id>.source.json`).",
            crate::report::trim_num(crate::estimate::LOW_UTILIZATION * 100.0),
            crate::report::trim_num(crate::estimate::HIGH_UTILIZATION * 100.0),
            sources.join(", ")
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "<details><summary>{}</summary>",
        escape(plan_line.trim())
    )?;
    writeln!(out)?;
    let fence = fence_for(plan_text);
    writeln!(out, "{fence}")?;
    out.write_all(plan_text.as_bytes())?;
    if !plan_text.ends_with('\n') {
        writeln!(out)?;
    }
    writeln!(out, "{fence}")?;
    writeln!(out)?;
    writeln!(out, "</details>")
}

fn cell(g: f64, signed: bool) -> String {
    if signed {
        format!("{}{}", sign(g), Mass(g))
    } else {
        Mass(g).to_string()
    }
}

/// Escapes text for a Markdown table cell or HTML summary.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
}

/// A code fence longer than any run of backticks inside `text`.
fn fence_for(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
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
    }

    #[test]
    fn cells_escape_markup() {
        assert_eq!(escape("a|b<c>&"), "a\\|b&lt;c&gt;&amp;");
    }
}
