//! Instance lookups: EC2/RDS/ElastiCache types, GCP machine types (custom types and Cloud SQL tiers from their names), Azure VM sizes.

use super::{Instance, InstanceOrigin, Provider, tables};

/// The last path segment, so that a GCP self link or `zones/z/machineTypes/n2-standard-4` works.
pub(super) fn last_segment(name: &str) -> &str {
    name.trim().rsplit('/').next().unwrap_or("")
}

/// Looks an instance type up: AWS EC2 types, RDS `db.*` classes and ElastiCache `cache.*` node
/// types (a `db.`/`cache.` type missing from the table falls back to its EC2 type), GCP machine types (predefined, or custom types computed
/// from the name; Cloud SQL `db-*` tiers too, see [`gcp_sql_tier`]), Azure VM sizes (ARM names,
/// any case; the `Standard_` prefix may be left out).
pub fn instance(provider: Provider, name: &str) -> Option<Instance> {
    let t = tables();
    let pt = t.provider(provider);
    let name = match provider {
        Provider::Gcp => last_segment(name),
        _ => name.trim(),
    };
    if name.is_empty() {
        return None;
    }
    if let Some(i) = pt.instances.get(name) {
        return Some(i.clone());
    }
    let lower = name.to_ascii_lowercase();
    if let Some(i) = pt.lower.get(&lower).and_then(|k| pt.instances.get(k)) {
        return Some(i.clone());
    }
    match provider {
        Provider::Aws => {
            let base = aws_ec2_base(&lower)?;
            let ec2 = pt.instances.get(base)?;
            Some(Instance {
                name: lower.clone(),
                ..ec2.clone()
            })
        }
        Provider::Azure => {
            let key = pt.lower.get(&format!("standard_{lower}"))?;
            pt.instances.get(key).cloned()
        }
        Provider::Gcp => gcp_custom(name).or_else(|| {
            name.to_ascii_lowercase()
                .starts_with("db-")
                .then(|| gcp_sql_tier(name))
                .flatten()
        }),
    }
}

/// The EC2 type behind an RDS `db.*` class or an ElastiCache `cache.*` node type (and the
/// `kafka.`/`express.` MSK, `dms.`, `mq.` and `*.search`/`*.elasticsearch` OpenSearch names).
pub(super) fn aws_ec2_base(lower: &str) -> Option<&str> {
    ["db.", "cache.", "kafka.", "express.", "dms.", "mq."]
        .iter()
        .find_map(|p| lower.strip_prefix(p))
        .or_else(|| lower.strip_suffix(".search"))
        .or_else(|| lower.strip_suffix(".elasticsearch"))
}

/// A GCP custom machine type parsed from its name:
/// `custom-N-M` (N1), `<family>-custom-N-M` (`n2`, `n2d`, `n4`, `e2`, ...), optionally ending in
/// `-ext` (extended memory), and the E2 shared-core `e2-custom-{micro,small,medium}-M`
/// (2 vCPUs, like the predefined shared-core types). N = vCPUs, M = memory in MiB. The family
/// must have predefined types in the table; its CPU microarchitectures are theirs.
pub fn gcp_custom(name: &str) -> Option<Instance> {
    let name = last_segment(name);
    let lower = name.to_ascii_lowercase();
    let body = lower.strip_suffix("-ext").unwrap_or(&lower);
    let parts: Vec<&str> = body.split('-').collect();
    let (family, vcpus, mem) = match parts.as_slice() {
        ["custom", n, m] => ("n1", parse_count(n)?, parse_count(m)?),
        ["e2", "custom", "micro" | "small" | "medium", m] => ("e2", 2.0, parse_count(m)?),
        [f, "custom", n, m] => (*f, parse_count(n)?, parse_count(m)?),
        _ => return None,
    };
    let t = tables();
    let prefix = format!("{family}-");
    // Architectures of the family's predefined types (the -standard ones first).
    let mut members: Vec<&Instance> = t
        .gcp
        .instances
        .values()
        .filter(|i| i.name.starts_with(&prefix) && !i.name[prefix.len()..].starts_with("custom"))
        .collect();
    if members.is_empty() {
        return None;
    }
    members.sort_by(|a, b| {
        let sa = a.name.starts_with(&format!("{family}-standard"));
        let sb = b.name.starts_with(&format!("{family}-standard"));
        sb.cmp(&sa).then_with(|| a.name.cmp(&b.name))
    });
    let cpu_architectures = members
        .iter()
        .map(|i| &i.cpu_architectures)
        .find(|a| !a.is_empty())
        .cloned()
        .unwrap_or_default();
    Some(Instance {
        provider: Provider::Gcp,
        name: name.to_string(),
        vcpus,
        memory_gib: mem / 1024.0,
        gpus: Vec::new(),
        cpu_architectures,
        family: Some(format!("{family}-custom")),
        local_storage: None,
        origin: InstanceOrigin::FromName,
    })
}

/// A positive integer count.
fn parse_count(s: &str) -> Option<f64> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = s.parse().ok()?;
    (n > 0).then_some(f64::from(n))
}

/// A Cloud SQL tier: the table's (`db-f1-micro`, `db-n1-standard-4`, ...) or `db-custom-N-M`
/// (N vCPUs, M MiB), computed from the name with the N1 microarchitectures.
pub fn gcp_sql_tier(name: &str) -> Option<Instance> {
    let t = tables();
    let name = name.trim();
    if let Some(i) = t.gcp_sql.get(name) {
        return Some(i.clone());
    }
    let lower = name.to_ascii_lowercase();
    if let Some(i) = t.gcp_sql.get(&lower) {
        return Some(i.clone());
    }
    let rest = lower.strip_prefix("db-custom-")?;
    let (n, m) = rest.split_once('-')?;
    let (vcpus, mem) = (parse_count(n)?, parse_count(m)?);
    let cpu_architectures = t
        .gcp_sql
        .get("db-n1-standard-1")
        .map(|i| i.cpu_architectures.clone())
        .unwrap_or_default();
    Some(Instance {
        provider: Provider::Gcp,
        name: name.to_string(),
        vcpus,
        memory_gib: mem / 1024.0,
        gpus: Vec::new(),
        cpu_architectures,
        family: Some("db-custom".to_string()),
        local_storage: None,
        origin: InstanceOrigin::FromName,
    })
}

/// Every instance type in a provider's table, sorted (GCP Cloud SQL tiers not included).
pub fn instance_types(provider: Provider) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = tables()
        .provider(provider)
        .instances
        .keys()
        .map(String::as_str)
        .collect();
    v.sort_unstable();
    v
}

/// Every Cloud SQL tier in the table, sorted.
pub fn gcp_sql_tiers() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = tables().gcp_sql.keys().map(String::as_str).collect();
    v.sort_unstable();
    v
}

// ------------------------------------------------------------------ power
