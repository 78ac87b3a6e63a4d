//! The children of one change by key, found by walking its objects beside the keys rather than
//! by searching each object for each key.

use std::borrow::Cow;
use std::collections::btree_map;
use std::iter::Peekable;

use super::change::NULL;
use super::{Change, Unknown};
use crate::plan::Value;

type Entries<'v, 'a> = Peekable<btree_map::Iter<'v, Cow<'a, str>, Value<'a>>>;

/// [`Change::child_key`] for keys asked in ascending order: each of the change's objects
/// (before, after, unknown, both sensitive marks) is walked once alongside the keys, so a
/// wide object's children cost one walk instead of a search each (50,000 attributes: 16
/// string comparisons a key and an object, before). A key below the last one asked is
/// searched as `child_key` does; the answers are `child_key`'s either way.
pub struct KeyWalk<'c, 'v, 'a> {
    change: &'c Change<'v, 'a>,
    before: Option<Entries<'v, 'a>>,
    after: Option<Entries<'v, 'a>>,
    unknown: Option<Entries<'v, 'a>>,
    before_sensitive: Option<Entries<'v, 'a>>,
    after_sensitive: Option<Entries<'v, 'a>>,
    last: Option<&'c str>,
    /// Small objects: every key searched.
    searched: bool,
}

fn entries<'v, 'a>(v: &'v Value<'a>) -> Option<Entries<'v, 'a>> {
    v.as_object().map(|o| o.iter().peekable())
}

/// The value at `key` in the walked object, passing the smaller keys and the one found
/// (`None`: the object has none there, or the value is not an object). One comparison a
/// step: keys are asked in strictly ascending order.
fn seek<'v, 'a>(entries: &mut Option<Entries<'v, 'a>>, key: &str) -> Option<&'v Value<'a>> {
    let entries = entries.as_mut()?;
    while let Some((k, v)) = entries.peek() {
        match k.as_ref().cmp(key) {
            std::cmp::Ordering::Less => {
                entries.next();
            }
            std::cmp::Ordering::Equal => {
                let v = *v;
                entries.next();
                return Some(v);
            }
            std::cmp::Ordering::Greater => return None,
        }
    }
    None
}

/// Objects up to this many keys are searched, as `child_key` does: a short search costs less
/// than setting up the walk (dense and deep plans' resources: +3 % of the diff's instructions
/// walked).
const SEARCHED: usize = 32;

impl<'c, 'v, 'a> KeyWalk<'c, 'v, 'a> {
    pub fn new(change: &'c Change<'v, 'a>) -> Self {
        let len = |v: &Value| v.as_object().map_or(0, |o| o.len());
        if len(change.before).max(len(change.after)) <= SEARCHED {
            return KeyWalk {
                change,
                before: None,
                after: None,
                unknown: None,
                before_sensitive: None,
                after_sensitive: None,
                last: None,
                searched: true,
            };
        }
        KeyWalk {
            searched: false,
            change,
            before: entries(change.before),
            after: entries(change.after),
            unknown: match change.unknown {
                Unknown::Value(v) => entries(v),
                Unknown::Attributes(_) => None,
            },
            before_sensitive: entries(change.before_sensitive),
            after_sensitive: entries(change.after_sensitive),
            last: None,
        }
    }

    /// The child at `key`, as [`Change::child_key`] gives it.
    pub fn child(&mut self, key: &'c str) -> Change<'v, 'a> {
        // (a key asked again was passed: searched too)
        if self.searched || self.last.is_some_and(|last| key <= last) {
            return self.change.child_key(key);
        }
        self.last = Some(key);
        let before = seek(&mut self.before, key);
        let after = seek(&mut self.after, key);
        let unknown = match self.change.unknown {
            Unknown::Value(_) => Unknown::Value(seek(&mut self.unknown, key).unwrap_or(&NULL)),
            attributes => attributes.child_key(key),
        };
        Change {
            before: before.unwrap_or(&NULL),
            after: after.unwrap_or(&NULL),
            before_explicit: before.is_some(),
            after_explicit: after.is_some(),
            unknown,
            before_sensitive: seek(&mut self.before_sensitive, key).unwrap_or(&NULL),
            after_sensitive: seek(&mut self.after_sensitive, key).unwrap_or(&NULL),
            replace_paths: self.change.replace_paths.child_key(key),
            relevant: self.change.relevant.child_key(key),
            rules: self.change.rules,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structured::Matcher;

    fn object(json: &str) -> Value<'_> {
        crate::plan::parse_json(json).unwrap()
    }

    /// Every key, in order, out of order and absent, gets what `child_key` gives.
    #[test]
    fn the_walk_answers_as_child_key() {
        // more keys than are searched, so that the walk is taken
        let fillers: String = (0..SEARCHED)
            .map(|i| format!(r#","m{i:02}": {i}"#))
            .collect();
        let before = format!(r#"{{"a": 1, "c": {{"x": 1}}, "e": "five", "g": null{fillers}}}"#);
        let before = object(&before);
        let after = object(r#"{"b": 2, "c": {"x": 2}, "e": "five", "f": [1]}"#);
        let unknown = object(r#"{"b": true, "f": true}"#);
        let before_sensitive = object(r#"{"e": true}"#);
        let after_sensitive = object(r#"{"c": {"x": true}, "e": true}"#);
        let change = Change {
            before: &before,
            after: &after,
            before_explicit: true,
            after_explicit: true,
            unknown: Unknown::Value(&unknown),
            before_sensitive: &before_sensitive,
            after_sensitive: &after_sensitive,
            replace_paths: Matcher::empty(false),
            relevant: Matcher::Always,
            rules: Default::default(),
        };
        let mut walk = KeyWalk::new(&change);
        assert!(!walk.searched);
        // ascending, with absent keys between and one asked twice (searched the second
        // time: the walk passed it); then keys below the last (searched)
        for key in [
            "", "a", "b", "bb", "c", "c", "d", "e", "f", "g", "h", "c", "a", "z",
        ] {
            let (w, s) = (walk.child(key), change.child_key(key));
            let seen = |c: &Change| {
                format!(
                    "{:?} {:?} {} {} {:?} {:?} {:?}",
                    c.before,
                    c.after,
                    c.before_explicit,
                    c.after_explicit,
                    match c.unknown {
                        Unknown::Value(v) => Some(v),
                        Unknown::Attributes(_) => None,
                    },
                    c.before_sensitive,
                    c.after_sensitive
                )
            };
            assert_eq!(seen(&w), seen(&s), "{key}");
        }
    }
}
