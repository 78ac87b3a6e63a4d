//! jaq glue: the in-memory `cbf` module, compiling every filter of a mapping set into ONE program, and running a filter.
//!
//! All distinct filters of a mapping load are compiled together, once: the program is a binary
//! dispatch tree on the global variable `$__fid` whose leaves are the filters. Placeholders were
//! already rewritten to the global variables `$__ph_N` (see `placeholder.rs`), so running a filter
//! for a resource only binds variables: nothing is compiled per resource.

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Ctx, Vars, data};
use jaq_json::Val;

/// Data kind of our filters.
pub type D = data::JustLut<Val>;

/// The `cbf` module, imported by every filter as `import "cbf" as cbf;`.
///
/// `cbf::all_select` and `cbf::by_address` are natives (`engine::side`): they answer from the
/// indexes of the side being mapped and build only the resources they find. `$__root` (the
/// document), `$__all` (every resource of the side) and `$__idx` are bound for the filters that
/// name them.
pub const CBF_MODULE: &str = r#"
def __get($p): reduce ($p | split(".")[]) as $k (.; if type == "object" then .[$k] else null end);
def all_select(a; b): a as $a | b as $b | __cs_all_select($a; $b);
def root: $__root;
def extract_disk_key:
  if test("^/dev/sd[a-z]+") or test("^/dev/xvd[a-z]+") then
    capture("^/dev/(?:sd|xvd)(?<letter>[a-z]+)").letter
  elif test("^/dev/nvme[0-2]?[0-9]n") then
    capture("^/dev/nvme(?<number>[0-2]?[0-9])n").number | tonumber | (96 + .) | [.] | implode
  else
    .
  end;
def zone_to_region: if type == "string" then (capture("^(?<r>[a-z]+-[a-z0-9]+[0-9])(-[a-z])?$").r // .) else . end;
def aws_zone_to_region: if type == "string" then (capture("^(?<r>[a-z]+(-[a-z]+)+-[0-9]+)[a-z]*$").r // .) else . end;
def gcp_custom: if type == "string" then (capture("(^|-)custom-(?<c>[0-9]+)-(?<m>[0-9]+)(-ext)?$") | {vcpus: (.c | tonumber), memoryMb: (.m | tonumber)}) else empty end;
def gcp_custom_vcpus: gcp_custom | .vcpus;
def gcp_custom_memory_mb: gcp_custom | .memoryMb;
def sql_custom: if type == "string" then (capture("^db-custom-(?<c>[0-9]+)-(?<m>[0-9]+)$") | {vcpus: (.c | tonumber), memoryMb: (.m | tonumber)}) else empty end;
def sql_custom_vcpus: sql_custom | .vcpus;
def sql_custom_memory_mb: sql_custom | .memoryMb;
def unknown($p): ($__unknown | getpath($p)) == true;
def config: $__config;
def config_resources: ($__modconfig // [])[];
def by_address($a): __cs_by_address($a);
def ref_address(f): first(($__config | f | .references[]?) | select(type == "string" and test("^(data\\.)?[a-zA-Z0-9_]+\\.[a-zA-Z0-9_-]+$"))) | $__modprefix + .;
def ref(f): ref_address(f) as $a | by_address($a);
def referrers($type): ($__config.address // "") as $me | config_resources | select(.type == $type) | select(any(.. | .references? // empty | .[]; . == $me or startswith($me + "."))) | by_address($__modprefix + .address);
def region_of_location: if type == "string" then ascii_downcase | gsub(" "; "") else . end;
"#;

/// Global variables every filter may read, in binding order.
const FIXED_GLOBALS: [&str; 8] = [
    "$__root",
    "$__idx",
    "$__all",
    "$__unknown",
    "$__config",
    "$__modprefix",
    "$__modconfig",
    "$__fid",
];

/// Per-resource globals: `after_unknown`, the configuration block, the module instance prefix
/// (`module.a["x"].`) and the configuration resources of its module.
#[derive(Clone, Default)]
pub struct PerResource {
    pub unknown: Val,
    pub config: Val,
    pub modprefix: Val,
    pub modconfig: Val,
}

/// Values of the fixed global variables for one side of a document.
#[derive(Clone)]
pub struct Globals {
    pub root: Val,
    pub idx: Val,
    pub all: Val,
}

/// A compile problem located in one filter.
#[derive(Debug)]
pub struct FilterError {
    /// The filter's index (`usize::MAX`: not in one filter, e.g. the `cbf` module).
    pub filter: usize,
    /// Byte offset in the filter's text.
    pub offset: usize,
    pub message: String,
    /// It names a [`FORBIDDEN`] function or variable: never allowed, not merely broken.
    pub forbidden: bool,
}

#[allow(clippy::type_complexity)]
fn loader<'s>() -> Loader<
    &'s str,
    String,
    impl FnMut(jaq_core::load::Import<&str, String>) -> Result<File<String, String>, String>,
> {
    let defs = jaq_core::defs()
        .chain(jaq_std::defs())
        .chain(jaq_json::defs())
        .filter(|d| !is_forbidden(d.name));
    Loader::new(defs).with_read(|import: jaq_core::load::Import<&str, String>| {
        if *import.path == "cbf" {
            Ok(File {
                code: CBF_MODULE.to_string(),
                path: "cbf".to_string(),
            })
        } else {
            Err(format!(
                "module {:?} not found (only \"cbf\" is available)",
                import.path
            ))
        }
    })
}

/// The names a mapping cannot call, because they reach outside the document: the process
/// environment (`env`; `$ENV` is never bound), the clock and the local time zone (`now`,
/// `localtime`, `strflocaltime`), further inputs (`input`, `inputs`), the end of the run
/// (`halt`, `halt_error`) and the log (`debug`, `stderr` and their natives). They are left
/// out of the definitions and natives the program is compiled with, so no spelling of the
/// filter text can reach them: a filter that names one does not compile
/// ([`forbidden_reason`] words the diagnostic). `import`/`include` find only `cbf`, and data
/// imports (`import "f" as $x;`) are never bound.
pub const FORBIDDEN: &[&str] = &[
    "env",
    "now",
    "localtime",
    "strflocaltime",
    "input",
    "inputs",
    "halt",
    "halt_error",
    "debug",
    "debug_empty",
    "stderr",
    "stderr_empty",
];

/// Whether `name` (a definition or native) is left out of the sandbox.
pub fn is_forbidden(name: &str) -> bool {
    FORBIDDEN.contains(&name)
}

/// Why a forbidden name is missing, for `mappings check` and the load error; `None` for a
/// name that is simply undefined.
pub fn forbidden_reason(name: &str) -> Option<&'static str> {
    Some(match name {
        "env" | "$ENV" | "$__prog_args" => "it would read the environment",
        "now" | "localtime" | "strflocaltime" => "it would read the clock or the local time zone",
        "input" | "inputs" => "it would read input beyond the resource",
        "halt" | "halt_error" => "it would end the run",
        "debug" | "debug_empty" | "stderr" | "stderr_empty" => "it would write to the log",
        _ => return None,
    })
}

/// jaq's natives without the [`FORBIDDEN`] ones.
fn sandboxed_funs() -> impl Iterator<Item = jaq_core::native::Fun<D>> {
    jaq_core::funs()
        .chain(jaq_std::funs())
        .chain(jaq_json::funs())
        .filter(|f| !is_forbidden(f.0))
}

fn globals(nph: usize) -> Vec<String> {
    FIXED_GLOBALS
        .iter()
        .map(|s| s.to_string())
        .chain((0..nph).map(super::placeholder::var_name))
        .collect()
}

const PRELUDE: &str = "import \"cbf\" as cbf;\n";

/// Lex and parse one filter on its own: `Err((offset, message))` on a syntax error.
pub fn parse_one(text: &str) -> Result<(), (usize, String)> {
    let arena = Arena::default();
    let code = format!("{PRELUDE}({text}\n)");
    let res = loader().load(
        &arena,
        File {
            code: code.as_str(),
            path: "main".to_string(),
        },
    );
    match res {
        Ok(_) => Ok(()),
        Err(errs) => {
            let (file, err) = errs.into_iter().next().expect("an error");
            let (part, msg) = load_error(&err);
            let off = if file.path == "main" {
                jaq_core::load::span(&code, part).start
            } else {
                0
            };
            Err((off.saturating_sub(PRELUDE.len() + 1).min(text.len()), msg))
        }
    }
}

fn load_error<'a>(err: &jaq_core::load::Error<&'a str>) -> (&'a str, String) {
    use jaq_core::load::Error as E;
    match err {
        E::Io(v) => v
            .first()
            .map(|(p, m)| (*p, format!("import {p:?}: {m}")))
            .unwrap_or(("", "import error".into())),
        E::Lex(v) => v
            .first()
            .map(|(exp, found)| (*found, format!("syntax error: expected {}", exp.as_str())))
            .unwrap_or(("", "syntax error".into())),
        E::Parse(v) => v
            .first()
            .map(|(exp, found)| {
                let f = if found.is_empty() {
                    "end of filter".to_string()
                } else {
                    format!("{:?}", found.chars().take(20).collect::<String>())
                };
                (
                    *found,
                    format!("syntax error: expected {}, found {f}", exp.as_str()),
                )
            })
            .unwrap_or(("", "syntax error".into())),
    }
}

/// The compiled program holding every filter of a mapping set.
pub struct Program {
    filter: jaq_core::Filter<D>,
    nph: usize,
    len: usize,
}

fn dispatch(
    texts: &[&str],
    lo: usize,
    hi: usize,
    out: &mut String,
    ranges: &mut Vec<(usize, usize)>,
) {
    if hi - lo == 1 {
        out.push_str("(\n");
        let start = out.len();
        out.push_str(texts[lo]);
        ranges[lo] = (start, out.len());
        out.push_str("\n)");
        return;
    }
    let mid = (lo + hi) / 2;
    out.push_str(&format!("if $__fid < {mid} then "));
    dispatch(texts, lo, mid, out, ranges);
    out.push_str(" else ");
    dispatch(texts, mid, hi, out, ranges);
    out.push_str(" end");
}

impl Program {
    /// Compile `texts` (already placeholder-free) into one program using `nph` placeholder
    /// variables. On failure, the errors say which filters are at fault.
    pub fn compile(texts: &[&str], nph: usize) -> Result<Program, Vec<FilterError>> {
        let mut code = String::from(PRELUDE);
        let mut ranges = vec![(0, 0); texts.len()];
        if texts.is_empty() {
            code.push_str("empty");
        } else {
            dispatch(texts, 0, texts.len(), &mut code, &mut ranges);
        }
        let locate = |code: &str, part: &str, message: String, forbidden: bool| {
            let off = jaq_core::load::span(code, part).start;
            let (filter, offset) = match ranges
                .iter()
                .position(|&(s, e)| off >= s && off <= e && e > s)
            {
                Some(i) => (i, off - ranges[i].0),
                None => (usize::MAX, 0),
            };
            FilterError {
                filter,
                offset,
                message,
                forbidden,
            }
        };
        let outside = |message: String| FilterError {
            filter: usize::MAX,
            offset: 0,
            message: format!("cbf module: {message}"),
            forbidden: false,
        };
        let arena = Arena::default();
        let modules = match loader().load(
            &arena,
            File {
                code: code.as_str(),
                path: "main".to_string(),
            },
        ) {
            Ok(m) => m,
            Err(errs) => {
                return Err(errs
                    .iter()
                    .map(|(file, e)| {
                        let (part, msg) = load_error(e);
                        if file.path == "main" {
                            locate(&code, part, msg, false)
                        } else {
                            outside(msg)
                        }
                    })
                    .collect());
            }
        };
        let names = globals(nph);
        let funs = sandboxed_funs().chain(super::engine::side::natives::<D>());
        let compiled = jaq_core::Compiler::default()
            .with_funs(funs)
            .with_global_vars(names.iter().map(|s| s.as_str()))
            .compile(modules);
        match compiled {
            Ok(filter) => Ok(Program {
                filter,
                nph,
                len: texts.len(),
            }),
            Err(errs) => Err(errs
                .into_iter()
                .flat_map(|(file, es)| {
                    let in_main = file.path == "main";
                    es.into_iter()
                        .map(move |(part, undef)| (in_main, part, undef))
                })
                .map(|(in_main, part, undef)| {
                    let why = forbidden_reason(part);
                    let msg = match why {
                        Some(why) => format!(
                            "`{part}` is not available to a mapping ({why}): a mapping reads \
                             only the plan, its configuration and data files"
                        ),
                        None => format!("undefined {} `{}`", undef.as_str(), part),
                    };
                    if in_main {
                        locate(&code, part, msg, why.is_some())
                    } else {
                        outside(msg)
                    }
                })
                .collect()),
        }
    }

    /// Number of filters in the program.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the program holds no filter.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Run filter `fid` on `input`; `phs` are the values of `$__ph_0…`. Returns every output
    /// (errors as `Err(message)`).
    pub fn run(
        &self,
        fid: usize,
        input: Val,
        g: &Globals,
        per: &PerResource,
        phs: &[Val],
    ) -> Vec<Result<Val, String>> {
        let mut vars = Vec::with_capacity(FIXED_GLOBALS.len() + self.nph);
        vars.push(g.root.clone());
        vars.push(g.idx.clone());
        vars.push(g.all.clone());
        vars.push(per.unknown.clone());
        vars.push(per.config.clone());
        vars.push(per.modprefix.clone());
        vars.push(per.modconfig.clone());
        vars.push(Val::from(fid as isize));
        for i in 0..self.nph {
            vars.push(phs.get(i).cloned().unwrap_or(Val::Null));
        }
        let ctx = Ctx::<D>::new(&self.filter.lut, Vars::new(vars));
        let _budget = super::limits::enter(fid);
        self.filter
            .id
            .run((ctx, input))
            .take(MAX_OUTPUTS)
            .map(|r| {
                r.map_err(|e| match e.get_err() {
                    Ok(err) => err.to_string(),
                    // `halt`, `halt_error`: never the process's exit
                    Err(exn) => match exn.get_halt() {
                        Ok(code) => super::limits::stop(super::limits::Breach::Halt(code)),
                        Err(_) => "internal jq exception".to_string(),
                    },
                })
            })
            .collect()
    }
}

/// The most outputs of one filter run that are kept.
pub const MAX_OUTPUTS: usize = 10_000;

/// Convert a JSON value into jaq's value type (once per document).
pub fn to_val(v: &serde_json::Value) -> Val {
    use serde_json::Value as J;
    match v {
        J::Null => Val::Null,
        J::Bool(b) => Val::Bool(*b),
        J::Number(n) => match n.as_i64() {
            Some(i) if isize::try_from(i).is_ok() => Val::Num(jaq_json::Num::Int(i as isize)),
            _ => match n.as_f64() {
                Some(f) if n.is_f64() => Val::Num(jaq_json::Num::Float(f)),
                _ => {
                    let t = n.to_string();
                    Val::Num(
                        jaq_json::Num::from_str_radix(&t, 10)
                            .unwrap_or_else(|| jaq_json::Num::from_dec_str(&t)),
                    )
                }
            },
        },
        J::String(s) => Val::utf8_str(s.as_bytes().to_vec()),
        J::Array(a) => Val::Arr(a.iter().map(to_val).collect::<Vec<_>>().into()),
        J::Object(o) => Val::obj(
            o.iter()
                .map(|(k, v)| (Val::utf8_str(k.as_bytes().to_vec()), to_val(v)))
                .collect(),
        ),
    }
}

/// Convert a jaq value to JSON.
pub fn to_json(v: &Val) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        Val::Null => J::Null,
        Val::Bool(b) => J::Bool(*b),
        Val::Num(_) => num(v)
            .and_then(serde_json::Number::from_f64)
            .map(J::Number)
            .unwrap_or(J::Null),
        Val::TStr(_) | Val::BStr(_) => J::String(str_of(v).unwrap_or_default()),
        Val::Arr(a) => J::Array(a.iter().map(to_json).collect()),
        Val::Obj(o) => J::Object(
            o.iter()
                .map(|(k, v)| (str_of(k).unwrap_or_else(|| k.to_string()), to_json(v)))
                .collect(),
        ),
    }
}

/// The number a value holds (numbers, and strings that parse as numbers).
pub fn num(v: &Val) -> Option<f64> {
    match v {
        Val::Num(n) => match n {
            jaq_json::Num::Int(i) => Some(*i as f64),
            jaq_json::Num::Float(f) => Some(*f),
            other => other.to_string().parse().ok(),
        },
        Val::TStr(_) | Val::BStr(_) => str_of(v)?.trim().parse().ok(),
        _ => None,
    }
}

/// The text of a string value, borrowed (`None` for non-strings and invalid UTF-8).
pub fn str_ref(v: &Val) -> Option<&str> {
    match v {
        Val::TStr(b) | Val::BStr(b) => std::str::from_utf8(b).ok(),
        _ => None,
    }
}

/// The text of a string value.
pub fn str_of(v: &Val) -> Option<String> {
    match v {
        Val::TStr(b) | Val::BStr(b) => Some(match std::str::from_utf8(b) {
            Ok(s) => s.to_owned(),
            Err(_) => String::from_utf8_lossy(b).into_owned(),
        }),
        _ => None,
    }
}

/// A string value.
pub fn s(x: &str) -> Val {
    Val::utf8_str(x.as_bytes().to_vec())
}

/// Text of a value as Carbonifer's placeholders print it: strings raw, the rest as JSON.
pub fn display(v: &Val) -> String {
    match str_of(v) {
        Some(s) => s,
        None => match num(v) {
            Some(n) if n.fract() == 0.0 && n.abs() < 1e15 => format!("{}", n as i64),
            Some(n) => format!("{n}"),
            None => v.to_string(),
        },
    }
}

/// Index an object value by a string key (without building the key as a value).
pub fn get<'a>(v: &'a Val, key: &str) -> Option<&'a Val> {
    match v {
        Val::Obj(o) => o.get(&StrKey(key)),
        _ => None,
    }
}

/// A string key looked up in a jaq object as the text value it equals: it hashes as jaq_json
/// hashes a string value (`5`, then the bytes as a slice; `jq_get_finds_every_key` checks
/// it against the real thing).
struct StrKey<'k>(&'k str);

impl std::hash::Hash for StrKey<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u8(5);
        self.0.as_bytes().hash(state);
    }
}

impl indexmap::Equivalent<Val> for StrKey<'_> {
    fn equivalent(&self, key: &Val) -> bool {
        match key {
            Val::TStr(b) | Val::BStr(b) => b.as_ref() == self.0.as_bytes(),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every definition and native a mapping can call, reviewed: a jaq upgrade that adds one
    /// (a new way to reach the environment, files or the clock) changes this snapshot, and the
    /// review decides whether it joins [`FORBIDDEN`].
    #[test]
    fn the_sandbox_defines_only_reviewed_names() {
        let mut names: Vec<String> = jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs())
            .filter(|d| !is_forbidden(d.name))
            .map(|d| format!("def {}/{}", d.name, d.args.len()))
            .chain(sandboxed_funs().map(|f| format!("native {}/{}", f.0, f.1.len())))
            .collect();
        names.sort();
        names.dedup();
        for n in &names {
            let name = n.split([' ', '/']).nth(1).unwrap_or_default();
            assert!(!is_forbidden(name), "{n}");
        }
        insta::assert_snapshot!(names.join("\n"));
        // and each forbidden name is really gone: a filter naming it does not compile
        for name in FORBIDDEN {
            let errs = Program::compile(&[name], 0).err().expect(name);
            assert!(errs.iter().any(|e| e.forbidden), "{name}: {errs:?}");
        }
        let errs = Program::compile(&["$ENV"], 0).err().expect("$ENV");
        assert!(errs.iter().any(|e| e.forbidden), "{errs:?}");
    }

    fn g(root: &str) -> Globals {
        let root = to_val(&serde_json::from_str(root).unwrap());
        Globals {
            root,
            idx: to_val(&serde_json::json!({})),
            all: to_val(&serde_json::json!([])),
        }
    }

    #[test]
    fn one_program_many_filters_and_globals() {
        let p = Program::compile(
            &[
                ".a",
                "$__root.x",
                "$__ph_0.v + 1",
                "\"k=\\($__ph_1)\"",
                "cbf::extract_disk_key",
            ],
            2,
        )
        .unwrap();
        let glob = g(r#"{"x": 7}"#);
        let inp = to_val(&serde_json::json!({"a": 3}));
        let run = |fid, input: Val, phs: &[Val]| {
            p.run(fid, input, &glob, &PerResource::default(), phs)
                .into_iter()
                .map(|r| to_json(&r.unwrap()))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(0, inp.clone(), &[]), vec![serde_json::json!(3.0)]);
        assert_eq!(run(1, inp.clone(), &[]), vec![serde_json::json!(7.0)]);
        let ph0 = to_val(&serde_json::json!({"v": 1}));
        assert_eq!(run(2, inp.clone(), &[ph0]), vec![serde_json::json!(2.0)]);
        assert_eq!(
            run(3, inp.clone(), &[Val::Null, s("x y")]),
            vec![serde_json::json!("k=x y")]
        );
        assert_eq!(run(4, s("/dev/xvdb"), &[]), vec![serde_json::json!("b")]);
        assert_eq!(run(4, s("/dev/nvme1n1"), &[]), vec![serde_json::json!("a")]);
    }

    /// The borrowed key finds what a built string value finds, and nothing else.
    #[test]
    fn jq_get_finds_every_key() {
        let keys = [
            "",
            "a",
            "values",
            "machine_type",
            "ünïcödé",
            "with space",
            "x\"y",
        ];
        let obj = Val::obj(
            keys.iter()
                .enumerate()
                .map(|(i, k)| (s(k), Val::from(i as isize)))
                .chain([(Val::from(7isize), Val::Null)])
                .collect(),
        );
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(get(&obj, k), Some(&Val::from(i as isize)), "{k:?}");
        }
        assert_eq!(get(&obj, "missing"), None);
        assert_eq!(get(&obj, "7"), None);
        assert_eq!(get(&Val::Null, "a"), None);
    }

    #[test]
    fn compile_errors_name_the_filter() {
        let errs = Program::compile(&[".a", "size", ".b"], 0).err().unwrap();
        assert_eq!(errs[0].filter, 1);
        assert_eq!(errs[0].offset, 0);
        assert!(!errs[0].forbidden);
        assert!(
            errs[0].message.contains("undefined filter `size`"),
            "{errs:?}"
        );
        let e = parse_one(".a | (.b").unwrap_err();
        assert!(e.1.contains("syntax error"), "{e:?}");
    }

    #[test]
    fn custom_types() {
        let p = Program::compile(
            &[
                "cbf::gcp_custom_vcpus",
                "cbf::gcp_custom_memory_mb",
                "cbf::sql_custom_vcpus",
                "cbf::aws_zone_to_region",
                "cbf::zone_to_region",
            ],
            0,
        )
        .unwrap();
        let glob = g("{}");
        let one = |fid, x: &str| {
            p.run(fid, s(x), &glob, &PerResource::default(), &[])
                .into_iter()
                .next()
                .map(|r| to_json(&r.unwrap()))
        };
        assert_eq!(one(0, "n2-custom-8-32768"), Some(serde_json::json!(8.0)));
        assert_eq!(one(1, "custom-4-16384"), Some(serde_json::json!(16384.0)));
        assert_eq!(one(0, "n2-standard-4"), None);
        assert_eq!(one(2, "db-custom-2-7680"), Some(serde_json::json!(2.0)));
        assert_eq!(one(3, "eu-west-1a"), Some(serde_json::json!("eu-west-1")));
        assert_eq!(
            one(3, "us-gov-west-1b"),
            Some(serde_json::json!("us-gov-west-1"))
        );
        assert_eq!(
            one(4, "europe-west1-b"),
            Some(serde_json::json!("europe-west1"))
        );
        assert_eq!(
            one(4, "us-central1"),
            Some(serde_json::json!("us-central1"))
        );
    }
}
