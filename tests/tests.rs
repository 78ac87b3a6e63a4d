//! The one integration-test binary: runs the built `carbon-show` on fixtures.

mod api;
mod cli;
mod color;
mod common;
mod golden;
mod plans;
