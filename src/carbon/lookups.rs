//! The reference-data lookups of pricing, remembered on each thread: a machine type, a region
//! or a set of microarchitectures is looked up once, however many resources share it (a 50k
//! plan has some hundred distinct ones for its tens of thousands of sides).
//!
//! The memos are per thread (rayon's workers price in parallel and never wait on each other)
//! and start again past [`CAP`] entries, so that a long-lived process fed ever new names keeps
//! a bounded amount.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::{Arc, OnceLock};

use crate::data::{self, Embodied, GridIntensity, Instance, PowerRange, Provider};
use crate::report::{Table, Text};

type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// Past this many entries, a memo is emptied before it takes another.
const CAP: usize = 4096;

/// What pricing reads of a machine type.
pub(super) struct TypeFacts {
    /// Its row of an instance table, and that table ([`lookup`]).
    pub found: Option<(Instance, Table)>,
    /// A burstable or shared-core type's published baseline CPU share, and the assumption that
    /// says it is used.
    pub baseline: Option<(f64, String)>,
    /// Its embodied emissions (`data::embodied`).
    pub embodied: Option<Embodied>,
}

/// What pricing reads of a region.
#[derive(Clone, Copy)]
pub(super) struct RegionFacts {
    pub grid: Option<&'static GridIntensity>,
    /// `data::pue_in_region`.
    pub pue: Option<f64>,
}

/// What pricing reads of a list of CPU microarchitectures.
pub(super) struct ArchFacts {
    /// The central per-vCPU watts, and the lowest and highest that could apply
    /// ([`cpu_spread`]); `None` when the provider has no figure at all.
    pub cpu: Option<(PowerRange, PowerRange, PowerRange)>,
    /// The CCF names of those with a figure, joined by `, ` (empty: none has one).
    pub known: String,
}

#[derive(Default)]
struct Memo {
    types: [Map<Box<str>, Rc<TypeFacts>>; 3],
    regions: [Map<Box<str>, RegionFacts>; 3],
    archs: [Map<Vec<String>, Rc<ArchFacts>>; 3],
    texts: HashSet<Text, foldhash::fast::RandomState>,
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::default();
}

fn bounded<K, V>(map: &mut Map<K, V>) -> &mut Map<K, V> {
    if map.len() >= CAP {
        map.clear();
    }
    map
}

/// The facts of machine type `t` (as the mapping gave it) of `provider`.
pub(super) fn type_facts(provider: Provider, t: &str) -> Rc<TypeFacts> {
    MEMO.with_borrow_mut(|memo| {
        let map = &mut memo.types[provider as usize];
        if let Some(f) = map.get(t) {
            return f.clone();
        }
        let baseline = data::baseline_utilization(provider, t).map(|u| {
            let note = format!(
                "CPU utilisation {} % ({t}'s published baseline; --utilization overrides)",
                crate::render::carbon::trim_num(u * 100.0)
            );
            (u, note)
        });
        let f = Rc::new(TypeFacts {
            found: lookup(provider, t),
            baseline,
            embodied: data::embodied(provider, t),
        });
        bounded(map).insert(t.into(), f.clone());
        f
    })
}

/// The facts of `region` of `provider`.
pub(super) fn region_facts(provider: Provider, region: &str) -> RegionFacts {
    MEMO.with_borrow_mut(|memo| {
        let map = &mut memo.regions[provider as usize];
        if let Some(f) = map.get(region) {
            return *f;
        }
        let f = RegionFacts {
            grid: data::grid_intensity(provider, region),
            pue: data::pue_in_region(provider, region),
        };
        bounded(map).insert(region.into(), f);
        f
    })
}

/// The facts of the microarchitectures `archs` of a resource of `provider`.
pub(super) fn arch_facts(provider: Provider, archs: &[String]) -> Rc<ArchFacts> {
    MEMO.with_borrow_mut(|memo| {
        let map = &mut memo.archs[provider as usize];
        if let Some(f) = map.get(archs) {
            return f.clone();
        }
        let cpu = data::cpu_watts_per_vcpu(provider, archs).map(|cpu| {
            let (low, high) = cpu_spread(archs, cpu);
            (cpu, low, high)
        });
        let known: Vec<&str> = archs
            .iter()
            .filter(|a| data::architecture_watts(a).is_some())
            .map(|a| data::canonical_architecture(a))
            .collect();
        let f = Rc::new(ArchFacts {
            cpu,
            known: known.join(", "),
        });
        bounded(map).insert(archs.to_vec(), f.clone());
        f
    })
}

/// `s` as a shared string: the same `Arc` for every side of this thread that says the same.
pub(crate) fn intern(s: &str) -> Text {
    MEMO.with_borrow_mut(|memo| {
        if let Some(t) = memo.texts.get(s) {
            return t.clone();
        }
        if memo.texts.len() >= CAP {
            memo.texts.clear();
        }
        let t: Text = Arc::from(s);
        memo.texts.insert(t.clone());
        t
    })
}

/// The instance table a machine type was found in, and the row.
pub(super) fn lookup(provider: Provider, t: &str) -> Option<(Instance, Table)> {
    let id = match provider {
        Provider::Aws => Table::AwsInstances,
        Provider::Gcp => Table::GcpInstances,
        Provider::Azure => Table::AzureInstances,
    };
    let sql = |t: &str| data::gcp_sql_tier(t).map(|i| (i, Table::GcpSqlTiers));
    if provider == Provider::Gcp && t.trim().to_ascii_lowercase().starts_with("db-") {
        return sql(t);
    }
    data::instance(provider, t)
        .map(|i| (i, id))
        .or_else(|| {
            (provider == Provider::Gcp)
                .then(|| data::gcp_custom(t).map(|i| (i, id)))
                .flatten()
        })
        .or_else(|| (provider == Provider::Gcp).then(|| sql(t)).flatten())
}

/// The hand table (`scripts/data/hand/`, docs/mappings.md "Coverage") a mapping reads this
/// resource type's node or plan size from, and the row of `machine_type` in it (`Standard C1` →
/// `C1`), if the table has that row.
pub(super) fn hand_table(resource_type: &str, machine_type: &str) -> Option<(Table, String)> {
    let (table, i) = match resource_type {
        "aws_redshift_cluster" => (Table::AwsRedshiftNodes, 0),
        "azurerm_service_plan" | "azurerm_app_service_plan" => (Table::AzureAppServicePlans, 1),
        "azurerm_redis_cache" => (Table::AzureRedisCacheSizes, 2),
        _ => return None,
    };
    static ROWS: OnceLock<[Option<serde_json::Value>; 3]> = OnceLock::new();
    let rows = ROWS.get_or_init(|| {
        [
            Table::AwsRedshiftNodes,
            Table::AzureAppServicePlans,
            Table::AzureRedisCacheSizes,
        ]
        .map(|t| {
            let text = data::json_file(&format!("{}.json", t.id()))?;
            serde_json::from_str(text).ok()
        })
    });
    let key = machine_type.rsplit(' ').next()?;
    rows[i].as_ref()?.get(key).map(|_| (table, key.to_string()))
}

/// The lowest and highest per-vCPU watts among the microarchitectures that could apply: the
/// listed ones with a figure, or every one in the table when none is known.
fn cpu_spread(archs: &[String], central: PowerRange) -> (PowerRange, PowerRange) {
    let mut known: Vec<PowerRange> = archs
        .iter()
        .filter_map(|a| data::architecture_watts(a))
        .collect();
    if known.is_empty() {
        known = data::architectures()
            .into_iter()
            .filter_map(data::architecture_watts)
            .collect();
    }
    let fold = |f: fn(&PowerRange) -> f64, pick: fn(f64, f64) -> f64, start: f64| {
        known.iter().map(f).fold(start, pick)
    };
    let low = PowerRange {
        min_watts: fold(|w| w.min_watts, f64::min, central.min_watts),
        max_watts: fold(|w| w.max_watts, f64::min, central.max_watts),
    };
    let high = PowerRange {
        min_watts: fold(|w| w.min_watts, f64::max, central.min_watts),
        max_watts: fold(|w| w.max_watts, f64::max, central.max_watts),
    };
    (low, high)
}

/// The lowest and highest grid intensity among a provider's regions.
pub(super) fn grid_spread(provider: Provider) -> Option<(f64, f64)> {
    static SPREAD: OnceLock<[Option<(f64, f64)>; 3]> = OnceLock::new();
    SPREAD.get_or_init(|| {
        Provider::ALL.map(|provider| {
            let v: Vec<f64> = data::regions(provider)
                .into_iter()
                .filter_map(|r| data::grid_intensity(provider, r).map(|g| g.g_co2eq_per_kwh))
                .collect();
            let lo = v.iter().copied().reduce(f64::min)?;
            let hi = v.iter().copied().reduce(f64::max)?;
            Some((lo, hi))
        })
    })[provider as usize]
}
