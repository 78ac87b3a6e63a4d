//! A `json_data` table of the mappings: its JSON text, checked at load, whose entries become jq
//! values one key at a time, when a `reference: json_file` first asks for them.
//!
//! A `json_file` reference only looks up one top-level key of a table (an instance type, a SQL
//! tier…), and a plan uses a few dozen of the thousands a table holds. So loading only checks that
//! the text is JSON (with the same error a full parse gives); the first lookup of a table indexes
//! its top-level keys (each to the byte range of its value), and each entry is parsed and
//! converted on its first lookup, then kept.

use super::FastMap;
use super::jq;
use jaq_json::Val;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

/// One data table. Cheap to share across threads: its lazy parts are `OnceLock`s.
pub struct Table {
    text: Cow<'static, str>,
    /// Top-level key → its entry; built on the first lookup (empty for a non-object table).
    entries: OnceLock<FastMap<Box<str>, Entry>>,
}

struct Entry {
    /// Byte range of the value in the table's text.
    start: usize,
    end: usize,
    val: OnceLock<Val>,
}

impl Table {
    /// A table from its text, or the error `serde_json` gives when parsing it into a
    /// `serde_json::Value` (the text is checked by the same parser paths, without building it).
    /// The binary's own tables (the very text `data::json_file` embeds, not a copy) are valid
    /// (a test checks them): they are not read until a lookup needs them.
    pub fn new(text: Cow<'static, str>) -> Result<Table, serde_json::Error> {
        if !is_embedded(&text) {
            serde_json::from_str::<Check>(&text)?;
        }
        Ok(Table {
            text,
            entries: OnceLock::new(),
        })
    }

    /// The value of top-level key `key` (as `jq::get` on the whole table would give it).
    pub fn get(&self, key: &str) -> Option<&Val> {
        let e = self.entries.get_or_init(|| index(&self.text)).get(key)?;
        Some(e.val.get_or_init(|| {
            // the text was checked whole at load: its parts parse
            serde_json::from_str::<serde_json::Value>(&self.text[e.start..e.end])
                .map(|v| jq::to_val(&v))
                .unwrap_or(Val::Null)
        }))
    }
}

/// Whether `text` is one of the tables embedded in the binary, by address.
fn is_embedded(text: &str) -> bool {
    crate::data::json_file_names()
        .filter_map(crate::data::json_file)
        .any(|t| std::ptr::eq(t, text))
}

/// Top-level keys of an object text and the byte ranges of their values (a later duplicate key
/// wins, as in a parse into a map). Not an object: no keys.
fn index(text: &str) -> FastMap<Box<str>, Entry> {
    let Ok(map) = serde_json::from_str::<FastMap<String, &RawValue>>(text) else {
        return FastMap::default();
    };
    let base = text.as_ptr() as usize;
    map.into_iter()
        .map(|(k, raw)| {
            let start = raw.get().as_ptr() as usize - base;
            let entry = Entry {
                start,
                end: start + raw.get().len(),
                val: OnceLock::new(),
            };
            (k.into_boxed_str(), entry)
        })
        .collect()
}

/// Accepts any JSON and keeps nothing; reads every value with `deserialize_any`, as
/// `serde_json::Value` does, so that a text is rejected exactly when (and where, with the same
/// message) a parse into a `Value` rejects it.
struct Check;

impl<'de> Deserialize<'de> for Check {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Check, D::Error> {
        d.deserialize_any(CheckVisitor)
    }
}

struct CheckVisitor;

impl<'de> Visitor<'de> for CheckVisitor {
    type Value = Check;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Check, E> {
        Ok(Check)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Check, E> {
        Ok(Check)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Check, E> {
        Ok(Check)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Check, E> {
        Ok(Check)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Check, E> {
        Ok(Check)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Check, E> {
        Ok(Check)
    }
    fn visit_none<E: de::Error>(self) -> Result<Check, E> {
        Ok(Check)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Check, D::Error> {
        Check::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Check, A::Error> {
        while a.next_element::<Check>()?.is_some() {}
        Ok(Check)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Check, A::Error> {
        while a.next_key::<Key>()?.is_some() {
            a.next_value::<Check>()?;
        }
        Ok(Check)
    }
}

/// An object key, read as `serde_json::Value` reads one (as a string).
struct Key;

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        d.deserialize_str(CheckVisitor).map(|_| Key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(text: &str) -> Result<Val, String> {
        serde_json::from_str::<serde_json::Value>(text)
            .map(|v| jq::to_val(&v))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn rejects_what_a_value_parse_rejects_with_its_message() {
        for text in [
            "",
            "{",
            r#"{"a": 1,}"#,
            r#"{"a": [1, 2}"#,
            r#"{"a": 1e400}"#,
            r#"{"a": -1e400}"#,
            r#"{"a": "\x"}"#,
            r#"{"a": "\ud800"}"#,
            "{\"a\": \"tab\there\"}",
            r#"{"a": 1} x"#,
            r#"{1: 2}"#,
            r#"{"a": tru}"#,
            &format!("{}1{}", "[".repeat(200), "]".repeat(200)),
            &format!("{}1{}", "[".repeat(127), "]".repeat(127)),
            r#"{"a": {"b": [1, 2.5, -3, 18446744073709551616, null, true, "x"]}}"#,
            "[1, 2]",
            "3",
        ] {
            let ours = Table::new(Cow::Owned(text.to_string()))
                .map(|_| ())
                .map_err(|e| e.to_string());
            assert_eq!(ours, whole(text).map(|_| ()), "{text:?}");
        }
    }

    #[test]
    fn entries_are_those_of_the_whole_table() {
        let text = r#"{"m5.large": {"VCPU": 2, "MemoryMb": 8192.0, "GPUs": [], "x": {"b": 1, "a": "é\n"}},
            "a\"b": [1, 2.50, 1e3, -0, 12345678901234567890],
            "dup": 1, "dup": {"later": true}, "n": null}"#;
        let t = Table::new(Cow::Owned(text.to_string())).unwrap();
        let all = whole(text).unwrap();
        for k in ["m5.large", "a\"b", "dup", "n", "missing", ""] {
            assert_eq!(t.get(k), jq::get(&all, k), "{k}");
        }
        let arr = Table::new(Cow::Borrowed("[1, 2]")).unwrap();
        assert_eq!(arr.get("0"), None);
    }

    #[test]
    fn embedded_tables_are_valid_and_match_a_whole_parse() {
        for name in crate::data::json_file_names() {
            let text = crate::data::json_file(name).unwrap();
            assert!(is_embedded(text), "{name}");
            let copy = String::from(text);
            assert!(!is_embedded(&copy), "{name}: a copy is checked");
            assert!(serde_json::from_str::<Check>(text).is_ok(), "{name}");
            let t = Table::new(Cow::Borrowed(text)).unwrap_or_else(|e| panic!("{name}: {e}"));
            let all = whole(text).unwrap();
            if let Val::Obj(o) = &all {
                for (k, v) in o.iter() {
                    let k = jq::str_ref(k).unwrap();
                    assert_eq!(t.get(k), Some(v), "{name}: {k}");
                }
            }
        }
    }
}
