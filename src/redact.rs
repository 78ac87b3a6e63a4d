//! The one redactor: every sensitive value of a plan (its masks, and attributes the schemas mark sensitive), hidden in every form it can be written in.
//!
//! A value is hidden in its raw form and in the forms a message could carry it in: Rust's
//! `{:?}` escaping and JSON's (with and without their quotes). A match must be a *whole*
//! value: an occurrence inside a longer word (`1` in `us-east-1`, `abc` in `xabcy`) is
//! unrelated text and stays.

mod automaton;
mod forms;

use std::collections::HashMap;

use rayon::prelude::*;

use forms::Forms;

use crate::mapping::{MappedPlan, MappedResource};
use crate::plan::{Plan, Value};
use crate::report::{Report, Status, Text};
use crate::schema::{Block, Schemas};

pub use crate::report::SENSITIVE;

/// How the note of a wholly sensitive resource begins: `sensitive resource: its region,
/// machine type hidden`.
pub const WHOLE: &str = "sensitive resource: its ";

type Map<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

/// Knows every sensitive value and finds it in any text.
pub struct Redactor {
    forms: Forms,
}

impl Redactor {
    /// `None` when there is nothing to hide.
    pub fn new<S: AsRef<str> + Sync>(secrets: &[S]) -> Option<Redactor> {
        let forms = Forms::new(secrets);
        (!forms.is_empty()).then_some(Redactor { forms })
    }

    /// Whether `value` is, as a whole, a sensitive value (in any of its forms).
    pub fn is_secret(&self, value: &str) -> bool {
        value.len() >= self.forms.min_len()
            && (self.forms.contains(value) || self.forms.contains(value.trim()))
    }

    /// `text` with every whole occurrence of a sensitive value replaced by [`SENSITIVE`];
    /// `None` when there is none. Overlapping occurrences are merged.
    pub fn redact(&self, text: &str) -> Option<String> {
        if text.len() < self.forms.min_len() {
            return None;
        }
        let merged = self.forms.occurrences(text);
        if merged.is_empty() {
            return None;
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

    /// Whether [`Redactor::mapped`] would change something of `r`.
    fn holds_secret(&self, r: &MappedResource) -> bool {
        let field = |v: &String| self.is_secret(v) || self.redact(v).is_some();
        [&r.region, &r.zone, &r.machine_type]
            .into_iter()
            .flatten()
            .chain(&r.gpus)
            .chain(&r.cpu_types)
            .any(field)
            || r.assumed
                .iter()
                .chain(&r.warnings)
                .any(|t| self.redact(t).is_some())
    }

    /// Hides sensitive values in what the mappings found, before anything is built from it:
    /// reasons and warnings then quote the placeholder, never the value.
    pub fn mapped(&self, m: &mut MappedPlan) {
        // the resources holding a secret, by their body: bodies are shared (the instances of
        // a block, resources of one size and region), each is looked at once
        let ptr = |r: &MappedResource| std::sync::Arc::as_ptr(&r.body) as usize;
        let mut bodies: Map<usize, &MappedResource> = Map::default();
        for r in m.before.iter().chain(&m.after) {
            bodies.entry(ptr(r)).or_insert(r);
        }
        let holds: Map<usize, bool> = bodies
            .into_par_iter()
            .map(|(body, r)| (body, self.holds_secret(r)))
            .collect();
        let holds = &holds;
        let one = |r: &mut MappedResource| {
            // most resources hold nothing to hide: their body, maybe shared, is left alone
            if !holds.get(&ptr(r)).copied().unwrap_or(true) {
                return;
            }
            let r = &mut **r;
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

/// Hides what the mappings read from a value the plan marks sensitive (`mapping::taint`),
/// whatever it became: a region worked out from a sensitive zone, a machine type read through
/// a table from a sensitive attribute: shown as [`SENSITIVE`], and priced as such (an unknown
/// region gets its provider's range). The shape (vCPUs, memory) the mapping read stays, and
/// with it the estimate: many types share a shape, and a plan must not escape `--fail-over`
/// by marking its machine type sensitive. A resource whose whole value is sensitive says what
/// it hides.
pub fn tainted(m: &mut MappedPlan) {
    let one = |r: &mut MappedResource| {
        let t = r.tainted;
        if !t.any() {
            return;
        }
        // the fields hidden, as a reader knows them
        let mut hidden = Vec::new();
        let r = &mut **r;
        let mut hide = |v: &mut Option<String>, on: bool, name: &'static str| {
            if on && v.is_some() {
                *v = Some(SENSITIVE.to_string());
                hidden.push(name);
            }
        };
        hide(&mut r.machine_type, t.machine_type, "machine type");
        hide(&mut r.region, t.region, "region");
        hide(&mut r.zone, t.zone, "zone");
        for (on, list, name) in [
            (t.gpus, &mut r.gpus, "GPU model"),
            (t.cpu_types, &mut r.cpu_types, "CPU type"),
        ] {
            if on && !list.is_empty() {
                list.iter_mut().for_each(|v| *v = SENSITIVE.to_string());
                hidden.push(name);
            }
        }
        if t.whole && !hidden.is_empty() {
            r.warnings
                .push(format!("{WHOLE}{} hidden", hidden.join(", ")));
        }
    };
    m.before.par_iter_mut().for_each(one);
    m.after.par_iter_mut().for_each(one);
}

impl Redactor {
    /// Hides the plan's sensitive strings wherever the mappings carried one into `report`'s
    /// text: a region or machine type that holds one is shown as [`SENSITIVE`], and every
    /// occurrence in a reason, assumption or warning is replaced by it. (What was read from a
    /// sensitive value was hidden before pricing: [`tainted`].)
    pub fn report(&self, report: &mut Report) {
        // regions, machine types and reasons are shared: each is looked at once
        let cache = &mut SharedCache::default();
        // an entry that instances share is redacted once, and shared again after
        let mut shared: Map<usize, std::sync::Arc<crate::report::Entry>> = Map::default();
        for r in &mut report.resources {
            let key = std::sync::Arc::as_ptr(&r.entry) as usize;
            let is_shared = std::sync::Arc::strong_count(&r.entry) > 1;
            if let Some(done) = shared.get(&key).filter(|_| is_shared) {
                r.entry = std::sync::Arc::clone(done);
                continue;
            }
            let r_entry = std::sync::Arc::make_mut(&mut r.entry);
            self.entry(r_entry, cache);
            if is_shared {
                shared.insert(key, std::sync::Arc::clone(&r.entry));
            }
        }
    }

    /// Hides the plan's sensitive values in one entry of the report.
    fn entry(&self, r: &mut crate::report::Entry, cache: &mut SharedCache) {
        for side in [&mut r.before, &mut r.after].into_iter().flatten() {
            for v in side.region.iter_mut().chain(&mut side.machine_type) {
                self.shared_field(v, cache);
            }
        }
        if let Status::NotEstimated { reason } | Status::Unsupported { reason } = &mut r.status {
            self.text(reason);
        }
        r.assumptions.iter_mut().for_each(|t| self.text(t));
        r.warnings.iter_mut().for_each(|t| self.text(t));
        for a in &mut r.alternatives {
            for v in a.region.iter_mut().chain(&mut a.machine_type) {
                self.shared_field(v, cache);
            }
            self.shared_text(&mut a.reason, cache);
        }
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
        if v.len() < self.forms.min_len() {
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
    use crate::estimate::Period;
    use crate::report::fixtures::create;
    use proptest::prelude::*;

    /// What the mappings found is redacted where it holds a secret, and only there: resources
    /// that share their figures with others keep sharing them (a body is copied when it is
    /// written to).
    #[test]
    fn mapped_figures_are_hidden_where_they_hold_a_secret_and_shared_elsewhere() {
        use crate::mapping::{Body, MappedPlan, MappedResource};
        let body = std::sync::Arc::new(Body {
            machine_type: Some("m5.large".into()),
            region: Some("eu-west-1".into()),
            ..Body::default()
        });
        let at = |a: &str| MappedResource {
            address: a.into(),
            body: body.clone(),
        };
        let mut secret = at("aws_instance.s");
        secret.zone = Some("s3cret-zone".into());
        let mut m = MappedPlan {
            after: vec![at("aws_instance.a"), secret, at("aws_instance.b")],
            ..MappedPlan::default()
        };
        Redactor::new(&["s3cret-zone"]).unwrap().mapped(&mut m);
        assert_eq!(m.after[1].zone.as_deref(), Some(SENSITIVE));
        assert_eq!(m.after[1].machine_type.as_deref(), Some("m5.large"));
        assert!(std::sync::Arc::ptr_eq(&m.after[0].body, &body));
        assert!(std::sync::Arc::ptr_eq(&m.after[2].body, &body));
        assert_eq!(m.after[0].zone, None);
    }

    #[test]
    fn a_report_hides_sensitive_strings() {
        let mut skipped = create("aws_instance.x", 0.0);
        skipped.status = Status::NotEstimated {
            reason: "unknown machine type \"s3cret.big\" (s3cret)".into(),
        };
        skipped.assumptions = vec!["assumed machine_type = s3cret.big".into()];
        skipped.warnings = vec!["plain".into()];
        let mut r = Report::new(
            vec![create("aws_instance.y", 1.0), skipped],
            vec![],
            0,
            0.5,
            Period::Month,
        );
        Redactor::new(&["", "m5.xlarge", "s3cret", "s3cret.big"])
            .unwrap()
            .report(&mut r);
        let after = r.resources[0].after.as_ref().unwrap();
        assert_eq!(after.machine_type.as_deref(), Some(SENSITIVE));
        assert_eq!(after.region.as_deref(), Some("us-east-1"));
        let x = &r.resources[1];
        assert_eq!(
            x.status,
            Status::NotEstimated {
                reason: format!("unknown machine type {SENSITIVE} ({SENSITIVE})")
            }
        );
        assert_eq!(
            x.assumptions,
            [format!("assumed machine_type = {SENSITIVE}")]
        );
        assert_eq!(x.warnings, ["plain"]);
        // Figures stay.
        assert_eq!(r.totals.after_per_hour.total_gco2eq, 1.0);
    }

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
