//! The `carbon-show` binary: a thin shell over the library.

use carbon_show::cli::{self, Command};
use carbon_show::output::{self, Target};

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    carbon_show::memory::tune();
    let result = cli::parse_or_exit(std::env::args_os()).and_then(|command| match &command {
        Command::Show(run) => {
            output::write_to(&run.output, |out| carbon_show::app::run(&run.options, out))
        }
        Command::CheckMappings { dirs, data_dirs } => output::write_to(&Target::Stdout, |out| {
            carbon_show::app::check_mappings(dirs, data_dirs, out)
        }),
        Command::Config(settings) => output::write_to(&Target::Stdout, |out| {
            carbon_show::app::write_text(out, &settings.describe())
        }),
        Command::Completions(shell) => output::write_to(&Target::Stdout, |out| {
            let mut script = Vec::new();
            cli::write_completions(*shell, &mut script);
            carbon_show::app::write_text(out, &String::from_utf8_lossy(&script))
        }),
        Command::Man => output::write_to(&Target::Stdout, |out| {
            let mut page = Vec::new();
            cli::write_man(&mut page).expect("writing to memory");
            carbon_show::app::write_text(out, &String::from_utf8_lossy(&page))
        }),
    });
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
