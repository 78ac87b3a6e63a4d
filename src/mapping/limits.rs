//! Budgets of jq evaluation: time, memory and stack per evaluation, and `halt`; past any of them the run stops with exit 8.
//!
//! jaq gives no hook inside a running filter, so a filter past its budget cannot be unwound:
//! the process ends here, with one line naming the mapping file:line and the resource
//! (`carbon-show: mapping x.yaml:3: the filter ran past its time budget of 5s on aws_instance.a`)
//! and exit code 8, as a broken mapping file's error would. Mapping runs before any output is
//! written, so nothing is half printed.
//!
//! - **time**: a watchdog thread looks at every evaluation in flight every few milliseconds;
//! - **memory**: the binary's allocator ([`Guarded`]) counts what an evaluation allocates on its
//!   thread and stops it before an allocation would take it past the budget;
//! - **stack**: deep recursion (in a filter, `fromjson`, or dropping a deeply nested value)
//!   ends in the stack's guard page; a `SIGSEGV` handler turns that into the same one line
//!   when the thread was mapping a resource (other faults go to the previous handler; Unix
//!   only: on Windows the overflow ends the process with Rust's own report);
//! - **halt**: `halt`/`halt_error` stop the run the same way instead of exiting with the
//!   filter's code (`mappings check` reports them before any run).

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, Once, RwLock};
use std::time::{Duration, Instant};

/// The budget of one jq evaluation (`--mapping-budget`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub time: Duration,
    /// Bytes an evaluation may allocate (net of what it frees).
    pub memory: usize,
}

impl Default for Budget {
    /// 5 s and 512 MiB: the shipped mappings take microseconds and kilobytes per evaluation
    /// (docs/mappings.md, "Budgets").
    fn default() -> Self {
        Budget {
            time: Duration::from_secs(5),
            memory: 512 << 20,
        }
    }
}

impl std::str::FromStr for Budget {
    type Err = String;
    /// `5s`, `500ms`, `256MB`, `1GB`, or both: `2s,256MB`.
    fn from_str(s: &str) -> Result<Self, String> {
        let mut b = Budget::default();
        for part in s.split(',').map(str::trim) {
            let lower = part.to_ascii_lowercase();
            let split = lower
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(lower.len());
            let (n, unit) = lower.split_at(split);
            let n: f64 = n.parse().map_err(|_| {
                format!("{part:?}: give a time (5s, 500ms), a size (256MB, 1GB) or both (2s,256MB)")
            })?;
            if !(n.is_finite() && n > 0.0) {
                return Err(format!("{part:?}: the budget must be more than 0"));
            }
            let mib = |f: f64| (n * f) as usize;
            match unit.trim() {
                "s" => b.time = Duration::from_secs_f64(n),
                "ms" => b.time = Duration::from_secs_f64(n / 1000.0),
                "kb" | "kib" => b.memory = mib(1024.0),
                "mb" | "mib" => b.memory = mib(1024.0 * 1024.0),
                "gb" | "gib" => b.memory = mib(1024.0 * 1024.0 * 1024.0),
                _ => {
                    return Err(format!(
                        "{part:?}: unknown unit: give s, ms, KB, MB or GB (e.g. 2s,256MB)"
                    ));
                }
            }
        }
        Ok(b)
    }
}

static TIME_MS: AtomicU64 = AtomicU64::new(5_000);
static MEMORY: AtomicUsize = AtomicUsize::new(512 << 20);

/// Set the budget of every evaluation from now on.
pub fn set_budget(b: Budget) {
    TIME_MS.store((b.time.as_millis() as u64).max(1), Ordering::Relaxed);
    MEMORY.store(b.memory.max(1), Ordering::Relaxed);
}

fn budget() -> Budget {
    Budget {
        time: Duration::from_millis(TIME_MS.load(Ordering::Relaxed)),
        memory: MEMORY.load(Ordering::Relaxed),
    }
}

/// What each thread is evaluating, readable from the watchdog.
struct Slot {
    /// Milliseconds since [`epoch`] + 1 when the outermost evaluation began; 0 when idle.
    started: AtomicU64,
    fid: AtomicUsize,
    resource: Mutex<String>,
}

const SLOTS: usize = 256;
static SLOT_TABLE: [Slot; SLOTS] = [const {
    Slot {
        started: AtomicU64::new(0),
        fid: AtomicUsize::new(usize::MAX),
        resource: Mutex::new(String::new()),
    }
}; SLOTS];
static NEXT_SLOT: AtomicUsize = AtomicUsize::new(0);

/// `file:line` of every filter of the engine mapping now.
static LOCS: RwLock<Vec<String>> = RwLock::new(Vec::new());

thread_local! {
    static SLOT: Cell<usize> = const { Cell::new(usize::MAX) };
    /// Evaluations nested on this thread.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// Whether this thread is mapping a resource (stack overflows are then the mapping's).
    static MAPPING: Cell<bool> = const { Cell::new(false) };
    /// Bytes allocated by the current evaluation; the limit (0: not counting).
    static BYTES: Cell<isize> = const { Cell::new(0) };
    static LIMIT: Cell<isize> = const { Cell::new(0) };
}

fn epoch() -> Instant {
    static E: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *E.get_or_init(Instant::now)
}

fn now_ms() -> u64 {
    epoch().elapsed().as_millis() as u64 + 1
}

/// This thread's slot (threads past [`SLOTS`] share the last one).
fn slot() -> &'static Slot {
    let i = SLOT.with(|s| {
        if s.get() == usize::MAX {
            s.set(NEXT_SLOT.fetch_add(1, Ordering::Relaxed).min(SLOTS - 1));
        }
        s.get()
    });
    &SLOT_TABLE[i]
}

/// Name the filters of the engine about to map (`file:line` by filter id).
pub fn set_locations(locs: Vec<String>) {
    *LOCS.write().unwrap_or_else(|e| e.into_inner()) = locs;
}

/// Marks this thread as mapping `resource` until dropped.
pub struct ResourceScope(bool);

/// Enter the mapping of one resource (named in any budget message).
pub fn resource(address: &str) -> ResourceScope {
    let s = slot();
    let mut r = s.resource.lock().unwrap_or_else(|e| e.into_inner());
    r.clear();
    r.push_str(address);
    drop(r);
    ResourceScope(MAPPING.with(|m| m.replace(true)))
}

impl Drop for ResourceScope {
    fn drop(&mut self) {
        MAPPING.with(|m| m.set(self.0));
    }
}

/// One jq evaluation in flight; ends when dropped.
pub struct Eval {
    prev_fid: usize,
}

/// Start evaluating filter `fid` under the budget.
pub fn enter(fid: usize) -> Eval {
    static START: Once = Once::new();
    START.call_once(|| {
        epoch();
        install_stack_handler();
        let _ = std::thread::Builder::new()
            .name("carbon-show-watchdog".into())
            .spawn(watchdog);
    });
    let s = slot();
    let prev_fid = s.fid.swap(fid, Ordering::Relaxed);
    let depth = DEPTH.with(|d| {
        d.set(d.get() + 1);
        d.get()
    });
    if depth == 1 {
        BYTES.with(|b| b.set(0));
        LIMIT.with(|l| l.set(budget().memory.min(isize::MAX as usize) as isize));
        s.started.store(now_ms(), Ordering::Relaxed);
    }
    Eval { prev_fid }
}

impl Drop for Eval {
    fn drop(&mut self) {
        let s = slot();
        let depth = DEPTH.with(|d| {
            d.set(d.get().saturating_sub(1));
            d.get()
        });
        // at the outermost level the last filter stays named: dropping its output (a deeply
        // nested value) can still overflow the stack
        if depth > 0 {
            s.fid.store(self.prev_fid, Ordering::Relaxed);
        } else {
            s.started.store(0, Ordering::Relaxed);
            LIMIT.with(|l| l.set(0));
        }
    }
}

/// Why an evaluation was stopped.
#[derive(Debug, Clone, Copy)]
pub enum Breach {
    Time,
    Memory,
    Halt(i32),
}

static STOPPING: AtomicBool = AtomicBool::new(false);

fn location(fid: usize) -> String {
    LOCS.read()
        .ok()
        .and_then(|l| l.get(fid).cloned())
        .unwrap_or_else(|| "(a mapping filter)".to_string())
}

/// The one line a stop prints (without the `carbon-show: ` prefix).
pub fn message(loc: &str, what: &str, resource: &str) -> String {
    let on = if resource.is_empty() {
        "while finding the resources".to_string()
    } else {
        format!("on {resource}")
    };
    format!("mapping {loc}: the filter {what} {on}")
}

/// End the run: one line on stderr naming the filter's place and the resource, exit 8.
pub fn stop(breach: Breach) -> ! {
    // one stop only: a second thread breaching meanwhile waits for the exit
    if STOPPING.swap(true, Ordering::SeqCst) {
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
    LIMIT.with(|l| l.set(0));
    stop_slot(slot(), breach)
}

fn stop_slot(s: &Slot, breach: Breach) -> ! {
    let b = budget();
    let what = match breach {
        Breach::Time => format!("ran past its time budget of {:?}", b.time),
        Breach::Memory => format!("allocated past its memory budget of {} MiB", b.memory >> 20),
        Breach::Halt(code) => format!("called halt (exit code {code}), which mappings may not"),
    };
    let resource = s.resource.lock().map(|r| r.clone()).unwrap_or_default();
    let line = message(&location(s.fid.load(Ordering::Relaxed)), &what, &resource);
    crate::escape::eprint(&format!("{line} (see --mapping-budget)"));
    std::process::exit(crate::error::ExitCode::Mapping as i32)
}

fn watchdog() {
    loop {
        let limit = TIME_MS.load(Ordering::Relaxed);
        std::thread::sleep(Duration::from_millis((limit / 20).clamp(1, 50)));
        let now = now_ms();
        for s in SLOT_TABLE[..NEXT_SLOT.load(Ordering::Relaxed).min(SLOTS)].iter() {
            let started = s.started.load(Ordering::Relaxed);
            if started != 0 && now.saturating_sub(started) > limit {
                if STOPPING.swap(true, Ordering::SeqCst) {
                    return;
                }
                stop_slot(s, Breach::Time);
            }
        }
    }
}

/// Count an allocation of `size` bytes against the evaluation on this thread.
#[inline]
fn charge(size: usize) {
    let _ = LIMIT.try_with(|l| {
        let limit = l.get();
        if limit > 0 {
            let _ = BYTES.try_with(|b| {
                let n = b.get().saturating_add(size as isize);
                b.set(n);
                if n > limit {
                    l.set(0);
                    stop(Breach::Memory);
                }
            });
        }
    });
}

#[inline]
fn refund(size: usize) {
    let _ = LIMIT.try_with(|l| {
        if l.get() > 0 {
            let _ = BYTES.try_with(|b| b.set(b.get() - size as isize));
        }
    });
}

/// The binary's allocator wrapped: allocations made during a jq evaluation count against its
/// memory budget. Costs a thread-local read per allocation outside evaluations.
pub struct Guarded<A>(pub A);

unsafe impl<A: GlobalAlloc> GlobalAlloc for Guarded<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        charge(layout.size());
        unsafe { self.0.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        charge(layout.size());
        unsafe { self.0.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        refund(layout.size());
        unsafe { self.0.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            charge(new_size - layout.size());
        } else {
            refund(layout.size() - new_size);
        }
        unsafe { self.0.realloc(ptr, layout, new_size) }
    }
}

#[cfg(unix)]
static OLD_SEGV: RwLock<Option<(libc::sigaction, libc::sigaction)>> = RwLock::new(None);

/// Stack overflow while mapping a resource: one line, exit 8. Only async-signal-safe calls
/// (`write`, `_exit`) and a `try_lock` of this thread's own slot.
#[cfg(unix)]
extern "C" fn on_fault(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    let mapping =
        MAPPING.try_with(Cell::get).unwrap_or(false) || DEPTH.try_with(Cell::get).unwrap_or(0) > 0;
    if mapping && !STOPPING.swap(true, Ordering::SeqCst) {
        let s = SLOT.try_with(Cell::get).unwrap_or(usize::MAX);
        let write = |b: &[u8]| unsafe {
            libc::write(2, b.as_ptr().cast(), b.len());
        };
        write(b"carbon-show: mapping ");
        let fid = SLOT_TABLE.get(s).map(|s| s.fid.load(Ordering::Relaxed));
        match (fid, LOCS.try_read()) {
            (Some(f), Ok(l)) if f < l.len() => write(l[f].as_bytes()),
            _ => write(b"(a mapping filter)"),
        }
        write(b": the filter recursed too deep (stack overflow)");
        if let Some(r) = SLOT_TABLE.get(s).and_then(|s| s.resource.try_lock().ok()) {
            if r.is_empty() {
                write(b" while finding the resources");
            } else {
                write(b" on ");
                write(r.as_bytes());
            }
        }
        write(b"\n");
        unsafe { libc::_exit(crate::error::ExitCode::Mapping as i32) };
    }
    // not ours: hand it to the handler that was there before (Rust's own overflow report)
    let old = OLD_SEGV.try_read().ok().and_then(|o| *o);
    let prev = old.map(|(segv, bus)| if sig == libc::SIGBUS { bus } else { segv });
    unsafe {
        match prev {
            Some(p) if p.sa_sigaction != libc::SIG_DFL && p.sa_sigaction != libc::SIG_IGN => {
                if p.sa_flags & libc::SA_SIGINFO != 0 {
                    let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                        std::mem::transmute(p.sa_sigaction);
                    f(sig, info, ctx);
                } else {
                    let f: extern "C" fn(libc::c_int) = std::mem::transmute(p.sa_sigaction);
                    f(sig);
                }
            }
            _ => {
                // the default action: the fault happens again on return and ends the process
                let mut dfl: libc::sigaction = std::mem::zeroed();
                dfl.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(sig, &dfl, std::ptr::null_mut());
            }
        }
    }
}

#[cfg(unix)]
fn install_stack_handler() {
    unsafe {
        let mut act: libc::sigaction = std::mem::zeroed();
        act.sa_sigaction = on_fault as *const () as usize;
        act.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        libc::sigemptyset(&mut act.sa_mask);
        let mut old_segv: libc::sigaction = std::mem::zeroed();
        let mut old_bus: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGSEGV, &act, &mut old_segv) == 0
            && libc::sigaction(libc::SIGBUS, &act, &mut old_bus) == 0
        {
            *OLD_SEGV.write().unwrap_or_else(|e| e.into_inner()) = Some((old_segv, old_bus));
        }
    }
}

/// Elsewhere (Windows) there is no `SIGSEGV` to catch: a filter that overflows the stack ends
/// the process with Rust's own "has overflowed its stack" report and the system's status for
/// it, not the one line and exit 8 (the time and memory budgets apply as on Unix).
#[cfg(not(unix))]
fn install_stack_handler() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_parses_time_size_and_both() {
        let b: Budget = "2s,256MB".parse().unwrap();
        assert_eq!(b.time, Duration::from_secs(2));
        assert_eq!(b.memory, 256 << 20);
        let b: Budget = "500ms".parse().unwrap();
        assert_eq!(b.time, Duration::from_millis(500));
        assert_eq!(b.memory, Budget::default().memory);
        assert!("0s".parse::<Budget>().is_err());
        assert!("5 parsecs".parse::<Budget>().is_err());
        assert!("fast".parse::<Budget>().is_err());
    }

    #[test]
    fn a_stop_line_names_the_place_and_the_resource() {
        assert_eq!(
            message(
                "m.yaml:3",
                "ran past its time budget of 1s",
                "aws_instance.a"
            ),
            "mapping m.yaml:3: the filter ran past its time budget of 1s on aws_instance.a"
        );
    }
}
