//! Power coefficients: per-vCPU CPU watts by microarchitecture, memory/storage watts, PUE, GPU watts.

use super::grid::normalize_region;
use super::{PowerRange, Provider, ProviderCoefficients, tables};

/// A provider's coefficients.
pub fn coefficients(provider: Provider) -> Option<&'static ProviderCoefficients> {
    tables().provider(provider).coefficients.as_ref()
}

/// CCF's name for a microarchitecture (aliases such as `Intel Cascade Lake` or `AMD EPYC Milan` resolved).
pub fn canonical_architecture(name: &str) -> &str {
    let t = tables();
    let name = name.trim();
    t.architecture_aliases
        .get(name)
        .map(String::as_str)
        .unwrap_or(name)
}

/// Watts per vCPU of one microarchitecture, if the tables have a figure for it.
pub fn architecture_watts(name: &str) -> Option<PowerRange> {
    tables()
        .architectures
        .get(canonical_architecture(name))
        .copied()
}

/// Every microarchitecture with a watt figure, sorted.
pub fn architectures() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = tables().architectures.keys().map(String::as_str).collect();
    v.sort_unstable();
    v
}

/// CPU watts per vCPU for an instance's microarchitectures, CCF's rule: the average of the
/// listed microarchitectures' figures (the median when the list includes Sandy Bridge or Ivy
/// Bridge); microarchitectures without a figure are skipped; when none has a figure, the
/// provider's fallback (average or median of its microarchitectures).
pub fn cpu_watts_per_vcpu<S: AsRef<str>>(
    provider: Provider,
    architectures: &[S],
) -> Option<PowerRange> {
    let t = tables();
    let mut known: Vec<(String, PowerRange)> = Vec::new();
    for a in architectures {
        let name = canonical_architecture(a.as_ref());
        if let Some(w) = t.architectures.get(name)
            && !known.iter().any(|(n, _)| n == name)
        {
            known.push((name.to_string(), *w));
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
        .any(|(n, _)| t.median_architectures.iter().any(|m| m == n));
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
    let c = coefficients(provider)?;
    let key = normalize_region(provider, region);
    Some(c.pue_by_region.get(&key).copied().unwrap_or(c.pue))
}

/// GPU watts (per GPU) of a model: slug (`nvidia-tesla-v100`), an alias (`nvidia-a100-80gb`)
/// or a display name (`Nvidia Tesla V100`), any case. `None` when no figure is known.
pub fn gpu_watts(model: &str) -> Option<PowerRange> {
    let t = tables();
    let slug = model.trim().to_ascii_lowercase().replace([' ', '_'], "-");
    let slug = t.gpu_aliases.get(&slug).cloned().unwrap_or(slug);
    t.gpus.get(&slug).copied()
}

/// Every GPU model with a watt figure, sorted.
pub fn gpu_models() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = tables().gpus.keys().map(String::as_str).collect();
    v.sort_unstable();
    v
}
