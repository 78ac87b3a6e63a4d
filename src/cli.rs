//! Command line: clap flags, turned into a validated [`Options`] that the core uses.
//! (Skeleton: the renderer work fills in the flags; clap types never leave this module.)

/// Validated options for one run.
#[derive(Debug, Clone, Default)]
pub struct Options {}
