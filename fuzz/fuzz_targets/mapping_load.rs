//! Arbitrary bytes as the text of a user mapping file: loading and checking it (alone, and
//! layered over the embedded mappings) must give errors, never panic; a set that loads maps
//! a fixed plan without panicking.

#![no_main]

use std::borrow::Cow;
use std::sync::LazyLock;

use carbon_show::mapping::{self, Engine, MappingFile};
use libfuzzer_sys::fuzz_target;

static PLAN: LazyLock<serde_json::Value> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../testdata/carbon/mixed.json")).expect("plan")
});

fn resolver(name: &str) -> Option<Cow<'static, str>> {
    carbon_show::data::json_file(name).map(Cow::Borrowed)
}

fuzz_target!(|data: &[u8]| {
    // The first byte chooses the provider folder and whether the embedded set sits below.
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest).into_owned();
    let folder = match flags & 3 {
        0 => Some("aws"),
        1 => Some("gcp"),
        2 => Some("azure"),
        _ => None,
    };
    let file = MappingFile {
        path: format!("user/{}/fuzz.yaml", folder.unwrap_or("")),
        folder: folder.map(str::to_string),
        text,
    };
    let files = if flags & 0x80 != 0 {
        let mut files = mapping::builtin_files();
        files.push(file);
        files
    } else {
        vec![file]
    };
    // `from_files` is `check_files` (one build, every diagnostic) keeping the fatal ones:
    // one build per input keeps the target fast.
    match Engine::from_files(&files, &resolver) {
        Ok(engine) => {
            for d in engine.diagnostics() {
                let _ = d.to_string();
            }
            let _ = engine.map(&PLAN);
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
