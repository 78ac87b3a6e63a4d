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
use std::sync::OnceLock;

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

    /// The resources before the change: `prior_state.values.root_module`, in module order.
    pub fn before(&self) -> Vec<&'a RawValue> {
        let m = self
            .prior_state
            .and_then(|p| member(p, "values"))
            .and_then(|v| member(v, "root_module"));
        resources(m)
    }

    /// The resources after the change: `planned_values.root_module` (or a state's
    /// `values.root_module`), in module order; `None` when the document has neither.
    pub fn after(&self) -> Option<Vec<&'a RawValue>> {
        let m = match self.planned_values.and_then(|v| member(v, "root_module")) {
            Some(m) => Some(m),
            None => self.values.and_then(|v| member(v, "root_module")),
        }?;
        Some(resources(Some(m)))
    }

    /// Whether the document has a prior state with a root module.
    pub fn has_before(&self) -> bool {
        self.prior_state
            .and_then(|p| member(p, "values"))
            .and_then(|v| member(v, "root_module"))
            .is_some()
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

/// The resources of a module and its child modules, depth first (the order `cbf::all_select`
/// scans them in). Only objects are resources.
fn resources(module: Option<&RawValue>) -> Vec<&RawValue> {
    fn walk<'a>(m: &'a RawValue, out: &mut Vec<&'a RawValue>, depth: usize) {
        let Ok(members) = serde_json::from_str::<Members<'a>>(m.get()) else {
            return;
        };
        // duplicate keys: the last wins, as in a parsed object
        let last = |key: &str| members.0.iter().rev().find(|(k, _)| k == key).map(|m| m.1);
        if let Some(rs) = last("resources")
            && let Ok(list) = serde_json::from_str::<Vec<&'a RawValue>>(rs.get())
        {
            out.extend(list.into_iter().filter(|r| r.get().starts_with('{')));
        }
        if depth < 64
            && let Some(cs) = last("child_modules")
            && let Ok(list) = serde_json::from_str::<Vec<&'a RawValue>>(cs.get())
        {
            for c in list {
                walk(c, out, depth + 1);
            }
        }
    }
    let mut out = Vec::new();
    if let Some(m) = module {
        walk(m, &mut out, 0);
    }
    out
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

/// What the index of one property needs of a resource: the members its path starts with.
#[derive(Default)]
pub struct Wanted {
    /// First segments of the indexed paths other than `values` (and the fields a slot reads).
    pub top: Vec<String>,
    /// Second segments of the paths under `values`.
    pub values: Vec<String>,
}

/// One resource of a side: what the engine reads of every resource, its slice, and its jaq
/// value once something looked it up.
pub struct Slot<'a> {
    pub raw: &'a RawValue,
    pub address: Cow<'a, str>,
    pub type_: Cow<'a, str>,
    pub mode: Cow<'a, str>,
    pub provider_name: Cow<'a, str>,
    pub deposed_key: Option<Cow<'a, str>>,
    /// Hash of every member but `address` and `index` (their text): instances of one block
    /// that hash alike are mapped once (checked member by member, [`Slot::same_body`]).
    pub body_hash: u64,
    /// The members the side's indexes read (top-level name or `values.<name>`, and slice).
    pub wanted: Vec<(u16, &'a RawValue)>,
    val: OnceLock<Val>,
}

impl<'a> Slot<'a> {
    /// Reads a resource slice: one shallow pass over its members (and those of `values`).
    /// `wanted` lists the members the indexes need; the k-th of `wanted.top` is recorded as
    /// k, the k-th of `wanted.values` as `wanted.top.len() + k`.
    pub fn new(raw: &'a RawValue, wanted: &Wanted) -> Slot<'a> {
        use std::hash::{BuildHasher, Hasher};
        let mut slot = Slot {
            raw,
            address: Cow::Borrowed(""),
            type_: Cow::Borrowed(""),
            mode: Cow::Borrowed(""),
            provider_name: Cow::Borrowed(""),
            deposed_key: None,
            body_hash: 0,
            wanted: Vec::new(),
            val: OnceLock::new(),
        };
        let Ok(members) = serde_json::from_str::<Members<'a>>(raw.get()) else {
            return slot;
        };
        let mut h = foldhash::fast::FixedState::with_seed(0x5107).build_hasher();
        let text = |v: &'a RawValue| {
            serde_json::from_str::<LenientStr<'a>>(v.get())
                .ok()
                .and_then(|s| s.0)
        };
        for (k, v) in members.0 {
            match k.as_ref() {
                "address" => slot.address = text(v).unwrap_or_default(),
                "index" => {}
                key => {
                    h.write(key.as_bytes());
                    h.write_u8(0xff);
                    h.write(v.get().as_bytes());
                    h.write_u8(0xfe);
                    match key {
                        "type" => slot.type_ = text(v).unwrap_or_default(),
                        "mode" => slot.mode = text(v).unwrap_or_default(),
                        "provider_name" => slot.provider_name = text(v).unwrap_or_default(),
                        "deposed_key" => slot.deposed_key = text(v),
                        _ => {}
                    }
                    if key == "values" && !wanted.values.is_empty() {
                        if let Ok(vm) = serde_json::from_str::<Members<'a>>(v.get()) {
                            for (vk, vv) in vm.0 {
                                if let Some(i) = wanted.values.iter().position(|w| *w == vk) {
                                    let id = (wanted.top.len() + i) as u16;
                                    // the last of duplicate keys wins
                                    slot.wanted.retain(|(w, _)| *w != id);
                                    slot.wanted.push((id, vv));
                                }
                            }
                        }
                    } else if let Some(i) = wanted.top.iter().position(|w| w == key) {
                        slot.wanted.retain(|(w, _)| *w != i as u16);
                        slot.wanted.push((i as u16, v));
                    }
                }
            }
        }
        slot.body_hash = h.finish();
        slot
    }

    /// The resource as a jaq value, built now (not kept: the mapping of a resource reads it
    /// once); the kept value if something looked it up before.
    pub fn value(&self) -> Val {
        match self.val.get() {
            Some(v) => v.clone(),
            None => doc::build(self.raw.get(), true).unwrap_or(Val::Null),
        }
    }

    /// The resource as a jaq value, kept for the next lookup.
    pub fn cached(&self) -> &Val {
        self.val
            .get_or_init(|| doc::build(self.raw.get(), true).unwrap_or(Val::Null))
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

    /// A copy that shares the slice but not the built value (a data source of the prior
    /// state looked up from the planned side).
    pub fn again(&self) -> Slot<'a> {
        Slot {
            raw: self.raw,
            address: self.address.clone(),
            type_: self.type_.clone(),
            mode: self.mode.clone(),
            provider_name: self.provider_name.clone(),
            deposed_key: self.deposed_key.clone(),
            body_hash: self.body_hash,
            wanted: self.wanted.clone(),
            val: OnceLock::new(),
        }
    }
}
