//! Unit tests of usage files: parsing, applying, templates and the figures they give, by hand.
use super::*;
