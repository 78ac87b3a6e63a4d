//! A generic YAML node with locations, as serde-saphyr reads it, and its compact binary form.
//!
//! The embedded mapping files are read at build time (`build.rs` includes this file) and stored
//! in the binary in that form: decoding it gives the very nodes a YAML parse of the same text
//! gives (a test checks it), about twenty times faster. This file depends on `serde`,
//! `serde-saphyr` and `std` only, so that the build script can compile it.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Where a node is written (1-based line and column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    line: u64,
    col: u64,
}

impl Pos {
    pub fn line(&self) -> u64 {
        self.line
    }
    pub fn column(&self) -> u64 {
        self.col
    }
}

/// A value and where it is written (where an alias refers to it, for an alias).
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned<T> {
    pub value: T,
    pub referenced: Pos,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Spanned<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = serde_saphyr::Spanned::<T>::deserialize(d)?;
        Ok(Spanned {
            value: s.value,
            referenced: Pos {
                line: s.referenced.line(),
                col: s.referenced.column(),
            },
        })
    }
}

/// A generic YAML node with locations.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Seq(Vec<Spanned<Node>>),
    Map(Vec<(Spanned<String>, Spanned<Node>)>),
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Node;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any YAML value")
            }
            fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
                Ok(Node::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
                Ok(Node::Num(v as f64))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
                Ok(Node::Num(v as f64))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
                Ok(Node::Num(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Node, E> {
                Ok(Node::Str(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Node, E> {
                Ok(Node::Str(v))
            }
            fn visit_unit<E>(self) -> Result<Node, E> {
                Ok(Node::Null)
            }
            fn visit_none<E>(self) -> Result<Node, E> {
                Ok(Node::Null)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
                Node::deserialize(d)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Node, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = a.next_element::<Spanned<Node>>()? {
                    v.push(x);
                }
                Ok(Node::Seq(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Node, A::Error> {
                let mut v = Vec::new();
                while let Some(k) = a.next_key::<Spanned<String>>()? {
                    let val = a.next_value::<Spanned<Node>>()?;
                    v.push((k, val));
                }
                Ok(Node::Map(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// Parse a YAML text into a located node.
pub fn parse(text: &str) -> Result<Spanned<Node>, serde_saphyr::Error> {
    serde_saphyr::from_str(text)
}

// The binary form: a located value is its line and column (varints), then the value: a tag byte
// (0 null, 1 false, 2 true, 3 number: 8 bytes little-endian, 4 string: length and UTF-8 bytes,
// 5 sequence: length and located values, 6 mapping: length and pairs of a located string key
// and a located value).

/// Append the binary form of `n` to `out`.
pub fn encode(n: &Spanned<Node>, out: &mut Vec<u8>) {
    pos(n.referenced, out);
    match &n.value {
        Node::Null => out.push(0),
        Node::Bool(b) => out.push(1 + u8::from(*b)),
        Node::Num(x) => {
            out.push(3);
            out.extend_from_slice(&x.to_le_bytes());
        }
        Node::Str(s) => {
            out.push(4);
            string(s, out);
        }
        Node::Seq(v) => {
            out.push(5);
            varint(v.len() as u64, out);
            v.iter().for_each(|x| encode(x, out));
        }
        Node::Map(m) => {
            out.push(6);
            varint(m.len() as u64, out);
            for (k, v) in m {
                pos(k.referenced, out);
                string(&k.value, out);
                encode(v, out);
            }
        }
    }
}

fn pos(p: Pos, out: &mut Vec<u8>) {
    varint(p.line, out);
    varint(p.col, out);
}

fn string(s: &str, out: &mut Vec<u8>) {
    varint(s.len() as u64, out);
    out.extend_from_slice(s.as_bytes());
}

fn varint(mut x: u64, out: &mut Vec<u8>) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// The node whose binary form is all of `bytes`; `None` if they are not one.
pub fn decode(bytes: &[u8]) -> Option<Spanned<Node>> {
    let mut r = Reader { bytes, at: 0 };
    let n = r.node(0)?;
    (r.at == bytes.len()).then_some(n)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut x = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            x |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Some(x);
            }
        }
        None
    }

    fn len(&mut self) -> Option<usize> {
        usize::try_from(self.varint()?)
            .ok()
            .filter(|&n| n <= self.bytes.len())
    }

    fn pos(&mut self) -> Option<Pos> {
        Some(Pos {
            line: self.varint()?,
            col: self.varint()?,
        })
    }

    fn string(&mut self) -> Option<String> {
        let n = self.len()?;
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }

    fn node(&mut self, depth: usize) -> Option<Spanned<Node>> {
        if depth > 1000 {
            return None;
        }
        let referenced = self.pos()?;
        let value = match self.byte()? {
            0 => Node::Null,
            1 => Node::Bool(false),
            2 => Node::Bool(true),
            3 => Node::Num(f64::from_le_bytes(self.take(8)?.try_into().ok()?)),
            4 => Node::Str(self.string()?),
            5 => {
                let n = self.len()?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(self.node(depth + 1)?);
                }
                Node::Seq(v)
            }
            6 => {
                let n = self.len()?;
                let mut m = Vec::with_capacity(n);
                for _ in 0..n {
                    let kpos = self.pos()?;
                    let k = self.string()?;
                    let key = Spanned {
                        value: k,
                        referenced: kpos,
                    };
                    m.push((key, self.node(depth + 1)?));
                }
                Node::Map(m)
            }
            _ => return None,
        };
        Some(Spanned { value, referenced })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_nodes_are_those_of_a_yaml_parse() {
        for (i, (_, path, text)) in crate::mapping::BUILTIN.iter().enumerate() {
            let stored = crate::mapping::BUILTIN_NODES[i];
            assert!(!stored.is_empty(), "{path}: not stored");
            let parsed = parse(text).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(decode(stored), Some(parsed), "{path}");
        }
    }

    #[test]
    fn encodes_and_decodes_every_kind_of_node() {
        let text = "a: [1, -2.5, true, false, ~, 'x\\n', \"é\"]\nb:\n  c: |\n    multi\n    line\n  d: {}\n  e: []\n1e300: 18446744073709551615\n";
        let n = parse(text).unwrap();
        let mut bytes = Vec::new();
        encode(&n, &mut bytes);
        assert_eq!(decode(&bytes), Some(n));
        assert_eq!(decode(&bytes[..bytes.len() - 1]), None);
        assert_eq!(decode(&[]), None);
        bytes.push(0);
        assert_eq!(decode(&bytes), None);
    }
}
