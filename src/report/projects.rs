//! Several projects' reports in one run (several inputs, or a stream of documents): each
//! project's report as a single plan's, their total, and the gates' verdicts, as plain data.

use schemars::JsonSchema;
use serde::Serialize;

use super::{Counts, Gate, PeriodInfo, Report, Totals};
use crate::estimate::Budget;

/// One project: its name, the input it came from, and its report.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct ProjectReport {
    /// Unique in the run: `NAME` of `NAME=FILE`, else the file's path (docs/json-format.md).
    pub name: String,
    /// The input as given (`-` for standard input), `#N` for a stream's Nth document.
    pub input: String,
    /// What the resources it changes add, in gCO2eq per hour (the sum of the positive
    /// changes).
    pub added_per_hour_gco2eq: f64,
    /// What they remove, in gCO2eq per hour (the sum of the negative changes, ≤ 0).
    pub removed_per_hour_gco2eq: f64,
    #[serde(flatten)]
    pub report: Report,
}

impl ProjectReport {
    pub fn new(name: String, input: String, report: Report) -> Self {
        let deltas = report
            .resources
            .iter()
            .map(|r| r.delta_per_hour.total_gco2eq);
        let added: f64 = deltas.clone().filter(|d| *d > 0.0).sum();
        let removed: f64 = deltas.filter(|d| *d < 0.0).sum();
        ProjectReport {
            name,
            input,
            added_per_hour_gco2eq: added,
            removed_per_hour_gco2eq: removed,
            report,
        }
    }
}

/// `--fail-over-per-project`: the budget each project is held to, and which went over it.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct EachGate {
    /// The limit, in gCO2eq per `period`.
    pub limit_gco2eq: f64,
    /// The period the limit is given in: `hour`, `month` or `year`.
    pub period: &'static str,
    /// The limit in gCO2eq per hour.
    pub limit_per_hour_gco2eq: f64,
    /// Some project adds more than the limit (then the run exits 3).
    pub exceeded: bool,
    /// The projects over the limit, in input order.
    pub over: Vec<String>,
}

/// The reports of a multi-project run and what they add up to.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct Projects {
    pub projects: Vec<ProjectReport>,
    /// The sum of every project's resources.
    pub totals: Totals,
    /// The sum of every project's counts.
    pub counts: Counts,
    pub added_per_hour_gco2eq: f64,
    pub removed_per_hour_gco2eq: f64,
    /// `--fail-over` on the total, when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail_over: Option<Gate>,
    /// `--fail-over-per-project`, when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail_over_per_project: Option<EachGate>,
}

impl Projects {
    /// Adds the projects up and applies the budgets: `total` to their total, `each` to every
    /// project (each project's own `fail_over` becomes its verdict under `each`).
    pub fn new(
        mut projects: Vec<ProjectReport>,
        total: Option<Budget>,
        each: Option<Budget>,
    ) -> Self {
        let totals = Totals::sum(projects.iter().flat_map(|p| &p.report.resources));
        let mut counts = Counts::default();
        for p in &projects {
            let c = &p.report.counts;
            counts.estimated += c.estimated;
            counts.not_estimated += c.not_estimated;
            counts.unsupported += c.unsupported;
            counts.ignored += c.ignored;
            counts.from_usage += c.from_usage;
        }
        for p in &mut projects {
            p.report.fail_over =
                each.map(|b| Gate::new(b, p.report.totals.delta_per_hour.total_gco2eq));
        }
        let fail_over_per_project = each.map(|b| {
            let over: Vec<String> = (projects.iter())
                .filter(|p| p.report.fail_over.is_some_and(|g| g.exceeded))
                .map(|p| p.name.clone())
                .collect();
            EachGate {
                limit_gco2eq: b.grams,
                period: PeriodInfo::new(b.period).name,
                limit_per_hour_gco2eq: b.grams_per_hour(),
                exceeded: !over.is_empty(),
                over,
            }
        });
        Projects {
            added_per_hour_gco2eq: projects.iter().map(|p| p.added_per_hour_gco2eq).sum(),
            removed_per_hour_gco2eq: projects.iter().map(|p| p.removed_per_hour_gco2eq).sum(),
            fail_over: total.map(|b| Gate::new(b, totals.delta_per_hour.total_gco2eq)),
            fail_over_per_project,
            projects,
            totals,
            counts,
        }
    }

    /// Whether a budget is exceeded (the total's or a project's).
    pub fn exceeded(&self) -> bool {
        self.fail_over.is_some_and(|g| g.exceeded)
            || self
                .fail_over_per_project
                .as_ref()
                .is_some_and(|g| g.exceeded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::Period;
    use crate::report::fixtures::create;
    use crate::report::{ResourceReport, Status};

    fn report(resources: Vec<ResourceReport>) -> Report {
        Report::new(resources, vec![], 1, 0.5, Period::Month)
    }

    #[test]
    fn totals_counts_and_gates_add_up_over_projects() {
        let mut gone = create("aws_instance.old", 0.0);
        (gone.before, gone.after) = (gone.after.take(), None);
        gone.before.as_mut().unwrap().per_hour.total_gco2eq = 4.0;
        gone.delta_per_hour.total_gco2eq = -4.0;
        let mut skipped = create("aws_instance.x", 0.0);
        skipped.status = Status::NotEstimated {
            reason: "unknown".into(),
        };
        skipped.after = None;
        let a = ProjectReport::new(
            "app".into(),
            "app.json".into(),
            report(vec![create("aws_instance.a", 10.0), gone]),
        );
        let b = ProjectReport::new(
            "db".into(),
            "db.json".into(),
            report(vec![create("aws_instance.a", 3.0), skipped]),
        );
        // app: +10 −4 = +6 g/h; db: +3 g/h; total +9 g/h
        assert_eq!(
            (a.added_per_hour_gco2eq, a.removed_per_hour_gco2eq),
            (10.0, -4.0)
        );
        let five_per_hour = Budget {
            grams: 5.0,
            period: Period::Hour,
            period_named: true,
        };
        let ten_per_hour = Budget {
            grams: 10.0,
            ..five_per_hour
        };
        let p = Projects::new(vec![a, b], Some(ten_per_hour), Some(five_per_hour));
        assert_eq!(p.totals.delta_per_hour.total_gco2eq, 9.0);
        assert_eq!(p.totals.before_per_hour.total_gco2eq, 4.0);
        assert_eq!(
            (p.added_per_hour_gco2eq, p.removed_per_hour_gco2eq),
            (13.0, -4.0)
        );
        assert_eq!(
            (p.counts.estimated, p.counts.not_estimated, p.counts.ignored),
            (3, 1, 2)
        );
        // the total (9) is within 10 g/h; app (6) is over 5 g/h, db (3) is not
        assert!(!p.fail_over.unwrap().exceeded);
        let each = p.fail_over_per_project.as_ref().unwrap();
        assert_eq!(each.over, ["app"]);
        assert!(p.exceeded());
        assert!(p.projects[0].report.fail_over.unwrap().exceeded);
        assert!(!p.projects[1].report.fail_over.unwrap().exceeded);
    }
}
