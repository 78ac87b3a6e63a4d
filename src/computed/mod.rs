//! The computed Diff tree: what changed, how, and how to print it.
//!
//! A [`Diff`] knows its [`Action`] and whether it forces replacement; its [`Renderer`] says
//! which shape it is (primitive, list, set, map, object, block, sensitive, unknown, …).
//! Rendering follows OpenTofu's rule that a parent writes the indentation, the key and the
//! action symbol of each child, and the child writes only its own value.

pub mod json;
mod render;

use std::collections::BTreeMap;

pub use crate::plan::Action;
use crate::plan::Value;
pub use render::{
    RenderOpts, action_symbol, always_shown, attribute_name, ensure_valid_attribute_name, go_quote,
    symbol_and_space,
};

/// The primitive type of a [`Renderer::Primitive`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrimType {
    String,
    Number,
    Bool,
    /// JSON `null` with no type (outputs).
    Null,
}

/// One node of the computed tree.
#[derive(Debug, Clone)]
pub struct Diff<'a> {
    pub renderer: Renderer<'a>,
    pub action: Action,
    pub replace: bool,
}

impl<'a> Diff<'a> {
    pub fn new(renderer: Renderer<'a>, action: Action, replace: bool) -> Self {
        Diff {
            renderer,
            action,
            replace,
        }
    }
}

/// Diffs by key in key order, as a block, an object or a map holds them: a sorted vector,
/// built once and walked in order by the renderers. (A `BTreeMap` built at once copies its
/// pairs into a vector, sorts them with a scratch buffer of their size, then builds its
/// nodes: three copies of a wide object's children at the peak.)
#[derive(Debug, Clone, Default)]
pub struct Keyed<'a>(Vec<(String, Diff<'a>)>);

impl<'a> Keyed<'a> {
    /// The pairs in key order; of a key given twice, the last stays (as a map's insert
    /// keeps it). Pairs already in order (the differ's, nearly always) are kept as they are.
    pub fn from_pairs(mut pairs: Vec<(String, Diff<'a>)>) -> Self {
        if !pairs.windows(2).all(|w| w[0].0 < w[1].0) {
            // (stable: of equal keys, the later stays after the earlier)
            pairs.sort_by(|a, b| a.0.cmp(&b.0));
            let mut unique: Vec<(String, Diff<'a>)> = Vec::with_capacity(pairs.len());
            for pair in pairs {
                match unique.last_mut() {
                    Some(last) if last.0 == pair.0 => *last = pair,
                    _ => unique.push(pair),
                }
            }
            pairs = unique;
        }
        Keyed(pairs)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The pairs in key order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&String, &Diff<'a>)> {
        self.0.iter().map(|(k, d)| (k, d))
    }

    pub fn keys(&self) -> impl ExactSizeIterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }
}

impl<'a> FromIterator<(String, Diff<'a>)> for Keyed<'a> {
    fn from_iter<I: IntoIterator<Item = (String, Diff<'a>)>>(pairs: I) -> Self {
        Keyed::from_pairs(pairs.into_iter().collect())
    }
}

impl<'k, 'a> IntoIterator for &'k Keyed<'a> {
    type Item = (&'k String, &'k Diff<'a>);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'k, (String, Diff<'a>)>,
        fn(&'k (String, Diff<'a>)) -> (&'k String, &'k Diff<'a>),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, d)| (k, d))
    }
}

/// The repeated nested blocks of a block, by kind.
#[derive(Debug, Clone)]
pub enum BlockKind<'a> {
    Single(Box<Diff<'a>>),
    List(Vec<Diff<'a>>),
    Set(Vec<Diff<'a>>),
    Map(Keyed<'a>),
}

/// A nested block type of a block, with its replace and sensitivity flags.
#[derive(Debug, Clone)]
pub struct BlockEntry<'a> {
    pub kind: BlockKind<'a>,
    pub replace: bool,
    pub before_sensitive: bool,
    pub after_sensitive: bool,
    /// Terraform: the whole list, set or map of blocks becomes unknown; a
    /// `name (known after apply)` line comes before the (deleted) old blocks.
    pub unknown: bool,
}

/// The unchanged attributes of a block that the differ counted rather than kept (a
/// resource's top block, whose unchanged attributes the renderer hides): how many, and the
/// widest of their names as printed, which the shown names are padded to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Hidden {
    pub count: usize,
    pub width: usize,
}

/// The shape of a diff, and everything needed to print it.
#[derive(Debug, Clone)]
pub enum Renderer<'a> {
    Primitive {
        before: Value<'a>,
        after: Value<'a>,
        ty: PrimType,
    },
    /// A list or tuple. `display_context` shows the unchanged neighbours of changed elements.
    List {
        elements: Vec<Diff<'a>>,
        display_context: bool,
    },
    /// A set; `nested` sets (nested attributes) push `# forces replacement` to their elements.
    Set {
        elements: Vec<Diff<'a>>,
        nested: bool,
    },
    /// A map; `nested` maps (nested attributes) don't align keys and push the replace
    /// marker and the null suffix down.
    Map { elements: Keyed<'a>, nested: bool },
    /// An object; `nested` objects (nested attributes) print `-> null` when deleted.
    Object { attributes: Keyed<'a>, nested: bool },
    Block {
        attributes: Keyed<'a>,
        blocks: BTreeMap<String, BlockEntry<'a>>,
        /// The unchanged attributes the renderer would hide, counted instead of kept.
        hidden: Hidden,
    },
    Sensitive {
        inner: Box<Diff<'a>>,
        before: bool,
        after: bool,
    },
    SensitiveBlock {
        inner: Box<Diff<'a>>,
        before: bool,
        after: bool,
    },
    /// `(known after apply)`, with what was there before, if anything.
    Unknown { before: Option<Box<Diff<'a>>> },
    TypeChange {
        before: Box<Diff<'a>>,
        after: Box<Diff<'a>>,
    },
    /// `(write-only attribute)`; Terraform says `(sensitive, write-only attribute)` when the
    /// value it was given is marked sensitive.
    WriteOnly { sensitive: bool },
    /// A value whose shape does not match its schema (a string where a list was expected,
    /// …): printed as plain JSON, as an attribute, never dropped (and never marked).
    Unexpected(Box<Diff<'a>>),
}

#[cfg(test)]
mod tests;
