//! The parts of a value's text (an object's members, an array's elements) read without
//! building them: for a text already checked (a [`Raw`](super::Raw)'s, or a part of one), as
//! `plan::sensitive` walks a value beside its sensitivity mask.

use std::borrow::Cow;

use super::value::Parser;

/// The parts of a value, read without building them.
pub(super) enum Parts<'a> {
    /// An object's members in document order: each key and its value's text.
    Object(Vec<(Cow<'a, str>, &'a str)>),
    /// An array's elements' texts.
    Array(Vec<&'a str>),
    /// Any other value.
    Scalar,
}

/// The parts of the value `text` holds, a text already checked (a [`Raw`](super::Raw)'s, or a part of
/// one): keys decoded as [`parse`](super::parse_json) decodes them, values skipped without being checked again.
/// `None` when the text is not one value after all.
pub(super) fn parts(text: &str) -> Option<Parts<'_>> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        build: false,
    };
    // the value's text, skipped
    let skip = |p: &mut Parser<'_>| -> Option<&str> {
        p.ws();
        let start = p.pos;
        p.skip()?;
        Some(&text[start..p.pos])
    };
    // past a `,` (true) or the closing `close` (false)
    let next = |p: &mut Parser<'_>, close: u8| -> Option<bool> {
        p.ws();
        let b = *p.bytes.get(p.pos)?;
        p.pos += 1;
        (b == b',' || b == close).then_some(b == b',')
    };
    p.ws();
    let out = match *p.bytes.get(p.pos)? {
        b'{' => {
            p.pos += 1;
            let mut out = Vec::with_capacity(8);
            p.ws();
            if p.bytes.get(p.pos) == Some(&b'}') {
                p.pos += 1;
            } else {
                loop {
                    p.ws();
                    if p.bytes.get(p.pos) != Some(&b'"') {
                        return None;
                    }
                    let key = p.string().ok()?;
                    p.ws();
                    if p.bytes.get(p.pos) != Some(&b':') {
                        return None;
                    }
                    p.pos += 1;
                    out.push((key, skip(&mut p)?));
                    if !next(&mut p, b'}')? {
                        break;
                    }
                }
            }
            Parts::Object(out)
        }
        b'[' => {
            p.pos += 1;
            let mut out = Vec::new();
            p.ws();
            if p.bytes.get(p.pos) == Some(&b']') {
                p.pos += 1;
            } else {
                loop {
                    out.push(skip(&mut p)?);
                    if !next(&mut p, b']')? {
                        break;
                    }
                }
            }
            Parts::Array(out)
        }
        _ => {
            p.skip()?;
            Parts::Scalar
        }
    };
    p.ws();
    (p.pos == text.len()).then_some(out)
}

impl Parser<'_> {
    /// Moves past the value at `pos` in checked text: strings eight bytes at a time, the
    /// rest byte by byte, nothing built or checked.
    fn skip(&mut self) -> Option<()> {
        match *self.bytes.get(self.pos)? {
            b'"' => self.skip_string(),
            b'{' | b'[' => {
                let mut depth = 0usize;
                while let Some(&c) = self.bytes.get(self.pos) {
                    match c {
                        b'"' => {
                            self.skip_string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth = depth.checked_sub(1)?;
                            if depth == 0 {
                                self.pos += 1;
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                    self.pos += 1;
                }
                None
            }
            _ => {
                let start = self.pos;
                while self.bytes.get(self.pos).is_some_and(|c| {
                    !matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                }) {
                    self.pos += 1;
                }
                (self.pos > start).then_some(())
            }
        }
    }

    /// Moves past the string at `pos` (its opening quote) in checked text.
    fn skip_string(&mut self) -> Option<()> {
        self.pos += 1;
        loop {
            self.skip_plain();
            match *self.bytes.get(self.pos)? {
                b'"' => {
                    self.pos += 1;
                    return Some(());
                }
                b'\\' => self.pos += 2,
                _ => self.pos += 1,
            }
        }
    }
}
