//! The reference tables as generated at build time (`src/data/codegen.rs`): static rows of plain data, found by binary search.
//!
//! `$OUT_DIR/data_tables.rs` is included here. Rows hold no pointers: a [`Str`] is a range of
//! one text, `STRINGS`; a [`List`] a range of `LISTS`; [`Gpus`] a range of `GPU_COUNTS`. Each
//! table is sorted by its key in byte order; an instance table's `_LOWER` index lists its rows
//! by lower-cased name. Nothing is parsed or allocated until a row is asked for; the records
//! handed out by reference (grid intensity, its fallback, provider coefficients, sources) are
//! built on first use, each on its own (`OnceLock` per row).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::OnceLock;

use super::{GridFallback, GridIntensity, Provider, ProviderCoefficients, Source};

/// A string of the tables: a byte range of `STRINGS`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Str(u32, u32);

impl Str {
    pub(super) fn get(self) -> &'static str {
        &STRINGS[self.0 as usize..self.1 as usize]
    }
}

/// A list of strings: a range of `LISTS`.
#[derive(Debug, Clone, Copy)]
pub(super) struct List(u32, u32);

impl List {
    pub(super) fn get(self) -> &'static [Str] {
        &LISTS[self.0 as usize..self.1 as usize]
    }

    pub(super) fn strings(self) -> Vec<String> {
        self.get().iter().map(|s| s.get().to_string()).collect()
    }
}

/// GPU models with counts: a range of `GPU_COUNTS`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Gpus(u32, u32);

impl Gpus {
    pub(super) fn get(self) -> &'static [(Str, f64)] {
        &GPU_COUNTS[self.0 as usize..self.1 as usize]
    }
}

/// Local disks of an AWS instance type (both counts positive).
#[derive(Debug, Clone, Copy)]
pub(super) struct StorageRow {
    pub disks: f64,
    pub gb_per_disk: f64,
    pub kind: Str,
}

/// An instance type, machine type, VM size or Cloud SQL tier.
#[derive(Debug, Clone, Copy)]
pub(super) struct InstanceRow {
    pub name: Str,
    pub vcpus: f64,
    pub memory_mb: f64,
    pub gpus: Gpus,
    pub cpu_types: List,
    pub family: Option<Str>,
    pub storage: Option<StorageRow>,
}

/// Grid intensity of one region.
#[derive(Debug, Clone, Copy)]
pub(super) struct GridRow {
    pub region: Str,
    pub g: f64,
    pub year: u16,
    pub source: Str,
    pub url: Str,
    pub via: Str,
    pub derived_from: List,
    pub method: Option<Str>,
}

/// A provider's grid intensity for regions without a figure.
#[derive(Debug, Clone, Copy)]
pub(super) struct FallbackRow {
    pub g: f64,
    pub method: Str,
    pub via: Str,
}

/// Embodied emissions of one instance type (`data/embodied.json`).
#[derive(Debug, Clone, Copy)]
pub(super) struct EmbodiedRow {
    pub name: Str,
    pub family: Str,
    pub platform: Str,
    pub platform_kg_co2eq: f64,
    pub vcpus: f64,
    pub host_vcpus: f64,
    pub kg_co2eq_per_hour: f64,
    pub kg_co2eq_per_hour_low: f64,
    pub kg_co2eq_per_hour_high: f64,
    /// `method` is `ccf-total` (else `parts`).
    pub ccf_total: bool,
    pub cpu_chassis_kg: f64,
    pub memory_kg: f64,
    pub server_name: Option<Str>,
}

/// A provider's coefficients; `pue_by_region` a range of `PUE_BY_REGION`.
#[derive(Debug, Clone, Copy)]
pub(super) struct CoefficientsRow {
    pub cpu_min_watts_per_vcpu: f64,
    pub cpu_max_watts_per_vcpu: f64,
    pub cpu_fallback_method: Str,
    pub memory_kwh_per_gb_hour: f64,
    pub memory_watts_per_gb: f64,
    pub ssd_watts_per_tb: f64,
    pub hdd_watts_per_tb: f64,
    pub networking_kwh_per_gb: f64,
    pub pue: f64,
    pub pue_by_region: (u32, u32),
    pub average_cpu_utilization: f64,
    pub server_lifespan_hours: f64,
}

/// One source of the reference data.
#[derive(Debug, Clone, Copy)]
pub(super) struct SourceRow {
    pub name: Str,
    pub version: Str,
    pub year: u16,
    pub licence: Str,
    pub url: Str,
    pub used: Str,
}

include!(concat!(env!("OUT_DIR"), "/data_tables.rs"));

/// The first table that failed to read when the binary was built (never expected: the build's
/// own tests read every table).
pub(super) fn load_error() -> Option<&'static str> {
    LOAD_ERROR
}

/// One provider's tables.
pub(super) struct ProviderRows {
    pub instances: &'static [InstanceRow],
    /// `instances` by lower-cased name.
    pub lower: &'static [u32],
    pub grid: &'static [GridRow],
    grid_cells: &'static [OnceLock<GridIntensity>],
    pub embodied: &'static [EmbodiedRow],
    pub embodied_fallback: Option<f64>,
    /// Published baseline CPU share per vCPU of burstable types, by table key.
    pub baseline: &'static [(Str, f64)],
    index: usize,
}

static PROVIDERS: [ProviderRows; 3] = [
    ProviderRows {
        instances: &AWS_INSTANCES,
        lower: &AWS_INSTANCES_LOWER,
        grid: &AWS_GRID,
        grid_cells: &AWS_GRID_CELLS,
        embodied: &AWS_EMBODIED,
        embodied_fallback: EMBODIED_FALLBACK[0],
        baseline: &AWS_BASELINE,
        index: 0,
    },
    ProviderRows {
        instances: &GCP_INSTANCES,
        lower: &GCP_INSTANCES_LOWER,
        grid: &GCP_GRID,
        grid_cells: &GCP_GRID_CELLS,
        embodied: &GCP_EMBODIED,
        embodied_fallback: EMBODIED_FALLBACK[1],
        baseline: &GCP_BASELINE,
        index: 1,
    },
    ProviderRows {
        instances: &AZURE_INSTANCES,
        lower: &AZURE_INSTANCES_LOWER,
        grid: &AZURE_GRID,
        grid_cells: &AZURE_GRID_CELLS,
        embodied: &AZURE_EMBODIED,
        embodied_fallback: EMBODIED_FALLBACK[2],
        baseline: &AZURE_BASELINE,
        index: 2,
    },
];

/// A provider's tables.
pub(super) fn provider(p: Provider) -> &'static ProviderRows {
    match p {
        Provider::Aws => &PROVIDERS[0],
        Provider::Gcp => &PROVIDERS[1],
        Provider::Azure => &PROVIDERS[2],
    }
}

/// The row of a table sorted by `key` whose key is `name`.
pub(super) fn find<T>(
    rows: &'static [T],
    key: impl Fn(&T) -> Str,
    name: &str,
) -> Option<&'static T> {
    rows.binary_search_by(|r| key(r).get().cmp(name))
        .ok()
        .map(|i| &rows[i])
}

/// `a` lower-cased (ASCII) compared with `lower`, without a copy.
fn cmp_lower(a: &str, lower: &str) -> Ordering {
    a.bytes().map(|b| b.to_ascii_lowercase()).cmp(lower.bytes())
}

impl ProviderRows {
    /// The instance named exactly `name`.
    pub fn instance(&self, name: &str) -> Option<&'static InstanceRow> {
        find(self.instances, |r| r.name, name)
    }

    /// The instance whose lower-cased name is `lower`.
    pub fn instance_lower(&self, lower: &str) -> Option<&'static InstanceRow> {
        let rows = self.instances;
        self.lower
            .binary_search_by(|&i| cmp_lower(rows[i as usize].name.get(), lower))
            .ok()
            .map(|i| &rows[self.lower[i] as usize])
    }

    /// The instances whose name starts with `prefix`, in name order.
    pub fn instances_with_prefix(&self, prefix: &str) -> &'static [InstanceRow] {
        let rows = self.instances;
        let start = rows.partition_point(|r| r.name.get() < prefix);
        let len = rows[start..].partition_point(|r| r.name.get().starts_with(prefix));
        &rows[start..start + len]
    }

    pub fn embodied(&self, name: &str) -> Option<&'static EmbodiedRow> {
        find(self.embodied, |r| r.name, name)
    }

    pub fn baseline(&self, name: &str) -> Option<f64> {
        find(self.baseline, |r| r.0, name).map(|r| r.1)
    }

    /// The grid intensity of a region key, built on its first lookup.
    pub fn grid(&self, region: &str) -> Option<&'static GridIntensity> {
        let i = self
            .grid
            .binary_search_by(|r| r.region.get().cmp(region))
            .ok()?;
        let row = &self.grid[i];
        Some(self.grid_cells[i].get_or_init(|| GridIntensity {
            g_co2eq_per_kwh: row.g,
            year: row.year,
            source: row.source.get().to_string(),
            url: row.url.get().to_string(),
            via: row.via.get().to_string(),
            derived_from: row.derived_from.strings(),
            method: row.method.map(|m| m.get().to_string()),
        }))
    }

    pub fn grid_fallback(&self) -> Option<&'static GridFallback> {
        static CELLS: [OnceLock<Option<GridFallback>>; 3] = [const { OnceLock::new() }; 3];
        CELLS[self.index]
            .get_or_init(|| {
                GRID_FALLBACK[self.index].map(|f| GridFallback {
                    g_co2eq_per_kwh: f.g,
                    method: f.method.get().to_string(),
                    via: f.via.get().to_string(),
                })
            })
            .as_ref()
    }

    pub fn coefficients_row(&self) -> Option<&'static CoefficientsRow> {
        COEFFICIENTS[self.index].as_ref()
    }

    pub fn coefficients(&self) -> Option<&'static ProviderCoefficients> {
        static CELLS: [OnceLock<Option<ProviderCoefficients>>; 3] = [const { OnceLock::new() }; 3];
        CELLS[self.index]
            .get_or_init(|| {
                let c = self.coefficients_row()?;
                Some(ProviderCoefficients {
                    cpu_min_watts_per_vcpu: c.cpu_min_watts_per_vcpu,
                    cpu_max_watts_per_vcpu: c.cpu_max_watts_per_vcpu,
                    cpu_fallback_method: c.cpu_fallback_method.get().to_string(),
                    memory_kwh_per_gb_hour: c.memory_kwh_per_gb_hour,
                    memory_watts_per_gb: c.memory_watts_per_gb,
                    ssd_watts_per_tb: c.ssd_watts_per_tb,
                    hdd_watts_per_tb: c.hdd_watts_per_tb,
                    networking_kwh_per_gb: c.networking_kwh_per_gb,
                    pue: c.pue,
                    pue_by_region: pue_by_region(c)
                        .iter()
                        .map(|(k, v)| (k.get().to_string(), *v))
                        .collect::<HashMap<_, _>>(),
                    average_cpu_utilization: c.average_cpu_utilization,
                    server_lifespan_hours: c.server_lifespan_hours,
                })
            })
            .as_ref()
    }
}

/// A provider's regional PUE rows, sorted by region.
pub(super) fn pue_by_region(c: &CoefficientsRow) -> &'static [(Str, f64)] {
    &PUE_BY_REGION[c.pue_by_region.0 as usize..c.pue_by_region.1 as usize]
}

/// Cloud SQL tiers, sorted by name.
pub(super) fn gcp_sql() -> &'static [InstanceRow] {
    &GCP_SQL
}

/// CPU watts per vCPU by microarchitecture: `(name, min, max)`, sorted.
pub(super) fn architectures() -> &'static [(Str, f64, f64)] {
    &ARCHITECTURES
}

/// The microarchitectures whose presence makes CCF take the median.
pub(super) fn median_architectures() -> &'static [Str] {
    &MEDIAN_ARCHITECTURES
}

/// Other names of microarchitectures: `(alias, name)`, sorted.
pub(super) fn architecture_aliases() -> &'static [(Str, Str)] {
    &ARCHITECTURE_ALIASES
}

/// GPU watts by model slug: `(slug, min, max)`, sorted.
pub(super) fn gpus() -> &'static [(Str, f64, f64)] {
    &GPUS
}

/// Other slugs of GPU models: `(alias, slug)`, sorted.
pub(super) fn gpu_aliases() -> &'static [(Str, Str)] {
    &GPU_ALIASES
}

/// Every source of the reference data, built on first use.
pub(super) fn sources() -> &'static [Source] {
    static SOURCES_BUILT: OnceLock<Vec<Source>> = OnceLock::new();
    SOURCES_BUILT.get_or_init(|| {
        SOURCES
            .iter()
            .map(|s| Source {
                name: s.name.get().to_string(),
                version: s.version.get().to_string(),
                year: s.year,
                licence: s.licence.get().to_string(),
                url: s.url.get().to_string(),
                used: s.used.get().to_string(),
            })
            .collect()
    })
}
