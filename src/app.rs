//! One run of carbon-show: read the document, parse it, estimate its figures through the
//! mappings, and write the chosen output format.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::carbon::{self, Assessment, Change};
use crate::cli::{CarbonOptions, Format, Input, Options, SchemaSource, use_color};
use crate::error::Error;
use crate::mapping::{self, DataResolver};
use crate::plan::{Plan, ResourceChange};
use crate::render::carbon::{self as wording, CarbonAnnotator, DocumentKind, PlanText, Summary};
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
        Input::Stdin if opts.carbon.is_some() => Spool::start()?,
        _ => None,
    };
    let mut source = match source {
        Some(s) => s,
        None => Source::Bytes(read_input(&opts.input)?),
    };
    // Map first: the mapping engine's values are freed before the renderer's plan is built, so
    // the two never take memory at the same time.
    let mapped = match &opts.carbon {
        Some(c) => {
            let t = std::time::Instant::now();
            mapping::limits::set_budget(c.mapping_budget);
            mapping::check_data_dirs(&c.data_dirs)?;
            let engine = mapping::load(&c.mapping_dirs, &*resolver(&c.data_dirs))?;
            for d in engine.user_filter_errors() {
                eprintln!("carbon-show: warning: {d} (this filter yields nothing)");
            }
            phase("load mappings", t);
            let doc = match &mut source {
                Source::Bytes(b) => document(&path, b)?,
                Source::File(f) => f.document(&path)?,
                Source::Spool(s) => s.document(&path)?,
            };
            let mut m = map(doc, &engine);
            override_regions(&mut m, &c.regions);
            crate::memory::release();
            Some((m, engine))
        }
        None => None,
    };
    let bytes = match source {
        Source::Bytes(b) => b,
        Source::File(f) => f.read()?,
        Source::Spool(s) => s.read()?,
    };
    let t = std::time::Instant::now();
    let plan = parse_plan(&path, &bytes)?;
    phase("parse plan", t);
    let schemas = match &opts.schemas {
        Some(SchemaSource::File(p)) => Some(read_schemas(p)?),
        Some(SchemaSource::Auto) => Some(crate::tool::auto_schemas(&plan, Path::new("."))?),
        None => None,
    };
    let assessment = match (&opts.carbon, mapped) {
        (Some(c), Some((mut m, engine))) => {
            // resources planned_values lacks, from the changes' own values
            mapping::fallback::fill_from_changes(&plan, &mut m, &engine);
            let keep_inputs = opts.format == Format::ImpactFramework;
            Some(assess(&plan, m, c, schemas.as_ref(), keep_inputs))
        }
        _ => None,
    };
    finish(opts, &plan, schemas.as_ref(), assessment.as_ref(), out)
}

/// The carbon assessment of the input alone (for `explain`), by the same steps as a run, and
/// the redactor of the plan's sensitive values (whatever is printed from the assessment's
/// inputs must go through it).
pub fn assessment(
    input: &Input,
    c: &CarbonOptions,
) -> Result<(Assessment, Option<crate::redact::Redactor>), Error> {
    let path = input.display_path();
    let bytes = read_input(input)?;
    mapping::limits::set_budget(c.mapping_budget);
    mapping::check_data_dirs(&c.data_dirs)?;
    let engine = mapping::load(&c.mapping_dirs, &*resolver(&c.data_dirs))?;
    let mut m = map(document(&path, &bytes)?, &engine);
    override_regions(&mut m, &c.regions);
    let plan = parse_plan(&path, &bytes)?;
    mapping::fallback::fill_from_changes(&plan, &mut m, &engine);
    let hide = crate::redact::Redactor::new(&crate::plan::sensitive_strings(&plan));
    Ok((assess(&plan, m, c, None, true), hide))
}

/// Where the renderer's bytes come from: read once, a file read again after mapping, or
/// standard input kept in a temporary file while it is mapped.
enum Source {
    Bytes(Vec<u8>),
    File(Rereadable),
    Spool(Spool),
}

/// Standard input past [`Spool::IN_MEMORY`] bytes: streamed into the mapping engine's document
/// and, on the way, copied to an unnamed temporary file (`tempfile::tempfile`, in `TMPDIR`,
/// gone when the run ends), read back for the renderer once the document is freed. As for a
/// plan file, the text and the document are then never held at once (50k-resource plan: peak
/// 377 MB → the file's figure). A smaller input is read into memory, as are all inputs when
/// no temporary file can be made.
struct Spool {
    /// What was read to decide; already in `file`.
    head: Vec<u8>,
    file: std::fs::File,
}

/// Copies what is read from `inner` to `copy`.
struct Tee<'a, R> {
    inner: R,
    copy: &'a mut std::fs::File,
}

impl<R: Read> Read for Tee<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.copy.write_all(&buf[..n])?;
        Ok(n)
    }
}

impl Spool {
    /// Standard input up to this size is read into memory (the engine's document is then
    /// parsed from memory, faster than streamed).
    const IN_MEMORY: u64 = 4 << 20;

    /// `Source::Bytes` for an input that fits [`Spool::IN_MEMORY`], `Source::Spool` past it.
    fn start() -> Result<Option<Source>, Error> {
        let io_err = |source| Error::Io {
            path: PathBuf::from("<stdin>"),
            source,
        };
        let mut head = Vec::new();
        io::stdin()
            .lock()
            .take(Self::IN_MEMORY)
            .read_to_end(&mut head)
            .map_err(io_err)?;
        if (head.len() as u64) < Self::IN_MEMORY {
            return Ok(Some(Source::Bytes(head)));
        }
        let Ok(mut file) = tempfile::tempfile() else {
            // no temporary file: the rest is read into memory as well
            io::stdin().lock().read_to_end(&mut head).map_err(io_err)?;
            return Ok(Some(Source::Bytes(head)));
        };
        file.write_all(&head).map_err(io_err)?;
        Ok(Some(Source::Spool(Spool { head, file })))
    }

    fn io_error(source: io::Error) -> Error {
        Error::Io {
            path: PathBuf::from("<stdin> (copied to a temporary file)"),
            source,
        }
    }

    /// The mapping engine's document, streamed from what was read and the rest of standard
    /// input (copied to the file on the way). Input that does not parse is read whole, so
    /// that the error is the plan reader's.
    fn document(&mut self, path: &Path) -> Result<mapping::Document, Error> {
        let t = std::time::Instant::now();
        let head = std::mem::take(&mut self.head);
        let stdin = io::stdin();
        let tee = Tee {
            inner: stdin.lock(),
            copy: &mut self.file,
        };
        let mut r = io::BufReader::with_capacity(1 << 16, io::Cursor::new(head).chain(tee));
        let parsed = mapping::Document::from_reader(&mut r);
        // whatever follows the document is the renderer's too
        io::copy(&mut r, &mut io::sink()).map_err(Self::io_error)?;
        drop(r);
        match parsed {
            Ok(d) => {
                phase("parse document", t);
                Ok(d)
            }
            Err(_) => document(path, &self.read_back()?),
        }
    }

    fn read_back(&mut self) -> Result<Vec<u8>, Error> {
        use std::io::Seek;
        let len = self.file.metadata().map_err(Self::io_error)?.len();
        let mut bytes = Vec::with_capacity(len as usize);
        self.file.rewind().map_err(Self::io_error)?;
        self.file.read_to_end(&mut bytes).map_err(Self::io_error)?;
        Ok(bytes)
    }

    /// The whole input again, from the file.
    fn read(mut self) -> Result<Vec<u8>, Error> {
        if !self.head.is_empty() {
            // not streamed into a document: the rest of standard input is still to be read
            io::copy(&mut io::stdin().lock(), &mut self.file).map_err(Self::io_error)?;
        }
        self.read_back()
    }
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
        (Some(c), Some(engine)) => {
            let mut m = map(document(path, bytes)?, engine);
            override_regions(&mut m, &c.regions);
            mapping::fallback::fill_from_changes(plan, &mut m, engine);
            let keep_inputs = opts.format == Format::ImpactFramework;
            Some(assess(plan, m, c, schemas, keep_inputs))
        }
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
    // --flavor auto; the embedded built-in provider schema when no document is given
    let resolved;
    let opts = if opts.flavor_auto {
        let mut o = opts.clone();
        o.human.flavor = crate::tool::auto_flavor(plan);
        resolved = o;
        &resolved
    } else {
        opts
    };
    let schemas = schemas.or(Some(Schemas::builtin()));
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

/// `plan::parse`, with a hint for the commonest wrong input: a binary plan file (the zip
/// archive `tofu plan -out` saves) given where its JSON is expected.
fn parse_plan<'a>(path: &Path, bytes: &'a [u8]) -> Result<Plan<'a>, Error> {
    crate::plan::parse(path, bytes).map_err(|e| match e {
        Error::Json { path, .. } if bytes.starts_with(b"PK\x03\x04") => Error::Json {
            message: if path == Path::new("<stdin>") {
                "this is a binary plan file, not its JSON: pipe `tofu show -json plan.tfplan` \
                 (or `terraform show -json plan.tfplan`) instead"
                    .to_string()
            } else {
                format!(
                    "this is a binary plan file, not its JSON: run `tofu show -json {0} > \
                     plan.json` (or `terraform show -json {0}`) first",
                    path.display()
                )
            },
            path,
            line: 1,
            column: 1,
        },
        e => e,
    })
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
            parse_plan(path, bytes)?;
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

/// The configuration's `[regions]` hook: every mapped resource of a provider named there is
/// assessed in that region, whatever region the mappings found (and the change is said in
/// the resource's assumptions). Applied to the engine's result, so `mapping::region` stays
/// the one place that finds regions in a plan.
fn override_regions(
    mapped: &mut mapping::MappedPlan,
    regions: &std::collections::BTreeMap<crate::data::Provider, String>,
) {
    if regions.is_empty() {
        return;
    }
    for r in mapped.before.iter_mut().chain(mapped.after.iter_mut()) {
        let Some(region) = crate::data::Provider::parse(&r.provider).and_then(|p| regions.get(&p))
        else {
            continue;
        };
        if r.region.as_deref() != Some(region.as_str()) {
            r.assumed.push(match &r.region {
                Some(was) => {
                    format!("region {region} from the configuration (the plan says {was})")
                }
                None => format!("region {region} from the configuration"),
            });
            r.region = Some(region.clone());
        }
    }
}

/// Prices every mapped resource of the plan's changes, and hides the plan's sensitive strings
/// wherever the mappings carried one into the report. The pricing inputs are kept for the
/// Impact Framework export and `explain` only (`keep_inputs`).
fn assess(
    plan: &Plan<'_>,
    mut mapped: mapping::MappedPlan,
    c: &CarbonOptions,
    schemas: Option<&Schemas>,
    keep_inputs: bool,
) -> Assessment {
    let t = std::time::Instant::now();
    // one redactor, knowing the plan's masks and the schema's sensitive attributes: what the
    // mappings found is hidden before reasons are built from it, the report after
    let mut secrets = crate::plan::sensitive_strings(plan);
    if let Some(s) = schemas {
        secrets.extend(crate::redact::schema_sensitive_strings(plan, s));
    }
    let hide = crate::redact::Redactor::new(&secrets);
    if let Some(h) = &hide {
        h.mapped(&mut mapped);
    }
    phase("  assess: sensitive values", t);
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
    let mut a = carbon::assess_keeping(&changes, &mapped, c.settings, keep_inputs);
    crate::alternatives::attach(&mut a.report, &mapped, c.settings);
    if !c.what_if.is_empty() {
        // the actual figures are done with `mapped`: the scenario is applied in place
        c.what_if.apply(&mut mapped);
        let w = carbon::assess(&changes, &mapped, c.settings);
        a.report.what_if = Some(crate::alternatives::WhatIf::new(
            &c.what_if, &a.report, &w.report,
        ));
    }
    phase("  assess: figures", t);
    if let Some(h) = &hide {
        a.report.redact_with(h);
    }
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
    let module_depth = opts.carbon.as_ref().map_or(0, |c| c.module_depth);
    let alternatives = opts.carbon.as_ref().is_some_and(|c| c.alternatives);
    let annotator: Box<dyn Annotator + '_> = match assessment {
        Some(a) => Box::new(CarbonAnnotator::with_alternatives(
            &a.report,
            period,
            alternatives,
        )),
        None => Box::new(NoAnnotations),
    };
    let kind = if plan.is_state() {
        DocumentKind::State
    } else {
        DocumentKind::Plan
    };
    // The summary reads only the report: it is worked out on a thread of its own while the
    // plan renders (on the rayon workers), not after.
    let summary_beside = |render: &mut dyn FnMut() -> io::Result<render::Rendered>| {
        std::thread::scope(|scope| {
            let summary = assessment.map(|a| {
                scope.spawn(move || {
                    Summary::new(&a.report, kind, period).with_module_depth(module_depth)
                })
            });
            let rendered = render();
            let summary =
                summary.map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
            rendered.map(|r| (r, summary))
        })
    };
    match (opts.format, assessment) {
        (Format::Human, _) => {
            let theme = if use_color(opts.color) {
                Theme::colored()
            } else {
                Theme::plain()
            };
            let (_, summary) = summary_beside(&mut || {
                render::render_human(plan, schemas, opts.human, &theme, &*annotator, out)
            })?;
            // The summary closes the output, after OpenTofu's own text (render::carbon::summary).
            match (assessment, summary) {
                (Some(a), Some(summary)) => {
                    wording::write_human(&summary, &theme, out)?;
                    match &a.report.what_if {
                        Some(w) => crate::alternatives::words::write_what_if(
                            w, &a.report, period, &theme, out,
                        ),
                        None => Ok(()),
                    }
                }
                _ => Ok(()),
            }
        }
        (Format::Json, Some(a)) => render::json::write_report(&a.report, period, module_depth, out),
        (Format::Markdown, Some(_)) => {
            let mut text = Vec::new();
            let (rendered, summary) = summary_beside(&mut || {
                render::render_human(
                    plan,
                    schemas,
                    opts.human,
                    &Theme::plain(),
                    &*annotator,
                    &mut text,
                )
            })?;
            let text = String::from_utf8_lossy(&text);
            let plan_text = PlanText {
                text: &text,
                plan_line: rendered.plan_line.as_deref(),
            };
            let summary = summary.expect("a carbon format has its assessment");
            wording::write_comment(&summary, plan_text, &opts.comment, out)
        }
        (Format::ImpactFramework, Some(a)) => {
            let types: HashMap<&str, &str> = a
                .after_inputs
                .iter()
                .map(|p| (p.address.as_str(), p.resource_type.as_str()))
                .collect();
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
                    utilization: p.utilization,
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

/// Writes a text to standard output (or wherever `out` goes); a broken pipe ends it quietly.
pub fn write_text(out: &mut dyn Write, text: &str) -> Result<(), Error> {
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Error::Io {
            path: PathBuf::from("<stdout>"),
            source: e,
        }),
        _ => Ok(()),
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
    mapping::check_data_dirs(data_dirs)?;
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
