//! The `carbon-show` binary: a thin shell over the library.

use carbon_show::cli::{self, Command};

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    carbon_show::memory::tune();
    let command = cli::parse_or_exit(std::env::args_os());
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let result = match &command {
        Command::Show(opts) => carbon_show::app::run(opts, &mut lock),
        Command::CheckMappings { dirs, data_dirs } => {
            carbon_show::app::check_mappings(dirs, data_dirs, &mut lock)
        }
        Command::Explain {
            address,
            input,
            carbon,
        } => carbon_show::explain::run(input, carbon, address, &mut lock),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            let code = e.exit_code();
            let err = anyhow::Error::new(e);
            eprintln!("carbon-show: {err}");
            std::process::ExitCode::from(code as u8)
        }
    }
}
