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
    (
        "CARBON_SHOW_TRUST_CONFIG",
        "on | off: the configuration file may name folders outside its repository",
    ),
    ("CARBON_SHOW_UTILIZATION", "utilisation, 0..1 or 50%"),
    ("CARBON_SHOW_PERIOD", "hour | month | year"),
    ("CARBON_SHOW_FAIL_OVER", "budget, e.g. 10kg/month"),
    (
        "CARBON_SHOW_FAIL_OVER_PER_PROJECT",
        "budget of each project, e.g. 5kg/month",
    ),
    (
        "CARBON_SHOW_PIN_GATE",
        "on | off: a configuration file may not set the gate nor what moves figures",
    ),
    ("CARBON_SHOW_FLAVOR", "opentofu | terraform"),
    (
        "CARBON_SHOW_TERRAFORM_VERSION",
        "Terraform version to render as, e.g. 1.6.6",
    ),
    ("CARBON_SHOW_ALTERNATIVES", "on | off"),
    ("CARBON_SHOW_MAX_CHARS", "the Markdown comment's budget"),
    ("CARBON_SHOW_MODULE_DEPTH", "module rollup depth (0: none)"),
    (
        "CARBON_SHOW_FORMAT",
        "human | json | markdown | impact-framework",
    ),
    ("CARBON_SHOW_COLOR", "auto | always | never"),
    ("CARBON_SHOW_REGION_AWS", "region for every AWS resource"),
    ("CARBON_SHOW_REGION_GCP", "region for every GCP resource"),
    (
        "CARBON_SHOW_REGION_AZURE",
        "region for every Azure resource",
    ),
];

/// `CARBON_SHOW_*` names that the binary does not read but the test suite, the scripts and the
/// CI snippets do: not unknown.
pub const OTHER_VARS: &[&str] = &[
    "CARBON_SHOW_PROFILE",
    "CARBON_SHOW_BIN",
    "CARBON_SHOW_REF",
    "CARBON_SHOW_GIT_URL",
    "CARBON_SHOW_FAKE_DRIFT",
    "CARBON_SHOW_PROVIDER_CASES",
    "CARBON_SHOW_REQUIRE_DATA_SOURCES",
    "CARBON_SHOW_REQUIRE_IF",
    "CARBON_SHOW_REQUIRE_TF",
    "CARBON_SHOW_TF_CASES",
    "CARBON_SHOW_TF_PYTHON",
    "CARBON_SHOW_TF_SEED",
    "CARBON_SHOW_UPDATE_SCHEMA",
    "CARBON_SHOW_TF_OLDEST_CASES",
    "CARBON_SHOW_REQUIRE_TMUX",
    "CARBON_SHOW_REQUIRE_CMARKGFM",
    // tests/perf.rs: another binary to measure (docs/performance.md)
    "CARBON_SHOW_PERF_BIN",
    // docs/ci/gitlab-ci.yml's extra arguments, docs/ci/bitbucket.md's posting step
    "CARBON_SHOW_ARGS",
    "CARBON_SHOW_BITBUCKET_TOKEN",
    // scripts/ci/install.sh and the GitLab snippet
    "CARBON_SHOW_DOWNLOAD_URL",
    "CARBON_SHOW_REPO",
    "CARBON_SHOW_VERSION",
];

/// The `CARBON_SHOW_*` variables of `names` that carbon-show does not know: a misspelling of
/// one it reads (two edits or fewer) is an error naming it, as an unknown file key is; any
/// other unknown name comes back, for a warning.
pub fn unknown_vars(names: impl IntoIterator<Item = OsString>) -> Result<Vec<String>, Error> {
    let mut others = Vec::new();
    for name in names {
        let name = name.to_string_lossy();
        if !name.starts_with("CARBON_SHOW_")
            || ENV_VARS.iter().any(|(k, _)| *k == name)
            || OTHER_VARS.contains(&name.as_ref())
        {
            continue;
        }
        let near = (ENV_VARS.iter())
            .map(|(k, _)| (distance(k, &name), *k))
            .min();
        match near {
            Some((d, k)) if d <= 2 => {
                return Err(config_error(format!(
                    "environment variable {name}: unknown; did you mean {k}? (`carbon-show \
                     config` lists what is read)"
                )));
            }
            _ => others.push(name.into_owned()),
        }
    }
    Ok(others)
}

/// Levenshtein distance over bytes (names and addresses are short).
pub fn distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

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
        fail_over_per_project: one(get, "CARBON_SHOW_FAIL_OVER_PER_PROJECT", |s| {
            s.parse::<Budget>()
        })?,
        flavor: one(get, "CARBON_SHOW_FLAVOR", parse_flavor)?,
        terraform_version: one(
            get,
            "CARBON_SHOW_TERRAFORM_VERSION",
            parse_terraform_version,
        )?,
        alternatives: one(get, "CARBON_SHOW_ALTERNATIVES", parse_switch)?,
        max_chars: one(get, "CARBON_SHOW_MAX_CHARS", parse_max_chars)?,
        module_depth: one(get, "CARBON_SHOW_MODULE_DEPTH", parse_module_depth)?,
        format: one(get, "CARBON_SHOW_FORMAT", parse_format)?,
        color: one(get, "CARBON_SHOW_COLOR", parse_color)?,
        regions,
        usage: None,
        pin_gate: one(get, "CARBON_SHOW_PIN_GATE", parse_pin)?,
    })
}
