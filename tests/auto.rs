//! `--flavor auto` (the default), `--schemas auto` and the embedded built-in provider schema.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::{assert_one_line_error, render, stdout};

/// A plan creating one resource of `type_` from `provider` with `after` values.
fn plan(provider: &str, type_: &str, after: &str) -> String {
    format!(
        r#"{{"format_version":"1.2","resource_changes":[{{"address":"{type_}.x","mode":"managed","type":"{type_}","name":"x","provider_name":"{provider}","change":{{"actions":["create"],"before":null,"after":{after},"after_unknown":{{}},"before_sensitive":false,"after_sensitive":{{}}}}}}]}}"#
    )
}

const TOFU_WORDING: &str = "OpenTofu used the selected providers";
const TF_WORDING: &str = "Terraform used the selected providers";

#[test]
fn flavor_auto_follows_the_registry_of_provider_addresses() {
    let tf = plan("registry.terraform.io/hashicorp/aws", "aws_s3_bucket", "{}");
    let tofu = plan("registry.opentofu.org/hashicorp/aws", "aws_s3_bucket", "{}");
    let builtin = plan("terraform.io/builtin/terraform", "terraform_data", "{}");
    let out = stdout(&render(&tf, &["--no-carbon"]));
    assert!(out.contains(TF_WORDING), "{out}");
    let out = stdout(&render(&tofu, &["--no-carbon"]));
    assert!(out.contains(TOFU_WORDING), "{out}");
    // neither registry appears: OpenTofu, the documented fallback
    let out = stdout(&render(&builtin, &["--no-carbon"]));
    assert!(out.contains(TOFU_WORDING), "{out}");
    // an explicit flag wins
    let out = stdout(&render(&tf, &["--no-carbon", "--flavor", "opentofu"]));
    assert!(out.contains(TOFU_WORDING), "{out}");
    let out = stdout(&render(&tofu, &["--no-carbon", "--flavor", "terraform"]));
    assert!(out.contains(TF_WORDING), "{out}");
}

/// Regression: without --schemas, a list of objects given to `terraform_data.input` was read as
/// a nested block; the embedded built-in schema says it is a dynamic attribute.
#[test]
fn builtin_schema_is_used_without_schemas() {
    let doc = plan(
        "terraform.io/builtin/terraform",
        "terraform_data",
        r#"{"input":[{"a":"b"}],"triggers_replace":null}"#,
    );
    let out = stdout(&render(&doc, &["--no-carbon"]));
    assert!(out.contains("+ input = [\n"), "{out}");
    assert!(!out.contains("+ input {"), "{out}");
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("auto-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs carbon-show in `dir` with `path` first on PATH (alone when `only`) and the cache under
/// `dir/cache`.
fn run_in(dir: &Path, path: &Path, args: &[&str]) -> Output {
    run_with_path(dir, path, args, false)
}

fn run_with_path(dir: &Path, path: &Path, args: &[&str], only: bool) -> Output {
    let mut paths = vec![path.to_path_buf()];
    if !only {
        paths.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
    }
    Command::new(env!("CARGO_BIN_EXE_carbon-show"))
        .args(args)
        .current_dir(dir)
        .env("PATH", std::env::join_paths(paths).unwrap())
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::null())
        .output()
        .expect("run carbon-show")
}

/// A fake `terraform` on PATH that prints `schema` and counts its calls in `calls`; its
/// `version -json` prints the contents of `dir/version` (1.15.5 when absent). The folder gets a
/// `main.tf`: `--schemas auto` wants a root module.
fn fake_tool(dir: &Path, name: &str, schema: &str) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(dir.join("schema.json"), schema).unwrap();
    std::fs::write(dir.join("main.tf"), "").unwrap();
    let script = bin.join(name);
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nif [ \"$1 $2\" = \"version -json\" ]; then cat \"{version}\" 2>/dev/null || echo '{{\"terraform_version\":\"1.15.5\"}}'; exit 0; fi\n[ \"$1 $2 $3\" = \"providers schema -json\" ] || exit 1\necho {name} >> \"{calls}\"\ncat \"{schema}\"\n",
            version = dir.join("version").display(),
            calls = dir.join("calls").display(),
            schema = dir.join("schema.json").display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

fn calls(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("calls")).unwrap_or_default()
}

#[cfg(unix)]
#[test]
fn schemas_auto_runs_the_tool_that_wrote_the_plan_and_caches_by_lock_file() {
    let dir = scratch("schemas");
    // `rules` holds a list of objects: a nested block to the heuristic, an attribute here.
    let schema = r#"{"format_version":"1.0","provider_schemas":{"registry.terraform.io/acme/x":{"resource_schemas":{"x_thing":{"block":{"attributes":{"rules":{"type":["list",["object",{"port":"number"}]],"optional":true}}}}}}}}"#;
    let bin = fake_tool(&dir, "terraform", schema);
    let doc = plan(
        "registry.terraform.io/acme/x",
        "x_thing",
        r#"{"rules":[{"port":22}]}"#,
    );
    std::fs::write(dir.join("plan.json"), &doc).unwrap();
    std::fs::write(dir.join(".terraform.lock.hcl"), "# lock v1\n").unwrap();
    let args = [
        "--no-carbon",
        "--color",
        "never",
        "--schemas",
        "auto",
        "plan.json",
    ];

    let without = run_in(
        &dir,
        &bin,
        &["--no-carbon", "--color", "never", "plan.json"],
    );
    assert!(
        stdout(&without).contains("+ rules {"),
        "{}",
        stdout(&without)
    );

    let first = run_in(&dir, &bin, &args);
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    assert!(
        stdout(&first).contains("+ rules = [\n"),
        "{}",
        stdout(&first)
    );
    assert_eq!(calls(&dir), "terraform\n");
    // cached: the same lock file, no second call, the same output
    let second = run_in(&dir, &bin, &args);
    assert_eq!(stdout(&second), stdout(&first));
    assert_eq!(calls(&dir), "terraform\n");
    // a new lock file is a new key
    std::fs::write(dir.join(".terraform.lock.hcl"), "# lock v2\n").unwrap();
    let third = run_in(&dir, &bin, &args);
    assert_eq!(stdout(&third), stdout(&first));
    assert_eq!(calls(&dir), "terraform\nterraform\n");
}

#[cfg(unix)]
#[test]
fn schemas_auto_prefers_tofu_for_an_opentofu_plan() {
    let dir = scratch("tofu");
    let schema = r#"{"format_version":"1.0","provider_schemas":{}}"#;
    let bin = fake_tool(&dir, "tofu", schema);
    fake_tool(&dir, "terraform", schema);
    let doc = plan("registry.opentofu.org/acme/x", "x_thing", "{}");
    std::fs::write(dir.join("plan.json"), &doc).unwrap();
    let o = run_in(
        &dir,
        &bin,
        &["--no-carbon", "--schemas", "auto", "plan.json"],
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(calls(&dir), "tofu\n");
}

#[test]
fn schemas_auto_without_a_tool_is_a_one_line_error() {
    let dir = scratch("none");
    let doc = plan("registry.terraform.io/acme/x", "x_thing", "{}");
    std::fs::write(dir.join("plan.json"), &doc).unwrap();
    let empty = dir.join("empty-bin");
    std::fs::create_dir_all(&empty).unwrap();
    let o = run_with_path(
        &dir,
        &empty,
        &["--no-carbon", "--schemas", "auto", "plan.json"],
        true,
    );
    assert_one_line_error(&o, 11, "neither tofu nor terraform is on PATH");
}

#[cfg(unix)]
#[test]
fn schemas_auto_names_the_failing_command() {
    let dir = scratch("fails");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = bin.join("terraform");
    std::fs::write(
        &script,
        "#!/bin/sh\necho 'Error: Inconsistent dependency lock file' >&2\nexit 1\n",
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let doc = plan("registry.terraform.io/acme/x", "x_thing", "{}");
    std::fs::write(dir.join("plan.json"), &doc).unwrap();
    std::fs::write(dir.join("main.tf"), "").unwrap();
    let o = run_in(
        &dir,
        &bin,
        &["--no-carbon", "--schemas", "auto", "plan.json"],
    );
    let err = crate::common::stderr(&o);
    assert_eq!(o.status.code(), Some(11), "{err}");
    assert!(
        err.starts_with(
            "carbon-show: --schemas auto: `terraform providers schema -json` failed in "
        ),
        "{err}"
    );
    assert!(
        err.contains("\ncarbon-show:   Error: Inconsistent dependency lock file\n"),
        "{err}"
    );
}

/// A fake `terraform` whose `providers schema -json` fails with `stderr` (exit 1).
#[cfg(unix)]
fn failing_tool(dir: &Path, stderr: &str) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(dir.join("stderr.txt"), stderr).unwrap();
    let script = bin.join("terraform");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat \"{}\" >&2\nexit 1\n",
            dir.join("stderr.txt").display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

/// Terraform 1.11.4's own words in a folder that was never initialised, with its colours.
const NOT_INITIALISED: &str = "\x1b[31m\u{2577}\x1b[0m\x1b[0m\n\x1b[31m\u{2502}\x1b[0m \x1b[1m\x1b[31mError: \x1b[0m\x1b[0m\x1b[1mInconsistent dependency lock file\x1b[0m\n\x1b[31m\u{2502}\x1b[0m \x1b[0m\n\x1b[31m\u{2502}\x1b[0m \x1b[0mThe following dependency selections recorded in the lock file are\n\x1b[31m\u{2502}\x1b[0m \x1b[0minconsistent with the current configuration:\n\x1b[31m\u{2502}\x1b[0m \x1b[0m  - provider registry.terraform.io/hashicorp/aws: required by this configuration but no version is selected\n\x1b[31m\u{2502}\x1b[0m \x1b[0m\n\x1b[31m\u{2502}\x1b[0m \x1b[0mTo make the initial dependency selections that will initialize the\n\x1b[31m\u{2502}\x1b[0m \x1b[0mdependency lock file, run:\n\x1b[31m\u{2502}\x1b[0m \x1b[0m  terraform init\n\x1b[31m\u{2575}\x1b[0m\x1b[0m\n";

#[cfg(unix)]
#[test]
fn schemas_auto_without_init_printed_an_ansi_fragment_with_the_broken_file_exit_code() {
    // Was: `invalid provider schemas: ESC[31m╷ESC[0m (exit status: 1)`, exit 9.
    let dir = scratch("not-initialised");
    let bin = failing_tool(&dir, NOT_INITIALISED);
    std::fs::write(dir.join("main.tf"), "").unwrap();
    let doc = plan("registry.terraform.io/hashicorp/aws", "aws_instance", "{}");
    std::fs::write(dir.join("plan.json"), &doc).unwrap();
    let o = run_in(
        &dir,
        &bin,
        &["--no-carbon", "--schemas", "auto", "plan.json"],
    );
    let err = crate::common::stderr(&o);
    assert_eq!(o.status.code(), Some(11), "{err}");
    assert!(
        !err.contains('\x1b') && !err.contains('╷') && !err.contains('│'),
        "{err:?}"
    );
    let first = err.lines().next().unwrap();
    assert!(
        first.ends_with("(exit status: 1); run `terraform init` (or tofu init) first:"),
        "{first}"
    );
    assert!(
        err.contains(
            "\ncarbon-show:   Error: Inconsistent dependency lock file\ncarbon-show:\ncarbon-show:   The following dependency selections"
        ),
        "{err}"
    );
    assert!(
        err.ends_with("\ncarbon-show:     terraform init\n"),
        "{err:?}"
    );
    assert!(
        !stdout(&o).contains("Terraform will perform"),
        "nothing rendered after the error"
    );
}

#[cfg(unix)]
#[test]
fn schemas_auto_passed_the_tools_control_characters_to_the_terminal() {
    // The tool's stderr can come from a provider plugin of the repository.
    let dir = scratch("controls");
    let bin = failing_tool(
        &dir,
        "Error: bad \x1b]52;c;ZXZpbA==\x07clipboard\r\u{202e}evil\x1b[2J\n::error::x\n",
    );
    std::fs::write(dir.join("main.tf"), "").unwrap();
    let doc = plan("registry.terraform.io/hashicorp/aws", "aws_instance", "{}");
    std::fs::write(dir.join("plan.json"), &doc).unwrap();
    let o = run_in(
        &dir,
        &bin,
        &["--no-carbon", "--schemas", "auto", "plan.json"],
    );
    let err = crate::common::stderr(&o);
    assert_eq!(o.status.code(), Some(11), "{err}");
    assert!(
        !err.chars()
            .any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'),
        "{err:?}"
    );
    assert!(
        err.contains("Error: bad clipboard\\u{d}\\u{202e}evil\n"),
        "{err:?}"
    );
    // every line of the tool's text is under carbon-show's prefix: none can start a workflow
    // command, even with its indentation trimmed
    assert!(
        err.lines().all(|l| l.starts_with("carbon-show:")),
        "{err:?}"
    );
}

#[cfg(unix)]
#[test]
fn schemas_auto_in_a_folder_without_configuration_silently_used_nothing() {
    // `terraform providers schema -json` there prints `{"format_version":"1.0"}`: no schema.
    let dir = scratch("no-configuration");
    let bin = fake_tool(&dir, "terraform", r#"{"format_version":"1.0"}"#);
    std::fs::remove_file(dir.join("main.tf")).unwrap();
    let doc = plan("registry.terraform.io/hashicorp/aws", "aws_instance", "{}");
    std::fs::write(dir.join("plan.json"), &doc).unwrap();
    let o = run_in(
        &dir,
        &bin,
        &["--no-carbon", "--schemas", "auto", "plan.json"],
    );
    assert_one_line_error(&o, 11, "has no OpenTofu or Terraform configuration (*.tf)");
    assert_eq!(calls(&dir), "", "the tool was not run");
}

#[cfg(unix)]
#[test]
fn schemas_auto_cached_under_a_non_cryptographic_hash_in_a_shared_folder() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("cache-key");
    let schema = r#"{"format_version":"1.0","provider_schemas":{}}"#;
    let bin = fake_tool(&dir, "terraform", schema);
    std::fs::write(
        dir.join("plan.json"),
        plan("registry.terraform.io/acme/x", "x_thing", "{}"),
    )
    .unwrap();
    std::fs::write(dir.join(".terraform.lock.hcl"), "# lock\n").unwrap();
    let args = ["--no-carbon", "--schemas", "auto", "plan.json"];
    let cache = dir.join("cache/carbon-show/schemas");
    assert_eq!(run_in(&dir, &bin, &args).status.code(), Some(0));
    let files: Vec<PathBuf> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.len() == 64 + 5
            && name[..64].bytes().all(|b| b.is_ascii_hexdigit())
            && name.ends_with(".json"),
        "a SHA-256 key: {name}"
    );
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&cache), 0o700, "the cache folder is private");
    assert_eq!(mode(&files[0]), 0o600);
    assert_eq!(run_in(&dir, &bin, &args).status.code(), Some(0));
    assert_eq!(calls(&dir), "terraform\n", "second run from the cache");
    // a cache file that is not a schemas document is not used
    std::fs::write(&files[0], "{}").unwrap();
    assert_eq!(run_in(&dir, &bin, &args).status.code(), Some(0));
    assert_eq!(
        calls(&dir),
        "terraform\nterraform\n",
        "what was read back was checked"
    );
    // another version of the tool is another key
    std::fs::write(dir.join("version"), r#"{"terraform_version":"1.6.6"}"#).unwrap();
    assert_eq!(run_in(&dir, &bin, &args).status.code(), Some(0));
    assert_eq!(calls(&dir), "terraform\nterraform\nterraform\n");
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 2);
    // a cache folder open to others is made private again before use
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o777)).unwrap();
    assert_eq!(run_in(&dir, &bin, &args).status.code(), Some(0));
    assert_eq!(mode(&cache), 0o700);
}

#[cfg(unix)]
#[test]
fn schemas_are_never_fetched_implicitly_when_stdout_is_not_a_terminal() {
    let dir = scratch("implicit-pipe");
    let schema = r#"{"format_version":"1.0","provider_schemas":{}}"#;
    let bin = fake_tool(&dir, "terraform", schema);
    std::fs::create_dir_all(dir.join(".terraform")).unwrap();
    std::fs::write(
        dir.join("plan.json"),
        plan("registry.terraform.io/acme/x", "x_thing", "{}"),
    )
    .unwrap();
    let o = run_in(&dir, &bin, &["--no-carbon", "plan.json"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(calls(&dir), "", "nothing ran");
    assert_eq!(crate::common::stderr(&o), "", "no note either");
}
