//! Usage files (`carbon-usage.yml`): the usage a figure needs that no plan holds — GB stored,
//! GB processed, requests — declared per resource address or per type, and applied to the
//! mapped resources before they are priced (docs/usage.md).
//!
//! A usage file comes from the repository, like the configuration: it only supplies numbers.
//! It never names another file to read or anything to run, and it is bounded (size, YAML
//! events, aliases) like the mapping files.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use serde::Deserialize;

mod apply;
mod file;
mod template;

pub use apply::apply;
pub use file::{MAX_BYTES, parse, read};
pub use template::{TemplateEntry, entries_of, merge};

/// The usage file read from the working directory when no `--usage` or `usage` key names one.
pub const FILE_NAME: &str = "carbon-usage.yml";

/// The usage file `named` (`--usage`, the configuration's `usage` key; relative to `cwd`),
/// else `carbon-usage.yml` in `cwd` when present, read and checked (its errors are
/// configuration errors, exit 10). It is named in messages and figures as it was given.
pub fn load(
    named: Option<&std::path::Path>,
    cwd: &std::path::Path,
) -> Result<Option<Arc<Usage>>, crate::error::Error> {
    let (path, name) = match named {
        Some(p) => (cwd.join(p), p.display().to_string()),
        None => {
            let p = cwd.join(FILE_NAME);
            if !p.is_file() {
                return Ok(None);
            }
            (p, FILE_NAME.to_string())
        }
    };
    Ok(Some(Arc::new(read(&path, &name)?)))
}

/// Hours in the month the usage keys are counted over (`Period::Month`).
pub const HOURS_PER_MONTH: f64 = 730.0;

/// A usage key: its name carries its unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    StorageGb,
    MonthlyDataProcessedGb,
    MonthlyRequests,
    AverageDurationMs,
    MonthlyHours,
    UtilizationPercent,
}

impl Key {
    pub const ALL: [Key; 6] = [
        Key::StorageGb,
        Key::MonthlyDataProcessedGb,
        Key::MonthlyRequests,
        Key::AverageDurationMs,
        Key::MonthlyHours,
        Key::UtilizationPercent,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Key::StorageGb => "storage_gb",
            Key::MonthlyDataProcessedGb => "monthly_data_processed_gb",
            Key::MonthlyRequests => "monthly_requests",
            Key::AverageDurationMs => "average_duration_ms",
            Key::MonthlyHours => "monthly_hours",
            Key::UtilizationPercent => "utilization_percent",
        }
    }

    pub fn parse(name: &str) -> Option<Key> {
        Key::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The unit, as the template's comment and the `# ≈` line say it.
    pub fn unit(self) -> &'static str {
        match self {
            Key::StorageGb => "GB stored, monthly average",
            Key::MonthlyDataProcessedGb => "GB processed per month",
            Key::MonthlyRequests => "requests per month",
            Key::AverageDurationMs => "ms per request, average",
            Key::MonthlyHours => "hours running per month, 730 = always",
            Key::UtilizationPercent => "% CPU utilisation, overrides --utilization",
        }
    }

    /// The largest value that makes sense (`None`: no bound but finite).
    pub fn max(self) -> Option<f64> {
        match self {
            Key::MonthlyHours => Some(744.0),
            Key::UtilizationPercent => Some(100.0),
            _ => None,
        }
    }
}

/// What a usage-dependent type's figure is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// GB stored, on HDD or SSD, times the service's replication factor.
    Storage { ssd: bool, replication: u32 },
    /// GB processed, times the provider's networking kWh per GB.
    Network,
    /// Requests × average duration: the share of the month the mapped shape runs.
    Invocations,
}

impl Kind {
    /// The keys a figure of this kind needs.
    pub fn keys(self) -> &'static [Key] {
        match self {
            Kind::Storage { .. } => &[Key::StorageGb],
            Kind::Network => &[Key::MonthlyDataProcessedGb],
            Kind::Invocations => &[Key::MonthlyRequests, Key::AverageDurationMs],
        }
    }
}

/// A resource type whose figure depends on usage (a row of `data/usage.json`).
#[derive(Debug, Clone, PartialEq)]
pub struct UsageType {
    pub service: String,
    pub kind: Kind,
    /// Where to read the usage (a console page, a metric).
    pub hint: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    service: String,
    kind: String,
    disk: Option<String>,
    #[serde(rename = "replicationFactor")]
    replication_factor: Option<u32>,
    #[serde(rename = "where")]
    hint: String,
}

/// Every usage-dependent type, from the embedded `data/usage.json`.
pub fn types() -> &'static BTreeMap<String, UsageType> {
    static TYPES: OnceLock<BTreeMap<String, UsageType>> = OnceLock::new();
    TYPES.get_or_init(|| {
        let text = crate::data::json_file("usage.json").expect("data/usage.json is embedded");
        let rows: BTreeMap<String, Row> =
            serde_json::from_str(text).expect("data/usage.json is checked by its tests");
        rows.into_iter()
            .map(|(t, r)| {
                let kind = match r.kind.as_str() {
                    "storage" => Kind::Storage {
                        ssd: r.disk.as_deref() == Some("ssd"),
                        replication: r.replication_factor.unwrap_or(1).max(1),
                    },
                    "network" => Kind::Network,
                    "invocations" => Kind::Invocations,
                    other => panic!("data/usage.json: {t}: unknown kind {other:?}"),
                };
                let u = UsageType {
                    service: r.service,
                    kind,
                    hint: r.hint,
                };
                (t, u)
            })
            .collect()
    })
}

/// The usage-dependent type `resource_type`, if it is one.
pub fn type_of(resource_type: &str) -> Option<&'static UsageType> {
    types().get(resource_type)
}

/// One resource's (or type's) declared usage: each key's value (`None`: left `null`) and the
/// line it is written on.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entry {
    pub values: BTreeMap<Key, Option<f64>>,
    /// The line of its name (1-based).
    pub line: usize,
}

/// A usage file, read and checked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Usage {
    /// The file's path as given (it names the figures' source).
    pub file: Arc<str>,
    /// `resource_usage`: per resource address.
    pub by_address: BTreeMap<String, Entry>,
    /// `resource_type_default_usage`: per resource type, under the addresses' own values.
    pub by_type: BTreeMap<String, Entry>,
    /// Unknown keys, by name and place (warned about; the values are ignored).
    pub warnings: Vec<String>,
}

/// Where a declared value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Address,
    TypeDefault,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Address => "resource_usage",
            Origin::TypeDefault => "resource_type_default_usage",
        }
    }
}

/// One declared value a figure rests on.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    pub key: Key,
    pub value: f64,
    pub origin: Origin,
}

/// The usage applied to one mapped resource (`MappedResource::usage`): what pricing reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The usage file's path.
    pub file: Arc<str>,
    pub inputs: Vec<Input>,
    /// The share of the month the resource runs (requests × duration, or monthly hours ÷
    /// 730); 1 when neither is declared.
    pub share: f64,
    /// GB processed per month (network kinds).
    pub network_gb_per_month: f64,
    /// A per-resource CPU utilisation, 0..=1.
    pub utilization: Option<f64>,
}

impl Applied {
    /// The `# ≈` line's and `explain`'s words for the inputs: `from carbon-usage.yml:
    /// storage_gb = 500 (GB stored, monthly average)`.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self
            .inputs
            .iter()
            .map(|i| format!("{} = {} ({})", i.key.name(), i.value, i.key.unit()))
            .collect();
        format!("from {}: {}", self.file, parts.join(", "))
    }
}

#[cfg(test)]
mod tests;
