//! Pricing one mapped resource: its footprint and coefficients from the reference data, its
//! hourly figures and their range. Alternatives price the same resource in another region or
//! as another type through the same code ([`Subject`]), never by a ratio.

use super::lookups::{self, intern};
use super::{Provenance, REGION_UNKNOWN, Settings, mapping_note};
use crate::data::{self, Instance, PowerRange, Provider};
use crate::estimate::{Coefficients, Footprint};
use crate::mapping::{DiskKind, MappedResource};
use crate::report::{Band, Figures, Side, Sources, Table};

/// What is priced: a mapped resource, in its own region or another, as its own machine type
/// or another.
#[derive(Clone, Copy)]
pub(crate) struct Subject<'a> {
    pub m: &'a MappedResource,
    /// The region priced: the resource's own, or an alternative's.
    pub region: Option<&'a str>,
    /// A type priced in place of the resource's own (an ARM alternative): its name, vCPUs,
    /// memory and microarchitectures replace the resource's.
    pub shape: Option<&'a Instance>,
}

impl<'a> Subject<'a> {
    /// The resource as the mapping found it.
    pub fn of(m: &'a MappedResource) -> Self {
        Subject {
            m,
            region: m.region.as_deref(),
            shape: None,
        }
    }

    fn machine_type(&self) -> Option<&'a str> {
        match self.shape {
            Some(t) => Some(&t.name),
            None => self.m.machine_type.as_deref(),
        }
    }

    fn vcpus(&self) -> Option<f64> {
        self.shape.map_or(self.m.vcpus, |t| Some(t.vcpus))
    }

    fn memory_gb(&self) -> Option<f64> {
        self.shape.map_or(self.m.memory_gb, |t| Some(t.memory_gib))
    }

    fn cpu_types(&self) -> &'a [String] {
        self.shape
            .map_or(&self.m.cpu_types, |t| &t.cpu_architectures)
    }
}

/// What a pricing is for: the side alone (an alternative), with the warnings and assumptions
/// it produced (the report), or with the provenance of every figure too (`explain`, the Impact
/// Framework export).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Want {
    Side,
    Notes,
    Inputs,
}

/// A side that could be priced, with the notes it produced.
#[derive(Clone)]
pub(crate) struct Pricing {
    pub side: Side,
    /// With [`Want::Inputs`].
    pub priced: Option<super::Priced>,
    /// With [`Want::Notes`] or more.
    pub warnings: Vec<String>,
    pub assumptions: Vec<String>,
}

/// Where a shape figure comes from.
enum Origin<'a> {
    /// The instance table that holds the machine type.
    Table(Table, &'a str),
    /// A hand table's row, read by the mapping.
    Hand(Table, &'a str),
    Plan,
}

impl Origin<'_> {
    fn source(&self) -> Option<Table> {
        match self {
            Origin::Table(t, _) | Origin::Hand(t, _) => Some(*t),
            Origin::Plan => None,
        }
    }

    fn detail(&self) -> String {
        match self {
            Origin::Table(_, t) => format!("machine type {t}"),
            Origin::Hand(_, key) => format!("row {key}, read by the mapping"),
            Origin::Plan => "read from the plan by the mapping".to_string(),
        }
    }
}

/// The provenance of the figures, written out only when it is wanted; the tables used always.
struct Notes {
    explain: bool,
    provenance: Vec<Provenance>,
    sources: Sources,
}

impl Notes {
    /// `what` comes from `source` (`None`: the plan); `detail` says which entry and how.
    fn add(&mut self, what: &'static str, source: Option<Table>, detail: impl FnOnce() -> String) {
        if let Some(t) = source {
            self.sources.insert(t);
        }
        if self.explain {
            self.provenance.push(Provenance {
                what,
                source: source.map_or("plan", Table::id).to_string(),
                detail: detail(),
            });
        }
    }
}

/// Prices one subject: its footprint, coefficients and hourly figures; `Err` says why it could
/// not be estimated.
pub(crate) fn price(s: &Subject<'_>, settings: Settings, want: Want) -> Result<Pricing, String> {
    let m = s.m;
    let provider =
        Provider::parse(&m.provider).ok_or_else(|| format!("unknown provider {:?}", m.provider))?;
    let notes_wanted = want >= Want::Notes;
    let mut warnings = Vec::new();
    let mut notes = Notes {
        explain: want == Want::Inputs,
        provenance: Vec::new(),
        sources: Sources::NONE,
    };
    let machine_type = s.machine_type();
    let facts = machine_type.map(|t| lookups::type_facts(provider, t));
    let found = facts.as_deref().and_then(|f| f.found.as_ref());
    let table = found.map(|(i, _)| i);
    let table_id = found.map(|(_, id)| *id);
    let mut assumptions = Vec::new();
    // A burstable or shared-core type runs at its published baseline unless asked otherwise
    // (a flag, or the resource's own utilisation in the usage file).
    let own_utilization = super::usage::utilization(m);
    let utilization = utilization_of(
        facts.as_deref(),
        settings,
        own_utilization,
        notes_wanted,
        &mut assumptions,
    );
    if s.vcpus().or(table.map(|i| i.vcpus)).is_none() {
        not_estimable(m, machine_type)?;
    }
    let (vcpus, memory_gb, archs) = shape_figures(s, table, table_id, &mut notes);
    let (gpu_models, gpus) = gpu_figures(m, table, &mut notes, notes_wanted, &mut warnings);
    let (ssd_tb, hdd_tb) = storage_tb(m, &mut notes);
    let p = provider.as_str();
    let region_facts = s.region.map(|r| (r, lookups::region_facts(provider, r)));
    let (grid, grid_low, grid_high) = grid_figures(
        provider,
        region_facts,
        &mut notes,
        notes_wanted,
        &mut warnings,
    )?;
    let c = data::coefficients(provider).ok_or_else(|| format!("no coefficients for {p}"))?;
    let arch = lookups::arch_facts(provider, archs);
    let (cpu, cpu_low, cpu_high) = arch
        .cpu
        .ok_or_else(|| format!("no CPU power figure for {p}"))?;
    let pue = region_facts.and_then(|(_, f)| f.pue).unwrap_or(c.pue);
    coefficient_notes(provider, c, &arch, pue, &mut notes);
    if notes.explain {
        let usage = super::usage::provenance(m, c.networking_kwh_per_gb);
        notes.provenance.extend(usage);
    }
    let embodied = embodied_figures(provider, facts.as_deref(), vcpus, &mut notes);
    let [coefficients, low, high] = coefficient_set(
        [cpu, cpu_low, cpu_high],
        c,
        pue,
        [grid, grid_low, grid_high],
        &embodied,
    );
    let footprint = Footprint {
        vcpus,
        memory_gb,
        ssd_tb,
        hdd_tb,
        gpus,
        network_w: super::usage::network_w(m, c.networking_kwh_per_gb),
    };
    let instances =
        f64::from(m.count) * f64::from(m.replication_factor.max(1)) * super::usage::share(m);
    let r = super::ranged(
        &footprint,
        &low,
        &coefficients,
        &high,
        utilization,
        instances,
    );
    let sources = notes.sources;
    let side = Side {
        provider: p,
        region: s.region.map(intern),
        grid_g_per_kwh: Some(grid),
        machine_type: machine_type.map(intern),
        vcpus,
        memory_gb,
        gpus: gpu_models.len() as u32,
        ssd_gb: ssd_tb * 1000.0,
        hdd_gb: hdd_tb * 1000.0,
        instances,
        per_hour: Figures::from(&r.central),
        range_per_hour: Band {
            low: Figures::from(&r.low),
            high: Figures::from(&r.high),
        },
        sources,
    };
    let priced = notes.explain.then(|| super::Priced {
        address: m.address.clone(),
        resource_type: m.resource_type.clone(),
        provider: p.to_string(),
        region: s.region.map(str::to_string),
        machine_type: machine_type.map(str::to_string),
        footprint,
        coefficients,
        low,
        high,
        utilization,
        instances,
        provenance: notes.provenance,
        sources: sources.to_vec(),
    });
    Ok(Pricing {
        side,
        priced,
        warnings,
        assumptions,
    })
}

/// The subject's vCPUs, memory and CPU architectures, each noted with where it comes from: the
/// instance table when it holds that value (the mappings read it from the same table), a hand
/// table's row the mapping read, else the plan.
fn shape_figures<'a>(
    s: &Subject<'a>,
    table: Option<&'a Instance>,
    table_id: Option<Table>,
    notes: &mut Notes,
) -> (f64, f64, &'a [String]) {
    let m = s.m;
    let machine_type = s.machine_type();
    let vcpus = s.vcpus().or(table.map(|i| i.vcpus));
    // Where a shape figure comes from: the instance table when it holds that value (the
    // mappings read it from the same table), else the plan (read by the mapping).
    let origin = |in_table: bool| match (in_table, table_id, machine_type) {
        (true, Some(id), Some(t)) => Origin::Table(id, t),
        _ => Origin::Plan,
    };
    // A shape the mapping read from a hand table is credited to that table, not to the plan.
    let hand = table_id
        .is_none()
        .then(|| lookups::hand_table(&m.resource_type, machine_type?))
        .flatten();
    let origin_shape = |in_table: bool| match &hand {
        Some((id, key)) => Origin::Hand(*id, key),
        None => origin(in_table),
    };
    let o = origin_shape(s.vcpus().is_none() || s.vcpus() == table.map(|i| i.vcpus));
    if vcpus.is_some() {
        notes.add("vcpus", o.source(), || o.detail());
    }
    let vcpus = vcpus.unwrap_or(0.0);
    let memory_gb = s.memory_gb().or(table.map(|i| i.memory_gib)).unwrap_or(0.0);
    let o = origin_shape(s.memory_gb().is_none() || s.memory_gb() == table.map(|i| i.memory_gib));
    notes.add("memory_gb", o.source(), || o.detail());
    let archs: &'a [String] = if s.cpu_types().is_empty() {
        table.map_or(&[], |i| &i.cpu_architectures)
    } else {
        s.cpu_types()
    };
    let o = origin(table.is_some_and(|i| i.cpu_architectures == archs));
    notes.add("cpu_architectures", o.source(), || {
        format!("{} ({})", archs.join(", "), o.detail())
    });
    (vcpus, memory_gb, archs)
}

/// The central, low and high coefficients: the provider's memory and storage figures and PUE
/// with each end's CPU watts, grid intensity and embodied figure.
fn coefficient_set(
    cpu: [PowerRange; 3],
    c: &data::ProviderCoefficients,
    pue: f64,
    grid: [f64; 3],
    embodied: &EmbodiedFigures,
) -> [Coefficients; 3] {
    let embodied = [embodied.central, embodied.low, embodied.high];
    std::array::from_fn(|i| Coefficients {
        cpu_min_w: cpu[i].min_watts,
        cpu_max_w: cpu[i].max_watts,
        memory_w_per_gb: c.memory_watts_per_gb,
        ssd_w_per_tb: c.ssd_watts_per_tb,
        hdd_w_per_tb: c.hdd_watts_per_tb,
        pue,
        grid_g_per_kwh: Some(grid[i]),
        embodied_g_per_hour: embodied[i] * 1000.0,
    })
}

/// The grid intensity priced, and its low and high ends: the region's figure, the provider's
/// average for a region without one, or for an unknown region the provider's average within the
/// range of its regions.
fn grid_figures(
    provider: Provider,
    region_facts: Option<(&str, lookups::RegionFacts)>,
    notes: &mut Notes,
    notes_wanted: bool,
    warnings: &mut Vec<String>,
) -> Result<(f64, f64, f64), String> {
    let p = provider.as_str();
    Ok(match region_facts {
        Some((region, f)) => {
            let g = match f.grid {
                Some(g) => {
                    notes.add("grid", Some(Table::GridIntensity), || {
                        format!("{p} {region}: {} ({}, via {})", g.source, g.year, g.via)
                    });
                    g.g_co2eq_per_kwh
                }
                None => {
                    let f = data::grid_fallback(provider)
                        .ok_or_else(|| format!("no grid intensity for region {region}"))?;
                    if notes_wanted {
                        warnings.push(format!(
                            "no grid intensity for region {region}: {p} average used"
                        ));
                    }
                    notes.add("grid", Some(Table::GridIntensity), || {
                        format!("{p} fallback ({}, via {})", f.method, f.via)
                    });
                    f.g_co2eq_per_kwh
                }
            };
            (g, g, g)
        }
        None => {
            // Unknown region: the provider's average, within the range of its regions.
            let f = data::grid_fallback(provider)
                .ok_or_else(|| format!("region unknown and no {p} grid average"))?;
            let (lo, hi) =
                lookups::grid_spread(provider).unwrap_or((f.g_co2eq_per_kwh, f.g_co2eq_per_kwh));
            if notes_wanted {
                warnings.push(format!(
                    "region unknown: {p} average grid intensity used, range {}–{} gCO2eq/kWh over its regions",
                    crate::estimate::sig3(lo),
                    crate::estimate::sig3(hi)
                ));
            }
            notes.add("grid", Some(Table::GridIntensity), || {
                format!(
                    "region unknown: {p} fallback ({}, via {}); low and high: its regions' lowest and highest",
                    f.method, f.via
                )
            });
            (f.g_co2eq_per_kwh, lo, hi)
        }
    })
}

/// Embodied kgCO2eq per hour of one instance: central, low and high.
struct EmbodiedFigures {
    central: f64,
    low: f64,
    high: f64,
}

/// The embodied figures of a machine type (its host model row, `data::embodied`), or for vCPUs
/// without a machine type the provider's per-vCPU fallback (one figure; no band).
fn embodied_figures(
    provider: Provider,
    facts: Option<&lookups::TypeFacts>,
    vcpus: f64,
    notes: &mut Notes,
) -> EmbodiedFigures {
    let p = provider.as_str();
    let none = EmbodiedFigures {
        central: 0.0,
        low: 0.0,
        high: 0.0,
    };
    if vcpus <= 0.0 {
        return none;
    }
    if let Some(e) = facts.and_then(|f| f.embodied.as_ref()) {
        notes.add("embodied", Some(Table::Embodied), || {
            format!(
                "{:?}{}: {} kgCO2eq/h (low {}, high {}: the sourced methods' lowest and highest)",
                e.method,
                e.family
                    .as_deref()
                    .map(|f| format!(" (family {f})"))
                    .unwrap_or_default(),
                e.kg_co2eq_per_hour,
                e.kg_co2eq_per_hour_low,
                e.kg_co2eq_per_hour_high
            )
        });
        if let (Some(platform), Some(kg), Some(host)) =
            (&e.platform, e.platform_kg_co2eq, e.host_vcpus)
        {
            notes.add("embodied", Some(Table::Hosts), || {
                let shared = e
                    .server
                    .as_deref()
                    .map(|s| format!("shared host {s} (the same on every cloud); "))
                    .unwrap_or_default();
                format!(
                    "{shared}platform {platform}: {kg} kgCO2eq per host of {host} vCPUs; share by what the instance holds: CPU and chassis {} / {host} vCPU, memory by GB, local disks by TB, GPUs by count",
                    e.vcpus
                )
            });
        }
        return EmbodiedFigures {
            central: e.kg_co2eq_per_hour,
            low: e.kg_co2eq_per_hour_low,
            high: e.kg_co2eq_per_hour_high,
        };
    }
    match data::embodied_fallback_per_vcpu_hour(provider) {
        Some(k) => {
            notes.add("embodied", Some(Table::Embodied), || {
                format!("{p} fallback: {k} kgCO2eq per vCPU-hour × {vcpus} vCPU")
            });
            EmbodiedFigures {
                central: k * vcpus,
                low: k * vcpus,
                high: k * vcpus,
            }
        }
        None => none,
    }
}

/// The CPU utilisation priced: a burstable or shared-core type's published baseline unless
/// `--utilization` was given (said as an assumption), else the setting.
fn utilization_of(
    facts: Option<&lookups::TypeFacts>,
    settings: Settings,
    own: Option<f64>,
    notes_wanted: bool,
    assumptions: &mut Vec<String>,
) -> f64 {
    match facts
        .filter(|_| !settings.utilization_given && own.is_none())
        .and_then(|f| f.baseline.as_ref())
    {
        Some((u, note)) => {
            if notes_wanted {
                assumptions.push(note.clone());
            }
            *u
        }
        None => own.unwrap_or(settings.utilization),
    }
}

/// Why a resource without vCPUs cannot be estimated: only a pure storage resource (a disk) can
/// be; an instance whose machine type is unknown is not estimated from its disks alone. A
/// mapping's "assumed: …" note is not a problem (see `mapping_note`), nor an unknown region
/// (estimated with the provider's range).
fn not_estimable(m: &MappedResource, machine_type: Option<&str>) -> Result<(), String> {
    let has_storage = m.storage.iter().any(|s| s.size_gb > 0.0);
    let problem = m
        .warnings
        .iter()
        .find(|w| *w != REGION_UNKNOWN && !matches!(mapping_note(w), Some((true, _))));
    if machine_type.is_some() || !has_storage || problem.is_some() {
        return Err(match (machine_type, problem) {
            (Some(t), _) => {
                // a wholly sensitive resource (`redact::tainted`) says what it hides
                let whole = m
                    .warnings
                    .iter()
                    .find(|w| w.starts_with(crate::redact::WHOLE));
                match whole {
                    Some(w) if t == crate::redact::SENSITIVE => w.clone(),
                    _ => format!("unknown machine type {t:?}"),
                }
            }
            (None, Some(w)) => mapping_note(w).map_or_else(|| w.clone(), |n| n.1),
            (None, None) => "machine type unknown".to_string(),
        });
    }
    Ok(())
}

/// The GPUs priced: the mapping's, else the instance table's; each model's (min, max) watts.
fn gpu_figures<'a>(
    m: &'a MappedResource,
    table: Option<&'a Instance>,
    notes: &mut Notes,
    notes_wanted: bool,
    warnings: &mut Vec<String>,
) -> (Vec<&'a str>, Vec<(f64, f64)>) {
    let gpu_models: Vec<&str> = if m.gpus.is_empty() {
        table
            .map(|i| {
                i.gpus
                    .iter()
                    .flat_map(|g| std::iter::repeat_n(g.model.as_str(), g.count.max(0.0) as usize))
                    .collect()
            })
            .unwrap_or_default()
    } else {
        m.gpus.iter().map(String::as_str).collect()
    };
    let mut gpus = Vec::new();
    let mut gpu_notes = Vec::new();
    for model in &gpu_models {
        match data::gpu_watts(model) {
            Some(w) => {
                gpus.push((w.min_watts, w.max_watts));
                gpu_notes.push(format!("{model}: {} – {} W", w.min_watts, w.max_watts));
            }
            None if notes_wanted => {
                warnings.push(format!("no power figure for GPU {model}: not counted"))
            }
            None => {}
        }
    }
    if !gpu_notes.is_empty() {
        gpu_notes.dedup();
        notes.add("gpus", Some(Table::Coefficients), || {
            format!("gpus.{}", gpu_notes.join("; "))
        });
    }
    (gpu_models, gpus)
}

/// The resource's SSD and HDD terabytes, as the mapping read them from the plan.
fn storage_tb(m: &MappedResource, notes: &mut Notes) -> (f64, f64) {
    let (mut ssd_tb, mut hdd_tb) = (0.0, 0.0);
    for s in &m.storage {
        match s.kind {
            DiskKind::Ssd => ssd_tb += s.size_gb / 1000.0,
            DiskKind::Hdd => hdd_tb += s.size_gb / 1000.0,
        }
    }
    if !m.storage.is_empty() {
        notes.add("storage", None, || {
            "disk sizes read from the plan by the mapping".into()
        });
    }
    (ssd_tb, hdd_tb)
}

/// Where the CPU, memory, storage watts and the PUE come from.
fn coefficient_notes(
    provider: Provider,
    c: &data::ProviderCoefficients,
    arch: &lookups::ArchFacts,
    pue: f64,
    notes: &mut Notes,
) {
    let p = provider.as_str();
    notes.add("cpu_w", Some(Table::Coefficients), || {
        if arch.known.is_empty() {
            format!(
                "{p} fallback ({} of its microarchitectures); low and high: every microarchitecture's lowest and highest",
                c.cpu_fallback_method
            )
        } else {
            format!(
                "cpuArchitectures {} (CCF: average, or median with Sandy/Ivy Bridge); low and high: their lowest and highest",
                arch.known
            )
        }
    });
    notes.add("memory_w", Some(Table::Coefficients), || {
        format!("providers.{p}.memoryWattsPerGB")
    });
    notes.add("storage_w", Some(Table::Coefficients), || {
        format!("providers.{p}.ssdWattsPerTB / hddWattsPerTB")
    });
    notes.add("pue", Some(Table::Coefficients), || {
        if pue == c.pue {
            format!("providers.{p}.pue")
        } else {
            format!("providers.{p}.pueByRegion")
        }
    });
}
