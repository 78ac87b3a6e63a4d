//! The computed Diff tree: what changed, how, and how to print it (filled by the renderer work).
