//! The document the mapping engine reads, parsed straight from JSON bytes into jaq values.
//!
//! Only what filters can read is kept: `resource_changes` is reduced to each change's
//! `after_unknown` marks, `output_changes`, `resource_drift`, `relevant_attributes` and `checks`
//! are skipped by the parser, and resources' `sensitive_values` mirrors are never built. No
//! `serde_json::Value` of the whole document exists on this path.

use super::jq;
use jaq_json::Val;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::collections::HashMap;
use std::fmt;

/// A plan or state document, ready for [`super::Engine::map_document`].
pub struct Document {
    /// The document without the parts no filter reads.
    pub(crate) root: Val,
    /// Non-empty `after_unknown` marks of each resource change, by address.
    pub(crate) unknown: HashMap<String, Val>,
}

/// Top-level keys no filter reads.
fn skipped(key: &str) -> bool {
    matches!(
        key,
        "output_changes" | "resource_drift" | "relevant_attributes" | "checks"
    )
}

impl Document {
    /// Parse JSON bytes.
    pub fn from_slice(bytes: &[u8]) -> Result<Document, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_slice(bytes);
        let doc = DocSeed.deserialize(&mut de)?;
        de.end()?;
        Ok(doc)
    }

    /// From an already parsed value (tests, library users).
    pub fn from_value(doc: &serde_json::Value) -> Document {
        let mut unknown = HashMap::new();
        for rc in doc["resource_changes"].as_array().into_iter().flatten() {
            if let (Some(a), Some(u)) = (rc["address"].as_str(), rc["change"].get("after_unknown"))
                && u.as_object().is_some_and(|o| !o.is_empty())
            {
                unknown.insert(a.to_string(), jq::to_val(u));
            }
        }
        let root = match doc {
            serde_json::Value::Object(o) => Val::obj(
                o.iter()
                    .filter(|(k, _)| k.as_str() != "resource_changes" && !skipped(k))
                    .map(|(k, v)| (jq::s(k), strip(v)))
                    .collect(),
            ),
            v => jq::to_val(v),
        };
        Document { root, unknown }
    }
}

/// A value without any `sensitive_values` member (no filter reads them).
fn strip(v: &serde_json::Value) -> Val {
    match v {
        serde_json::Value::Object(o) => Val::obj(
            o.iter()
                .filter(|(k, _)| k.as_str() != "sensitive_values")
                .map(|(k, v)| (jq::s(k), strip(v)))
                .collect(),
        ),
        serde_json::Value::Array(a) => Val::Arr(a.iter().map(strip).collect::<Vec<_>>().into()),
        v => jq::to_val(v),
    }
}

/// An object from its members in document order, as `serde_json::Map` keeps them (sorted by key,
/// the last of duplicate keys winning), so both parsing paths give the same values.
fn object(mut members: Vec<(String, Val)>) -> Val {
    if !members.is_sorted_by(|a, b| a.0 < b.0) {
        members.reverse();
        // stable: of equal keys, the last one in the document comes first and is kept
        members.sort_by(|a, b| a.0.cmp(&b.0));
        members.dedup_by(|b, a| a.0 == b.0);
    }
    Val::obj(
        members
            .into_iter()
            .map(|(k, v)| (Val::utf8_str(k.into_bytes()), v))
            .collect(),
    )
}

/// Any JSON value as a jaq value; `strip` drops `sensitive_values` members unread.
#[derive(Clone, Copy)]
struct ValSeed {
    strip: bool,
}

impl<'de> DeserializeSeed<'de> for ValSeed {
    type Value = Val;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Val, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValSeed {
    type Value = Val;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Val, E> {
        Ok(Val::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Val, E> {
        Ok(Val::Null)
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Val, E> {
        Ok(Val::Bool(b))
    }
    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Val, E> {
        Ok(match isize::try_from(i) {
            Ok(i) => Val::Num(jaq_json::Num::Int(i)),
            Err(_) => jq::to_val(&serde_json::Value::from(i)),
        })
    }
    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Val, E> {
        Ok(match isize::try_from(u) {
            Ok(i) => Val::Num(jaq_json::Num::Int(i)),
            Err(_) => jq::to_val(&serde_json::Value::from(u)),
        })
    }
    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Val, E> {
        Ok(Val::Num(jaq_json::Num::Float(x)))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Val, E> {
        Ok(Val::utf8_str(s.as_bytes().to_vec()))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Val, E> {
        Ok(Val::utf8_str(s.into_bytes()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Val, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(v) = seq.next_element_seed(self)? {
            out.push(v);
        }
        Ok(Val::Arr(out.into()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Val, A::Error> {
        let mut out = Vec::new();
        while let Some(k) = map.next_key::<String>()? {
            if self.strip && k == "sensitive_values" {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let v = map.next_value_seed(self)?;
            out.push((k, v));
        }
        Ok(object(out))
    }
}

struct DocSeed;

impl<'de> DeserializeSeed<'de> for DocSeed {
    type Value = Document;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Document, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for DocSeed {
    type Value = Document;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a plan or state document")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Document, A::Error> {
        let mut out = Vec::new();
        let mut unknown = HashMap::new();
        while let Some(k) = map.next_key::<String>()? {
            if k == "resource_changes" {
                unknown = map.next_value_seed(Changes)?;
            } else if skipped(&k) {
                map.next_value::<IgnoredAny>()?;
            } else {
                out.push((k, map.next_value_seed(ValSeed { strip: true })?));
            }
        }
        Ok(Document {
            root: object(out),
            unknown,
        })
    }
    // anything else is mapped as it is (it holds no resources)
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Document, A::Error> {
        Ok(Document {
            root: ValSeed { strip: true }.visit_seq(seq)?,
            unknown: HashMap::new(),
        })
    }
    fn visit_unit<E: de::Error>(self) -> Result<Document, E> {
        Ok(Document {
            root: Val::Null,
            unknown: HashMap::new(),
        })
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Document, E> {
        self.visit_unit()
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Document, E> {
        self.visit_unit()
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Document, E> {
        self.visit_unit()
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Document, E> {
        self.visit_unit()
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Document, E> {
        self.visit_unit()
    }
}

/// `resource_changes`: address → non-empty `after_unknown` of each change; the rest is skipped.
struct Changes;

impl<'de> DeserializeSeed<'de> for Changes {
    type Value = HashMap<String, Val>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Changes {
    type Value = HashMap<String, Val>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of resource changes")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = HashMap::new();
        while let Some((a, u)) = seq.next_element_seed(OneChange)? {
            if let (Some(a), Some(u)) = (a, u) {
                out.insert(a, u);
            }
        }
        Ok(out)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(HashMap::new())
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(HashMap::new())
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        self.visit_unit()
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        self.visit_unit()
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        self.visit_unit()
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        self.visit_unit()
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        self.visit_unit()
    }
}

/// One resource change: (address, non-empty `after_unknown` object).
struct OneChange;

impl<'de> DeserializeSeed<'de> for OneChange {
    type Value = (Option<String>, Option<Val>);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let v = ValSeed { strip: false };
        // anything but an object is ignored
        struct V(ValSeed);
        impl<'de> Visitor<'de> for V {
            type Value = (Option<String>, Option<Val>);
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a resource change")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let (mut addr, mut unknown) = (None, None);
                while let Some(k) = map.next_key::<String>()? {
                    match k.as_str() {
                        "address" => {
                            addr = match map.next_value::<serde_json::Value>()? {
                                serde_json::Value::String(s) => Some(s),
                                _ => None,
                            }
                        }
                        "change" => unknown = map.next_value_seed(AfterUnknown(self.0))?,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok((addr, unknown))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok((None, None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok((None, None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok((None, None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok((None, None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok((None, None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok((None, None))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
                Ok((None, None))
            }
        }
        d.deserialize_any(V(v))
    }
}

/// `change.after_unknown` when it is a non-empty object.
struct AfterUnknown(ValSeed);

impl<'de> DeserializeSeed<'de> for AfterUnknown {
    type Value = Option<Val>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let v: IgnoredOr = d.deserialize_any(ChangeV(self.0))?;
        Ok(v.0)
    }
}

struct IgnoredOr(Option<Val>);

struct ChangeV(ValSeed);

impl<'de> Visitor<'de> for ChangeV {
    type Value = IgnoredOr;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a change")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<IgnoredOr, A::Error> {
        let mut out = None;
        while let Some(k) = map.next_key::<String>()? {
            if k == "after_unknown" {
                let v = map.next_value_seed(self.0)?;
                out = matches!(&v, Val::Obj(o) if !o.is_empty()).then_some(v);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(IgnoredOr(out))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<IgnoredOr, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(IgnoredOr(None))
    }
    fn visit_unit<E: de::Error>(self) -> Result<IgnoredOr, E> {
        Ok(IgnoredOr(None))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<IgnoredOr, E> {
        Ok(IgnoredOr(None))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<IgnoredOr, E> {
        Ok(IgnoredOr(None))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<IgnoredOr, E> {
        Ok(IgnoredOr(None))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<IgnoredOr, E> {
        Ok(IgnoredOr(None))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<IgnoredOr, E> {
        Ok(IgnoredOr(None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_paths_give_the_same_document() {
        let text = r#"{"z": 1, "a": {"b": 2, "a": [1, 2.5, -3, 18446744073709551615, "x", null, true]},
            "a": {"dup": "last"},
            "planned_values": {"root_module": {"resources": [
                {"address": "x.y", "values": {"k": "v"}, "sensitive_values": {"k": true}}]}},
            "resource_changes": [
                {"address": "x.y", "change": {"before": {"s": 1}, "after_unknown": {"id": true}}},
                {"address": "x.z", "change": {"after_unknown": {}}}],
            "output_changes": {"o": {}}, "checks": []}"#;
        let a = Document::from_slice(text.as_bytes()).unwrap();
        let b = Document::from_value(&serde_json::from_str(text).unwrap());
        assert_eq!(a.root, b.root);
        assert_eq!(a.unknown, b.unknown);
        assert_eq!(a.unknown.len(), 1);
        assert_eq!(
            jq::to_json(&a.root),
            json!({"z": 1.0, "a": {"dup": "last"}, "planned_values": {"root_module": {"resources": [
                {"address": "x.y", "values": {"k": "v"}}]}}})
        );
    }
}
