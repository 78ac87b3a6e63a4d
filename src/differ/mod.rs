//! The differ: turns a change (before, after, unknown, sensitive, replace paths) into a computed Diff tree.
//!
//! The rules are OpenTofu's (`internal/command/jsonformat/differ`): sensitivity is checked
//! first, then unknown values, then the shape given by the schema (block, nested attribute
//! or cty type); attributes without a type (`dynamic`, outputs) are diffed as plain JSON.
//! Recursion follows the value and schema trees, whose depth serde_json bounds at 128;
//! JSON documents found inside strings are only expanded a few levels deep.

use std::collections::BTreeMap;

use crate::structured::KeyWalk;

mod typed;
pub use typed::compute_diff_for_type;
mod hidden;
pub use crate::structured::{
    Change, Matcher, Rules, Unknown, compare_actions, longest_common_subsequence, process_slice,
    process_slice_terraform,
};

use crate::computed::json::{
    as_diff, check_for_sensitive, check_for_unknown, map_default_action, slice_default_action,
};
pub use crate::computed::json::{
    json_transform, json_transform_values, parse_json_string, should_diff_multiline_strings,
};
use crate::computed::{BlockEntry, BlockKind, Diff, Hidden, Keyed, PrimType, Renderer};
use crate::plan::{Action, Value};
use crate::schema::{Attribute, Block, NestedType, NestingMode, Type};
pub(crate) use crate::structured::{FALSE, NULL, TRUE};

/// The JSON shape a schema expects.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Object,
    Array,
    Scalar,
}

fn fits(v: &Value, shape: Shape) -> bool {
    match v {
        Value::Null => true,
        Value::Object(_) => shape == Shape::Object,
        Value::Array(_) => shape == Shape::Array,
        _ => shape == Shape::Scalar,
    }
}

fn misfit(change: &Change, shape: Shape) -> bool {
    !fits(change.before, shape) || !fits(change.after, shape)
}

/// A value that does not fit its schema: diffed as plain JSON, with a marker.
fn unexpected<'v, 'a>(change: &Change<'v, 'a>) -> Diff<'a> {
    let inner = json_transform(change);
    let action = inner.action;
    Diff::new(
        Renderer::Unexpected(Box::new(inner)),
        action,
        change.replace_paths.matches(),
    )
}

fn nesting_shape(mode: NestingMode) -> Shape {
    match mode {
        NestingMode::List | NestingMode::Set => Shape::Array,
        NestingMode::Map | NestingMode::Single | NestingMode::Group => Shape::Object,
    }
}

/// The diff of a resource (or nested block) against its block schema.
pub fn compute_diff_for_block<'v, 'a>(change: &Change<'v, 'a>, block: &'v Block) -> Diff<'a> {
    if let Some(d) = check_for_sensitive(change, true, |c| compute_diff_for_block(c, block)) {
        return d;
    }
    if let Some(d) = check_for_unknown(change, Unknown::Attributes(&block.attributes), |c| {
        compute_diff_for_block(c, block)
    }) {
        return d;
    }
    if misfit(change, Shape::Object) {
        return unexpected(change);
    }
    let current = change.default_action_for_iteration();
    block_body(change, block, current)
}

/// The attributes and nested blocks of a block whose value is an object (or null), starting
/// from the action `current`.
fn block_body<'v, 'a>(change: &Change<'v, 'a>, block: &'v Block, mut current: Action) -> Diff<'a> {
    let mut change = change.clone();
    // Terraform: once a block shows a non-legacy feature, the whole resource is non-legacy.
    change.rules.non_legacy |= change.rules.empty_string_by_schema() && non_legacy_features(block);
    // (this block's alone: its children's attributes are kept)
    let hide = std::mem::take(&mut change.rules.hide_unchanged_attributes);
    let mut hidden = Hidden::default();
    let change = &change;
    let terraform = change.rules.terraform;
    // gathered, then built into one map at once (`finish_block`)
    let mut attributes = Vec::new();
    // OpenTofu diffs write-only attributes after the others (they inherit the action so
    // far); Terraform after the nested blocks too (below).
    let ordered = block
        .attributes
        .iter()
        .filter(|(_, a)| !a.write_only)
        .chain(
            block
                .attributes
                .iter()
                .filter(|(_, a)| a.write_only && !terraform),
        );
    let mut walk = KeyWalk::new(change);
    for (key, attr) in ordered {
        let child = walk.child(key);
        if hide && !crate::computed::always_shown(key) && hidden::unchanged_scalar(&child, attr) {
            // (what the diff below answers `NoOp` for, without building it)
            hidden::count(&mut hidden, key);
            continue;
        }
        if let Some(d) = diff_child_attribute(child, attr, current) {
            current = compare_actions(current, d.action);
            // what `computed::render::write_attributes` would hide: counted, not kept
            if hide && d.action == Action::NoOp && !crate::computed::always_shown(key) {
                hidden::count(&mut hidden, key);
                continue;
            }
            attributes.push((key.clone(), d));
        }
    }

    let mut blocks = BTreeMap::new();
    for (key, block_type) in &block.block_types {
        let nested = &block_type.block;
        let mut child = change.child_key(key);
        if !child.relevant.matches_partial() {
            child = child.as_noop();
        }
        let before_sensitive = child.is_before_sensitive();
        let after_sensitive = child.is_after_sensitive();
        let replace = child.replace_paths.matches();
        let both_null = child.before.is_null() && child.after.is_null();
        // Terraform: a list, set or map of blocks that becomes wholly unknown is diffed
        // element by element (the old blocks deleted) under a `name (known after apply)`
        // line; OpenTofu shows it as one unknown value.
        let unknown = terraform && child.is_unknown();
        let entry = |kind| BlockEntry {
            kind,
            replace,
            before_sensitive,
            after_sensitive,
            unknown,
        };
        if !terraform
            && let Some(d) =
                check_for_unknown(&child, Unknown::Attributes(&nested.attributes), |c| {
                    match block_type.nesting_mode {
                        NestingMode::Single | NestingMode::Group => {
                            compute_diff_for_block(c, nested)
                        }
                        // OpenTofu reads the old list, set or map of blocks as one block object,
                        // which has none of the attributes: each prints as unknown.
                        NestingMode::List | NestingMode::Set | NestingMode::Map => {
                            let mut v = c.clone();
                            v.before = &NULL;
                            v.before_sensitive = &NULL;
                            block_body(&v, nested, c.default_action_for_iteration())
                        }
                    }
                })
        {
            if d.action == Action::NoOp && both_null {
                continue;
            }
            blocks.insert(key.clone(), entry(BlockKind::Single(Box::new(d))));
            continue;
        }
        if misfit(&child, nesting_shape(block_type.nesting_mode)) {
            let d = unexpected(&child);
            current = compare_actions(current, d.action);
            attributes.push((key.clone(), d));
            continue;
        }
        let (kind, action) = match block_type.nesting_mode {
            NestingMode::Set => {
                let (diffs, action) = block_diffs_as_set(&child, nested);
                (BlockKind::Set(diffs), action)
            }
            NestingMode::List => {
                let (diffs, action) = block_diffs_as_list(&child, nested);
                (BlockKind::List(diffs), action)
            }
            NestingMode::Map => {
                let (diffs, action) = block_diffs_as_map(&child, nested);
                (BlockKind::Map(diffs), action)
            }
            NestingMode::Single | NestingMode::Group => {
                let d = compute_diff_for_block(&child, nested);
                let action = d.action;
                (BlockKind::Single(Box::new(d)), action)
            }
        };
        if action == Action::NoOp && both_null && !unknown {
            continue;
        }
        blocks.insert(key.clone(), entry(kind));
        current = compare_actions(current, action);
    }
    if terraform {
        // Terraform: write-only attributes take the block's final action (an update shows
        // them unchanged), its replace mark and its sensitivity, and don't change the action.
        for (key, _) in block.attributes.iter().filter(|(_, a)| a.write_only) {
            attributes.push((key.clone(), terraform_write_only(change, current)));
        }
    }
    // (a stable sort: of a key pushed twice, the last stays, as an insert would keep it)
    let attributes = Keyed::from_pairs(attributes);
    Diff::new(
        Renderer::Block {
            attributes,
            blocks,
            hidden,
        },
        current,
        change.replace_paths.matches(),
    )
}

/// Terraform's diff of a write-only attribute: `change` is the one whose replace and
/// sensitivity marks it shows (the enclosing block's for a block attribute, its own in a
/// nested attribute), `current` the action so far of what holds it.
fn terraform_write_only<'a>(change: &Change<'_, 'a>, current: Action) -> Diff<'a> {
    let action = if current == Action::Update {
        Action::NoOp
    } else {
        current
    };
    Diff::new(
        Renderer::WriteOnly {
            sensitive: change.is_before_sensitive() || change.is_after_sensitive(),
        },
        action,
        change.replace_paths.matches(),
    )
}

/// Terraform's test for a schema the legacy SDK could not have written: map or group blocks,
/// nested attributes, dynamic, object or tuple types, collections of non-primitive collections.
///
/// An attribute inferred from the values (no schema for its resource type) is no such
/// feature: its `dynamic` type says the type is unknown, not that the provider is modern.
/// Without a schema a resource is taken as a legacy-SDK one (the built-in provider's schema
/// is embedded; the aws, google and azurerm providers are SDKv2), so an empty string is null,
/// unless a value has a shape the SDK cannot write (`Attribute::implied_non_legacy`).
fn non_legacy_features(block: &Block) -> bool {
    fn primitive(t: &Type) -> bool {
        matches!(t, Type::String | Type::Number | Type::Bool)
    }
    fn has_dynamic(t: &Type) -> bool {
        match t {
            Type::Dynamic => true,
            Type::List(e) | Type::Set(e) | Type::Map(e) => has_dynamic(e),
            Type::Object(m) => m.values().any(has_dynamic),
            Type::Tuple(v) => v.iter().any(has_dynamic),
            _ => false,
        }
    }
    fn collection_of_collections(t: &Type) -> bool {
        match t {
            Type::List(e) | Type::Set(e) | Type::Map(e) => matches!(
                &**e,
                Type::List(x) | Type::Set(x) | Type::Map(x) if !primitive(x)
            ),
            _ => false,
        }
    }
    block
        .block_types
        .values()
        .any(|b| matches!(b.nesting_mode, NestingMode::Map | NestingMode::Group))
        || block
            .attributes
            .values()
            .any(|a| a.implied && a.implied_non_legacy)
        || block.attributes.values().filter(|a| !a.implied).any(|a| {
            a.nested_type.is_some()
                || a.type_.as_ref().is_some_and(|t| {
                    has_dynamic(t)
                        || matches!(t, Type::Object(_) | Type::Tuple(_))
                        || collection_of_collections(t)
                })
        })
}

fn diff_child_attribute<'v, 'a>(
    mut change: Change<'v, 'a>,
    attr: &'v Attribute,
    current: Action,
) -> Option<Diff<'a>> {
    if !change.relevant.matches_partial() {
        change = change.as_noop();
    }
    // Whether the value is absent on both sides, as the JSON has it.
    let (before_null, after_null) = (change.before.is_null(), change.after.is_null());
    if !change.rules.empty_string_by_schema() {
        // OpenTofu (and Terraform before 1.8): an empty string in a block is null (the legacy SDK cannot tell them apart),
        // so an attribute that is "" on both sides is not shown at all.
        if change.before.as_str() == Some("") {
            change.before = &NULL;
        }
        if change.after.as_str() == Some("") {
            change.after = &NULL;
        }
    }
    let (before_null, after_null) = if change.rules.empty_string_by_schema() {
        (before_null, after_null)
    } else {
        (change.before.is_null(), change.after.is_null())
    };
    change.before_explicit = false;
    change.after_explicit = false;
    if attr.sensitive {
        // Schema-sensitive: hidden even if the plan forgot to mark it.
        change.before_sensitive = &TRUE;
        change.after_sensitive = &TRUE;
    }
    let d = compute_diff_for_attribute(&change, attr, current);
    if d.action == Action::NoOp && before_null && after_null && !attr.write_only {
        return None;
    }
    Some(d)
}

/// The diff of one attribute against its schema.
pub fn compute_diff_for_attribute<'v, 'a>(
    change: &Change<'v, 'a>,
    attr: &'v Attribute,
    parent_action: Action,
) -> Diff<'a> {
    if attr.write_only {
        let action = if parent_action == Action::NoOp && change.replace_paths.matches() {
            Action::Update
        } else {
            parent_action
        };
        return Diff::new(
            Renderer::WriteOnly { sensitive: false },
            action,
            change.replace_paths.matches(),
        );
    }
    if let Some(nested) = &attr.nested_type {
        return compute_diff_for_nested(change, nested);
    }
    let mut d = match &attr.type_ {
        Some(t) => compute_diff_for_type(change, t),
        None => compute_diff_for_output(change),
    };
    if attr.implied && change.replace_paths.matches() {
        d.replace = true;
    }
    d
}

fn compute_diff_for_nested<'v, 'a>(change: &Change<'v, 'a>, nested: &'v NestedType) -> Diff<'a> {
    if let Some(d) = check_for_sensitive(change, false, |c| compute_diff_for_nested(c, nested)) {
        return d;
    }
    if let Some(d) = check_for_unknown(change, Unknown::Attributes(&nested.attributes), |c| {
        compute_diff_for_nested(c, nested)
    }) {
        return d;
    }
    if misfit(change, nesting_shape(nested.nesting_mode)) {
        return unexpected(change);
    }
    match nested.nesting_mode {
        NestingMode::Single | NestingMode::Group => {
            let (attributes, action) = process_nested_object(change, &nested.attributes);
            Diff::new(
                Renderer::Object {
                    attributes,
                    nested: true,
                },
                action,
                change.replace_paths.matches(),
            )
        }
        NestingMode::Map => {
            let mut current = map_default_action(change);
            let keys = change.explicit_keys();
            let mut elements = Vec::with_capacity(keys.len());
            let mut walk = KeyWalk::new(change);
            for key in keys {
                let mut v = walk.child(key);
                if !v.relevant.matches_partial() {
                    v = v.as_noop();
                }
                let d = nested_single(&v, &nested.attributes);
                current = compare_actions(current, d.action);
                elements.push((key.to_string(), d));
            }
            Diff::new(
                Renderer::Map {
                    elements: Keyed::from_pairs(elements),
                    nested: true,
                },
                current,
                change.replace_paths.matches(),
            )
        }
        NestingMode::List => {
            let mut current = change.default_action_for_iteration();
            let mut elements = Vec::new();
            process_nested_list(change, |v| {
                let d = nested_single(&v, &nested.attributes);
                current = compare_actions(current, d.action);
                elements.push(d);
            });
            Diff::new(
                Renderer::List {
                    elements,
                    display_context: false,
                },
                current,
                change.replace_paths.matches(),
            )
        }
        NestingMode::Set => {
            let mut current = change.default_action_for_iteration();
            let mut elements = Vec::new();
            process_set(change, |v| {
                let d = nested_single(&v, &nested.attributes);
                current = compare_actions(current, d.action);
                elements.push(d);
            });
            Diff::new(
                Renderer::Set {
                    elements,
                    nested: true,
                },
                current,
                change.replace_paths.matches(),
            )
        }
    }
}

/// One element of a nested-attribute collection: a single nested object.
fn nested_single<'v, 'a>(
    change: &Change<'v, 'a>,
    attributes: &'v BTreeMap<String, Attribute>,
) -> Diff<'a> {
    if let Some(d) = check_for_sensitive(change, false, |c| nested_single(c, attributes)) {
        return d;
    }
    if let Some(d) = check_for_unknown(change, Unknown::Attributes(attributes), |c| {
        nested_single(c, attributes)
    }) {
        return d;
    }
    if misfit(change, Shape::Object) {
        return unexpected(change);
    }
    let (attrs, action) = process_nested_object(change, attributes);
    Diff::new(
        Renderer::Object {
            attributes: attrs,
            nested: true,
        },
        action,
        change.replace_paths.matches(),
    )
}

/// The attributes of a nested-attribute object. Terraform diffs the write-only ones last,
/// from the action of the others, and always keeps them.
fn process_nested_object<'v, 'a>(
    change: &Change<'v, 'a>,
    attributes: &'v BTreeMap<String, Attribute>,
) -> (Keyed<'a>, Action) {
    if !change.rules.terraform {
        return process_object(change, attributes, |c, a, p| {
            compute_diff_for_attribute(c, a, p)
        });
    }
    let mut out = Vec::new();
    let mut current = change.default_action_for_iteration();
    for pass_write_only in [false, true] {
        for (key, attr) in attributes {
            if attr.write_only != pass_write_only {
                continue;
            }
            let mut v = change.child_key(key);
            if !v.relevant.matches_partial() {
                v = v.as_noop();
            }
            v.before_explicit = false;
            v.after_explicit = false;
            if attr.write_only {
                out.push((key.clone(), terraform_write_only(&v, current)));
                continue;
            }
            let d = compute_diff_for_attribute(&v, attr, current);
            if d.action == Action::NoOp && v.before.is_null() && v.after.is_null() {
                continue;
            }
            current = compare_actions(current, d.action);
            out.push((key.clone(), d));
        }
    }
    (Keyed::from_pairs(out), current)
}

fn process_object<'v, 'a, T>(
    change: &Change<'v, 'a>,
    attributes: &'v BTreeMap<String, T>,
    compute: impl Fn(&Change<'v, 'a>, &'v T, Action) -> Diff<'a>,
) -> (Keyed<'a>, Action) {
    let mut out = Vec::new();
    let mut current = change.default_action_for_iteration();
    let mut walk = KeyWalk::new(change);
    for (key, attr) in attributes {
        let mut v = walk.child(key);
        if !v.relevant.matches_partial() {
            v = v.as_noop();
        }
        v.before_explicit = false;
        v.after_explicit = false;
        let d = compute(&v, attr, current);
        if d.action == Action::NoOp && v.before.is_null() && v.after.is_null() {
            continue;
        }
        current = compare_actions(current, d.action);
        out.push((key.clone(), d));
    }
    // in key order already: kept as it is
    (Keyed::from_pairs(out), current)
}

fn block_diffs_as_list<'v, 'a>(
    change: &Change<'v, 'a>,
    block: &'v Block,
) -> (Vec<Diff<'a>>, Action) {
    let mut current = change.default_action_for_iteration();
    let mut out = Vec::new();
    process_nested_list(change, |v| {
        let d = compute_diff_for_block(&v, block);
        current = compare_actions(current, d.action);
        out.push(d);
    });
    (out, current)
}

fn block_diffs_as_set<'v, 'a>(
    change: &Change<'v, 'a>,
    block: &'v Block,
) -> (Vec<Diff<'a>>, Action) {
    let mut current = change.default_action_for_iteration();
    let mut out = Vec::new();
    process_set(change, |v| {
        let d = compute_diff_for_block(&v, block);
        current = compare_actions(current, d.action);
        out.push(d);
    });
    (out, current)
}

fn block_diffs_as_map<'v, 'a>(change: &Change<'v, 'a>, block: &'v Block) -> (Keyed<'a>, Action) {
    keyed_diffs(change, change.explicit_keys(), |v| {
        compute_diff_for_block(v, block)
    })
}

/// The diffs of a map's `keys` (in ascending order), each child by `diff`, unchanged where the
/// plan's relevant attributes do not reach it; and the action they add up to from the map's
/// default.
fn keyed_diffs<'v, 'a>(
    change: &Change<'v, 'a>,
    keys: Vec<&'v str>,
    mut diff: impl FnMut(&Change<'v, 'a>) -> Diff<'a>,
) -> (Keyed<'a>, Action) {
    let mut current = map_default_action(change);
    let mut out = Vec::with_capacity(keys.len());
    let mut walk = KeyWalk::new(change);
    for key in keys {
        let mut v = walk.child(key);
        if !v.relevant.matches_partial() {
            v = v.as_noop();
        }
        let d = diff(&v);
        current = compare_actions(current, d.action);
        out.push((key.to_string(), d));
    }
    (Keyed::from_pairs(out), current)
}

fn process_nested_list<'v, 'a>(change: &Change<'v, 'a>, mut f: impl FnMut(Change<'v, 'a>)) {
    let bl = change.before.as_array().map_or(0, |a| a.len());
    let al = change.after.as_array().map_or(0, |a| a.len());
    for ix in 0..bl.max(al) {
        let mut v = change.child_index(ix, ix);
        if !v.relevant.matches_partial() {
            v = v.as_noop();
        }
        f(v);
    }
}

fn process_set<'v, 'a>(change: &Change<'v, 'a>, mut f: impl FnMut(Change<'v, 'a>)) {
    let bl = change.before.as_array().map_or(0, |a| a.len());
    let al = change.after.as_array().map_or(0, |a| a.len());
    let mut found_in_before: Vec<Option<usize>> = vec![None; bl];
    let mut found_in_after: Vec<Option<usize>> = vec![None; al];
    for (ix, fb) in found_in_before.iter_mut().enumerate() {
        for (jx, fa) in found_in_after.iter_mut().enumerate() {
            if fa.is_some() {
                continue;
            }
            let c = change.child_index(ix, jx);
            if c.before == c.after
                && c.is_before_sensitive() == c.is_after_sensitive()
                && !c.is_unknown()
            {
                // Like OpenTofu, the last matching element wins for `ix`.
                *fb = Some(jx);
                *fa = Some(ix);
            }
        }
    }
    let clear = |mut c: Change<'v, 'a>| {
        c.relevant = Matcher::Always;
        c
    };
    for (ix, fb) in found_in_before.iter().enumerate() {
        match fb {
            Some(jx) => f(clear(change.child_index(ix, *jx))),
            None => f(clear(change.child_index(ix, al))),
        }
    }
    for (jx, fa) in found_in_after.iter().enumerate() {
        if fa.is_none() {
            f(clear(change.child_index(bl, jx)));
        }
    }
}

/// The diff of an output value (or a `dynamic` attribute): plain JSON.
pub fn compute_diff_for_output<'v, 'a>(change: &Change<'v, 'a>) -> Diff<'a> {
    // Terraform computes what hides behind a sensitive or unknown mark as a typed value,
    // where (outside a non-legacy schema) an empty string is null.
    static DYNAMIC: Type = Type::Dynamic;
    let terraform = change.rules.terraform;
    let inner = |c: &Change<'v, 'a>| {
        if terraform {
            compute_diff_for_type(c, &DYNAMIC)
        } else {
            compute_diff_for_output(c)
        }
    };
    if let Some(d) = check_for_sensitive(change, false, inner) {
        return d;
    }
    if let Some(d) = check_for_unknown(change, Unknown::Value(&FALSE), inner) {
        return d;
    }
    json_transform(change)
}

#[cfg(test)]
mod tests;
