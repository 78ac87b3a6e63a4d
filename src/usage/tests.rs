//! Unit tests of usage files: parsing (each bad value with its message), applying, the
//! template's round trip, and every usage-dependent type's figure checked by hand.

use super::*;
use crate::carbon::{Settings, assess};
use crate::mapping::{MappedPlan, MappedResource};
use crate::report::Status;

fn err(text: &str) -> String {
    match parse("u.yml", text) {
        Err(crate::error::Error::Config(m)) => m,
        other => panic!("expected a configuration error, got {other:?}"),
    }
}

#[test]
fn a_usage_file_reads_addresses_types_and_nulls() {
    let u = parse(
        "u.yml",
        "version: 0.1\n\
         resource_type_default_usage:\n  aws_s3_bucket:\n    storage_gb: 10\n\
         resource_usage:\n  \"aws_s3_bucket.logs\":\n    storage_gb: 500\n  aws_nat_gateway.main:\n    monthly_data_processed_gb: null\n",
    )
    .unwrap();
    assert_eq!(
        u.by_type["aws_s3_bucket"].values[&Key::StorageGb],
        Some(10.0)
    );
    assert_eq!(
        u.by_address["aws_s3_bucket.logs"].values[&Key::StorageGb],
        Some(500.0)
    );
    assert_eq!(u.by_address["aws_s3_bucket.logs"].line, 6);
    assert_eq!(
        u.by_address["aws_nat_gateway.main"].values[&Key::MonthlyDataProcessedGb],
        None
    );
    assert!(u.warnings.is_empty(), "{:?}", u.warnings);
    // an empty file declares nothing
    assert_eq!(parse("u.yml", "").unwrap().by_address.len(), 0);
}

#[test]
fn bad_values_are_one_line_at_file_and_line() {
    let wrong_type = err("resource_usage:\n  aws_s3_bucket.b:\n    storage_gb: lots\n");
    assert_eq!(
        wrong_type,
        "u.yml:3: \"aws_s3_bucket.b\": storage_gb: expected a number (GB stored, monthly average), not a string"
    );
    let negative = err("resource_usage:\n  aws_s3_bucket.b:\n    storage_gb: -5\n");
    assert_eq!(
        negative,
        "u.yml:3: \"aws_s3_bucket.b\": storage_gb is -5: it cannot be negative (GB stored, monthly average)"
    );
    let over = err("resource_usage:\n  aws_instance.a:\n    utilization_percent: 150\n");
    assert!(
        over.starts_with("u.yml:3: \"aws_instance.a\": utilization_percent is 150, over 100"),
        "{over}"
    );
    let list = err("resource_usage:\n  aws_s3_bucket.b:\n    storage_gb: [1, 2]\n");
    assert!(list.contains("not a list or mapping"), "{list}");
    let infinite = err("resource_usage:\n  aws_s3_bucket.b:\n    storage_gb: .inf\n");
    assert!(
        infinite.starts_with("u.yml:3:") && infinite.contains("non-finite"),
        "{infinite}"
    );
    let syntax = err("resource_usage:\n  a: [\n");
    assert!(syntax.starts_with("u.yml:"), "{syntax}");
    assert!(!syntax.contains('\n'), "{syntax}");
    let shape = err("- 1\n- 2\n");
    assert!(shape.starts_with("u.yml:1: expected a mapping"), "{shape}");
}

#[test]
fn unknown_keys_are_warnings_by_name_and_place() {
    let u = parse(
        "u.yml",
        "verzion: 1\nresource_usage:\n  aws_s3_bucket.b:\n    storage_tb: 5\n    storage_gb: 1\n",
    )
    .unwrap();
    assert_eq!(u.warnings.len(), 2, "{:?}", u.warnings);
    assert!(
        u.warnings[0].starts_with("u.yml:1: unknown key \"verzion\""),
        "{:?}",
        u.warnings
    );
    assert!(
        u.warnings[1]
            .starts_with("u.yml:4: \"aws_s3_bucket.b\": unknown usage key \"storage_tb\" ignored"),
        "{:?}",
        u.warnings
    );
}

/// A YAML bomb (aliases of aliases) stops at the budget with a one-line error, and a usage
/// file over the size limit is refused before it is parsed.
#[test]
fn a_yaml_bomb_and_an_oversized_file_are_refused() {
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..12 {
        let (p, n) = (
            if i == 0 {
                "a".to_string()
            } else {
                format!("b{}", i - 1)
            },
            format!("b{i}"),
        );
        bomb.push_str(&format!(
            "{n}: &{n} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        ));
    }
    let e = err(&bomb);
    assert!(e.starts_with("u.yml:"), "{e}");
    let big = format!("version: 0.1\n#{}\n", "x".repeat(MAX_BYTES));
    assert!(err(&big).contains("over the 1048576-byte limit"));
}

/// A usage file only supplies numbers: a YAML include tag is not followed (no file is read).
#[test]
fn an_include_tag_reads_no_file() {
    let r = parse(
        "u.yml",
        "resource_usage:\n  aws_s3_bucket.b:\n    storage_gb: !include /etc/hostname\n",
    );
    match r {
        Err(crate::error::Error::Config(m)) => assert!(m.starts_with("u.yml:3"), "{m}"),
        Ok(u) => panic!("an include was accepted: {u:?}"),
        Err(e) => panic!("{e:?}"),
    }
}

fn resource(address: &str, provider: &str, region: &str) -> MappedResource {
    let t = address.split('.').next().unwrap();
    MappedResource {
        address: address.into(),
        body: std::sync::Arc::new(crate::mapping::Body {
            resource_type: t.into(),
            provider: provider.into(),
            region: Some(region.into()),
            count: 1,
            replication_factor: 1,
            warnings: vec![r#"validator: "unsupported: the amount is not in the plan""#.into()],
            ..Default::default()
        }),
    }
}

fn total_g_per_hour(m: MappedResource, usage: Option<&Usage>) -> (Status, f64) {
    let mut plan = MappedPlan {
        after: vec![m],
        ..MappedPlan::default()
    };
    apply(usage, &mut plan);
    let r = assess(&[], &plan, Settings::default()).report;
    let res = &r.resources[0];
    let g = res.after.as_ref().map_or(0.0, |s| s.per_hour.total_gco2eq);
    (res.status.clone(), g)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// Every storage and networking type of data/usage.json, priced from a usage file and
/// checked against CCF's arithmetic written out here: storage GB ÷ 1000 × replication ×
/// W/TB (HDD 0.65, SSD 1.2), networking GB × 0.001 kWh/GB ÷ 730 h; ÷ 1000 × PUE × grid; no
/// embodied emissions (CCF counts none for storage or networking).
#[test]
fn every_storage_and_network_type_by_hand() {
    // (provider, region, PUE, grid gCO2eq/kWh) — data/coefficients.json, data/grid_intensity.json
    let places = [
        ("aws_", "aws", "us-east-1", 1.135, 379.069),
        ("google_", "gcp", "us-east1", 1.1, 434.0),
        ("azurerm_", "azure", "eastus", 1.185, 379.069),
    ];
    let mut checked = 0;
    for (t, u) in types() {
        let (_, provider, region, pue, grid) = *places
            .iter()
            .find(|p| t.starts_with(p.0))
            .expect("a known provider");
        let address = format!("{t}.x");
        let text = match u.kind {
            Kind::Storage { .. } => {
                format!("resource_usage:\n  {address}:\n    storage_gb: 2500\n")
            }
            Kind::Network => {
                format!("resource_usage:\n  {address}:\n    monthly_data_processed_gb: 7300\n")
            }
            Kind::Invocations => continue,
        };
        let usage = parse("carbon-usage.yml", &text).unwrap();
        let (status, g) = total_g_per_hour(resource(&address, provider, region), Some(&usage));
        let it_w = match u.kind {
            Kind::Storage { ssd, replication } => {
                2.5 * f64::from(replication) * if ssd { 1.2 } else { 0.65 }
            }
            // 7,300 GB × 0.001 kWh/GB = 7.3 kWh over 730 h = 10 W
            _ => 10.0,
        };
        let want = it_w / 1000.0 * pue * grid;
        assert_eq!(status, Status::Estimated, "{t}");
        assert!(close(g, want), "{t}: {g} g/h, by hand {want}");
        checked += 1;
    }
    assert!(checked >= 27, "{checked}");
}

/// The three worked figures of docs/usage.md, by hand.
#[test]
fn worked_figures_a_bucket_a_nat_gateway_a_function() {
    let usage = parse(
        "carbon-usage.yml",
        "resource_usage:\n  aws_s3_bucket.logs:\n    storage_gb: 500\n  aws_nat_gateway.main:\n    monthly_data_processed_gb: 1000\n",
    )
    .unwrap();
    // bucket: 0.5 TB × 3 copies × 0.65 W/TB = 0.975 W; × 1.135 ÷ 1000 = 0.00110663 kWh/h;
    // × 379.069 g/kWh = 0.419487 g/h; × 730 h = 306.2 g a month
    let (_, g) = total_g_per_hour(
        resource("aws_s3_bucket.logs", "aws", "us-east-1"),
        Some(&usage),
    );
    assert!(close(g, 0.975 * 1.135 / 1000.0 * 379.069), "{g}");
    assert!((g * 730.0 - 306.2).abs() < 0.1, "{}", g * 730.0);
    // NAT gateway: 1,000 GB × 0.001 kWh/GB = 1 kWh a month = 1.36986 W; × 1.135 ÷ 1000 ×
    // 379.069 = 0.589374 g/h; 430.2 g a month
    let (_, g) = total_g_per_hour(
        resource("aws_nat_gateway.main", "aws", "us-east-1"),
        Some(&usage),
    );
    assert!(close(g, 1000.0 / 730.0 / 1000.0 * 1.135 * 379.069), "{g}");
    assert!((g * 730.0 - 430.24).abs() < 0.01, "{}", g * 730.0);
    // function: 1,769 MB (1 vCPU) × 2,000,000 requests × 120 ms = 240,000 s = 66.667 h of
    // 730: share 0.0913242; one vCPU at 50 %: 0.74 + 0.5 × 2.76 = 2.12 W; memory 1769/1024 GiB
    // × 0.392 W = 0.677203 W; 2.797203 W × 1.135 ÷ 1000 × 379.069 = 1.203477 g/h operational,
    // plus the AWS embodied fallback per vCPU-hour; × share
    let mut f = resource("aws_lambda_function.api", "aws", "us-east-1");
    f.vcpus = Some(1.0);
    f.memory_gb = Some(1769.0 / 1024.0);
    f.warnings = vec![
            r#"validator: "assumed: one execution environment busy all hour (invocations are not in the plan)""#.into(),
        ];
    let usage = parse(
        "carbon-usage.yml",
        "resource_usage:\n  aws_lambda_function.api:\n    monthly_requests: 2000000\n    average_duration_ms: 120\n",
    )
    .unwrap();
    let (status, g) = total_g_per_hour(f, Some(&usage));
    assert_eq!(status, Status::Estimated);
    let share = 240_000.0 / (730.0 * 3600.0);
    let embodied =
        crate::data::embodied_fallback_per_vcpu_hour(crate::data::Provider::Aws).unwrap() * 1000.0;
    let operational = (2.12 + 1769.0 / 1024.0 * 0.392) * 1.135 / 1000.0 * 379.069;
    assert!(
        close(g, share * (operational + embodied)),
        "{g} vs {}",
        share * (operational + embodied)
    );
}

/// Without usage, a usage-dependent resource stays unsupported and its reason names its keys
/// and the template command; a null value is no usage.
#[test]
fn without_usage_the_reason_names_the_keys_and_the_template() {
    for usage in [
        None,
        Some(
            parse(
                "u.yml",
                "resource_usage:\n  aws_s3_bucket.b:\n    storage_gb: null\n",
            )
            .unwrap(),
        ),
    ] {
        let (status, g) = total_g_per_hour(
            resource("aws_s3_bucket.b", "aws", "us-east-1"),
            usage.as_ref(),
        );
        assert_eq!(g, 0.0);
        match status {
            Status::Unsupported { reason } => {
                assert_eq!(
                    reason,
                    "needs storage_gb in carbon-usage.yml (carbon-show usage template)"
                );
            }
            other => panic!("{other:?}"),
        }
    }
}

/// A type default applies under an address's own value; `name[*]` covers every instance; an
/// address or type that matches nothing, and a key a type does not take, are warned about.
#[test]
fn defaults_wildcards_and_warnings() {
    let usage = parse(
        "u.yml",
        "resource_type_default_usage:\n  aws_s3_bucket:\n    storage_gb: 100\n  aws_efs_file_system:\n    storage_gb: 1\n\
         resource_usage:\n  aws_s3_bucket.a:\n    storage_gb: 1000\n  aws_s3_bucket.c[*]:\n    storage_gb: 10\n  aws_s3_bucket.gone:\n    storage_gb: 1\n  aws_nat_gateway.n:\n    storage_gb: 5\n",
    )
    .unwrap();
    let mut plan = MappedPlan {
        after: vec![
            resource("aws_s3_bucket.a", "aws", "us-east-1"),
            resource("aws_s3_bucket.b", "aws", "us-east-1"),
            resource("aws_s3_bucket.c[0]", "aws", "us-east-1"),
            resource("aws_nat_gateway.n", "aws", "us-east-1"),
        ],
        ..MappedPlan::default()
    };
    let warnings = apply(Some(&usage), &mut plan);
    let gb = |i: usize| plan.after[i].storage.first().map(|s| s.size_gb);
    assert_eq!(
        (gb(0), gb(1), gb(2)),
        (Some(1000.0), Some(100.0), Some(10.0))
    );
    let origin = |i: usize| plan.after[i].usage.as_ref().unwrap().inputs[0].origin;
    assert_eq!(
        (origin(0), origin(1)),
        (Origin::Address, Origin::TypeDefault)
    );
    assert!(plan.after[3].usage.is_none());
    let joined = warnings.join("\n");
    assert!(
        joined.contains(
            "u.yml:11: resource_usage \"aws_s3_bucket.gone\" matches no resource of the plan"
        ),
        "{joined}"
    );
    assert!(joined.contains("u.yml:4: resource_type_default_usage \"aws_efs_file_system\" matches no resource of the plan"), "{joined}");
    assert!(joined.contains("u.yml:13: \"aws_nat_gateway.n\": storage_gb does not apply to aws_nat_gateway (it takes monthly_data_processed_gb"), "{joined}");
    assert_eq!(warnings.len(), 3, "{joined}");
}

/// monthly_hours scales a running resource by hours ÷ 730, utilization_percent replaces the
/// setting for it alone.
#[test]
fn monthly_hours_and_utilization_apply_to_any_resource() {
    let mut vm = resource("aws_instance.dev", "aws", "us-east-1");
    vm.vcpus = Some(2.0);
    vm.memory_gb = Some(8.0);
    vm.warnings = vec![];
    let (_, full) = total_g_per_hour(vm.clone(), None);
    let usage = parse(
        "u.yml",
        "resource_usage:\n  aws_instance.dev:\n    monthly_hours: 219\n",
    )
    .unwrap();
    let (_, part) = total_g_per_hour(vm.clone(), Some(&usage));
    assert!(close(part, full * 219.0 / 730.0), "{part} {full}");
    let usage = parse(
        "u.yml",
        "resource_usage:\n  aws_instance.dev:\n    utilization_percent: 90\n",
    )
    .unwrap();
    let (_, busy) = total_g_per_hour(vm, Some(&usage));
    // 2 vCPU × (0.9 − 0.5) × (3.5 − 0.74) W more: 2.208 W × 1.135 ÷ 1000 × 379.069
    assert!(
        close(busy - full, 2.208 * 1.135 / 1000.0 * 379.069),
        "{busy} {full}"
    );
}

/// Template round trip: a rerun keeps the values already declared (and keys the type does
/// not list), adds the new resources with nulls, and what it writes parses back.
#[test]
fn template_round_trip_keeps_values_and_adds_new_resources() {
    let first = merge(
        &[TemplateEntry {
            address: "aws_s3_bucket.a".into(),
            resource_type: "aws_s3_bucket".into(),
        }],
        None,
    );
    assert!(
        first.contains("  \"aws_s3_bucket.a\":\n    storage_gb: null # GB stored"),
        "{first}"
    );
    let filled = first.replace("storage_gb: null", "storage_gb: 750");
    let filled = filled.replace(
        "resource_type_default_usage: {}",
        "resource_type_default_usage:\n  aws_nat_gateway:\n    monthly_data_processed_gb: 5",
    );
    let existing = parse("u.yml", &filled).unwrap();
    let weird = "module.m[\"a\\\"b\"].aws_nat_gateway.n";
    let second = merge(
        &[
            TemplateEntry {
                address: "aws_s3_bucket.a".into(),
                resource_type: "aws_s3_bucket".into(),
            },
            TemplateEntry {
                address: weird.into(),
                resource_type: "aws_nat_gateway".into(),
            },
        ],
        Some(&existing),
    );
    let back = parse("u.yml", &second).unwrap();
    assert_eq!(
        back.by_address["aws_s3_bucket.a"].values[&Key::StorageGb],
        Some(750.0)
    );
    assert_eq!(
        back.by_address[weird].values[&Key::MonthlyDataProcessedGb],
        None
    );
    assert_eq!(
        back.by_type["aws_nat_gateway"].values[&Key::MonthlyDataProcessedGb],
        Some(5.0)
    );
    assert_eq!(back.by_address.len(), 2);
    // a third run over the second changes nothing
    let third = merge(
        &[TemplateEntry {
            address: "aws_s3_bucket.a".into(),
            resource_type: "aws_s3_bucket".into(),
        }],
        Some(&back),
    );
    assert_eq!(third, second);
}

/// A usage file's name comes from the command line or the configuration: a control
/// character in it is shown escaped in messages and in the figures' "from …", never raw.
#[test]
fn a_control_character_in_the_file_name_is_escaped() {
    let name = "u\u{1b}[31m.yml";
    match parse(name, "resource_usage:\n  a.b:\n    storage_gb: x\n") {
        Err(crate::error::Error::Config(m)) => {
            assert!(!m.contains('\u{1b}'), "{m:?}");
            assert!(m.starts_with("u\\u{1b}[31m.yml:3:"), "{m:?}");
        }
        other => panic!("{other:?}"),
    }
    let u = parse(name, "resource_usage:\n  a.b:\n    storage_gb: 1\n").unwrap();
    assert_eq!(&*u.file, "u\\u{1b}[31m.yml");
}
