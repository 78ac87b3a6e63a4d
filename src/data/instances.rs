//! Instance lookups: EC2/RDS/ElastiCache types, GCP machine types (custom types and Cloud SQL tiers from their names), Azure VM sizes.

use super::tables::{self, InstanceRow};
use super::{GpuCount, Instance, InstanceOrigin, LocalStorage, Provider};

/// A table row as an [`Instance`].
pub(super) fn to_instance(provider: Provider, row: &InstanceRow) -> Instance {
    Instance {
        provider,
        name: row.name.get().to_string(),
        vcpus: row.vcpus,
        memory_gib: row.memory_mb / 1024.0,
        gpus: row
            .gpus
            .get()
            .iter()
            .map(|(model, count)| GpuCount {
                model: model.get().to_string(),
                count: *count,
            })
            .collect(),
        cpu_architectures: row.cpu_types.strings(),
        family: row.family.map(|f| f.get().to_string()),
        local_storage: row.storage.map(|s| LocalStorage {
            disks: s.disks,
            gb_per_disk: s.gb_per_disk,
            kind: s.kind.get().to_string(),
        }),
        origin: InstanceOrigin::Table,
    }
}

/// The last path segment, so that a GCP self link or `zones/z/machineTypes/n2-standard-4` works.
pub(super) fn last_segment(name: &str) -> &str {
    name.trim().rsplit('/').next().unwrap_or("")
}

/// Looks an instance type up: AWS EC2 types, RDS `db.*` classes and ElastiCache `cache.*` node
/// types (a `db.`/`cache.` type missing from the table falls back to its EC2 type), GCP machine types (predefined, or custom types computed
/// from the name; Cloud SQL `db-*` tiers too, see [`gcp_sql_tier`]), Azure VM sizes (ARM names,
/// any case; the `Standard_` prefix may be left out).
pub fn instance(provider: Provider, name: &str) -> Option<Instance> {
    let pt = tables::provider(provider);
    let name = match provider {
        Provider::Gcp => last_segment(name),
        _ => name.trim(),
    };
    if name.is_empty() {
        return None;
    }
    if let Some(i) = pt.instance(name) {
        return Some(to_instance(provider, i));
    }
    let lower = name.to_ascii_lowercase();
    if let Some(i) = pt.instance_lower(&lower) {
        return Some(to_instance(provider, i));
    }
    match provider {
        Provider::Aws => {
            let base = aws_ec2_base(&lower)?;
            let ec2 = pt.instance(base)?;
            Some(Instance {
                name: lower.clone(),
                ..to_instance(provider, ec2)
            })
        }
        Provider::Azure => {
            let row = pt.instance_lower(&format!("standard_{lower}"))?;
            Some(to_instance(provider, row))
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
    let prefix = format!("{family}-");
    // Architectures of the family's predefined types (the -standard ones first, each group in
    // name order).
    let members: Vec<&InstanceRow> = tables::provider(Provider::Gcp)
        .instances_with_prefix(&prefix)
        .iter()
        .filter(|i| !i.name.get()[prefix.len()..].starts_with("custom"))
        .collect();
    if members.is_empty() {
        return None;
    }
    let standard = format!("{family}-standard");
    let (first, rest): (Vec<&InstanceRow>, Vec<&InstanceRow>) = members
        .into_iter()
        .partition(|i| i.name.get().starts_with(&standard));
    let cpu_architectures = first
        .iter()
        .chain(&rest)
        .map(|i| i.cpu_types)
        .find(|a| !a.get().is_empty())
        .map(|a| a.strings())
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
    let sql = tables::gcp_sql();
    let row = |name: &str| tables::find(sql, |r| r.name, name);
    let name = name.trim();
    if let Some(i) = row(name) {
        return Some(to_instance(Provider::Gcp, i));
    }
    let lower = name.to_ascii_lowercase();
    if let Some(i) = row(&lower) {
        return Some(to_instance(Provider::Gcp, i));
    }
    let rest = lower.strip_prefix("db-custom-")?;
    let (n, m) = rest.split_once('-')?;
    let (vcpus, mem) = (parse_count(n)?, parse_count(m)?);
    let cpu_architectures = row("db-n1-standard-1")
        .map(|i| i.cpu_types.strings())
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
    // the table is sorted by name
    tables::provider(provider)
        .instances
        .iter()
        .map(|i| i.name.get())
        .collect()
}

/// Every Cloud SQL tier in the table, sorted.
pub fn gcp_sql_tiers() -> Vec<&'static str> {
    tables::gcp_sql().iter().map(|i| i.name.get()).collect()
}
