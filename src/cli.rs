//! Command line: clap flags, turned into a validated [`Options`] that the core uses.
//! Clap types never leave this module.

use std::ffi::OsString;
use std::io::{self, IsTerminal};
use std::path::PathBuf;

use clap::{Parser, ValueEnum};

use crate::estimate::{Budget, Period};
use crate::render::{Flavor, HumanOptions, PlanMode};

/// Where the document comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Stdin,
    File(PathBuf),
}

impl Input {
    /// The name used in error messages.
    pub fn display_path(&self) -> PathBuf {
        match self {
            Input::Stdin => PathBuf::from("<stdin>"),
            Input::File(p) => p.clone(),
        }
    }
}

/// Colour choice, as given on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorMode {
    /// Colour when stdout is a terminal (honours NO_COLOR and CLICOLOR_FORCE).
    #[default]
    Auto,
    Always,
    Never,
}

/// The output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// OpenTofu's plan text, annotated.
    #[default]
    Human,
    /// The carbon report as JSON (docs/json-format.md).
    Json,
    /// A pull-request comment.
    Markdown,
    /// An Impact Framework manifest (docs/impact-framework.md).
    ImpactFramework,
}

/// How carbon figures are found and computed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CarbonOptions {
    /// User mapping folders, layered over the embedded ones in order.
    pub mapping_dirs: Vec<PathBuf>,
    /// Folders searched for `json_data` files before the embedded tables.
    pub data_dirs: Vec<PathBuf>,
    pub settings: crate::carbon::Settings,
    /// `--fail-over`: exit 3 when the plan adds more than this.
    pub fail_over: Option<Budget>,
}

/// Validated options for one run.
#[derive(Debug, Clone)]
pub struct Options {
    pub input: Input,
    pub schemas: Option<PathBuf>,
    pub color: ColorMode,
    pub human: HumanOptions,
    pub format: Format,
    /// `None` with `--no-carbon`: the plan exactly as OpenTofu prints it, nothing added.
    pub carbon: Option<CarbonOptions>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            input: Input::Stdin,
            schemas: None,
            color: ColorMode::Auto,
            human: HumanOptions::default(),
            format: Format::Human,
            carbon: Some(CarbonOptions::default()),
        }
    }
}

/// What the command line asks for.
#[derive(Debug, Clone)]
pub enum Command {
    /// Show a plan or state document.
    Show(Options),
    /// `mappings check DIR…`: validate mapping folders.
    CheckMappings {
        dirs: Vec<PathBuf>,
        data_dirs: Vec<PathBuf>,
    },
    /// `explain ADDRESS [FILE]`: one resource's derivation.
    Explain {
        address: String,
        input: Input,
        carbon: CarbonOptions,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum FlavorArg {
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
/// Exit codes: 0 rendered; 2 bad usage; 3 --fail-over exceeded; 4 input unreadable; 5 invalid
/// JSON; 6 unsupported format_version; 7 not a plan or state; 8 broken mappings; 9 broken schemas.
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
    /// Plan or state JSON (`tofu show -json`); stdin when absent or `-`.
    file: Option<PathBuf>,
    /// Provider schemas (`tofu providers schema -json`), to tell blocks from attributes.
    #[arg(long, value_name = "FILE")]
    schemas: Option<PathBuf>,
    /// When to use colour.
    #[arg(long, value_enum, default_value = "auto")]
    color: ColorArg,
    /// Product wording.
    #[arg(long, value_enum, default_value = "opentofu")]
    flavor: FlavorArg,
    /// The planning mode the plan was made in (it is not in the JSON).
    #[arg(long, value_enum, default_value = "normal")]
    mode: ModeArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    format: FormatArg,
    /// The plan exactly as OpenTofu prints it: no carbon annotations or summary.
    #[arg(long)]
    no_carbon: bool,
    /// A folder of mapping files layered over the embedded ones (repeatable).
    #[arg(long = "mappings", value_name = "DIR")]
    mappings: Vec<PathBuf>,
    /// A folder searched first for the data files that mappings reference (repeatable).
    #[arg(long = "data", value_name = "DIR")]
    data: Vec<PathBuf>,
    /// CPU and GPU utilisation, 0..1 or a percentage (`50%`).
    #[arg(long, value_name = "U", default_value = "0.5", value_parser = parse_utilization)]
    utilization: f64,
    /// The headline period of figures.
    #[arg(long, value_enum, default_value = "month")]
    period: PeriodArg,
    /// Exit with code 3 when the plan adds more than this, e.g. `10kg/month`.
    #[arg(long, value_name = "AMOUNT", value_parser = parse_budget)]
    fail_over: Option<Budget>,
}

#[derive(Debug, clap::Subcommand)]
enum SubCommand {
    /// Work with mapping files.
    Mappings {
        #[command(subcommand)]
        action: MappingsAction,
    },
    /// Print one resource's derivation: each input, each coefficient with its source, and the
    /// arithmetic, so that a reviewer can redo it by hand.
    Explain {
        /// The resource's address, as the plan shows it (e.g. `aws_instance.web[0]`).
        address: String,
        /// Plan or state JSON (`tofu show -json`); stdin when absent or `-`.
        file: Option<PathBuf>,
        /// CPU and GPU utilisation, 0..1 or a percentage (`50%`).
        #[arg(long, value_name = "U", default_value = "0.5", value_parser = parse_utilization)]
        utilization: f64,
        /// The period of the last total.
        #[arg(long, value_enum, default_value = "month")]
        period: PeriodArg,
        /// A folder of mapping files layered over the embedded ones (repeatable).
        #[arg(long = "mappings", value_name = "DIR")]
        mappings: Vec<PathBuf>,
        /// A folder searched first for the data files that mappings reference (repeatable).
        #[arg(long = "data", value_name = "DIR")]
        data: Vec<PathBuf>,
    },
}

fn period_of(p: PeriodArg) -> Period {
    match p {
        PeriodArg::Hour => Period::Hour,
        PeriodArg::Month => Period::Month,
        PeriodArg::Year => Period::Year,
    }
}

fn input_of(file: Option<PathBuf>) -> Input {
    match file {
        None => Input::Stdin,
        Some(p) if p.as_os_str() == "-" => Input::Stdin,
        Some(p) => Input::File(p),
    }
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

fn parse_utilization(s: &str) -> Result<f64, String> {
    let (number, percent) = match s.trim().strip_suffix('%') {
        Some(n) => (n.trim(), true),
        None => (s.trim(), false),
    };
    let v: f64 = number
        .parse()
        .map_err(|_| format!("{s:?} is not a number: give 0..1 or a percentage like 50%"))?;
    let v = if percent { v / 100.0 } else { v };
    if !(0.0..=1.0).contains(&v) {
        return Err(format!("{s:?} is outside 0..1 (0 % to 100 %)"));
    }
    Ok(v)
}

fn parse_budget(s: &str) -> Result<Budget, String> {
    s.parse()
}

impl From<Args> for Command {
    fn from(a: Args) -> Self {
        match a.command {
            Some(SubCommand::Mappings {
                action: MappingsAction::Check { dirs, data },
            }) => {
                return Command::CheckMappings {
                    dirs,
                    data_dirs: data,
                };
            }
            Some(SubCommand::Explain {
                address,
                file,
                utilization,
                period,
                mappings,
                data,
            }) => {
                return Command::Explain {
                    address,
                    input: input_of(file),
                    carbon: CarbonOptions {
                        mapping_dirs: mappings,
                        data_dirs: data,
                        settings: crate::carbon::Settings {
                            utilization,
                            period: period_of(period),
                        },
                        fail_over: None,
                    },
                };
            }
            None => {}
        }
        let format = match a.format {
            FormatArg::Human => Format::Human,
            FormatArg::Json => Format::Json,
            FormatArg::Markdown => Format::Markdown,
            FormatArg::ImpactFramework => Format::ImpactFramework,
        };
        let carbon = CarbonOptions {
            mapping_dirs: a.mappings.clone(),
            data_dirs: a.data.clone(),
            settings: crate::carbon::Settings {
                utilization: a.utilization,
                period: match a.period {
                    PeriodArg::Hour => Period::Hour,
                    PeriodArg::Month => Period::Month,
                    PeriodArg::Year => Period::Year,
                },
            },
            fail_over: a.fail_over,
        };
        // The carbon formats need figures even with --no-carbon.
        let carbon = (!a.no_carbon || format != Format::Human).then_some(carbon);
        let mut opts = Options::from(a);
        opts.format = format;
        opts.carbon = carbon;
        Command::Show(opts)
    }
}

impl From<Args> for Options {
    fn from(a: Args) -> Self {
        let input = match a.file {
            None => Input::Stdin,
            Some(p) if p.as_os_str() == "-" => Input::Stdin,
            Some(p) => Input::File(p),
        };
        Options {
            input,
            schemas: a.schemas,
            color: match a.color {
                ColorArg::Auto => ColorMode::Auto,
                ColorArg::Always => ColorMode::Always,
                ColorArg::Never => ColorMode::Never,
            },
            human: HumanOptions {
                flavor: match a.flavor {
                    FlavorArg::Opentofu => Flavor::OpenTofu,
                    FlavorArg::Terraform => Flavor::Terraform,
                },
                mode: match a.mode {
                    ModeArg::Normal => PlanMode::Normal,
                    ModeArg::Destroy => PlanMode::Destroy,
                    ModeArg::RefreshOnly => PlanMode::RefreshOnly,
                },
                ..HumanOptions::default()
            },
            format: Format::Human,
            carbon: Some(CarbonOptions::default()),
        }
    }
}

/// Parses the command line. On bad usage (or `--help`/`--version`), prints clap's message
/// and exits the process with clap's code (2 for errors).
pub fn parse_or_exit<I, T>(args: I) -> Command
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    Args::parse_from(args).into()
}

/// Parses the command line, returning clap's message as a string on failure.
pub fn try_parse<I, T>(args: I) -> Result<Command, String>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    Args::try_parse_from(args)
        .map(Command::from)
        .map_err(|e| e.to_string())
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
