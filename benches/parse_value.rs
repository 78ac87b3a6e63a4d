//! The floor carbon-show is compared with in scripts/bench/run.sh: read a JSON file and parse
//! it into a `serde_json::Value`, nothing else (`cargo build --release --example parse_value`,
//! then `target/release/examples/parse_value FILE`). Same allocator as the binary.

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: parse_value FILE");
        return std::process::ExitCode::from(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("parse_value: {}: {e}", path.to_string_lossy());
            return std::process::ExitCode::from(4);
        }
    };
    match serde_json::from_slice::<serde_json::Value>(&bytes) {
        // used, so that the parse is not optimised away
        Ok(v) => {
            std::hint::black_box(&v);
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("parse_value: {}: {e}", path.to_string_lossy());
            std::process::ExitCode::from(5)
        }
    }
}
