//! Native evaluation of the jq the shipped mappings write (paths with `?`, placeholders,
//! literals, `//`, `and`/`or`, comparisons, `+ - * / %`, `if … then … elif … else … end`,
//! `E as $x | …`, arrays and objects built, `select`, `map`, `length`, `type`, `add`,
//! `startswith`, `error`, `cbf::*_to_region`…), compiled once at load into an [`Expr`] tree.
//!
//! Each construct keeps jaq's own semantics, down to its errors: values, indexing, arithmetic
//! and comparisons are jaq's (`jaq_core::ValT`, `ops::Math`, `ops::Cmp` on `jaq_json::Val`),
//! streams are evaluated in jaq's order (the left operand outermost), an error is a value of
//! the stream as in jaq (`//` keeps it, `select` passes it on, `[…]` becomes it). Where jaq's
//! answer would need more than this module knows (a number in a string for `tonumber`, a byte
//! string, an index expression with several outputs), [`Native::run`] says so (`None`) and the
//! engine runs the filter in jaq instead. A filter whose text uses anything else is not
//! compiled natively at all. `engine::filters`' tests compare both on every fixture.

mod parse;

use super::fast::Tail;
use jaq_core::ValT;
use jaq_core::ops::{Cmp, Math};
use jaq_json::{Error, Val};

/// One output of a filter: a value or jaq's error.
pub type Out = Result<Val, Error>;

/// The evaluator's tree.
#[derive(Debug, Clone)]
pub(crate) enum Expr {
    /// `.`
    Id,
    Lit(Val),
    /// `$__ph_N`: a placeholder's value.
    Ph(usize),
    /// A variable bound by `as`, by slot.
    Var(usize),
    /// A path from a term: `.a[0]?.b[]`, `$__ph_0.values.x`, `{…}[.u]`.
    Path(Box<Expr>, Vec<Step>),
    /// `[f]`
    Arr(Box<Expr>),
    /// `{"k": f}` (objects of several keys are sums of these, as jaq compiles them).
    ObjSingle(Val, Box<Expr>),
    Pipe(Box<Expr>, Box<Expr>),
    /// `l as $x | r`
    Bind(Box<Expr>, usize, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    Alt(Box<Expr>, Box<Expr>),
    /// `l or r` (true), `l and r` (false): the value of `l` that decides alone.
    Logic(Box<Expr>, bool, Box<Expr>),
    Math(Box<Expr>, Math, Box<Expr>),
    Cmp(Box<Expr>, Cmp, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `"\(f)"`: `f`'s outputs as text.
    Text(Box<Expr>),
    Call(Fun, Vec<Expr>),
}

/// A path step; `bool`: followed by `?` (its errors give nothing).
#[derive(Debug, Clone)]
pub(crate) enum Step {
    Field(Val, bool),
    Index(Box<Expr>, bool),
    Iter(bool),
}

/// The builtins the evaluator knows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Fun {
    Empty,
    Not,
    Length,
    Type,
    ToString,
    ToNumber,
    Add,
    AsciiDowncase,
    Select,
    Map,
    StartsWith,
    Error,
    /// `range(to)`: only up to [`jq::MAX_OUTPUTS`](super::jq::MAX_OUTPUTS) values (more is
    /// left to jaq and its budget).
    Range,
    Tail(Tail),
}

/// A string value (keys, literals).
fn key(s: &str) -> Val {
    super::jq::s(s)
}

/// A filter compiled for the native evaluator.
#[derive(Debug, Clone)]
pub struct Native {
    expr: Expr,
    vars: usize,
    /// Whether its outputs depend on its input (else on its placeholders alone).
    reads_input: bool,
}

/// Compile a (placeholder-rewritten) filter text, if it uses only what the evaluator knows.
pub fn parse(text: &str) -> Option<Native> {
    let (expr, vars) = parse::parse(text)?;
    let reads_input = reads_input(&expr);
    Some(Native {
        expr,
        vars,
        reads_input,
    })
}

/// The answer jaq would give is not known here: run the filter in jaq.
struct Unsure;

type Res = Result<(), Unsure>;

struct Env<'p> {
    phs: &'p [Val],
    vars: Vec<Val>,
}

/// Whether `e` can read its input (`.`, or a builtin of it); `false` when its outputs depend on
/// placeholders, literals and its own variables only.
fn reads_input(e: &Expr) -> bool {
    match e {
        Expr::Id => true,
        Expr::Lit(_) | Expr::Ph(_) | Expr::Var(_) => false,
        Expr::Path(base, steps) => {
            reads_input(base)
                || steps
                    .iter()
                    .any(|s| matches!(s, Step::Index(i, _) if reads_input(i)))
        }
        Expr::Arr(e) | Expr::ObjSingle(_, e) | Expr::Text(e) => reads_input(e),
        // the right side reads the left side's outputs
        Expr::Pipe(l, _) => reads_input(l),
        Expr::Bind(l, _, r)
        | Expr::Comma(l, r)
        | Expr::Alt(l, r)
        | Expr::Logic(l, _, r)
        | Expr::Math(l, _, r)
        | Expr::Cmp(l, _, r) => reads_input(l) || reads_input(r),
        Expr::If(c, t, f) => reads_input(c) || reads_input(t) || reads_input(f),
        Expr::Call(Fun::Empty, _) => false,
        // `error(f)`, `range(f)`: `f` on the input
        Expr::Call(Fun::Error | Fun::Range, args) => {
            args.is_empty() || args.iter().any(reads_input)
        }
        Expr::Call(..) => true,
    }
}

impl Native {
    /// Whether its outputs can depend on its input: when not, they are a function of its
    /// placeholders' values alone (the engine keeps them: `engine::eval`).
    pub fn reads_input(&self) -> bool {
        self.reads_input
    }

    /// Every output of the filter on `input` with placeholder values `phs`, errors included, as
    /// jaq gives them; `None`: run it in jaq.
    pub fn run(&self, input: &Val, phs: &[Val]) -> Option<Vec<Out>> {
        let mut env = Env {
            phs,
            vars: vec![Val::Null; self.vars],
        };
        let mut out = Vec::new();
        run(&self.expr, input, &mut env, &mut out).ok()?;
        Some(out)
    }
}

/// Outputs of `e` on `input` into a new vector.
fn outs(e: &Expr, input: &Val, env: &mut Env<'_>) -> Result<Vec<Out>, Unsure> {
    let mut v = Vec::new();
    run(e, input, env, &mut v)?;
    Ok(v)
}

fn run(e: &Expr, input: &Val, env: &mut Env<'_>, out: &mut Vec<Out>) -> Res {
    match e {
        Expr::Id => out.push(Ok(input.clone())),
        Expr::Lit(v) => out.push(Ok(v.clone())),
        Expr::Ph(i) => out.push(Ok(env.phs.get(*i).cloned().unwrap_or(Val::Null))),
        Expr::Var(s) => out.push(Ok(env.vars[*s].clone())),
        Expr::Path(base, steps) => {
            // index expressions run on the path's input, before its base (one output each)
            let mut idx = Vec::new();
            for s in steps {
                if let Step::Index(i, _) = s {
                    match outs(i, input, env)?.as_slice() {
                        [Ok(v)] => idx.push(v.clone()),
                        _ => return Err(Unsure),
                    }
                }
            }
            for b in outs(base, input, env)? {
                match b {
                    Err(e) => out.push(Err(e)),
                    Ok(v) => path(v, steps, &idx, out),
                }
            }
        }
        Expr::Arr(f) => {
            let vs = outs(f, input, env)?;
            out.push(
                vs.into_iter()
                    .collect::<Result<Vec<_>, _>>()
                    .map(|v| Val::Arr(v.into())),
            );
        }
        Expr::ObjSingle(k, v) => {
            for v in outs(v, input, env)? {
                out.push(v.map(|v| Val::obj([(k.clone(), v)].into_iter().collect())));
            }
        }
        Expr::Pipe(l, r) => {
            for v in outs(l, input, env)? {
                match v {
                    Err(e) => out.push(Err(e)),
                    Ok(v) => run(r, &v, env, out)?,
                }
            }
        }
        Expr::Bind(l, slot, r) => {
            for v in outs(l, input, env)? {
                match v {
                    Err(e) => out.push(Err(e)),
                    Ok(v) => {
                        env.vars[*slot] = v;
                        run(r, input, env, out)?
                    }
                }
            }
        }
        Expr::Comma(l, r) => {
            run(l, input, env, out)?;
            run(r, input, env, out)?;
        }
        Expr::Alt(l, r) => {
            let kept: Vec<Out> = outs(l, input, env)?
                .into_iter()
                .filter(|v| v.as_ref().map_or(true, ValT::as_bool))
                .collect();
            if kept.is_empty() {
                run(r, input, env, out)?;
            } else {
                out.extend(kept);
            }
        }
        Expr::Logic(l, stop, r) => {
            for v in outs(l, input, env)? {
                match v {
                    Err(e) => out.push(Err(e)),
                    Ok(v) if v.as_bool() == *stop => out.push(Ok(Val::Bool(*stop))),
                    Ok(_) => {
                        for w in outs(r, input, env)? {
                            out.push(w.map(|w| Val::Bool(w.as_bool())));
                        }
                    }
                }
            }
        }
        Expr::Math(l, op, r) => {
            for x in outs(l, input, env)? {
                for y in outs(r, input, env)? {
                    out.push(match (x.clone(), y) {
                        (Err(e), _) | (_, Err(e)) => Err(e),
                        (Ok(x), Ok(y)) => op.run(x, y),
                    });
                }
            }
        }
        Expr::Cmp(l, op, r) => {
            for x in outs(l, input, env)? {
                for y in outs(r, input, env)? {
                    out.push(match (&x, y) {
                        (Err(e), _) => Err(e.clone()),
                        (_, Err(e)) => Err(e),
                        (Ok(x), Ok(y)) => Ok(Val::Bool(op.run(x, &y))),
                    });
                }
            }
        }
        Expr::If(c, t, f) => {
            for v in outs(c, input, env)? {
                match v {
                    Err(e) => out.push(Err(e)),
                    Ok(v) => run(if v.as_bool() { t } else { f }, input, env, out)?,
                }
            }
        }
        Expr::Text(f) => {
            for v in outs(f, input, env)? {
                out.push(v.map(ValT::into_string));
            }
        }
        Expr::Call(f, args) => call(*f, args, input, env, out)?,
    }
    Ok(())
}

/// The steps of a path from `v`; `idx` holds the values of its index expressions in order.
fn path(v: Val, steps: &[Step], idx: &[Val], out: &mut Vec<Out>) {
    let Some((step, rest)) = steps.split_first() else {
        out.push(Ok(v));
        return;
    };
    let (ys, opt, idx): (Vec<Out>, bool, &[Val]) = match step {
        Step::Field(k, opt) => (vec![v.index(k)], *opt, idx),
        Step::Index(_, opt) => (vec![v.index(&idx[0])], *opt, &idx[1..]),
        Step::Iter(opt) => (v.values().collect(), *opt, idx),
    };
    for y in ys {
        match y {
            Ok(y) => path(y, rest, idx, out),
            Err(e) if !opt => out.push(Err(e)),
            Err(_) => {}
        }
    }
}

fn call(f: Fun, args: &[Expr], input: &Val, env: &mut Env<'_>, out: &mut Vec<Out>) -> Res {
    match f {
        Fun::Empty => {}
        Fun::Not => out.push(Ok(Val::Bool(!input.as_bool()))),
        Fun::Length => out.push(match input {
            Val::Null => Ok(Val::from(0usize)),
            Val::Num(jaq_json::Num::Int(i)) => Ok(Val::from(i.abs())),
            Val::Num(jaq_json::Num::Float(f)) => Ok(Val::from(f.abs())),
            Val::TStr(_) => Ok(Val::from(
                super::jq::str_ref(input).ok_or(Unsure)?.chars().count(),
            )),
            Val::Arr(a) => Ok(Val::from(a.len())),
            Val::Obj(o) => Ok(Val::from(o.len())),
            _ => return Err(Unsure),
        }),
        Fun::Type => out.push(Ok(key(match input {
            Val::Null => "null",
            Val::Bool(_) => "boolean",
            Val::Num(_) => "number",
            Val::TStr(_) => "string",
            Val::Arr(_) => "array",
            Val::Obj(_) => "object",
            Val::BStr(_) => return Err(Unsure),
        }))),
        Fun::ToString => out.push(Ok(input.clone().into_string())),
        Fun::ToNumber => match input {
            Val::Num(_) => out.push(Ok(input.clone())),
            _ => return Err(Unsure),
        },
        Fun::Add => {
            // `reduce .[] as $x (null; . + $x)`
            let mut acc = Ok(Val::Null);
            for x in input.clone().values() {
                acc = match (acc, x) {
                    (Err(e), _) => Err(e),
                    (Ok(_), Err(e)) => Err(e),
                    (Ok(a), Ok(x)) => a + x,
                };
                if acc.is_err() {
                    break;
                }
            }
            out.push(acc);
        }
        Fun::AsciiDowncase => match super::jq::str_ref(input) {
            Some(s) if matches!(input, Val::TStr(_)) => out.push(Ok(key(&s.to_ascii_lowercase()))),
            _ => return Err(Unsure),
        },
        Fun::Select => {
            for c in outs(&args[0], input, env)? {
                match c {
                    Err(e) => out.push(Err(e)),
                    Ok(c) if c.as_bool() => out.push(Ok(input.clone())),
                    Ok(_) => {}
                }
            }
        }
        Fun::Map => {
            // `[.[] | f]`
            let mut vs = Vec::new();
            for x in input.clone().values() {
                match x {
                    Err(e) => vs.push(Err(e)),
                    Ok(x) => run(&args[0], &x, env, &mut vs)?,
                }
            }
            out.push(
                vs.into_iter()
                    .collect::<Result<Vec<_>, _>>()
                    .map(|v| Val::Arr(v.into())),
            );
        }
        Fun::StartsWith => {
            for p in outs(&args[0], input, env)? {
                let p = match p {
                    Err(e) => {
                        out.push(Err(e));
                        continue;
                    }
                    Ok(p) => p,
                };
                match (input, &p) {
                    (Val::TStr(a), Val::TStr(b)) => {
                        out.push(Ok(Val::Bool(a[..].starts_with(&b[..]))))
                    }
                    _ => return Err(Unsure),
                }
            }
        }
        Fun::Error => {
            for m in outs(&args[0], input, env)? {
                out.push(Err(m.map_or_else(|e| e, Error::new)));
            }
        }
        Fun::Range => {
            // `range(0; to; 1)`: 0, 1, 2… while below `to`
            for to in outs(&args[0], input, env)? {
                let to = match to {
                    Err(e) => {
                        out.push(Err(e));
                        continue;
                    }
                    Ok(to) => to,
                };
                let n = match &to {
                    Val::Num(jaq_json::Num::Int(n)) => *n as f64,
                    Val::Num(jaq_json::Num::Float(f)) if f.is_finite() => *f,
                    _ => return Err(Unsure),
                };
                if n > super::jq::MAX_OUTPUTS as f64 {
                    return Err(Unsure);
                }
                let mut i: isize = 0;
                while Val::from(i) < to {
                    out.push(Ok(Val::from(i)));
                    i += 1;
                }
            }
        }
        Fun::Tail(t) => match input {
            Val::TStr(_) => {
                let s = super::jq::str_ref(input).ok_or(Unsure)?;
                out.push(Ok(key(&super::fast::tail(t, s))));
            }
            // `test` fails on anything but a string, with jaq's message
            Val::BStr(_) => return Err(Unsure),
            _ if t == Tail::DiskKey => return Err(Unsure),
            // the other cbf definitions give anything but a string back unchanged
            _ => out.push(Ok(input.clone())),
        },
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapping::jq;
    use proptest::prelude::*;
    use serde_json::json;

    /// Filters of the shapes the shipped mappings write, and their edge cases.
    const FILTERS: &[&str] = &[
        ".a // 0",
        ".a // .b // \"x\"",
        "(.a // []) | length",
        ".a // [] | length | if . == 0 then 1 else . end",
        ".a | length > 0",
        "if .a == \"x\" then 1 elif .a == \"y\" then 2 else 3 end",
        "if .a then .b else empty end",
        ".a / .b",
        ".a * 2 + 1",
        ".a - 1",
        ".a % 3",
        "1 / 0",
        ".a / 1024",
        "(.a // 1) * (.b // 1)",
        "select(.a != null) | .a",
        ".a | select(. != null and . != \"\")",
        "[.a[]? | .n] | add",
        "[.a[]?.n] | select(length > 0) | add",
        "[.a, .b] | map(select(. != null)) | add // 0",
        ".a | startswith(\"ra3\")",
        "(.a // \"\") | startswith(\"x\")",
        "{x: .a, \"y\": .b}",
        "{x: (if .a != null then .a / 2 else null end)} | select(.x != null)",
        "{\"ACTIVE\": 2, \"C\": 3}[.a // \"S\"] // 1",
        ".a as $x | $x + 1",
        "(.a // \"n\") as $t | $t == \"n\" or $t == 3",
        ".a | type",
        ".a | tostring",
        ".a | tonumber",
        ".a | not",
        "error(\"unsupported: x\")",
        "if . == \"x\" then error(\"no\") elif . == \"y\" then error(\"why\") else . end",
        ".a | cbf::zone_to_region",
        ".a | cbf::aws_zone_to_region",
        ".a | cbf::region_of_location",
        ".a | cbf::extract_disk_key",
        "\"n=\\(.a)/\\(.b)\"",
        "\"\\($__ph_0)\"",
        "$__ph_0.vcpus * 2",
        "$__ph_0.vcpus == null or $__ph_1[0].n == null",
        "$__ph_1[0].n + $__ph_1[1].n",
        "($__ph_1 | map(.n) | add)",
        ".a[0]?.b",
        ".a[0].b",
        ".a[]?",
        ".a[]",
        ".a.b",
        ".a?.b",
        ".a == null",
        ".a < 3",
        ".a >= \"m\"",
        "1, 2",
        "empty",
        ".a and .b",
        ".a or .b",
        ".a | ascii_downcase",
        "((.a // []) | length) > 1",
        "[.a[]? | .n // 1] | if length == 0 then 5 else add end",
        ".[.a]",
        ".\"a\"",
        // (`range` of a string never ends in jaq: numbers only here)
        ".a | select(type == \"number\") | [range(.)] | length",
        ". as $s | [range(.a // 0 | select(type == \"number\"))] | map($s) | .[] | .b",
        "$__ph_0 | select((.vcpus // 0 | select(type == \"number\")) > 0) | . as $s | [range(.vcpus)] | map($s) | .[]",
        ".a | select((.b // 0 | select(type == \"number\")) > 0) | [range(.b)] | .[] | {}",
    ];

    /// A filter said not to read its input gives the same outputs on every input; the ones
    /// that read it are told so.
    #[test]
    fn what_reads_no_input_gives_the_same_on_every_input() {
        let free = [
            "$__ph_0.values.block_device_mappings[]? | select((.ebs // []) | length > 0)",
            "$__ph_0.InstanceStorage | select((.Count // 0) > 0) | . as $s | [range(.Count)] | map($s) | .[]",
            "\"none\"",
            "error(\"unsupported\")",
            "$__ph_0 as $x | [$x, 1]",
        ];
        let reading = [
            ".",
            ".a",
            "length",
            "select(.a)",
            "$__ph_0 as $x | .a",
            "error(.a)",
            "{a: .b}",
            "[.[]?]",
            "$__ph_0[.a]?",
        ];
        for f in free {
            let n = parse(f).unwrap_or_else(|| panic!("{f}"));
            assert!(!n.reads_input(), "{f}");
            let phs = [jq::to_val(
                &json!({"values": {"block_device_mappings": [{"ebs": [1]}]}, "InstanceStorage": {"Count": 2}}),
            )];
            let first = n.run(&Val::Null, &phs).map(|o| format!("{o:?}"));
            for input in inputs() {
                let out = n.run(&jq::to_val(&input), &phs).map(|o| format!("{o:?}"));
                assert_eq!(out, first, "{f} on {input}");
            }
        }
        for f in reading {
            let n = parse(f).unwrap_or_else(|| panic!("{f}"));
            assert!(n.reads_input(), "{f}");
        }
    }

    fn inputs() -> Vec<serde_json::Value> {
        vec![
            json!(null),
            json!({}),
            json!({"a": null}),
            json!({"a": ""}),
            json!({"a": "x"}),
            json!({"a": "y", "b": "z"}),
            json!({"a": "europe-west1-b"}),
            json!({"a": "us-east-1a"}),
            json!({"a": "West Europe"}),
            json!({"a": "/dev/xvdf"}),
            json!({"a": "ra3.xlplus"}),
            json!({"a": 0}),
            json!({"a": 3, "b": 0}),
            json!({"a": -3.5, "b": 2}),
            json!({"a": 1024, "b": 2.5}),
            json!({"a": [1, 2]}),
            json!({"a": [], "b": [1]}),
            json!({"a": [{"n": 1}, {"n": 2.5}, {}], "b": "y"}),
            json!({"a": [{"n": "s"}, {"n": 1}]}),
            json!({"a": {"b": 1}, "b": {"c": 2}}),
            json!({"a": true, "b": false}),
            json!({"a": false, "b": null}),
            json!({"a": "12"}),
            json!({"a": "1", "b": "2"}),
            json!([1, 2]),
            json!("x"),
            json!("y"),
            json!(5),
        ]
    }

    fn phs() -> Vec<Val> {
        vec![
            jq::to_val(&json!({"vcpus": 2, "memoryMb": 4096})),
            jq::to_val(&json!([{"n": 1}, {"n": 3}, {"n": 0}])),
        ]
    }

    fn shown(r: Result<Val, String>) -> String {
        match r {
            Ok(v) => format!("{v}"),
            Err(e) => format!("error: {e}"),
        }
    }

    /// (native outputs or `None` when it defers to jaq, jaq's outputs), as text.
    type Both = (Option<Vec<String>>, Vec<String>);

    fn both(p: &jq::Program, i: usize, f: &Native, input: &Val, phs: &[Val]) -> Both {
        let g = jq::Globals {
            root: Val::Null,
            idx: Val::Null,
            all: Val::Null,
        };
        let by_jaq = p.run(i, input.clone(), &g, &Default::default(), phs);
        let native = f.run(input, phs).map(|o| {
            o.into_iter()
                .map(|r| shown(r.map_err(|e| e.to_string())))
                .collect()
        });
        (native, by_jaq.into_iter().map(shown).collect())
    }

    #[test]
    fn every_shape_runs_natively_as_jaq_runs_it() {
        let p = jq::Program::compile(FILTERS, 2).unwrap();
        let natives: Vec<Native> = FILTERS
            .iter()
            .map(|f| parse(f).unwrap_or_else(|| panic!("not native: {f}")))
            .collect();
        let (mut known, mut all) = (0, 0);
        for (i, f) in natives.iter().enumerate() {
            for input in inputs() {
                let v = jq::to_val(&input);
                let (native, by_jaq) = both(&p, i, f, &v, &phs());
                all += 1;
                if let Some(native) = native {
                    known += 1;
                    assert_eq!(native, by_jaq, "`{}` on {input}", FILTERS[i]);
                }
            }
        }
        // the evaluator defers to jaq only in corners (numbers in strings, byte strings)
        assert!(known * 10 > all * 9, "{known} of {all}");
    }

    #[test]
    fn edge_cases_give_what_jq_gives() {
        let run = |f: &str, input: serde_json::Value| -> Vec<String> {
            parse(f)
                .unwrap()
                .run(&jq::to_val(&input), &[])
                .unwrap()
                .into_iter()
                .map(|r| shown(r.map_err(|e| e.to_string())))
                .collect()
        };
        // missing and null are null; a path on a wrong type is an error, `?` drops it
        assert_eq!(run(".a.b", json!({})), ["null"]);
        assert_eq!(run(".a?.b", json!({"a": 3})).len(), 1);
        assert!(run(".a.b", json!({"a": 3}))[0].starts_with("error"));
        assert_eq!(run(".a.b?", json!({"a": 3})), Vec::<String>::new());
        // `//` keeps an error on its left, as jaq does
        assert!(run("error(\"x\") // 1", json!(null))[0].starts_with("error"));
        // division by zero is one output, whatever jaq makes of it (compared with jaq in
        // `every_shape_runs_natively_as_jaq_runs_it`)
        assert_eq!(run(".a / .b", json!({"a": 1, "b": 0})).len(), 1);
        // empty strings are truthy, and `+` on null is neutral
        assert_eq!(run(".a // 1", json!({"a": ""})), ["\"\""]);
        assert_eq!(run(".a + 1", json!({})), ["1"]);
    }

    #[test]
    fn only_what_it_knows_is_native() {
        for f in [
            ".a | test(\"x\")",
            "reduce .[] as $x (0; . + $x)",
            "try .a",
            "(.a)?",
            "-1",
            ".a[1:]",
            "..",
            "$__root.x",
            "$x",
            "cbf::all_select(\"type\"; \"x\")",
            ".a |= 1",
            ".a = 1",
            "if .a then 1 end",
            "{a}",
            "{a: 1 | 2}",
            ".a, .b as $x | $x",
            "def f: 1; f",
            "\"\\u00e9\"",
            "1e3",
            ".a # comment",
        ] {
            assert!(parse(f).is_none(), "{f}");
        }
    }

    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(json!(null)),
            any::<bool>().prop_map(|b| json!(b)),
            (-5i64..5).prop_map(|n| json!(n)),
            (-5.0f64..5.0).prop_map(|n| json!(n)),
            prop::sample::select(vec!["", "x", "y", "ra3", "us-east-1a", "/dev/sdb", "3"])
                .prop_map(|s| json!(s)),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
                prop::collection::btree_map(
                    prop::sample::select(vec!["a", "b", "n"]).prop_map(String::from),
                    inner,
                    0..3
                )
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// On any value, every shape gives jaq's outputs and errors (or defers to jaq).
        #[test]
        fn any_value_runs_natively_as_jaq_runs_it(input in json_value(), ph in json_value()) {
            static P: std::sync::OnceLock<jq::Program> = std::sync::OnceLock::new();
            let p = P.get_or_init(|| jq::Program::compile(FILTERS, 2).unwrap());
            let v = jq::to_val(&input);
            let phs = [jq::to_val(&ph), jq::to_val(&ph)];
            for (i, f) in FILTERS.iter().enumerate() {
                let (native, by_jaq) = both(p, i, &parse(f).unwrap(), &v, &phs);
                if let Some(native) = native {
                    prop_assert_eq!(native, by_jaq, "`{}` on {} with {}", f, input, ph);
                }
            }
        }
    }
}
