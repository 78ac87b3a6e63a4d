//! The answer to "what does this change cost the climate?": a plain-data [`Summary`] of the
//! report (its verdict, the resources grouped and ranked, what was left out and why), and its
//! human wording, written after OpenTofu's own output.
//!
//! Placement: `tofu show` ends a plan with its `Plan: …` line and then `Changes to Outputs:`
//! (`tofu plan` goes on with diagnostics and the note about `-out`). The `Plan:` line and the
//! output changes are one account of what will change, so the carbon summary comes after all
//! of it, once OpenTofu's text is complete: it is the last thing on the screen after a run,
//! everything above it is byte for byte OpenTofu's, and a state document ends the same way.

use std::io::{self, Write};

use super::wrap::{fit, style};
use super::{COLUMNS, group_by_resource, relative, signed, trim_num, type_counts};
use crate::config::trust::Moved;
use crate::estimate::{Mass, Period};
use crate::render::Theme;
use crate::report::modules::{self, ModuleRollup};
use crate::report::{Report, ResourceReport, Status};

/// Names shown in a summary line before `and N more`.
pub const NAMES_SHOWN: usize = 5;

/// What the document is: a plan changes things, a state only runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    Plan,
    State,
}

/// What the summary can truthfully say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing the mappings cover at all (no AWS, GCP or Azure resource): nothing to say.
    Silent,
    /// Cloud resources, but not one with figures: say so and name them.
    NothingEstimated,
    /// A state document: what its resources emit, no before and after.
    Footprint,
    /// A plan whose figures do not move.
    Unchanged,
    /// A plan that adds or saves emissions.
    Changed,
}

/// The instances of one resource (or one resource alone), with their figures summed.
#[derive(Debug, Clone, PartialEq)]
pub struct Group<'r> {
    /// `aws_instance.worker[0..2] ×3`, or the address.
    pub label: String,
    pub members: Vec<&'r ResourceReport>,
    /// gCO2eq per hour, all members together.
    pub before: Option<f64>,
    pub after: Option<f64>,
    pub delta: f64,
}

impl Group<'_> {
    /// OpenTofu's actions of the members, worded for a table: `create`, `replace`, …
    pub fn action(&self) -> String {
        let mut names: Vec<&str> = Vec::new();
        for m in &self.members {
            let a: Vec<&str> = m.actions.iter().map(|a| &**a).collect();
            let name = match a.as_slice() {
                ["delete", "create"] | ["create", "delete"] => "replace",
                ["no-op"] => "unchanged",
                [one] => one,
                _ => "change",
            };
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names.join(", ")
    }
}

/// A not-estimated resource (or its instances) and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Skipped {
    pub label: String,
    pub reason: String,
}

/// Everything a carbon summary says, as data: the human summary and the Markdown comment word
/// it each their own way.
#[derive(Debug, Clone)]
pub struct Summary<'r> {
    pub report: &'r Report,
    pub kind: DocumentKind,
    /// The headline period.
    pub period: Period,
    pub verdict: Verdict,
    /// gCO2eq per hour.
    pub before: f64,
    pub after: f64,
    pub delta: f64,
    /// Estimated resources, grouped by resource and ranked by the size of their change
    /// (a state's by what they emit), largest first; those that change nothing are left out
    /// of a plan's.
    pub groups: Vec<Group<'r>>,
    /// Covered by the mappings, but a figure was missing.
    pub not_estimated: Vec<Skipped>,
    /// Covered by the mappings, which say why no sourced method estimates them.
    pub unsupported_reasons: Vec<Skipped>,
    /// Unsupported resources (no mapping), grouped by resource.
    pub unsupported: Vec<String>,
    /// Unsupported resources per type: `aws_lambda_function ×2`.
    pub unsupported_types: Vec<String>,
    /// The resources in their modules (`--module-depth`; [`super::modules`] words it).
    pub modules: ModuleRollup,
    /// Settings that move figures or the gate and differ from the defaults, with their
    /// sources (`config::trust`): named under the headline.
    pub settings: Vec<Moved>,
    /// `--alternatives`: whether the summary and the comment list the greener alternatives'
    /// savings ([`super::greener`]).
    pub alternatives: bool,
}

impl<'r> Summary<'r> {
    pub fn new(report: &'r Report, kind: DocumentKind, period: Period) -> Self {
        let t = &report.totals;
        let (before, after, delta) = (
            t.before_per_hour.total_gco2eq,
            t.after_per_hour.total_gco2eq,
            t.delta_per_hour.total_gco2eq,
        );
        let c = &report.counts;
        let verdict = if c.estimated == 0 {
            if c.not_estimated + c.unsupported + c.ignored == 0 {
                Verdict::Silent
            } else {
                Verdict::NothingEstimated
            }
        } else if kind == DocumentKind::State {
            Verdict::Footprint
        } else if delta == 0.0 {
            Verdict::Unchanged
        } else {
            Verdict::Changed
        };
        let estimated = report.resources.iter().filter(|r| {
            matches!(r.status, Status::Estimated)
                && (kind == DocumentKind::State || r.delta_per_hour.total_gco2eq != 0.0)
        });
        let mut groups: Vec<Group<'r>> =
            group_by_resource(estimated.map(|r| (r.address.as_str(), r)))
                .into_iter()
                .map(|(label, members)| {
                    let sum = |f: &dyn Fn(&ResourceReport) -> Option<f64>| -> Option<f64> {
                        members.iter().filter_map(|m| f(m)).reduce(|a, b| a + b)
                    };
                    Group {
                        before: sum(&|m| m.before.as_ref().map(|s| s.per_hour.total_gco2eq)),
                        after: sum(&|m| m.after.as_ref().map(|s| s.per_hour.total_gco2eq)),
                        delta: members.iter().map(|m| m.delta_per_hour.total_gco2eq).sum(),
                        label,
                        members,
                    }
                })
                .collect();
        let size = |g: &Group| match kind {
            DocumentKind::State => g.after.unwrap_or(0.0),
            DocumentKind::Plan => g.delta.abs(),
        };
        groups.sort_by(|a, b| {
            size(b)
                .total_cmp(&size(a))
                .then_with(|| a.label.cmp(&b.label))
        });
        let skipped = |unsupported: bool| -> Vec<Skipped> {
            group_by_resource(report.resources.iter().filter_map(|r| match &r.status {
                Status::NotEstimated { reason } if !unsupported => {
                    Some((r.address.as_str(), reason.as_str()))
                }
                Status::Unsupported { reason } if unsupported => {
                    Some((r.address.as_str(), reason.as_str()))
                }
                _ => None,
            }))
            .into_iter()
            .map(|(label, reasons)| Skipped {
                label,
                reason: reasons[0].to_string(),
            })
            .collect()
        };
        let not_estimated = skipped(false);
        let unsupported_reasons = skipped(true);
        let unsupported = group_by_resource(report.unsupported.iter().map(|a| (a.as_str(), ())))
            .into_iter()
            .map(|(label, _)| label)
            .collect();
        Summary {
            report,
            kind,
            period,
            verdict,
            before,
            after,
            delta,
            groups,
            not_estimated,
            unsupported_reasons,
            unsupported,
            unsupported_types: type_counts(report.unsupported.iter().map(String::as_str)),
            modules: modules::rollup(report, modules::DEFAULT_DEPTH),
            settings: Vec::new(),
            alternatives: true,
        }
    }

    /// With `--alternatives off`, no "could be greener" lines.
    pub fn with_alternatives(mut self, on: bool) -> Self {
        self.alternatives = on;
        self
    }

    /// The settings named under the headline (`CarbonOptions::moved`).
    pub fn with_settings(mut self, settings: Vec<Moved>) -> Self {
        self.settings = settings;
        self
    }

    /// The module rollup at `depth` (`--module-depth`) instead of the default.
    pub fn with_module_depth(mut self, depth: usize) -> Self {
        if depth != self.modules.depth {
            self.modules = modules::rollup(self.report, depth);
        }
        self
    }

    /// The headline period's hours.
    pub fn hours(&self) -> f64 {
        self.period.hours()
    }

    /// `month`, `year` or `hour`.
    pub fn period_name(&self) -> &'static str {
        match self.period {
            Period::Hour => "hour",
            Period::Month => "month",
            Period::Year => "year",
        }
    }

    /// The change relative to before: `+12.5 %`; `None` when nothing was estimated before.
    pub fn relative(&self) -> Option<String> {
        relative(self.before, self.delta)
    }

    /// `50 % CPU utilisation`; `… (burstables at their baseline)` when a burstable type of the plan ran
    /// at its published baseline instead (its own line says which).
    pub fn utilisation(&self) -> String {
        let u = format!(
            "{} % CPU utilisation",
            trim_num(self.report.utilization * 100.0)
        );
        let baseline = self.report.resources.iter().any(|r| {
            r.assumptions
                .iter()
                .any(|a| a.contains("published baseline"))
        });
        if baseline {
            format!("{u} (burstables at their baseline)")
        } else {
            u
        }
    }
}

/// How a piece of a summary line is styled (each maps to a slot of the [`Theme`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Default text.
    Plain,
    /// The `Carbon` label (bold).
    Label,
    /// A rise in emissions (the theme's red).
    Up,
    /// A fall (the theme's green).
    Down,
    /// Secondary lines (the annotation style).
    Detail,
}

/// One line of the human summary, in styled pieces.
pub type Line = Vec<(Tone, String)>;

fn tone_of(delta: f64) -> Tone {
    if delta > 0.0 {
        Tone::Up
    } else if delta < 0.0 {
        Tone::Down
    } else {
        Tone::Label
    }
}

fn detail(text: String) -> Line {
    vec![(Tone::Detail, text)]
}

/// What a terminal shows for [`Verdict::Silent`] (piped output shows nothing: it stays
/// OpenTofu's text byte for byte).
pub fn silent_line(kind: DocumentKind) -> &'static str {
    match kind {
        DocumentKind::Plan => {
            "Carbon: nothing to estimate: no AWS, GCP or Azure resource in this plan"
        }
        DocumentKind::State => {
            "Carbon: nothing to estimate: no AWS, GCP or Azure resource in this state"
        }
    }
}

/// The human summary, line by line (empty for [`Verdict::Silent`]).
pub fn human_lines(s: &Summary) -> Vec<Line> {
    let mut out = headline_lines(s);
    if out.is_empty() {
        return out;
    }
    // right under the headline: what the figures or the gate were moved by
    let settings = settings_lines(&s.settings);
    out.splice(1..1, settings.into_iter().map(detail));
    group_lines(s, &mut out);
    out.extend(super::greener::human_lines(s));
    coverage_lines(s, &mut out);
    out.extend(super::modules::human_lines(s));
    out
}

/// The headline for the summary's verdict and the figure lines under it.
fn headline_lines(s: &Summary) -> Vec<Line> {
    let h = s.hours();
    let per = s.period.unit();
    let t = &s.report.totals;
    let mut out: Vec<Line> = Vec::new();
    let label = (Tone::Label, "Carbon".to_string());
    let split = |f: &crate::report::Figures| {
        format!(
            "operational {} + embodied {} per {}",
            Mass(f.operational_gco2eq * h),
            Mass(f.embodied_gco2eq * h),
            s.period_name()
        )
    };
    let rates = |g: f64, signed_figures: bool| {
        let m = |x: f64| {
            if signed_figures {
                signed(x)
            } else {
                Mass(x).to_string()
            }
        };
        let mut v = Vec::new();
        for p in [Period::Hour, Period::Month, Period::Year] {
            if p != s.period {
                v.push(format!("{}/{}", m(g * p.hours()), p.unit()));
            }
        }
        v.join(" · ")
    };
    match s.verdict {
        Verdict::Silent => return out,
        Verdict::NothingEstimated => {
            out.push(vec![
                label,
                (Tone::Plain, ": ".into()),
                (Tone::Label, "not estimated".into()),
                (
                    Tone::Plain,
                    match s.kind {
                        DocumentKind::Plan => " — no resource in this plan has figures to add up",
                        DocumentKind::State => " — no resource in this state has figures to add up",
                    }
                    .into(),
                ),
            ]);
        }
        Verdict::Footprint => {
            out.push(vec![
                label,
                (Tone::Plain, " ≈ ".into()),
                (Tone::Label, format!("{}/{per}", Mass(s.after * h))),
                (
                    Tone::Plain,
                    format!(": what this state's resources emit, at {}", s.utilisation()),
                ),
            ]);
            out.push(detail(format!("  {}", rates(s.after, false))));
            out.push(detail(format!("  {}", split(&t.after_per_hour))));
            out.extend(range_line(s).map(detail));
        }
        Verdict::Unchanged => {
            out.push(vec![
                label,
                (Tone::Plain, " ≈ ".into()),
                (Tone::Label, "unchanged".into()),
                (
                    Tone::Plain,
                    format!(" at {}/{per}, at {}", Mass(s.after * h), s.utilisation()),
                ),
            ]);
            out.push(detail(format!("  {}", split(&t.after_per_hour))));
            out.extend(range_line(s).map(detail));
        }
        Verdict::Changed => {
            let rel = s.relative().map(|p| format!(" ({p})")).unwrap_or_default();
            out.push(vec![
                label,
                (Tone::Plain, " ≈ ".into()),
                (tone_of(s.delta), format!("{}/{per}", signed(s.delta * h))),
                (
                    Tone::Plain,
                    format!(
                        "{rel}: {} → {} per {}",
                        Mass(s.before * h),
                        Mass(s.after * h),
                        s.period_name()
                    ),
                ),
            ]);
            out.push(detail(format!(
                "  {} · at {}",
                rates(s.delta, true),
                s.utilisation()
            )));
            out.push(detail(format!("  after: {}", split(&t.after_per_hour))));
            out.extend(range_line(s).map(detail));
        }
    }
    out
}

/// The three largest groups (changes in a plan, footprints in a state) and how many more.
fn group_lines(s: &Summary, out: &mut Vec<Line>) {
    let h = s.hours();
    if s.groups.is_empty() {
        return;
    }
    let (title, figure): (&str, &dyn Fn(&Group) -> f64) = match s.kind {
        DocumentKind::State => ("largest", &|g| g.after.unwrap_or(0.0)),
        DocumentKind::Plan => ("largest changes", &|g| g.delta),
    };
    out.push(detail(format!("  {title} per {}:", s.period_name())));
    let shown: Vec<&Group> = s.groups.iter().take(3).collect();
    let figures: Vec<String> = shown
        .iter()
        .map(|g| match s.kind {
            DocumentKind::State => Mass(figure(g) * h).to_string(),
            DocumentKind::Plan => signed(figure(g) * h),
        })
        .collect();
    let width = figures.iter().map(|f| f.chars().count()).max().unwrap_or(0);
    for (g, f) in shown.iter().zip(&figures) {
        out.push(vec![
            (Tone::Detail, "    ".into()),
            (
                tone_of(if s.kind == DocumentKind::Plan {
                    g.delta
                } else {
                    0.0
                }),
                format!("{f:>width$}"),
            ),
            (Tone::Detail, format!("  {}", g.label)),
        ]);
    }
    if s.groups.len() > 3 {
        out.push(detail(format!(
            "    and {} more (--format json or markdown for all)",
            s.groups.len() - 3
        )));
    }
}

/// What was not counted, the resource counts, and the figures resting on declared usage.
fn coverage_lines(s: &Summary, out: &mut Vec<Line>) {
    let c = &s.report.counts;
    if !s.unsupported.is_empty() {
        let names = if s.verdict == Verdict::NothingEstimated {
            &s.unsupported_types
        } else {
            &s.unsupported
        };
        out.push(detail(fit_names(
            "  unsupported, not counted: ",
            names,
            NAMES_SHOWN,
        )));
    }
    for (head, list) in [
        (
            "  unsupported, no sourced method, not counted:",
            &s.unsupported_reasons,
        ),
        ("  not estimated, not counted:", &s.not_estimated),
    ] {
        skipped_lines(out, head, list);
    }
    out.push(detail(format!(
        "  resources: {} estimated, {} not estimated, {} unsupported, {} ignored",
        c.estimated, c.not_estimated, c.unsupported, c.ignored
    )));
    if let Some((n, file)) = from_usage(s.report) {
        let verb = if n == 1 {
            "figure rests"
        } else {
            "figures rest"
        };
        out.push(detail(format!(
            "  from declared usage: {n} {verb} on usage declared in {file}"
        )));
    }
}

/// How many estimated figures rest on declared usage, and the usage file's name as the report
/// holds it: already without control characters (`usage::file` escaped it when it read the
/// file), and escaped again for its destination by the caller's wording.
pub(crate) fn from_usage(report: &crate::report::Report) -> Option<(usize, String)> {
    let n = report.counts.from_usage;
    let file = report.resources.iter().find_map(|r| r.usage.first())?;
    (n > 0).then_some((n, file.file.to_string()))
}

/// `  settings: utilization 0 % (.carbon-show.toml:2) · region aws eu-west-1 (…)`, continued
/// on lines of their own past [`COLUMNS`]; control characters escaped (a folder name comes
/// from the repository).
pub(crate) fn settings_lines(settings: &[Moved]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for m in settings {
        let item = crate::escape::line(&m.to_string()).into_owned();
        if line.is_empty() {
            line = format!("  not the defaults: {item}");
        } else if line.chars().count() + 3 + item.chars().count() > COLUMNS {
            lines.push(std::mem::take(&mut line));
            line = format!("    {item}");
        } else {
            line.push_str(" · ");
            line.push_str(&item);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `head`, then one `label: reason` line per skipped resource (at most [`NAMES_SHOWN`]).
fn skipped_lines(out: &mut Vec<Line>, head: &str, list: &[Skipped]) {
    if !list.is_empty() {
        out.push(detail(head.into()));
        for n in list.iter().take(NAMES_SHOWN) {
            out.push(detail(format!("    {}: {}", n.label, n.reason)));
        }
        if list.len() > NAMES_SHOWN {
            out.push(detail(format!("    and {} more", list.len() - NAMES_SHOWN)));
        }
    }
}

/// `prefix` and as many names as fit in [`COLUMNS`] (at most `cap`, at least one), then
/// `and N more`.
fn fit_names(prefix: &str, names: &[String], cap: usize) -> String {
    let mut shown = 0;
    let mut line = prefix.to_string();
    for (i, n) in names.iter().enumerate().take(cap) {
        let rest = names.len() - i - 1;
        let tail = if rest > 0 {
            format!(", and {rest} more")
        } else {
            String::new()
        };
        let sep = if i > 0 { ", " } else { "" };
        let width = line.chars().count() + sep.len() + n.chars().count() + tail.chars().count();
        if i > 0 && width > COLUMNS {
            break;
        }
        line.push_str(sep);
        line.push_str(n);
        shown += 1;
    }
    if shown < names.len() {
        line.push_str(&format!(", and {} more", names.len() - shown));
    }
    line
}

/// The plain text of summary lines (for tests and the Markdown comment's plan).
pub fn plain(lines: &[Line]) -> String {
    let mut s = String::new();
    for l in lines {
        for (_, t) in l {
            s.push_str(t);
        }
        s.push('\n');
    }
    s
}

/// `  range after: 8.1–12.9 kgCO2eq per month (utilisation 10–90 %, spread of the
/// coefficients)`: the after total's low and high ends; `None` when they are one value.
fn range_line(s: &Summary) -> Option<String> {
    let b = &s.report.totals.after_range_per_hour;
    let h = s.hours();
    let (low, high) = (b.low.total_gco2eq * h, b.high.total_gco2eq * h);
    if low == high {
        return None;
    }
    let k = super::unit_scale(high);
    let unit = Mass(high).to_string();
    let unit = unit
        .split_once(' ')
        .map_or("gCO2eq", |(_, u)| u)
        .to_string();
    Some(format!(
        "  range{}: {}–{} {unit} per {} (utilisation {}–{} %, spread of the coefficients)",
        // a state has no before and after
        if s.kind == DocumentKind::State {
            ""
        } else {
            " after"
        },
        super::sig3(low / k),
        super::sig3(high / k),
        s.period_name(),
        trim_num(crate::estimate::LOW_UTILIZATION * 100.0),
        trim_num(crate::estimate::HIGH_UTILIZATION * 100.0),
    ))
}

/// Writes the human summary after OpenTofu's text: a blank line, then the lines, each piece
/// styled through the theme. Writes nothing for [`Verdict::Silent`].
pub fn write_human(s: &Summary, theme: &Theme, out: &mut dyn Write) -> io::Result<()> {
    write_human_within(s, theme, None, out)
}

/// [`write_human`] fitted to a terminal of `width` columns: a line past it continues on
/// indented lines of its own, cut at spaces (`None`: single lines, as piped output holds them).
pub fn write_human_within(
    s: &Summary,
    theme: &Theme,
    width: Option<usize>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut lines = human_lines(s);
    if let Some(w) = width {
        lines = lines.into_iter().flat_map(|l| fit(l, w)).collect();
    }
    if lines.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    for l in &lines {
        for (tone, text) in l {
            // labels and reasons quote the plan: escaped for the terminal
            let text = crate::escape::line(text);
            match style(theme, *tone) {
                Some(st) => write!(out, "{}", theme.paint(st, &text))?,
                None => write!(out, "{text}")?,
            }
        }
        writeln!(out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Side;

    fn side(g_per_hour: f64) -> Side {
        crate::report::fixtures::quarter_embodied(g_per_hour)
    }

    fn change(addr: &str, actions: &[&str], b: Option<f64>, a: Option<f64>) -> ResourceReport {
        ResourceReport::new(
            addr.into(),
            "aws_instance".into(),
            actions.iter().map(|s| s.to_string()).collect(),
            b.map(side),
            a.map(side),
        )
    }

    fn text(r: &Report, kind: DocumentKind) -> String {
        plain(&human_lines(&Summary::new(r, kind, Period::Month)))
    }

    /// Hand-checked: before 4 g/h; after 10 + 6 = 16 g/h; delta +12 g/h.
    #[test]
    fn a_change_leads_with_the_delta_and_its_relative_size() {
        let r = Report::new(
            vec![
                change("aws_instance.a[0]", &["create"], None, Some(10.0)),
                change("aws_instance.a[1]", &["create"], None, Some(6.0)),
                change("aws_instance.old", &["delete"], Some(4.0), None),
            ],
            vec!["aws_lambda_function.f".into()],
            2,
            0.5,
            Period::Month,
        );
        // 12 × 730 = 8,760 g (+300 % of 4 g/h); 4 × 730 = 2,920 g; 16 × 730 = 11,680 g;
        // 12 × 8,760 = 105,120 g; after: 12 g/h operational (8.76 kg), 4 g/h embodied (2.92 kg)
        assert_eq!(
            text(&r, DocumentKind::Plan),
            "Carbon ≈ +8.76 kgCO2eq/month (+300 %): 2.92 kgCO2eq → 11.7 kgCO2eq per month\n\
             \x20 +12.0 gCO2eq/h · +105 kgCO2eq/year · at 50 % CPU utilisation\n\
             \x20 after: operational 8.76 kgCO2eq + embodied 2.92 kgCO2eq per month\n\
             \x20 largest changes per month:\n\
             \x20   +11.7 kgCO2eq  aws_instance.a[0..1] ×2\n\
             \x20   -2.92 kgCO2eq  aws_instance.old\n\
             \x20 unsupported, not counted: aws_lambda_function.f\n\
             \x20 resources: 3 estimated, 0 not estimated, 1 unsupported, 2 ignored\n"
        );
    }

    #[test]
    fn verdicts() {
        let v = |r: &Report, k| Summary::new(r, k, Period::Month).verdict;
        let nothing = Report::new(vec![], vec![], 0, 0.5, Period::Month);
        assert_eq!(v(&nothing, DocumentKind::Plan), Verdict::Silent);
        assert!(human_lines(&Summary::new(&nothing, DocumentKind::Plan, Period::Month)).is_empty());
        let only_ignored = Report::new(vec![], vec![], 3, 0.5, Period::Month);
        assert_eq!(
            v(&only_ignored, DocumentKind::Plan),
            Verdict::NothingEstimated
        );
        let same = Report::new(
            vec![change("a.b", &["delete", "create"], Some(3.0), Some(3.0))],
            vec![],
            0,
            0.5,
            Period::Month,
        );
        assert_eq!(v(&same, DocumentKind::Plan), Verdict::Unchanged);
        assert_eq!(v(&same, DocumentKind::State), Verdict::Footprint);
    }

    #[test]
    fn long_name_lists_stop_within_the_columns() {
        let names: Vec<String> = (0..9)
            .map(|i| format!("module.network_{i}.aws_lambda_function.handler"))
            .collect();
        let line = fit_names("  unsupported, not counted: ", &names, NAMES_SHOWN);
        assert!(line.chars().count() <= COLUMNS, "{line}");
        assert!(line.ends_with(", and 8 more"), "{line}");
        let short: Vec<String> = (0..7).map(|i| format!("a.b{i}")).collect();
        assert_eq!(
            fit_names("x: ", &short, 5),
            "x: a.b0, a.b1, a.b2, a.b3, a.b4, and 2 more"
        );
    }
}
