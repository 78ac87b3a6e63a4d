//! A pull request's repository is untrusted input (issue 24, docs/security.md): its
//! `.carbon-show.toml` cannot make the run read folders outside the repository, and its mapping
//! folders cannot lead the walk outside themselves or round in a loop.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::{run_in, stderr};

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/demo/plan.json")
}

/// A fresh repository (a folder with `.git`) under the temporary directory.
fn repo(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("carbon-show-pr-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join(".git")).unwrap();
    d
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

#[test]
fn a_repository_config_pointed_data_and_mappings_outside_the_repository() {
    let outside = repo("outside-target");
    std::fs::create_dir_all(outside.join("m")).unwrap();
    let r = repo("outside");
    std::fs::create_dir_all(r.join("infra")).unwrap();
    #[cfg(unix)]
    symlink(&outside, &r.join("link-out"));
    let plan = demo();
    let plan = plan.to_str().unwrap();
    for (key, value) in [
        ("data", "/"),
        ("data", ".."),
        ("data", "infra/../../"),
        ("mappings", "/tmp"),
        ("mappings", "link-out/m"),
        ("data", "link-out"),
    ] {
        std::fs::write(
            r.join(".carbon-show.toml"),
            format!("period = \"month\"\n{key} = [{value:?}]\n"),
        )
        .unwrap();
        // found upward from a sub-folder of the repository, as in CI
        let o = run_in(&r.join("infra"), &["--format", "json", plan], &[]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(10), "{key} = {value}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(".carbon-show.toml:2:"), "{err}");
        assert!(err.contains("outside the repository"), "{err}");
        assert!(o.stdout.is_empty(), "{key} = {value}");
        // the workflow may say it trusts the file
        let o = run_in(
            &r.join("infra"),
            &["--format", "json", plan],
            &[("CARBON_SHOW_TRUST_CONFIG", "1")],
        );
        assert_ne!(
            o.status.code(),
            Some(10),
            "trusted {key} = {value}: {}",
            stderr(&o)
        );
    }
    // a folder inside the repository is fine, and so is any folder named by the workflow
    std::fs::create_dir_all(r.join("infra/data")).unwrap();
    std::fs::write(r.join(".carbon-show.toml"), "data = [\"infra/data\"]\n").unwrap();
    let o = run_in(&r, &["--format", "json", plan], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::write(r.join(".carbon-show.toml"), "period = \"month\"\n").unwrap();
    let o = run_in(
        &r,
        &["--format", "json", plan],
        &[("CARBON_SHOW_DATA", outside.to_str().unwrap())],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&r);
    let _ = std::fs::remove_dir_all(&outside);
}

#[cfg(unix)]
#[test]
fn two_symlinks_to_the_mapping_folder_itself_never_finished_loading() {
    let r = repo("loop");
    let m = r.join("mappings");
    std::fs::create_dir_all(&m).unwrap();
    symlink(Path::new("."), &m.join("a"));
    symlink(Path::new("."), &m.join("b"));
    let t = Instant::now();
    let o = run_in(
        &r,
        &["--mappings", "mappings", demo().to_str().unwrap()],
        &[],
    );
    let err = stderr(&o);
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    assert_eq!(o.status.code(), Some(8), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("a loop"), "{err}");
    let o = run_in(&r, &["mappings", "check", "mappings"], &[]);
    assert_eq!(o.status.code(), Some(8), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&r);
}

#[cfg(unix)]
#[test]
fn a_mapping_file_linked_outside_its_folder_was_read() {
    let outside = repo("file-target");
    std::fs::write(
        outside.join("secret.yaml"),
        "compute_resource: {}\n# a file of the runner's\n",
    )
    .unwrap();
    let r = repo("file-link");
    let m = r.join("mappings/aws");
    std::fs::create_dir_all(&m).unwrap();
    symlink(&outside.join("secret.yaml"), &m.join("x.yaml"));
    let o = run_in(&r, &["mappings", "check", "mappings"], &[]);
    let out = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert_eq!(o.status.code(), Some(8), "{out}");
    assert!(out.contains("leads outside the mapping folder"), "{out}");
    let _ = std::fs::remove_dir_all(&r);
    let _ = std::fs::remove_dir_all(&outside);
}

/// `CARBON_SHOW_TRUST_CONFIG=TRUE` or `yes` used to mean "not trusted" silently, and a typo such
/// as `ture` too: now the variable reads like every other on/off variable, and a value that is
/// neither is an error naming it.
#[test]
fn trust_config_took_true_in_capitals_for_untrusted_silently() {
    let outside = repo("trust-values-target");
    let r = repo("trust-values");
    std::fs::write(
        r.join(".carbon-show.toml"),
        format!("data = [{:?}]\n", outside.to_str().unwrap()),
    )
    .unwrap();
    let plan = demo();
    let plan = plan.to_str().unwrap();
    for on in ["TRUE", "yes", "On", "1"] {
        let o = run_in(
            &r,
            &["--format", "json", plan],
            &[("CARBON_SHOW_TRUST_CONFIG", on)],
        );
        assert_eq!(o.status.code(), Some(0), "{on}: {}", stderr(&o));
    }
    for off in ["0", "false", "no", ""] {
        let o = run_in(
            &r,
            &["--format", "json", plan],
            &[("CARBON_SHOW_TRUST_CONFIG", off)],
        );
        assert_eq!(o.status.code(), Some(10), "{off:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("outside the repository"),
            "{}",
            stderr(&o)
        );
    }
    let o = run_in(
        &r,
        &["--format", "json", plan],
        &[("CARBON_SHOW_TRUST_CONFIG", "ture")],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(10), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("environment variable CARBON_SHOW_TRUST_CONFIG"),
        "{err}"
    );
    assert!(o.stdout.is_empty());
}
