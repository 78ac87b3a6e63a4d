//! What the speed and memory work (issue 14) must not change: a large document from standard
//! input renders exactly as the same document given as a file, errors included, and the text of
//! the sections only the mappings read, given back to the system once they are mapped, is
//! never read again.

use crate::common::{run, stderr, stdout};

/// More than the 1 MiB past which the mapped sections' text is given back (and than the 4 MiB
/// past which standard input used to be copied to a temporary file).
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

/// Once mapped, the text of `planned_values` and `prior_state` is given back to the system (it
/// reads as zeros): the plan as rendered with the carbon annotations is the plan rendered
/// without them, line for line, for a document large enough for that to happen.
#[test]
fn the_released_sections_are_never_read_again() {
    let mut text = vec![b' '; PAD];
    text.extend(demo());
    let f = temp("padded-release.json", &text);
    let path = f.to_str().unwrap();
    for input in ["file", "stdin"] {
        let (with, without) = match input {
            "file" => (
                run(&["--color", "never", path], b""),
                run(&["--color", "never", "--no-carbon", path], b""),
            ),
            _ => (
                run(&["--color", "never"], &text),
                run(&["--color", "never", "--no-carbon"], &text),
            ),
        };
        assert!(with.status.success(), "{}", stderr(&with));
        let with = stdout(&with);
        let plan_part: Vec<&str> = with
            .lines()
            .take_while(|l| !l.starts_with("Carbon ≈"))
            .filter(|l| !l.trim_start().starts_with("# ≈") && !l.trim_start().starts_with("# ↳"))
            .collect();
        let without = stdout(&without);
        let plain: Vec<&str> = without.lines().collect();
        assert_eq!(
            plan_part.join("\n").trim_end(),
            plain.join("\n").trim_end(),
            "{input}"
        );
        assert!(with.contains("# ≈"), "{input}: the plan is annotated");
    }
}

/// The benchmark's plan shapes (issue 28, `scripts/gen-plan --shape`): each is a plan the tool
/// renders and estimates, from a file and from standard input alike, and the sensitive shape's
/// secrets appear in no output.
#[test]
fn every_benchmark_shape_is_a_plan_that_renders_and_estimates() {
    let generator =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/gen-plan/gen_plan.py");
    for shape in ["dense", "instances", "wide", "deep", "sensitive"] {
        let dir = std::env::temp_dir().join(format!("carbon-show-shape-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join(format!("{shape}.json"));
        let g = std::process::Command::new("python3")
            .arg(&generator)
            .args(["--shape", shape, "--resources", "300", "--output"])
            .arg(&f)
            .output()
            .expect("python3 runs the generator");
        assert!(g.status.success(), "{shape}: {}", stderr(&g));
        let bytes = std::fs::read(&f).unwrap();
        let o = run(&["--format", "json", f.to_str().unwrap()], b"");
        assert_eq!(o.status.code(), Some(0), "{shape}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert!(v["counts"]["estimated"].as_u64().unwrap() > 0, "{shape}");
        let human = run(&["--color", "never"], &bytes);
        assert_eq!(human.status.code(), Some(0), "{shape}");
        let file = run(&["--color", "never", f.to_str().unwrap()], b"");
        assert_eq!(
            stdout(&human),
            stdout(&file),
            "{shape}: stdin and file differ"
        );
        if let Ok(secrets) = std::fs::read_to_string(dir.join(format!("{shape}.json.secrets"))) {
            for s in secrets.lines().filter(|s| !s.is_empty()) {
                assert!(!stdout(&human).contains(s), "{shape}: {s} leaked");
                assert!(
                    !String::from_utf8_lossy(&o.stdout).contains(s),
                    "{shape}: {s}"
                );
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The redactor stores each sensitive value's forms once, in a hash table, and builds no
/// automaton for the short texts it searches: what a plan of 60,000 secrets (the sensitive
/// shape, 20k resources) adds to the peak of a 10-resource one stays within 3.5 × its file
/// (before: 4.5 ×, a trie of every form of every secret; issue 28).
#[cfg(target_os = "linux")]
#[test]
fn many_secrets_were_held_in_a_trie_of_every_form() {
    let (dir, small) = generated("sensitive", 10);
    let (dir_large, large) = generated("sensitive", 20_000);
    let size_kb = std::fs::metadata(&large).unwrap().len() as i64 / 1024;
    let base = peak_kb(&small, std::path::Path::new("/dev/null"));
    let peak = peak_kb(&large, std::path::Path::new("/dev/null"));
    let added = peak - base;
    assert!(
        added * 10 <= size_kb * 35,
        "the plan adds {added} kB to the peak ({peak} kB, {base} kB for 10 resources): more \
         than 3.5 × its {size_kb} kB"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir_large);
}

/// A plan of `shape` with `n` resources from the benchmark's generator, in a folder of its own.
fn generated(shape: &str, n: usize) -> (std::path::PathBuf, std::path::PathBuf) {
    let generator =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/gen-plan/gen_plan.py");
    let dir = std::env::temp_dir().join(format!(
        "carbon-show-peak-{shape}-{n}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(format!("{shape}.json"));
    let g = std::process::Command::new("python3")
        .arg(&generator)
        .args([
            "--shape",
            shape,
            "--resources",
            &n.to_string(),
            "--seed",
            "1",
        ])
        .arg("--output")
        .arg(&f)
        .output()
        .expect("python3 runs the generator");
    assert!(g.status.success(), "{shape}: {}", stderr(&g));
    (dir, f)
}

/// The peak resident memory (kB, the kernel's `ru_maxrss`) of one human rendering of `plan`,
/// its output written to `out`. `CARBON_SHOW_PERF_BIN` names another binary to measure (to see
/// the limits below fail on an older build).
#[cfg(target_os = "linux")]
fn peak_kb(plan: &std::path::Path, out: &std::path::Path) -> i64 {
    peak_kb_with(plan, out, &["--color", "never"])
}

/// [`peak_kb`] with the flags `args`.
#[cfg(target_os = "linux")]
#[expect(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, which also gives its rusage"
)]
fn peak_kb_with(plan: &std::path::Path, out: &std::path::Path, args: &[&str]) -> i64 {
    use std::os::unix::process::ExitStatusExt;
    let mut c = match std::env::var_os("CARBON_SHOW_PERF_BIN") {
        Some(b) => std::process::Command::new(b),
        None => crate::common::bin(),
    };
    let child = c
        .args(args)
        .arg(plan)
        .stdin(std::process::Stdio::null())
        .stdout(std::fs::File::create(out).unwrap())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn carbon-show");
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is valid; wait4 fills it for this child alone (the other
    // tests' children are not counted, as getrusage(RUSAGE_CHILDREN) would).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "wait4");
    let status = std::process::ExitStatus::from_raw(status);
    assert!(status.success(), "{}: {status}", plan.display());
    usage.ru_maxrss
}

/// Many instances of one resource (`count`) share their report entry, and the human output
/// is written as it is rendered: what a 20k-instance plan adds to the peak memory of a run of
/// a 10-instance one stays within 3 × its file (before: 3.9 ×; issue 28), whether the output
/// goes to a file or nowhere.
#[cfg(target_os = "linux")]
#[test]
fn many_instances_do_not_hold_their_report_once_each() {
    let (dir, small) = generated("instances", 10);
    let (dir_large, large) = generated("instances", 20_000);
    let size_kb = std::fs::metadata(&large).unwrap().len() as i64 / 1024;
    let base = peak_kb(&small, &dir.join("small.txt"));
    let to_file = peak_kb(&large, &dir_large.join("out.txt"));
    let to_null = peak_kb(&large, std::path::Path::new("/dev/null"));
    let written = std::fs::metadata(dir_large.join("out.txt")).unwrap().len() as i64 / 1024;
    assert!(written > size_kb / 4, "the output is large: {written} kB");
    for (to, peak) in [("a file", to_file), ("/dev/null", to_null)] {
        let added = peak - base;
        assert!(
            added * 10 <= size_kb * 30,
            "to {to}: the plan adds {added} kB to the peak ({peak} kB, {base} kB for 10 \
             instances): more than 3 × its {size_kb} kB"
        );
    }
    // the output's size does not add to the peak: it is not held whole
    assert!(
        (to_file - to_null).abs() * 10 < written,
        "to a file {to_file} kB, to /dev/null {to_null} kB, for {written} kB written"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir_large);
}

/// The Markdown comment keeps of a plan's text only what it can show (`--max-chars`): a
/// 20k-instance plan's comment peaks within a tenth of its human text above the human run
/// (before: the whole text was held, then copied into the fold, then cut; a 200k-instance
/// plan peaked at 470 MB in Markdown against 405 MB in human output).
#[cfg(target_os = "linux")]
#[test]
fn a_large_plans_comment_held_its_whole_text_to_show_65536_characters() {
    let (dir, large) = generated("instances", 20_000);
    let human = peak_kb(&large, &dir.join("human.txt"));
    let markdown = peak_kb_with(&large, &dir.join("comment.md"), &["--format", "markdown"]);
    let text_kb = std::fs::metadata(dir.join("human.txt")).unwrap().len() as i64 / 1024;
    let comment = std::fs::read_to_string(dir.join("comment.md")).unwrap();
    assert!(comment.chars().count() <= 65_536);
    assert!(
        comment.contains("more lines of the plan left out"),
        "the plan was cut: {}",
        &comment[comment.len().saturating_sub(400)..]
    );
    assert!(text_kb > 2048, "the plan's text is large: {text_kb} kB");
    assert!(
        markdown - human < text_kb / 10,
        "Markdown peaks at {markdown} kB, human output at {human} kB, for {text_kb} kB of text"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
