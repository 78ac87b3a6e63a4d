//! Where a run's output goes: standard output, nowhere (`--quiet`), or a file that is replaced
//! atomically (`--output FILE`: a temporary file in the same folder, renamed over it).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::error::Error;

/// The destination of the output.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Target {
    #[default]
    Stdout,
    /// `--quiet` without `--output`: nothing is written; the exit code still tells.
    Discard,
    /// `--output FILE`.
    File(PathBuf),
}

/// Runs `write` over the target. A file is written under a temporary name in its folder and
/// renamed into place only when `write` succeeded, or failed only because of `--fail-over`
/// (whose output is complete); otherwise the temporary file is removed and an existing file at
/// `path` is left as it was.
pub fn write_to(
    target: &Target,
    write: impl FnOnce(&mut dyn Write) -> Result<(), Error>,
) -> Result<(), Error> {
    match target {
        Target::Stdout => write(&mut io::stdout().lock()),
        Target::Discard => write(&mut io::sink()),
        Target::File(path) => write_file(path, write),
    }
}

/// Standard output's width in columns when it is a terminal (80 when it cannot be told).
pub fn terminal_width() -> Option<usize> {
    if !io::IsTerminal::is_terminal(&io::stdout()) {
        return None;
    }
    Some(columns().filter(|&c| c > 0).unwrap_or(80))
}

#[cfg(unix)]
fn columns() -> Option<usize> {
    // SAFETY: TIOCGWINSZ fills the `winsize` it is given, nothing else.
    let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::ioctl(1, libc::TIOCGWINSZ, &mut ws) } == 0;
    ok.then_some(usize::from(ws.ws_col))
}

/// Elsewhere (Windows consoles): the `COLUMNS` variable a shell may set, else unknown.
#[cfg(not(unix))]
fn columns() -> Option<usize> {
    std::env::var("COLUMNS").ok()?.trim().parse().ok()
}

fn write_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(), Error>,
) -> Result<(), Error> {
    let io_err = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path.file_name().ok_or_else(|| {
        io_err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--output needs a file name",
        ))
    })?;
    if !dir.is_dir() {
        return Err(io_err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("--output: no folder {} to write it in", dir.display()),
        )));
    }
    // the temporary file's name is an internal detail: the error names the output only
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{}.", name.to_string_lossy()))
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| {
            io_err(io::Error::new(
                e.kind(),
                format!("--output: cannot create a file beside it ({})", e.kind()),
            ))
        })?;
    let result = write(tmp.as_file_mut()).map_err(|e| match e {
        // the writers name their output `<stdout>`: here it is the file
        Error::Io { path: p, source } if p.as_os_str() == "<stdout>" => io_err(source),
        e => e,
    });
    match &result {
        Ok(()) | Err(Error::OverBudget(_)) => {}
        Err(_) => return result, // the temporary file is removed on drop
    }
    tmp.as_file_mut().sync_all().map_err(io_err)?;
    set_permissions(tmp.path(), path).map_err(io_err)?;
    tmp.persist(path).map_err(|e| io_err(e.error))?;
    result
}

/// The temporary file is private (0600); the output gets the permissions of the file it
/// replaces, or 0644 for a new one.
#[cfg(unix)]
fn set_permissions(tmp: &Path, target: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let perms = match std::fs::metadata(target) {
        Ok(m) => m.permissions(),
        Err(_) => std::fs::Permissions::from_mode(0o644),
    };
    std::fs::set_permissions(tmp, perms)
}

#[cfg(not(unix))]
fn set_permissions(_tmp: &Path, _target: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("carbon-show-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn entries(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_failed_run_leaves_the_old_file_and_no_temporary() {
        let d = dir("fail");
        let f = d.join("out.md");
        std::fs::write(&f, "old").unwrap();
        let r = write_to(&Target::File(f.clone()), |w| {
            w.write_all(b"half").unwrap();
            Err(Error::Mapping("broken".into()))
        });
        assert!(matches!(r, Err(Error::Mapping(_))));
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "old");
        assert_eq!(entries(&d), vec!["out.md"]);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_success_or_an_over_budget_run_replaces_the_file() {
        let d = dir("ok");
        let f = d.join("out.md");
        std::fs::write(&f, "old").unwrap();
        write_to(&Target::File(f.clone()), |w| {
            w.write_all(b"new").unwrap();
            Ok(())
        })
        .unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "new");
        let r = write_to(&Target::File(f.clone()), |w| {
            w.write_all(b"over").unwrap();
            Err(Error::OverBudget("too much".into()))
        });
        assert!(matches!(r, Err(Error::OverBudget(_))));
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "over");
        assert_eq!(entries(&d), vec!["out.md"]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&f).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o644, "{mode:o}");
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_write_error_names_the_output_file_not_stdout() {
        let d = dir("write-error");
        let f = d.join("out.json");
        let e = write_to(&Target::File(f.clone()), |_| {
            Err(Error::Io {
                path: PathBuf::from("<stdout>"),
                source: io::Error::other("disk full"),
            })
        })
        .unwrap_err();
        assert_eq!(e.to_string(), format!("{}: disk full", f.display()));
        assert!(!f.exists());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_missing_folder_is_an_io_error_naming_the_output() {
        let d = dir("missing");
        let f = d.join("no/such/out.json");
        let e = write_to(&Target::File(f), |_| Ok(())).unwrap_err();
        assert!(matches!(e, Error::Io { .. }));
        assert!(e.to_string().contains("no/such/out.json"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
