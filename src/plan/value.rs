//! [`Value`]: a borrowed JSON tree, and the small parser that builds it.
//!
//! serde_json captures each value field as a `&RawValue` (a slice of the input, skipped
//! without recursion); this parser then builds the tree from that slice: strings without
//! escapes and every number borrow from the input, numbers keep the text they were written
//! with (as Go's `json.Number` does, so `1.50` prints as `1.50`), and nesting deeper than
//! [`MAX_DEPTH`] is an error, never a stack overflow.

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserialize};
use serde_json::value::RawValue;

/// How deep arrays and objects may nest inside one value (serde_json's own limit).
pub const MAX_DEPTH: usize = 128;

/// A borrowed JSON value.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value<'a> {
    #[default]
    Null,
    Bool(bool),
    /// A number, as written in the input.
    Number(Cow<'a, str>),
    String(Cow<'a, str>),
    Array(Vec<Value<'a>>),
    Object(BTreeMap<Cow<'a, str>, Value<'a>>),
}

impl<'a> Value<'a> {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => n.parse().ok(),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&[Value<'a>]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    pub fn as_object(&self) -> Option<&BTreeMap<Cow<'a, str>, Value<'a>>> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }
    /// Converts to an owned `serde_json::Value`.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => serde_json::from_str::<serde_json::Number>(n)
                .map_or(serde_json::Value::Null, serde_json::Value::Number),
            Value::String(s) => serde_json::Value::String(s.to_string()),
            Value::Array(a) => serde_json::Value::Array(a.iter().map(Value::to_json).collect()),
            Value::Object(o) => serde_json::Value::Object(
                o.iter()
                    .map(|(k, v)| (k.to_string(), v.to_json()))
                    .collect(),
            ),
        }
    }
}

impl fmt::Display for Value<'_> {
    /// Compact JSON, numbers as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Number(n) => f.write_str(n),
            Value::String(s) => write!(f, "{}", serde_json::Value::String(s.to_string())),
            Value::Array(a) => {
                f.write_str("[")?;
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Value::Object(o) => {
                f.write_str("{")?;
                for (i, (k, v)) in o.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}:{v}", serde_json::Value::String(k.to_string()))?;
                }
                f.write_str("}")
            }
        }
    }
}

/// A syntax error at a byte offset of the parsed text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueError {
    pub offset: usize,
    pub message: &'static str,
}

pub(super) struct Parser<'a> {
    pub(super) text: &'a str,
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
    /// false: only check the syntax (arrays and objects stay empty).
    pub(super) build: bool,
}

impl<'a> Parser<'a> {
    fn err<T>(&self, message: &'static str) -> Result<T, ValueError> {
        Err(ValueError {
            offset: self.pos,
            message,
        })
    }

    pub(super) fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn literal(&mut self, word: &'static str, v: Value<'a>) -> Result<Value<'a>, ValueError> {
        if self.text[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(v)
        } else {
            self.err("expected value")
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value<'a>, ValueError> {
        self.ws();
        match self.bytes.get(self.pos) {
            None => self.err("EOF while parsing a value"),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b'[') => {
                if depth >= MAX_DEPTH {
                    return self.err("recursion limit exceeded");
                }
                self.pos += 1;
                let mut out = Vec::new();
                self.ws();
                if self.bytes.get(self.pos) == Some(&b']') {
                    self.pos += 1;
                    return Ok(Value::Array(out));
                }
                loop {
                    let v = self.value(depth + 1)?;
                    if self.build {
                        out.push(v);
                    }
                    self.ws();
                    match self.bytes.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(Value::Array(out));
                        }
                        None => return self.err("EOF while parsing a list"),
                        _ => return self.err("expected `,` or `]`"),
                    }
                }
            }
            Some(b'{') => {
                if depth >= MAX_DEPTH {
                    return self.err("recursion limit exceeded");
                }
                self.pos += 1;
                // members are gathered, then built into a map at once: a document's keys
                // are nearly always sorted already (OpenTofu writes them so), which makes
                // the build linear and its nodes full (a wide object's 100k attributes)
                let mut out = Vec::new();
                self.ws();
                if self.bytes.get(self.pos) == Some(&b'}') {
                    self.pos += 1;
                    return Ok(Value::Object(BTreeMap::new()));
                }
                loop {
                    self.ws();
                    if self.bytes.get(self.pos) != Some(&b'"') {
                        return self.err("key must be a string");
                    }
                    let key = self.string()?;
                    self.ws();
                    if self.bytes.get(self.pos) != Some(&b':') {
                        return self.err("expected `:`");
                    }
                    self.pos += 1;
                    let v = self.value(depth + 1)?;
                    if self.build {
                        out.push((key, v));
                    }
                    self.ws();
                    match self.bytes.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            // (a stable sort: of duplicate keys the last stays, as an
                            // insert would keep it)
                            return Ok(Value::Object(BTreeMap::from_iter(out)));
                        }
                        None => return self.err("EOF while parsing an object"),
                        _ => return self.err("expected `,` or `}`"),
                    }
                }
            }
            Some(_) => self.err("expected value"),
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while let Some(b'0'..=b'9') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> Result<Value<'a>, ValueError> {
        let start = self.pos;
        if self.bytes.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        match self.bytes.get(self.pos) {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return self.err("invalid number"),
        }
        if self.bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return self.err("invalid number");
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return self.err("invalid number");
            }
        }
        Ok(Value::Number(Cow::Borrowed(&self.text[start..self.pos])))
    }

    /// Moves past the bytes that need no attention in a string (neither `"`, `\\` nor a
    /// control character), eight at a time; stops at or before the first one that does.
    pub(super) fn skip_plain(&mut self) {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let has = |x: u64, b: u8| {
            let y = x ^ (ONES * u64::from(b));
            y.wrapping_sub(ONES) & !y & HIGH
        };
        while let Some(chunk) = self.bytes.get(self.pos..self.pos + 8) {
            let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            let control = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
            let stop = has(x, b'"') | has(x, b'\\') | control;
            if stop != 0 {
                // (the lowest flagged byte is the first that needs attention)
                self.pos += (stop.trailing_zeros() / 8) as usize;
                return;
            }
            self.pos += 8;
        }
    }

    fn hex4(&mut self) -> Result<u32, ValueError> {
        let Some(h) = self.text.get(self.pos..self.pos + 4) else {
            return self.err("EOF while parsing a string");
        };
        let v = u32::from_str_radix(h, 16).or_else(|_| self.err("invalid escape"))?;
        self.pos += 4;
        Ok(v)
    }

    pub(super) fn string(&mut self) -> Result<Cow<'a, str>, ValueError> {
        self.pos += 1; // opening quote
        let start = self.pos;
        self.skip_plain();
        // Fast path: no escapes, borrow.
        loop {
            match self.bytes.get(self.pos) {
                None => return self.err("EOF while parsing a string"),
                Some(b'"') => {
                    let s = &self.text[start..self.pos];
                    self.pos += 1;
                    return Ok(Cow::Borrowed(s));
                }
                Some(b'\\') => break,
                Some(b) if *b < 0x20 => {
                    return self.err("control character while parsing a string");
                }
                Some(_) => self.pos += 1,
            }
        }
        let mut out = String::from(&self.text[start..self.pos]);
        loop {
            match self.bytes.get(self.pos) {
                None => return self.err("EOF while parsing a string"),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let Some(&e) = self.bytes.get(self.pos) else {
                        return self.err("EOF while parsing a string");
                    };
                    self.pos += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi)
                                && self.text[self.pos..].starts_with("\\u")
                            {
                                let save = self.pos;
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                } else {
                                    self.pos = save;
                                    None
                                }
                            } else {
                                char::from_u32(hi)
                            };
                            // Lone surrogates become U+FFFD, as Go decodes them.
                            out.push(c.unwrap_or('\u{FFFD}'));
                        }
                        _ => {
                            self.pos -= 1;
                            return self.err("invalid escape");
                        }
                    }
                }
                Some(b) if *b < 0x20 => {
                    return self.err("control character while parsing a string");
                }
                Some(_) => {
                    // Copy a run of plain characters at once.
                    let run_start = self.pos;
                    while let Some(&b) = self.bytes.get(self.pos) {
                        if b == b'"' || b == b'\\' || b < 0x20 {
                            break;
                        }
                        self.pos += 1;
                    }
                    out.push_str(&self.text[run_start..self.pos]);
                }
            }
        }
    }
}

/// Parses `text`, which must hold exactly one JSON value (whitespace around it allowed).
pub fn parse(text: &str) -> Result<Value<'_>, ValueError> {
    parse_with(text, true)
}

/// Checks `text` as [`parse`] does, without building the tree: `parse` of a text that passes
/// cannot fail.
#[cfg(test)]
fn check(text: &str) -> Result<(), ValueError> {
    parse_with(text, false).map(drop)
}

/// [`check`] for a text serde_json has already checked (a `&RawValue`): its syntax is valid,
/// and serde_json's grammar is at least as strict as [`Parser`]'s, so the one error left to
/// find is nesting deeper than [`MAX_DEPTH`], reported at the same offset (the first opening
/// bracket too deep) with the same message. No tree is built, nothing is allocated.
fn check_depth(text: &str) -> Result<(), ValueError> {
    let b = text.as_bytes();
    // Fewer opening brackets than the limit, counting those inside strings too: nothing can
    // nest too deep. (A vectorized count; most values stop here. `[` is 0x5b, `{` 0x7b: no
    // other byte ORed with 0x20 gives 0x7b.)
    if b.iter().filter(|&&c| c | 0x20 == b'{').count() <= MAX_DEPTH {
        return Ok(());
    }
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                // skip the string: its escapes are valid, so a backslash covers the next byte
                i += 1;
                while i < b.len() {
                    match b[i] {
                        b'"' => break,
                        b'\\' => i += 2,
                        _ => i += 1,
                    }
                }
            }
            b'[' | b'{' => {
                if depth >= MAX_DEPTH {
                    return Err(ValueError {
                        offset: i,
                        message: "recursion limit exceeded",
                    });
                }
                depth += 1;
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

fn parse_with(text: &str, build: bool) -> Result<Value<'_>, ValueError> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        build,
    };
    let v = p.value(0)?;
    p.ws();
    if p.pos != text.len() {
        return p.err("trailing characters");
    }
    Ok(v)
}

/// Parses the first JSON value of `text` and ignores what follows (as Go's
/// `json.Decoder.Decode` does when OpenTofu checks whether a string is JSON).
pub fn parse_first(text: &str) -> Option<Value<'_>> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        build: true,
    };
    p.value(0).ok()
}

thread_local! {
    /// The document being parsed (start address, length), to turn a value's offset into a
    /// document offset.
    static DOCUMENT: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
    /// The first value error of the current parse, with its document offset.
    static VALUE_ERROR: Cell<Option<(usize, &'static str)>> = const { Cell::new(None) };
}

/// Runs `f` with `text` registered as the current document, and returns the first value
/// error (document offset, message) raised while it ran, if any.
pub(crate) fn with_document<T>(
    text: &str,
    f: impl FnOnce() -> T,
) -> (T, Option<(usize, &'static str)>) {
    let prev = DOCUMENT.with(|d| d.replace((text.as_ptr() as usize, text.len())));
    VALUE_ERROR.with(|e| e.set(None));
    let out = f();
    DOCUMENT.with(|d| d.set(prev));
    (out, VALUE_ERROR.with(|e| e.take()))
}

impl<'de: 'a, 'a> Deserialize<'de> for Value<'a> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw: &'de RawValue = <&RawValue>::deserialize(d)?;
        let text = raw.get();
        parse(text).map_err(|e| report(text, e))
    }
}

/// Records the first value error of a document parse (see [`with_document`]), as a serde error.
fn report<E: de::Error>(text: &str, e: ValueError) -> E {
    let (base, len) = DOCUMENT.with(|d| d.get());
    let start = text.as_ptr() as usize;
    if start >= base && start <= base + len {
        let abs = start - base + e.offset;
        VALUE_ERROR.with(|v| {
            if v.get().is_none() {
                v.set(Some((abs, e.message)));
            }
        });
    }
    E::custom(e.message)
}

/// A value of the input, checked as [`Value`] is when the document is read (so its errors
/// still carry a line and column) but built only when [`Raw::value`] asks: the renderer builds
/// one resource's values at a time, and a large plan is never held as trees all at once.
#[derive(Debug, Clone, Copy, Default)]
pub struct Raw<'a>(Option<&'a RawValue>);

impl<'a> Raw<'a> {
    /// The value (`null` when the field was absent).
    pub fn value(&self) -> Value<'a> {
        // checked when read: parsing again cannot fail
        self.0.and_then(|r| parse(r.get()).ok()).unwrap_or_default()
    }
    /// The value's JSON text as written (empty when the field was absent).
    pub fn text(&self) -> &'a str {
        self.0.map_or("", |r| r.get())
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Raw<'a> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw: &'de RawValue = <&RawValue>::deserialize(d)?;
        // serde_json has checked the syntax; only the depth is left
        check_depth(raw.get()).map_err(|e| report(raw.get(), e))?;
        Ok(Raw(Some(raw)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Members are built into the map at once (sorted, then bulk-built): unsorted keys come
    /// out in order, and of a duplicate key the last value stays, as inserting kept it.
    #[test]
    fn an_object_keeps_the_last_of_a_duplicate_key_and_sorts_its_keys() {
        let v = parse(r#"{"b": 1, "a": 2, "b": 3, "c": {"y": 1, "x": 2, "y": 4}}"#).unwrap();
        assert_eq!(v.to_string(), r#"{"a":2,"b":3,"c":{"x":2,"y":4}}"#);
    }

    #[test]
    fn parse_table() {
        let cases: [(&str, Value); 8] = [
            ("null", Value::Null),
            (" true ", Value::Bool(true)),
            ("1.50", Value::Number("1.50".into())),
            ("-0e+3", Value::Number("-0e+3".into())),
            (
                "918446744073709551615",
                Value::Number("918446744073709551615".into()),
            ),
            (r#""a\"b""#, Value::String("a\"b".into())),
            (r#""\ud83d\ude00 \u00e9""#, Value::String("😀 é".into())),
            (r#""\ud800x""#, Value::String("\u{FFFD}x".into())),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text).unwrap(), want, "{text}");
        }
        let v = parse(r#"{"b":[1,{"c":null}],"a":"x"}"#).unwrap();
        assert_eq!(v.to_string(), r#"{"a":"x","b":[1,{"c":null}]}"#);
        // the last of equal keys wins
        let v = parse(r#"{"k":1,"j":0,"k":2,"\u006b":3,"i":[]}"#).unwrap();
        assert_eq!(v.to_string(), r#"{"i":[],"j":0,"k":3}"#);
        assert!(matches!(
            parse(r#""plain""#).unwrap(),
            Value::String(Cow::Borrowed("plain"))
        ));
    }

    #[test]
    fn strings_of_every_length_agree_with_serde_json() {
        // the eight-byte scan must stop at the first quote, backslash or control character
        for len in 0..20 {
            for special in ["\\\"", "\\n", "é", "\\u00e9", "\\\\", "😀"] {
                for at in 0..=len {
                    let plain = "abcdefghijklmnopqrstuvwxyz";
                    let text = format!("\"{}{special}{}\"", &plain[..at], &plain[at..len]);
                    let want: String = serde_json::from_str(&text).unwrap();
                    assert_eq!(parse(&text).unwrap(), Value::String(want.into()), "{text}");
                }
            }
            let text = format!("\"{}\u{1}\"", "x".repeat(len));
            let offset = len + 1;
            assert_eq!(
                parse(&text),
                Err(ValueError {
                    offset,
                    message: "control character while parsing a string"
                })
            );
        }
    }

    #[test]
    fn errors_table() {
        let cases = [
            ("", 0, "EOF while parsing a value"),
            ("[1,", 3, "EOF while parsing a value"),
            ("01", 1, "trailing characters"),
            ("1.", 2, "invalid number"),
            ("{1:2}", 1, "key must be a string"),
            ("\"a\u{1}\"", 2, "control character while parsing a string"),
            ("[1 2]", 3, "expected `,` or `]`"),
            ("nul", 0, "expected value"),
        ];
        for (text, offset, message) in cases {
            assert_eq!(parse(text), Err(ValueError { offset, message }), "{text:?}");
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(
            parse(&deep).unwrap_err().message,
            "recursion limit exceeded"
        );
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn depth_check_agrees_with_the_parser() {
        // brackets and escaped quotes inside strings must not count
        let noise = r#""[{\"[\\" , "}]{[" , 1.5e3 , true"#;
        let mut cases = Vec::new();
        for depth in [1, 64, 127, 128, 129, 200] {
            for (i, open) in ["[", "{\"k\":", "[{\"a\":[", "{\"[\":["]
                .into_iter()
                .enumerate()
            {
                let close = match i {
                    0 => "]",
                    1 => "}",
                    2 => "]}]",
                    _ => "]}",
                };
                let mut t = String::new();
                for _ in 0..depth {
                    t.push_str(open);
                    if open.ends_with('[') {
                        t.push_str(noise);
                        t.push(',');
                    }
                }
                t.push_str("null");
                t.push_str(&close.repeat(depth));
                cases.push(t);
                // many brackets side by side, none deep
                cases.push(format!("[{}null]", "[],{},\"[[[[\",".repeat(depth)));
            }
        }
        for t in &cases {
            assert!(serde_json::from_str::<&RawValue>(t).is_ok(), "{t}");
            assert_eq!(check_depth(t), check(t), "{t}");
        }
        assert!(cases.iter().any(|t| check(t).is_err()));
    }

    #[test]
    fn first_value_only() {
        assert_eq!(
            parse_first("[1] trailing"),
            Some(Value::Array(vec![Value::Number("1".into())]))
        );
        assert_eq!(parse_first("{"), None);
    }
}
