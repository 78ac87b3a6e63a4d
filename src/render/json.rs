//! `--format json`: the carbon report as a versioned JSON document (docs/json-format.md).

use std::io::{self, Write};

use schemars::JsonSchema;
use serde::Serialize;

use crate::estimate::Period;
use crate::report::modules::{self, ModuleRollup};
use crate::report::{Report, Totals};

/// The top-level JSON document: the report plus the headline totals for the chosen period.
#[derive(Serialize, JsonSchema)]
struct Document<'a> {
    #[serde(flatten)]
    report: &'a Report,
    headline: Headline,
    /// The resources in their modules, folded at `--module-depth` (docs/json-format.md).
    modules: ModuleRollup,
}

/// Totals over the headline period, in gCO2eq.
#[derive(Serialize, JsonSchema)]
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

/// The JSON Schema of the document [`write_report`] writes (docs/carbon-show.schema.json),
/// generated from the types that serialise it.
pub fn schema() -> serde_json::Value {
    let mut s = serde_json::to_value(schemars::schema_for!(Document<'static>))
        .expect("a schema serialises");
    if let Some(o) = s.as_object_mut() {
        o.insert("title".into(), "carbon-show --format json".into());
        o.insert(
            "description".into(),
            format!(
                "The carbon report of a plan (schema_version {}); docs/json-format.md.",
                crate::report::JSON_SCHEMA_VERSION
            )
            .into(),
        );
    }
    s
}

/// The schema as committed: pretty-printed, with a final newline.
pub fn schema_text() -> String {
    let mut t = serde_json::to_string_pretty(&schema()).expect("a schema serialises");
    t.push('\n');
    t
}

/// Writes the report as pretty-printed JSON followed by a newline, with its module tree
/// folded at `module_depth`.
pub fn write_report(
    report: &Report,
    period: Period,
    module_depth: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    let doc = Document {
        report,
        headline: Headline::new(&report.totals, period),
        modules: modules::rollup(report, module_depth),
    };
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    out.write_all(b"\n")
}
