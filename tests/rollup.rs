//! Module rollups (`--module-depth`): the human summary's module lines, the JSON module tree
//! whose totals add up to the plan's, and the Markdown module table, on the demo plan, the
//! fixtures and a generated plan with nested and counted modules.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::{bin, stderr, stdout};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn run_in_root(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = bin();
    c.current_dir(root())
        .args(["--color", "never"])
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run carbon-show")
}

fn show(args: &[&str]) -> String {
    let o = run_in_root(args, &[]);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// The summary's module section: from `by module` to the end.
fn module_lines(human: &str) -> &str {
    human.find("  by module per ").map_or("", |at| &human[at..])
}

/// A generated plan (scripts/gen-plan) of 300 resources: nested modules, `count` modules.
/// Written once per test run (the tests that read it run in parallel).
fn generated() -> PathBuf {
    static PLAN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    PLAN.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("carbon-show-rollup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plan = dir.join("plan-300.json");
        let o = std::process::Command::new("python3")
            .arg(root().join("scripts/gen-plan/gen_plan.py"))
            .args(["--resources", "300", "--seed", "1", "-o"])
            .arg(&plan)
            .output()
            .expect("python3 runs");
        assert!(o.status.success(), "{}", stderr(&o));
        plan
    })
    .clone()
}

#[test]
fn rollup_demo_summary_names_its_top_modules() {
    let human = show(&["testdata/demo/plan.json"]);
    assert_eq!(
        module_lines(&human),
        "  by module per month (--module-depth 1):\n\
         \x20   +21.8 kgCO2eq  (root module): 4.62 kgCO2eq → 26.5 kgCO2eq · 13 resources\n\
         \x20   +10.2 kgCO2eq  module.eu: 0 gCO2eq → 10.2 kgCO2eq · 3 resources\n"
    );
}

/// Depth 2 splits `module.eu.module.cache` out of `module.eu` (whose row keeps only its own
/// two instances); depth 0 has no module section. The flag, the variable and the file agree.
#[test]
fn rollup_module_depth_2_splits_nested_modules_and_0_has_none() {
    let deep = "  by module per month (--module-depth 2):\n\
                \x20   +21.8 kgCO2eq  (root module): 4.62 kgCO2eq → 26.5 kgCO2eq · 13 resources\n\
                \x20   +5.12 kgCO2eq  module.eu: 0 gCO2eq → 5.12 kgCO2eq · 2 resources\n\
                \x20   +5.11 kgCO2eq  module.eu.module.cache: 0 gCO2eq → 5.11 kgCO2eq · 1 resource\n";
    let human = show(&["testdata/demo/plan.json", "--module-depth", "2"]);
    assert_eq!(module_lines(&human), deep);
    let o = run_in_root(
        &["testdata/demo/plan.json"],
        &[("CARBON_SHOW_MODULE_DEPTH", "2")],
    );
    assert_eq!(module_lines(&stdout(&o)), deep);
    let none = show(&["testdata/demo/plan.json", "--module-depth", "0"]);
    assert_eq!(module_lines(&none), "");
    // everything else of the summary is the same at every depth
    let one = show(&["testdata/demo/plan.json"]);
    assert_eq!(&one[..one.len() - module_lines(&one).len()], none);
    // the file key
    let dir = std::env::temp_dir().join(format!("carbon-show-rollup-cfg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("c.toml");
    std::fs::write(&cfg, "module-depth = 2\n").unwrap();
    let human = show(&["testdata/demo/plan.json", "--config", cfg.to_str().unwrap()]);
    assert_eq!(module_lines(&human), deep);
    std::fs::write(&cfg, "module-depth = -3\n").unwrap();
    let o = run_in_root(
        &["testdata/demo/plan.json", "--config", cfg.to_str().unwrap()],
        &[],
    );
    assert_eq!(o.status.code(), Some(10), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("c.toml:1: module-depth must be between 0 and 100"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
    let o = run_in_root(&["testdata/demo/plan.json", "--module-depth", "x"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// `module.app["blue"]` and `module.app["green"]` are one call: one row, `×2`.
#[test]
fn rollup_instances_of_a_module_roll_up_into_their_call() {
    let human = show(&["testdata/carbon/modules.json"]);
    assert!(
        module_lines(&human)
            .contains("+10.9 kgCO2eq  module.app ×2: 0 gCO2eq → 10.9 kgCO2eq · 4 resources\n"),
        "{human}"
    );
    let doc: Value =
        serde_json::from_str(&show(&["testdata/carbon/modules.json", "--format", "json"])).unwrap();
    let app = &doc["modules"]["root"]["children"][0];
    assert_eq!(app["address"], "module.app");
    assert_eq!(app["instances"], 2);
    assert_eq!(app["resource_count"], 4);
}

/// A plan of the root module only has nothing to roll up: no module section, no table, and
/// the JSON tree is the root alone.
#[test]
fn rollup_root_module_only_plan_has_no_module_section() {
    let human = show(&["testdata/carbon/create.json"]);
    assert_eq!(module_lines(&human), "");
    let md = show(&["testdata/carbon/create.json", "--format", "markdown"]);
    assert!(!md.contains("**By module**"), "{md}");
    let doc: Value =
        serde_json::from_str(&show(&["testdata/carbon/create.json", "--format", "json"])).unwrap();
    let root = &doc["modules"]["root"];
    assert_eq!(root["address"], "");
    assert_eq!(root["children"], Value::Array(vec![]));
    assert_eq!(
        root["resource_count"].as_u64().unwrap() as usize,
        doc["resources"].as_array().unwrap().len()
    );
}

const FIGURES: [&str; 5] = [
    "power_w",
    "energy_kwh",
    "operational_gco2eq",
    "embodied_gco2eq",
    "total_gco2eq",
];

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// Every figure of `totals` (per hour and the bands' ends) as (name, value).
fn flatten(totals: &Value) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    for side in ["before", "after", "delta"] {
        for f in FIGURES {
            out.push((
                format!("{side}_per_hour.{f}"),
                totals[format!("{side}_per_hour")][f].as_f64().unwrap(),
            ));
            for end in ["low", "high"] {
                out.push((
                    format!("{side}_range_per_hour.{end}.{f}"),
                    totals[format!("{side}_range_per_hour")][end][f]
                        .as_f64()
                        .unwrap(),
                ));
            }
        }
    }
    out
}

/// One resource's part of the totals, by the plan's rule: a not-estimated update keeps its
/// before figures on both sides.
fn part(r: &Value) -> Vec<(String, f64)> {
    let before = &r["before"];
    let after = if r["status"] == "not_estimated" && r["after"].is_null() {
        before
    } else {
        &r["after"]
    };
    let mut out = Vec::new();
    let get = |s: &Value, band: Option<&str>, f: &str| -> f64 {
        if s.is_null() {
            return 0.0;
        }
        match band {
            None => s["per_hour"][f].as_f64().unwrap(),
            Some(end) => s["range_per_hour"][end][f].as_f64().unwrap(),
        }
    };
    for side in ["before", "after", "delta"] {
        for f in FIGURES {
            let v = |band| match side {
                "before" => get(before, band, f),
                "after" => get(after, band, f),
                _ => get(after, band, f) - get(before, band, f),
            };
            out.push((format!("{side}_per_hour.{f}"), v(None)));
            for end in ["low", "high"] {
                out.push((format!("{side}_range_per_hour.{end}.{f}"), v(Some(end))));
            }
        }
    }
    out
}

/// Checks a node: its totals are its own resources' plus its children's (each figure), its
/// count likewise; returns the addresses under it.
fn check_node(node: &Value, by_address: &std::collections::HashMap<&str, &Value>) -> Vec<String> {
    let own = node["resources"].as_array().unwrap();
    let mut sum: Vec<(String, f64)> = flatten(&node["totals"])
        .into_iter()
        .map(|(k, _)| (k, 0.0))
        .collect();
    let mut add = |parts: Vec<(String, f64)>| {
        for ((k, v), (k2, p)) in sum.iter_mut().zip(parts) {
            assert_eq!(*k, k2);
            *v += p;
        }
    };
    let mut addresses: Vec<String> = Vec::new();
    for a in own {
        let a = a.as_str().unwrap();
        addresses.push(a.to_string());
        add(part(by_address[a]));
    }
    for c in node["children"].as_array().unwrap() {
        let child = c["address"].as_str().unwrap();
        let parent = node["address"].as_str().unwrap();
        assert!(
            child.starts_with(&format!(
                "{parent}{}module.",
                if parent.is_empty() { "" } else { "." }
            )),
            "{child} under {parent}"
        );
        addresses.extend(check_node(c, by_address));
        add(flatten(&c["totals"]));
    }
    // a delta band's ends are ordered per figure: the sum of children's bands is compared on
    // the central figures and the before/after bands only
    for ((k, want), (_, got)) in sum.iter().zip(flatten(&node["totals"])) {
        if k.starts_with("delta_range") {
            continue;
        }
        assert!(
            close(*want, got),
            "{}: {k} is {got}, its resources and children add up to {want}",
            node["address"]
        );
    }
    assert_eq!(
        node["resource_count"].as_u64().unwrap() as usize,
        addresses.len(),
        "{}",
        node["address"]
    );
    addresses
}

fn check_tree_adds_up(plan: &str, depth: &str) -> Value {
    let doc: Value =
        serde_json::from_str(&show(&[plan, "--format", "json", "--module-depth", depth])).unwrap();
    let resources = doc["resources"].as_array().unwrap();
    let by_address: std::collections::HashMap<&str, &Value> = resources
        .iter()
        .map(|r| (r["address"].as_str().unwrap(), r))
        .collect();
    let tree = &doc["modules"];
    assert_eq!(tree["depth"].as_u64().unwrap().to_string(), depth);
    let root = &tree["root"];
    // the root's totals are the plan's, figure by figure
    for ((k, want), (_, got)) in flatten(&doc["totals"]).iter().zip(flatten(&root["totals"])) {
        assert!(
            close(*want, got),
            "{plan} depth {depth}: {k}: {got} ≠ {want}"
        );
    }
    let mut all = check_node(root, &by_address);
    // every resource of the report is in exactly one module
    all.sort();
    let mut want: Vec<String> = by_address.keys().map(|a| a.to_string()).collect();
    want.sort();
    assert_eq!(all, want, "{plan} depth {depth}");
    doc
}

fn depth_of(node: &Value) -> usize {
    node["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| 1 + depth_of(c))
        .max()
        .unwrap_or(0)
}

#[test]
fn rollup_json_tree_totals_add_up_to_the_plans() {
    for depth in ["0", "1", "2"] {
        let doc = check_tree_adds_up("testdata/demo/plan.json", depth);
        assert_eq!(depth_of(&doc["modules"]["root"]).to_string(), depth);
    }
    let doc = check_tree_adds_up("testdata/demo/plan.json", "1");
    let eu = &doc["modules"]["root"]["children"][0];
    assert_eq!(eu["address"], "module.eu");
    assert_eq!(eu["resource_count"], 3);
    let plan = generated();
    let plan = plan.to_str().unwrap();
    for depth in ["0", "1", "2", "3", "100"] {
        let doc = check_tree_adds_up(plan, depth);
        let d = depth_of(&doc["modules"]["root"]);
        assert!(d <= depth.parse().unwrap(), "depth {depth}: {d}");
        if depth != "0" {
            assert!(d >= 1, "the generated plan has modules");
        }
    }
    // counted modules roll up into their call
    let doc = check_tree_adds_up(plan, "1");
    let counted = doc["modules"]["root"]["children"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["instances"].as_u64().unwrap() > 1)
        .count();
    assert!(counted > 0, "the generated plan has count/for_each modules");
}

#[test]
fn rollup_markdown_has_the_module_table_and_each_modules_resources() {
    let md = show(&["testdata/demo/plan.json", "--format", "markdown"]);
    assert!(
        md.contains(
            "**By module** (modules nested deeper than 1 folded into their parent, \
             `--module-depth`)\n\n\
             | module (kgCO2eq per month) | resources | before | after | change |\n\
             |---|---:|---:|---:|---:|\n\
             | (root module) | 13 | 4.62 | 26.5 | +21.8 |\n\
             | `module.eu` | 3 | 0 | 10.2 | +10.2 |\n"
        ),
        "{md}"
    );
    let eu = md
        .find("<details><summary><code>module.eu</code>: +10.2 kgCO2eq per month, 3 resources</summary>")
        .expect("module.eu's resources folded");
    let eu = &md[eu..eu + md[eu..].find("</details>").unwrap()];
    assert!(
        eu.contains(
            "| `module.eu.aws_instance.app[\"api\",\"web\"] ×2` | create | – | 5.12 | +5.12 |"
        ),
        "{eu}"
    );
    assert!(!eu.contains("aws_db_instance.main"), "{eu}");
    // 13 resources in the root module, 11 listed (the 3 workers on one row): the other two
    // are said
    let at = md
        .find("<details><summary>(root module): +21.8 kgCO2eq per month, 13 resources</summary>")
        .expect("the root module's resources folded");
    let root_fold = &md[at..at + md[at..].find("</details>").unwrap()];
    assert!(
        root_fold.ends_with(
            "*And 2 more resources: their figures do not change, or could not be estimated.*\n\n"
        ),
        "{root_fold}"
    );
    // the module table comes before the plan's fold
    assert!(md.find("**By module**").unwrap() < md.find("<details><summary>Plan:").unwrap());
    let none = show(&[
        "testdata/demo/plan.json",
        "--format",
        "markdown",
        "--module-depth",
        "0",
    ]);
    assert!(!none.contains("By module"), "{none}");
}

/// Over `--max-chars`, the modules' folded resources go before the resource rows, and the
/// module table before the top rows; the comment always fits.
#[test]
fn rollup_markdown_modules_stay_within_max_chars() {
    let plan = generated();
    let plan = plan.to_str().unwrap();
    let whole = show(&[plan, "--format", "markdown", "--module-depth", "2"]);
    assert!(whole.contains("**By module**"), "{whole}");
    for max in [2_000, 3_000, 5_000, 8_000, 20_000] {
        let m = max.to_string();
        let md = show(&[
            plan,
            "--format",
            "markdown",
            "--module-depth",
            "2",
            "--max-chars",
            &m,
        ]);
        assert!(md.chars().count() <= max, "{max}: {}", md.chars().count());
        assert!(md.contains("This plan"), "{md}");
        // an opened fold is closed
        assert_eq!(
            md.matches("<details>").count(),
            md.matches("</details>").count(),
            "{md}"
        );
    }
    let md = show(&[plan, "--format", "markdown", "--max-chars", "8000"]);
    assert!(md.contains("**By module**"), "{md}");
}

/// A state has no before and after: its modules are ranked by what they emit.
#[test]
fn rollup_a_states_modules_are_ranked_by_what_they_emit() {
    let human = show(&["testdata/plans/infracost/terraform_v0.14_state.json"]);
    assert_eq!(
        module_lines(&human),
        "  by module per month (--module-depth 1):\n\
         \x20   3.16 kgCO2eq  (root module) · 3 resources\n\
         \x20   3.16 kgCO2eq  module.instances · 3 resources\n\
         \x20   1.23 kgCO2eq  module.db · 1 resource\n"
    );
    let md = show(&[
        "testdata/plans/infracost/terraform_v0.14_state.json",
        "--format",
        "markdown",
    ]);
    assert!(
        md.contains("| module (kgCO2eq per month) | resources | emits |\n"),
        "{md}"
    );
}

/// Module lines keep to 100 columns: past it, before → after is dropped (a label longer
/// than the line can only be shown whole).
#[test]
fn rollup_module_lines_fit_100_columns() {
    let plan = generated();
    for depth in ["1", "3"] {
        let human = show(&[plan.to_str().unwrap(), "--module-depth", depth]);
        let lines = module_lines(&human);
        assert!(lines.lines().count() >= 3, "{human}");
        for l in lines.lines() {
            assert!(
                l.chars().count() <= 100 || !l.contains('→'),
                "{} columns: {l}",
                l.chars().count()
            );
        }
    }
}

/// A module instance address with its keys left out: `module.a["x.y"].module.b[0]` →
/// `module.a.module.b` (written apart from the parser under test: brackets outside quotes).
fn without_keys(address: &str) -> String {
    let (mut out, mut depth, mut quoted, mut escaped) = (String::new(), 0, false, false);
    for c in address.chars() {
        if quoted {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => quoted = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' if depth > 0 => quoted = true,
            '[' => depth += 1,
            ']' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// The module of every resource, as `planned_values` nests it: address → module address.
fn planned_modules(module: &Value, into: &mut std::collections::HashMap<String, String>) {
    let here = module["address"].as_str().unwrap_or("");
    for r in module["resources"].as_array().into_iter().flatten() {
        into.insert(r["address"].as_str().unwrap().to_string(), here.to_string());
    }
    for c in module["child_modules"].as_array().into_iter().flatten() {
        planned_modules(c, into);
    }
}

/// The tree's module of each resource agrees with the plan's own module nesting
/// (`planned_values.child_modules[].address`), keys with dots, brackets and backslashes
/// included.
#[test]
fn rollup_modules_agree_with_the_plans_own_module_addresses() {
    let generated = generated();
    for plan in [
        generated.to_str().unwrap(),
        "testdata/demo/plan.json",
        "testdata/carbon/modules.json",
        "testdata/plans/infracost/terraform_v0.14_plan.json",
    ] {
        let doc: Value =
            serde_json::from_slice(&std::fs::read(root().join(plan)).unwrap()).unwrap();
        let mut want = std::collections::HashMap::new();
        planned_modules(&doc["planned_values"]["root_module"], &mut want);
        let out: Value =
            serde_json::from_str(&show(&[plan, "--format", "json", "--module-depth", "100"]))
                .unwrap();
        let mut got = std::collections::HashMap::new();
        fn walk(node: &Value, got: &mut std::collections::HashMap<String, String>) {
            for r in node["resources"].as_array().unwrap() {
                got.insert(
                    r.as_str().unwrap().to_string(),
                    node["address"].as_str().unwrap().to_string(),
                );
            }
            for c in node["children"].as_array().unwrap() {
                walk(c, got);
            }
        }
        walk(&out["modules"]["root"], &mut got);
        let mut checked = 0;
        for (address, module) in &got {
            if let Some(m) = want.get(address) {
                assert_eq!(*module, without_keys(m), "{plan}: {address}");
                checked += 1;
            }
        }
        assert!(checked >= 4, "{plan}: {checked} resources checked");
        let nested = got.values().filter(|m| m.matches("module.").count() > 1);
        if plan == generated.to_str().unwrap() {
            assert!(nested.count() > 10, "the generated plan nests modules");
        }
    }
}
