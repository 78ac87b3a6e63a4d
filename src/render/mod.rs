//! Renderers: print a plan (and its figures) as human text, JSON, Markdown or an Impact Framework manifest.
//!
//! The human renderer ([`human`]) prints OpenTofu's `tofu show` text through one [`Theme`];
//! it writes to any `&mut dyn Write` and never looks at the terminal itself.

pub mod human;
pub mod theme;

pub use human::{Annotator, Flavor, HumanOptions, HumanRenderer, NoAnnotations, PlanMode};
pub use theme::Theme;

use std::io::{self, Write};

use crate::plan::Plan;
use crate::schema::Schemas;

/// Renders a plan or state document as OpenTofu's human text.
pub fn render_human(
    plan: &Plan,
    schemas: Option<&Schemas>,
    options: HumanOptions,
    theme: &Theme,
    annotator: &dyn Annotator,
    out: &mut dyn Write,
) -> io::Result<()> {
    HumanRenderer {
        theme,
        options,
        schemas,
        annotator,
    }
    .render(plan, out)
}
