//! Mapping speed: a synthetic 30,000-resource plan (built from real resource shapes), parse vs map.

use carbon_show::mapping::{self, Engine};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::borrow::Cow;
use std::path::Path;

// the allocator of the `carbon-show` binary
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../tests/support/lookup_plan.rs"]
mod lookup_plan;

fn td(p: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/mapping")
        .join(p)
}

/// Resource shapes: the Carbonifer test plan's and the mixed-provider fixture's, plus AWS ones.
fn shapes() -> Vec<Value> {
    let mut out = Vec::new();
    for f in ["carbonifer/plans/plan.json", "mixed_modules.json"] {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(td(f)).unwrap()).unwrap();
        fn walk(m: &Value, out: &mut Vec<Value>) {
            for r in m["resources"].as_array().into_iter().flatten() {
                out.push(r.clone());
            }
            for c in m["child_modules"].as_array().into_iter().flatten() {
                walk(c, out);
            }
        }
        walk(&doc["planned_values"]["root_module"], &mut out);
    }
    out
}

/// `blocks` resource blocks (cycling through the shapes) × `count` instances each, with their
/// `resource_changes` entries as `tofu show -json` writes them.
fn synthetic_plan(blocks: usize, count: usize) -> Value {
    let shapes = shapes();
    let mut resources = Vec::with_capacity(blocks * count);
    let mut changes = Vec::with_capacity(blocks * count);
    let mut config = Vec::with_capacity(blocks);
    for b in 0..blocks {
        let shape = &shapes[b % shapes.len()];
        let ty = shape["type"].as_str().unwrap();
        let name = format!("r{b}");
        for i in 0..count {
            let mut r = shape.clone();
            r["address"] = json!(format!("{ty}.{name}[{i}]"));
            r["name"] = json!(name);
            r["index"] = json!(i);
            changes.push(json!({"address": r["address"], "mode": "managed", "type": ty, "name": name, "index": i,
                "provider_name": r["provider_name"], "change": {"actions": ["create"], "before": null, "after": r["values"], "after_unknown": {"id": true}}}));
            resources.push(r);
        }
        let key = shape["provider_name"]
            .as_str()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap()
            .to_string();
        config.push(json!({"address": format!("{ty}.{name}"), "mode": "managed", "type": ty, "name": name, "provider_config_key": key, "expressions": {}}));
    }
    json!({
        "format_version": "1.2",
        "planned_values": {"root_module": {"resources": resources}},
        "resource_changes": changes,
        "configuration": {
            "provider_config": {
                "aws": {"name": "aws", "expressions": {"region": {"constant_value": "eu-west-1"}}},
                "google": {"name": "google", "expressions": {"region": {"constant_value": "europe-west1"}}}
            },
            "root_module": {"resources": config}
        }
    })
}

fn engine() -> Engine {
    let dirs = vec![td("carbonifer/data"), td("data")];
    let resolver = mapping::dir_resolver(dirs, |_| None::<Cow<'static, str>>);
    mapping::load(&[], &*resolver).expect("shipped mappings load")
}

fn bench(c: &mut Criterion) {
    let doc = synthetic_plan(300, 100);
    let bytes = serde_json::to_vec(&doc).unwrap();
    let e = engine();
    let mapped = e.map(&doc);
    assert_eq!(
        mapped.after.len() + mapped.ignored.len() + mapped.unsupported.len(),
        30_000
    );
    if std::env::var("TIMING").is_ok() {
        for _ in 0..5 {
            let t = std::time::Instant::now();
            let v = serde_json::from_slice::<Value>(&bytes).unwrap();
            drop(v);
            let p = t.elapsed();
            let t = std::time::Instant::now();
            let m = e.map(&doc);
            drop(m);
            eprintln!("parse {p:?} map {:?}", t.elapsed());
        }
        return;
    }
    let mut g = c.benchmark_group("mapping_30k");
    g.sample_size(10);
    g.bench_function("parse_plan_json", |b| {
        b.iter(|| serde_json::from_slice::<Value>(&bytes).unwrap())
    });
    g.bench_function("map_plan", |b| b.iter(|| e.map(&doc)));
    // every instance its own block (no count): nothing to share between instances
    let unique = synthetic_plan(30_000, 1);
    let unique_bytes = serde_json::to_vec(&unique).unwrap();
    g.bench_function("parse_plan_json_unique", |b| {
        b.iter(|| serde_json::from_slice::<Value>(&unique_bytes).unwrap())
    });
    g.bench_function("map_plan_unique", |b| b.iter(|| e.map(&unique)));
    g.finish();
    // lookups across the document (references to count templates, referrers, AMIs in
    // prior_state): linear only while they are answered from indexes; 3,000 and 30,000
    // resources, parsed from bytes as the binary does
    let mut g = c.benchmark_group("mapping_lookups");
    g.sample_size(10);
    for units in [300, 3_000] {
        let text = serde_json::to_string(&lookup_plan::lookup_plan(units)).unwrap();
        g.bench_function(format!("parse_and_map_{}", units * 10), |b| {
            b.iter(|| e.map_text(&text))
        });
    }
    g.finish();
    c.bench_function("load_shipped_mappings", |b| b.iter(engine));
}

criterion_group!(benches, bench);
criterion_main!(benches);
