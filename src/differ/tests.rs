use super::*;
use crate::computed::RenderOpts;
use crate::schema::Schemas;
use crate::theme::Theme;

fn v(s: &str) -> Value<'_> {
    serde_json::from_str(s).unwrap()
}

#[test]
fn compare_actions_table() {
    use Action::*;
    let cases = [
        (NoOp, NoOp, NoOp),
        (NoOp, Create, Update),
        (Create, Create, Create),
        (Create, NoOp, Create),
        (Delete, Create, Update),
        (Update, Delete, Update),
    ];
    for (cur, next, want) in cases {
        assert_eq!(compare_actions(cur, next), want, "{cur:?} + {next:?}");
    }
}

#[test]
fn lcs_table() {
    let cases: [(&[i32], &[i32], usize); 4] = [
        (&[], &[1], 0),
        (&[1, 2, 3], &[1, 2, 3], 3),
        (&[1, 2, 3], &[3, 2, 1], 1),
        (&[1, 2, 3, 4], &[0, 2, 4], 2),
    ];
    for (a, b, n) in cases {
        assert_eq!(longest_common_subsequence(a, b).len(), n, "{a:?} {b:?}");
    }
}

fn render_type(before: &str, after: &str, unknown: &str, ty: &str) -> String {
    let (b, a, u) = (v(before), v(after), v(unknown));
    let t: Type = serde_json::from_str(ty).unwrap();
    let change = Change {
        before: &b,
        after: &a,
        before_explicit: false,
        after_explicit: false,
        unknown: Unknown::Value(&u),
        before_sensitive: &NULL,
        after_sensitive: &NULL,
        replace_paths: Matcher::empty(false),
        relevant: Matcher::Always,
        rules: Default::default(),
    };
    let theme = Theme::plain();
    compute_diff_for_type(&change, &t).render_human(0, &RenderOpts::new(&theme))
}

#[test]
fn type_rendering_table() {
    let cases = [
        ("null", r#""a""#, "false", r#""string""#, r#""a""#),
        (r#""a""#, r#""b""#, "false", r#""string""#, r#""a" -> "b""#),
        ("1", "2", "false", r#""number""#, "1 -> 2"),
        (
            r#""a""#,
            "null",
            "true",
            r#""string""#,
            r#""a" -> (known after apply)"#,
        ),
        ("null", "null", "true", r#""string""#, "(known after apply)"),
        (r#""a""#, "null", "false", r#""string""#, r#""a" -> null"#),
        (
            r#"["a","b"]"#,
            r#"["a","c"]"#,
            "false",
            r#"["list","string"]"#,
            "[\n        \"a\",\n      - \"b\",\n      + \"c\",\n    ]",
        ),
        (
            "null",
            r#"{"k":"v"}"#,
            "false",
            r#"["map","string"]"#,
            "{\n      + \"k\" = \"v\"\n    }",
        ),
        (
            r#""{\"a\":1}""#,
            r#""{\"a\":2}""#,
            "false",
            r#""string""#,
            "jsonencode(\n      ~ {\n          ~ a = 1 -> 2\n        }\n    )",
        ),
        (
            r#""a\nb""#,
            r#""a\nc""#,
            "false",
            r#""string""#,
            "<<-EOT\n        a\n      - b\n      + c\n    EOT",
        ),
    ];
    for (b, a, u, t, want) in cases {
        assert_eq!(render_type(b, a, u, t), want, "{b} -> {a} ({t})");
    }
}

#[test]
fn sensitive_never_printed() {
    let (b, a) = (v(r#""secret1""#), v(r#""secret2""#));
    let change = Change {
        before: &b,
        after: &a,
        before_explicit: false,
        after_explicit: false,
        unknown: Unknown::Value(&FALSE),
        before_sensitive: &crate::structured::TRUE,
        after_sensitive: &crate::structured::TRUE,
        replace_paths: Matcher::empty(false),
        relevant: Matcher::Always,
        rules: Default::default(),
    };
    let theme = Theme::plain();
    let out =
        compute_diff_for_type(&change, &Type::String).render_human(0, &RenderOpts::new(&theme));
    assert_eq!(out, "(sensitive value)");
}

#[test]
fn block_with_schema() {
    let schemas = Schemas::parse(
        std::path::Path::new("s"),
        br#"{"provider_schemas":{"p":{"resource_schemas":{"t":{"block":{
            "attributes":{"id":{"type":"string"},"ami":{"type":"string"},"pw":{"type":"string","sensitive":true}},
            "block_types":{"disk":{"nesting_mode":"list","block":{"attributes":{"size":{"type":"number"}}}}}}}}}}}"#,
    )
    .unwrap();
    let block = schemas.block("p", "managed", "t").unwrap();
    let before = v(r#"{"id":"i-1","ami":"a","pw":"x","disk":[{"size":1}]}"#);
    let after = v(r#"{"id":"i-1","ami":"b","pw":"y","disk":[{"size":2}]}"#);
    let change = Change {
        before: &before,
        after: &after,
        before_explicit: false,
        after_explicit: false,
        unknown: Unknown::Value(&NULL),
        before_sensitive: &NULL,
        after_sensitive: &NULL,
        replace_paths: Matcher::empty(false),
        relevant: Matcher::Always,
        rules: Default::default(),
    };
    let theme = Theme::plain();
    let out = compute_diff_for_block(&change, block).render_human(0, &RenderOpts::new(&theme));
    assert_eq!(
        out,
        "{\n      ~ ami = \"a\" -> \"b\"\n        id  = \"i-1\"\n      ~ pw  = (sensitive value)\n\n      ~ disk {\n          ~ size = 1 -> 2\n        }\n    }"
    );
}

#[test]
fn matcher_table() {
    let paths = v(r#"[["a", 0, "b"], ["c"], []]"#);
    let m = Matcher::parse(&paths, false);
    assert!(m.matches(), "the empty path matches here");
    let a = m.child_key("a");
    assert!(!a.matches() && a.matches_partial());
    assert!(a.child_index(0).child_key("b").matches());
    assert!(!a.child_index(1).matches_partial());
    assert!(m.child_key("c").matches());
    // Without propagation, a matched path does not reach the children.
    assert!(!m.child_key("c").child_key("d").matches_partial());
    // Relevant attributes propagate: everything below a match matches.
    let mut rel = Matcher::empty(true);
    let p = v(r#"["c"]"#);
    rel.push(&p);
    assert!(rel.child_key("c").child_key("d").child_index(3).matches());
    // Index steps may be written as strings.
    let s = v(r#"[["1"]]"#);
    assert!(Matcher::parse(&s, false).child_index(1).matches());
    assert!(Matcher::Always.child_key("x").matches());
}

#[test]
fn set_rendering_table() {
    let cases = [
        (
            r#"["a","b"]"#,
            r#"["b","c"]"#,
            "[\n      - \"a\",\n      + \"c\",\n        # (1 unchanged element hidden)\n    ]",
        ),
        ("null", r#"["a"]"#, "[\n      + \"a\",\n    ]"),
        (r#"["a"]"#, "[]", "[\n      - \"a\",\n    ]"),
        ("[]", "[]", "[]"),
    ];
    for (b, a, want) in cases {
        assert_eq!(
            render_type(b, a, "false", r#"["set","string"]"#),
            want,
            "{b} -> {a}"
        );
    }
}

#[test]
fn process_slice_pairs_like_opentofu() {
    let before = ["a", "b", "c"];
    let after = ["a", "x", "c"];
    let mut pairs = Vec::new();
    process_slice(&before, &after, |b, a| pairs.push((b, a)), |_, _| false);
    // a kept, b removed, x added, c kept.
    assert_eq!(pairs, vec![(0, 0), (1, 3), (3, 1), (2, 2)]);
    let mut pairs = Vec::new();
    process_slice(&before, &after, |b, a| pairs.push((b, a)), |_, _| true);
    // With element diffing, b and x are paired as one update.
    assert_eq!(pairs, vec![(0, 0), (1, 1), (2, 2)]);
}

/// One legacy-SDK resource (string attributes only) where `long_name` is `""` on both sides
/// and `blank` goes from `""` to `"x"`, rendered under each flavour's rules.
fn legacy_empty_strings(rules: Rules) -> String {
    let schemas = Schemas::parse(
        std::path::Path::new("s"),
        br#"{"provider_schemas":{"p":{"resource_schemas":{"t":{"block":{
            "attributes":{"id":{"type":"string"},"b":{"type":"string"},
            "long_name":{"type":"string"},"blank":{"type":"string"}}}}}}}}"#,
    )
    .unwrap();
    let block = schemas.block("p", "managed", "t").unwrap();
    let before = v(r#"{"id":"i-1","b":"1","long_name":"","blank":""}"#);
    let after = v(r#"{"id":"i-1","b":"2","long_name":"","blank":"x"}"#);
    let change = Change {
        before: &before,
        after: &after,
        before_explicit: false,
        after_explicit: false,
        unknown: Unknown::Value(&NULL),
        before_sensitive: &NULL,
        after_sensitive: &NULL,
        replace_paths: Matcher::empty(false),
        relevant: Matcher::Always,
        rules,
    };
    let theme = Theme::plain();
    compute_diff_for_block(&change, block).render_human(0, &RenderOpts::new(&theme))
}

#[test]
fn terraform_counts_an_unchanged_empty_string_of_a_legacy_schema_as_hidden() {
    // Terraform: "" is null for the diff, but the attribute is still there: hidden, counted,
    // and its name widens the column. An update from "" prints as an addition.
    let terraform = Rules {
        terraform: true,
        non_legacy: false,
        ..Rules::default()
    };
    assert_eq!(
        legacy_empty_strings(terraform),
        "{\n      ~ b         = \"1\" -> \"2\"\n      + blank     = \"x\"\n        id        = \"i-1\"\n        # (1 unchanged attribute hidden)\n    }"
    );
    // OpenTofu drops an attribute that is "" on both sides altogether.
    assert_eq!(
        legacy_empty_strings(Rules::default()),
        "{\n      ~ b     = \"1\" -> \"2\"\n      + blank = \"x\"\n        id    = \"i-1\"\n    }"
    );
}

#[test]
fn terraform_keeps_empty_strings_in_a_non_legacy_schema() {
    let rules = Rules {
        terraform: true,
        non_legacy: true,
        ..Rules::default()
    };
    assert_eq!(
        legacy_empty_strings(rules),
        "{\n      ~ b         = \"1\" -> \"2\"\n      ~ blank     = \"\" -> \"x\"\n        id        = \"i-1\"\n        # (1 unchanged attribute hidden)\n    }"
    );
}

#[test]
fn terraform_before_1_8_takes_empty_strings_of_any_block_as_null() {
    // Terraform 1.6.6 (before hashicorp/terraform#34740): even a non-legacy schema reads ""
    // in a block's attributes as null, and drops an attribute that is "" on both sides, as
    // OpenTofu does.
    let rules = Rules {
        terraform: true,
        non_legacy: true,
        since: crate::structured::Since::terraform(crate::structured::Version::parse("1.6.6")),
        ..Rules::default()
    };
    assert_eq!(
        legacy_empty_strings(rules),
        "{\n      ~ b     = \"1\" -> \"2\"\n      + blank = \"x\"\n        id    = \"i-1\"\n    }"
    );
}

#[test]
fn terraform_before_1_8_pairs_same_length_lists_by_common_subsequence() {
    let (before, after) = (["a", "b", "c"], ["a", "x", "c"]);
    let mut pairs = Vec::new();
    let process = |b, a| pairs.push((b, a));
    crate::structured::process_slice_terraform(&before, &after, process, |_| false, false);
    assert_eq!(pairs, vec![(0, 0), (1, 3), (3, 1), (2, 2)]);
    let mut pairs = Vec::new();
    let process = |b, a| pairs.push((b, a));
    crate::structured::process_slice_terraform(&before, &after, process, |_| false, true);
    assert_eq!(pairs, vec![(0, 0), (1, 1), (2, 2)]);
}

/// `before -> after` (with `after_unknown`) of one resource of type `t` whose block schema is
/// `block`, rendered under Terraform's rules or OpenTofu's.
fn render_resource(
    block: &str,
    before: &str,
    after: &str,
    unknown: &str,
    terraform: bool,
) -> String {
    let doc = format!(
        r#"{{"provider_schemas":{{"p":{{"resource_schemas":{{"t":{{"block":{block}}}}}}}}}}}"#
    );
    let schemas = Schemas::parse(std::path::Path::new("s"), doc.as_bytes()).unwrap();
    let block = schemas.block("p", "managed", "t").unwrap();
    let (b, a, u) = (v(before), v(after), v(unknown));
    let change = Change {
        before: &b,
        after: &a,
        before_explicit: false,
        after_explicit: false,
        unknown: Unknown::Value(&u),
        before_sensitive: &NULL,
        after_sensitive: &NULL,
        replace_paths: Matcher::empty(false),
        relevant: Matcher::Always,
        rules: Rules {
            terraform,
            non_legacy: false,
            ..Rules::default()
        },
    };
    let theme = Theme::plain();
    let mut opts = RenderOpts::new(&theme);
    opts.terraform = terraform;
    compute_diff_for_block(&change, block).render_human(0, &opts)
}

const WRITE_ONLY_SCHEMA: &str = r#"{"attributes":{
    "id":{"type":"string"},"size":{"type":"number"},
    "pw":{"type":"string","sensitive":true,"write_only":true},
    "conn":{"nested_type":{"nesting_mode":"single","attributes":{
        "user":{"type":"string"},
        "secret":{"type":"string","sensitive":true,"write_only":true}}}}}}"#;

#[test]
fn terraform_hides_a_write_only_attribute_of_an_updated_resource() {
    let before = r#"{"id":"i-1","size":1,"pw":null}"#;
    let after = r#"{"id":"i-1","size":2,"pw":null}"#;
    // Terraform: the write-only attribute is unchanged in an update, so hidden and counted.
    assert_eq!(
        render_resource(WRITE_ONLY_SCHEMA, before, after, "{}", true),
        "{\n        id   = \"i-1\"\n      ~ size = 1 -> 2\n        # (1 unchanged attribute hidden)\n    }"
    );
    // OpenTofu shows it with the resource's action.
    assert_eq!(
        render_resource(WRITE_ONLY_SCHEMA, before, after, "{}", false),
        "{\n        id   = \"i-1\"\n      ~ pw   = (write-only attribute)\n      ~ size = 1 -> 2\n    }"
    );
}

#[test]
fn terraform_write_only_attributes_follow_a_create_or_delete() {
    let value = r#"{"id":"i-1","size":1,"pw":null,"conn":{"user":"u","secret":null}}"#;
    // On create the block attribute says write-only, a nested one (its value marked
    // sensitive) says sensitive; on delete both carry `-> null`.
    let create = render_resource(WRITE_ONLY_SCHEMA, "null", value, "{}", true);
    assert!(
        create.contains("+ pw   = (write-only attribute)\n"),
        "{create}"
    );
    let delete = render_resource(WRITE_ONLY_SCHEMA, value, "null", "{}", true);
    assert!(
        delete.contains("- pw   = (write-only attribute) -> null\n"),
        "{delete}"
    );
    assert!(
        delete.contains("- secret = (write-only attribute) -> null\n"),
        "{delete}"
    );
}

const LIST_BLOCK_SCHEMA: &str = r#"{"attributes":{"id":{"type":"string"}},
    "block_types":{"cpu":{"nesting_mode":"list","block":{"attributes":{
        "cores":{"type":"number"},"threads":{"type":"number"}}}},
        "timeouts":{"nesting_mode":"single","block":{"attributes":{
        "create":{"type":"string"}}}}}}"#;

#[test]
fn terraform_renders_a_list_block_becoming_unknown_as_its_old_blocks_deleted() {
    let before = r#"{"id":"i-1","cpu":[{"cores":1,"threads":2}]}"#;
    let after = r#"{"id":null}"#;
    let unknown = r#"{"id":true,"cpu":true}"#;
    assert_eq!(
        render_resource(LIST_BLOCK_SCHEMA, before, after, unknown, true),
        "{\n      ~ id = \"i-1\" -> (known after apply)\n\n      ~ cpu (known after apply)\n      - cpu {\n          - cores   = 1 -> null\n          - threads = 2 -> null\n        }\n    }"
    );
    // OpenTofu reads the old list as one block without attributes: each shows as unknown.
    assert_eq!(
        render_resource(LIST_BLOCK_SCHEMA, before, after, unknown, false),
        "{\n      ~ id = \"i-1\" -> (known after apply)\n\n      ~ cpu {\n          + cores   = (known after apply)\n          + threads = (known after apply)\n        } -> (known after apply)\n    }"
    );
    // On create Terraform prints the unknown line with the resource's action, in the
    // blocks section.
    assert_eq!(
        render_resource(LIST_BLOCK_SCHEMA, "null", "{}", unknown, true),
        "{\n      + id = (known after apply)\n\n      + cpu (known after apply)\n    }"
    );
}

#[test]
fn an_unknown_single_block_is_diffed_against_its_own_schema() {
    // Regression: the old value of a single block becoming unknown was diffed against the
    // enclosing block's schema (showing `id` inside `timeouts`).
    let before = r#"{"id":"i-1","timeouts":{"create":"10m"}}"#;
    let after = r#"{"id":"i-1"}"#;
    let unknown = r#"{"timeouts":true}"#;
    for terraform in [true, false] {
        assert_eq!(
            render_resource(LIST_BLOCK_SCHEMA, before, after, unknown, terraform),
            "{\n        id = \"i-1\"\n\n      ~ timeouts {\n          ~ create = \"10m\" -> (known after apply)\n        } -> (known after apply)\n    }",
            "terraform: {terraform}"
        );
    }
}

/// `before -> after` of a resource without a schema (the block inferred from the values),
/// under Terraform's rules.
fn render_implied(before: &str, after: &str, unknown: &str) -> String {
    let (b, a, u) = (v(before), v(after), v(unknown));
    let block = crate::schema::implied_block(&[&b, &a, &u]);
    let change = Change {
        before: &b,
        after: &a,
        before_explicit: false,
        after_explicit: false,
        unknown: Unknown::Value(&u),
        before_sensitive: &NULL,
        after_sensitive: &NULL,
        replace_paths: Matcher::empty(false),
        relevant: Matcher::Always,
        rules: Rules {
            terraform: true,
            non_legacy: false,
            ..Rules::default()
        },
    };
    let theme = Theme::plain();
    let mut opts = RenderOpts::new(&theme);
    opts.terraform = true;
    compute_diff_for_block(&change, &block).render_human(0, &opts)
}

#[test]
fn terraform_without_a_schema_takes_a_resource_for_a_legacy_sdk_one() {
    // The google replacement: an SDKv2 provider stored "" for an unset computed string, which
    // Terraform reads as null, so the attribute is created, not updated from null.
    assert_eq!(
        render_implied(
            r#"{"id":"i-1","cpu":""}"#,
            r#"{"id":null}"#,
            r#"{"id":true,"cpu":true}"#
        ),
        "{\n      + cpu = (known after apply)\n      ~ id  = \"i-1\" -> (known after apply)\n    }"
    );
    // An object with an object member (a map block or nested attribute) is beyond the
    // legacy SDK: "" is a value again, and (as Terraform) its old value reads as null.
    assert_eq!(
        render_implied(
            r#"{"id":"i-1","cpu":"","apps":{"a":{"v":"1"}}}"#,
            r#"{"id":null,"apps":{"a":{"v":"1"}}}"#,
            r#"{"id":true,"cpu":true}"#
        ),
        "{\n      ~ cpu  = null -> (known after apply)\n      ~ id   = \"i-1\" -> (known after apply)\n        # (1 unchanged attribute hidden)\n    }"
    );
}

/// A resource's top block rendered with its unchanged attributes kept (`hide` false) or
/// counted by the differ (`hide` true): the text must be the same.
fn render_top_block(block: &str, before: &str, after: &str, hide: bool) -> String {
    let doc = format!(
        r#"{{"provider_schemas":{{"p":{{"resource_schemas":{{"t":{{"block":{block}}}}}}}}}}}"#
    );
    let schemas = Schemas::parse(std::path::Path::new("s"), doc.as_bytes()).unwrap();
    let block = schemas.block("p", "managed", "t").unwrap();
    let (b, a) = (v(before), v(after));
    let change = Change {
        before: &b,
        after: &a,
        before_explicit: false,
        after_explicit: false,
        unknown: Unknown::Value(&NULL),
        before_sensitive: &NULL,
        after_sensitive: &NULL,
        replace_paths: Matcher::empty(false),
        relevant: Matcher::Always,
        rules: Rules {
            hide_unchanged_attributes: hide,
            ..Rules::default()
        },
    };
    let theme = Theme::plain();
    compute_diff_for_block(&change, block).render_human(0, &RenderOpts::new(&theme))
}

#[test]
fn hidden_attributes_counted_by_the_differ_render_as_kept_ones() {
    // the widest name is a hidden one (quoted: it is no identifier), a nested block's own
    // unchanged attributes stay its own, and `id` is shown though unchanged
    let block = r#"{"attributes":{"a":{"type":"string"},"id":{"type":"string"},
        "x y z long":{"type":"string"},"z":{"type":"string"}},
        "block_types":{"nb":{"nesting_mode":"list","block":{"attributes":{
        "p":{"type":"string"},"q":{"type":"string"}}}}}}"#;
    let before = r#"{"a":"1","id":"i","x y z long":"k","z":"1","nb":[{"p":"1","q":"1"}]}"#;
    let after = r#"{"a":"2","id":"i","x y z long":"k","z":"1","nb":[{"p":"2","q":"1"}]}"#;
    let kept = render_top_block(block, before, after, false);
    assert!(kept.contains("# (2 unchanged attributes hidden)"), "{kept}");
    assert!(kept.contains("a            = \"1\" -> \"2\""), "{kept}");
    assert_eq!(render_top_block(block, before, after, true), kept);
    // every attribute hidden: the blank line before the blocks stays
    let before = r#"{"a":"1","z":"1","nb":[{"p":"1","q":"1"}]}"#;
    let after = r#"{"a":"1","z":"1","nb":[{"p":"2","q":"1"}]}"#;
    let kept = render_top_block(block, before, after, false);
    assert!(
        kept.starts_with("{\n        # (2 unchanged attributes hidden)\n\n"),
        "{kept}"
    );
    assert_eq!(render_top_block(block, before, after, true), kept);
    // nothing but hidden attributes: no `{}`
    let only = r#"{"a":"1","z":"1"}"#;
    let kept = render_top_block(block, only, only, false);
    assert_eq!(kept, "{\n        # (2 unchanged attributes hidden)\n    }");
    assert_eq!(render_top_block(block, only, only, true), kept);
}

#[test]
fn an_attribute_seen_unchanged_at_once_is_one_the_differ_finds_unchanged() {
    // every pairing of values, marks, types and rules: where `unchanged_scalar` answers at
    // once, the whole diff must be a `NoOp` that is shown (hidden, and counted)
    let values = [
        r#""a""#,
        r#""""#,
        "1",
        "1.0",
        "true",
        "null",
        r#"{"x":1}"#,
        "[1]",
    ];
    let types = [
        r#""string""#,
        r#""number""#,
        r#""bool""#,
        r#""dynamic""#,
        r#"["list","string"]"#,
    ];
    let mut seen = 0;
    for ty in types {
        let attr: Attribute = serde_json::from_str(&format!(r#"{{"type":{ty}}}"#)).unwrap();
        for (b, a) in values
            .iter()
            .flat_map(|b| values.iter().map(move |a| (b, a)))
        {
            let (b, a) = (v(b), v(a));
            for (unknown, sensitive, terraform) in
                (0..8).map(|i| (i & 1 == 1, i & 2 == 2, i & 4 == 4))
            {
                let mark = |on: bool| if on { TRUE.clone() } else { NULL.clone() };
                let (u, s) = (mark(unknown), mark(sensitive));
                let change = Change {
                    before: &b,
                    after: &a,
                    before_explicit: true,
                    after_explicit: true,
                    unknown: Unknown::Value(&u),
                    before_sensitive: &NULL,
                    after_sensitive: &s,
                    replace_paths: Matcher::empty(false),
                    relevant: Matcher::Always,
                    rules: Rules {
                        terraform,
                        ..Rules::default()
                    },
                };
                if hidden::unchanged_scalar(&change, &attr) {
                    seen += 1;
                    let d = diff_child_attribute(change.clone(), &attr, Action::Update);
                    assert_eq!(
                        d.map(|d| d.action),
                        Some(Action::NoOp),
                        "{b:?} {a:?} {ty} unknown {unknown} sensitive {sensitive}"
                    );
                }
            }
        }
    }
    // "a", 1, "1.0" and true on both sides, known and not sensitive, under 4 types and 2 rules
    assert_eq!(seen, 4 * 4 * 2);
}
