//! The comment's first lines: the marker, the heading that is a sentence, the sentence under
//! it, the settings that moved figures and the `--fail-over` verdict.

use super::{CommentOptions, DocumentKind, Summary, Verdict, code, escape, marker};
use crate::estimate::Mass;
use crate::render::carbon::signed;

pub(super) fn headline(s: &Summary, opts: &CommentOptions) -> String {
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
    let settings = not_the_defaults(&s.settings);
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
            signed(g.added_per_hour_gco2eq * hours),
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

/// The headline's "**Not the defaults:**" line of the settings that moved the figures or the
/// gates, with a blank line before it; empty when there is none (one plan's headline and the
/// multi-project one alike).
pub(crate) fn not_the_defaults(settings: &[crate::config::trust::Moved]) -> String {
    if settings.is_empty() {
        return String::new();
    }
    let items: Vec<String> = (settings.iter())
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
}
