//! A structured change: before/after values with their unknown and sensitive marks, the
//! replace paths and the relevant attributes, walked in step.

use std::collections::BTreeMap;

use super::Matcher;
use crate::plan::{Action, Value};
use crate::schema::Attribute;

pub(crate) static NULL: Value<'static> = Value::Null;
pub(crate) static TRUE: Value<'static> = Value::Bool(true);
pub(crate) static FALSE: Value<'static> = Value::Bool(false);

/// The unknown marks of a change: a value tree, or "every attribute of this schema".
#[derive(Debug, Clone, Copy)]
pub enum Unknown<'v, 'a> {
    Value(&'v Value<'a>),
    Attributes(&'v BTreeMap<String, Attribute>),
}

impl<'v, 'a> Unknown<'v, 'a> {
    pub fn is_true(&self) -> bool {
        matches!(self, Unknown::Value(Value::Bool(true)))
    }
    pub(super) fn child_key(&self, key: &str) -> Self {
        match self {
            Unknown::Value(Value::Object(o)) => Unknown::Value(o.get(key).unwrap_or(&NULL)),
            Unknown::Attributes(a) if a.contains_key(key) => Unknown::Value(&TRUE),
            _ => Unknown::Value(&NULL),
        }
    }
    fn child_index(&self, ix: usize) -> Self {
        match self {
            Unknown::Value(Value::Array(a)) => Unknown::Value(a.get(ix).unwrap_or(&NULL)),
            _ => Unknown::Value(&NULL),
        }
    }
    fn object(&self) -> Option<&'v BTreeMap<std::borrow::Cow<'a, str>, Value<'a>>> {
        match self {
            Unknown::Value(v) => v.as_object(),
            Unknown::Attributes(_) => None,
        }
    }
}

/// Which product's rules the differ follows where OpenTofu and Terraform differ.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rules {
    /// Terraform's rules (else OpenTofu's).
    pub terraform: bool,
    /// Terraform: the resource's schema has features the legacy SDK could not express
    /// (dynamic, object or tuple types, nested attributes, map or group blocks), so an
    /// empty string is a value, not the SDK's spelling of null.
    pub non_legacy: bool,
    /// Terraform: the rules of the version that wrote the document (the newest by default).
    pub since: super::Since,
    /// The renderer hides this block's unchanged attributes (a resource's top block, not
    /// imported): the differ counts them (`computed::Hidden`) instead of keeping their diffs.
    /// Read by the block it is set on only; its children never see it.
    pub hide_unchanged_attributes: bool,
}

impl Rules {
    /// Terraform 1.8+: whether `""` is null depends on the schema (`non_legacy`); else (and
    /// for OpenTofu) `""` is null for every attribute of a block and a value elsewhere.
    pub fn empty_string_by_schema(&self) -> bool {
        self.terraform && self.since.empty_string_by_schema
    }
}

/// One change, as the differ sees it.
#[derive(Debug, Clone)]
pub struct Change<'v, 'a> {
    pub before: &'v Value<'a>,
    pub after: &'v Value<'a>,
    pub before_explicit: bool,
    pub after_explicit: bool,
    pub unknown: Unknown<'v, 'a>,
    pub before_sensitive: &'v Value<'a>,
    pub after_sensitive: &'v Value<'a>,
    pub replace_paths: Matcher<'v, 'a>,
    pub relevant: Matcher<'v, 'a>,
    pub rules: Rules,
}

impl<'v, 'a> Change<'v, 'a> {
    /// A change from the plan's JSON fields.
    pub fn from_plan(c: &'v crate::plan::Change<'a>, relevant: Matcher<'v, 'a>) -> Self {
        Change {
            before: &c.before,
            after: &c.after,
            before_explicit: false,
            after_explicit: false,
            unknown: Unknown::Value(&c.after_unknown),
            before_sensitive: &c.before_sensitive,
            after_sensitive: &c.after_sensitive,
            replace_paths: Matcher::parse(&c.replace_paths, false),
            relevant,
            rules: Rules::default(),
        }
    }

    /// The same change under `rules`.
    pub fn with_rules(self, rules: Rules) -> Self {
        Change { rules, ..self }
    }

    /// A no-change view of a state value (before = after).
    pub fn from_state(values: &'v Value<'a>, sensitive: &'v Value<'a>) -> Self {
        Change {
            before: values,
            after: values,
            before_explicit: false,
            after_explicit: false,
            unknown: Unknown::Value(&FALSE),
            before_sensitive: sensitive,
            after_sensitive: sensitive,
            replace_paths: Matcher::empty(false),
            relevant: Matcher::Always,
            rules: Rules::default(),
        }
    }

    pub fn is_before_sensitive(&self) -> bool {
        matches!(self.before_sensitive, Value::Bool(true))
    }
    pub fn is_after_sensitive(&self) -> bool {
        matches!(self.after_sensitive, Value::Bool(true))
    }
    pub fn is_unknown(&self) -> bool {
        self.unknown.is_true()
    }

    pub fn calculate_action(&self) -> Action {
        let b_missing = self.before.is_null() && !self.before_explicit;
        let a_missing = self.after.is_null() && !self.after_explicit;
        if b_missing && (!self.after.is_null() || self.after_explicit) {
            return Action::Create;
        }
        if a_missing && (!self.before.is_null() || self.before_explicit) {
            return Action::Delete;
        }
        if self.before == self.after
            && self.after_explicit == self.before_explicit
            && self.is_after_sensitive() == self.is_before_sensitive()
        {
            return Action::NoOp;
        }
        Action::Update
    }

    pub fn default_action_for_iteration(&self) -> Action {
        match (self.before.is_null(), self.after.is_null()) {
            (true, true) => Action::NoOp,
            (true, false) => Action::Create,
            (false, true) => Action::Delete,
            (false, false) => Action::NoOp,
        }
    }

    pub fn as_noop(&self) -> Self {
        Change {
            before_explicit: self.before_explicit,
            after_explicit: self.before_explicit,
            before: self.before,
            after: self.before,
            unknown: Unknown::Value(&FALSE),
            before_sensitive: self.before_sensitive,
            after_sensitive: self.before_sensitive,
            replace_paths: self.replace_paths.clone(),
            relevant: self.relevant.clone(),
            // Terraform's AsNoOp/AsDelete/AsCreate drop NonLegacySchema.
            rules: Rules {
                non_legacy: false,
                ..self.rules
            },
        }
    }

    pub fn as_delete(&self) -> Self {
        Change {
            before_explicit: self.before_explicit,
            after_explicit: false,
            before: self.before,
            after: &NULL,
            unknown: Unknown::Value(&NULL),
            before_sensitive: self.before_sensitive,
            after_sensitive: &NULL,
            replace_paths: self.replace_paths.clone(),
            relevant: self.relevant.clone(),
            // Terraform's AsNoOp/AsDelete/AsCreate drop NonLegacySchema.
            rules: Rules {
                non_legacy: false,
                ..self.rules
            },
        }
    }

    pub fn as_create(&self) -> Self {
        Change {
            before_explicit: false,
            after_explicit: self.after_explicit,
            before: &NULL,
            after: self.after,
            unknown: self.unknown,
            before_sensitive: &NULL,
            after_sensitive: self.after_sensitive,
            replace_paths: self.replace_paths.clone(),
            relevant: self.relevant.clone(),
            // Terraform's AsNoOp/AsDelete/AsCreate drop NonLegacySchema.
            rules: Rules {
                non_legacy: false,
                ..self.rules
            },
        }
    }

    /// The child at an object key.
    pub fn child_key(&self, key: &str) -> Self {
        fn get<'v, 'a>(v: &'v Value<'a>, key: &str) -> (&'v Value<'a>, bool) {
            match v.as_object().and_then(|o| o.get(key)) {
                Some(c) => (c, true),
                None => (&NULL, false),
            }
        }
        let (before, before_explicit) = get(self.before, key);
        let (after, after_explicit) = get(self.after, key);
        Change {
            before,
            after,
            before_explicit,
            after_explicit,
            unknown: self.unknown.child_key(key),
            before_sensitive: get(self.before_sensitive, key).0,
            after_sensitive: get(self.after_sensitive, key).0,
            replace_paths: self.replace_paths.child_key(key),
            relevant: self.relevant.child_key(key),
            rules: self.rules,
        }
    }

    /// The child pairing element `bi` of before with element `ai` of after.
    pub fn child_index(&self, bi: usize, ai: usize) -> Self {
        fn get<'v, 'a>(v: &'v Value<'a>, ix: usize) -> (&'v Value<'a>, bool) {
            match v.as_array().and_then(|a| a.get(ix)) {
                Some(c) => (c, true),
                None => (&NULL, false),
            }
        }
        let (before, before_explicit) = get(self.before, bi);
        let (after, after_explicit) = get(self.after, ai);
        let before_len = self.before.as_array().map_or(0, |a| a.len());
        let relevant_ix = if bi >= before_len { ai } else { bi };
        Change {
            before,
            after,
            before_explicit,
            after_explicit,
            unknown: self.unknown.child_index(ai),
            before_sensitive: get(self.before_sensitive, bi).0,
            after_sensitive: get(self.after_sensitive, ai).0,
            replace_paths: self.replace_paths.child_index(relevant_ix),
            relevant: self.relevant.child_index(relevant_ix),
            rules: self.rules,
        }
    }

    /// Keys of before and after.
    pub fn explicit_keys(&self) -> Vec<&'v str> {
        sorted_keys([self.before.as_object(), self.after.as_object()])
    }

    /// Keys of before, after, unknown and both sensitive trees.
    pub fn all_keys(&self) -> Vec<&'v str> {
        sorted_keys([
            self.before.as_object(),
            self.after.as_object(),
            self.unknown.object(),
            self.after_sensitive.as_object(),
            self.before_sensitive.as_object(),
        ])
    }
}

/// The keys of several objects, sorted and each once. Each object's keys come sorted: they
/// are merged, one comparison a key (a wide object's 100k keys).
fn sorted_keys<'v, 'a: 'v, const N: usize>(
    objects: [Option<&'v std::collections::BTreeMap<std::borrow::Cow<'a, str>, Value<'a>>>; N],
) -> Vec<&'v str> {
    let mut keys: Vec<&'v str> = Vec::new();
    for o in objects.into_iter().flatten() {
        if keys.is_empty() {
            keys.extend(o.keys().map(|k| k.as_ref()));
            continue;
        }
        if o.is_empty() {
            continue;
        }
        let mut merged = Vec::with_capacity(keys.len().max(o.len()));
        let mut a = keys.iter().copied().peekable();
        let mut b = o.keys().map(|k| k.as_ref()).peekable();
        while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
            match x.cmp(y) {
                std::cmp::Ordering::Less => merged.extend(a.next()),
                std::cmp::Ordering::Greater => merged.extend(b.next()),
                std::cmp::Ordering::Equal => {
                    merged.extend(a.next());
                    b.next();
                }
            }
        }
        merged.extend(a);
        merged.extend(b);
        keys = merged;
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_keys_are_the_sorted_union_of_the_objects_keys() {
        let parse = |json| crate::plan::parse_json(json).unwrap();
        let before = parse(r#"{"a": 1, "c": 1, "e": 1}"#);
        let after = parse(r#"{"b": 1, "c": 1, "f": 1}"#);
        let unknown = parse(r#"{"f": true, "g": true}"#);
        let empty = parse("{}");
        let sensitive = parse(r#"{"0": true, "a": true}"#);
        let change = Change {
            before: &before,
            after: &after,
            before_explicit: false,
            after_explicit: false,
            unknown: Unknown::Value(&unknown),
            before_sensitive: &empty,
            after_sensitive: &sensitive,
            replace_paths: Matcher::empty(false),
            relevant: Matcher::Always,
            rules: Rules::default(),
        };
        assert_eq!(change.all_keys(), ["0", "a", "b", "c", "e", "f", "g"]);
        assert_eq!(change.explicit_keys(), ["a", "b", "c", "e", "f"]);
    }
}
