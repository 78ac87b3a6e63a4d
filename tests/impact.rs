//! `--format impact-framework`: manifests executed by the real `if-run` (@grnsft/if 1.1.0) agree
//! with carbon-show's own `estimate()` within 0.1 %, leaf by leaf, module by module and in total.
//!
//! if-run is installed by `scripts/impact/install.sh` (npm ci). Without it these tests print a
//! loud notice and pass, unless `CARBON_SHOW_REQUIRE_IF=1` is set (CI sets it), then they fail.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use carbon_show::estimate::{Coefficients, Footprint, Period, estimate};
use carbon_show::render::impact::{ImpactOptions, ImpactRange, ImpactResource, write_manifest};
use serde_json::Value;

/// Agreement required between if-run and estimate(): 0.1 %.
const TOLERANCE: f64 = 1e-3;

/// Each leaf's range ends, as multiples of its central figure (carried through, not computed).
const LOW: f64 = 0.5;
const HIGH: f64 = 2.0;
static SOURCES: [String; 0] = [];

/// One resource of a scenario, owning its figures.
struct Spec {
    address: &'static str,
    resource_type: &'static str,
    footprint: Footprint,
    coefficients: Coefficients,
    instances: f64,
    utilization: f64,
}

struct Scenario {
    name: &'static str,
    period: Period,
    specs: Vec<Spec>,
}

fn aws(grid: Option<f64>, embodied: f64) -> Coefficients {
    Coefficients {
        cpu_min_w: 0.74,
        cpu_max_w: 3.5,
        memory_w_per_gb: 0.392,
        ssd_w_per_tb: 1.2,
        hdd_w_per_tb: 0.65,
        pue: 1.135,
        grid_g_per_kwh: grid,
        embodied_g_per_hour: embodied,
    }
}

fn gcp(grid: Option<f64>, embodied: f64) -> Coefficients {
    Coefficients {
        cpu_min_w: 0.71,
        cpu_max_w: 4.26,
        memory_w_per_gb: 0.392,
        ssd_w_per_tb: 1.2,
        hdd_w_per_tb: 0.65,
        pue: 1.1,
        grid_g_per_kwh: grid,
        embodied_g_per_hour: embodied,
    }
}

fn vm(vcpus: f64, memory_gb: f64) -> Footprint {
    Footprint {
        vcpus,
        memory_gb,
        ..Footprint::default()
    }
}

fn scenarios() -> Vec<Scenario> {
    vec![
        // Root module only: count-indexed instances, a storage-only volume, a month.
        Scenario {
            name: "flat-count",
            period: Period::Month,
            specs: vec![
                // Hand check of this leaf (see `hand_calculated_leaf`): 2 vCPU, 8 GB, u = 0.5
                Spec {
                    address: "aws_instance.web[0]",
                    resource_type: "aws_instance",
                    footprint: vm(2.0, 8.0),
                    coefficients: aws(Some(379.069), 1.5),
                    instances: 2.0,
                    utilization: 0.5,
                },
                Spec {
                    address: "aws_instance.web[1]",
                    resource_type: "aws_instance",
                    footprint: vm(4.0, 16.0),
                    coefficients: aws(Some(379.069), 3.0),
                    instances: 1.0,
                    utilization: 0.2,
                },
                Spec {
                    address: "aws_ebs_volume.data",
                    resource_type: "aws_ebs_volume",
                    footprint: Footprint {
                        ssd_tb: 0.5,
                        hdd_tb: 2.0,
                        ..Footprint::default()
                    },
                    coefficients: aws(Some(379.069), 0.0),
                    instances: 1.0,
                    utilization: 0.5,
                },
            ],
        },
        // Nested modules with for_each keys holding quotes, dots and brackets; GPUs; an
        // unknown-region resource; a year.
        Scenario {
            name: "nested-gpu",
            period: Period::Year,
            specs: vec![
                Spec {
                    address: r#"module.ml["eu-west-1"].module.train.aws_instance.gpu["p3.8xlarge"]"#,
                    resource_type: "aws_instance",
                    footprint: Footprint {
                        vcpus: 32.0,
                        memory_gb: 244.0,
                        ssd_tb: 0.2,
                        gpus: vec![(35.0, 306.0), (35.0, 306.0), (8.0, 71.0), (8.0, 71.0)],
                        ..Footprint::default()
                    },
                    coefficients: aws(Some(316.0), 42.5),
                    instances: 3.0,
                    utilization: 0.75,
                },
                Spec {
                    address: r#"module.ml["eu-west-1"].aws_s3_bucket.models["it's \"v2\""]"#,
                    resource_type: "aws_s3_bucket",
                    footprint: Footprint {
                        ssd_tb: 1.5,
                        ..Footprint::default()
                    },
                    coefficients: aws(Some(316.0), 0.25),
                    instances: 2.0,
                    utilization: 0.5,
                },
                Spec {
                    address: r#"module.ml["us-east-1"].module.train.aws_instance.gpu["g4dn.xlarge"]"#,
                    resource_type: "aws_instance",
                    footprint: Footprint {
                        vcpus: 4.0,
                        memory_gb: 16.0,
                        gpus: vec![(8.0, 71.0)],
                        ..Footprint::default()
                    },
                    coefficients: aws(Some(379.069), 5.0),
                    instances: 1.0,
                    utilization: 0.3,
                },
                Spec {
                    address: "module.edge.google_compute_instance.cache",
                    resource_type: "google_compute_instance",
                    footprint: vm(2.0, 4.0),
                    coefficients: gcp(None, 0.9),
                    instances: 4.0,
                    utilization: 0.5,
                },
            ],
        },
        // An hour: utilisation at both ends and clamped, replicas, a zero-footprint resource.
        Scenario {
            name: "hourly-edges",
            period: Period::Hour,
            specs: vec![
                Spec {
                    address: "google_compute_instance.idle",
                    resource_type: "google_compute_instance",
                    footprint: vm(8.0, 32.0),
                    coefficients: gcp(Some(57.0), 2.0),
                    instances: 1.0,
                    utilization: 0.0,
                },
                Spec {
                    address: "module.db.google_sql_database_instance.main",
                    resource_type: "google_sql_database_instance",
                    footprint: Footprint {
                        vcpus: 4.0,
                        memory_gb: 15.0,
                        ssd_tb: 0.1,
                        ..Footprint::default()
                    },
                    coefficients: gcp(Some(57.0), 1.25),
                    instances: 3.0,
                    utilization: 1.7, // clamped to 1, as estimate() does
                },
                Spec {
                    address: "module.db.google_compute_network.vpc",
                    resource_type: "google_compute_network",
                    footprint: Footprint::default(),
                    coefficients: gcp(Some(57.0), 0.0),
                    instances: 1.0,
                    utilization: 0.5,
                },
                Spec {
                    address: "module.db.module.replica.google_compute_instance.ro[2]",
                    resource_type: "google_compute_instance",
                    footprint: vm(2.0, 8.0),
                    coefficients: gcp(Some(57.0), 0.5),
                    instances: 1.0,
                    utilization: 1.0,
                },
            ],
        },
    ]
}

fn resources(s: &Scenario) -> Vec<ImpactResource<'_>> {
    s.specs
        .iter()
        .map(|spec| ImpactResource {
            address: spec.address,
            module_path: ImpactResource::module_path_of(spec.address),
            resource_type: spec.resource_type,
            footprint: &spec.footprint,
            coefficients: &spec.coefficients,
            instances: spec.instances,
            utilization: spec.utilization,
            range: Some(ImpactRange {
                low_g_per_hour: expected(spec, Period::Hour).0 * LOW,
                high_g_per_hour: expected(spec, Period::Hour).0 * HIGH,
                sources: &SOURCES,
            }),
        })
        .collect()
}

/// carbon-show's figures for one resource over the period: (carbon g, energy kWh).
fn expected(spec: &Spec, period: Period) -> (f64, f64) {
    let e = estimate(&spec.footprint, &spec.coefficients, spec.utilization);
    let scale = spec.instances * period.hours();
    (e.total_g() * scale, e.energy_kwh * scale)
}

fn if_run() -> Option<PathBuf> {
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/impact/node_modules/.bin/if-run");
    if bin.exists() {
        return Some(bin);
    }
    let notice = format!(
        "\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n\
         !! if-run is NOT installed ({}):\n\
         !! the Impact Framework manifests were NOT executed. Install it with\n\
         !!     bash scripts/impact/install.sh\n\
         !! (CI sets CARBON_SHOW_REQUIRE_IF=1, which turns this notice into a failure.)\n\
         !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n",
        bin.display()
    );
    // once per test binary, however many tests ask
    static NOTICE: std::sync::Once = std::sync::Once::new();
    NOTICE.call_once(|| crate::common::loud(&notice));
    if std::env::var("CARBON_SHOW_REQUIRE_IF").as_deref() == Ok("1") {
        panic!("CARBON_SHOW_REQUIRE_IF=1 but if-run is missing{notice}");
    }
    None
}

/// A number from if-run's YAML, whichever way js-yaml wrote it.
fn num(v: &Value, what: &str) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap(),
        Value::String(s) => s
            .parse()
            .unwrap_or_else(|_| panic!("{what}: {s:?} is not a number")),
        other => panic!("{what}: expected a number, found {other}"),
    }
}

fn rel_err(actual: f64, expected: f64) -> f64 {
    if expected == 0.0 {
        actual.abs()
    } else {
        ((actual - expected) / expected).abs()
    }
}

/// Runs if-run on every scenario's manifest (concurrently) and returns the parsed outputs.
fn run_all(bin: &Path, scenarios: &[Scenario]) -> Vec<Value> {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("carbon-show-impact-{}-{run}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cwd = bin.parent().unwrap().parent().unwrap().parent().unwrap(); // scripts/impact
    let jobs: Vec<(PathBuf, PathBuf)> = scenarios
        .iter()
        .map(|s| {
            let manifest = dir.join(format!("{}.yml", s.name));
            let mut text = Vec::new();
            let opts = ImpactOptions::new(s.name, s.period);
            write_manifest(&resources(s), &opts, &mut text).unwrap();
            std::fs::write(&manifest, text).unwrap();
            // if-run 1.1.0 replaces the output's extension with `.yaml`: give it that already.
            (manifest, dir.join(format!("{}-out.yaml", s.name)))
        })
        .collect();
    let outputs = std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .iter()
            .map(|(manifest, output)| {
                scope.spawn(move || {
                    let run = Command::new(bin)
                        .arg("--manifest")
                        .arg(manifest)
                        .arg("--output")
                        .arg(output)
                        .current_dir(cwd)
                        .output()
                        .expect("if-run starts");
                    let log = format!(
                        "{}{}",
                        String::from_utf8_lossy(&run.stdout),
                        String::from_utf8_lossy(&run.stderr)
                    );
                    assert!(
                        run.status.success(),
                        "if-run {}: {}\n{log}",
                        manifest.display(),
                        run.status
                    );
                    let text = std::fs::read_to_string(output)
                        .unwrap_or_else(|e| panic!("{}: {e}\n{log}", output.display()));
                    let v: Value = serde_saphyr::from_str(&text).unwrap_or_else(|e| {
                        panic!("{}: not YAML we can read: {e}", output.display())
                    });
                    // if-run exits 0 even when it fails: the status is in the output.
                    assert_eq!(
                        v["execution"]["status"],
                        "success",
                        "{}: {}\n{log}",
                        manifest.display(),
                        v["execution"]["error"]
                    );
                    v
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let _ = std::fs::remove_dir_all(&dir);
    outputs
}

/// Walks to a node by its keys under `tree`.
fn node<'v>(tree: &'v Value, keys: &[&str]) -> &'v Value {
    keys.iter().fold(tree, |n, k| {
        let child = &n["children"][*k];
        assert!(
            !child.is_null(),
            "no child {k:?} in {:?}",
            n["children"]
                .as_object()
                .map(|m| m.keys().collect::<Vec<_>>())
        );
        child
    })
}

#[test]
fn if_run_reproduces_estimate_for_every_leaf_module_and_total() {
    let Some(bin) = if_run() else { return };
    let scenarios = scenarios();
    let outputs = run_all(&bin, &scenarios);
    let mut worst: f64 = 0.0;
    for (s, out) in scenarios.iter().zip(&outputs) {
        let tree = &out["tree"];
        let mut total = (0.0, 0.0);
        // Module path (as keys) → expected (carbon, energy) of everything beneath it.
        let mut modules: BTreeMap<Vec<&str>, (f64, f64)> = BTreeMap::new();
        for spec in &s.specs {
            let (carbon, energy) = expected(spec, s.period);
            total.0 += carbon;
            total.1 += energy;
            let path = ImpactResource::module_path_of(spec.address);
            for depth in 1..=path.len() {
                let m = modules.entry(path[..depth].to_vec()).or_default();
                m.0 += carbon;
                m.1 += energy;
            }
            let mut keys = path.clone();
            keys.push(spec.address);
            let leaf = node(tree, &keys);
            // the range ends travel through if-run untouched
            for (field, value) in [("carbon-low", carbon * LOW), ("carbon-high", carbon * HIGH)] {
                let got = num(&leaf["outputs"][0][field], field);
                assert!(
                    rel_err(got, value) <= TOLERANCE,
                    "{} {}: {field} {got} vs {value}",
                    s.name,
                    spec.address
                );
            }
            for (field, value) in [("carbon", carbon), ("energy", energy)] {
                let got = num(&leaf["outputs"][0][field], field);
                let agg = num(&leaf["aggregated"][field], field);
                let err = rel_err(got, value).max(rel_err(agg, value));
                worst = worst.max(err);
                assert!(
                    err <= TOLERANCE,
                    "{} {}: {field} if-run {got} vs estimate {value}",
                    s.name,
                    spec.address
                );
            }
        }
        for (path, (carbon, energy)) in &modules {
            let m = node(tree, path);
            for (field, value) in [("carbon", *carbon), ("energy", *energy)] {
                let got = num(&m["aggregated"][field], field);
                let err = rel_err(got, value);
                worst = worst.max(err);
                assert!(
                    err <= TOLERANCE,
                    "{} {path:?}: {field} if-run {got} vs estimate {value}",
                    s.name
                );
            }
        }
        for (field, value) in [("carbon", total.0), ("energy", total.1)] {
            let got = num(&tree["aggregated"][field], field);
            let err = rel_err(got, value);
            worst = worst.max(err);
            assert!(
                err <= TOLERANCE,
                "{} total {field}: if-run {got} vs estimate {value}",
                s.name
            );
            assert!(value > 0.0, "{}: a scenario with nothing to check", s.name);
        }
    }
    eprintln!(
        "impact: if-run vs estimate(): max relative error {worst:e} over {} scenarios",
        scenarios.len()
    );

    // One leaf by hand (scenario flat-count, aws_instance.web[0], 2 instances, a 730 h month):
    //   CPU    2 vCPU × (0.74 + 0.5 × (3.5 − 0.74)) W = 2 × 2.12 = 4.24 W
    //   memory 8 GB × 0.392 W/GB                       = 3.136 W
    //   IT power 7.376 W → 0.007376 kW × PUE 1.135     = 0.00837176 kWh per hour
    //   operational 0.00837176 kWh × 379.069 g/kWh     = 3.17347469 g per hour
    //   + embodied 1.5 g/h                             = 4.67347469 g per instance-hour
    //   × 2 instances × 730 h                          = 6823.27 gCO2eq (energy 12.2228 kWh)
    let web0 = node(&outputs[0]["tree"], &["aws_instance.web[0]"]);
    let carbon = num(&web0["outputs"][0]["carbon"], "carbon");
    let energy = num(&web0["outputs"][0]["energy"], "energy");
    assert!(
        rel_err(carbon, 6823.27) <= TOLERANCE,
        "hand check: carbon {carbon}"
    );
    assert!(
        rel_err(energy, 12.2228) <= TOLERANCE,
        "hand check: energy {energy}"
    );
    // The unknown-region cache has energy but no operational carbon: only embodied 0.9 g/h.
    let cache = node(
        &outputs[1]["tree"],
        &["module.edge", "module.edge.google_compute_instance.cache"],
    );
    assert_eq!(
        num(
            &cache["outputs"][0]["carbon-operational"],
            "carbon-operational"
        ),
        0.0
    );
    assert!(num(&cache["outputs"][0]["energy"], "energy") > 0.0);
    assert!(
        rel_err(
            num(&cache["outputs"][0]["carbon"], "carbon"),
            0.9 * 4.0 * 8760.0
        ) <= TOLERANCE
    );
}

#[test]
fn an_empty_plan_runs_clean() {
    let Some(bin) = if_run() else { return };
    let empty = Scenario {
        name: "empty-plan",
        period: Period::Month,
        specs: vec![],
    };
    let out = run_all(&bin, std::slice::from_ref(&empty));
    assert!(
        out[0]["tree"]["children"]
            .as_object()
            .is_some_and(|c| c.is_empty())
    );
}

/// if-run on a manifest path, in if-run's folder: its output, parsed, after checking success.
fn if_run_file(bin: &Path, manifest: &Path) -> Value {
    let cwd = bin.parent().unwrap().parent().unwrap().parent().unwrap(); // scripts/impact
    let output = manifest.with_extension("out.yaml");
    let run = Command::new(bin)
        .arg("--manifest")
        .arg(manifest)
        .arg("--output")
        .arg(&output)
        .current_dir(cwd)
        .output()
        .expect("if-run starts");
    let log = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success(), "if-run {}: {log}", manifest.display());
    let v: Value = serde_saphyr::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();
    assert_eq!(v["execution"]["status"], "success", "{log}");
    v
}

/// Several projects: one manifest with a child node per project, which if-run recomputes:
/// each project's node adds up to its plan's manifest alone, the root to their sum.
#[test]
fn if_run_recomputes_a_multi_project_manifest_per_project_and_in_total() {
    let Some(bin) = if_run() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!(
        "carbon-show-impact-projects-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = |name: &str, inputs: &[&str]| {
        let o = crate::common::bin()
            .current_dir(root)
            .args(["--format", "impact-framework"])
            .args(inputs)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let path = dir.join(format!("{name}.yml"));
        std::fs::write(&path, &o.stdout).unwrap();
        if_run_file(&bin, &path)
    };
    let (a, b) = ("testdata/carbon/create.json", "testdata/carbon/mixed.json");
    let both = manifest("both", &[&format!("app={a}"), &format!("db={b}")]);
    let mut sum = 0.0;
    for (name, file) in [("app", a), ("db", b)] {
        let alone = manifest(name, &[file]);
        let want = num(&alone["tree"]["aggregated"]["carbon"], "carbon");
        let got = num(
            &node(&both["tree"], &[name])["aggregated"]["carbon"],
            "carbon",
        );
        assert!(rel_err(got, want) <= TOLERANCE, "{name}: {got} vs {want}");
        assert!(want > 0.0, "{name}");
        sum += want;
    }
    let total = num(&both["tree"]["aggregated"]["carbon"], "carbon");
    assert!(rel_err(total, sum) <= TOLERANCE, "total {total} vs {sum}");
    let _ = std::fs::remove_dir_all(&dir);
}
