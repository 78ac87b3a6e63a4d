//! The strings a plan or state marks sensitive ([`sensitive_strings`]), read from the raw
//! values along their masks: only what a mask marks is built.

use std::borrow::Cow;

use rayon::prelude::*;

use super::parts::{Parts, parts};
use super::{Change, Plan, Raw, ResourceChange, StateModule, StateResource, Value};

/// Every string a plan or state marks sensitive: the leaves of `before`/`after` under a `true`
/// of `before_sensitive`/`after_sensitive` (resource changes, drift, output changes), of a
/// state document's `values` under `sensitive_values`, and the values of state outputs with
/// `"sensitive": true`. The carbon report hides them (`redact::Redactor`): the mappings read the
/// same values, and must not carry a secret into the output. (`planned_values` and
/// `prior_state` repeat the resource changes' `after` and `before`, so they are not walked:
/// the plan keeps them unparsed.) In no order, a value as often as it is marked (the
/// redactor keeps each once); a string without escapes borrows from the plan's text.
pub fn sensitive_strings<'a>(plan: &Plan<'a>) -> Vec<Cow<'a, str>> {
    fn change<'a>(c: &Change<'a>, out: &mut Vec<Cow<'a, str>>) {
        masked(&c.before, &c.before_sensitive, out);
        masked(&c.after, &c.after_sensitive, out);
    }
    fn module<'p, 'a>(m: &'p StateModule<'a>, out: &mut Vec<&'p StateResource<'a>>) {
        out.extend(&m.resources);
        m.child_modules.iter().for_each(|c| module(c, out));
    }
    // resources one at a time, on every core
    let changes: Vec<&ResourceChange<'a>> = plan
        .resource_changes
        .iter()
        .chain(plan.resource_drift.iter())
        .flatten()
        .collect();
    let mut out: Vec<Cow<'a, str>> = changes
        .par_iter()
        .flat_map_iter(|rc| {
            let mut out = Vec::new();
            raw(&rc.change.before, &rc.change.before_sensitive, &mut out);
            raw(&rc.change.after, &rc.change.after_sensitive, &mut out);
            out
        })
        .collect();
    plan.output_changes
        .iter()
        .flat_map(|o| o.values())
        .for_each(|c| change(c, &mut out));
    if let Some(v) = &plan.values {
        for o in v.outputs.values().filter(|o| o.sensitive) {
            leaves(&o.value, &mut out);
        }
        // a state's resources one at a time, on every core, too
        let mut resources = Vec::new();
        module(&v.root_module, &mut resources);
        out.par_extend(resources.par_iter().flat_map_iter(|r| {
            let mut out = Vec::new();
            raw(&r.values, &r.sensitive_values, &mut out);
            out
        }));
    }
    out
}

fn leaves<'a>(v: &Value<'a>, out: &mut Vec<Cow<'a, str>>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|v| leaves(v, out)),
        Value::Object(o) => o.values().for_each(|v| leaves(v, out)),
        _ => {}
    }
}

/// The leaves of `v` under the `true`s of `mask`.
fn masked<'a>(v: &Value<'a>, mask: &Value<'_>, out: &mut Vec<Cow<'a, str>>) {
    match (v, mask) {
        (_, Value::Bool(true)) => leaves(v, out),
        (Value::Array(a), Value::Array(m)) => a.iter().zip(m).for_each(|(v, m)| masked(v, m, out)),
        (Value::Object(o), Value::Object(m)) => {
            for (k, m) in m {
                if let Some(v) = o.get(k) {
                    masked(v, m, out);
                }
            }
        }
        _ => {}
    }
}

/// [`masked`] of a raw value: the value is walked along the mask, both as text, and only
/// what the mask marks is built. Should the walk not read them (text that is not one value),
/// both are built whole instead.
fn raw<'a>(v: &Raw<'a>, mask: &Raw<'_>, out: &mut Vec<Cow<'a, str>>) {
    let mut found = Vec::new();
    match walk(v.text(), mask.text(), &mut found) {
        Some(()) => out.append(&mut found),
        None => masked(&v.value(), &mask.value(), out),
    }
}

/// Whether a mask's text marks anything (most marks nothing, and are short: a plain loop
/// beats a searcher's set-up).
fn marks(mask: &str) -> bool {
    mask.as_bytes().windows(4).any(|w| w == b"true")
}

/// An object's members looked up one key at a time beyond this many steps are put in a map
/// first: a wide object under a wide mask stays linear.
const SEARCHED: usize = 256;

/// [`masked`] of the JSON `text` under the JSON `mask`, both checked texts: the plan's parser
/// reads the parts the mask goes on into (of a repeated key, the last, as a built object keeps
/// it) and skips the others.
fn walk<'a>(text: &'a str, mask: &str, out: &mut Vec<Cow<'a, str>>) -> Option<()> {
    if !marks(mask) {
        return Some(());
    }
    // what a `true` marks is small (a password, a script, a key block)
    if mask.trim_ascii() == "true" {
        let t = text.trim_ascii();
        match t.as_bytes() {
            // a string without escapes is its text between its quotes
            [b'"', inner @ .., b'"'] if !inner.contains(&b'\\') => {
                out.push(Cow::Borrowed(&t[1..t.len() - 1]));
            }
            _ => leaves(&super::parse_json(t).ok()?, out),
        }
        return Some(());
    }
    match parts(mask)? {
        Parts::Object(m) => {
            let Parts::Object(members) = parts(text)? else {
                return Some(());
            };
            if m.len().saturating_mul(m.len() + members.len()) <= SEARCHED {
                for (i, (k, mask)) in m.iter().enumerate() {
                    // of a key the mask repeats, the last stands
                    if m[i + 1..].iter().any(|(later, _)| later == k) {
                        continue;
                    }
                    if let Some((_, v)) = members.iter().rev().find(|(key, _)| key == k) {
                        walk(v, mask, out)?;
                    }
                }
            } else {
                type Last<'k, 't> = std::collections::HashMap<&'k str, &'t str>;
                let masks: Last<'_, '_> = m.iter().map(|(k, v)| (k.as_ref(), *v)).collect();
                let last: Last<'_, 'a> = members.iter().map(|(k, v)| (k.as_ref(), *v)).collect();
                for (k, mask) in masks {
                    if let Some(v) = last.get(k) {
                        walk(v, mask, out)?;
                    }
                }
            }
        }
        Parts::Array(m) => {
            if let Parts::Array(elements) = parts(text)? {
                for (v, mask) in elements.into_iter().zip(m) {
                    walk(v, mask, out)?;
                }
            }
        }
        Parts::Scalar => {}
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk finds what building the values finds, whatever the value and the mask.
    #[test]
    fn the_walk_finds_what_the_built_values_hold() {
        let cases = [
            (
                r#"{"a":"x","b":{"c":"y","d":["z",{"e":"w"}]}}"#,
                r#"{"b":{"d":[true,{"e":true}]}}"#,
            ),
            (r#"{"a":"x","a":"y"}"#, r#"{"a":true}"#),
            (r#"{"a":{"k":"1"},"a":{"k":"2"}}"#, r#"{"a":{"k":true}}"#),
            (r#"{"a":["p","q"]}"#, r#"{"a":true}"#),
            (r#"{"a":["p","q","r"]}"#, r#"{"a":[false,true]}"#),
            (r#"{"a":"p"}"#, r#"{"a":[true]}"#),
            (r#"["p",{"a":"q"}]"#, r#"{"a":true}"#),
            (
                r#"{"a\"b":"esc","c":1.5e3,"d":null,"e":true}"#,
                r#"{"a\"b":true,"c":true,"d":true,"e":true}"#,
            ),
            (r#"{"a":{"b":{"c":"deep"}}}"#, r#"true"#),
            (r#""#, r#"{"a":true}"#),
            (
                r#"{"a":"x","b":"y"}"#,
                r#"{"a":true,"a":false,"b":false,"b":true}"#,
            ),
            (
                r#"{"a":"x\"q","b":["p\n",{"c":"r"}]}"#,
                r#"{"a":true,"b":true}"#,
            ),
            (r#" "s" "#, r#" true "#),
        ];
        // wide objects under wide masks: looked up through a map, the last repeated key kept
        let wide_value = format!(
            "{{{},\"k6\":\"last\"}}",
            (0..40)
                .map(|i| format!("\"k{i}\":\"v{i}\""))
                .collect::<Vec<_>>()
                .join(",")
        );
        let wide_mask = format!(
            "{{{},\"k3\":false}}",
            (0..40)
                .step_by(3)
                .map(|i| format!("\"k{i}\":true"))
                .collect::<Vec<_>>()
                .join(",")
        );
        let cases = cases
            .iter()
            .map(|&(v, m)| (v.to_string(), m.to_string()))
            .chain([(wide_value, wide_mask)]);
        for (v, m) in cases {
            let mask = super::super::parse_json(&m).unwrap();
            let mut built = Vec::new();
            if let Ok(v) = super::super::parse_json(&v) {
                masked(&v, &mask, &mut built);
            }
            let mut walked = Vec::new();
            if walk(&v, &m, &mut walked).is_none() {
                assert!(super::super::parse_json(&v).is_err(), "{v}: walked");
                walked = built.clone();
            }
            built.sort();
            walked.sort();
            assert_eq!(walked, built, "{v} under {m}");
        }
        // a lone surrogate in a key: read as the plan's parser reads it (serde_json refuses it)
        let mut walked = Vec::new();
        assert_eq!(
            walk(
                r#"{"\ud800":"x","a":"y"}"#,
                r#"{"a":true,"\ud800":true}"#,
                &mut walked
            ),
            Some(())
        );
        walked.sort();
        assert_eq!(walked, ["x", "y"]);
    }
}
