//! The pull-request comment a reviewer acts on (issue 25 item 3): the greener alternatives'
//! savings above the fold, sources as links into the methodology, a footer that tells tagged
//! comments apart, addresses shortened so the figures stay in view, what was not counted
//! grouped by type, no module section that repeats the resource table, the plan in a `diff`
//! block — and the demo's comment rendered by GitHub's own cmark-gfm (PyPI `cmarkgfm`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

use crate::common::*;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn show(file: &str, extra: &[&str]) -> String {
    let o = bin()
        .current_dir(root())
        .args(["--color", "never", file])
        .args(extra)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR")
        .output()
        .expect("run carbon-show");
    assert!(o.status.success(), "{file}: {}", stderr(&o));
    stdout(&o)
}

fn markdown(file: &str, extra: &[&str]) -> String {
    let mut args = vec!["--format", "markdown"];
    args.extend_from_slice(extra);
    show(file, &args)
}

fn run_doc(doc: &Value, extra: &[&str]) -> String {
    let mut args = vec!["--color", "never"];
    args.extend_from_slice(extra);
    let o = run(&args, serde_json::to_string(doc).unwrap().as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

fn fixture(file: &str) -> Value {
    serde_json::from_slice(&std::fs::read(root().join(file)).unwrap()).unwrap()
}

/// The comment above its first fold.
fn above_fold(md: &str) -> &str {
    &md[..md.find("<details>").expect("a fold")]
}

/// The section that starts with `title`, up to the next blank line after its table or list.
fn section<'a>(md: &'a str, title: &str) -> &'a str {
    let at = md
        .find(title)
        .unwrap_or_else(|| panic!("no {title:?} in:\n{md}"));
    let rest = &md[at..];
    // the title, a blank line, then the lines of the table or list
    let body_start = rest.find("\n\n").map_or(rest.len(), |i| i + 2);
    let end = rest[body_start..]
        .find("\n\n")
        .map_or(rest.len(), |i| body_start + i + 1);
    &rest[..end]
}

// ------------------------------------------------------------------ could be greener

/// The greener alternatives were only inside the folded plan text (`# ↳` lines): a reviewer
/// never saw them. Now the top savings across the plan are a table above the fold, at most
/// five, largest first, each with the resource, the change and its saving.
#[test]
fn the_comment_hid_the_greener_alternatives_in_the_folded_plan() {
    let md = markdown("testdata/demo/plan.json", &[]);
    let above = above_fold(&md);
    let greener = section(above, "**Could be greener**");
    let rows: Vec<&str> = greener.lines().filter(|l| l.starts_with("| `")).collect();
    assert!(
        (1..=5).contains(&rows.len()),
        "1 to 5 savings expected:\n{greener}"
    );
    assert!(
        greener
            .contains("| resource (kgCO2eq per month) | greener choice | change | of its figure |"),
        "{greener}"
    );
    // the web server as its ARM equivalent: the demo's own `# ↳` line says -1.39 kg (-22 %)
    assert!(
        greener
            .contains("| `aws_instance.web` | type `m5.xlarge` → `m6g.xlarge` | -1.39 | -22 % |"),
        "{greener}"
    );
    // two instances of one resource, one region move for both, their savings summed
    assert!(
        greener.contains(
            "| `module.eu.aws_instance.app[\"api\",\"web\"] ×2` | region `eu-west-1` → `eu-north-1` | -3.61 | -70 % |"
        ),
        "{greener}"
    );
    let savings: Vec<f64> = rows
        .iter()
        .map(|r| {
            let cells: Vec<&str> = r.split(" | ").collect();
            cells[2].trim().parse::<f64>().expect("a bare number")
        })
        .collect();
    assert!(savings.iter().all(|s| *s < 0.0), "{savings:?}");
    for w in savings.windows(2) {
        assert!(w[0] <= w[1], "not sorted by saving: {savings:?}");
    }
    // the greener table comes before the resources' table
    assert!(above.find("**Could be greener**") < above.find("**Largest changes**"));
    // --alternatives off: no such section (nor `# ↳` lines)
    let off = markdown("testdata/demo/plan.json", &["--alternatives", "off"]);
    assert!(!off.contains("Could be greener"), "{off}");
    // the human summary says it too, its top three
    let human = show("testdata/demo/plan.json", &[]);
    let at = human
        .find("\n  could be greener, per month")
        .expect("human lines");
    let lines: Vec<&str> = human[at + 1..].lines().skip(1).take(3).collect();
    assert!(lines.iter().all(|l| l.starts_with("    -")), "{lines:?}");
    assert!(
        lines[0].ends_with(
            "  module.eu.aws_instance.app[\"api\",\"web\"] ×2: region eu-west-1 → eu-north-1 (-70 %)"
        ),
        "{lines:?}"
    );
    // within the summary's 100 columns: a long label gives way in the middle
    for l in &lines {
        assert!(l.chars().count() <= 100, "{l}");
    }
    assert!(
        lines[1].contains("module.eu.mod…aws_elasticache_cluster.this:"),
        "{lines:?}"
    );
}

/// A plan whose resources have no greener alternative has no "could be greener" section.
#[test]
fn no_greener_section_without_a_saving() {
    // eu-north-1 is the cleanest EU region; a t4g (ARM) has no ARM alternative
    let mut doc = fixture("testdata/carbon/create.json");
    for r in doc["resource_changes"].as_array_mut().unwrap() {
        r["change"]["after"]["instance_type"] = json!("t4g.micro");
    }
    for r in doc["planned_values"]["root_module"]["resources"]
        .as_array_mut()
        .unwrap()
    {
        r["values"]["instance_type"] = json!("t4g.micro");
    }
    let regions = doc.to_string().replace("us-east-1", "eu-north-1");
    let doc: Value = serde_json::from_str(&regions).unwrap();
    let md = run_doc(&doc, &["--format", "markdown"]);
    assert!(!md.contains("Could be greener"), "{md}");
    let human = run_doc(&doc, &[]);
    assert!(!human.contains("could be greener"), "{human}");
}

// ------------------------------------------------------------------ sources and footer

/// The sources were internal ids (`aws_instances`, `coefficients`) a reader cannot follow.
/// Now each is a named link into the methodology at the tool's version tag (the anchors are
/// checked against the document's headings by `footer::tests`).
#[test]
fn the_comment_named_its_sources_by_internal_ids() {
    let md = markdown("testdata/demo/plan.json", &[]);
    let line = md
        .lines()
        .find(|l| l.contains("Sources:"))
        .expect("a sources line");
    for id in ["`aws_instances`", "`coefficients`", "`hosts`", "data/<id>"] {
        assert!(!line.contains(id), "{id} in {line}");
    }
    let base = format!(
        "https://github.com/carbon-show/carbon-show/blob/v{}/docs/",
        env!("CARGO_PKG_VERSION")
    );
    for link in [
        format!("[instance shapes]({base}methodology.md#instances)"),
        format!("[power coefficients]({base}methodology.md#cpu-power)"),
        format!("[grid carbon intensity]({base}methodology.md#grid-carbon-intensity)"),
        format!(
            "[embodied emissions (host model)]({base}methodology.md#embodied-emissions-the-host-model)"
        ),
    ] {
        assert!(line.contains(&link), "{link} not in {line}");
    }
    // three instance tables, one link
    assert_eq!(line.matches("[instance shapes]").count(), 1, "{line}");
    assert!(line.starts_with(&format!("[Range]({base}methodology.md#ranges-and-sources)")));
}

/// Two tagged comments on one pull request looked identical. Now a footer, above the folds,
/// names the tool, its version, the tag and the methodology.
#[test]
fn two_tagged_comments_on_one_pull_request_looked_identical() {
    let a = markdown("testdata/carbon/create.json", &["--comment-tag", "prod"]);
    let b = markdown("testdata/carbon/create.json", &["--comment-tag", "staging"]);
    let footer = |md: &str| -> String {
        above_fold(md)
            .lines()
            .rfind(|l| l.starts_with("<sub>"))
            .unwrap_or_else(|| panic!("no footer above the fold:\n{md}"))
            .to_string()
    };
    let version = format!("carbon-show {}", env!("CARGO_PKG_VERSION"));
    for (md, tag) in [(&a, "prod"), (&b, "staging")] {
        let f = footer(md);
        assert!(f.contains(&version), "{f}");
        assert!(f.contains(&format!("comment tag `{tag}`")), "{f}");
        assert!(f.contains("[methodology](https://github.com/"), "{f}");
    }
    assert_ne!(footer(&a), footer(&b));
    let untagged = footer(&markdown("testdata/carbon/create.json", &[]));
    assert!(!untagged.contains("comment tag"), "{untagged}");
}

// ------------------------------------------------------------------ addresses, not counted

/// `count` copies of the create fixture's instance, at `address(i)`, without planned values
/// (the changes' own values are mapped: `mapping::fallback`).
fn many(count: usize, address: &dyn Fn(usize) -> String, ty: &str) -> Vec<Value> {
    let base = fixture("testdata/carbon/create.json");
    let rc0 = base["resource_changes"][0].clone();
    (0..count)
        .map(|i| {
            let mut rc = rc0.clone();
            let a = address(i);
            let module = a.rfind(".aws_").map(|at| a[..at].to_string());
            rc["address"] = json!(a);
            rc["type"] = json!(ty);
            if let Some(m) = module {
                rc["module_address"] = json!(m);
            }
            rc
        })
        .collect()
}

/// On a large plan, long addresses pushed a table's figures past the visible width. Now a
/// table cell keeps the address within 60 characters, `…` in the middle, the resource type
/// and the last part visible; the folded plan keeps the address whole.
#[test]
fn long_addresses_pushed_the_figures_out_of_view() {
    let long = |i: usize| {
        format!(
            "module.platform[\"eu-west-1\"].module.services[\"checkout-and-payments\"].module.workers.aws_instance.worker_{i}"
        )
    };
    let mut doc = fixture("testdata/carbon/create.json");
    doc["resource_changes"] = json!(many(3, &long, "aws_instance"));
    doc["planned_values"]["root_module"]["resources"] = json!([]);
    let md = run_doc(&doc, &["--format", "markdown"]);
    let table = section(&md, "**Changes by resource**");
    let rows: Vec<&str> = table.lines().filter(|l| l.starts_with("| `")).collect();
    assert_eq!(rows.len(), 3, "{table}");
    for r in &rows {
        let cell = r.split(" | ").next().unwrap().trim_start_matches("| ");
        let span = cell.trim_matches('`');
        assert_eq!(span.chars().count(), 60, "{cell}");
        assert!(span.starts_with("module.platform["), "{cell}");
        assert!(span.contains('…'), "{cell}");
        assert!(
            span.ends_with(&format!("aws_instance.worker_{}", &span[span.len() - 1..])),
            "{cell}"
        );
    }
    // the plan fold has every address whole
    for i in 0..3 {
        assert!(
            md.contains(&format!("  # {} will be created", long(i))),
            "{md}"
        );
    }
}

/// "Not counted" was a wall of addresses above the main table. Now it is one line per type
/// and reason with the count, below the table.
#[test]
fn not_counted_was_a_wall_of_addresses_above_the_table() {
    let mut doc = fixture("testdata/carbon/create.json");
    let labs = many(
        12,
        &|i| format!("aws_sagemaker_notebook_instance.lab_{i}"),
        "aws_sagemaker_notebook_instance",
    );
    let planned = doc["planned_values"]["root_module"]["resources"]
        .as_array_mut()
        .unwrap();
    for rc in &labs {
        planned.push(json!({
            "address": rc["address"], "mode": "managed", "type": rc["type"],
            "name": rc["address"].as_str().unwrap().rsplit('.').next(),
            "provider_name": rc["provider_name"], "schema_version": 0,
            "values": rc["change"]["after"], "sensitive_values": {},
        }));
    }
    let mut changes = doc["resource_changes"].as_array().unwrap().clone();
    changes.extend(labs);
    doc["resource_changes"] = json!(changes);
    let md = run_doc(&doc, &["--format", "markdown"]);
    let nc = section(&md, "**Not counted:**");
    assert!(
        nc.starts_with("**Not counted:** 12 resources without figures.\n\n"),
        "{nc}"
    );
    assert!(
        nc.contains(
            "- `aws_sagemaker_notebook_instance` × 12 — unsupported: no mapping covers this type\n"
        ),
        "{nc}"
    );
    assert!(!nc.contains("lab_"), "no addresses: {nc}");
    assert!(
        md.find("**Not counted:**") > md.find("**Changes by resource**"),
        "{md}"
    );
}

// ------------------------------------------------------------------ by module

/// On a small plan "By module" repeated "Largest changes": each module's folded resources
/// re-listed the rows above. The rule now: the folds go when the resource table lists every
/// resource that changes; the module table goes when no module holds two of them.
#[test]
fn by_module_repeated_the_resource_table_on_a_small_plan() {
    // every resource is in the table above: no folds; module.app holds four: the table stays
    let md = markdown("testdata/carbon/modules.json", &[]);
    assert!(md.contains("**Changes by resource**"), "{md}");
    assert!(md.contains("**By module**"), "{md}");
    assert!(
        !md.contains("<details><summary><code>module.app</code>"),
        "{md}"
    );
    assert!(!md.contains("<details><summary>(root module)"), "{md}");
    // one resource in module.a, one in the root: the module rows would repeat the resources'
    let mut doc = fixture("testdata/carbon/create.json");
    doc["resource_changes"][0]["address"] = json!("module.a.aws_instance.web");
    doc["resource_changes"][0]["module_address"] = json!("module.a");
    doc["planned_values"]["root_module"]["resources"] = json!([]);
    let md = run_doc(&doc, &["--format", "markdown"]);
    assert!(md.contains("`module.a.aws_instance.web`"), "{md}");
    assert!(!md.contains("By module"), "{md}");
    // the demo has more resources than its table shows: its module folds stay
    let demo = markdown("testdata/demo/plan.json", &[]);
    assert!(
        demo.contains("<details><summary><code>module.eu</code>"),
        "{demo}"
    );
}

// ------------------------------------------------------------------ the plan as a diff

/// The plan was a `text` fence, which GitHub does not colour. Now it is a `diff` block, each
/// indented marker moved to column 0 (`~` as `!`, which GitHub colours as a change), every
/// other character in its column; the human output is OpenTofu's, byte for byte.
#[test]
fn the_plan_was_a_text_fence_github_does_not_colour() {
    let md = markdown("testdata/demo/plan.json", &[]);
    assert!(!md.contains("```text"), "{md}");
    let start = md.find("```diff\n").expect("a diff block") + 8;
    let body = &md[start..md.rfind("```").unwrap()];
    let human = show("testdata/demo/plan.json", &[]);
    let plan = &human[..human.find("\n\nCarbon ≈ ").unwrap() + 1];
    assert_eq!(body.lines().count(), plan.lines().count());
    let mut moved = 0;
    for (d, h) in body.lines().zip(plan.lines()) {
        assert_eq!(d.chars().count(), h.chars().count(), "{h:?} → {d:?}");
        let trimmed = h.trim_start_matches(' ');
        let indent = h.len() - trimmed.len();
        let marker = trimmed.chars().next();
        let spaced = matches!(trimmed.chars().nth(1), None | Some(' '));
        if indent > 0 && spaced && matches!(marker, Some('+' | '-' | '~')) {
            let m = if marker == Some('~') {
                '!'
            } else {
                marker.unwrap()
            };
            assert_eq!(d, format!("{m}{}{}", &h[..indent], &trimmed[1..]));
            moved += 1;
        } else {
            assert_eq!(d, h);
        }
    }
    assert!(moved > 20, "{moved} markers moved");
    assert!(
        body.contains("\n!   resource \"aws_instance\" \"web\" {\n"),
        "{body}"
    );
    assert!(
        body.contains("\n+   resource \"aws_instance\" \"worker\" {\n"),
        "{body}"
    );
    assert!(body.contains("\n-/+ resource "), "{body}");
    // the human output is untouched
    assert!(
        human.contains("\n  ~ resource \"aws_instance\" \"web\" {\n"),
        "{human}"
    );
}

// ------------------------------------------------------------------ as GitHub renders it

/// `.venv-md`'s Python with cmarkgfm (scripts/markdown/install.sh), or `None` (the test is
/// then skipped loudly; under CARBON_SHOW_REQUIRE_CMARKGFM it fails).
pub(crate) fn cmarkgfm() -> Option<PathBuf> {
    let py = root().join(".venv-md/bin/python");
    let ok = py.is_file()
        && Command::new(&py)
            .args(["-c", "import cmarkgfm"])
            .output()
            .is_ok_and(|o| o.status.success());
    if ok {
        return Some(py);
    }
    assert!(
        std::env::var_os("CARBON_SHOW_REQUIRE_CMARKGFM").is_none(),
        "CARBON_SHOW_REQUIRE_CMARKGFM is set but {} cannot import cmarkgfm",
        py.display()
    );
    loud(
        "\n!!! SKIPPED the_demo_comment_as_github_renders_it: no cmarkgfm in .venv-md \
         (bash scripts/markdown/install.sh)\n",
    );
    None
}

pub(crate) fn gfm(py: &Path, md: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(py)
        .arg(root().join("scripts/markdown/gfm.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gfm.py");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(md.as_bytes())
        .unwrap();
    let o: Output = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

/// The demo's comment through GitHub's own renderer: the verdict, the savings and the footer
/// before the first fold, no HTML comment but the marker, every table row with its header's
/// column count, the plan in a `diff` code block.
#[test]
fn the_demo_comment_as_github_renders_it() {
    let Some(py) = cmarkgfm() else { return };
    // over its budget: the job fails (exit 3) and the comment says why
    let o = bin()
        .current_dir(root())
        .args([
            "--color",
            "never",
            "--format",
            "markdown",
            "--fail-over",
            "1kg/month",
        ])
        .arg("testdata/demo/plan.json")
        .output()
        .expect("run carbon-show");
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let md = stdout(&o);
    let html = gfm(&py, &md);
    let fold = html.find("<details>").expect("a fold");
    let before = |needle: &str| {
        let at = html
            .find(needle)
            .unwrap_or_else(|| panic!("{needle:?} not in:\n{html}"));
        assert!(at < fold, "{needle:?} after the first fold");
    };
    before("<h3>▲ This plan adds 32.1 kgCO2eq per month (+694 %)</h3>");
    before("Over the <code>--fail-over</code> budget");
    before("<strong>Could be greener</strong>");
    before("<sub>carbon-show ");
    // one HTML comment: the marker (the plan's own text cannot add one)
    assert_eq!(html.matches("<!--").count(), 1, "{html}");
    assert!(html.starts_with("<!-- carbon-show -->\n"), "{html}");
    // every row of every table has its header's number of cells
    let tables: Vec<&str> = html.split("<table>").skip(1).collect();
    assert!(tables.len() >= 5, "{} tables", tables.len());
    for t in tables {
        let t = &t[..t.find("</table>").unwrap()];
        let mut rows = t.split("<tr>").skip(1);
        let head = rows.next().unwrap().matches("<th").count();
        assert!(head >= 2, "{t}");
        for r in rows {
            assert_eq!(r.matches("<td").count(), head, "{r}");
        }
    }
    // the plan: a diff block inside the last fold
    let pre = html
        .find("<pre lang=\"diff\"><code>")
        .expect("a diff block");
    assert!(pre > html.rfind("<details>").unwrap(), "{html}");
    assert!(
        html[pre..].contains("\n!   resource &quot;aws_instance&quot; &quot;web&quot; {\n"),
        "{html}"
    );
}
