//! One test per finding of the fuzzers and property tests; each input is kept under
//! `testdata/regressions/`.

use crate::common::{render, stdout};

fn regression(name: &str) -> String {
    let path = format!("{}/testdata/regressions/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// proptest `sensitive_strings_never_appear`: a sensitive `instance_type` reached the carbon
/// report through the mappings (`not estimated: unknown machine type "SECRET-abc"` in the
/// human annotation, the JSON `reason`/`machine_type` and the Markdown table).
#[test]
fn sensitive_machine_type() {
    let doc = regression("sensitive-machine-type.json");
    for format in ["human", "json", "markdown", "impact-framework"] {
        let o = render(&doc, &["--format", format]);
        assert_eq!(o.status.code(), Some(0), "{format}");
        let out = stdout(&o);
        assert!(!out.contains("SECRET"), "{format}:\n{out}");
        if format != "impact-framework" {
            assert!(out.contains("(sensitive value)"), "{format}:\n{out}");
        }
    }
    // A known machine type that is sensitive is still estimated, and hidden.
    let known = doc.replace("SECRET-abc", "t3.micro");
    let o = render(&known, &["--format", "json"]);
    let out = stdout(&o);
    assert!(!out.contains("t3.micro"), "{out}");
    assert!(
        out.contains("\"machine_type\": \"(sensitive value)\""),
        "{out}"
    );
    assert!(out.contains("\"status\": \"estimated\""), "{out}");
}
