//! The one redactor: every sensitive value of a plan (its masks, and attributes the schemas mark sensitive), hidden in every form it can be written in.
//!
//! A value is hidden in its raw form and in the forms a message could carry it in: Rust's
//! `{:?}` escaping and JSON's (with and without their quotes). A match must be a *whole*
//! value: an occurrence inside a longer word (`1` in `us-east-1`, `abc` in `xabcy`) is
//! unrelated text and stays.

use std::collections::HashMap;
use std::hash::BuildHasher;

use rayon::prelude::*;

use crate::mapping::{MappedPlan, MappedResource};
use crate::plan::{Plan, Value};
use crate::report::Text;
use crate::schema::{Block, Schemas};

/// What a report shows in place of a sensitive value.
pub const SENSITIVE: &str = "(sensitive value)";

type Map<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

/// Knows every sensitive value and finds it in any text.
pub struct Redactor {
    forms: Forms,
}

/// Characters that continue a word: an occurrence touching one is part of a longer value.
fn word(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | ':' | '@')
}

/// The forms a value can be written in: raw, and escaped as Rust's `{:?}` and JSON escape
/// it, without and with their quotes.
fn forms_of(s: &str) -> [String; 5] {
    let debug = format!("{s:?}");
    let json = serde_json::to_string(s).unwrap_or_default();
    [
        s.to_string(),
        debug[1..debug.len() - 1].to_string(),
        json.get(1..json.len().saturating_sub(1))
            .unwrap_or("")
            .to_string(),
        debug,
        json,
    ]
}

/// No form (the end of a chain).
const NONE: u32 = u32::MAX;

/// Forms of at least this many bytes are found by one window of this many bytes they hold.
const GRAM: usize = 8;

/// [`Forms::filter`] has 2^this many bits.
const FILTER_BITS: u32 = 20;

/// Every form of every sensitive value, stored once, and two indexes that find them: by the
/// hash of a whole form, and (forms of at least [`GRAM`] bytes) by one [`GRAM`]-byte window of
/// each. Building it costs a hash or two per form (an Aho-Corasick automaton of the 35,000 forms
/// of a 50k plan took 70 ms), and a search looks one window up per byte of the text.
struct Forms {
    /// The forms' bytes, one after the other.
    text: String,
    /// Each form's start and end in `text`.
    spans: Vec<(u32, u32)>,
    /// By the hash of a whole form: the first form of that hash (`same_hash` chains the others).
    whole: Map<u64, u32>,
    same_hash: Vec<u32>,
    /// By a window: the first form indexed by it and how many are (`same_gram` chains them);
    /// `at` is where the window starts in its form.
    grams: Map<u64, (u32, u32)>,
    same_gram: Vec<u32>,
    at: Vec<u32>,
    /// One bit per [`Forms::bit`] of the windows in `grams`: most windows of a text are ruled
    /// out by it (128 KiB, in cache) without a lookup in `grams`.
    filter: Vec<u64>,
    /// Bit `l` set: some form has `l` bytes, `l` < [`GRAM`] (found by `whole`).
    short_lengths: u32,
    min_len: usize,
    hasher: foldhash::fast::FixedState,
}

impl Forms {
    fn new() -> Self {
        Forms {
            text: String::new(),
            spans: Vec::new(),
            whole: Map::default(),
            same_hash: Vec::new(),
            grams: Map::default(),
            same_gram: Vec::new(),
            at: Vec::new(),
            filter: Vec::new(),
            short_lengths: 0,
            min_len: usize::MAX,
            hasher: foldhash::fast::FixedState::with_seed(0x5ec2_e75e),
        }
    }

    fn form(&self, f: u32) -> &[u8] {
        let (s, e) = self.spans[f as usize];
        &self.text.as_bytes()[s as usize..e as usize]
    }

    /// The bit of [`Forms::filter`] a window sets.
    fn bit(gram: u64) -> usize {
        (gram.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - FILTER_BITS)) as usize
    }

    fn gram(bytes: &[u8], at: usize) -> u64 {
        let mut w = [0u8; GRAM];
        w.copy_from_slice(&bytes[at..at + GRAM]);
        u64::from_le_bytes(w)
    }

    /// The form equal to `bytes`, if any.
    fn find_whole(&self, bytes: &[u8]) -> Option<u32> {
        self.find_hashed(self.hasher.hash_one(bytes), bytes)
    }

    /// [`Forms::find_whole`] of bytes of that hash.
    fn find_hashed(&self, hash: u64, bytes: &[u8]) -> Option<u32> {
        let mut f = *self.whole.get(&hash)?;
        while f != NONE {
            if self.form(f) == bytes {
                return Some(f);
            }
            f = self.same_hash[f as usize];
        }
        None
    }

    fn insert(&mut self, form: &str) {
        let bytes = form.as_bytes();
        let hash = self.hasher.hash_one(bytes);
        if form.is_empty() || self.find_hashed(hash, bytes).is_some() {
            return;
        }
        let f = self.spans.len() as u32;
        let start = self.text.len() as u32;
        self.text.push_str(form);
        self.spans.push((start, self.text.len() as u32));
        let head = self.whole.entry(hash).or_insert(NONE);
        self.same_hash.push(std::mem::replace(head, f));
        self.min_len = self.min_len.min(bytes.len());
        if bytes.len() < GRAM {
            self.short_lengths |= 1 << bytes.len();
            self.same_gram.push(NONE);
            self.at.push(0);
            return;
        }
        // the window of the three (start, middle, end) shared by the fewest forms so far
        let last = bytes.len() - GRAM;
        let at = [0, last / 2, last]
            .into_iter()
            .min_by_key(|&at| {
                self.grams
                    .get(&Self::gram(bytes, at))
                    .map_or(0, |&(_, n)| n)
            })
            .unwrap_or(0);
        let gram = Self::gram(bytes, at);
        if self.filter.is_empty() {
            self.filter = vec![0; (1 << FILTER_BITS) / 64];
        }
        let bit = Self::bit(gram);
        self.filter[bit / 64] |= 1 << (bit % 64);
        let (head, n) = self.grams.entry(gram).or_insert((NONE, 0));
        self.same_gram.push(std::mem::replace(head, f));
        *n += 1;
        self.at.push(at as u32);
    }

    /// Every occurrence of every form in `text`, overlapping ones included: (start, end).
    fn occurrences(&self, text: &[u8], out: &mut Vec<(usize, usize)>) {
        if text.len() < self.min_len {
            return;
        }
        if text.len() >= GRAM && !self.grams.is_empty() {
            for j in 0..=text.len() - GRAM {
                let gram = Self::gram(text, j);
                let bit = Self::bit(gram);
                if self.filter[bit / 64] & 1 << (bit % 64) == 0 {
                    continue;
                }
                let Some(&(mut f, _)) = self.grams.get(&gram) else {
                    continue;
                };
                while f != NONE {
                    let at = self.at[f as usize] as usize;
                    let form = self.form(f);
                    if let Some(s) = j.checked_sub(at)
                        && text[s..].starts_with(form)
                    {
                        out.push((s, s + form.len()));
                    }
                    f = self.same_gram[f as usize];
                }
            }
        }
        let mut lengths = self.short_lengths;
        while lengths != 0 {
            let l = lengths.trailing_zeros() as usize;
            lengths &= lengths - 1;
            for s in 0..=text.len().saturating_sub(l) {
                if s + l <= text.len() && self.find_whole(&text[s..s + l]).is_some() {
                    out.push((s, s + l));
                }
            }
        }
    }
}

impl Redactor {
    /// `None` when there is nothing to hide.
    pub fn new<S: AsRef<str> + Sync>(secrets: &[S]) -> Option<Redactor> {
        let all: Vec<[String; 5]> = secrets
            .par_iter()
            .map(AsRef::as_ref)
            .filter(|s| !s.is_empty())
            .map(forms_of)
            .collect();
        let mut forms = Forms::new();
        for f in all.iter().flatten() {
            forms.insert(f);
        }
        if forms.spans.is_empty() {
            return None;
        }
        Some(Redactor { forms })
    }

    /// Whether `value` is, as a whole, a sensitive value (in any of its forms).
    pub fn is_secret(&self, value: &str) -> bool {
        value.len() >= self.forms.min_len
            && (self.forms.find_whole(value.as_bytes()).is_some()
                || self.forms.find_whole(value.trim().as_bytes()).is_some())
    }

    /// `text` with every whole occurrence of a sensitive value replaced by [`SENSITIVE`];
    /// `None` when there is none. Overlapping occurrences are merged.
    pub fn redact(&self, text: &str) -> Option<String> {
        if text.len() < self.forms.min_len {
            return None;
        }
        let bounded = |s: usize, e: usize| {
            let before = text[..s].chars().next_back();
            let after = text[e..].chars().next();
            let first = text[s..e].chars().next();
            let last = text[s..e].chars().next_back();
            // a form that starts or ends with a word character must not touch another one
            let glued_before = before.is_some_and(word) && first.is_some_and(word);
            let glued_after = after.is_some_and(word) && last.is_some_and(word);
            !glued_before && !glued_after
        };
        let mut spans = Vec::new();
        self.forms.occurrences(text.as_bytes(), &mut spans);
        spans.retain(|&(s, e)| bounded(s, e));
        if spans.is_empty() {
            return None;
        }
        spans.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
        for (s, e) in spans {
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (s, e) in merged {
            out.push_str(&text[at..s]);
            out.push_str(SENSITIVE);
            at = e;
        }
        out.push_str(&text[at..]);
        Some(out)
    }

    /// A field holding one value: hidden whole when it is, or holds, a sensitive value.
    pub fn field(&self, v: &mut String) {
        if self.is_secret(v) || self.redact(v).is_some() {
            *v = SENSITIVE.to_string();
        }
    }

    /// Free text: each sensitive value in it hidden.
    pub fn text(&self, v: &mut String) {
        if let Some(r) = self.redact(v) {
            *v = r;
        }
    }

    /// Hides sensitive values in what the mappings found, before anything is built from it:
    /// reasons and warnings then quote the placeholder, never the value.
    pub fn mapped(&self, m: &mut MappedPlan) {
        let one = |r: &mut MappedResource| {
            for f in [&mut r.region, &mut r.zone, &mut r.machine_type]
                .into_iter()
                .flatten()
            {
                self.field(f);
            }
            r.gpus.iter_mut().for_each(|g| self.field(g));
            r.cpu_types.iter_mut().for_each(|c| self.field(c));
            r.assumed.iter_mut().for_each(|t| self.text(t));
            r.warnings.iter_mut().for_each(|t| self.text(t));
        };
        m.before.par_iter_mut().for_each(one);
        m.after.par_iter_mut().for_each(one);
    }
}

/// Redacts strings that many entries share once each: by the address of their text (the
/// original is kept, so the address is not reused while the cache lives).
#[derive(Default)]
pub struct SharedCache {
    seen: Map<usize, (Text, Option<Text>)>,
    sensitive: Option<Text>,
}

impl Redactor {
    /// [`Redactor::field`] of a shared string.
    pub fn shared_field(&self, v: &mut Text, cache: &mut SharedCache) {
        self.shared(v, cache, |v, cache| {
            (self.is_secret(v) || self.redact(v).is_some()).then(|| {
                cache
                    .sensitive
                    .get_or_insert_with(|| Text::from(SENSITIVE))
                    .clone()
            })
        });
    }

    /// [`Redactor::text`] of a shared string.
    pub fn shared_text(&self, v: &mut Text, cache: &mut SharedCache) {
        self.shared(v, cache, |v, _| self.redact(v).map(Text::from));
    }

    /// Replaces `v` by what `redact` makes of it, worked out once per shared string.
    fn shared(
        &self,
        v: &mut Text,
        cache: &mut SharedCache,
        redact: impl FnOnce(&Text, &mut SharedCache) -> Option<Text>,
    ) {
        if v.len() < self.forms.min_len {
            return;
        }
        let key = v.as_ptr() as usize;
        let replacement = match cache.seen.get(&key) {
            Some((_, r)) => r.clone(),
            None => {
                let r = redact(v, cache);
                cache.seen.insert(key, (v.clone(), r.clone()));
                r
            }
        };
        if let Some(r) = replacement {
            *v = r;
        }
    }
}

/// The values of attributes `schemas` marks sensitive, in every resource change of `plan`
/// (format 0.1 plans carry no sensitivity masks: the schema is then the only source).
pub fn schema_sensitive_strings(plan: &Plan<'_>, schemas: &Schemas) -> Vec<String> {
    fn leaves(v: &Value<'_>, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.to_string()),
            Value::Array(a) => a.iter().for_each(|v| leaves(v, out)),
            Value::Object(o) => o.values().for_each(|v| leaves(v, out)),
            Value::Number(n) => out.push(n.to_string()),
            _ => {}
        }
    }
    fn block(v: &Value<'_>, b: &Block, out: &mut Vec<String>) {
        match v {
            Value::Object(o) => {
                for (k, a) in &b.attributes {
                    if a.sensitive
                        && let Some(v) = o.get(k.as_str())
                    {
                        leaves(v, out);
                    }
                }
                for (k, bt) in &b.block_types {
                    if let Some(v) = o.get(k.as_str()) {
                        block(v, &bt.block, out);
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|v| block(v, b, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for rc in plan
        .resource_changes
        .iter()
        .chain(plan.resource_drift.iter())
        .flatten()
    {
        if let Some(b) = schemas.block(&rc.provider_name, &rc.mode, &rc.type_) {
            block(&rc.change.before.value(), b, &mut out);
            block(&rc.change.after.value(), b, &mut out);
        }
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_short_secret_hid_every_region_containing_it() {
        let r = Redactor::new(&["1"]).unwrap();
        let mut region = "us-east-1".to_string();
        r.field(&mut region);
        assert_eq!(region, "us-east-1");
        assert_eq!(r.redact("count = 11, zone us-east-1a"), None);
        assert_eq!(
            r.redact("count = 1").as_deref(),
            Some("count = (sensitive value)")
        );
    }

    #[test]
    fn an_escaped_secret_in_a_reason_was_not_matched() {
        let secret = "SECRET\"abc\\\u{1}";
        let r = Redactor::new(&[secret]).unwrap();
        for text in [
            format!("unknown machine type {secret:?}"),
            format!(
                "unknown machine type {}",
                serde_json::to_string(secret).unwrap()
            ),
            format!("unknown machine type {secret}"),
        ] {
            let out = r.redact(&text).expect("found");
            assert!(!out.contains("SECRET"), "{out}");
            assert!(out.starts_with("unknown machine type "), "{out}");
        }
    }

    #[test]
    fn overlapping_secrets_are_hidden_whole() {
        let r = Redactor::new(&["a b", "b c", "abcd"]).unwrap();
        assert_eq!(
            r.redact("x a b c y").as_deref(),
            Some("x (sensitive value) y")
        );
        assert_eq!(r.redact("xabcdefy"), None, "inside a longer word");
    }

    fn secret() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-zA-Z0-9]{1,3}",
            "[ -~]{1,12}",
            "\\PC{1,8}",
            "[\"\\\\\u{0}-\u{1f}a-z]{1,10}",
        ]
    }

    proptest! {
        /// A sensitive value never survives redaction in any rendered form, whatever it holds.
        #[test]
        fn secrets_never_survive_in_any_form(s in secret(), pre in "[ (\\[]{0,2}", post in "[ )\\],]{0,2}") {
            let r = Redactor::new(&[s.as_str()]).unwrap();
            let debug = format!("{s:?}");
            let json = serde_json::to_string(&s).unwrap();
            for form in [s.clone(), debug, json] {
                let text = format!("{pre}{form}{post}");
                let out = r.redact(&text).unwrap_or(text.clone());
                // what is left besides the placeholders
                let left = out.replace(SENSITIVE, "\u{ffff}");
                prop_assert!(!left.contains(&form), "{form:?} in {out:?}");
                let mut field = form.clone();
                r.field(&mut field);
                prop_assert_eq!(field, SENSITIVE);
            }
        }

        /// Text that holds the value only inside longer words is never redacted.
        #[test]
        fn unrelated_text_is_never_redacted(s in "[a-z0-9]{1,4}", words in prop::collection::vec("[a-z0-9]{1,6}", 1..6)) {
            let r = Redactor::new(&[s.as_str()]).unwrap();
            // every word made longer than the secret on both sides: it can only hold it inside
            let text = words.iter().map(|w| format!("x{w}-{s}-{w}x")).collect::<Vec<_>>().join(" ");
            prop_assert_eq!(r.redact(&text), None);
            let mut region = format!("us-{s}-1");
            r.field(&mut region);
            prop_assert_eq!(region, format!("us-{s}-1"));
        }
    }
}
