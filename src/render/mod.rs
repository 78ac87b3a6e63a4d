//! Renderers: print a plan (and its figures) as human text, JSON, Markdown or an Impact Framework manifest.
//! Every carbon line and summary, human or Markdown, is worded in [`carbon`].
//!
//! The human renderer ([`human`]) prints OpenTofu's `tofu show` text through one [`Theme`];
//! it writes to any `&mut dyn Write` and never looks at the terminal itself.

pub mod carbon;
pub mod human;
pub mod impact;
pub mod json;
pub use crate::theme::Theme;
pub use human::{
    Annotator, Flavor, HumanOptions, HumanRenderer, NoAnnotations, PlanMode, Rendered,
};

use std::io::{self, Write};

use crate::plan::Plan;
use crate::schema::Schemas;

/// Renders a plan or state document as OpenTofu's human text; returns what the caller may
/// need besides the text (the plan's headline, [`Rendered`]).
///
/// ```
/// use std::path::Path;
/// use carbon_show::plan::{self, ResourceChange};
/// use carbon_show::render::{self, Annotator, HumanOptions, Theme};
///
/// struct Carbon;
/// impl Annotator for Carbon {
///     fn resource_lines(&self, rc: &ResourceChange) -> Vec<String> {
///         vec![format!("{}: 1.2 kgCO2e/month", rc.address)]
///     }
/// }
///
/// let bytes = br#"{"format_version":"1.2","resource_changes":[{"address":"a.b","mode":"managed",
///   "type":"a","name":"b","change":{"actions":["create"],"after":{"x":"1"}}}]}"#;
/// let plan = plan::parse(Path::new("plan.json"), bytes)?;
/// let mut out = Vec::new();
/// let rendered =
///     render::render_human(&plan, None, HumanOptions::default(), &Theme::plain(), &Carbon, &mut out)?;
/// let text = String::from_utf8(out)?;
/// assert_eq!(rendered.plan_line.as_deref(), Some("Plan: 1 to add, 0 to change, 0 to destroy."));
/// assert!(text.contains("  # a.b will be created\n  # a.b: 1.2 kgCO2e/month\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render_human(
    plan: &Plan,
    schemas: Option<&Schemas>,
    options: HumanOptions,
    theme: &Theme,
    annotator: &dyn Annotator,
    out: &mut dyn Write,
) -> io::Result<Rendered> {
    HumanRenderer {
        theme,
        options,
        schemas,
        annotator,
    }
    .render(plan, out)
}
