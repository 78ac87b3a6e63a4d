//! Several projects in one review, worded: the line above each project's plan, the human
//! summary with a row per project and the total, and the one Markdown comment that leads with
//! the total and a table of projects, each project's own comment folded under it.
//!
//! A project's folded sections are [`super::markdown::fit`]'s single-plan comment, untouched:
//! this module only wraps them, and shares `--max-chars` between them fairly.

use std::io::{self, Write};

use super::greener;
use super::markdown::{self, CommentOptions, PlanText, SaidAbove, code, escape, footer, html_code};
use super::summary::{DocumentKind, Line, Summary, Tone};
use super::wrap;
use super::{relative, signed};
use crate::config::trust::Moved;
use crate::estimate::{Mass, Period};
use crate::render::Theme;
use crate::report::projects::{ProjectReport, Projects};

/// The line above a project's plan in the human output: `── project app ──`.
pub fn write_header(name: &str, first: bool, theme: &Theme, out: &mut dyn Write) -> io::Result<()> {
    if !first {
        writeln!(out)?;
    }
    let line = format!("── project {} ──", crate::escape::line(name));
    writeln!(out, "{}", theme.paint(theme.bold, &line))
}

fn period_name(p: Period) -> &'static str {
    crate::report::PeriodInfo::new(p).name
}

/// `N projects` / `1 project`.
fn projects_word(n: usize) -> String {
    format!("{n} project{}", if n == 1 { "" } else { "s" })
}

/// Resources not counted in a project's (or the total's) figures.
fn not_counted(c: &crate::report::Counts) -> usize {
    c.not_estimated + c.unsupported
}

/// The summary that closes a multi-project human output, line by line; right under the
/// headline, the settings that moved the figures or the gates (`settings`), as for one plan.
/// `kinds` says which project is a state (by position; a project past it is a plan): its row
/// says what its resources emit, as one state's summary does, not a change.
pub fn human_lines(
    p: &Projects,
    kinds: &[DocumentKind],
    period: Period,
    settings: &[Moved],
) -> Vec<Line> {
    let h = period.hours();
    let per = period.unit();
    let t = &p.totals;
    let (before, delta) = (
        t.before_per_hour.total_gco2eq,
        t.delta_per_hour.total_gco2eq,
    );
    let rel = relative(before, delta)
        .map(|r| format!(" ({r})"))
        .unwrap_or_default();
    let tone = match delta {
        d if d > 0.0 => Tone::Up,
        d if d < 0.0 => Tone::Down,
        _ => Tone::Label,
    };
    let mut out: Vec<Line> = vec![vec![
        (Tone::Label, "Carbon".to_string()),
        (
            Tone::Plain,
            format!(" of {} ≈ ", projects_word(p.projects.len())),
        ),
        (tone, format!("{}/{per}{rel}", signed(delta * h))),
        (
            Tone::Plain,
            format!(
                ": {} → {} per {}",
                Mass(before * h),
                Mass(t.after_per_hour.total_gco2eq * h),
                period_name(period)
            ),
        ),
    ]];
    let moved = super::summary::settings_lines(settings);
    out.extend(moved.into_iter().map(|l| vec![(Tone::Detail, l)]));
    out.push(vec![(
        Tone::Detail,
        format!("  per project, per {}:", period_name(period)),
    )]);
    let state = |i: usize| kinds.get(i) == Some(&DocumentKind::State);
    // a plan's row gives its change, a state's what it emits
    let figures: Vec<String> = (p.projects.iter().enumerate())
        .map(|(i, r)| match state(i) {
            true => Mass(r.report.totals.after_per_hour.total_gco2eq * h).to_string(),
            false => signed(r.report.totals.delta_per_hour.total_gco2eq * h),
        })
        .collect();
    let width = figures.iter().map(|f| f.chars().count()).max().unwrap_or(0);
    for (i, (r, figure)) in p.projects.iter().zip(&figures).enumerate() {
        let c = &r.report.counts;
        let mut counts = format!("{} estimated", c.estimated);
        if not_counted(c) > 0 {
            counts.push_str(&format!(", {} not counted", not_counted(c)));
        }
        if state(i) {
            counts = format!("a state: what its resources emit; {counts}");
        }
        let over = r.report.fail_over.is_some_and(|g| g.exceeded);
        out.push(vec![(
            Tone::Detail,
            format!(
                "    {figure:>width$}  {}  ({counts}){}",
                r.name,
                if over { ", over its budget" } else { "" }
            ),
        )]);
    }
    let c = &p.counts;
    out.push(vec![(
        Tone::Detail,
        format!(
            "  resources: {} estimated, {} not estimated, {} unsupported, {} ignored",
            c.estimated, c.not_estimated, c.unsupported, c.ignored
        ),
    )]);
    out.extend(gate_lines(p).into_iter().map(|l| vec![(Tone::Label, l)]));
    out
}

/// The gates' verdicts in words: the total's (`--fail-over`), then the projects' over
/// `--fail-over-per-project`, named.
fn gate_lines(p: &Projects) -> Vec<String> {
    let mut out = Vec::new();
    let hours = |period: &str| match period {
        "hour" => Period::Hour.hours(),
        "year" => Period::Year.hours(),
        _ => Period::Month.hours(),
    };
    if let Some(g) = p.fail_over {
        let verdict = if g.exceeded { "over" } else { "within" };
        out.push(format!(
            "  {verdict} the --fail-over budget of {} per {p}: the projects together add {} per {p}",
            Mass(g.limit_gco2eq),
            signed(g.added_per_hour_gco2eq * hours(g.period)),
            p = g.period,
        ));
    }
    if let Some(g) = &p.fail_over_per_project {
        let budget = format!(
            "the --fail-over-per-project budget of {} per {}",
            Mass(g.limit_gco2eq),
            g.period
        );
        out.push(if g.exceeded {
            format!("  over {budget}: {}", g.over.join(", "))
        } else {
            format!("  every project within {budget}")
        });
    }
    out
}

/// How the multi-project summary is written: which project is a state ([`human_lines`]), and
/// the terminal's width its lines are fitted to (`None`: piped, one line each), as for one plan
/// ([`super::write_human_within`]).
pub struct HumanOptions<'k> {
    pub kinds: &'k [DocumentKind],
    pub width: Option<usize>,
}

/// Writes the multi-project summary after the projects' plans, each piece styled, each line
/// fitted to `how.width`.
pub fn write_human(
    p: &Projects,
    period: Period,
    settings: &[Moved],
    how: &HumanOptions<'_>,
    theme: &Theme,
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(out)?;
    let mut lines = human_lines(p, how.kinds, period, settings);
    if let Some(w) = how.width {
        lines = lines.into_iter().flat_map(|l| wrap::fit(l, w)).collect();
    }
    for l in lines {
        for (tone, text) in l {
            // project names come from the command line or a file name: escaped
            let text = crate::escape::line(&text);
            match wrap::style(theme, tone) {
                Some(st) => write!(out, "{}", theme.paint(st, &text))?,
                None => write!(out, "{text}")?,
            }
        }
        writeln!(out)?;
    }
    Ok(())
}

/// One project of the comment: its summary and its plan text.
pub struct ProjectComment<'a> {
    pub summary: Summary<'a>,
    pub plan: PlanText<'a>,
}

/// Writes the one comment of a multi-project run, within `opts.max_chars`.
pub fn write_comment(
    p: &Projects,
    each: &[ProjectComment<'_>],
    period: Period,
    settings: &[Moved],
    opts: &CommentOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    out.write_all(comment(p, each, period, settings, opts).as_bytes())
}

/// The comment: the headline with the total, the verdicts, the table of projects, then each
/// project's own comment folded. Each fold gets a fair share of what the headline and table
/// leave of `--max-chars`: a project that needs less than its share gives the rest to the
/// others; [`markdown::guard`] keeps the whole within the budget whatever the count.
pub fn comment(
    p: &Projects,
    each: &[ProjectComment<'_>],
    period: Period,
    settings: &[Moved],
    opts: &CommentOptions,
) -> String {
    let opens: Vec<String> = (p.projects.iter()).map(|r| fold_open(r, period)).collect();
    const CLOSE: &str = "\n</details>\n";
    let chars = |s: &str| s.chars().count();
    let folds: usize = (opens.iter()).map(|o| chars(o) + chars(CLOSE) + 1).sum();
    let room = opts.max_chars.map(|max| max.saturating_sub(folds));
    let (head, said_above) = above_the_folds(p, each, period, settings, opts, room);
    let body = |c: &ProjectComment<'_>, max: Option<usize>| {
        let o = CommentOptions {
            tag: None,
            max_chars: max,
            said_above,
            share_of: opts.max_chars,
            ..opts.clone()
        };
        inner(markdown::fit(&c.summary, c.plan, &o))
    };
    let texts: Vec<String> = match opts.max_chars {
        None => each.iter().map(|c| body(c, None)).collect(),
        Some(max) => {
            let fixed = chars(&head) + folds;
            let room = max.saturating_sub(fixed);
            // what each needs alone, then shares from the smallest need up
            let needs: Vec<usize> = each.iter().map(|c| chars(&body(c, Some(room)))).collect();
            let mut order: Vec<usize> = (0..each.len()).collect();
            order.sort_by_key(|&i| needs[i]);
            let (mut left, mut shares) = (room, vec![0; each.len()]);
            for (k, &i) in order.iter().enumerate() {
                let share = (left / (each.len() - k)).min(needs[i]);
                shares[i] = share;
                left -= share;
            }
            (each.iter().zip(&shares))
                .map(|(c, &share)| body(c, Some(share)))
                .collect()
        }
    };
    let mut out = head;
    for (open, text) in opens.iter().zip(&texts) {
        out.push('\n');
        out.push_str(open);
        out.push_str(text);
        out.push_str(CLOSE);
    }
    match opts.max_chars {
        Some(max) => markdown::guard(
            out,
            markdown::Within {
                max,
                share_of: None,
            },
        ),
        None => out,
    }
}

/// What a reviewer reads with the folds closed, each said once for every project: the
/// headline and the gates' verdicts, the table of projects, the range and sources line when
/// it is every project's (else each fold keeps its own), the largest greener savings over all
/// projects, and the footer. Over `room` (what the folds' own lines leave of `--max-chars`),
/// the savings lose rows, the smallest first (the rest stays: [`markdown::guard`] cuts after).
/// Returns it with what the folds leave out for it.
fn above_the_folds(
    p: &Projects,
    each: &[ProjectComment<'_>],
    period: Period,
    settings: &[Moved],
    opts: &CommentOptions,
    room: Option<usize>,
) -> (String, SaidAbove) {
    let mut out = format!(
        "{}\n{}",
        headline(p, period, settings, opts),
        table(p, each, period)
    );
    let mut lines = each.iter().filter_map(|c| footer::sources_line(&c.summary));
    let sources = lines.next().filter(|first| lines.all(|l| l == *first));
    if let Some(line) = &sources {
        out.push('\n');
        out.push_str(line);
    }
    let named: Vec<(&str, &Summary)> = (p.projects.iter().zip(each))
        .map(|(r, c)| (r.name.as_str(), &c.summary))
        .collect();
    let foot = format!("\n{}", footer::footer(opts.tag.as_deref()));
    let len = |s: &str| s.chars().count();
    let unit = table_unit(p, each, period);
    // the most savings that fit, from five down to none
    let greener = (0..=greener::COMMENT_TOP)
        .rev()
        .map(|n| greener::markdown_across(&named, n, unit).map(|g| format!("\n{g}")))
        .find(|g| {
            let g = g.as_deref().unwrap_or_default();
            room.is_none_or(|room| len(&out) + len(g) + len(&foot) <= room)
        })
        .flatten();
    out.push_str(greener.as_deref().unwrap_or_default());
    out.push_str(&foot);
    let said = SaidAbove {
        footer: true,
        sources: sources.is_some(),
    };
    (out, said)
}

/// A project's single-plan comment made to sit inside a fold: without the marker (the
/// comment has one, the first line) and with its heading a level down.
fn inner(text: String) -> String {
    let text = text
        .strip_prefix(&format!("{}\n", markdown::marker(None)))
        .map(str::to_string)
        .unwrap_or(text);
    match text.strip_prefix("### ") {
        Some(rest) => format!("#### {rest}"),
        None => text,
    }
}

/// `<details><summary><code>app</code>: +6.00 kgCO2eq per month</summary>` and a blank line.
fn fold_open(r: &ProjectReport, period: Period) -> String {
    let over = if r.report.fail_over.is_some_and(|g| g.exceeded) {
        " · ⛔ over its budget"
    } else {
        ""
    };
    format!(
        "<details><summary>{}: {} per {}{over}</summary>\n\n",
        html_code(&r.name),
        escape(&signed(
            r.report.totals.delta_per_hour.total_gco2eq * period.hours()
        )),
        period_name(period)
    )
}

fn headline(p: &Projects, period: Period, settings: &[Moved], opts: &CommentOptions) -> String {
    let h = period.hours();
    let per = period_name(period);
    let t = &p.totals;
    let (before, after, delta) = (
        t.before_per_hour.total_gco2eq,
        t.after_per_hour.total_gco2eq,
        t.delta_per_hour.total_gco2eq,
    );
    let n = projects_word(p.projects.len());
    let heading = if p.counts.estimated == 0 {
        format!("⚠ carbon-show could not estimate these {n}")
    } else if delta == 0.0 {
        format!(
            "= These {n} leave emissions unchanged at {} per {per}",
            Mass(after * h)
        )
    } else {
        let rel = relative(before, delta)
            .map(|r| format!(" ({r})"))
            .unwrap_or_default();
        let (mark, verb) = if delta > 0.0 {
            ("▲", "add")
        } else {
            ("▼", "save")
        };
        format!(
            "{mark} These {n} {verb} {} per {per}{rel}",
            Mass(delta.abs() * h)
        )
    };
    let sentence = format!(
        "From {} to {} per {per}, over {n}: each is folded below the table.",
        Mass(before * h),
        Mass(after * h)
    );
    let settings = markdown::not_the_defaults(settings);
    format!(
        "{}\n### {}\n\n{sentence}\n{settings}{}",
        markdown::marker(opts.tag.as_deref()),
        escape(&heading),
        gate_markdown(p)
    )
}

/// The gates' verdicts under the headline, the projects over their budget named.
fn gate_markdown(p: &Projects) -> String {
    let mut out = String::new();
    let hours = |period: &str| match period {
        "hour" => Period::Hour.hours(),
        "year" => Period::Year.hours(),
        _ => Period::Month.hours(),
    };
    if let Some(g) = p.fail_over {
        let added = signed(g.added_per_hour_gco2eq * hours(g.period));
        out.push_str(&if g.exceeded {
            format!(
                "\n**⛔ Over the `--fail-over` budget** of {} per {p}: the projects together add \
                 {added} per {p}, so this check fails.\n",
                Mass(g.limit_gco2eq),
                p = g.period
            )
        } else {
            format!(
                "\n**✅ Within the `--fail-over` budget** of {} per {p}: the projects together \
                 change {added} per {p}.\n",
                Mass(g.limit_gco2eq),
                p = g.period
            )
        });
    }
    if let Some(g) = &p.fail_over_per_project {
        let budget = format!("{} per {}", Mass(g.limit_gco2eq), g.period);
        out.push_str(&if g.exceeded {
            let names: Vec<String> = g.over.iter().map(|n| code(n)).collect();
            format!(
                "\n**⛔ Over the `--fail-over-per-project` budget** of {budget}: {}, so this \
                 check fails.\n",
                names.join(", ")
            )
        } else {
            format!(
                "\n**✅ Every project within the `--fail-over-per-project` budget** of {budget}.\n"
            )
        });
    }
    out
}

/// The table of projects: what each adds, removes and changes per period, and how many of its
/// resources are estimated and not counted; the total last. A state changes nothing: its row
/// says what its resources emit, in the net column, marked as a state.
fn table(p: &Projects, each: &[ProjectComment<'_>], period: Period) -> String {
    let h = period.hours();
    let (unit, scale) = table_unit(p, each, period);
    let counts = |c: &crate::report::Counts| format!("{} | {}", c.estimated, not_counted(c));
    let row = |name: String, added: f64, removed: f64, net: f64, c: &crate::report::Counts| {
        format!(
            "| {name} | {} | {} | {} | {} |\n",
            markdown::signed_num(added * h, scale),
            markdown::signed_num(removed * h, scale),
            markdown::signed_num(net * h, scale),
            counts(c)
        )
    };
    let mut out = "| Project | Added | Removed | Net | Estimated | Not counted |\n\
                   | :-- | --: | --: | --: | --: | --: |\n"
        .to_string();
    for (i, r) in p.projects.iter().enumerate() {
        let state = each
            .get(i)
            .is_some_and(|c| c.summary.kind == DocumentKind::State);
        if state {
            let emits = r.report.totals.after_per_hour.total_gco2eq * h / scale;
            out.push_str(&format!(
                "| {} (a state) | – | – | emits {} | {} |\n",
                code(&r.name),
                crate::estimate::sig3(emits),
                counts(&r.report.counts)
            ));
            continue;
        }
        out.push_str(&row(
            code(&r.name),
            r.added_per_hour_gco2eq,
            r.removed_per_hour_gco2eq,
            r.report.totals.delta_per_hour.total_gco2eq,
            &r.report.counts,
        ));
    }
    out.push_str(&row(
        "**Total**".to_string(),
        p.added_per_hour_gco2eq,
        p.removed_per_hour_gco2eq,
        p.totals.delta_per_hour.total_gco2eq,
        &p.counts,
    ));
    out.push_str(&format!("\n*In {unit} per {}.*\n", period_name(period)));
    out
}

/// The unit of the table of projects (name, grams per unit), from its largest figure (what a
/// state emits among them).
fn table_unit(p: &Projects, each: &[ProjectComment<'_>], period: Period) -> (&'static str, f64) {
    let h = period.hours();
    let states = (p.projects.iter().zip(each))
        .filter(|(_, c)| c.summary.kind == DocumentKind::State)
        .map(|(r, _)| r.report.totals.after_per_hour.total_gco2eq * h);
    let figures = (p.projects.iter())
        .flat_map(|r| [r.added_per_hour_gco2eq * h, r.removed_per_hour_gco2eq * h])
        .chain([p.added_per_hour_gco2eq * h, p.removed_per_hour_gco2eq * h])
        .chain(states);
    markdown::unit_for(figures)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Report, ResourceReport, Side};

    fn side(g_per_hour: f64) -> Side {
        crate::report::fixtures::quarter_embodied(g_per_hour)
    }

    /// A project of one resource going from `before` to `after` gCO2eq per hour.
    fn project(
        name: &str,
        actions: &[&str],
        before: Option<f64>,
        after: Option<f64>,
    ) -> ProjectReport {
        let r = ResourceReport::new(
            "aws_instance.a".into(),
            "aws_instance".into(),
            actions.iter().map(|s| s.to_string()).collect(),
            before.map(side),
            after.map(side),
        );
        let report = Report::new(vec![r], vec![], 0, 0.5, Period::Month);
        ProjectReport::new(name.into(), format!("{name}.json"), report)
    }

    fn human(p: &Projects, kinds: &[DocumentKind], width: Option<usize>) -> String {
        let mut out = Vec::new();
        let how = HumanOptions { kinds, width };
        write_human(p, Period::Month, &[], &how, &Theme::plain(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// 10 g/h for 730 hours: 7.30 kgCO2eq per month, which a state emits (not a change).
    #[test]
    fn a_state_projects_row_was_shown_as_a_change() {
        let p = Projects::new(
            vec![
                project("app", &["create"], None, Some(10.0)),
                project("st", &["no-op"], Some(10.0), Some(10.0)),
            ],
            None,
            None,
        );
        let kinds = [DocumentKind::Plan, DocumentKind::State];
        let text = human(&p, &kinds, None);
        let row = |name: &str| {
            (text.lines())
                .find(|l| l.contains(&format!("  {name}  (")))
                .unwrap_or_else(|| panic!("{name} in {text}"))
                .to_string()
        };
        assert_eq!(
            row("st"),
            "     7.30 kgCO2eq  st  (a state: what its resources emit; 1 estimated)"
        );
        assert_eq!(row("app"), "    +7.30 kgCO2eq  app  (1 estimated)");
        // the same state read as a plan: no change
        let text = human(&p, &[DocumentKind::Plan; 2], None);
        assert!(
            text.contains("\n         0 gCO2eq  st  (1 estimated)\n"),
            "{text}"
        );
    }

    #[test]
    fn multi_project_rows_ran_past_the_terminal_width() {
        let long = "live/eu-west-1/production/networking/vpc and subnets";
        let p = Projects::new(
            vec![project(long, &["create"], None, Some(10.0))],
            None,
            None,
        );
        let kinds = [DocumentKind::Plan];
        let piped = human(&p, &kinds, None);
        assert!(
            piped
                .lines()
                .any(|l| l.contains(long) && l.chars().count() > 60),
            "{piped}"
        );
        let fitted = human(&p, &kinds, Some(60));
        for l in fitted.lines() {
            assert!(l.chars().count() <= 60, "{l:?} in\n{fitted}");
        }
        // nothing lost: the same words, re-flowed
        let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(words(&fitted), words(&piped));
        assert!(fitted.lines().count() > piped.lines().count(), "{fitted}");
    }
}
