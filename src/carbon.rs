//! Carbon figures of a plan: joins the mapping engine's resources to the reference data and the
//! estimate arithmetic, and produces the [`Report`] that every output format reads.

use rayon::prelude::*;
use std::collections::HashMap;

use crate::data::{self, Provider};
use crate::estimate::{self, Coefficients, Footprint, Period};
use crate::mapping::{DiskKind, MappedPlan, MappedResource};
use crate::report::{Band, Figures, Report, ResourceReport, Side, Status};

/// How figures are computed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// CPU and GPU utilisation, 0..=1 (`--utilization`).
    pub utilization: f64,
    /// Whether `utilization` was asked for (`--utilization`). When it was not, burstable and
    /// shared-core types run at their provider's published baseline CPU share instead.
    pub utilization_given: bool,
    /// The headline period (`--period`).
    pub period: Period,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            utilization: 0.5,
            utilization_given: false,
            period: Period::Month,
        }
    }
}

/// One resource change of the plan, as the report needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Change<'a> {
    pub address: &'a str,
    pub resource_type: &'a str,
    /// OpenTofu's action names (`create`, `delete`, `update`, `no-op`, `read`, `forget`).
    pub actions: Vec<String>,
}

/// Where one figure of an estimate comes from: what `explain` prints beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct Provenance {
    /// The figure (`vcpus`, `cpu_w`, `grid`, …; the keys `explain` prints).
    pub what: &'static str,
    /// A source id (a data table, `data/<id>.json`), or `plan` for a value the mapping read
    /// from the plan itself.
    pub source: String,
    /// Which entry of the source, and how it was chosen.
    pub detail: String,
}

/// The inputs of one estimated side: what the Impact Framework export and `explain` need to
/// redo the sums.
#[derive(Debug, Clone, PartialEq)]
pub struct Priced {
    pub address: String,
    pub resource_type: String,
    pub provider: String,
    /// `None`: the region is unknown and the provider's range of grid intensities applies.
    pub region: Option<String>,
    pub machine_type: Option<String>,
    pub footprint: Footprint,
    /// The central coefficients.
    pub coefficients: Coefficients,
    /// The coefficients at the low and high ends of the range.
    pub low: Coefficients,
    pub high: Coefficients,
    /// The central CPU/GPU utilisation this resource was priced at, 0..=1 (the setting, or a
    /// burstable type's published baseline); the range spans 10–90 % around it.
    pub utilization: f64,
    /// Instances × replicas.
    pub instances: f64,
    /// Where each figure comes from.
    pub provenance: Vec<Provenance>,
    /// The source ids used, sorted.
    pub sources: Vec<String>,
}

impl Priced {
    /// Low, central and high figures of all instances for one hour.
    pub fn ranged(&self) -> estimate::Ranged {
        estimate::estimate_range(
            &self.footprint,
            &self.low,
            &self.coefficients,
            &self.high,
            self.utilization,
        )
        .scaled(self.instances)
    }
}

/// The report and, for both states, the inputs behind each figure.
#[derive(Debug, Clone)]
pub struct Assessment {
    pub report: Report,
    pub after_inputs: Vec<Priced>,
    /// The before (prior state) side's inputs, for `explain`.
    pub before_inputs: Vec<Priced>,
}

/// A side that could be priced, with the notes it produced.
struct Pricing {
    side: Side,
    priced: Priced,
    warnings: Vec<String>,
    assumptions: Vec<String>,
}

/// The instance table a machine type was found in, and its source id.
fn lookup(provider: Provider, t: &str) -> Option<(data::Instance, &'static str)> {
    let id = match provider {
        Provider::Aws => "aws_instances",
        Provider::Gcp => "gcp_instances",
        Provider::Azure => "azure_instances",
    };
    let sql = |t: &str| data::gcp_sql_tier(t).map(|i| (i, "gcp_sql_tiers"));
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
fn hand_table(resource_type: &str, machine_type: &str) -> Option<(&'static str, String)> {
    let id = match resource_type {
        "aws_redshift_cluster" => "aws_redshift_nodes",
        "azurerm_service_plan" | "azurerm_app_service_plan" => "azure_app_service_plans",
        "azurerm_redis_cache" => "azure_redis_cache_sizes",
        _ => return None,
    };
    let key = machine_type.rsplit(' ').next()?;
    let rows: serde_json::Value =
        serde_json::from_str(data::json_file(&format!("{id}.json"))?).ok()?;
    rows.get(key).map(|_| (id, key.to_string()))
}

/// The lowest and highest per-vCPU watts among the microarchitectures that could apply: the
/// listed ones with a figure, or every one in the table when none is known.
fn cpu_spread(archs: &[String], central: data::PowerRange) -> (data::PowerRange, data::PowerRange) {
    let mut known: Vec<data::PowerRange> = archs
        .iter()
        .filter_map(|a| data::architecture_watts(a))
        .collect();
    if known.is_empty() {
        known = data::architectures()
            .into_iter()
            .filter_map(data::architecture_watts)
            .collect();
    }
    let fold = |f: fn(&data::PowerRange) -> f64, pick: fn(f64, f64) -> f64, start: f64| {
        known.iter().map(f).fold(start, pick)
    };
    let low = data::PowerRange {
        min_watts: fold(|w| w.min_watts, f64::min, central.min_watts),
        max_watts: fold(|w| w.max_watts, f64::min, central.max_watts),
    };
    let high = data::PowerRange {
        min_watts: fold(|w| w.min_watts, f64::max, central.min_watts),
        max_watts: fold(|w| w.max_watts, f64::max, central.max_watts),
    };
    (low, high)
}

/// The lowest and highest grid intensity among a provider's regions.
fn grid_spread(provider: Provider) -> Option<(f64, f64)> {
    let v: Vec<f64> = data::regions(provider)
        .into_iter()
        .filter_map(|r| data::grid_intensity(provider, r).map(|g| g.g_co2eq_per_kwh))
        .collect();
    let lo = v.iter().copied().reduce(f64::min)?;
    let hi = v.iter().copied().reduce(f64::max)?;
    Some((lo, hi))
}

/// The warning the mapping engine leaves on a resource whose region it could not find.
pub const REGION_UNKNOWN: &str = "region unknown";

/// Prices one mapped resource: its footprint, coefficients and hourly figures; `Err` says why it
/// could not be estimated.
fn price(m: &MappedResource, settings: Settings) -> Result<Pricing, String> {
    let provider =
        Provider::parse(&m.provider).ok_or_else(|| format!("unknown provider {:?}", m.provider))?;
    let mut warnings = Vec::new();
    let mut prov: Vec<Provenance> = Vec::new();
    let mut note = |what: &'static str, source: &str, detail: String| {
        prov.push(Provenance {
            what,
            source: source.to_string(),
            detail,
        })
    };
    let found = m.machine_type.as_deref().and_then(|t| lookup(provider, t));
    let table = found.as_ref().map(|(i, _)| i);
    let table_id = found.as_ref().map(|(_, id)| *id);
    let mut assumptions = Vec::new();
    // A burstable or shared-core type runs at its published baseline unless asked otherwise.
    let baseline = m
        .machine_type
        .as_deref()
        .filter(|_| !settings.utilization_given)
        .and_then(|t| data::baseline_utilization(provider, t).map(|u| (t, u)));
    let utilization = match baseline {
        Some((t, u)) => {
            assumptions.push(format!(
                "CPU utilisation {} % ({t}'s published baseline; --utilization overrides)",
                crate::render::carbon::trim_num(u * 100.0)
            ));
            u
        }
        None => settings.utilization,
    };
    let vcpus = m.vcpus.or(table.map(|i| i.vcpus));
    let has_storage = m.storage.iter().any(|s| s.size_gb > 0.0);
    // Without vCPUs, only a pure storage resource (a disk) can be estimated: an instance
    // whose machine type is unknown is not estimated from its disks alone.
    // a mapping's "assumed: …" note is not a problem (see `mapping_note`), nor an unknown
    // region (estimated below with the provider's range)
    let mut problems = m
        .warnings
        .iter()
        .filter(|w| *w != REGION_UNKNOWN && !matches!(mapping_note(w), Some((true, _))));
    let problem = problems.next();
    if vcpus.is_none() && (m.machine_type.is_some() || !has_storage || problem.is_some()) {
        return Err(match (&m.machine_type, problem) {
            (Some(t), _) => format!("unknown machine type {t:?}"),
            (None, Some(w)) => mapping_note(w).map_or_else(|| w.clone(), |n| n.1),
            (None, None) => "machine type unknown".to_string(),
        });
    }
    // Where a shape figure comes from: the instance table when it holds that value (the
    // mappings read it from the same table), else the plan (read by the mapping).
    let origin = |in_table: bool| match (in_table, table_id, &m.machine_type) {
        (true, Some(id), Some(t)) => (id, format!("machine type {t}")),
        _ => ("plan", "read from the plan by the mapping".to_string()),
    };
    // A shape the mapping read from a hand table is credited to that table, not to the plan.
    let hand = table_id
        .is_none()
        .then(|| hand_table(&m.resource_type, m.machine_type.as_deref()?))
        .flatten();
    let origin_shape = |in_table: bool| match &hand {
        Some((id, key)) => (*id, format!("row {key}, read by the mapping")),
        None => origin(in_table),
    };
    let (src, detail) = origin_shape(m.vcpus.is_none() || m.vcpus == table.map(|i| i.vcpus));
    if vcpus.is_some() {
        note("vcpus", src, detail);
    }
    let vcpus = vcpus.unwrap_or(0.0);
    let memory_gb = m.memory_gb.or(table.map(|i| i.memory_gib)).unwrap_or(0.0);
    let (src, detail) =
        origin_shape(m.memory_gb.is_none() || m.memory_gb == table.map(|i| i.memory_gib));
    note("memory_gb", src, detail);
    let archs: Vec<String> = if m.cpu_types.is_empty() {
        table
            .map(|i| i.cpu_architectures.clone())
            .unwrap_or_default()
    } else {
        m.cpu_types.clone()
    };
    let (src, detail) = origin(table.is_some_and(|i| i.cpu_architectures == archs));
    note(
        "cpu_architectures",
        src,
        format!("{} ({detail})", archs.join(", ")),
    );
    let gpu_models: Vec<String> = if m.gpus.is_empty() {
        table
            .map(|i| {
                i.gpus
                    .iter()
                    .flat_map(|g| std::iter::repeat_n(g.model.clone(), g.count.max(0.0) as usize))
                    .collect()
            })
            .unwrap_or_default()
    } else {
        m.gpus.clone()
    };
    let mut gpus = Vec::new();
    let mut gpu_notes = Vec::new();
    for model in &gpu_models {
        match data::gpu_watts(model) {
            Some(w) => {
                gpus.push((w.min_watts, w.max_watts));
                gpu_notes.push(format!("{model}: {} – {} W", w.min_watts, w.max_watts));
            }
            None => warnings.push(format!("no power figure for GPU {model}: not counted")),
        }
    }
    if !gpu_notes.is_empty() {
        gpu_notes.dedup();
        note(
            "gpus",
            "coefficients",
            format!("gpus.{}", gpu_notes.join("; ")),
        );
    }
    let (mut ssd_tb, mut hdd_tb) = (0.0, 0.0);
    for s in &m.storage {
        match s.kind {
            DiskKind::Ssd => ssd_tb += s.size_gb / 1000.0,
            DiskKind::Hdd => hdd_tb += s.size_gb / 1000.0,
        }
    }
    if !m.storage.is_empty() {
        note(
            "storage",
            "plan",
            "disk sizes read from the plan by the mapping".into(),
        );
    }
    let p = provider.as_str();
    let (grid, grid_low, grid_high) = match &m.region {
        Some(region) => {
            let g = match data::grid_intensity(provider, region) {
                Some(g) => {
                    note(
                        "grid",
                        "grid_intensity",
                        format!("{p} {region}: {} ({}, via {})", g.source, g.year, g.via),
                    );
                    g.g_co2eq_per_kwh
                }
                None => {
                    let f = data::grid_fallback(provider)
                        .ok_or_else(|| format!("no grid intensity for region {region}"))?;
                    warnings.push(format!(
                        "no grid intensity for region {region}: {p} average used"
                    ));
                    note(
                        "grid",
                        "grid_intensity",
                        format!("{p} fallback ({}, via {})", f.method, f.via),
                    );
                    f.g_co2eq_per_kwh
                }
            };
            (g, g, g)
        }
        None => {
            // Unknown region: the provider's average, within the range of its regions.
            let f = data::grid_fallback(provider)
                .ok_or_else(|| format!("region unknown and no {p} grid average"))?;
            let (lo, hi) = grid_spread(provider).unwrap_or((f.g_co2eq_per_kwh, f.g_co2eq_per_kwh));
            warnings.push(format!(
                "region unknown: {p} average grid intensity used, range {}–{} gCO2eq/kWh over its regions",
                crate::estimate::sig3(lo),
                crate::estimate::sig3(hi)
            ));
            note(
                "grid",
                "grid_intensity",
                format!(
                    "region unknown: {p} fallback ({}, via {}); low and high: its regions' lowest and highest",
                    f.method, f.via
                ),
            );
            (f.g_co2eq_per_kwh, lo, hi)
        }
    };
    let c = data::coefficients(provider).ok_or_else(|| format!("no coefficients for {p}"))?;
    let cpu = data::cpu_watts_per_vcpu(provider, &archs)
        .ok_or_else(|| format!("no CPU power figure for {p}"))?;
    let (cpu_low, cpu_high) = cpu_spread(&archs, cpu);
    let known_archs: Vec<&str> = archs
        .iter()
        .filter(|a| data::architecture_watts(a).is_some())
        .map(|a| data::canonical_architecture(a))
        .collect();
    note(
        "cpu_w",
        "coefficients",
        if known_archs.is_empty() {
            format!(
                "{p} fallback ({} of its microarchitectures); low and high: every microarchitecture's lowest and highest",
                c.cpu_fallback_method
            )
        } else {
            format!(
                "cpuArchitectures {} (CCF: average, or median with Sandy/Ivy Bridge); low and high: their lowest and highest",
                known_archs.join(", ")
            )
        },
    );
    let pue = m
        .region
        .as_deref()
        .and_then(|r| data::pue_in_region(provider, r))
        .unwrap_or(c.pue);
    note(
        "memory_w",
        "coefficients",
        format!("providers.{p}.memoryWattsPerGB"),
    );
    note(
        "storage_w",
        "coefficients",
        format!("providers.{p}.ssdWattsPerTB / hddWattsPerTB"),
    );
    note(
        "pue",
        "coefficients",
        if pue == c.pue {
            format!("providers.{p}.pue")
        } else {
            format!("providers.{p}.pueByRegion")
        },
    );
    let embodied = match m.machine_type.as_deref() {
        Some(t) if vcpus > 0.0 => data::embodied(provider, t),
        _ => None,
    };
    let embodied_kg_per_hour = match (&embodied, vcpus > 0.0) {
        (Some(e), _) => {
            note(
                "embodied",
                "embodied",
                format!(
                    "{:?}{}: {} kgCO2eq/h",
                    e.method,
                    e.family
                        .as_deref()
                        .map(|f| format!(" (family {f})"))
                        .unwrap_or_default(),
                    e.kg_co2eq_per_hour
                ),
            );
            if let (Some(platform), Some(kg), Some(host)) =
                (&e.platform, e.platform_kg_co2eq, e.host_vcpus)
            {
                note(
                    "embodied",
                    "hosts",
                    format!(
                        "platform {platform}: {kg} kgCO2eq per host of {host} vCPUs; share {} / {host} vCPU",
                        e.vcpus
                    ),
                );
            }
            e.kg_co2eq_per_hour
        }
        (None, true) => match data::embodied_fallback_per_vcpu_hour(provider) {
            Some(k) => {
                note(
                    "embodied",
                    "embodied",
                    format!("{p} fallback: {k} kgCO2eq per vCPU-hour × {vcpus} vCPU"),
                );
                k * vcpus
            }
            None => 0.0,
        },
        (None, false) => 0.0,
    };
    let coefficients = Coefficients {
        cpu_min_w: cpu.min_watts,
        cpu_max_w: cpu.max_watts,
        memory_w_per_gb: c.memory_watts_per_gb,
        ssd_w_per_tb: c.ssd_watts_per_tb,
        hdd_w_per_tb: c.hdd_watts_per_tb,
        pue,
        grid_g_per_kwh: Some(grid),
        embodied_g_per_hour: embodied_kg_per_hour * 1000.0,
    };
    let low = Coefficients {
        cpu_min_w: cpu_low.min_watts,
        cpu_max_w: cpu_low.max_watts,
        grid_g_per_kwh: Some(grid_low),
        ..coefficients.clone()
    };
    let high = Coefficients {
        cpu_min_w: cpu_high.min_watts,
        cpu_max_w: cpu_high.max_watts,
        grid_g_per_kwh: Some(grid_high),
        ..coefficients.clone()
    };
    let footprint = Footprint {
        vcpus,
        memory_gb,
        ssd_tb,
        hdd_tb,
        gpus,
    };
    let instances = f64::from(m.count) * f64::from(m.replication_factor.max(1));
    let mut sources: Vec<String> = prov
        .iter()
        .map(|p| p.source.clone())
        .filter(|s| s != "plan")
        .collect();
    sources.sort();
    sources.dedup();
    let priced = Priced {
        address: m.address.clone(),
        resource_type: m.resource_type.clone(),
        provider: p.to_string(),
        region: m.region.clone(),
        machine_type: m.machine_type.clone(),
        footprint,
        coefficients,
        low,
        high,
        utilization,
        instances,
        provenance: prov,
        sources,
    };
    let r = priced.ranged();
    let side = Side {
        provider: p.to_string(),
        region: m.region.clone(),
        grid_g_per_kwh: Some(grid),
        machine_type: m.machine_type.clone(),
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
        sources: priced.sources.clone(),
    };
    Ok(Pricing {
        side,
        priced,
        warnings,
        assumptions,
    })
}

/// One mapped resource priced on its own, as `assess` prices each side: its side, or `None`
/// when it cannot be estimated. Alternatives and what-if scenarios re-run this over a copy of
/// the resource with its region or type substituted (`crate::alternatives`).
pub(crate) fn price_side(m: &MappedResource, settings: Settings) -> Option<Side> {
    price(m, settings).ok().map(|p| p.side)
}

/// A note a mapping writes with a validator that fails on purpose (docs/mappings.md, "Notes
/// from a mapping"): the engine reports it as `validator: "assumed: …"` or
/// `validator: "unsupported: …"`. Returns (is an assumption, the text without the wrapper).
fn mapping_note(w: &str) -> Option<(bool, String)> {
    let text: String = serde_json::from_str(w.strip_prefix("validator: ")?).ok()?;
    if let Some(a) = text.strip_prefix("assumed: ") {
        Some((true, a.to_string()))
    } else {
        text.starts_with("unsupported: ").then_some((false, text))
    }
}

/// `Unsupported` for a reason the mapping gave as `unsupported: …` (a type no sourced method
/// covers), `NotEstimated` for any other (a figure was missing).
fn status_of(reason: String) -> Status {
    match reason.strip_prefix("unsupported: ") {
        Some(why) => Status::Unsupported {
            reason: why.to_string(),
        },
        None => Status::NotEstimated { reason },
    }
}

fn push_unique(into: &mut Vec<String>, items: impl IntoIterator<Item = String>) {
    for i in items {
        if !into.contains(&i) {
            into.push(i);
        }
    }
}

/// Builds the report of a plan from its resource changes (in plan order) and what the mapping
/// engine found before and after. Mapped resources that no change names (a state document, or a
/// plan that leaves out no-op changes) are reported as unchanged.
pub fn assess(changes: &[Change<'_>], mapped: &MappedPlan, settings: Settings) -> Assessment {
    assess_keeping(changes, mapped, settings, true)
}

/// [`assess`]; with `keep_inputs` false, `after_inputs` and `before_inputs` stay empty (only the
/// Impact Framework export and `explain` read them: for the other outputs, 50k resources'
/// inputs cost 40 MB at the run's peak).
pub fn assess_keeping(
    changes: &[Change<'_>],
    mapped: &MappedPlan,
    settings: Settings,
    keep_inputs: bool,
) -> Assessment {
    let before: HashMap<&str, &MappedResource> = mapped
        .before
        .iter()
        .map(|m| (m.address.as_str(), m))
        .collect();
    let after: HashMap<&str, &MappedResource> = mapped
        .after
        .iter()
        .map(|m| (m.address.as_str(), m))
        .collect();
    let mut order: Vec<(String, String, Vec<String>)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for c in changes {
        if (before.contains_key(c.address) || after.contains_key(c.address))
            && seen.insert(c.address.to_string())
        {
            order.push((
                c.address.to_string(),
                c.resource_type.to_string(),
                c.actions.clone(),
            ));
        }
    }
    for m in mapped.after.iter().chain(mapped.before.iter()) {
        if seen.insert(m.address.clone()) {
            let in_both =
                before.contains_key(m.address.as_str()) && after.contains_key(m.address.as_str());
            let actions = if in_both || changes.is_empty() {
                vec!["no-op".to_string()]
            } else if after.contains_key(m.address.as_str()) {
                vec!["create".to_string()]
            } else {
                vec!["delete".to_string()]
            };
            order.push((m.address.clone(), m.resource_type.clone(), actions));
        }
    }

    // Each resource is priced on its own: in parallel, in the plan's order.
    #[allow(clippy::type_complexity)]
    let (resources, inputs): (Vec<ResourceReport>, Vec<(Option<Priced>, Option<Priced>)>) = order
        .into_par_iter()
        .map(|(address, resource_type, actions)| {
            let forget = actions.iter().any(|a| a == "forget");
            let b = before.get(address.as_str()).copied();
            // A forgotten resource keeps running outside OpenTofu: its emissions do not change.
            let a = if forget {
                b
            } else {
                after.get(address.as_str()).copied()
            };
            // An unchanged resource seen on one side only (a state document's `values`, or a no-op
            // change whose prior state is left out) runs the same before and after: it adds nothing.
            let unchanged = actions.iter().all(|a| a == "no-op");
            let (b, a) = if unchanged {
                (b.or(a), a.or(b))
            } else {
                (b, a)
            };
            let pb = b.map(|m| price(m, settings));
            let pa = a.map(|m| price(m, settings));
            let reason = match (&pb, &pa) {
                (_, Some(Err(r))) | (Some(Err(r)), None) => Some(r.clone()),
                _ => None,
            };
            let mut warnings = Vec::new();
            let mut assumptions = Vec::new();
            for m in [b, a].into_iter().flatten() {
                for w in &m.warnings {
                    // pricing says how an unknown region was estimated: its warning replaces
                    // this one
                    if w == REGION_UNKNOWN {
                        continue;
                    }
                    match mapping_note(w) {
                        Some((true, a)) => push_unique(&mut assumptions, [a]),
                        Some((false, u)) => push_unique(&mut warnings, [u]),
                        None => push_unique(&mut warnings, [w.clone()]),
                    }
                }
                push_unique(&mut assumptions, m.assumed.iter().cloned());
            }
            for p in [&pb, &pa].into_iter().flatten().flatten() {
                push_unique(&mut warnings, p.warnings.iter().cloned());
                push_unique(&mut assumptions, p.assumptions.iter().cloned());
            }
            let mut inputs = (None, None);
            let mut r = match reason {
                // An update whose after side is not known (a machine type known only after
                // apply) keeps its before figures; its delta is unknown, not −before.
                Some(reason) if matches!(pb, Some(Ok(_))) => {
                    let bs = pb.and_then(Result::ok).expect("matched Ok");
                    if keep_inputs {
                        inputs.0 = Some(bs.priced);
                    }
                    let mut r =
                        ResourceReport::new(address, resource_type, actions, Some(bs.side), None);
                    r.status = Status::NotEstimated { reason };
                    r.delta_per_hour = Figures::default();
                    r.delta_range_per_hour = Band::default();
                    r
                }
                Some(reason) => {
                    let mut r = ResourceReport::new(address, resource_type, actions, None, None);
                    r.status = status_of(reason);
                    r
                }
                None => {
                    let (bs, as_) = (pb.and_then(Result::ok), pa.and_then(Result::ok));
                    let (bs, bp) = bs.map(|p| (p.side, p.priced)).unzip();
                    let (as_, ap) = as_.map(|p| (p.side, p.priced)).unzip();
                    if keep_inputs {
                        inputs = (bp, ap);
                    }
                    ResourceReport::new(address, resource_type, actions, bs, as_)
                }
            };
            r.warnings = warnings;
            r.assumptions = assumptions;
            (r, inputs)
        })
        .unzip();
    let mut after_inputs = Vec::new();
    let mut before_inputs = Vec::new();
    for (before, after) in inputs {
        before_inputs.extend(before);
        after_inputs.extend(after);
    }
    let report = Report::new(
        resources,
        mapped.unsupported.clone(),
        mapped.ignored.len(),
        settings.utilization,
        settings.period,
    );
    Assessment {
        report,
        after_inputs,
        before_inputs,
    }
}

#[cfg(test)]
mod tests;
