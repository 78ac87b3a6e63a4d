//! Native evaluation of the simplest filters (`.values.zone`, `$__ph_0.values.x[0]?`, `"\($__ph_1)"`,
//! optionally piped into `cbf::zone_to_region` & co.), bypassing jaq: most filters of a mapping
//! are plain paths, and running them natively makes mapping a large plan cheap.
//!
//! Semantics match jq for our use: a path step on a value of the wrong type is an error in jq,
//! and errors and nulls are both "no value" to the engine, so both give nothing here.

use super::jq;
use super::region;
use jaq_json::Val;

#[derive(Debug, Clone, PartialEq)]
enum Head {
    Input,
    Ph(usize),
    /// The literal `{}`.
    EmptyObject,
}

#[derive(Debug, Clone, PartialEq)]
enum Seg {
    Field(Val),
    Index(usize),
    Iter,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Tail {
    GcpZoneRegion,
    AwsZoneRegion,
    AzureLocation,
    /// `cbf::extract_disk_key` (a device name's letter key); anything but a string gives
    /// nothing (jq's `test` fails on it). jaq compiles the function's regexes on every call:
    /// natively, mapping the 50k-resource bench plan takes 0.4 s less CPU.
    DiskKey,
}

/// A filter the engine can run without jaq.
#[derive(Debug, Clone, PartialEq)]
pub struct Fast {
    head: Head,
    segs: Vec<Seg>,
    tail: Option<Tail>,
}

fn ph_index(s: &str) -> Option<(usize, &str)> {
    let rest = s.strip_prefix("$__ph_")?;
    let n = rest.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 {
        return None;
    }
    Some((rest[..n].parse().ok()?, &rest[n..]))
}

/// Recognise a (placeholder-rewritten) filter text that is a plain path.
pub fn parse(text: &str) -> Option<Fast> {
    let mut t = text.trim();
    let mut tail = None;
    if let Some((l, r)) = t.rsplit_once('|') {
        tail = Some(match r.trim() {
            "cbf::zone_to_region" => Tail::GcpZoneRegion,
            "cbf::aws_zone_to_region" => Tail::AwsZoneRegion,
            "cbf::region_of_location" => Tail::AzureLocation,
            "cbf::extract_disk_key" => Tail::DiskKey,
            _ => return None,
        });
        t = l.trim();
    }
    if t == "{}" && tail.is_none() {
        return Some(Fast {
            head: Head::EmptyObject,
            segs: vec![],
            tail: None,
        });
    }
    // the whole filter is one placeholder inside a string: its text
    if let Some(inner) = t.strip_prefix("\"\\(").and_then(|s| s.strip_suffix(")\"")) {
        let (i, rest) = ph_index(inner)?;
        return rest.is_empty().then_some(Fast {
            head: Head::Ph(i),
            segs: vec![],
            tail,
        });
    }
    let (head, mut rest) = match ph_index(t) {
        Some((i, rest)) => (Head::Ph(i), rest),
        None if t.starts_with('.') => (Head::Input, t),
        None => return None,
    };
    if rest == "." {
        rest = "";
    }
    let mut segs = Vec::new();
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'.' if b.get(i + 1) == Some(&b'[') => i += 1,
            b'.' => {
                let start = i + 1;
                let mut j = start;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                    j += 1;
                }
                if j == start || b[start].is_ascii_digit() {
                    return None;
                }
                segs.push(Seg::Field(jq::s(&rest[start..j])));
                i = j;
            }
            b'[' => {
                let close = rest[i..].find(']')? + i;
                let inner = &rest[i + 1..close];
                if inner.is_empty() {
                    segs.push(Seg::Iter);
                } else if inner.bytes().all(|c| c.is_ascii_digit()) {
                    segs.push(Seg::Index(inner.parse().ok()?));
                } else {
                    return None;
                }
                i = close + 1;
            }
            b'?' => i += 1,
            _ => return None,
        }
    }
    Some(Fast { head, segs, tail })
}

impl Fast {
    /// The one value of a path without `[]`, read in place (`None`: null, missing or a
    /// step on the wrong type).
    fn single<'v>(&self, input: &'v Val, phs: &'v [Val]) -> Option<&'v Val> {
        let mut cur = match self.head {
            Head::Input => input,
            Head::Ph(i) => phs.get(i)?,
            Head::EmptyObject => return None,
        };
        for seg in &self.segs {
            cur = match (seg, cur) {
                (Seg::Field(k), Val::Obj(o)) => o.get(k)?,
                (Seg::Index(n), Val::Arr(a)) => a.get(*n)?,
                _ => return None,
            };
        }
        (!matches!(cur, Val::Null)).then_some(cur)
    }

    /// The first output of [`Fast::run`], without collecting the others.
    pub fn first(&self, input: &Val, phs: &[Val]) -> Option<Val> {
        if self.head == Head::EmptyObject || self.has_iter() {
            return self.run(input, phs).into_iter().next();
        }
        let v = self.single(input, phs)?;
        match self.tail {
            None => Some(v.clone()),
            Some(Tail::DiskKey) if jq::str_ref(v).is_none() => None,
            Some(t) => Some(match jq::str_ref(v) {
                Some(s) => jq::s(&tail(t, s)),
                None => match jq::str_of(v) {
                    Some(s) => jq::s(&tail(t, &s)),
                    None => v.clone(),
                },
            }),
        }
    }

    /// Outputs (nulls and errors dropped) on `input` with placeholder values `phs`.
    pub fn run(&self, input: &Val, phs: &[Val]) -> Vec<Val> {
        if self.head != Head::EmptyObject && !self.has_iter() {
            // one value at most: no list per step
            let Some(v) = self.single(input, phs) else {
                return vec![];
            };
            return match self.tail {
                None => vec![v.clone()],
                Some(Tail::DiskKey) if jq::str_ref(v).is_none() => vec![],
                Some(t) => match jq::str_of(v) {
                    Some(s) => vec![jq::s(&tail(t, &s))],
                    None => vec![v.clone()],
                },
            };
        }
        let start = match self.head {
            Head::Input => input.clone(),
            Head::Ph(i) => phs.get(i).cloned().unwrap_or(Val::Null),
            Head::EmptyObject => Val::obj(Default::default()),
        };
        let mut cur = vec![start];
        for seg in &self.segs {
            let mut next = Vec::with_capacity(cur.len());
            for v in cur {
                match (seg, &v) {
                    (_, Val::Null) if !matches!(seg, Seg::Iter) => next.push(Val::Null),
                    (Seg::Field(k), Val::Obj(o)) => {
                        next.push(o.get(k).cloned().unwrap_or(Val::Null))
                    }
                    (Seg::Index(n), Val::Arr(a)) => {
                        next.push(a.get(*n).cloned().unwrap_or(Val::Null))
                    }
                    (Seg::Iter, Val::Arr(a)) => next.extend(a.iter().cloned()),
                    (Seg::Iter, Val::Obj(o)) => next.extend(o.values().cloned()),
                    _ => {}
                }
            }
            cur = next;
        }
        cur.retain(|v| !matches!(*v, Val::Null));
        if let Some(t) = self.tail {
            if t == Tail::DiskKey {
                cur.retain(|v| jq::str_ref(v).is_some());
            }
            for v in cur.iter_mut() {
                if let Some(s) = jq::str_of(v) {
                    *v = jq::s(&tail(t, &s));
                }
            }
        }
        cur
    }
}

/// A `cbf::` function of a string, as its jq definition in the cbf module gives it.
pub(crate) fn tail(t: Tail, s: &str) -> String {
    match t {
        Tail::GcpZoneRegion => gcp_region(s),
        Tail::AwsZoneRegion => aws_region(s),
        // `ascii_downcase | gsub(" "; "")`
        Tail::AzureLocation => s.to_ascii_lowercase().replace(' ', ""),
        Tail::DiskKey => disk_key(s),
    }
}

/// `cbf::zone_to_region`: `europe-west1-b` → `europe-west1`, anything else unchanged.
fn gcp_region(z: &str) -> String {
    let p: Vec<&str> = z.split('-').collect();
    if p.len() == 3
        && p[2].len() == 1
        && p[2].bytes().all(|c| c.is_ascii_lowercase())
        && p[1].ends_with(|c: char| c.is_ascii_digit())
    {
        format!("{}-{}", p[0], p[1])
    } else {
        z.to_string()
    }
}

/// `cbf::extract_disk_key`: `/dev/sdf` and `/dev/xvdf` → `f`, `/dev/nvme3n1` → `c` (the
/// letter after `` ` `` by the namespace's number), anything else unchanged. The regexes of
/// the jq definition, spelled out: `^/dev/(?:sd|xvd)([a-z]+)` and `^/dev/nvme([0-2]?[0-9])n`.
fn disk_key(name: &str) -> String {
    let letters = name
        .strip_prefix("/dev/sd")
        .or_else(|| name.strip_prefix("/dev/xvd"))
        .map(|r| &r[..r.bytes().take_while(u8::is_ascii_lowercase).count()])
        .filter(|l| !l.is_empty());
    if let Some(l) = letters {
        return l.to_string();
    }
    if let Some(r) = name.strip_prefix("/dev/nvme") {
        let b = r.as_bytes();
        let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
        // `[0-2]?` is tried with a digit first, then without
        let n = if b.first().is_some_and(|c| (b'0'..=b'2').contains(c))
            && digit(1)
            && b.get(2) == Some(&b'n')
        {
            Some(&r[..2])
        } else if digit(0) && b.get(1) == Some(&b'n') {
            Some(&r[..1])
        } else {
            None
        };
        if let Some(n) = n.and_then(|n| n.parse::<u32>().ok()) {
            return char::from_u32(96 + n).map_or_else(String::new, String::from);
        }
    }
    name.to_string()
}

/// `cbf::aws_zone_to_region`: `eu-west-1a` → `eu-west-1`.
fn aws_region(z: &str) -> String {
    region::aws_zone_region(z)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_only_plain_paths() {
        assert!(parse(".values.machine_type").is_some());
        assert!(parse(".values.boot_disk[]?.initialize_params[0]?").is_some());
        assert!(parse("$__ph_0.values.x").is_some());
        assert!(parse("\"\\($__ph_2)\"").is_some());
        assert!(parse(".values.zone | cbf::zone_to_region").is_some());
        assert!(parse(".").is_some());
        assert!(parse(".values | select(.a)").is_none());
        assert!(parse("\"x\\($__ph_0)\"").is_none());
        assert!(parse(".a.b // 3").is_none());
        assert!(parse(".values.zone | ascii_downcase").is_none());
        assert!(parse("(.a)").is_none());
    }

    /// A check that `filter` read as a plain path gives, on an input, what jaq gives.
    fn agrees_with_jq(filter: &str) -> impl Fn(serde_json::Value) {
        let p = jq::Program::compile(&[filter], 0).unwrap();
        let fast = parse(filter).unwrap();
        let filter = filter.to_string();
        move |input| {
            let g = jq::Globals {
                root: Val::Null,
                idx: Val::Null,
                all: Val::Null,
            };
            let v = jq::to_val(&input);
            let want: Vec<_> = p
                .run(0, v.clone(), &g, &Default::default(), &[])
                .into_iter()
                .filter_map(Result::ok)
                .map(|v| jq::to_json(&v))
                .collect();
            let got: Vec<_> = fast.run(&v, &[]).iter().map(jq::to_json).collect();
            assert_eq!(got, want, "{filter} on {input}");
        }
    }

    /// The native `cbf::extract_disk_key` gives what the jq definition in the cbf module gives.
    #[test]
    fn disk_key_agrees_with_the_jq_definition() {
        let agree = agrees_with_jq(".device_name | cbf::extract_disk_key");
        for name in [
            "/dev/sda1",
            "/dev/sdf",
            "/dev/xvdb",
            "/dev/xvdaa",
            "/dev/sd",
            "/dev/sd1",
            "/dev/nvme0n1",
            "/dev/nvme3n1",
            "/dev/nvme1n",
            "/dev/nvme10n1",
            "/dev/nvme05n1",
            "/dev/nvme29n1",
            "/dev/nvme30n1",
            "/dev/nvme",
            "/dev/nvmen1",
            "xvdf",
            "",
            "/dev/hda",
        ] {
            agree(json!({ "device_name": name }));
        }
    }

    /// `cbf::region_of_location` is `ascii_downcase | gsub(" "; "")` in jq: the plain path
    /// lowercased every letter (`ÉAST US` → `éastus`), jq only the ASCII ones (`Éastus`).
    #[test]
    fn a_location_with_non_ascii_capitals_was_lowercased_unlike_jq() {
        let agree = agrees_with_jq(".l | cbf::region_of_location");
        for l in ["West Europe", "ÉAST US", "Straße Nord", "", "İSTANBUL"] {
            agree(json!({ "l": l }));
        }
    }

    #[test]
    fn runs_like_jq() {
        let v = jq::to_val(
            &json!({"values": {"zone": "europe-west1-b", "d": [{"s": 1}, {"s": 2}, {}], "n": null}}),
        );
        let run = |f: &str| {
            parse(f)
                .unwrap()
                .run(&v, &[])
                .iter()
                .map(jq::to_json)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            run(".values.zone | cbf::zone_to_region"),
            vec![json!("europe-west1")]
        );
        assert_eq!(run(".values.d[].s"), vec![json!(1.0), json!(2.0)]);
        assert_eq!(run(".values.d[5].s"), Vec::<serde_json::Value>::new());
        assert_eq!(run(".values.n[]?"), Vec::<serde_json::Value>::new());
        assert_eq!(run(".values.zone.x"), Vec::<serde_json::Value>::new());
        assert_eq!(gcp_region("us-central1"), "us-central1");
        // a device name that is not a string gives nothing, as jq's `test` fails on it
        let d = jq::to_val(&json!({"device_name": 3}));
        assert!(
            parse(".device_name | cbf::extract_disk_key")
                .unwrap()
                .run(&d, &[])
                .is_empty()
        );
        // the native version agrees with the jq one in the cbf module
        let p = jq::Program::compile(&[".values.zone | cbf::zone_to_region"], 0).unwrap();
        let g = jq::Globals {
            root: Val::Null,
            idx: Val::Null,
            all: Val::Null,
        };
        for z in ["europe-west1-b", "us-central1", "asia-east1-a", "x"] {
            let out = p.run(
                0,
                jq::to_val(&json!({"values": {"zone": z}})),
                &g,
                &Default::default(),
                &[],
            );
            assert_eq!(
                jq::str_of(out[0].as_ref().unwrap()).unwrap(),
                gcp_region(z),
                "{z}"
            );
        }
    }
}

/// Split `<plain path> | <rest>` at the first top-level pipe.
pub fn split_prefix(text: &str) -> Option<(Fast, &str)> {
    let b = text.as_bytes();
    let (mut depth, mut in_str, mut i) = (0i32, false, 0usize);
    while i < b.len() {
        match b[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b'(' | b'[' | b'{' if !in_str => depth += 1,
            b')' | b']' | b'}' if !in_str => depth -= 1,
            b'|' if !in_str && depth == 0 => {
                let (l, r) = (&text[..i], &text[i + 1..]);
                let f = parse(l)?;
                return (f.tail.is_none()).then_some((f, r.trim()));
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Whether a filter can depend on nothing but its input (no globals, no placeholders).
pub fn is_pure(text: &str) -> bool {
    ![
        "$__",
        "cbf::all_select",
        "cbf::root",
        "cbf::config",
        "cbf::by_address",
        "cbf::ref",
        "cbf::referrers",
        "cbf::unknown",
        "input",
        "$ENV",
        "env",
    ]
    .iter()
    .any(|p| text.contains(p))
}

/// Whether `rest` gives nothing on a null input whatever else holds (`select(. != null) …`).
pub fn empty_on_null(rest: &str) -> bool {
    let r = rest.trim_start();
    r.starts_with("select(. != null)") || r.starts_with("select(. != null and ")
}

/// `cbf::ref(<plain path>)`: the path, to test on the configuration block before running jq.
pub fn ref_arg(text: &str) -> Option<Fast> {
    let inner = text.trim().strip_prefix("cbf::ref(")?.strip_suffix(')')?;
    let f = parse(inner)?;
    (f.head == Head::Input && f.tail.is_none()).then_some(f)
}

impl Fast {
    /// Whether the path iterates (`[]`): it may then give several values.
    pub fn has_iter(&self) -> bool {
        self.segs.contains(&Seg::Iter)
    }

    /// Outputs including nulls (for prefixes whose nulls still feed the rest of a filter).
    pub fn run_keep_null(&self, input: &Val, phs: &[Val]) -> Vec<Val> {
        let start = match self.head {
            Head::Input => input.clone(),
            Head::Ph(i) => phs.get(i).cloned().unwrap_or(Val::Null),
            Head::EmptyObject => Val::obj(Default::default()),
        };
        let mut cur = vec![start];
        for seg in &self.segs {
            let mut next = Vec::with_capacity(cur.len());
            for v in cur {
                match (seg, &v) {
                    (Seg::Iter, Val::Null) => {}
                    (_, Val::Null) => next.push(Val::Null),
                    (Seg::Field(k), Val::Obj(o)) => {
                        next.push(o.get(k).cloned().unwrap_or(Val::Null))
                    }
                    (Seg::Index(n), Val::Arr(a)) => {
                        next.push(a.get(*n).cloned().unwrap_or(Val::Null))
                    }
                    (Seg::Iter, Val::Arr(a)) => next.extend(a.iter().cloned()),
                    (Seg::Iter, Val::Obj(o)) => next.extend(o.values().cloned()),
                    _ => {}
                }
            }
            cur = next;
        }
        cur
    }
}

/// A `rest` simple enough to run natively on each value of a split filter's prefix.
#[derive(Debug, Clone, PartialEq)]
pub enum Pred {
    /// `select(length > 0)`
    NonEmpty,
    /// `select(type == "array" and length > 0)`
    NonEmptyArray,
    /// `select(. != null and . != "")`
    NonBlank,
    /// `select(.<field> != null)`
    FieldNotNull(Val),
    /// `select(.<field> == null or .<field> == "")`
    FieldBlank(Val),
}

/// Recognise a native `rest`.
pub fn pred(rest: &str) -> Option<Pred> {
    let r: String = rest.split_whitespace().collect::<Vec<_>>().join(" ");
    match r.as_str() {
        "select(length > 0)" => return Some(Pred::NonEmpty),
        "select(type == \"array\" and length > 0)" => return Some(Pred::NonEmptyArray),
        "select(. != null and . != \"\")" => return Some(Pred::NonBlank),
        _ => {}
    }
    let ident = |s: &str| {
        !s.is_empty()
            && s.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
            && !s.as_bytes()[0].is_ascii_digit()
    };
    if let Some(f) = r
        .strip_prefix("select(.")
        .and_then(|x| x.strip_suffix(" != null)"))
    {
        return ident(f).then(|| Pred::FieldNotNull(jq::s(f)));
    }
    if let Some(inner) = r
        .strip_prefix("select(.")
        .and_then(|x| x.strip_suffix(" == \"\")"))
    {
        let (a, b) = inner.split_once(" == null or .")?;
        return (ident(a) && a == b).then(|| Pred::FieldBlank(jq::s(a)));
    }
    None
}

fn length(v: &Val) -> f64 {
    match v {
        Val::Null => 0.0,
        Val::Arr(a) => a.len() as f64,
        Val::Obj(o) => o.len() as f64,
        Val::TStr(_) | Val::BStr(_) => jq::str_of(v).map_or(0, |s| s.chars().count()) as f64,
        Val::Num(_) => jq::num(v).unwrap_or(0.0).abs(),
        Val::Bool(_) => f64::NAN,
    }
}

impl Pred {
    /// Whether `select(...)` keeps `v` (a value jq would raise an error on is dropped too).
    pub fn keeps(&self, v: &Val) -> bool {
        let field = |k: &Val| match v {
            Val::Obj(o) => Some(o.get(k).cloned().unwrap_or(Val::Null)),
            Val::Null => Some(Val::Null),
            _ => None,
        };
        match self {
            Pred::NonEmpty => length(v) > 0.0,
            Pred::NonEmptyArray => matches!(v, Val::Arr(a) if !a.is_empty()),
            Pred::NonBlank => !matches!(*v, Val::Null) && jq::str_of(v).as_deref() != Some(""),
            Pred::FieldNotNull(k) => field(k).is_some_and(|f| f != Val::Null),
            Pred::FieldBlank(k) => {
                field(k).is_some_and(|f| f == Val::Null || jq::str_of(&f).as_deref() == Some(""))
            }
        }
    }
}

#[cfg(test)]
mod pred_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn native_selects_agree_with_jq() {
        let cases = [
            "select(length > 0)",
            "select(type == \"array\" and length > 0)",
            "select(. != null and . != \"\")",
            "select(.allocated_storage != null)",
            "select(.source == null or .source == \"\")",
        ];
        let inputs = [
            json!(null),
            json!([]),
            json!([1]),
            json!(""),
            json!("x"),
            json!({}),
            json!({"allocated_storage": 5, "source": ""}),
            json!({"source": "s"}),
            json!(3),
        ];
        let texts: Vec<&str> = cases.to_vec();
        let p = jq::Program::compile(&texts, 0).unwrap();
        let g = jq::Globals {
            root: Val::Null,
            idx: Val::Null,
            all: Val::Null,
        };
        for (i, c) in cases.iter().enumerate() {
            let pr = pred(c).unwrap_or_else(|| panic!("{c}"));
            for inp in &inputs {
                let v = jq::to_val(inp);
                let by_jq = p
                    .run(i, v.clone(), &g, &Default::default(), &[])
                    .into_iter()
                    .any(|r| r.is_ok());
                assert_eq!(pr.keeps(&v), by_jq, "{c} on {inp}");
            }
        }
        assert_eq!(pred("select(.a != null and .b)"), None);
    }
}

#[cfg(test)]
mod first_tests {
    use super::*;
    use serde_json::json;

    fn json_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(json!(null)),
            any::<bool>().prop_map(|b| json!(b)),
            (-5i64..5).prop_map(|n| json!(n)),
            prop::sample::select(vec![
                "",
                "x",
                "us-east-1a",
                "europe-west1-b",
                "/dev/sdb",
                "A b"
            ])
            .prop_map(|s| json!(s)),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
                prop::collection::btree_map(
                    prop::sample::select(vec!["a", "b", "values"]).prop_map(String::from),
                    inner,
                    0..3
                )
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// `Fast::first` is the first output of `Fast::run`, on any value and placeholder.
        #[test]
        fn first_is_the_first_output_of_run(input in json_value(), ph in json_value()) {
            let filters = [
                ".", ".a", ".a.b", ".values.a", ".a[0]", ".a[1]?.b", ".a[]?", ".a[]?.b",
                "$__ph_0", "$__ph_0.a", "\"\\($__ph_0)\"", "{}", ".a | cbf::zone_to_region",
                ".a | cbf::aws_zone_to_region", ".b | cbf::region_of_location",
                ".a | cbf::extract_disk_key", ".a[]? | cbf::zone_to_region",
            ];
            let v = jq::to_val(&input);
            let phs = [jq::to_val(&ph)];
            for f in filters {
                let fast = parse(f).unwrap();
                proptest::prop_assert_eq!(
                    fast.first(&v, &phs),
                    fast.run(&v, &phs).into_iter().next(),
                    "`{}` on {} with {}", f, input, ph
                );
            }
        }
    }
}
