//! The JSON differ: values without a schema type (outputs, `dynamic` attributes) and the
//! documents inside `jsonencode(...)` strings, diffed as plain JSON into a Diff tree (Terraform's
//! `jsondiff`). It sits under both the differ and the renderers, which call it.

use std::cell::Cell;

use super::{Action, Diff, Keyed, PrimType, Renderer};
use crate::plan::Value;
use crate::structured::{
    Change, FALSE, Matcher, NULL, Rules, Unknown, compare_actions, process_slice,
    process_slice_terraform,
};

pub(crate) fn as_diff<'a>(change: &Change<'_, 'a>, renderer: Renderer<'a>) -> Diff<'a> {
    Diff::new(
        renderer,
        change.calculate_action(),
        change.replace_paths.matches(),
    )
}

/// Sensitivity first: a sensitive value is diffed without its marks and wrapped.
pub(crate) fn check_for_sensitive<'v, 'a>(
    change: &Change<'v, 'a>,
    block: bool,
    inner: impl FnOnce(&Change<'v, 'a>) -> Diff<'a>,
) -> Option<Diff<'a>> {
    let before = change.is_before_sensitive();
    let after = change.is_after_sensitive();
    if !before && !after {
        return None;
    }
    let mut value = change.clone();
    value.before_sensitive = &FALSE;
    value.after_sensitive = &FALSE;
    // Terraform's CheckForSensitive builds the inner change afresh, without NonLegacySchema.
    value.rules.non_legacy = false;
    let inner = inner(&value);
    let mut action = inner.action;
    let null_noop = change.before.is_null()
        && !change.before_explicit
        && change.after.is_null()
        && !change.after_explicit;
    if action == Action::NoOp && before != after && !null_noop {
        action = Action::Update;
    }
    let inner = Box::new(inner);
    let renderer = if block {
        Renderer::SensitiveBlock {
            inner,
            before,
            after,
        }
    } else {
        Renderer::Sensitive {
            inner,
            before,
            after,
        }
    };
    Some(Diff::new(renderer, action, change.replace_paths.matches()))
}

/// Unknown values: `(known after apply)`, keeping what was there before.
pub(crate) fn check_for_unknown<'v, 'a>(
    change: &Change<'v, 'a>,
    child_unknown: Unknown<'v, 'a>,
    process_before: impl FnOnce(&Change<'v, 'a>) -> Diff<'a>,
) -> Option<Diff<'a>> {
    if !change.is_unknown() {
        return None;
    }
    let mut change = change.clone();
    change.after_explicit = true;
    if change.before.is_null() {
        return Some(as_diff(&change, Renderer::Unknown { before: None }));
    }
    let mut before = change.as_delete();
    before.unknown = child_unknown;
    let b = process_before(&before);
    Some(as_diff(
        &change,
        Renderer::Unknown {
            before: Some(Box::new(b)),
        },
    ))
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum JsonType {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

fn json_type(v: &Value) -> JsonType {
    match v {
        Value::Null => JsonType::Null,
        Value::Bool(_) => JsonType::Bool,
        Value::Number(_) => JsonType::Number,
        Value::String(_) => JsonType::String,
        Value::Array(_) => JsonType::Array,
        Value::Object(_) => JsonType::Object,
    }
}

/// The JSON differ (outputs, dynamic values and `jsonencode` strings).
pub fn json_transform<'v, 'a>(change: &Change<'v, 'a>) -> Diff<'a> {
    if let Some(d) = check_for_sensitive(change, false, json_transform) {
        return d;
    }
    if change.is_unknown() {
        let mut c = change.clone();
        c.after_explicit = true;
        if c.before.is_null() {
            return Diff::new(Renderer::Unknown { before: None }, Action::Create, false);
        }
        let mut before = c.as_delete();
        before.unknown = Unknown::Value(&FALSE);
        return Diff::new(
            Renderer::Unknown {
                before: Some(Box::new(json_transform(&before))),
            },
            Action::Update,
            false,
        );
    }
    let bt = json_type(change.before);
    let at = json_type(change.after);
    let deleted = at == JsonType::Null && !change.after_explicit;
    let created = bt == JsonType::Null && !change.before_explicit;
    if bt == at || created || deleted {
        let t = if bt == JsonType::Null { at } else { bt };
        return json_update(change, t);
    }
    let b = json_update(&change.as_delete(), bt);
    let a = json_update(&change.as_create(), at);
    Diff::new(
        Renderer::TypeChange {
            before: Box::new(b),
            after: Box::new(a),
        },
        Action::Update,
        false,
    )
}

fn json_update<'v, 'a>(change: &Change<'v, 'a>, t: JsonType) -> Diff<'a> {
    match t {
        JsonType::Null => json_primitive(change, PrimType::Null),
        JsonType::Bool => json_primitive(change, PrimType::Bool),
        JsonType::Number => json_primitive(change, PrimType::Number),
        JsonType::String => json_primitive(change, PrimType::String),
        JsonType::Object => {
            let mut current = map_default_action(change);
            let keys = change.all_keys();
            let mut elements = Vec::with_capacity(keys.len());
            for key in keys {
                let mut c = change.child_key(key);
                if !c.relevant.matches_partial() {
                    c = c.as_noop();
                }
                let d = json_transform(&c);
                current = compare_actions(current, d.action);
                elements.push((key.to_string(), d));
            }
            Diff::new(
                Renderer::Object {
                    attributes: Keyed::from_pairs(elements),
                    nested: false,
                },
                current,
                false,
            )
        }
        JsonType::Array => {
            let before = change.before.as_array().unwrap_or(&[]);
            let after = change.after.as_array().unwrap_or(&[]);
            let mut current = slice_default_action(change);
            let mut elements = Vec::new();
            let process = |bi, ai| {
                let d = json_transform(&change.child_index(bi, ai));
                current = compare_actions(current, d.action);
                elements.push(d);
            };
            if change.rules.terraform {
                let is_object = |v: &Value| matches!(v, Value::Object(_));
                let pairwise = change.rules.since.pairwise_lists;
                process_slice_terraform(before, after, process, is_object, pairwise);
            } else {
                process_slice(before, after, process, |a, b| {
                    (matches!(a, Value::Object(_)) && matches!(b, Value::Object(_)))
                        || should_diff_multiline_strings(a, b)
                });
            }
            Diff::new(
                Renderer::List {
                    elements,
                    display_context: true,
                },
                current,
                false,
            )
        }
    }
}

fn json_primitive<'v, 'a>(change: &Change<'v, 'a>, ty: PrimType) -> Diff<'a> {
    let b_missing = change.before.is_null() && !change.before_explicit;
    let a_missing = change.after.is_null() && !change.after_explicit;
    let action = if b_missing && !a_missing {
        Action::Create
    } else if !b_missing && a_missing {
        Action::Delete
    } else if change.before == change.after {
        Action::NoOp
    } else {
        Action::Update
    };
    Diff::new(
        Renderer::Primitive {
            before: change.before.clone(),
            after: change.after.clone(),
            ty,
        },
        action,
        false,
    )
}

/// Diffs two decoded JSON documents (from `jsonencode`-like strings).
pub fn json_transform_values<'a>(
    before: Option<&Value<'a>>,
    after: Option<&Value<'a>>,
    before_explicit: bool,
    after_explicit: bool,
    rules: Rules,
) -> Diff<'a> {
    let change = Change {
        before: before.unwrap_or(&NULL),
        after: after.unwrap_or(&NULL),
        before_explicit,
        after_explicit,
        unknown: Unknown::Value(&FALSE),
        before_sensitive: &FALSE,
        after_sensitive: &FALSE,
        replace_paths: Matcher::empty(false),
        relevant: Matcher::Always,
        rules,
    };
    json_transform(&change)
}

/// Whether two list elements that differ should be shown as one changed element (rather
/// than a removal and an addition): multi-line strings sharing a line.
pub fn should_diff_multiline_strings(a: &Value, b: &Value) -> bool {
    let (Some(a), Some(b)) = (a.as_str(), b.as_str()) else {
        return false;
    };
    if !a.contains('\n') && !b.contains('\n') {
        return false;
    }
    let bl: Vec<&str> = b.split('\n').collect();
    a.split('\n').any(|l| bl.contains(&l))
}

thread_local! {
    static JSON_STRING_DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// How many `jsonencode` strings may nest inside each other before we stop expanding them.
const MAX_JSON_STRING_DEPTH: usize = 8;

/// Parses a string that looks like JSON (as OpenTofu does: the first JSON value, numbers
/// kept as written). Returns `None` when it is not JSON or when strings nest too deep.
pub fn parse_json_string(s: &str, whole: bool) -> Option<Value<'_>> {
    if JSON_STRING_DEPTH.with(|d| d.get()) >= MAX_JSON_STRING_DEPTH {
        return None;
    }
    if whole {
        // Terraform: nothing but whitespace may follow the document.
        crate::plan::parse_json(s).ok()
    } else {
        // OpenTofu: the first document is enough (Go's `Decoder.Decode`).
        crate::plan::parse_first_json(s)
    }
}

/// Keeps nested `jsonencode` rendering bounded: call around rendering a JSON string.
pub(crate) fn with_json_depth<T>(f: impl FnOnce() -> T) -> T {
    JSON_STRING_DEPTH.with(|d| d.set(d.get() + 1));
    let out = f();
    JSON_STRING_DEPTH.with(|d| d.set(d.get() - 1));
    out
}

pub(crate) fn map_default_action(change: &Change) -> Action {
    let b = change.before.as_object().is_some();
    let a = change.after.as_object().is_some();
    match (b, a) {
        (true, false) => Action::Delete,
        (false, true) => Action::Create,
        _ => Action::NoOp,
    }
}

pub(crate) fn slice_default_action(change: &Change) -> Action {
    let b = change.before.as_array().is_some();
    let a = change.after.as_array().is_some();
    match (b, a) {
        (true, false) => Action::Delete,
        (false, true) => Action::Create,
        _ => Action::NoOp,
    }
}
