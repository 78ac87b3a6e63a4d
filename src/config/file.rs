//! `.carbon-show.toml`: finding it upward and reading it into a settings layer, errors at file:line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::*;
use serde::Deserialize;
use toml::Spanned;

use super::values::*;

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
    fail_over: Option<Spanned<NumberOrText>>,
    fail_over_per_project: Option<Spanned<NumberOrText>>,
    flavor: Option<Spanned<String>>,
    terraform_version: Option<Spanned<String>>,
    alternatives: Option<Spanned<String>>,
    max_chars: Option<Spanned<i64>>,
    module_depth: Option<Spanned<i64>>,
    format: Option<Spanned<String>>,
    color: Option<Spanned<String>>,
    regions: Option<BTreeMap<Spanned<String>, Spanned<String>>>,
    usage: Option<Spanned<String>>,
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

/// The `[regions]` table: a known provider each, with a region of its own.
fn regions_of(
    table: BTreeMap<Spanned<String>, Spanned<String>>,
    at: &dyn Fn(Range<usize>, &str) -> Error,
    source: &dyn Fn(&Range<usize>) -> Source,
) -> Result<BTreeMap<Provider, Setting<String>>, Error> {
    let mut regions = BTreeMap::new();
    for (k, v) in table {
        let p = parse_provider(k.get_ref()).map_err(|e| at(k.span(), &e))?;
        check_region(p, v.get_ref()).map_err(|e| at(v.span(), &e))?;
        regions.insert(p, Setting::new(v.get_ref().clone(), source(&v.span())));
    }
    Ok(regions)
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
    let regions = regions_of(keys.regions.unwrap_or_default(), &at, &source)?;
    let labelled = |key: &'static str| move |e: &str| format!("{key}: {e}");
    let period = text_value(
        keys.period,
        parse_period,
        &|s, e| at(s, &labelled("period")(e)),
        &source,
    )?;
    let fail_over = text_value(
        fail_over_text(keys.fail_over, "fail-over", &at)?,
        |s| s.parse::<Budget>(),
        &|s, e| at(s, &labelled("fail-over")(e)),
        &source,
    )?;
    let fail_over_per_project = text_value(
        fail_over_text(keys.fail_over_per_project, "fail-over-per-project", &at)?,
        |s| s.parse::<Budget>(),
        &|s, e| at(s, &labelled("fail-over-per-project")(e)),
        &source,
    )?;
    let flavor = text_value(
        keys.flavor,
        parse_flavor,
        &|s, e| at(s, &labelled("flavor")(e)),
        &source,
    )?;
    let terraform_version = text_value(
        keys.terraform_version,
        parse_terraform_version,
        &|s, e| at(s, &labelled("terraform-version")(e)),
        &source,
    )?;
    let alternatives = text_value(
        keys.alternatives,
        parse_switch,
        &|s, e| at(s, &labelled("alternatives")(e)),
        &source,
    )?;
    let format = text_value(
        keys.format,
        parse_format,
        &|s, e| at(s, &labelled("format")(e)),
        &source,
    )?;
    let color = text_value(
        keys.color,
        parse_color,
        &|s, e| at(s, &labelled("color")(e)),
        &source,
    )?;
    // the usage file, relative to the configuration file's folder like the folders
    let usage = match keys.usage {
        Some(u) if u.get_ref().trim().is_empty() => {
            return Err(at(u.span(), "usage: an empty file name"));
        }
        Some(u) => Some(Setting::new(base.join(u.get_ref()), source(&u.span()))),
        None => None,
    };
    Ok(Layer {
        usage,
        mappings: folders(keys.mappings)?,
        data: folders(keys.data)?,
        utilization,
        period,
        fail_over,
        fail_over_per_project,
        flavor,
        terraform_version,
        alternatives,
        max_chars,
        module_depth,
        format,
        color,
        regions,
        pin_gate: None,
    })
}

/// A budget's text (`fail-over`, `fail-over-per-project`: `key`); a number alone has no unit, and the error says how to write it.
fn fail_over_text(
    v: Option<Spanned<NumberOrText>>,
    key: &str,
    at: &dyn Fn(Range<usize>, &str) -> Error,
) -> Result<Option<Spanned<String>>, Error> {
    let Some(v) = v else { return Ok(None) };
    let span = v.span();
    match v.into_inner() {
        NumberOrText::Text(t) => Ok(Some(Spanned::new(span, t))),
        NumberOrText::Number(n) => Err(at(
            span,
            &format!(
                "{key}: a number alone has no unit: write it as \"{n}kg/month\" (g, kg or \
                 t, per h, month or year)"
            ),
        )),
    }
}

/// The repository a configuration file belongs to: the nearest folder above it (its own
/// included) that holds `.git`, else the file's own folder. Symlinks resolved.
pub fn repository_root(config: &Path) -> PathBuf {
    let dir = config.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let real = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    real.ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
        .unwrap_or(real)
}

/// `path` with symlinks resolved as far as it exists, the rest appended as written: `None`
/// when the part that does not exist climbs with `..`.
fn real_path(path: &Path) -> Option<PathBuf> {
    let mut existing = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            let mut out = real;
            for part in rest.iter().rev() {
                match part {
                    std::path::Component::Normal(p) => out.push(p),
                    std::path::Component::CurDir => {}
                    _ => return None,
                }
            }
            return Some(out);
        }
        let (Some(parent), Some(last)) = (existing.parent(), existing.components().next_back())
        else {
            return None;
        };
        rest.push(last);
        existing = if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        };
    }
}

/// Keeps the folders a repository's configuration file names (`mappings`, `data`) inside that
/// repository, symlinks resolved: a pull request's `.carbon-show.toml` must not make the run
/// read the runner's files (`data = ["/"]`) or load mappings from outside the checkout. Flags
/// and `CARBON_SHOW_*` variables (set by the workflow) may name any folder; so may a file when
/// `CARBON_SHOW_TRUST_CONFIG=1` says the workflow trusts it.
pub fn confine(path: &Path, layer: &Layer) -> Result<(), Error> {
    let root = repository_root(path);
    for (key, setting) in [("mappings", &layer.mappings), ("data", &layer.data)] {
        let Some(setting) = setting else { continue };
        for folder in &setting.value {
            let inside = real_path(folder).is_some_and(|real| real.starts_with(&root));
            if !inside {
                let place = match &setting.source {
                    Source::File { line, .. } => format!("{}:{line}", path.display()),
                    _ => path.display().to_string(),
                };
                let var = if key == "mappings" {
                    "CARBON_SHOW_MAPPINGS"
                } else {
                    "CARBON_SHOW_DATA"
                };
                return Err(config_error(format!(
                    "{place}: {key}: {:?} is outside the repository ({}): a configuration \
                     file may only name folders inside it; name it with --{key} or {var} \
                     in the workflow, or set CARBON_SHOW_TRUST_CONFIG=1 if this file is trusted",
                    folder.display().to_string(),
                    root.display()
                )));
            }
        }
    }
    Ok(())
}
