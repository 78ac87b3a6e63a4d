//! The registry of embedded data files: every `data/*.json` table, by file name, via `include_str!`.

/// Every embedded data file, by file name.
const FILES: &[(&str, &str)] = &[
    (
        "aws_instances.json",
        include_str!("../../data/aws_instances.json"),
    ),
    (
        "aws_instances.source.json",
        include_str!("../../data/aws_instances.source.json"),
    ),
    (
        "gcp_instances.json",
        include_str!("../../data/gcp_instances.json"),
    ),
    (
        "gcp_instances.source.json",
        include_str!("../../data/gcp_instances.source.json"),
    ),
    (
        "gcp_sql_tiers.json",
        include_str!("../../data/gcp_sql_tiers.json"),
    ),
    (
        "gcp_sql_tiers.source.json",
        include_str!("../../data/gcp_sql_tiers.source.json"),
    ),
    (
        "azure_instances.json",
        include_str!("../../data/azure_instances.json"),
    ),
    (
        "azure_instances.source.json",
        include_str!("../../data/azure_instances.source.json"),
    ),
    (
        "coefficients.json",
        include_str!("../../data/coefficients.json"),
    ),
    (
        "coefficients.source.json",
        include_str!("../../data/coefficients.source.json"),
    ),
    (
        "grid_intensity.json",
        include_str!("../../data/grid_intensity.json"),
    ),
    (
        "grid_intensity.source.json",
        include_str!("../../data/grid_intensity.source.json"),
    ),
    ("embodied.json", include_str!("../../data/embodied.json")),
    (
        "embodied.source.json",
        include_str!("../../data/embodied.source.json"),
    ),
    (
        "aws_redshift_nodes.json",
        include_str!("../../data/aws_redshift_nodes.json"),
    ),
    (
        "aws_redshift_nodes.source.json",
        include_str!("../../data/aws_redshift_nodes.source.json"),
    ),
    (
        "azure_app_service_plans.json",
        include_str!("../../data/azure_app_service_plans.json"),
    ),
    (
        "azure_app_service_plans.source.json",
        include_str!("../../data/azure_app_service_plans.source.json"),
    ),
    (
        "azure_redis_cache_sizes.json",
        include_str!("../../data/azure_redis_cache_sizes.json"),
    ),
    (
        "azure_redis_cache_sizes.source.json",
        include_str!("../../data/azure_redis_cache_sizes.source.json"),
    ),
    ("usage.json", include_str!("../../data/usage.json")),
    (
        "usage.source.json",
        include_str!("../../data/usage.source.json"),
    ),
    ("hosts.json", include_str!("../../data/hosts.json")),
    (
        "hosts.source.json",
        include_str!("../../data/hosts.source.json"),
    ),
    ("geography.json", include_str!("../../data/geography.json")),
    (
        "geography.source.json",
        include_str!("../../data/geography.source.json"),
    ),
    (
        "arm_equivalents.json",
        include_str!("../../data/arm_equivalents.json"),
    ),
    (
        "arm_equivalents.source.json",
        include_str!("../../data/arm_equivalents.source.json"),
    ),
    ("sources.json", include_str!("../../data/sources.json")),
];

/// The raw embedded JSON of a data file, by name: `"aws_instances.json"`; a leading `data/`
/// and a missing `.json` are accepted (`"data/aws_instances.json"`, `"aws_instances"`).
pub fn json_file(name: &str) -> Option<&'static str> {
    let name = name.trim();
    let name = name.strip_prefix("./").unwrap_or(name);
    let name = name.strip_prefix("data/").unwrap_or(name);
    FILES
        .iter()
        .find(|(file, _)| *file == name || file.strip_suffix(".json") == Some(name))
        .map(|(_, text)| *text)
}

/// The names of every embedded data file.
pub fn json_file_names() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(name, _)| *name)
}
