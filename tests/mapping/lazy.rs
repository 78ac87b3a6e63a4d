//! The engine of the shipped mappings compiles what only some plans need (the jq program, the
//! properties' regexes, the `ignored_resources` regexes) when first needed; a user's mappings
//! are compiled at load, so that their errors are reported there.

use super::*;

fn demo() -> Value {
    plan(&Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/demo/plan.json"))
}

/// The shipped mappings alone: nothing compiled for jaq at load, nor while mapping resources
/// that every filter of runs natively; the demo plan (two filters in jaq, property regexes,
/// ignored types) maps as an engine that compiled everything at load maps it.
#[test]
fn a_shipped_engine_compiles_jaq_only_when_a_filter_runs_in_it() {
    let lazy = builtin();
    assert!(!lazy.jaq_compiled(), "the jq program waits for a filter");
    let m = lazy.map(&simple(vec![res(
        "aws_instance.a",
        json!({"ami": "ami-1", "instance_type": "t3.micro"}),
    )]));
    assert_eq!(m.after[0].vcpus, Some(2.0));
    assert!(!lazy.jaq_compiled(), "an instance runs no filter in jaq");
    let from_lazy = lazy.map(&demo());
    assert!(lazy.jaq_compiled(), "the demo plan runs filters in jaq");
    let eager = Engine::eager_from_files(&mapping::builtin_files(), &test_data).unwrap();
    assert!(eager.jaq_compiled());
    assert_eq!(from_lazy, eager.map(&demo()));
    assert!(!from_lazy.ignored.is_empty() && !from_lazy.after.is_empty());
}

/// A user's mappings, beside the shipped ones: their filters are compiled at load.
#[test]
fn a_user_mapping_compiles_jaq_at_load() {
    let e = mapping::load(&[td("override")], &test_data).unwrap();
    assert!(e.jaq_compiled());
}

fn with_ignored(patterns: &str) -> Vec<MappingFile> {
    let mut files = mapping::builtin_files();
    files.push(MappingFile {
        path: "ignored.yaml".into(),
        folder: Some("aws".into()),
        text: format!("\ngeneral:\n  aws:\n    ignored_resources:\n{patterns}"),
    });
    files
}

/// A user's broken `ignored_resources` pattern is reported at load, beside shipped patterns
/// that are compiled only when needed; a user's patterns match beside the shipped ones.
#[test]
fn a_user_mappings_bad_ignored_pattern_is_reported_at_load() {
    let files = with_ignored("      - \"aws_thing_(a|b)\"\n      - \"aws_[bad\"\n");
    let diags = Engine::check_files(&files, &test_data);
    let shown: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        shown,
        vec![
            "ignored.yaml:6:9: bad ignored_resources pattern \"aws_[bad\": error: unclosed \
             character class"
                .to_string()
        ]
    );
    let err = Engine::from_files(&files, &test_data).err().expect("fatal");
    assert_eq!(err.to_string(), shown[0]);
    let files = with_ignored("      - \"aws_thing_(a|b)\"\n");
    let e = Engine::from_files(&files, &test_data).unwrap();
    let m = e.map(&simple(vec![
        res("aws_thing_a.x", json!({})),
        res("aws_vpc.v", json!({})),
        res("aws_thing_c.y", json!({})),
    ]));
    assert_eq!(m.ignored, vec!["aws_thing_a.x", "aws_vpc.v"]);
    assert_eq!(m.unsupported, vec!["aws_thing_c.y"]);
}

/// A user's file that stands where a shipped one does but says something else is a user's:
/// its bad regex is reported at load.
#[test]
fn a_changed_shipped_file_is_compiled_at_load() {
    let mut files = mapping::builtin_files();
    let f = files
        .iter_mut()
        .find(|f| f.path == "mappings/aws/rds.yaml")
        .unwrap();
    assert!(f.text.contains(r"pattern: '^db\.(.+)$'"));
    f.text = f
        .text
        .replacen(r"pattern: '^db\.(.+)$'", r"pattern: '^db\.(.+$'", 1);
    let err = Engine::from_files(&files, &test_data)
        .err()
        .expect("a bad regex is fatal")
        .to_string();
    assert!(
        err.contains("mappings/aws/rds.yaml:15:") && err.contains("bad regex"),
        "{err}"
    );
}

/// What the shipped engine leaves for later is known to compile: checked as `mappings check`
/// checks a user's files, every filter, regex and `ignored_resources` pattern compiles.
#[test]
fn every_shipped_filter_and_pattern_compiles() {
    assert_eq!(
        Engine::check_files(&mapping::builtin_files(), &test_data),
        []
    );
    let eager = Engine::eager_from_files(&mapping::builtin_files(), &test_data).unwrap();
    assert_eq!(eager.filter_count(), builtin().filter_count());
}

/// A user's file that stands where a shipped one does but says something else is read as a
/// user's by the analyses that trust what shipped filters say they read (the members a
/// mapping reads, which the sensitivity marks and the instance memo rest on): its mappings
/// read the whole resource.
#[test]
fn a_changed_shipped_file_was_trusted_for_what_its_filters_read() {
    let shipped = Engine::from_files(&mapping::builtin_files(), &test_data).unwrap();
    let mut files = mapping::builtin_files();
    let ec2 = files
        .iter_mut()
        .find(|f| f.path.ends_with("aws/ec2.yaml"))
        .expect("the shipped aws/ec2.yaml");
    ec2.text.push_str("\n# changed by a pull request\n");
    let changed = Engine::from_files(&files, &test_data).unwrap();
    assert!(
        changed.partial_mappings() < shipped.partial_mappings(),
        "{} of {} mappings still trusted",
        changed.partial_mappings(),
        shipped.partial_mappings()
    );
}
