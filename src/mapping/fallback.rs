//! Resources a plan's `planned_values`/`prior_state` lack, mapped from its `resource_changes`' `after`/`before` values instead.
//!
//! A plan written by hand or by another tool may carry `resource_changes` but empty (or no)
//! `planned_values`: the mappings, which read `planned_values`, would then find nothing and the
//! summary would be silently empty. Each managed change of a mapped type whose address the
//! mapped plan lacks is mapped from the change's own values (its `after` for the state after
//! the change, its `before` for the state before), with the plan's `configuration` and
//! variables for regions.

use super::config::Config;
use super::{Engine, MappedPlan};
use crate::plan::{Plan, ResourceChange};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::collections::HashSet;

/// Sets of addresses, hashed for speed (they are the plan's own, not chosen to collide).
type Addresses<'m> = HashSet<&'m str, foldhash::fast::RandomState>;

/// Adds to `mapped` the resources it lacks that `plan`'s resource changes describe. Returns
/// how many were added (both sides).
pub fn fill_from_changes(
    plan: &Plan<'_>,
    mapped: &mut MappedPlan,
    engine: &Engine,
    config: &Config<'_>,
) -> usize {
    let types: Addresses<'_> = engine.resource_mappings().collect();
    // the addresses each side has, borrowed (dropped before the sides are extended), built
    // on two cores
    fn have(side: &[super::MappedResource]) -> Addresses<'_> {
        side.iter().map(|r| &*r.address).collect()
    }
    let ((after_have, before_have), known) = rayon::join(
        || rayon::join(|| have(&mapped.after), || have(&mapped.before)),
        || -> Addresses<'_> {
            mapped
                .unsupported
                .iter()
                .chain(&mapped.ignored)
                .map(String::as_str)
                .collect()
        },
    );
    // the changes whose address a side lacks, on every core; only those are read further
    let lacking: Vec<(&ResourceChange<'_>, bool, bool)> = plan
        .resource_changes
        .as_deref()
        .unwrap_or_default()
        .par_iter()
        .filter(|rc| {
            rc.mode == "managed" && types.contains(rc.type_.as_ref()) && rc.deposed().is_none()
        })
        .filter_map(|rc| {
            let addr = rc.address.as_ref();
            let after = !after_have.contains(addr) && !known.contains(addr);
            let before = !before_have.contains(addr);
            (after || before).then_some((rc, after, before))
        })
        .collect();
    drop((after_have, before_have, known, types));
    let mut after = Vec::new();
    let mut before = Vec::new();
    let mut unknown = Vec::new();
    for (rc, lacks_after, lacks_before) in lacking {
        // the change's mask goes where `planned_values` keeps it (`mapping::taint`)
        let resource = |values: &str, mask: &str| -> Option<Value> {
            let v: Value = serde_json::from_str(values).ok()?;
            let mask: Value = serde_json::from_str(mask).unwrap_or(Value::Null);
            v.is_object().then(|| {
                json!({
                    "address": rc.address, "mode": rc.mode, "type": rc.type_,
                    "name": rc.name, "provider_name": rc.provider_name, "values": v,
                    "sensitive_values": mask,
                })
            })
        };
        let addr = rc.address.as_ref();
        if lacks_after
            && let Some(r) = resource(rc.change.after.text(), rc.change.after_sensitive.text())
        {
            after.push(r);
            if let Ok(u) = serde_json::from_str::<Value>(rc.change.after_unknown.text()) {
                unknown.push(json!({"address": addr, "change": {"after_unknown": u}}));
            }
        }
        if lacks_before
            && let Some(r) = resource(rc.change.before.text(), rc.change.before_sensitive.text())
        {
            before.push(r);
        }
    }
    if after.is_empty() && before.is_empty() {
        return 0;
    }
    // Each side is a small `planned_values` of its own, mapped with the plan's configuration
    // and variables as they are (read once: `config`). The document root is written out only
    // for mappings that read it.
    let side = |resources: Vec<Value>, unknown: &[Value]| -> MappedPlan {
        let pv = json!({"root_module": {"resources": resources}}).to_string();
        let Ok(pv) = serde_json::value::RawValue::from_string(pv) else {
            return MappedPlan::default();
        };
        let text = if engine.reads_document() {
            let configuration = plan.configuration.map_or("null", |c| c.get());
            format!(
                "{{\"configuration\":{configuration},\"planned_values\":{},\"resource_changes\":{}}}",
                pv.get(),
                Value::from(unknown.to_vec())
            )
        } else {
            String::new()
        };
        let marks: Vec<(String, String)> = unknown
            .iter()
            .filter_map(|u| {
                let a = u["address"].as_str()?.to_string();
                Some((a, u["change"]["after_unknown"].to_string()))
            })
            .collect();
        let sections = super::Sections {
            text: &text,
            planned_values: Some(&pv),
            configuration: plan.configuration,
            variables: plan.variables,
            unknown: marks
                .iter()
                .map(|(a, u)| (std::borrow::Cow::Borrowed(a.as_str()), u.as_str()))
                .collect(),
            ..Default::default()
        };
        engine.map_with_config(sections, config)
    };
    let mut added = 0;
    if !after.is_empty() {
        let m = side(after, &unknown);
        added += m.after.len();
        mapped.after.extend(m.after);
    }
    if !before.is_empty() {
        let m = side(before, &[]);
        added += m.after.len();
        mapped.before.extend(m.after);
    }
    added
}
