//! The native evaluator of the mapping filters (`mapping::native`) gives what jaq gives: on
//! every fixture plan and on each bench shape's 1k plan, every filter it runs for every
//! resource is run in jaq too and the answers compared, and the mapped plans are equal.

use carbon_show::mapping::{self, Engine};
use std::path::{Path, PathBuf};

fn engine() -> Engine {
    mapping::load(&[], &|name| {
        carbon_show::data::json_file(name).map(Into::into)
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

fn documents(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            documents(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

/// Maps each document with a checking engine and with jaq alone; returns the native
/// evaluations compared.
fn agree(docs: &[PathBuf]) -> u64 {
    let checking = engine().checking_native();
    let by_jaq = engine().without_native();
    let mut mapped = 0;
    for doc in docs {
        let Ok(text) = std::fs::read_to_string(doc) else {
            continue;
        };
        if serde_json::from_str::<serde_json::Value>(&text).is_err() {
            continue; // broken fixtures
        }
        let a = checking.map_text(&text);
        let b = by_jaq.map_text(&text);
        assert_eq!(a, b, "{}", doc.display());
        mapped += 1;
    }
    assert!(mapped > 0, "no document mapped");
    let (compared, mismatches) = checking.native_check().expect("a checking engine");
    assert!(
        mismatches.is_empty(),
        "native and jaq differ:\n{}",
        mismatches.join("\n")
    );
    compared
}

#[test]
fn native_filters_agree_with_jaq_on_every_fixture_plan() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs = Vec::new();
    documents(&root.join("testdata"), &mut docs);
    documents(&root.join("tests/fixtures"), &mut docs);
    // the shared real plans, where this worktree has them (testdata/plans holds copies)
    documents(&root.join("../shared/plans"), &mut docs);
    docs.sort();
    assert!(docs.len() > 50, "{} documents", docs.len());
    let compared = agree(&docs);
    assert!(
        compared > 100,
        "only {compared} native evaluations compared"
    );
}

#[test]
fn native_filters_agree_with_jaq_on_each_bench_shape() {
    let dir = std::env::temp_dir().join(format!("carbon-show-native-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs = Vec::new();
    for shape in ["mixed", "dense", "instances", "wide", "deep", "sensitive"] {
        let plan = dir.join(format!("{shape}-1k.json"));
        let o = std::process::Command::new("python3")
            .arg(root.join("scripts/gen-plan/gen_plan.py"))
            .args([
                "--shape",
                shape,
                "--resources",
                "1000",
                "--seed",
                "1",
                "--output",
            ])
            .arg(&plan)
            .output()
            .expect("python3 runs scripts/gen-plan (CI installs Python 3)");
        assert!(
            o.status.success(),
            "{shape}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        docs.push(plan);
    }
    let compared = agree(&docs);
    assert!(
        compared > 1000,
        "only {compared} native evaluations compared"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
