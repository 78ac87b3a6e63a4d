//! The host model's consistency over every instance table (issue 29): a bigger size never costs
//! less, more memory, local storage or GPUs at the same vCPUs never costs less embodied, the
//! physical servers shared by clouds stay within bounds, and every type has a band.

use carbon_show::data::{self, Embodied, EmbodiedMethod, Instance, Provider};

/// Every type of every table with its embodied figure (a machine type without one fails).
fn all() -> Vec<(Instance, Embodied)> {
    let mut out = Vec::new();
    for p in Provider::ALL {
        for t in data::instance_types(p) {
            let i = data::instance(p, t).unwrap();
            let e = data::embodied(p, t).unwrap_or_else(|| panic!("{p} {t}: no embodied figure"));
            out.push((i, e));
        }
    }
    out
}

fn local_tb(i: &Instance) -> f64 {
    i.local_storage
        .as_ref()
        .map_or(0.0, |s| s.disks * s.gb_per_disk / 1000.0)
}

/// `a` holds at least what `b` holds (reserved vCPUs, memory, local storage, GPUs), and more of one.
fn holds_more(a: &(Instance, Embodied), b: &(Instance, Embodied)) -> bool {
    let (ia, ea) = a;
    let (ib, eb) = b;
    let ge = ea.vcpus >= eb.vcpus
        && ia.memory_gib >= ib.memory_gib
        && local_tb(ia) >= local_tb(ib)
        && ia.gpu_count() >= ib.gpu_count();
    let gt = ea.vcpus > eb.vcpus
        || ia.memory_gib > ib.memory_gib
        || local_tb(ia) > local_tb(ib)
        || ia.gpu_count() > ib.gpu_count();
    ge && gt
}

const EPS: f64 = 1e-9;

#[test]
fn embodied_every_type_is_priced_by_its_host_with_a_non_zero_band() {
    let rows = all();
    assert!(rows.len() > 2500, "{}", rows.len());
    for (i, e) in &rows {
        assert!(
            matches!(e.method, EmbodiedMethod::Family | EmbodiedMethod::HostParts),
            "{} {}: {:?}",
            i.provider,
            i.name,
            e.method
        );
        assert!(
            e.kg_co2eq_per_hour_low <= e.kg_co2eq_per_hour + EPS
                && e.kg_co2eq_per_hour <= e.kg_co2eq_per_hour_high + EPS,
            "{} {}: {e:?}",
            i.provider,
            i.name
        );
        assert!(
            e.kg_co2eq_per_hour_high > e.kg_co2eq_per_hour_low,
            "{} {}: the band is one figure: {e:?}",
            i.provider,
            i.name
        );
    }
}

#[test]
fn embodied_a_bigger_size_of_a_family_never_costs_less() {
    let rows = all();
    let mut pairs = 0;
    for a in &rows {
        for b in &rows {
            if a.0.provider != b.0.provider || a.1.family != b.1.family || !holds_more(a, b) {
                continue;
            }
            pairs += 1;
            assert!(
                a.1.kg_co2eq_per_hour + EPS >= b.1.kg_co2eq_per_hour,
                "{} {} ({:.3} g/h) costs less than {} ({:.3} g/h)",
                a.0.provider,
                a.0.name,
                a.1.kg_co2eq_per_hour * 1000.0,
                b.0.name,
                b.1.kg_co2eq_per_hour * 1000.0
            );
        }
    }
    assert!(pairs > 10_000, "{pairs} pairs compared");
}

/// Types of one provider on the same CPU platform (the same microarchitectures and host vCPUs):
/// at the same vCPUs, more memory, local storage or GPUs never costs less (m6i, r6i, i4i,
/// x2idn; m5, r5, m5d; the placeholder families of issue 29 included).
#[test]
fn embodied_more_memory_storage_or_gpus_at_the_same_vcpus_never_costs_less() {
    let rows = all();
    let mut pairs = 0;
    for a in &rows {
        for b in &rows {
            let same_platform = a.0.provider == b.0.provider
                && !a.0.cpu_architectures.is_empty()
                && a.0.cpu_architectures == b.0.cpu_architectures
                && a.1.host_vcpus == b.1.host_vcpus
                && a.1.vcpus == b.1.vcpus;
            if !same_platform || !holds_more(a, b) {
                continue;
            }
            pairs += 1;
            assert!(
                a.1.kg_co2eq_per_hour + EPS >= b.1.kg_co2eq_per_hour,
                "{} {} ({:.3} g/h) costs less than {} ({:.3} g/h) with more of its hardware",
                a.0.provider,
                a.0.name,
                a.1.kg_co2eq_per_hour * 1000.0,
                b.0.name,
                b.1.kg_co2eq_per_hour * 1000.0
            );
        }
    }
    assert!(pairs > 1_000, "{pairs} pairs compared");
}

fn g_per_hour(p: Provider, t: &str) -> f64 {
    data::embodied(p, t).unwrap().kg_co2eq_per_hour * 1000.0
}

/// IT power (W) of one instance at 50 %: CPU, memory and GPUs (docs/methodology.md, Formula).
fn power_w(p: Provider, t: &str) -> f64 {
    let i = data::instance(p, t).unwrap();
    let cpu = data::cpu_watts_per_vcpu(p, &i.cpu_architectures).unwrap();
    let gpus: f64 = i
        .gpus
        .iter()
        .map(|g| data::gpu_watts(&g.model).unwrap().at(0.5) * g.count)
        .sum();
    i.vcpus * cpu.at(0.5) + i.memory_gib * data::memory_watts_per_gb(p).unwrap() + gpus
}

/// The whole 8-GPU server on each cloud (issue 29's "one server, one figure").
const SERVERS: [(&str, [(Provider, &str); 3]); 3] = [
    (
        "8 x H100 SXM5 (HGX H100)",
        [
            (Provider::Aws, "p5.48xlarge"),
            (Provider::Gcp, "a3-highgpu-8g"),
            (Provider::Azure, "Standard_ND96isr_H100_v5"),
        ],
    ),
    (
        "8 x H200 SXM (HGX H200)",
        [
            (Provider::Aws, "p5e.48xlarge"),
            (Provider::Gcp, "a3-ultragpu-8g"),
            (Provider::Azure, "Standard_ND96isr_H200_v5"),
        ],
    ),
    (
        "8 x A100 SXM4 (HGX A100)",
        [
            (Provider::Aws, "p4d.24xlarge"),
            (Provider::Gcp, "a2-highgpu-8g"),
            (Provider::Azure, "Standard_ND96asr_v4"),
        ],
    ),
];

#[test]
fn embodied_one_gpu_server_on_three_clouds_is_one_figure_within_bounds() {
    for (name, members) in SERVERS {
        let emb: Vec<f64> = members.iter().map(|(p, t)| g_per_hour(*p, t)).collect();
        let pow: Vec<f64> = members.iter().map(|(p, t)| power_w(*p, t)).collect();
        let spread = |v: &[f64]| {
            v.iter().copied().fold(f64::MIN, f64::max) / v.iter().copied().fold(f64::MAX, f64::min)
        };
        assert!(spread(&emb) <= 1.5, "{name}: embodied {emb:?}");
        assert!(spread(&pow) <= 1.25, "{name}: power {pow:?}");
        for (p, t) in members {
            let e = data::embodied(p, t).unwrap();
            assert_eq!(e.server.as_deref(), Some(name), "{p} {t}");
        }
    }
    // an 8 x H100 server above an 8 x L4 one of the same vCPUs (192)
    assert!(g_per_hour(Provider::Aws, "p5.48xlarge") > g_per_hour(Provider::Aws, "g6.48xlarge"));
}

/// A 1-GPU size of a multi-GPU family holds a larger share of the GPUs than of the vCPUs: it
/// carries at least 1.25 × its vCPU share of the whole server (before issue 29, g5.xlarge was
/// charged 2.04 g/h, 2 % of g5.48xlarge's 98.0: its vCPU share, nothing for its GPU).
#[test]
fn embodied_a_one_gpu_size_carries_its_gpu_not_its_vcpu_share() {
    for (p, one, whole) in [
        (Provider::Aws, "g5.xlarge", "g5.48xlarge"),
        (Provider::Aws, "g6.xlarge", "g6.48xlarge"),
        (Provider::Aws, "g4dn.xlarge", "g4dn.metal"),
        (Provider::Gcp, "g2-standard-4", "g2-standard-96"),
        (
            Provider::Azure,
            "Standard_NC4as_T4_v3",
            "Standard_NC64as_T4_v3",
        ),
    ] {
        let (i1, iw) = (
            data::instance(p, one).unwrap(),
            data::instance(p, whole).unwrap(),
        );
        // (a2/a3-highgpu-1g hold 1/8 of both, so they are not such a size)
        assert!(i1.vcpus / iw.vcpus * 1.25 <= i1.gpu_count() / iw.gpu_count());
        let vcpu_share = g_per_hour(p, whole) * i1.vcpus / iw.vcpus;
        assert!(
            g_per_hour(p, one) >= 1.25 * vcpu_share,
            "{p} {one}: {} g/h against its vCPU share {vcpu_share} of {whole}",
            g_per_hour(p, one)
        );
    }
}

/// Issue 29's families: no placeholder, no median fallback. The placeholder families cost at
/// least their m6i sibling; the current families are within 1.5 × of their predecessor.
#[test]
fn embodied_placeholder_and_fallback_families_sit_beside_their_siblings() {
    let aws = |t: &str| g_per_hour(Provider::Aws, t);
    for (big, sibling) in [
        ("r6i.2xlarge", "m6i.2xlarge"),
        ("i4i.4xlarge", "m6i.4xlarge"),
        ("x2idn.16xlarge", "m6i.32xlarge"),
        ("x2iedn.16xlarge", "m6i.32xlarge"),
    ] {
        assert!(
            aws(big) >= aws(sibling),
            "{big} {} < {sibling} {}",
            aws(big),
            aws(sibling)
        );
    }
    for (new, old) in [
        ("m7i", "m6i"),
        ("c8g", "c6g"),
        ("m7g", "m6g"),
        ("c7g", "c6g"),
    ] {
        for size in [
            "large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "16xlarge",
        ] {
            let (a, b) = (aws(&format!("{new}.{size}")), aws(&format!("{old}.{size}")));
            let ratio = a / b;
            assert!(
                (1.0 / 1.5..=1.5).contains(&ratio),
                "{new}.{size} {a} against {old}.{size} {b}: {ratio}"
            );
        }
    }
}

/// Board-level figures split per GPU (M60, K80: two GPUs per board) and the A100 80GB PCIe at
/// its own 300 W, at 50 % load (regression: gpu_watts_were_for_a_two_gpu_board).
#[test]
fn gpu_watts_were_for_a_two_gpu_board() {
    let at_half = |slug: &str| data::gpu_watts(slug).unwrap().at(0.5);
    assert!(
        at_half("nvidia-tesla-m60") <= 150.0,
        "{}",
        at_half("nvidia-tesla-m60")
    );
    assert!(
        at_half("nvidia-tesla-k80") <= 150.0,
        "{}",
        at_half("nvidia-tesla-k80")
    );
    let nc = data::instance(Provider::Azure, "Standard_NC24ads_A100_v4").unwrap();
    assert_eq!(nc.gpus.len(), 1);
    let pcie = data::gpu_watts(&nc.gpus[0].model).unwrap();
    assert!(pcie.max_watts <= 300.0 && pcie.at(0.5) <= 180.0, "{pcie:?}");
    // the SXM module keeps its own figure
    assert!(data::gpu_watts("nvidia-tesla-a100").unwrap().max_watts > 300.0);
}
