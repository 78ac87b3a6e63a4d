//! Tests of the build-time generation of the tables: a table that does not read gives empty tables and an error naming it.

use super::codegen::generate;
use super::json_file;

/// The embedded files, but `file` replaced by `text`.
fn generate_with(file: &str, text: &str) -> String {
    let (file, text) = (file.to_string(), text.to_string());
    generate(&move |name: &str| {
        if name == file {
            Ok(text.clone())
        } else {
            json_file(name)
                .map(str::to_string)
                .ok_or_else(|| format!("data/{name}: not embedded"))
        }
    })
}

#[test]
fn the_embedded_tables_generate_without_error() {
    let text = generate_with("none.json", "");
    assert!(text.contains("const LOAD_ERROR: Option<&str> = None;"));
    assert!(!text.contains("[InstanceRow; 0]"));
    // the same text at every build
    assert_eq!(text, generate_with("none.json", ""));
}

#[test]
fn a_table_that_does_not_parse_gives_empty_tables_and_names_its_file() {
    let text = generate_with("embodied.json", "{");
    assert!(
        text.contains(r#"const LOAD_ERROR: Option<&str> = Some("data/embodied.json: EOF"#),
        "{}",
        &text[text.len().saturating_sub(300)..]
    );
    assert!(text.contains("static AWS_INSTANCES: [InstanceRow; 0] = [\n];"));
    assert!(text.contains("static AZURE_EMBODIED: [EmbodiedRow; 0] = [\n];"));
    assert!(text.contains("static COEFFICIENTS: [Option<CoefficientsRow>; 3] = [\n    None,"));
}

#[test]
fn a_row_without_a_member_names_its_file_row_and_member() {
    let text = generate_with("aws_instances.json", r#"{"m5.large": {"MemoryMb": 8192}}"#);
    assert!(
        text.contains(r#"Some("data/aws_instances.json: m5.large: missing VCPU")"#),
        "{}",
        &text[text.len().saturating_sub(300)..]
    );
    let text = generate_with(
        "grid_intensity.json",
        r#"{"aws": {"us-east-1": {"gCO2eqPerKWh": "high"}}, "gcp": {}, "azure": {}, "fallback": {}}"#,
    );
    assert!(text.contains(
        r#"Some("data/grid_intensity.json: aws.us-east-1: gCO2eqPerKWh is not a number")"#
    ));
}
