//! The forms of every sensitive value, each stored once, and a text's whole occurrences of them,
//! found by hashing the text's spans that could hold one (the automaton for a text too costly).
//!
//! A value's forms are its raw text and its `{:?}`- and JSON-escaped texts, with and without
//! their quotes. Only the unquoted ones are stored (most values have one: a plain value escapes
//! to itself), each marked when its quoted form is a form too (`quotable`): `"x"` is then found
//! as the stored `x` between quotes. The forms are kept sorted by (a mix of) their rolling
//! hashes, found through buckets of the hash's top bits: built on every core, without a hash
//! map's inserts. A text is searched at each place a whole value may start (not inside a
//! word): for each length a stored form has, the span is looked up by its rolling hash and
//! compared byte for byte. That costs a few steps per place and length; a text that
//! would cost more than [`budget`] is searched by the [`Automaton`] of every form instead,
//! built the first time one needs it (linear in the text whatever the values are). Both find
//! the same union of whole occurrences.

use std::borrow::Cow;
use std::sync::OnceLock;

use rayon::prelude::*;

use super::automaton::{Automaton, word};

/// The rolling hash's multiplier (odd).
const BASE: u64 = 0x9E37_79B9_7F4A_7C15;

/// One stored form: `text[start..start + len]`.
struct Entry {
    /// Its hash, mixed ([`key`]): the entries are sorted by it.
    key: u64,
    start: usize,
    len: usize,
    /// Whether the form between double quotes is a form too.
    quotable: bool,
}

/// Every form of every sensitive value.
pub(super) struct Forms {
    text: String,
    /// Each distinct form once, sorted by key.
    entries: Vec<Entry>,
    /// The entries whose key's top bits are `b`: `entries[buckets[b]..buckets[b + 1]]`.
    buckets: Vec<u32>,
    /// 64 − the bits of a bucket's number.
    shift: u32,
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

/// A hash with its bits mixed into the top ones (which pick a bucket): one to one, so that
/// equal keys are equal hashes.
fn key(h: u64) -> u64 {
    (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// A byte that escapes to itself in both `{:?}` and JSON: printable ASCII but `"` and `\`. A
/// value of such bytes alone is *plain*: its one form is itself.
fn plain(b: u8) -> bool {
    (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\'
}

/// The most steps a search of a text of `n` bytes may take before the automaton takes over.
fn budget(n: usize) -> usize {
    64 * n + 8192
}

/// One form to store: its key, its text, and whether it is quotable.
type Form<'s> = (u64, Cow<'s, str>, bool);

fn form(f: Cow<'_, str>, quotable: bool) -> Form<'_> {
    (key(hash(f.as_bytes())), f, quotable)
}

/// A value's forms to store: a plain value is its own, quotable; another is its raw text and
/// its escaped texts without their quotes.
fn forms_of(s: &str) -> impl Iterator<Item = Form<'_>> {
    let mut out: [Option<Form<'_>>; 3] = [None, None, None];
    // the hash and whether the value is plain, in one pass
    let (h, is_plain) = s.bytes().fold((0u64, true), |(h, p), b| {
        let h = h.wrapping_mul(BASE).wrapping_add(u64::from(b));
        (h, p && plain(b))
    });
    out[0] = Some((key(h), Cow::Borrowed(s), is_plain));
    if !is_plain {
        for (slot, escaped) in out[1..].iter_mut().zip([
            format!("{s:?}"),
            serde_json::to_string(s).unwrap_or_default(),
        ]) {
            if let Some(inner) = escaped.get(1..escaped.len().saturating_sub(1))
                && !inner.is_empty()
            {
                *slot = Some(form(Cow::Owned(inner.to_string()), true));
            }
        }
    }
    out.into_iter().flatten()
}

impl Forms {
    /// The forms of `values` (empty ones are ignored; a value given twice is stored once).
    /// Each value's forms are derived and hashed on every core, then sorted by their keys
    /// (equal forms side by side, merged); the table is that sorted list, found by bucket.
    pub(super) fn new<S: AsRef<str> + Sync>(values: &[S]) -> Forms {
        let mut forms: Vec<Form<'_>> = values
            .par_iter()
            .map(AsRef::as_ref)
            .filter(|s| !s.is_empty())
            .flat_map_iter(forms_of)
            .collect();
        forms.par_sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        let bytes = forms.par_iter().map(|f| f.1.len()).sum();
        let mut f = Forms {
            text: String::with_capacity(bytes),
            entries: Vec::with_capacity(forms.len()),
            buckets: Vec::new(),
            shift: 0,
            lengths: Vec::new(),
            quoted: Vec::new(),
            automaton: OnceLock::new(),
        };
        for (k, form, quotable) in forms {
            if let Some(last) = f.entries.last_mut()
                && last.key == k
                && f.text[last.start..] == *form
            {
                last.quotable |= quotable;
                continue;
            }
            f.entries.push(Entry {
                key: k,
                start: f.text.len(),
                len: form.len(),
                quotable,
            });
            f.text.push_str(&form);
        }
        f.text.shrink_to_fit();
        f.entries.shrink_to_fit();
        // about one entry a bucket
        let bits = f.entries.len().max(2).next_power_of_two().trailing_zeros();
        f.shift = 64 - bits;
        let mut buckets = vec![0u32; (1 << bits) + 1];
        for e in &f.entries {
            buckets[(e.key >> f.shift) as usize + 1] += 1;
        }
        for b in 1..buckets.len() {
            buckets[b] += buckets[b - 1];
        }
        f.buckets = buckets;
        // the distinct lengths, marked in one pass over the entries (bit 0: a form's, bit 1:
        // a quotable form's), each with BASE to its power
        let longest = f.entries.iter().map(|e| e.len).max().unwrap_or(0);
        let mut marks = vec![0u8; longest + 1];
        for e in &f.entries {
            marks[e.len] |= 1 | (u8::from(e.quotable) << 1);
        }
        let mut power = 1u64;
        for (l, m) in marks.into_iter().enumerate() {
            if m & 1 != 0 {
                f.lengths.push((l, power));
            }
            if m & 2 != 0 {
                f.quoted.push((l, power));
            }
            power = power.wrapping_mul(BASE);
        }
        f
    }

    fn form(&self, e: &Entry) -> &str {
        &self.text[e.start..e.start + e.len]
    }

    /// The entry that is `bytes` (whose hash is `h`), counting the entries looked at and the
    /// bytes compared in `steps`.
    fn find(&self, h: u64, bytes: &[u8], steps: &mut usize) -> Option<usize> {
        let k = key(h);
        let b = (k >> self.shift) as usize;
        let (from, to) = (self.buckets[b] as usize, self.buckets[b + 1] as usize);
        for (i, e) in self.entries[from..to].iter().enumerate() {
            *steps += 1;
            if e.key > k {
                break;
            }
            if e.key == k && e.len == bytes.len() {
                *steps += e.len;
                if self.form(e).as_bytes() == bytes {
                    return Some(from + i);
                }
            }
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
        let f = Forms::new(&["pa\"ss", "plain"]);
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

    /// A value given twice (a secret on both sides of a change) is stored once, and a form
    /// two values share (the raw `a\\b` and `a\b` escaped) once, quotable if either says so.
    #[test]
    fn each_form_is_stored_once_whatever_gives_it() {
        let f = Forms::new(&["x", "x", "a\\b", "a\\\\b", "y", "x"]);
        let mut forms: Vec<(&str, bool)> =
            f.entries.iter().map(|e| (f.form(e), e.quotable)).collect();
        forms.sort();
        assert_eq!(
            forms,
            [
                ("a\\\\\\\\b", true),
                ("a\\\\b", true),
                ("a\\b", false),
                ("x", true),
                ("y", true)
            ]
        );
        for s in ["x", "\"y\"", "a\\b", "\"a\\\\b\"", "a\\\\\\\\b"] {
            assert!(f.contains(s), "{s}");
        }
        assert!(!f.contains("\"a\\b\""));
    }

    #[test]
    fn a_text_past_its_budget_is_searched_by_the_automaton() {
        let values: Vec<String> = (1..300).map(|n| vec!["a"; n].join(" ")).collect();
        let f = Forms::new(&values);
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
            let f = Forms::new(&values);
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
