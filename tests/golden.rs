//! Golden corpus: every `testdata/render/<case>/` holds a `show -json` plan (or state) document,
//! optionally `schemas.json` and `args`, and `expected.txt`, the exact stdout OpenTofu v1.12.6
//! prints for it without colour (see `testdata/render/README.md` for the sources).
//!
//! One test runs every case and reports all failing cases together, each with a line diff.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The corpus must not shrink below this many cases.
const MIN_CASES: usize = 70;

#[test]
fn golden_render_corpus() {
    let mut total = 0usize;
    let mut failures: Vec<(String, String)> = Vec::new();
    insta::glob!("../testdata/render", "*/plan.json", |plan: &Path| {
        total += 1;
        let dir = plan.parent().expect("case folder");
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Err(msg) = run_case(dir) {
            failures.push((name, msg));
        }
    });
    if !failures.is_empty() {
        let mut report = format!("{} of {} golden cases failed:\n", failures.len(), total);
        for (name, _) in &failures {
            report.push_str(&format!("  - {name}\n"));
        }
        for (name, msg) in &failures {
            report.push_str(&format!("\n==== {name} ====\n{msg}\n"));
        }
        panic!("{report}");
    }
}

#[test]
fn golden_corpus_size() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/render");
    let cases = std::fs::read_dir(&root)
        .expect("testdata/render exists")
        .filter_map(Result::ok)
        .filter(|e| e.path().join("plan.json").is_file() && e.path().join("expected.txt").is_file())
        .count();
    assert!(
        cases >= MIN_CASES,
        "golden corpus has {cases} cases, expected at least {MIN_CASES}"
    );
}

/// Runs the binary on one case; `Err` carries a readable explanation.
fn run_case(dir: &Path) -> Result<(), String> {
    let plan = dir.join("plan.json");
    let expected_path = dir.join("expected.txt");
    let expected = std::fs::read_to_string(&expected_path)
        .map_err(|e| format!("cannot read {}: {e}", expected_path.display()))?;

    let mut cmd = Command::new(env!("CARGO_BIN_EXE_carbon-show"));
    cmd.args(["--color", "never"]);
    let schemas = dir.join("schemas.json");
    if schemas.is_file() {
        cmd.arg("--schemas").arg(&schemas);
    }
    for arg in extra_args(dir)? {
        cmd.arg(arg);
    }
    cmd.arg(&plan);
    cmd.current_dir(dir);
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());

    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot spawn carbon-show: {e}"))?;
    // The plan is also offered on stdin, for a CLI that reads `tofu show -json … |`.
    if let Some(mut stdin) = child.stdin.take() {
        let bytes = std::fs::read(&plan).map_err(|e| format!("cannot read plan: {e}"))?;
        std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        });
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("carbon-show did not finish: {e}"))?;
    let actual = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);

    let mut problems = String::new();
    if !out.status.success() {
        problems.push_str(&format!("exit status: {} (expected 0)\n", out.status));
        if !stderr.trim().is_empty() {
            problems.push_str(&format!("stderr:\n{}\n", stderr.trim_end()));
        }
    }
    if actual != expected {
        problems.push_str("stdout differs from expected.txt (- expected, + actual):\n");
        problems.push_str(&line_diff(&expected, &actual));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Extra CLI arguments, one per line, from the optional `args` file.
fn extra_args(dir: &Path) -> Result<Vec<String>, String> {
    let path: PathBuf = dir.join("args");
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(text
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect())
}

/// A small LCS line diff: ` ` common, `-` only expected, `+` only actual. Lines show trailing
/// whitespace and a missing final newline explicitly, since the comparison is byte for byte.
fn line_diff(expected: &str, actual: &str) -> String {
    let a: Vec<&str> = expected.split_inclusive('\n').collect();
    let b: Vec<&str> = actual.split_inclusive('\n').collect();
    let (n, m) = (a.len(), b.len());
    // lcs[i][j] = LCS length of a[i..] and b[j..]
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let show = |l: &str| -> String {
        let (body, nl) = match l.strip_suffix('\n') {
            Some(body) => (body, true),
            None => (l, false),
        };
        let mut s = body.to_owned();
        if body.ends_with(' ') || body.ends_with('\t') {
            s.push('⏎');
        }
        if !nl {
            s.push_str("  [no newline at end]");
        }
        s
    };
    let mut out = String::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            out.push_str(&format!("  {}\n", show(a[i])));
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out.push_str(&format!("+ {}\n", show(b[j])));
            j += 1;
        } else {
            out.push_str(&format!("- {}\n", show(a[i])));
            i += 1;
        }
    }
    out
}
