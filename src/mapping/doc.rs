//! The document the mapping engine reads, parsed straight from JSON bytes into jaq values.
//!
//! Only what filters can read is kept: `resource_changes` is reduced to each change's
//! `after_unknown` marks, `output_changes`, `resource_drift`, `relevant_attributes` and `checks`
//! are skipped by the parser, and resources' `sensitive_values` mirrors are never built. No
//! `serde_json::Value` of the whole document exists on this path. Equal values are built once
//! and shared ([`Interner`]): keys, regions, and the resources that are the same before and
//! after the change cost one tree, not one per occurrence.

mod valid;

use super::jq;
use jaq_json::Val;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;

/// A whole plan or state document as one jaq value, for the filters that read the document
/// root (`cbf::root`, paths from `.planned_values`…; `engine` builds it only when a loaded
/// filter does).
pub struct Document {
    /// The document without the parts no filter reads.
    pub(crate) root: Val,
}

/// Top-level keys no filter reads (`resource_changes` reach filters through `cbf::unknown`).
fn skipped(key: &str) -> bool {
    matches!(
        key,
        "resource_changes" | "output_changes" | "resource_drift" | "relevant_attributes" | "checks"
    )
}

impl Document {
    /// Parse JSON bytes.
    pub fn from_slice(bytes: &[u8]) -> Result<Document, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_slice(bytes);
        let int = RefCell::new(Interner::default());
        let doc = DocSeed(&int).deserialize(&mut de)?;
        de.end()?;
        Ok(doc)
    }
}

/// One value of a document (a resource, a section) as jaq reads it, built from its text
/// without sharing: `sensitive_values` members are dropped (with `strip`), objects are ordered as
/// [`Document`] orders them. `None` for text that is not one JSON value or nests past
/// serde_json's limit.
pub(crate) fn build(text: &str, strip: bool) -> Option<Val> {
    build_keeping(text, strip, None)
}

/// [`build`] of a resource of which only the members `values` (of `values`, when given) are
/// read: the others are skipped unbuilt.
pub(crate) fn build_keeping(text: &str, strip: bool, values: Option<&[String]>) -> Option<Val> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = Plain {
        strip,
        values,
        only: None,
    }
    .deserialize(&mut de)
    .ok()?;
    de.end().ok()?;
    Some(v)
}

/// [`build_keeping`] of a slice of a document already parsed (a resource slot's `RawValue`),
/// read without serde where it can be (`valid`), with serde where not.
pub(crate) fn build_slice(text: &str, strip: bool, values: Option<&[String]>) -> Option<Val> {
    valid::build(text, strip, values).or_else(|| build_keeping(text, strip, values))
}

/// A JSON integer as jaq's (an integer when it fits `isize`, as jaq's own parser gives it).
fn int(i: i64) -> Val {
    match isize::try_from(i) {
        Ok(i) => Val::Num(jaq_json::Num::Int(i)),
        Err(_) => jq::to_val(&serde_json::Value::from(i)),
    }
}

/// [`int`] of an unsigned integer.
fn uint(u: u64) -> Val {
    match isize::try_from(u) {
        Ok(i) => Val::Num(jaq_json::Num::Int(i)),
        Err(_) => jq::to_val(&serde_json::Value::from(u)),
    }
}

/// [`build`]'s seed: any JSON value, `sensitive_values` members dropped with `strip`.
#[derive(Clone, Copy)]
struct Plain<'k> {
    strip: bool,
    /// At a resource: the members of its `values` to build (the others are skipped).
    values: Option<&'k [String]>,
    /// The members of this object to build.
    only: Option<&'k [String]>,
}

impl Plain<'_> {
    fn child(self) -> Self {
        Plain {
            strip: self.strip,
            values: None,
            only: None,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Plain<'_> {
    type Value = Val;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Val, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Plain<'_> {
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
        Ok(int(i))
    }
    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Val, E> {
        Ok(uint(u))
    }
    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Val, E> {
        Ok(Val::Num(jaq_json::Num::Float(x)))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Val, E> {
        Ok(Val::utf8_str(s.as_bytes().to_vec()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Val, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(v) = seq.next_element_seed(self.child())? {
            out.push(v);
        }
        Ok(Val::Arr(out.into()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Val, A::Error> {
        let mut out: Vec<(Cow<'de, str>, Val)> = Vec::new();
        while let Some(k) = map.next_key::<Cow<'de, str>>()? {
            let skip = (self.strip && k == "sensitive_values")
                || self.only.is_some_and(|only| !only.iter().any(|o| *o == k));
            if skip {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let seed = match self.values {
                Some(keep) if k == "values" => Plain {
                    only: Some(keep),
                    ..self.child()
                },
                _ => self.child(),
            };
            let v = map.next_value_seed(seed)?;
            out.push((k, v));
        }
        Ok(object(out))
    }
}

/// An object from its members in document order, as `serde_json::Map` keeps them (sorted by key,
/// the last of duplicate keys winning), so both parsing paths give the same values.
fn object<K: AsRef<str>>(mut members: Vec<(K, Val)>) -> Val {
    if !members.is_sorted_by(|a, b| a.0.as_ref() < b.0.as_ref()) {
        members.reverse();
        // stable: of equal keys, the last one in the document comes first and is kept
        members.sort_by(|a, b| a.0.as_ref().cmp(b.0.as_ref()));
        members.dedup_by(|b, a| a.0.as_ref() == b.0.as_ref());
    }
    Val::obj(
        members
            .into_iter()
            .map(|(k, v)| (key(k.as_ref()), v))
            .collect(),
    )
}

/// The most object keys [`key`] keeps per thread (a plan's attribute names are a few hundred;
/// past this, keys are built each time).
const KEYS_KEPT: usize = 4096;

/// An object key as a jaq string, shared with the equal keys built before on this thread:
/// resources built one at a time (`Slot::value`) spell the same few hundred names again and
/// again, and a shared key costs a reference count instead of an allocation.
fn key(k: &str) -> Val {
    thread_local! {
        static KEYS: RefCell<HashMap<Box<str>, Val, foldhash::fast::RandomState>> =
            RefCell::default();
    }
    KEYS.with_borrow_mut(|keys| {
        if let Some(v) = keys.get(k) {
            return v.clone();
        }
        let v = Val::utf8_str(k.as_bytes().to_vec());
        if keys.len() < KEYS_KEPT {
            keys.insert(k.into(), v.clone());
        }
        v
    })
}

/// Equal values of one document, built once. jaq's strings, arrays and objects are
/// reference-counted, so a value met again (a key, a region, a resource that is the same in
/// `prior_state` and `planned_values`, the instances of a `count`) is shared instead of built
/// anew: the document then costs about what its distinct values cost. Values are found by a
/// hash computed bottom-up while parsing, and compared before they are shared.
#[derive(Default)]
struct Interner {
    /// Keyed by content hash (already well mixed: hashed again only by foldhash, cheaply).
    table: HashMap<u64, Val, foldhash::fast::FixedState>,
    /// Object keys, apart: a few hundred names met millions of times, a table that stays in
    /// the processor's cache.
    keys: HashMap<u64, Val, foldhash::fast::FixedState>,
}

/// Whether two values built by the interner are equal, compared one level deep: their
/// arrays and objects were shared as they were built, so equal children are the same
/// allocation. (`false` for equal values whose children were not shared, after a hash
/// collision: they are then kept apart, which costs memory, never correctness.)
fn same(a: &Val, b: &Val) -> bool {
    fn child(a: &Val, b: &Val) -> bool {
        match (a, b) {
            (Val::Arr(x), Val::Arr(y)) => jaq_json::Rc::ptr_eq(x, y),
            (Val::Obj(x), Val::Obj(y)) => jaq_json::Rc::ptr_eq(x, y),
            _ => a == b,
        }
    }
    match (a, b) {
        (Val::Arr(x), Val::Arr(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(a, b)| child(a, b))
        }
        // both built in sorted key order
        (Val::Obj(x), Val::Obj(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((ka, va), (kb, vb))| ka == kb && child(va, vb))
        }
        _ => a == b,
    }
}

/// A value and its content hash.
type Hashed = (Val, u64);

fn hasher() -> foldhash::fast::FoldHasher {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0x00ca_4b07).build_hasher()
}

impl Interner {
    /// `v` (whose content hashes to `h`), or the equal value met before.
    fn share(&mut self, v: Val, h: u64) -> Val {
        use std::collections::hash_map::Entry;
        match self.table.entry(h) {
            Entry::Occupied(e) if same(e.get(), &v) => e.get().clone(),
            Entry::Occupied(_) => v,
            Entry::Vacant(e) => {
                e.insert(v.clone());
                v
            }
        }
    }
    fn string(&mut self, s: &str) -> Hashed {
        Self::text(&mut self.table, s)
    }
    fn key(&mut self, s: &str) -> Hashed {
        Self::text(&mut self.keys, s)
    }
    fn text(table: &mut HashMap<u64, Val, foldhash::fast::FixedState>, s: &str) -> Hashed {
        use std::hash::Hasher;
        let mut st = hasher();
        st.write_u8(5);
        st.write(s.as_bytes());
        let h = st.finish();
        if let Some(v @ Val::TStr(b)) = table.get(&h)
            && b.as_ref() == s.as_bytes()
        {
            return (v.clone(), h);
        }
        let v = Val::utf8_str(s.as_bytes().to_vec());
        table.insert(h, v.clone());
        (v, h)
    }
}

/// A scalar that owns no memory (null, a boolean, a number), with its hash.
fn leaf(v: Val) -> Hashed {
    use std::hash::{Hash, Hasher};
    let mut st = hasher();
    v.hash(&mut st);
    let h = st.finish();
    (v, h)
}

/// An object from its members in document order (as [`object`]), shared through `int`.
fn shared_object(mut members: Vec<(Hashed, Hashed)>, int: &RefCell<Interner>) -> Hashed {
    use std::hash::Hasher;
    if !members.is_sorted_by(|a, b| a.0.0 < b.0.0) {
        members.reverse();
        members.sort_by(|a, b| a.0.0.cmp(&b.0.0));
        members.dedup_by(|b, a| a.0.0 == b.0.0);
    }
    let mut st = hasher();
    st.write_u8(7);
    st.write_usize(members.len());
    for ((_, kh), (_, vh)) in &members {
        st.write_u64(*kh);
        st.write_u64(*vh);
    }
    let h = st.finish();
    let v = Val::obj(members.into_iter().map(|((k, _), (v, _))| (k, v)).collect());
    (int.borrow_mut().share(v, h), h)
}

/// Any JSON value as a jaq value, with its hash; `strip` drops `sensitive_values` members unread.
#[derive(Clone, Copy)]
struct ValSeed<'i> {
    strip: bool,
    int: &'i RefCell<Interner>,
}

impl<'de> DeserializeSeed<'de> for ValSeed<'_> {
    type Value = Hashed;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Hashed, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValSeed<'_> {
    type Value = Hashed;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Hashed, E> {
        Ok(leaf(Val::Null))
    }
    fn visit_none<E: de::Error>(self) -> Result<Hashed, E> {
        Ok(leaf(Val::Null))
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Hashed, E> {
        Ok(leaf(Val::Bool(b)))
    }
    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Hashed, E> {
        Ok(leaf(int(i)))
    }
    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Hashed, E> {
        Ok(leaf(uint(u)))
    }
    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Hashed, E> {
        Ok(leaf(Val::Num(jaq_json::Num::Float(x))))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Hashed, E> {
        Ok(self.int.borrow_mut().string(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Hashed, A::Error> {
        use std::hash::Hasher;
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        let mut st = hasher();
        st.write_u8(6);
        while let Some((v, h)) = seq.next_element_seed(self)? {
            st.write_u64(h);
            out.push(v);
        }
        st.write_usize(out.len());
        let h = st.finish();
        Ok((self.int.borrow_mut().share(Val::Arr(out.into()), h), h))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Hashed, A::Error> {
        let mut out = Vec::new();
        while let Some(k) = map.next_key_seed(KeySeed(self.int))? {
            if self.strip && jq::str_ref(&k.0) == Some("sensitive_values") {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let v = map.next_value_seed(self)?;
            out.push((k, v));
        }
        Ok(shared_object(out, self.int))
    }
}

/// An object key, shared.
#[derive(Clone, Copy)]
struct KeySeed<'i>(&'i RefCell<Interner>);

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = Hashed;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Hashed, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = Hashed;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object key")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Hashed, E> {
        Ok(self.0.borrow_mut().key(s))
    }
}

struct DocSeed<'i>(&'i RefCell<Interner>);

impl<'de> DeserializeSeed<'de> for DocSeed<'_> {
    type Value = Document;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Document, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for DocSeed<'_> {
    type Value = Document;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a plan or state document")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Document, A::Error> {
        let mut out = Vec::new();
        while let Some(k) = map.next_key::<String>()? {
            if skipped(&k) {
                map.next_value::<IgnoredAny>()?;
            } else {
                let seed = ValSeed {
                    strip: true,
                    int: self.0,
                };
                out.push((k, map.next_value_seed(seed)?.0));
            }
        }
        Ok(Document { root: object(out) })
    }
    // anything else is mapped as it is (it holds no resources)
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Document, A::Error> {
        Ok(Document {
            root: ValSeed {
                strip: true,
                int: self.0,
            }
            .visit_seq(seq)?
            .0,
        })
    }
    fn visit_unit<E: de::Error>(self) -> Result<Document, E> {
        Ok(Document { root: Val::Null })
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_document_and_one_value_read_alike() {
        let text = r#"{"z": 1, "a": {"b": 2, "a": [1, 2.5, -3, 18446744073709551615, "x", null, true]},
            "a": {"dup": "last"},
            "planned_values": {"root_module": {"resources": [
                {"address": "x.y", "values": {"k": "v"}, "sensitive_values": {"k": true}}]}},
            "resource_changes": [
                {"address": "x.y", "change": {"before": {"s": 1}, "after_unknown": {"id": true}}}],
            "output_changes": {"o": {}}, "checks": []}"#;
        let a = Document::from_slice(text.as_bytes()).unwrap();
        assert_eq!(
            jq::to_json(&a.root),
            json!({"z": 1.0, "a": {"dup": "last"}, "planned_values": {"root_module": {"resources": [
                {"address": "x.y", "values": {"k": "v"}}]}}})
        );
        // one value built alone (a resource, a section) is the same value, unshared
        let pv = r#"{"root_module": {"resources": [
                {"address": "x.y", "values": {"k": "v"}, "sensitive_values": {"k": true}}]}}"#;
        assert_eq!(
            Some(jq::get(&a.root, "planned_values").unwrap().clone()),
            build(pv, true)
        );
        let dup = r#"{"b": 2, "a": [1, 2.5, -3, 18446744073709551615, "x", null, true], "a": {"dup": "last"}}"#;
        assert_eq!(
            jq::to_json(&build(dup, true).unwrap()),
            json!({"a": {"dup": "last"}, "b": 2.0})
        );
        // after_unknown is read as written (an attribute may be called sensitive_values)
        assert_eq!(
            jq::to_json(&build(r#"{"sensitive_values": true}"#, false).unwrap()),
            json!({"sensitive_values": true})
        );
        assert_eq!(build("[1", true), None);
        assert_eq!(build("1 2", true), None);
    }

    /// Equal values are built once: a resource that is the same before and after the change,
    /// and the keys and strings every resource repeats, are one shared value.
    #[test]
    fn equal_values_are_shared() {
        let text = r#"{
            "planned_values": {"root_module": {"resources": [
                {"address": "a.b", "values": {"size": 8, "tags": {"team": "x"}}}]}},
            "prior_state": {"values": {"root_module": {"resources": [
                {"address": "a.b", "values": {"size": 8, "tags": {"team": "x"}}},
                {"address": "a.c", "values": {"size": 9, "tags": {"team": "x"}}}]}}}}"#;
        let doc = Document::from_slice(text.as_bytes()).unwrap();
        let res = |side: &[&str], i: usize| {
            let mut v = &doc.root;
            for k in side {
                v = jq::get(v, k).unwrap();
            }
            match jq::get(v, "resources").unwrap() {
                Val::Arr(a) => a[i].clone(),
                _ => unreachable!(),
            }
        };
        let after = res(&["planned_values", "root_module"], 0);
        let before = res(&["prior_state", "values", "root_module"], 0);
        let other = res(&["prior_state", "values", "root_module"], 1);
        let same = |a: &Val, b: &Val| match (a, b) {
            (Val::Obj(a), Val::Obj(b)) => jaq_json::Rc::ptr_eq(a, b),
            _ => false,
        };
        assert!(same(&after, &before), "one resource, built twice");
        let tags = |r: &Val| {
            jq::get(jq::get(r, "values").unwrap(), "tags")
                .unwrap()
                .clone()
        };
        assert!(
            same(&tags(&after), &tags(&other)),
            "equal nested objects are shared"
        );
        assert!(!same(&after, &other));
        assert_eq!(jq::to_json(&before)["values"]["size"], 8.0);
        assert_eq!(jq::to_json(&other)["values"]["size"], 9.0);
    }

    /// Two different values with the same hash are both kept.
    #[test]
    fn a_hash_collision_is_not_sharing() {
        let mut int = Interner::default();
        let a = int.share(jq::s("a"), 42);
        let b = int.share(jq::s("b"), 42);
        assert_eq!(a, jq::s("a"));
        assert_eq!(b, jq::s("b"));
        assert_eq!(int.share(jq::s("a"), 42), jq::s("a"));
    }
}
