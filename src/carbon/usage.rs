//! What a usage file changes in pricing one resource (`crate::usage::Applied`): the share of
//! the month it runs, the power of the data it moves, its own CPU utilisation, and where
//! each of those comes from for `explain`.

use super::Provenance;
use crate::mapping::MappedResource;
use crate::usage::HOURS_PER_MONTH;

/// The share of the month the resource runs (1 without declared usage).
pub(super) fn share(m: &MappedResource) -> f64 {
    m.usage.as_ref().map_or(1.0, |u| u.share)
}

/// The resource's own CPU utilisation, 0..=1, when its usage declares one.
pub(super) fn utilization(m: &MappedResource) -> Option<f64> {
    m.usage.as_ref().and_then(|u| u.utilization)
}

/// The IT power of the data the resource processes, in watts: GB per month × kWh per GB,
/// spread over the month's hours (CCF's networking coefficient, docs/methodology.md).
pub(super) fn network_w(m: &MappedResource, kwh_per_gb: f64) -> f64 {
    m.usage.as_ref().map_or(0.0, |u| {
        u.network_gb_per_month * kwh_per_gb * 1000.0 / HOURS_PER_MONTH
    })
}

/// `explain`'s lines for the declared usage: each input from the usage file, and the
/// figures derived from them.
pub(super) fn provenance(m: &MappedResource, kwh_per_gb: f64) -> Vec<Provenance> {
    let Some(u) = &m.usage else {
        return Vec::new();
    };
    let mut out: Vec<Provenance> = u
        .inputs
        .iter()
        .map(|i| Provenance {
            what: "usage",
            source: u.file.to_string(),
            detail: format!(
                "{} = {} ({}; {})",
                i.key.name(),
                i.value,
                i.key.unit(),
                i.origin.as_str()
            ),
        })
        .collect();
    if u.network_gb_per_month > 0.0 {
        out.push(Provenance {
            what: "network_w",
            source: "coefficients".to_string(),
            detail: format!(
                "{} GB/month × {kwh_per_gb} kWh/GB (networkingKWhPerGB) × 1000 ÷ {HOURS_PER_MONTH} h = {} W",
                u.network_gb_per_month,
                network_w(m, kwh_per_gb)
            ),
        });
    }
    if u.share != 1.0 {
        out.push(Provenance {
            what: "share",
            source: u.file.to_string(),
            detail: format!(
                "{} of the month running (requests × duration ÷ {HOURS_PER_MONTH} h, or monthly_hours ÷ {HOURS_PER_MONTH})",
                u.share
            ),
        });
    }
    if m.replication_factor > 1 && !m.storage.is_empty() {
        out.push(Provenance {
            what: "replication",
            source: "usage".to_string(),
            detail: format!(
                "{} copies stored (CCF's replication factor for {})",
                m.replication_factor, m.resource_type
            ),
        });
    }
    out
}
