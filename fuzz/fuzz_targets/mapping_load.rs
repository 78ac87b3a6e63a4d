//! Arbitrary bytes as the text of a user mapping file: loading and checking it (alone, and
//! layered over the embedded mappings) must give errors, never panic; a set that loads maps
//! a fixed plan without panicking.

#![no_main]

use std::borrow::Cow;
use std::sync::LazyLock;

use carbon_show::mapping::limits::{self, Budget, Guarded};
use carbon_show::mapping::{self, Engine, MappingFile};
use libfuzzer_sys::fuzz_target;

// The binary's allocator, so that the memory budget of an evaluation holds here as it does in
// `carbon-show` (a filter past its budget ends the process with exit 8: run this target with
// `-fork=1 -ignore_crashes=1` and replay what it saves; see docs/fuzzing.md).
#[global_allocator]
static GLOBAL: Guarded<std::alloc::System> = Guarded(std::alloc::System);

/// A budget far below the binary's default (5 s, 512 MiB), so a hostile filter the fuzzer
/// writes ends in well under libFuzzer's `-timeout` and `-rss_limit_mb`.
static BUDGET: LazyLock<()> = LazyLock::new(|| {
    limits::set_budget(Budget {
        time: std::time::Duration::from_secs(1),
        memory: 256 << 20,
    })
});

static PLAN: LazyLock<serde_json::Value> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../testdata/carbon/mixed.json")).expect("plan")
});

fn resolver(name: &str) -> Option<Cow<'static, str>> {
    carbon_show::data::json_file(name).map(Cow::Borrowed)
}

fuzz_target!(|data: &[u8]| {
    LazyLock::force(&BUDGET);
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
