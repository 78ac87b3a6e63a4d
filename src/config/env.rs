//! The `CARBON_SHOW_*` variables as a settings layer.

use std::collections::BTreeMap;
use std::ffi::OsString;

use super::values::*;
use super::*;

/// The environment variables read, with the setting each sets.
pub const ENV_VARS: &[(&str, &str)] = &[
    (
        "CARBON_SHOW_CONFIG",
        "the configuration file (instead of searching for .carbon-show.toml)",
    ),
    (
        "CARBON_SHOW_MAPPINGS",
        "mapping folders, separated like PATH",
    ),
    ("CARBON_SHOW_DATA", "data folders, separated like PATH"),
    ("CARBON_SHOW_UTILIZATION", "utilisation, 0..1 or 50%"),
    ("CARBON_SHOW_PERIOD", "hour | month | year"),
    ("CARBON_SHOW_FAIL_OVER", "budget, e.g. 10kg/month"),
    (
        "CARBON_SHOW_PIN_GATE",
        "on | off: a configuration file may not set the gate nor what moves figures",
    ),
    ("CARBON_SHOW_FLAVOR", "opentofu | terraform"),
    ("CARBON_SHOW_ALTERNATIVES", "on | off"),
    ("CARBON_SHOW_MAX_CHARS", "the Markdown comment's budget"),
    ("CARBON_SHOW_MODULE_DEPTH", "module rollup depth (0: none)"),
    ("CARBON_SHOW_REGION_AWS", "region for every AWS resource"),
    ("CARBON_SHOW_REGION_GCP", "region for every GCP resource"),
    (
        "CARBON_SHOW_REGION_AZURE",
        "region for every Azure resource",
    ),
];

/// The settings of the `CARBON_SHOW_*` variables; `get` reads one (the process's environment in
/// the binary). An empty variable counts as unset. A bad value is an error naming the variable.
pub fn env_layer(get: &dyn Fn(&str) -> Option<OsString>) -> Result<Layer, Error> {
    fn var(get: &dyn Fn(&str) -> Option<OsString>, name: &str) -> Option<String> {
        get(name)
            .map(|v| v.to_string_lossy().into_owned())
            .filter(|v| !v.trim().is_empty())
    }
    fn one<T>(
        get: &dyn Fn(&str) -> Option<OsString>,
        name: &'static str,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<Option<Setting<T>>, Error> {
        var(get, name)
            .map(|v| {
                parse(&v)
                    .map(|t| Setting::new(t, Source::Env(name)))
                    .map_err(|e| config_error(format!("environment variable {name}: {e}")))
            })
            .transpose()
    }
    let paths = |name: &'static str| {
        get(name).filter(|v| !v.is_empty()).map(|v| {
            Setting::new(
                std::env::split_paths(&v).collect::<Vec<_>>(),
                Source::Env(name),
            )
        })
    };
    let mut regions = BTreeMap::new();
    for (p, name) in [
        (Provider::Aws, "CARBON_SHOW_REGION_AWS"),
        (Provider::Gcp, "CARBON_SHOW_REGION_GCP"),
        (Provider::Azure, "CARBON_SHOW_REGION_AZURE"),
    ] {
        if let Some(r) = var(get, name) {
            check_region(p, &r)
                .map_err(|e| config_error(format!("environment variable {name}: {e}")))?;
            regions.insert(p, Setting::new(r, Source::Env(name)));
        }
    }
    Ok(Layer {
        mappings: paths("CARBON_SHOW_MAPPINGS"),
        data: paths("CARBON_SHOW_DATA"),
        utilization: one(get, "CARBON_SHOW_UTILIZATION", parse_utilization)?,
        period: one(get, "CARBON_SHOW_PERIOD", parse_period)?,
        fail_over: one(get, "CARBON_SHOW_FAIL_OVER", |s| s.parse::<Budget>())?,
        flavor: one(get, "CARBON_SHOW_FLAVOR", parse_flavor)?,
        alternatives: one(get, "CARBON_SHOW_ALTERNATIVES", parse_switch)?,
        max_chars: one(get, "CARBON_SHOW_MAX_CHARS", parse_max_chars)?,
        module_depth: one(get, "CARBON_SHOW_MODULE_DEPTH", parse_module_depth)?,
        regions,
        pin_gate: one(get, "CARBON_SHOW_PIN_GATE", parse_pin)?,
    })
}
