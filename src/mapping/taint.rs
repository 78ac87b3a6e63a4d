//! Which fields of a mapped resource were read from a value the plan marks sensitive: the
//! resource's sensitivity mask (`sensitive_values`) against the members of `values` each
//! property's filters read (`engine::filters::values_read`).
//!
//! Matching the sensitive strings in the output finds a value only whole: a region worked out
//! from a sensitive zone (`corp-vault-zone-7x` → `corp-vault-zone-7`) or a machine type read
//! through a table from a sensitive attribute would pass. Here a field is marked by where it
//! came from, whatever it became; `redact::tainted` then hides it before anything is priced
//! or printed.

use super::source::Slot;

/// The fields of a [`super::MappedResource`] read from a sensitive value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tainted {
    pub region: bool,
    pub zone: bool,
    pub machine_type: bool,
    pub gpus: bool,
    pub cpu_types: bool,
    /// The resource's whole value is sensitive (its mask is `true`): what it hides is said.
    pub whole: bool,
}

impl Tainted {
    pub fn any(&self) -> bool {
        let Tainted {
            region,
            zone,
            machine_type,
            gpus,
            cpu_types,
            whole: _,
        } = *self;
        region || zone || machine_type || gpus || cpu_types
    }
}

/// What a resource's mask marks sensitive.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Marked {
    #[default]
    Nothing,
    /// These members of `values` (or something inside them).
    Members(Vec<String>),
    /// The whole value.
    Whole,
}

impl Marked {
    /// What a resource slot's mask marks (its `sensitive_values` member: `planned_values`,
    /// `prior_state`, a state's `values`; the fallback from the changes writes their
    /// `after_sensitive`/`before_sensitive` there).
    pub fn of(slot: &Slot<'_>) -> Marked {
        match slot.sensitive {
            Some(mask) => Self::of_mask(mask.get()),
            None => Marked::Nothing,
        }
    }

    fn of_mask(mask: &str) -> Marked {
        // most masks mark nothing
        if !mask.contains("true") {
            return Marked::Nothing;
        }
        // a valid mask is read from its text; anything else (an escaped key, a mask that does
        // not parse) as a built value
        if serde_json::from_str::<serde::de::IgnoredAny>(mask).is_ok()
            && let Some(marked) = Self::of_text(mask.as_bytes())
        {
            return marked;
        }
        Self::of_value(mask)
    }

    /// What a valid mask marks, read from its text without building it: each top-level
    /// member whose value holds a `true` (the only literal starting with `t`: masks hold
    /// booleans, arrays and objects). `None` for a key with an escape (read by
    /// [`Self::of_value`], which unescapes it).
    fn of_text(mask: &[u8]) -> Option<Marked> {
        let skip_ws = |i: &mut usize| {
            while mask.get(*i).is_some_and(|b| b.is_ascii_whitespace()) {
                *i += 1;
            }
        };
        let mut i = 0;
        skip_ws(&mut i);
        match mask.get(i) {
            Some(b't') => return Some(Marked::Whole),
            Some(b'{') => i += 1,
            _ => return Some(Marked::Nothing),
        }
        let mut members: Vec<(&str, bool)> = Vec::new();
        loop {
            skip_ws(&mut i);
            match mask.get(i) {
                Some(b'"') => {}
                _ => break, // `}`: the text is valid
            }
            let start = i + 1;
            let end = start
                + mask[start..]
                    .iter()
                    .position(|&b| b == b'"' || b == b'\\')?;
            if mask[end] == b'\\' {
                return None;
            }
            let key = std::str::from_utf8(&mask[start..end]).ok()?;
            i = end + 1;
            skip_ws(&mut i);
            i += 1; // `:`
            // the value: up to the `,` or `}` at depth 0, strings skipped
            let (mut depth, mut marked, mut in_string, mut escaped) = (0usize, false, false, false);
            // a marked value holding an object is read built: an object may repeat a key, the
            // last one standing (`{"k": true, "k": false}` marks nothing)
            let mut holds_object = false;
            while let Some(&b) = mask.get(i) {
                if in_string {
                    match b {
                        _ if escaped => escaped = false,
                        b'\\' => escaped = true,
                        b'"' => in_string = false,
                        _ => {}
                    }
                } else {
                    match b {
                        b'"' => in_string = true,
                        b'{' => {
                            depth += 1;
                            holds_object = true;
                        }
                        b'[' => depth += 1,
                        b'}' | b']' if depth == 0 => break,
                        b'}' | b']' => depth -= 1,
                        b',' if depth == 0 => break,
                        b't' => marked = true,
                        _ => {}
                    }
                }
                i += 1;
            }
            if marked && holds_object {
                return None;
            }
            members.push((key, marked));
            if mask.get(i) == Some(&b',') {
                i += 1;
            }
        }
        // as a built object holds them: sorted, the last of a repeated key winning
        members.reverse();
        members.sort_by(|a, b| a.0.cmp(b.0));
        members.dedup_by(|later, kept| later.0 == kept.0);
        let members: Vec<String> = members
            .into_iter()
            .filter(|m| m.1)
            .map(|m| m.0.to_string())
            .collect();
        Some(if members.is_empty() {
            Marked::Nothing
        } else {
            Marked::Members(members)
        })
    }

    /// What a mask marks, read as a built value (an escaped key; a mask that does not parse
    /// marks everything).
    fn of_value(mask: &str) -> Marked {
        fn marks(v: &serde_json::Value) -> bool {
            match v {
                serde_json::Value::Bool(b) => *b,
                serde_json::Value::Array(a) => a.iter().any(marks),
                serde_json::Value::Object(o) => o.values().any(marks),
                _ => false,
            }
        }
        match serde_json::from_str::<serde_json::Value>(mask) {
            Ok(serde_json::Value::Bool(true)) => Marked::Whole,
            Ok(serde_json::Value::Object(o)) => {
                let members: Vec<String> = o
                    .iter()
                    .filter(|(_, v)| marks(v))
                    .map(|(k, _)| k.clone())
                    .collect();
                if members.is_empty() {
                    Marked::Nothing
                } else {
                    Marked::Members(members)
                }
            }
            Ok(_) => Marked::Nothing,
            // a mask that cannot be read: everything may be sensitive
            Err(_) => Marked::Whole,
        }
    }

    /// Whether a property reading `reads` (`None`: the whole resource) reads a marked value.
    pub fn taints(&self, reads: Option<&[String]>) -> bool {
        match (self, reads) {
            (Marked::Nothing, _) => false,
            (Marked::Whole, _) => true,
            (Marked::Members(_), None) => true,
            (Marked::Members(m), Some(r)) => r.iter().any(|n| m.contains(n)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_mask_read_from_its_text_marks_what_the_built_value_marks() {
        for mask in [
            "true",
            " true ",
            "false",
            "{}",
            "[]",
            "[true]",
            "null",
            r#"{"a":true}"#,
            r#"{ "a" : true , "b" : false }"#,
            r#"{"a":true,"a":false}"#,
            r#"{"a":false,"a":true}"#,
            r#"{"b":true,"a":true,"c":[false,{"x":true}]}"#,
            r#"{"tags":{"true":false,"istrue":false},"t":[]}"#,
            r#"{"tags":{"k\"true":false}}"#,
            r#"{"k\u0041":true,"b":true}"#,
            r#"{"a":[[],[{}],[{"b":[true]}]],"z":{"y":{"x":false}}}"#,
            // a nested object repeating a key: the last one stands
            r#"{ "a" : [{ "k\u0041" : true , "k\u0041" : false }] }"#,
            r#"{"a":{"k":true,"k":false},"b":{"k":false,"k":true}}"#,
            r#"{"é":true,"e":true}"#,
            r#"{"a":tru}"#,
            r#"{"a":true"#,
            "{\"a\":\ttrue\n}",
        ] {
            // as read before: a mask without `true` marks nothing, any other built
            let built = if mask.contains("true") {
                Marked::of_value(mask)
            } else {
                Marked::Nothing
            };
            assert_eq!(Marked::of_mask(mask), built, "{mask}");
        }
    }

    /// A mask's text: booleans, arrays and objects, keys that repeat, hold `true`, quotes,
    /// escapes and non-ASCII letters, spaces here and there.
    fn mask_text() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![Just("true".to_string()), Just("false".to_string())];
        leaf.prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4)
                    .prop_map(|v| format!("[{}]", v.join(","))),
                prop::collection::vec(
                    (
                        prop::sample::select(vec![
                            "a",
                            "b",
                            "true",
                            "t",
                            "x\\\"true",
                            "k\\u0041",
                            "é",
                            "zone"
                        ]),
                        inner
                    ),
                    0..4
                )
                .prop_map(|m| {
                    let body: Vec<String> =
                        m.iter().map(|(k, v)| format!(" \"{k}\" : {v} ")).collect();
                    format!("{{{}}}", body.join(","))
                }),
            ]
        })
    }

    proptest! {
        #[test]
        fn any_mask_read_from_its_text_marks_what_the_built_value_marks(mask in mask_text()) {
            let built = if mask.contains("true") {
                Marked::of_value(&mask)
            } else {
                Marked::Nothing
            };
            prop_assert_eq!(Marked::of_mask(&mask), built, "{}", mask);
        }
    }

    #[test]
    fn what_a_mask_marks() {
        let m = |s: &str| Marked::of_mask(s);
        assert_eq!(m("{}"), Marked::Nothing);
        assert_eq!(m(r#"{"tags":{},"ebs":[{"x":false}]}"#), Marked::Nothing);
        assert_eq!(m("true"), Marked::Whole);
        assert_eq!(
            m(r#"{"availability_zone":true,"tags":{"a":false},"disk":[{},{"k":true}]}"#),
            Marked::Members(vec!["availability_zone".into(), "disk".into()])
        );
        let zone = m(r#"{"availability_zone":true}"#);
        assert!(zone.taints(Some(&["availability_zone".into()])));
        assert!(!zone.taints(Some(&["instance_type".into()])));
        assert!(
            zone.taints(None),
            "a property that reads the whole resource"
        );
        assert!(!Marked::Nothing.taints(None));
    }
}
