//! The version of the tool that wrote a document and the renderer rules that changed between
//! Terraform versions: each rule a named switch with the release it came in and its source.
//!
//! A plan carries `terraform_version` (the writer); a state carries the last writer's, which
//! `--terraform-version` / `terraform-version` can override. Without a version, or for a
//! version this table does not know, the newest rules apply. OpenTofu's rules have no version
//! switches: its transcribed cases (OpenTofu v1.12.6) are the judge.

use std::fmt;

/// A release number, `MAJOR.MINOR.PATCH` (a pre-release suffix such as `-beta1` is ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
}

impl Version {
    pub const fn new(major: u32, minor: u32, patch: u32) -> Self {
        Version {
            major,
            minor,
            patch,
        }
    }

    /// Parses `1.6.6`, `v1.8.0`, `1.8.0-beta1` or `1.9` (patch 0); `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        let t = text.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        let core = t.split(['-', '+']).next()?;
        let mut parts = core.split('.');
        let mut num = |required: bool| -> Option<u32> {
            match parts.next() {
                Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => p.parse().ok(),
                None if !required => Some(0),
                _ => None,
            }
        };
        let v = Version::new(num(true)?, num(true)?, num(false)?);
        parts.next().is_none().then_some(v)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// One Terraform renderer rule that changed in a release.
#[derive(Debug, Clone, Copy)]
pub struct VersionRule {
    /// The switch's name (a field of [`Since`]).
    pub name: &'static str,
    /// The first Terraform release with the behaviour.
    pub since: Version,
    /// The first release without it again, for a behaviour that was undone.
    pub until: Option<Version>,
    /// What changed.
    pub summary: &'static str,
    /// The upstream change behind it.
    pub source: &'static str,
}

/// Every version rule, oldest first (docs/rendering.md, "Version rules", lists the same).
pub const TERRAFORM_RULES: &[VersionRule] = &[
    VersionRule {
        name: "exact_numbers",
        since: Version::new(1, 7, 4),
        until: None,
        summary: "numbers print as written; before, through float64 (9007199254740993 \
                  prints 9007199254740992, 12345678901234567890 prints 12345678901234567000)",
        source: "hashicorp/terraform#34702 (CHANGELOG 1.7.4)",
    },
    VersionRule {
        name: "pairwise_lists",
        since: Version::new(1, 8, 0),
        until: None,
        summary: "lists of the same length that are not a reordering, and the lines of \
                  multi-line strings with the same line count, are paired element by element; \
                  before, by longest common subsequence",
        source: "hashicorp/terraform#34677 (CHANGELOG 1.8.0)",
    },
    VersionRule {
        name: "empty_string_by_schema",
        since: Version::new(1, 8, 0),
        until: None,
        summary: "\"\" is null only in a legacy-SDK schema (at every typed level); before, \
                  \"\" was null for every attribute of a block and a value everywhere else",
        source: "hashicorp/terraform#34740 (commit bdd5a2cd33, in 1.8.0)",
    },
    VersionRule {
        name: "json_first_document",
        since: Version::new(1, 7, 4),
        until: Some(Version::new(1, 8, 1)),
        summary: "a string that starts with a JSON document is jsonencode(...) even when text \
                  follows it (Go's Decoder.Decode); before and after, only a string that is one \
                  whole JSON document",
        source: "hashicorp/terraform#34702 (CHANGELOG 1.7.4) brought it, #34959 (CHANGELOG \
                 1.8.1) undid it",
    },
    VersionRule {
        name: "plan_bold_only",
        since: Version::new(1, 14, 0),
        until: None,
        summary: "in colour, only `Plan: ` is bold and reset; before, the whole line was \
                  coloured as one piece (its reset after the newline)",
        source: "hashicorp/terraform commit 85717fba7e (actions in the plan summary, 1.14.0)",
    },
];

/// The switches of [`TERRAFORM_RULES`] for one version: `true` when the version has the
/// rule's behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Since {
    pub exact_numbers: bool,
    pub pairwise_lists: bool,
    pub empty_string_by_schema: bool,
    pub json_first_document: bool,
    pub plan_bold_only: bool,
}

impl Default for Since {
    /// The newest rules.
    fn default() -> Self {
        Since::NEWEST
    }
}

impl Since {
    pub const NEWEST: Since = Since {
        exact_numbers: true,
        pairwise_lists: true,
        empty_string_by_schema: true,
        json_first_document: false,
        plan_bold_only: true,
    };

    /// The rules of Terraform `version` (the newest when it is unknown).
    pub fn terraform(version: Option<Version>) -> Self {
        let Some(v) = version else {
            return Since::NEWEST;
        };
        let on = |name: &str| {
            TERRAFORM_RULES
                .iter()
                .find(|r| r.name == name)
                .is_some_and(|r| v >= r.since && r.until.is_none_or(|u| v < u))
        };
        Since {
            exact_numbers: on("exact_numbers"),
            pairwise_lists: on("pairwise_lists"),
            empty_string_by_schema: on("empty_string_by_schema"),
            json_first_document: on("json_first_document"),
            plan_bold_only: on("plan_bold_only"),
        }
    }
}

/// A number as Terraform before 1.7.4 printed it: read as a float64, written with the
/// shortest digits that read back the same and no exponent (Go's `FormatFloat(f, 'f', -1,
/// 64)`; Rust's `Display` for `f64` writes the same digits). Text that is not a number is
/// returned as is.
pub fn float64_text(number: &str) -> String {
    match number.parse::<f64>() {
        Ok(f) if f.is_finite() => {
            let s = f.to_string();
            if s == "-0" { "0".to_string() } else { s }
        }
        _ => number.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_with_prefix_suffix_and_missing_patch() {
        assert_eq!(Version::parse("1.6.6"), Some(Version::new(1, 6, 6)));
        assert_eq!(Version::parse("v1.8.0"), Some(Version::new(1, 8, 0)));
        assert_eq!(Version::parse("1.8.0-beta1"), Some(Version::new(1, 8, 0)));
        assert_eq!(Version::parse("1.9"), Some(Version::new(1, 9, 0)));
        for bad in ["", "1", "x.y.z", "1.2.3.4", "1..2", "1.-2.3", " "] {
            assert_eq!(Version::parse(bad), None, "{bad:?}");
        }
        assert_eq!(Version::new(1, 10, 0).to_string(), "1.10.0");
        assert!(Version::new(1, 10, 0) > Version::new(1, 9, 8));
    }

    #[test]
    fn each_rule_switches_at_its_release() {
        assert_eq!(Since::terraform(None), Since::NEWEST);
        assert_eq!(
            Since::terraform(Version::parse("1.15.5")),
            Since::NEWEST,
            "1.15.5"
        );
        for rule in TERRAFORM_RULES {
            let before = Version::new(
                rule.since.major,
                rule.since.minor,
                rule.since.patch.saturating_sub(1),
            );
            let before = if rule.since.patch == 0 {
                Version::new(rule.since.major, rule.since.minor - 1, 99)
            } else {
                before
            };
            let field = |s: Since| match rule.name {
                "exact_numbers" => s.exact_numbers,
                "pairwise_lists" => s.pairwise_lists,
                "empty_string_by_schema" => s.empty_string_by_schema,
                "json_first_document" => s.json_first_document,
                "plan_bold_only" => s.plan_bold_only,
                other => panic!("rule {other} has no switch"),
            };
            assert!(field(Since::terraform(Some(rule.since))), "{}", rule.name);
            assert!(!field(Since::terraform(Some(before))), "{}", rule.name);
            if let Some(until) = rule.until {
                assert!(!field(Since::terraform(Some(until))), "{}", rule.name);
            }
        }
        let old = Since::terraform(Version::parse("1.6.6"));
        assert!(!old.exact_numbers && !old.pairwise_lists && !old.plan_bold_only);
        assert!(!old.json_first_document);
        assert!(Since::terraform(Version::parse("1.8.0")).json_first_document);
        assert!(!Since::terraform(Version::parse("1.8.4")).json_first_document);
    }

    #[test]
    fn numbers_go_through_float64_as_go_prints_them() {
        assert_eq!(float64_text("9007199254740993"), "9007199254740992");
        assert_eq!(float64_text("12345678901234567890"), "12345678901234567000");
        assert_eq!(float64_text("1e21"), "1000000000000000000000");
        assert_eq!(float64_text("0.1"), "0.1");
        assert_eq!(float64_text("3.5"), "3.5");
        assert_eq!(float64_text("42"), "42");
        assert_eq!(float64_text("-7"), "-7");
        assert_eq!(float64_text("1.50"), "1.5");
    }
}
