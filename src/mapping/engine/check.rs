//! Checking the native evaluator against jaq while mapping (tests): every filter run natively
//! is run in jaq too, and the two answers compared.

use super::Engine;
use jaq_json::Val;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a checking engine saw ([`super::Engine::checking_native`]).
#[derive(Default)]
pub(crate) struct NativeCheck {
    compared: AtomicU64,
    mismatches: Mutex<Vec<String>>,
}

/// An output as jaq's own text of it (`2` and `2.0` differ), or the error's message.
fn shown(r: &Result<Val, String>) -> String {
    match r {
        Ok(v) => format!("{v}"),
        Err(e) => format!("error: {e}"),
    }
}

impl NativeCheck {
    pub(crate) fn compare(
        &self,
        fid: usize,
        text: &str,
        input: &Val,
        native: &[Result<Val, String>],
        jaq: &[Result<Val, String>],
    ) {
        self.compared.fetch_add(1, Ordering::Relaxed);
        let a: Vec<String> = native.iter().map(shown).collect();
        let b: Vec<String> = jaq.iter().map(shown).collect();
        if a != b {
            let mut m = self.mismatches.lock().unwrap_or_else(|e| e.into_inner());
            if m.len() < 50 {
                m.push(format!(
                    "filter {fid} `{text}` on {input}: native {a:?}, jaq {b:?}"
                ));
            }
        }
    }

    /// (evaluations compared, the first mismatches).
    pub(crate) fn report(&self) -> (u64, Vec<String>) {
        (
            self.compared.load(Ordering::Relaxed),
            self.mismatches
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone(),
        )
    }
}

impl Engine {
    /// Runs every filter in jaq but the lookups answered from indexes: none by the native
    /// evaluator, no plain path natively (tests compare the two).
    #[doc(hidden)]
    pub fn without_native(mut self) -> Engine {
        self.native_off = true;
        self
    }

    /// Runs in jaq too every filter the native evaluator runs, and keeps what differed
    /// ([`Engine::native_check`]).
    #[doc(hidden)]
    pub fn checking_native(mut self) -> Engine {
        self.check_native = Some(NativeCheck::default());
        self
    }

    /// With [`Engine::checking_native`]: how many native evaluations were compared with jaq's,
    /// and the first that differed (filter, input, both answers).
    #[doc(hidden)]
    pub fn native_check(&self) -> Option<(u64, Vec<String>)> {
        self.check_native.as_ref().map(NativeCheck::report)
    }

    /// How many distinct filters the native evaluator runs (plain paths excluded).
    pub fn native_filters(&self) -> usize {
        self.filters.iter().filter(|f| f.native.is_some()).count()
    }
}
