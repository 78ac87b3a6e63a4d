//! Grid carbon intensity by provider region, with each provider's fallback.

use super::tables;
use super::{GridFallback, GridIntensity, Provider};

/// Region key as in the tables: lower case; Azure also without spaces, `-` and `_`
/// (`West Europe` → `westeurope`).
pub(crate) fn normalize_region(provider: Provider, region: &str) -> String {
    let r = region.trim().to_ascii_lowercase();
    match provider {
        Provider::Azure => r
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .collect(),
        _ => r,
    }
}

/// The region of a zone (already normalised): `us-east-1a` → `us-east-1`, `europe-west1-b` →
/// `europe-west1`; `None` when `key` is no zone (Azure has none in its names).
pub(crate) fn zone_region(provider: Provider, key: &str) -> Option<&str> {
    match provider {
        Provider::Aws => key
            .strip_suffix(|c: char| c.is_ascii_lowercase())
            .filter(|s| s.ends_with(|c: char| c.is_ascii_digit())),
        Provider::Gcp => key
            .rsplit_once('-')
            .filter(|(_, z)| z.len() == 1 && z.chars().all(|c| c.is_ascii_lowercase()))
            .map(|(r, _)| r),
        Provider::Azure => None,
    }
}

/// Grid intensity of a region (gCO2eq/kWh, with year and source). Also accepts an AWS
/// availability zone (`us-east-1a`) or a GCP zone (`us-central1-a`). `None` when the region has
/// no figure: use [`grid_fallback`] then.
pub fn grid_intensity(provider: Provider, region: &str) -> Option<&'static GridIntensity> {
    let pt = tables::provider(provider);
    let key = normalize_region(provider, region);
    if let Some(g) = pt.grid(&key) {
        return Some(g);
    }
    if let Some(g) = zone_region(provider, &key).and_then(|z| pt.grid(z)) {
        return Some(g);
    }
    // AWS Local Zones and Wavelength zones: `us-east-1-bos-1a` belongs to `us-east-1`.
    if provider == Provider::Aws {
        let mut prefix = key.as_str();
        while let Some((head, _)) = prefix.rsplit_once('-') {
            if let Some(g) = pt.grid(head) {
                return Some(g);
            }
            prefix = head;
        }
    }
    None
}

/// The provider's intensity for a region without a figure (CCF's `Unknown` region factor).
pub fn grid_fallback(provider: Provider) -> Option<&'static GridFallback> {
    tables::provider(provider).grid_fallback()
}

/// Every region with a grid intensity for a provider, sorted.
pub fn regions(provider: Provider) -> Vec<&'static str> {
    // the table is sorted by region
    tables::provider(provider)
        .grid
        .iter()
        .map(|g| g.region.get())
        .collect()
}
