//! The one redactor: every sensitive value of a plan (its masks, and attributes the schemas mark sensitive), hidden in every form it can be written in.
//!
//! A value is hidden in its raw form and in the forms a message could carry it in: Rust's
//! `{:?}` escaping and JSON's (with and without their quotes). A match must be a *whole*
//! value: an occurrence inside a longer word (`1` in `us-east-1`, `abc` in `xabcy`) is
//! unrelated text and stays.

use crate::mapping::{MappedPlan, MappedResource};
use crate::plan::{Plan, Value};
use crate::schema::{Block, Schemas};
use std::collections::HashSet;

/// What a report shows in place of a sensitive value.
pub const SENSITIVE: &str = "(sensitive value)";

/// Knows every sensitive value and finds it in any text.
pub struct Redactor {
    forms: HashSet<String>,
    finder: aho_corasick::AhoCorasick,
}

/// Characters that continue a word: an occurrence touching one is part of a longer value.
fn word(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | ':' | '@')
}

impl Redactor {
    /// `None` when there is nothing to hide.
    pub fn new<S: AsRef<str>>(secrets: &[S]) -> Option<Redactor> {
        let mut forms = HashSet::new();
        for s in secrets.iter().map(AsRef::as_ref).filter(|s| !s.is_empty()) {
            let debug = format!("{s:?}");
            let json = serde_json::to_string(s).unwrap_or_default();
            for f in [
                s.to_string(),
                debug[1..debug.len() - 1].to_string(),
                json.get(1..json.len().saturating_sub(1))
                    .unwrap_or("")
                    .to_string(),
                debug,
                json,
            ] {
                if !f.is_empty() {
                    forms.insert(f);
                }
            }
        }
        if forms.is_empty() {
            return None;
        }
        let finder = aho_corasick::AhoCorasick::new(forms.iter()).ok()?;
        Some(Redactor { forms, finder })
    }

    /// Whether `value` is, as a whole, a sensitive value (in any of its forms).
    pub fn is_secret(&self, value: &str) -> bool {
        self.forms.contains(value) || self.forms.contains(value.trim())
    }

    /// `text` with every whole occurrence of a sensitive value replaced by [`SENSITIVE`];
    /// `None` when there is none. Overlapping occurrences are merged.
    pub fn redact(&self, text: &str) -> Option<String> {
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
        let mut spans: Vec<(usize, usize)> = self
            .finder
            .find_overlapping_iter(text)
            .map(|m| (m.start(), m.end()))
            .filter(|&(s, e)| bounded(s, e))
            .collect();
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
        m.before.iter_mut().for_each(one);
        m.after.iter_mut().for_each(one);
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
