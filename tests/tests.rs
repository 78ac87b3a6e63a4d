//! The one integration-test binary: runs the built `carbon-show` on fixtures.

mod api;
mod carbon;
mod cli;
mod color;
mod common;
mod data;
mod figures;
mod golden;
mod impact;
mod mapping;
mod plans;
mod props;
mod regressions;
