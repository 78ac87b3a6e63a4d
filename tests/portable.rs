//! Portable builds: the Unix-only system calls stay behind `cfg(unix)` (or Linux), so that the
//! Windows and macOS release builds compile, and the release workflow builds the targets with
//! the commands verified on this machine (docs/ci.md, "Releases").

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A `#[cfg(...)]` that compiles its item only on Unix (or Linux).
fn unix_only(attr: &str) -> bool {
    let a = attr.trim();
    a.starts_with("#[cfg(unix)]")
        || a.starts_with("#[cfg(target_os = \"linux\")]")
        || a.starts_with("#[cfg(all(unix")
        || a.starts_with("#[cfg(all(target_os = \"linux\"")
}

/// An item at the top level of a file (no indentation).
fn top_item(line: &str) -> bool {
    !line.starts_with([' ', '\t', '}', '#', '/'])
        && [
            "fn ", "pub ", "pub(", "static ", "extern ", "unsafe ", "impl", "mod ", "const ",
        ]
        .iter()
        .any(|k| line.starts_with(k))
}

/// Whether the `#[cfg]` attribute at line `j` applies to line `i` below it: the statement or
/// block it is attached to has not ended before `i`.
fn applies(lines: &[&str], j: usize, i: usize) -> bool {
    let (mut depth, mut opened) = (0i32, false);
    for l in &lines[j + 1..i] {
        let code = l.split("//").next().unwrap();
        for c in code.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        let ended_statement = !opened && depth == 0 && code.trim_end().ends_with(';');
        if depth < 0 || (opened && depth == 0) || ended_statement {
            return false;
        }
    }
    true
}

/// The places (`file:line`) that use a Unix-only API where the nearest `cfg` that applies to
/// them (an inner `#[cfg]` on their block or statement, else their top-level item's) is not a
/// Unix-only one.
fn unguarded(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let code = l.split("//").next().unwrap();
            if !(code.contains("libc::") || code.contains("std::os::unix")) {
                continue;
            }
            let mut guarded = false;
            let mut j = i;
            while j > 0 {
                j -= 1;
                let t = lines[j].trim_start();
                if t.starts_with("#[cfg(") && applies(&lines, j, i) {
                    guarded = unix_only(t);
                    break;
                }
                if top_item(lines[j]) {
                    // the item's own attributes, just above it: the first cfg decides
                    let mut k = j;
                    while k > 0 && lines[k - 1].trim_start().starts_with(['#', '/']) {
                        k -= 1;
                        if lines[k].trim_start().starts_with("#[cfg(") {
                            guarded = unix_only(lines[k]);
                            break;
                        }
                    }
                    break;
                }
            }
            if !guarded {
                bad.push(format!(
                    "{}:{}: {}",
                    f.strip_prefix(root()).unwrap_or(&f).display(),
                    i + 1,
                    l.trim()
                ));
            }
        }
    }
    bad
}

#[test]
fn the_windows_build_called_unix_only_libc_functions_outside_cfg_unix() {
    let bad = unguarded(&root().join("src"));
    assert!(
        bad.is_empty(),
        "Unix-only calls outside #[cfg(unix)] (the Windows build fails on them; \
         give them a cfg(unix) and a fallback):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_unix_only_scan_finds_an_unguarded_call() {
    let d = std::env::temp_dir().join(format!("carbon-show-portable-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(
        d.join("a.rs"),
        concat!(
            "#[cfg(unix)]\nfn ok() {\n    unsafe { libc::getpid() };\n}\n\n",
            "fn inner() {\n    #[cfg(unix)]\n    unsafe { libc::getpid() };\n}\n\n",
            "pub fn bad() -> i32 {\n    unsafe { libc::getpid() }\n}\n\n",
            "fn sibling() {\n    #[cfg(unix)]\n    {\n        unsafe { libc::getpid() };\n    }\n",
            "    #[cfg(not(target_os = \"linux\"))]\n    unsafe { libc::getppid() };\n}\n",
        ),
    )
    .unwrap();
    let bad = unguarded(&d);
    assert_eq!(bad.len(), 2, "{bad:?}");
    assert!(
        bad[0].ends_with("a.rs:12: unsafe { libc::getpid() }"),
        "{bad:?}"
    );
    assert!(
        bad[1].ends_with("a.rs:21: unsafe { libc::getppid() };"),
        "{bad:?}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
