//! Carbon figures of a plan: joins the mapping engine's resources to the reference data and the
//! estimate arithmetic, and produces the [`Report`] that every output format reads.

use rayon::prelude::*;
use std::collections::HashMap;

use crate::data::{self, Provider};
use crate::estimate::{self, Coefficients, Footprint, Period};
use crate::mapping::{DiskKind, MappedPlan, MappedResource};
use crate::report::{Figures, Report, ResourceReport, Side, Status};

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

/// The inputs of one estimated side: what the Impact Framework export needs to redo the sums.
#[derive(Debug, Clone, PartialEq)]
pub struct Priced {
    pub address: String,
    pub resource_type: String,
    pub footprint: Footprint,
    pub coefficients: Coefficients,
    /// Instances × replicas.
    pub instances: f64,
    /// The CPU/GPU utilisation this resource was priced at, 0..=1 (the setting, or a burstable
    /// type's published baseline).
    pub utilization: f64,
}

/// The report and, for the planned (after) state, the inputs behind each figure.
#[derive(Debug, Clone)]
pub struct Assessment {
    pub report: Report,
    pub after_inputs: Vec<Priced>,
}

/// A side that could be priced, with the notes it produced.
struct Pricing {
    side: Side,
    priced: Priced,
    warnings: Vec<String>,
    assumptions: Vec<String>,
}

/// Prices one mapped resource: its footprint, coefficients and hourly figures; `Err` says why it
/// could not be estimated.
fn price(m: &MappedResource, settings: Settings) -> Result<Pricing, String> {
    let provider =
        Provider::parse(&m.provider).ok_or_else(|| format!("unknown provider {:?}", m.provider))?;
    let mut warnings = Vec::new();
    let table = m.machine_type.as_deref().and_then(|t| {
        data::instance(provider, t)
            .or_else(|| {
                (provider == Provider::Gcp)
                    .then(|| data::gcp_custom(t))
                    .flatten()
            })
            .or_else(|| {
                (provider == Provider::Gcp)
                    .then(|| data::gcp_sql_tier(t))
                    .flatten()
            })
    });
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
    let vcpus = m.vcpus.or(table.as_ref().map(|i| i.vcpus));
    let has_storage = m.storage.iter().any(|s| s.size_gb > 0.0);
    // Without vCPUs, only a pure storage resource (a disk) can be estimated: an instance
    // whose machine type is unknown is not estimated from its disks alone.
    // a mapping's "assumed: …" note is not a problem (see `mapping_note`)
    let mut problems = m
        .warnings
        .iter()
        .filter(|w| !matches!(mapping_note(w), Some((true, _))));
    let problem = problems.next();
    if vcpus.is_none() && (m.machine_type.is_some() || !has_storage || problem.is_some()) {
        return Err(match (&m.machine_type, problem) {
            (Some(t), _) => format!("unknown machine type {t:?}"),
            (None, Some(w)) => mapping_note(w).map_or_else(|| w.clone(), |n| n.1),
            (None, None) => "machine type unknown".to_string(),
        });
    }
    let vcpus = vcpus.unwrap_or(0.0);
    let memory_gb = m
        .memory_gb
        .or(table.as_ref().map(|i| i.memory_gib))
        .unwrap_or(0.0);
    let archs: Vec<String> = if m.cpu_types.is_empty() {
        table
            .as_ref()
            .map(|i| i.cpu_architectures.clone())
            .unwrap_or_default()
    } else {
        m.cpu_types.clone()
    };
    let gpu_models: Vec<String> = if m.gpus.is_empty() {
        table
            .as_ref()
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
    for model in &gpu_models {
        match data::gpu_watts(model) {
            Some(w) => gpus.push((w.min_watts, w.max_watts)),
            None => warnings.push(format!("no power figure for GPU {model}: not counted")),
        }
    }
    let (mut ssd_tb, mut hdd_tb) = (0.0, 0.0);
    for s in &m.storage {
        match s.kind {
            DiskKind::Ssd => ssd_tb += s.size_gb / 1000.0,
            DiskKind::Hdd => hdd_tb += s.size_gb / 1000.0,
        }
    }
    let region = m
        .region
        .clone()
        .ok_or_else(|| "region unknown: set it on the resource or its provider".to_string())?;
    let grid = match data::grid_intensity(provider, &region) {
        Some(g) => g.g_co2eq_per_kwh,
        None => {
            let f = data::grid_fallback(provider)
                .ok_or_else(|| format!("no grid intensity for region {region}"))?;
            warnings.push(format!(
                "no grid intensity for region {region}: {} average used",
                provider.as_str()
            ));
            f.g_co2eq_per_kwh
        }
    };
    let c = data::coefficients(provider)
        .ok_or_else(|| format!("no coefficients for {}", provider.as_str()))?;
    let cpu = data::cpu_watts_per_vcpu(provider, &archs)
        .ok_or_else(|| format!("no CPU power figure for {}", provider.as_str()))?;
    let embodied_kg_per_hour = match m.machine_type.as_deref() {
        Some(t) if vcpus > 0.0 => data::embodied_kg_per_hour(provider, t),
        _ => None,
    }
    .or_else(|| {
        (vcpus > 0.0)
            .then(|| data::embodied_fallback_per_vcpu_hour(provider).map(|k| k * vcpus))
            .flatten()
    })
    .unwrap_or(0.0);
    let coefficients = Coefficients {
        cpu_min_w: cpu.min_watts,
        cpu_max_w: cpu.max_watts,
        memory_w_per_gb: c.memory_watts_per_gb,
        ssd_w_per_tb: c.ssd_watts_per_tb,
        hdd_w_per_tb: c.hdd_watts_per_tb,
        pue: data::pue_in_region(provider, &region).unwrap_or(c.pue),
        grid_g_per_kwh: Some(grid),
        embodied_g_per_hour: embodied_kg_per_hour * 1000.0,
    };
    let footprint = Footprint {
        vcpus,
        memory_gb,
        ssd_tb,
        hdd_tb,
        gpus,
    };
    let instances = f64::from(m.count) * f64::from(m.replication_factor.max(1));
    let per_hour = estimate::estimate(&footprint, &coefficients, utilization).scaled(instances);
    let side = Side {
        provider: provider.as_str().to_string(),
        region: Some(region),
        grid_g_per_kwh: Some(grid),
        machine_type: m.machine_type.clone(),
        vcpus,
        memory_gb,
        gpus: gpu_models.len() as u32,
        ssd_gb: ssd_tb * 1000.0,
        hdd_gb: hdd_tb * 1000.0,
        instances,
        per_hour: Figures::from(&per_hour),
    };
    Ok(Pricing {
        side,
        priced: Priced {
            address: m.address.clone(),
            resource_type: m.resource_type.clone(),
            footprint,
            coefficients,
            instances,
            utilization,
        },
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
    let priced: Vec<(ResourceReport, Option<_>)> = order
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
            let mut after_input = None;
            let mut r = match reason {
                Some(reason) => {
                    let mut r = ResourceReport::new(address, resource_type, actions, None, None);
                    r.status = Status::NotEstimated { reason };
                    r
                }
                None => {
                    let bs = pb.and_then(Result::ok);
                    let as_ = pa.and_then(Result::ok);
                    after_input = as_.as_ref().map(|p| p.priced.clone());
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
            (r, after_input)
        })
        .collect();
    let mut resources = Vec::with_capacity(priced.len());
    let mut after_inputs = Vec::new();
    for (r, input) in priced {
        resources.push(r);
        after_inputs.extend(input);
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
    fn unknown_region_and_machine_type_are_not_estimated_with_a_reason() {
        let mut odd = m5("aws_instance.odd", Some("us-east-1"));
        odd.machine_type = Some("zz.huge".into());
        odd.vcpus = None;
        odd.memory_gb = None;
        odd.storage.clear();
        let plan = MappedPlan {
            after: vec![m5("aws_instance.nowhere", None), odd],
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
        let reasons: Vec<String> = a
            .report
            .resources
            .iter()
            .map(|r| match &r.status {
                Status::NotEstimated { reason } => reason.clone(),
                Status::Estimated => "estimated".into(),
            })
            .collect();
        assert_eq!(
            reasons,
            [
                "region unknown: set it on the resource or its provider",
                "unknown machine type \"zz.huge\""
            ]
        );
        assert_eq!(a.report.counts.not_estimated, 2);
        assert_eq!(a.report.totals.after_per_hour.total_gco2eq, 0.0);
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
