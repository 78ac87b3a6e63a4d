//! What the speed and memory work (issue 14) must not change: standard input past the
//! in-memory limit is copied to a temporary file while it is mapped, and still renders exactly
//! as the same document given as a file, errors included.

use crate::common::{run, stderr, stdout};

/// More than the 4 MiB that standard input may take in memory before it is spooled.
const PAD: usize = 5 << 20;

fn demo() -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/demo/plan.json"))
        .unwrap()
}

fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("carbon-show-perf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(name);
    std::fs::write(&f, bytes).unwrap();
    f
}

/// The document starts past the first 4 MiB (after whitespace), so what was read to decide and
/// the rest of the stream must be joined in order, in the document and in the text read back.
#[test]
fn a_large_stdin_renders_as_the_same_file() {
    let mut text = vec![b' '; PAD];
    text.extend(demo());
    text.extend(b"\n\n");
    let f = temp("padded.json", &text);
    for format in ["human", "json", "markdown"] {
        let args = ["--color", "never", "--format", format];
        let file = run(&[&args[..], &[f.to_str().unwrap()]].concat(), b"");
        assert!(file.status.success(), "{}", stderr(&file));
        let piped = run(&args, &text);
        assert!(piped.status.success(), "{format}: {}", stderr(&piped));
        assert_eq!(stdout(&piped), stdout(&file), "{format}");
    }
    let human = stdout(&run(&["--color", "never"], &text));
    assert!(human.contains("# ≈"), "the demo plan is annotated");
    assert!(human.contains("Carbon ≈"), "and summed up");
}

/// A spooled input that is not valid JSON gets the plan reader's error, at the same line and
/// column as the same bytes in a file.
#[test]
fn a_large_broken_stdin_names_the_place() {
    let mut text = vec![b'\n'; PAD];
    let demo = demo();
    text.extend(&demo[..demo.len() / 2]);
    let f = temp("truncated.json", &text);
    let file = run(&[f.to_str().unwrap()], b"");
    let piped = run(&[], &text);
    assert_eq!(piped.status.code(), Some(5), "{}", stderr(&piped));
    assert_eq!(file.status.code(), Some(5));
    let want = stderr(&file).replace(f.to_str().unwrap(), "<stdin>");
    assert_eq!(stderr(&piped), want);
    assert!(
        want.contains(&format!(":{}:", PAD + 1)) || want.contains("line"),
        "{want}"
    );
}
