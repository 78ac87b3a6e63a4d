use super::*;
use crate::render::theme::Theme;

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
    Value::Number(i.into())
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
fn unexpected_is_marked() {
    let theme = Theme::plain();
    let d = Diff::new(
        Renderer::Unexpected(Box::new(prim(n(1), n(2), Action::Update))),
        Action::Update,
        false,
    );
    assert_eq!(
        d.render_human(0, &RenderOpts::new(&theme)),
        "1 -> 2 # (unexpected value shape)"
    );
}
