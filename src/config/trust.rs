//! What a configuration file may set when the workflow pins the gate, and the settings that
//! move figures or the gate, named in the output's headline (docs/config.md, "Pinning the gate").
//!
//! The flags and `CARBON_SHOW_*` variables are the workflow's (trusted); a configuration file
//! is the repository's, which a pull request can change. With `--pin-gate` (or
//! `CARBON_SHOW_PIN_GATE=on`) a file that sets `fail-over`, `utilization`, `[regions]`,
//! `mappings` or `data` is refused at its line (exit 10), and says how the workflow sets it.
//! Whatever the pin, every such setting that differs from the default is named with its source
//! in the human summary's headline and the Markdown comment's first lines.

use std::path::Path;

use super::*;

/// A setting that moves figures or the gate, as the headline names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    /// `utilization`, `region aws`, `mappings`, `data`, `fail-over`.
    pub setting: String,
    /// Its value as written in a configuration file: `0 %`, `eu-west-1`, `2t/year`.
    pub value: String,
    /// Where it came from: `.carbon-show.toml:3`, `CARBON_SHOW_UTILIZATION`, `--utilization`.
    pub source: String,
}

impl fmt::Display for Moved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ({})", self.setting, self.value, self.source)
    }
}

/// A budget as it would be written: `2t/year`, `10kg/month`, `12.5g/h`.
pub fn budget_text(b: &Budget) -> String {
    let (v, unit) = if b.grams >= 1e6 {
        (b.grams / 1e6, "t")
    } else if b.grams >= 1e3 {
        (b.grams / 1e3, "kg")
    } else {
        (b.grams, "g")
    };
    // nine significant digits: no float noise from the unit's division (8.069999…)
    let v = format!("{v:.9}");
    let v = v.trim_end_matches('0').trim_end_matches('.');
    format!("{v}{unit}/{}", b.period.unit())
}

/// At most [`CLIP`] characters (a folder name from the repository can be any length; the
/// comment has a budget).
fn clip(s: &str) -> String {
    if s.chars().count() <= CLIP {
        s.to_string()
    } else {
        let head: String = s.chars().take(CLIP - 1).collect();
        format!("{head}…")
    }
}

/// The longest value or source a headline names.
const CLIP: usize = 80;

/// A source as the headline names it: a file relative to `cwd` when it lies below it.
fn short(source: &Source, cwd: &Path) -> String {
    match source {
        Source::Default => "default".into(),
        Source::File { path, line } => {
            let p = path.strip_prefix(cwd).unwrap_or(path);
            format!("{}:{line}", p.display())
        }
        Source::Env(v) => (*v).into(),
        Source::Flag(f) => (*f).into(),
    }
}

impl Effective {
    /// The settings that move figures or the gate and differ from the defaults, with their
    /// sources (`cwd`: files are named relative to it).
    pub fn moved(&self, cwd: &Path) -> Vec<Moved> {
        let mut out = Vec::new();
        let mut push = |setting: String, value: String, source: &Source| {
            out.push(Moved {
                setting,
                value: clip(&value),
                source: clip(&short(source, cwd)),
            })
        };
        if self.utilization.source != Source::Default {
            let u = crate::render::carbon::trim_num(self.utilization.value * 100.0);
            push(
                "utilization".into(),
                format!("{u} %"),
                &self.utilization.source,
            );
        }
        for (p, r) in &self.regions {
            push(format!("region {}", p.as_str()), r.value.clone(), &r.source);
        }
        for (name, s) in [("mappings", &self.mappings), ("data", &self.data)] {
            if !s.value.is_empty() {
                let dirs: Vec<String> = (s.value.iter())
                    .map(|d| d.strip_prefix(cwd).unwrap_or(d).display().to_string())
                    .collect();
                push(name.into(), dirs.join(", "), &s.source);
            }
        }
        if let Some(b) = &self.fail_over.value {
            push("fail-over".into(), budget_text(b), &self.fail_over.source);
        }
        if let Some(b) = &self.fail_over_per_project.value {
            push(
                "fail-over-per-project".into(),
                budget_text(b),
                &self.fail_over_per_project.source,
            );
        }
        out
    }
}

/// With the gate pinned, the file may not set the gate nor what moves figures: the first such
/// key (by line) is refused, naming the flag and variable the workflow sets it with.
pub fn refuse_pinned(file: &Layer) -> Result<(), Error> {
    let mut found: Vec<(Option<&Source>, &str, &str)> = vec![
        (
            file.fail_over.as_ref().map(|s| &s.source),
            "fail-over",
            "--fail-over or CARBON_SHOW_FAIL_OVER",
        ),
        (
            file.fail_over_per_project.as_ref().map(|s| &s.source),
            "fail-over-per-project",
            "--fail-over-per-project or CARBON_SHOW_FAIL_OVER_PER_PROJECT",
        ),
        (
            file.utilization.as_ref().map(|s| &s.source),
            "utilization",
            "--utilization or CARBON_SHOW_UTILIZATION",
        ),
        (
            file.mappings.as_ref().map(|s| &s.source),
            "mappings",
            "--mappings or CARBON_SHOW_MAPPINGS",
        ),
        (
            file.data.as_ref().map(|s| &s.source),
            "data",
            "--data or CARBON_SHOW_DATA",
        ),
    ];
    for r in file.regions.values() {
        found.push((
            Some(&r.source),
            "[regions]",
            "CARBON_SHOW_REGION_AWS, _GCP or _AZURE",
        ));
    }
    let line = |s: &Source| match s {
        Source::File { line, .. } => *line,
        _ => 0,
    };
    let first = (found.into_iter())
        .filter_map(|(s, key, how)| s.map(|s| (s, key, how)))
        .min_by_key(|(s, ..)| line(s));
    match first {
        None => Ok(()),
        Some((source, key, how)) => Err(config_error(format!(
            "{source}: {key} cannot come from a configuration file while the gate is pinned \
             (--pin-gate or CARBON_SHOW_PIN_GATE): set it in the workflow ({how}), \
             or remove it from the file"
        ))),
    }
}

/// A budget without a period means per month: beside another headline period that would
/// silently disagree (`--fail-over 50kg --period year` gating at 50 kg a month), so it is
/// refused, saying how to write it.
pub fn check_gate_period(e: &Effective) -> Result<(), Error> {
    check_budget_period(e, &e.fail_over, "fail-over")?;
    check_budget_period(e, &e.fail_over_per_project, "fail-over-per-project")
}

/// [`check_gate_period`] of one budget setting, named `key`.
fn check_budget_period(
    e: &Effective,
    setting: &super::Setting<Option<crate::estimate::Budget>>,
    key: &str,
) -> Result<(), Error> {
    let Some(b) = &setting.value else {
        return Ok(());
    };
    if b.period_named || e.period.value == Period::Month {
        return Ok(());
    }
    let amount = budget_text(b);
    let amount = amount.split('/').next().unwrap_or_default();
    let p = e.period.value.unit();
    let name = super::period_name(e.period.value);
    let place = match &setting.source {
        Source::Env(v) => format!("environment variable {v}"),
        Source::Flag(f) => (*f).to_string(),
        s => s.to_string(),
    };
    Err(config_error(format!(
        "{place}: {key} {amount:?} names no period while figures are per {name} (period \
         from {}): write \"{amount}/{p}\", or \"{amount}/month\" (what an amount alone means)",
        e.period.source
    )))
}
