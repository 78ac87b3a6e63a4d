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
        fn marks(v: &serde_json::Value) -> bool {
            match v {
                serde_json::Value::Bool(b) => *b,
                serde_json::Value::Array(a) => a.iter().any(marks),
                serde_json::Value::Object(o) => o.values().any(marks),
                _ => false,
            }
        }
        // most masks mark nothing
        if !mask.contains("true") {
            return Marked::Nothing;
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
