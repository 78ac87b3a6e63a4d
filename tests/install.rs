//! scripts/ci/install.sh (what action.yml runs) against a fake release server on 127.0.0.1:
//! a verified download in seconds, a tampered asset refused, a cached archive used only when it
//! matches, a build from the action's own folder with an explicit toolchain, and nothing from
//! the checkout or the working directory ever run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::stderr;
use crate::fake_http::{self, Request, Response, Server};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("carbon-show-in-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn executable(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

const ASSET: &str = "carbon-show-X64-Linux.tar.gz";
const RELEASE: &str = "/acme/carbon-show/releases/download/v9.9.9";

/// A release archive as scripts/ci/release-build.sh makes one, of a stand-in binary that
/// prints `carbon-show 9.9.9`, and its SHA-256.
fn release_archive(d: &Path) -> (Vec<u8>, String) {
    let stage = d.join("stage");
    executable(
        &stage.join("carbon-show"),
        "#!/bin/sh\necho carbon-show 9.9.9\n",
    );
    let archive = d.join(ASSET);
    let tar = Command::new("tar")
        .arg("-czf")
        .arg(&archive)
        .arg("-C")
        .arg(&stage)
        .arg("carbon-show")
        .status()
        .unwrap();
    assert!(tar.success());
    let sum = Command::new("sha256sum").arg(&archive).output().unwrap();
    let sum = String::from_utf8(sum.stdout).unwrap();
    (
        std::fs::read(&archive).unwrap(),
        sum.split(' ').next().unwrap().to_string(),
    )
}

/// Serves `archive` and a checksum file saying `published`.
fn release_server(archive: Vec<u8>, published: String) -> Server {
    fake_http::serve(move |req: &Request, _| {
        let path = req.path.as_str();
        if path == format!("{RELEASE}/{ASSET}") {
            Response::bytes("200 OK", archive.clone())
        } else if path == format!("{RELEASE}/{ASSET}.sha256") {
            Response::bytes("200 OK", format!("{published}  {ASSET}\n").into_bytes())
        } else {
            Response::bytes("404 Not Found", b"Not Found".to_vec())
        }
    })
}

/// A pull request's checkout with hostile programs in it (and in its `bin/`), each of which
/// leaves `RAN-<name>` in `witness` if it ever runs.
fn hostile_checkout(d: &Path, witness: &Path) -> PathBuf {
    let checkout = d.join("checkout");
    std::fs::create_dir_all(witness).unwrap();
    for dir in [checkout.clone(), checkout.join("bin")] {
        for name in [
            "carbon-show",
            "cargo",
            "rustup",
            "curl",
            "tar",
            "sha256sum",
            "cut",
            "mktemp",
        ] {
            let w = witness.join(format!("RAN-{name}"));
            executable(
                &dir.join(name),
                &format!("#!/bin/sh\ntouch '{}'\nexit 0\n", w.display()),
            );
        }
    }
    std::fs::write(
        checkout.join("rust-toolchain.toml"),
        "[toolchain]\npath = \"./bin\"\n",
    )
    .unwrap();
    checkout
}

/// install.sh run from `cwd` as action.yml runs it, with `path` prepended to PATH.
fn install(cwd: &Path, args: &[&str], path: &str, env: &[(&str, &str)]) -> (Output, Duration) {
    let system_path = std::env::var("PATH").unwrap();
    let mut c = Command::new("bash");
    c.arg(root().join("scripts/ci/install.sh"))
        .args(args)
        .current_dir(cwd)
        .env("PATH", format!("{path}:{system_path}"))
        .env("RUNNER_ARCH", "X64")
        .env("RUNNER_OS", "Linux")
        .env_remove("GITHUB_TOKEN")
        .env_remove("GH_TOKEN")
        .env_remove("CI_PROJECT_DIR")
        .env_remove("CARBON_SHOW_DOWNLOAD_URL")
        .stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    let start = Instant::now();
    let o = c.output().unwrap();
    (o, start.elapsed())
}

fn witnesses(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

fn last_line(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .last()
        .unwrap_or("")
        .to_string()
}

#[test]
fn install_script_downloads_and_verifies_the_release_in_seconds_running_nothing_from_the_checkout()
{
    let d = scratch("release");
    let (archive, sum) = release_archive(&d);
    let server = release_server(archive, sum);
    let witness = d.join("witness");
    let checkout = hostile_checkout(&d, &witness);
    let dest = d.join("dest");
    let path = format!(
        ".:bin:{}:{}",
        checkout.display(),
        checkout.join("bin").display()
    );
    let (o, took) = install(
        &checkout,
        &[
            "--mode",
            "auto",
            "--dest",
            dest.to_str().unwrap(),
            "--version",
            "v9.9.9",
            "--repo",
            "acme/carbon-show",
        ],
        &path,
        &[
            ("GITHUB_WORKSPACE", checkout.to_str().unwrap()),
            ("CARBON_SHOW_DOWNLOAD_URL", &server.url),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert_eq!(
        witnesses(&witness),
        Vec::<String>::new(),
        "a program from the checkout ran"
    );
    let installed = dest.join("carbon-show");
    assert_eq!(last_line(&o), installed.to_str().unwrap());
    let v = Command::new(&installed).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&v.stdout), "carbon-show 9.9.9\n");
    assert!(stderr(&o).contains("verified (sha256 "), "{}", stderr(&o));
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(
        paths,
        [
            format!("{RELEASE}/{ASSET}.sha256"),
            format!("{RELEASE}/{ASSET}")
        ]
    );
    assert!(
        server
            .requests()
            .iter()
            .all(|r| r.header("authorization").is_none())
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn install_script_refuses_a_tampered_asset() {
    let d = scratch("tampered");
    let (mut archive, sum) = release_archive(&d);
    let n = archive.len();
    archive[n - 9] ^= 0xff; // the gzip trailer: the archive no longer matches its checksum
    let server = release_server(archive, sum.clone());
    let dest = d.join("dest");
    let (o, _) = install(
        &d,
        &[
            "--mode",
            "release",
            "--dest",
            dest.to_str().unwrap(),
            "--version",
            "v9.9.9",
            "--repo",
            "acme/carbon-show",
        ],
        "",
        &[("CARBON_SHOW_DOWNLOAD_URL", &server.url)],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("the release publishes {sum}: refusing it")),
        "{err}"
    );
    assert!(!dest.join("carbon-show").exists());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn install_script_uses_a_cached_archive_only_when_it_matches_the_release() {
    let d = scratch("cache");
    let (archive, sum) = release_archive(&d);
    let server = release_server(archive.clone(), sum);
    let cache = d.join("cache");
    let cached = cache.join("v9.9.9").join(ASSET);
    std::fs::create_dir_all(cached.parent().unwrap()).unwrap();
    std::fs::write(&cached, b"poisoned").unwrap();
    let run = || {
        let dest = d.join("dest");
        install(
            &d,
            &[
                "--mode",
                "release",
                "--dest",
                dest.to_str().unwrap(),
                "--version",
                "v9.9.9",
                "--repo",
                "acme/carbon-show",
                "--cache",
                cache.to_str().unwrap(),
            ],
            "",
            &[("CARBON_SHOW_DOWNLOAD_URL", &server.url)],
        )
        .0
    };
    // a poisoned cache entry: downloaded again, and the cache repaired
    let o = run();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("does not match the release's checksum"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&cached).unwrap(), archive);
    assert_eq!(server.requests().len(), 2);
    // a good one: only the checksum is fetched
    let o = run();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cached carbon-show-X64-Linux.tar.gz verified"),
        "{}",
        stderr(&o)
    );
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths[2..], [format!("{RELEASE}/{ASSET}.sha256")]);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn install_script_auto_uses_carbon_show_on_path_only_outside_the_checkout() {
    let d = scratch("path");
    let witness = d.join("witness");
    let checkout = hostile_checkout(&d, &witness);
    let tools = d.join("tools");
    executable(&tools.join("carbon-show"), "#!/bin/sh\necho preinstalled\n");
    let dest = d.join("dest");
    let ws = [("GITHUB_WORKSPACE", checkout.to_str().unwrap())];
    let args = [
        "--mode",
        "auto",
        "--dest",
        dest.to_str().unwrap(),
        "--version",
        "main",
        "--repo",
        "acme/carbon-show",
    ];
    // only the checkout's: not taken, and not a release tag either: one line, exit 1
    let (o, _) = install(
        &checkout,
        &args,
        &format!(".:{}", checkout.join("bin").display()),
        &ws,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("'main', not a v* release tag"), "{err}");
    // one outside the checkout, after the checkout's on PATH: that one
    let path = format!(".:{}:{}", checkout.join("bin").display(), tools.display());
    let (o, _) = install(&checkout, &args, &path, &ws);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(last_line(&o), tools.join("carbon-show").to_str().unwrap());
    assert_eq!(
        witnesses(&witness),
        Vec::<String>::new(),
        "a program from the checkout ran"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn install_script_builds_the_actions_own_folder_with_an_explicit_toolchain_outside_the_checkout() {
    let d = scratch("cargo");
    let witness = d.join("witness");
    let checkout = hostile_checkout(&d, &witness);
    // a stand-in cargo (outside the checkout) that records how it was called
    let tools = d.join("tools");
    let log = d.join("cargo.log");
    executable(
        &tools.join("cargo"),
        &format!(
            "#!/bin/bash\n{{ echo \"cwd=$PWD\"; echo \"toolchain=$RUSTUP_TOOLCHAIN\"; echo \"args=$*\"; }} > '{}'\nroot=\"${{@: -1}}\"\nmkdir -p \"$root/bin\" && printf '#!/bin/sh\\necho built\\n' > \"$root/bin/carbon-show\" && chmod +x \"$root/bin/carbon-show\"\n",
            log.display()
        ),
    );
    let action = d.join("action");
    std::fs::create_dir_all(&action).unwrap();
    std::fs::write(action.join("Cargo.toml"), "[package]\n").unwrap();
    let dest = d.join("dest");
    let ws = [("GITHUB_WORKSPACE", checkout.to_str().unwrap())];
    let path = format!(".:{}:{}", checkout.display(), tools.display());
    let (o, _) = install(
        &checkout,
        &[
            "--mode",
            "cargo",
            "--dest",
            dest.to_str().unwrap(),
            "--source",
            action.to_str().unwrap(),
            "--toolchain",
            "1.89",
        ],
        &path,
        &ws,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        witnesses(&witness),
        Vec::<String>::new(),
        "a program from the checkout ran"
    );
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(log.contains(&format!("cwd={}\n", dest.display())), "{log}");
    assert!(log.contains("toolchain=1.89\n"), "{log}");
    assert!(
        log.contains(&format!(
            "install --locked --path {} --root {}/cargo",
            action.display(),
            dest.display()
        )),
        "{log}"
    );
    assert_eq!(last_line(&o), dest.join("carbon-show").to_str().unwrap());
    // the checkout itself as the source (a workflow's `uses: ./`): refused
    let (o, _) = install(
        &checkout,
        &[
            "--mode",
            "cargo",
            "--dest",
            dest.to_str().unwrap(),
            "--source",
            checkout.to_str().unwrap(),
        ],
        &path,
        &[("GITHUB_WORKSPACE", checkout.to_str().unwrap())],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("inside the checkout"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&d);
}

fn yaml(path: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{path} is not YAML: {e}"))
}

#[test]
fn action_yml_install_step_has_no_token_and_runs_install_sh_outside_the_checkout() {
    let action = yaml("action.yml");
    let steps = action["runs"]["steps"].as_array().unwrap();
    let install = steps
        .iter()
        .find(|s| s["name"] == "Install carbon-show")
        .expect("an install step");
    for (k, v) in install["env"].as_object().unwrap() {
        let v = v.as_str().unwrap_or("");
        assert!(
            !k.contains("TOKEN") && !v.contains("token") && !v.contains("secrets"),
            "{k}: {v}"
        );
    }
    assert_eq!(install["working-directory"], "${{ runner.temp }}");
    let run = install["run"].as_str().unwrap();
    assert!(run.contains("scripts/ci/install.sh") && run.contains("--dest \"$RUNNER_TEMP/"));
    assert!(
        !run.contains("cargo install") && !run.contains("gh release"),
        "{run}"
    );
    // the token is in the comment step only
    let with_token: Vec<&str> = steps
        .iter()
        .filter(|s| s["env"].to_string().contains("github-token"))
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(with_token, ["Run carbon-show and comment"]);
}

#[test]
fn gitlab_snippet_installs_a_verified_release_outside_the_project_with_a_versioned_cache() {
    let job = &yaml("docs/ci/gitlab-ci.yml")["carbon-show"];
    let key = job["cache"]["key"].as_str().unwrap();
    assert!(key.contains("$CARBON_SHOW_VERSION"), "{key}");
    let script: Vec<&str> = job["script"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let all = script.join("\n");
    assert!(
        all.contains("install.sh") && all.contains("--mode release"),
        "{all}"
    );
    assert!(
        all.contains("--dest /tmp/") && all.contains("env -u GITLAB_TOKEN"),
        "{all}"
    );
    assert!(
        !all.contains("cargo install") && !all.contains(".carbon-show-bin"),
        "{all}"
    );
    assert!(all.contains("comment.py --platform gitlab"), "{all}");
}

#[test]
fn release_workflow_and_ci_build_with_the_same_script_for_every_target() {
    let wf = yaml(".github/workflows/release.yml");
    assert_eq!(wf["on"]["push"]["tags"][0], "v*");
    let targets: Vec<&str> = wf["jobs"]["build"]["strategy"]["matrix"]["include"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["target"].as_str().unwrap())
        .collect();
    for t in [
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "x86_64-apple-darwin",
        "aarch64-apple-darwin",
        "x86_64-pc-windows-gnu",
    ] {
        assert!(targets.contains(&t), "{t} missing from {targets:?}");
    }
    // the Windows row is the cross-build verified on Linux (docs/ci.md, "Releases"): MinGW on
    // Ubuntu, and it is required like the others
    let rows = wf["jobs"]["build"]["strategy"]["matrix"]["include"].clone();
    let windows = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["target"] == "x86_64-pc-windows-gnu")
        .unwrap();
    assert_eq!(
        (&windows["os"], &windows["mingw"]),
        (&serde_json::json!("ubuntu-24.04"), &serde_json::json!(true))
    );
    assert!(wf["jobs"]["build"]["continue-on-error"].is_null());
    let steps_text = wf["jobs"]["build"]["steps"].to_string();
    assert!(steps_text.contains("gcc-mingw-w64-x86-64") && steps_text.contains("musl-tools"));
    let publish = wf["jobs"]["publish"]["steps"].to_string();
    assert!(publish.contains("ARM64-macOS X64-Windows"), "{publish}");
    let steps = wf["jobs"]["build"]["steps"].to_string();
    assert!(
        steps.contains("bash scripts/ci/release-build.sh --target"),
        "{steps}"
    );
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(ci.contains("\nbash scripts/ci/release-build.sh"), "{ci}");
    // every asset name the workflow can make is one install.sh asks for
    let script = std::fs::read_to_string(root().join("scripts/ci/release-build.sh")).unwrap();
    for platform in [
        "X64-Linux",
        "ARM64-Linux",
        "X64-macOS",
        "ARM64-macOS",
        "X64-Windows",
    ] {
        assert!(
            script.contains(&format!("platform={platform}")),
            "{platform}"
        );
    }
}

#[test]
fn release_build_script_packages_a_binary_with_its_checksum() {
    // packaging only (--no-build) of a stand-in binary: the archive holds it at its root, and
    // the .sha256 is what install.sh checks
    let d = scratch("package");
    // a copy of the script in a scratch repository, so the real target/ is never touched
    let fake = d.join("repo");
    for f in ["scripts/ci/release-build.sh", "testdata/demo/plan.json"] {
        std::fs::create_dir_all(fake.join(f).parent().unwrap()).unwrap();
        std::fs::copy(root().join(f), fake.join(f)).unwrap();
    }
    // writes the stand-in binary, packs it into `out`, and gives the archive's .sha256 line
    let pack = |out: &str| {
        executable(
            &fake.join("target/x86_64-unknown-linux-musl/release/carbon-show"),
            "#!/bin/sh\necho stand-in\n",
        );
        let o = Command::new("bash")
            .arg(fake.join("scripts/ci/release-build.sh"))
            .args([
                "--target",
                "x86_64-unknown-linux-musl",
                "--no-build",
                "--out",
            ])
            .arg(d.join(out))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        std::fs::read_to_string(d.join(format!("{out}/{ASSET}.sha256"))).unwrap()
    };
    let sum = pack("dist");
    assert!(sum.ends_with(&format!("  {ASSET}\n")), "{sum}");
    let check = Command::new("sha256sum")
        .args(["--check", "--strict", &format!("{ASSET}.sha256")])
        .current_dir(d.join("dist"))
        .output()
        .unwrap();
    assert!(check.status.success(), "{}", stderr(&check));
    let list = Command::new("tar")
        .arg("-tzf")
        .arg(d.join("dist").join(ASSET))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&list.stdout), "carbon-show\n");
    // the same binary packed again later (its file touched, the clock moved) is the same
    // archive: the archive used to carry the build's file time, so its checksum changed with
    // every build of identical code
    std::thread::sleep(Duration::from_millis(1100));
    assert_eq!(pack("dist2"), sum, "the same binary gave another archive");
    let _ = std::fs::remove_dir_all(&d);
}

/// `cargo install carbon-show` builds from the published package, which holds only what
/// Cargo.toml's `include` lists: every file the library or binary embeds with `include_str!` /
/// `include_bytes!` (outside its `#[cfg(test)]` module) and every folder `build.rs` reads must
/// be in it, or the crate builds here and fails for everyone who installs it.
#[test]
fn the_published_package_holds_every_file_the_build_embeds() {
    let o = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "package",
            "--list",
            "--allow-dirty",
            "--offline",
            "--locked",
        ])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let listed: std::collections::BTreeSet<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    for needed in [
        "build.rs",
        "Cargo.lock",
        "README.md",
        "LICENSE",
        "src/main.rs",
        "src/lib.rs",
    ] {
        assert!(listed.contains(needed), "{needed} not packaged");
    }
    // build.rs reads every mapping file
    for provider in std::fs::read_dir(root().join("mappings"))
        .unwrap()
        .flatten()
    {
        for f in std::fs::read_dir(provider.path()).unwrap().flatten() {
            let rel = f.path().strip_prefix(root()).unwrap().display().to_string();
            assert!(
                listed.contains(&rel),
                "{rel} (read by build.rs) not packaged"
            );
        }
    }
    let embed = regex::Regex::new(r#"include_(?:str|bytes)!\("([^"]+)"\)"#).unwrap();
    let mut dirs = vec![root().join("src")];
    let mut checked = 0;
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
                continue;
            }
            if p.extension().and_then(|x| x.to_str()) != Some("rs") {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            // the unit tests sit at the end of a file, after `#[cfg(test)]`
            let code = text.split("#[cfg(test)]").next().unwrap();
            for c in embed.captures_iter(code) {
                let target = p.parent().unwrap().join(&c[1]);
                let target = std::fs::canonicalize(&target)
                    .unwrap_or_else(|e| panic!("{}: {}: {e}", p.display(), &c[1]));
                let rel = target
                    .strip_prefix(std::fs::canonicalize(root()).unwrap())
                    .unwrap()
                    .display()
                    .to_string();
                assert!(
                    listed.contains(&rel),
                    "{} embeds {rel}, which Cargo.toml's include leaves out of the package",
                    p.display()
                );
                checked += 1;
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} embedded files found: the scan is broken"
    );
}
