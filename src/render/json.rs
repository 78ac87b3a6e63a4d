//! `--format json`: the carbon report as a versioned JSON document (docs/json-format.md); with
//! several projects, their reports in a `projects` array beside the total.

use std::io::{self, Write};

use schemars::JsonSchema;
use serde::Serialize;

use crate::estimate::Period;
use crate::report::modules::{self, ModuleRollup};
use crate::report::projects::{EachGate, Projects};
use crate::report::{Counts, Gate, PeriodInfo, Report, Totals};

/// The top-level JSON document: the report plus the headline totals for the chosen period.
#[derive(Serialize, JsonSchema)]
struct Document<'a> {
    #[serde(flatten)]
    report: &'a Report,
    headline: Headline,
    /// The resources in their modules, folded at `--module-depth` (docs/json-format.md).
    modules: ModuleRollup,
}

/// The document of a multi-project run: each project as a single plan's document (with its
/// name and input), then what they add up to.
#[derive(Serialize, JsonSchema)]
struct ProjectsDocument<'a> {
    schema_version: &'static str,
    utilization: f64,
    period: PeriodInfo,
    /// One per project, in input order (docs/json-format.md, "Several projects").
    projects: Vec<ProjectDocument<'a>>,
    /// The sum of every project's resources.
    totals: &'a Totals,
    /// The sum of every project's counts.
    counts: &'a Counts,
    /// What the projects' resources add and remove, in gCO2eq per hour.
    added_per_hour_gco2eq: f64,
    removed_per_hour_gco2eq: f64,
    headline: Headline,
    /// `--fail-over`, applied to the total.
    #[serde(skip_serializing_if = "Option::is_none")]
    fail_over: Option<Gate>,
    /// `--fail-over-per-project`: its budget and the projects over it (each project's own
    /// `fail_over` is its verdict).
    #[serde(skip_serializing_if = "Option::is_none")]
    fail_over_per_project: Option<&'a EachGate>,
}

/// One project of a multi-project document.
#[derive(Serialize, JsonSchema)]
struct ProjectDocument<'a> {
    /// Unique in the run: `NAME` of `NAME=FILE`, else the file's path without `.json`.
    name: &'a str,
    /// The input as given (`-`: standard input), `#N` for a stream's Nth document.
    input: &'a str,
    added_per_hour_gco2eq: f64,
    removed_per_hour_gco2eq: f64,
    #[serde(flatten)]
    document: Document<'a>,
}

/// What `--format json` writes: one plan's document, or a multi-project run's.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)] // only its schema is used: each variant is written on its own
enum Output<'a> {
    Plan(Box<Document<'a>>),
    Projects(ProjectsDocument<'a>),
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
    let mut s =
        serde_json::to_value(schemars::schema_for!(Output<'static>)).expect("a schema serialises");
    if let Some(o) = s.as_object_mut() {
        o.insert("title".into(), "carbon-show --format json".into());
        o.insert(
            "description".into(),
            format!(
                "The carbon report of a plan, or of several projects (schema_version {}); \
                 docs/json-format.md.",
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

/// Writes a multi-project run's document: each project as [`write_report`] would (with its
/// name and input), then the total, the headline and the gates.
pub fn write_projects(
    p: &Projects,
    period: Period,
    module_depth: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    let first = p.projects.first().map(|r| &r.report);
    let doc = ProjectsDocument {
        schema_version: crate::report::JSON_SCHEMA_VERSION,
        utilization: first.map_or(0.5, |r| r.utilization),
        period: PeriodInfo::new(period),
        projects: (p.projects.iter())
            .map(|r| ProjectDocument {
                name: &r.name,
                input: &r.input,
                added_per_hour_gco2eq: r.added_per_hour_gco2eq,
                removed_per_hour_gco2eq: r.removed_per_hour_gco2eq,
                document: Document {
                    report: &r.report,
                    headline: Headline::new(&r.report.totals, period),
                    modules: modules::rollup(&r.report, module_depth),
                },
            })
            .collect(),
        totals: &p.totals,
        counts: &p.counts,
        added_per_hour_gco2eq: p.added_per_hour_gco2eq,
        removed_per_hour_gco2eq: p.removed_per_hour_gco2eq,
        headline: Headline::new(&p.totals, period),
        fail_over: p.fail_over,
        fail_over_per_project: p.fail_over_per_project.as_ref(),
    };
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    out.write_all(b"\n")
}
