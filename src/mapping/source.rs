//! What the mapping engine reads of a document: its sections as borrowed slices of the text, each side's resources as [`Slot`]s built into jaq values only when a mapping reads them.
//!
//! The plan is parsed once (`plan::parse`, which keeps `planned_values`, `prior_state`,
//! `configuration` and `variables` as `&RawValue` slices): this module walks those slices for
//! the resources of each side without building them. A resource's address, type, mode and
//! provider are read by one shallow pass over its slice ([`Slot::new`]), on every core; the
//! resource itself becomes a jaq value only when its mapping runs (and is dropped after) or
//! when another resource looks it up (`cbf::all_select`, `cbf::by_address`: then it is kept,
//! [`Slot::cached`]). The whole document as one jaq value (`cbf::root`) is built only for
//! mappings that read it (`mapping::doc::Document`).

use super::doc;
use jaq_json::Val;
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// The sections of a document the engine reads, as slices of its text.
#[derive(Default, Clone)]
pub struct Sections<'a> {
    /// The whole document (for `cbf::root`, built only when a mapping reads it).
    pub text: &'a str,
    pub planned_values: Option<&'a RawValue>,
    pub prior_state: Option<&'a RawValue>,
    /// A state document's `values`.
    pub values: Option<&'a RawValue>,
    pub configuration: Option<&'a RawValue>,
    pub variables: Option<&'a RawValue>,
    /// Each resource change's address and `change.after_unknown` text (a later change of the
    /// same address replaces an earlier one).
    pub unknown: Vec<(Cow<'a, str>, &'a str)>,
}

impl<'a> Sections<'a> {
    /// Every section of a document given as text, read by a shallow pass over its top level.
    /// Invalid JSON gives no section at all (the plan reader reports the error).
    pub fn from_text(text: &'a str) -> Sections<'a> {
        let mut s = Sections {
            text,
            ..Default::default()
        };
        let Ok(top) = serde_json::from_str::<Members<'a>>(text) else {
            return s;
        };
        for (k, v) in top.0 {
            match k.as_ref() {
                "planned_values" => s.planned_values = Some(v),
                "prior_state" => s.prior_state = Some(v),
                "values" => s.values = Some(v),
                "configuration" => s.configuration = Some(v),
                "variables" => s.variables = Some(v),
                "resource_changes" => {
                    s.unknown = serde_json::from_str::<Changes<'a>>(v.get())
                        .map(|c| c.0)
                        .unwrap_or_default()
                }
                _ => {}
            }
        }
        s
    }

    /// The resources before the change: `prior_state.values.root_module`, in module order;
    /// `None` when the document has no prior state with a root module.
    pub fn before(&self) -> Option<Vec<&'a RawValue>> {
        side(self.prior_state?, &["values", "root_module"])
    }

    /// The resources after the change: `planned_values.root_module` (or a state's
    /// `values.root_module`), in module order; `None` when the document has neither.
    pub fn after(&self) -> Option<Vec<&'a RawValue>> {
        self.planned_values
            .and_then(|v| side(v, &["root_module"]))
            .or_else(|| side(self.values?, &["root_module"]))
    }
}

/// The resources of the module at `path` inside a section, and of its child modules, depth
/// first (the order `cbf::all_select` scans them in), read in one pass over the section:
/// `None` when the section has no member at `path`. Only objects are resources.
fn side<'a>(section: &'a RawValue, path: &[&str]) -> Option<Vec<&'a RawValue>> {
    let mut de = serde_json::Deserializer::from_str(section.get());
    de::DeserializeSeed::deserialize(Dig { path }, &mut de)
        .ok()
        .flatten()
}

/// Follows `path` through objects to a module (duplicate keys: the last wins).
struct Dig<'p> {
    path: &'p [&'p str],
}

impl<'de> de::DeserializeSeed<'de> for Dig<'_> {
    type Value = Option<Vec<&'de RawValue>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        match self.path.split_first() {
            None => ModuleSeed { depth: 0 }.deserialize(d).map(Some),
            Some(_) => d.deserialize_any(self),
        }
    }
}

impl<'de> Visitor<'de> for Dig<'_> {
    type Value = Option<Vec<&'de RawValue>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (first, rest) = self.path.split_first().expect("a path");
        let mut found = None;
        while let Some(k) = map.next_key::<LenientStr<'de>>()? {
            if k.0.as_deref() == Some(*first) {
                found = map.next_value_seed(Dig { path: rest })?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// A module: its resources, then its child modules' (anything that is not an object has
/// none; modules nest at most 64 deep).
struct ModuleSeed {
    depth: usize,
}

impl<'de> de::DeserializeSeed<'de> for ModuleSeed {
    type Value = Vec<&'de RawValue>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// A module's `child_modules`.
struct Children {
    depth: usize,
}

impl<'de> de::DeserializeSeed<'de> for Children {
    type Value = Vec<&'de RawValue>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        struct V(usize);
        impl<'de> Visitor<'de> for V {
            type Value = Vec<&'de RawValue>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of modules")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(rs) = seq.next_element_seed(ModuleSeed { depth: self.0 })? {
                    out.extend(rs);
                }
                Ok(out)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(vec![])
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(vec![])
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(vec![])
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(vec![])
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(vec![])
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(vec![])
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
                Ok(vec![])
            }
        }
        if self.depth >= 64 {
            return IgnoredAny::deserialize(d).map(|_| vec![]);
        }
        d.deserialize_any(V(self.depth + 1))
    }
}

impl<'de> Visitor<'de> for ModuleSeed {
    type Value = Vec<&'de RawValue>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a module")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut own, mut children) = (Vec::new(), Vec::new());
        while let Some(k) = map.next_key::<LenientStr<'de>>()? {
            match k.0.as_deref() {
                Some("resources") => {
                    own = map.next_value_seed(Slices)?;
                    own.retain(|r| r.get().starts_with('{'));
                }
                Some("child_modules") => {
                    children = map.next_value_seed(Children { depth: self.depth })?
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        own.extend(children);
        Ok(own)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(vec![])
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(vec![])
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(vec![])
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(vec![])
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(vec![])
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(vec![])
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(vec![])
    }
}

/// A list of slices (anything else: none).
struct Slices;

impl<'de> de::DeserializeSeed<'de> for Slices {
    type Value = Vec<&'de RawValue>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Slices {
    type Value = Vec<&'de RawValue>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(r) = seq.next_element::<&'de RawValue>()? {
            out.push(r);
        }
        Ok(out)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(vec![])
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(vec![])
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(vec![])
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(vec![])
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(vec![])
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(vec![])
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(vec![])
    }
}

/// A value as jaq reads it (`sensitive_values` members dropped), or null when the slice is
/// not one the engine can build (nested past serde_json's limit).
pub fn value(raw: Option<&RawValue>) -> Val {
    raw.and_then(|r| doc::build(r.get(), true))
        .unwrap_or(Val::Null)
}

/// The members of an object, in document order (anything else has none).
pub(crate) struct Members<'a>(pub(crate) Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Members<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key::<LenientStr<'de>>()? {
                    out.push((k.0.unwrap_or_default(), map.next_value::<&'de RawValue>()?));
                }
                Ok(Members(out))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Members(vec![]))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Members(vec![]))
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
        d.deserialize_any(V)
    }
}

/// Member `key` of an object slice (the last of duplicate keys, as a parsed object keeps).
pub(crate) fn member<'a>(raw: &'a RawValue, key: &str) -> Option<&'a RawValue> {
    let m = serde_json::from_str::<Members<'a>>(raw.get()).ok()?;
    m.0.into_iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
}

/// `resource_changes`: (address, `change.after_unknown` text) of each change; anything that is
/// not a change object is skipped.
struct Changes<'a>(Vec<(Cow<'a, str>, &'a str)>);

impl<'de: 'a, 'a> Deserialize<'de> for Changes<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let list = Vec::<&'de RawValue>::deserialize(d).unwrap_or_default();
        let mut out = Vec::new();
        for rc in list {
            let Ok(m) = serde_json::from_str::<Members<'de>>(rc.get()) else {
                continue;
            };
            let last = |key: &str| m.0.iter().rev().find(|(k, _)| k == key).map(|m| m.1);
            let address = last("address")
                .and_then(|a| serde_json::from_str::<LenientStr<'de>>(a.get()).ok())
                .and_then(|a| a.0);
            let unknown = last("change").and_then(|c| member(c, "after_unknown"));
            if let (Some(a), Some(u)) = (address, unknown) {
                out.push((a, u.get()));
            }
        }
        Ok(Changes(out))
    }
}

/// A string member, or `None` for any other value.
struct LenientStr<'a>(Option<Cow<'a, str>>);

impl<'de: 'a, 'a> Deserialize<'de> for LenientStr<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LenientStr<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
                Ok(LenientStr(Some(Cow::Borrowed(s))))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
                Ok(LenientStr(Some(Cow::Owned(s.to_string()))))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Self::Value, E> {
                Ok(LenientStr(Some(Cow::Owned(s))))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(LenientStr(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(LenientStr(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(LenientStr(None))
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
        }
        d.deserialize_any(V)
    }
}

/// The property paths the side's `cbf::all_select` indexes read from each resource's slice
/// (paths such as `values.self_link`; `address`, `type`, `mode` and `provider_name` are read
/// from the slot).
#[derive(Default)]
pub struct Wanted {
    pub props: Vec<Vec<String>>,
}

/// How `cbf::all_select` compares a property's value: a string by its text, any other value
/// by its JSON (jq's `tojson`); null is never found.
pub fn key_of(raw: &RawValue) -> Option<(bool, Cow<'_, str>)> {
    let t = raw.get();
    if t.starts_with('"') {
        return serde_json::from_str::<LenientStr<'_>>(t)
            .ok()
            .and_then(|s| s.0)
            .map(|s| (true, s));
    }
    match value(Some(raw)) {
        Val::Null => None,
        v => Some((false, Cow::Owned(v.to_string()))),
    }
}

/// The hash an index files a key under.
pub fn key_hash(string: bool, text: &str) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = foldhash::fast::FixedState::with_seed(0x1dc5).build_hasher();
    h.write_u8(string as u8);
    h.write(text.as_bytes());
    h.finish()
}

/// The slice at a path of members (`None` past a missing member or a non-object).
pub fn dig<'a, S: AsRef<str>>(raw: &'a RawValue, segs: &[S]) -> Option<&'a RawValue> {
    let mut v = raw;
    for k in segs {
        v = member(v, k.as_ref())?;
    }
    Some(v)
}

/// What one pass over a resource's members keeps: the members a slot or an index reads, the
/// `values` members an index reads, and the hash of every member but `address` and `index`.
struct Read<'a> {
    fields: Vec<(Cow<'a, str>, &'a RawValue)>,
    values: Vec<(Cow<'a, str>, &'a RawValue)>,
    hash: u64,
}

struct ResourceSeed<'w> {
    wanted: &'w Wanted,
}

impl<'de> de::DeserializeSeed<'de> for ResourceSeed<'_> {
    type Value = Read<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ResourceSeed<'_> {
    type Value = Read<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a resource")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        use std::hash::{BuildHasher, Hasher};
        const FIELDS: [&str; 5] = ["address", "type", "mode", "provider_name", "deposed_key"];
        let mut h = foldhash::fast::FixedState::with_seed(0x5107).build_hasher();
        let mut read = Read {
            fields: Vec::new(),
            values: Vec::new(),
            hash: 0,
        };
        let under_values = self
            .wanted
            .props
            .iter()
            .any(|p| p.len() > 1 && p[0] == "values");
        while let Some(k) = map.next_key::<LenientStr<'de>>()? {
            let k = k.0.unwrap_or_default();
            if k == "values" && under_values {
                // read member by member: the index keys under it come from this pass
                h.write(b"values");
                h.write_u8(0xff);
                let members = map.next_value::<Members<'de>>()?;
                for (vk, vv) in members.0 {
                    h.write(vk.as_bytes());
                    h.write_u8(0xfd);
                    h.write(vv.get().as_bytes());
                    h.write_u8(0xfc);
                    let wanted = self
                        .wanted
                        .props
                        .iter()
                        .any(|p| p.len() > 1 && p[0] == "values" && p[1] == vk);
                    if wanted {
                        read.values.push((vk, vv));
                    }
                }
                h.write_u8(0xfe);
                continue;
            }
            let v = map.next_value::<&'de RawValue>()?;
            if k != "address" && k != "index" {
                h.write(k.as_bytes());
                h.write_u8(0xff);
                h.write(v.get().as_bytes());
                h.write_u8(0xfe);
            }
            if FIELDS.contains(&k.as_ref()) || self.wanted.props.iter().any(|p| p[0] == k) {
                read.fields.push((k, v));
            }
        }
        read.hash = h.finish();
        Ok(read)
    }
}

/// A resource's `mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Managed,
    Data,
    /// No mode, or an empty one (mapped as managed).
    Absent,
    Other,
}

impl Mode {
    fn of(m: &str) -> Mode {
        match m {
            "managed" => Mode::Managed,
            "data" => Mode::Data,
            "" => Mode::Absent,
            _ => Mode::Other,
        }
    }

    /// Managed, or no mode at all: a resource mappings may take.
    pub fn managed(self) -> bool {
        matches!(self, Mode::Managed | Mode::Absent)
    }
}

/// One resource of a side: what the engine reads of every resource, its slice, and its jaq
/// value once something looked it up.
pub struct Slot<'a> {
    pub raw: &'a RawValue,
    pub address: Cow<'a, str>,
    pub type_: Cow<'a, str>,
    pub mode: Mode,
    /// The provider family of its `provider_name` (`aws`, `gcp`, `azure`), if one we map.
    pub family: Option<&'static str>,
    pub deposed_key: Option<Box<str>>,
    /// Hash of every member but `address` and `index` (their text): instances of one block
    /// that hash alike are mapped once (checked member by member, [`Slot::same_body`]).
    pub body_hash: u64,
}

impl<'a> Slot<'a> {
    /// Reads a resource slice: one shallow pass over its members. Also returns, for each
    /// path of `wanted` the resource has a key at, (path's position, [`key_hash`]).
    pub fn new(raw: &'a RawValue, wanted: &Wanted) -> (Slot<'a>, Vec<(u16, u64)>) {
        let mut slot = Slot {
            raw,
            address: Cow::Borrowed(""),
            type_: Cow::Borrowed(""),
            mode: Mode::Absent,
            family: None,
            deposed_key: None,
            body_hash: 0,
        };
        let mut de = serde_json::Deserializer::from_str(raw.get());
        let Ok(read) = de::DeserializeSeed::deserialize(ResourceSeed { wanted }, &mut de) else {
            return (slot, vec![]);
        };
        let text = |v: &'a RawValue| {
            serde_json::from_str::<LenientStr<'a>>(v.get())
                .ok()
                .and_then(|s| s.0)
        };
        // duplicate keys: the last wins
        for (k, v) in &read.fields {
            match k.as_ref() {
                "address" => slot.address = text(v).unwrap_or_default(),
                "type" => slot.type_ = text(v).unwrap_or_default(),
                "mode" => slot.mode = Mode::of(text(v).as_deref().unwrap_or("")),
                "provider_name" => {
                    slot.family = super::region::provider_family(text(v).as_deref().unwrap_or(""))
                }
                "deposed_key" => slot.deposed_key = text(v).map(|k| k.into()),
                _ => {}
            }
        }
        slot.body_hash = read.hash;
        let mut keys = Vec::new();
        for (i, segs) in wanted.props.iter().enumerate() {
            let found = match segs.as_slice() {
                [first, second, rest @ ..] if first == "values" => read
                    .values
                    .iter()
                    .rev()
                    .find(|(k, _)| k == second)
                    .and_then(|(_, m)| dig(m, rest)),
                [first, rest @ ..] => read
                    .fields
                    .iter()
                    .rev()
                    .find(|(k, _)| k == first)
                    .and_then(|(_, m)| dig(m, rest)),
                [] => None,
            };
            if let Some((string, k)) = found.and_then(key_of) {
                keys.push((i as u16, key_hash(string, &k)));
            }
        }
        (slot, keys)
    }

    /// The resource as a jaq value, built now (a side keeps the ones lookups find:
    /// `engine::side`).
    pub fn value(&self) -> Val {
        doc::build(self.raw.get(), true).unwrap_or(Val::Null)
    }

    /// Whether two resources are equal but for their `address` and `index` (member by
    /// member, as written).
    pub fn same_body(&self, other: &Slot<'_>) -> bool {
        let body = |s: &Slot<'_>| -> Option<Vec<(String, String)>> {
            let m = serde_json::from_str::<Members<'_>>(s.raw.get()).ok()?;
            Some(
                m.0.into_iter()
                    .filter(|(k, _)| !matches!(k.as_ref(), "address" | "index"))
                    .map(|(k, v)| (k.into_owned(), v.get().to_string()))
                    .collect(),
            )
        };
        self.body_hash == other.body_hash && body(self).is_some_and(|a| Some(a) == body(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(text: &str) -> Option<Vec<String>> {
        let s = Sections::from_text(text);
        s.after()
            .map(|rs| rs.iter().map(|r| r.get().to_string()).collect())
    }

    /// Sides are found through any shape a hostile or hand-written document gives them;
    /// what is not a module or a resource is skipped, never an error.
    #[test]
    fn odd_shapes_give_what_is_there() {
        assert_eq!(after("{}"), None);
        assert_eq!(after(r#"{"planned_values": 5}"#), None);
        assert_eq!(
            after(r#"{"planned_values": {"root_module": 5}}"#),
            Some(vec![])
        );
        assert_eq!(
            after(r#"{"planned_values": {"root_module": {"resources": {"a": 1}}}}"#),
            Some(vec![])
        );
        assert_eq!(
            after(
                r#"{"planned_values": {"root_module": {"resources": [1, "x", null, {"address": "a.b"}],
                    "child_modules": [5, {"resources": [{"address": "c.d"}]}, {"child_modules": {}}]}}}"#
            ),
            Some(vec![
                r#"{"address": "a.b"}"#.into(),
                r#"{"address": "c.d"}"#.into()
            ])
        );
        // the module's own resources come first, whatever the key order; the last of
        // duplicate keys wins
        assert_eq!(
            after(
                r#"{"planned_values": {"root_module": {"child_modules": [{"resources": [{"n": 2}]}],
                    "resources": [{"n": 0}], "resources": [{"n": 1}]}}}"#
            ),
            Some(vec![r#"{"n": 1}"#.into(), r#"{"n": 2}"#.into()])
        );
        // a state document's values
        assert_eq!(
            after(r#"{"values": {"root_module": {"resources": [{"n": 3}]}}}"#),
            Some(vec![r#"{"n": 3}"#.into()])
        );
        // modules nested past 64 levels are not read (and nothing overflows)
        let mut deep = String::from(r#"{"resources": [{"n": 9}]}"#);
        for _ in 0..40 {
            deep = format!(r#"{{"child_modules": [{deep}]}}"#);
        }
        let text = format!(r#"{{"planned_values": {{"root_module": {deep}}}}}"#);
        assert_eq!(after(&text), Some(vec![r#"{"n": 9}"#.into()]));
    }

    /// A slot reads what it needs of any resource, and hashes its body without its address.
    #[test]
    fn slots_read_odd_resources() {
        let wanted = Wanted {
            props: vec![vec!["values".into(), "id".into()], vec!["name".into()]],
        };
        fn raw(t: &str) -> &RawValue {
            serde_json::from_str::<&RawValue>(t).unwrap()
        }
        let a = raw(
            r#"{"address": "x.y[\"k\"]", "type": 7, "mode": "data", "provider_name": "registry.terraform.io/hashicorp/google",
                "values": {"id": "i-1", "id": "i-2"}, "name": {"o": 1}, "index": "k"}"#,
        );
        let (s, keys) = Slot::new(a, &wanted);
        assert_eq!(s.address, "x.y[\"k\"]");
        assert_eq!(s.type_, "");
        assert_eq!(s.mode, Mode::Data);
        assert_eq!(s.family, Some("gcp"));
        // a non-string value is filed by its JSON, as jq's `tojson` writes it
        let json = value(Some(raw(r#"{"o": 1}"#))).to_string();
        assert_eq!(json, r#"{"o":1}"#);
        assert_eq!(
            keys,
            vec![(0, key_hash(true, "i-2")), (1, key_hash(false, &json))]
        );
        let b = raw(
            r#"{"address": "x.y[\"j\"]", "type": 7, "mode": "data", "provider_name": "registry.terraform.io/hashicorp/google",
                "values": {"id": "i-1", "id": "i-2"}, "name": {"o": 1}, "index": "j"}"#,
        );
        let (t, _) = Slot::new(b, &wanted);
        assert_eq!(s.body_hash, t.body_hash);
        assert!(s.same_body(&t));
        let (u, _) = Slot::new(raw(r#"{"address": "x.y", "values": null}"#), &wanted);
        assert_ne!(u.body_hash, s.body_hash);
        assert!(!u.same_body(&s));
        assert_eq!(u.mode, Mode::Absent);
        assert!(u.mode.managed());
        // not an object: an empty slot
        let (v, keys) = Slot::new(raw("[1, 2]"), &wanted);
        assert_eq!((v.address.as_ref(), keys.len()), ("", 0));
    }
}
