//! The serde visitors that read a document's shape from its text without building it: a side's modules and resources, an object's members, a resource's fields and index keys, lenient strings.

use super::Wanted;
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// The visitor methods for the shapes a reader does not read (`map`, `seq`, `scalars`: null,
/// booleans and numbers, `str`): the value is skipped and `$none` stands for it.
macro_rules! skip_other_shapes {
    ($de:lifetime, $none:expr; $($kind:ident),+) => {
        $(skip_other_shapes!(@$kind $de, $none);)+
    };
    (@map $de:lifetime, $none:expr) => {
        fn visit_map<A: MapAccess<$de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok($none)
        }
    };
    (@seq $de:lifetime, $none:expr) => {
        fn visit_seq<A: SeqAccess<$de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok($none)
        }
    };
    (@scalars $de:lifetime, $none:expr) => {
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok($none)
        }
    };
    (@str $de:lifetime, $none:expr) => {
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok($none)
        }
    };
}

/// Follows `path` through objects to a module (duplicate keys: the last wins).
pub(super) struct Dig<'p> {
    pub(super) path: &'p [&'p str],
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
    skip_other_shapes!('de, None; seq, scalars, str);
}

/// A module: its resources, then its child modules' (anything that is not an object has
/// none; modules nest at most 64 deep).
pub(super) struct ModuleSeed {
    pub(super) depth: usize,
}

impl<'de> de::DeserializeSeed<'de> for ModuleSeed {
    type Value = Vec<&'de RawValue>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// A module's `child_modules`.
pub(super) struct Children {
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
            skip_other_shapes!('de, vec![]; map, scalars, str);
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
    skip_other_shapes!('de, vec![]; seq, scalars, str);
}

/// A list of slices (anything else: none).
pub(super) struct Slices;

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
    skip_other_shapes!('de, vec![]; map, scalars, str);
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
            skip_other_shapes!('de, Members(vec![]); seq, scalars, str);
        }
        d.deserialize_any(V)
    }
}

impl<'a> Members<'a> {
    /// The members of a slice (none when it is not an object).
    pub(crate) fn of(raw: &'a RawValue) -> Members<'a> {
        serde_json::from_str::<Members<'a>>(raw.get()).unwrap_or(Members(Vec::new()))
    }
    /// Member `key` (the last of duplicate keys, as a parsed object keeps).
    pub(crate) fn last(&self, key: &str) -> Option<&'a RawValue> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v)
    }
}

/// Member `key` of an object slice (the last of duplicate keys, as a parsed object keeps).
pub(crate) fn member<'a>(raw: &'a RawValue, key: &str) -> Option<&'a RawValue> {
    Members::of(raw).last(key)
}

/// `resource_changes`: (address, `change.after_unknown` text) of each change; anything that is
/// not a change object is skipped.
pub(super) struct Changes<'a>(pub(super) Vec<(Cow<'a, str>, &'a str)>);

impl<'de: 'a, 'a> Deserialize<'de> for Changes<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let list = Vec::<&'de RawValue>::deserialize(d).unwrap_or_default();
        let mut out = Vec::new();
        for rc in list {
            let Ok(m) = serde_json::from_str::<Members<'de>>(rc.get()) else {
                continue;
            };
            let address = m
                .last("address")
                .and_then(|a| serde_json::from_str::<LenientStr<'de>>(a.get()).ok())
                .and_then(|a| a.0);
            let unknown = m.last("change").and_then(|c| member(c, "after_unknown"));
            if let (Some(a), Some(u)) = (address, unknown) {
                out.push((a, u.get()));
            }
        }
        Ok(Changes(out))
    }
}

/// A string member, or `None` for any other value.
pub(super) struct LenientStr<'a>(pub(super) Option<Cow<'a, str>>);

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
            skip_other_shapes!('de, LenientStr(None); map, seq, scalars);
        }
        d.deserialize_any(V)
    }
}

/// What one pass over a resource's members keeps: the members a slot or an index reads, the
/// `values` members an index reads, and the hash of every member but `address` and `index`.
pub(super) struct Read<'a> {
    pub(super) fields: Vec<(Cow<'a, str>, &'a str)>,
    pub(super) values: Vec<(Cow<'a, str>, &'a str)>,
    pub(super) hash: u64,
}

/// Reads a resource's text (a slice of a checked document) in one pass over its members
/// ([`split_members`]); `None` when it is not an object.
pub(super) fn read_resource<'a>(text: &'a str, wanted: &Wanted) -> Option<Read<'a>> {
    use std::hash::{BuildHasher, Hasher};
    const FIELDS: [&str; 6] = [
        "address",
        "type",
        "mode",
        "provider_name",
        "deposed_key",
        "sensitive_values",
    ];
    let mut h = foldhash::fast::FixedState::with_seed(0x5107).build_hasher();
    let mut read = Read {
        fields: Vec::new(),
        values: Vec::new(),
        hash: 0,
    };
    let under_values = wanted.props.iter().any(|p| p.len() > 1 && p[0] == "values");
    for (k, v) in split_members(text)? {
        if k == "values" && under_values {
            // read member by member: the index keys under it come from this pass (a value
            // that is not an object has none)
            h.write(b"values");
            h.write_u8(0xff);
            for (vk, vv) in split_members(v).unwrap_or_default() {
                h.write(vk.as_bytes());
                h.write_u8(0xfd);
                h.write(vv.as_bytes());
                h.write_u8(0xfc);
                let wanted = wanted
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
        if k != "address" && k != "index" {
            h.write(k.as_bytes());
            h.write_u8(0xff);
            h.write(v.as_bytes());
            h.write_u8(0xfe);
        }
        if FIELDS.contains(&k.as_ref()) || wanted.props.iter().any(|p| p[0] == k) {
            read.fields.push((k, v));
        }
    }
    read.hash = h.finish();
    Some(read)
}

/// The members of an object's text, in document order, as (key, value's text): what
/// [`Members`] gives, read without serde for a slice already checked as JSON (every slice of
/// a parsed document is). `None`: not an object, or text that is not such JSON.
pub(crate) fn split_members(text: &str) -> Option<Vec<(Cow<'_, str>, &str)>> {
    let b = text.as_bytes();
    members_from(text, skip_ws(b, 0), |_, start| value_end(b, start)).map(|(m, _)| m)
}

/// A member of an object's text: its key, and its value's text.
pub(crate) type Member<'t> = (Cow<'t, str>, &'t str);

/// The members of the object that starts at byte `i` of `text` (see [`split_members`]), and
/// the byte past its end. Each value's end is found by `end(key, start)`, which may read the
/// value on the way (a nested object's members, read in the same pass).
pub(crate) fn members_from<'t>(
    text: &'t str,
    mut i: usize,
    mut end: impl FnMut(&str, usize) -> Option<usize>,
) -> Option<(Vec<Member<'t>>, usize)> {
    let b = text.as_bytes();
    if b.get(i) != Some(&b'{') {
        return None;
    }
    let mut out = Vec::with_capacity(16);
    i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b'}') {
        return Some((out, i + 1));
    }
    loop {
        let (key_end, escaped) = string_end(b, i)?;
        let quoted = &text[i..key_end];
        let key = if escaped {
            Cow::Owned(serde_json::from_str::<String>(quoted).ok()?)
        } else {
            Cow::Borrowed(&quoted[1..quoted.len() - 1])
        };
        i = skip_ws(b, key_end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_ws(b, i + 1);
        let stop = end(&key, start)?;
        out.push((key, &text[start..stop]));
        i = skip_ws(b, stop);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b'}') => return Some((out, i + 1)),
            _ => return None,
        }
    }
}

pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b
        .get(i)
        .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
    {
        i += 1;
    }
    i
}

/// Past the closing quote of the string that starts at `i`, and whether it holds an escape.
pub(crate) fn string_end(b: &[u8], i: usize) -> Option<(usize, bool)> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let mut escaped = false;
    let mut j = i + 1;
    loop {
        // eight bytes at a time while none of them is a quote or a backslash
        while let Some(w) = b.get(j..j + 8) {
            let w = u64::from_le_bytes(w.try_into().expect("eight bytes"));
            let found = has_byte(w, b'"') | has_byte(w, b'\\');
            if found != 0 {
                // the lowest flag is the first such byte
                j += (found.trailing_zeros() / 8) as usize;
                break;
            }
            j += 8;
        }
        match b.get(j)? {
            b'\\' => {
                escaped = true;
                j += 2
            }
            b'"' => return Some((j + 1, escaped)),
            _ => j += 1,
        }
    }
}

/// Non-zero when a byte of `w` is `c`: the high bit of each byte of `w ^ c…` that is zero (and
/// maybe of bytes after it, never before).
fn has_byte(w: u64, c: u8) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let x = w ^ (ONES * c as u64);
    x.wrapping_sub(ONES) & !x & (ONES << 7)
}

/// Past the value that starts at `i`.
pub(crate) fn value_end(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => string_end(b, i).map(|e| e.0),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = string_end(b, j)?.0;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            {
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}
