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

mod read;
use jaq_json::Val;
use read::{Changes, Dig, LenientStr, read_resource};
pub(crate) use read::{Members, member, skip_ws, split_members, string_end, value_end};
use serde::de;
use serde_json::value::RawValue;
use std::borrow::Cow;

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

/// A value as jaq reads it (`sensitive_values` members dropped), or null when the slice is
/// not one the engine can build (nested past serde_json's limit).
pub fn value(raw: Option<&RawValue>) -> Val {
    raw.and_then(|r| doc::build(r.get(), true))
        .unwrap_or(Val::Null)
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

/// One resource of a side: what the engine reads of every resource, and its slice (built into
/// a jaq value by [`Slot::value`] when its mapping runs or a lookup finds it).
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
    /// Its sensitivity mask (`sensitive_values`), read by `mapping::taint`.
    pub sensitive: Option<&'a RawValue>,
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
            sensitive: None,
        };
        let Some(read) = read_resource(raw.get(), wanted) else {
            return (slot, vec![]);
        };
        let text = |v: &'a str| {
            serde_json::from_str::<LenientStr<'a>>(v)
                .ok()
                .and_then(|s| s.0)
        };
        // a member's text as a slice of the document (it is one: checked when it was read)
        let raw_of = |v: &'a str| serde_json::from_str::<&'a RawValue>(v).ok();
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
                "sensitive_values" => slot.sensitive = raw_of(v),
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
                    .and_then(|(_, m)| dig(raw_of(m)?, rest)),
                [first, rest @ ..] => read
                    .fields
                    .iter()
                    .rev()
                    .find(|(k, _)| k == first)
                    .and_then(|(_, m)| dig(raw_of(m)?, rest)),
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
        doc::build_slice(self.raw.get(), true, None).unwrap_or(Val::Null)
    }

    /// [`Slot::value`] with only the members of `values` a mapping reads (`engine::filters::
    /// values_read`); the rest of the resource whole.
    pub fn value_keeping(&self, values: &[String]) -> Val {
        doc::build_slice(self.raw.get(), true, Some(values)).unwrap_or(Val::Null)
    }

    /// What a mapping that builds only the members `keep` of `values` sees of this resource
    /// ([`Slot::value_keeping`]): every member but `address` and `index`, as written and in
    /// document order, with a `values` object cut to the members of `keep` it has (duplicates
    /// too). Equal views build equal values. `None`: the slice is not an object.
    pub fn seen(&self, keep: &[String]) -> Option<Seen<'a>> {
        self.seen_but(keep, &["address", "index"])
    }

    /// [`Slot::seen`] without the resource's `name` either: what a mapping that never reads
    /// it sees (`engine::across`).
    pub fn seen_without_name(&self, keep: &[String]) -> Option<Seen<'a>> {
        self.seen_but(keep, &["address", "index", "name"])
    }

    fn seen_but(&self, keep: &[String], skip: &[&str]) -> Option<Seen<'a>> {
        let text = self.raw.get();
        let b = text.as_bytes();
        // each `values` object's members read in the pass over the resource (not once more)
        let mut inner = std::collections::VecDeque::new();
        let (top, _) = read::members_from(text, skip_ws(b, 0), |k, start| {
            if k == "values" && b.get(start) == Some(&b'{') {
                let (members, end) = read::members_from(text, start, |_, s| value_end(b, s))?;
                inner.push_back(members);
                return Some(end);
            }
            value_end(b, start)
        })?;
        let mut out = Vec::with_capacity(top.len() + keep.len());
        for (k, v) in top {
            match k.as_ref() {
                k if skip.contains(&k) => {}
                "values" if v.starts_with('{') => {
                    let members = inner.pop_front()?;
                    // (no member's text is empty: this marks the object cut)
                    out.push((false, k, ""));
                    out.extend(
                        members
                            .into_iter()
                            .filter(|(vk, _)| keep.iter().any(|w| w == vk))
                            .map(|(vk, vv)| (true, vk, vv)),
                    );
                }
                _ => out.push((false, k, v)),
            }
        }
        Some(Seen(out))
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

/// What a mapping sees of a resource ([`Slot::seen`]): (inside `values`, key, text as written)
/// per member.
#[derive(PartialEq, Eq, Debug)]
pub struct Seen<'a>(Vec<(bool, Cow<'a, str>, &'a str)>);

impl Seen<'_> {
    /// A hash of every member's place, key and text.
    pub fn hash(&self) -> u64 {
        use std::hash::{BuildHasher, Hasher};
        let mut h = foldhash::fast::FixedState::with_seed(0x5ee7).build_hasher();
        for (inside, k, v) in &self.0 {
            h.write_u8(*inside as u8);
            h.write(k.as_bytes());
            h.write_u8(0xff);
            h.write(v.as_bytes());
            h.write_u8(0xfe);
        }
        h.finish()
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

    /// The splitter without serde reads every object as `Members` does: escapes, brackets
    /// and quotes inside strings, nesting, white space, duplicate keys, empty objects.
    #[test]
    fn split_members_reads_what_members_reads() {
        for t in [
            "{}",
            " { } ",
            r#"{"a": 1, "b": "x}\"]", "c": {"d": [1, {"e": "\\"}], "f": null}, "g": [], "a": true}"#,
            "{\n\t\"k\\u00e9y\" :\r -1.5e3 ,\"l\":\"caf\u{e9}\" }",
            r#"{"address": "x[\"k\"]", "values": {"tags": {"Name": "n-{0}"}}, "index": "k"}"#,
            // quotes and backslashes at every place of an eight-byte word
            r#"{"0123456\"89": "abcdefghijklmno\\", "k": "abcdefg\\\"hijklmnopq\"rstuvwxyz", "l": ""}"#,
            r#"{"a\\": "\\\\\\\\\\\\\\\\\"", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb": ["\"\"\"\"\"\"\"\"\""]}"#,
        ] {
            let serde: Vec<(String, String)> = Members::of(serde_json::from_str(t).unwrap())
                .0
                .into_iter()
                .map(|(k, v)| (k.into_owned(), v.get().to_string()))
                .collect();
            let ours: Vec<(String, String)> = split_members(t)
                .unwrap()
                .into_iter()
                .map(|(k, v)| (k.into_owned(), v.to_string()))
                .collect();
            assert_eq!(ours, serde, "{t}");
        }
        // an escape at every offset from a word's start, and a string's end past it
        for n in 0..24 {
            for esc in [r#"\""#, r"\\", r"\u0041"] {
                let t = format!(
                    r#"{{"k": "{}{esc}{}", "m": [1, "{}"]}}"#,
                    "x".repeat(n),
                    "y".repeat(n % 9),
                    "z".repeat(n)
                );
                let ours: Vec<(String, String)> = split_members(&t)
                    .unwrap()
                    .into_iter()
                    .map(|(k, v)| (k.into_owned(), v.to_string()))
                    .collect();
                let serde: Vec<(String, String)> = Members::of(serde_json::from_str(&t).unwrap())
                    .0
                    .into_iter()
                    .map(|(k, v)| (k.into_owned(), v.get().to_string()))
                    .collect();
                assert_eq!(ours, serde, "{t}");
            }
        }
        assert_eq!(split_members(r#"{"a": "xxxxxxxxxxxxxxxxxxxxxxxxx"#), None);
        for not_object in [
            "[1]",
            "\"x\"",
            "3",
            "",
            "{\"a\" 1}",
            "{\"a\": [1}",
            "{\"a\": 1",
        ] {
            assert_eq!(split_members(not_object), None, "{not_object}");
        }
    }

    /// The view reads each `values` object in its pass over the resource: the same members as
    /// splitting the resource and then its `values` (repeated keys, escapes, spaces, an empty
    /// object, `values` that is not an object).
    #[test]
    fn seen_reads_values_in_one_pass_as_in_two() {
        let keep: Vec<String> = ["a", "b", "c\"d"].iter().map(|k| k.to_string()).collect();
        let two = |t: &str| -> Option<Vec<(bool, String, String)>> {
            let mut out = Vec::new();
            for (k, v) in split_members(t)? {
                match k.as_ref() {
                    "address" | "index" => {}
                    "values" if v.starts_with('{') => {
                        out.push((false, k.to_string(), String::new()));
                        for (vk, vv) in split_members(v)? {
                            if keep.iter().any(|w| *w == vk) {
                                out.push((true, vk.to_string(), vv.to_string()));
                            }
                        }
                    }
                    _ => out.push((false, k.to_string(), v.to_string())),
                }
            }
            Some(out)
        };
        for t in [
            r#"{"address": "x.y", "values": {"a": 1, "z": {"a": 2}, "b": [1, {"c": 3}]}, "type": "x"}"#,
            r#"{"values": {"a": 1}, "values": {"b": 2, "a": "}"}, "index": 0}"#,
            r#"{ "values" : { } , "name" : "n" }"#,
            r#"{"values": null, "sensitive_values": {"a": true}}"#,
            r#"{"values": {"c\"d": "\u0041", "a\u0062": 1, "b": "x\"y"}}"#,
            r#"{"v\u0061lues": {"a": 1}, "values": [1]}"#,
            "{}",
        ] {
            let raw: &RawValue = serde_json::from_str(t).unwrap();
            let (slot, _) = Slot::new(raw, &Wanted::default());
            let one = slot.seen(&keep).map(|s| {
                s.0.into_iter()
                    .map(|(i, k, v)| (i, k.to_string(), v.to_string()))
                    .collect::<Vec<_>>()
            });
            assert_eq!(one, two(t), "{t}");
        }
    }

    /// What a mapping sees of an instance: the members of `values` it reads and everything
    /// else but `address` and `index`.
    #[test]
    fn seen_holds_what_a_mapping_reads() {
        fn raw(t: &str) -> &RawValue {
            serde_json::from_str::<&RawValue>(t).unwrap()
        }
        let wanted = Wanted::default();
        let keep = ["instance_type".to_string()];
        let inst = |addr: &str, ty: &str, name: &str, mask: &str| {
            format!(
                r#"{{"address": "{addr}", "index": 0, "type": "aws_instance", "values": {{"instance_type": "{ty}", "tags": {{"Name": "{name}"}}}}, "sensitive_values": {mask}}}"#
            )
        };
        let texts = [
            inst("a.b[0]", "t3.micro", "node-0", "{}"),
            inst("a.b[1]", "t3.micro", "node-1", "{}"),
            inst("a.b[2]", "t3.large", "node-0", "{}"),
            inst("a.b[3]", "t3.micro", "node-0", r#"{"instance_type": true}"#),
        ];
        let seen: Vec<Seen<'_>> = texts
            .iter()
            .map(|t| Slot::new(raw(t), &wanted).0.seen(&keep).unwrap())
            .collect();
        // tags are not read: equal
        assert_eq!(seen[0], seen[1]);
        assert_eq!(seen[0].hash(), seen[1].hash());
        // the member read, and the mask, are
        for other in &seen[2..] {
            assert_ne!(&seen[0], other);
            assert_ne!(seen[0].hash(), other.hash());
        }
        // with tags read, they differ
        let keep = ["instance_type".to_string(), "tags".to_string()];
        let view = |t: &str| Slot::new(raw(t), &wanted).0.seen(&keep).unwrap().hash();
        assert_ne!(view(&texts[0]), view(&texts[1]));
        // a `values` that is not an object is kept whole
        let odd = |v: &str| {
            let t = format!(r#"{{"address": "a", "values": {v}}}"#);
            Slot::new(raw(&t), &wanted).0.seen(&keep).unwrap().hash()
        };
        assert_ne!(odd("null"), odd("[1]"));
        assert_ne!(odd("null"), odd("{}"));
    }
}
