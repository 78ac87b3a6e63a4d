//! The one integration-test binary: runs the built `carbon-show` on fixtures.

mod golden;
