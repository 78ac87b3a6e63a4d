//! The memo across blocks (`engine::across`): resources of different blocks equal in what a
//! shipped mapping reads of them and in their surroundings are mapped once; a difference in
//! the region their provider gives, their module instance, the configuration `cbf::ref`
//! follows, or a user's mapping that reads the name, keeps them apart.

use super::memo::{builtin_and, map_counting};
use super::*;

fn instance(addr: &str, ty: &str, tag: &str) -> Value {
    res(
        addr,
        json!({"ami": "ami-1", "instance_type": ty, "tags": {"Name": tag}}),
    )
}

/// Resources of different blocks (`aws_instance.a`, `.b`…), differing only in their name and
/// in a member their mapping never reads, are mapped once and share one body; another type,
/// size or zone is mapped on its own.
#[test]
fn resources_of_different_blocks_equal_in_what_their_mapping_reads_map_once() {
    let e = builtin();
    let disk = |addr: &str, zone: &str| {
        res(
            addr,
            json!({"machine_type": "e2-small", "zone": zone, "labels": {"n": addr}}),
        )
    };
    let doc = simple(vec![
        instance("aws_instance.a", "t3.micro", "a"),
        instance("aws_instance.b", "t3.micro", "b"),
        instance("aws_instance.c", "t3.micro", "c"),
        instance("aws_instance.big", "m5.large", "d"),
        disk("google_compute_instance.x", "europe-west1-b"),
        disk("google_compute_instance.y", "europe-west1-b"),
        disk("google_compute_instance.z", "us-central1-a"),
    ]);
    let (m, mapped) = map_counting(&e, &doc);
    assert_eq!(mapped, 4, "a, big, x and z mapped; b, c and y copied");
    let body = |a: &str| std::sync::Arc::as_ptr(&find(&m.after, a).body);
    assert_eq!(body("aws_instance.a"), body("aws_instance.c"));
    assert_ne!(body("aws_instance.a"), body("aws_instance.big"));
    assert_eq!(
        body("google_compute_instance.x"),
        body("google_compute_instance.y")
    );
    assert_eq!(
        find(&m.after, "google_compute_instance.z")
            .region
            .as_deref(),
        Some("us-central1")
    );
    assert_eq!(find(&m.after, "aws_instance.big").vcpus, Some(2.0));
    assert_eq!(find(&m.after, "aws_instance.big").memory_gb, Some(8.0));
    // and the figures are those each resource gets mapped alone
    let whole = builtin().without_partial_values();
    assert_eq!(m, whole.map(&doc));
}

/// Equal resources whose surroundings differ keep their own figures: a block whose provider
/// is another region's alias, a block whose `cbf::ref` follows another launch template, and
/// the same block in two module instances each referring to its own template.
#[test]
fn resources_of_different_blocks_keep_apart_what_their_surroundings_change() {
    let e = builtin();
    let lt = |addr: &str, ty: &str| res(addr, json!({"name": addr, "instance_type": ty}));
    let refers = |addr: &str, lt: &str| {
        cfg(
            addr,
            json!({"launch_template": [{"id": {"references": [format!("{lt}.id"), lt]}}]}),
        )
    };
    let from_template = |addr: &str| res(addr, json!({"launch_template": [{"id": null}]}));
    let mut aliased = cfg("aws_instance.west", json!({}));
    aliased["provider_config_key"] = json!("aws.west");
    let mut doc = plan_doc(
        vec![
            instance("aws_instance.home", "t3.micro", "a"),
            instance("aws_instance.west", "t3.micro", "a"),
            from_template("aws_instance.one"),
            from_template("aws_instance.two"),
            lt("aws_launch_template.small", "t3.micro"),
            lt("aws_launch_template.large", "m5.xlarge"),
        ],
        vec![
            cfg("aws_instance.home", json!({})),
            aliased,
            refers("aws_instance.one", "aws_launch_template.small"),
            refers("aws_instance.two", "aws_launch_template.large"),
            cfg("aws_launch_template.small", json!({})),
            cfg("aws_launch_template.large", json!({})),
        ],
        vec![],
        vec![],
    );
    doc["configuration"]["provider_config"]["aws.west"] = json!({"name": "aws", "alias": "west",
        "expressions": {"region": {"constant_value": "us-west-2"}}});
    // one module, two instances, each with its own template of the same address
    let module = |key: &str, ty: &str| {
        let p = format!("module.m[\"{key}\"].");
        (
            res(
                &format!("{p}aws_instance.w"),
                json!({"launch_template": [{"id": null}]}),
            ),
            res(
                &format!("{p}aws_launch_template.t"),
                json!({"name": key, "instance_type": ty}),
            ),
        )
    };
    let (wa, ta) = module("a", "t3.small");
    let (wb, tb) = module("b", "c5.2xlarge");
    doc["planned_values"]["root_module"]["child_modules"] = json!([
        {"address": "module.m[\"a\"]", "resources": [wa, ta]},
        {"address": "module.m[\"b\"]", "resources": [wb, tb]},
    ]);
    doc["configuration"]["root_module"]["module_calls"] = json!({"m": {"module": {"resources": [
        refers("aws_instance.w", "aws_launch_template.t"),
        cfg("aws_launch_template.t", json!({})),
    ]}}});
    let (m, _) = map_counting(&e, &doc);
    let r = |a: &str| {
        let r = find(&m.after, a);
        (r.machine_type.clone(), r.region.clone())
    };
    let some = |t: &str, region: &str| (Some(t.to_string()), Some(region.to_string()));
    assert_eq!(r("aws_instance.home"), some("t3.micro", "eu-west-1"));
    assert_eq!(r("aws_instance.west"), some("t3.micro", "us-west-2"));
    assert_eq!(r("aws_instance.one"), some("t3.micro", "eu-west-1"));
    assert_eq!(r("aws_instance.two"), some("m5.xlarge", "eu-west-1"));
    assert_eq!(
        r("module.m[\"a\"].aws_instance.w"),
        some("t3.small", "eu-west-1")
    );
    assert_eq!(
        r("module.m[\"b\"].aws_instance.w"),
        some("c5.2xlarge", "eu-west-1")
    );
    assert_eq!(m, builtin().without_partial_values().map(&doc));
}

/// A user's mapping says nothing of what it reads: one that reads the resource's name gives
/// each block its own figures, however equal their values.
#[test]
fn a_users_mapping_reading_the_name_maps_each_block() {
    let y = r#"
compute_resource:
  aws_named:
    paths: cbf::all_select("type"; "aws_named")
    properties:
      machine_type:
        - paths: '.name'
"#;
    let e = builtin_and("named.yaml", y);
    let doc = simple(
        ["a", "b", "c"]
            .iter()
            .map(|n| res(&format!("aws_named.{n}"), json!({"size": 1})))
            .collect(),
    );
    let (m, mapped) = map_counting(&e, &doc);
    assert_eq!(mapped, 3);
    let types: Vec<Option<&str>> = m.after.iter().map(|r| r.machine_type.as_deref()).collect();
    assert_eq!(types, vec![Some("a"), Some("b"), Some("c")]);
}

/// Every resource of every fixture document renamed: no shipped mapping's figures change,
/// so none reads a resource's own name (what the memo across blocks rests on; mapped with
/// no memo across blocks and every resource built whole).
#[test]
fn renaming_every_resource_changes_no_figure() {
    fn rename(v: &mut Value, n: &mut usize) {
        match v {
            Value::Object(o) => {
                let is_resource = o.contains_key("address")
                    && o.contains_key("type")
                    && o.get("name").is_some_and(Value::is_string);
                if is_resource {
                    *n += 1;
                    o.insert("name".into(), json!(format!("renamed_{n}")));
                }
                for (k, c) in o.iter_mut() {
                    // (a configuration block's name too; not the expressions' text)
                    if k != "expressions" {
                        rename(c, n);
                    }
                }
            }
            Value::Array(a) => a.iter_mut().for_each(|c| rename(c, n)),
            _ => {}
        }
    }
    fn documents(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                documents(&p, out);
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    let whole = builtin().without_partial_values();
    let mut docs = Vec::new();
    documents(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata"),
        &mut docs,
    );
    docs.sort();
    let (mut compared, mut renamed) = (0, 0);
    for doc in &docs {
        let Ok(mut value) = serde_json::from_slice::<Value>(&std::fs::read(doc).unwrap()) else {
            continue;
        };
        let before = whole.map(&value);
        if before.before.is_empty() && before.after.is_empty() {
            continue;
        }
        let mut n = 0;
        rename(&mut value, &mut n);
        assert_eq!(whole.map(&value), before, "{}", doc.display());
        compared += 1;
        renamed += n;
    }
    assert!(
        compared > 20 && renamed > 500,
        "only {compared} documents, {renamed} resources"
    );
}
