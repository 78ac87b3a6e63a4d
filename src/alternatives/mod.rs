//! Greener alternatives and what-if scenarios: each estimated resource re-estimated in the
//! cleanest region of its own jurisdiction and as its ARM equivalent, and the whole plan
//! re-estimated under `--what-if` — always by the same pricing code as the actual figures
//! (`carbon::price_side` over a copy of the mapped resource with the region or type
//! substituted), never by a ratio (docs/alternatives.md).

pub mod tables;
pub mod whatif;
pub mod words;

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::carbon::{self, Settings, Subject};
use crate::data::{self, Provider};
use crate::mapping::MappedResource;
use crate::report::{Side, Table, Text};

pub use crate::report::alternatives::{Alternative, AlternativeKind};
pub use whatif::{Scenario, WhatIf, WhatIfSpec};

/// Below this share of the resource's own figure, an alternative is not shown in the human
/// output or the Markdown comment (it is still in the JSON).
pub const SHOW_FROM: f64 = 0.10;

/// Whether an alternative is worth a line in the human output and the Markdown comment.
pub fn worth_showing(a: &Alternative) -> bool {
    a.saving_share >= SHOW_FROM
}

/// Grid intensity × PUE of a region: what the operational figure scales with when only the
/// region changes (the embodied figure does not depend on it).
fn region_factor(provider: Provider, region: &str) -> Option<f64> {
    let g = data::grid_intensity(provider, region)?.g_co2eq_per_kwh;
    let pue = data::pue_in_region(provider, region)
        .or_else(|| data::coefficients(provider).map(|c| c.pue))?;
    Some(g * pue)
}

/// The candidate region of lowest grid intensity × PUE in the same jurisdiction as `region`,
/// when it is lower than `region`'s own (ties: the first by name).
pub fn cleanest_region(provider: Provider, region: &str) -> Option<&'static tables::Place> {
    let here = tables::place(provider, region)?;
    let jurisdiction = here.jurisdiction.as_deref()?;
    let own = region_factor(provider, region)?;
    tables::sorted_places(provider)
        .iter()
        .copied()
        .filter(|p| p.candidate && p.jurisdiction.as_deref() == Some(jurisdiction))
        .filter(|p| p.region != here.region)
        .filter_map(|p| region_factor(provider, &p.region).map(|f| (p, f)))
        .filter(|(_, f)| *f < own)
        .min_by(|a, b| {
            a.1.total_cmp(&b.1)
                .then_with(|| a.0.region.cmp(&b.0.region))
        })
        .map(|(p, _)| p)
}

/// A copy of `m` running as `target` (an ARM type from [`tables::arm_equivalent`]): its
/// machine type, vCPUs, memory and microarchitectures are the target's.
pub fn as_type(m: &MappedResource, target: &data::Instance) -> MappedResource {
    MappedResource {
        address: m.address.clone(),
        body: std::sync::Arc::new(crate::mapping::Body {
            machine_type: Some(target.name.clone()),
            vcpus: Some(target.vcpus),
            memory_gb: Some(target.memory_gib),
            cpu_types: target.cpu_architectures.clone(),
            ..(*m.body).clone()
        }),
    }
}

fn saving(
    kind: AlternativeKind,
    actual: &Side,
    alt: Side,
    jurisdiction: Option<&'static str>,
    reason: Text,
    settings: Settings,
    extra_source: Table,
) -> Option<Alternative> {
    let own = actual.per_hour.total_gco2eq;
    let s = own - alt.per_hour.total_gco2eq;
    if !(s > 0.0 && own > 0.0) {
        return None;
    }
    Some(Alternative {
        kind,
        region: alt.region,
        machine_type: alt.machine_type,
        jurisdiction,
        grid_g_per_kwh: alt.grid_g_per_kwh,
        per_hour: alt.per_hour,
        saving_gco2eq_per_hour: s,
        saving_gco2eq_per_period: s * settings.period.hours(),
        saving_share: s / own,
        reason,
        sources: alt.sources.with(extra_source),
    })
}

type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// Past this many entries, a memo of this thread is emptied before it takes another.
const CAP: usize = 4096;

/// A region's row and the cleanest region of its jurisdiction, and the reason last written
/// for moving there (by the grid intensities it quotes).
struct RegionChoice {
    here: Option<&'static tables::Place>,
    best: Option<&'static tables::Place>,
    reason: Option<Reason>,
}

/// A machine type's ARM equivalent and the reason that names it.
struct ArmChoice {
    target: data::Instance,
    reason: Text,
}

/// The ARM equivalents of the types seen, by what decides one: the name, the vCPUs and
/// memory the mapping read.
type ArmKey = (Option<u64>, Option<u64>, Option<Rc<ArmChoice>>);

#[derive(Default)]
struct Memo {
    regions: [Map<Box<str>, RegionChoice>; 3],
    arm: [Map<Box<str>, Vec<ArmKey>>; 3],
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::default();
}

/// The row of a region and the cleanest region of its jurisdiction.
type Places = (&'static tables::Place, &'static tables::Place);

/// A region alternative's reason, and the grid intensities (as bits) it quotes.
type Reason = (u64, u64, Text);

/// The row of `region` and the cleanest region of its jurisdiction (when there is a cleaner
/// one), with the reason last written for moving there, remembered on this thread.
fn region_alternative(provider: Provider, region: &str) -> Option<(Places, Option<Reason>)> {
    let (here, best, cached) = MEMO.with_borrow_mut(|memo| {
        let map = &mut memo.regions[provider as usize];
        if map.len() >= CAP && !map.contains_key(region) {
            map.clear();
        }
        let c = map.entry(region.into()).or_insert_with(|| RegionChoice {
            here: tables::place(provider, region),
            best: cleanest_region(provider, region),
            reason: None,
        });
        (c.here, c.best, c.reason.clone())
    });
    Some(((here?, best?), cached))
}

/// The alternatives of one resource's after side (`m` is what the mapping found for it,
/// `actual` its priced side): the cleanest region of its jurisdiction, then the ARM type.
pub fn for_resource(m: &MappedResource, actual: &Side, settings: Settings) -> Vec<Alternative> {
    let Some(provider) = Provider::parse(&m.provider) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(region) = m.region.as_deref()
        && let Some(((here, best), cached)) = region_alternative(provider, region)
    {
        let moved = Subject {
            region: Some(&best.region),
            ..Subject::of(m)
        };
        if let Some(alt) = carbon::price_side(&moved, settings) {
            let grids = (
                alt.grid_g_per_kwh.unwrap_or(0.0).to_bits(),
                actual.grid_g_per_kwh.unwrap_or(0.0).to_bits(),
            );
            let reason = match cached {
                Some((a, b, text)) if (a, b) == grids => text,
                _ => {
                    let sig = crate::estimate::sig3;
                    let text: Text = format!(
                        "the same resource in {} ({}), the lowest grid intensity of the {} regions: {} vs {} gCO2eq/kWh in {} (that the type is offered there is assumed: the tables do not say)",
                        best.region,
                        best.location,
                        here.jurisdiction.as_deref().unwrap_or(""),
                        sig(alt.grid_g_per_kwh.unwrap_or(0.0)),
                        sig(actual.grid_g_per_kwh.unwrap_or(0.0)),
                        here.region,
                    )
                    .into();
                    MEMO.with_borrow_mut(|memo| {
                        if let Some(c) = memo.regions[provider as usize].get_mut(region) {
                            c.reason = Some((grids.0, grids.1, text.clone()));
                        }
                    });
                    text
                }
            };
            out.extend(saving(
                AlternativeKind::Region,
                actual,
                alt,
                here.jurisdiction.as_deref(),
                reason,
                settings,
                Table::Geography,
            ));
        }
    }
    if let Some(arm) = arm_choice(provider, m) {
        let as_arm = Subject {
            shape: Some(&arm.target),
            ..Subject::of(m)
        };
        if let Some(alt) = carbon::price_side(&as_arm, settings) {
            out.extend(saving(
                AlternativeKind::Arm,
                actual,
                alt,
                None,
                arm.reason.clone(),
                settings,
                Table::ArmEquivalents,
            ));
        }
    }
    out.shrink_to_fit();
    out
}

/// [`tables::arm_equivalent`] of `m`, remembered on this thread, with the reason that names it.
fn arm_choice(provider: Provider, m: &MappedResource) -> Option<Rc<ArmChoice>> {
    let name = m.machine_type.as_deref()?;
    if !m.gpus.is_empty() {
        return None;
    }
    let (vcpus, memory) = (m.vcpus.map(f64::to_bits), m.memory_gb.map(f64::to_bits));
    MEMO.with_borrow_mut(|memo| {
        let map = &mut memo.arm[provider as usize];
        if let Some(seen) = map.get(name)
            && let Some((_, _, c)) = seen.iter().find(|(v, g, _)| (*v, *g) == (vcpus, memory))
        {
            return c.clone();
        }
        let choice = tables::arm_equivalent(m).map(|(target, rule)| {
            let reason = format!(
                "{} ({}), the same {} vCPU and {} GiB as {}",
                target.name,
                rule.processor,
                crate::render::carbon::trim_num(target.vcpus),
                crate::render::carbon::trim_num(target.memory_gib),
                name,
            );
            Rc::new(ArmChoice {
                target,
                reason: reason.into(),
            })
        });
        if map.len() >= CAP && !map.contains_key(name) {
            map.clear();
        }
        map.entry(name.into())
            .or_default()
            .push((vcpus, memory, choice.clone()));
        choice
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cleanest_region_stays_in_the_jurisdiction() {
        let best = cleanest_region(Provider::Aws, "eu-west-1").unwrap();
        assert_eq!(best.region, "eu-north-1");
        // London is UK, not EU/EEA; Zurich is CH
        assert!(
            cleanest_region(Provider::Aws, "eu-west-2").is_none(),
            "eu-west-2 is the only UK region"
        );
        assert!(cleanest_region(Provider::Aws, "eu-central-2").is_none());
        // GovCloud never advises a commercial region, nor the reverse
        let us = cleanest_region(Provider::Aws, "us-east-1").unwrap();
        assert_eq!(us.jurisdiction.as_deref(), Some("US"));
        assert!(!us.region.starts_with("us-gov"));
        // already the cleanest: nothing
        assert!(cleanest_region(Provider::Aws, "eu-north-1").is_none());
        // an unknown region: nothing
        assert!(cleanest_region(Provider::Aws, "xx-nowhere-1").is_none());
    }
}
