//! Tests of the settings: precedence, sources, and every bad value.

use super::*;

fn no_env(_: &str) -> Option<OsString> {
    None
}

fn file(text: &str) -> Layer {
    parse_file(Path::new("/p/.carbon-show.toml"), text).unwrap()
}

fn error(text: &str) -> String {
    parse_file(Path::new("/p/.carbon-show.toml"), text)
        .unwrap_err()
        .to_string()
}

#[test]
fn every_key_is_read_with_its_line() {
    let l = file(
        "mappings = [\"m\", \"/abs\"]\ndata = [\"d\"]\nutilization = \"25%\"\nperiod = \"year\"\n\
         fail-over = \"10kg/month\"\nflavor = \"terraform\"\nalternatives = \"on\"\n\
         max-chars = 1_000_000\nmodule-depth = 2\n[regions]\naws = \"eu-west-1\"\ngcp = \"europe-west1\"\n",
    );
    let m = l.mappings.unwrap();
    assert_eq!(m.value, vec![PathBuf::from("/p/m"), PathBuf::from("/abs")]);
    assert_eq!(m.source.to_string(), "/p/.carbon-show.toml:1");
    assert_eq!(l.data.unwrap().value, vec![PathBuf::from("/p/d")]);
    assert_eq!(l.utilization.unwrap().value, 0.25);
    let p = l.period.unwrap();
    assert_eq!(
        (p.value, p.source.to_string()),
        (Period::Year, "/p/.carbon-show.toml:4".into())
    );
    assert_eq!(l.fail_over.unwrap().value.grams, 10_000.0);
    assert_eq!(l.flavor.unwrap().value, Flavor::Terraform);
    assert!(l.alternatives.unwrap().value);
    assert_eq!(l.max_chars.unwrap().value, 1_000_000);
    assert_eq!(l.module_depth.unwrap().value, 2);
    let aws = &l.regions[&Provider::Aws];
    assert_eq!(
        (aws.value.as_str(), aws.source.to_string()),
        ("eu-west-1", "/p/.carbon-show.toml:11".into())
    );
    assert_eq!(l.regions[&Provider::Gcp].value, "europe-west1");
}

#[test]
fn bad_values_name_their_line() {
    assert_eq!(
        error("period = \"month\"\n\nutilization = 1.5\n"),
        "/p/.carbon-show.toml:3: utilization: 1.5 is outside 0..1 (0 % to 100 %)"
    );
    assert!(
        error("period = \"fortnight\"")
            .starts_with("/p/.carbon-show.toml:1: period: unknown period")
    );
    assert!(
        error("\nfail-over = \"10 bananas\"").starts_with("/p/.carbon-show.toml:2: fail-over:")
    );
    assert!(error("alternatives = \"maybe\"").contains(":1: alternatives: \"maybe\": expected"));
    assert!(error("max-chars = 10").contains(":1: max-chars must be between"));
    assert!(error("\nmodule-depth = -1").contains(":2: module-depth must be between 0 and 100"));
    assert!(error("module-depth = \"1\"").contains(":1: "));
    assert!(
        error("[regions]\nibm = \"x\"")
            .starts_with("/p/.carbon-show.toml:2: unknown provider \"ibm\"")
    );
    assert!(
        error("[regions]\naws = \"mars-north-1\"")
            .starts_with("/p/.carbon-show.toml:2: unknown aws region")
    );
    assert!(error("mappings = [\"\"]").contains(":1: an empty folder name"));
}

#[test]
fn syntax_errors_and_unknown_keys_are_one_line_with_the_line() {
    let e = error("period = \"month\"\nutilisation = 0.5\n");
    assert!(
        e.starts_with("/p/.carbon-show.toml:2: unknown field `utilisation`"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
    let e = error("period = \"month\"\n\nperiod = = 3\n");
    assert!(e.starts_with("/p/.carbon-show.toml:3: "), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    let e = error("utilization = true");
    assert!(e.starts_with("/p/.carbon-show.toml:1: "), "{e}");
    assert!(matches!(
        parse_file(Path::new("x"), "period = 1"),
        Err(Error::Config(_))
    ));
}

#[test]
fn flags_beat_environment_beat_file_beat_defaults() {
    let f =
        file("utilization = 0.1\nperiod = \"year\"\nflavor = \"terraform\"\nmax-chars = 5000\n");
    let env = env_layer(&|k| match k {
        "CARBON_SHOW_UTILIZATION" => Some("20%".into()),
        "CARBON_SHOW_PERIOD" => Some("hour".into()),
        _ => None,
    })
    .unwrap();
    let flags = Layer {
        utilization: Some(Setting::new(0.3, Source::Flag("--utilization"))),
        ..Layer::default()
    };
    let e = Effective::merge(Some("/p/.carbon-show.toml".into()), [flags, env, f]);
    assert_eq!(
        (e.utilization.value, e.utilization.source.to_string()),
        (0.3, "flag --utilization".into())
    );
    assert_eq!(
        (e.period.value, e.period.source.to_string()),
        (Period::Hour, "env CARBON_SHOW_PERIOD".into())
    );
    assert_eq!(
        (e.flavor.value, e.flavor.source.to_string()),
        (Flavor::Terraform, "/p/.carbon-show.toml:3".into())
    );
    assert_eq!(
        (e.max_chars.value, e.max_chars.source.to_string()),
        (5000, "/p/.carbon-show.toml:4".into())
    );
    assert_eq!(
        (e.alternatives.value, e.alternatives.source.clone()),
        (true, Source::Default)
    );
    assert_eq!(e.fail_over.value, None);
}

#[test]
fn regions_merge_per_provider() {
    let f = file("[regions]\naws = \"eu-west-1\"\nazure = \"westeurope\"\n");
    let env = env_layer(&|k| (k == "CARBON_SHOW_REGION_AWS").then(|| "us-east-1".into())).unwrap();
    let e = Effective::merge(None, [Layer::default(), env, f]);
    assert_eq!(e.regions[&Provider::Aws].value, "us-east-1");
    assert_eq!(e.regions[&Provider::Azure].value, "westeurope");
    assert!(!e.regions.contains_key(&Provider::Gcp));
}

#[test]
fn bad_environment_values_name_the_variable() {
    let e = env_layer(&|k| (k == "CARBON_SHOW_PERIOD").then(|| "weekly".into())).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("environment variable CARBON_SHOW_PERIOD: unknown period"),
        "{e}"
    );
    let e = env_layer(&|k| (k == "CARBON_SHOW_MODULE_DEPTH").then(|| "deep".into())).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("environment variable CARBON_SHOW_MODULE_DEPTH: \"deep\": expected"),
        "{e}"
    );
    let d = env_layer(&|k| (k == "CARBON_SHOW_MODULE_DEPTH").then(|| "0".into())).unwrap();
    assert_eq!(d.module_depth.unwrap().value, 0);
    let empty = env_layer(&|_| Some("".into())).unwrap();
    assert_eq!(empty, Layer::default(), "an empty variable counts as unset");
}

#[test]
fn the_file_is_found_upward_and_an_explicit_one_must_exist() {
    let root = std::env::temp_dir().join(format!("carbon-show-config-{}", std::process::id()));
    let deep = root.join("a/b");
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(root.join(FILE_NAME), "period = \"hour\"\n").unwrap();
    let (p, l) = load(None, &no_env, &deep).unwrap();
    assert_eq!(p, Some(root.join(FILE_NAME)));
    assert_eq!(l.period.unwrap().value, Period::Hour);
    let missing = root.join("nope.toml");
    let e = load(Some(&missing), &no_env, &deep).unwrap_err();
    assert!(e.to_string().contains("nope.toml: cannot read"), "{e}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn describe_is_toml_with_sources() {
    let f = file("period = \"year\"\n[regions]\ngcp = \"europe-west1\"\n");
    let e = Effective::merge(
        Some("/p/.carbon-show.toml".into()),
        [Layer::default(), Layer::default(), f],
    );
    let text = e.describe();
    assert!(text.contains("period = \"year\""), "{text}");
    assert!(text.contains("# /p/.carbon-show.toml:1"), "{text}");
    assert!(text.contains("utilization = 0.5"), "{text}");
    // what it prints reads back as a configuration file
    let back = parse_file(Path::new("/p/.carbon-show.toml"), &text).unwrap();
    assert_eq!(back.period.unwrap().value, Period::Year);
    assert_eq!(back.regions[&Provider::Gcp].value, "europe-west1");
    assert_eq!(back.max_chars.unwrap().value, DEFAULT_MAX_CHARS);
    assert_eq!(back.module_depth.unwrap().value, 1);
}

#[test]
fn terraform_version_comes_from_the_file_the_environment_or_a_flag() {
    let f = file("terraform-version = \"1.6.6\"\n");
    let none = env_layer(&|_| None).unwrap();
    let e = Effective::merge(
        Some("/p/.carbon-show.toml".into()),
        [Layer::default(), none.clone(), f.clone()],
    );
    assert_eq!(
        (
            e.terraform_version.value,
            e.terraform_version.source.to_string()
        ),
        (
            crate::structured::Version::parse("1.6.6"),
            "/p/.carbon-show.toml:1".into()
        )
    );
    assert!(
        e.describe()
            .lines()
            .any(|l| l.starts_with("terraform-version = \"1.6.6\"")),
        "{}",
        e.describe()
    );
    let env =
        env_layer(&|k| (k == "CARBON_SHOW_TERRAFORM_VERSION").then(|| "1.8.4".into())).unwrap();
    let e = Effective::merge(None, [Layer::default(), env, f]);
    assert_eq!(
        e.terraform_version.value,
        crate::structured::Version::parse("1.8.4")
    );
    let d = Effective::merge(None, [Layer::default(), none, Layer::default()]);
    assert_eq!(d.terraform_version.value, None, "the document's by default");
    assert!(
        d.describe()
            .contains("# terraform-version = (the document's)")
    );
    assert!(
        error("terraform-version = \"latest\"")
            .contains(":1: terraform-version: \"latest\": expected a version number")
    );
    let bad = env_layer(&|k| (k == "CARBON_SHOW_TERRAFORM_VERSION").then(|| "x".into()));
    assert!(format!("{}", bad.unwrap_err()).contains("CARBON_SHOW_TERRAFORM_VERSION"));
}

#[test]
fn fail_over_per_project_comes_from_the_file_the_environment_and_is_pinned_like_fail_over() {
    let l = file("period = \"month\"\nfail-over-per-project = \"5kg/month\"\n");
    let b = l.fail_over_per_project.clone().unwrap();
    assert_eq!(
        (b.value.grams, b.source.to_string()),
        (5_000.0, "/p/.carbon-show.toml:2".into())
    );
    assert!(
        error("fail-over-per-project = 5").starts_with(
            "/p/.carbon-show.toml:1: fail-over-per-project: a number alone has no unit"
        )
    );
    let env =
        env_layer(&|k| (k == "CARBON_SHOW_FAIL_OVER_PER_PROJECT").then(|| "2kg/month".into()))
            .unwrap();
    let e = Effective::merge(None, [Layer::default(), env, l.clone()]);
    assert_eq!(e.fail_over_per_project.value.unwrap().grams, 2_000.0);
    assert!(
        e.describe()
            .contains("fail-over-per-project = \"2kg/month\"")
    );
    // a pinned gate refuses it from the file, naming how the workflow sets it
    let refused = trust::refuse_pinned(&l).unwrap_err().to_string();
    assert!(
        refused.contains("fail-over-per-project cannot come from a configuration file")
            && refused.contains("CARBON_SHOW_FAIL_OVER_PER_PROJECT"),
        "{refused}"
    );
}

/// `.ci/run` set `CARBON_SHOW_REQUIRE_CMARKGFM` for the tests, and every test that expected a
/// quiet stderr failed in CI on the warning "environment variable … is not one carbon-show
/// reads": every `CARBON_SHOW_*` name that the CI script, the action, the scripts and the CI
/// recipes set must be one carbon-show reads or knows to leave alone.
#[test]
fn a_variable_set_by_ci_run_made_every_quiet_test_warn() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join(".ci/run"), root.join("action.yml")];
    let mut dirs = vec![root.join("scripts"), root.join("docs")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                if !p.ends_with("node_modules") {
                    dirs.push(p);
                }
            } else if matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("sh" | "py" | "md" | "yml" | "yaml" | "mjs")
            ) {
                files.push(p);
            }
        }
    }
    let name = regex::Regex::new(r"CARBON_SHOW_[A-Z0-9_]*[A-Z0-9]").unwrap();
    let mut unknown = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        for m in name.find_iter(&text) {
            let n = m.as_str();
            // `CARBON_SHOW_REGION_` + a provider is spelled out in ENV_VARS
            let known = ENV_VARS.iter().any(|(v, _)| *v == n)
                || OTHER_VARS.contains(&n)
                || n == "CARBON_SHOW_REGION"
                // docs/config.md's example of a misspelt variable, and its error
                || n == "CARBON_SHOW_UTILISATION";
            if !known {
                unknown.push(format!("{}: {n}", f.strip_prefix(root).unwrap().display()));
            }
        }
    }
    unknown.sort();
    unknown.dedup();
    assert!(
        unknown.is_empty(),
        "add these to config::env::OTHER_VARS (or read them): {unknown:#?}"
    );
}
