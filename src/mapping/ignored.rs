//! The `ignored_resources` patterns of a provider, compiled as one regex.
//!
//! Each pattern matches a resource type whole (`^(?:pattern)$`). Compiling some ninety small
//! regexes took about 15 M instructions at every run, most of it the fixed cost of each
//! compilation; one alternation of them all costs a fraction of that and matches exactly what
//! one of them matches.

use regex::Regex;

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
