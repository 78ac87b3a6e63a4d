//! Text from the plan or the repository escaped at every boundary where it leaves (issue 24,
//! item 5): the terminal (real bytes, and a tmux screen), the Markdown comment (rendered with a
//! GFM parser), the Impact Framework YAML (parsed back), stderr lines, and `--max-chars` as a
//! hard bound on the comment.

use std::path::{Path, PathBuf};

use crate::common::{bin, render, stderr, stdout};
use proptest::prelude::*;
use serde_json::{Value, json};

/// A region that clears the line it is on and the three above (a "will be destroyed" header),
/// sets the clipboard (OSC 52), opens a link (OSC 8), rings, reverses the text, and starts a
/// workflow command on a line of its own.
const EVIL_REGION: &str = "us-east-1\r\u{1b}[2K\u{1b}[1A\u{1b}[2K\u{1b}[1A\u{1b}[2K\u{1b}[1A\u{1b}[2K\u{1b}]52;c;ZXZpbA==\u{7}\
     \u{1b}]8;;https://evil.example\u{1b}\\x\u{9b}2J\u{7f}\u{85}\u{202e}\u{2066}\u{200f}\u{61c}\
     \n::error::pwned";

/// A machine type that would be a link, an image, an autolink, mentions, references, a
/// marker and a table break in Markdown, and controls in a terminal (no line feed: a
/// multi-line string is a heredoc in the diff, printed as Terraform prints it).
const EVIL_TYPE: &str = "m5.huge [x](https://evil.example) ![i](https://t.example/p.png) \
     <https://a.example> www.evil.example @octocat @org/team owner/repo#12 #34 \
     deadbeefcafe1234 <!-- carbon-show:prod --> <b>bold</b> `a` | b \u{1b}[2J\r\u{7}";

/// An address key with a line break, a table break, backticks and a mention.
const EVIL_KEY: &str = "k\n::error::z | ``` @octocat [l](http://x.example) \u{7f}\u{202e}";

fn changes() -> Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/carbon/changes.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// The address of the hostile instance: its key raw between quotes (as a forged plan can
/// write it; OpenTofu would escape it).
fn evil_address(key: &str) -> String {
    format!("aws_instance.evil[\"{key}\"]")
}

/// `changes.json` (an update, a replacement, a destroy) with `region` as the AWS provider's
/// region, and one more instance at `aws_instance.evil["<key>"]` of machine type `machine`.
fn hostile(region: &str, key: &str, machine: &str) -> Value {
    let mut doc = changes();
    doc["configuration"] = json!({"provider_config": {"aws": {"name": "aws",
        "expressions": {"region": {"constant_value": region}}}}});
    let address = evil_address(key);
    let values = json!({"ami": "ami-1", "instance_type": machine});
    doc["planned_values"]["root_module"]["resources"]
        .as_array_mut()
        .unwrap()
        .push(
            json!({"address": address, "mode": "managed", "type": "aws_instance",
            "name": "evil", "index": key,
            "provider_name": "registry.terraform.io/hashicorp/aws", "values": values}),
        );
    doc["resource_changes"].as_array_mut().unwrap().push(
        json!({"address": address, "mode": "managed", "type": "aws_instance",
            "name": "evil", "index": key,
            "provider_name": "registry.terraform.io/hashicorp/aws",
            "change": {"actions": ["create"], "before": null, "after": values,
                "after_unknown": {}, "before_sensitive": false, "after_sensitive": {}}}),
    );
    doc
}

/// A character no terminal text of carbon-show may hold raw: a control other than the line
/// feed (colour is off), DEL, C1, or a bidi control.
fn raw_control(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(c as u32, 0x202a..=0x202e | 0x2066..=0x2069 | 0x200e | 0x200f | 0x61c)
}

fn assert_no_raw_control(what: &str, text: &str) {
    if let Some((i, c)) = text.char_indices().find(|(_, c)| raw_control(*c)) {
        let at = text[..i].rfind('\n').map_or(0, |n| n + 1);
        panic!(
            "{what}: raw {c:?} at byte {i}, in line {:?}",
            &text[at..text[i..].find('\n').map_or(text.len(), |n| i + n)]
        );
    }
}

fn write_temp(name: &str, text: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("carbon-show-esc-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

// ------------------------------------------------------------------ the terminal

#[test]
fn a_control_sequence_in_a_region_reached_the_terminal() {
    let doc = hostile(EVIL_REGION, EVIL_KEY, EVIL_TYPE).to_string();
    let o = render(&doc, &["--alternatives", "on"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_no_raw_control("human output", &out);
    // the region's controls as Go writes them, in the `# ≈` lines
    assert!(
        out.contains(r"us-east-1\r\x1b[2K\x1b[1A\x1b[2K\x1b[1A")
            && out.contains(r"\x1b]52;c;ZXZpbA==\a"),
        "{out}"
    );
    assert!(
        out.contains(r#"aws_instance.evil["k\n::error::z | ``` @octocat"#),
        "{out}"
    );
    assert!(
        !out.lines().any(|l| l.starts_with("::")),
        "a line starts a workflow command:\n{out}"
    );
    assert!(
        out.contains("  # aws_instance.old will be destroyed\n"),
        "{out}"
    );
}

#[test]
fn a_forged_address_in_a_state_document_reached_the_terminal() {
    let address = evil_address(EVIL_KEY);
    let doc = json!({"format_version": "1.0", "values": {"root_module": {"resources": [
        {"address": address, "mode": "managed", "type": "aws_instance", "name": "evil",
         "index": EVIL_KEY, "provider_name": "registry.terraform.io/hashicorp/aws",
         "values": {"instance_type": EVIL_TYPE}}]}}});
    let o = render(&doc.to_string(), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_no_raw_control("state output", &out);
    assert!(
        out.contains(r#"# aws_instance.evil["k\n::error::z"#),
        "{out}"
    );
}

#[test]
fn explain_printed_the_region_and_machine_type_raw() {
    let doc = hostile(EVIL_REGION, EVIL_KEY, EVIL_TYPE).to_string();
    let path = write_temp("explain.json", &doc);
    for address in ["aws_instance.old".to_string(), evil_address(EVIL_KEY)] {
        let o = bin()
            .args(["explain", &address])
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{address}: {}", stderr(&o));
        assert_no_raw_control(&format!("explain {address}"), &stdout(&o));
    }
    let _ = std::fs::remove_file(path);
}

/// A real terminal: the `# ≈` line of a destroyed resource held a region that clears the line
/// above; tmux's screen must still show the header. Skipped loudly without tmux (`.ci/run`
/// installs it).
#[test]
fn a_region_overwrote_the_will_be_destroyed_line_in_a_terminal() {
    if std::process::Command::new("tmux")
        .arg("-V")
        .output()
        .is_err()
    {
        crate::common::loud("skipped: tmux is not installed (apt-get install tmux)\n");
        assert!(
            std::env::var_os("CARBON_SHOW_REQUIRE_TMUX").is_none(),
            "CARBON_SHOW_REQUIRE_TMUX is set but tmux is missing"
        );
        return;
    }
    let doc = hostile(EVIL_REGION, "k", "t3.micro").to_string();
    let plan = write_temp("tmux.json", &doc);
    let done = write_temp("tmux.done", "");
    let _ = std::fs::remove_file(&done);
    let session = format!("carbon-show-esc-{}", std::process::id());
    let socket = format!("carbon-show-esc-{}", std::process::id());
    let command = format!(
        "{} --color never {} | sed -n '/aws_instance.old will/,/resource \"aws_instance\" \"old\"/p'; touch {}; sleep 30",
        env!("CARGO_BIN_EXE_carbon-show"),
        plan.display(),
        done.display()
    );
    let tmux = |args: &[&str]| {
        std::process::Command::new("tmux")
            .args(["-L", &socket])
            .args(args)
            .output()
            .unwrap()
    };
    let started = tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "200",
        "-y",
        "50",
        &command,
    ]);
    assert!(started.status.success(), "{}", stderr(&started));
    let t = std::time::Instant::now();
    while !done.exists() && t.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    let screen = stdout(&tmux(&["capture-pane", "-p", "-t", &session]));
    let _ = tmux(&["kill-server"]);
    let _ = std::fs::remove_file(&plan);
    let _ = std::fs::remove_file(&done);
    assert!(
        screen.contains("# aws_instance.old will be destroyed"),
        "the header is gone from the screen:\n{screen}"
    );
    assert!(
        screen.contains("- resource \"aws_instance\" \"old\""),
        "{screen}"
    );
}

// ------------------------------------------------------------------ Markdown

/// What a GFM parser makes of a comment: every link, image, HTML piece, and the text outside
/// code; and whether every table row has its header's number of cells.
struct Parsed {
    links: Vec<String>,
    html: Vec<String>,
    text: String,
    rows_intact: bool,
}

fn parse_markdown(md: &str) -> Parsed {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let mut p = Parsed {
        links: Vec::new(),
        html: Vec::new(),
        text: String::new(),
        rows_intact: true,
    };
    let (mut in_code_block, mut head_cells, mut cells) = (false, 0usize, 0usize);
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_GFM;
    for e in Parser::new_ext(md, options) {
        match e {
            Event::Start(Tag::Link { dest_url, .. }) => p.links.push(dest_url.to_string()),
            Event::Start(Tag::Image { dest_url, .. }) => p.links.push(dest_url.to_string()),
            Event::Html(h) | Event::InlineHtml(h) => p.html.push(h.to_string()),
            Event::Start(Tag::CodeBlock(_)) => in_code_block = true,
            Event::End(TagEnd::CodeBlock) => in_code_block = false,
            Event::Text(t) if !in_code_block => {
                p.text.push_str(&t);
                p.text.push('\n');
            }
            Event::Start(Tag::TableCell) => cells += 1,
            Event::End(TagEnd::TableHead) => {
                head_cells = cells;
                cells = 0;
            }
            Event::End(TagEnd::TableRow) => {
                p.rows_intact &= cells == head_cells;
                cells = 0;
            }
            _ => {}
        }
    }
    p
}

/// The comment holds no link, image, autolink, HTML, mention, reference or marker made of
/// plan text; its tables keep their columns; its plan fence is not closed early.
fn assert_inert_markdown(what: &str, md: &str) {
    let p = parse_markdown(md);
    // carbon-show's own links only: the methodology and alternatives at the version's tag
    let docs = format!(
        "{}/blob/v{}/docs/",
        env!("CARGO_PKG_REPOSITORY"),
        env!("CARGO_PKG_VERSION")
    );
    assert!(
        p.links.iter().all(|l| l.starts_with(&docs)
            && l[docs.len()..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-#".contains(c))),
        "{what}: links {:?}\n{md}",
        p.links
    );
    for h in &p.html {
        let ours = [
            "<!-- carbon-show",
            "<details>",
            "</details>",
            "<summary>",
            "</summary>",
            "<sub>",
            "</sub>",
        ]
        .iter()
        .any(|t| h.starts_with(t))
            || h == "<code>"
            || h == "</code>";
        assert!(ours, "{what}: HTML {h:?} from the plan\n{md}");
        assert!(!h.contains('@') && !h.contains("http"), "{what}: {h:?}");
    }
    // mentions, references and bare URLs (GitHub-side): nothing of the plan outside code
    for needle in ['@', '#'] {
        assert!(
            !p.text.contains(needle),
            "{what}: {needle:?} outside code:\n{}",
            p.text
        );
    }
    for needle in ["http", "www.", "deadbeef", "::error"] {
        assert!(
            !p.text.contains(needle),
            "{what}: {needle:?} outside code:\n{}",
            p.text
        );
    }
    assert!(
        p.rows_intact,
        "{what}: a table row lost or gained cells\n{md}"
    );
    assert_eq!(
        md.matches("<!--").count(),
        1,
        "{what}: an HTML comment beside the marker\n{md}"
    );
    assert!(md.starts_with("<!-- carbon-show -->\n"), "{what}");
}

#[test]
fn plan_text_formed_links_mentions_and_markers_in_the_comment() {
    let doc = hostile(EVIL_REGION, EVIL_KEY, EVIL_TYPE).to_string();
    let o = render(&doc, &["--format", "markdown"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let md = stdout(&o);
    assert_inert_markdown("comment", &md);
    assert!(
        md.contains("@octocat"),
        "the text is still there, in code:\n{md}"
    );
}

/// A heredoc line of backticks in the plan cannot close the fence the plan is folded in.
#[test]
fn a_backtick_line_in_the_plan_closed_its_fence() {
    let machine = "m5.x\n````````````\n[x](https://evil.example) @octocat <!-- carbon-show -->\n";
    let doc = hostile("us-east-1", "k", machine).to_string();
    let o = render(&doc, &["--format", "markdown"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_inert_markdown("fenced plan", &stdout(&o));
}

/// A module named with plan text is folded under a `<summary>` of its own.
#[test]
fn a_module_name_formed_a_mention_in_its_fold() {
    let mut doc = hostile("us-east-1", "k", "t3.micro");
    for section in ["resource_changes"] {
        for r in doc[section].as_array_mut().unwrap() {
            let a = r["address"].as_str().unwrap().to_string();
            r["address"] = format!("module.m[\"@org/team <b>x</b> #9\"].{a}").into();
            r["module_address"] = "module.m[\"@org/team <b>x</b> #9\"]".into();
        }
    }
    for r in doc["planned_values"]["root_module"]["resources"]
        .as_array_mut()
        .unwrap()
    {
        let a = r["address"].as_str().unwrap().to_string();
        r["address"] = format!("module.m[\"@org/team <b>x</b> #9\"].{a}").into();
    }
    // more resources than the comment's table shows, so that each module's are folded (a plan
    // whose table lists them all has no module folds: they would repeat it)
    let first = doc["resource_changes"][0].clone();
    for i in 0..10 {
        let mut r = first.clone();
        let a = format!("{}_{i}", r["address"].as_str().unwrap());
        r["address"] = a.into();
        doc["resource_changes"].as_array_mut().unwrap().push(r);
    }
    let o = render(&doc.to_string(), &["--format", "markdown"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let md = stdout(&o);
    assert!(md.contains("<summary><code>"), "a module fold:\n{md}");
    assert_inert_markdown("module folds", &md);
}

// ------------------------------------------------------------------ YAML

/// Every string of a YAML value (keys too).
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            out.push(k.clone());
            strings(x, out)
        }),
        _ => {}
    }
}

#[test]
fn a_del_in_an_address_made_the_impact_framework_yaml_unparseable() {
    let every: String = (1u32..0x20)
        .chain(0x7f..0xa0)
        .chain([0x2028, 0x2029, 0xfeff, 0x202e, 0x2066, 0xfffe, 0xe0041])
        .filter_map(char::from_u32)
        .chain("\"\\'#: -- ... --- %YAML !tag &a *a |>".chars())
        .collect();
    let doc = hostile(&format!("r{every}"), &format!("k{every}"), "t3.micro").to_string();
    let o = render(&doc, &["--format", "impact-framework"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let yaml = stdout(&o);
    let v: Value = serde_saphyr::from_str(&yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    let mut all = Vec::new();
    strings(&v, &mut all);
    let address = evil_address(&format!("k{every}"));
    assert!(
        all.iter().any(|s| s == &address),
        "the address is read back whole"
    );
    assert_no_raw_control("yaml", &yaml);
}

// ------------------------------------------------------------------ stderr

#[test]
fn a_mapping_file_name_with_a_line_break_put_an_error_line_on_stderr() {
    let dir = std::env::temp_dir().join(format!("carbon-show-esc-{}-maps", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("aws")).unwrap();
    std::fs::write(
        dir.join("aws/x\n::error::pwned\n##vso[task.setvariable variable=a]b\r.yaml"),
        "compute_resource: [\n",
    )
    .unwrap();
    let plan = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/security/one-instance.json");
    let o = bin()
        .arg("--mappings")
        .arg(&dir)
        .arg(plan)
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(8), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err:?}");
    assert!(err.starts_with("carbon-show: "), "{err:?}");
    assert!(err.contains(r"x\n::error::pwned\n##vso["), "{err:?}");
    assert!(!err.chars().any(|c| c != '\n' && raw_control(c)), "{err:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `mappings check` prints one diagnostic a line (on stdout, which a CI runner also reads for
/// workflow commands).
#[test]
fn a_mapping_file_name_with_a_line_break_put_an_error_line_in_mappings_check() {
    let dir = std::env::temp_dir().join(format!("carbon-show-esc-{}-check", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("aws")).unwrap();
    std::fs::write(
        dir.join("aws/x\n::error::pwned\u{1b}[2J.yaml"),
        "compute_resource: [\n",
    )
    .unwrap();
    let o = bin()
        .args(["mappings", "check"])
        .arg(&dir)
        .output()
        .unwrap();
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(8), "{}", stderr(&o));
    assert!(out.contains(r"x\n::error::pwned\x1b[2J.yaml"), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("::")), "{out}");
    assert_no_raw_control("mappings check", &out);
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------------------------------ --max-chars

fn long_types(n: usize, len: usize) -> Value {
    let mut doc = changes();
    let template = doc["resource_changes"][2].clone();
    for i in 0..n {
        let machine = format!("{i}{}", "x".repeat(len));
        let address = format!("aws_instance.long{i}");
        let mut r = template.clone();
        r["address"] = address.clone().into();
        r["change"] = json!({"actions": ["create"], "before": null,
            "after": {"instance_type": machine}, "after_unknown": {}});
        doc["resource_changes"].as_array_mut().unwrap().push(r);
        doc["planned_values"]["root_module"]["resources"]
            .as_array_mut()
            .unwrap()
            .push(
                json!({"address": address, "mode": "managed", "type": "aws_instance",
                "name": format!("long{i}"),
                "provider_name": "registry.terraform.io/hashicorp/aws",
                "values": {"instance_type": machine}}),
            );
    }
    doc
}

#[test]
fn a_long_instance_type_passed_max_chars() {
    for (n, len) in [(1, 100_000), (40, 5_000)] {
        let doc = long_types(n, len).to_string();
        for max in ["2000", "5000"] {
            let o = render(&doc, &["--format", "markdown", "--max-chars", max]);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            let md = stdout(&o);
            let chars = md.chars().count();
            assert!(
                chars <= max.parse().unwrap(),
                "{n}×{len}: {chars} > {max}\n{md}"
            );
            if n == 1 {
                assert!(md.contains(" … "), "shortened in the middle:\n{md}");
            }
            assert!(md.contains("`--max-chars`"), "says it left text out:\n{md}");
            assert!(parse_markdown(&md).rows_intact, "{md}");
        }
    }
}

// ------------------------------------------------------------------ any string

fn cases(n: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n)
}

/// Strings rich in what escaping is about: controls, bidi, Markdown and YAML syntax.
fn hostile_text() -> impl Strategy<Value = String> {
    let special = prop::sample::select(vec![
        '\u{1b}', '\u{7}', '\r', '\n', '\t', '\u{0}', '\u{7f}', '\u{85}', '\u{9b}', '\u{2028}',
        '\u{2029}', '\u{feff}', '\u{202e}', '\u{2066}', '\u{200e}', '\u{61c}', '`', '|', '[', ']',
        '(', ')', '<', '>', '!', '@', '#', '"', '\\', ':', '-', '&', '*', '_', '/',
    ]);
    let word = prop::sample::select(vec![
        "http://x.example",
        "<!--",
        "-->",
        "@octocat",
        "o/r#1",
        "::error::",
        "```",
        "www.",
    ]);
    prop::collection::vec(
        prop_oneof![
            3 => special.prop_map(String::from),
            1 => word.prop_map(String::from),
            2 => any::<char>().prop_map(String::from),
        ],
        0..24,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(24), failure_persistence: None, ..ProptestConfig::default() })]

    /// Random strings as the region, an address key and a machine type: the human output has
    /// no raw control, the YAML parses, the comment forms no link, mention or marker.
    #[test]
    fn random_plan_strings_stay_escaped_in_every_destination(
        region in hostile_text(),
        key in hostile_text(),
        machine in hostile_text(),
    ) {
        // a multi-line string is a heredoc in the diff, printed as Terraform prints it
        let machine = format!("m{}", machine.replace('\n', " "));
        let doc = hostile(&region, &key, &machine).to_string();
        let human = render(&doc, &["--alternatives", "on"]);
        prop_assert_eq!(human.status.code(), Some(0), "{}", stderr(&human));
        assert_no_raw_control("human", &stdout(&human));
        let yaml = render(&doc, &["--format", "impact-framework"]);
        prop_assert_eq!(yaml.status.code(), Some(0), "{}", stderr(&yaml));
        let parsed: Result<Value, _> = serde_saphyr::from_str(&stdout(&yaml));
        prop_assert!(parsed.is_ok(), "{:?}\n{}", parsed.err(), stdout(&yaml));
        let md = render(&doc, &["--format", "markdown"]);
        prop_assert_eq!(md.status.code(), Some(0), "{}", stderr(&md));
        assert_inert_markdown("random", &stdout(&md));
    }
}
