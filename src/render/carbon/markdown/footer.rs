//! Where the comment's figures come from, as links a reviewer can follow: each data table's
//! human name and its section in the repository's documentation at the tool's version tag
//! (the sources line under the totals), and the footer that names the tool, its version and
//! the comment's tag.

use super::{Summary, code_text};
use crate::report::Table;

/// The repository the documentation links point into (Cargo.toml's `repository`).
pub const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

/// A document of the repository's `docs/` at this version's tag, with an anchor when
/// `anchor` is not empty: `https://github.com/…/blob/v0.1.0/docs/methodology.md#instances`.
pub fn doc_url(file: &str, anchor: &str) -> String {
    let hash = if anchor.is_empty() { "" } else { "#" };
    format!(
        "{REPOSITORY}/blob/v{}/docs/{file}{hash}{anchor}",
        env!("CARGO_PKG_VERSION")
    )
}

/// A data table as a reader knows it: (name, document under `docs/`, anchor of its section).
/// Tables that one section describes share it (and are linked once).
pub fn table_doc(t: Table) -> (&'static str, &'static str, &'static str) {
    match t {
        Table::AwsInstances
        | Table::AwsRedshiftNodes
        | Table::AzureAppServicePlans
        | Table::AzureInstances
        | Table::AzureRedisCacheSizes
        | Table::GcpInstances
        | Table::GcpSqlTiers => ("instance shapes", "methodology.md", "instances"),
        Table::Coefficients => ("power coefficients", "methodology.md", "cpu-power"),
        Table::GridIntensity => (
            "grid carbon intensity",
            "methodology.md",
            "grid-carbon-intensity",
        ),
        Table::Embodied | Table::Hosts => (
            "embodied emissions (host model)",
            "methodology.md",
            "embodied-emissions-the-host-model",
        ),
        Table::Geography => (
            "regions and jurisdictions",
            "alternatives.md",
            "region-the-cleanest-region-of-the-same-jurisdiction",
        ),
        Table::ArmEquivalents => (
            "ARM equivalents",
            "alternatives.md",
            "arm-the-same-vcpu-count-and-memory",
        ),
    }
}

/// The section on ranges, which the sources line's first sentence sums up.
pub const RANGES: (&str, &str) = ("methodology.md", "ranges-and-sources");

/// Under the totals: what the range is, and the data tables the figures come from, each a
/// link to its section of the methodology (`None` when no figure has a source).
pub fn sources_line(s: &Summary) -> Option<String> {
    let used: std::collections::BTreeSet<&str> = s
        .report
        .resources
        .iter()
        .flat_map(|r| [&r.before, &r.after])
        .flatten()
        .flat_map(|side| side.sources.iter())
        .collect();
    let mut links: Vec<String> = Vec::new();
    for t in Table::ALL.into_iter().filter(|t| used.contains(t.id())) {
        let (name, file, anchor) = table_doc(t);
        let link = format!("[{name}]({})", doc_url(file, anchor));
        if !links.contains(&link) {
            links.push(link);
        }
    }
    (!links.is_empty()).then(|| {
        format!(
            "[Range]({}): utilisation {}–{} % and the spread of the coefficients that could \
             apply. Sources: {}.\n",
            doc_url(RANGES.0, RANGES.1),
            crate::render::carbon::trim_num(crate::estimate::LOW_UTILIZATION * 100.0),
            crate::render::carbon::trim_num(crate::estimate::HIGH_UTILIZATION * 100.0),
            links.join(", ")
        )
    })
}

/// The footer: the tool and its version, the comment's tag (`--comment-tag`), and the
/// methodology — so that two tagged comments on one pull request differ where a reader sees.
pub fn footer(tag: Option<&str>) -> String {
    let tag = tag
        .map(|t| format!(" · comment tag {}", code_text(t)))
        .unwrap_or_default();
    format!(
        "<sub>carbon-show {}{tag} · [methodology]({}) · `--format json` has every figure</sub>\n",
        env!("CARGO_PKG_VERSION"),
        doc_url("methodology.md", "")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GitHub's anchor for a heading: its text without Markdown's code marks, lower-cased,
    /// every character but letters, digits, `-`, `_` and spaces dropped, spaces as `-`; a
    /// repeated slug gets `-1`, `-2`… (github-slugger).
    fn slugs(doc: &str) -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        let mut counts = std::collections::HashMap::new();
        let mut fence = false;
        for l in doc.lines() {
            if l.starts_with("```") {
                fence = !fence;
            }
            if fence || !l.starts_with('#') {
                continue;
            }
            let text = l.trim_start_matches('#').trim().replace('`', "");
            let base: String = text
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect();
            let n = counts.entry(base.clone()).or_insert(0usize);
            let slug = if *n == 0 { base } else { format!("{base}-{n}") };
            *n += 1;
            seen.push(slug);
        }
        seen
    }

    fn doc(file: &str) -> &'static str {
        match file {
            "methodology.md" => include_str!("../../../../docs/methodology.md"),
            "alternatives.md" => include_str!("../../../../docs/alternatives.md"),
            other => panic!("no document {other} in the test"),
        }
    }

    #[test]
    fn every_linked_anchor_is_a_heading_of_its_document() {
        let mut links: Vec<(&str, &str)> = Table::ALL
            .iter()
            .map(|t| {
                let (_, file, anchor) = table_doc(*t);
                (file, anchor)
            })
            .collect();
        links.push(RANGES);
        for (file, anchor) in links {
            let slugs = slugs(doc(file));
            assert!(
                slugs.iter().any(|s| s == anchor),
                "#{anchor} is no heading of docs/{file}: {slugs:?}"
            );
        }
    }

    #[test]
    fn slugs_follow_githubs_rules() {
        let s = slugs(
            "# A `b` c: d\n```\n# no\n```\n## A b c d\n### Worked check (CCF's own; `x.rs::y_z`)\n",
        );
        assert_eq!(s, ["a-b-c-d", "a-b-c-d-1", "worked-check-ccfs-own-xrsy_z"]);
    }

    #[test]
    fn links_point_at_the_versions_tag() {
        assert!(
            REPOSITORY.starts_with("https://github.com/"),
            "{REPOSITORY}"
        );
        assert_eq!(
            doc_url("methodology.md", "instances"),
            format!(
                "{REPOSITORY}/blob/v{}/docs/methodology.md#instances",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert!(footer(Some("prod")).contains("comment tag `prod`"));
        assert!(!footer(None).contains("comment tag"));
    }
}
