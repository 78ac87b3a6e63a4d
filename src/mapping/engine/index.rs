//! The configuration indexes mapping reads (configuration resources and their referrers, module prefixes, instance blocks) and the all_select shapes answered natively.

use crate::mapping::jq;
use crate::mapping::region;
use jaq_json::Val;
use regex::Regex;
use std::collections::HashMap;

/// What [`Regions`] reads of a document (provider configurations, variables, module calls and
/// each configuration resource's provider key), as JSON: small next to the document.
pub(super) fn regions_doc(configuration: &Val, variables: &Val) -> serde_json::Value {
    use serde_json::{Map, Value};
    fn module(m: &Val) -> Value {
        let mut out = Map::new();
        if let Some(Val::Arr(rs)) = jq::get(m, "resources") {
            let keep = |r: &Val| {
                let mut o = Map::new();
                for k in ["address", "provider_config_key"] {
                    if let Some(v) = jq::get(r, k) {
                        o.insert(k.to_string(), jq::to_json(v));
                    }
                }
                Value::Object(o)
            };
            out.insert("resources".into(), rs.iter().map(keep).collect());
        }
        if let Some(v) = jq::get(m, "variables") {
            out.insert("variables".into(), jq::to_json(v));
        }
        if let Some(Val::Obj(calls)) = jq::get(m, "module_calls") {
            let calls = calls
                .iter()
                .map(|(name, call)| {
                    let mut c = Map::new();
                    if let Some(e) = jq::get(call, "expressions") {
                        c.insert("expressions".into(), jq::to_json(e));
                    }
                    if let Some(m) = jq::get(call, "module") {
                        c.insert("module".into(), module(m));
                    }
                    (jq::str_of(name).unwrap_or_default(), Value::Object(c))
                })
                .collect();
            out.insert("module_calls".into(), Value::Object(calls));
        }
        Value::Object(out)
    }
    let mut conf = Map::new();
    if let Some(pc) = jq::get(configuration, "provider_config") {
        conf.insert("provider_config".into(), jq::to_json(pc));
    }
    if let Some(m) = jq::get(configuration, "root_module") {
        conf.insert("root_module".into(), module(m));
    }
    let mut doc = Map::new();
    doc.insert("configuration".into(), Value::Object(conf));
    if !matches!(variables, Val::Null) {
        doc.insert("variables".into(), jq::to_json(variables));
    }
    Value::Object(doc)
}

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

/// Configuration resources by (module path, module-relative address), and each module's list.
#[derive(Default)]
pub(super) struct Configs {
    pub(super) resources: HashMap<(String, String), Val>,
    pub(super) modules: HashMap<String, Val>,
    /// (module path, type, referred address) → positions in the module's resource list of the
    /// resources of that type whose expressions refer to the address or to one of its attributes.
    pub(super) referrers: std::sync::OnceLock<HashMap<(String, String, String), Vec<usize>>>,
}

impl Configs {
    pub(super) fn referrers(&self) -> &HashMap<(String, String, String), Vec<usize>> {
        self.referrers.get_or_init(|| {
            fn refs<'v>(v: &'v Val, out: &mut Vec<&'v str>) {
                match v {
                    Val::Obj(o) => {
                        if let Some(Val::Arr(rs)) = o.get(&jq::s("references")) {
                            out.extend(rs.iter().filter_map(jq::str_ref));
                        }
                        o.values().for_each(|v| refs(v, out));
                    }
                    Val::Arr(a) => a.iter().for_each(|v| refs(v, out)),
                    _ => {}
                }
            }
            let mut index: HashMap<(String, String, String), Vec<usize>> = HashMap::new();
            for (path, list) in &self.modules {
                let Val::Arr(list) = list else { continue };
                for (p, r) in list.iter().enumerate() {
                    let Some(ty) = jq::get(r, "type").and_then(jq::str_ref) else {
                        continue;
                    };
                    let mut rs = Vec::new();
                    refs(r, &mut rs);
                    for reference in rs {
                        // `. == $me or startswith($me + ".")`: the reference and its prefixes
                        // ending before a dot
                        let ends = reference
                            .match_indices('.')
                            .map(|(i, _)| i)
                            .chain([reference.len()]);
                        for e in ends {
                            let v = index
                                .entry((path.clone(), ty.to_string(), reference[..e].to_string()))
                                .or_default();
                            if v.last() != Some(&p) {
                                v.push(p);
                            }
                        }
                    }
                }
            }
            for v in index.values_mut() {
                v.sort_unstable();
                v.dedup();
            }
            index
        })
    }

    pub(super) fn new(configuration: &Val) -> Configs {
        let mut c = Configs::default();
        if let Some(m) = jq::get(configuration, "root_module") {
            c.walk(m, String::new());
        }
        c
    }
    fn walk(&mut self, module: &Val, path: String) {
        if let Some(rs @ Val::Arr(list)) = jq::get(module, "resources") {
            for r in list.iter() {
                if let Some(a) = jq::get(r, "address").and_then(jq::str_of) {
                    let (_, rel) = region::config_address(&a);
                    self.resources.insert((path.clone(), rel), r.clone());
                }
            }
            self.modules.insert(path.clone(), rs.clone());
        }
        if let Some(Val::Obj(calls)) = jq::get(module, "module_calls") {
            for (name, call) in calls.iter() {
                let name = jq::str_of(name).unwrap_or_default();
                let child = if path.is_empty() {
                    format!("module.{name}")
                } else {
                    format!("{path}.module.{name}")
                };
                if let Some(m) = jq::get(call, "module") {
                    self.walk(m, child);
                }
            }
        }
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
