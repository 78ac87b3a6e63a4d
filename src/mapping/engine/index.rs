//! Address helpers of mapping (module prefixes, instance blocks) and the `cbf::all_select` shape answered natively.

use crate::mapping::region;
use regex::Regex;

/// An instance address without its final instance key: `a.b["x"]` → `a.b`.
pub(super) fn block_of(addr: &str) -> &str {
    match addr
        .strip_suffix(']')
        .and_then(|a| a.rfind('[').map(|i| &addr[..i]))
    {
        Some(b) if !b.is_empty() => b,
        _ => addr,
    }
}

/// `module.a["x"].module.b.` for `module.a["x"].module.b.aws_instance.web[0]`; empty at the root.
pub(super) fn module_prefix(addr: &str) -> String {
    let segs = region::split_address(addr);
    let mut out = String::new();
    let mut i = 0;
    while i + 1 < segs.len() && segs[i] == "module" {
        out.push_str("module.");
        out.push_str(segs[i + 1]);
        out.push('.');
        i += 2;
    }
    out
}

/// A filter answered from the side's all_select index (`FilterInfo::indexed`).
pub(super) struct IndexedSelect {
    pub(super) prop: String,
    pub(super) ph: usize,
    pub(super) type_: Option<String>,
}

/// `cbf::all_select("P"; "\($__ph_N)")` with an optional `| select(.type == "T")`.
pub(super) fn indexed_select_shape(text: &str) -> Option<IndexedSelect> {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r#"^\s*cbf::all_select\(\s*"([A-Za-z0-9_.]+)"\s*;\s*"\\\(\$__ph_([0-9]+)\)"\s*\)\s*(?:\|\s*select\(\s*\.type\s*==\s*"([A-Za-z0-9_]+)"\s*\)\s*)?$"#,
        )
        .expect("static regex")
    });
    let c = re.captures(text)?;
    Some(IndexedSelect {
        prop: c[1].to_string(),
        ph: c[2].parse().ok()?,
        type_: c.get(3).map(|t| t.as_str().to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::indexed_select_shape;

    /// Only the exact shape is answered natively; anything else stays with jaq.
    #[test]
    fn indexed_select_shapes() {
        let s = indexed_select_shape(
            r#"cbf::all_select("values.id"; "\($__ph_0)") | select(.type == "aws_ami")"#,
        )
        .expect("the AMI lookup");
        assert_eq!(
            (s.prop.as_str(), s.ph, s.type_.as_deref()),
            ("values.id", 0, Some("aws_ami"))
        );
        let s =
            indexed_select_shape(r#"cbf::all_select("values.self_link"; "\($__ph_12)")"#).unwrap();
        assert_eq!(
            (s.prop.as_str(), s.ph, s.type_),
            ("values.self_link", 12, None)
        );
        for other in [
            r#"cbf::all_select("values.id"; $__ph_0)"#,
            r#"cbf::all_select("values.id"; "x\($__ph_0)")"#,
            r#"cbf::all_select("values.id"; "\($__ph_0)") | .values"#,
            r#"cbf::all_select("values.id"; "\($__ph_0)") | select(.type != "aws_ami")"#,
            r#"first(cbf::all_select("values.id"; "\($__ph_0)"))"#,
        ] {
            assert!(indexed_select_shape(other).is_none(), "{other}");
        }
    }
}
