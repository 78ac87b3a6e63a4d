//! Embodied emissions by the host model, burstable baseline utilisation, and the per-vCPU fallback.

use super::instances::aws_ec2_base;
use super::tables;
use super::{Embodied, EmbodiedMethod, InstanceOrigin, Provider, instance};

/// Embodied emissions per hour of an instance type, by the host model (docs/methodology.md): its
/// share of its family's host by what it holds (CPU and chassis by vCPU, memory by GB, local
/// disks by TB, GPUs by count) / 35,040 h, with the band of the sourced methods; burstable
/// families use the host of the platform they run on (`data/hosts.json`). GCP custom types use
/// their family's `-standard` figure per vCPU; `None` for a type without a row.
pub fn embodied(provider: Provider, instance_type: &str) -> Option<Embodied> {
    let pt = tables::provider(provider);
    let inst = instance(provider, instance_type);
    let key = inst
        .as_ref()
        .map(|i| i.name.clone())
        .unwrap_or_else(|| instance_type.trim().to_string());
    if let Some(row) = pt
        .embodied(&key)
        .or_else(|| pt.embodied(&key.to_ascii_lowercase()))
        // An RDS class or ElastiCache node type missing from the table shares its EC2 type's
        // hardware.
        .or_else(|| {
            let base = key.to_ascii_lowercase();
            let base = aws_ec2_base(&base)?;
            (provider == Provider::Aws)
                .then(|| pt.embodied(base))
                .flatten()
        })
    {
        return Some(Embodied {
            kg_co2eq_per_hour: row.kg_co2eq_per_hour,
            kg_co2eq_per_hour_low: row.kg_co2eq_per_hour_low,
            kg_co2eq_per_hour_high: row.kg_co2eq_per_hour_high,
            method: if row.ccf_total {
                EmbodiedMethod::Family
            } else {
                EmbodiedMethod::HostParts
            },
            family: Some(row.family.get().to_string()),
            platform: Some(row.platform.get().to_string()),
            server: row.server_name.map(|s| s.get().to_string()),
            platform_kg_co2eq: Some(row.platform_kg_co2eq),
            vcpus: row.vcpus,
            host_vcpus: Some(row.host_vcpus),
        });
    }
    let inst = inst?;
    if provider == Provider::Gcp && inst.origin == InstanceOrigin::FromName {
        let family = inst
            .family
            .as_deref()
            .and_then(|f| f.strip_suffix("-custom"))
            .map(|f| format!("{f}-standard"));
        // the family's -standard host: CPU and chassis by vCPU, memory by GB
        // the smallest (the first in name order among equals)
        if let Some(row) = family.as_ref().and_then(|f| {
            pt.embodied
                .iter()
                .filter(|r| r.family.get() == f)
                .min_by(|a, b| a.vcpus.total_cmp(&b.vcpus))
        }) {
            let row_gb = instance(provider, row.name.get()).map_or(0.0, |i| i.memory_gib);
            let per_gb = if row_gb > 0.0 {
                row.memory_kg / row_gb
            } else {
                0.0
            };
            let kg = row.cpu_chassis_kg * inst.vcpus / row.vcpus + per_gb * inst.memory_gib;
            let row_kg = row.kg_co2eq_per_hour;
            let lifespan = super::coefficients(provider)?.server_lifespan_hours;
            let central = kg / lifespan;
            let scale = if row_kg > 0.0 { central / row_kg } else { 0.0 };
            return Some(Embodied {
                kg_co2eq_per_hour: central,
                kg_co2eq_per_hour_low: row.kg_co2eq_per_hour_low * scale,
                kg_co2eq_per_hour_high: row.kg_co2eq_per_hour_high * scale,
                method: EmbodiedMethod::CustomFamily,
                family: Some(row.family.get().to_string()),
                platform: Some(row.platform.get().to_string()),
                server: None,
                platform_kg_co2eq: Some(row.platform_kg_co2eq),
                vcpus: inst.vcpus,
                host_vcpus: Some(row.host_vcpus),
            });
        }
    }
    None
}

/// The provider's published baseline CPU share per vCPU of a burstable or shared-core type
/// (`t3.medium` → 0.2, `e2-micro` → 0.125, `Standard_B2s` → 0.2), 0..=1; `None` for other
/// types. carbon-show uses it as the type's default utilisation (`data/hosts.json`).
pub fn baseline_utilization(provider: Provider, instance_type: &str) -> Option<f64> {
    let pt = tables::provider(provider);
    let key = instance(provider, instance_type)
        .map(|i| i.name)
        .unwrap_or_else(|| instance_type.trim().to_string());
    // An RDS class or ElastiCache node type runs on its EC2 type.
    let base = aws_ec2_base(&key).filter(|_| provider == Provider::Aws);
    pt.baseline(&key)
        .or_else(|| base.and_then(|b| pt.baseline(b)))
}

/// Embodied kgCO2eq per hour of an instance type (see [`embodied`]).
pub fn embodied_kg_per_hour(provider: Provider, instance_type: &str) -> Option<f64> {
    embodied(provider, instance_type).map(|e| e.kg_co2eq_per_hour)
}

/// The provider's fallback embodied kgCO2eq per vCPU-hour (for any type without a figure).
pub fn embodied_fallback_per_vcpu_hour(provider: Provider) -> Option<f64> {
    tables::provider(provider).embodied_fallback
}
