//! carbon-show: an OpenTofu/Terraform plan renderer that annotates each resource with its carbon cost.
//!
//! The pipeline is `plan` (typed model of `show -json`) → `differ` (values → computed Diff tree)
//! → `computed` (the Diff tree, its renderers and the JSON differ) → `render` (human, JSON,
//! Markdown, Impact Framework). Below them all: `structured` (a change walked in step, and the
//! list pairing) and `theme` (styles).
//! Figures come from `mapping` (Carbonifer's YAML + jq language) over `data` (reference tables)
//! and are turned into energy and emissions by `estimate`.

pub mod alternatives;
pub mod app;
pub mod carbon;
pub mod cli;
pub mod computed;
pub mod config;
pub mod data;
pub mod differ;
pub mod error;
pub mod escape;
pub mod estimate;
pub mod explain;
pub mod hints;
pub mod mapping;
pub mod memory;
pub mod output;
pub mod plan;
pub mod projects;
pub mod redact;
pub mod render;
pub mod report;
pub mod schema;
pub mod structured;
pub mod theme;
pub mod tool;
pub mod usage;

pub use error::{Error, ExitCode};
