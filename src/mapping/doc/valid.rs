//! Building a resource's jaq value straight from its slice of a document already parsed.
//!
//! A resource slot's text is a `RawValue` of the plan (one JSON value, checked when the plan was
//! read), so it is read here byte by byte without serde's machinery: object keys and strings
//! without escapes are borrowed, members not built are stepped over. What this reader is
//! unsure of (an escape, a number that is not a short integer) it hands to `serde_json`, and
//! anything unexpected gives `None`, for the caller to build the value through
//! [`super::build_keeping`] instead — so the values are the ones that path builds.

use super::{int, object, uint};
use crate::mapping::source::{skip_ws, string_end, value_end};
use jaq_json::Val;
use std::borrow::Cow;

/// Nesting past this is left to `serde_json` (which stops at 128 levels).
const DEPTH: usize = 100;

/// [`super::build_keeping`] of one JSON value's text (without `strip`: `sensitive_values` kept),
/// or `None` when this reader leaves it to that function.
pub(crate) fn build(text: &str, strip: bool, values: Option<&[String]>) -> Option<Val> {
    let mut r = Reader {
        s: text,
        b: text.as_bytes(),
        i: 0,
        strip,
    };
    let v = r.value(values, None, 0)?;
    (skip_ws(r.b, r.i) == r.b.len()).then_some(v)
}

struct Reader<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    strip: bool,
}

impl<'a> Reader<'a> {
    /// The value at the reader's place; `values`: at a resource, the members of its `values` to
    /// build; `only`: the members of this object to build.
    fn value(
        &mut self,
        values: Option<&[String]>,
        only: Option<&[String]>,
        depth: usize,
    ) -> Option<Val> {
        if depth > DEPTH {
            return None;
        }
        self.i = skip_ws(self.b, self.i);
        match *self.b.get(self.i)? {
            b'{' => self.object(values, only, depth),
            b'[' => self.array(depth),
            b'"' => Some(Val::utf8_str(self.string()?.as_bytes().to_vec())),
            b't' => self.word("true", Val::Bool(true)),
            b'f' => self.word("false", Val::Bool(false)),
            b'n' => self.word("null", Val::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn word(&mut self, w: &str, v: Val) -> Option<Val> {
        self.s[self.i..].starts_with(w).then(|| {
            self.i += w.len();
            v
        })
    }

    /// The string at the reader's place, borrowed when it holds no escape.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let (end, escaped) = string_end(self.b, self.i)?;
        let text = &self.s[self.i..end];
        self.i = end;
        if escaped {
            serde_json::from_str::<String>(text).ok().map(Cow::Owned)
        } else {
            Some(Cow::Borrowed(&text[1..text.len() - 1]))
        }
    }

    /// A number as serde_json reads it: integers of up to 18 digits here, the rest by it.
    fn number(&mut self) -> Option<Val> {
        let end = value_end(self.b, self.i)?;
        let text = &self.s[self.i..end];
        self.i = end;
        if text.len() <= 18 && text.bytes().all(|c| c.is_ascii_digit()) {
            return text.parse::<u64>().ok().map(uint);
        }
        let n: serde_json::Number = serde_json::from_str(text).ok()?;
        if let Some(u) = n.as_u64() {
            Some(uint(u))
        } else if let Some(i) = n.as_i64() {
            Some(int(i))
        } else {
            n.as_f64().map(|x| Val::Num(jaq_json::Num::Float(x)))
        }
    }

    /// Past the expected byte `c` (after blanks).
    fn expect(&mut self, c: u8) -> Option<()> {
        self.i = skip_ws(self.b, self.i);
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    /// After a member or an element: whether another one follows (`,`), or `close` ends it.
    fn more(&mut self, close: u8) -> Option<bool> {
        self.i = skip_ws(self.b, self.i);
        let c = *self.b.get(self.i)?;
        self.i += 1;
        match c {
            b',' => Some(true),
            c if c == close => Some(false),
            _ => None,
        }
    }

    fn array(&mut self, depth: usize) -> Option<Val> {
        self.i += 1;
        let mut out = Vec::new();
        self.i = skip_ws(self.b, self.i);
        if self.b.get(self.i) == Some(&b']') {
            self.i += 1;
        } else {
            loop {
                out.push(self.value(None, None, depth + 1)?);
                if !self.more(b']')? {
                    break;
                }
            }
        }
        Some(Val::Arr(out.into()))
    }

    fn object(
        &mut self,
        values: Option<&[String]>,
        only: Option<&[String]>,
        depth: usize,
    ) -> Option<Val> {
        self.i += 1;
        let mut out: Vec<(Cow<'a, str>, Val)> = Vec::new();
        self.i = skip_ws(self.b, self.i);
        if self.b.get(self.i) == Some(&b'}') {
            self.i += 1;
            return Some(object(out));
        }
        loop {
            self.i = skip_ws(self.b, self.i);
            let k = self.string()?;
            self.expect(b':')?;
            let skip = (self.strip && k == "sensitive_values")
                || only.is_some_and(|only| !only.iter().any(|o| *o == k));
            if skip {
                self.i = value_end(self.b, skip_ws(self.b, self.i))?;
            } else {
                let keep = values.filter(|_| k == "values");
                let v = self.value(None, keep, depth + 1)?;
                out.push((k, v));
            }
            if !self.more(b'}')? {
                break;
            }
        }
        Some(object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// Both builders on one text: this one's value, when it gives one, is the serde path's.
    fn agree(text: &str, strip: bool, values: Option<&[String]>) {
        let mine = build(text, strip, values);
        let theirs = super::super::build_keeping(text, strip, values);
        assert_eq!(mine, theirs, "{text}");
        // the same members in the same order, not only equal
        assert_eq!(
            mine.map(|v| v.to_string()),
            theirs.map(|v| v.to_string()),
            "{text}"
        );
    }

    #[test]
    fn reads_what_the_serde_path_reads() {
        let keep = ["a".to_string(), "zone".to_string()];
        for text in [
            r#"{"address":"x.y","values":{"zone":"a","b":[1,2,{"c":null}],"a":true},"sensitive_values":{"zone":true}}"#,
            r#" { "b" : 1 , "a" : [ ] , "a" : { } } "#,
            r#"{"s":"esc\"aped\n\u00e9","n":-0,"f":1.5e3,"big":123456789012345678901234,"neg":-12,"i":9223372036854775807,"u":18446744073709551615}"#,
            r#"[true,false,null,"",0,-1.0,1E2]"#,
            r#""just a string""#,
            r#"{"values":"not an object","sensitive_values":[true]}"#,
            r#"{"values":{"x":{"sensitive_values":{"y":1}}}}"#,
        ] {
            for strip in [false, true] {
                for values in [None, Some(&keep[..])] {
                    agree(text, strip, values);
                }
            }
        }
        // not one JSON value: left to the serde path
        assert_eq!(build(r#"{"a":1} x"#, true, None), None);
        assert_eq!(build(r#"{"a":1"#, true, None), None);
        // deeper than this reader goes: left to the serde path
        let deep = format!("{}{}", "[".repeat(DEPTH + 2), "]".repeat(DEPTH + 2));
        assert_eq!(build(&deep, true, None), None);
        assert!(super::super::build(&deep, true).is_some());
    }

    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(json!(null)),
            any::<bool>().prop_map(|b| json!(b)),
            any::<i64>().prop_map(|n| json!(n)),
            any::<u64>().prop_map(|n| json!(n)),
            any::<f64>()
                .prop_filter("finite", |x| x.is_finite())
                .prop_map(|x| json!(x)),
            "[a-z\"\\\\\n\u{e9}\u{1f600} ]{0,6}".prop_map(|s| json!(s)),
        ];
        leaf.prop_recursive(4, 32, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(serde_json::Value::Array),
                prop::collection::vec(
                    (
                        prop::sample::select(vec!["a", "b", "values", "sensitive_values", "é"]),
                        inner
                    ),
                    0..5
                )
                .prop_map(|m| {
                    // duplicate keys too: written out by hand
                    let body: Vec<String> = m
                        .iter()
                        .map(|(k, v)| format!("{}: {}", json!(k), text_of(v)))
                        .collect();
                    serde_json::Value::String(format!("{{{}}}", body.join(" ,")))
                }),
            ]
        })
    }

    /// A text from a generated value: objects were generated as their text (so that they can
    /// repeat keys), strings holding an object text are spliced in as that text.
    fn text_of(v: &serde_json::Value) -> String {
        match v {
            serde_json::Value::String(s) if s.starts_with('{') => s.clone(),
            serde_json::Value::Array(a) => {
                let items: Vec<String> = a.iter().map(text_of).collect();
                format!("[ {}]", items.join(","))
            }
            v => v.to_string(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        /// On any JSON text, the value built is the serde path's (or none, left to it).
        #[test]
        fn any_text_builds_as_the_serde_path_builds(v in json_value(), strip: bool, cut: bool) {
            let text = text_of(&v);
            let keep = ["a".to_string()];
            agree(&text, strip, cut.then_some(&keep[..]));
        }
    }
}
