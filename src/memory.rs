//! Hands memory freed by one phase of a run back to the operating system before the next.
//!
//! mimalloc (the binary's allocator with the default `mimalloc` feature) keeps freed pages for
//! a while before it returns them. Between the mapping phase, which frees the engine's whole
//! document, and the renderer's phase, which reads the plan again, that delay would let both
//! count at once in the process's peak memory.

/// Returns the pages freed so far to the operating system (with mimalloc; a no-op otherwise).
pub fn release() {
    #[cfg(feature = "mimalloc")]
    // SAFETY: `mi_collect` has no preconditions; it only walks mimalloc's own free lists.
    unsafe {
        libmimalloc_sys::mi_collect(true)
    };
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
    (field("VmRSS:"), field("VmHWM:"))
}
