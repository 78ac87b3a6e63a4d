//! Helpers shared by the integration tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The built binary.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_carbon-show"))
}

/// The binary in `cwd` with no `CARBON_SHOW_*` variable but those in `env`, stdin closed.
pub fn run_in(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = bin();
    c.current_dir(cwd).args(args).stdin(Stdio::null());
    for (k, _) in carbon_show::config::ENV_VARS {
        c.env_remove(k);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run carbon-show")
}

/// Runs the binary with `args`, feeding `stdin`.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = bin()
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn carbon-show");
    let mut pipe = child.stdin.take().expect("stdin");
    let bytes = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&bytes);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer thread");
    out
}

/// Runs the binary on a document given as text (through stdin), with `--color never`.
pub fn render(doc: &str, extra: &[&str]) -> Output {
    let mut args = vec!["--color", "never"];
    args.extend_from_slice(extra);
    run(&args, doc.as_bytes())
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The real-world plans written by others, copied into the repository with their licences
/// (`testdata/plans/README.md`): tests never read outside the repository.
pub fn real_plans() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/plans")
}

/// Asserts a failure: the exit code, and exactly one line on stderr naming the input.
pub fn assert_one_line_error(o: &Output, code: i32, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line expected: {err:?}");
    assert!(err.contains(needle), "{needle:?} not in {err:?}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Writes `text` to the process's standard error past the test harness's capture (which takes
/// `eprintln!` and `std::io::stderr()` of a passing test's thread): a skip notice must be seen.
pub fn loud(text: &str) {
    use std::io::Write;
    match std::fs::OpenOptions::new().append(true).open("/dev/stderr") {
        Ok(mut f) => {
            let _ = f.write_all(text.as_bytes());
        }
        Err(_) => eprint!("{text}"),
    }
}
