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

/// `CARBON_SHOW_PROFILE=1`: runs by the native evaluator per filter.
static NATIVE: std::sync::Mutex<Option<HashMap<usize, u64>>> = std::sync::Mutex::new(None);

pub(super) fn count_native(fid: usize) {
    let mut g = NATIVE.lock().unwrap_or_else(|e| e.into_inner());
    *g.get_or_insert_with(HashMap::new).entry(fid).or_default() += 1;
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
    /// Prints, per filter that ran, how (`path`: `mapping::fast`; `native`: `mapping::native`; `jaq`; `split`: a plain
    /// path then jaq), its runs by the native evaluator and by jaq and jaq's time: the
    /// filters jaq spent most time in first (with `CARBON_SHOW_PROFILE`).
    pub fn dump_prof(&self, texts: bool) {
        let g = PROF.lock().unwrap_or_else(|e| e.into_inner());
        let n = NATIVE.lock().unwrap_or_else(|e| e.into_inner());
        let empty = HashMap::new();
        let (jaq, native) = (g.as_ref().unwrap_or(&empty), n.as_ref());
        let mut fids: Vec<usize> = jaq.keys().copied().collect();
        fids.extend(native.into_iter().flatten().map(|(f, _)| *f));
        fids.sort_unstable();
        fids.dedup();
        let row = |f: &usize| {
            let (runs, secs) = jaq.get(f).copied().unwrap_or_default();
            let nat = native.and_then(|n| n.get(f)).copied().unwrap_or(0);
            (*f, nat, runs, secs)
        };
        let mut rows: Vec<_> = fids.iter().map(row).collect();
        rows.sort_by(|a, b| b.3.total_cmp(&a.3).then(b.1.cmp(&a.1)));
        eprintln!("filter\thow\tnative runs\tjaq runs\tjaq s\ttext");
        for (fid, nat, runs, secs) in rows.iter().take(60) {
            let info = &self.filters[*fid];
            let how = if info.fast.is_some() {
                "path"
            } else if info.native.is_some() {
                "native"
            } else if info.split.is_some() {
                "split"
            } else {
                "jaq"
            };
            eprintln!(
                "{fid}\t{how}\t{nat}\t{runs}\t{secs:.3}\t{}",
                if texts {
                    self.filter_text(*fid)
                } else {
                    String::new()
                }
            );
        }
    }
}
