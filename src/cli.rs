//! Command line: clap flags, turned into a validated [`Options`] that the core uses.
//! Clap types never leave this module.

use std::ffi::OsString;
use std::io::{self, IsTerminal};
use std::path::PathBuf;

use clap::{Parser, ValueEnum};

use crate::config::{self, Layer, Setting, Source};
use crate::error::Error;
use crate::estimate::{Budget, Period};
use crate::output::Target;
use crate::render::{Flavor, HumanOptions, PlanMode};

mod inputs;
mod options;
use inputs::parse_inputs;

pub use options::*;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum FlavorArg {
    /// From the plan's provider addresses (registry.opentofu.org or registry.terraform.io);
    /// OpenTofu when neither appears.
    Auto,
    Opentofu,
    Terraform,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum FormatArg {
    Human,
    Json,
    Markdown,
    ImpactFramework,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum PeriodArg {
    Hour,
    Month,
    Year,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ModeArg {
    Normal,
    Destroy,
    RefreshOnly,
}

/// Shows an OpenTofu/Terraform plan (`tofu show -json`) exactly as `tofu show` would, with the
/// carbon cost of every resource beside it.
///
/// Settings also come from `.carbon-show.toml` (found upward from the working directory) and
/// `CARBON_SHOW_*` variables; flags win over variables, variables over the file
/// (`carbon-show config` shows the result).
///
/// Exit codes: 0 rendered; 2 bad usage; 3 --fail-over exceeded; 4 input unreadable; 5 invalid
/// JSON; 6 unsupported format_version; 7 not a plan or state; 8 broken mappings; 9 broken
/// schemas; 10 bad configuration.
#[derive(Debug, Parser)]
#[command(
    name = "carbon-show",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Args {
    #[command(subcommand)]
    command: Option<SubCommand>,
    /// Plan or state JSON (`tofu show -json`): FILE, NAME=FILE or - (stdin, also when
    /// absent). Several inputs, or a stream of concatenated documents, are reviewed as one
    /// project each, under one summary.
    #[arg(value_name = "INPUT")]
    file: Vec<PathBuf>,
    /// Provider schemas (`tofu providers schema -json`), to tell blocks from attributes;
    /// `auto` runs that command (tofu or terraform, whichever wrote the plan) in the working
    /// directory, cached by `.terraform.lock.hcl` (a file named auto: `./auto`).
    #[arg(long, value_name = "FILE|auto")]
    schemas: Option<PathBuf>,
    /// When to use colour [default: auto; a configuration file or CARBON_SHOW_COLOR can set
    /// it].
    #[arg(long, value_enum)]
    color: Option<ColorArg>,
    /// Product wording and rendering rules [default: auto, decided from the plan's provider
    /// addresses; a configuration file or CARBON_SHOW_FLAVOR can fix it].
    #[arg(long, value_enum)]
    flavor: Option<FlavorArg>,
    /// Render with the rules of this Terraform version (e.g. 1.6.6) [default: the document's
    /// terraform_version; a state's is its last writer's].
    #[arg(long, value_name = "VERSION", value_parser = config::parse_terraform_version)]
    terraform_version: Option<crate::structured::Version>,
    /// The planning mode the plan was made in (it is not in the JSON).
    #[arg(long, value_enum, default_value = "normal")]
    mode: ModeArg,
    /// Output format [default: human; a configuration file or CARBON_SHOW_FORMAT can set it].
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// The plan exactly as OpenTofu prints it: no carbon annotations or summary (human format
    /// only; the carbon flags conflict with it).
    #[arg(long, conflicts_with_all = ["mappings", "data", "utilization", "period", "fail_over", "fail_over_per_project", "comment_tag", "max_chars", "module_depth", "alternatives", "what_if", "usage"])]
    no_carbon: bool,
    /// A folder of mapping files layered over the embedded ones (repeatable).
    #[arg(long = "mappings", value_name = "DIR")]
    mappings: Vec<PathBuf>,
    /// A folder searched first for the data files that mappings reference (repeatable).
    #[arg(long = "data", value_name = "DIR")]
    data: Vec<PathBuf>,
    /// CPU and GPU utilisation, 0..1 or a percentage (`50%`) [default: 0.5; burstable types:
    /// their published baseline].
    #[arg(long, value_name = "U", value_parser = config::parse_utilization)]
    utilization: Option<f64>,
    /// The headline period of figures [default: month].
    #[arg(long, value_enum)]
    period: Option<PeriodArg>,
    /// The `# ↳ greener:` line under a resource whose cleaner region (same jurisdiction) or ARM
    /// equivalent saves at least 10 % [default: on; human and Markdown output; the JSON always
    /// lists alternatives].
    #[arg(long, value_name = "on|off", value_parser = config::parse_switch)]
    alternatives: Option<bool>,
    /// Re-estimate the whole plan as if every resource of a provider ran in a region
    /// (`region=REGION`, `region=PROVIDER:REGION`; one per provider) or on its ARM equivalent
    /// (`arm`), and show it beside the actual figures (repeatable).
    #[arg(long = "what-if", value_name = "SCENARIO", value_parser = crate::alternatives::whatif::parse_spec)]
    what_if: Vec<crate::alternatives::WhatIfSpec>,
    /// Exit with code 3 when the plan adds more than this, e.g. `10kg/month` (several
    /// projects: their total).
    #[arg(long, value_name = "AMOUNT", value_parser = parse_budget)]
    fail_over: Option<Budget>,
    /// Exit with code 3 when any one project adds more than this, e.g. `5kg/month`; the
    /// verdict names the projects over it.
    #[arg(long, value_name = "AMOUNT", value_parser = parse_budget)]
    fail_over_per_project: Option<Budget>,
    /// Pin the gate: a configuration file may not set fail-over (either), utilization, regions,
    /// mappings or data (exit 10 at its line); the workflow sets them with flags or
    /// CARBON_SHOW_* variables (also CARBON_SHOW_PIN_GATE=on).
    #[arg(long)]
    pin_gate: bool,
    /// The configuration file (instead of `.carbon-show.toml` found upward).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The usage file: GB stored, GB processed, requests for the resources whose figure
    /// depends on usage [default: carbon-usage.yml in the working directory, when present;
    /// docs/usage.md].
    #[arg(long, value_name = "FILE")]
    usage: Option<PathBuf>,
    /// Write the output to FILE (replaced atomically) instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Print nothing on standard output (errors still go to stderr; the exit code still tells).
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Time and memory one jq evaluation of a mapping may take, e.g. `5s`, `256MB` or
    /// `2s,256MB` (default 5s,512MB); past it the run stops with exit 8.
    #[arg(long, value_name = "BUDGET")]
    mapping_budget: Option<crate::mapping::limits::Budget>,
    /// Names the Markdown comment's hidden marker (`<!-- carbon-show:TAG -->`), so that
    /// several jobs can each update their own comment (`--format markdown` only).
    #[arg(long, value_name = "TAG", value_parser = parse_tag)]
    comment_tag: Option<String>,
    /// The Markdown comment's length limit in characters (default 65536, GitHub's; GitLab
    /// allows 1000000): over it, the plan text and then the smallest rows are left out, with
    /// a note (`--format markdown` only).
    #[arg(long, value_name = "N", value_parser = parse_max_chars)]
    max_chars: Option<usize>,
    /// The summary's module rollup: modules nested deeper than N are folded into their
    /// ancestor at depth N [default: 1, top-level modules; 0: no module rollup].
    #[arg(long, value_name = "N", value_parser = config::parse_module_depth)]
    module_depth: Option<usize>,
}

#[derive(Debug, clap::Subcommand)]
enum SubCommand {
    /// Work with mapping files.
    Mappings {
        #[command(subcommand)]
        action: MappingsAction,
    },
    /// Print the effective settings (a TOML file) and where each came from.
    Config {
        /// The configuration file (instead of `.carbon-show.toml` found upward).
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
    /// Print a shell completion script.
    Completions {
        #[arg(value_enum)]
        shell: Shell,
    },
    /// Print the man page (roff) on standard output.
    Man,
    /// Work with usage files (docs/usage.md).
    Usage {
        #[command(subcommand)]
        action: UsageAction,
    },
    /// Print one resource's derivation: each input, each coefficient with its source, and the
    /// arithmetic, so that a reviewer can redo it by hand.
    Explain {
        /// The resource's address, as the plan shows it (e.g. `aws_instance.web[0]`).
        address: String,
        /// Plan or state JSON (`tofu show -json`); stdin when absent or `-`.
        file: Option<PathBuf>,
        /// CPU and GPU utilisation, 0..1 or a percentage (`50%`); default 0.5, or a burstable
        /// type's published baseline.
        #[arg(long, value_name = "U", value_parser = config::parse_utilization)]
        utilization: Option<f64>,
        /// The period of the last total (default month).
        #[arg(long, value_enum)]
        period: Option<PeriodArg>,
        /// A folder of mapping files layered over the embedded ones (repeatable).
        #[arg(long = "mappings", value_name = "DIR")]
        mappings: Vec<PathBuf>,
        /// A folder searched first for the data files that mappings reference (repeatable).
        #[arg(long = "data", value_name = "DIR")]
        data: Vec<PathBuf>,
        /// The configuration file (instead of `.carbon-show.toml` found upward).
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
}

fn input_of(file: Option<PathBuf>) -> Input {
    match file {
        None => Input::Stdin,
        Some(p) if p.as_os_str() == "-" => Input::Stdin,
        Some(p) => Input::File(p),
    }
}

#[derive(Debug, clap::Subcommand)]
enum UsageAction {
    /// Write the usage file for a plan: every resource whose figure depends on usage, each
    /// key null with its unit and where to read it. An existing file keeps its values; the
    /// plan's new resources are added.
    Template {
        /// Plan or state JSON (`tofu show -json`); stdin when absent or `-`.
        file: Option<PathBuf>,
        /// The usage file written [default: the configuration's `usage`, else
        /// carbon-usage.yml in the working directory].
        #[arg(long, value_name = "FILE")]
        usage: Option<PathBuf>,
        /// The configuration file (instead of `.carbon-show.toml` found upward).
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
}

#[derive(Debug, clap::Subcommand)]
enum MappingsAction {
    /// Validate mapping folders (layered over the embedded ones); prints `file:line:column:
    /// message` for every problem and exits 8 when any is fatal.
    Check {
        /// Mapping folders.
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
        /// A folder searched first for referenced data files (repeatable).
        #[arg(long = "data", value_name = "DIR")]
        data: Vec<PathBuf>,
    },
}

fn parse_budget(s: &str) -> Result<Budget, String> {
    s.parse()
}

/// A tag goes inside an HTML comment: letters, digits and `._:/-`, no `--`.
fn parse_tag(s: &str) -> Result<String, String> {
    let ok = !s.is_empty()
        && s.len() <= 64
        && !s.contains("--")
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._:/-".contains(c));
    if ok {
        Ok(s.to_string())
    } else {
        Err(format!(
            "{s:?} cannot go in an HTML comment: use 1 to 64 letters, digits and ._:/- (no --)"
        ))
    }
}

fn parse_max_chars(s: &str) -> Result<usize, String> {
    let min = crate::render::carbon::markdown::MIN_MAX_CHARS;
    match s.trim().replace('_', "").parse::<usize>() {
        Ok(n) if n >= min => Ok(n),
        Ok(_) => Err(format!(
            "{s:?} is too small: the headline and totals need {min}"
        )),
        Err(_) => Err(format!("{s:?} is not a number of characters")),
    }
}

/// Conflicts clap's declarations cannot say (they depend on a flag's value).
fn validate(a: Args) -> Result<Args, clap::Error> {
    use clap::CommandFactory;
    let conflict =
        |msg: String| Args::command().error(clap::error::ErrorKind::ArgumentConflict, msg);
    // `carbon-show --config X config`: clap takes a subcommand's name after a flag for the
    // plan file; say how to write it instead of "config: No such file"
    if let (None, Some(file)) = (&a.command, a.file.first()) {
        let name = file.to_string_lossy();
        let sub = Args::command()
            .get_subcommands()
            .any(|c| c.get_name() == name);
        if sub && !file.exists() {
            return Err(conflict(format!(
                "`{name}` is a subcommand: put it before the flags (`carbon-show {name} \
                 --config FILE …`); a plan file named {name}: `./{name}`"
            )));
        }
    }
    if let (None, Some(file)) = (&a.command, a.file.first())
        && file.as_os_str() == "version"
        && !file.exists()
    {
        return Err(conflict(
            "`version` is not a subcommand: `carbon-show --version` prints the version (a plan \
             file named version: `./version`)"
                .to_string(),
        ));
    }
    if let Some(f) = a.format {
        format_conflicts(&a, format_of(f)).map_err(conflict)?;
    }
    if let Err(e) = crate::alternatives::Scenario::new(&a.what_if) {
        return Err(conflict(format!("--what-if: {e}")));
    }
    Ok(a)
}

fn format_of(f: FormatArg) -> Format {
    match f {
        FormatArg::Human => Format::Human,
        FormatArg::Json => Format::Json,
        FormatArg::Markdown => Format::Markdown,
        FormatArg::ImpactFramework => Format::ImpactFramework,
    }
}

/// The flags that need another format than `format` (given by `--format`, a variable or the
/// configuration file): the reason, when one does.
fn format_conflicts(a: &Args, format: Format) -> Result<(), String> {
    let format = config::format_name(format);
    if a.no_carbon && format != "human" {
        return Err(format!(
            "--no-carbon cannot be used with --format {format}: that output is the carbon \
             report; drop one of the two"
        ));
    }
    if a.max_chars.is_some() && format != "markdown" {
        return Err(format!(
            "--max-chars limits the Markdown comment: it needs --format markdown, not {format}"
        ));
    }
    if !a.what_if.is_empty() && format == "impact-framework" {
        return Err(
            "--what-if shows a scenario beside the actual figures: the Impact Framework \
                    manifest has no place for it; use --format human, json or markdown"
                .to_string(),
        );
    }
    if a.comment_tag.is_some() && format != "markdown" {
        return Err(format!(
            "--comment-tag names the Markdown comment's marker: it needs --format markdown, \
             not {format}"
        ));
    }
    Ok(())
}

/// The settings the flags give (`None` where a flag is absent).
fn flag_layer(a: &Args) -> Layer {
    // a setting made by the flag `name`
    fn by<T>(name: &'static str) -> impl FnOnce(T) -> Setting<T> {
        move |value| Setting {
            value,
            source: Source::Flag(name),
        }
    }
    let folders = |v: &Vec<PathBuf>| (!v.is_empty()).then(|| v.clone());
    Layer {
        mappings: folders(&a.mappings).map(by("--mappings")),
        data: folders(&a.data).map(by("--data")),
        utilization: a.utilization.map(by("--utilization")),
        period: a.period.map(period_of).map(by("--period")),
        fail_over: a.fail_over.map(by("--fail-over")),
        fail_over_per_project: a.fail_over_per_project.map(by("--fail-over-per-project")),
        max_chars: a.max_chars.map(by("--max-chars")),
        module_depth: a.module_depth.map(by("--module-depth")),
        alternatives: a.alternatives.map(by("--alternatives")),
        usage: a.usage.clone().map(by("--usage")),
        pin_gate: a.pin_gate.then_some(true).map(by("--pin-gate")),
        // `--flavor auto` is the default: it sets nothing, so a file or the environment can
        flavor: (a.flavor)
            .and_then(|f| match f {
                FlavorArg::Auto => None,
                FlavorArg::Opentofu => Some(Flavor::OpenTofu),
                FlavorArg::Terraform => Some(Flavor::Terraform),
            })
            .map(by("--flavor")),
        terraform_version: a.terraform_version.map(by("--terraform-version")),
        format: a.format.map(format_of).map(by("--format")),
        color: (a.color)
            .map(|c| match c {
                ColorArg::Auto => ColorMode::Auto,
                ColorArg::Always => ColorMode::Always,
                ColorArg::Never => ColorMode::Never,
            })
            .map(by("--color")),
        ..Layer::default()
    }
}

fn period_of(p: PeriodArg) -> Period {
    match p {
        PeriodArg::Hour => Period::Hour,
        PeriodArg::Month => Period::Month,
        PeriodArg::Year => Period::Year,
    }
}

/// The carbon options of the effective settings.
fn carbon_options(
    settings: &config::Effective,
    mapping_budget: Option<crate::mapping::limits::Budget>,
    cwd: &std::path::Path,
) -> CarbonOptions {
    CarbonOptions {
        mapping_dirs: settings.mappings.value.clone(),
        data_dirs: settings.data.value.clone(),
        settings: crate::carbon::Settings {
            utilization: settings.utilization.value,
            // a flag, a variable or the file set it: burstable types keep no baseline of their own
            utilization_given: settings.utilization.source != config::Source::Default,
            period: settings.period.value,
        },
        fail_over: settings.fail_over.value,
        fail_over_per_project: settings.fail_over_per_project.value,
        regions: (settings.regions.iter())
            .map(|(p, r)| (*p, r.value.clone()))
            .collect(),
        mapping_budget: mapping_budget.unwrap_or_default(),
        module_depth: settings.module_depth.value,
        alternatives: settings.alternatives.value,
        what_if: Default::default(),
        usage: None,
        moved: settings.moved(cwd),
        terminal_width: None,
    }
}

/// Turns the flags into a command, reading the configuration file and the environment
/// (`get`) from `cwd`.
fn command(
    a: Args,
    get: &dyn Fn(&str) -> Option<OsString>,
    cwd: &std::path::Path,
) -> Result<Command, Error> {
    match a.command {
        Some(SubCommand::Mappings {
            action: MappingsAction::Check { dirs, data },
        }) => {
            return Ok(Command::CheckMappings {
                dirs,
                data_dirs: data,
            });
        }
        Some(SubCommand::Explain {
            address,
            file,
            utilization,
            period,
            mappings,
            data,
            config,
        }) => {
            let flag = |name| Source::Flag(name);
            let layer = Layer {
                mappings: (!mappings.is_empty()).then(|| Setting {
                    value: mappings,
                    source: flag("--mappings"),
                }),
                data: (!data.is_empty()).then(|| Setting {
                    value: data,
                    source: flag("--data"),
                }),
                utilization: utilization.map(|value| Setting {
                    value,
                    source: flag("--utilization"),
                }),
                period: period.map(|p| Setting {
                    value: period_of(p),
                    source: flag("--period"),
                }),
                ..Layer::default()
            };
            if file.is_none() && std::path::Path::new(&address).is_file() {
                return Err(Error::Usage(format!(
                    "explain: {address:?} is a file, not a resource address: name the resource \
                     first (`carbon-show explain aws_instance.web {address}`)"
                )));
            }
            let settings = config::resolve(layer, config.as_deref(), get, cwd)?;
            let mut carbon = carbon_options(&settings, None, cwd);
            carbon.usage = crate::usage::load(settings.usage.value.as_deref(), cwd)?;
            return Ok(Command::Explain {
                address,
                input: input_of(file),
                carbon: Box::new(carbon),
            });
        }
        Some(SubCommand::Usage {
            action:
                UsageAction::Template {
                    file,
                    usage,
                    config,
                },
        }) => {
            let source = Source::Flag("--usage");
            let usage = usage.map(|value| Setting { value, source });
            let layer = Layer {
                usage,
                ..Layer::default()
            };
            let settings = config::resolve(layer, config.as_deref(), get, cwd)?;
            let name = settings.usage.value.clone();
            return Ok(Command::UsageTemplate {
                input: input_of(file),
                file: cwd.join(name.unwrap_or_else(|| crate::usage::FILE_NAME.into())),
                carbon: Box::new(carbon_options(&settings, None, cwd)),
            });
        }
        Some(SubCommand::Config { config }) => {
            let e = config::resolve(Layer::default(), config.as_deref(), get, cwd)?;
            return Ok(Command::Config(Box::new(e)));
        }
        Some(SubCommand::Completions { shell }) => return Ok(Command::Completions(shell)),
        Some(SubCommand::Man) => return Ok(Command::Man),
        None => {}
    }
    let settings = config::resolve(flag_layer(&a), a.config.as_deref(), get, cwd)?;
    let format = settings.format.value;
    if !matches!(settings.format.source, Source::Flag(_)) {
        // `validate` checked a `--format`; a variable's or the file's is checked here
        format_conflicts(&a, format)
            .map_err(|e| Error::Usage(format!("{e} (format from {})", settings.format.source)))?;
    }
    let mut carbon = carbon_options(&settings, a.mapping_budget, cwd);
    if !a.no_carbon {
        carbon.usage = crate::usage::load(settings.usage.value.as_deref(), cwd)?;
    }
    if a.output.as_ref().is_none_or(|p| p.as_os_str() == "-") && !a.quiet {
        carbon.terminal_width = crate::output::terminal_width();
    }
    // (two regions for one provider are refused by `validate`)
    carbon.what_if = crate::alternatives::Scenario::new(&a.what_if).unwrap_or_default();
    // (--no-carbon with another format is refused by `validate`)
    let carbon = (!a.no_carbon).then_some(carbon);
    let comment = crate::render::carbon::CommentOptions {
        tag: a.comment_tag.clone(),
        max_chars: Some(settings.max_chars.value),
        ..Default::default()
    };
    let output = match (&a.output, a.quiet) {
        (Some(p), _) if p.as_os_str() != "-" => Target::File(p.clone()),
        (_, true) => Target::Discard,
        _ => Target::Stdout,
    };
    let inputs = parse_inputs(&a.file, cwd)?;
    let mut opts = Options::from(a);
    if inputs.len() > 1 || inputs.iter().any(|i| i.name.is_some()) {
        opts.input = inputs[0].input.clone();
        opts.inputs = inputs;
    }
    opts.color = settings.color.value;
    if output != Target::Stdout && opts.color == ColorMode::Auto {
        // `auto` looks at the terminal; a file (or nothing) is not one
        opts.color = ColorMode::Never;
    }
    opts.comment = comment;
    opts.format = format;
    if opts.schemas.is_none()
        && output == Target::Stdout
        && format == Format::Human
        && std::io::IsTerminal::is_terminal(&std::io::stdout())
        && std::env::var_os("CI").is_none()
    {
        // At a terminal the user has what it takes to be exact (never in CI: running the
        // tool starts the provider plugins of `.terraform/`, which a pull request controls).
        opts.schemas = Some(SchemaSource::Terminal);
    }
    opts.carbon = carbon;
    opts.human.flavor = settings.flavor.value;
    opts.human.version = settings.terraform_version.value;
    // no flag, variable or file named a flavour: decide it from the plan
    opts.flavor_auto = settings.flavor.source == config::Source::Default;
    Ok(Command::Show(Box::new(Run {
        options: opts,
        output,
        settings,
    })))
}

impl From<Args> for Options {
    fn from(a: Args) -> Self {
        let input = match a.file.first() {
            None => Input::Stdin,
            Some(p) if p.as_os_str() == "-" => Input::Stdin,
            Some(p) => Input::File(p.clone()),
        };
        Options {
            input,
            // several inputs or a name: `command` parses them (`parse_inputs`)
            inputs: Vec::new(),
            schemas: a.schemas.map(|p| match p.to_str() {
                Some("auto") => SchemaSource::Auto,
                _ => SchemaSource::File(p),
            }),
            flavor_auto: false,
            // the flag's, a variable's or the file's: set from the settings (`command`)
            color: ColorMode::Auto,
            human: HumanOptions {
                mode: match a.mode {
                    ModeArg::Normal => PlanMode::Normal,
                    ModeArg::Destroy => PlanMode::Destroy,
                    ModeArg::RefreshOnly => PlanMode::RefreshOnly,
                },
                ..HumanOptions::default()
            },
            format: Format::Human,
            carbon: Some(CarbonOptions::default()),
            comment: Default::default(),
        }
    }
}

/// Parses the command line, with the process's environment and working directory. On bad
/// usage (or `--help`/`--version`), prints clap's message and exits the process with clap's
/// code (2 for errors); a bad configuration is an error (exit 10).
pub fn parse_or_exit<I, T>(args: I) -> Result<Command, Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cwd = std::env::current_dir().unwrap_or_default();
    let a = match Args::try_parse_from(args).and_then(validate) {
        Ok(a) => a,
        Err(e) => e.exit(),
    };
    for name in config::unknown_vars(std::env::vars_os().map(|(k, _)| k))? {
        eprintln!("carbon-show: warning: environment variable {name} is not one carbon-show reads");
    }
    command(a, &|k| std::env::var_os(k), &cwd)
}

/// Parses the command line, returning clap's message (or the configuration's error) as a
/// string on failure.
pub fn try_parse<I, T>(args: I) -> Result<Command, String>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cwd = std::env::current_dir().unwrap_or_default();
    let a = Args::try_parse_from(args)
        .and_then(validate)
        .map_err(|e| e.to_string())?;
    command(a, &|k| std::env::var_os(k), &cwd).map_err(|e| e.to_string())
}

/// Writes the completion script for `shell`.
pub fn write_completions(shell: Shell, out: &mut dyn io::Write) {
    use clap::CommandFactory;
    use clap_complete::Shell as S;
    let shell = match shell {
        Shell::Bash => S::Bash,
        Shell::Zsh => S::Zsh,
        Shell::Fish => S::Fish,
        Shell::Powershell => S::PowerShell,
    };
    clap_complete::generate(shell, &mut Args::command(), "carbon-show", out);
}

/// Writes the man page (roff).
pub fn write_man(out: &mut dyn io::Write) -> io::Result<()> {
    use clap::CommandFactory;
    clap_mangen::Man::new(Args::command()).render(out)
}

/// Decides whether to colour stdout.
pub fn use_color(mode: ColorMode) -> bool {
    match mode {
        ColorMode::Always => true,
        ColorMode::Never => false,
        ColorMode::Auto => {
            let stdout = io::stdout();
            let choice = anstream::AutoStream::choice(&stdout);
            matches!(
                choice,
                anstream::ColorChoice::Always | anstream::ColorChoice::AlwaysAnsi
            ) && (stdout.is_terminal() || std::env::var_os("CLICOLOR_FORCE").is_some())
        }
    }
}
