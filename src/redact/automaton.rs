//! Every whole occurrence of a set of values in a text, in time linear in the text: an
//! Aho–Corasick automaton over the values, with word boundaries encoded as symbols.
//!
//! A value that starts (ends) with a word character must not touch another word character
//! before (after) it. Rather than checking that for each occurrence found (and finding many
//! that fail it), the boundaries are symbols of their own, [`END`] and [`START`] (bytes that
//! never occur in UTF-8), written into both the values and the text where a value may end or
//! start: a value that starts with a word character begins with [`START`], which the text holds
//! only where no word character comes before. Every match is then a whole occurrence, and each
//! state knows the longest value that ends there ([`Automaton::out`]), so one pass finds, for
//! each end, the occurrence reaching furthest back: the union of all occurrences, whatever the
//! values share (no list of matches per position is ever walked).

/// "A value may end here": no word character follows.
const END: u8 = 0xFF;
/// "A value may start here": no word character comes before.
const START: u8 = 0xFE;
/// No state (the end of a list of children).
const NONE: u32 = u32::MAX;
const ROOT: u32 = 0;

/// Characters that continue a word: an occurrence touching one is part of a longer value.
pub(super) fn word(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | ':' | '@')
}

/// The symbols a value is looked for as: its bytes, [`START`] before a first word character,
/// [`END`] after a last one, and inside it the marks its text would carry.
fn value_symbols(s: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len() + 4);
    let mut prev: Option<char> = None;
    for c in s.chars() {
        match prev {
            None if word(c) => out.push(START),
            None => {}
            Some(p) => marks(p, c, &mut out),
        }
        let mut buf = [0; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        prev = Some(c);
    }
    if prev.is_some_and(word) {
        out.push(END);
    }
    out
}

/// The marks between two characters: [`END`] when the second is no word character (a value
/// ending with the first may end), [`START`] when the first is none (one may start).
fn marks(before: char, after: char, out: &mut Vec<u8>) {
    if !word(after) {
        out.push(END);
    }
    if !word(before) {
        out.push(START);
    }
}

/// A text as the automaton reads it, and where each symbol is in the text (a mark: the byte
/// offset of its place between two characters).
fn text_symbols(text: &str) -> (Vec<u8>, Vec<u32>) {
    let mut syms = Vec::with_capacity(text.len() + text.len() / 4 + 2);
    let mut at = Vec::with_capacity(syms.capacity());
    let mut prev: Option<char> = None;
    for (i, c) in text.char_indices() {
        match prev {
            None => syms.push(START),
            Some(p) => marks(p, c, &mut syms),
        }
        // marks sit at the character's offset
        at.resize(syms.len(), i as u32);
        let mut buf = [0; 4];
        syms.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        at.extend((i..i + c.len_utf8()).map(|j| j as u32));
        prev = Some(c);
    }
    syms.push(END);
    at.push(text.len() as u32);
    (syms, at)
}

/// The trie of the values' symbols with its failure links. States are indices; the root's
/// children are also kept in a table of 256.
pub(super) struct Automaton {
    root: Box<[u32; 256]>,
    first_child: Vec<u32>,
    next_sibling: Vec<u32>,
    byte: Vec<u8>,
    /// The longest proper suffix of the state that is a state too.
    fail: Vec<u32>,
    depth: Vec<u32>,
    /// The length (in symbols) of the longest value that ends at this state: its own, when a
    /// value ends here, else its failure state's. 0: none.
    out: Vec<u32>,
}

impl Automaton {
    /// The automaton of `values` (empty ones are ignored).
    pub(super) fn new<'s>(values: impl IntoIterator<Item = &'s str>) -> Automaton {
        let mut a = Automaton {
            root: Box::new([ROOT; 256]),
            first_child: vec![NONE],
            next_sibling: vec![NONE],
            byte: vec![0],
            fail: vec![ROOT],
            depth: vec![0],
            out: vec![0],
        };
        for v in values {
            let syms = value_symbols(v);
            if syms.is_empty() {
                continue;
            }
            let mut s = ROOT;
            for &b in &syms {
                s = match a.child(s, b) {
                    Some(c) => c,
                    None => a.add_child(s, b),
                };
            }
            a.out[s as usize] = a.depth[s as usize];
        }
        a.link();
        a
    }

    fn child(&self, s: u32, b: u8) -> Option<u32> {
        if s == ROOT {
            let c = self.root[b as usize];
            return (c != ROOT).then_some(c);
        }
        let mut c = self.first_child[s as usize];
        while c != NONE {
            if self.byte[c as usize] == b {
                return Some(c);
            }
            c = self.next_sibling[c as usize];
        }
        None
    }

    fn add_child(&mut self, s: u32, b: u8) -> u32 {
        let c = self.byte.len() as u32;
        self.byte.push(b);
        self.first_child.push(NONE);
        self.next_sibling.push(self.first_child[s as usize]);
        self.first_child[s as usize] = c;
        self.fail.push(ROOT);
        self.depth.push(self.depth[s as usize] + 1);
        self.out.push(0);
        if s == ROOT {
            self.root[b as usize] = c;
        }
        c
    }

    /// The failure links, breadth first, and each state's longest value ending there.
    fn link(&mut self) {
        let mut queue = std::collections::VecDeque::new();
        let mut c = self.first_child[ROOT as usize];
        while c != NONE {
            queue.push_back(c);
            c = self.next_sibling[c as usize];
        }
        while let Some(u) = queue.pop_front() {
            let mut v = self.first_child[u as usize];
            while v != NONE {
                let b = self.byte[v as usize];
                let mut f = self.fail[u as usize];
                let to = loop {
                    if let Some(w) = self.child(f, b) {
                        break w;
                    }
                    if f == ROOT {
                        break ROOT;
                    }
                    f = self.fail[f as usize];
                };
                self.fail[v as usize] = to;
                if self.out[v as usize] == 0 {
                    self.out[v as usize] = self.out[to as usize];
                }
                queue.push_back(v);
                v = self.next_sibling[v as usize];
            }
        }
    }

    /// Whether `s` is, whole, one of the values.
    #[cfg(test)]
    pub(super) fn contains(&self, s: &str) -> bool {
        let mut state = ROOT;
        for b in value_symbols(s) {
            match self.child(state, b) {
                Some(c) => state = c,
                None => return false,
            }
        }
        state != ROOT && self.out[state as usize] == self.depth[state as usize]
    }

    /// The union of every whole occurrence of the values in `text`, as (start, end) byte
    /// ranges in order, merged where they overlap or touch. `steps` counts the transitions
    /// looked at (children and failure links followed): at most a few per symbol of the text.
    pub(super) fn occurrences(&self, text: &str, steps: &mut usize) -> Vec<(usize, usize)> {
        let (syms, at) = text_symbols(text);
        // for each end (in symbols), the furthest-reaching start
        let mut found: Vec<(usize, usize)> = Vec::new();
        let mut s = ROOT;
        for (k, &b) in syms.iter().enumerate() {
            loop {
                *steps += 1;
                if let Some(c) = self.child_counted(s, b, steps) {
                    s = c;
                    break;
                }
                if s == ROOT {
                    break;
                }
                s = self.fail[s as usize];
            }
            let len = self.out[s as usize] as usize;
            if len > 0 {
                let start = at[k + 1 - len] as usize;
                let end = if b >= START {
                    at[k] as usize
                } else {
                    at[k] as usize + 1
                };
                found.push((start, end));
            }
        }
        // merged from the last end back: each range reaches at most as far as the one after
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(found.len());
        for (s, e) in found.into_iter().rev() {
            match merged.last_mut() {
                Some(last) if e >= last.0 => last.0 = last.0.min(s),
                _ => merged.push((s, e)),
            }
        }
        merged.reverse();
        merged
    }

    /// [`Automaton::child`], counting the siblings looked at.
    fn child_counted(&self, s: u32, b: u8, steps: &mut usize) -> Option<u32> {
        if s == ROOT {
            return self.child(s, b);
        }
        let mut c = self.first_child[s as usize];
        while c != NONE {
            *steps += 1;
            if self.byte[c as usize] == b {
                return Some(c);
            }
            c = self.next_sibling[c as usize];
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The union of whole occurrences, found the slow and obvious way.
    fn naive(values: &[String], text: &str) -> Vec<(usize, usize)> {
        let bounded = |s: usize, e: usize| {
            let before = text[..s].chars().next_back();
            let after = text[e..].chars().next();
            let first = text[s..e].chars().next();
            let last = text[s..e].chars().next_back();
            let glued_before = before.is_some_and(word) && first.is_some_and(word);
            let glued_after = after.is_some_and(word) && last.is_some_and(word);
            !glued_before && !glued_after
        };
        let mut spans = Vec::new();
        for v in values.iter().filter(|v| !v.is_empty()) {
            let mut from = 0;
            while let Some(i) = text[from..].find(v.as_str()) {
                let s = from + i;
                if bounded(s, s + v.len()) {
                    spans.push((s, s + v.len()));
                }
                from = s + text[s..].chars().next().map_or(1, char::len_utf8);
            }
        }
        spans.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::new();
        for (s, e) in spans {
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        merged
    }

    fn find(values: &[&str], text: &str) -> Vec<(usize, usize)> {
        Automaton::new(values.iter().copied()).occurrences(text, &mut 0)
    }

    #[test]
    fn whole_values_only() {
        assert_eq!(find(&["1"], "us-east-1"), vec![]);
        assert_eq!(find(&["1"], "count = 1"), vec![(8, 9)]);
        assert_eq!(find(&["a b", "b c"], "x a b c y"), vec![(2, 7)]);
        assert_eq!(find(&["abcd"], "xabcdefy"), vec![]);
        // a value that starts and ends with no word character may touch words
        assert_eq!(find(&["(x)"], "a(x)b"), vec![(1, 4)]);
        assert_eq!(find(&["é"], "é ée"), vec![(0, 2)]);
        assert_eq!(find(&["a", "a a"], "a a a"), vec![(0, 5)]);
        // touching occurrences are one
        assert_eq!(find(&["\"x\""], "\"x\"\"x\""), vec![(0, 6)]);
        let a = Automaton::new(["ab c", "é"]);
        assert!(a.contains("ab c") && a.contains("é"));
        assert!(!a.contains("ab") && !a.contains("ab c ") && !a.contains(""));
    }

    /// Values that share every window (and nest: each a suffix of the next) cost a few steps
    /// per byte of the text, however many there are: the old index compared the text with
    /// every value sharing a window, at every byte.
    #[test]
    fn overlapping_values_are_found_in_linear_steps() {
        let values: Vec<String> = (0..2000)
            .map(|i| format!("{}{i:06}{}", "a".repeat(24), "a".repeat(8)))
            .chain((1..200).map(|n| vec!["a"; n].join(" ")))
            .collect();
        let a = Automaton::new(values.iter().map(String::as_str));
        let spaced = vec!["a"; 50_000].join(" ");
        for (text, whole) in [
            ("a".repeat(100_000), vec![]),
            (spaced.clone(), vec![(0, spaced.len())]),
            (
                format!("{}{:06}{}", "a".repeat(24), 7, "a".repeat(30_000)),
                vec![],
            ),
            (
                format!("{}{:06}{} x", "a".repeat(24), 7, "a".repeat(8)),
                vec![(0, 38)],
            ),
        ] {
            let mut steps = 0;
            assert_eq!(a.occurrences(&text, &mut steps), whole);
            assert!(
                steps <= 16 * (text.len() + 1),
                "{steps} steps for {}",
                text.len()
            );
        }
        let text = vec!["a"; 1000].join(" ");
        assert_eq!(a.occurrences(&text, &mut 0), vec![(0, text.len())]);
    }

    fn value() -> impl Strategy<Value = String> {
        prop_oneof!["[ab \\-\"(]{1,5}", "[a-c]{1,3}", "\\PC{1,3}", "[ é.a]{1,4}"]
    }

    proptest! {
        /// The automaton finds what checking every occurrence of every value finds.
        #[test]
        fn the_automaton_finds_what_a_scan_finds(
            values in prop::collection::vec(value(), 1..8),
            text in "[ab \\-\"(é.x]{0,40}",
        ) {
            let a = Automaton::new(values.iter().map(String::as_str));
            prop_assert_eq!(a.occurrences(&text, &mut 0), naive(&values, &text));
            for v in &values {
                prop_assert!(a.contains(v));
            }
        }
    }
}
