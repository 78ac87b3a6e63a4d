//! Renderers: print a plan (and its figures) as human text, JSON, Markdown or an Impact Framework manifest.

pub mod impact;
pub mod json;
pub mod markdown;
