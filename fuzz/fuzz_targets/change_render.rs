//! Structured variant of `plan_render`: the input is a JSON array `[before, after,
//! after_unknown, before_sensitive, after_sensitive, replace_paths]` (missing items are
//! null), put into one `aws_instance` change (and its planned/prior values, so the mappings
//! read it too) and into an output change, then rendered in every format. Mutations of
//! these values stay valid plans far more often than mutations of a whole document.

#![no_main]

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use carbon_show::app;
use carbon_show::cli::{CarbonOptions, ColorMode, Format, Input, Options};
use carbon_show::mapping::{self, Engine};
use carbon_show::render::HumanOptions;
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

static ENGINE: LazyLock<Engine> = LazyLock::new(|| {
    mapping::load(&[], &|name: &str| {
        carbon_show::data::json_file(name).map(Cow::Borrowed)
    })
    .expect("embedded mappings load")
});

struct Sink;

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

const ACTIONS: &[&[&str]] = &[
    &["create"],
    &["update"],
    &["delete"],
    &["delete", "create"],
    &["create", "delete"],
    &["no-op"],
    &["read"],
];

fuzz_target!(|data: &[u8]| {
    let Ok(Value::Array(items)) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let item = |i: usize| items.get(i).cloned().unwrap_or(Value::Null);
    let actions = ACTIONS[data.len() % ACTIONS.len()];
    let change = json!({
        "actions": actions,
        "before": item(0), "after": item(1), "after_unknown": item(2),
        "before_sensitive": item(3), "after_sensitive": item(4), "replace_paths": item(5),
    });
    let rc = |values: Value, sensitive: Value| {
        json!({"address": "aws_instance.r", "mode": "managed", "type": "aws_instance",
               "name": "r", "provider_name": "registry.opentofu.org/hashicorp/aws",
               "values": values, "sensitive_values": sensitive})
    };
    let doc = json!({
        "format_version": "1.2",
        "resource_changes": [{"address": "aws_instance.r", "mode": "managed",
            "type": "aws_instance", "name": "r",
            "provider_name": "registry.opentofu.org/hashicorp/aws", "change": change}],
        "resource_drift": [{"address": "aws_instance.r", "mode": "managed",
            "type": "aws_instance", "name": "r",
            "provider_name": "registry.opentofu.org/hashicorp/aws", "change": change}],
        "output_changes": {"o": change},
        "planned_values": {"root_module": {"resources": [rc(item(1), item(4))]}},
        "prior_state": {"values": {"root_module": {"resources": [rc(item(0), item(3))]}}},
    });
    let bytes = doc.to_string().into_bytes();
    let path = Path::new("fuzz.json");
    let Ok(plan) = carbon_show::plan::parse(path, &bytes) else {
        return;
    };
    for (format, carbon) in [
        (Format::Human, false),
        (Format::Human, true),
        (Format::Json, true),
        (Format::Markdown, true),
        (Format::ImpactFramework, true),
    ] {
        let opts = Options {
            input: Input::File(PathBuf::from("fuzz.json")),
            inputs: Vec::new(),
            schemas: None,
            flavor_auto: false,
            color: ColorMode::Always,
            human: HumanOptions::default(),
            format,
            carbon: carbon.then(CarbonOptions::default),
            comment: Default::default(),
        };
        let engine = carbon.then_some(&*ENGINE);
        let _ = app::show(&opts, path, &bytes, &plan, None, engine, &mut Sink);
    }
});
