//! The mapping engine: Carbonifer's YAML + jq mapping language, evaluated with jaq.
pub mod jq;
pub mod placeholder;
