//! Property tests through the library (`app::show`), every output format:
//! (a) any JSON value in a change's before/after/after_unknown/sensitivity renders without a
//! panic; (b) a string marked sensitive never appears in any output; (c) nesting near the
//! 128-level limit renders or errors cleanly.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use carbon_show::app;
use carbon_show::cli::{CarbonOptions, ColorMode, Format, Input, Options};
use carbon_show::mapping::{self, Engine};
use carbon_show::render::HumanOptions;
use carbon_show::schema::Schemas;
use proptest::prelude::*;
use serde_json::{Value, json};

static ENGINE: LazyLock<Engine> = LazyLock::new(|| {
    mapping::load(&[], &|name: &str| {
        carbon_show::data::json_file(name).map(Cow::Borrowed)
    })
    .expect("embedded mappings")
});

/// A schema for the resource types the documents use, so that both the schema path and the
/// implied-schema path of the differ run.
static SCHEMAS: LazyLock<Schemas> = LazyLock::new(|| {
    let block = json!({
        "attributes": {
            "id": {"type": "string", "computed": true},
            "instance_type": {"type": "string", "optional": true},
            "machine_type": {"type": "string", "optional": true},
            "region": {"type": "string", "optional": true},
            "tags": {"type": ["map", "string"], "optional": true},
            "password": {"type": "string", "optional": true, "sensitive": true},
            "list": {"type": ["list", "string"], "optional": true},
            "set": {"type": ["set", "number"], "optional": true},
            "obj": {"type": ["object", {"a": "string", "b": "number"}], "optional": true},
            "dyn": {"type": "dynamic", "optional": true},
            "nested": {"nested_type": {"nesting_mode": "list", "attributes": {
                "a": {"type": "string", "optional": true}}}, "optional": true}
        },
        "block_types": {
            "root_block_device": {"nesting_mode": "list", "block": {"attributes": {
                "volume_size": {"type": "number", "optional": true},
                "volume_type": {"type": "string", "optional": true}}}},
            "disk": {"nesting_mode": "set", "block": {"attributes": {
                "size": {"type": "number", "optional": true}}}},
            "one": {"nesting_mode": "single", "block": {"attributes": {
                "x": {"type": "string", "optional": true}}}},
            "by_key": {"nesting_mode": "map", "block": {"attributes": {
                "x": {"type": "string", "optional": true}}}}
        }
    });
    let resource = json!({"version": 0, "block": block});
    let doc = json!({
        "format_version": "1.0",
        "provider_schemas": {
            "registry.opentofu.org/hashicorp/aws": {"resource_schemas": {"aws_instance": resource}},
            "registry.opentofu.org/hashicorp/google": {"resource_schemas": {"google_compute_instance": resource}}
        }
    });
    Schemas::parse(Path::new("schemas.json"), doc.to_string().as_bytes()).expect("schema")
});

const TYPES: &[(&str, &str)] = &[
    ("aws_instance", "registry.opentofu.org/hashicorp/aws"),
    (
        "google_compute_instance",
        "registry.opentofu.org/hashicorp/google",
    ),
    ("null_resource", "registry.opentofu.org/hashicorp/null"),
];

const ACTIONS: &[&[&str]] = &[
    &["create"],
    &["delete"],
    &["update"],
    &["no-op"],
    &["read"],
    &["delete", "create"],
    &["create", "delete"],
    &["forget"],
    &["bogus"],
];

/// Keys the mappings and the schema read, and a few awkward ones.
const KEYS: &[&str] = &[
    "id",
    "instance_type",
    "machine_type",
    "region",
    "zone",
    "availability_zone",
    "tags",
    "password",
    "list",
    "set",
    "obj",
    "dyn",
    "nested",
    "root_block_device",
    "disk",
    "one",
    "by_key",
    "volume_size",
    "size",
    "count",
    "",
    "a b",
    "\"q\"",
    "ünï",
    "x\ny",
    "${x}",
];

fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "",
            "t2.micro",
            "n1-standard-1",
            "us-east-1",
            "europe-west1-b",
            "true",
            "1",
            "null",
            "a\nb\n",
            "\u{1b}[31mred",
            "<<EOT\nx\nEOT",
            "\"quoted\"",
            "tab\there",
            "💥",
        ])
        .prop_map(str::to_string),
        prop::collection::vec(prop::char::any(), 0..8).prop_map(|c| c.into_iter().collect()),
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from), // NaN/inf become null
        prop::sample::select(vec!["1e400", "-0", "0.1", "12345678901234567890123"])
            .prop_map(|n| serde_json::from_str(n).unwrap_or(Value::Null)),
        string().prop_map(Value::String),
    ]
}

/// Any JSON value, nested objects and arrays up to depth 4.
fn json_value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(prop::sample::select(KEYS.to_vec()), inner, 0..6).prop_map(
                |m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            ),
        ]
    })
}

/// A value, mostly an object (what resources hold), sometimes anything.
fn object_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => prop::collection::btree_map(prop::sample::select(KEYS.to_vec()), json_value(), 0..8)
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
        1 => json_value(),
    ]
}

/// One change's five values.
#[derive(Debug, Clone)]
struct Values {
    before: Value,
    after: Value,
    after_unknown: Value,
    before_sensitive: Value,
    after_sensitive: Value,
}

fn values() -> impl Strategy<Value = Values> {
    (
        object_value(),
        object_value(),
        prop_oneof![
            Just(json!({})),
            Just(json!(true)),
            Just(json!(false)),
            json_value()
        ],
        prop_oneof![Just(json!({})), Just(json!(true)), json_value()],
        prop_oneof![Just(json!({})), Just(json!(true)), json_value()],
    )
        .prop_map(
            |(before, after, after_unknown, before_sensitive, after_sensitive)| Values {
                before,
                after,
                after_unknown,
                before_sensitive,
                after_sensitive,
            },
        )
}

fn change(actions: &[&str], v: &Values) -> Value {
    json!({
        "actions": actions,
        "before": v.before,
        "after": v.after,
        "after_unknown": v.after_unknown,
        "before_sensitive": v.before_sensitive,
        "after_sensitive": v.after_sensitive,
    })
}

/// A plan with one resource change of `type_index`, its planned and prior values (so the
/// mappings see them too) and one output change.
fn plan_doc(type_index: usize, actions: &[&str], res: &Values, out: &Values) -> Value {
    plan_doc_at(type_index, ("", ""), actions, res, out)
}

/// Module prefixes and index suffixes of addresses, well formed or not.
const PREFIXES: &[&str] = &[
    "",
    "module.a.",
    "module.a[\"x.y\"].",
    "module.a[0].module.b.",
    "module.",
    "module..",
    "module.\"open.",
    "module.a.module.a.",
];
const SUFFIXES: &[&str] = &["", "[0]", "[\"k.e\\\"y\"]", "[", ".", " (deposed object x)"];

fn plan_doc_at(
    type_index: usize,
    (prefix, suffix): (&str, &str),
    actions: &[&str],
    res: &Values,
    out: &Values,
) -> Value {
    let (type_, provider) = TYPES[type_index % TYPES.len()];
    let address = format!("{prefix}{type_}.r{suffix}");
    let resource = |values: &Value, sensitive: &Value| {
        json!({
            "address": address, "mode": "managed", "type": type_, "name": "r",
            "provider_name": provider, "values": values, "sensitive_values": sensitive,
        })
    };
    json!({
        "format_version": "1.2",
        "terraform_version": "1.9.0",
        "resource_changes": [{
            "address": address, "mode": "managed", "type": type_, "name": "r",
            "provider_name": provider, "change": change(actions, res),
        }],
        "resource_drift": [{
            "address": address, "mode": "managed", "type": type_, "name": "r",
            "provider_name": provider, "change": change(&["update"], res),
        }],
        "relevant_attributes": [{"resource": address, "attribute": []}],
        "output_changes": {"o": change(actions, out)},
        "planned_values": {"root_module": {"resources": [resource(&res.after, &res.after_sensitive)]}},
        "prior_state": {"values": {"root_module": {"resources": [resource(&res.before, &res.before_sensitive)]}}},
        "configuration": {"provider_config": {"aws": {"name": "aws", "expressions": {"region": {"constant_value": "eu-west-1"}}}}},
    })
}

/// A state document holding the same values.
fn state_doc(type_index: usize, v: &Values, output_sensitive: bool) -> Value {
    let (type_, provider) = TYPES[type_index % TYPES.len()];
    json!({
        "format_version": "1.0",
        "values": {
            "outputs": {"o": {"sensitive": output_sensitive, "value": v.before, "type": "dynamic"}},
            "root_module": {"resources": [{
                "address": format!("{type_}.r"), "mode": "managed", "type": type_, "name": "r",
                "provider_name": provider, "values": v.after, "sensitive_values": v.after_sensitive,
            }]}
        }
    })
}

/// Renders `doc` in every format (human without carbon with and without the schema; every
/// format with carbon). `Err` when it does not parse; panics propagate.
fn render_all(doc: &[u8]) -> Result<Vec<String>, carbon_show::Error> {
    let path = Path::new("prop.json");
    let plan = carbon_show::plan::parse(path, doc)?;
    let mut outputs = Vec::new();
    let opts = |format, carbon: bool| Options {
        input: Input::File(PathBuf::from("prop.json")),
        inputs: Vec::new(),
        schemas: None,
        flavor_auto: false,
        color: ColorMode::Never,
        human: HumanOptions::default(),
        format,
        carbon: carbon.then(CarbonOptions::default),
        comment: Default::default(),
    };
    let runs: [(Format, bool, Option<&Schemas>); 6] = [
        (Format::Human, false, None),
        (Format::Human, false, Some(&*SCHEMAS)),
        (Format::Human, true, Some(&*SCHEMAS)),
        (Format::Json, true, None),
        (Format::Markdown, true, Some(&*SCHEMAS)),
        (Format::ImpactFramework, true, None),
    ];
    for (format, carbon, schemas) in runs {
        let mut out = Vec::new();
        let engine = carbon.then_some(&*ENGINE);
        app::show(
            &opts(format, carbon),
            path,
            doc,
            &plan,
            schemas,
            engine,
            &mut out,
        )?;
        outputs.push(String::from_utf8_lossy(&out).into_owned());
    }
    Ok(outputs)
}

/// `n`, or `PROPTEST_CASES` when set (for a longer hunt).
fn cases(n: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n)
}

/// Where a secret sits inside a value: object keys or array indexes.
#[derive(Debug, Clone)]
enum Seg {
    Key(&'static str),
    Index(usize),
}

/// Attributes the embedded mappings read (a secret there reaches the carbon report).
const MAPPED: &[&str] = &[
    "instance_type",
    "machine_type",
    "region",
    "zone",
    "availability_zone",
    "size",
    "type",
    "location",
    "vm_size",
    "tier",
    "node_type",
];

fn path() -> impl Strategy<Value = Vec<Seg>> {
    prop_oneof![
        1 => prop::sample::select(MAPPED.to_vec()).prop_map(|k| vec![Seg::Key(k)]),
        2 => any_path(),
    ]
}

fn any_path() -> impl Strategy<Value = Vec<Seg>> {
    prop::collection::vec(
        prop_oneof![
            3 => prop::sample::select(KEYS.to_vec()).prop_map(Seg::Key),
            1 => (0usize..3).prop_map(Seg::Index),
        ],
        0..4,
    )
}

/// Puts `leaf` at `path` inside `base` (replacing what is in the way).
fn insert(base: Value, path: &[Seg], leaf: Value) -> Value {
    let Some((first, rest)) = path.split_first() else {
        return leaf;
    };
    match first {
        Seg::Key(k) => {
            let mut map = match base {
                Value::Object(m) => m,
                _ => serde_json::Map::new(),
            };
            let child = map.remove(*k).unwrap_or(Value::Null);
            map.insert(k.to_string(), insert(child, rest, leaf));
            Value::Object(map)
        }
        Seg::Index(i) => {
            let mut items = match base {
                Value::Array(a) => a,
                _ => Vec::new(),
            };
            while items.len() <= *i {
                items.push(json!("filler"));
            }
            let child = std::mem::take(&mut items[*i]);
            items[*i] = insert(child, rest, leaf);
            Value::Array(items)
        }
    }
}

/// The sensitivity mask marking everything at `path` (the whole value when `path` is empty).
fn mask(path: &[Seg]) -> Value {
    insert(json!({}), path, json!(true))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(96), failure_persistence: None, ..ProptestConfig::default() })]

    /// (a) Any values in a resource change and an output change: every format renders.
    #[test]
    fn any_values_render_in_every_format(
        type_index in 0usize..3,
        actions in prop::sample::select(ACTIONS.to_vec()),
        res in values(),
        out in values(),
        prefix in prop::sample::select(PREFIXES.to_vec()),
        suffix in prop::sample::select(SUFFIXES.to_vec()),
        known in any::<bool>(),
    ) {
        let mut res = res;
        if known {
            // A machine type the data knows, so that resources are estimated and every
            // carbon format (the Impact Framework manifest above all) has figures to write.
            for v in [&mut res.before, &mut res.after] {
                if let Value::Object(m) = v {
                    m.entry("instance_type").or_insert(json!("t3.micro"));
                    m.entry("machine_type").or_insert(json!("n1-standard-1"));
                    m.entry("zone").or_insert(json!("europe-west1-b"));
                }
            }
        }
        let doc = plan_doc_at(type_index, (prefix, suffix), actions, &res, &out).to_string();
        let _ = render_all(doc.as_bytes());
        let state = state_doc(type_index, &res, false).to_string();
        let _ = render_all(state.as_bytes());
    }

    /// (a') Any value where the mapping engine looks for resources, configuration and
    /// variables (a hand-written or hostile document): mapping skips what is not there and
    /// never fails, and every format still renders.
    #[test]
    fn any_shape_where_the_mappings_look(
        section in prop::sample::select(vec![
            "planned_values", "prior_state", "configuration", "variables", "values",
        ]),
        path in prop::sample::select(vec![
            "", "root_module", "values", "values.root_module", "root_module.resources",
            "root_module.child_modules", "values.root_module.resources",
            "root_module.module_calls",
        ]),
        v in json_value(),
    ) {
        let mut inner = v;
        for seg in path.split('.').filter(|s| !s.is_empty()).collect::<Vec<_>>().into_iter().rev() {
            inner = json!({ seg: inner });
        }
        let doc = json!({
            "format_version": "1.2",
            "resource_changes": [{"address": "aws_instance.a", "mode": "managed",
                "type": "aws_instance", "name": "a",
                "provider_name": "registry.terraform.io/hashicorp/aws",
                "change": {"actions": ["create"], "after": {"instance_type": "t3.micro"}}}],
            section: inner,
        })
        .to_string();
        let _ = ENGINE.map_text(&doc);
        let _ = render_all(doc.as_bytes());
    }

    /// (b) A string marked sensitive (as a whole, or at any path above it) never appears.
    #[test]
    fn sensitive_strings_never_appear(
        type_index in 0usize..3,
        actions in prop::sample::select(ACTIONS.to_vec()),
        hex in "[0-9a-f]{12}",
        base in object_value(),
        other in object_value(),
        at in path(),
        cut in 0usize..5,
        side in 0usize..3,
        res in values(),
    ) {
        let secret = format!("SECRET-{hex}");
        let at_cut = &at[..cut.min(at.len())];
        let with_secret = insert(base, &at, json!(secret));
        let marked = mask(at_cut);
        // side 0: after, 1: before, 2: both.
        let (before, before_sensitive) = if side >= 1 {
            (with_secret.clone(), marked.clone())
        } else {
            (other.clone(), res.before_sensitive.clone())
        };
        let (after, after_sensitive) = if side != 1 {
            (with_secret.clone(), marked.clone())
        } else {
            (other.clone(), res.after_sensitive.clone())
        };
        let v = Values { before, after, after_unknown: res.after_unknown.clone(), before_sensitive, after_sensitive };
        // The same values in the output change, and the state document's resource/output.
        let doc = plan_doc(type_index, actions, &v, &v).to_string();
        let state_v = Values { before: with_secret.clone(), after: with_secret, after_unknown: json!({}), before_sensitive: json!({}), after_sensitive: marked };
        let state = state_doc(type_index, &state_v, true).to_string();
        for doc in [doc, state] {
            if let Ok(outputs) = render_all(doc.as_bytes()) {
                for text in outputs {
                    prop_assert!(!text.contains(&hex), "secret leaked:\n{text}\nfrom {doc}");
                }
            }
        }
    }
}

fn nested(depth: usize, kind: usize) -> Value {
    let mut v = json!("deep");
    for i in 0..depth {
        v = match (kind + i) % 3 {
            0 => json!([v]),
            1 => json!({ "k": v }),
            _ => json!({ "tags": [v, 1] }),
        };
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(24), failure_persistence: None, ..ProptestConfig::default() })]

    /// (c) Values nested to (and past) the 128-level limit render, or fail with a JSON error.
    #[test]
    fn deep_nesting_renders_or_errors(
        depth in 100usize..135,
        kind in 0usize..3,
        where_ in 0usize..5,
        actions in prop::sample::select(ACTIONS.to_vec()),
    ) {
        let deep = nested(depth, kind);
        let mut v = Values { before: json!({}), after: json!({}), after_unknown: json!({}), before_sensitive: json!({}), after_sensitive: json!({}) };
        match where_ {
            0 => v.after = json!({ "dyn": deep }),
            1 => v.before = json!({ "dyn": deep }),
            2 => v.after_unknown = json!({ "dyn": deep }),
            3 => v.after_sensitive = json!({ "dyn": deep }),
            _ => { v.after = json!({ "dyn": deep.clone() }); v.after_sensitive = json!({ "dyn": deep }); }
        }
        // serde_json's own writer has no depth limit; the document text goes past 128 for
        // the deepest cases, which must then be a JSON error.
        let doc = plan_doc(0, actions, &v, &v).to_string();
        match render_all(doc.as_bytes()) {
            Ok(_) => {}
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(!msg.contains("deep"), "{msg}");
            }
        }
    }
}
