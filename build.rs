//! Build script: reads the embedded mapping files (`mappings/<provider>/*.yaml`) into the compact
//! binary form of their YAML nodes (`src/mapping/node.rs`), which the binary decodes instead of
//! parsing the YAML at every run; and the reference tables (`data/*.json`) into static rows
//! (`src/data/codegen.rs`), which the binary searches instead of parsing the JSON.

use std::path::Path;

#[allow(dead_code)]
#[path = "src/mapping/node.rs"]
mod node;

#[path = "src/data/codegen.rs"]
mod codegen;

fn main() {
    mappings();
    data_tables();
}

/// `$OUT_DIR/data_tables.rs`, the reference tables as static rows.
fn data_tables() {
    println!("cargo::rerun-if-changed=data");
    println!("cargo::rerun-if-changed=src/data/codegen.rs");
    let read = |file: &str| {
        let path = Path::new("data").join(file);
        println!("cargo::rerun-if-changed={}", path.display());
        std::fs::read_to_string(&path).map_err(|e| format!("data/{file}: {e}"))
    };
    let text = codegen::generate(&read);
    let out = std::env::var("OUT_DIR").expect("OUT_DIR is set for build scripts");
    std::fs::write(Path::new(&out).join("data_tables.rs"), text).expect("OUT_DIR is writable");
}

/// `$OUT_DIR/mappings/<provider>/<file>.yaml.node`, each mapping file's nodes encoded.
fn mappings() {
    println!("cargo::rerun-if-changed=mappings");
    println!("cargo::rerun-if-changed=src/mapping/node.rs");
    let out = std::env::var("OUT_DIR").expect("OUT_DIR is set for build scripts");
    let out = Path::new(&out).join("mappings");
    let mut folders: Vec<_> = std::fs::read_dir("mappings")
        .expect("mappings/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    for dir in folders {
        let folder = dir.file_name().expect("a folder name");
        std::fs::create_dir_all(out.join(folder)).expect("OUT_DIR is writable");
        for file in std::fs::read_dir(&dir).expect("a mappings folder") {
            let path = file.expect("a folder entry").path();
            if path.extension().is_none_or(|e| e != "yaml") {
                continue;
            }
            println!("cargo::rerun-if-changed={}", path.display());
            let text = std::fs::read_to_string(&path).expect("a readable mapping file");
            // a file that does not parse is stored empty: the binary parses its YAML and
            // reports the error as for any mapping file
            let mut bytes = Vec::new();
            if let Ok(root) = node::parse(&text) {
                node::encode(&root, &mut bytes);
            }
            let name = format!(
                "{}.node",
                path.file_name().expect("a file name").to_string_lossy()
            );
            std::fs::write(out.join(folder).join(name), bytes).expect("OUT_DIR is writable");
        }
    }
}
