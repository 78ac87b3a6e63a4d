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
//! flavor = "opentofu"           # opentofu | terraform
//! alternatives = "off"          # on | off: the `# ↳` lines (docs/alternatives.md)
//! max-chars = 65536             # the Markdown comment's budget
//! module-depth = 1              # the summary's module rollup (0: none)
//! [regions]                     # per provider: replaces every resource's region
//! aws = "eu-west-1"
//! ```

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt::{self, Write as _};
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

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
    pub flavor: Option<Setting<Flavor>>,
    pub alternatives: Option<Setting<bool>>,
    pub max_chars: Option<Setting<usize>>,
    pub module_depth: Option<Setting<usize>>,
    /// Per provider (`aws`, `gcp`, `azure`): the region every resource of it is assessed in.
    pub regions: BTreeMap<Provider, Setting<String>>,
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
    pub flavor: Setting<Flavor>,
    pub alternatives: Setting<bool>,
    pub max_chars: Setting<usize>,
    pub module_depth: Setting<usize>,
    pub regions: BTreeMap<Provider, Setting<String>>,
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
            flavor: pick(flags.flavor, env.flavor, file.flavor, Flavor::OpenTofu),
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
            regions,
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
                quote(&format!("{}g/{}", fmt_number(b.grams), b.period.unit())),
                &self.fail_over.source,
            ),
            None => line("# fail-over", "(none)".into(), &self.fail_over.source),
        }
        match (self.flavor.value, &self.flavor.source) {
            // nothing named one: each plan's provider addresses decide (`--flavor auto`)
            (_, Source::Default) => line("# flavor", "auto".into(), &self.flavor.source),
            (Flavor::OpenTofu, s) => line("flavor", quote("opentofu"), s),
            (Flavor::Terraform, s) => line("flavor", quote("terraform"), s),
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

/// CPU and GPU utilisation: `0..1` or a percentage (`50%`).
pub fn parse_utilization(s: &str) -> Result<f64, String> {
    let (number, percent) = match s.trim().strip_suffix('%') {
        Some(n) => (n.trim(), true),
        None => (s.trim(), false),
    };
    let v: f64 = number
        .parse()
        .map_err(|_| format!("{s:?} is not a number: give 0..1 or a percentage like 50%"))?;
    let v = if percent { v / 100.0 } else { v };
    check_utilization(v).map_err(|e| format!("{s:?} {e}"))
}

fn check_utilization(v: f64) -> Result<f64, String> {
    if !(0.0..=1.0).contains(&v) {
        return Err("is outside 0..1 (0 % to 100 %)".into());
    }
    Ok(v)
}

/// `hour`, `month` or `year`.
pub fn parse_period(s: &str) -> Result<Period, String> {
    s.parse()
}

/// `opentofu` or `terraform`.
pub fn parse_flavor(s: &str) -> Result<Flavor, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "opentofu" | "tofu" => Ok(Flavor::OpenTofu),
        "terraform" => Ok(Flavor::Terraform),
        _ => Err(format!("{s:?}: expected opentofu or terraform")),
    }
}

/// `on` or `off`.
pub fn parse_switch(s: &str) -> Result<bool, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("{s:?}: expected \"on\" or \"off\"")),
    }
}

/// A positive number of characters.
pub fn parse_max_chars(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .replace('_', "")
        .parse()
        .map_err(|_| format!("{s:?}: expected a whole number of characters"))?;
    check_max_chars(n as i64).map_err(|e| format!("{s:?}: {e}"))
}

/// The Markdown comment needs room for its headline and totals (the same floor as
/// `--max-chars`).
fn check_max_chars(n: i64) -> Result<usize, String> {
    let min = crate::render::carbon::markdown::MIN_MAX_CHARS as i64;
    if !(min..=100_000_000).contains(&n) {
        return Err(format!("must be between {min} and 100000000"));
    }
    Ok(n as usize)
}

/// How deep the module rollup goes: a whole number, 0 (no module rollup) to
/// [`MAX_MODULE_DEPTH`].
pub fn parse_module_depth(s: &str) -> Result<usize, String> {
    let n: i64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?}: expected a whole number of module levels (0: none)"))?;
    check_module_depth(n).map_err(|e| format!("{s:?}: {e}"))
}

/// The deepest `--module-depth` accepted (Terraform nests modules far less deep).
pub const MAX_MODULE_DEPTH: usize = 100;

fn check_module_depth(n: i64) -> Result<usize, String> {
    if !(0..=MAX_MODULE_DEPTH as i64).contains(&n) {
        return Err(format!("must be between 0 and {MAX_MODULE_DEPTH}"));
    }
    Ok(n as usize)
}

/// A region for a provider: one the grid-intensity tables know.
fn check_region(provider: Provider, region: &str) -> Result<(), String> {
    if crate::data::grid_intensity(provider, region).is_none() {
        return Err(format!(
            "unknown {provider} region {region:?} (not in the grid-intensity table)"
        ));
    }
    Ok(())
}

fn parse_provider(name: &str) -> Result<Provider, String> {
    Provider::parse(name)
        .filter(|_| !name.contains('/'))
        .ok_or_else(|| {
            format!("unknown provider {name:?} in [regions]: expected aws, gcp or azure")
        })
}

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

fn config_error(message: String) -> Error {
    Error::Config(message)
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
        flavor: one(get, "CARBON_SHOW_FLAVOR", parse_flavor)?,
        alternatives: one(get, "CARBON_SHOW_ALTERNATIVES", parse_switch)?,
        max_chars: one(get, "CARBON_SHOW_MAX_CHARS", parse_max_chars)?,
        module_depth: one(get, "CARBON_SHOW_MODULE_DEPTH", parse_module_depth)?,
        regions,
    })
}

/// `.carbon-show.toml` in `dir` or the nearest parent that has one.
pub fn find_upward(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .map(|d| d.join(FILE_NAME))
        .find(|p| p.is_file())
}

/// The file's keys, with the place of each value.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct FileKeys {
    mappings: Option<Spanned<Vec<Spanned<String>>>>,
    data: Option<Spanned<Vec<Spanned<String>>>>,
    utilization: Option<Spanned<NumberOrText>>,
    period: Option<Spanned<String>>,
    fail_over: Option<Spanned<String>>,
    flavor: Option<Spanned<String>>,
    alternatives: Option<Spanned<String>>,
    max_chars: Option<Spanned<i64>>,
    module_depth: Option<Spanned<i64>>,
    regions: Option<BTreeMap<Spanned<String>, Spanned<String>>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum NumberOrText {
    Number(f64),
    Text(String),
}

/// The line (1-based) of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Reads a configuration file. Every problem is one error `file:line: message`; relative
/// folders are taken relative to the file's folder.
pub fn read_file(path: &Path) -> Result<Layer, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        config_error(format!(
            "{}: cannot read the configuration file: {e}",
            path.display()
        ))
    })?;
    parse_file(path, &text)
}

/// Parses a configuration file's text (see [`read_file`]).
pub fn parse_file(path: &Path, text: &str) -> Result<Layer, Error> {
    let at = |span: Range<usize>, message: &str| {
        config_error(format!(
            "{}:{}: {message}",
            path.display(),
            line_of(text, span.start)
        ))
    };
    let keys: FileKeys = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(1);
        let message = e.message().trim().replace('\n', " ");
        config_error(format!("{}:{line}: {message}", path.display()))
    })?;
    let source = |span: &Range<usize>| Source::File {
        path: path.to_path_buf(),
        line: line_of(text, span.start),
    };
    let base = path.parent().unwrap_or(Path::new(""));
    let folders = |v: Option<Spanned<Vec<Spanned<String>>>>| -> Result<_, Error> {
        let Some(v) = v else { return Ok(None) };
        let span = v.span();
        let mut out = Vec::new();
        for d in v.into_inner() {
            if d.get_ref().trim().is_empty() {
                return Err(at(d.span(), "an empty folder name"));
            }
            out.push(base.join(d.get_ref()));
        }
        Ok(Some(Setting::new(out, source(&span))))
    };
    fn text_value<T>(
        v: Option<Spanned<String>>,
        parse: impl Fn(&str) -> Result<T, String>,
        at: &dyn Fn(Range<usize>, &str) -> Error,
        source: &dyn Fn(&Range<usize>) -> Source,
    ) -> Result<Option<Setting<T>>, Error> {
        v.map(|v| {
            let span = v.span();
            parse(v.get_ref())
                .map(|t| Setting::new(t, source(&span)))
                .map_err(|e| at(span, &e))
        })
        .transpose()
    }
    let utilization = keys
        .utilization
        .map(|u| {
            let span = u.span();
            match u.into_inner() {
                NumberOrText::Number(n) => check_utilization(n).map_err(|e| format!("{n} {e}")),
                NumberOrText::Text(t) => parse_utilization(&t),
            }
            .map(|v| Setting::new(v, source(&span)))
            .map_err(|e| at(span, &format!("utilization: {e}")))
        })
        .transpose()?;
    let max_chars = keys
        .max_chars
        .map(|m| {
            let span = m.span();
            check_max_chars(*m.get_ref())
                .map(|v| Setting::new(v, source(&span)))
                .map_err(|e| at(span, &format!("max-chars {e}")))
        })
        .transpose()?;
    let module_depth = keys
        .module_depth
        .map(|m| {
            let span = m.span();
            check_module_depth(*m.get_ref())
                .map(|v| Setting::new(v, source(&span)))
                .map_err(|e| at(span, &format!("module-depth {e}")))
        })
        .transpose()?;
    let mut regions = BTreeMap::new();
    for (k, v) in keys.regions.unwrap_or_default() {
        let p = parse_provider(k.get_ref()).map_err(|e| at(k.span(), &e))?;
        check_region(p, v.get_ref()).map_err(|e| at(v.span(), &e))?;
        regions.insert(p, Setting::new(v.get_ref().clone(), source(&v.span())));
    }
    let labelled = |key: &'static str| move |e: &str| format!("{key}: {e}");
    let period = text_value(
        keys.period,
        parse_period,
        &|s, e| at(s, &labelled("period")(e)),
        &source,
    )?;
    let fail_over = text_value(
        keys.fail_over,
        |s| s.parse::<Budget>(),
        &|s, e| at(s, &labelled("fail-over")(e)),
        &source,
    )?;
    let flavor = text_value(
        keys.flavor,
        parse_flavor,
        &|s, e| at(s, &labelled("flavor")(e)),
        &source,
    )?;
    let alternatives = text_value(
        keys.alternatives,
        parse_switch,
        &|s, e| at(s, &labelled("alternatives")(e)),
        &source,
    )?;
    Ok(Layer {
        mappings: folders(keys.mappings)?,
        data: folders(keys.data)?,
        utilization,
        period,
        fail_over,
        flavor,
        alternatives,
        max_chars,
        module_depth,
        regions,
    })
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
            Ok((Some(p), layer))
        }
        None => Ok((None, Layer::default())),
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
    Ok(Effective::merge(file_path, [flags, env, file]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<OsString> {
        None
    }

    fn file(text: &str) -> Layer {
        parse_file(Path::new("/p/.carbon-show.toml"), text).unwrap()
    }

    fn error(text: &str) -> String {
        parse_file(Path::new("/p/.carbon-show.toml"), text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn every_key_is_read_with_its_line() {
        let l = file(
            "mappings = [\"m\", \"/abs\"]\ndata = [\"d\"]\nutilization = \"25%\"\nperiod = \"year\"\n\
             fail-over = \"10kg/month\"\nflavor = \"terraform\"\nalternatives = \"on\"\n\
             max-chars = 1_000_000\nmodule-depth = 2\n[regions]\naws = \"eu-west-1\"\ngcp = \"europe-west1\"\n",
        );
        let m = l.mappings.unwrap();
        assert_eq!(m.value, vec![PathBuf::from("/p/m"), PathBuf::from("/abs")]);
        assert_eq!(m.source.to_string(), "/p/.carbon-show.toml:1");
        assert_eq!(l.data.unwrap().value, vec![PathBuf::from("/p/d")]);
        assert_eq!(l.utilization.unwrap().value, 0.25);
        let p = l.period.unwrap();
        assert_eq!(
            (p.value, p.source.to_string()),
            (Period::Year, "/p/.carbon-show.toml:4".into())
        );
        assert_eq!(l.fail_over.unwrap().value.grams, 10_000.0);
        assert_eq!(l.flavor.unwrap().value, Flavor::Terraform);
        assert!(l.alternatives.unwrap().value);
        assert_eq!(l.max_chars.unwrap().value, 1_000_000);
        assert_eq!(l.module_depth.unwrap().value, 2);
        let aws = &l.regions[&Provider::Aws];
        assert_eq!(
            (aws.value.as_str(), aws.source.to_string()),
            ("eu-west-1", "/p/.carbon-show.toml:11".into())
        );
        assert_eq!(l.regions[&Provider::Gcp].value, "europe-west1");
    }

    #[test]
    fn bad_values_name_their_line() {
        assert_eq!(
            error("period = \"month\"\n\nutilization = 1.5\n"),
            "/p/.carbon-show.toml:3: utilization: 1.5 is outside 0..1 (0 % to 100 %)"
        );
        assert!(
            error("period = \"fortnight\"")
                .starts_with("/p/.carbon-show.toml:1: period: unknown period")
        );
        assert!(
            error("\nfail-over = \"10 bananas\"").starts_with("/p/.carbon-show.toml:2: fail-over:")
        );
        assert!(
            error("alternatives = \"maybe\"").contains(":1: alternatives: \"maybe\": expected")
        );
        assert!(error("max-chars = 10").contains(":1: max-chars must be between"));
        assert!(
            error("\nmodule-depth = -1").contains(":2: module-depth must be between 0 and 100")
        );
        assert!(error("module-depth = \"1\"").contains(":1: "));
        assert!(
            error("[regions]\nibm = \"x\"")
                .starts_with("/p/.carbon-show.toml:2: unknown provider \"ibm\"")
        );
        assert!(
            error("[regions]\naws = \"mars-north-1\"")
                .starts_with("/p/.carbon-show.toml:2: unknown aws region")
        );
        assert!(error("mappings = [\"\"]").contains(":1: an empty folder name"));
    }

    #[test]
    fn syntax_errors_and_unknown_keys_are_one_line_with_the_line() {
        let e = error("period = \"month\"\nutilisation = 0.5\n");
        assert!(
            e.starts_with("/p/.carbon-show.toml:2: unknown field `utilisation`"),
            "{e}"
        );
        assert_eq!(e.lines().count(), 1, "{e}");
        let e = error("period = \"month\"\n\nperiod = = 3\n");
        assert!(e.starts_with("/p/.carbon-show.toml:3: "), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        let e = error("utilization = true");
        assert!(e.starts_with("/p/.carbon-show.toml:1: "), "{e}");
        assert!(matches!(
            parse_file(Path::new("x"), "period = 1"),
            Err(Error::Config(_))
        ));
    }

    #[test]
    fn flags_beat_environment_beat_file_beat_defaults() {
        let f = file(
            "utilization = 0.1\nperiod = \"year\"\nflavor = \"terraform\"\nmax-chars = 5000\n",
        );
        let env = env_layer(&|k| match k {
            "CARBON_SHOW_UTILIZATION" => Some("20%".into()),
            "CARBON_SHOW_PERIOD" => Some("hour".into()),
            _ => None,
        })
        .unwrap();
        let flags = Layer {
            utilization: Some(Setting::new(0.3, Source::Flag("--utilization"))),
            ..Layer::default()
        };
        let e = Effective::merge(Some("/p/.carbon-show.toml".into()), [flags, env, f]);
        assert_eq!(
            (e.utilization.value, e.utilization.source.to_string()),
            (0.3, "flag --utilization".into())
        );
        assert_eq!(
            (e.period.value, e.period.source.to_string()),
            (Period::Hour, "env CARBON_SHOW_PERIOD".into())
        );
        assert_eq!(
            (e.flavor.value, e.flavor.source.to_string()),
            (Flavor::Terraform, "/p/.carbon-show.toml:3".into())
        );
        assert_eq!(
            (e.max_chars.value, e.max_chars.source.to_string()),
            (5000, "/p/.carbon-show.toml:4".into())
        );
        assert_eq!(
            (e.alternatives.value, e.alternatives.source.clone()),
            (true, Source::Default)
        );
        assert_eq!(e.fail_over.value, None);
    }

    #[test]
    fn regions_merge_per_provider() {
        let f = file("[regions]\naws = \"eu-west-1\"\nazure = \"westeurope\"\n");
        let env =
            env_layer(&|k| (k == "CARBON_SHOW_REGION_AWS").then(|| "us-east-1".into())).unwrap();
        let e = Effective::merge(None, [Layer::default(), env, f]);
        assert_eq!(e.regions[&Provider::Aws].value, "us-east-1");
        assert_eq!(e.regions[&Provider::Azure].value, "westeurope");
        assert!(!e.regions.contains_key(&Provider::Gcp));
    }

    #[test]
    fn bad_environment_values_name_the_variable() {
        let e = env_layer(&|k| (k == "CARBON_SHOW_PERIOD").then(|| "weekly".into())).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("environment variable CARBON_SHOW_PERIOD: unknown period"),
            "{e}"
        );
        let e =
            env_layer(&|k| (k == "CARBON_SHOW_MODULE_DEPTH").then(|| "deep".into())).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("environment variable CARBON_SHOW_MODULE_DEPTH: \"deep\": expected"),
            "{e}"
        );
        let d = env_layer(&|k| (k == "CARBON_SHOW_MODULE_DEPTH").then(|| "0".into())).unwrap();
        assert_eq!(d.module_depth.unwrap().value, 0);
        let empty = env_layer(&|_| Some("".into())).unwrap();
        assert_eq!(empty, Layer::default(), "an empty variable counts as unset");
    }

    #[test]
    fn the_file_is_found_upward_and_an_explicit_one_must_exist() {
        let root = std::env::temp_dir().join(format!("carbon-show-config-{}", std::process::id()));
        let deep = root.join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(root.join(FILE_NAME), "period = \"hour\"\n").unwrap();
        let (p, l) = load(None, &no_env, &deep).unwrap();
        assert_eq!(p, Some(root.join(FILE_NAME)));
        assert_eq!(l.period.unwrap().value, Period::Hour);
        let missing = root.join("nope.toml");
        let e = load(Some(&missing), &no_env, &deep).unwrap_err();
        assert!(e.to_string().contains("nope.toml: cannot read"), "{e}");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn describe_is_toml_with_sources() {
        let f = file("period = \"year\"\n[regions]\ngcp = \"europe-west1\"\n");
        let e = Effective::merge(
            Some("/p/.carbon-show.toml".into()),
            [Layer::default(), Layer::default(), f],
        );
        let text = e.describe();
        assert!(text.contains("period = \"year\""), "{text}");
        assert!(text.contains("# /p/.carbon-show.toml:1"), "{text}");
        assert!(text.contains("utilization = 0.5"), "{text}");
        // what it prints reads back as a configuration file
        let back = parse_file(Path::new("/p/.carbon-show.toml"), &text).unwrap();
        assert_eq!(back.period.unwrap().value, Period::Year);
        assert_eq!(back.regions[&Provider::Gcp].value, "europe-west1");
        assert_eq!(back.max_chars.unwrap().value, DEFAULT_MAX_CHARS);
        assert_eq!(back.module_depth.unwrap().value, 1);
    }
}
