//! One run of carbon-show: read the document, parse it, estimate its figures through the
//! mappings, and write the chosen output format.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use crate::carbon::{self, Assessment, Change};
use crate::cli::{CarbonOptions, Format, Input, Options, SchemaSource, use_color};
use crate::error::Error;
use crate::mapping::{self, DataResolver};
use crate::plan::{Plan, ResourceChange};
use crate::render::carbon::{self as wording, CarbonAnnotator, DocumentKind, PlanText, Summary};
use crate::render::impact::{ImpactOptions, ImpactRange, ImpactResource};
use crate::render::{self, Annotator, NoAnnotations, Theme};
use crate::report::Gate;
use crate::schema::Schemas;

mod multi;

/// Reads one input whole (a file, or standard input; a terminal there is refused).
pub(crate) fn read_input(input: &Input) -> Result<Vec<u8>, Error> {
    let path = input.display_path();
    match input {
        Input::Stdin if io::stdin().is_terminal() => Err(Error::Usage(
            "no plan given, and standard input is a terminal: pipe one (`tofu show -json \
             plan.tfplan | carbon-show`) or name its file (`carbon-show plan.json`); \
             `carbon-show --help` for more"
                .into(),
        )),
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
///
/// Several inputs, or one that holds a stream of documents, are one project each
/// (`app::multi`): reviewed one after the other, then summed up.
pub fn run(opts: &Options, out: &mut dyn Write) -> Result<(), Error> {
    let inputs = opts.named_inputs();
    if inputs.len() > 1 {
        return multi::run(opts, crate::projects::read(&inputs)?, None, out);
    }
    let path = opts.input.display_path();
    // The input is read once and parsed once: the renderer's plan borrows from its bytes, and
    // the mapping engine reads the same bytes through the plan's sections. The mappings are
    // loaded on one core while the plan is parsed on the other.
    let mut bytes = read_input(&opts.input)?;
    // where the text lies, to give back what only the mappings read once they are done
    let base = bytes.as_mut_ptr();
    let bytes = bytes;
    let t = std::time::Instant::now();
    let (engine, plan) = rayon::join(
        || {
            opts.carbon.as_ref().map(|c| {
                let engine = load_engine(c)?;
                // a large plan's parse outlasts the load: the jq program a shipped engine
                // leaves for later is compiled on this core meanwhile, off the map phase
                if bytes.len() >= EAGER_JQ_BYTES {
                    engine.compile_jq();
                }
                Ok::<_, Error>(engine)
            })
        },
        || parse_plan(&path, &bytes),
    );
    let mut plan = match plan {
        Ok(plan) => plan,
        // a stream of documents (`terragrunt run-all show -json`): one project each
        Err(e) => {
            return match crate::projects::split_stream(&path, &bytes) {
                Some(docs) => {
                    let projects = crate::projects::stream(&inputs[0], &bytes, &docs?);
                    crate::projects::check_unique(&projects)?;
                    drop(bytes);
                    multi::run(opts, projects, engine.transpose()?, out)
                }
                None => Err(e),
            };
        }
    };
    let engine = engine.transpose()?;
    phase("load mappings and parse plan", t);
    let schemas = match &opts.schemas {
        Some(SchemaSource::File(p)) => Some(read_schemas(p)?),
        Some(SchemaSource::Auto) => Some(crate::tool::auto_schemas(&plan, Path::new("."))?),
        Some(SchemaSource::Terminal) => {
            crate::tool::terminal_schemas(&plan, Path::new("."), &mut std::io::stderr())
        }
        None => None,
    };
    let assessment = match (&opts.carbon, &engine) {
        (Some(c), Some(engine)) => {
            let m = map(&plan, engine, c);
            // SAFETY: `base` is the start of `bytes`, which `plan` borrows and outlives it.
            unsafe { release_mapped_sections(&mut plan, base, bytes.len()) };
            let keep_inputs = opts.format == Format::ImpactFramework;
            Some(assess(&plan, m, c, schemas.as_ref(), keep_inputs).0)
        }
        _ => None,
    };
    finish(opts, &plan, schemas.as_ref(), assessment.as_ref(), out)
}

/// Gives the text of `planned_values` and `prior_state` back to the operating system once the
/// mappings, their only readers, are done with it: the renderer reads the resource changes
/// (and a state document's `values`), never those sections. They are about half of a plan's
/// text (10k-resource plan: 13 MB of 23.7 MB). The plan's references to them, and to its
/// whole text, are replaced first: nothing can read the discarded bytes (they read as zeros).
///
/// # Safety
/// `base` must be the start of the `len` bytes `plan` was parsed from, a buffer the caller
/// owns and keeps alive as long as `plan`.
unsafe fn release_mapped_sections(plan: &mut Plan<'_>, base: *mut u8, len: usize) {
    // small plans: not worth a system call
    if len < (1 << 20) {
        return;
    }
    static EMPTY: std::sync::LazyLock<Box<serde_json::value::RawValue>> =
        std::sync::LazyLock::new(|| {
            serde_json::value::RawValue::from_string("{}".to_string()).expect("valid JSON")
        });
    let mut sections = Vec::new();
    for section in [&mut plan.planned_values, &mut plan.prior_state] {
        // present stays present: whether a document is a state reads that
        if let Some(raw) = section {
            sections.push((raw.get().as_ptr() as usize, raw.get().len()));
            *section = Some(&**EMPTY);
        }
    }
    plan.text = "";
    for (start, n) in sections {
        let offset = start.wrapping_sub(base as usize);
        if offset < len && n <= len - offset {
            // SAFETY: the range lies inside the caller's buffer (checked), and the plan's
            // only references into it were replaced above.
            unsafe { crate::memory::discard(base.add(offset), n) };
        }
    }
}

/// From this many bytes of input, the plan's parse (≈ 3 ms a MB) outlasts loading the mappings
/// and compiling their jq program (≈ 5 ms, `Engine::compile_jq`) on the other core.
const EAGER_JQ_BYTES: usize = 4 << 20;

/// The mapping engine the carbon options ask for (embedded mappings, then `--mappings`
/// folders), with its budget set.
fn load_engine(c: &CarbonOptions) -> Result<mapping::Engine, Error> {
    let t = std::time::Instant::now();
    mapping::limits::set_budget(c.mapping_budget);
    require_folders(&c.mapping_dirs, "mappings")?;
    mapping::check_data_dirs(&c.data_dirs)?;
    let engine = mapping::load(&c.mapping_dirs, &*resolver(&c.data_dirs))?;
    for d in engine.user_filter_errors() {
        crate::escape::eprint(&format!("warning: {d} (this filter yields nothing)"));
    }
    phase("  load mappings", t);
    Ok(engine)
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
    let engine = load_engine(c)?;
    let plan = parse_plan(&path, &bytes)?;
    let m = map(&plan, &engine, c);
    Ok(assess(&plan, m, c, None, true))
}

/// What the mapping engine reads of a parsed plan: its sections, as the plan keeps them.
pub fn sections<'a>(plan: &'a Plan<'_>) -> mapping::Sections<'a> {
    let values = if plan.values.is_some() {
        // a state document's resources: the renderer's typed values keep no slices
        serde_json::from_str::<&serde_json::value::RawValue>(plan.text)
            .ok()
            .and_then(|top| mapping::source::member(top, "values"))
    } else {
        None
    };
    mapping::Sections {
        text: plan.text,
        planned_values: plan.planned_values,
        prior_state: plan.prior_state,
        values,
        configuration: plan.configuration,
        variables: plan.variables,
        // only the marks that mark something
        unknown: plan
            .resource_changes
            .iter()
            .flatten()
            .map(|rc| (rc.address.as_ref(), rc.change.after_unknown.text().trim()))
            .filter(|(_, u)| u.starts_with('{') && u[1..].trim_start() != "}")
            .map(|(a, u)| (Cow::Borrowed(a), u))
            .collect(),
    }
}

/// Maps the plan's resources through the mappings: its planned values and prior state, then
/// (for resources those lack) its changes' own values; the configuration's `[regions]` last.
fn map(plan: &Plan<'_>, engine: &mapping::Engine, c: &CarbonOptions) -> mapping::MappedPlan {
    let t = std::time::Instant::now();
    let config = mapping::config::Config::new(plan.configuration);
    let mut m = engine.map_with_config(sections(plan), &config);
    phase("map", t);
    if mapping::engine::profiling() {
        engine.dump_prof(true);
    }
    // resources planned_values lacks, from the changes' own values
    let t = std::time::Instant::now();
    mapping::fallback::fill_from_changes(plan, &mut m, engine, &config);
    drop(config);
    // what mapping built and freed goes back before the report is built
    crate::memory::release();
    phase("map: resources planned_values lacks", t);
    override_regions(&mut m, &c.regions);
    for w in crate::usage::apply(c.usage.as_deref(), &mut m) {
        crate::escape::eprint(&format!("warning: {w}"));
    }
    m
}

/// `usage template`: the usage file for the input's plan, `file`'s values kept when it
/// exists (docs/usage.md). Says on stderr how many resources it lists and how many are new.
pub fn usage_template(input: &Input, c: &CarbonOptions, file: &Path) -> Result<String, Error> {
    let existing = if file.is_file() {
        Some(crate::usage::read(file, &file.display().to_string())?)
    } else {
        None
    };
    let bytes = read_input(input)?;
    let engine = load_engine(c)?;
    let plan = parse_plan(&input.display_path(), &bytes)?;
    let config = mapping::config::Config::new(plan.configuration);
    let mut m = engine.map_with_config(sections(&plan), &config);
    mapping::fallback::fill_from_changes(&plan, &mut m, &engine, &config);
    let entries = crate::usage::entries_of(&m);
    let new = entries
        .iter()
        .filter(|e| {
            existing
                .as_ref()
                .is_none_or(|u| !u.by_address.contains_key(&e.address))
        })
        .count();
    crate::escape::eprint(&format!(
        "{}: {} resources whose figure depends on usage, {new} new",
        file.display(),
        entries.len()
    ));
    Ok(crate::usage::merge(&entries, existing.as_ref()))
}

/// Runs one `show` over a document already in memory, without touching the file system:
/// the library entry point of the fuzz targets and property tests. `plan` is
/// `plan::parse(path, bytes)`; `opts.input` and `opts.schemas` are not read (the schemas are
/// given), and `engine` (the mappings `opts.carbon` asks for, already loaded) is required when
/// `opts.carbon` is set. Output and errors are those of [`run`].
pub fn show(
    opts: &Options,
    _path: &Path,
    _bytes: &[u8],
    plan: &Plan<'_>,
    schemas: Option<&Schemas>,
    engine: Option<&mapping::Engine>,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let assessment = match (&opts.carbon, engine) {
        (Some(c), Some(engine)) => {
            let m = map(plan, engine, c);
            let keep_inputs = opts.format == Format::ImpactFramework;
            Some(assess(plan, m, c, schemas, keep_inputs).0)
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
        && let Some(budget) = single_budget(c)
    {
        let added = a.report.totals.delta_per_hour.total_gco2eq;
        if Gate::new(budget, added).exceeded {
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
        e => crate::hints::explain(bytes, e),
    })
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
            // its own figures (a body it shares is copied first)
            let r = &mut **r;
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
/// Impact Framework export and `explain` only (`keep_inputs`). The redactor it built comes
/// back beside the assessment, for `explain`'s printing of the inputs.
fn assess(
    plan: &Plan<'_>,
    mut mapped: mapping::MappedPlan,
    c: &CarbonOptions,
    schemas: Option<&Schemas>,
    keep_inputs: bool,
) -> (Assessment, Option<crate::redact::Redactor>) {
    use rayon::prelude::*;
    let t = std::time::Instant::now();
    // one redactor, knowing the plan's masks and the schema's sensitive attributes: what the
    // mappings found is hidden before reasons are built from it, the report after. The order
    // of the report's resources is worked out meanwhile (it holds no sensitive value).
    let (hide, (changes, order)) = rayon::join(
        || {
            let mut secrets = crate::plan::sensitive_strings(plan);
            if let Some(s) = schemas {
                secrets.extend(
                    crate::redact::schema_sensitive_strings(plan, s)
                        .into_iter()
                        .map(Cow::Owned),
                );
            }
            crate::redact::Redactor::new(&secrets)
        },
        || {
            let changes: Vec<Change<'_>> = plan
                .resource_changes
                .as_deref()
                .unwrap_or_default()
                .par_iter()
                .filter(|rc| rc.mode == "managed")
                .map(|rc| Change {
                    address: carbon_address(rc),
                    resource_type: &rc.type_,
                    actions: &rc.change.actions,
                })
                .collect();
            let order = carbon::Order::new(&changes, &mapped);
            // the ARM equivalents, read once per process, loaded before pricing needs them
            // (a plan with nothing to price loads them only if the report asks; the reference
            // tables need no loading: static rows built with the binary, `data/tables.rs`)
            if !mapped.before.is_empty() || !mapped.after.is_empty() {
                crate::alternatives::tables::arm_rules();
            }
            (changes, order)
        },
    );
    // the changes are read again only for a what-if
    let changes = (!c.what_if.is_empty()).then_some(changes);
    // what was read from a sensitive value, by where it came from; then every sensitive
    // value wherever it was copied
    crate::redact::tainted(&mut mapped);
    if let Some(h) = &hide {
        h.mapped(&mut mapped);
    }
    phase("  assess: sensitive values", t);
    // every estimated after side gets its greener alternatives as it is priced
    let mut a = carbon::assess_order(&order, &mapped, c.settings, keep_inputs, true);
    drop(order);
    if !c.what_if.is_empty() {
        // the actual figures are done with `mapped`: the scenario is applied in place
        c.what_if.apply(&mut mapped);
        let w = carbon::assess(changes.as_deref().unwrap_or_default(), &mapped, c.settings);
        a.report.what_if = Some(crate::alternatives::WhatIf::new(
            &c.what_if, &a.report, &w.report,
        ));
    }
    phase("  assess: figures", t);
    if let Some(h) = &hide {
        h.report(&mut a.report);
    }
    // the gate's verdict is part of the report, so that every format can say it
    a.report.fail_over =
        single_budget(c).map(|b| Gate::new(b, a.report.totals.delta_per_hour.total_gco2eq));
    phase("assess", t);
    // what the mappings found is done with: freed on both cores
    drop(changes);
    let mapping::MappedPlan { before, after, .. } = mapped;
    rayon::join(|| drop(before), || drop(after));
    (a, hide)
}

/// The budget of a single plan: `--fail-over`, or `--fail-over-per-project` (its one
/// project), the stricter when both are set.
fn single_budget(c: &CarbonOptions) -> Option<crate::estimate::Budget> {
    match (c.fail_over, c.fail_over_per_project) {
        (Some(a), Some(b)) if b.grams_per_hour() < a.grams_per_hour() => Some(b),
        (a, b) => a.or(b),
    }
}

/// With `CARBON_SHOW_PROFILE`: how long a phase of the run took, on stderr.
fn phase(name: &str, since: std::time::Instant) {
    if mapping::engine::profiling() {
        let (now, peak) = crate::memory::resident();
        eprintln!(
            "{name}: {:.3}s (RSS {now}, peak {peak}; process CPU so far {:.3}s)",
            since.elapsed().as_secs_f64(),
            crate::memory::cpu_seconds()
        );
    }
}

/// The address a resource change's figures are reported under: a deposed object's is its own.
fn carbon_address<'a>(rc: &'a ResourceChange) -> Cow<'a, str> {
    match rc.deposed() {
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
    let moved = opts.carbon.as_ref().map(|c| &c.moved);
    let alternatives = opts.carbon.as_ref().is_some_and(|c| c.alternatives);
    // a terminal's width (human output to a terminal only: piped output stays stable)
    let width = (opts.format == Format::Human)
        .then(|| opts.carbon.as_ref().and_then(|c| c.terminal_width))
        .flatten();
    let annotator: Box<dyn Annotator + '_> = match assessment {
        Some(a) => Box::new(
            CarbonAnnotator::with_alternatives(&a.report, period, alternatives).within(width),
        ),
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
                    Summary::new(&a.report, kind, period)
                        .with_module_depth(module_depth)
                        .with_settings(moved.cloned().unwrap_or_default())
                        .with_alternatives(alternatives)
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
                    // nothing to estimate: said on a terminal (piped output stays OpenTofu's own)
                    let terminal = opts.carbon.as_ref().and_then(|c| c.terminal_width);
                    if summary.verdict == wording::Verdict::Silent && terminal.is_some() {
                        writeln!(out, "\n{}", wording::summary::silent_line(kind))?;
                    }
                    wording::write_human_within(&summary, &theme, width, out)?;
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
            // only what the comment can show of the plan's text is kept
            let mut capture = wording::Capture::new(opts.comment.max_chars);
            let (rendered, summary) = summary_beside(&mut || {
                render::render_human(
                    plan,
                    schemas,
                    opts.human,
                    &Theme::plain(),
                    &*annotator,
                    &mut capture,
                )
            })?;
            let (text, cut) = capture.finish();
            let text = String::from_utf8_lossy(&text);
            let plan_text = PlanText {
                text: &text,
                plan_line: rendered.plan_line.as_deref(),
                cut,
            };
            let summary = summary.expect("a carbon format has its assessment");
            wording::write_comment(&summary, plan_text, &opts.comment, out)
        }
        (Format::ImpactFramework, Some(a)) => {
            let resources = impact_resources(&a.after_inputs, None);
            let name = match &opts.input {
                Input::Stdin => "carbon-show plan".to_string(),
                Input::File(p) => format!("carbon-show {}", p.display()),
            };
            render::impact::write_manifest(&resources, &ImpactOptions::new(name, period), out)
        }
        (_, None) => unreachable!("the carbon formats always assess the plan"),
    }
}

/// The Impact Framework leaves of a plan's priced after side; under a node named `project`
/// first when one is given (a multi-project run).
fn impact_resources<'a>(
    after_inputs: &'a [carbon::Priced],
    project: Option<&'a str>,
) -> Vec<ImpactResource<'a>> {
    let types: HashMap<&str, &str> = after_inputs
        .iter()
        .map(|p| (p.address.as_str(), p.resource_type.as_str()))
        .collect();
    after_inputs
        .iter()
        .map(|p| ImpactResource {
            address: &p.address,
            module_path: project
                .into_iter()
                .chain(ImpactResource::module_path_of(&p.address))
                .collect(),
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
        .collect()
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

/// A missing mapping folder is an input that cannot be read (exit 4, as a missing plan file),
/// not a broken mapping.
fn require_folders(dirs: &[PathBuf], what: &str) -> Result<(), Error> {
    match dirs.iter().find(|d| !d.is_dir()) {
        None => Ok(()),
        Some(d) => Err(Error::Io {
            path: d.clone(),
            source: io::Error::new(
                io::ErrorKind::NotFound,
                format!("{what}: no such folder (or not a folder)"),
            ),
        }),
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
    require_folders(dirs, "mappings check")?;
    mapping::check_data_dirs(data_dirs)?;
    let resolver = resolver(data_dirs);
    let mut errors = 0usize;
    let mut text = String::new();
    for dir in dirs {
        if mapping::engine::read_dir(dir)?.is_empty() {
            return Err(Error::Mapping(format!(
                "{}: no mapping files (*.yaml, *.yml) in this folder or below: nothing to check",
                dir.display()
            )));
        }
        for d in mapping::check(dir, &*resolver)? {
            errors += 1;
            // file names and mapping text from the repository: one line each (`crate::escape`)
            text.push_str(&format!("{}\n", crate::escape::line(&d.to_string())));
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
