//! The carbon report: per-resource figures before and after the change, totals, and the text of
//! annotations and the summary. Every output format (human, JSON, Markdown) reads this one model.

use serde::Serialize;

use crate::estimate::{Estimate, Mass, Period, sig3};

/// Version of the JSON document written by `--format json` (see docs/json-format.md).
pub const JSON_SCHEMA_VERSION: &str = "1.1";

/// What is known of one side (before or after) of a resource.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Side {
    pub provider: String,
    pub region: Option<String>,
    /// Grid carbon intensity used, gCO2eq/kWh (`None`: region unknown).
    pub grid_g_per_kwh: Option<f64>,
    pub machine_type: Option<String>,
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
    pub sources: Vec<String>,
}

/// The low and high ends of a range of hourly figures.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Default)]
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
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Default)]
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
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// Figures are present on at least one side.
    Estimated,
    /// The mappings cover the type, but a figure the estimate needs is missing.
    NotEstimated { reason: String },
}

/// One resource of the plan, as the report sees it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ResourceReport {
    pub address: String,
    #[serde(rename = "type")]
    pub resource_type: String,
    /// OpenTofu's actions for this resource (`["create"]`, `["delete","create"]`, …).
    pub actions: Vec<String>,
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
        let b = before.as_ref().map(|s| s.per_hour).unwrap_or_default();
        let a = after.as_ref().map(|s| s.per_hour).unwrap_or_default();
        let bb = before
            .as_ref()
            .map(|s| s.range_per_hour)
            .unwrap_or_default();
        let ab = after.as_ref().map(|s| s.range_per_hour).unwrap_or_default();
        ResourceReport {
            address,
            resource_type,
            actions,
            status: Status::Estimated,
            before,
            after,
            delta_per_hour: a.minus(&b),
            delta_range_per_hour: ab.minus(&bb),
            assumptions: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The one-line annotation printed under the resource header in the human plan
    /// (without the leading `# `), or `None` for resources with nothing to say.
    pub fn annotation(&self, period: Period) -> Option<String> {
        let hours = period.hours();
        // the central value with its band: `3.51 [2.20–5.94] gCO2eq/h (2.56 kgCO2eq/month)`
        let ranged = |s: &Side| -> String {
            let g = s.per_hour.total_gco2eq;
            let band = banded(
                g,
                s.range_per_hour.low.total_gco2eq,
                s.range_per_hour.high.total_gco2eq,
            );
            if period == Period::Hour {
                format!("{band}/h")
            } else {
                format!("{band}/h ({}/{})", Mass(g * hours), period.unit())
            }
        };
        if let Status::NotEstimated { reason } = &self.status {
            return Some(match &self.before {
                // known before, not after (a machine type known only after apply)
                Some(b) if self.after.is_none() => format!(
                    "≈ before {} · {} · after not estimated: {reason}",
                    ranged(b),
                    describe(b)
                ),
                _ => format!("≈ not estimated: {reason}"),
            });
        }
        let unchanged = self.actions.iter().all(|a| a == "no-op");
        let text = match (&self.before, &self.after) {
            // an unchanged resource (a state document's): what it emits, no "before → after"
            (_, Some(a)) if unchanged => format!("≈ {} · {}", ranged(a), describe(a)),
            (None, Some(a)) => format!("≈ {} · {}", ranged(a), describe(a)),
            (Some(b), None) => format!("≈ saves {} · {}", ranged(b), describe(b)),
            (Some(b), Some(a)) => {
                let d = self.delta_per_hour.total_gco2eq;
                let delta = if period == Period::Hour {
                    format!("{}{}/h", sign(d), Mass(d))
                } else {
                    format!(
                        "{s}{}/h, {s}{}/{}",
                        Mass(d),
                        Mass(d * hours),
                        period.unit(),
                        s = sign(d)
                    )
                };
                format!(
                    "≈ {}/h → {}/h ({delta}) · {}",
                    Mass(b.per_hour.total_gco2eq),
                    banded(
                        a.per_hour.total_gco2eq,
                        a.range_per_hour.low.total_gco2eq,
                        a.range_per_hour.high.total_gco2eq
                    ),
                    describe_change(b, a)
                )
            }
            (None, None) => return None,
        };
        let mut text = text;
        if let Some(w) = self.warnings.first() {
            text.push_str(&format!(" · ⚠ {w}"));
        }
        if !self.assumptions.is_empty() {
            text.push_str(&format!(" · assumed {}", self.assumptions.join("; ")));
        }
        Some(text)
    }
}

/// `3.51 [2.20–5.94] gCO2eq`: a mass with its band, both in the unit [`Mass`] picks for it.
pub fn banded(g: f64, low: f64, high: f64) -> String {
    let central = Mass(g).to_string();
    let (number, unit) = central.split_once(' ').unwrap_or((&central, ""));
    let k = match unit.chars().next() {
        Some('t') => 1e-6,
        Some('k') => 1e-3,
        _ => 1.0,
    };
    if low == high && low == g {
        return central;
    }
    format!("{number} [{}–{}] {unit}", sig3(low * k), sig3(high * k))
}

/// One part of a side's description: a value and its unit (`("4", "vCPU")`).
type Part = (&'static str, String, &'static str);

/// The parts of `4 vCPU · 16 GiB · 100 GB SSD · us-east-1 @ 384 gCO2eq/kWh`; `keep` lists the
/// kinds to show even when zero (so that an update can say `1 → 0 GPU`).
fn parts(s: &Side, keep: &[&str]) -> Vec<Part> {
    let mut v: Vec<Part> = Vec::new();
    let mut num = |key: &'static str, x: f64, unit: &'static str| {
        if x != 0.0 || keep.contains(&key) {
            v.push((key, trim_num(x), unit));
        }
    };
    num("vcpu", s.vcpus, "vCPU");
    num("mem", s.memory_gb, "GiB");
    num("gpu", f64::from(s.gpus), "GPU");
    num("ssd", s.ssd_gb, "GB SSD");
    num("hdd", s.hdd_gb, "GB HDD");
    let place = match (&s.region, s.grid_g_per_kwh) {
        (Some(r), Some(g)) => format!("{r} @ {} gCO2eq/kWh", sig3(g)),
        (Some(r), None) => format!("{r} @ unknown grid intensity"),
        (None, _) => "region unknown".to_string(),
    };
    v.push(("place", place, ""));
    v
}

fn join(prefix: Option<String>, parts: Vec<String>) -> String {
    let body = parts.join(" · ");
    match prefix {
        Some(p) => format!("{p} {body}"),
        None => body,
    }
}

fn instances_prefix(n: f64) -> Option<String> {
    (n != 1.0).then(|| format!("{}×", trim_num(n)))
}

/// `3× 4 vCPU · 16 GiB · 100 GB SSD · us-east-1 @ 384 gCO2eq/kWh`.
fn describe(s: &Side) -> String {
    let texts = parts(s, &[]).into_iter().map(|p| part_text(&p)).collect();
    join(instances_prefix(s.instances), texts)
}

fn part_text((_, value, unit): &Part) -> String {
    if unit.is_empty() {
        value.clone()
    } else {
        format!("{value} {unit}")
    }
}

/// Before and after in one description: unchanged parts once, changed ones as `4 → 8 vCPU`.
fn describe_change(b: &Side, a: &Side) -> String {
    let keys: Vec<&str> = parts(b, &[])
        .iter()
        .chain(parts(a, &[]).iter())
        .map(|p| p.0)
        .collect();
    let (pb, pa) = (parts(b, &keys), parts(a, &keys));
    let texts = pb
        .iter()
        .zip(pa.iter())
        .map(|(x, y)| {
            if x.1 == y.1 {
                part_text(y)
            } else if y.2.is_empty() {
                format!("{} → {}", x.1, y.1)
            } else {
                format!("{} → {} {}", x.1, y.1, y.2)
            }
        })
        .collect();
    let prefix = if b.instances == a.instances {
        instances_prefix(a.instances)
    } else {
        Some(format!(
            "{}× → {}×",
            trim_num(b.instances),
            trim_num(a.instances)
        ))
    };
    join(prefix, texts)
}

/// A number without a trailing `.0` (`4`, `0.5`, `3.75`).
pub fn trim_num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// How many resources fell in each bucket.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Default)]
pub struct Counts {
    /// Resources with figures.
    pub estimated: usize,
    /// Covered by the mappings but missing a figure (unknown machine type, …).
    pub not_estimated: usize,
    /// Managed resources of AWS, GCP or Azure that no mapping covers.
    pub unsupported: usize,
    /// Resources the mappings ignore on purpose (networks, IAM, …).
    pub ignored: usize,
}

/// Totals over the whole plan.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Totals {
    pub before_per_hour: Figures,
    pub after_per_hour: Figures,
    pub delta_per_hour: Figures,
    /// The low and high ends of each total: the sum of the resources' ends.
    pub before_range_per_hour: Band,
    pub after_range_per_hour: Band,
    pub delta_range_per_hour: Band,
}

/// The whole carbon report of a plan.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Report {
    pub schema_version: &'static str,
    pub utilization: f64,
    /// Hours in the period the headline figures use.
    pub period: PeriodInfo,
    pub resources: Vec<ResourceReport>,
    pub totals: Totals,
    pub counts: Counts,
    pub unsupported: Vec<String>,
}

/// The headline period, serialised as its name and hours.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
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

/// What a report shows in place of text that holds a sensitive value.
pub const SENSITIVE: &str = "(sensitive value)";

/// Finds every sensitive string of a plan in a text at once (one Aho-Corasick automaton, so a
/// plan with thousands of secrets costs one pass per text, not one search per secret).
struct Redactor(aho_corasick::AhoCorasick);

impl Redactor {
    /// `None` when there is nothing to hide.
    fn new(secrets: &[String]) -> Option<Redactor> {
        let secrets: Vec<&str> = secrets
            .iter()
            .map(String::as_str)
            .filter(|s| !s.is_empty())
            .collect();
        if secrets.is_empty() {
            return None;
        }
        aho_corasick::AhoCorasick::new(secrets).ok().map(Redactor)
    }
    /// Whether `text` holds a secret.
    fn finds(&self, text: &str) -> bool {
        self.0.is_match(text)
    }
    /// `text` with every byte that belongs to an occurrence of a secret hidden: overlapping
    /// and nested occurrences are merged and shown as one [`SENSITIVE`]. `None` when `text`
    /// holds no secret.
    fn redact(&self, text: &str) -> Option<String> {
        let mut spans: Vec<(usize, usize)> = self
            .0
            .find_overlapping_iter(text)
            .map(|m| (m.start(), m.end()))
            .collect();
        if spans.is_empty() {
            return None;
        }
        spans.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
        for (s, e) in spans {
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (s, e) in merged {
            out.push_str(&text[at..s]);
            out.push_str(SENSITIVE);
            at = e;
        }
        out.push_str(&text[at..]);
        Some(out)
    }
}

impl Report {
    /// Hides the plan's sensitive strings (`plan::sensitive_strings`) wherever the mappings
    /// carried one into the report's text: a region or machine type that holds one is shown as
    /// [`SENSITIVE`], and every occurrence in a reason, assumption or warning is replaced by
    /// it. The figures computed from such values stay (they are estimates, not the value).
    pub fn redact(&mut self, secrets: &[String]) {
        let Some(hide) = Redactor::new(secrets) else {
            return;
        };
        let field = |v: &mut Option<String>| {
            if let Some(text) = v
                && hide.finds(text)
            {
                *text = SENSITIVE.to_string();
            }
        };
        let text = |t: &mut String| {
            if let Some(r) = hide.redact(t) {
                *t = r;
            }
        };
        for r in &mut self.resources {
            for side in [&mut r.before, &mut r.after].into_iter().flatten() {
                field(&mut side.region);
                field(&mut side.machine_type);
            }
            if let Status::NotEstimated { reason } = &mut r.status {
                text(reason);
            }
            r.assumptions.iter_mut().for_each(text);
            r.warnings.iter_mut().for_each(text);
        }
    }

    /// Sums the resources into totals and counts.
    pub fn new(
        resources: Vec<ResourceReport>,
        unsupported: Vec<String>,
        ignored: usize,
        utilization: f64,
        period: Period,
    ) -> Self {
        let mut before = Figures::default();
        let mut after = Figures::default();
        let (mut before_band, mut after_band) = (Band::default(), Band::default());
        let mut counts = Counts {
            unsupported: unsupported.len(),
            ignored,
            ..Counts::default()
        };
        for r in &resources {
            match r.status {
                Status::Estimated => counts.estimated += 1,
                Status::NotEstimated { .. } => counts.not_estimated += 1,
            }
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
        Report {
            schema_version: JSON_SCHEMA_VERSION,
            utilization,
            period: PeriodInfo::new(period),
            resources,
            totals: Totals {
                before_per_hour: before,
                after_per_hour: after,
                delta_per_hour: after.minus(&before),
                before_range_per_hour: before_band,
                after_range_per_hour: after_band,
                delta_range_per_hour: after_band.minus(&before_band),
            },
            counts,
            unsupported,
        }
    }

    /// Resources ordered by the size of their change, largest first (ties by address).
    pub fn top_contributors(&self, n: usize) -> Vec<&ResourceReport> {
        let mut v: Vec<&ResourceReport> = self
            .resources
            .iter()
            .filter(|r| r.delta_per_hour.total_gco2eq != 0.0)
            .collect();
        v.sort_by(|a, b| {
            b.delta_per_hour
                .total_gco2eq
                .abs()
                .total_cmp(&a.delta_per_hour.total_gco2eq.abs())
                .then_with(|| a.address.cmp(&b.address))
        });
        v.truncate(n);
        v
    }

    /// The summary printed after the `Plan:` line, one string per line (no trailing newline).
    pub fn summary_lines(&self, headline: Period) -> Vec<String> {
        let t = &self.totals;
        let mut out = Vec::new();
        out.push(format!(
            "Carbon (≈, {} % utilisation): {} → {} per {} ({}{})",
            trim_num(self.utilization * 100.0),
            Mass(t.before_per_hour.total_gco2eq * headline.hours()),
            Mass(t.after_per_hour.total_gco2eq * headline.hours()),
            PeriodInfo::new(headline).name,
            sign(t.delta_per_hour.total_gco2eq),
            Mass(t.delta_per_hour.total_gco2eq * headline.hours()),
        ));
        let d = t.delta_per_hour.total_gco2eq;
        out.push(format!(
            "  delta: {}{}/h · {}{}/month · {}{}/year",
            sign(d),
            Mass(d),
            sign(d),
            Mass(d * Period::Month.hours()),
            sign(d),
            Mass(d * Period::Year.hours()),
        ));
        out.push(format!(
            "  after: operational {} + embodied {} per {}",
            Mass(t.after_per_hour.operational_gco2eq * headline.hours()),
            Mass(t.after_per_hour.embodied_gco2eq * headline.hours()),
            PeriodInfo::new(headline).name,
        ));
        let ab = &t.after_range_per_hour;
        if ab.low != ab.high {
            out.push(format!(
                "  after range: {} – {} per {} (utilisation {}–{} %, spread of the coefficients)",
                Mass(ab.low.total_gco2eq * headline.hours()),
                Mass(ab.high.total_gco2eq * headline.hours()),
                PeriodInfo::new(headline).name,
                trim_num(crate::estimate::LOW_UTILIZATION * 100.0),
                trim_num(crate::estimate::HIGH_UTILIZATION * 100.0),
            ));
        }
        let top = self.top_contributors(3);
        if !top.is_empty() {
            let names: Vec<String> = top
                .iter()
                .map(|r| {
                    format!(
                        "{} ({}{}/{})",
                        r.address,
                        sign(r.delta_per_hour.total_gco2eq),
                        Mass(r.delta_per_hour.total_gco2eq * headline.hours()),
                        headline.unit()
                    )
                })
                .collect();
            out.push(format!("  top changes: {}", names.join(", ")));
        }
        let c = &self.counts;
        out.push(format!(
            "  resources: {} estimated, {} not estimated, {} unsupported, {} ignored",
            c.estimated, c.not_estimated, c.unsupported, c.ignored
        ));
        out
    }
}

/// `+` for a positive figure (negative ones carry their own `-`).
pub(crate) fn sign(v: f64) -> &'static str {
    if v > 0.0 { "+" } else { "" }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(vcpus: f64, mem: f64, g_per_hour: f64, instances: f64) -> Side {
        Side {
            provider: "aws".into(),
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
            sources: vec!["aws_instances".into()],
        }
        .with_no_spread()
    }

    impl Side {
        /// Low = central = high: the annotations show no band.
        fn with_no_spread(mut self) -> Side {
            self.range_per_hour = Band {
                low: self.per_hour,
                high: self.per_hour,
            };
            self
        }
    }

    #[test]
    fn the_band_follows_the_central_value_s_unit() {
        assert_eq!(banded(3.51, 2.2, 5.94), "3.51 [2.20–5.94] gCO2eq");
        assert_eq!(
            banded(12_300.0, 9_000.0, 15_000.0),
            "12.3 [9.00–15.0] kgCO2eq"
        );
        assert_eq!(banded(4.0, 4.0, 4.0), "4.00 gCO2eq");
        let mut s = side(2.0, 8.0, 10.0, 1.0);
        s.range_per_hour.low.total_gco2eq = 6.0;
        s.range_per_hour.high.total_gco2eq = 15.5;
        let r = ResourceReport::new(
            "aws_instance.a".into(),
            "aws_instance".into(),
            vec!["create".into()],
            None,
            Some(s),
        );
        // 10 g/h × 730 = 7.3 kg
        assert_eq!(
            r.annotation(Period::Month).unwrap(),
            "≈ 10.0 [6.00–15.5] gCO2eq/h (7.30 kgCO2eq/month) · 2 vCPU · 8 GiB · 100 GB SSD · us-east-1 @ 384 gCO2eq/kWh"
        );
    }

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
        assert_eq!(
            report.resources[0].annotation(Period::Hour).unwrap(),
            "≈ before 4.00 gCO2eq/h · 2 vCPU · 8 GiB · 100 GB SSD · us-east-1 @ 384 gCO2eq/kWh \
             · after not estimated: machine type known after apply"
        );
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

    fn create(addr: &str, g: f64) -> ResourceReport {
        ResourceReport::new(
            addr.into(),
            "aws_instance".into(),
            vec!["create".into()],
            None,
            Some(side(4.0, 16.0, g, 1.0)),
        )
    }

    #[test]
    fn redact_hides_sensitive_strings() {
        let mut skipped = create("aws_instance.x", 0.0);
        skipped.status = Status::NotEstimated {
            reason: "unknown machine type \"s3cret.big\" (s3cret)".into(),
        };
        skipped.assumptions = vec!["assumed machine_type = s3cret.big".into()];
        skipped.warnings = vec!["plain".into()];
        let mut r = Report::new(
            vec![create("aws_instance.y", 1.0), skipped],
            vec![],
            0,
            0.5,
            Period::Month,
        );
        r.redact(&[
            "".into(),
            "m5.xlarge".into(),
            "s3cret".into(),
            "s3cret.big".into(),
        ]);
        let after = r.resources[0].after.as_ref().unwrap();
        assert_eq!(after.machine_type.as_deref(), Some(SENSITIVE));
        assert_eq!(after.region.as_deref(), Some("us-east-1"));
        let x = &r.resources[1];
        assert_eq!(
            x.status,
            Status::NotEstimated {
                reason: format!("unknown machine type \"{SENSITIVE}\" ({SENSITIVE})")
            }
        );
        assert_eq!(
            x.assumptions,
            [format!("assumed machine_type = {SENSITIVE}")]
        );
        assert_eq!(x.warnings, ["plain"]);
        // Figures stay.
        assert_eq!(r.totals.after_per_hour.total_gco2eq, 1.0);
    }

    /// Every byte of every occurrence is hidden, even where secrets overlap or nest.
    #[test]
    fn redact_hides_overlapping_secrets_whole() {
        let r = Redactor::new(&["abc".into(), "bcdef".into(), "zz".into(), "".into()]).unwrap();
        assert_eq!(r.redact("xabcdefy").as_deref(), Some("x(sensitive value)y"));
        assert_eq!(
            r.redact("abc zz abc").as_deref(),
            Some("(sensitive value) (sensitive value) (sensitive value)")
        );
        assert_eq!(r.redact("plain"), None);
        assert!(r.finds("a zz"));
        assert!(!r.finds("a z z"));
        assert!(Redactor::new(&["".into()]).is_none());
    }

    #[test]
    fn create_annotation_matches_the_documented_example() {
        // 23.1 g/h × 730 h = 16,863 g → "16.9 kgCO2eq/month"
        let r = create("aws_instance.web", 23.1);
        assert_eq!(
            r.annotation(Period::Month).unwrap(),
            "≈ 23.1 gCO2eq/h (16.9 kgCO2eq/month) · 4 vCPU · 16 GiB · 100 GB SSD · us-east-1 @ 384 gCO2eq/kWh"
        );
        assert_eq!(
            r.annotation(Period::Hour).unwrap(),
            "≈ 23.1 gCO2eq/h · 4 vCPU · 16 GiB · 100 GB SSD · us-east-1 @ 384 gCO2eq/kWh"
        );
    }

    #[test]
    fn delete_says_saved_and_update_shows_delta() {
        let d = ResourceReport::new(
            "a".into(),
            "aws_instance".into(),
            vec!["delete".into()],
            Some(side(4.0, 16.0, 10.0, 3.0)),
            None,
        );
        assert_eq!(
            d.annotation(Period::Year).unwrap(),
            "≈ saves 10.0 gCO2eq/h (87.6 kgCO2eq/year) · 3× 4 vCPU · 16 GiB · 100 GB SSD · us-east-1 @ 384 gCO2eq/kWh"
        );
        let u = ResourceReport::new(
            "a".into(),
            "aws_instance".into(),
            vec!["update".into()],
            Some(side(4.0, 16.0, 10.0, 1.0)),
            Some(side(8.0, 32.0, 26.0, 1.0)),
        );
        // delta 16 g/h × 730 = 11,680 g
        assert_eq!(
            u.annotation(Period::Month).unwrap(),
            "≈ 10.0 gCO2eq/h → 26.0 gCO2eq/h (+16.0 gCO2eq/h, +11.7 kgCO2eq/month) · \
             4 → 8 vCPU · 16 → 32 GiB · 100 GB SSD · us-east-1 @ 384 gCO2eq/kWh"
        );
    }

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
                ignored: 2
            }
        );
        let top: Vec<&str> = r
            .top_contributors(2)
            .iter()
            .map(|r| r.address.as_str())
            .collect();
        assert_eq!(top, ["aws_instance.a", "aws_instance.b"]);
        let lines = r.summary_lines(Period::Month);
        // 4 × 730 = 2,920 g; 16 × 730 = 11,680 g; 12 × 730 = 8,760 g; 12 × 8,760 = 105,120 g
        assert_eq!(
            lines[0],
            "Carbon (≈, 50 % utilisation): 2.92 kgCO2eq → 11.7 kgCO2eq per month (+8.76 kgCO2eq)"
        );
        assert_eq!(
            lines[1],
            "  delta: +12.0 gCO2eq/h · +8.76 kgCO2eq/month · +105 kgCO2eq/year"
        );
        assert_eq!(
            r.resources[3].annotation(Period::Month).unwrap(),
            "≈ not estimated: unknown instance type \"zz.huge\""
        );
    }
}
