//! Reference data tables (instances, power coefficients, grid intensity, embodied), embedded in the binary.
