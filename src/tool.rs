//! Which tool wrote a document (OpenTofu or Terraform), read from its provider addresses, and
//! what that tool can tell: `--flavor auto` and `--schemas auto`.
//!
//! `--schemas auto` runs `<tool> providers schema -json` in the working directory (the tool
//! that wrote the plan, found on PATH; the other one when it is absent) and caches the answer
//! under `$XDG_CACHE_HOME/carbon-show/schemas/` (else `~/.cache/carbon-show/schemas/`), keyed
//! by the tool's name and the bytes of `.terraform.lock.hcl`. Without a lock file, nothing is
//! cached.

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

/// FNV-1a, 64 bits: a stable cache key (not a security boundary: the cache is the user's).
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.iter().chain(&[0xff]) {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

fn cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))?;
    Some(base.join("carbon-show").join("schemas"))
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

/// `--schemas auto`: the provider schemas of the working directory `dir`, from the cache or
/// from `<tool> providers schema -json`. Errors (exit code 9) name the command that failed.
pub fn auto_schemas(plan: &Plan<'_>, dir: &Path) -> Result<Schemas, Error> {
    let order = match detect(plan) {
        Some(Tool::Terraform) => [Tool::Terraform, Tool::OpenTofu],
        _ => [Tool::OpenTofu, Tool::Terraform],
    };
    let Some(tool) = order.into_iter().find(|t| on_path(t.command())) else {
        return Err(Error::Schema {
            path: PathBuf::from("--schemas auto"),
            message: "neither tofu nor terraform is on PATH".into(),
        });
    };
    let what = PathBuf::from(format!("{} providers schema -json", tool.command()));
    let cached = std::fs::read(dir.join(".terraform.lock.hcl"))
        .ok()
        .and_then(|lock| {
            let key = fnv1a(&[tool.command().as_bytes(), &lock]);
            Some(cache_dir()?.join(format!("{key:016x}.json")))
        });
    if let Some(s) = cached
        .as_ref()
        .and_then(|f| std::fs::read(f).ok())
        .and_then(|bytes| Schemas::parse(&what, &bytes).ok())
    {
        return Ok(s);
    }
    let out = Command::new(tool.command())
        .args(["providers", "schema", "-json"])
        .current_dir(dir)
        .output()
        .map_err(|e| Error::Schema {
            path: what.clone(),
            message: e.to_string(),
        })?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let line = err
            .lines()
            .map(|l| l.trim_matches(|c: char| c.is_whitespace() || c == '│' || c == '╷'))
            .find(|l| !l.is_empty())
            .unwrap_or("failed");
        return Err(Error::Schema {
            path: what,
            message: format!("{} ({})", line, out.status),
        });
    }
    let schemas = Schemas::parse(&what, &out.stdout)?;
    if let Some(file) = cached {
        // A cache that cannot be written is only a slower next run.
        let _ = std::fs::create_dir_all(file.parent().unwrap_or(dir))
            .and_then(|()| std::fs::write(&file, &out.stdout));
    }
    Ok(schemas)
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
    fn cache_key_depends_on_tool_and_lock_file() {
        assert_ne!(fnv1a(&[b"tofu", b"lock"]), fnv1a(&[b"terraform", b"lock"]));
        assert_ne!(fnv1a(&[b"tofu", b"lock"]), fnv1a(&[b"tofu", b"lock2"]));
        assert_ne!(fnv1a(&[b"ab", b"c"]), fnv1a(&[b"a", b"bc"]));
        assert_eq!(fnv1a(&[b"tofu", b"lock"]), fnv1a(&[b"tofu", b"lock"]));
    }
}
