//! `--format json`: the carbon report as a versioned JSON document (docs/json-format.md).

use std::io::{self, Write};

use serde::Serialize;

use crate::estimate::Period;
use crate::report::{Report, Totals};

/// The top-level JSON document: the report plus the headline totals for the chosen period.
#[derive(Serialize)]
struct Document<'a> {
    #[serde(flatten)]
    report: &'a Report,
    headline: Headline,
}

/// Totals over the headline period, in gCO2eq.
#[derive(Serialize)]
struct Headline {
    period: &'static str,
    hours: f64,
    before_gco2eq: f64,
    after_gco2eq: f64,
    delta_gco2eq: f64,
}

impl Headline {
    fn new(t: &Totals, period: Period) -> Self {
        let h = period.hours();
        Headline {
            period: crate::report::PeriodInfo::new(period).name,
            hours: h,
            before_gco2eq: t.before_per_hour.total_gco2eq * h,
            after_gco2eq: t.after_per_hour.total_gco2eq * h,
            delta_gco2eq: t.delta_per_hour.total_gco2eq * h,
        }
    }
}

/// Writes the report as pretty-printed JSON followed by a newline.
pub fn write_report(report: &Report, period: Period, out: &mut dyn Write) -> io::Result<()> {
    let doc = Document {
        report,
        headline: Headline::new(&report.totals, period),
    };
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    out.write_all(b"\n")
}
