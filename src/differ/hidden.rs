//! The unchanged attributes of a resource's top block, counted by the differ instead of kept
//! (`computed::Hidden`): the renderer hides them and reads only their number and names' width.

use super::{Attribute, Change, Type, Value};
use crate::computed::{Hidden, attribute_name};

/// One more hidden attribute, named `key`.
pub(super) fn count(hidden: &mut Hidden, key: &str) {
    hidden.count += 1;
    hidden.width = hidden.width.max(attribute_name(key).len());
}

/// Whether the diff of an attribute is certainly `NoOp`, seen at once: the same scalar on
/// both sides (not `""`, which a block may read as null), nothing sensitive, unknown or
/// write-only about it, and a primitive or `dynamic` type, which a scalar fits.
/// `diff_child_attribute` answers `NoOp` for these (its `calculate_action` and the JSON
/// differ's: equal values, explicit on neither side, no sensitivity change).
pub(super) fn unchanged_scalar(change: &Change, attr: &Attribute) -> bool {
    if attr.write_only || attr.sensitive || attr.nested_type.is_some() {
        return false;
    }
    if !matches!(
        attr.type_,
        Some(Type::String | Type::Number | Type::Bool | Type::Dynamic)
    ) {
        return false;
    }
    let scalar = match change.before {
        Value::String(s) => !s.is_empty(),
        Value::Number(_) | Value::Bool(_) => true,
        _ => false,
    };
    scalar
        && change.before == change.after
        && !change.is_unknown()
        && !change.is_before_sensitive()
        && !change.is_after_sensitive()
}
