//! `carbon-show usage template`: the usage file listing every resource of a plan whose figure
//! depends on usage, each key `null` with a comment (its unit, what it feeds, where to read it);
//! rerun over an existing file, it keeps the values there and adds the new resources.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{Entry, Key, Kind, Usage, type_of};
use crate::mapping::MappedPlan;

/// One resource the template lists: its address and type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct TemplateEntry {
    pub address: String,
    pub resource_type: String,
}

/// The usage-dependent resources of a mapped plan (after side, then resources only the
/// before side has), in address order, each once.
pub fn entries_of(mapped: &MappedPlan) -> Vec<TemplateEntry> {
    let mut out: BTreeMap<&str, &str> = BTreeMap::new();
    for m in mapped.after.iter().chain(&mapped.before) {
        if type_of(&m.resource_type).is_some() {
            out.entry(&m.address).or_insert(&m.resource_type);
        }
    }
    out.into_iter()
        .map(|(a, t)| TemplateEntry {
            address: a.to_string(),
            resource_type: t.to_string(),
        })
        .collect()
}

/// A YAML double-quoted scalar (JSON's string syntax is YAML's): an address or a type can
/// hold quotes, brackets and any character, and stays one key.
fn yaml_str(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

/// A value as the file writes it.
fn value(v: Option<f64>) -> String {
    match v {
        None => "null".to_string(),
        Some(x) => format!("{x}"),
    }
}

/// What a key feeds, for the template's comments.
fn feeds(kind: Kind, key: Key) -> String {
    match (kind, key) {
        (Kind::Storage { ssd, replication }, _) => format!(
            "{} storage power x replication factor {replication}",
            if ssd { "SSD" } else { "HDD" }
        ),
        (Kind::Network, _) => "networking energy per GB".to_string(),
        (Kind::Invocations, _) => "the share of the month the function's shape runs".to_string(),
    }
}

/// The template's text: `existing`'s values kept (its type defaults, and every address it
/// lists, with the keys it declares), `entries` added with `null` for each key their type
/// takes.
pub fn merge(entries: &[TemplateEntry], existing: Option<&Usage>) -> String {
    let mut out = String::new();
    out.push_str(
        "# carbon-show usage file (docs/usage.md): the usage that figures need and no plan holds.\n\
         # Replace each null with a number (a null key is not counted); values are monthly.\n\
         # `carbon-show usage template PLAN` adds the plan's new resources and keeps these values.\n\
         # Per-resource keys any resource takes: monthly_hours (hours running per month, 730 =\n\
         # always) and utilization_percent (% CPU utilisation, overrides --utilization).\n\
         version: 0.1\n",
    );
    let empty = BTreeMap::new();
    let (types, addresses) = existing.map_or((&empty, &empty), |u| (&u.by_type, &u.by_address));
    out.push_str("resource_type_default_usage:");
    if types.is_empty() {
        out.push_str(" {}\n");
    } else {
        out.push('\n');
        for (t, e) in types {
            write_entry(&mut out, t, Some(t), e, &[]);
        }
    }
    let mut all: BTreeMap<&str, (Option<&str>, Option<&Entry>)> = BTreeMap::new();
    for (a, e) in addresses {
        // an address the plan no longer has keeps its values, and its type's comments
        all.insert(a, (super::apply::address_type(a), Some(e)));
    }
    for t in entries {
        all.entry(&t.address).or_insert((None, None)).0 = Some(&t.resource_type);
    }
    out.push_str("resource_usage:");
    if all.is_empty() {
        out.push_str(" {}\n");
        return out;
    }
    out.push('\n');
    let none = Entry::default();
    for (address, (t, e)) in all {
        let keys: &[Key] = t.and_then(type_of).map_or(&[], |u| u.kind.keys());
        write_entry(&mut out, address, t, e.unwrap_or(&none), keys);
    }
    out
}

/// One entry: its name, then every key it declares and every key its type takes (`null` when
/// not declared), each with its comment.
fn write_entry(out: &mut String, name: &str, t: Option<&str>, e: &Entry, keys: &[Key]) {
    let u = t.and_then(type_of);
    if let Some(u) = u {
        let _ = writeln!(out, "  # {}: read it in {}", u.service, u.hint);
    }
    let _ = writeln!(out, "  {}:", yaml_str(name));
    let mut listed: Vec<Key> = keys.to_vec();
    for k in e.values.keys() {
        if !listed.contains(k) {
            listed.push(*k);
        }
    }
    listed.sort();
    if listed.is_empty() {
        let _ = writeln!(out, "    {{}}");
        return;
    }
    for k in listed {
        let v = e.values.get(&k).copied().flatten();
        let what = match u {
            Some(u) if u.kind.keys().contains(&k) => format!("; feeds {}", feeds(u.kind, k)),
            _ => String::new(),
        };
        let _ = writeln!(out, "    {}: {} # {}{what}", k.name(), value(v), k.unit());
    }
}
