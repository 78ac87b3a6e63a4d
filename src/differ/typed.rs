//! The diff of a value of a cty type (`compute_diff_for_type`), by kind: primitives, objects,
//! maps, lists, tuples and sets.

use super::*;

/// The diff of a value of a cty type.
pub fn compute_diff_for_type<'v, 'a>(change: &Change<'v, 'a>, ty: &'v Type) -> Diff<'a> {
    if change.rules.empty_string_by_schema()
        && !change.rules.non_legacy
        && (change.before.as_str() == Some("") || change.after.as_str() == Some(""))
    {
        // Terraform: in a legacy-SDK schema an empty string is null, at every typed level.
        let mut c = change.clone();
        if c.before.as_str() == Some("") {
            c.before = &NULL;
        }
        if c.after.as_str() == Some("") {
            c.after = &NULL;
        }
        return compute_diff_for_type(&c, ty);
    }
    if let Some(d) = check_for_sensitive(change, false, |c| compute_diff_for_type(c, ty)) {
        return d;
    }
    if let Some(d) = check_for_unknown(change, Unknown::Value(&FALSE), |c| {
        compute_diff_for_type(c, ty)
    }) {
        return d;
    }
    let shape = match ty {
        Type::Object(_) | Type::Map(_) => Some(Shape::Object),
        Type::List(_) | Type::Set(_) | Type::Tuple(_) => Some(Shape::Array),
        _ => None,
    };
    if shape.is_some_and(|s| misfit(change, s)) {
        return unexpected(change);
    }
    match ty {
        Type::Dynamic => compute_diff_for_output(change),
        Type::String | Type::Number | Type::Bool => {
            let prim = match ty {
                Type::String => PrimType::String,
                Type::Number => PrimType::Number,
                _ => PrimType::Bool,
            };
            // A value of the wrong shape is shown, with a marker, rather than dropped.
            if misfit(change, Shape::Scalar) {
                return unexpected(change);
            }
            as_diff(
                change,
                Renderer::Primitive {
                    before: change.before.clone(),
                    after: change.after.clone(),
                    ty: prim,
                },
            )
        }
        Type::Object(attrs) => {
            let (attributes, action) =
                process_object(change, attrs, |c, t, _| compute_diff_for_type(c, t));
            Diff::new(
                Renderer::Object {
                    attributes,
                    nested: false,
                },
                action,
                change.replace_paths.matches(),
            )
        }
        Type::Map(elem) => map_diff(change, elem),
        Type::List(elem) => list_diff(change, elem),
        Type::Tuple(elems) => tuple_diff(change, elems),
        Type::Set(elem) => set_diff(change, elem),
    }
}

/// The diff of a map: each key's element, unchanged where the plan's relevant attributes do
/// not reach.
fn map_diff<'v, 'a>(change: &Change<'v, 'a>, elem: &'v Type) -> Diff<'a> {
    let (elements, current) = keyed_diffs(change, change.all_keys(), |v| {
        compute_diff_for_type(v, elem)
    });
    Diff::new(
        Renderer::Map {
            elements,
            nested: false,
        },
        current,
        change.replace_paths.matches(),
    )
}

/// The diff of a list, element by element as the tool pairs them.
fn list_diff<'v, 'a>(change: &Change<'v, 'a>, elem: &'v Type) -> Diff<'a> {
    let before = change.before.as_array().unwrap_or(&[]);
    let after = change.after.as_array().unwrap_or(&[]);
    let object_elems = matches!(elem, Type::Object(_));
    let mut current = slice_default_action(change);
    let mut elements = Vec::new();
    let process = |bi, ai| {
        let mut v = change.child_index(bi, ai);
        v.relevant = Matcher::Always;
        let d = compute_diff_for_type(&v, elem);
        current = compare_actions(current, d.action);
        elements.push(d);
    };
    if change.rules.terraform {
        let pairwise = change.rules.since.pairwise_lists;
        process_slice_terraform(before, after, process, |_| object_elems, pairwise);
    } else {
        process_slice(before, after, process, |a, b| {
            object_elems || should_diff_multiline_strings(a, b)
        });
    }
    list_of(change, elements, current)
}

/// The diff of a tuple: each position by its own type.
fn tuple_diff<'v, 'a>(change: &Change<'v, 'a>, elems: &'v [Type]) -> Diff<'a> {
    let mut current = change.default_action_for_iteration();
    let mut elements = Vec::new();
    for (ix, t) in elems.iter().enumerate() {
        let mut v = change.child_index(ix, ix);
        if !v.relevant.matches_partial() {
            v = v.as_noop();
        }
        let d = compute_diff_for_type(&v, t);
        current = compare_actions(current, d.action);
        elements.push(d);
    }
    list_of(change, elements, current)
}

/// The diff of a set: elements matched as the tool matches them.
fn set_diff<'v, 'a>(change: &Change<'v, 'a>, elem: &'v Type) -> Diff<'a> {
    let mut current = change.default_action_for_iteration();
    let mut elements = Vec::new();
    process_set(change, |v| {
        let d = compute_diff_for_type(&v, elem);
        current = compare_actions(current, d.action);
        elements.push(d);
    });
    Diff::new(
        Renderer::Set {
            elements,
            nested: false,
        },
        current,
        change.replace_paths.matches(),
    )
}

/// A list's (or a tuple's) diff of its elements' diffs.
fn list_of<'a>(change: &Change<'_, 'a>, elements: Vec<Diff<'a>>, current: Action) -> Diff<'a> {
    Diff::new(
        Renderer::List {
            elements,
            display_context: true,
        },
        current,
        change.replace_paths.matches(),
    )
}
