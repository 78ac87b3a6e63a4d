//! Mapping engine tests: Carbonifer compatibility, shipped mappings per resource type, language features, bad files.

use carbon_show::mapping::{self, DiagKind, DiskKind, Engine, MappedPlan, MappedResource, MappingFile};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

fn td(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/mapping").join(p)
}

fn carbonifer_data(name: &str) -> Option<Cow<'static, str>> {
    std::fs::read_to_string(td("carbonifer/data").join(name)).ok().map(Cow::Owned)
}

fn carbonifer_engine() -> Engine {
    let files = mapping::read_dir(&td("carbonifer/mappings")).unwrap();
    Engine::from_files(&files, &carbonifer_data).unwrap()
}

fn plan(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn find<'a>(v: &'a [MappedResource], addr: &str) -> &'a MappedResource {
    v.iter().find(|r| r.address == addr).unwrap_or_else(|| panic!("{addr} not mapped; have {:?}", v.iter().map(|r| &r.address).collect::<Vec<_>>()))
}

#[test]
fn carbonifer_debug() {
    let e = carbonifer_engine();
    for d in e.diagnostics() { println!("DIAG {d}"); }
    let m = e.map(&plan(&td("carbonifer/plans/plan.json")));
    for r in &m.after { println!("{r:?}"); }
    println!("ignored {:?}\nunsupported {:?}", m.ignored, m.unsupported);
    panic!();
}
