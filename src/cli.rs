//! Command line: clap flags, turned into a validated [`Options`] that the core uses.
//! Clap types never leave this module.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use clap::{Parser, ValueEnum};

use crate::error::Error;
use crate::render::{self, Annotator, Flavor, HumanOptions, NoAnnotations, PlanMode, Theme};
use crate::schema::Schemas;

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

/// Validated options for one run.
#[derive(Debug, Clone)]
pub struct Options {
    pub input: Input,
    pub schemas: Option<PathBuf>,
    pub color: ColorMode,
    pub human: HumanOptions,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            input: Input::Stdin,
            schemas: None,
            color: ColorMode::Auto,
            human: HumanOptions::default(),
        }
    }
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
enum ModeArg {
    Normal,
    Destroy,
    RefreshOnly,
}

/// Shows an OpenTofu/Terraform plan (`tofu show -json`) exactly as `tofu show` would.
#[derive(Debug, Parser)]
#[command(name = "carbon-show", version, about)]
struct Args {
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
        }
    }
}

/// Parses the command line. On bad usage (or `--help`/`--version`), prints clap's message
/// and exits the process with clap's code (2 for errors).
pub fn parse_or_exit<I, T>(args: I) -> Options
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    Args::parse_from(args).into()
}

/// Parses the command line, returning clap's message as a string on failure.
pub fn try_parse<I, T>(args: I) -> Result<Options, String>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    Args::try_parse_from(args)
        .map(Options::from)
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

/// Runs one rendering with the default (no-op) annotator, writing to `out`. A broken pipe
/// on `out` ends the run quietly with success.
pub fn run(opts: &Options, out: &mut dyn Write) -> Result<(), Error> {
    run_with(opts, &NoAnnotations, out)
}

/// Runs one rendering with an annotator.
pub fn run_with(
    opts: &Options,
    annotator: &dyn Annotator,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let bytes = read_input(&opts.input)?;
    let path = opts.input.display_path();
    let plan = crate::plan::parse(&path, &bytes)?;
    let schemas = opts.schemas.as_deref().map(read_schemas).transpose()?;
    let theme = if use_color(opts.color) {
        Theme::colored()
    } else {
        Theme::plain()
    };
    let mut w = io::BufWriter::with_capacity(64 * 1024, out);
    let result = render::render_human(
        &plan,
        schemas.as_ref(),
        opts.human,
        &theme,
        annotator,
        &mut w,
    )
    .and_then(|()| w.flush());
    match result {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(source) => Err(Error::Io {
            path: PathBuf::from("<stdout>"),
            source,
        }),
    }
}
