//! Every real plan under `testdata/plans` renders, with and without its schemas.

use crate::common::*;
use std::path::{Path, PathBuf};

fn documents(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            documents(&p, out);
        } else if p.extension().is_some_and(|x| x == "json")
            && p.file_name().is_some_and(|n| n != "schemas.json")
        {
            out.push(p);
        }
    }
}

#[test]
fn real_plans_render() {
    let root = real_plans();
    let mut docs = Vec::new();
    documents(&root, &mut docs);
    docs.sort();
    assert!(!docs.is_empty(), "no plans under {}", root.display());
    let mut rendered = 0;
    for doc in &docs {
        let path = doc.to_str().unwrap();
        let schemas = doc.parent().unwrap().join("schemas.json");
        let mut runs = vec![vec!["--color", "never", path]];
        let s = schemas.to_str().unwrap().to_string();
        if schemas.is_file() {
            runs.push(vec!["--color", "never", "--schemas", &s, path]);
        }
        for args in runs {
            let o = run(&args, b"");
            let err = stderr(&o);
            assert!(o.status.success(), "{args:?}: {err}");
            assert!(!err.contains("panicked"), "{args:?}: {err}");
            let out = stdout(&o);
            assert!(
                out.contains("Plan: ")
                    || out.contains("No changes.")
                    || out.contains("Changes to Outputs:")
                    || out.starts_with("# ")
                    || out.starts_with("The state file is empty."),
                "{args:?}: unexpected output:\n{out}"
            );
            rendered += 1;
        }
    }
    assert!(rendered >= docs.len());
}

#[test]
fn schemas_tell_blocks_from_attributes() {
    let dir = real_plans().join("terraform-json/basic");
    let plan = dir.join("plan.json");
    let schemas = dir.join("schemas.json");
    let o = run(
        &[
            "--color",
            "never",
            "--schemas",
            schemas.to_str().unwrap(),
            plan.to_str().unwrap(),
        ],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("  # module.foo.null_resource.foo will be created\n"),
        "{out}"
    );
    assert!(
        out.contains("      + triggers = {\n          + \"foo\" = \"bar\"\n        }\n"),
        "{out}"
    );
}

/// The mapping engine maps every real plan, and the bundled demo and synthetic fixtures, from
/// their own text (as written, pretty-printed or not) exactly as from a parsed
/// `serde_json::Value` written out compactly, and with its resources built whole exactly as
/// with only the members of `values` each mapping reads.
#[test]
fn text_as_written_maps_as_the_parsed_value() {
    use carbon_show::mapping;
    let engine = mapping::load(&[], &|name| {
        carbon_show::data::json_file(name).map(Into::into)
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let whole = mapping::load(&[], &|name| {
        carbon_show::data::json_file(name).map(Into::into)
    })
    .unwrap()
    .without_partial_values();
    assert!(
        engine.partial_mappings() >= 40,
        "only {} shipped mappings say which members of `values` they read",
        engine.partial_mappings()
    );
    let mut docs = Vec::new();
    // (testdata/ holds the real plans too)
    documents(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata"),
        &mut docs,
    );
    docs.sort();
    let mut compared = 0;
    for doc in &docs {
        let bytes = std::fs::read(doc).unwrap();
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
            continue; // broken fixtures
        };
        let plain = engine.map(&value);
        let text = engine.map_text(std::str::from_utf8(&bytes).unwrap());
        assert_eq!(text, plain, "{}", doc.display());
        // resources built with only the members of `values` their mapping reads map as
        // resources built whole
        let whole = whole.map_text(std::str::from_utf8(&bytes).unwrap());
        assert_eq!(text, whole, "{} (built whole)", doc.display());
        compared += 1;
    }
    assert!(compared > 20, "only {compared} documents compared");
}
