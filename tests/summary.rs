//! The carbon wording as a reader meets it: the summary in every case (nothing estimable, a
//! state, an unchanged replacement, grouped instances, what was left out), the `# ≈` lines'
//! width, and the Markdown comment as a GFM renderer shows it.

use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};

use crate::common::*;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn show_args(args: &[&str]) -> Output {
    bin()
        .current_dir(root())
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR")
        .output()
        .expect("run carbon-show")
}

fn show(file: &str, extra: &[&str]) -> String {
    let mut args = vec!["--color", "never", file];
    args.extend_from_slice(extra);
    let o = show_args(&args);
    assert!(o.status.success(), "{file}: {}", stderr(&o));
    stdout(&o)
}

/// The human summary: everything from the `Carbon` line on.
fn summary(human: &str) -> &str {
    let at = human
        .find("\nCarbon ≈ ")
        .or_else(|| human.find("\nCarbon: "))
        .unwrap_or_else(|| panic!("no summary in:\n{human}"));
    &human[at + 1..]
}

// ------------------------------------------------------------------ summary cases

/// A plan whose every resource is unsupported used to print `0 gCO2eq → 0 gCO2eq per month`,
/// read as "costs nothing". Now it says nothing was estimated and names what was not.
#[test]
fn summary_all_unsupported_says_nothing_was_estimated() {
    let human = show("testdata/carbon/unsupported.json", &[]);
    assert_eq!(
        summary(&human),
        "Carbon: not estimated — no resource in this plan has figures to add up\n\
         \x20 unsupported, not counted: aws_sagemaker_notebook_instance ×2, google_composer_environment ×1\n\
         \x20 resources: 0 estimated, 0 not estimated, 3 unsupported, 1 ignored\n"
    );
    assert!(!human.contains("CO2eq"), "no figure at all: {human}");
    let md = show(
        "testdata/carbon/unsupported.json",
        &["--format", "markdown"],
    );
    assert!(
        md.starts_with("<!-- carbon-show -->\n### ⚠ carbon-show could not estimate this plan\n"),
        "{md}"
    );
    assert!(
        md.contains(
            "**Not counted:** 3 resources without figures; 1 ignored, with no emissions of their own (networks, IAM, …).\n\n\
             - `aws_sagemaker_notebook_instance` × 2 — unsupported: no mapping covers this type\n\
             - `google_composer_environment` × 1 — unsupported: no mapping covers this type\n"
        ),
        "{md}"
    );
    assert!(
        !md.contains("| **total**"),
        "no totals table of zeros: {md}"
    );
}

/// A state document is what runs: its footprint, no before → after and no delta.
#[test]
fn summary_state_is_a_footprint_without_delta() {
    let human = show("testdata/carbon/state.json", &[]);
    let s = summary(&human);
    assert!(
        s.starts_with(
            "Carbon ≈ 6.83 kgCO2eq/month: what this state's resources emit, at 50 % CPU utilisation (burstables at their baseline)\n\
             \x20 9.36 gCO2eq/h · 82.0 kgCO2eq/year\n"
        ),
        "{s}"
    );
    assert!(
        s.contains("  largest per month:\n    3.26 kgCO2eq  aws_instance.web\n"),
        "{s}"
    );
    // what could be greener is a change the reader could make, not one the state makes
    let (s, greener) = s.split_at(s.find("  could be greener").expect("a state's savings"));
    assert!(
        greener.contains("aws_instance.web: type m5.large → m6g.large (-21 %)"),
        "{greener}"
    );
    let signed = s
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b'+' && w[1].is_ascii_digit());
    assert!(!s.contains('→') && !signed, "no change in a state: {s}");
    let md = show("testdata/carbon/state.json", &["--format", "markdown"]);
    assert!(
        md.contains("### This state's resources emit 6.83 kgCO2eq per month\n"),
        "{md}"
    );
    assert!(
        md.contains("| kgCO2eq per month | emits | range |\n"),
        "{md}"
    );
    assert!(!md.contains("before"), "{md}");
}

/// A replacement that changes no figure used to print
/// `3.09 gCO2eq/h → 3.09 gCO2eq/h (0 gCO2eq/h, 0 gCO2eq/month)`.
#[test]
fn summary_unchanged_replacement_says_unchanged() {
    let human = show("testdata/carbon/replace.json", &[]);
    assert!(
        human.contains(
            "  # google_compute_instance.batch must be replaced\n\
             \x20 # ≈ unchanged at 1.24 kgCO2eq/month [0.835–1.66] · 2 vCPU · 8 GiB · 20 GB SSD · europe-west1\n"
        ),
        "{human}"
    );
    assert_eq!(
        summary(&human),
        "Carbon ≈ unchanged at 1.24 kgCO2eq/month, at 50 % CPU utilisation\n\
         \x20 operational 653 gCO2eq + embodied 582 gCO2eq per month\n\
         \x20 range after: 0.835–1.66 kgCO2eq per month (utilisation 10–90 %, spread of the coefficients)\n\
         \x20 resources: 1 estimated, 0 not estimated, 0 unsupported, 0 ignored\n"
    );
    assert!(!human.contains("0 gCO2eq/h"), "{human}");
    let md = show("testdata/carbon/replace.json", &["--format", "markdown"]);
    assert!(
        md.contains("### = This plan leaves emissions unchanged at 1.24 kgCO2eq per month\n"),
        "{md}"
    );
}

/// Instances of one resource are one line (`worker[0..2] ×3`), not three; what could not be
/// counted is named.
#[test]
fn summary_groups_instances_and_names_what_was_left_out() {
    let human = show("testdata/demo/plan.json", &[]);
    let s = summary(&human);
    assert_eq!(
        s,
        "Carbon ≈ +32.1 kgCO2eq/month (+694 %): 4.62 kgCO2eq → 36.7 kgCO2eq per month\n\
         \x20 +43.9 gCO2eq/h · +385 kgCO2eq/year · at 50 % CPU utilisation (burstables at their baseline)\n\
         \x20 after: operational 26.5 kgCO2eq + embodied 10.2 kgCO2eq per month\n\
         \x20 range after: 24.8–52.7 kgCO2eq per month (utilisation 10–90 %, spread of the coefficients)\n\
         \x20 largest changes per month:\n\
         \x20   +6.53 kgCO2eq  aws_db_instance.main\n\
         \x20   +5.71 kgCO2eq  aws_instance.worker[0..2] ×3\n\
         \x20   +5.12 kgCO2eq  module.eu.aws_instance.app[\"api\",\"web\"] ×2\n\
         \x20   and 8 more (--format json or markdown for all)\n\
         \x20 could be greener, per month (docs/alternatives.md):\n\
         \x20   -3.61 kgCO2eq  module.eu.aws_instance.app[\"api\",\"web\"] ×2: region eu-west-1 → eu-north-1 (-70 %)\n\
         \x20   -3.60 kgCO2eq  module.eu.mod…aws_elasticache_cluster.this: region eu-west-1 → eu-north-1 (-70 %)\n\
         \x20   -2.09 kgCO2eq  azurerm_linux_virtual_machine.app: region westeurope → swedencentral (-75 %)\n\
         \x20 unsupported, no sourced method, not counted:\n\
         \x20   google_storage_bucket.assets: needs storage_gb in carbon-usage.yml (carbon-show usage template)\n\
         \x20 resources: 15 estimated, 0 not estimated, 1 unsupported, 4 ignored\n\
         \x20 by module per month (--module-depth 1):\n\
         \x20   +21.8 kgCO2eq  (root module): 4.62 kgCO2eq → 26.5 kgCO2eq · 13 resources\n\
         \x20   +10.2 kgCO2eq  module.eu: 0 gCO2eq → 10.2 kgCO2eq · 3 resources\n"
    );
    // the summary closes the output, after OpenTofu's `Changes to Outputs:`
    assert!(
        human.contains("  ~ web_instance_type = \"m5.large\" -> \"m5.xlarge\"\n\nCarbon ≈ "),
        "{human}"
    );
    let unknown = show("testdata/carbon/unknown.json", &[]);
    assert!(
        summary(&unknown).contains(
            "  not estimated, not counted:\n\
             \x20   aws_instance.mystery: instance_type known after apply\n"
        ),
        "{unknown}"
    );
    // an unknown region alone is estimated with the provider's range, not left out
    assert!(
        summary(&unknown).contains("  aws_instance.nowhere\n"),
        "{unknown}"
    );
}

/// The headline's label and delta are styled through the theme (bold, red for a rise, green
/// for a fall); the detail lines keep the annotation style.
#[test]
fn summary_headline_is_styled_not_all_dim() {
    let o = show_args(&["--color", "always", "testdata/demo/plan.json"]);
    let out = stdout(&o);
    assert!(
        out.contains(
            "\x1b[1mCarbon\x1b[0m ≈ \x1b[31m+32.1 kgCO2eq/month\x1b[0m (+694 %): 4.62 kgCO2eq → 36.7 kgCO2eq per month\n\
             \x1b[2m  +43.9 gCO2eq/h"
        ),
        "{out:?}"
    );
    let o = show_args(&["--color", "always", "testdata/carbon/changes.json"]);
    assert!(
        stdout(&o).contains("\x1b[1mCarbon\x1b[0m ≈ \x1b[32m-7.10 kgCO2eq/month\x1b[0m"),
        "{:?}",
        stdout(&o)
    );
}

// ------------------------------------------------------------------ annotation lines

/// Every `# ≈` line of the demo, and every summary line, fits 100 columns (they were 104–168).
#[test]
fn demo_carbon_lines_fit_100_columns() {
    let human = show("testdata/demo/plan.json", &[]);
    let mut carbon = 0;
    for l in human.lines() {
        if l.trim_start().starts_with("# ≈") || l.starts_with("Carbon") {
            carbon += 1;
        }
    }
    assert!(carbon >= 15, "{human}");
    for l in human.lines().filter(|l| l.trim_start().starts_with("# ≈")) {
        assert!(
            l.chars().count() <= 100,
            "{} columns: {l}",
            l.chars().count()
        );
    }
    for l in summary(&human).lines() {
        assert!(
            l.chars().count() <= 100,
            "{} columns: {l}",
            l.chars().count()
        );
    }
    // the headline period leads
    assert!(
        human.contains(
            "  # aws_instance.worker[0] will be created\n  # ≈ +1.90 kgCO2eq/month [1.45–3.37] · +2.61 g/h · 2 vCPU · 4 GiB · 20 GB SSD · us-east-1\n"
        ),
        "{human}"
    );
    // an assumption gets a line of its own
    assert!(
        human.contains(
            "  # ≈ +727 gCO2eq/month [0.457–1.20 kg] · +0.996 g/h · 1 vCPU · 3.75 GiB · 50 GB SSD · europe-west1\n\
             \x20 # ≈ assumed machine_type = n1-standard-1 (known after apply)\n"
        ),
        "{human}"
    );
}

// ------------------------------------------------------------------ the Markdown comment

/// A GFM rendering of a comment: its HTML.
pub(crate) fn gfm(md: &str) -> String {
    use pulldown_cmark::{Options, Parser, html};
    let mut html = String::new();
    html::push_html(&mut html, Parser::new_ext(md, Options::ENABLE_TABLES));
    html
}

/// The text of every `<td>` of the `n`-th table, row by row.
fn table_cells(html: &str, n: usize) -> (String, Vec<Vec<String>>) {
    let table = html.split("<table>").nth(n + 1).expect("table");
    let table = &table[..table.find("</table>").unwrap()];
    let head = table[..table.find("</thead>").unwrap()].to_string();
    let body = &table[table.find("<tbody>").unwrap()..];
    let rows = body
        .split("<tr>")
        .skip(1)
        .map(|row| {
            row.split("<td")
                .skip(1)
                .map(|c| {
                    let c = &c[c.find('>').unwrap() + 1..c.find("</td>").unwrap()];
                    c.to_string()
                })
                .collect()
        })
        .collect();
    (head, rows)
}

fn number(cell: &str) -> f64 {
    let t = cell.trim_matches(|c| c == '*' || c == ' ');
    if t == "–" {
        return 0.0;
    }
    t.parse()
        .unwrap_or_else(|_| panic!("{cell:?} is not a bare number"))
}

/// Rendered with a real GFM renderer: the marker survives as an HTML comment, the heading is
/// a sentence with a direction marker and the relative change, each table gives its unit once
/// in its header (cells are bare numbers), rows are sorted by the size of their change, the
/// unsupported resources are named and the plan is folded with its `Plan:` line.
#[test]
fn markdown_comment_renders_as_designed() {
    let md = show("testdata/demo/plan.json", &["--format", "markdown"]);
    let html = gfm(&md);
    assert!(html.starts_with("<!-- carbon-show -->\n"), "{html}");
    assert!(
        html.contains("<h3>▲ This plan adds 32.1 kgCO2eq per month (+694 %)</h3>"),
        "{html}"
    );
    // totals, the greener savings (tests/markdown.rs), the top 10 resources, the 11th folded
    // under "1 more resource", the modules (tests/rollup.rs) and each module's resources
    assert_eq!(html.matches("<table>").count(), 7, "{html}");
    assert!(
        html.contains("<details><summary>1 more resource</summary>"),
        "{html}"
    );
    let (head, totals) = table_cells(&html, 0);
    assert!(head.contains("<th>kgCO2eq per month</th>"), "{head}");
    assert_eq!(
        totals[2],
        [
            "<strong>total</strong>",
            "<strong>4.62</strong>",
            "<strong>36.7</strong>",
            "<strong>+32.1</strong>",
            "24.8–52.7"
        ]
    );
    let (head, rows) = table_cells(&html, 2);
    assert!(
        head.contains("<th>resource (kgCO2eq per month)</th>"),
        "{head}"
    );
    assert_eq!(rows.len(), 10, "{html}");
    assert_eq!(rows[0][0], "<code>aws_db_instance.main</code>");
    assert_eq!(rows[1][0], "<code>aws_instance.worker[0..2] ×3</code>");
    let changes: Vec<f64> = rows.iter().map(|r| number(&r[4])).collect();
    for w in changes.windows(2) {
        assert!(
            w[0].abs() >= w[1].abs(),
            "not sorted by |change|: {changes:?}"
        );
    }
    for r in &rows {
        for c in &r[2..] {
            number(c); // no unit in a cell
        }
    }
    assert!(
        html.contains(
            "<li><code>google_storage_bucket</code> × 1 — unsupported, no sourced method"
        ),
        "{html}"
    );
    assert!(
        html.contains("<details><summary>Plan: 17 to add, 2 to change, 2 to destroy.</summary>"),
        "{html}"
    );
    assert!(
        html.contains("<pre><code class=\"language-diff\">"),
        "{html}"
    );
    // every line of the plan is in the fold (its markers moved to column 0: tests/markdown.rs),
    // the carbon summary is not repeated there
    let plan = show("testdata/demo/plan.json", &[]);
    let body = &md[md.find("```diff\n").unwrap() + 8..md.rfind("```").unwrap()];
    let plan = &plan[..plan.find("\n\nCarbon ≈ ").unwrap() + 1];
    assert_eq!(body.lines().count(), plan.lines().count());
    assert_eq!(
        body.replace(['+', '-', '!', '~', ' '], ""),
        plan.replace(['+', '-', '!', '~', ' '], "")
    );
    assert!(!body.contains("Carbon ≈"), "{body}");
}

/// `--comment-tag` names the marker, so that several jobs each update their own comment.
#[test]
fn markdown_comment_tag_names_the_marker() {
    let md = show(
        "testdata/carbon/create.json",
        &["--format", "markdown", "--comment-tag", "prod/eu-1"],
    );
    assert!(
        md.starts_with("<!-- carbon-show:prod/eu-1 -->\n### ▲ "),
        "{md}"
    );
}

/// A plan with more changed resources than the comment shows: the largest first, the rest
/// folded under `N more resources`, still sorted.
#[test]
fn markdown_comment_folds_the_rest() {
    let base: Value =
        serde_json::from_slice(&std::fs::read(root().join("testdata/carbon/create.json")).unwrap())
            .unwrap();
    let types = [
        "t3.nano",
        "t3.micro",
        "t3.small",
        "t3.medium",
        "t3.large",
        "t3.xlarge",
        "m5.large",
        "m5.xlarge",
        "m5.2xlarge",
        "m5.4xlarge",
        "c5.large",
        "c5.xlarge",
        "c5.2xlarge",
        "r5.large",
    ];
    let rc0 = base["resource_changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["address"] == "aws_instance.web")
        .unwrap()
        .clone();
    let pv0 = base["planned_values"]["root_module"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["address"] == "aws_instance.web")
        .unwrap()
        .clone();
    let (mut rcs, mut pvs) = (Vec::new(), Vec::new());
    for (i, t) in types.iter().enumerate() {
        let name = format!("n{i}");
        let mut rc = rc0.clone();
        rc["address"] = json!(format!("aws_instance.{name}"));
        rc["name"] = json!(name);
        rc["change"]["after"]["instance_type"] = json!(t);
        let mut pv = pv0.clone();
        pv["address"] = rc["address"].clone();
        pv["name"] = json!(name);
        pv["values"]["instance_type"] = json!(t);
        rcs.push(rc);
        pvs.push(pv);
    }
    let mut doc = base.clone();
    doc["resource_changes"] = json!(rcs);
    doc["planned_values"]["root_module"]["resources"] = json!(pvs);
    let o = run(
        &["--color", "never", "--format", "markdown"],
        serde_json::to_string(&doc).unwrap().as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let md = stdout(&o);
    assert!(
        md.contains("**Largest changes** (10 of 14 resources)\n"),
        "{md}"
    );
    assert!(
        md.contains("<details><summary>4 more resources</summary>\n"),
        "{md}"
    );
    let html = gfm(&md);
    // totals, the greener savings, the top rows, the rest
    assert_eq!(html.matches("<table>").count(), 4, "{html}");
    let (_, top) = table_cells(&html, 2);
    let (_, rest) = table_cells(&html, 3);
    assert_eq!((top.len(), rest.len()), (10, 4));
    let changes: Vec<f64> = top.iter().chain(&rest).map(|r| number(&r[4])).collect();
    for w in changes.windows(2) {
        assert!(
            w[0].abs() >= w[1].abs(),
            "not sorted by |change|: {changes:?}"
        );
    }
    // m5.4xlarge (16 vCPU, 64 GiB) is the largest of the types
    assert_eq!(top[0][0], "<code>aws_instance.n9</code>");
}

// ------------------------------------------------------------------ flags and input

/// Flags that contradict each other are refused with the reason (exit 2), never ignored.
#[test]
fn conflicting_flags_exit_2_with_the_reason() {
    for (args, reason) in [
        (
            &["--no-carbon", "--format", "json"][..],
            "--no-carbon cannot be used with --format json",
        ),
        (
            &["--no-carbon", "--format", "markdown"][..],
            "--no-carbon cannot be used with --format markdown",
        ),
        (
            &["--no-carbon", "--period", "year"][..],
            "'--no-carbon' cannot be used with '--period <PERIOD>'",
        ),
        (
            &["--no-carbon", "--fail-over", "1kg/month"][..],
            "'--no-carbon' cannot be used with '--fail-over <AMOUNT>'",
        ),
        (
            &["--comment-tag", "x"][..],
            "--comment-tag names the Markdown comment's marker: it needs --format markdown",
        ),
        (
            &["--format", "markdown", "--comment-tag", "a-->b"][..],
            "cannot go in an HTML comment",
        ),
    ] {
        let mut all = args.to_vec();
        all.push("testdata/carbon/create.json");
        let o = show_args(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(reason), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

/// `carbon-show --config X config` read `config` as the plan file ("config: No such file",
/// exit 4): a subcommand's name after the flags is refused with the order to use (exit 2).
#[test]
fn subcommand_after_flags_says_to_put_it_first() {
    for sub in ["config", "explain", "completions"] {
        let o = show_args(&["--color", "never", sub]);
        assert_eq!(o.status.code(), Some(2), "{sub}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("`{sub}` is a subcommand: put it before the flags")),
            "{sub}: {}",
            stderr(&o)
        );
    }
}

/// A binary plan file (`tofu plan -out` saves a zip archive) gets the command that makes its
/// JSON, instead of a bare "invalid JSON at line 1".
#[test]
fn binary_plan_file_gets_the_show_json_hint() {
    let dir = std::env::temp_dir().join(format!("carbon-show-tfplan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("plan.tfplan");
    std::fs::write(&f, b"PK\x03\x04\x14\x00\x08\x00\x08\x00tfplan\x00\x00").unwrap();
    let path = f.to_str().unwrap();
    for args in [
        vec![path],
        vec!["--no-carbon", path],
        vec!["--format", "json", path],
    ] {
        let o = show_args(&args);
        assert_one_line_error(
            &o,
            5,
            &format!(
                "this is a binary plan file, not its JSON: run `tofu show -json {path} > plan.json`"
            ),
        );
    }
    // on standard input too
    let o = run(&[], b"PK\x03\x04\x14\x00rest");
    assert_one_line_error(
        &o,
        5,
        "<stdin>: invalid JSON at line 1, column 1: this is a binary plan file, not its JSON: pipe `tofu show -json plan.tfplan`",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README's example is the demo's real output: its lines appear in the demo's rendering,
/// in order (`…` stands for lines left out).
#[test]
fn readme_example_is_the_demo_output() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find("```text\n").expect("the example") + 8;
    let example = &readme[start..start + readme[start..].find("```").unwrap()];
    let demo = show("testdata/demo/plan.json", &[]);
    let demo: Vec<&str> = demo.lines().collect();
    let mut at = 0;
    let mut matched = 0;
    for line in example.lines().filter(|l| l.trim() != "…") {
        match demo[at..].iter().position(|d| *d == line) {
            Some(i) => {
                at += i + 1;
                matched += 1;
            }
            None => panic!("README line not in the demo output (in order): {line:?}"),
        }
    }
    assert!(matched >= 25, "{matched} lines");
    assert!(example.contains("\nCarbon ≈ "), "the summary is shown");
}

/// A plan of `n` created `aws_instance`s of assorted types, one resource each (no grouping).
pub(crate) fn many_instances(n: usize) -> Vec<u8> {
    let base: Value =
        serde_json::from_slice(&std::fs::read(root().join("testdata/carbon/create.json")).unwrap())
            .unwrap();
    let find = |list: &Value| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|r| r["address"] == "aws_instance.web")
            .unwrap()
            .clone()
    };
    let (rc0, pv0) = (
        find(&base["resource_changes"]),
        find(&base["planned_values"]["root_module"]["resources"]),
    );
    let types = [
        "t3.micro",
        "t3.large",
        "m5.large",
        "m5.2xlarge",
        "c5.xlarge",
        "r5.large",
    ];
    let (mut rcs, mut pvs) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for i in 0..n {
        let name = format!("node_{i}");
        let t = types[i % types.len()];
        let mut rc = rc0.clone();
        rc["address"] = json!(format!("aws_instance.{name}"));
        rc["name"] = json!(name);
        rc["change"]["after"]["instance_type"] = json!(t);
        rc["change"]["after"]["root_block_device"][0]["volume_size"] = json!(20 + i % 500);
        let mut pv = pv0.clone();
        pv["address"] = rc["address"].clone();
        pv["name"] = json!(name);
        pv["values"]["instance_type"] = json!(t);
        pv["values"]["root_block_device"][0]["volume_size"] = json!(20 + i % 500);
        rcs.push(rc);
        pvs.push(pv);
    }
    let mut doc = base;
    doc["resource_changes"] = json!(rcs);
    doc["planned_values"]["root_module"]["resources"] = json!(pvs);
    serde_json::to_vec(&doc).unwrap()
}

/// GitHub refuses comments over 65,536 characters: the comment for a 10,000-resource plan
/// keeps its headline, totals and top rows, cuts the plan between lines and the smallest rows,
/// says so, and is still well-formed GFM (every fence and fold closed).
#[test]
fn markdown_comment_of_a_10k_plan_fits_the_budget() {
    for (n, args, max) in [
        (10_000, vec!["--format", "markdown"], 65_536),
        (
            2_000,
            vec!["--format", "markdown", "--max-chars", "20000"],
            20_000,
        ),
    ] {
        let o = run(&args, &many_instances(n));
        assert!(o.status.success(), "{}", stderr(&o));
        let md = stdout(&o);
        let len = md.chars().count();
        assert!(len <= max, "{len} characters over {max}");
        assert!(len > max * 9 / 10, "the budget is used: {len} of {max}");
        assert!(
            md.starts_with("<!-- carbon-show -->\n### ▲ This plan adds "),
            "{md:.300}"
        );
        assert!(md.contains("| **total** |"), "the totals stay");
        assert!(
            md.contains(&format!("**Largest changes** (10 of {n} resources)")),
            "{md:.2000}"
        );
        assert!(
            md.contains(&format!(
                "more resources left out to stay within {max} characters (`--max-chars`)"
            )),
            "{md:.2000}"
        );
        assert!(
            md.contains("characters (`--max-chars`).*"),
            "the plan's note"
        );
        assert_eq!(
            md.matches("<details>").count(),
            md.matches("</details>").count()
        );
        let fences = md.lines().filter(|l| l.starts_with("```")).count();
        assert_eq!(fences % 2, 0, "a code fence left open");
        let html = gfm(&md);
        assert!(html.contains("<h3>▲ This plan adds "), "{html:.300}");
        assert!(html.matches("<table>").count() >= 3, "{html:.3000}");
        // rows still by |change|, largest first (after the totals and the greener savings)
        let (_, top) = table_cells(&html, 2);
        let (_, rest) = table_cells(&html, 3);
        let changes: Vec<f64> = top.iter().chain(&rest).map(|r| number(&r[4])).collect();
        for w in changes.windows(2) {
            assert!(w[0].abs() >= w[1].abs(), "not sorted: {changes:?}");
        }
    }
    // without a budget problem nothing is cut
    let small = show("testdata/demo/plan.json", &["--format", "markdown"]);
    assert!(!small.contains("--max-chars"), "{small}");
}

#[test]
fn max_chars_needs_markdown_and_room() {
    for (args, reason) in [
        (
            &["--max-chars", "5000"][..],
            "--max-chars limits the Markdown comment",
        ),
        (
            &["--format", "markdown", "--max-chars", "100"][..],
            "is too small: the headline and totals need 2000",
        ),
    ] {
        let mut all = args.to_vec();
        all.push("testdata/carbon/create.json");
        let o = show_args(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(reason), "{args:?}: {}", stderr(&o));
    }
}
