//! `--format markdown`: a pull-request comment — totals first, a table of changed resources with
//! their deltas, and the full plan folded in a `<details>` block.

use std::io::{self, Write};

use crate::estimate::{Mass, Period};
use crate::report::{Figures, Report, Status, sign};

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
            let side = |s: Option<&Figures>| {
                s.map_or("–".to_string(), |f| Mass(f.total_gco2eq * h).to_string())
            };
            let delta = match &r.status {
                Status::NotEstimated { reason } => format!("not estimated: {}", escape(reason)),
                Status::Estimated => cell(r.delta_per_hour.total_gco2eq * h, true),
            };
            writeln!(
                out,
                "| `{}` | {} | {} | {} | {} |",
                code_cell(&r.address),
                r.actions.join(", "),
                side(r.before.as_ref().map(|s| &s.per_hour)),
                side(r.after.as_ref().map(|s| &s.per_hour)),
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

/// An address for a table cell's code span: on one line (a raw newline would end the row),
/// no backtick to close the span or open a fence, no `|` to split the cell.
fn code_cell(address: &str) -> String {
    one_line(address).replace('`', "'").replace('|', "\\|")
}

/// Control characters (newlines first) written as escapes, so text stays on its line.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\n' => "\\n".to_string(),
            '\r' => "\\r".to_string(),
            c if c.is_control() => c.escape_unicode().to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// Escapes text for a Markdown table cell or HTML summary.
fn escape(s: &str) -> String {
    one_line(s)
        .replace('&', "&amp;")
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
    fn a_raw_newline_in_an_address_broke_the_table() {
        assert_eq!(code_cell("a.b[\"x\n|```y\"]"), "a.b[\"x\\n\\|'''y\"]");
        assert_eq!(escape("a\r\nb\u{7}"), "a\\r\\nb\\u{7}");
    }

    #[test]
    fn cells_escape_markup() {
        assert_eq!(escape("a|b<c>&"), "a\\|b&lt;c&gt;&amp;");
    }
}
