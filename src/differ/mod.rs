//! The differ: turns a change (before, after, unknown, sensitive, replace paths) into a computed Diff tree.
