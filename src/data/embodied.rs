//! Embodied emissions by host, burstable baseline utilisation, and the per-vCPU fallback.

use super::instances::aws_ec2_base;
use super::{Embodied, EmbodiedMethod, InstanceOrigin, Provider, coefficients, instance, tables};

/// Embodied emissions per hour of an instance type, by host: the host platform's embodied total
/// (CCF, kgCO2eq) / 35,040 h × (instance vCPUs / vCPUs of the whole host); burstable families
/// use the host of the platform they run on (`data/hosts.json`). GCP custom
/// types use their family's `-standard` figure; types without any figure use the provider's
/// per-vCPU fallback × vCPUs (the type must be known, or computable from its name).
pub fn embodied(provider: Provider, instance_type: &str) -> Option<Embodied> {
    let pt = tables().provider(provider);
    let inst = instance(provider, instance_type);
    let key = inst
        .as_ref()
        .map(|i| i.name.clone())
        .unwrap_or_else(|| instance_type.trim().to_string());
    if let Some(row) = pt
        .embodied
        .get(&key)
        .or_else(|| pt.embodied.get(&key.to_ascii_lowercase()))
        // An RDS class or ElastiCache node type missing from the table shares its EC2 type's
        // hardware.
        .or_else(|| {
            let base = key.to_ascii_lowercase();
            let base = aws_ec2_base(&base)?;
            (provider == Provider::Aws)
                .then(|| pt.embodied.get(base))
                .flatten()
        })
    {
        return Some(Embodied {
            kg_co2eq_per_hour: row.kg_co2eq_per_hour,
            method: EmbodiedMethod::Family,
            family: Some(row.family.clone()),
            platform: Some(row.platform.clone()),
            platform_kg_co2eq: Some(row.platform_kg_co2eq),
            vcpus: row.vcpus,
            host_vcpus: Some(row.host_vcpus),
        });
    }
    let inst = inst?;
    let lifespan = coefficients(provider)?.server_lifespan_hours;
    if provider == Provider::Gcp && inst.origin == InstanceOrigin::FromName {
        let family = inst
            .family
            .as_deref()
            .and_then(|f| f.strip_suffix("-custom"))
            .map(|f| format!("{f}-standard"));
        if let Some(row) = family
            .as_ref()
            .and_then(|f| pt.embodied.values().find(|r| &r.family == f))
        {
            return Some(Embodied {
                kg_co2eq_per_hour: row.platform_kg_co2eq / lifespan * (inst.vcpus / row.host_vcpus),
                method: EmbodiedMethod::CustomFamily,
                family: Some(row.family.clone()),
                platform: Some(row.platform.clone()),
                platform_kg_co2eq: Some(row.platform_kg_co2eq),
                vcpus: inst.vcpus,
                host_vcpus: Some(row.host_vcpus),
            });
        }
    }
    let per_vcpu = pt.embodied_fallback?;
    Some(Embodied {
        kg_co2eq_per_hour: per_vcpu * inst.vcpus,
        method: EmbodiedMethod::PerVcpuFallback,
        family: None,
        platform: None,
        platform_kg_co2eq: None,
        vcpus: inst.vcpus,
        host_vcpus: None,
    })
}

/// The provider's published baseline CPU share per vCPU of a burstable or shared-core type
/// (`t3.medium` → 0.2, `e2-micro` → 0.125, `Standard_B2s` → 0.2), 0..=1; `None` for other
/// types. carbon-show uses it as the type's default utilisation (`data/hosts.json`).
pub fn baseline_utilization(provider: Provider, instance_type: &str) -> Option<f64> {
    let pt = tables().provider(provider);
    let key = instance(provider, instance_type)
        .map(|i| i.name)
        .unwrap_or_else(|| instance_type.trim().to_string());
    // An RDS class or ElastiCache node type runs on its EC2 type.
    let base = aws_ec2_base(&key).filter(|_| provider == Provider::Aws);
    pt.baseline
        .get(&key)
        .or_else(|| base.and_then(|b| pt.baseline.get(b)))
        .copied()
}

/// Embodied kgCO2eq per hour of an instance type (see [`embodied`]).
pub fn embodied_kg_per_hour(provider: Provider, instance_type: &str) -> Option<f64> {
    embodied(provider, instance_type).map(|e| e.kg_co2eq_per_hour)
}

/// The provider's fallback embodied kgCO2eq per vCPU-hour (for any type without a figure).
pub fn embodied_fallback_per_vcpu_hour(provider: Provider) -> Option<f64> {
    tables().provider(provider).embodied_fallback
}
