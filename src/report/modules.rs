//! Module rollups: the report's resources gathered into the plan's module tree, nested modules
//! folded into their parents past a depth (`--module-depth`), each module with its totals.
//!
//! A module of the tree is a module *call* (`module.app`), not an instance: the instances of a
//! call made with `count` or `for_each` (`module.app["a"]`, `module.app["b"]`) roll up into one
//! node, which counts them ([`Module::instances`]). Every resource of the report (estimated or
//! not) sits in exactly one node, so the nodes' own resources partition the plan and the root's
//! totals are the plan's ([`Totals::sum`], the same arithmetic as [`Report::new`]).

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::Serialize;

use super::{Report, ResourceReport, Totals};

/// The default `--module-depth`: top-level modules, nested ones folded into them.
pub const DEFAULT_DEPTH: usize = 1;

/// The module tree of a report, folded at `depth`.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct ModuleRollup {
    /// `--module-depth`: modules nested deeper are folded into their ancestor at this depth
    /// (0: everything in the root module).
    pub depth: usize,
    /// The root module; its totals are the plan's.
    pub root: Module,
}

/// One module call of the plan, with the resources of the modules folded into it.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct Module {
    /// The module call's address, instance keys left out (`module.eu.module.cache`); `""` for
    /// the root module.
    pub address: String,
    /// How many instances of the call (`count`, `for_each`) have resources in the report: 2
    /// for `module.app["a"]` and `module.app["b"]`; 1 for the root module.
    pub instances: usize,
    /// Resources of the report in this module and every module under it.
    pub resource_count: usize,
    /// The figures of those resources, summed as the plan's `totals` are.
    pub totals: Totals,
    /// Addresses of the resources declared in this module itself, or in a module nested past
    /// `depth` and folded into it; in the report's order.
    pub resources: Vec<String>,
    /// The modules it calls (up to `depth`), by address.
    pub children: Vec<Module>,
    /// The figures of [`Module::resources`] alone (not serialised: `totals` minus the
    /// children's).
    #[serde(skip)]
    pub own: Totals,
}

impl Module {
    /// This module and every module under it, parents first.
    pub fn walk(&self) -> Vec<&Module> {
        let mut out = vec![self];
        for c in &self.children {
            out.extend(c.walk());
        }
        out
    }
}

/// One `module.NAME[KEY]` step of a resource address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step<'a> {
    /// The call's name (`app`).
    pub name: &'a str,
    /// The address up to and including this step: `module.a["x"].module.app["k.1"]`.
    pub instance: &'a str,
}

/// The module steps of a resource address, outermost first:
/// `module.a["x.y"].module.b.aws_instance.web[0]` → `a` (`module.a["x.y"]`), `b`
/// (`module.a["x.y"].module.b`). Dots, brackets and escaped quotes inside a quoted key are
/// part of the key. An address that breaks off (an unclosed key) keeps the steps before it.
pub fn module_steps(address: &str) -> Vec<Step<'_>> {
    let bytes = address.as_bytes();
    let mut steps = Vec::new();
    let mut at = 0;
    while address[at..].starts_with("module.") {
        let name_start = at + "module.".len();
        let mut i = name_start;
        while i < bytes.len() && bytes[i] != b'.' && bytes[i] != b'[' {
            i += 1;
        }
        let name = &address[name_start..i];
        if name.is_empty() {
            break;
        }
        if i < bytes.len() && bytes[i] == b'[' {
            match index_end(bytes, i) {
                Some(end) => i = end,
                None => break,
            }
        }
        steps.push(Step {
            name,
            instance: &address[..i],
        });
        if i < bytes.len() && bytes[i] == b'.' {
            at = i + 1;
        } else {
            break;
        }
    }
    steps
}

/// The position just past the `]` closing the index that opens at `open` (`[0]`, `["k"]`,
/// with `\"` and `\\` escapes in a quoted key); `None` when it is not closed.
fn index_end(bytes: &[u8], open: usize) -> Option<usize> {
    let mut i = open + 1;
    if bytes.get(i) == Some(&b'"') {
        i += 1;
        loop {
            match bytes.get(i)? {
                b'\\' => i += 2,
                b'"' => break,
                _ => i += 1,
            }
        }
        i += 1;
        (bytes.get(i) == Some(&b']')).then_some(i + 1)
    } else {
        while *bytes.get(i)? != b']' {
            i += 1;
        }
        Some(i + 1)
    }
}

/// A node while the tree is built.
#[derive(Default)]
struct Node<'r> {
    /// Indices into the report's resources, in order.
    own: Vec<usize>,
    instances: BTreeSet<&'r str>,
    children: BTreeMap<&'r str, Node<'r>>,
}

impl Node<'_> {
    fn subtree(&self, out: &mut Vec<usize>) {
        out.extend(&self.own);
        self.children.values().for_each(|c| c.subtree(out));
    }

    fn finish(&self, address: String, report: &Report) -> Module {
        let mut all = Vec::new();
        self.subtree(&mut all);
        // the report's order, so that the root's sums are the plan's to the last bit
        all.sort_unstable();
        let pick = |ix: &[usize]| -> Vec<&ResourceReport> {
            ix.iter().map(|&i| &report.resources[i]).collect()
        };
        let children = self
            .children
            .iter()
            .map(|(name, c)| {
                let a = if address.is_empty() {
                    format!("module.{name}")
                } else {
                    format!("{address}.module.{name}")
                };
                c.finish(a, report)
            })
            .collect();
        Module {
            instances: self.instances.len().max(1),
            resource_count: all.len(),
            totals: Totals::sum(pick(&all)),
            own: Totals::sum(pick(&self.own)),
            resources: pick(&self.own).iter().map(|r| r.address.clone()).collect(),
            address,
            children,
        }
    }
}

/// The report's resources in their modules, nested modules past `depth` folded into their
/// ancestor at `depth` (0: all in the root module).
pub fn rollup(report: &Report, depth: usize) -> ModuleRollup {
    let mut root = Node::default();
    for (i, r) in report.resources.iter().enumerate() {
        let mut node = &mut root;
        for step in module_steps(&r.address).into_iter().take(depth) {
            node = node.children.entry(step.name).or_default();
            node.instances.insert(step.instance);
        }
        node.own.push(i);
    }
    ModuleRollup {
        depth,
        root: root.finish(String::new(), report),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::Period;
    use crate::report::fixtures::side;
    use crate::report::{Figures, Status};
    use proptest::prelude::*;

    fn steps(a: &str) -> Vec<(&str, &str)> {
        module_steps(a)
            .into_iter()
            .map(|s| (s.name, s.instance))
            .collect()
    }

    #[test]
    fn module_steps_parse_keys_with_dots_quotes_and_brackets() {
        assert_eq!(
            steps(r#"module.a["x.y"].module.b.aws_instance.web[0]"#),
            [
                ("a", r#"module.a["x.y"]"#),
                ("b", r#"module.a["x.y"].module.b"#)
            ]
        );
        assert_eq!(
            steps(r#"module.m["a\"].module.b[1]"].data.x.y"#),
            [("m", r#"module.m["a\"].module.b[1]"]"#)]
        );
        assert_eq!(
            steps(r#"module.m["a\\"].module.n[3].x.y"#),
            [
                ("m", r#"module.m["a\\"]"#),
                ("n", r#"module.m["a\\"].module.n[3]"#)
            ]
        );
        assert!(steps("aws_instance.web").is_empty());
        assert!(steps("aws_instance.module").is_empty());
        // a deposed object's address keeps its module
        assert_eq!(
            steps("module.eu.aws_instance.a (deposed object 1)"),
            [("eu", "module.eu")]
        );
    }

    #[test]
    fn broken_addresses_keep_the_steps_before_the_break() {
        assert_eq!(steps(r#"module.a.module.b["open"#), [("a", "module.a")]);
        assert_eq!(steps(r#"module.a.module.b["x"y].c.d"#), [("a", "module.a")]);
        assert_eq!(steps("module.a.module.b[1"), [("a", "module.a")]);
        assert!(steps("module..x.y").is_empty());
        assert!(steps("module.").is_empty());
        assert_eq!(steps("module.ü.x.y"), [("ü", "module.ü")]);
    }

    /// A module step as Terraform writes it: a name, then no index, a number, or a quoted
    /// key with `"` and `\\` escaped.
    fn step() -> impl Strategy<Value = (String, String)> {
        let key = prop_oneof![
            Just(String::new()),
            (0u32..20).prop_map(|n| format!("[{n}]")),
            "[ -~\\PC]{0,8}".prop_map(|k| {
                format!("[\"{}\"]", k.replace('\\', "\\\\").replace('"', "\\\""))
            }),
        ];
        ("[a-z_][a-z0-9_-]{0,6}", key)
    }

    proptest! {
        /// Whatever the keys hold, the steps are the module calls the address was built of.
        #[test]
        fn module_steps_recover_the_calls(path in prop::collection::vec(step(), 0..4), data in any::<bool>()) {
            let mut address = String::new();
            let mut want = Vec::new();
            for (name, key) in &path {
                address.push_str(&format!("module.{name}{key}"));
                want.push((name.clone(), address.clone()));
                address.push('.');
            }
            address.push_str(if data { "data.aws_ami.x" } else { "aws_instance.web[\"a.b\"]" });
            let got: Vec<(String, String)> = module_steps(&address)
                .into_iter()
                .map(|s| (s.name.to_string(), s.instance.to_string()))
                .collect();
            prop_assert_eq!(got, want);
        }

        /// Any text: no panic, and every step is a prefix of it.
        #[test]
        fn module_steps_never_panic(address in "(module\\.|[a-z\\[\\]\"\\\\.]|\\PC){0,30}") {
            for s in module_steps(&address) {
                prop_assert!(address.starts_with(s.instance));
                prop_assert!(!s.name.is_empty());
            }
        }
    }

    fn create(addr: &str, g: f64) -> ResourceReport {
        ResourceReport::new(
            addr.into(),
            "aws_instance".into(),
            vec!["create".into()],
            None,
            Some(side(2.0, 8.0, g, 1.0)),
        )
    }

    fn report(resources: Vec<ResourceReport>) -> Report {
        Report::new(resources, vec![], 0, 0.5, Period::Month)
    }

    fn total(t: &Totals) -> (f64, f64, f64) {
        (
            t.before_per_hour.total_gco2eq,
            t.after_per_hour.total_gco2eq,
            t.delta_per_hour.total_gco2eq,
        )
    }

    /// Hand-checked: root 1 g/h; module.app ×2 (3 + 5 g/h, with its nested db 7 g/h at depth
    /// 1); module.solo 11 g/h. Plan: 27 g/h.
    #[test]
    fn instances_of_a_call_roll_up_and_nested_modules_fold_at_the_depth() {
        let r = report(vec![
            create("aws_instance.root", 1.0),
            create(r#"module.app["a"].aws_instance.x"#, 3.0),
            create(r#"module.app["b.c"].aws_instance.x"#, 5.0),
            create(r#"module.app["a"].module.db.aws_instance.y"#, 7.0),
            create("module.solo.aws_instance.z", 11.0),
        ]);
        let m = rollup(&r, 1).root;
        assert_eq!(m.address, "");
        assert_eq!(total(&m.totals), (0.0, 27.0, 27.0));
        assert_eq!(m.totals, r.totals);
        assert_eq!(m.resources, ["aws_instance.root"]);
        assert_eq!(total(&m.own), (0.0, 1.0, 1.0));
        let app = &m.children[0];
        assert_eq!(
            (app.address.as_str(), app.instances, app.resource_count),
            ("module.app", 2, 3)
        );
        assert_eq!(total(&app.totals).1, 15.0);
        assert_eq!(total(&app.own).1, 15.0);
        assert!(app.children.is_empty());
        assert_eq!(m.children[1].address, "module.solo");
        assert_eq!(m.children[1].instances, 1);

        let deep = rollup(&r, 2).root;
        let app = &deep.children[0];
        assert_eq!(total(&app.own).1, 8.0);
        assert_eq!(total(&app.totals).1, 15.0);
        let db = &app.children[0];
        assert_eq!(
            (db.address.as_str(), db.instances, db.resources.len()),
            ("module.app.module.db", 1, 1)
        );
        assert_eq!(total(&db.totals).1, 7.0);

        let flat = rollup(&r, 0).root;
        assert!(flat.children.is_empty());
        assert_eq!(flat.resources.len(), 5);
        assert_eq!(flat.own, r.totals);
    }

    #[test]
    fn a_not_estimated_update_counts_in_its_module_as_in_the_plan() {
        let mut skipped = ResourceReport::new(
            "module.m.aws_instance.a".into(),
            "aws_instance".into(),
            vec!["update".into()],
            Some(side(2.0, 8.0, 4.0, 1.0)),
            None,
        );
        skipped.status = Status::NotEstimated {
            reason: "machine type known after apply".into(),
        };
        skipped.delta_per_hour = Figures::default();
        let r = report(vec![skipped, create("aws_instance.b", 2.0)]);
        let root = rollup(&r, 1).root;
        assert_eq!(total(&root.children[0].totals), (4.0, 4.0, 0.0));
        assert_eq!(root.totals, r.totals);
    }
}
