//! `carbon-show explain ADDRESS [FILE]`: one resource's derivation — each input, each
//! coefficient with its source, and the arithmetic — so that a reviewer can redo it by hand.
//!
//! Every number is printed as `name = value` to 12 significant digits (the shortest form of
//! the value rounded so: `8.07`, not the float noise `8.069999999999999`), so that the text can
//! be checked with a calculator or parsed by a test.

use std::io::{self, Write};

use crate::carbon::Priced;
use crate::cli::CarbonOptions;
use crate::error::Error;
use crate::estimate::{Estimate, HIGH_UTILIZATION, LOW_UTILIZATION, Period, estimate};
use crate::report::{ResourceReport, Status};

/// Runs `explain`: assesses the input and writes the derivation of `address` to `out`.
pub fn run(
    input: &crate::cli::Input,
    carbon: &CarbonOptions,
    address: &str,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let (a, hide) = crate::app::assessment(input, carbon)?;
    let Some(r) = a.report.resources.iter().find(|r| r.address == address) else {
        return Err(Error::NoSuchResource {
            path: input.display_path(),
            address: address.to_string(),
            hint: suggest(
                a.report.resources.iter().map(|r| r.address.as_str()),
                address,
            ),
        });
    };
    let before = a.before_inputs.iter().find(|p| p.address == address);
    let after = a.after_inputs.iter().find(|p| p.address == address);
    let mut text = Vec::new();
    write(&mut text, r, before, after, carbon.settings.period)
        .expect("writing to a Vec cannot fail");
    let text = denoise(&String::from_utf8_lossy(&text));
    // the one redactor (crate::redact): every sensitive value of the plan, in every form
    let text = match &hide {
        Some(h) => h.redact(&text).unwrap_or(text),
        None => text,
    };
    // the address, reasons, region and machine type come from the plan: escaped for the
    // terminal, after redaction (which matches the raw values)
    let text = crate::escape::lines(&text);
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Error::Io {
            path: "<stdout>".into(),
            source: e,
        }),
        _ => Ok(()),
    }
}

/// `; it has aws_instance.worker[0], aws_instance.worker[1]: name one` when `address` names
/// a resource whose instances are there; else the closest address by edit distance, if close.
fn suggest<'a>(addresses: impl Iterator<Item = &'a str> + Clone, address: &str) -> String {
    let instances: Vec<&str> = (addresses.clone())
        .filter(|a| {
            a.strip_prefix(address)
                .is_some_and(|rest| rest.starts_with('['))
        })
        .collect();
    if !instances.is_empty() {
        let shown: Vec<&str> = instances.iter().take(3).copied().collect();
        let more = match instances.len() - shown.len() {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        return format!("; it has {}{more}: name one instance", shown.join(", "));
    }
    let close = addresses
        .map(|a| (crate::config::distance(a, address), a))
        .filter(|(d, a)| *d <= 3.max(a.len() / 5))
        .min();
    match close {
        Some((_, a)) => format!("; did you mean {a}?"),
        None => String::new(),
    }
}

/// Numbers with a fraction past 12 significant digits (float noise such as
/// `8.069999999999999`) rounded to 12, on the derivation's indented lines.
fn denoise(text: &str) -> String {
    static LONG: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"-?\b\d+\.\d+(?:e-?\d+)?\b").expect("a valid pattern")
    });
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        if !line.starts_with("  ") && !line.starts_with("delta_g_per_") {
            out.push_str(line);
            continue;
        }
        out.push_str(&LONG.replace_all(line, |c: &regex::Captures<'_>| {
            let s = &c[0];
            match s.parse::<f64>() {
                Ok(v) if s.len() > 13 => {
                    let r: f64 = format!("{v:.11e}").parse().unwrap_or(v);
                    format!("{}", r + 0.0)
                }
                _ => s.to_string(),
            }
        }));
    }
    out
}

/// Writes one resource's derivation.
pub fn write(
    out: &mut dyn Write,
    r: &ResourceReport,
    before: Option<&Priced>,
    after: Option<&Priced>,
    period: Period,
) -> io::Result<()> {
    writeln!(
        out,
        "{} ({}): {}",
        r.address,
        r.resource_type,
        r.actions.join(", ")
    )?;
    let reason = match &r.status {
        Status::NotEstimated { reason } => {
            writeln!(out, "not estimated: {reason}")?;
            Some(reason)
        }
        Status::Unsupported { reason } => {
            writeln!(out, "unsupported: {reason}")?;
            Some(reason)
        }
        Status::Estimated => None,
    };
    // the reason once: a mapping's note is both the status and a warning
    let said = |t: &String| {
        reason.is_some_and(|r| r == t || t.strip_prefix("unsupported: ") == Some(r.as_str()))
    };
    for a in r.assumptions.iter().filter(|a| !said(a)) {
        writeln!(out, "assumed: {a}")?;
    }
    for w in r.warnings.iter().filter(|w| !said(w)) {
        writeln!(out, "warning: {w}")?;
    }
    for (name, p) in [("before the change", before), ("after the change", after)] {
        if let Some(p) = p {
            writeln!(out)?;
            side(out, name, p, period)?;
        }
    }
    if before.is_some() && after.is_some() {
        writeln!(out)?;
        writeln!(
            out,
            "delta_g_per_hour = after total_g_per_hour − before total_g_per_hour = {}",
            r.delta_per_hour.total_gco2eq
        )?;
        if period != Period::Hour {
            writeln!(
                out,
                "delta_g_per_{} = delta_g_per_hour × {} = {}",
                period.unit(),
                period.hours(),
                r.delta_per_hour.total_gco2eq * period.hours()
            )?;
        }
    }
    writeln!(out)?;
    writeln!(
        out,
        "Source ids name data tables: data/<id>.json, with their upstream sources in \
         data/<id>.source.json (docs/methodology.md)."
    )?;
    Ok(())
}

/// One side: inputs, coefficients with sources, then the arithmetic at the central value and
/// the totals at the low and high ends.
/// The sources of `what` in `p`'s provenance, as `  [source: detail; …]` (empty when none).
fn sources_of(p: &Priced, what: &str) -> String {
    let v: Vec<String> = p
        .provenance
        .iter()
        .filter(|x| x.what == what)
        .map(|x| {
            if x.detail.is_empty() {
                x.source.clone()
            } else {
                format!("{}: {}", x.source, x.detail)
            }
        })
        .collect();
    if v.is_empty() {
        String::new()
    } else {
        format!("  [{}]", v.join("; "))
    }
}

fn side(out: &mut dyn Write, name: &str, p: &Priced, period: Period) -> io::Result<()> {
    inputs(out, name, p)?;
    let u = p.utilization.clamp(0.0, 1.0);
    let (ulo, uhi) = (u.min(LOW_UTILIZATION), u.max(HIGH_UTILIZATION));
    coefficients(out, p, (u, ulo, uhi))?;
    let e = arithmetic(out, p, u)?;
    all_instances(out, p, &e, period, (ulo, uhi))
}

/// The heading and the inputs of one instance, with their sources.
fn inputs(out: &mut dyn Write, name: &str, p: &Priced) -> io::Result<()> {
    let fp = &p.footprint;
    let src = |what: &str| sources_of(p, what);
    writeln!(
        out,
        "== {name}: provider {} · region {} · machine type {}",
        p.provider,
        p.region
            .as_deref()
            .map_or("unknown".into(), crate::escape::value),
        p.machine_type
            .as_deref()
            .map_or("none".into(), crate::escape::value),
    )?;
    writeln!(out, "inputs (one instance):")?;
    writeln!(
        out,
        "  instances = {}{}{}",
        p.instances,
        src("share"),
        src("replication")
    )?;
    // the values a usage file declares, each with the file it comes from
    for x in p.provenance.iter().filter(|x| x.what == "usage") {
        writeln!(out, "  usage from {}: {}", x.source, x.detail)?;
    }
    if fp.network_w != 0.0 {
        writeln!(out, "  network_w = {}{}", fp.network_w, src("network_w"))?;
    }
    writeln!(out, "  vcpus = {}{}", fp.vcpus, src("vcpus"))?;
    writeln!(out, "  memory_gb = {}{}", fp.memory_gb, src("memory_gb"))?;
    writeln!(out, "  ssd_tb = {}{}", fp.ssd_tb, src("storage"))?;
    writeln!(out, "  hdd_tb = {}", fp.hdd_tb)?;
    // `+ 0.0`: the sum of no GPUs is -0, printed as `0`
    let gpu_min: f64 = fp.gpus.iter().map(|g| g.0).sum::<f64>() + 0.0;
    let gpu_max: f64 = fp.gpus.iter().map(|g| g.1).sum::<f64>() + 0.0;
    writeln!(out, "  gpu_count = {}", fp.gpus.len())?;
    writeln!(out, "  gpu_min_w = {gpu_min}{}", src("gpus"))?;
    writeln!(out, "  gpu_max_w = {gpu_max}")?;
    let archs = src("cpu_architectures");
    if !archs.is_empty() {
        writeln!(out, "  cpu architectures{archs}")?;
    }
    Ok(())
}

/// The coefficients, central with the low and high ends of the range, with their sources.
fn coefficients(out: &mut dyn Write, p: &Priced, (u, ulo, uhi): (f64, f64, f64)) -> io::Result<()> {
    let (c, lo, hi) = (&p.coefficients, &p.low, &p.high);
    let src = |what: &str| sources_of(p, what);
    writeln!(
        out,
        "coefficients (central; low and high ends of the range):"
    )?;
    let row = |out: &mut dyn Write, k: &str, c: f64, l: f64, h: f64, s: String| {
        writeln!(out, "  {k} = {c}  (low {l}, high {h}){s}")
    };
    row(out, "utilization", u, ulo, uhi, String::new())?;
    row(
        out,
        "cpu_min_w",
        c.cpu_min_w,
        lo.cpu_min_w,
        hi.cpu_min_w,
        src("cpu_w"),
    )?;
    row(
        out,
        "cpu_max_w",
        c.cpu_max_w,
        lo.cpu_max_w,
        hi.cpu_max_w,
        String::new(),
    )?;
    row(
        out,
        "memory_w_per_gb",
        c.memory_w_per_gb,
        lo.memory_w_per_gb,
        hi.memory_w_per_gb,
        src("memory_w"),
    )?;
    row(
        out,
        "ssd_w_per_tb",
        c.ssd_w_per_tb,
        lo.ssd_w_per_tb,
        hi.ssd_w_per_tb,
        src("storage_w"),
    )?;
    row(
        out,
        "hdd_w_per_tb",
        c.hdd_w_per_tb,
        lo.hdd_w_per_tb,
        hi.hdd_w_per_tb,
        String::new(),
    )?;
    row(out, "pue", c.pue, lo.pue, hi.pue, src("pue"))?;
    let g = |c: &crate::estimate::Coefficients| c.grid_g_per_kwh.unwrap_or(0.0);
    row(out, "grid_g_per_kwh", g(c), g(lo), g(hi), src("grid"))?;
    row(
        out,
        "embodied_g_per_hour",
        c.embodied_g_per_hour,
        lo.embodied_g_per_hour,
        hi.embodied_g_per_hour,
        src("embodied"),
    )?;

    Ok(())
}

/// The arithmetic of one instance for one hour, central; its estimate.
fn arithmetic(out: &mut dyn Write, p: &Priced, u: f64) -> io::Result<Estimate> {
    let (fp, c) = (&p.footprint, &p.coefficients);
    let g = |c: &crate::estimate::Coefficients| c.grid_g_per_kwh.unwrap_or(0.0);
    // `+ 0.0`: the sum of no GPUs is -0, printed as `0`
    let gpu_min: f64 = fp.gpus.iter().map(|g| g.0).sum::<f64>() + 0.0;
    let gpu_max: f64 = fp.gpus.iter().map(|g| g.1).sum::<f64>() + 0.0;
    let e = estimate(fp, c, u);
    writeln!(out, "arithmetic (one instance, one hour, central):")?;
    writeln!(
        out,
        "  cpu_w = vcpus × (cpu_min_w + utilization × (cpu_max_w − cpu_min_w)) = {} × ({} + {} × ({} − {})) = {}",
        fp.vcpus, c.cpu_min_w, u, c.cpu_max_w, c.cpu_min_w, e.cpu_w
    )?;
    writeln!(
        out,
        "  memory_w = memory_gb × memory_w_per_gb = {} × {} = {}",
        fp.memory_gb, c.memory_w_per_gb, e.memory_w
    )?;
    writeln!(
        out,
        "  storage_w = ssd_tb × ssd_w_per_tb + hdd_tb × hdd_w_per_tb = {} × {} + {} × {} = {}",
        fp.ssd_tb, c.ssd_w_per_tb, fp.hdd_tb, c.hdd_w_per_tb, e.storage_w
    )?;
    writeln!(
        out,
        "  gpu_w = gpu_min_w + utilization × (gpu_max_w − gpu_min_w) = {gpu_min} + {u} × ({gpu_max} − {gpu_min}) = {}",
        e.gpu_w + 0.0
    )?;
    if e.network_w != 0.0 {
        writeln!(
            out,
            "  it_power_w = cpu_w + memory_w + storage_w + gpu_w + network_w = {}",
            e.it_power_w()
        )?;
    } else {
        writeln!(
            out,
            "  it_power_w = cpu_w + memory_w + storage_w + gpu_w = {}",
            e.it_power_w()
        )?;
    }
    writeln!(
        out,
        "  energy_kwh = it_power_w / 1000 × pue = {} / 1000 × {} = {}",
        e.it_power_w(),
        c.pue,
        e.energy_kwh
    )?;
    writeln!(
        out,
        "  operational_g = energy_kwh × grid_g_per_kwh = {} × {} = {}",
        e.energy_kwh,
        g(c),
        e.operational_g
    )?;
    writeln!(out, "  embodied_g = embodied_g_per_hour = {}", e.embodied_g)?;
    writeln!(
        out,
        "  total_g = operational_g + embodied_g = {}",
        e.total_g()
    )?;
    Ok(e)
}

/// All instances: the hourly and period totals, and the range.
fn all_instances(
    out: &mut dyn Write,
    p: &Priced,
    e: &Estimate,
    period: Period,
    (ulo, uhi): (f64, f64),
) -> io::Result<()> {
    let r = p.ranged();
    writeln!(out, "all instances:")?;
    writeln!(
        out,
        "  total_g_per_hour = total_g × instances = {} × {} = {}",
        e.total_g(),
        p.instances,
        r.central.total_g()
    )?;
    writeln!(
        out,
        "  total_g_per_{} = total_g_per_hour × {} = {}",
        period.unit(),
        period.hours(),
        r.central.total_g() * period.hours()
    )?;
    writeln!(
        out,
        "  low_total_g_per_hour = {}  (the same arithmetic with the low coefficients at utilization {ulo})",
        r.low.total_g()
    )?;
    writeln!(
        out,
        "  high_total_g_per_hour = {}  (the same arithmetic with the high coefficients at utilization {uhi})",
        r.high.total_g()
    )?;
    writeln!(out, "  sources = {}", p.sources.join(", "))?;
    Ok(())
}
