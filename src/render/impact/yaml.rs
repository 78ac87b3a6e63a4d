//! The manifest as a YAML value, and a small block-style emitter with full control over quoting, order and number formatting.

/// A YAML value; maps keep their insertion order.
#[derive(Debug, Clone)]
pub(super) enum Y {
    Str(String),
    Num(f64),
    Seq(Vec<Y>),
    Map(Vec<(String, Y)>),
}

pub(super) fn s(v: &str) -> Y {
    Y::Str(v.to_string())
}

pub(super) fn map<const N: usize>(entries: [(&str, Y); N]) -> Y {
    Y::Map(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

pub(super) fn strs(items: &[&str]) -> Y {
    Y::Seq(items.iter().map(|i| s(i)).collect())
}

/// Whether `v` can be written as a plain scalar that every YAML 1.1/1.2 reader takes as that string.
fn is_plain(v: &str) -> bool {
    let mut chars = v.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if !(first.is_ascii_alphabetic() || first == '_') {
        return false;
    }
    if !v
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
    {
        return false;
    }
    !matches!(
        v.to_ascii_lowercase().as_str(),
        "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
    )
}

/// A string scalar: plain when safe, else double-quoted with every control, DEL, C1, line
/// separator, BOM and bidi control escaped ([`crate::escape::yaml_quoted`]): valid YAML for
/// any string (JSON's escaping leaves DEL, NEL and U+2028 raw).
pub(super) fn scalar_str(v: &str) -> String {
    if is_plain(v) {
        v.to_string()
    } else {
        crate::escape::yaml_quoted(v)
    }
}

/// A number: Rust's shortest round-trip decimal form, never an exponent (read alike everywhere).
pub(super) fn scalar_num(v: f64) -> String {
    debug_assert!(v.is_finite());
    if v == 0.0 {
        "0".to_string()
    } else {
        format!("{v}")
    }
}

fn scalar(y: &Y) -> Option<String> {
    match y {
        Y::Str(v) => Some(scalar_str(v)),
        Y::Num(v) => Some(scalar_num(*v)),
        Y::Seq(items) if items.is_empty() => Some("[]".to_string()),
        Y::Map(entries) if entries.is_empty() => Some("{}".to_string()),
        _ => None,
    }
}

pub(super) fn emit_map(out: &mut String, entries: &[(String, Y)], indent: usize) {
    for (k, v) in entries {
        out.push_str(&" ".repeat(indent));
        out.push_str(&scalar_str(k));
        out.push(':');
        match scalar(v) {
            Some(text) => {
                out.push(' ');
                out.push_str(&text);
                out.push('\n');
            }
            None => {
                out.push('\n');
                match v {
                    Y::Map(m) => emit_map(out, m, indent + 2),
                    Y::Seq(items) => emit_seq(out, items, indent + 2),
                    _ => unreachable!("scalars handled above"),
                }
            }
        }
    }
}

fn emit_seq(out: &mut String, items: &[Y], indent: usize) {
    for item in items {
        match scalar(item) {
            Some(text) => {
                out.push_str(&" ".repeat(indent));
                out.push_str("- ");
                out.push_str(&text);
                out.push('\n');
            }
            None => {
                // Emit the item two columns deeper, then put the dash in the first line's margin.
                let mut inner = String::new();
                match item {
                    Y::Map(m) => emit_map(&mut inner, m, indent + 2),
                    Y::Seq(s) => emit_seq(&mut inner, s, indent + 2),
                    _ => unreachable!("scalars handled above"),
                }
                out.push_str(&" ".repeat(indent));
                out.push_str("- ");
                out.push_str(&inner[indent + 2..]);
            }
        }
    }
}
