//! The `carbon-show` binary: a thin shell over the library.

fn main() -> std::process::ExitCode {
    std::process::ExitCode::SUCCESS
}
