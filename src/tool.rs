//! Which tool wrote a document (OpenTofu or Terraform), read from its provider addresses, and
//! what that tool can tell: `--flavor auto` and `--schemas auto`.
//!
//! `--schemas auto` runs `<tool> providers schema -json` in the working directory (the tool
//! that wrote the plan, found on PATH; the other one when it is absent) and caches the answer
//! in a private folder (0700), `$XDG_CACHE_HOME/carbon-show/schemas/` (else
//! `~/.cache/carbon-show/schemas/`), keyed by SHA-256 over the tool's name, its `version -json`
//! and the bytes of `.terraform.lock.hcl`; what is read back must parse as a schemas document.
//! Without a lock file, nothing is cached. Running the tool starts the provider plugins of
//! `.terraform/`: it never happens implicitly in CI (`terminal_schemas` is for a terminal).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::Error;
use crate::plan::{Plan, StateModule};
use crate::render::Flavor;
use crate::schema::Schemas;

/// The tool a plan or state came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    OpenTofu,
    Terraform,
}

impl Tool {
    /// The command's name on PATH.
    pub fn command(self) -> &'static str {
        match self {
            Tool::OpenTofu => "tofu",
            Tool::Terraform => "terraform",
        }
    }

    pub fn flavor(self) -> Flavor {
        match self {
            Tool::OpenTofu => Flavor::OpenTofu,
            Tool::Terraform => Flavor::Terraform,
        }
    }
}

const OPENTOFU_REGISTRY: &str = "registry.opentofu.org/";
const TERRAFORM_REGISTRY: &str = "registry.terraform.io/";

/// The tool that wrote `plan`, from the registry host of its provider addresses (resource
/// changes, drift, state values and the configuration's provider blocks): any
/// `registry.opentofu.org/…` address means OpenTofu (Terraform never installs from there by
/// default), else any `registry.terraform.io/…` means Terraform. When neither appears (only
/// built-in providers such as `terraform_data`, or no resources at all), Terraform's own
/// top-level `applyable`/`complete` keys (Terraform 1.8 and later; OpenTofu writes neither)
/// mean Terraform; `None` otherwise: the JSON does not tell then.
pub fn detect(plan: &Plan<'_>) -> Option<Tool> {
    let mut names: Vec<&str> = Vec::new();
    for rc in [&plan.resource_changes, &plan.resource_drift]
        .into_iter()
        .flatten()
        .flatten()
    {
        names.push(&rc.provider_name);
    }
    fn walk<'m>(m: &'m StateModule<'_>, names: &mut Vec<&'m str>) {
        names.extend(m.resources.iter().map(|r| r.provider_name.as_ref()));
        for c in &m.child_modules {
            walk(c, names);
        }
    }
    if let Some(v) = &plan.values {
        walk(&v.root_module, &mut names);
    }
    let config = plan.configuration.map(|r| r.get()).unwrap_or("");
    let has = |host: &str| names.iter().any(|n| n.starts_with(host)) || config.contains(host);
    if has(OPENTOFU_REGISTRY) {
        Some(Tool::OpenTofu)
    } else if has(TERRAFORM_REGISTRY) || plan.applyable.is_some() {
        Some(Tool::Terraform)
    } else {
        None
    }
}

/// The flavour `--flavor auto` picks: the detected tool's, else OpenTofu's (carbon-show's
/// first flavour, and the one of a plan whose JSON does not tell).
pub fn auto_flavor(plan: &Plan<'_>) -> Flavor {
    detect(plan).map_or(Flavor::OpenTofu, Tool::flavor)
}

/// The cache key of `--schemas auto`: SHA-256 over the tool's name, what `<tool> version
/// -json` printed and the lock file's bytes, each prefixed by its length. The lock file comes
/// from the repository (a pull request can write any bytes there), so the key must not be one
/// whose collisions can be made: a shared runner's cache keyed on it could otherwise hand one
/// pull request the schemas another one planted.
fn cache_key(tool: &str, version: &[u8], lock: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for part in [
        b"carbon-show schemas v1".as_slice(),
        tool.as_bytes(),
        version,
        lock,
    ] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))
        // Windows: the user's local application data (private to the user by its ACL)
        .or_else(|| {
            cfg!(windows)
                .then(|| std::env::var_os("LOCALAPPDATA"))
                .flatten()
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        })?;
    Some(base.join("carbon-show").join("schemas"))
}

/// The cache folder, created private (0700) when absent; `None` (no caching) when it cannot
/// be made, is a symbolic link, belongs to another user or is open to group or others.
fn private_cache_dir() -> Option<PathBuf> {
    let dir = cache_dir()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&dir)
            .ok()?;
        let meta = std::fs::symlink_metadata(&dir).ok()?;
        // SAFETY: geteuid has no preconditions.
        let me = unsafe { libc::geteuid() };
        if !meta.is_dir() || meta.uid() != me {
            return None;
        }
        if meta.mode() & 0o077 != 0 {
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).ok()?;
        }
    }
    #[cfg(not(unix))]
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir)
}

/// Whether `name` is an executable file in one of PATH's folders.
fn on_path(name: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| {
        std::env::split_paths(&p).any(|d| {
            let f = d.join(name);
            f.is_file()
                && std::fs::metadata(&f).is_ok_and(|m| {
                    #[cfg(unix)]
                    {
                        use std::os::unix::fs::PermissionsExt;
                        m.permissions().mode() & 0o111 != 0
                    }
                    #[cfg(not(unix))]
                    {
                        let _ = m;
                        true
                    }
                })
        })
    })
}

/// Whether `dir` holds a root module's configuration (`*.tf`, `*.tf.json`, `*.tofu`,
/// `*.tofu.json`).
pub fn has_configuration(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            [".tf", ".tf.json", ".tofu", ".tofu.json"]
                .iter()
                .any(|ext| name.ends_with(ext))
                && e.path().is_file()
        })
    })
}

/// Whether `dir` was initialised (`tofu init` / `terraform init`: a `.terraform/` folder or
/// a lock file).
pub fn is_initialised(dir: &Path) -> bool {
    dir.join(".terraform").is_dir() || dir.join(".terraform.lock.hcl").is_file()
}

/// The tool `--schemas auto` runs: the one that wrote the plan, else the other one, if on PATH.
fn tool_on_path(plan: &Plan<'_>) -> Option<Tool> {
    let order = match detect(plan) {
        Some(Tool::Terraform) => [Tool::Terraform, Tool::OpenTofu],
        _ => [Tool::OpenTofu, Tool::Terraform],
    };
    order.into_iter().find(|t| on_path(t.command()))
}

/// Text the tool printed, made safe for a terminal or a CI log: ANSI sequences (CSI, OSC and
/// other escapes) removed, then every other control character (C0 but the line feed, DEL, C1,
/// and the bidirectional overrides) written as `\u{…}`: the output may come from a provider
/// plugin of the repository.
pub fn clean_tool_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            match chars.next() {
                // CSI: parameters and intermediates up to a final byte @..~
                Some('[') => {
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                }
                // OSC, DCS, SOS, PM, APC: up to BEL or ST (ESC \)
                Some(']' | 'P' | 'X' | '^' | '_') => {
                    while let Some(c) = chars.next() {
                        if c == '\u{7}' {
                            break;
                        }
                        if c == '\u{1b}' && chars.peek() == Some(&'\\') {
                            chars.next();
                            break;
                        }
                    }
                }
                // a two-character escape
                Some(_) | None => {}
            }
            continue;
        }
        let bidi = matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        if (c.is_control() && c != '\n') || bidi {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// The tool's own `Error:` block from its stderr (from the first `Error:` line on, cleaned,
/// without the `╷ │ ╵` frame), or its first non-empty line; each line indented by two spaces.
fn error_block(stderr: &[u8]) -> String {
    let text = clean_tool_text(&String::from_utf8_lossy(stderr));
    let lines: Vec<&str> = text
        .lines()
        .map(|l| {
            l.trim_start_matches(['╷', '│', '╵'])
                .strip_prefix(' ')
                .unwrap_or_else(|| l.trim_start_matches(['╷', '│', '╵']))
                .trim_end()
        })
        .collect();
    let from = lines
        .iter()
        .position(|l| l.trim_start().starts_with("Error:"))
        .or_else(|| lines.iter().position(|l| !l.trim().is_empty()));
    let Some(from) = from else {
        return String::new();
    };
    let mut block: Vec<&str> = lines[from..].to_vec();
    while block.last().is_some_and(|l| l.trim().is_empty()) {
        block.pop();
    }
    block
        .iter()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("  {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether the tool's error says the folder was not initialised (or not since a change).
fn needs_init(stderr: &[u8]) -> bool {
    let text = String::from_utf8_lossy(stderr);
    [
        "terraform init",
        "tofu init",
        "Inconsistent dependency lock file",
        "Required plugins are not installed",
        "Missing required provider",
        "Module not installed",
        "Backend initialization required",
        "plugins are not installed",
    ]
    .iter()
    .any(|needle| text.contains(needle))
}

/// Parses what `providers schema -json` printed (or a cache file): a schemas document, which
/// must say its `format_version`.
fn parse_schemas(what: &Path, bytes: &[u8]) -> Result<Schemas, Error> {
    let schemas = Schemas::parse(what, bytes)?;
    if schemas.format_version.is_none() {
        return Err(Error::Schema {
            path: what.to_path_buf(),
            message: "not a `providers schema -json` document (no format_version)".into(),
        });
    }
    Ok(schemas)
}

/// `--schemas auto`: the provider schemas of the working directory `dir`, from the cache or
/// from `<tool> providers schema -json`. Failures are [`Error::SchemasAuto`] (exit code 11):
/// no tool on PATH, no configuration in `dir`, or the tool's own `Error:` block (with "run
/// `… init` first" when that is the cause).
pub fn auto_schemas(plan: &Plan<'_>, dir: &Path) -> Result<Schemas, Error> {
    let Some(tool) = tool_on_path(plan) else {
        return Err(Error::SchemasAuto(
            "neither tofu nor terraform is on PATH: install the tool that wrote the plan, or \
             pass --schemas FILE (saved from `tofu providers schema -json`)"
                .into(),
        ));
    };
    let shown = clean_tool_text(&dir.display().to_string());
    if !has_configuration(dir) {
        return Err(Error::SchemasAuto(format!(
            "{shown} has no OpenTofu or Terraform configuration (*.tf): run carbon-show in \
             the root module's folder, or pass --schemas FILE"
        )));
    }
    let what = PathBuf::from(format!("{} providers schema -json", tool.command()));
    let cached = cache_file(tool, dir);
    if let Some(s) = cached
        .as_ref()
        .and_then(|f| std::fs::read(f).ok())
        .and_then(|bytes| parse_schemas(&what, &bytes).ok())
    {
        return Ok(s);
    }
    let out = Command::new(tool.command())
        .args(["providers", "schema", "-json"])
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| Error::SchemasAuto(format!("`{}` could not start: {e}", what.display())))?;
    if !out.status.success() {
        let (me, other) = match tool {
            Tool::OpenTofu => ("tofu", "terraform"),
            Tool::Terraform => ("terraform", "tofu"),
        };
        let hint = if needs_init(&out.stderr) {
            format!("; run `{me} init` (or {other} init) first")
        } else {
            String::new()
        };
        let block = error_block(&out.stderr);
        return Err(Error::SchemasAuto(format!(
            "`{}` failed in {shown} ({}){hint}{}{block}",
            what.display(),
            out.status,
            if block.is_empty() { "" } else { ":\n" },
        )));
    }
    let schemas = parse_schemas(&what, &out.stdout)?;
    if let Some(file) = cached {
        write_cache(&file, &out.stdout);
    }
    Ok(schemas)
}

/// The cache file for `dir`'s lock file under `tool` and its version; `None` (no caching)
/// without a lock file, a version, or a private cache folder.
fn cache_file(tool: Tool, dir: &Path) -> Option<PathBuf> {
    let lock = std::fs::read(dir.join(".terraform.lock.hcl")).ok()?;
    let version = Command::new(tool.command())
        .args(["version", "-json"])
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())?
        .stdout;
    let key = cache_key(tool.command(), &version, &lock);
    Some(private_cache_dir()?.join(format!("{key}.json")))
}

/// Writes a cache file (0600) through a temporary file renamed into place; a cache that
/// cannot be written is only a slower next run.
fn write_cache(file: &Path, bytes: &[u8]) {
    let tmp = file.with_extension(format!("tmp{}", std::process::id()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options
        .open(&tmp)
        .and_then(|mut f| std::io::Write::write_all(&mut f, bytes))
        .and_then(|()| std::fs::rename(&tmp, file));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// Whether the document has a resource of a provider other than the built-in one (whose
/// schema is embedded): only then can a missing schema change the text.
fn needs_provider_schemas(plan: &Plan<'_>) -> bool {
    let builtin = |p: &str| p == crate::schema::BUILTIN_PROVIDER || p == "terraform";
    let changes = [&plan.resource_changes, &plan.resource_drift]
        .into_iter()
        .flatten()
        .flatten()
        .any(|rc| !builtin(&rc.provider_name));
    let mut stack: Vec<&StateModule<'_>> = plan.values.iter().map(|v| &v.root_module).collect();
    let mut state = false;
    while let Some(m) = stack.pop() {
        state |= m.resources.iter().any(|r| !builtin(&r.provider_name));
        stack.extend(m.child_modules.iter());
    }
    changes || state
}

/// No `--schemas`, stdout a terminal, not in CI ([`crate::cli::SchemaSource::Terminal`]): in an
/// initialised root with the tool on PATH, the schemas `--schemas auto` gets, with a note on
/// `note`; otherwise (or when that fails) `None`, with one line saying that blocks may be
/// shown as attributes and how to fix it. Nothing is written for a document of built-in
/// resources only (their schema is embedded).
pub fn terminal_schemas(
    plan: &Plan<'_>,
    dir: &Path,
    note: &mut dyn std::io::Write,
) -> Option<Schemas> {
    if !needs_provider_schemas(plan) {
        return None;
    }
    const FIX: &str = "run carbon-show in the root module's folder after `tofu init` (or \
                       terraform init), or pass --schemas FILE";
    let why = match tool_on_path(plan) {
        None => "neither tofu nor terraform is on PATH".to_string(),
        Some(_) if !has_configuration(dir) || !is_initialised(dir) => {
            "this folder is not an initialised root module".to_string()
        }
        Some(tool) => match auto_schemas(plan, dir) {
            Ok(schemas) => {
                let _ = writeln!(
                    note,
                    "carbon-show: note: provider schemas from `{} providers schema -json` in \
                     this folder (as --schemas auto; --schemas FILE to choose)",
                    tool.command()
                );
                return Some(schemas);
            }
            Err(e) => {
                let text = e.to_string();
                let first = text.lines().next().unwrap_or("").trim_end_matches(':');
                first.to_string()
            }
        },
    };
    let _ = writeln!(
        note,
        "carbon-show: note: no provider schemas ({why}): nested blocks may be shown as \
         attributes; {FIX}"
    );
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan_of(json: &str) -> Option<Tool> {
        let plan = crate::plan::parse(Path::new("t.json"), json.as_bytes()).unwrap();
        detect(&plan)
    }

    #[test]
    fn detects_the_tool_from_provider_addresses() {
        let rc = |p: &str| {
            format!(
                r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.b","mode":"managed","type":"a","name":"b","provider_name":"{p}","change":{{"actions":["create"],"before":null,"after":{{}},"after_unknown":{{}}}}}}]}}"#
            )
        };
        assert_eq!(
            plan_of(&rc("registry.opentofu.org/hashicorp/aws")),
            Some(Tool::OpenTofu)
        );
        assert_eq!(
            plan_of(&rc("registry.terraform.io/hashicorp/aws")),
            Some(Tool::Terraform)
        );
        assert_eq!(plan_of(&rc("terraform.io/builtin/terraform")), None);
        // the configuration's provider blocks tell when no resource does
        let cfg = r#"{"format_version":"1.2","configuration":{"provider_config":{"aws":{"name":"aws","full_name":"registry.opentofu.org/hashicorp/aws"}}}}"#;
        assert_eq!(plan_of(cfg), Some(Tool::OpenTofu));
        // a state document's resources
        let state = r#"{"format_version":"1.0","values":{"root_module":{"child_modules":[{"resources":[{"address":"a.b","mode":"managed","type":"a","name":"b","provider_name":"registry.terraform.io/x/y","values":{}}]}]}}}"#;
        assert_eq!(plan_of(state), Some(Tool::Terraform));
        assert_eq!(plan_of(r#"{"format_version":"1.2"}"#), None);
    }

    #[test]
    fn cache_key_is_sha256_of_tool_version_and_lock_file() {
        let k = cache_key("tofu", b"v1", b"lock");
        assert_eq!(k.len(), 64);
        assert!(k.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(k, cache_key("terraform", b"v1", b"lock"));
        assert_ne!(k, cache_key("tofu", b"v2", b"lock"));
        assert_ne!(k, cache_key("tofu", b"v1", b"lock2"));
        // parts are length-prefixed: moving bytes from one part to the next changes the key
        assert_ne!(cache_key("tofu", b"v1l", b"ock"), k);
        assert_eq!(k, cache_key("tofu", b"v1", b"lock"));
    }

    #[test]
    fn tool_text_loses_ansi_and_escapes_controls() {
        let raw =
            "\x1b[31m\u{256d}\x1b[0m Error: x\x1b]52;c;ZXZpbA==\x07 y\r\u{202e}z\x07\x1bP1\x1b\\\n";
        assert_eq!(
            clean_tool_text(raw),
            "\u{256d} Error: x y\\u{d}\\u{202e}z\\u{7}\n"
        );
    }

    #[test]
    fn the_error_block_is_the_tools_own_without_its_frame() {
        let stderr = "\x1b[31m\u{2577}\x1b[0m\x1b[0m\n\x1b[31m\u{2502}\x1b[0m \x1b[1m\x1b[31mError: \x1b[0m\x1b[0m\x1b[1mInconsistent dependency lock file\x1b[0m\n\x1b[31m\u{2502}\x1b[0m \n\x1b[31m\u{2502}\x1b[0m run \"terraform init\".\n\x1b[31m\u{2575}\x1b[0m\n";
        assert_eq!(
            error_block(stderr.as_bytes()),
            "  Error: Inconsistent dependency lock file\n\n  run \"terraform init\"."
        );
        assert!(needs_init(stderr.as_bytes()));
        assert!(!needs_init(b"Error: Failed to load plugin schemas"));
    }
}
