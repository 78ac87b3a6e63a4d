//! The one integration-test binary: runs the built `carbon-show` on fixtures.

mod alternatives;
mod api;
mod auto;
mod carbon;
mod cli;
mod color;
mod common;
mod coverage;
mod data;
mod figures;
mod gate;
mod golden;
mod impact;
mod mapping;
mod mistakes;
mod perf;
mod plans;
mod props;
mod provider;
mod regressions;
mod rollup;
mod security;
mod summary;
mod terraform;
mod workflow;
