//! Power coefficients: per-vCPU CPU watts by microarchitecture, memory/storage watts, PUE, GPU watts.

use super::grid::normalize_region;
use super::tables::{self, Str, find};
use super::{PowerRange, Provider, ProviderCoefficients};

/// A provider's coefficients.
pub fn coefficients(provider: Provider) -> Option<&'static ProviderCoefficients> {
    tables::provider(provider).coefficients()
}

/// CCF's name for a microarchitecture (aliases such as `Intel Cascade Lake` or `AMD EPYC Milan` resolved).
pub fn canonical_architecture(name: &str) -> &str {
    let name = name.trim();
    find(tables::architecture_aliases(), |a| a.0, name).map_or(name, |a| a.1.get())
}

/// A `(name, min, max)` row as a range.
fn range(row: &(Str, f64, f64)) -> PowerRange {
    PowerRange {
        min_watts: row.1,
        max_watts: row.2,
    }
}

/// The figure of a microarchitecture by its CCF name.
fn watts_of(canonical: &str) -> Option<PowerRange> {
    find(tables::architectures(), |a| a.0, canonical).map(range)
}

/// Watts per vCPU of one microarchitecture, if the tables have a figure for it.
pub fn architecture_watts(name: &str) -> Option<PowerRange> {
    watts_of(canonical_architecture(name))
}

/// Every microarchitecture with a watt figure, sorted.
pub fn architectures() -> Vec<&'static str> {
    // the table is sorted by name
    tables::architectures().iter().map(|a| a.0.get()).collect()
}

/// CPU watts per vCPU for an instance's microarchitectures, CCF's rule: the average of the
/// listed microarchitectures' figures (the median when the list includes Sandy Bridge or Ivy
/// Bridge); microarchitectures without a figure are skipped; when none has a figure, the
/// provider's fallback (average or median of its microarchitectures).
pub fn cpu_watts_per_vcpu<S: AsRef<str>>(
    provider: Provider,
    architectures: &[S],
) -> Option<PowerRange> {
    let mut known: Vec<(String, PowerRange)> = Vec::new();
    for a in architectures {
        let name = canonical_architecture(a.as_ref());
        if let Some(w) = watts_of(name)
            && !known.iter().any(|(n, _)| n == name)
        {
            known.push((name.to_string(), w));
        }
    }
    if known.is_empty() {
        let c = coefficients(provider)?;
        return Some(PowerRange {
            min_watts: c.cpu_min_watts_per_vcpu,
            max_watts: c.cpu_max_watts_per_vcpu,
        });
    }
    let use_median = known
        .iter()
        .any(|(n, _)| tables::median_architectures().iter().any(|m| m.get() == n));
    let pick = |f: fn(&PowerRange) -> f64| {
        let values: Vec<f64> = known.iter().map(|(_, w)| f(w)).collect();
        if use_median {
            median(values)
        } else {
            values.iter().sum::<f64>() / values.len() as f64
        }
    };
    Some(PowerRange {
        min_watts: pick(|w| w.min_watts),
        max_watts: pick(|w| w.max_watts),
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let m = v.len() / 2;
    if v.is_empty() {
        0.0
    } else if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// Memory watts per GB (CCF: 0.000392 kWh/GB-hour = 0.392 W/GB).
pub fn memory_watts_per_gb(provider: Provider) -> Option<f64> {
    coefficients(provider).map(|c| c.memory_watts_per_gb)
}

/// SSD storage watts per TB.
pub fn ssd_watts_per_tb(provider: Provider) -> Option<f64> {
    coefficients(provider).map(|c| c.ssd_watts_per_tb)
}

/// HDD storage watts per TB.
pub fn hdd_watts_per_tb(provider: Provider) -> Option<f64> {
    coefficients(provider).map(|c| c.hdd_watts_per_tb)
}

/// Provider-average PUE.
pub fn pue(provider: Provider) -> Option<f64> {
    coefficients(provider).map(|c| c.pue)
}

/// PUE in a region: the provider's published regional figure if any (GCP), else its average.
pub fn pue_in_region(provider: Provider, region: &str) -> Option<f64> {
    let c = tables::provider(provider).coefficients_row()?;
    let key = normalize_region(provider, region);
    let regional = find(tables::pue_by_region(c), |r| r.0, &key).map(|r| r.1);
    Some(regional.unwrap_or(c.pue))
}

/// GPU watts (per GPU) of a model: slug (`nvidia-tesla-v100`), an alias (`nvidia-a100-80gb`)
/// or a display name (`Nvidia Tesla V100`), any case. `None` when no figure is known.
pub fn gpu_watts(model: &str) -> Option<PowerRange> {
    let slug = model.trim().to_ascii_lowercase().replace([' ', '_'], "-");
    let slug = find(tables::gpu_aliases(), |a| a.0, &slug).map_or(slug.as_str(), |a| a.1.get());
    find(tables::gpus(), |g| g.0, slug).map(range)
}

/// Every GPU model with a watt figure, sorted.
pub fn gpu_models() -> Vec<&'static str> {
    // the table is sorted by slug
    tables::gpus().iter().map(|g| g.0.get()).collect()
}
