//! Tests of the plan model: parsing, sections, chunked resource changes, errors.

use super::*;

#[test]
fn sensitive_strings_of_every_section() {
    let plan = br#"{"format_version":"1.2",
              "resource_changes": [{"change": {
                "before": {"a": "b1", "n": ["b2", "open"]}, "before_sensitive": {"a": true, "n": [true]},
                "after": {"a": ["a1", {"x": "a2"}], "o": "open"}, "after_sensitive": {"a": true, "o": false}}}],
              "resource_drift": [{"change": {"after": {"d": "d1"}, "after_sensitive": {"d": true}}}],
              "output_changes": {"o": {"after": "o1", "after_sensitive": true}}
            }"#;
    let plan = parse(Path::new("p.json"), plan).unwrap();
    fn sorted(mut s: Vec<Cow<'_, str>>) -> Vec<Cow<'_, str>> {
        s.sort();
        s
    }
    assert_eq!(
        sorted(sensitive_strings(&plan)),
        ["a1", "a2", "b1", "b2", "d1", "o1"]
    );
    let state = br#"{"format_version":"1.0","values": {
              "outputs": {"p": {"sensitive": true, "value": {"k": "p1"}}, "q": {"sensitive": false, "value": "open"}},
              "root_module": {"child_modules": [{"resources": [
                {"address": "a.b", "mode": "managed", "type": "a", "name": "b",
                 "values": {"t": "v1", "u": "open"}, "sensitive_values": {"t": true}}]}]}}}"#;
    let state = parse(Path::new("s.json"), state).unwrap();
    assert_eq!(sorted(sensitive_strings(&state)), ["p1", "v1"]);
}

/// The resource changes are read in chunks (so that the list is never held twice):
/// every change, in order, whatever the list's length around a chunk's, and exactly as
/// many as there are; a list that is not one is the same error as before.
#[test]
fn resource_changes_read_in_chunks_keep_every_change_in_order() {
    for n in [0, 1, 1023, 1024, 1025, 2048, 3000] {
        let changes: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"address":"a.b[{i}]","mode":"managed","type":"a","name":"b"}}"#))
            .collect();
        let text = format!(
            r#"{{"format_version":"1.2","resource_changes":[{}]}}"#,
            changes.join(",")
        );
        let plan = parse(Path::new("p.json"), text.as_bytes()).unwrap();
        let rcs = plan.resource_changes.unwrap();
        assert_eq!(rcs.len(), n);
        assert_eq!(rcs.capacity(), n);
        for (i, rc) in rcs.iter().enumerate() {
            assert_eq!(rc.address, format!("a.b[{i}]"));
        }
    }
    let e = parse(
        Path::new("p.json"),
        br#"{"format_version":"1.2","resource_changes":{"a":1}}"#,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("expected a sequence"), "{e}");
}

#[test]
fn borrows_strings() {
    let text = br#"{"format_version":"1.2","resource_changes":[{"address":"a.b[\"x\"]","mode":"managed","type":"a","name":"b","change":{"actions":["create"],"after":{"k":"v"}}}]}"#;
    let plan = parse(Path::new("-"), text).unwrap();
    let rc = &plan.resource_changes.as_ref().unwrap()[0];
    assert_eq!(rc.address, "a.b[\"x\"]");
    assert!(matches!(rc.address, Cow::Owned(_)));
    assert!(matches!(rc.type_, Cow::Borrowed(_)));
    let after = rc.change.after.value();
    let after = after.as_object().unwrap();
    assert!(matches!(after["k"], Value::String(Cow::Borrowed("v"))));
    assert_eq!(rc.action(), Action::Create);
}

#[test]
fn versions() {
    let p = Path::new("p.json");
    assert!(parse(p, br#"{"format_version":"0.1","resource_changes":[]}"#).is_ok());
    assert!(parse(p, br#"{"format_version":"1.9","resource_changes":[]}"#).is_ok());
    assert!(matches!(
        parse(p, br#"{"format_version":"2.0","resource_changes":[]}"#),
        Err(Error::FormatVersion { .. })
    ));
    assert!(matches!(parse(p, b"[1]"), Err(Error::NotAPlan { .. })));
    assert!(matches!(parse(p, b""), Err(Error::Json { .. })));
    assert!(matches!(parse(p, b"{\"a\":"), Err(Error::Json { .. })));
}

#[test]
fn data_errors_do_not_echo_values() {
    let e = parse(
            Path::new("p"),
            br#"{"format_version":"1.0","resource_changes":[{"address":"hunter2"}],"output_changes":"s3cret"}"#,
        )
        .unwrap_err();
    let msg = e.to_string();
    assert!(!msg.contains("s3cret"), "{msg}");
    assert!(msg.contains("line 1"), "{msg}");
    assert_eq!(redact_strings(r#"a "b\"c" d"#), "a \"…\" d");
}

#[test]
fn actions() {
    assert_eq!(
        Action::from_actions(&["delete", "create"]),
        Action::DeleteThenCreate
    );
    assert_eq!(Action::from_actions(&["frobnicate"]), Action::Unknown);
}
