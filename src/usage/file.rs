//! Reading a usage file: bounded YAML, every value checked, each problem one line at
//! `file:line` (exit 10); unknown keys are kept as warnings, by name and place.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use super::{Entry, Key, Usage};
use crate::error::Error;
use crate::mapping::node::{Node, Spanned};

/// The largest usage file read (1 MiB: a template for 10,000 resources is about 1.5 MB of
/// comments, values alone far less).
pub const MAX_BYTES: usize = 1 << 20;

/// The YAML budget: a usage file is a two-level mapping of numbers, so that a few aliases,
/// a shallow depth and a bounded number of events are all it can need (no YAML bomb).
fn options() -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_aliases = 1_000;
    budget.max_anchors = 1_000;
    budget.max_events = 500_000;
    budget.max_depth = 16;
    budget.max_documents = 1;
    budget.max_nodes = 500_000;
    budget.max_total_scalar_bytes = MAX_BYTES;
    let mut o = serde_saphyr::Options::default();
    o.budget = Some(budget);
    o
}

fn error(file: &str, line: usize, message: impl std::fmt::Display) -> Error {
    Error::Config(format!("{file}:{line}: {message}"))
}

/// Reads and checks the usage file at `path`; `name` names it in messages and figures.
pub fn read(path: &Path, name: &str) -> Result<Usage, Error> {
    let name = &printable(name);
    let meta = std::fs::metadata(path)
        .map_err(|e| Error::Config(format!("{name}: cannot read the usage file: {e}")))?;
    if meta.len() > MAX_BYTES as u64 {
        return Err(Error::Config(format!(
            "{name}: the usage file is {} bytes, over the {MAX_BYTES}-byte limit: keep one entry per resource",
            meta.len()
        )));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::Config(format!("{name}: cannot read the usage file: {e}")))?;
    parse(name, &text)
}

/// A file name as messages and figures show it: no control character of it reaches a
/// terminal, a log or a comment.
fn printable(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Parses a usage file's text; `file` names it in messages.
pub fn parse(file: &str, text: &str) -> Result<Usage, Error> {
    let file = &printable(file);
    if text.len() > MAX_BYTES {
        return Err(error(
            file,
            1,
            format_args!("the usage file is over the {MAX_BYTES}-byte limit"),
        ));
    }
    let mut usage = Usage {
        file: Arc::from(file.as_str()),
        ..Usage::default()
    };
    if text.trim().is_empty() {
        return Ok(usage);
    }
    let root: Spanned<Node> =
        serde_saphyr::from_str_with_options(text, options()).map_err(|e| {
            let line = e.location().map_or(1, |l| l.line() as usize);
            let msg = e.to_string();
            let msg = msg.lines().next().unwrap_or("invalid YAML").to_string();
            error(file, line, format_args!("not valid YAML: {msg}"))
        })?;
    let line = |n: &Spanned<Node>| n.referenced.line() as usize;
    let Node::Map(top) = &root.value else {
        if matches!(root.value, Node::Null) {
            return Ok(usage);
        }
        return Err(error(
            file,
            line(&root),
            "expected a mapping with `version`, `resource_usage` and `resource_type_default_usage`",
        ));
    };
    for (k, v) in top {
        let at = k.referenced.line() as usize;
        match k.value.as_str() {
            "version" => match &v.value {
                Node::Num(_) | Node::Str(_) => {}
                _ => return Err(error(file, at, "version: expected a number such as 0.1")),
            },
            "resource_usage" => usage.by_address = section(file, k, v, &mut usage.warnings)?,
            "resource_type_default_usage" => {
                usage.by_type = section(file, k, v, &mut usage.warnings)?
            }
            other => usage.warnings.push(format!(
                "{file}:{at}: unknown key {} ignored (expected version, resource_usage or resource_type_default_usage)",
                quoted(other)
            )),
        }
    }
    Ok(usage)
}

/// A name as the messages quote it: escaped, so that it cannot break the line it is in.
pub(super) fn quoted(s: &str) -> String {
    format!("{:?}", s.chars().take(200).collect::<String>())
}

/// One section: resource (or type) → key → number.
fn section(
    file: &str,
    name: &Spanned<String>,
    body: &Spanned<Node>,
    warnings: &mut Vec<String>,
) -> Result<BTreeMap<String, Entry>, Error> {
    let mut out = BTreeMap::new();
    let items = match &body.value {
        Node::Map(m) => m.as_slice(),
        Node::Null => &[],
        _ => {
            return Err(error(
                file,
                body.referenced.line() as usize,
                format_args!(
                    "{}: expected a mapping of resources to their usage",
                    name.value
                ),
            ));
        }
    };
    for (resource, values) in items {
        let at = resource.referenced.line() as usize;
        let what = quoted(&resource.value);
        let mut entry = Entry {
            line: at,
            ..Entry::default()
        };
        let pairs = match &values.value {
            Node::Map(m) => m.as_slice(),
            Node::Null => &[],
            _ => {
                return Err(error(
                    file,
                    values.referenced.line() as usize,
                    format_args!("{what}: expected a mapping of usage keys to numbers"),
                ));
            }
        };
        for (k, v) in pairs {
            let line = k.referenced.line() as usize;
            let Some(key) = Key::parse(&k.value) else {
                warnings.push(format!(
                    "{file}:{line}: {what}: unknown usage key {} ignored (known: {})",
                    quoted(&k.value),
                    Key::ALL.map(Key::name).join(", ")
                ));
                continue;
            };
            let value = number(file, &what, key, v)?;
            entry.values.insert(key, value);
        }
        out.insert(resource.value.clone(), entry);
    }
    Ok(out)
}

/// A key's value: a finite number ≥ 0 (within the key's bound), or `null` (not declared).
fn number(file: &str, what: &str, key: Key, v: &Spanned<Node>) -> Result<Option<f64>, Error> {
    let line = v.referenced.line() as usize;
    let name = key.name();
    let unit = key.unit();
    let x = match &v.value {
        Node::Null => return Ok(None),
        Node::Num(x) => *x,
        Node::Str(_) => {
            return Err(error(
                file,
                line,
                format_args!("{what}: {name}: expected a number ({unit}), not a string"),
            ));
        }
        Node::Bool(_) => {
            return Err(error(
                file,
                line,
                format_args!("{what}: {name}: expected a number ({unit}), not true/false"),
            ));
        }
        Node::Seq(_) | Node::Map(_) => {
            return Err(error(
                file,
                line,
                format_args!("{what}: {name}: expected a number ({unit}), not a list or mapping"),
            ));
        }
    };
    if !x.is_finite() {
        return Err(error(
            file,
            line,
            format_args!("{what}: {name}: expected a finite number ({unit})"),
        ));
    }
    if x < 0.0 {
        return Err(error(
            file,
            line,
            format_args!("{what}: {name} is {x}: it cannot be negative ({unit})"),
        ));
    }
    if let Some(max) = key.max()
        && x > max
    {
        return Err(error(
            file,
            line,
            format_args!("{what}: {name} is {x}, over {max} ({unit})"),
        ));
    }
    Ok(Some(x))
}
