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
    let (src, detail) = origin(m.vcpus.is_none() || m.vcpus == table.map(|i| i.vcpus));
    if vcpus.is_some() {
        note("vcpus", src, detail);
    }
    let vcpus = vcpus.unwrap_or(0.0);
    let memory_gb = m.memory_gb.or(table.map(|i| i.memory_gib)).unwrap_or(0.0);
    let (src, detail) = origin(m.memory_gb.is_none() || m.memory_gb == table.map(|i| i.memory_gib));
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
    let priced: Vec<(ResourceReport, (Option<Priced>, Option<Priced>))> = order
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
                    inputs.0 = Some(bs.priced.clone());
                    let mut r =
                        ResourceReport::new(address, resource_type, actions, Some(bs.side), None);
                    r.status = Status::NotEstimated { reason };
                    r.delta_per_hour = Figures::default();
                    r.delta_range_per_hour = Band::default();
                    r
                }
                Some(reason) => {
                    let mut r = ResourceReport::new(address, resource_type, actions, None, None);
                    r.status = Status::NotEstimated { reason };
                    r
                }
                None => {
                    let bs = pb.and_then(Result::ok);
                    let as_ = pa.and_then(Result::ok);
                    inputs = (
                        bs.as_ref().map(|p| p.priced.clone()),
                        as_.as_ref().map(|p| p.priced.clone()),
                    );
                    ResourceReport::new(
                        address,
                        resource_type,
                        actions,
                        bs.map(|p| p.side),
                        as_.map(|p| p.side),
                    )
                }
            };
            r.warnings = warnings;
            r.assumptions = assumptions;
            (r, inputs)
        })
        .collect();
    let mut resources = Vec::with_capacity(priced.len());
    let mut after_inputs = Vec::new();
    let mut before_inputs = Vec::new();
    for (r, (before, after)) in priced {
        resources.push(r);
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
mod tests {
    use super::*;
    use crate::mapping::Storage;

    #[test]
    fn mapping_notes_lose_the_validator_wrapper() {
        let n = mapping_note(r#"validator: "assumed: one instance busy all hour""#);
        assert_eq!(n, Some((true, "one instance busy all hour".to_string())));
        let n = mapping_note(r#"validator: "unsupported: size not in the plan""#);
        assert_eq!(
            n,
            Some((false, "unsupported: size not in the plan".to_string()))
        );
        // any other validator failure or warning stays as it is
        assert_eq!(mapping_note(r#"validator: "not a number""#), None);
        assert_eq!(mapping_note("region unknown"), None);
        // an assumption note is not a reason to leave a storage-only resource unestimated
        let disk = MappedResource {
            address: "aws_fsx_lustre_file_system.f".into(),
            resource_type: "aws_fsx_lustre_file_system".into(),
            provider: "aws".into(),
            region: Some("us-east-1".into()),
            storage: vec![Storage {
                size_gb: 100.0,
                kind: DiskKind::Ssd,
                key: None,
            }],
            count: 1,
            replication_factor: 1,
            warnings: vec![r#"validator: "assumed: x""#.into()],
            ..Default::default()
        };
        assert!(price(&disk, Settings::default()).is_ok());
        let bucket = MappedResource {
            storage: vec![],
            warnings: vec![
                r#"validator: "unsupported: the amount stored is not in the plan""#.into(),
            ],
            ..disk
        };
        assert_eq!(
            price(&bucket, Settings::default()).err().as_deref(),
            Some("unsupported: the amount stored is not in the plan")
        );
    }

    fn m5(address: &str, region: Option<&str>) -> MappedResource {
        MappedResource {
            address: address.into(),
            resource_type: "aws_instance".into(),
            name: "x".into(),
            provider: "aws".into(),
            region: region.map(Into::into),
            machine_type: Some("m5.large".into()),
            vcpus: Some(2.0),
            memory_gb: Some(8.0),
            storage: vec![Storage {
                size_gb: 100.0,
                kind: DiskKind::Ssd,
                key: None,
            }],
            count: 1,
            replication_factor: 1,
            ..MappedResource::default()
        }
    }

    fn change<'a>(address: &'a str, actions: &[&str]) -> Change<'a> {
        Change {
            address,
            resource_type: "aws_instance",
            actions: actions.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn m5_large_in_us_east_1_by_hand() {
        // CCF figures pinned in data/: m5.large (Skylake per CCF's table), us-east-1 379.069 g/kWh,
        // AWS PUE 1.135, memory 0.392 W/GB, SSD 1.2 W/TB; 50 % utilisation.
        let plan = MappedPlan {
            after: vec![m5("aws_instance.web", Some("us-east-1"))],
            ..MappedPlan::default()
        };
        let a = assess(
            &[change("aws_instance.web", &["create"])],
            &plan,
            Settings::default(),
        );
        let r = &a.report.resources[0];
        let side = r.after.as_ref().unwrap();
        let cpu = data::cpu_watts_per_vcpu(
            Provider::Aws,
            &data::instance(Provider::Aws, "m5.large")
                .unwrap()
                .cpu_architectures,
        )
        .unwrap();
        let it_w =
            2.0 * (cpu.min_watts + 0.5 * (cpu.max_watts - cpu.min_watts)) + 8.0 * 0.392 + 0.1 * 1.2;
        let g = it_w / 1000.0 * 1.135 * 379.069;
        assert!(
            (side.per_hour.operational_gco2eq - g).abs() < 1e-9,
            "{side:?}"
        );
        // embodied: CCF's m5 family figure, 0.699 kg per 730 h
        assert!(
            (side.per_hour.embodied_gco2eq * 730.0 - 699.0).abs() < 1.0,
            "{side:?}"
        );
        assert_eq!(a.report.totals.delta_per_hour, side.per_hour);
        assert_eq!(a.after_inputs.len(), 1);
    }

    #[test]
    fn unknown_region_is_estimated_with_the_provider_range_unknown_type_is_not() {
        let mut odd = m5("aws_instance.odd", Some("us-east-1"));
        odd.machine_type = Some("zz.huge".into());
        odd.vcpus = None;
        odd.memory_gb = None;
        odd.storage.clear();
        let mut nowhere = m5("aws_instance.nowhere", None);
        nowhere.warnings.push(REGION_UNKNOWN.into());
        let plan = MappedPlan {
            after: vec![nowhere, odd],
            ..MappedPlan::default()
        };
        let a = assess(
            &[
                change("aws_instance.nowhere", &["create"]),
                change("aws_instance.odd", &["create"]),
            ],
            &plan,
            Settings::default(),
        );
        let [nowhere, odd] = &a.report.resources[..] else {
            panic!("two resources")
        };
        assert_eq!(nowhere.status, Status::Estimated);
        assert_eq!(
            odd.status,
            Status::NotEstimated {
                reason: "unknown machine type \"zz.huge\"".into()
            }
        );
        // central: CCF's unknown-region factor; low and high: the lowest and highest AWS region
        let side = nowhere.after.as_ref().unwrap();
        let fallback = data::grid_fallback(Provider::Aws).unwrap().g_co2eq_per_kwh;
        assert_eq!(side.grid_g_per_kwh, Some(fallback));
        assert_eq!(side.region, None);
        let grids: Vec<f64> = data::regions(Provider::Aws)
            .into_iter()
            .map(|r| {
                data::grid_intensity(Provider::Aws, r)
                    .unwrap()
                    .g_co2eq_per_kwh
            })
            .collect();
        let (lo, hi) = (
            grids.iter().copied().fold(f64::MAX, f64::min),
            grids.iter().copied().fold(f64::MIN, f64::max),
        );
        let p = &a.after_inputs[0];
        assert_eq!(p.low.grid_g_per_kwh, Some(lo));
        assert_eq!(p.high.grid_g_per_kwh, Some(hi));
        assert!(lo < fallback && fallback < hi);
        let band = side.range_per_hour;
        assert!(band.low.operational_gco2eq < side.per_hour.operational_gco2eq);
        assert!(side.per_hour.operational_gco2eq < band.high.operational_gco2eq);
        // the engine's bare "region unknown" gives way to what was done about it
        assert_eq!(nowhere.warnings.len(), 1, "{:?}", nowhere.warnings);
        assert!(nowhere.warnings[0].starts_with("region unknown: aws average grid intensity used"));
        assert_eq!(a.report.counts.not_estimated, 1);
    }

    #[test]
    fn an_update_to_a_machine_type_known_after_apply_keeps_its_before_figures() {
        let before = m5("aws_instance.grow", Some("us-east-1"));
        let mut after = before.clone();
        after.machine_type = None;
        after.vcpus = None;
        after.memory_gb = None;
        after.warnings = vec!["instance_type known after apply".into()];
        let plan = MappedPlan {
            before: vec![before],
            after: vec![after],
            ..MappedPlan::default()
        };
        let a = assess(
            &[change("aws_instance.grow", &["update"])],
            &plan,
            Settings::default(),
        );
        let r = &a.report.resources[0];
        assert!(matches!(r.status, Status::NotEstimated { .. }), "{r:?}");
        let b = r.before.as_ref().expect("before kept");
        assert!(b.per_hour.total_gco2eq > 0.0);
        assert_eq!(r.after, None);
        assert_eq!(r.delta_per_hour, Figures::default());
        let t = &a.report.totals;
        assert_eq!(t.before_per_hour, b.per_hour);
        assert_eq!(t.after_per_hour, b.per_hour);
        assert_eq!(t.delta_per_hour.total_gco2eq, 0.0);
        assert_eq!(a.before_inputs.len(), 1);
        assert!(a.after_inputs.is_empty());
    }

    #[test]
    fn sources_name_every_table_used_and_the_band_brackets_the_centre() {
        let plan = MappedPlan {
            after: vec![m5("aws_instance.web", Some("us-east-1"))],
            ..MappedPlan::default()
        };
        let a = assess(
            &[change("aws_instance.web", &["create"])],
            &plan,
            Settings::default(),
        );
        let side = a.report.resources[0].after.as_ref().unwrap();
        assert_eq!(
            side.sources,
            [
                "aws_instances",
                "coefficients",
                "embodied",
                "grid_intensity",
                // the host platform the embodied share is taken of (data/hosts.json)
                "hosts"
            ]
        );
        let (lo, c, hi) = (
            side.range_per_hour.low,
            side.per_hour,
            side.range_per_hour.high,
        );
        assert!(lo.total_gco2eq < c.total_gco2eq && c.total_gco2eq < hi.total_gco2eq);
        // a known region: the grid does not spread, and embodied is one figure
        let p = &a.after_inputs[0];
        assert_eq!(p.low.grid_g_per_kwh, p.coefficients.grid_g_per_kwh);
        assert_eq!(lo.embodied_gco2eq, c.embodied_gco2eq);
        // every source id is a table with its .source.json
        for id in &side.sources {
            assert!(
                data::json_file(&format!("{id}.source.json")).is_some(),
                "{id}"
            );
        }
    }

    #[test]
    fn replicas_and_count_multiply_once_and_delete_saves() {
        let mut db = m5("aws_db_instance.db", Some("eu-west-1"));
        db.count = 3;
        db.replication_factor = 2;
        let single = m5("aws_db_instance.db", Some("eu-west-1"));
        let plan = MappedPlan {
            before: vec![single.clone()],
            after: vec![db],
            ..MappedPlan::default()
        };
        let a = assess(
            &[change("aws_db_instance.db", &["update"])],
            &plan,
            Settings::default(),
        );
        let r = &a.report.resources[0];
        let (b, af) = (r.before.as_ref().unwrap(), r.after.as_ref().unwrap());
        assert_eq!(af.instances, 6.0);
        assert!((af.per_hour.total_gco2eq - 6.0 * b.per_hour.total_gco2eq).abs() < 1e-9);
        assert!((r.delta_per_hour.total_gco2eq - 5.0 * b.per_hour.total_gco2eq).abs() < 1e-9);

        let gone = MappedPlan {
            before: vec![single],
            ..MappedPlan::default()
        };
        let d = assess(
            &[change("aws_db_instance.db", &["delete"])],
            &gone,
            Settings::default(),
        );
        assert!(d.report.totals.delta_per_hour.total_gco2eq < 0.0);
        assert!(
            crate::render::carbon::annotation(&d.report.resources[0], Period::Month)[0]
                .starts_with("≈ -"),
            "a delete saves"
        );
    }

    #[test]
    fn forget_changes_nothing() {
        let m = m5("aws_instance.kept", Some("us-east-1"));
        let plan = MappedPlan {
            before: vec![m],
            ..MappedPlan::default()
        };
        let a = assess(
            &[change("aws_instance.kept", &["forget"])],
            &plan,
            Settings::default(),
        );
        assert_eq!(a.report.totals.delta_per_hour.total_gco2eq, 0.0);
        assert!(a.report.totals.after_per_hour.total_gco2eq > 0.0);
    }

    #[test]
    fn state_document_resources_are_unchanged_not_added() {
        // a state document: the mapping engine reads `values` as the after side only
        let plan = MappedPlan {
            after: vec![m5("aws_instance.web", Some("us-east-1"))],
            ..MappedPlan::default()
        };
        let a = assess(&[], &plan, Settings::default());
        let r = &a.report.resources[0];
        assert_eq!(r.actions, ["no-op"]);
        assert_eq!(r.before, r.after);
        assert!(r.after.is_some());
        assert_eq!(r.delta_per_hour.total_gco2eq, 0.0);
        assert_eq!(a.report.totals.delta_per_hour.total_gco2eq, 0.0);
        assert_eq!(
            a.report.totals.before_per_hour,
            a.report.totals.after_per_hour
        );
        assert!(a.report.totals.after_per_hour.total_gco2eq > 0.0);
        // a no-op change whose prior state is missing is unchanged too
        let b = assess(
            &[change("aws_instance.web", &["no-op"])],
            &plan,
            Settings::default(),
        );
        assert_eq!(b.report.totals.delta_per_hour.total_gco2eq, 0.0);
    }

    #[test]
    fn unmapped_gpu_is_a_warning_not_zero_silently() {
        let mut g = m5("google_compute_instance.g", Some("us-central1"));
        g.provider = "gcp".into();
        g.machine_type = Some("g2-standard-4".into());
        // A model no table knows (a plan's guest_accelerator can name anything).
        g.gpus = vec!["acme-x1".into()];
        let plan = MappedPlan {
            after: vec![g],
            ..MappedPlan::default()
        };
        let a = assess(
            &[change("google_compute_instance.g", &["create"])],
            &plan,
            Settings::default(),
        );
        let r = &a.report.resources[0];
        assert_eq!(r.status, Status::Estimated);
        assert!(
            r.warnings.iter().any(|w| w.contains("acme-x1")),
            "{:?}",
            r.warnings
        );
    }

    /// One VM of a table type, everything else from the tables.
    fn vm(provider: &str, machine_type: &str, region: &str) -> MappedResource {
        MappedResource {
            address: format!("vm.{machine_type}"),
            resource_type: "vm".into(),
            name: "x".into(),
            provider: provider.into(),
            region: Some(region.into()),
            machine_type: Some(machine_type.into()),
            count: 1,
            replication_factor: 1,
            ..MappedResource::default()
        }
    }

    fn per_hour(m: MappedResource, settings: Settings) -> (Figures, Vec<String>, Vec<String>) {
        let address = m.address.clone();
        let plan = MappedPlan {
            after: vec![m],
            ..MappedPlan::default()
        };
        let a = assess(&[change(&address, &["create"])], &plan, settings);
        let r = &a.report.resources[0];
        assert_eq!(r.status, Status::Estimated, "{address}: {r:?}");
        (
            r.after.as_ref().unwrap().per_hour,
            r.warnings.clone(),
            r.assumptions.clone(),
        )
    }

    /// Issue 16: CCF's rule charged a burstable family's largest size (t3.2xlarge, 8 vCPU) as a
    /// whole server, so a t3.medium cost 14.2 g/h against 4.43 for an m5.large. By host, each
    /// burstable 2-vCPU type costs no more per hour than the general-purpose 2-vCPU type of the
    /// same generation in the same region, at the default settings and at any one utilisation.
    #[test]
    fn burstable_types_cost_no_more_than_general_purpose_of_the_same_generation() {
        let pairs = [
            ("aws", "t3.medium", "m5.large", "us-east-1"),
            ("aws", "t3a.medium", "m5a.large", "us-east-1"),
            ("aws", "t4g.medium", "m6g.large", "eu-west-1"),
            ("aws", "t2.medium", "m4.large", "us-east-1"),
            ("gcp", "e2-medium", "n2-standard-2", "us-central1"),
            ("gcp", "e2-small", "n2-standard-2", "europe-west1"),
            ("azure", "Standard_B2s_v2", "Standard_D2s_v5", "westeurope"),
            ("azure", "Standard_B2s", "Standard_D2s_v3", "eastus"),
            ("azure", "Standard_B2s", "Standard_D2s_v5", "eastus"),
        ];
        let explicit = Settings {
            utilization: 0.5,
            utilization_given: true,
            ..Settings::default()
        };
        for (provider, burst, general, region) in pairs {
            for settings in [Settings::default(), explicit] {
                let (b, _, _) = per_hour(vm(provider, burst, region), settings);
                let (g, _, _) = per_hour(vm(provider, general, region), settings);
                assert!(
                    b.total_gco2eq <= g.total_gco2eq + 1e-12,
                    "{burst} {b:?} > {general} {g:?} ({settings:?})"
                );
                // Same platform, same host: never a larger embodied share for the same vCPUs
                // (B-series v1 runs on the older Dsv3 host, so only its total is compared to v5).
                if !(burst == "Standard_B2s" && general == "Standard_D2s_v5") {
                    assert!(
                        b.embodied_gco2eq <= g.embodied_gco2eq + 1e-12,
                        "{burst} {b:?} vs {general} {g:?}"
                    );
                }
            }
        }
        // The t3.medium and m5.large share the M5 host: the same embodied share (2 of 96 vCPUs).
        let (t3, _, _) = per_hour(vm("aws", "t3.medium", "us-east-1"), Settings::default());
        let (m5, _, _) = per_hour(vm("aws", "m5.large", "us-east-1"), Settings::default());
        assert!((t3.embodied_gco2eq - m5.embodied_gco2eq).abs() < 1e-12);
        assert!((t3.embodied_gco2eq - 1610.3792 * 1000.0 / 35040.0 * 2.0 / 96.0).abs() < 1e-6);
    }

    #[test]
    fn a_burstable_type_runs_at_its_published_baseline_unless_utilization_is_given() {
        let (base, _, assumed) = per_hour(vm("aws", "t3.medium", "us-east-1"), Settings::default());
        assert!(
            assumed
                .iter()
                .any(|a| a.contains("CPU utilisation 20 %") && a.contains("t3.medium")),
            "{assumed:?}"
        );
        // 2 vCPU at 20 % of the Skylake/Cascade Lake range + 4 GiB, by hand.
        let i = data::instance(Provider::Aws, "t3.medium").unwrap();
        let cpu = data::cpu_watts_per_vcpu(Provider::Aws, &i.cpu_architectures).unwrap();
        let w = 2.0 * cpu.at(0.2) + 4.0 * 0.392;
        assert!((base.power_w - w).abs() < 1e-9, "{base:?} vs {w}");
        let given = Settings {
            utilization: 0.5,
            utilization_given: true,
            ..Settings::default()
        };
        let (at50, _, assumed) = per_hour(vm("aws", "t3.medium", "us-east-1"), given);
        assert!(assumed.is_empty(), "{assumed:?}");
        assert!((at50.power_w - (2.0 * cpu.at(0.5) + 4.0 * 0.392)).abs() < 1e-9);
        // A non-burstable type keeps the setting.
        let (_, _, assumed) = per_hour(vm("aws", "m5.large", "us-east-1"), Settings::default());
        assert!(assumed.is_empty(), "{assumed:?}");
        // The inputs the Impact Framework export reads carry the same utilisation.
        let plan = MappedPlan {
            after: vec![vm("gcp", "e2-micro", "us-central1")],
            ..MappedPlan::default()
        };
        let a = assess(
            &[change("vm.e2-micro", &["create"])],
            &plan,
            Settings::default(),
        );
        assert_eq!(a.after_inputs[0].utilization, 0.125);
    }

    /// Issue 16: g2 (L4) and a3 (H100) carried "no power figure for GPU … not counted", and
    /// Standard_NC24ads_A100_v4 had no GPU at all. Every GPU type of every table is priced
    /// with all its GPUs, without that warning.
    #[test]
    fn no_gpu_type_in_the_tables_leaves_a_gpu_out() {
        let region = |p: Provider| match p {
            Provider::Aws => "us-east-1",
            Provider::Gcp => "us-central1",
            Provider::Azure => "eastus",
        };
        let mut checked = 0;
        for p in Provider::ALL {
            for name in data::instance_types(p) {
                let i = data::instance(p, name).unwrap();
                if i.gpus.is_empty() {
                    continue;
                }
                for g in &i.gpus {
                    assert!(data::gpu_watts(&g.model).is_some(), "{p} {name}: {g:?}");
                }
                let (f, warnings, _) =
                    per_hour(vm(p.as_str(), name, region(p)), Settings::default());
                assert!(
                    !warnings.iter().any(|w| w.contains("GPU")),
                    "{p} {name}: {warnings:?}"
                );
                let gpu_min: f64 = i
                    .gpus
                    .iter()
                    .map(|g| g.count * data::gpu_watts(&g.model).unwrap().min_watts)
                    .sum();
                assert!(f.power_w > gpu_min, "{p} {name}: {f:?}");
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked}");
        for (p, name, n) in [
            (Provider::Azure, "Standard_NC24ads_A100_v4", 1.0),
            (Provider::Azure, "Standard_NC96ads_A100_v4", 4.0),
            (Provider::Aws, "p5.48xlarge", 8.0),
            (Provider::Aws, "g6.xlarge", 1.0),
            (Provider::Gcp, "a3-highgpu-8g", 8.0),
            (Provider::Gcp, "g2-standard-4", 1.0),
        ] {
            assert_eq!(data::instance(p, name).unwrap().gpu_count(), n, "{name}");
        }
    }
}
