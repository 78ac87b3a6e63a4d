//! Unit tests of `carbon`: pricing, assessment, ranges and sources.

use super::*;
use crate::data::{self, Provider};
use crate::mapping::{DiskKind, Storage};
use crate::report::Table;
use lookups::hand_table;
use pricing::Pricing;

/// Prices `m` as `assess` does, with every input kept.
fn price(m: &MappedResource, settings: Settings) -> Result<Pricing, String> {
    pricing::price(&Subject::of(m), settings, Want::Inputs)
}

#[test]
fn mapping_notes_lose_the_validator_wrapper() {
    let n = mapping_note(r#"validator: "assumed: one instance busy all hour""#);
    assert_eq!(n, Some((true, "one instance busy all hour".to_string())));
    let n = mapping_note(r#"validator: "unsupported: size not in the plan""#);
    assert_eq!(
        n,
        Some((false, "unsupported: size not in the plan".to_string()))
    );
    // any other validator failure or warning stays as it is
    assert_eq!(mapping_note(r#"validator: "not a number""#), None);
    assert_eq!(mapping_note("region unknown"), None);
    // an assumption note is not a reason to leave a storage-only resource unestimated
    let disk = MappedResource {
        address: "aws_fsx_lustre_file_system.f".into(),
        body: std::sync::Arc::new(crate::mapping::Body {
            resource_type: "aws_fsx_lustre_file_system".into(),
            provider: "aws".into(),
            region: Some("us-east-1".into()),
            storage: vec![Storage {
                size_gb: 100.0,
                kind: DiskKind::Ssd,
                key: None,
            }],
            count: 1,
            replication_factor: 1,
            warnings: vec![r#"validator: "assumed: x""#.into()],
            ..Default::default()
        }),
    };
    assert!(price(&disk, Settings::default()).is_ok());
    let mut bucket = disk.clone();
    bucket.storage = vec![];
    bucket.warnings =
        vec![r#"validator: "unsupported: the amount stored is not in the plan""#.into()];
    assert_eq!(
        price(&bucket, Settings::default()).err().as_deref(),
        Some("unsupported: the amount stored is not in the plan")
    );
}

/// Issue 16 D: a resource whose mapping says "unsupported: …" (google_storage_bucket in the
/// demo) was counted "not estimated" while the summary said "0 unsupported". It is
/// `unsupported` with the mapping's reason, counted as unsupported, and adds nothing; a
/// missing figure stays "not estimated".
#[test]
fn a_mapping_unsupported_note_makes_the_resource_unsupported_not_not_estimated() {
    let bucket = MappedResource {
        address: "google_storage_bucket.assets".into(),
        body: std::sync::Arc::new(crate::mapping::Body {
            resource_type: "google_storage_bucket".into(),
            provider: "gcp".into(),
            region: Some("europe-west1".into()),
            count: 1,
            replication_factor: 1,
            warnings: vec![
                r#"validator: "unsupported: the amount stored is not in the plan""#.into(),
            ],
            ..Default::default()
        }),
    };
    let mut unknown = m5("aws_instance.odd", Some("us-east-1"));
    unknown.machine_type = Some("zz9.plural".into());
    unknown.vcpus = None;
    unknown.memory_gb = None;
    let plan = MappedPlan {
        after: vec![bucket, unknown, m5("aws_instance.web", Some("us-east-1"))],
        unsupported: vec!["aws_lambda_function.f".into()],
        ..MappedPlan::default()
    };
    let a = assess(
        &[
            change("google_storage_bucket.assets", &["create"]),
            change("aws_instance.odd", &["create"]),
            change("aws_instance.web", &["create"]),
        ],
        &plan,
        Settings::default(),
    );
    let r = &a.report;
    assert_eq!(
        r.resources[0].status,
        Status::Unsupported {
            reason: "the amount stored is not in the plan".into()
        }
    );
    assert!(r.resources[0].after.is_none());
    assert!(matches!(r.resources[1].status, Status::NotEstimated { .. }));
    // one mapped as unsupported + one no mapping covers
    assert_eq!(
        (
            r.counts.estimated,
            r.counts.not_estimated,
            r.counts.unsupported
        ),
        (1, 1, 2)
    );
    let json = serde_json::to_value(&r.resources[0]).unwrap();
    assert_eq!(json["status"], "unsupported");
    assert_eq!(json["reason"], "the amount stored is not in the plan");
}

/// Issue 16 C: a Redshift node's or App Service plan's vCPUs and memory, which the mapping reads
/// from a hand table, were credited to "plan"; the table is now a source of the figure.
#[test]
fn a_shape_read_from_a_hand_table_names_that_table_as_its_source() {
    let mut cluster = m5("aws_redshift_cluster.dw", Some("us-east-1"));
    cluster.resource_type = "aws_redshift_cluster".into();
    cluster.machine_type = Some("dc2.large".into());
    cluster.vcpus = Some(2.0);
    cluster.memory_gb = Some(15.0);
    let p = price(&cluster, Settings::default()).unwrap();
    assert!(
        p.side.sources.contains("aws_redshift_nodes"),
        "{:?}",
        p.side.sources
    );
    let vcpus = p
        .priced
        .as_ref()
        .unwrap()
        .provenance
        .iter()
        .find(|n| n.what == "vcpus")
        .unwrap();
    assert_eq!(vcpus.source, "aws_redshift_nodes");
    assert_eq!(vcpus.detail, "row dc2.large, read by the mapping");
    // Redis: the family and capacity ("Standard C1") name row C1
    assert_eq!(
        hand_table("azurerm_redis_cache", "Standard C1"),
        Some((Table::AzureRedisCacheSizes, "C1".to_string()))
    );
    assert_eq!(hand_table("azurerm_service_plan", "Y1"), None);
    // an EC2 instance keeps its instance table
    let p = price(
        &m5("aws_instance.web", Some("us-east-1")),
        Settings::default(),
    )
    .unwrap();
    assert!(!p.side.sources.iter().any(|s| s == "aws_redshift_nodes"));
}

fn m5(address: &str, region: Option<&str>) -> MappedResource {
    MappedResource {
        address: address.into(),
        body: std::sync::Arc::new(crate::mapping::Body {
            resource_type: "aws_instance".into(),
            provider: "aws".into(),
            region: region.map(Into::into),
            machine_type: Some("m5.large".into()),
            vcpus: Some(2.0),
            memory_gb: Some(8.0),
            storage: vec![Storage {
                size_gb: 100.0,
                kind: DiskKind::Ssd,
                key: None,
            }],
            count: 1,
            replication_factor: 1,
            ..Default::default()
        }),
    }
}

fn change<'a>(address: &'a str, actions: &[&str]) -> Change<'a> {
    // leaked: a few bytes a test
    let actions: Vec<Cow<'static, str>> = actions.iter().map(|s| s.to_string().into()).collect();
    Change {
        address: address.into(),
        resource_type: "aws_instance",
        actions: Vec::leak(actions),
    }
}

#[test]
fn m5_large_in_us_east_1_by_hand() {
    // CCF figures pinned in data/: m5.large (Skylake per CCF's table), us-east-1 379.069 g/kWh,
    // AWS PUE 1.135, memory 0.392 W/GB, SSD 1.2 W/TB; 50 % utilisation.
    let plan = MappedPlan {
        after: vec![m5("aws_instance.web", Some("us-east-1"))],
        ..MappedPlan::default()
    };
    let a = assess(
        &[change("aws_instance.web", &["create"])],
        &plan,
        Settings::default(),
    );
    let r = &a.report.resources[0];
    let side = r.after.as_ref().unwrap();
    let cpu = data::cpu_watts_per_vcpu(
        Provider::Aws,
        &data::instance(Provider::Aws, "m5.large")
            .unwrap()
            .cpu_architectures,
    )
    .unwrap();
    let it_w =
        2.0 * (cpu.min_watts + 0.5 * (cpu.max_watts - cpu.min_watts)) + 8.0 * 0.392 + 0.1 * 1.2;
    let g = it_w / 1000.0 * 1.135 * 379.069;
    assert!(
        (side.per_hour.operational_gco2eq - g).abs() < 1e-9,
        "{side:?}"
    );
    // embodied: CCF's m5 family figure, 0.699 kg per 730 h
    assert!(
        (side.per_hour.embodied_gco2eq * 730.0 - 699.0).abs() < 1.0,
        "{side:?}"
    );
    assert_eq!(a.report.totals.delta_per_hour, side.per_hour);
    assert_eq!(a.after_inputs.len(), 1);
}

#[test]
fn unknown_region_is_estimated_with_the_provider_range_unknown_type_is_not() {
    let mut odd = m5("aws_instance.odd", Some("us-east-1"));
    odd.machine_type = Some("zz.huge".into());
    odd.vcpus = None;
    odd.memory_gb = None;
    odd.storage.clear();
    let mut nowhere = m5("aws_instance.nowhere", None);
    nowhere.warnings.push(REGION_UNKNOWN.into());
    let plan = MappedPlan {
        after: vec![nowhere, odd],
        ..MappedPlan::default()
    };
    let a = assess(
        &[
            change("aws_instance.nowhere", &["create"]),
            change("aws_instance.odd", &["create"]),
        ],
        &plan,
        Settings::default(),
    );
    let [nowhere, odd] = &a.report.resources[..] else {
        panic!("two resources")
    };
    assert_eq!(nowhere.status, Status::Estimated);
    assert_eq!(
        odd.status,
        Status::NotEstimated {
            reason: "unknown machine type \"zz.huge\"".into()
        }
    );
    // central: CCF's unknown-region factor; low and high: the lowest and highest AWS region
    let side = nowhere.after.as_ref().unwrap();
    let fallback = data::grid_fallback(Provider::Aws).unwrap().g_co2eq_per_kwh;
    assert_eq!(side.grid_g_per_kwh, Some(fallback));
    assert_eq!(side.region, None);
    let grids: Vec<f64> = data::regions(Provider::Aws)
        .into_iter()
        .map(|r| {
            data::grid_intensity(Provider::Aws, r)
                .unwrap()
                .g_co2eq_per_kwh
        })
        .collect();
    let (lo, hi) = (
        grids.iter().copied().fold(f64::MAX, f64::min),
        grids.iter().copied().fold(f64::MIN, f64::max),
    );
    let p = &a.after_inputs[0];
    assert_eq!(p.low.grid_g_per_kwh, Some(lo));
    assert_eq!(p.high.grid_g_per_kwh, Some(hi));
    assert!(lo < fallback && fallback < hi);
    let band = side.range_per_hour;
    assert!(band.low.operational_gco2eq < side.per_hour.operational_gco2eq);
    assert!(side.per_hour.operational_gco2eq < band.high.operational_gco2eq);
    // the engine's bare "region unknown" gives way to what was done about it
    assert_eq!(nowhere.warnings.len(), 1, "{:?}", nowhere.warnings);
    assert!(nowhere.warnings[0].starts_with("region unknown: aws average grid intensity used"));
    assert_eq!(a.report.counts.not_estimated, 1);
}

#[test]
fn an_update_to_a_machine_type_known_after_apply_keeps_its_before_figures() {
    let before = m5("aws_instance.grow", Some("us-east-1"));
    let mut after = before.clone();
    after.machine_type = None;
    after.vcpus = None;
    after.memory_gb = None;
    after.warnings = vec!["instance_type known after apply".into()];
    let plan = MappedPlan {
        before: vec![before],
        after: vec![after],
        ..MappedPlan::default()
    };
    let a = assess(
        &[change("aws_instance.grow", &["update"])],
        &plan,
        Settings::default(),
    );
    let r = &a.report.resources[0];
    assert!(matches!(r.status, Status::NotEstimated { .. }), "{r:?}");
    let b = r.before.as_ref().expect("before kept");
    assert!(b.per_hour.total_gco2eq > 0.0);
    assert_eq!(r.after, None);
    assert_eq!(r.delta_per_hour, Figures::default());
    let t = &a.report.totals;
    assert_eq!(t.before_per_hour, b.per_hour);
    assert_eq!(t.after_per_hour, b.per_hour);
    assert_eq!(t.delta_per_hour.total_gco2eq, 0.0);
    assert_eq!(a.before_inputs.len(), 1);
    assert!(a.after_inputs.is_empty());
}

#[test]
fn sources_name_every_table_used_and_the_band_brackets_the_centre() {
    let plan = MappedPlan {
        after: vec![m5("aws_instance.web", Some("us-east-1"))],
        ..MappedPlan::default()
    };
    let a = assess(
        &[change("aws_instance.web", &["create"])],
        &plan,
        Settings::default(),
    );
    let side = a.report.resources[0].after.as_ref().unwrap();
    assert_eq!(
        side.sources.to_vec(),
        [
            "aws_instances",
            "coefficients",
            "embodied",
            "grid_intensity",
            // the host platform the embodied share is taken of (data/hosts.json)
            "hosts"
        ]
    );
    let (lo, c, hi) = (
        side.range_per_hour.low,
        side.per_hour,
        side.range_per_hour.high,
    );
    assert!(lo.total_gco2eq < c.total_gco2eq && c.total_gco2eq < hi.total_gco2eq);
    // a known region: the grid does not spread; embodied spans its sourced methods (m5: CCF's
    // host total at the centre and top, Boavizta's component factors at the bottom)
    let p = &a.after_inputs[0];
    assert_eq!(p.low.grid_g_per_kwh, p.coefficients.grid_g_per_kwh);
    assert!(lo.embodied_gco2eq < c.embodied_gco2eq, "{lo:?} {c:?}");
    assert!(c.embodied_gco2eq <= hi.embodied_gco2eq, "{c:?} {hi:?}");
    // every source id is a table with its .source.json
    for id in side.sources.iter() {
        assert!(
            data::json_file(&format!("{id}.source.json")).is_some(),
            "{id}"
        );
    }
}

#[test]
fn replicas_and_count_multiply_once_and_delete_saves() {
    let mut db = m5("aws_db_instance.db", Some("eu-west-1"));
    db.count = 3;
    db.replication_factor = 2;
    let single = m5("aws_db_instance.db", Some("eu-west-1"));
    let plan = MappedPlan {
        before: vec![single.clone()],
        after: vec![db],
        ..MappedPlan::default()
    };
    let a = assess(
        &[change("aws_db_instance.db", &["update"])],
        &plan,
        Settings::default(),
    );
    let r = &a.report.resources[0];
    let (b, af) = (r.before.as_ref().unwrap(), r.after.as_ref().unwrap());
    assert_eq!(af.instances, 6.0);
    assert!((af.per_hour.total_gco2eq - 6.0 * b.per_hour.total_gco2eq).abs() < 1e-9);
    assert!((r.delta_per_hour.total_gco2eq - 5.0 * b.per_hour.total_gco2eq).abs() < 1e-9);

    let gone = MappedPlan {
        before: vec![single],
        ..MappedPlan::default()
    };
    let d = assess(
        &[change("aws_db_instance.db", &["delete"])],
        &gone,
        Settings::default(),
    );
    assert!(d.report.totals.delta_per_hour.total_gco2eq < 0.0);
    assert!(
        crate::render::carbon::annotation(&d.report.resources[0], Period::Month)[0]
            .starts_with("≈ -"),
        "a delete saves"
    );
}

#[test]
fn forget_changes_nothing() {
    let m = m5("aws_instance.kept", Some("us-east-1"));
    let plan = MappedPlan {
        before: vec![m],
        ..MappedPlan::default()
    };
    let a = assess(
        &[change("aws_instance.kept", &["forget"])],
        &plan,
        Settings::default(),
    );
    assert_eq!(a.report.totals.delta_per_hour.total_gco2eq, 0.0);
    assert!(a.report.totals.after_per_hour.total_gco2eq > 0.0);
}

#[test]
fn state_document_resources_are_unchanged_not_added() {
    // a state document: the mapping engine reads `values` as the after side only
    let plan = MappedPlan {
        after: vec![m5("aws_instance.web", Some("us-east-1"))],
        ..MappedPlan::default()
    };
    let a = assess(&[], &plan, Settings::default());
    let r = &a.report.resources[0];
    assert_eq!(r.actions[..], [Text::from("no-op")]);
    assert_eq!(r.before, r.after);
    assert!(r.after.is_some());
    assert_eq!(r.delta_per_hour.total_gco2eq, 0.0);
    assert_eq!(a.report.totals.delta_per_hour.total_gco2eq, 0.0);
    assert_eq!(
        a.report.totals.before_per_hour,
        a.report.totals.after_per_hour
    );
    assert!(a.report.totals.after_per_hour.total_gco2eq > 0.0);
    // a no-op change whose prior state is missing is unchanged too
    let b = assess(
        &[change("aws_instance.web", &["no-op"])],
        &plan,
        Settings::default(),
    );
    assert_eq!(b.report.totals.delta_per_hour.total_gco2eq, 0.0);
}

#[test]
fn unmapped_gpu_is_a_warning_not_zero_silently() {
    let mut g = m5("google_compute_instance.g", Some("us-central1"));
    g.provider = "gcp".into();
    g.machine_type = Some("g2-standard-4".into());
    // A model no table knows (a plan's guest_accelerator can name anything).
    g.gpus = vec!["acme-x1".into()];
    let plan = MappedPlan {
        after: vec![g],
        ..MappedPlan::default()
    };
    let a = assess(
        &[change("google_compute_instance.g", &["create"])],
        &plan,
        Settings::default(),
    );
    let r = &a.report.resources[0];
    assert_eq!(r.status, Status::Estimated);
    assert!(
        r.warnings.iter().any(|w| w.contains("acme-x1")),
        "{:?}",
        r.warnings
    );
}

/// One VM of a table type, everything else from the tables.
fn vm(provider: &str, machine_type: &str, region: &str) -> MappedResource {
    MappedResource {
        address: format!("vm.{machine_type}"),
        body: std::sync::Arc::new(crate::mapping::Body {
            resource_type: "vm".into(),
            provider: provider.into(),
            region: Some(region.into()),
            machine_type: Some(machine_type.into()),
            count: 1,
            replication_factor: 1,
            ..Default::default()
        }),
    }
}

fn per_hour(m: MappedResource, settings: Settings) -> (Figures, Vec<String>, Vec<String>) {
    let address = m.address.clone();
    let plan = MappedPlan {
        after: vec![m],
        ..MappedPlan::default()
    };
    let a = assess(&[change(&address, &["create"])], &plan, settings);
    let r = &a.report.resources[0];
    assert_eq!(r.status, Status::Estimated, "{address}: {r:?}");
    (
        r.after.as_ref().unwrap().per_hour,
        r.warnings.clone(),
        r.assumptions.clone(),
    )
}

/// Issue 16: CCF's rule charged a burstable family's largest size (t3.2xlarge, 8 vCPU) as a
/// whole server, so a t3.medium cost 14.2 g/h against 4.43 for an m5.large. By host, each
/// burstable 2-vCPU type costs no more per hour than the general-purpose 2-vCPU type of the
/// same generation in the same region, at the default settings and at any one utilisation.
#[test]
fn burstable_types_cost_no_more_than_general_purpose_of_the_same_generation() {
    let pairs = [
        ("aws", "t3.medium", "m5.large", "us-east-1"),
        ("aws", "t3a.medium", "m5a.large", "us-east-1"),
        ("aws", "t4g.medium", "m6g.large", "eu-west-1"),
        ("aws", "t2.medium", "m4.large", "us-east-1"),
        ("gcp", "e2-medium", "n2-standard-2", "us-central1"),
        ("gcp", "e2-small", "n2-standard-2", "europe-west1"),
        ("azure", "Standard_B2s_v2", "Standard_D2s_v5", "westeurope"),
        ("azure", "Standard_B2s", "Standard_D2s_v3", "eastus"),
        ("azure", "Standard_B2s", "Standard_D2s_v5", "eastus"),
    ];
    let explicit = Settings {
        utilization: 0.5,
        utilization_given: true,
        ..Settings::default()
    };
    for (provider, burst, general, region) in pairs {
        for settings in [Settings::default(), explicit] {
            let (b, _, _) = per_hour(vm(provider, burst, region), settings);
            let (g, _, _) = per_hour(vm(provider, general, region), settings);
            assert!(
                b.total_gco2eq <= g.total_gco2eq + 1e-12,
                "{burst} {b:?} > {general} {g:?} ({settings:?})"
            );
            // Same platform, same host: never a larger embodied share for the same vCPUs
            // (B-series v1 runs on the older Dsv3 host, so only its total is compared to v5).
            if !(burst == "Standard_B2s" && general == "Standard_D2s_v5") {
                assert!(
                    b.embodied_gco2eq <= g.embodied_gco2eq + 1e-12,
                    "{burst} {b:?} vs {general} {g:?}"
                );
            }
        }
    }
    // The t3.medium and m5.large share the M5 host: the same CPU and chassis share (2 of 96
    // vCPUs), memory by GB (4 and 8 GiB); CCF's m5 total 1,610.3792 kg less its 384 GB at
    // 1.3869 kg/GB is the CPU and chassis, 1,077.8096 kg.
    let (t3, _, _) = per_hour(vm("aws", "t3.medium", "us-east-1"), Settings::default());
    let (m5, _, _) = per_hour(vm("aws", "m5.large", "us-east-1"), Settings::default());
    let chassis = 1610.3792 - 384.0 * 1.3869;
    let by_hand = |gb: f64| (chassis * 2.0 / 96.0 + gb * 1.3869) * 1000.0 / 35040.0;
    assert!((t3.embodied_gco2eq - by_hand(4.0)).abs() < 1e-5, "{t3:?}");
    assert!((m5.embodied_gco2eq - by_hand(8.0)).abs() < 1e-5, "{m5:?}");
    // m5.large holds the host's own 4 GB per vCPU: its share is CCF's vCPU share, to the gram
    assert!((m5.embodied_gco2eq - 1610.3792 * 1000.0 / 35040.0 * 2.0 / 96.0).abs() < 1e-5);
    assert!(t3.embodied_gco2eq < m5.embodied_gco2eq);
}

#[test]
fn a_burstable_type_runs_at_its_published_baseline_unless_utilization_is_given() {
    let (base, _, assumed) = per_hour(vm("aws", "t3.medium", "us-east-1"), Settings::default());
    assert!(
        assumed
            .iter()
            .any(|a| a.contains("CPU utilisation 20 %") && a.contains("t3.medium")),
        "{assumed:?}"
    );
    // 2 vCPU at 20 % of the Skylake/Cascade Lake range + 4 GiB, by hand.
    let i = data::instance(Provider::Aws, "t3.medium").unwrap();
    let cpu = data::cpu_watts_per_vcpu(Provider::Aws, &i.cpu_architectures).unwrap();
    let w = 2.0 * cpu.at(0.2) + 4.0 * 0.392;
    assert!((base.power_w - w).abs() < 1e-9, "{base:?} vs {w}");
    let given = Settings {
        utilization: 0.5,
        utilization_given: true,
        ..Settings::default()
    };
    let (at50, _, assumed) = per_hour(vm("aws", "t3.medium", "us-east-1"), given);
    assert!(assumed.is_empty(), "{assumed:?}");
    assert!((at50.power_w - (2.0 * cpu.at(0.5) + 4.0 * 0.392)).abs() < 1e-9);
    // A non-burstable type keeps the setting.
    let (_, _, assumed) = per_hour(vm("aws", "m5.large", "us-east-1"), Settings::default());
    assert!(assumed.is_empty(), "{assumed:?}");
    // The inputs the Impact Framework export reads carry the same utilisation.
    let plan = MappedPlan {
        after: vec![vm("gcp", "e2-micro", "us-central1")],
        ..MappedPlan::default()
    };
    let a = assess(
        &[change("vm.e2-micro", &["create"])],
        &plan,
        Settings::default(),
    );
    assert_eq!(a.after_inputs[0].utilization, 0.125);
}

/// Issue 16: g2 (L4) and a3 (H100) carried "no power figure for GPU … not counted", and
/// Standard_NC24ads_A100_v4 had no GPU at all. Every GPU type of every table is priced
/// with all its GPUs, without that warning.
#[test]
fn no_gpu_type_in_the_tables_leaves_a_gpu_out() {
    let region = |p: Provider| match p {
        Provider::Aws => "us-east-1",
        Provider::Gcp => "us-central1",
        Provider::Azure => "eastus",
    };
    let mut checked = 0;
    for p in Provider::ALL {
        for name in data::instance_types(p) {
            let i = data::instance(p, name).unwrap();
            if i.gpus.is_empty() {
                continue;
            }
            for g in &i.gpus {
                assert!(data::gpu_watts(&g.model).is_some(), "{p} {name}: {g:?}");
            }
            let (f, warnings, _) = per_hour(vm(p.as_str(), name, region(p)), Settings::default());
            assert!(
                !warnings.iter().any(|w| w.contains("GPU")),
                "{p} {name}: {warnings:?}"
            );
            let gpu_min: f64 = i
                .gpus
                .iter()
                .map(|g| g.count * data::gpu_watts(&g.model).unwrap().min_watts)
                .sum();
            assert!(f.power_w > gpu_min, "{p} {name}: {f:?}");
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
    for (p, name, n) in [
        (Provider::Azure, "Standard_NC24ads_A100_v4", 1.0),
        (Provider::Azure, "Standard_NC96ads_A100_v4", 4.0),
        (Provider::Aws, "p5.48xlarge", 8.0),
        (Provider::Aws, "g6.xlarge", 1.0),
        (Provider::Gcp, "a3-highgpu-8g", 8.0),
        (Provider::Gcp, "g2-standard-4", 1.0),
        // 2025 EC2 GPU types (moto): B200, B300, RTX PRO 6000 Server, and an eighth of an L4
        (Provider::Aws, "p6-b200.48xlarge", 8.0),
        (Provider::Aws, "p6-b300.48xlarge", 8.0),
        (Provider::Aws, "g7e.2xlarge", 1.0),
        (Provider::Aws, "g6f.large", 1.0),
    ] {
        assert_eq!(data::instance(p, name).unwrap().gpu_count(), n, "{name}");
    }
}

/// Resources of one type, size and region share one report entry wherever they sit in the
/// plan and whatever their names (the dense and deep benchmark shapes held 50k entries of
/// some 750 bytes each at the run's peak, issue 28), and the report is the one they make
/// priced one by one, alternatives included.
#[test]
fn resources_alike_anywhere_in_the_plan_share_one_entry_and_say_the_same() {
    let named = |address: &str, region: &str| m5(address, Some(region));
    let plan = MappedPlan {
        after: vec![
            named("aws_instance.a", "eu-west-1"),
            named("aws_instance.b", "us-east-1"),
            named("module.m.aws_instance.c", "eu-west-1"),
            named("aws_instance.d", "us-east-1"),
        ],
        ..MappedPlan::default()
    };
    let addresses = [
        "aws_instance.a",
        "aws_instance.b",
        "module.m.aws_instance.c",
        "aws_instance.d",
    ];
    let changes: Vec<Change<'_>> = addresses.iter().map(|a| change(a, &["create"])).collect();
    let order = Order::new(&changes, &plan);
    let shared = assess_order(&order, &plan, Settings::default(), false, true).report;
    // with every input kept, each resource is priced on its own
    let one_by_one = assess_order(&order, &plan, Settings::default(), true, true).report;
    assert_eq!(shared, one_by_one);
    let r = &shared.resources;
    assert_eq!(
        r.iter().map(|r| r.address.as_str()).collect::<Vec<_>>(),
        addresses
    );
    assert!(Arc::ptr_eq(&r[0].entry, &r[2].entry));
    assert!(Arc::ptr_eq(&r[1].entry, &r[3].entry));
    assert!(!Arc::ptr_eq(&r[0].entry, &r[1].entry));
    assert!(!Arc::ptr_eq(
        &one_by_one.resources[0].entry,
        &one_by_one.resources[2].entry
    ));
    // eu-west-1 has a cleaner region in its jurisdiction: the shared entry carries it
    assert!(
        r[2].alternatives
            .iter()
            .any(|a| a.kind == crate::alternatives::AlternativeKind::Region)
    );
    // a different size is a different entry
    let mut bigger = plan.clone();
    bigger.after[2].vcpus = Some(4.0);
    let report = assess_order(&order, &bigger, Settings::default(), false, true).report;
    assert!(!Arc::ptr_eq(
        &report.resources[0].entry,
        &report.resources[2].entry
    ));
}
