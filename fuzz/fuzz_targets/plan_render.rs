//! Arbitrary bytes as a `show -json` document: parse it, and when it parses, render it in
//! every format (human without and with a schema, and the carbon formats). Nothing may panic.

#![no_main]

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use carbon_show::app;
use carbon_show::cli::{CarbonOptions, ColorMode, Format, Input, Options};
use carbon_show::mapping::{self, Engine};
use carbon_show::render::{HumanOptions, PlanMode};
use carbon_show::schema::Schemas;
use libfuzzer_sys::fuzz_target;

/// The embedded mappings, loaded once.
static ENGINE: LazyLock<Engine> = LazyLock::new(|| {
    mapping::load(&[], &|name: &str| {
        carbon_show::data::json_file(name).map(Cow::Borrowed)
    })
    .expect("embedded mappings load")
});

/// Every schema of the golden corpus (`testdata/render/*/schemas.json`), merged into one
/// document, so that seeds from that corpus render through their schema.
static SCHEMAS: LazyLock<Schemas> = LazyLock::new(|| {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/render");
    let mut merged = Schemas::default();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    dirs.sort();
    for dir in dirs {
        let p = dir.join("schemas.json");
        let Ok(bytes) = std::fs::read(&p) else {
            continue;
        };
        let Ok(s) = Schemas::parse(&p, &bytes) else {
            continue;
        };
        for (name, provider) in s.provider_schemas {
            let into = merged.provider_schemas.entry(name).or_default();
            into.resource_schemas.extend(provider.resource_schemas);
            into.data_source_schemas
                .extend(provider.data_source_schemas);
        }
    }
    merged
});

/// Discards the output but still makes the renderers produce all of it.
struct Sink;

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn options(format: Format, carbon: bool, mode: PlanMode) -> Options {
    Options {
        input: Input::File(PathBuf::from("fuzz.json")),
        inputs: Vec::new(),
        schemas: None,
        flavor_auto: false,
        color: ColorMode::Always,
        human: HumanOptions {
            mode,
            ..HumanOptions::default()
        },
        format,
        carbon: carbon.then(CarbonOptions::default),
        comment: Default::default(),
    }
}

fuzz_target!(|data: &[u8]| {
    let path = Path::new("fuzz.json");
    let Ok(plan) = carbon_show::plan::parse(path, data) else {
        return;
    };
    let mode = match data.len() % 3 {
        0 => PlanMode::Normal,
        1 => PlanMode::Destroy,
        _ => PlanMode::RefreshOnly,
    };
    let engine = &*ENGINE;
    let schemas = &*SCHEMAS;
    // Human, as OpenTofu prints it: without and with a schema.
    let human = options(Format::Human, false, mode);
    let _ = app::show(&human, path, data, &plan, None, None, &mut Sink);
    let _ = app::show(&human, path, data, &plan, Some(schemas), None, &mut Sink);
    // Every format with carbon on.
    for format in [
        Format::Human,
        Format::Json,
        Format::Markdown,
        Format::ImpactFramework,
    ] {
        let opts = options(format, true, mode);
        let _ = app::show(
            &opts,
            path,
            data,
            &plan,
            Some(schemas),
            Some(engine),
            &mut Sink,
        );
    }
});
