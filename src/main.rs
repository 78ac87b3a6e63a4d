//! The `carbon-show` binary: a thin shell over the library.

use carbon_show::cli::{self, Command};
use carbon_show::output::{self, Target};

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
    let command = match cli::parse_or_exit(std::env::args_os()) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    let to_stdout = !matches!(&command, Command::Show(run) if run.output != Target::Stdout);
    if to_stdout && stdout_closed() {
        eprintln!("carbon-show: <stdout>: standard output is closed");
        return std::process::ExitCode::from(carbon_show::error::ExitCode::Io as u8);
    }
    let result = match &command {
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
        Command::Explain {
            address,
            input,
            carbon,
        } => output::write_to(&Target::Stdout, |out| {
            carbon_show::explain::run(input, carbon, address, out)
        }),
        Command::UsageTemplate {
            input,
            file,
            carbon,
        } => carbon_show::app::usage_template(input, carbon, file).and_then(|text| {
            output::write_to(&Target::File(file.clone()), |out| {
                carbon_show::app::write_text(out, &text)
            })
        }),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

/// Whether standard output was closed when the process started (`>&-`): the run would
/// otherwise "succeed" having written nothing. Rust's runtime opens `/dev/null` read-write in
/// place of a closed descriptor before `main`, which a `/dev/null` some callers open
/// read-write themselves (Python's `subprocess.DEVNULL`, Node's `stdio: "ignore"`) is
/// indistinguishable from afterwards; so the descriptor is looked at earlier, from the
/// program's initializers (`STDOUT_AT_START`), which the C runtime runs before Rust's.
fn stdout_closed() -> bool {
    #[cfg(target_os = "linux")]
    {
        STDOUT_CLOSED_AT_START.load(std::sync::atomic::Ordering::Relaxed)
    }
    #[cfg(all(unix, not(target_os = "linux")))]
    // SAFETY: `fcntl(F_GETFD)` on a descriptor number only reads the descriptor table.
    unsafe {
        libc::fcntl(1, libc::F_GETFD) == -1
    }
    // Windows: a process started without a standard output has no handle for it (null), and
    // Rust then writes to it as to a sink.
    #[cfg(windows)]
    {
        use std::os::windows::io::AsRawHandle;
        std::io::stdout().as_raw_handle().is_null()
    }
    #[cfg(not(any(unix, windows)))]
    {
        false
    }
}

#[cfg(target_os = "linux")]
static STDOUT_CLOSED_AT_START: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Records whether descriptor 1 is open, before Rust's runtime replaces a closed one. (The
/// signature is glibc's for `.init_array` entries: argc, argv, envp, unused here.)
#[cfg(target_os = "linux")]
extern "C" fn record_stdout_at_start(
    _argc: libc::c_int,
    _argv: *const *const libc::c_char,
    _envp: *const *const libc::c_char,
) {
    // SAFETY: `fcntl(F_GETFD)` on a descriptor number only reads the descriptor table.
    let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1;
    STDOUT_CLOSED_AT_START.store(closed, std::sync::atomic::Ordering::Relaxed);
}

/// Run by the C runtime with the program's other initializers, before `main`.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static STDOUT_AT_START: extern "C" fn(
    libc::c_int,
    *const *const libc::c_char,
    *const *const libc::c_char,
) = record_stdout_at_start;

/// One line on stderr and the error's exit code. The message names files and quotes text from
/// the plan or the repository: its line breaks and controls are escaped, so that it stays one
/// line under carbon-show's prefix (`carbon_show::escape::stderr_line`); only the tool's own
/// `Error:` block of `--schemas auto` keeps its lines, each under the prefix.
fn fail(e: carbon_show::error::Error) -> std::process::ExitCode {
    let code = e.exit_code();
    // the tool's own `Error:` block stays a block, each of its lines under the prefix
    let block = matches!(e, carbon_show::error::Error::SchemasAuto(_));
    let err = anyhow::Error::new(e).to_string();
    if block {
        eprintln!("{}", carbon_show::escape::stderr_block(&err));
    } else {
        carbon_show::escape::eprint(&err);
    }
    std::process::ExitCode::from(code as u8)
}
