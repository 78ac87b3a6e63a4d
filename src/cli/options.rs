//! The validated options a run is made of ([`Options`], [`Command`]): what the command line's
//! flags are turned into, and all that the core reads of them.

use std::path::PathBuf;

use clap::ValueEnum;

use crate::config;
use crate::estimate::Budget;
use crate::output::Target;
use crate::render::HumanOptions;

/// Where the document comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Stdin,
    File(PathBuf),
}

/// One input of a run and the project name it was given (`NAME=FILE`), if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedInput {
    /// The name given with `NAME=FILE`; `None`: named from its file ([`crate::projects`]).
    pub name: Option<String>,
    pub input: Input,
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

/// Where provider schemas come from (`--schemas FILE` or `--schemas auto`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaSource {
    File(PathBuf),
    /// `<tool> providers schema -json` in the working directory, cached (see [`crate::tool`]).
    Auto,
    /// No `--schemas`, stdout a terminal and `CI` unset: as `Auto` when the working directory
    /// is an initialised root, with a note on stderr; else one line on stderr says that
    /// blocks may be shown as attributes ([`crate::tool::terminal_schemas`]).
    Terminal,
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
#[derive(Debug, Clone, PartialEq)]
pub struct CarbonOptions {
    /// User mapping folders, layered over the embedded ones in order.
    pub mapping_dirs: Vec<PathBuf>,
    /// Folders searched for `json_data` files before the embedded tables.
    pub data_dirs: Vec<PathBuf>,
    pub settings: crate::carbon::Settings,
    /// `--fail-over`: exit 3 when the plan (with several projects, their total) adds more
    /// than this.
    pub fail_over: Option<Budget>,
    /// `--fail-over-per-project`: exit 3 when any one project adds more than this.
    pub fail_over_per_project: Option<Budget>,
    /// Per provider (`aws`, `gcp`, `azure`): the region every resource of it is assessed in
    /// (`[regions]` of the configuration file, `CARBON_SHOW_REGION_*`).
    pub regions: std::collections::BTreeMap<crate::data::Provider, String>,
    /// `--mapping-budget`: time and memory of one jq evaluation.
    pub mapping_budget: crate::mapping::limits::Budget,
    /// `--module-depth`: the module rollup's depth (0: no module rollup in the summary).
    pub module_depth: usize,
    /// `--alternatives`: the `# ↳` lines of the human output and the Markdown comment (the
    /// JSON always lists alternatives).
    pub alternatives: bool,
    /// `--what-if`: the plan re-estimated under this scenario too (empty: not asked).
    pub what_if: crate::alternatives::Scenario,
    /// The usage file read (`--usage`, the configuration's `usage` key, or
    /// `carbon-usage.yml` in the working directory; docs/usage.md).
    pub usage: Option<std::sync::Arc<crate::usage::Usage>>,
    /// The settings that move figures or the gate and differ from the defaults, with their
    /// sources: named in the summary's headline and the comment's first lines.
    pub moved: Vec<config::trust::Moved>,
    /// The terminal's width when the output goes to one: the carbon lines are fitted to it
    /// (`None` when piped or written to a file: that output stays byte-stable).
    pub terminal_width: Option<usize>,
}

impl Default for CarbonOptions {
    fn default() -> Self {
        CarbonOptions {
            mapping_dirs: Vec::new(),
            data_dirs: Vec::new(),
            settings: Default::default(),
            fail_over: None,
            fail_over_per_project: None,
            regions: Default::default(),
            mapping_budget: Default::default(),
            module_depth: crate::report::modules::DEFAULT_DEPTH,
            alternatives: true,
            what_if: Default::default(),
            usage: None,
            moved: Vec::new(),
            terminal_width: None,
        }
    }
}

/// Validated options for one run.
#[derive(Debug, Clone)]
pub struct Options {
    /// The first input (the only one of a single-plan run).
    pub input: Input,
    /// Every input, when the command line gives several or names one (`NAME=FILE`); empty:
    /// `input` alone ([`Options::named_inputs`]).
    pub inputs: Vec<NamedInput>,
    /// `None`: the embedded built-in provider schema and heuristics for the rest.
    pub schemas: Option<SchemaSource>,
    /// `--flavor auto`: `human.flavor` is decided from the plan's provider addresses
    /// ([`crate::tool::auto_flavor`]). Off in `Options::default()` (library callers).
    pub flavor_auto: bool,
    pub color: ColorMode,
    pub human: HumanOptions,
    pub format: Format,
    /// `None` with `--no-carbon`: the plan exactly as OpenTofu prints it, nothing added.
    pub carbon: Option<CarbonOptions>,
    /// How `--format markdown` writes its comment.
    pub comment: crate::render::carbon::CommentOptions,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            input: Input::Stdin,
            inputs: Vec::new(),
            schemas: None,
            flavor_auto: false,
            color: ColorMode::Auto,
            human: HumanOptions::default(),
            format: Format::Human,
            carbon: Some(CarbonOptions::default()),
            comment: Default::default(),
        }
    }
}

impl Options {
    /// Every input of the run, in the order given.
    pub fn named_inputs(&self) -> Vec<NamedInput> {
        if self.inputs.is_empty() {
            vec![NamedInput {
                name: None,
                input: self.input.clone(),
            }]
        } else {
            self.inputs.clone()
        }
    }
}

/// A `show` run: its options, where its output goes, and the settings it was made from.
#[derive(Debug, Clone)]
pub struct Run {
    pub options: Options,
    pub output: Target,
    pub settings: config::Effective,
}

/// A shell that `completions` writes a script for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
    Powershell,
}

/// What the command line asks for.
#[derive(Debug, Clone)]
pub enum Command {
    /// Show a plan or state document.
    Show(Box<Run>),
    /// `config`: print the effective settings and where each came from.
    Config(Box<config::Effective>),
    /// `completions SHELL`: print a completion script.
    Completions(Shell),
    /// `man`: print the man page (roff).
    Man,
    /// `mappings check DIR…`: validate mapping folders.
    CheckMappings {
        dirs: Vec<PathBuf>,
        data_dirs: Vec<PathBuf>,
    },
    /// `explain ADDRESS [FILE]`: one resource's derivation.
    Explain {
        address: String,
        input: Input,
        carbon: Box<CarbonOptions>,
    },
    /// `usage template [PLAN]`: write (or bring up to date) the usage file `file`.
    UsageTemplate {
        input: Input,
        file: PathBuf,
        carbon: Box<CarbonOptions>,
    },
}
