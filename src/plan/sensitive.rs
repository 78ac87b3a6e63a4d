//! The strings a plan or state marks sensitive ([`sensitive_strings`]), read from the raw
//! values along their masks: only what a mask marks is built.

use std::collections::BTreeMap;
use std::fmt;

use rayon::prelude::*;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::{Change, Plan, Raw, ResourceChange, StateModule, StateResource, Value};

/// Every string a plan or state marks sensitive: the leaves of `before`/`after` under a `true`
/// of `before_sensitive`/`after_sensitive` (resource changes, drift, output changes), of a
/// state document's `values` under `sensitive_values`, and the values of state outputs with
/// `"sensitive": true`. The carbon report hides them (`redact::Redactor`): the mappings read the
/// same values, and must not carry a secret into the output. (`planned_values` and
/// `prior_state` repeat the resource changes' `after` and `before`, so they are not walked:
/// the plan keeps them unparsed.)
pub fn sensitive_strings(plan: &Plan<'_>) -> Vec<String> {
    fn change(c: &Change<'_>, out: &mut Vec<String>) {
        masked(&c.before, &c.before_sensitive, out);
        masked(&c.after, &c.after_sensitive, out);
    }
    fn module<'p, 'a>(m: &'p StateModule<'a>, out: &mut Vec<&'p StateResource<'a>>) {
        out.extend(&m.resources);
        m.child_modules.iter().for_each(|c| module(c, out));
    }
    // resources one at a time, on every core
    let changes: Vec<&ResourceChange<'_>> = plan
        .resource_changes
        .iter()
        .chain(plan.resource_drift.iter())
        .flatten()
        .collect();
    let mut out: Vec<String> = changes
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
    out.par_sort_unstable();
    out.dedup();
    out
}

fn leaves(v: &Value<'_>, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.to_string()),
        Value::Array(a) => a.iter().for_each(|v| leaves(v, out)),
        Value::Object(o) => o.values().for_each(|v| leaves(v, out)),
        _ => {}
    }
}

/// The leaves of `v` under the `true`s of `mask`.
fn masked(v: &Value<'_>, mask: &Value<'_>, out: &mut Vec<String>) {
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

/// [`masked`] of a raw value, under a mask that marks something: the value is walked along the
/// mask and only what it marks is built. Should the walk not read the value as the plan's
/// parser does (serde_json refuses a lone surrogate, or nesting past its limit), the value is
/// built whole instead.
fn raw(v: &Raw<'_>, mask: &Raw<'_>, out: &mut Vec<String>) {
    // most masks mark nothing (and are short: a plain loop beats a searcher's set-up)
    let marks = mask.text().as_bytes().windows(4).any(|w| w == b"true");
    if !marks {
        return;
    }
    let mask = mask.value();
    let mut found = Vec::new();
    match walk(v.text(), &mask, &mut found) {
        Some(()) => out.append(&mut found),
        None => masked(&v.value(), &mask, out),
    }
}

/// [`masked`] of the JSON `text`.
fn walk(text: &str, mask: &Value<'_>, out: &mut Vec<String>) -> Option<()> {
    match mask {
        // what a `true` marks is small (a password, a script, a key block): built whole
        Value::Bool(true) => leaves(&super::parse_json(text).ok()?, out),
        Value::Object(_) | Value::Array(_) => {
            let mut d = serde_json::Deserializer::from_str(text);
            let picked = de::Deserializer::deserialize_any(&mut d, Pick(mask)).ok()?;
            d.end().ok()?;
            for (_, m, v) in picked {
                walk(v.get(), m, out)?;
            }
        }
        _ => {}
    }
    Some(())
}

/// The parts of a value a mask (an object or an array) goes on into: the values of an
/// object's keys the mask names (the last of a repeated key, as the plan's parser keeps it),
/// the elements of an array the mask has an element for; with their masks. Nothing for a
/// value of another type than the mask's.
struct Pick<'m, 'v>(&'m Value<'v>);

/// One part: (its key in the mask, for an object), its mask, its text.
type Picked<'m, 'v, 'de> = Vec<(Option<&'m str>, &'m Value<'v>, &'de RawValue)>;

impl<'de, 'm, 'v> Visitor<'de> for Pick<'m, 'v> {
    type Value = Picked<'m, 'v, 'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
        let mut out: Self::Value = Vec::new();
        let Value::Object(mask) = self.0 else {
            while a.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            return Ok(out);
        };
        while let Some(key) = a.next_key_seed(MaskKey(mask))? {
            match key {
                Some((k, m)) => {
                    let v: &'de RawValue = a.next_value()?;
                    match out.iter_mut().find(|(seen, ..)| *seen == Some(k)) {
                        Some(last) => last.2 = v,
                        None => out.push((Some(k), m, v)),
                    }
                }
                None => {
                    a.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(out)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
        let mut out: Self::Value = Vec::new();
        if let Value::Array(mask) = self.0 {
            for m in mask {
                match a.next_element::<&'de RawValue>()? {
                    Some(v) => out.push((None, m, v)),
                    None => break,
                }
            }
        }
        while a.next_element::<IgnoredAny>()?.is_some() {}
        Ok(out)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }
}

/// A key of the value's object: the mask's entry of that name, if it has one.
struct MaskKey<'m, 'v>(&'m BTreeMap<std::borrow::Cow<'v, str>, Value<'v>>);

impl<'de, 'm, 'v> DeserializeSeed<'de> for MaskKey<'m, 'v> {
    type Value = Option<(&'m str, &'m Value<'v>)>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, 'm, 'v> Visitor<'de> for MaskKey<'m, 'v> {
    type Value = Option<(&'m str, &'m Value<'v>)>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(self.0.get_key_value(key).map(|(k, m)| (k.as_ref(), m)))
    }
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
        ];
        for (v, m) in cases {
            let mask = super::super::parse_json(m).unwrap();
            let mut built = Vec::new();
            if let Ok(v) = super::super::parse_json(v) {
                masked(&v, &mask, &mut built);
            }
            let mut walked = Vec::new();
            if walk(v, &mask, &mut walked).is_none() {
                walked = built.clone();
            }
            built.sort();
            walked.sort();
            assert_eq!(walked, built, "{v} under {m}");
        }
        // a lone surrogate: serde_json refuses it, the walk gives way
        let mask = super::super::parse_json(r#"{"a":true}"#).unwrap();
        assert_eq!(
            walk(r#"{"\ud800":"x","a":"y"}"#, &mask, &mut Vec::new()),
            None
        );
    }
}
