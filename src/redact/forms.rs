//! The forms of every sensitive value, each stored once, and a text's whole occurrences of them,
//! found by hashing the text's spans that could hold one (the automaton for a text too costly).
//!
//! A value's forms are its raw text and its `{:?}`- and JSON-escaped texts, with and without
//! their quotes. Only the unquoted ones are stored (most values have one: a plain value escapes
//! to itself), each marked when its quoted form is a form too (`quotable`): `"x"` is then found
//! as the stored `x` between quotes. A text is searched at each place a whole value may start
//! (not inside a word): for each length a stored form has, the span is looked up by its rolling
//! hash and compared byte for byte. That costs a few steps per place and length; a text that
//! would cost more than [`budget`] is searched by the [`Automaton`] of every form instead,
//! built the first time one needs it (linear in the text whatever the values are). Both find
//! the same union of whole occurrences.

use std::sync::OnceLock;

use super::automaton::{Automaton, word};

type Map<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;

/// The rolling hash's multiplier (odd).
const BASE: u64 = 0x9E37_79B9_7F4A_7C15;
/// No entry (the end of a list of entries sharing a hash).
const NONE: usize = usize::MAX;

/// One stored form: `text[start..start + len]`.
struct Entry {
    start: usize,
    len: usize,
    /// The next entry with the same hash.
    next: usize,
    /// Whether the form between double quotes is a form too.
    quotable: bool,
}

/// Every form of every sensitive value.
pub(super) struct Forms {
    text: String,
    entries: Vec<Entry>,
    /// The first entry of each hash.
    by_hash: Map<u64, usize>,
    /// The distinct lengths of the entries, ascending, each with `BASE` to its power.
    lengths: Vec<(usize, u64)>,
    /// The same for the quotable entries (the length without the quotes).
    quoted: Vec<(usize, u64)>,
    automaton: OnceLock<Automaton>,
}

/// The rolling hash of `bytes`.
fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |h: u64, &b| {
        h.wrapping_mul(BASE).wrapping_add(u64::from(b))
    })
}

/// A value that escapes to itself in both `{:?}` and JSON: printable ASCII but `"` and `\`.
fn plain(s: &str) -> bool {
    s.bytes()
        .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\')
}

/// The most steps a search of a text of `n` bytes may take before the automaton takes over.
fn budget(n: usize) -> usize {
    64 * n + 8192
}

impl Forms {
    /// The forms of `values` (empty ones are ignored).
    pub(super) fn new<'s>(values: impl IntoIterator<Item = &'s str>) -> Forms {
        let mut f = Forms {
            text: String::new(),
            entries: Vec::new(),
            by_hash: Map::default(),
            lengths: Vec::new(),
            quoted: Vec::new(),
            automaton: OnceLock::new(),
        };
        for s in values.into_iter().filter(|s| !s.is_empty()) {
            if plain(s) {
                f.insert(s, true);
                continue;
            }
            let debug = format!("{s:?}");
            let json = serde_json::to_string(s).unwrap_or_default();
            f.insert(s, false);
            for escaped in [debug.as_str(), json.as_str()] {
                if let Some(inner) = escaped.get(1..escaped.len().saturating_sub(1)) {
                    f.insert(inner, true);
                }
            }
        }
        f.text.shrink_to_fit();
        f.entries.shrink_to_fit();
        f.by_hash.shrink_to_fit();
        let with_power = |mut ls: Vec<usize>| -> Vec<(usize, u64)> {
            ls.sort_unstable();
            ls.dedup();
            ls.into_iter()
                .map(|l| (l, (0..l).fold(1u64, |p, _| p.wrapping_mul(BASE))))
                .collect()
        };
        f.lengths = with_power(f.entries.iter().map(|e| e.len).collect());
        f.quoted = with_power(
            f.entries
                .iter()
                .filter(|e| e.quotable)
                .map(|e| e.len)
                .collect(),
        );
        f
    }

    /// Stores `form` unless it is stored already (then only marks it `quotable`).
    fn insert(&mut self, form: &str, quotable: bool) {
        if form.is_empty() {
            return;
        }
        let h = hash(form.as_bytes());
        if let Some(i) = self.find(h, form.as_bytes(), &mut 0) {
            self.entries[i].quotable |= quotable;
            return;
        }
        let next = self.by_hash.insert(h, self.entries.len()).unwrap_or(NONE);
        self.entries.push(Entry {
            start: self.text.len(),
            len: form.len(),
            next,
            quotable,
        });
        self.text.push_str(form);
    }

    fn form(&self, e: &Entry) -> &str {
        &self.text[e.start..e.start + e.len]
    }

    /// The entry that is `bytes` (whose hash is `h`), counting the bytes compared in `steps`.
    fn find(&self, h: u64, bytes: &[u8], steps: &mut usize) -> Option<usize> {
        let mut i = *self.by_hash.get(&h)?;
        while i != NONE {
            let e = &self.entries[i];
            if e.len == bytes.len() {
                *steps += e.len;
                if self.form(e).as_bytes() == bytes {
                    return Some(i);
                }
            }
            i = e.next;
        }
        None
    }

    /// Whether no value was given.
    pub(super) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The shortest form's length in bytes: a shorter text holds none.
    pub(super) fn min_len(&self) -> usize {
        self.lengths.first().map_or(0, |&(l, _)| l)
    }

    /// Whether `s` is, whole, one of the forms.
    pub(super) fn contains(&self, s: &str) -> bool {
        let b = s.as_bytes();
        if self.find(hash(b), b, &mut 0).is_some() {
            return true;
        }
        b.len() >= 2
            && b[0] == b'"'
            && b[b.len() - 1] == b'"'
            && self.quotable(&b[1..b.len() - 1], hash(&b[1..b.len() - 1]), &mut 0)
    }

    fn quotable(&self, inner: &[u8], h: u64, steps: &mut usize) -> bool {
        self.find(h, inner, steps)
            .is_some_and(|i| self.entries[i].quotable)
    }

    /// The union of every whole occurrence of the forms in `text`, as (start, end) byte ranges
    /// in order, merged where they overlap or touch.
    pub(super) fn occurrences(&self, text: &str) -> Vec<(usize, usize)> {
        self.hashed(text, budget(text.len()))
            .unwrap_or_else(|| self.automaton().occurrences(text, &mut 0))
    }

    /// The automaton of every form, built once, when a text first needs it.
    fn automaton(&self) -> &Automaton {
        self.automaton.get_or_init(|| {
            let quoted: Vec<String> = self
                .entries
                .iter()
                .filter(|e| e.quotable)
                .map(|e| format!("\"{}\"", self.form(e)))
                .collect();
            let plain = self.entries.iter().map(|e| self.form(e));
            Automaton::new(plain.chain(quoted.iter().map(String::as_str)))
        })
    }

    /// Whether the automaton was built (a test's witness that the hashes sufficed).
    #[cfg(test)]
    fn built(&self) -> bool {
        self.automaton.get().is_some()
    }

    /// [`Forms::occurrences`] by hashing the text's spans; `None` past `budget` steps.
    fn hashed(&self, text: &str, budget: usize) -> Option<Vec<(usize, usize)>> {
        let b = text.as_bytes();
        let n = b.len();
        // where a whole value may start or end: a character's boundary not inside a word
        let mut cut = vec![false; n + 1];
        let mut prev = false;
        for (i, c) in text.char_indices() {
            let w = word(c);
            cut[i] = !(prev && w);
            prev = w;
        }
        cut[n] = true;
        let mut prefix = Vec::with_capacity(n + 1);
        prefix.push(0u64);
        for &x in b {
            let h = prefix[prefix.len() - 1];
            prefix.push(h.wrapping_mul(BASE).wrapping_add(u64::from(x)));
        }
        let span = |i: usize, e: usize, p: u64| prefix[e].wrapping_sub(prefix[i].wrapping_mul(p));
        let mut steps = 0;
        let mut merged: Vec<(usize, usize)> = Vec::new();
        // the furthest end found so far: a span ending there or before adds nothing
        let mut reach = 0;
        for i in (0..n).filter(|&i| cut[i]) {
            let mut best = reach;
            let fits = self.lengths.partition_point(|&(l, _)| l <= n - i);
            for &(l, p) in self.lengths[..fits].iter().rev() {
                let e = i + l;
                if e <= best {
                    break;
                }
                steps += 1;
                if cut[e] && self.find(span(i, e, p), &b[i..e], &mut steps).is_some() {
                    best = e;
                    break;
                }
            }
            if b[i] == b'"' {
                let fits = self.quoted.partition_point(|&(l, _)| l + 2 <= n - i);
                for &(l, p) in self.quoted[..fits].iter().rev() {
                    let e = i + l + 2;
                    if e <= best {
                        break;
                    }
                    steps += 1;
                    if b[e - 1] == b'"'
                        && self.quotable(&b[i + 1..e - 1], span(i + 1, e - 1, p), &mut steps)
                    {
                        best = e;
                        break;
                    }
                }
            }
            if best > reach {
                match merged.last_mut() {
                    Some(last) if i <= last.1 => last.1 = best,
                    _ => merged.push((i, best)),
                }
                reach = best;
            }
            if steps > budget {
                return None;
            }
        }
        Some(merged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every form of `values`, as the redactor knew them: raw, escaped, quoted.
    fn every_form(values: &[String]) -> Vec<String> {
        values
            .iter()
            .filter(|v| !v.is_empty())
            .flat_map(|s| {
                let debug = format!("{s:?}");
                let json = serde_json::to_string(s).unwrap();
                [
                    s.clone(),
                    debug[1..debug.len() - 1].to_string(),
                    json[1..json.len() - 1].to_string(),
                    debug,
                    json,
                ]
            })
            .collect()
    }

    #[test]
    fn a_quoted_form_is_found_as_its_unquoted_one_between_quotes() {
        let f = Forms::new(["pa\"ss", "plain"]);
        // raw, `{:?}` and JSON agree but for the raw: three entries
        assert_eq!(f.entries.len(), 3);
        for s in ["pa\"ss", "pa\\\"ss", "\"pa\\\"ss\"", "plain", "\"plain\""] {
            assert!(f.contains(s), "{s}");
        }
        // the raw form is not escaped: its quoted text is no form
        assert!(!f.contains("\"pa\"ss\""));
        assert_eq!(f.hashed("x \"pa\"ss\" y", 1 << 20), Some(vec![(3, 8)]));
        assert_eq!(f.hashed("x \"pa\\\"ss\" y", 1 << 20), Some(vec![(2, 10)]));
        assert_eq!(f.hashed("\"plain\"\"plain\"", 1 << 20), Some(vec![(0, 14)]));
        assert_eq!(f.hashed("xplain \"plainx\"", 1 << 20), Some(vec![]));
        assert!(!f.built());
    }

    #[test]
    fn a_text_past_its_budget_is_searched_by_the_automaton() {
        let values: Vec<String> = (1..300).map(|n| vec!["a"; n].join(" ")).collect();
        let f = Forms::new(values.iter().map(String::as_str));
        let text = vec!["a"; 2000].join(" ");
        assert_eq!(f.hashed(&text, budget(text.len())), None);
        assert_eq!(f.occurrences(&text), vec![(0, text.len())]);
        assert!(f.built());
    }

    fn value() -> impl Strategy<Value = String> {
        prop_oneof![
            "[ab \\-\"(]{1,5}",
            "[a-c]{1,3}",
            "\\PC{1,3}",
            "[ é.a\\\\\"\n\u{1}]{1,4}",
        ]
    }

    proptest! {
        /// Hashing finds what the automaton of every form finds, within its budget or past it.
        #[test]
        fn the_hashes_find_what_the_automaton_of_every_form_finds(
            values in prop::collection::vec(value(), 1..8),
            text in "[ab \\-\"(é.x\\\\n\u{1}]{0,40}",
            pick in prop::collection::vec(any::<prop::sample::Index>(), 0..4),
        ) {
            let forms = every_form(&values);
            // texts holding the forms, between random text
            let mut text = text;
            for p in &pick {
                let f = p.get(&forms);
                let at = p.index(text.len() + 1);
                let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
                text.insert_str(at, f);
            }
            let every = Automaton::new(forms.iter().map(String::as_str));
            let f = Forms::new(values.iter().map(String::as_str));
            let want = every.occurrences(&text, &mut 0);
            prop_assert_eq!(f.hashed(&text, usize::MAX), Some(want.clone()));
            prop_assert_eq!(f.automaton().occurrences(&text, &mut 0), want);
            for form in &forms {
                prop_assert!(f.contains(form), "{:?}", form);
                prop_assert_eq!(f.contains(&format!("{form}x")), every.contains(&format!("{form}x")));
            }
        }
    }
}
