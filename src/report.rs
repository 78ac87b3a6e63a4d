//! The carbon report: per-resource figures before and after the change, totals and counts, as
//! plain data. Every output format reads this one model; the carbon wording (annotations,
//! summary, Markdown comment) is `render::carbon`'s.

use schemars::JsonSchema;
use serde::Serialize;

use crate::estimate::{Estimate, Period};

pub mod alternatives;
pub mod modules;
pub mod projects;
mod sources;

pub use sources::{Sources, Table};

/// A string many entries of a report share (a region, a machine type, an alternative's
/// reason): one allocation for all of them.
pub type Text = std::sync::Arc<str>;

/// Version of the JSON document written by `--format json` (see docs/json-format.md).
pub const JSON_SCHEMA_VERSION: &str = "1.5";

/// What is known of one side (before or after) of a resource.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct Side {
    pub provider: &'static str,
    pub region: Option<Text>,
    /// Grid carbon intensity used, gCO2eq/kWh (`None`: region unknown).
    pub grid_g_per_kwh: Option<f64>,
    pub machine_type: Option<Text>,
    /// Per instance.
    pub vcpus: f64,
    /// Per instance, in GiB.
    pub memory_gb: f64,
    /// Per instance.
    pub gpus: u32,
    /// Per instance, in GB.
    pub ssd_gb: f64,
    /// Per instance, in GB.
    pub hdd_gb: f64,
    /// Instances this resource stands for, replicas included.
    pub instances: f64,
    /// Figures for one hour of all instances together (the central value).
    pub per_hour: Figures,
    /// The low and high ends of `per_hour` (docs/methodology.md, "Ranges").
    pub range_per_hour: Band,
    /// Ids of the data tables the figures come from (`data/<id>.json`, sources listed in
    /// `data/<id>.source.json`), sorted.
    pub sources: Sources,
}

/// The low and high ends of a range of hourly figures.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Default)]
pub struct Band {
    pub low: Figures,
    pub high: Figures,
}

impl Band {
    /// The band of `after − before`, both taken in the same scenario (low with low, high with
    /// high), each figure ordered so that `low ≤ high`.
    pub fn minus(&self, before: &Band) -> Band {
        let a = self.low.minus(&before.low);
        let b = self.high.minus(&before.high);
        Band {
            low: a.min(&b),
            high: a.max(&b),
        }
    }

    fn plus(&self, o: &Band) -> Band {
        Band {
            low: self.low.plus(&o.low),
            high: self.high.plus(&o.high),
        }
    }
}

/// Hourly figures, as serialised in JSON.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Default)]
pub struct Figures {
    /// IT power, watts (PUE excluded).
    pub power_w: f64,
    /// Energy drawn, kWh (PUE included).
    pub energy_kwh: f64,
    pub operational_gco2eq: f64,
    pub embodied_gco2eq: f64,
    pub total_gco2eq: f64,
}

impl From<&Estimate> for Figures {
    fn from(e: &Estimate) -> Self {
        Figures {
            power_w: e.it_power_w(),
            energy_kwh: e.energy_kwh,
            operational_gco2eq: e.operational_g,
            embodied_gco2eq: e.embodied_g,
            total_gco2eq: e.total_g(),
        }
    }
}

impl Figures {
    fn minus(&self, o: &Figures) -> Figures {
        Figures {
            power_w: self.power_w - o.power_w,
            energy_kwh: self.energy_kwh - o.energy_kwh,
            operational_gco2eq: self.operational_gco2eq - o.operational_gco2eq,
            embodied_gco2eq: self.embodied_gco2eq - o.embodied_gco2eq,
            total_gco2eq: self.total_gco2eq - o.total_gco2eq,
        }
    }

    fn plus(&self, o: &Figures) -> Figures {
        self.minus(&o.scaled(-1.0))
    }

    fn zip(&self, o: &Figures, f: fn(f64, f64) -> f64) -> Figures {
        Figures {
            power_w: f(self.power_w, o.power_w),
            energy_kwh: f(self.energy_kwh, o.energy_kwh),
            operational_gco2eq: f(self.operational_gco2eq, o.operational_gco2eq),
            embodied_gco2eq: f(self.embodied_gco2eq, o.embodied_gco2eq),
            total_gco2eq: f(self.total_gco2eq, o.total_gco2eq),
        }
    }

    fn min(&self, o: &Figures) -> Figures {
        self.zip(o, f64::min)
    }

    fn max(&self, o: &Figures) -> Figures {
        self.zip(o, f64::max)
    }

    fn scaled(&self, k: f64) -> Figures {
        Figures {
            power_w: self.power_w * k,
            energy_kwh: self.energy_kwh * k,
            operational_gco2eq: self.operational_gco2eq * k,
            embodied_gco2eq: self.embodied_gco2eq * k,
            total_gco2eq: self.total_gco2eq * k,
        }
    }
}

/// Whether a resource could be estimated.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// Figures are present on at least one side.
    Estimated,
    /// The mappings cover the type, but a figure the estimate needs is missing.
    NotEstimated { reason: String },
    /// The mappings cover the type and say why no sourced method can estimate it (their
    /// `unsupported: …` note, e.g. object storage whose amount stored is not in the plan).
    Unsupported { reason: String },
}

// Its address and what the report says of it: resources that the mappings saw alike (the
// instances of one `count` or `for_each` block, resources of one type, size and region across
// the plan) say the same, and share one [`Entry`] (`carbon::representatives`), so that 100k
// of them hold it once. Its fields read through
// `Deref`; writing one gives the resource its own copy. (The doc line is the JSON Schema's.)
/// One resource of the plan, as the report sees it.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct ResourceReport {
    pub address: String,
    #[serde(flatten)]
    pub entry: std::sync::Arc<Entry>,
}

impl std::ops::Deref for ResourceReport {
    type Target = Entry;
    fn deref(&self) -> &Entry {
        &self.entry
    }
}

impl std::ops::DerefMut for ResourceReport {
    /// The resource's own entry, copied first if others share it.
    fn deref_mut(&mut self) -> &mut Entry {
        std::sync::Arc::make_mut(&mut self.entry)
    }
}

/// What the report says of one resource, but its address.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct Entry {
    #[serde(rename = "type")]
    pub resource_type: Text,
    /// OpenTofu's actions for this resource (`["create"]`, `["delete","create"]`, …).
    pub actions: std::sync::Arc<[Text]>,
    #[serde(flatten)]
    pub status: Status,
    pub before: Option<Side>,
    pub after: Option<Side>,
    /// `after − before`, per hour.
    pub delta_per_hour: Figures,
    /// The low and high ends of `delta_per_hour` (see [`Band::minus`]).
    pub delta_range_per_hour: Band,
    /// Values that were not known and were assumed (e.g. a default machine type).
    pub assumptions: Vec<String>,
    pub warnings: Vec<String>,
    /// Greener alternatives to the after side, each re-estimated by the same code
    /// (docs/alternatives.md); left out when there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<alternatives::Alternative>,
    /// The usage its figures rest on, declared in a usage file (docs/usage.md); left out when
    /// there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub usage: Vec<UsageInput>,
}

/// One value of a usage file that a resource's figures rest on.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct UsageInput {
    /// The usage key (`storage_gb`, `monthly_data_processed_gb`, …).
    pub key: &'static str,
    pub value: f64,
    /// The key's unit, in words.
    pub unit: &'static str,
    /// The usage file it is declared in.
    pub file: String,
    /// `resource_usage` (the resource's own entry) or `resource_type_default_usage`.
    pub from: &'static str,
}

impl ResourceReport {
    /// Builds a report line for a resource from its two sides.
    pub fn new(
        address: String,
        resource_type: String,
        actions: Vec<String>,
        before: Option<Side>,
        after: Option<Side>,
    ) -> Self {
        let actions = actions.into_iter().map(Text::from).collect();
        Self::shared(address, resource_type.into(), actions, before, after)
    }

    /// [`ResourceReport::new`] with the type and actions that many entries share.
    pub fn shared(
        address: String,
        resource_type: Text,
        actions: std::sync::Arc<[Text]>,
        before: Option<Side>,
        after: Option<Side>,
    ) -> Self {
        let b = before.as_ref().map(|s| s.per_hour).unwrap_or_default();
        let a = after.as_ref().map(|s| s.per_hour).unwrap_or_default();
        let bb = before
            .as_ref()
            .map(|s| s.range_per_hour)
            .unwrap_or_default();
        let ab = after.as_ref().map(|s| s.range_per_hour).unwrap_or_default();
        ResourceReport {
            address,
            entry: std::sync::Arc::new(Entry {
                resource_type,
                actions,
                status: Status::Estimated,
                before,
                after,
                delta_per_hour: a.minus(&b),
                delta_range_per_hour: ab.minus(&bb),
                assumptions: Vec::new(),
                warnings: Vec::new(),
                alternatives: Vec::new(),
                usage: Vec::new(),
            }),
        }
    }
}

/// How many resources fell in each bucket.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Default)]
pub struct Counts {
    /// Resources with figures.
    pub estimated: usize,
    /// Covered by the mappings but missing a figure (unknown machine type, …).
    pub not_estimated: usize,
    /// Managed resources of AWS, GCP or Azure that no mapping covers (listed in
    /// `Report::unsupported`), and resources whose mapping says no sourced method covers them
    /// (status `unsupported`, with the reason).
    pub unsupported: usize,
    /// Resources the mappings ignore on purpose (networks, IAM, …).
    pub ignored: usize,
    /// Estimated resources whose figures rest on usage declared in a usage file.
    pub from_usage: usize,
}

/// Totals over the whole plan.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct Totals {
    pub before_per_hour: Figures,
    pub after_per_hour: Figures,
    pub delta_per_hour: Figures,
    /// The low and high ends of each total: the sum of the resources' ends.
    pub before_range_per_hour: Band,
    pub after_range_per_hour: Band,
    pub delta_range_per_hour: Band,
}

impl Totals {
    /// The totals of some resources of a report (the plan's, or a module's:
    /// [`modules::rollup`]).
    pub fn sum<'a>(resources: impl IntoIterator<Item = &'a ResourceReport>) -> Totals {
        let mut before = Figures::default();
        let mut after = Figures::default();
        let (mut before_band, mut after_band) = (Band::default(), Band::default());
        for r in resources {
            if let Some(b) = &r.before {
                before = before.plus(&b.per_hour);
                before_band = before_band.plus(&b.range_per_hour);
            }
            // A resource whose after side could not be estimated keeps its before figures, and
            // counts as unchanged in the after total (its delta is unknown, not −before).
            let after_side = match (&r.status, &r.before, &r.after) {
                (Status::NotEstimated { .. }, Some(b), None) => Some(b),
                (_, _, a) => a.as_ref(),
            };
            if let Some(a) = after_side {
                after = after.plus(&a.per_hour);
                after_band = after_band.plus(&a.range_per_hour);
            }
        }
        Totals {
            before_per_hour: before,
            after_per_hour: after,
            delta_per_hour: after.minus(&before),
            before_range_per_hour: before_band,
            after_range_per_hour: after_band,
            delta_range_per_hour: after_band.minus(&before_band),
        }
    }
}

/// The whole carbon report of a plan.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct Report {
    pub schema_version: &'static str,
    pub utilization: f64,
    /// Hours in the period the headline figures use.
    pub period: PeriodInfo,
    pub resources: Vec<ResourceReport>,
    pub totals: Totals,
    pub counts: Counts,
    pub unsupported: Vec<String>,
    /// The plan re-estimated under `--what-if`, when asked for (docs/alternatives.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub what_if: Option<alternatives::WhatIf>,
    /// The `--fail-over` budget and its verdict, when one is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail_over: Option<Gate>,
}

/// The `--fail-over` budget and whether the plan goes over it (then the run exits 3).
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq)]
pub struct Gate {
    /// The limit, in gCO2eq per `period`.
    pub limit_gco2eq: f64,
    /// The period the limit is given in: `hour`, `month` or `year`.
    pub period: &'static str,
    /// The limit and the plan's added emissions, in gCO2eq per hour.
    pub limit_per_hour_gco2eq: f64,
    pub added_per_hour_gco2eq: f64,
    /// The plan adds more than the limit.
    pub exceeded: bool,
}

impl Gate {
    /// The verdict of `budget` on a plan that adds `added` gCO2eq per hour.
    pub fn new(budget: crate::estimate::Budget, added: f64) -> Gate {
        let limit = budget.grams_per_hour();
        Gate {
            limit_gco2eq: budget.grams,
            period: PeriodInfo::new(budget.period).name,
            limit_per_hour_gco2eq: limit,
            added_per_hour_gco2eq: added,
            exceeded: added > limit,
        }
    }
}

/// The headline period, serialised as its name and hours.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq)]
pub struct PeriodInfo {
    pub name: &'static str,
    pub hours: f64,
}

impl PeriodInfo {
    pub fn new(p: Period) -> Self {
        PeriodInfo {
            name: match p {
                Period::Hour => "hour",
                Period::Month => "month",
                Period::Year => "year",
            },
            hours: p.hours(),
        }
    }
}

/// What a report shows in place of a sensitive value (`redact` puts it there).
pub const SENSITIVE: &str = "(sensitive value)";

impl Report {
    /// Sums the resources into totals and counts.
    pub fn new(
        resources: Vec<ResourceReport>,
        unsupported: Vec<String>,
        ignored: usize,
        utilization: f64,
        period: Period,
    ) -> Self {
        let mut counts = Counts {
            unsupported: unsupported.len(),
            ignored,
            ..Counts::default()
        };
        for r in &resources {
            match r.status {
                Status::Estimated if !r.usage.is_empty() => {
                    counts.estimated += 1;
                    counts.from_usage += 1;
                }
                Status::Estimated => counts.estimated += 1,
                Status::NotEstimated { .. } => counts.not_estimated += 1,
                Status::Unsupported { .. } => counts.unsupported += 1,
            }
        }
        let totals = Totals::sum(&resources);
        Report {
            schema_version: JSON_SCHEMA_VERSION,
            utilization,
            period: PeriodInfo::new(period),
            resources,
            totals,
            counts,
            unsupported,
            what_if: None,
            fail_over: None,
        }
    }
}

/// Report values for the unit tests of the report and its renderers.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    /// An m5.xlarge side in us-east-1 emitting `g_per_hour` (80 % operational), with no band.
    pub fn side(vcpus: f64, mem: f64, g_per_hour: f64, instances: f64) -> Side {
        no_spread(Side {
            provider: "aws",
            region: Some("us-east-1".into()),
            grid_g_per_kwh: Some(384.0),
            machine_type: Some("m5.xlarge".into()),
            vcpus,
            memory_gb: mem,
            gpus: 0,
            ssd_gb: 100.0,
            hdd_gb: 0.0,
            instances,
            per_hour: Figures {
                total_gco2eq: g_per_hour,
                operational_gco2eq: g_per_hour * 0.8,
                embodied_gco2eq: g_per_hour * 0.2,
                ..Figures::default()
            },
            range_per_hour: Band::default(),
            sources: Sources::NONE.with(Table::AwsInstances),
        })
    }

    /// One m5.xlarge (4 vCPU, 16 GiB) in us-east-1 emitting `g_per_hour`, 75 % of it
    /// operational and 25 % embodied, with no band (the summaries' tests).
    pub fn quarter_embodied(g_per_hour: f64) -> Side {
        let mut s = side(4.0, 16.0, g_per_hour, 1.0);
        s.per_hour.operational_gco2eq = g_per_hour * 0.75;
        s.per_hour.embodied_gco2eq = g_per_hour * 0.25;
        no_spread(s)
    }

    /// A created `aws_instance` at `addr` emitting `g` per hour (4 vCPU, 16 GiB).
    pub fn create(addr: &str, g: f64) -> ResourceReport {
        ResourceReport::new(
            addr.into(),
            "aws_instance".into(),
            vec!["create".into()],
            None,
            Some(side(4.0, 16.0, g, 1.0)),
        )
    }

    /// Low = central = high: the annotations show no band.
    pub fn no_spread(mut s: Side) -> Side {
        s.range_per_hour = Band {
            low: s.per_hour,
            high: s.per_hour,
        };
        s
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::side;
    use super::*;

    #[test]
    fn an_update_to_an_unknown_machine_type_keeps_its_before_figures() {
        let mut r = ResourceReport::new(
            "aws_instance.a".into(),
            "aws_instance".into(),
            vec!["update".into()],
            Some(side(2.0, 8.0, 4.0, 1.0)),
            None,
        );
        r.status = Status::NotEstimated {
            reason: "machine type known after apply".into(),
        };
        r.delta_per_hour = Figures::default();
        let report = Report::new(vec![r], vec![], 0, 0.5, Period::Month);
        // before counted, and the after total counts it unchanged: the delta is 0, not −4
        assert_eq!(report.totals.before_per_hour.total_gco2eq, 4.0);
        assert_eq!(report.totals.after_per_hour.total_gco2eq, 4.0);
        assert_eq!(report.totals.delta_per_hour.total_gco2eq, 0.0);
    }

    #[test]
    fn delta_band_pairs_the_same_scenario_and_orders_its_ends() {
        let f = |g: f64| Figures {
            total_gco2eq: g,
            ..Figures::default()
        };
        let before = Band {
            low: f(10.0),
            high: f(30.0),
        };
        let after = Band {
            low: f(5.0),
            high: f(40.0),
        };
        // low − low = −5, high − high = +10
        let d = after.minus(&before);
        assert_eq!((d.low.total_gco2eq, d.high.total_gco2eq), (-5.0, 10.0));
        let d = before.minus(&after);
        assert_eq!((d.low.total_gco2eq, d.high.total_gco2eq), (-10.0, 5.0));
    }

    use super::fixtures::create;

    #[test]
    fn totals_and_counts_add_up() {
        let mut skipped = create("aws_instance.x", 0.0);
        skipped.status = Status::NotEstimated {
            reason: "unknown instance type \"zz.huge\"".into(),
        };
        skipped.after = None;
        let d = ResourceReport::new(
            "aws_instance.old".into(),
            "aws_instance".into(),
            vec!["delete".into()],
            Some(side(2.0, 8.0, 4.0, 1.0)),
            None,
        );
        let r = Report::new(
            vec![
                create("aws_instance.a", 10.0),
                create("aws_instance.b", 6.0),
                d,
                skipped,
            ],
            vec!["aws_lambda_function.f".into()],
            2,
            0.5,
            Period::Month,
        );
        // before 4; after 10 + 6 = 16; delta +12 g/h
        assert_eq!(r.totals.before_per_hour.total_gco2eq, 4.0);
        assert_eq!(r.totals.after_per_hour.total_gco2eq, 16.0);
        assert_eq!(r.totals.delta_per_hour.total_gco2eq, 12.0);
        assert_eq!(
            r.counts,
            Counts {
                estimated: 3,
                not_estimated: 1,
                unsupported: 1,
                ignored: 2,
                from_usage: 0
            }
        );
    }
}
