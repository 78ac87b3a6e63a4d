//! A set of attribute paths (`replace_paths`, `relevant_attributes`) walked down a value: at
//! each place, whether a path ends here or goes on below, in time linear in the paths.
//!
//! A place's paths are grouped by their first step once, the first time a child is asked for
//! (and the group shared by the clones of the place): a child is then its group alone, so an
//! object of n attributes with n paths costs n, not n × n.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use crate::plan::Value;

/// A set of paths of a place smaller than this is scanned rather than grouped.
const SCAN: usize = 8;

type Path<'v, 'a> = &'v [Value<'a>];

/// A set of attribute paths (`replace_paths`, `relevant_attributes`).
#[derive(Debug, Clone)]
pub enum Matcher<'v, 'a> {
    /// Matches everything, at every depth.
    Always,
    /// No path (whether a path that matched would reach the children, for [`Matcher::push`]).
    Empty { propagate: bool },
    /// At least one path.
    Paths(Arc<Paths<'v, 'a>>),
}

/// The paths of one place: what is left of each below it.
#[derive(Debug, Clone)]
pub struct Paths<'v, 'a> {
    paths: Vec<Path<'v, 'a>>,
    /// Whether a path that already matched keeps matching every child.
    propagate: bool,
    /// Whether one of `paths` ends here.
    here: bool,
    /// `paths` by their first step, built the first time a child of a large set is asked for.
    steps: OnceLock<Steps>,
}

/// Paths grouped by their first step: the positions in [`Paths::paths`] of those whose first
/// step names a key (by the key's hash: a lookup checks the step) or an index (a step written
/// as a string can name both). Positions rather than the paths keep `Matcher` covariant.
#[derive(Debug, Clone, Default)]
struct Steps {
    keys: HashMap<u64, Vec<u32>>,
    indexes: HashMap<i64, Vec<u32>>,
}

fn key_hash(key: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0x7265_706c).hash_one(key)
}

/// The index a step names: `1`, `"1"`, `1.0` (as Terraform reads it, through a float).
fn index_of(step: &Value<'_>) -> Option<i64> {
    match step {
        Value::Number(n) => n.parse::<f64>().ok().map(|f| f as i64),
        Value::String(s) => s.parse::<f64>().ok().map(|f| f as i64),
        _ => None,
    }
}

impl<'v, 'a> Matcher<'v, 'a> {
    pub fn empty(propagate: bool) -> Self {
        Matcher::Empty { propagate }
    }

    /// Parses `[[step, …], …]`; anything else is an empty matcher.
    pub fn parse(v: &'v Value<'a>, propagate: bool) -> Self {
        let paths = v
            .as_array()
            .map(|a| a.iter().filter_map(|p| p.as_array()).collect())
            .unwrap_or_default();
        Self::of(paths, propagate)
    }

    fn of(paths: Vec<Path<'v, 'a>>, propagate: bool) -> Self {
        if paths.is_empty() {
            return Matcher::Empty { propagate };
        }
        Matcher::Paths(Arc::new(Paths {
            here: paths.iter().any(|p| p.is_empty()),
            paths,
            propagate,
            steps: OnceLock::new(),
        }))
    }

    /// Adds one path.
    pub fn push(&mut self, path: &'v Value<'a>) {
        let Some(p) = path.as_array() else { return };
        match self {
            Matcher::Always => {}
            Matcher::Empty { propagate } => *self = Self::of(vec![p], *propagate),
            Matcher::Paths(set) => {
                let set = Arc::make_mut(set);
                set.paths.push(p);
                set.here |= p.is_empty();
                set.steps = OnceLock::new();
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        matches!(self, Matcher::Empty { .. })
    }

    /// Whether this exact place matches.
    pub fn matches(&self) -> bool {
        match self {
            Matcher::Always => true,
            Matcher::Empty { .. } => false,
            Matcher::Paths(set) => set.here,
        }
    }

    /// Whether this place or something below it matches.
    pub fn matches_partial(&self) -> bool {
        !self.is_empty()
    }

    /// The place below: the paths whose first step `step` takes (among those `group` finds
    /// in the grouped steps), and a path that ended here when matches propagate.
    fn child(
        &self,
        step: impl Fn(&Value) -> bool,
        group: impl FnOnce(&Steps) -> Option<&Vec<u32>>,
    ) -> Self {
        let set = match self {
            Matcher::Always => return Matcher::Always,
            Matcher::Empty { propagate } => {
                return Matcher::Empty {
                    propagate: *propagate,
                };
            }
            Matcher::Paths(set) => set,
        };
        let mut out: Vec<Path<'v, 'a>> = Vec::new();
        if set.here && set.propagate {
            // one empty path says all the others would
            out.push(&[]);
        }
        let taken = |p: &&Path<'v, 'a>| p.first().is_some_and(&step);
        if set.paths.len() < SCAN {
            out.extend(set.paths.iter().filter(taken).map(|p| &p[1..]));
        } else if let Some(g) = group(set.steps.get_or_init(|| set.group())) {
            let paths = g.iter().map(|&i| &set.paths[i as usize]);
            out.extend(paths.filter(taken).map(|p| &p[1..]));
        }
        Self::of(out, set.propagate)
    }

    pub fn child_key(&self, key: &str) -> Self {
        self.child(|s| s.as_str() == Some(key), |g| g.keys.get(&key_hash(key)))
    }

    pub fn child_index(&self, index: usize) -> Self {
        let ix = index as i64;
        self.child(|s| index_of(s) == Some(ix), |g| g.indexes.get(&ix))
    }
}

impl Paths<'_, '_> {
    fn group(&self) -> Steps {
        let mut g = Steps::default();
        for (i, p) in self.paths.iter().enumerate() {
            let Some(first) = p.first() else { continue };
            if let Some(k) = first.as_str() {
                g.keys.entry(key_hash(k)).or_default().push(i as u32);
            }
            if let Some(ix) = index_of(first) {
                g.indexes.entry(ix).or_default().push(i as u32);
            }
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Value<'_> {
        crate::plan::parse_json(s).unwrap()
    }

    /// Grouped (many paths) and scanned (few) sets answer alike.
    #[test]
    fn grouped_and_scanned_sets_agree() {
        let few = v(r#"[["a", 0, "b"], ["c"], ["1"], [2.0, "x"]]"#);
        let mut many_text = String::from(r#"[["a", 0, "b"], ["c"], ["1"], [2.0, "x"]"#);
        for i in 0..20 {
            many_text.push_str(&format!(r#", ["z{i}", {i}]"#));
        }
        many_text.push(']');
        let many = v(&many_text);
        for propagate in [false, true] {
            for m in [
                Matcher::parse(&few, propagate),
                Matcher::parse(&many, propagate),
            ] {
                assert!(!m.matches() && m.matches_partial());
                let a = m.child_key("a");
                assert!(!a.matches() && a.matches_partial());
                assert!(a.child_index(0).child_key("b").matches());
                assert!(!a.child_index(1).matches_partial());
                assert!(m.child_key("c").matches());
                assert_eq!(m.child_key("c").child_key("d").matches(), propagate);
                assert!(m.child_key("1").matches() && m.child_index(1).matches());
                assert!(m.child_index(2).child_key("x").matches());
                assert!(!m.child_key("2").matches_partial());
                assert!(!m.child_key("q").matches_partial());
            }
        }
        assert!(
            Matcher::parse(&many, false)
                .child_key("z7")
                .child_index(7)
                .matches()
        );
    }
}
