//! Estimates: energy and emissions from a resource's figures and the reference coefficients.
