//! The library API the carbon work calls: parse, render with an annotator, options.

use std::path::Path;

use carbon_show::plan::{self, ResourceChange};
use carbon_show::render::{self, Annotator, HumanOptions, NoAnnotations, PlanMode, Theme};

struct Carbon;

impl Annotator for Carbon {
    fn resource_lines(&self, rc: &ResourceChange) -> Vec<String> {
        vec![format!("carbon: 1.0 kgCO2eq/month for {}", rc.address)]
    }
}

const PLAN: &str = r#"{"format_version":"1.2","resource_changes":[{"address":"a.b","mode":"managed","type":"a","name":"b","change":{"actions":["create"],"after":{"x":"1"}}}]}"#;

fn render_with(doc: &str, annotator: &dyn Annotator, theme: &Theme, opts: HumanOptions) -> String {
    let plan = plan::parse(Path::new("test.json"), doc.as_bytes()).expect("parse");
    let mut out = Vec::new();
    render::render_human(&plan, None, opts, theme, annotator, &mut out).expect("render");
    String::from_utf8(out).unwrap()
}

/// The plan's headline comes back as a value (the Markdown comment's fold uses it), never
/// searched for in the text.
#[test]
fn the_plan_line_is_returned() {
    let headline = |doc: &str| {
        let plan = plan::parse(Path::new("test.json"), doc.as_bytes()).expect("parse");
        let mut out = Vec::new();
        let r = render::render_human(
            &plan,
            None,
            HumanOptions::default(),
            &Theme::plain(),
            &NoAnnotations,
            &mut out,
        )
        .expect("render");
        r.plan_line
    };
    assert_eq!(
        headline(PLAN).as_deref(),
        Some("Plan: 1 to add, 0 to change, 0 to destroy.")
    );
    assert_eq!(
        headline(r#"{"format_version":"1.2","resource_changes":[],"planned_values":{}}"#)
            .as_deref(),
        Some("No changes. Your infrastructure matches the configuration.")
    );
    assert_eq!(
        headline(r#"{"format_version":"1.0","values":{"root_module":{}}}"#),
        None
    );
}

#[test]
fn annotator_adds_comment_lines() {
    let out = render_with(PLAN, &Carbon, &Theme::plain(), HumanOptions::default());
    assert!(
        out.contains(
            "  # a.b will be created\n  # carbon: 1.0 kgCO2eq/month for a.b\n  + resource \"a\" \"b\" {\n"
        ),
        "{out}"
    );
    // The renderer writes OpenTofu's text only: the carbon summary is its caller's.
    assert!(
        out.ends_with("Plan: 1 to add, 0 to change, 0 to destroy.\n"),
        "{out}"
    );
    // Styled through the theme's annotation slot.
    let coloured = render_with(PLAN, &Carbon, &Theme::colored(), HumanOptions::default());
    assert!(
        coloured.contains("  \x1b[2m# carbon: 1.0 kgCO2eq/month for a.b"),
        "{coloured:?}"
    );
}

#[test]
fn default_annotator_adds_nothing() {
    let plain = render_with(
        PLAN,
        &NoAnnotations,
        &Theme::plain(),
        HumanOptions::default(),
    );
    assert!(!plain.contains("carbon"));
    assert!(plain.ends_with("Plan: 1 to add, 0 to change, 0 to destroy.\n"));
}

#[test]
fn parse_value_gives_the_whole_document() {
    let v = plan::parse_value(Path::new("test.json"), PLAN.as_bytes()).unwrap();
    assert_eq!(v["resource_changes"][0]["change"]["after"]["x"], "1");
}

#[test]
fn drift_and_outputs() {
    let doc = include_str!("fixtures/drift.json");
    let out = render_with(
        doc,
        &NoAnnotations,
        &Theme::plain(),
        HumanOptions::default(),
    );
    insta::assert_snapshot!("drift_and_outputs", out);
}

#[test]
fn refresh_only_shows_all_drift() {
    let doc = include_str!("fixtures/drift.json");
    let opts = HumanOptions {
        mode: PlanMode::RefreshOnly,
        ..HumanOptions::default()
    };
    let out = render_with(doc, &NoAnnotations, &Theme::plain(), opts);
    assert!(out.contains("      ~ y  = \"1\" -> \"2\"\n"), "{out}");
    assert!(out.contains("This is a refresh-only plan, so OpenTofu will not take any actions"));
}

#[test]
fn no_changes_texts() {
    let doc = r#"{"format_version":"1.2","resource_changes":[],"planned_values":{}}"#;
    let out = render_with(
        doc,
        &NoAnnotations,
        &Theme::plain(),
        HumanOptions::default(),
    );
    assert_eq!(
        out,
        "\nNo changes. Your infrastructure matches the configuration.\n\nOpenTofu has compared your real infrastructure against your configuration and\nfound no differences, so no changes are needed.\n"
    );
    let destroy = HumanOptions {
        mode: PlanMode::Destroy,
        ..HumanOptions::default()
    };
    let out = render_with(doc, &NoAnnotations, &Theme::plain(), destroy);
    assert!(
        out.starts_with("\nNo changes. No objects need to be destroyed.\n\n"),
        "{out}"
    );
    let errored = r#"{"format_version":"1.2","resource_changes":[],"errored":true}"#;
    let out = render_with(
        errored,
        &NoAnnotations,
        &Theme::plain(),
        HumanOptions::default(),
    );
    assert_eq!(
        out,
        "\nPlanning failed. OpenTofu encountered an error while generating this plan.\n\n"
    );
}
