//! The values each setting accepts: parsing and range checks shared by flags, variables and the file.

use super::*;

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

pub(super) fn check_utilization(v: f64) -> Result<f64, String> {
    if (2.0..=100.0).contains(&v) && v.fract() == 0.0 {
        return Err(format!(
            "is outside 0..1 (0 % to 100 %): for {v} percent write \"{v}%\" (or {})",
            v / 100.0
        ));
    }
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

/// The output format: `human`, `json`, `markdown` or `impact-framework`.
pub fn parse_format(s: &str) -> Result<Format, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "human" => Ok(Format::Human),
        "json" => Ok(Format::Json),
        "markdown" => Ok(Format::Markdown),
        "impact-framework" => Ok(Format::ImpactFramework),
        _ => Err(format!(
            "{s:?}: expected human, json, markdown or impact-framework"
        )),
    }
}

/// The name of a format, as `--format` and the file spell it.
pub fn format_name(f: Format) -> &'static str {
    match f {
        Format::Human => "human",
        Format::Json => "json",
        Format::Markdown => "markdown",
        Format::ImpactFramework => "impact-framework",
    }
}

/// When to use colour: `auto`, `always` or `never`.
pub fn parse_color(s: &str) -> Result<ColorMode, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "auto" => Ok(ColorMode::Auto),
        "always" => Ok(ColorMode::Always),
        "never" => Ok(ColorMode::Never),
        _ => Err(format!("{s:?}: expected auto, always or never")),
    }
}

/// The name of a colour choice, as `--color` and the file spell it.
pub fn color_name(c: ColorMode) -> &'static str {
    match c {
        ColorMode::Auto => "auto",
        ColorMode::Always => "always",
        ColorMode::Never => "never",
    }
}

/// A Terraform version to render as (`1.6.6`; `--terraform-version`, `terraform-version`).
pub fn parse_terraform_version(s: &str) -> Result<crate::structured::Version, String> {
    crate::structured::Version::parse(s)
        .ok_or_else(|| format!("{s:?}: expected a version number such as \"1.6.6\""))
}

/// `on` or `off`.
pub fn parse_switch(s: &str) -> Result<bool, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("{s:?}: expected \"on\" or \"off\"")),
    }
}

/// `CARBON_SHOW_PIN_GATE`: `on`/`1`/`true`, or `off`/`0`/`false`.
pub fn parse_pin(s: &str) -> Result<bool, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "on" | "1" | "true" | "yes" => Ok(true),
        "off" | "0" | "false" | "no" => Ok(false),
        _ => Err(format!("{s:?}: expected on or off (1 or 0)")),
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
pub(super) fn check_max_chars(n: i64) -> Result<usize, String> {
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

pub(super) fn check_module_depth(n: i64) -> Result<usize, String> {
    if !(0..=MAX_MODULE_DEPTH as i64).contains(&n) {
        return Err(format!("must be between 0 and {MAX_MODULE_DEPTH}"));
    }
    Ok(n as usize)
}

/// A region for a provider: one the grid-intensity tables know.
pub(super) fn check_region(provider: Provider, region: &str) -> Result<(), String> {
    if crate::data::grid_intensity(provider, region).is_none() {
        return Err(format!(
            "unknown {provider} region {region:?} (not in the grid-intensity table)"
        ));
    }
    Ok(())
}

pub(super) fn parse_provider(name: &str) -> Result<Provider, String> {
    Provider::parse(name)
        .filter(|_| !name.contains('/'))
        .ok_or_else(|| {
            format!("unknown provider {name:?} in [regions]: expected aws, gcp or azure")
        })
}
