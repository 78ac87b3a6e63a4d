//! Resources a plan's `planned_values`/`prior_state` lack, mapped from its `resource_changes`' `after`/`before` values instead.
//!
//! A plan written by hand or by another tool may carry `resource_changes` but empty (or no)
//! `planned_values`: the mappings, which read `planned_values`, would then find nothing and the
//! summary would be silently empty. Each managed change of a mapped type whose address the
//! mapped plan lacks is mapped from the change's own values (its `after` for the state after
//! the change, its `before` for the state before), with the plan's `configuration` for
//! regions. Variables (`var.region`) are not available on this path.

use super::{Engine, MappedPlan};
use crate::plan::Plan;
use serde_json::{Value, json};
use std::collections::HashSet;

/// Adds to `mapped` the resources it lacks that `plan`'s resource changes describe. Returns
/// how many were added (both sides).
pub fn fill_from_changes(plan: &Plan<'_>, mapped: &mut MappedPlan, engine: &Engine) -> usize {
    let types: HashSet<&str> = engine.resource_mappings().collect();
    let have = |side: &[super::MappedResource]| -> HashSet<String> {
        side.iter().map(|r| r.address.clone()).collect()
    };
    let (after_have, before_have) = (have(&mapped.after), have(&mapped.before));
    let known: HashSet<&str> = mapped
        .unsupported
        .iter()
        .chain(&mapped.ignored)
        .map(String::as_str)
        .collect();
    let mut after = Vec::new();
    let mut before = Vec::new();
    let mut unknown = Vec::new();
    for rc in plan.resource_changes.iter().flatten() {
        if rc.mode != "managed" || !types.contains(rc.type_.as_ref()) || rc.deposed.is_some() {
            continue;
        }
        let resource = |values: &str| -> Option<Value> {
            let v: Value = serde_json::from_str(values).ok()?;
            v.is_object().then(|| {
                json!({
                    "address": rc.address, "mode": rc.mode, "type": rc.type_,
                    "name": rc.name, "provider_name": rc.provider_name, "values": v,
                })
            })
        };
        let addr = rc.address.as_ref();
        if !after_have.contains(addr)
            && !known.contains(addr)
            && let Some(r) = resource(rc.change.after.text())
        {
            after.push(r);
            if let Ok(u) = serde_json::from_str::<Value>(rc.change.after_unknown.text()) {
                unknown.push(json!({"address": addr, "change": {"after_unknown": u}}));
            }
        }
        if !before_have.contains(addr)
            && let Some(r) = resource(rc.change.before.text())
        {
            before.push(r);
        }
    }
    if after.is_empty() && before.is_empty() {
        return 0;
    }
    // The side documents are written as text, the plan's `configuration` spliced in as
    // written (a `serde_json::Value` of it and its copy as jaq values cost about 40 times its
    // text), and mapped as any document is.
    let configuration = plan.configuration.map_or("null", |c| c.get());
    let side = |resources: Vec<Value>, unknown: &[Value]| {
        let mut text = String::with_capacity(configuration.len() + 256);
        text.push_str("{\"configuration\":");
        text.push_str(configuration);
        text.push_str(",\"planned_values\":");
        text.push_str(&json!({"root_module": {"resources": resources}}).to_string());
        text.push_str(",\"resource_changes\":");
        text.push_str(&Value::from(unknown.to_vec()).to_string());
        text.push('}');
        text
    };
    let mut added = 0;
    if !after.is_empty() {
        let m = engine.map_text(&side(after, &unknown));
        added += m.after.len();
        mapped.after.extend(m.after);
    }
    if !before.is_empty() {
        let m = engine.map_text(&side(before, &[]));
        added += m.after.len();
        mapped.before.extend(m.after);
    }
    added
}
