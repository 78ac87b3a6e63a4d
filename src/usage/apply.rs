//! Applying a usage file to the mapped resources: a usage-dependent resource with its usage
//! declared gets the shape it is priced by (storage, data processed, a share of the month);
//! without it, its reason names the keys that would estimate it and the template command.

use std::collections::BTreeSet;

use super::{Applied, Entry, HOURS_PER_MONTH, Input, Key, Kind, Origin, Usage, type_of};
use crate::mapping::{DiskKind, MappedPlan, MappedResource, Storage};

/// Applies `usage` (or, with `None`, only the reasons) to both sides of `mapped`; returns the
/// warnings: unknown keys, keys a type does not take, entries that match no resource.
pub fn apply(usage: Option<&Usage>, mapped: &mut MappedPlan) -> Vec<String> {
    let mut used_addresses = BTreeSet::new();
    let mut used_types = BTreeSet::new();
    let mut warnings: Vec<String> = usage.map(|u| u.warnings.clone()).unwrap_or_default();
    for m in mapped.before.iter_mut().chain(mapped.after.iter_mut()) {
        let own = usage.and_then(|u| {
            let key = entry_key(u, &m.address)?;
            used_addresses.insert(key.clone());
            u.by_address.get(&key)
        });
        let default = usage.and_then(|u| {
            let e = u.by_type.get(&m.resource_type)?;
            used_types.insert(m.resource_type.clone());
            Some(e)
        });
        resource(m, usage.map(|u| &*u.file), own, default);
    }
    if let Some(u) = usage {
        for (address, e) in &u.by_address {
            if !used_addresses.contains(address) {
                warnings.push(format!(
                    "{}:{}: resource_usage {} matches no resource of the plan",
                    u.file,
                    e.line,
                    super::file::quoted(address)
                ));
            }
            check_keys(u, address, e, address_type(address), &mut warnings);
        }
        for (t, e) in &u.by_type {
            if !used_types.contains(t) {
                warnings.push(format!(
                    "{}:{}: resource_type_default_usage {} matches no resource of the plan",
                    u.file,
                    e.line,
                    super::file::quoted(t)
                ));
            }
            check_keys(u, t, e, Some(t), &mut warnings);
        }
    }
    warnings
}

/// The resource type of an address (`module.a.aws_s3_bucket.b["x"]` → `aws_s3_bucket`).
pub(super) fn address_type(address: &str) -> Option<&str> {
    // the instance key goes first (`[0]`, `["a.b"]`), then the type is the part before the
    // name (types and names hold no dots; module keys before them may)
    let base = match address.rfind('[') {
        Some(i) if address.ends_with(']') => &address[..i],
        _ => address,
    };
    let mut parts = base.rsplitn(3, '.');
    parts.next()?;
    parts.next().filter(|t| !t.is_empty())
}

/// Warns about the keys of an entry that its type does not take.
fn check_keys(u: &Usage, name: &str, e: &Entry, t: Option<&str>, warnings: &mut Vec<String>) {
    let Some(kind) = t.and_then(type_of).map(|t| t.kind) else {
        return;
    };
    for k in e.values.keys() {
        let general = matches!(k, Key::MonthlyHours | Key::UtilizationPercent);
        if !general && !kind.keys().contains(k) {
            warnings.push(format!(
                "{}:{}: {}: {} does not apply to {} (it takes {})",
                u.file,
                e.line,
                super::file::quoted(name),
                k.name(),
                t.unwrap_or_default(),
                keys_text(kind)
            ));
        }
    }
}

/// The entry of `resource_usage` that applies to `address`: its own, or its block's
/// `name[*]`.
fn entry_key(u: &Usage, address: &str) -> Option<String> {
    if u.by_address.contains_key(address) {
        return Some(address.to_string());
    }
    let open = address.rfind('[').filter(|_| address.ends_with(']'))?;
    let all = format!("{}[*]", &address[..open]);
    u.by_address.contains_key(&all).then_some(all)
}

fn keys_text(kind: Kind) -> String {
    kind.keys()
        .iter()
        .map(|k| format!("{} ({})", k.name(), k.unit()))
        .collect::<Vec<_>>()
        .join(" and ")
}

/// The reason a usage-dependent resource without its usage is not estimated: the keys that
/// would estimate it and the command that writes them (short enough for a `# ≈` line of 100
/// columns; the units are in the template).
pub fn reason(kind: Kind) -> String {
    let keys: Vec<&str> = kind.keys().iter().map(|k| k.name()).collect();
    format!(
        "needs {} in {} (carbon-show usage template)",
        keys.join(" and "),
        super::FILE_NAME
    )
}

/// Whether a mapping warning is a note `validator: "unsupported: …"`.
fn is_unsupported_note(w: &str) -> bool {
    w.strip_prefix("validator: ")
        .and_then(|t| serde_json::from_str::<String>(t).ok())
        .is_some_and(|t| t.starts_with("unsupported: "))
}

/// Whether a mapping warning is the note that one instance is assumed busy all hour.
fn is_busy_note(w: &str) -> bool {
    w.strip_prefix("validator: ")
        .and_then(|t| serde_json::from_str::<String>(t).ok())
        .is_some_and(|t| t.starts_with("assumed: ") && t.contains("busy all hour"))
}

fn note(text: &str) -> String {
    format!(
        "validator: {}",
        serde_json::to_string(text).expect("a string serialises")
    )
}

/// One resource: its declared values (its own over its type's), applied.
fn resource(
    m: &mut MappedResource,
    file: Option<&str>,
    own: Option<&Entry>,
    default: Option<&Entry>,
) {
    let mut inputs = Vec::new();
    for key in Key::ALL {
        let pick = |e: Option<&Entry>| e.and_then(|e| e.values.get(&key).copied().flatten());
        if let Some(v) = pick(own) {
            inputs.push(Input {
                key,
                value: v,
                origin: Origin::Address,
            });
        } else if let Some(v) = pick(default) {
            inputs.push(Input {
                key,
                value: v,
                origin: Origin::TypeDefault,
            });
        }
    }
    let get = |k: Key| inputs.iter().find(|i| i.key == k).map(|i| i.value);
    let mut applied = Applied {
        file: file.unwrap_or(super::FILE_NAME).into(),
        inputs: Vec::new(),
        share: 1.0,
        network_gb_per_month: 0.0,
        utilization: None,
    };
    let mut used: Vec<Key> = Vec::new();
    if let Some(t) = type_of(&m.resource_type) {
        let have = t.kind.keys().iter().all(|k| get(*k).is_some());
        match (t.kind, have) {
            (Kind::Storage { ssd, replication }, true) => {
                m.storage = vec![Storage {
                    size_gb: get(Key::StorageGb).unwrap_or(0.0),
                    kind: if ssd { DiskKind::Ssd } else { DiskKind::Hdd },
                    key: None,
                }];
                // a mapping that reads the replication from the plan (a bucket's location,
                // an account's replication type) has set its own
                if m.replication_factor <= 1 {
                    m.replication_factor = replication;
                }
                priced_by_usage(m);
            }
            (Kind::Network, true) => {
                applied.network_gb_per_month = get(Key::MonthlyDataProcessedGb).unwrap_or(0.0);
                priced_by_usage(m);
            }
            (Kind::Invocations, true) => {
                let seconds = get(Key::MonthlyRequests).unwrap_or(0.0)
                    * get(Key::AverageDurationMs).unwrap_or(0.0)
                    / 1000.0;
                applied.share = seconds / (HOURS_PER_MONTH * 3600.0);
                m.warnings.retain(|w| !is_busy_note(w));
            }
            (Kind::Storage { .. } | Kind::Network, false) => {
                // (its figures written only when a note is there: a body it shares stays shared)
                if m.warnings.iter().any(|w| is_unsupported_note(w)) {
                    let text = format!("unsupported: {}", reason(t.kind));
                    for w in &mut m.warnings {
                        if is_unsupported_note(w) {
                            *w = note(&text);
                        }
                    }
                }
                return;
            }
            (Kind::Invocations, false) => {}
        }
        if have {
            used.extend_from_slice(t.kind.keys());
        }
    }
    if let Some(h) = get(Key::MonthlyHours) {
        applied.share *= h / HOURS_PER_MONTH;
        used.push(Key::MonthlyHours);
    }
    if let Some(p) = get(Key::UtilizationPercent) {
        applied.utilization = Some(p / 100.0);
        used.push(Key::UtilizationPercent);
    }
    if used.is_empty() {
        return;
    }
    applied.inputs = inputs
        .into_iter()
        .filter(|i| used.contains(&i.key))
        .collect();
    m.usage = Some(Box::new(applied));
}

/// A resource priced from its usage alone: no CPU, no memory of its own, the mapping's
/// `unsupported` note dropped.
fn priced_by_usage(m: &mut MappedResource) {
    m.vcpus = Some(0.0);
    m.memory_gb = Some(0.0);
    m.warnings.retain(|w| !is_unsupported_note(w));
}
