//! The `ignored_resources` patterns of a provider: what matches them, for as little as it takes.
//!
//! Each pattern matches a resource type whole (`^(?:pattern)$`). Most are a plain name
//! (`aws_subnet`) or a name and `.*` (`aws_vpc.*`): those are matched without a regex. The
//! others are compiled as one regex where they combine: compiling some ninety small regexes
//! took about 15 M instructions at every run, most of it the fixed cost of each compilation;
//! one alternation of them all costs a fraction of that and matches exactly what one of them
//! matches. For the shipped mappings (whose patterns are known to compile) even that waits
//! until a type is first looked up.

use regex::Regex;
use std::sync::OnceLock;

/// A provider's `ignored_resources` patterns, ready to match a resource type.
#[derive(Debug, Default)]
pub struct Ignored {
    /// Plain names: matched whole.
    names: std::collections::HashSet<String, foldhash::fast::RandomState>,
    /// `name.*`: a type that starts with the name, no line break after it.
    prefixes: Vec<String>,
    /// The others, each with its place among the patterns given.
    others: Vec<(usize, String)>,
    /// The others' regexes: one where they combine, else one each (the valid ones).
    regexes: OnceLock<Vec<Regex>>,
}

impl Ignored {
    /// The patterns, none compiled yet.
    pub fn new<'a>(patterns: impl IntoIterator<Item = &'a str>) -> Ignored {
        let plain = |p: &str| p.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
        let mut ig = Ignored::default();
        for (i, p) in patterns.into_iter().enumerate() {
            if plain(p) {
                ig.names.insert(p.to_string());
            } else if let Some(prefix) = p.strip_suffix(".*").filter(|n| plain(n)) {
                ig.prefixes.push(prefix.to_string());
            } else {
                ig.others.push((i, p.to_string()));
            }
        }
        ig
    }

    /// Compile the patterns that need a regex now: each invalid one's place among the patterns
    /// given and the regex crate's reason (the last line of its message).
    pub fn compile(&self) -> Vec<(usize, String)> {
        let (regexes, errors) = regexes(&self.others);
        let _ = self.regexes.set(regexes);
        errors
    }

    /// Whether `ty` matches one of the patterns (the regexes compiled now if they were not).
    pub fn is_match(&self, ty: &str) -> bool {
        self.names.contains(ty)
            || self.prefixes.iter().any(|p| {
                ty.strip_prefix(p.as_str())
                    .is_some_and(|r| !r.contains('\n'))
            })
            || (!self.others.is_empty()
                && self
                    .regexes
                    .get_or_init(|| regexes(&self.others).0)
                    .iter()
                    .any(|re| re.is_match(ty)))
    }

    /// Whether some pattern needs a regex.
    pub fn needs_regex(&self) -> bool {
        !self.others.is_empty()
    }
}

/// The regexes of `patterns`: one alternation where they combine, else each valid one alone;
/// and each invalid one's place and reason.
fn regexes(patterns: &[(usize, String)]) -> (Vec<Regex>, Vec<(usize, String)>) {
    if patterns.is_empty() {
        return (Vec::new(), Vec::new());
    }
    if let Some(re) = combined(patterns.iter().map(|(_, p)| p.as_str())) {
        return (vec![re], Vec::new());
    }
    let mut out = (Vec::new(), Vec::new());
    for (i, pat) in patterns {
        match Regex::new(&format!("^(?:{pat})$")) {
            Ok(re) => out.0.push(re),
            Err(e) => {
                let msg = e.to_string();
                out.1
                    .push((*i, msg.lines().last().unwrap_or("").trim().to_string()));
            }
        }
    }
    out
}

/// One regex that matches a text whole exactly when one of `patterns` does (each compiled alone
/// as `^(?:pattern)$`), if every pattern is a valid regex on its own. `None` when there is no
/// pattern, when one is invalid alone or wrapped (checked with the parser `Regex::new` uses,
/// with the same settings), or when the alternation does not compile: the caller then compiles
/// them one by one, as before, and reports each error.
pub fn combined<'a>(patterns: impl IntoIterator<Item = &'a str>) -> Option<Regex> {
    let mut alternation = String::from("^(?:");
    let mut any = false;
    for p in patterns {
        // valid alone, so that in `(?:p)` it is one group (`a)|(b` is not: `^(?:a)|(b)$`
        // compiles, and matches more than whole texts), and valid wrapped (`(?x)a #c` is not)
        let parse = |re: &str| regex_syntax::Parser::new().parse(re).is_ok();
        if !parse(p) || !parse(&format!("^(?:{p})$")) {
            return None;
        }
        if any {
            alternation.push('|');
        }
        any = true;
        alternation.push_str("(?:");
        alternation.push_str(p);
        alternation.push(')');
    }
    alternation.push_str(")$");
    any.then(|| Regex::new(&alternation).ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_what_one_of_the_patterns_matches() {
        let pats = [
            "aws_vpc.*",
            "aws_subnet",
            "(?i)AZURERM_x",
            "a|b",
            "google_[a-z]+_firewall",
        ];
        let one = combined(pats).unwrap();
        let each: Vec<Regex> = pats
            .iter()
            .map(|p| Regex::new(&format!("^(?:{p})$")).unwrap())
            .collect();
        for t in [
            "aws_vpc",
            "aws_vpc_endpoint",
            "aws_subnet",
            "aws_subnets",
            "xaws_subnet",
            "azurerm_X",
            "AZURERM_X",
            "a",
            "b",
            "ab",
            "google_compute_firewall",
            "google_compute_firewall_policy",
            "",
        ] {
            assert_eq!(one.is_match(t), each.iter().any(|r| r.is_match(t)), "{t}");
        }
    }

    #[test]
    fn names_and_prefixes_match_as_their_regexes_would() {
        let pats = [
            "aws_subnet",
            "aws_vpc.*",
            ".*",
            "",
            "azurerm_(linux|windows)_app",
            ".*_iam_.*",
            "[bad",
        ];
        for lazy in [true, false] {
            let ig = Ignored::new(pats);
            if !lazy {
                assert_eq!(
                    ig.compile(),
                    vec![(6, "error: unclosed character class".into())]
                );
            }
            for t in [
                "aws_subnet",
                "aws_subnets",
                "aws_vpc",
                "aws_vpc_peering",
                "aws_vpc\nx",
                "x\ny",
                "",
                "azurerm_linux_app",
                "azurerm_linux_apps",
                "google_project_iam_member",
                "[bad",
            ] {
                let each = pats
                    .iter()
                    .any(|p| Regex::new(&format!("^(?:{p})$")).is_ok_and(|r| r.is_match(t)));
                assert_eq!(ig.is_match(t), each, "{t:?}");
            }
        }
    }

    #[test]
    fn an_invalid_pattern_or_none_gives_no_regex() {
        // `a)|(b` is invalid alone but would close the alternation's own groups
        for bad in [
            &["aws_.*", "a)|(b"][..],
            &["(?x)a # comment"],
            &["[a-"],
            &["x{2,1}"],
            &["(?:"],
            &[],
        ] {
            assert!(combined(bad.iter().copied()).is_none(), "{bad:?}");
        }
    }
}
