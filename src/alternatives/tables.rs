//! The two tables alternatives are drawn from: region → location and jurisdiction
//! (`data/geography.json`) and x86 family → ARM family (`data/arm_equivalents.json`), both
//! with their sources beside them (`.source.json`, docs/alternatives.md).

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::data::{self, Instance, Provider};
use crate::mapping::MappedResource;

/// One row of `data/geography.json`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Place {
    pub provider: String,
    pub region: String,
    /// Where the region is, as the provider's region page says.
    pub location: String,
    /// ISO 3166-1 alpha-2; `None` for a location spanning several countries.
    pub country: Option<String>,
    /// `EU/EEA`, or a country code (`US`, `UK`, `CH`, `JP`…), or a partition of its own
    /// (`US-GovCloud`, `CN`); `None` when the location spans several jurisdictions.
    pub jurisdiction: Option<String>,
    /// Whether a workload may be advised to move there (not a dual-region, a restricted or
    /// staging location, or a geography-level name).
    pub candidate: bool,
    pub source: String,
    #[serde(default)]
    pub note: Option<String>,
}

/// One row of `data/arm_equivalents.json`: `from` and `to` are type names with a `{size}`
/// placeholder.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct ArmRule {
    pub provider: String,
    pub from: String,
    pub to: String,
    /// The ARM processor (`AWS Graviton2`, `Ampere Altra`, `Google Axion`).
    pub processor: String,
    pub source: String,
}

struct Tables {
    /// By provider, then by region key (lower case; Azure without spaces, as the grid table).
    places: HashMap<Provider, HashMap<String, Place>>,
    rules: Vec<ArmRule>,
}

const PROVIDERS: [Provider; 3] = [Provider::Aws, Provider::Gcp, Provider::Azure];

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let text = |name: &str| data::json_file(name).unwrap_or("{}");
        // embedded tables, checked by the tests: a broken one leaves no alternatives
        let rows: HashMap<String, Place> = serde_json::from_str(text("geography.json"))
            .unwrap_or_else(|e| panic!("data/geography.json: {e}"));
        let mut places: HashMap<Provider, HashMap<String, Place>> = HashMap::new();
        for p in rows.into_values() {
            if let Some(provider) = Provider::parse(&p.provider) {
                let key = data::normalize_region(provider, &p.region);
                places.entry(provider).or_default().insert(key, p);
            }
        }
        let rules: HashMap<String, ArmRule> = serde_json::from_str(text("arm_equivalents.json"))
            .unwrap_or_else(|e| panic!("data/arm_equivalents.json: {e}"));
        let mut rules: Vec<(String, ArmRule)> = rules.into_iter().collect();
        rules.sort_by(|a, b| a.0.cmp(&b.0));
        Tables {
            places,
            rules: rules.into_iter().map(|(_, r)| r).collect(),
        }
    })
}

/// The row of a region (a zone, `us-east-1a` or `europe-west1-b`, is found as its region).
pub fn place(provider: Provider, region: &str) -> Option<&'static Place> {
    let all = tables().places.get(&provider)?;
    let key = data::normalize_region(provider, region);
    if let Some(p) = all.get(&key) {
        return Some(p);
    }
    data::zone_region(provider, &key).and_then(|z| all.get(z))
}

/// Every row of a provider, sorted by region.
pub fn places(provider: Provider) -> Vec<&'static Place> {
    let mut v: Vec<&Place> = tables()
        .places
        .get(&provider)
        .map(|m| m.values().collect())
        .unwrap_or_default();
    v.sort_by(|a, b| a.region.cmp(&b.region));
    v
}

/// [`places`], sorted once for the run.
pub fn sorted_places(provider: Provider) -> &'static [&'static Place] {
    static SORTED: OnceLock<[Vec<&'static Place>; 3]> = OnceLock::new();
    &SORTED.get_or_init(|| PROVIDERS.map(places))[provider as usize]
}

/// The providers whose tables know a region of this name (for a bare `--what-if
/// region=NAME`).
pub fn providers_of(region: &str) -> Vec<Provider> {
    PROVIDERS
        .into_iter()
        .filter(|p| {
            let key = data::normalize_region(*p, region);
            tables().places.get(p).is_some_and(|m| m.contains_key(&key))
        })
        .collect()
}

/// Every ARM rule, in the table's order (sorted by key).
pub fn arm_rules() -> &'static [ArmRule] {
    &tables().rules
}

/// The size part of `name` when it matches `pattern` (`m5.{size}`, `Standard_D{size}s_v5`):
/// AWS sizes are words (`large`, `2xlarge`), GCP and Azure sizes are vCPU counts.
fn size_of<'n>(provider: Provider, pattern: &str, name: &'n str) -> Option<&'n str> {
    let (head, tail) = pattern.split_once("{size}")?;
    let lower = name.to_ascii_lowercase();
    if lower.len() < head.len() + tail.len()
        || !lower.starts_with(&head.to_ascii_lowercase())
        || !lower.ends_with(&tail.to_ascii_lowercase())
    {
        return None;
    }
    let size = &name[head.len()..name.len() - tail.len()];
    let ok = match provider {
        Provider::Aws => size
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()),
        _ => size.chars().all(|c| c.is_ascii_digit()),
    };
    (!size.is_empty() && ok).then_some(size)
}

/// The ARM type of the same vCPU count and memory as this resource's, when its family has an
/// equivalent in `data/arm_equivalents.json` and the ARM type is in the instance table:
/// (that type's table entry, the rule). A resource with GPUs has none.
pub fn arm_equivalent(m: &MappedResource) -> Option<(Instance, &'static ArmRule)> {
    let provider = Provider::parse(&m.provider)?;
    let name = m.machine_type.as_deref()?.trim();
    if !m.gpus.is_empty() {
        return None;
    }
    let own = data::instance(provider, name);
    let vcpus = m.vcpus.or(own.as_ref().map(|i| i.vcpus))?;
    let memory = m.memory_gb.or(own.as_ref().map(|i| i.memory_gib))?;
    arm_rules()
        .iter()
        .filter(|r| Provider::parse(&r.provider) == Some(provider))
        .find_map(|r| {
            let size = size_of(provider, &r.from, name)?;
            let target = data::instance(provider, &r.to.replace("{size}", size))?;
            (target.vcpus == vcpus && target.memory_gib == memory && target.gpu_count() == 0.0)
                .then_some((target, r))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(provider: &str, t: &str) -> MappedResource {
        MappedResource {
            body: std::sync::Arc::new(crate::mapping::Body {
                provider: provider.into(),
                machine_type: Some(t.into()),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn every_grid_region_has_a_place_and_every_candidate_a_jurisdiction() {
        for p in PROVIDERS {
            for r in data::regions(p) {
                let place = place(p, r).unwrap_or_else(|| panic!("{p:?} {r} has no place"));
                if place.candidate {
                    assert!(place.jurisdiction.is_some(), "{r}");
                }
            }
        }
    }

    #[test]
    fn zones_are_found_as_their_region() {
        assert_eq!(
            place(Provider::Aws, "eu-west-1b").unwrap().region,
            "eu-west-1"
        );
        assert_eq!(
            place(Provider::Gcp, "europe-west1-c").unwrap().region,
            "europe-west1"
        );
        assert_eq!(
            place(Provider::Azure, "West Europe").unwrap().region,
            "westeurope"
        );
    }

    #[test]
    fn arm_equivalents_keep_the_shape() {
        let (t, r) = arm_equivalent(&resource("aws", "m5.xlarge")).unwrap();
        assert_eq!(
            (t.name.as_str(), r.processor.as_str()),
            ("m6g.xlarge", "AWS Graviton2")
        );
        let (t, _) = arm_equivalent(&resource("aws", "db.m5.large")).unwrap();
        assert_eq!(t.name, "db.m6g.large");
        let (t, _) = arm_equivalent(&resource("gcp", "n2-standard-4")).unwrap();
        assert_eq!(t.name, "t2a-standard-4");
        let (t, _) = arm_equivalent(&resource("azure", "Standard_D2s_v5")).unwrap();
        assert_eq!(t.name, "Standard_D2ps_v5");
        // n1-standard-1 has no rule; m5.24xlarge has no m6g of 96 vCPUs
        assert!(arm_equivalent(&resource("gcp", "n1-standard-1")).is_none());
        assert!(arm_equivalent(&resource("aws", "m5.24xlarge")).is_none());
        // a resource whose vCPUs differ from its type's (set by the plan) has none
        let mut odd = resource("aws", "m5.xlarge");
        odd.vcpus = Some(2.0);
        assert!(arm_equivalent(&odd).is_none());
    }

    /// Every rule yields at least one ARM type of the same shape from the instance table.
    #[test]
    fn every_arm_rule_matches_a_type_in_the_instance_table() {
        for r in arm_rules() {
            let p = Provider::parse(&r.provider).unwrap();
            let any = data::instance_types(p).into_iter().any(|t| {
                let m = resource(&r.provider, t);
                size_of(p, &r.from, t).is_some()
                    && arm_equivalent(&m).is_some_and(|(_, rule)| rule == r)
            });
            // RDS and ElastiCache names are not table keys: try their EC2 base's sizes
            let prefixed = r.from.starts_with("db.") || r.from.starts_with("cache.");
            let any = any
                || (prefixed
                    && ["large", "xlarge", "2xlarge", "medium"].iter().any(|s| {
                        let m = resource(&r.provider, &r.from.replace("{size}", s));
                        arm_equivalent(&m).is_some()
                    }));
            assert!(any, "{} → {} matches no type", r.from, r.to);
        }
    }
}
