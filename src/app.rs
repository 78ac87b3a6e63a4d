//! One run of carbon-show: read the document, parse it, estimate its figures through the
//! mappings, and write the chosen output format.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::carbon::{self, Assessment, Change};
use crate::cli::{CarbonOptions, Format, Input, Options, use_color};
use crate::error::Error;
use crate::mapping::{self, DataResolver};
use crate::plan::{Plan, ResourceChange};
use crate::render::impact::{ImpactOptions, ImpactRange, ImpactResource};
use crate::render::{self, Annotator, NoAnnotations, Theme};
use crate::schema::Schemas;

fn read_input(input: &Input) -> Result<Vec<u8>, Error> {
    let path = input.display_path();
    match input {
        Input::Stdin => {
            let mut buf = Vec::new();
            io::stdin()
                .lock()
                .read_to_end(&mut buf)
                .map_err(|source| Error::Io { path, source })?;
            Ok(buf)
        }
        Input::File(p) => std::fs::read(p).map_err(|source| Error::Io { path, source }),
    }
}

fn read_schemas(path: &Path) -> Result<Schemas, Error> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Schemas::parse(path, &bytes)
}

/// The data files that mappings reference: the user's folders first, then the embedded tables.
fn resolver(data_dirs: &[PathBuf]) -> Box<DataResolver> {
    mapping::dir_resolver(data_dirs.to_vec(), |name| {
        crate::data::json_file(name).map(Cow::Borrowed)
    })
}

/// Runs one `show`: writes the chosen format to `out`. A broken pipe on `out` ends the output
/// quietly; the run then succeeds unless `--fail-over` is exceeded (the verdict does not depend
/// on how much of the output was read). With `--fail-over`, the output is written in full
/// before the over-budget error is returned.
pub fn run(opts: &Options, out: &mut dyn Write) -> Result<(), Error> {
    let path = opts.input.display_path();
    // A regular file is read twice: streamed into the mapping engine's document first, then
    // read whole for the renderer once the mapping is done and freed. Its text and the mapping
    // engine's values are never held at once. Standard input (or a pipe) is read once and its
    // bytes serve both.
    let source = match &opts.input {
        Input::File(p) if opts.carbon.is_some() => Rereadable::new(p).map(Source::File),
        _ => None,
    };
    let source = match source {
        Some(s) => s,
        None => Source::Bytes(read_input(&opts.input)?),
    };
    // Map first: the mapping engine's values are freed before the renderer's plan is built, so
    // the two never take memory at the same time.
    let mapped = match &opts.carbon {
        Some(c) => {
            let t = std::time::Instant::now();
            let engine = mapping::load(&c.mapping_dirs, &*resolver(&c.data_dirs))?;
            phase("load mappings", t);
            let doc = match &source {
                Source::Bytes(b) => document(&path, b)?,
                Source::File(f) => f.document(&path)?,
            };
            let m = map(doc, &engine);
            crate::memory::release();
            Some(m)
        }
        None => None,
    };
    let bytes = match source {
        Source::Bytes(b) => b,
        Source::File(f) => f.read()?,
    };
    let t = std::time::Instant::now();
    let plan = crate::plan::parse(&path, &bytes)?;
    phase("parse plan", t);
    let schemas = opts.schemas.as_deref().map(read_schemas).transpose()?;
    let assessment = match (&opts.carbon, mapped) {
        (Some(c), Some(m)) => Some(assess(&plan, &m, c)),
        _ => None,
    };
    finish(opts, &plan, schemas.as_ref(), assessment.as_ref(), out)
}

/// The carbon assessment of the input alone (for `explain`), and the plan's sensitive strings
/// (whatever is printed from the assessment's inputs must hide them).
pub fn assessment(input: &Input, c: &CarbonOptions) -> Result<(Assessment, Vec<String>), Error> {
    let path = input.display_path();
    let bytes = read_input(input)?;
    let engine = mapping::load(&c.mapping_dirs, &*resolver(&c.data_dirs))?;
    let mapped = map(document(&path, &bytes)?, &engine);
    let plan = crate::plan::parse(&path, &bytes)?;
    Ok((
        assess(&plan, &mapped, c),
        crate::plan::sensitive_strings(&plan),
    ))
}

/// Where the renderer's bytes come from: read once, or a file read again after mapping.
enum Source {
    Bytes(Vec<u8>),
    File(Rereadable),
}

/// A regular file that can be read a second time, and what it looked like the first time.
struct Rereadable {
    path: PathBuf,
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl Rereadable {
    /// `None` for anything but a regular file (a pipe or a device reads only once).
    fn new(path: &Path) -> Option<Rereadable> {
        let m = std::fs::metadata(path).ok().filter(|m| m.is_file())?;
        Some(Rereadable {
            path: path.to_path_buf(),
            len: m.len(),
            modified: m.modified().ok(),
        })
    }
    /// The mapping engine's document, streamed from the file. A file that does not parse is
    /// read whole, so that the error is the plan reader's (with its line and column).
    fn document(&self, path: &Path) -> Result<mapping::Document, Error> {
        let t = std::time::Instant::now();
        let f = std::fs::File::open(&self.path).map_err(|source| Error::Io {
            path: self.path.clone(),
            source,
        })?;
        match mapping::Document::from_reader(io::BufReader::with_capacity(1 << 16, f)) {
            Ok(d) => {
                phase("parse document", t);
                Ok(d)
            }
            Err(_) => {
                let bytes = std::fs::read(&self.path).map_err(|source| Error::Io {
                    path: self.path.clone(),
                    source,
                })?;
                document(path, &bytes)
            }
        }
    }

    /// The file again; an error if it changed in between.
    fn read(&self) -> Result<Vec<u8>, Error> {
        let io = |source| Error::Io {
            path: self.path.clone(),
            source,
        };
        let bytes = std::fs::read(&self.path).map_err(io)?;
        let m = std::fs::metadata(&self.path).map_err(io)?;
        if bytes.len() as u64 != self.len
            || m.len() != self.len
            || m.modified().ok() != self.modified
        {
            return Err(io(io::Error::other(
                "the file changed while carbon-show was reading it",
            )));
        }
        Ok(bytes)
    }
}

/// Runs one `show` over a document already in memory, without touching the file system:
/// the library entry point of the fuzz targets and property tests. `plan` is
/// `plan::parse(path, bytes)`; `opts.input` and `opts.schemas` are not read (the schemas are
/// given), and `engine` (the mappings `opts.carbon` asks for, already loaded) is required when
/// `opts.carbon` is set. Output and errors are those of [`run`].
pub fn show(
    opts: &Options,
    path: &Path,
    bytes: &[u8],
    plan: &Plan<'_>,
    schemas: Option<&Schemas>,
    engine: Option<&mapping::Engine>,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let assessment = match (&opts.carbon, engine) {
        (Some(c), Some(engine)) => Some(assess(plan, &map(document(path, bytes)?, engine), c)),
        (Some(_), None) => {
            return Err(Error::Mapping(
                "no mapping engine given for a carbon run".into(),
            ));
        }
        (None, _) => None,
    };
    finish(opts, plan, schemas, assessment.as_ref(), out)
}

/// Writes the output, then applies `--fail-over`.
fn finish(
    opts: &Options,
    plan: &Plan<'_>,
    schemas: Option<&Schemas>,
    assessment: Option<&Assessment>,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let t = std::time::Instant::now();
    let mut w = io::BufWriter::with_capacity(64 * 1024, out);
    let written = write_output(opts, plan, schemas, assessment, &mut w).and_then(|()| w.flush());
    phase("write output", t);
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(source) => {
            return Err(Error::Io {
                path: PathBuf::from("<stdout>"),
                source,
            });
        }
    }
    if let (Some(c), Some(a)) = (&opts.carbon, &assessment)
        && let Some(budget) = c.fail_over
    {
        let added = a.report.totals.delta_per_hour.total_gco2eq;
        if added > budget.grams_per_hour() {
            let p = budget.period;
            return Err(Error::OverBudget(format!(
                "the plan adds {}/{} (more than the --fail-over limit of {}/{})",
                crate::estimate::Mass(added * p.hours()),
                p.unit(),
                crate::estimate::Mass(budget.grams),
                p.unit(),
            )));
        }
    }
    Ok(())
}

/// The document as the mapping engine reads it: jaq values, parsed straight from the bytes
/// (only the parts filters read).
fn document(path: &Path, bytes: &[u8]) -> Result<mapping::Document, Error> {
    let t = std::time::Instant::now();
    match mapping::Document::from_slice(bytes) {
        Ok(d) => {
            phase("parse document", t);
            Ok(d)
        }
        // the same error as the plan reader's
        Err(_) => {
            crate::plan::parse(path, bytes)?;
            Err(Error::Mapping("the document could not be read".into()))
        }
    }
}

/// Maps the document's resources through the mappings.
fn map(doc: mapping::Document, engine: &mapping::Engine) -> mapping::MappedPlan {
    let t = std::time::Instant::now();
    let mapped = engine.map_document(doc);
    phase("map", t);
    if mapping::engine::profiling() {
        engine.dump_prof(true);
    }
    mapped
}

/// Prices every mapped resource of the plan's changes, and hides the plan's sensitive strings
/// wherever the mappings carried one into the report.
fn assess(plan: &Plan<'_>, mapped: &mapping::MappedPlan, c: &CarbonOptions) -> Assessment {
    let t = std::time::Instant::now();
    let managed: Vec<(&ResourceChange, Cow<'_, str>)> = plan
        .resource_changes
        .iter()
        .flatten()
        .filter(|rc| rc.mode == "managed")
        .map(|rc| (rc, carbon_address(rc)))
        .collect();
    let changes: Vec<Change<'_>> = managed
        .iter()
        .map(|(rc, address)| Change {
            address,
            resource_type: &rc.type_,
            actions: rc.change.actions.iter().map(|a| a.to_string()).collect(),
        })
        .collect();
    let mut a = carbon::assess(&changes, mapped, c.settings);
    a.report.redact(&crate::plan::sensitive_strings(plan));
    phase("assess", t);
    a
}

/// With `CARBON_SHOW_PROFILE`: how long a phase of the run took, on stderr.
fn phase(name: &str, since: std::time::Instant) {
    if mapping::engine::profiling() {
        let (now, peak) = crate::memory::resident();
        eprintln!(
            "{name}: {:.3}s (RSS {now}, peak {peak})",
            since.elapsed().as_secs_f64()
        );
    }
}

/// The address a resource change's figures are reported under: a deposed object's is its own.
fn carbon_address<'a>(rc: &'a ResourceChange) -> Cow<'a, str> {
    match rc.deposed.as_deref() {
        Some(key) if !key.is_empty() => Cow::Owned(mapping::deposed_address(&rc.address, key)),
        _ => Cow::Borrowed(rc.address.as_ref()),
    }
}

/// The carbon lines of the human plan: one annotation per estimated resource, and the summary.
struct CarbonAnnotator {
    lines: HashMap<String, String>,
    summary: Vec<String>,
}

impl CarbonAnnotator {
    fn new(a: &Assessment, period: crate::estimate::Period) -> Self {
        let lines = a
            .report
            .resources
            .iter()
            .filter_map(|r| r.annotation(period).map(|l| (r.address.clone(), l)))
            .collect();
        let report = &a.report;
        let summary = if report.resources.is_empty() && report.unsupported.is_empty() {
            Vec::new()
        } else {
            std::iter::once(String::new())
                .chain(report.summary_lines(period))
                .collect()
        };
        CarbonAnnotator { lines, summary }
    }
}

impl Annotator for CarbonAnnotator {
    fn resource_lines(&self, rc: &ResourceChange) -> Vec<String> {
        self.lines
            .get(carbon_address(rc).as_ref())
            .map(|l| vec![l.clone()])
            .unwrap_or_default()
    }

    fn summary_lines(&self) -> Vec<String> {
        self.summary.clone()
    }

    fn state_resource_lines(&self, address: &str, deposed_key: Option<&str>) -> Vec<String> {
        let address = match deposed_key {
            Some(key) => Cow::Owned(mapping::deposed_address(address, key)),
            None => Cow::Borrowed(address),
        };
        self.lines
            .get(address.as_ref())
            .map(|l| vec![l.clone()])
            .unwrap_or_default()
    }
}

fn write_output(
    opts: &Options,
    plan: &Plan<'_>,
    schemas: Option<&Schemas>,
    assessment: Option<&Assessment>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let period = opts
        .carbon
        .as_ref()
        .map(|c| c.settings.period)
        .unwrap_or_default();
    let annotator: Box<dyn Annotator> = match assessment {
        Some(a) => Box::new(CarbonAnnotator::new(a, period)),
        None => Box::new(NoAnnotations),
    };
    match (opts.format, assessment) {
        (Format::Human, _) => {
            let theme = if use_color(opts.color) {
                Theme::colored()
            } else {
                Theme::plain()
            };
            render::render_human(plan, schemas, opts.human, &theme, &*annotator, out)
        }
        (Format::Json, Some(a)) => render::json::write_report(&a.report, period, out),
        (Format::Markdown, Some(a)) => {
            let mut text = Vec::new();
            render::render_human(
                plan,
                schemas,
                opts.human,
                &Theme::plain(),
                &*annotator,
                &mut text,
            )?;
            let text = String::from_utf8_lossy(&text);
            let plan_line = text
                .lines()
                .find(|l| l.starts_with("Plan: ") || l.starts_with("No changes."))
                .unwrap_or("The plan");
            render::markdown::write_comment(&a.report, period, &text, plan_line, out)
        }
        (Format::ImpactFramework, Some(a)) => {
            let types: HashMap<&str, &str> = a
                .after_inputs
                .iter()
                .map(|p| (p.address.as_str(), p.resource_type.as_str()))
                .collect();
            let utilization = opts
                .carbon
                .as_ref()
                .map(|c| c.settings.utilization)
                .unwrap_or(0.5);
            let resources: Vec<ImpactResource<'_>> = a
                .after_inputs
                .iter()
                .map(|p| ImpactResource {
                    address: &p.address,
                    module_path: ImpactResource::module_path_of(&p.address),
                    resource_type: types[p.address.as_str()],
                    footprint: &p.footprint,
                    coefficients: &p.coefficients,
                    instances: p.instances,
                    utilization,
                    range: Some({
                        let r = p.ranged();
                        ImpactRange {
                            low_g_per_hour: r.low.total_g(),
                            high_g_per_hour: r.high.total_g(),
                            sources: &p.sources,
                        }
                    }),
                })
                .collect();
            let name = match &opts.input {
                Input::Stdin => "carbon-show plan".to_string(),
                Input::File(p) => format!("carbon-show {}", p.display()),
            };
            render::impact::write_manifest(&resources, &ImpactOptions::new(name, period), out)
        }
        (_, None) => unreachable!("the carbon formats always assess the plan"),
    }
}

/// `mappings check DIR…`: prints every problem as `file:line:column: message`; fails (exit 8)
/// when there is any. Stricter than loading: an unknown key or a broken jq filter only
/// weakens a load (Carbonifer's own files carry one of each and must load unchanged), but a
/// validator that passes them would hide real mistakes.
pub fn check_mappings(
    dirs: &[PathBuf],
    data_dirs: &[PathBuf],
    out: &mut dyn Write,
) -> Result<(), Error> {
    let resolver = resolver(data_dirs);
    let mut errors = 0usize;
    let mut text = String::new();
    for dir in dirs {
        for d in mapping::check(dir, &*resolver)? {
            errors += 1;
            text.push_str(&format!("{d}\n"));
        }
    }
    let summary = format!("{} folder(s) checked: {errors} error(s)\n", dirs.len());
    out.write_all(text.as_bytes())
        .and_then(|()| out.write_all(summary.as_bytes()))
        .map_err(|source| Error::Io {
            path: PathBuf::from("<stdout>"),
            source,
        })?;
    if errors > 0 {
        return Err(Error::Mapping(format!(
            "{errors} error(s) in the mapping files"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan file that changes between the two reads is an error, never a mix of two plans.
    #[test]
    fn a_file_changed_between_reads_is_an_error() {
        let dir = std::env::temp_dir().join(format!("carbon-show-reread-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("plan.json");
        std::fs::write(&f, "{}").unwrap();
        let same = Rereadable::new(&f).expect("a regular file");
        assert_eq!(same.read().unwrap(), b"{}");
        let changed = Rereadable::new(&f).unwrap();
        std::fs::write(&f, "{\"a\": 1}").unwrap();
        let e = changed.read().unwrap_err();
        assert!(e.to_string().contains("changed while"), "{e}");
        assert!(
            Rereadable::new(&dir).is_none(),
            "a directory is not read twice"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
