//! Errors of the library and the process exit code each one maps to.

use std::path::PathBuf;

/// Exit codes of the `carbon-show` binary. Documented in README.md; never renumber one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum ExitCode {
    /// Everything was rendered.
    Ok = 0,
    /// A bug: an error that should not happen.
    Internal = 1,
    /// Bad command-line usage (clap's own code).
    Usage = 2,
    /// `--fail-over`: the plan adds more emissions than allowed.
    OverBudget = 3,
    /// The input file (or stdin) could not be read.
    Io = 4,
    /// The input is not well-formed JSON (malformed, truncated, too deeply nested).
    Json = 5,
    /// The document's `format_version` is not one we read (2.0 and later).
    FormatVersion = 6,
    /// Well-formed JSON, but not a plan or state document.
    NotAPlan = 7,
    /// A mapping file (or a data file it references) is broken.
    Mapping = 8,
    /// The `--schemas` document is broken.
    Schema = 9,
    /// The configuration (`.carbon-show.toml`, `--config`, a `CARBON_SHOW_*` variable) is bad.
    Config = 10,
    /// `--schemas auto` could not get the schemas: no tool on PATH, no configuration in the
    /// folder, or `providers schema -json` failed (not initialised, …).
    SchemasAuto = 11,
}

/// Every failure the library reports. Each renders as one line naming the place.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: invalid JSON at line {line}, column {column}: {message}")]
    Json {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{path}: unsupported format_version {version:?}: carbon-show reads 0.x and 1.x")]
    FormatVersion { path: PathBuf, version: String },
    #[error("{path}: not a plan or state document: {message}")]
    NotAPlan { path: PathBuf, message: String },
    #[error("{0}")]
    Mapping(String),
    #[error("{path}: invalid provider schemas: {message}")]
    Schema { path: PathBuf, message: String },
    /// `--schemas auto` failed; the message may end with the tool's own `Error:` block.
    #[error("--schemas auto: {0}")]
    SchemasAuto(String),
    #[error("{0}")]
    OverBudget(String),
    /// `file:line: message`, or `environment variable NAME: message`.
    #[error("{0}")]
    Config(String),
    /// Bad usage found after parsing the flags (a terminal on stdin, a forgotten address).
    #[error("{0}")]
    Usage(String),
    /// `hint`: empty, or `; …` naming the addresses meant (`worker[0]`, `worker[1]`).
    #[error("{path}: no resource {address:?} with carbon figures in this document{hint}")]
    NoSuchResource {
        path: PathBuf,
        address: String,
        hint: String,
    },
}

impl Error {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Error::Io { .. } => ExitCode::Io,
            Error::Json { .. } => ExitCode::Json,
            Error::FormatVersion { .. } => ExitCode::FormatVersion,
            Error::NotAPlan { .. } => ExitCode::NotAPlan,
            Error::Mapping(_) => ExitCode::Mapping,
            Error::Schema { .. } => ExitCode::Schema,
            Error::SchemasAuto(_) => ExitCode::SchemasAuto,
            Error::OverBudget(_) => ExitCode::OverBudget,
            Error::Config(_) => ExitCode::Config,
            Error::Usage(_) => ExitCode::Usage,
            // `explain ADDRESS`: an address the document does not have is bad usage
            Error::NoSuchResource { .. } => ExitCode::Usage,
        }
    }
}
