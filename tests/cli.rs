//! The command line: inputs, errors and exit codes.

use crate::common::*;

const CREATE: &str = r#"{"format_version":"1.2","resource_changes":[{"address":"null_resource.a","mode":"managed","type":"null_resource","name":"a","provider_name":"registry.opentofu.org/hashicorp/null","change":{"actions":["create"],"before":null,"after":{"triggers":{"k":"v"}},"after_unknown":{"id":true}}}]}"#;

const CREATE_OUT: &str = "
OpenTofu used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  + create

OpenTofu will perform the following actions:

  # null_resource.a will be created
  + resource \"null_resource\" \"a\" {
      + id       = (known after apply)
      + triggers = {
          + \"k\" = \"v\"
        }
    }

Plan: 1 to add, 0 to change, 0 to destroy.
";

#[test]
fn reads_stdin_and_dash() {
    let o = render(CREATE, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), CREATE_OUT);
    let o = render(CREATE, &["-"]);
    assert_eq!(stdout(&o), CREATE_OUT);
}

#[test]
fn reads_file() {
    let dir = std::env::temp_dir().join(format!("carbon-show-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("plan.json");
    std::fs::write(&f, CREATE).unwrap();
    let o = render("", &[f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), CREATE_OUT);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn terraform_flavor() {
    let o = render(CREATE, &["--flavor", "terraform"]);
    let out = stdout(&o);
    assert!(
        out.contains("\nTerraform used the selected providers"),
        "{out}"
    );
    assert!(out.contains("Terraform will perform the following actions:"));
    assert!(!out.contains("OpenTofu"));
}

#[test]
fn terraform_flavor_keeps_addresses() {
    let doc = r#"{"format_version":"1.2","resource_changes":[{"address":"a.OpenTofu","mode":"managed","type":"a","name":"OpenTofu","change":{"actions":["create"],"after":{"x":"OpenTofu"}}}]}"#;
    let out = stdout(&render(doc, &["--flavor", "terraform"]));
    assert!(out.contains("  # a.OpenTofu will be created\n"), "{out}");
    assert!(out.contains("+ x = \"OpenTofu\""), "{out}");
}

#[test]
fn missing_file_is_io_error() {
    let o = render("", &["/nonexistent/plan.json"]);
    assert_one_line_error(&o, 4, "/nonexistent/plan.json");
}

#[test]
fn empty_input() {
    let o = render("", &[]);
    assert_one_line_error(&o, 5, "<stdin>");
    let o = render("  \n", &[]);
    assert_one_line_error(&o, 5, "empty input");
}

#[test]
fn truncated_json_names_line_and_column() {
    let o = render(
        "{\n  \"format_version\": \"1.2\",\n  \"resource_changes\": [",
        &[],
    );
    assert_one_line_error(&o, 5, "line 3, column");
}

#[test]
fn json_array_is_not_a_plan() {
    let o = render("[1, 2, 3]", &[]);
    assert_one_line_error(&o, 7, "not a plan");
}

#[test]
fn format_version_2_is_refused() {
    let o = render(r#"{"format_version":"2.0","resource_changes":[]}"#, &[]);
    assert_one_line_error(&o, 6, "\"2.0\"");
    let o = render(r#"{"format_version":"1.99","resource_changes":[]}"#, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = render(r#"{"format_version":"0.1","resource_changes":[]}"#, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn wrong_field_type_is_not_a_plan() {
    let o = render(
        r#"{"format_version":"1.0","resource_changes":{"a":1}}"#,
        &[],
    );
    assert_one_line_error(&o, 7, "line 1");
}

#[test]
fn ten_thousand_deep_nesting_is_a_json_error() {
    let deep = format!(
        r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.b","mode":"managed","type":"a","name":"b","change":{{"actions":["create"],"after":{{"x":{}{}}}}}}}]}}"#,
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let o = render(&deep, &[]);
    assert_one_line_error(&o, 5, "recursion limit");
    // Deep nesting at the top level (not a plan anyway) never overflows the stack either.
    let top = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let o = render(&top, &[]);
    assert!(matches!(o.status.code(), Some(5 | 7)), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1);
}

#[test]
fn deep_but_legal_nesting_renders() {
    let depth = 120;
    let deep = format!(
        r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.b","mode":"managed","type":"a","name":"b","change":{{"actions":["create"],"after":{{"x":{}1{}}}}}}}]}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let o = render(&deep, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("+ x = [\n"));
}

#[test]
fn fifty_megabyte_string_renders() {
    let big = "x".repeat(50 * 1024 * 1024);
    let doc = format!(
        r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.b","mode":"managed","type":"a","name":"b","change":{{"actions":["create"],"after":{{"big":"{big}"}}}}}}]}}"#
    );
    let o = render(&doc, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(&format!("+ big = \"{big}\"\n")));
    assert!(out.ends_with("Plan: 1 to add, 0 to change, 0 to destroy.\n"));
}

#[test]
fn unknown_action_is_marked_not_dropped() {
    let doc = r#"{"format_version":"1.2","resource_changes":[{"address":"a.b","mode":"managed","type":"a","name":"b","change":{"actions":["teleport"],"before":{"x":"1"},"after":{"x":"2"}}}]}"#;
    let o = render(doc, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(
            "a.b has an action the plan renderer doesn't support (this is a bug): \"teleport\""
        ),
        "{out}"
    );
    assert!(
        out.contains("  ? resource \"a\" \"b\" {\n      ~ x = \"1\" -> \"2\"\n"),
        "{out}"
    );
}

#[test]
fn odd_value_shapes_are_rendered() {
    // A schema says string, the plan holds an object: shown, not dropped.
    let schemas = r#"{"format_version":"1.0","provider_schemas":{"p":{"resource_schemas":{"a":{"version":0,"block":{"attributes":{"x":{"type":"string","optional":true}}}}}}}}"#;
    let dir = std::env::temp_dir().join(format!("carbon-show-odd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let s = dir.join("schemas.json");
    std::fs::write(&s, schemas).unwrap();
    let doc = r#"{"format_version":"1.2","resource_changes":[{"address":"a.b","mode":"managed","type":"a","name":"b","provider_name":"p","change":{"actions":["create"],"after":{"x":{"k":1}}}}]}"#;
    let o = render(doc, &["--schemas", s.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("+ x = {\n          + k = 1\n        }"),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_schemas_exit_9() {
    let dir = std::env::temp_dir().join(format!("carbon-show-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let s = dir.join("schemas.json");
    std::fs::write(&s, r#"{"provider_schemas": 3}"#).unwrap();
    let o = render(CREATE, &["--schemas", s.to_str().unwrap()]);
    assert_one_line_error(&o, 9, "schemas.json");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_flag_is_usage_error() {
    let o = render(CREATE, &["--colour", "never"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn sensitive_values_never_printed() {
    let doc = r#"{"format_version":"1.2","resource_changes":[{"address":"a.b","mode":"managed","type":"a","name":"b","change":{"actions":["update"],"before":{"pw":"hunter2","list":["s3cret"]},"after":{"pw":"hunter3","list":["t0psecret"]},"before_sensitive":{"pw":true,"list":[true]},"after_sensitive":{"pw":true,"list":[true]}}}],"output_changes":{"o":{"actions":["create"],"before":null,"after":"outsecret","after_sensitive":true}}}"#;
    let o = render(doc, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for secret in ["hunter", "s3cret", "t0psecret", "outsecret"] {
        assert!(!out.contains(secret), "{secret} leaked: {out}");
    }
    assert!(out.contains("(sensitive value)"));
}

#[test]
fn broken_pipe_exits_quietly() {
    // Many resources, so that the output outgrows the pipe buffer.
    let mut rcs = Vec::new();
    for i in 0..3000 {
        rcs.push(format!(
            r#"{{"address":"a.b[{i}]","mode":"managed","type":"a","name":"b","change":{{"actions":["create"],"after":{{"x":"{}"}}}}}}"#,
            "y".repeat(100)
        ));
    }
    let doc = format!(
        r#"{{"format_version":"1.2","resource_changes":[{}]}}"#,
        rcs.join(",")
    );
    let mut child = bin()
        .args(["--color", "never"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::{Read, Write};
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(doc.as_bytes()).unwrap();
        drop(stdin);
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 16];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout); // like `| head -c 16`
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn state_document() {
    let doc = r#"{"format_version":"1.0","values":{"outputs":{"o":{"sensitive":false,"value":"v","type":"string"}},"root_module":{"resources":[{"address":"a.b","mode":"managed","type":"a","name":"b","provider_name":"p","values":{"id":"1","tags":{"k":"v"}},"sensitive_values":{}}]}}}"#;
    let o = render(doc, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "# a.b:\nresource \"a\" \"b\" {\n    id   = \"1\"\n    tags = {\n        \"k\" = \"v\"\n    }\n}\n\n\nOutputs:\n\no = \"v\"\n"
    );
}

/// JSON documents inside strings inside JSON documents…, each nested 127 deep: rendered
/// (the nested `jsonencode` expansion is bounded), never a stack overflow.
#[test]
fn nested_json_strings_are_bounded() {
    fn build(leaf: &str) -> String {
        let mut inner = leaf.to_string();
        for _ in 0..9 {
            let doc = format!("{}{}{}", "[".repeat(127), inner, "]".repeat(127));
            inner = serde_json::to_string(&doc).unwrap();
        }
        inner
    }
    let doc = format!(
        r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.b","mode":"managed","type":"a","name":"b","change":{{"actions":["update"],"before":{{"x":{}}},"after":{{"x":{}}}}}}}]}}"#,
        build("1"),
        build("2")
    );
    let o = render(&doc, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("~ x = jsonencode("),
        "{}",
        &out[..out.len().min(500)]
    );
    assert!(out.ends_with("Plan: 0 to add, 1 to change, 0 to destroy.\n"));
}

/// A plan file is read twice (the mapping engine lets its bytes go); standard input and a path
/// that is a pipe are read once. All three give the same output.
#[test]
fn file_stdin_and_pipe_path_give_the_same_output() {
    let plan = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/demo/plan.json");
    let text = std::fs::read(&plan).unwrap();
    let file = run(&["--color", "never", plan.to_str().unwrap()], b"");
    assert!(file.status.success(), "{}", stderr(&file));
    assert!(stdout(&file).contains("# ≈"), "the demo plan is annotated");
    let stdin = run(&["--color", "never"], &text);
    assert_eq!(stdout(&stdin), stdout(&file));
    let pipe = run(&["--color", "never", "/dev/stdin"], &text);
    assert!(pipe.status.success(), "{}", stderr(&pipe));
    assert_eq!(stdout(&pipe), stdout(&file));
}

/// A plan file is streamed into the mapping engine first; its errors are still the plan
/// reader's, with the file's own line and column.
#[test]
fn file_errors_name_the_place() {
    let dir = std::env::temp_dir().join(format!("carbon-show-file-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "truncated.json",
            "{\n  \"format_version\": \"1.2\",\n  \"resource_changes\": [",
            5,
            "line 3, column",
        ),
        (
            "v2.json",
            r#"{"format_version":"2.0","resource_changes":[]}"#,
            6,
            "\"2.0\"",
        ),
        ("empty.json", "", 5, "empty input"),
        ("array.json", "[1, 2]", 7, "not a JSON object"),
        (
            "deep.json",
            &format!(
                "{{\"resource_changes\":[{{\"change\":{{\"after\":{}{}}}}}]}}",
                "[".repeat(200),
                "]".repeat(200)
            ),
            5,
            "recursion limit",
        ),
    ];
    for (name, text, code, needle) in cases {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        let o = run(&["--color", "never", f.to_str().unwrap()], b"");
        assert_one_line_error(&o, code, needle);
        assert!(stderr(&o).contains(name), "{name}: {}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
