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

/// A fake `terraform` on PATH that prints `schema` and counts its calls in `calls`.
fn fake_tool(dir: &Path, name: &str, schema: &str) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(dir.join("schema.json"), schema).unwrap();
    let script = bin.join(name);
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n[ \"$1 $2 $3\" = \"providers schema -json\" ] || exit 1\necho {name} >> \"{calls}\"\ncat \"{schema}\"\n",
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
    assert_one_line_error(&o, 9, "neither tofu nor terraform is on PATH");
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
    let o = run_in(
        &dir,
        &bin,
        &["--no-carbon", "--schemas", "auto", "plan.json"],
    );
    assert_one_line_error(&o, 9, "terraform providers schema -json");
    assert!(crate::common::stderr(&o).contains("Inconsistent dependency lock file"));
}
