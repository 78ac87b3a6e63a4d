use super::*;
use crate::theme::Theme;

fn prim<'a>(b: Value<'a>, a: Value<'a>, action: Action) -> Diff<'a> {
    Diff::new(
        Renderer::Primitive {
            before: b,
            after: a,
            ty: PrimType::Number,
        },
        action,
        false,
    )
}

fn n(i: u64) -> Value<'static> {
    Value::Number(i.to_string().into())
}

#[test]
fn quoting_table() {
    let cases = [
        ("a", "\"a\""),
        ("a\"b", "\"a\\\"b\""),
        ("tab\t", "\"tab\\t\""),
        ("\u{1}", "\"\\x01\""),
        ("é", "\"é\""),
    ];
    for (input, want) in cases {
        assert_eq!(go_quote(input), want);
    }
    assert_eq!(ensure_valid_attribute_name("foo_bar-1"), "foo_bar-1");
    assert_eq!(ensure_valid_attribute_name("1foo"), "\"1foo\"");
    assert_eq!(ensure_valid_attribute_name("a b"), "\"a b\"");
}

#[test]
fn primitive_actions_table() {
    let theme = Theme::plain();
    let opts = RenderOpts::new(&theme);
    let cases = [
        (prim(Value::Null, n(1), Action::Create), "1"),
        (prim(n(1), Value::Null, Action::Delete), "1 -> null"),
        (prim(n(1), n(1), Action::NoOp), "1"),
        (prim(n(1), n(2), Action::Update), "1 -> 2"),
    ];
    for (d, want) in cases {
        assert_eq!(d.render_human(0, &opts), want);
    }
    let mut replace = prim(n(1), n(2), Action::Update);
    replace.replace = true;
    assert_eq!(
        replace.render_human(0, &opts),
        "1 -> 2 # forces replacement"
    );
}

#[test]
fn list_context() {
    let theme = Theme::plain();
    let opts = RenderOpts::new(&theme);
    let list = Diff::new(
        Renderer::List {
            elements: vec![
                prim(n(1), n(1), Action::NoOp),
                prim(n(2), n(2), Action::NoOp),
                prim(n(3), n(3), Action::NoOp),
                prim(Value::Null, n(4), Action::Create),
                prim(n(5), n(5), Action::NoOp),
                prim(n(6), n(6), Action::NoOp),
            ],
            display_context: true,
        },
        Action::Update,
        false,
    );
    assert_eq!(
        list.render_human(0, &opts),
        "[\n        # (2 unchanged elements hidden)\n        3,\n      + 4,\n        5,\n        # (1 unchanged element hidden)\n    ]"
    );
}

#[test]
fn unexpected_value_shape_prints_the_value_without_a_marker() {
    let theme = Theme::plain();
    let d = Diff::new(
        Renderer::Unexpected(Box::new(prim(n(1), n(2), Action::Update))),
        Action::Update,
        false,
    );
    assert_eq!(d.render_human(0, &RenderOpts::new(&theme)), "1 -> 2");
}

fn s(v: &str) -> Value<'static> {
    Value::String(v.to_string().into())
}

fn string_diff<'a>(b: Value<'a>, a: Value<'a>, action: Action) -> Diff<'a> {
    Diff::new(
        Renderer::Primitive {
            before: b,
            after: a,
            ty: PrimType::String,
        },
        action,
        false,
    )
}

/// Cases from OpenTofu's renderer tests (expected strings written out here).
#[test]
fn string_rendering_table() {
    let theme = Theme::plain();
    let opts = RenderOpts::new(&theme);
    let cases = [
        (
            string_diff(
                s(r#"{"key_one":"value_one","key_two":"value_two"}"#),
                s(r#"{"key_one":null}"#),
                Action::Update,
            ),
            "jsonencode(\n      ~ {\n          ~ key_one = \"value_one\" -> null\n          - key_two = \"value_two\"\n        }\n    )",
        ),
        (
            string_diff(s(r#"{"a": "b""#), s(r#"{"a": "c""#), Action::Update),
            r#""{\"a\": \"b\"" -> "{\"a\": \"c\"""#,
        ),
        (
            string_diff(
                s("hello\nworld"),
                s(r#"{"key_one": "value_one"}"#),
                Action::Update,
            ),
            "<<-EOT\n        hello\n        world\n    EOT -> jsonencode(\n        {\n          + key_one = \"value_one\"\n        }\n    )",
        ),
        (
            string_diff(
                s(r#"{"key_one": "value_one"}"#),
                s("hello world"),
                Action::Update,
            ),
            "jsonencode(\n        {\n          - key_one = \"value_one\"\n        }\n    ) -> \"hello world\"",
        ),
        (
            string_diff(s("hello"), Value::Null, Action::Delete),
            "\"hello\" -> null",
        ),
        (
            string_diff(s("hello\nworld"), Value::Null, Action::Update),
            "<<-EOT\n      - hello\n      - world\n      + null\n    EOT",
        ),
        (
            string_diff(s("[null]"), Value::Null, Action::Update),
            "jsonencode(\n        [\n          - null,\n        ]\n    ) -> null",
        ),
        (
            string_diff(Value::Null, Value::Null, Action::Delete),
            "null",
        ),
        (
            string_diff(s(r#"{"a":1}"#), s(r#"{ "a" : 1 }"#), Action::Update),
            "jsonencode( # whitespace changes\n        {\n            a = 1\n        }\n    )",
        ),
    ];
    for (d, want) in cases {
        assert_eq!(d.render_human(0, &opts), want);
    }
}

#[test]
fn json_string_without_symbols() {
    let theme = Theme::plain();
    let mut opts = RenderOpts::new(&theme);
    opts.hide_diff_action_symbols = true;
    opts.show_unchanged_children = true;
    let d = string_diff(
        s(r#"{"key":"value"}"#),
        s(r#"{"key":"value"}"#),
        Action::NoOp,
    );
    assert_eq!(
        d.render_human(0, &opts),
        "jsonencode(\n    {\n        key = \"value\"\n    }\n)"
    );
}

#[test]
fn list_of_multiline_strings() {
    let theme = Theme::plain();
    let opts = RenderOpts::new(&theme);
    let list = Diff::new(
        Renderer::List {
            elements: vec![
                string_diff(s("line1\nline2"), s("line1\nline3"), Action::Update),
                string_diff(s("line1\nlinex"), s("line1"), Action::Update),
            ],
            display_context: true,
        },
        Action::Update,
        false,
    );
    assert_eq!(
        list.render_human(0, &opts),
        "[\n      ~ <<-EOT\n            line1\n          - line2\n          + line3\n        EOT,\n      ~ <<-EOT\n            line1\n          - linex\n        EOT,\n    ]"
    );
}

#[test]
fn map_sensitivity_warning() {
    let theme = Theme::plain();
    let opts = RenderOpts::new(&theme);
    let elements = Keyed::from_pairs(vec![(
        "element_one".to_string(),
        Diff::new(
            Renderer::Sensitive {
                inner: Box::new(prim(n(0), n(0), Action::NoOp)),
                before: true,
                after: false,
            },
            Action::Update,
            false,
        ),
    )]);
    let map = Diff::new(
        Renderer::Map {
            elements,
            nested: false,
        },
        Action::Update,
        false,
    );
    assert_eq!(
        map.render_human(0, &opts),
        "{\n      # Warning: this attribute value will no longer be marked as sensitive\n      # after applying this change. The value is unchanged.\n      ~ \"element_one\" = (sensitive value)\n    }"
    );
}

#[test]
fn keyed_diffs_are_in_key_order_with_the_last_of_a_key_kept() {
    let d = |n: i32| {
        prim(
            Value::Number(n.to_string().into()),
            Value::Null,
            Action::Delete,
        )
    };
    let pairs = |keys: &[(&str, i32)]| {
        keys.iter()
            .map(|&(k, n)| (k.to_string(), d(n)))
            .collect::<Vec<_>>()
    };
    let shown = |k: &Keyed| {
        k.iter()
            .map(|(key, diff)| match &diff.renderer {
                Renderer::Primitive { before, .. } => format!("{key}={before:?}"),
                _ => unreachable!(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let sorted = Keyed::from_pairs(pairs(&[("a", 1), ("b", 2), ("c", 3)]));
    let unsorted = Keyed::from_pairs(pairs(&[("c", 3), ("a", 1), ("b", 9), ("b", 2)]));
    assert_eq!(shown(&sorted), shown(&unsorted));
    assert_eq!(unsorted.len(), 3);
    assert!(
        shown(&unsorted).contains("b=Number(\"2\")"),
        "{}",
        shown(&unsorted)
    );
}
