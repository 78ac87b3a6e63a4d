//! The `carbon-show` binary: a thin shell over the library.

fn main() -> std::process::ExitCode {
    let opts = carbon_show::cli::parse_or_exit(std::env::args_os());
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    match carbon_show::cli::run(&opts, &mut lock) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            let code = e.exit_code();
            let err = anyhow::Error::new(e);
            eprintln!("carbon-show: {err}");
            std::process::ExitCode::from(code as u8)
        }
    }
}
