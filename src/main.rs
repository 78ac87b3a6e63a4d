//! The `carbon-show` binary: a thin shell over the library.

use carbon_show::cli::{self, Command};

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: carbon_show::mapping::limits::Guarded<mimalloc::MiMalloc> =
    carbon_show::mapping::limits::Guarded(mimalloc::MiMalloc);
#[cfg(not(feature = "mimalloc"))]
#[global_allocator]
static GLOBAL: carbon_show::mapping::limits::Guarded<std::alloc::System> =
    carbon_show::mapping::limits::Guarded(std::alloc::System);

fn main() -> std::process::ExitCode {
    carbon_show::memory::tune();
    let command = cli::parse_or_exit(std::env::args_os());
    if stdout_closed() {
        eprintln!("carbon-show: <stdout>: standard output is closed");
        return std::process::ExitCode::from(carbon_show::error::ExitCode::Io as u8);
    }
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let result = match &command {
        Command::Show(opts) => carbon_show::app::run(opts, &mut lock),
        Command::CheckMappings { dirs, data_dirs } => {
            carbon_show::app::check_mappings(dirs, data_dirs, &mut lock)
        }
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

/// Whether standard output was closed when the process started (`>&-`): Rust's runtime then
/// opens `/dev/null` read-write in its place (a shell's `>/dev/null` opens it write-only), and
/// the run would "succeed" having written nothing.
fn stdout_closed() -> bool {
    unsafe {
        if libc::fcntl(1, libc::F_GETFD) == -1 {
            return true;
        }
        let mut st: libc::stat = std::mem::zeroed();
        let rw = libc::fcntl(1, libc::F_GETFL) & libc::O_ACCMODE == libc::O_RDWR;
        rw && libc::fstat(1, &mut st) == 0
            && st.st_mode & libc::S_IFMT == libc::S_IFCHR
            && st.st_rdev == libc::makedev(1, 3)
    }
}
