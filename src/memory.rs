//! Hands memory freed by one phase of a run back to the operating system before the next.
//!
//! mimalloc (the binary's allocator with the default `mimalloc` feature) keeps freed pages for
//! a while before it returns them. Between the mapping phase, which frees the engine's whole
//! document, and the renderer's phase, which reads the plan again, that delay would let both
//! count at once in the process's peak memory.

/// mimalloc's `mi_option_purge_delay`: 15 in both v2's and v3's `mimalloc.h` (libmimalloc-sys
/// names no constant for it).
#[cfg(feature = "mimalloc")]
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Has mimalloc return freed pages to the operating system at once instead of a while later
/// (10 ms in mimalloc v2, 1 s in v3, the crate's default): a
/// run frees large structures between its phases, and the delay made them count twice in
/// the peak (10k-resource plan: 77 MB → 69 MB, at no measurable cost in time). For the
/// binary, before its work starts; a no-op without the `mimalloc` feature.
pub fn tune() {
    #[cfg(feature = "mimalloc")]
    // SAFETY: reading and setting an option has no preconditions. The option is changed only
    // while it holds one of purge_delay's defaults (v2: 10, v3: 1000, per their `options.c`),
    // so a renumbered enum is left alone.
    unsafe {
        if matches!(libmimalloc_sys::mi_option_get(PURGE_DELAY), 10 | 1000) {
            libmimalloc_sys::mi_option_set(PURGE_DELAY, 0);
        }
    }
}

/// Returns the pages freed so far to the operating system (with mimalloc; a no-op otherwise),
/// on this thread and on every thread of the rayon pool (each keeps its own heap).
pub fn release() {
    #[cfg(feature = "mimalloc")]
    {
        fn collect() {
            // SAFETY: `mi_collect` has no preconditions; it only walks mimalloc's own free
            // lists (of the calling thread's heap, and abandoned pages).
            unsafe { libmimalloc_sys::mi_collect(true) };
        }
        rayon::broadcast(|_| collect());
        collect();
    }
}

/// Gives back to the operating system the whole pages inside `len` bytes at `start`, which the
/// process will not read again: they read as zeros afterwards (Linux; a no-op elsewhere).
///
/// # Safety
/// The bytes must belong to one live allocation of the caller's (a buffer it owns) that no
/// reference reads again: their contents are lost.
pub unsafe fn discard(start: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        let page = if page > 0 { page as usize } else { 4096 };
        let from = (start as usize).div_ceil(page) * page;
        let to = (start as usize + len) / page * page;
        if to > from {
            // SAFETY: [from, to) lies inside the caller's allocation (rounded inward to whole
            // pages), which it will not read again; MADV_DONTNEED on private anonymous memory
            // only replaces those pages with zero pages.
            unsafe { libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_DONTNEED) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

/// CPU time (user + system) the process has used so far, in seconds (0 where `getrusage`
/// fails, and on systems without it: Windows). For `CARBON_SHOW_PROFILE`.
#[cfg(unix)]
pub fn cpu_seconds() -> f64 {
    // SAFETY: `getrusage` writes one `rusage` it is given; a zeroed one is valid to pass.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return 0.0;
    }
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 / 1e6;
    t(u.ru_utime) + t(u.ru_stime)
}

/// CPU time the process has used so far: not measured here (no `getrusage`), 0.
#[cfg(not(unix))]
pub fn cpu_seconds() -> f64 {
    0.0
}

/// Resident memory now and at its peak so far, as `/proc/self/status` gives them (`"123 kB"`;
/// empty strings elsewhere than on Linux). For `CARBON_SHOW_PROFILE`.
pub fn resident() -> (String, String) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .map(|v| v.trim().to_string())
            .unwrap_or_default()
    };
    (
        format!(
            "{} = anon {} + file {}",
            field("VmRSS:"),
            field("RssAnon:"),
            field("RssFile:")
        ),
        field("VmHWM:"),
    )
}
