//! `CARBON_SHOW_PROFILE`: phase timings and time spent in jaq per filter.

use super::Engine;
use std::collections::HashMap;

pub(super) fn phase(name: &str, since: std::time::Instant) {
    if profiling() {
        let (now, peak) = crate::memory::resident();
        eprintln!(
            "{name}: {:.3}s (RSS {now}, peak {peak}; process CPU so far {:.3}s)",
            since.elapsed().as_secs_f64(),
            crate::memory::cpu_seconds()
        );
    }
}

/// `CARBON_SHOW_PROFILE=1`: time spent in jaq per filter, printed to stderr after mapping.
static PROF: std::sync::Mutex<Option<HashMap<usize, (u64, f64)>>> = std::sync::Mutex::new(None);

/// Whether `CARBON_SHOW_PROFILE` is set.
pub fn profiling() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("CARBON_SHOW_PROFILE").is_some())
}

pub(super) struct Prof(pub(super) usize, pub(super) std::time::Instant);
impl Drop for Prof {
    fn drop(&mut self) {
        let d = self.1.elapsed().as_secs_f64();
        let mut g = PROF.lock().unwrap();
        let e = g
            .get_or_insert_with(HashMap::new)
            .entry(self.0)
            .or_default();
        e.0 += 1;
        e.1 += d;
    }
}
impl Engine {
    fn filter_text(&self, fid: usize) -> String {
        self.texts.get(fid).cloned().unwrap_or_default()
    }
    /// Prints the filters jaq spent most time in (with `CARBON_SHOW_PROFILE`).
    pub fn dump_prof(&self, texts: bool) {
        let g = PROF.lock().unwrap();
        let mut v: Vec<_> = g.iter().flatten().collect();
        v.sort_by(|a, b| b.1.1.partial_cmp(&a.1.1).unwrap());
        for (fid, (n, t)) in v.iter().take(25) {
            eprintln!(
                "{fid}\t{n}\t{t:.3}\t{}",
                if texts {
                    self.filter_text(**fid)
                } else {
                    String::new()
                }
            );
        }
    }
}
