//! A run over several projects (several inputs, or the documents of a stream), step by step:
//! the inputs read (`projects::read`, by the caller) → one report per project ([`review`]) →
//! combined ([`Projects`]) → rendered as one review ([`render`]) → the gates ([`gate`]).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::{
    assess, impact_resources, load_engine, map, parse_plan, phase, read_schemas,
    release_mapped_sections,
};
use crate::carbon::{Assessment, Priced};
use crate::cli::{CarbonOptions, Format, Options, SchemaSource, use_color};
use crate::error::Error;
use crate::mapping;
use crate::projects::Project;
use crate::render::carbon::projects::{self as words, ProjectComment};
use crate::render::carbon::{Capture, CarbonAnnotator, Cut, DocumentKind, PlanText, Summary};
use crate::render::impact::ImpactOptions;
use crate::render::{self, Annotator, NoAnnotations, Theme};
use crate::report::Report;
use crate::report::projects::{ProjectReport, Projects};
use crate::schema::Schemas;

/// One project, reviewed: its report and what the chosen format keeps of its plan.
struct Reviewed {
    name: String,
    input: String,
    kind: DocumentKind,
    /// `None` with `--no-carbon`.
    report: Option<Report>,
    /// Impact Framework: its after side's pricing inputs.
    after_inputs: Vec<Priced>,
    /// Markdown: its plan's text with the `# ≈` lines (as far as the comment can show it), its
    /// `Plan:` line, and what was not kept of the text.
    text: Option<(String, Option<String>, Option<Cut>)>,
}

/// The output while projects are reviewed: after a write fails (a closed pipe), nothing more
/// is written, and the failure is said at the end (a broken pipe quietly, as for one plan).
struct Sink<'o> {
    out: io::BufWriter<&'o mut dyn Write>,
    failed: Option<io::Error>,
}

impl<'o> Sink<'o> {
    fn new(out: &'o mut dyn Write) -> Self {
        Sink {
            out: io::BufWriter::with_capacity(64 * 1024, out),
            failed: None,
        }
    }

    fn write(&mut self, f: impl FnOnce(&mut dyn Write) -> io::Result<()>) {
        if self.failed.is_none()
            && let Err(e) = f(&mut self.out)
        {
            self.failed = Some(e);
        }
    }

    fn finish(mut self) -> Result<(), Error> {
        let written = match self.failed.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        };
        match written {
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Error::Io {
                path: PathBuf::from("<stdout>"),
                source: e,
            }),
            _ => Ok(()),
        }
    }
}

/// Reviews every project in turn (the human output writes each plan as soon as it is
/// estimated), then writes the combined summary, JSON, comment or manifest, then applies the
/// budgets: `--fail-over` to the total, `--fail-over-per-project` to each project.
pub(super) fn run(
    opts: &Options,
    projects: Vec<Project>,
    engine: Option<mapping::Engine>,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let engine = match engine {
        Some(e) => Some(e),
        None => opts.carbon.as_ref().map(load_engine).transpose()?,
    };
    let schemas = match &opts.schemas {
        Some(SchemaSource::File(p)) => Some(read_schemas(p)?),
        _ => None,
    };
    let theme = if opts.format == Format::Human && use_color(opts.color) {
        Theme::colored()
    } else {
        Theme::plain()
    };
    let mut sink = Sink::new(out);
    let mut reviewed = Vec::with_capacity(projects.len());
    for (i, p) in projects.into_iter().enumerate() {
        let t = std::time::Instant::now();
        let r = review(
            opts,
            p,
            i == 0,
            engine.as_ref(),
            schemas.as_ref(),
            &theme,
            &mut sink,
        )?;
        phase(&format!("project {}", i + 1), t);
        reviewed.push(r);
    }
    drop(engine);
    // --no-carbon: the plans under their headers, nothing added
    let Some(c) = &opts.carbon else {
        return sink.finish();
    };
    let combined = combine(&mut reviewed, c);
    sink.write(|w| render(opts, c, &combined, &reviewed, &theme, w));
    sink.finish()?;
    gate(&combined, c)
}

/// One project: parsed, estimated, and (human output) written under its header; what the
/// other formats need of its plan is kept.
fn review(
    opts: &Options,
    mut p: Project,
    first: bool,
    engine: Option<&mapping::Engine>,
    schemas_file: Option<&Schemas>,
    theme: &Theme,
    sink: &mut Sink<'_>,
) -> Result<Reviewed, Error> {
    // where the text lies, to give back what only the mappings read once they are done
    let (base, len) = (p.bytes.as_mut_ptr(), p.bytes.len());
    let mut plan = parse_plan(&p.path, &p.bytes)?;
    let own_schemas = match &opts.schemas {
        Some(SchemaSource::Auto) => Some(crate::tool::auto_schemas(&plan, Path::new("."))?),
        Some(SchemaSource::Terminal) => {
            crate::tool::terminal_schemas(&plan, Path::new("."), &mut std::io::stderr())
        }
        _ => None,
    };
    let schemas = own_schemas.as_ref().or(schemas_file);
    let assessment: Option<Assessment> = match (&opts.carbon, engine) {
        (Some(c), Some(engine)) => {
            let m = map(&plan, engine, c);
            // SAFETY: `base` is the start of `p.bytes`, which `plan` borrows and outlives it.
            unsafe { release_mapped_sections(&mut plan, base, len) };
            let keep_inputs = opts.format == Format::ImpactFramework;
            Some(assess(&plan, m, c, schemas, keep_inputs).0)
        }
        _ => None,
    };
    let mut human = opts.human;
    if opts.flavor_auto {
        human.flavor = crate::tool::auto_flavor(&plan);
    }
    let schemas = schemas.or(Some(Schemas::builtin()));
    let kind = if plan.is_state() {
        DocumentKind::State
    } else {
        DocumentKind::Plan
    };
    let carbon = opts.carbon.as_ref();
    let period = carbon.map(|c| c.settings.period).unwrap_or_default();
    let alternatives = carbon.is_some_and(|c| c.alternatives);
    let width = (opts.format == Format::Human)
        .then(|| carbon.and_then(|c| c.terminal_width))
        .flatten();
    let annotator: Box<dyn Annotator + '_> = match &assessment {
        Some(a) => Box::new(
            CarbonAnnotator::with_alternatives(&a.report, period, alternatives).within(width),
        ),
        None => Box::new(NoAnnotations),
    };
    let text = match opts.format {
        Format::Human => {
            sink.write(|w| {
                words::write_header(&p.name, first, theme, w)?;
                render::render_human(&plan, schemas, human, theme, &*annotator, w)?;
                match assessment.as_ref().and_then(|a| a.report.what_if.as_ref()) {
                    Some(wi) => {
                        let report = &assessment
                            .as_ref()
                            .expect("a what-if has its report")
                            .report;
                        crate::alternatives::words::write_what_if(wi, report, period, theme, w)
                    }
                    None => Ok(()),
                }
            });
            None
        }
        Format::Markdown => {
            // only what the comment can show of the plan's text is kept
            let mut capture = Capture::new(opts.comment.max_chars);
            let r = render::render_human(
                &plan,
                schemas,
                human,
                &Theme::plain(),
                &*annotator,
                &mut capture,
            )
            .map_err(|source| Error::Io {
                path: PathBuf::from("<memory>"),
                source,
            })?;
            let (kept, cut) = capture.finish();
            Some((
                String::from_utf8_lossy(&kept).into_owned(),
                r.plan_line,
                cut,
            ))
        }
        _ => None,
    };
    drop(annotator);
    let (report, after_inputs) = match assessment {
        Some(a) => (Some(a.report), a.after_inputs),
        None => (None, Vec::new()),
    };
    Ok(Reviewed {
        name: p.name,
        input: p.input,
        kind,
        report,
        after_inputs,
        text,
    })
}

/// The projects' reports, added up, with the budgets applied.
fn combine(reviewed: &mut [Reviewed], c: &CarbonOptions) -> Projects {
    let reports = (reviewed.iter_mut())
        .filter_map(|r| {
            let report = r.report.take()?;
            Some(ProjectReport::new(r.name.clone(), r.input.clone(), report))
        })
        .collect();
    Projects::new(reports, c.fail_over, c.fail_over_per_project)
}

/// The combined output in the chosen format.
fn render(
    opts: &Options,
    c: &CarbonOptions,
    p: &Projects,
    reviewed: &[Reviewed],
    theme: &Theme,
    out: &mut dyn Write,
) -> io::Result<()> {
    let period = c.settings.period;
    match opts.format {
        Format::Human => {
            // by name: a project's review and its report (names are unique)
            let kinds: Vec<DocumentKind> = (p.projects.iter())
                .map(|r| {
                    (reviewed.iter().find(|rv| rv.name == r.name))
                        .map_or(DocumentKind::Plan, |rv| rv.kind)
                })
                .collect();
            let how = words::HumanOptions {
                kinds: &kinds,
                width: c.terminal_width,
            };
            words::write_human(p, period, &c.moved, &how, theme, out)
        }
        Format::Json => render::json::write_projects(p, period, c.module_depth, out),
        Format::Markdown => {
            let each: Vec<ProjectComment<'_>> = (p.projects.iter().zip(reviewed))
                .map(|(r, rv)| {
                    let (text, plan_line, cut) = rv
                        .text
                        .as_ref()
                        .map_or(("", None, None), |(t, l, c)| (t.as_str(), l.as_deref(), *c));
                    ProjectComment {
                        summary: Summary::new(&r.report, rv.kind, period)
                            .with_module_depth(c.module_depth),
                        plan: PlanText {
                            text,
                            plan_line,
                            cut,
                        },
                    }
                })
                .collect();
            words::write_comment(p, &each, period, &c.moved, &opts.comment, out)
        }
        Format::ImpactFramework => {
            let resources: Vec<_> = (reviewed.iter())
                .flat_map(|r| impact_resources(&r.after_inputs, Some(r.name.as_str())))
                .collect();
            let name = format!("carbon-show {} projects", reviewed.len());
            let opts = ImpactOptions {
                projects: true,
                ..ImpactOptions::new(name, period)
            };
            render::impact::write_manifest(&resources, &opts, out)
        }
    }
}

/// `--fail-over` on the total and `--fail-over-per-project` on each project: exit 3 when
/// either is exceeded, the projects over their budget named.
fn gate(p: &Projects, c: &CarbonOptions) -> Result<(), Error> {
    let mut over = Vec::new();
    if let (Some(g), Some(b)) = (p.fail_over, c.fail_over)
        && g.exceeded
    {
        over.push(format!(
            "the projects together add {}/{} (more than the --fail-over limit of {}/{})",
            crate::estimate::Mass(g.added_per_hour_gco2eq * b.period.hours()),
            b.period.unit(),
            crate::estimate::Mass(b.grams),
            b.period.unit(),
        ));
    }
    if let (Some(g), Some(b)) = (&p.fail_over_per_project, c.fail_over_per_project)
        && g.exceeded
    {
        let each: Vec<String> = (p.projects.iter())
            .filter(|r| g.over.contains(&r.name))
            .map(|r| {
                let added = r.report.totals.delta_per_hour.total_gco2eq * b.period.hours();
                format!(
                    "{} adds {}/{}",
                    r.name,
                    crate::estimate::Mass(added),
                    b.period.unit()
                )
            })
            .collect();
        over.push(format!(
            "{} (more than the --fail-over-per-project limit of {}/{} each)",
            each.join(", "),
            crate::estimate::Mass(b.grams),
            b.period.unit(),
        ));
    }
    if over.is_empty() {
        Ok(())
    } else {
        Err(Error::OverBudget(over.join("; ")))
    }
}
