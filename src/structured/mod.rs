//! A change as the differs walk it (before, after, unknown and sensitive marks, replace paths,
//! relevant attributes, the flavour's rules) and the pairing of list elements: the layer under
//! both the differ and the computed renderers (Terraform's `structured` and `collections`), and
//! the Terraform version rules (`version`).

mod change;
mod collections;
mod matcher;
pub mod version;
mod walk;

pub use change::{Change, Rules, Unknown};
pub(crate) use change::{FALSE, NULL, TRUE};
pub use collections::{
    compare_actions, longest_common_subsequence, process_slice, process_slice_terraform,
};
pub use matcher::Matcher;
pub use version::{Since, Version};
pub use walk::KeyWalk;
