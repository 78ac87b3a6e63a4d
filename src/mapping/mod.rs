//! The mapping engine: Carbonifer's YAML + jq mapping language, evaluated with jaq.
