//! Settings from flags, `CARBON_SHOW_*` variables and `.carbon-show.toml`, merged in that order of
//! precedence over the defaults, each remembering where it came from (`carbon-show config`).
//!
//! The file is found upward from the working directory (or given with `--config FILE` /
//! `CARBON_SHOW_CONFIG`). Its keys (docs/config.md):
//!
//! ```toml
//! mappings = ["mappings"]       # folders, relative to the file
//! data = ["data"]
//! utilization = 0.5             # or "50%"
//! period = "month"              # hour | month | year
//! fail-over = "10kg/month"
//! fail-over-per-project = "5kg/month"   # each project of a multi-project run
//! flavor = "opentofu"           # opentofu | terraform
//! terraform-version = "1.6.6"   # the rules of this version (default: the document's)
//! alternatives = "off"          # on | off: the `# ↳` lines (docs/alternatives.md)
//! max-chars = 65536             # the Markdown comment's budget
//! module-depth = 1              # the summary's module rollup (0: none)
//! format = "human"              # human | json | markdown | impact-framework
//! color = "auto"                # auto | always | never
//! [regions]                     # per provider: replaces every resource's region
//! aws = "eu-west-1"
//! ```

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt::{self, Write as _};
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::cli::{ColorMode, Format};
use crate::data::Provider;
use crate::error::Error;
use crate::estimate::{Budget, Period};
use crate::render::Flavor;

/// The name of the configuration file, looked for in the working directory and its parents.
pub const FILE_NAME: &str = ".carbon-show.toml";

/// GitHub's limit on a comment's length, in characters: the default `max-chars`.
pub const DEFAULT_MAX_CHARS: usize = crate::render::carbon::markdown::DEFAULT_MAX_CHARS;

/// Where a setting's value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Default,
    /// A line of a configuration file.
    File {
        path: PathBuf,
        line: usize,
    },
    /// A `CARBON_SHOW_*` environment variable.
    Env(&'static str),
    /// A command-line flag.
    Flag(&'static str),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Default => f.write_str("default"),
            Source::File { path, line } => write!(f, "{}:{line}", path.display()),
            Source::Env(var) => write!(f, "env {var}"),
            Source::Flag(flag) => write!(f, "flag {flag}"),
        }
    }
}

/// A value and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting<T> {
    pub value: T,
    pub source: Source,
}

impl<T> Setting<T> {
    fn new(value: T, source: Source) -> Self {
        Setting { value, source }
    }
}

/// The settings one source gives; `None` where it says nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Layer {
    pub mappings: Option<Setting<Vec<PathBuf>>>,
    pub data: Option<Setting<Vec<PathBuf>>>,
    pub utilization: Option<Setting<f64>>,
    pub period: Option<Setting<Period>>,
    pub fail_over: Option<Setting<Budget>>,
    pub fail_over_per_project: Option<Setting<Budget>>,
    pub flavor: Option<Setting<Flavor>>,
    pub terraform_version: Option<Setting<crate::structured::Version>>,
    pub alternatives: Option<Setting<bool>>,
    pub max_chars: Option<Setting<usize>>,
    pub module_depth: Option<Setting<usize>>,
    pub format: Option<Setting<Format>>,
    pub color: Option<Setting<ColorMode>>,
    /// Per provider (`aws`, `gcp`, `azure`): the region every resource of it is assessed in.
    pub regions: BTreeMap<Provider, Setting<String>>,
    /// The usage file (`--usage`, the file's `usage` key).
    pub usage: Option<Setting<PathBuf>>,
    /// `--pin-gate` / `CARBON_SHOW_PIN_GATE` (never a file key): a configuration file may not
    /// set the gate nor what moves figures ([`trust`]).
    pub pin_gate: Option<Setting<bool>>,
}

/// The effective settings of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Effective {
    /// The configuration file read, if any.
    pub file: Option<PathBuf>,
    pub mappings: Setting<Vec<PathBuf>>,
    pub data: Setting<Vec<PathBuf>>,
    pub utilization: Setting<f64>,
    pub period: Setting<Period>,
    pub fail_over: Setting<Option<Budget>>,
    /// The budget each project of a multi-project run is held to.
    pub fail_over_per_project: Setting<Option<Budget>>,
    pub flavor: Setting<Flavor>,
    /// The Terraform version whose rendering rules apply; `None`: the document's own.
    pub terraform_version: Setting<Option<crate::structured::Version>>,
    pub alternatives: Setting<bool>,
    pub max_chars: Setting<usize>,
    pub module_depth: Setting<usize>,
    pub format: Setting<Format>,
    pub color: Setting<ColorMode>,
    pub regions: BTreeMap<Provider, Setting<String>>,
    /// The usage file named (`None`: `carbon-usage.yml` in the working directory, when
    /// present; docs/usage.md).
    pub usage: Setting<Option<PathBuf>>,
    pub pin_gate: Setting<bool>,
}

impl Effective {
    /// Merges the layers: flags over the environment over the file over the defaults.
    pub fn merge(file_path: Option<PathBuf>, layers: [Layer; 3]) -> Effective {
        let [flags, env, file] = layers;
        fn pick<T>(
            a: Option<Setting<T>>,
            b: Option<Setting<T>>,
            c: Option<Setting<T>>,
            d: T,
        ) -> Setting<T> {
            a.or(b).or(c).unwrap_or(Setting::new(d, Source::Default))
        }
        let mut regions = file.regions;
        regions.extend(env.regions);
        regions.extend(flags.regions);
        let some = |s: Option<Setting<Budget>>| s.map(|s| Setting::new(Some(s.value), s.source));
        Effective {
            file: file_path,
            mappings: pick(flags.mappings, env.mappings, file.mappings, Vec::new()),
            data: pick(flags.data, env.data, file.data, Vec::new()),
            utilization: pick(flags.utilization, env.utilization, file.utilization, 0.5),
            period: pick(flags.period, env.period, file.period, Period::Month),
            fail_over: pick(
                some(flags.fail_over),
                some(env.fail_over),
                some(file.fail_over),
                None,
            ),
            fail_over_per_project: pick(
                some(flags.fail_over_per_project),
                some(env.fail_over_per_project),
                some(file.fail_over_per_project),
                None,
            ),
            flavor: pick(flags.flavor, env.flavor, file.flavor, Flavor::OpenTofu),
            terraform_version: pick(
                flags
                    .terraform_version
                    .map(|s| Setting::new(Some(s.value), s.source)),
                env.terraform_version
                    .map(|s| Setting::new(Some(s.value), s.source)),
                file.terraform_version
                    .map(|s| Setting::new(Some(s.value), s.source)),
                None,
            ),
            alternatives: pick(
                flags.alternatives,
                env.alternatives,
                file.alternatives,
                true,
            ),
            max_chars: pick(
                flags.max_chars,
                env.max_chars,
                file.max_chars,
                DEFAULT_MAX_CHARS,
            ),
            module_depth: pick(
                flags.module_depth,
                env.module_depth,
                file.module_depth,
                crate::report::modules::DEFAULT_DEPTH,
            ),
            format: pick(flags.format, env.format, file.format, Format::Human),
            color: pick(flags.color, env.color, file.color, ColorMode::Auto),
            regions,
            usage: match flags.usage.or(file.usage) {
                Some(s) => Setting::new(Some(s.value), s.source),
                None => Setting::new(None, Source::Default),
            },
            pin_gate: pick(flags.pin_gate, env.pin_gate, None, false),
        }
    }

    /// The settings as a TOML document, each line followed by where its value came from.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        let _ = match &self.file {
            Some(p) => writeln!(s, "# configuration file: {}", p.display()),
            None => writeln!(s, "# configuration file: none ({FILE_NAME} not found)"),
        };
        let mut line = |key: &str, value: String, source: &Source| {
            let left = format!("{key} = {value}");
            let _ = writeln!(s, "{left:<40} # {source}");
        };
        let paths = |v: &[PathBuf]| {
            let items: Vec<String> = v.iter().map(|p| quote(&p.to_string_lossy())).collect();
            format!("[{}]", items.join(", "))
        };
        line(
            "mappings",
            paths(&self.mappings.value),
            &self.mappings.source,
        );
        line("data", paths(&self.data.value), &self.data.source);
        line(
            "utilization",
            fmt_number(self.utilization.value),
            &self.utilization.source,
        );
        line(
            "period",
            quote(period_name(self.period.value)),
            &self.period.source,
        );
        match self.fail_over.value {
            Some(b) => line(
                "fail-over",
                quote(&trust::budget_text(&b)),
                &self.fail_over.source,
            ),
            None => line("# fail-over", "(none)".into(), &self.fail_over.source),
        }
        match self.fail_over_per_project.value {
            Some(b) => line(
                "fail-over-per-project",
                quote(&trust::budget_text(&b)),
                &self.fail_over_per_project.source,
            ),
            None => line(
                "# fail-over-per-project",
                "(none)".into(),
                &self.fail_over_per_project.source,
            ),
        }
        match (self.flavor.value, &self.flavor.source) {
            // nothing named one: each plan's provider addresses decide (`--flavor auto`)
            (_, Source::Default) => line("# flavor", "auto".into(), &self.flavor.source),
            (Flavor::OpenTofu, s) => line("flavor", quote("opentofu"), s),
            (Flavor::Terraform, s) => line("flavor", quote("terraform"), s),
        }
        match self.terraform_version.value {
            Some(v) => line(
                "terraform-version",
                quote(&v.to_string()),
                &self.terraform_version.source,
            ),
            // each document's `terraform_version` decides
            None => line(
                "# terraform-version",
                "(the document's)".into(),
                &self.terraform_version.source,
            ),
        }
        let on = if self.alternatives.value { "on" } else { "off" };
        line("alternatives", quote(on), &self.alternatives.source);
        line(
            "max-chars",
            self.max_chars.value.to_string(),
            &self.max_chars.source,
        );
        line(
            "module-depth",
            self.module_depth.value.to_string(),
            &self.module_depth.source,
        );
        line(
            "format",
            quote(format_name(self.format.value)),
            &self.format.source,
        );
        line(
            "color",
            quote(color_name(self.color.value)),
            &self.color.source,
        );
        if let Some(p) = &self.usage.value {
            line("usage", quote(&p.to_string_lossy()), &self.usage.source);
        }
        let pin = if self.pin_gate.value { "on" } else { "off" };
        // not a file key: only the workflow (a flag or a variable) pins the gate
        line("# pin-gate", quote(pin), &self.pin_gate.source);
        let _ = writeln!(s, "\n[regions]");
        if self.regions.is_empty() {
            let _ = writeln!(
                s,
                "# (none: every resource keeps the region the plan gives it)"
            );
        }
        for (p, r) in &self.regions {
            let left = format!("{} = {}", p.as_str(), quote(&r.value));
            let _ = writeln!(s, "{left:<40} # {}", r.source);
        }
        s
    }
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn fmt_number(v: f64) -> String {
    let s = format!("{v}");
    if s.contains('.') || s.contains('e') {
        s
    } else {
        format!("{s}.0")
    }
}

fn period_name(p: Period) -> &'static str {
    match p {
        Period::Hour => "hour",
        Period::Month => "month",
        Period::Year => "year",
    }
}

/// Reads the configuration the run uses: `explicit` (`--config FILE`), else
/// `CARBON_SHOW_CONFIG`, else `.carbon-show.toml` found upward from `cwd`. A file given
/// explicitly must exist.
pub fn load(
    explicit: Option<&Path>,
    get: &dyn Fn(&str) -> Option<OsString>,
    cwd: &Path,
) -> Result<(Option<PathBuf>, Layer), Error> {
    let env_file = get("CARBON_SHOW_CONFIG")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let path = match explicit.map(Path::to_path_buf).or(env_file) {
        Some(p) => Some(p),
        None => find_upward(cwd),
    };
    match path {
        Some(p) => {
            let layer = read_file(&p)?;
            if !trusts_config(get)? {
                file::confine(&p, &layer)?;
            }
            Ok((Some(p), layer))
        }
        None => Ok((None, Layer::default())),
    }
}

/// Whether the workflow says the configuration file is trusted (`CARBON_SHOW_TRUST_CONFIG=1`):
/// its folders may then lie outside its repository. The value is read as every on/off variable
/// is (`on`/`1`/`true`/`yes`, `off`/`0`/`false`/`no`, any case; empty is unset); anything else
/// is an error naming the variable, never a silent "not trusted" (nor a silent "trusted").
fn trusts_config(get: &dyn Fn(&str) -> Option<OsString>) -> Result<bool, Error> {
    const NAME: &str = "CARBON_SHOW_TRUST_CONFIG";
    match get(NAME).filter(|v| !v.is_empty()) {
        None => Ok(false),
        Some(v) => values::parse_pin(&v.to_string_lossy())
            .map_err(|e| config_error(format!("environment variable {NAME}: {e}"))),
    }
}

/// The effective settings: `flags` over the environment (`get`) over the configuration file.
pub fn resolve(
    flags: Layer,
    explicit: Option<&Path>,
    get: &dyn Fn(&str) -> Option<OsString>,
    cwd: &Path,
) -> Result<Effective, Error> {
    let env = env_layer(get)?;
    let (file_path, file) = load(explicit, get, cwd)?;
    let pinned = [&flags.pin_gate, &env.pin_gate]
        .into_iter()
        .flatten()
        .any(|s| s.value);
    if pinned {
        trust::refuse_pinned(&file)?;
    }
    let effective = Effective::merge(file_path, [flags, env, file]);
    trust::check_gate_period(&effective)?;
    Ok(effective)
}

fn config_error(message: String) -> Error {
    Error::Config(message)
}

mod env;
mod file;
pub mod trust;
mod values;

pub use env::{ENV_VARS, OTHER_VARS, distance, env_layer, unknown_vars};
pub use file::{confine, find_upward, parse_file, read_file, repository_root};
pub use values::{
    MAX_MODULE_DEPTH, color_name, format_name, parse_color, parse_flavor, parse_format,
    parse_max_chars, parse_module_depth, parse_period, parse_switch, parse_terraform_version,
    parse_utilization,
};
#[cfg(test)]
mod tests;
