//! Parsing the subset of jq the native evaluator runs into its [`Expr`] tree; anything else is
//! `None` (the filter stays with jaq).
//!
//! Precedence, loosest first, as jq's: `|` (and `E as $x | …`), `,`, `//` (right), `or`, `and`,
//! comparisons (non-associative), `+ -`, `* / %`, then a term with its suffixes (`.a`, `[e]`,
//! `[]`, `?`).

use super::{Expr, Fun, Step};
use crate::mapping::fast::Tail;
use jaq_core::ops::{Cmp, Math};
use jaq_json::Val;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// `.` followed directly by a name (`.values`), or a quoted field (`."a b"`).
    Field(String),
    Dot,
    Ident(String),
    Var(String),
    Num(String),
    Str(Vec<StrTok>),
    Punct(&'static str),
}

#[derive(Debug, Clone, PartialEq)]
enum StrTok {
    Lit(String),
    Interp(String),
}

const PUNCT: [&str; 23] = [
    "//", "==", "!=", "<=", ">=", "|", ",", "<", ">", "+", "-", "*", "/", "%", "(", ")", "[", "]",
    "{", "}", "?", ":", ";",
];

fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// A string literal starting at `b[i] == '"'`: its parts and the index after its closing quote.
fn string(s: &str, mut i: usize) -> Option<(Vec<StrTok>, usize)> {
    let b = s.as_bytes();
    i += 1;
    let mut parts = Vec::new();
    let mut lit = String::new();
    loop {
        match *b.get(i)? {
            b'"' => break,
            b'\\' => {
                i += 1;
                match *b.get(i)? {
                    b'(' => {
                        // the interpolated expression runs to its matching parenthesis
                        let start = i + 1;
                        let (mut depth, mut j, mut in_str) = (1, start, false);
                        while depth > 0 {
                            match *b.get(j)? {
                                b'\\' if in_str => j += 1,
                                b'"' => in_str = !in_str,
                                b'(' if !in_str => depth += 1,
                                b')' if !in_str => depth -= 1,
                                _ => {}
                            }
                            j += 1;
                        }
                        if !lit.is_empty() {
                            parts.push(StrTok::Lit(std::mem::take(&mut lit)));
                        }
                        parts.push(StrTok::Interp(s[start..j - 1].to_string()));
                        i = j;
                        continue;
                    }
                    b'"' => lit.push('"'),
                    b'\\' => lit.push('\\'),
                    b'/' => lit.push('/'),
                    b'n' => lit.push('\n'),
                    b't' => lit.push('\t'),
                    b'r' => lit.push('\r'),
                    // \u escapes, \b, \f: left to jaq
                    _ => return None,
                }
                i += 1;
            }
            _ => {
                let ch = s[i..].chars().next()?;
                lit.push(ch);
                i += ch.len_utf8();
            }
        }
    }
    if !lit.is_empty() || parts.is_empty() {
        parts.push(StrTok::Lit(lit));
    }
    Some((parts, i + 1))
}

fn lex(s: &str) -> Option<Vec<Tok>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'#' {
            return None; // comments: left to jaq
        } else if c == b'"' {
            let (parts, j) = string(s, i)?;
            out.push(Tok::Str(parts));
            i = j;
        } else if c == b'.' {
            match b.get(i + 1) {
                Some(&n) if n.is_ascii_alphabetic() || n == b'_' => {
                    let mut j = i + 1;
                    while j < b.len() && ident_char(b[j]) {
                        j += 1;
                    }
                    out.push(Tok::Field(s[i + 1..j].to_string()));
                    i = j;
                }
                Some(b'.') => return None, // `..`
                Some(b'"') => {
                    let (parts, j) = string(s, i + 1)?;
                    match parts.as_slice() {
                        [StrTok::Lit(l)] => out.push(Tok::Field(l.clone())),
                        _ => return None,
                    }
                    i = j;
                }
                Some(d) if d.is_ascii_digit() => return None, // `.5`
                _ => {
                    out.push(Tok::Dot);
                    i += 1;
                }
            }
        } else if c == b'$' {
            let mut j = i + 1;
            while j < b.len() && ident_char(b[j]) {
                j += 1;
            }
            if j == i + 1 || b.get(j) == Some(&b':') {
                return None; // `$__loc__`, `$x::y`
            }
            out.push(Tok::Var(s[i + 1..j].to_string()));
            i = j;
        } else if c.is_ascii_digit() {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.') {
                j += 1;
            }
            if j < b.len() && (b[j] == b'e' || b[j] == b'E' || ident_char(b[j])) {
                return None;
            }
            out.push(Tok::Num(s[i..j].to_string()));
            i = j;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let mut j = i;
            while j < b.len() && (ident_char(b[j]) || (b[j] == b':' && b.get(j + 1) == Some(&b':')))
            {
                j += if b[j] == b':' { 2 } else { 1 };
            }
            out.push(Tok::Ident(s[i..j].to_string()));
            i = j;
        } else {
            let p = PUNCT.iter().find(|p| s[i..].starts_with(**p))?;
            // `?//` (alternative destructuring) and `|=`-style updates: left to jaq
            if matches!(*p, "|" | "+" | "-" | "*" | "/" | "%" | "//")
                && b.get(i + p.len()) == Some(&b'=')
            {
                return None;
            }
            out.push(Tok::Punct(p));
            i += p.len();
        }
    }
    Some(out)
}

struct P {
    toks: Vec<Tok>,
    at: usize,
    /// The variables bound by `as` in scope (name, slot), innermost last.
    scope: Vec<(String, usize)>,
    /// Variables bound so far (the next one's slot).
    slots: usize,
    /// The term `pipe` read looking for `T as $x` where none followed: (where it starts, it,
    /// where it ends), taken by the `postfix` that reads it again (each nested level would
    /// otherwise be read twice, 2^depth in all).
    read: Option<(usize, Option<Expr>, usize)>,
}

impl P {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }
    fn punct(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if *q == p)
    }
    fn ident(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(q)) if q == w)
    }
    fn eat(&mut self, p: &str) -> Option<()> {
        (self.punct(p) || self.ident(p)).then(|| self.at += 1)
    }

    /// `E | E`, `T as $x | E` (the value bound is a term, as in jq).
    fn pipe(&mut self) -> Option<Expr> {
        let start = self.at;
        let first = self.postfix();
        if first.is_some() && self.ident("as") {
            let t = first?;
            self.at += 1;
            let Some(Tok::Var(name)) = self.peek().cloned() else {
                return None;
            };
            self.at += 1;
            self.eat("|")?;
            let slot = self.slots;
            self.slots += 1;
            self.scope.push((name, slot));
            let r = self.pipe();
            self.scope.pop();
            return Some(Expr::Bind(Box::new(t), slot, Box::new(r?)));
        }
        self.read = Some((start, first, self.at));
        self.at = start;
        let l = self.comma()?;
        if self.ident("as") {
            return None;
        }
        if self.eat("|").is_some() {
            let r = self.pipe()?;
            return Some(Expr::Pipe(Box::new(l), Box::new(r)));
        }
        Some(l)
    }

    fn comma(&mut self) -> Option<Expr> {
        let mut l = self.alt()?;
        while self.eat(",").is_some() {
            let r = self.alt()?;
            l = Expr::Comma(Box::new(l), Box::new(r));
        }
        Some(l)
    }

    fn alt(&mut self) -> Option<Expr> {
        let l = self.or()?;
        if self.eat("//").is_some() {
            let r = self.alt()?;
            return Some(Expr::Alt(Box::new(l), Box::new(r)));
        }
        Some(l)
    }

    fn or(&mut self) -> Option<Expr> {
        let mut l = self.and()?;
        while self.eat("or").is_some() {
            let r = self.and()?;
            l = Expr::Logic(Box::new(l), true, Box::new(r));
        }
        Some(l)
    }

    fn and(&mut self) -> Option<Expr> {
        let mut l = self.cmp()?;
        while self.eat("and").is_some() {
            let r = self.cmp()?;
            l = Expr::Logic(Box::new(l), false, Box::new(r));
        }
        Some(l)
    }

    fn cmp(&mut self) -> Option<Expr> {
        let l = self.sum()?;
        let op = match self.peek() {
            Some(Tok::Punct("==")) => Cmp::Eq,
            Some(Tok::Punct("!=")) => Cmp::Ne,
            Some(Tok::Punct("<")) => Cmp::Lt,
            Some(Tok::Punct("<=")) => Cmp::Le,
            Some(Tok::Punct(">")) => Cmp::Gt,
            Some(Tok::Punct(">=")) => Cmp::Ge,
            _ => return Some(l),
        };
        self.at += 1;
        let r = self.sum()?;
        if matches!(
            self.peek(),
            Some(Tok::Punct("==" | "!=" | "<" | "<=" | ">" | ">="))
        ) {
            return None;
        }
        Some(Expr::Cmp(Box::new(l), op, Box::new(r)))
    }

    fn sum(&mut self) -> Option<Expr> {
        let mut l = self.product()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Punct("+")) => Math::Add,
                Some(Tok::Punct("-")) => Math::Sub,
                _ => return Some(l),
            };
            self.at += 1;
            let r = self.product()?;
            l = Expr::Math(Box::new(l), op, Box::new(r));
        }
    }

    fn product(&mut self) -> Option<Expr> {
        let mut l = self.postfix()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Punct("*")) => Math::Mul,
                Some(Tok::Punct("/")) => Math::Div,
                Some(Tok::Punct("%")) => Math::Rem,
                _ => return Some(l),
            };
            self.at += 1;
            let r = self.postfix()?;
            l = Expr::Math(Box::new(l), op, Box::new(r));
        }
    }

    /// A term and its path suffixes.
    fn postfix(&mut self) -> Option<Expr> {
        if let Some((start, e, end)) = self.read.take()
            && start == self.at
        {
            self.at = end;
            return e;
        }
        let (base, mut steps) = match self.peek().cloned()? {
            Tok::Field(f) => {
                self.at += 1;
                (Expr::Id, vec![Step::Field(super::key(&f), false)])
            }
            Tok::Dot => {
                self.at += 1;
                // `.[…]` continues as a path; a lone `.` is the input
                (Expr::Id, vec![])
            }
            _ => (self.term()?, vec![]),
        };
        loop {
            match self.peek() {
                Some(Tok::Field(f)) => {
                    let k = super::key(f);
                    self.at += 1;
                    steps.push(Step::Field(k, false));
                }
                Some(Tok::Punct("?")) => {
                    self.at += 1;
                    match steps.last_mut() {
                        Some(Step::Field(_, o) | Step::Index(_, o) | Step::Iter(o)) => *o = true,
                        // `f?` on a term: jq's `try f`, left to jaq
                        None => return None,
                    }
                }
                Some(Tok::Punct("[")) => {
                    self.at += 1;
                    if self.eat("]").is_some() {
                        steps.push(Step::Iter(false));
                        continue;
                    }
                    if self.punct(":") {
                        return None; // slices
                    }
                    let i = self.pipe()?;
                    if self.punct(":") {
                        return None;
                    }
                    self.eat("]")?;
                    steps.push(Step::Index(Box::new(i), false));
                }
                Some(Tok::Dot) if matches!(self.toks.get(self.at + 1), Some(Tok::Punct("["))) => {
                    self.at += 1;
                }
                _ => break,
            }
        }
        Some(if steps.is_empty() {
            base
        } else {
            Expr::Path(Box::new(base), steps)
        })
    }

    fn term(&mut self) -> Option<Expr> {
        let t = self.peek().cloned()?;
        self.at += 1;
        Some(match t {
            Tok::Num(n) => Expr::Lit(number(&n)?),
            Tok::Str(parts) => self.str_expr(parts)?,
            Tok::Var(v) => {
                if let Some(n) = v.strip_prefix("__ph_") {
                    Expr::Ph(n.parse().ok()?)
                } else {
                    let (_, slot) = self.scope.iter().rev().find(|(n, _)| *n == v)?;
                    Expr::Var(*slot)
                }
            }
            Tok::Punct("(") => {
                let e = self.pipe()?;
                self.eat(")")?;
                e
            }
            Tok::Punct("[") => {
                if self.eat("]").is_some() {
                    return Some(Expr::Lit(Val::Arr(Default::default())));
                }
                let e = self.pipe()?;
                self.eat("]")?;
                Expr::Arr(Box::new(e))
            }
            Tok::Punct("{") => self.object()?,
            Tok::Ident(w) => match w.as_str() {
                "if" => self.ite()?,
                "null" => Expr::Lit(Val::Null),
                "true" => Expr::Lit(Val::Bool(true)),
                "false" => Expr::Lit(Val::Bool(false)),
                _ => self.call(&w)?,
            },
            _ => return None,
        })
    }

    /// A string literal: its parts summed (`"a\(f)"` is `"a" + (f | tostring)`, as jaq
    /// compiles it).
    fn str_expr(&mut self, parts: Vec<StrTok>) -> Option<Expr> {
        let mut out = Vec::new();
        for p in parts {
            out.push(match p {
                StrTok::Lit(l) => Expr::Lit(super::key(&l)),
                StrTok::Interp(t) => Expr::Text(Box::new(self.sub(&t)?)),
            });
        }
        sum(out)
    }

    /// Parse `text` in the current scope (an interpolation).
    fn sub(&mut self, text: &str) -> Option<Expr> {
        let toks = lex(text)?;
        let saved = (std::mem::replace(&mut self.toks, toks), self.at);
        self.at = 0;
        let e = self.pipe();
        let done = self.at == self.toks.len();
        self.toks = saved.0;
        self.at = saved.1;
        e.filter(|_| done)
    }

    fn object(&mut self) -> Option<Expr> {
        let mut entries = Vec::new();
        if self.eat("}").is_some() {
            return Some(Expr::Lit(Val::obj(Default::default())));
        }
        loop {
            let key = match self.peek().cloned()? {
                Tok::Ident(k) => k,
                Tok::Str(parts) => match parts.as_slice() {
                    [StrTok::Lit(l)] => l.clone(),
                    _ => return None,
                },
                _ => return None,
            };
            self.at += 1;
            // `{a}` shorthand: left to jaq
            self.eat(":")?;
            let v = self.alt_no_comma()?;
            entries.push(Expr::ObjSingle(super::key(&key), Box::new(v)));
            if self.eat(",").is_some() {
                continue;
            }
            self.eat("}")?;
            return sum(entries);
        }
    }

    /// An object value: jq reads `ExpD` there (no `,` nor `|` at its top).
    fn alt_no_comma(&mut self) -> Option<Expr> {
        let e = self.alt()?;
        if self.punct("|") {
            return None;
        }
        Some(e)
    }

    fn ite(&mut self) -> Option<Expr> {
        let c = self.pipe()?;
        self.eat("then")?;
        let t = self.pipe()?;
        let e = if self.eat("elif").is_some() {
            self.ite()?
        } else {
            self.eat("else")?;
            let e = self.pipe()?;
            self.eat("end")?;
            e
        };
        Some(Expr::If(Box::new(c), Box::new(t), Box::new(e)))
    }

    fn args(&mut self) -> Option<Vec<Expr>> {
        let mut args = Vec::new();
        if self.eat("(").is_none() {
            return Some(args);
        }
        loop {
            args.push(self.pipe()?);
            if self.eat(";").is_some() {
                continue;
            }
            self.eat(")")?;
            return Some(args);
        }
    }

    fn call(&mut self, name: &str) -> Option<Expr> {
        let args = self.args()?;
        let f = match (name, args.len()) {
            ("empty", 0) => Fun::Empty,
            ("not", 0) => Fun::Not,
            ("length", 0) => Fun::Length,
            ("type", 0) => Fun::Type,
            ("tostring", 0) => Fun::ToString,
            ("tonumber", 0) => Fun::ToNumber,
            ("add", 0) => Fun::Add,
            ("ascii_downcase", 0) => Fun::AsciiDowncase,
            ("select", 1) => Fun::Select,
            ("map", 1) => Fun::Map,
            ("startswith", 1) => Fun::StartsWith,
            ("error", 1) => Fun::Error,
            ("range", 1) => Fun::Range,
            ("cbf::zone_to_region", 0) => Fun::Tail(Tail::GcpZoneRegion),
            ("cbf::aws_zone_to_region", 0) => Fun::Tail(Tail::AwsZoneRegion),
            ("cbf::region_of_location", 0) => Fun::Tail(Tail::AzureLocation),
            ("cbf::extract_disk_key", 0) => Fun::Tail(Tail::DiskKey),
            _ => return None,
        };
        Some(Expr::Call(f, args))
    }
}

/// `a + (b + (c …))`: how jaq compiles strings and objects of several parts.
fn sum(mut parts: Vec<Expr>) -> Option<Expr> {
    let mut acc = parts.pop()?;
    while let Some(p) = parts.pop() {
        acc = Expr::Math(Box::new(p), Math::Add, Box::new(acc));
    }
    Some(acc)
}

/// A number literal as jaq reads it: an integer when it fits, else a decimal kept as text.
fn number(n: &str) -> Option<Val> {
    use jaq_core::ValT;
    if n.ends_with('.') || n.matches('.').count() > 1 {
        return None;
    }
    match n.parse::<isize>() {
        Ok(i) => Some(Val::from(i)),
        Err(_) => Val::from_num(n).ok(),
    }
}

/// Parse a (placeholder-rewritten) filter text into the evaluator's tree.
pub(super) fn parse(text: &str) -> Option<(Expr, usize)> {
    let toks = lex(text)?;
    let mut p = P {
        toks,
        at: 0,
        scope: Vec::new(),
        slots: 0,
        read: None,
    };
    let e = p.pipe()?;
    (p.at == p.toks.len()).then_some((e, p.slots))
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn a_deeply_nested_filter_parses_in_linear_time() {
        // each `(` used to be parsed twice (once looking for `T as $x`), 2^depth in all
        let depth = 64;
        let text = format!("{}.a{} | length", "(".repeat(depth), ")".repeat(depth));
        assert!(parse(&text).is_some());
        let bound = format!("{}.a{} as $x | $x", "(".repeat(depth), ")".repeat(depth));
        assert_eq!(parse(&bound).map(|(_, slots)| slots), Some(1));
    }
}
