//! The mapping engine's memo: a block's instances are mapped once when what their mapping reads is
//! equal, and apart when it is not.

use super::*;

/// The shipped mappings and a user's file `path` holding `yaml`.
pub(super) fn builtin_and(path: &str, yaml: &str) -> Engine {
    let mut files = mapping::builtin_files();
    files.push(MappingFile {
        path: path.into(),
        folder: None,
        text: yaml.into(),
    });
    Engine::from_files(&files, &test_data).unwrap()
}

/// Maps a document and says how many resources were mapped (the others copied from an equal
/// instance).
pub(super) fn map_counting(e: &Engine, doc: &Value) -> (mapping::MappedPlan, u64) {
    let (m, stats) = e.map_sections_stats(&mapping::Sections::from_text(&doc.to_string()));
    (m, stats.get().0)
}

/// `count` instances that differ only in a member their mapping never reads (`tags`) are
/// mapped once, each keeping its own address.
#[test]
fn instances_differing_only_in_unread_tags_map_once() {
    let e = builtin();
    let inst = |i: usize| {
        let mut r = res(
            &format!("aws_instance.node[{i}]"),
            json!({"ami": "ami-1", "instance_type": "t3.micro", "tags": {"Name": format!("node-{i}")}}),
        );
        r["index"] = json!(i);
        r["sensitive_values"] = json!({"tags": {}});
        r
    };
    let (m, mapped) = map_counting(&e, &simple((0..5).map(inst).collect()));
    assert_eq!(mapped, 1, "one instance mapped, four copied");
    let addrs: Vec<&str> = m.after.iter().map(|r| r.address.as_str()).collect();
    assert_eq!(
        addrs,
        (0..5)
            .map(|i| format!("aws_instance.node[{i}]"))
            .collect::<Vec<_>>()
    );
    for r in &m.after {
        assert_eq!(
            (r.machine_type.as_deref(), r.vcpus, r.region.as_deref()),
            (Some("t3.micro"), Some(2.0), Some("eu-west-1")),
            "{}",
            r.address
        );
    }
}

/// The memo keyed on what a mapping reads keeps apart the instances that differ in it: a
/// member of `values` it reads (the type, the zone, the root disk), the sensitivity mask, the
/// values unknown until apply, the module instance: each is mapped on its own, with its own
/// figures.
#[test]
fn instances_differing_in_what_their_mapping_reads_map_apart() {
    let e = builtin();
    let inst = |addr: &str, values: Value| {
        let mut r = res(addr, values);
        r["index"] = json!(0);
        r
    };
    let base = || json!({"instance_type": "t3.micro", "tags": {"Name": "x"}});
    let with = |k: &str, v: Value| {
        let mut b = base();
        b[k] = v;
        b
    };
    let mut masked = inst("aws_instance.w[5]", base());
    masked["sensitive_values"] = json!({"instance_type": true});
    let doc = plan_doc(
        vec![
            inst("aws_instance.w[0]", base()),
            inst(
                "aws_instance.w[1]",
                with("instance_type", json!("m5.large")),
            ),
            inst(
                "aws_instance.w[2]",
                with("availability_zone", json!("us-east-1a")),
            ),
            inst(
                "aws_instance.w[3]",
                with("root_block_device", json!([{"volume_size": 100}])),
            ),
            inst("aws_instance.u[0]", json!({"tags": {"Name": "x"}})),
            inst("aws_instance.u[1]", json!({"tags": {"Name": "x"}})),
            masked,
            inst("module.m[\"a\"].aws_instance.w[0]", base()),
            inst("module.m[\"a\"].aws_instance.w[1]", base()),
            inst("module.m[\"b\"].aws_instance.w[0]", base()),
            inst("module.m[\"b\"].aws_instance.w[1]", base()),
            inst("aws_instance.w[6]", with("tags", json!({"Name": "y"}))),
        ],
        vec![],
        vec![],
        vec![("aws_instance.u[1]", json!({"instance_type": true}))],
    );
    let (m, mapped) = map_counting(&e, &doc);
    // w[6] is w[0] but for its tags, and each module instance's w[1] its w[0]; every other
    // one is mapped on its own
    assert_eq!(mapped, 9);
    let by = |a: &str| find(&m.after, a);
    assert_eq!(by("aws_instance.w[0]").vcpus, Some(2.0));
    assert_eq!(by("aws_instance.w[1]").vcpus, Some(2.0));
    assert_eq!(by("aws_instance.w[1]").memory_gb, Some(8.0));
    assert_eq!(by("aws_instance.w[0]").memory_gb, Some(1.0));
    assert_eq!(by("aws_instance.w[2]").region.as_deref(), Some("us-east-1"));
    assert_eq!(by("aws_instance.w[0]").region.as_deref(), Some("eu-west-1"));
    assert_eq!(by("aws_instance.w[3]").storage[0].size_gb, 100.0);
    assert_eq!(by("aws_instance.w[0]").storage[0].size_gb, 8.0);
    assert!(by("aws_instance.w[0]").assumed.is_empty());
    assert_ne!(
        by("aws_instance.u[0]").warnings,
        by("aws_instance.u[1]").warnings,
        "unknown until apply"
    );
    assert!(by("aws_instance.w[5]").tainted.machine_type);
    assert!(!by("aws_instance.w[0]").tainted.machine_type);
    assert_eq!(
        by("aws_instance.w[6]"),
        &MappedResource {
            address: "aws_instance.w[6]".into(),
            ..by("aws_instance.w[0]").clone()
        }
    );
}

/// A user's mapping says nothing of what it reads: its instances are compared whole, so one
/// that reads `tags` gives each instance its own figures.
#[test]
fn a_users_mapping_reading_tags_maps_each_instance() {
    let y = r#"
compute_resource:
  aws_tagged:
    paths: cbf::all_select("type"; "aws_tagged")
    properties:
      machine_type:
        - paths: '.values.tags.Name'
"#;
    let e = builtin_and("tagged.yaml", y);
    let inst = |i: usize| {
        let mut r = res(
            &format!("aws_tagged.t[{i}]"),
            json!({"size": 1, "tags": {"Name": format!("n{i}")}}),
        );
        r["index"] = json!(i);
        r
    };
    let (m, mapped) = map_counting(&e, &simple((0..3).map(inst).collect()));
    assert_eq!(mapped, 3);
    let types: Vec<Option<&str>> = m.after.iter().map(|r| r.machine_type.as_deref()).collect();
    assert_eq!(types, vec![Some("n0"), Some("n1"), Some("n2")]);
}

/// Equal figures are held once (issue 28: each of a 50k-instance block's instances held its
/// own copy of its representative's figures, 26 MB): instances share their representative's
/// body, and so does a resource of another block whose figures are the same; a change to one
/// resource's figures copies its body first and leaves the others' alone.
#[test]
fn equal_figures_are_held_once_and_a_change_to_one_leaves_the_others_alone() {
    let e = builtin();
    let inst = |addr: &str, ty: &str, i: usize| {
        let mut r = res(
            addr,
            json!({"ami": "ami-1", "instance_type": ty, "tags": {"Name": format!("n-{i}")}}),
        );
        r["index"] = json!(i);
        r
    };
    let doc = simple(vec![
        inst("aws_instance.node[0]", "t3.micro", 0),
        inst("aws_instance.node[1]", "t3.micro", 1),
        inst("aws_instance.node[2]", "t3.micro", 2),
        inst("aws_instance.other[0]", "t3.micro", 0),
        inst("aws_instance.big[0]", "m5.large", 0),
    ]);
    let (mut m, _) = map_counting(&e, &doc);
    let body = |m: &mapping::MappedPlan, a: &str| std::sync::Arc::as_ptr(&find(&m.after, a).body);
    assert_eq!(
        body(&m, "aws_instance.node[0]"),
        body(&m, "aws_instance.node[2]")
    );
    assert_eq!(
        body(&m, "aws_instance.node[0]"),
        body(&m, "aws_instance.other[0]")
    );
    assert_ne!(
        body(&m, "aws_instance.node[0]"),
        body(&m, "aws_instance.big[0]")
    );
    let one = m
        .after
        .iter_mut()
        .find(|r| r.address == "aws_instance.node[1]")
        .unwrap();
    one.region = Some("us-west-2".into());
    let region = |a: &str| find(&m.after, a).region.clone();
    assert_eq!(region("aws_instance.node[1]").as_deref(), Some("us-west-2"));
    assert_eq!(region("aws_instance.node[0]").as_deref(), Some("eu-west-1"));
    assert_eq!(region("aws_instance.node[2]").as_deref(), Some("eu-west-1"));
    assert_ne!(
        body(&m, "aws_instance.node[0]"),
        body(&m, "aws_instance.node[1]")
    );
    assert_eq!(
        body(&m, "aws_instance.node[0]"),
        body(&m, "aws_instance.node[2]")
    );
}
