//! The one integration-test binary: runs the built `carbon-show` on fixtures.
mod impact;
mod data;
mod mapping;
