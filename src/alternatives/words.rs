//! How alternatives and what-ifs read: the `# ↳` line under a resource's `# ≈` lines, the
//! what-if block after the human summary, and the what-if table of the Markdown comment.

use std::io::{self, Write};

use super::{Alternative, AlternativeKind, WhatIf, worth_showing};
use crate::estimate::{Mass, Period};
use crate::render::Theme;
use crate::render::carbon::{COLUMNS, percent, short, sign, signed};
use crate::report::{Report, ResourceReport};

/// Columns a resource header's comment takes before the text (`  # `).
const INDENT: usize = 4;

/// One alternative's pieces, worded once for the three forms [`arrow_line`] tries:
/// `in eu-north-1`, ` (same jurisdiction, EU/EEA)`, `-2.90 kgCO2eq`, `-2.90 kg`, `-83 %`.
struct Phrase {
    name: String,
    why: String,
    saving: String,
    brief: String,
    share: String,
}

impl Phrase {
    fn new(a: &Alternative, period: Period) -> Phrase {
        let name = match a.kind {
            AlternativeKind::Region => format!(
                "in {}",
                a.region.as_deref().map_or("?".into(), crate::escape::value)
            ),
            AlternativeKind::Arm => format!(
                "as {}",
                a.machine_type
                    .as_deref()
                    .map_or("?".into(), crate::escape::value)
            ),
        };
        let why = match a.kind {
            AlternativeKind::Region => a
                .jurisdiction
                .map(|j| format!(" (same jurisdiction, {j})"))
                .unwrap_or_default(),
            AlternativeKind::Arm => " (ARM, same vCPU and memory)".to_string(),
        };
        let g = -a.saving_gco2eq_per_hour * period.hours();
        Phrase {
            name,
            why,
            saving: signed(g),
            brief: format!("{}{}", sign(g), short(g)),
            share: percent(-a.saving_share * 100.0),
        }
    }

    /// The pieces of one form: `detail` adds the parenthesis after the name, `brief` writes
    /// the saving's unit short (`-2.90 kg/month`). Its share of the resource's figure is
    /// always there.
    fn pieces<'p>(&'p self, unit: &'p str, detail: bool, brief: bool) -> [&'p str; 8] {
        [
            &self.name,
            if detail { &self.why } else { "" },
            ": ",
            if brief { &self.brief } else { &self.saving },
            "/",
            unit,
            " (",
            &self.share,
        ]
    }
}

/// The `↳ greener: …` line of a resource (without the leading `# `): its alternatives that
/// save at least [`super::SHOW_FROM`] of its figure, each with its saving over the period and
/// its share; `None` when there is none. When the line would pass [`COLUMNS`], the details go
/// first, then the units are written short (`g`, `kg`); the shares stay.
pub fn arrow_line(r: &ResourceReport, period: Period) -> Option<String> {
    const HEAD: &str = "↳ greener: ";
    const SEP: &str = " · ";
    let shown: Vec<Phrase> = (r.alternatives.iter())
        .filter(|a| worth_showing(a))
        .map(|a| Phrase::new(a, period))
        .collect();
    if shown.is_empty() {
        return None;
    }
    let unit = period.unit();
    // the columns a form takes (each phrase closes with `)`)
    let width = |detail: bool, brief: bool| {
        let phrases: usize = (shown.iter())
            .map(|p| {
                let pieces = p.pieces(unit, detail, brief);
                pieces.iter().map(|s| s.chars().count()).sum::<usize>() + 1
            })
            .sum();
        INDENT + HEAD.chars().count() + phrases + SEP.chars().count() * (shown.len() - 1)
    };
    let (detail, brief) = [(true, false), (false, false), (false, true)]
        .into_iter()
        .find(|&(d, b)| width(d, b) <= COLUMNS)
        .unwrap_or((false, true));
    let mut line = String::with_capacity(128);
    line.push_str(HEAD);
    for (i, p) in shown.iter().enumerate() {
        if i > 0 {
            line.push_str(SEP);
        }
        for piece in p.pieces(unit, detail, brief) {
            line.push_str(piece);
        }
        line.push(')');
    }
    Some(line)
}

/// `every AWS resource in eu-north-1 and every type with an ARM equivalent on it`.
pub fn scenario_words(labels: &[String]) -> String {
    let parts: Vec<String> = labels
        .iter()
        .map(|l| match l.split_once(':') {
            Some((p, r)) => format!("every {} resource ran in {r}", provider_name(p)),
            None => "every type with an ARM equivalent ran as it".to_string(),
        })
        .collect();
    parts.join(" and ")
}

fn provider_name(p: &str) -> &str {
    match p {
        "aws" => "AWS",
        "gcp" => "GCP",
        "azure" => "Azure",
        other => other,
    }
}

/// The rows of the what-if table: (label, actual g/h, what-if g/h, signed).
fn rows(w: &WhatIf, actual: &Report) -> [(&'static str, f64, f64, bool); 3] {
    let (a, x) = (&actual.totals, &w.totals);
    [
        (
            "before",
            a.before_per_hour.total_gco2eq,
            x.before_per_hour.total_gco2eq,
            false,
        ),
        (
            "after",
            a.after_per_hour.total_gco2eq,
            x.after_per_hour.total_gco2eq,
            false,
        ),
        (
            "change",
            a.delta_per_hour.total_gco2eq,
            x.delta_per_hour.total_gco2eq,
            true,
        ),
    ]
}

fn mass(g: f64, signed_figure: bool) -> String {
    if signed_figure {
        signed(g)
    } else {
        Mass(g).to_string()
    }
}

/// The what-if block after the human summary: the scenario, the actual and what-if figures
/// side by side over the period, and the difference (what-if change − actual change).
pub fn what_if_lines(w: &WhatIf, actual: &Report, period: Period) -> Vec<String> {
    let h = period.hours();
    let per = period.unit();
    let mut lines = vec![format!(
        "What if {} (before and after)?",
        scenario_words(&w.scenario)
    )];
    lines.push(format!("  {:<8} {:>16} {:>16}", "", "actual", "what-if"));
    for (label, a, x, s) in rows(w, actual) {
        lines.push(format!(
            "  {label:<8} {:>16} {:>16}   per {per}",
            mass(a * h, s),
            mass(x * h, s)
        ));
    }
    let d = w.difference_per_hour.total_gco2eq * h;
    lines.push(format!(
        "  difference: {}/{per} (the what-if change minus the actual change)",
        signed(d)
    ));
    lines
}

/// Writes [`what_if_lines`] after a blank line, the heading in bold.
pub fn write_what_if(
    w: &WhatIf,
    actual: &Report,
    period: Period,
    theme: &Theme,
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(out)?;
    for (i, l) in what_if_lines(w, actual, period).iter().enumerate() {
        let l = crate::escape::line(l);
        if i == 0 {
            writeln!(out, "{}", theme.paint(theme.bold, &l))?;
        } else {
            writeln!(out, "{l}")?;
        }
    }
    Ok(())
}

/// The Markdown comment's what-if section: a heading, the table, the difference.
pub fn what_if_markdown(w: &WhatIf, actual: &Report, period: Period) -> String {
    let h = period.hours();
    let mut s = format!(
        "**What if {}** (before and after)\n\n| per {} | actual | what-if |\n|---|---:|---:|\n",
        scenario_words(&w.scenario),
        period.unit()
    );
    for (label, a, x, sg) in rows(w, actual) {
        s.push_str(&format!(
            "| {label} | {} | {} |\n",
            mass(a * h, sg),
            mass(x * h, sg)
        ));
    }
    s.push_str(&format!(
        "\nDifference: **{}/{}** (the what-if change minus the actual change).\n",
        signed(w.difference_per_hour.total_gco2eq * h),
        period.unit()
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Figures;
    use crate::report::fixtures::side;

    fn alt(kind: AlternativeKind, share: f64, g_per_hour: f64) -> Alternative {
        Alternative {
            kind,
            region: Some("eu-north-1".into()),
            machine_type: Some("m6g.xlarge".into()),
            jurisdiction: Some("EU/EEA"),
            grid_g_per_kwh: Some(8.8),
            per_hour: Figures::default(),
            saving_gco2eq_per_hour: g_per_hour,
            saving_gco2eq_per_period: g_per_hour * 730.0,
            saving_share: share,
            reason: "".into(),
            sources: crate::report::Sources::NONE,
        }
    }

    /// A 4 vCPU, 16 GiB instance created, emitting 5 g/h.
    fn web() -> ResourceReport {
        ResourceReport::new(
            "aws_instance.web".into(),
            "aws_instance".into(),
            vec!["create".into()],
            None,
            Some(side(4.0, 16.0, 5.0, 1.0)),
        )
    }

    #[test]
    fn the_arrow_line_shows_savings_from_ten_percent() {
        let mut r = web();
        r.alternatives = vec![
            alt(AlternativeKind::Region, 0.83, 4.0),
            alt(AlternativeKind::Arm, 0.09, 0.45),
        ];
        // 4 g/h × 730 h = 2.92 kg; the ARM one saves 9 %: not shown
        assert_eq!(
            arrow_line(&r, Period::Month).as_deref(),
            Some(
                "↳ greener: in eu-north-1 (same jurisdiction, EU/EEA): -2.92 kgCO2eq/month (-83 %)"
            )
        );
        r.alternatives[1].saving_share = 0.10;
        let l = arrow_line(&r, Period::Month).unwrap();
        assert!(INDENT + l.chars().count() <= COLUMNS, "{l}");
        assert!(l.contains("as m6g.xlarge"), "{l}");
        r.alternatives.clear();
        assert_eq!(arrow_line(&r, Period::Month), None);
    }

    /// Too wide with the details (and still, by two columns, without them): the units go
    /// short, every phrase keeps its share.
    #[test]
    fn the_arrow_line_writes_units_short_when_the_long_form_is_too_wide() {
        let mut r = web();
        // 4 g/h and 2.5 g/h × 730 h: 2.92 kg and 1.825 kg, which fmt writes 1.82 (the double
        // just below the tie)
        r.alternatives = vec![
            alt(AlternativeKind::Region, 0.83, 4.0),
            alt(AlternativeKind::Arm, 0.5, 2.5),
        ];
        let long = "↳ greener: in eu-north-1: -2.92 kgCO2eq/month (-83 %) · as m6g.xlarge: -1.82 kgCO2eq/month (-50 %)";
        assert_eq!(INDENT + long.chars().count(), COLUMNS + 2);
        assert_eq!(
            arrow_line(&r, Period::Month).as_deref(),
            Some(
                "↳ greener: in eu-north-1: -2.92 kg/month (-83 %) · as m6g.xlarge: -1.82 kg/month (-50 %)"
            )
        );
    }
}
