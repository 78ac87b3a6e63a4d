//! Hostile mapping files and data folders: every one ends with exit 8 and one line naming the
//! mapping file:line and the resource, within its budget (issues 14 and 15).

use crate::common::{bin, stderr};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn plan() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/security/one-instance.json")
}

/// A mapping folder whose `aws_instance` machine type is `filter`.
fn mapping_dir(name: &str, filter: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("carbon-show-sec-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("aws")).unwrap();
    let yaml = format!(
        "compute_resource:\n  aws_instance:\n    paths: cbf::all_select(\"type\"; \"aws_instance\")\n    type: resource\n    properties:\n      machine_type:\n        - paths: '{}'\n",
        filter.replace('\'', "''")
    );
    std::fs::write(dir.join("aws/hostile.yaml"), yaml).unwrap();
    dir
}

/// Runs a show with the hostile mapping under a 1 s budget: exit 8, one line naming the
/// mapping's place and the resource, well within the budget plus start-up.
fn assert_stopped(name: &str, filter: &str, needle: &str) {
    assert_stopped_within(name, filter, needle, 1);
}

/// [`assert_stopped`] under a time budget of `secs` seconds: a test of another limit (the
/// stack) gives the filter time enough to reach it on a loaded machine, where a debug build can
/// spend over a second recursing before the guard trips.
fn assert_stopped_within(name: &str, filter: &str, needle: &str, secs: u64) {
    let dir = mapping_dir(name, filter);
    let t = Instant::now();
    let budget = format!("{secs}s");
    let o = bin()
        .arg("--mappings")
        .arg(&dir)
        .args(["--mapping-budget", &budget, "--format", "json"])
        .arg(plan())
        .output()
        .unwrap();
    let took = t.elapsed();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(8), "{name}: {err}");
    assert_eq!(err.lines().count(), 1, "{name}: one line: {err:?}");
    assert!(err.contains("hostile.yaml:7"), "{name}: {err}");
    assert!(err.contains(needle), "{name}: {needle:?} not in {err}");
    assert!(o.stdout.is_empty(), "{name}: nothing is half printed");
    assert!(
        took < Duration::from_secs(20 + secs),
        "{name}: took {took:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_filter_that_never_ends_hung_the_run() {
    assert_stopped(
        "loop",
        "def f: f; f",
        "time budget of 1s on aws_instance.web",
    );
}

#[test]
fn deep_jq_recursion_aborted_with_a_stack_overflow() {
    // the stack guard, not the clock, must stop it: under load a debug build took over the 1 s
    // budget before it recursed deep enough, and the test saw "time budget" instead
    assert_stopped_within(
        "recursion",
        "def f(n): if n == 0 then 0 else f(n-1) + 1 end; f(1e6)",
        "recursed too deep (stack overflow) on aws_instance.web",
        60,
    );
}

#[test]
fn fromjson_of_a_deep_string_aborted_with_a_stack_overflow() {
    assert_stopped(
        "fromjson",
        r#""[" * 100000 | fromjson"#,
        "on aws_instance.web",
    );
}

#[test]
fn a_deeply_nested_value_aborted_with_a_stack_overflow() {
    assert_stopped(
        "nested",
        "reduce range(1e6) as $i (null; [.])",
        "on aws_instance.web",
    );
}

#[test]
fn filters_that_grow_memory_without_bound_are_stopped() {
    for (name, f) in [
        ("range", "[range(1e9)] | length"),
        ("repeat", "[limit(1e9; repeat(1))]"),
        ("closures", "def f(g): f(g|g); f(.)"),
        ("doubling", r#"reduce range(64) as $i ("a"; .+.)"#),
    ] {
        assert_stopped(name, f, "budget");
    }
}

#[test]
fn a_memory_budget_stops_a_doubling_string() {
    let dir = mapping_dir("membudget", r#"reduce range(64) as $i ("a"; .+.)"#);
    let o = bin()
        .arg("--mappings")
        .arg(&dir)
        .args(["--mapping-budget", "30s,64MB"])
        .arg(plan())
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(8), "{err}");
    assert!(
        err.contains("memory budget of 64 MiB on aws_instance.web"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs a show and `mappings check` with a mapping whose machine type is `filter` (and `secret`
/// in the environment): both stop with exit 8 naming `hostile.yaml:7` and the name as not
/// available to a mapping, and the secret appears nowhere.
fn assert_not_available(name: &str, filter: &str, secret: &str) {
    let dir = mapping_dir(name, filter);
    let o = bin()
        .env("GITHUB_TOKEN", secret)
        .arg("--mappings")
        .arg(&dir)
        .args(["--format", "markdown"])
        .arg(plan())
        .output()
        .unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(
        !out.contains(secret) && !err.contains(secret),
        "{name}: leaked"
    );
    assert_eq!(o.status.code(), Some(8), "{name}: {err}");
    assert!(err.contains("hostile.yaml:7:"), "{name}: {err}");
    assert!(
        err.contains("is not available to a mapping"),
        "{name}: {err}"
    );
    let o = bin()
        .env("GITHUB_TOKEN", secret)
        .args(["mappings", "check"])
        .arg(&dir)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(8), "{name}: {out}");
    assert!(out.contains("hostile.yaml:7:"), "{name}: {out}");
    assert!(
        out.contains("is not available to a mapping"),
        "{name}: {out}"
    );
    assert!(!out.contains("0 error"), "{name}: {out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn halt_ended_the_process_silently_with_exit_0() {
    for (name, f) in [
        ("halt", "halt"),
        ("halt_error", "halt_error(0)"),
        ("halt_error5", r#""x" | halt_error(5)"#),
        ("input", "input"),
        ("env", "env.HOME"),
        ("dollar_env", "$ENV.HOME"),
    ] {
        assert_not_available(name, f, "not-a-secret-here");
    }
}

/// Issue 24: the filter-text check missed spellings such as a slice bound (`[][env:]`), and a
/// pull request's mapping folder printed the job's environment (tokens, cloud keys) into the
/// comment. The functions that reach outside the document are now not defined at all.
#[test]
fn a_slice_spelling_of_env_leaked_the_environment() {
    for (name, f) in [
        ("slice", "[][env:] | tostring"),
        ("slice_end", "[][:env] | tostring"),
        ("interpolation", r#""\(env)""#),
        ("def", "def e: env; e | tostring"),
        ("paren", "(env) | tostring"),
        ("key", "{(env | tostring): 1} | keys[0]"),
        ("now", "now | tostring"),
        ("localtime", "0 | localtime | tostring"),
        ("debug", "\"x\" | debug"),
        ("stderr", "\"x\" | stderr"),
        ("inputs", "[inputs] | tostring"),
    ] {
        assert_not_available(&format!("sandbox-{name}"), f, "ghp_s3cr3t-token-issue-24");
    }
}

/// jq's module and data imports can name any file; only the in-memory `cbf` module exists.
#[test]
fn imports_cannot_read_files() {
    for (name, f) in [
        (
            "import_data",
            r#"import "/etc/passwd" as $p; $p | tostring"#,
        ),
        ("import_module", r#"import "../../etc/x" as m; m::f"#),
        ("include", r#"include "/etc/passwd"; ."#),
    ] {
        let dir = mapping_dir(&format!("import-{name}"), f);
        let o = bin()
            .args(["mappings", "check"])
            .arg(&dir)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(8), "{name}: {out}");
        assert!(out.contains("hostile.yaml:7:"), "{name}: {out}");
        assert!(!out.contains("root:"), "{name}: {out}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn field_names_like_input_and_env_are_not_flagged() {
    let dir = mapping_dir(
        "fields",
        r#".values.input // .values.env // {input: 1, "env": 2}.env"#,
    );
    let o = bin()
        .arg("--mappings")
        .arg(&dir)
        .arg(plan())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_mapping_budget_is_a_usage_error() {
    let o = bin()
        .args(["--mapping-budget", "fast"])
        .arg(plan())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// The one-instance plan with `instance_type` set to `value`, marked sensitive by the plan
/// (`mask`) or not, with a sensitive tag `tag`.
fn plan_with(value: &str, mask: bool, format_version: &str, tag: Option<&str>) -> String {
    let text = std::fs::read_to_string(plan()).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["format_version"] = format_version.into();
    let mut values = serde_json::json!({"instance_type": value, "ami": "ami-1"});
    let mut sensitive = serde_json::json!({});
    if mask {
        sensitive["instance_type"] = true.into();
    }
    if let Some(t) = tag {
        values["tags"] = serde_json::json!({"n": t});
        sensitive["tags"] = serde_json::json!({"n": true});
    }
    doc["planned_values"]["root_module"]["resources"][0]["values"] = values.clone();
    doc["resource_changes"][0]["change"]["after"] = values;
    if format_version != "0.1" {
        doc["resource_changes"][0]["change"]["after_sensitive"] = sensitive;
    }
    doc.to_string()
}

fn run_formats(doc: &str, extra: &[&str]) -> Vec<(String, String)> {
    ["human", "json", "markdown", "impact-framework"]
        .iter()
        .map(|f| {
            let mut args = vec!["--format", f];
            args.extend_from_slice(extra);
            let o = crate::common::render(doc, &args);
            assert_eq!(o.status.code(), Some(0), "{f}: {}", stderr(&o));
            (f.to_string(), crate::common::stdout(&o) + &stderr(&o))
        })
        .collect()
}

#[test]
fn a_sensitive_machine_type_with_quotes_leaked_through_the_escaped_reason() {
    for secret in [
        "Zq9SECRET\"abc",
        "Zq9SECRET\\abc",
        "Zq9SECRET\u{1}abc",
        "Zq9 \u{e9}t\u{e9}\n",
    ] {
        let doc = plan_with(secret, true, "1.2", None);
        for (format, out) in run_formats(&doc, &[]) {
            assert!(!out.contains("Zq9"), "{format} leaks {secret:?}:\n{out}");
            if format == "json" {
                assert!(
                    out.contains("(sensitive value)"),
                    "reached the report:\n{out}"
                );
            }
        }
    }
}

#[test]
fn a_schema_sensitive_attribute_leaked_through_the_carbon_report() {
    let schemas = std::env::temp_dir().join(format!(
        "carbon-show-sec-{}-schemas.json",
        std::process::id()
    ));
    std::fs::write(
        &schemas,
        r#"{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{"resource_schemas":{"aws_instance":{"block":{"attributes":{"instance_type":{"type":"string","sensitive":true},"ami":{"type":"string"}}}}}}}}"#,
    )
    .unwrap();
    let doc = plan_with("Zq9secret.large", false, "0.1", None);
    let s = schemas.to_str().unwrap();
    for (format, out) in run_formats(&doc, &["--schemas", s]) {
        assert!(!out.contains("Zq9"), "{format} leaks:\n{out}");
        if format == "json" {
            assert!(
                out.contains("(sensitive value)"),
                "reached the report:\n{out}"
            );
        }
    }
    let _ = std::fs::remove_file(&schemas);
}

#[test]
fn a_short_sensitive_tag_hid_every_region_containing_it() {
    let doc = plan_with("t3.micro", false, "1.2", Some("1"));
    for (format, out) in run_formats(&doc, &[]) {
        if format != "impact-framework" {
            assert!(out.contains("us-east-1"), "{format}:\n{out}");
        }
        assert!(!out.contains("us-east-(sensitive"), "{format}:\n{out}");
    }
}

/// A mapping folder declaring one `json_data` file named `file`, and a `--data` folder.
fn data_case(name: &str, file: &str) -> (PathBuf, PathBuf) {
    let dir = mapping_dir(name, ".values.instance_type");
    std::fs::write(
        dir.join("aws/general.yaml"),
        format!("general:\n  aws:\n    json_data:\n      t: '{file}'\n"),
    )
    .unwrap();
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    (dir, data)
}

fn show_with_data(dir: &Path, data: &Path) -> std::process::Output {
    bin()
        .arg("--mappings")
        .arg(dir)
        .arg("--data")
        .arg(data)
        .arg(plan())
        .output()
        .unwrap()
}

#[test]
fn a_data_file_outside_the_data_folder_was_read() {
    let outside = std::env::temp_dir().join(format!(
        "carbon-show-sec-{}-outside.json",
        std::process::id()
    ));
    std::fs::write(&outside, r#"{"t3.micro": {"leak": "Zq9outside"}}"#).unwrap();
    for (name, file) in [
        ("absolute", outside.to_str().unwrap().to_string()),
        ("dotdot", "../../x.json".to_string()),
        ("symlink", "link.json".to_string()),
        ("devzero", "zero.json".to_string()),
        ("fifo", "fifo.json".to_string()),
    ] {
        let (dir, data) = data_case(name, &file);
        match name {
            "symlink" => std::os::unix::fs::symlink(&outside, data.join("link.json")).unwrap(),
            "devzero" => std::os::unix::fs::symlink("/dev/zero", data.join("zero.json")).unwrap(),
            "fifo" => {
                let ok = std::process::Command::new("mkfifo")
                    .arg(data.join("fifo.json"))
                    .status()
                    .unwrap();
                assert!(ok.success());
            }
            _ => {}
        }
        let t = Instant::now();
        let o = show_with_data(&dir, &data);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(8), "{name}: {err}");
        assert!(err.contains("general.yaml:4:"), "{name}: {err}");
        assert!(err.contains("data file"), "{name}: {err}");
        assert!(
            !String::from_utf8_lossy(&o.stdout).contains("Zq9"),
            "{name}"
        );
        assert!(t.elapsed() < Duration::from_secs(20), "{name}: blocked");
        let _ = std::fs::remove_dir_all(&dir);
    }
    let _ = std::fs::remove_file(&outside);
}

#[test]
fn a_data_file_inside_the_data_folder_is_read() {
    let (dir, data) = data_case("inside", "sub/table.json");
    std::fs::create_dir_all(data.join("sub")).unwrap();
    std::fs::write(data.join("sub/table.json"), "{}").unwrap();
    let o = show_with_data(&dir, &data);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_data_folder_was_silently_ignored() {
    let o = bin()
        .args(["--data", "/nonexistent/carbon-show-data"])
        .arg(plan())
        .output()
        .unwrap();
    crate::common::assert_one_line_error(&o, 8, "/nonexistent/carbon-show-data");
    let o = bin()
        .args([
            "mappings",
            "check",
            "mappings",
            "--data",
            "/nonexistent/carbon-show-data",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(8), "{}", stderr(&o));
}

#[test]
fn a_plan_without_planned_values_got_a_silent_empty_summary() {
    let text = std::fs::read_to_string(plan()).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    for planned in [
        serde_json::json!({"root_module": {}}),
        serde_json::Value::Null,
    ] {
        doc["planned_values"] = planned.clone();
        let o = crate::common::render(&doc.to_string(), &["--format", "json"]);
        let out = crate::common::stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(out.contains("\"estimated\": 1"), "{planned}: {out}");
        assert!(out.contains("\"machine_type\": \"t3.micro\""), "{out}");
    }
}

/// Bad plans: each one line, its own exit code, naming the cause.
#[test]
fn malformed_plans_rendered_or_misnamed() {
    use crate::common::{assert_one_line_error, run};
    for (doc, code, needle) in [
        (&br#"{"format_version":"1.2","resource_changes":[[]]}"#[..], 7, "expected an object"),
        (br#"{"format_version":"1.2","resource_changes":[{"address":"a.b","change":[]}]}"#, 7, "expected an object"),
        (br#"{"format_version":"1.2","resource_changes":[],"planned_values":"x"}"#, 7, "planned_values is not an object"),
        (br#"{"format_version":"1.2","resource_changes":[],"prior_state":[1]}"#, 7, "prior_state is not an object"),
        (br#"{"format_version":"1.2","resource_changes":[],"configuration":5}"#, 7, "configuration is not an object"),
        (b"\xef\xbb\xbf{\"format_version\":\"1.2\"}", 5, "byte-order mark"),
        (b"\xff\xfe{\x00\"\x00}\x00", 5, "UTF-16"),
        (b"{\x00\"\x00}\x00", 5, "UTF-16"),
        (b"[command]/home/runner/work/_temp/terraform-bin show -json plan\n{}\n::debug::exitcode: 0\n", 5, "setup-terraform"),
    ] {
        let o = run(&[], doc);
        assert_one_line_error(&o, code, needle);
    }
}

#[test]
fn a_closed_stdout_exited_0_having_written_nothing() {
    use std::os::unix::process::CommandExt;
    let mut cmd = bin();
    cmd.arg(plan()).stderr(std::process::Stdio::piped());
    // close fd 1 in the child
    unsafe {
        cmd.pre_exec(|| {
            libc::close(1);
            Ok(())
        });
    }
    let o = cmd.output().unwrap();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("standard output is closed"));
}

#[test]
fn stdout_on_dev_null_opened_read_write_was_taken_for_closed() {
    // Python's subprocess.DEVNULL and Node's stdio "ignore" open /dev/null read-write
    let null = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
        .unwrap();
    let o = bin()
        .arg(plan())
        .stdout(std::process::Stdio::from(null))
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn a_user_filter_that_fails_to_compile_was_dropped_without_a_word() {
    let dir = mapping_dir("broken", ".values.instance_type | no_such_function");
    let o = bin()
        .arg("--mappings")
        .arg(&dir)
        .arg(plan())
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("warning: "), "{err}");
    assert!(err.contains("hostile.yaml:7:"), "{err}");
    assert!(err.contains("no_such_function"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// YAML alias bombs and deep nesting are refused by the YAML reader's budget; an oversized or
/// non-regular mapping file is not read at all.
#[test]
fn hostile_mapping_files_are_refused_located() {
    let dir = mapping_dir("yaml", ".values.instance_type");
    let run = || {
        bin()
            .arg("--mappings")
            .arg(&dir)
            .arg(plan())
            .output()
            .unwrap()
    };
    let mut bomb =
        vec![r#"a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]"#.to_string()];
    for i in 1..10 {
        bomb.push(format!(
            "a{i}: &a{i} [{}]",
            vec![format!("*a{}", i - 1); 9].join(",")
        ));
    }
    bomb.push("compute_resource:\n  x: *a9\n".into());
    let deep = format!(
        "compute_resource:\n  x: {}{}\n",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    for (name, text, needle) in [
        ("bomb.yaml", bomb.join("\n"), "bomb.yaml:"),
        ("deep.yaml", deep, "deep.yaml:2:"),
        ("big.yaml", " ".repeat(5 << 20), "at most 4 MiB"),
    ] {
        std::fs::write(dir.join("aws").join(name), text).unwrap();
        let o = run();
        crate::common::assert_one_line_error(&o, 8, needle);
        std::fs::remove_file(dir.join("aws").join(name)).unwrap();
    }
    let fifo = dir.join("aws/fifo.yaml");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    crate::common::assert_one_line_error(&run(), 8, "not a regular file");
    let _ = std::fs::remove_dir_all(&dir);
}
