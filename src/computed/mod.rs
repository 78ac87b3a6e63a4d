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

/// The repeated nested blocks of a block, by kind.
#[derive(Debug, Clone)]
pub enum BlockKind<'a> {
    Single(Box<Diff<'a>>),
    List(Vec<Diff<'a>>),
    Set(Vec<Diff<'a>>),
    Map(BTreeMap<String, Diff<'a>>),
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
    Map {
        elements: BTreeMap<String, Diff<'a>>,
        nested: bool,
    },
    /// An object; `nested` objects (nested attributes) print `-> null` when deleted.
    Object {
        attributes: BTreeMap<String, Diff<'a>>,
        nested: bool,
    },
    Block {
        attributes: BTreeMap<String, Diff<'a>>,
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
