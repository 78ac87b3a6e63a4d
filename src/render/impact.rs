//! Impact Framework export: an `if-run` manifest whose builtin plugins recompute carbon-show's figures.
//!
//! `--format impact-framework` writes a manifest for the Green Software Foundation's Impact
//! Framework (`@grnsft/if` 1.1.0). Its tree mirrors the plan: one grouping node per module
//! (nested `children`), one leaf per resource of the planned (after) state. Each leaf carries the
//! resource's figures and coefficients as one input observation spanning the reporting period, and
//! a pipeline of **builtin** plugins only (Subtract, Multiply, Sum, Divide) recomputes, step by
//! step, what [`crate::estimate::estimate`] computes:
//!
//! ```text
//! cpu-power-w       = vcpus × (cpu-min-w + utilization × (cpu-max-w − cpu-min-w))
//! memory-power-w    = memory-gb × memory-w-per-gb
//! storage-power-w   = ssd-tb × ssd-w-per-tb + hdd-tb × hdd-w-per-tb
//! gpu-power-w       = gpu-min-w + utilization × (gpu-max-w − gpu-min-w)   (summed over the GPUs)
//! it-power-kw       = (cpu + memory + storage + gpu) / 1000
//! duration-hours    = duration / 3600
//! energy            = it-power-kw × pue × duration-hours × instances          (kWh)
//! carbon-operational = energy × grid-intensity                                (gCO2eq)
//! embodied-carbon   = embodied-g-per-hour × duration-hours × instances        (gCO2eq)
//! carbon            = carbon-operational + embodied-carbon                    (gCO2eq)
//! ```
//!
//! `energy`, `carbon-operational`, `embodied-carbon` and `carbon` are declared with
//! `aggregation-method: {time: sum, component: sum}` in the `parameter-metadata` of the plugin
//! that produces them, and listed under `aggregation`, so `if-run` sums them up the tree: the
//! root's `aggregated.carbon` is the plan's total for the period. (Without that declaration
//! if-run 1.1.0 falls back to `copy`, and a parent silently shows its *last* child's value.)
//!
//! The output is deterministic: resources keep the order they are given in, the observation's
//! timestamp is [`ImpactOptions::timestamp`], and no clock or environment is read. Addresses are
//! written as YAML double-quoted scalars whenever they hold anything beyond plain characters, and
//! never as input values (if-run would try to evaluate a string holding `=` as arithmetic).

use std::collections::HashMap;
use std::io::{self, Write};

use crate::estimate::{Coefficients, Footprint, Period};

/// The Impact Framework release the manifests are written for and verified against.
pub const IF_VERSION: &str = "1.1.0";

/// The observation timestamp used unless the caller sets another: fixed, so output is reproducible.
pub const DEFAULT_TIMESTAMP: &str = "2025-01-01T00:00:00Z";

/// One resource of the planned (after) state, with the figures carbon-show estimated it from.
#[derive(Debug, Clone)]
pub struct ImpactResource<'a> {
    /// The full address, e.g. `module.app["eu"].aws_instance.web[0]`.
    pub address: &'a str,
    /// The module instances the resource lives in, outermost first, e.g.
    /// `["module.app[\"eu\"]", "module.db"]`; empty for the root module.
    /// [`ImpactResource::module_path_of`] derives it from an address.
    pub module_path: Vec<&'a str>,
    /// The resource type, e.g. `aws_instance`.
    pub resource_type: &'a str,
    /// One instance's physical make-up.
    pub footprint: &'a Footprint,
    /// The coefficients that apply to it.
    pub coefficients: &'a Coefficients,
    /// How many instances run: count × replicas (each counted once).
    pub instances: f64,
    /// CPU/GPU utilisation, 0..=1 (clamped, as [`crate::estimate::estimate`] does).
    pub utilization: f64,
    /// The low and high ends of its figures and their source ids, when known.
    pub range: Option<ImpactRange<'a>>,
}

/// The ends of a resource's range and the ids of its sources. They travel on the leaf as the
/// inputs `carbon-low` and `carbon-high` (gCO2eq over the period, all instances) and in its
/// description (the sources); the pipeline recomputes the central value only.
#[derive(Debug, Clone)]
pub struct ImpactRange<'a> {
    /// All instances, one hour, gCO2eq.
    pub low_g_per_hour: f64,
    pub high_g_per_hour: f64,
    /// Source ids (`data/<id>.json`).
    pub sources: &'a [String],
}

impl<'a> ImpactResource<'a> {
    /// The module segments of a resource address, outermost first:
    /// `module.a["x.y"].module.b.aws_instance.web[0]` → `["module.a[\"x.y\"]", "module.b"]`.
    /// Dots and brackets inside quoted instance keys are not separators.
    pub fn module_path_of(address: &str) -> Vec<&str> {
        let mut path = Vec::new();
        let mut rest = address;
        while let Some(after) = rest.strip_prefix("module.") {
            let end = segment_end(after);
            let seg_len = "module.".len() + end;
            path.push(&rest[..seg_len]);
            match rest[seg_len..].strip_prefix('.') {
                Some(next) => rest = next,
                None => break,
            }
        }
        path
    }
}

/// The length of a name with its optional `[index]` / `["key"]`, up to the next `.` outside quotes.
fn segment_end(s: &str) -> usize {
    let mut in_quotes = false;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if in_quotes {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_quotes = false;
            }
        } else if c == '"' {
            in_quotes = true;
        } else if c == '.' {
            return i;
        }
    }
    s.len()
}

/// What the manifest is called and the period its figures cover.
#[derive(Debug, Clone, PartialEq)]
pub struct ImpactOptions {
    /// The manifest's `name`.
    pub name: String,
    /// The period each leaf's single observation spans (its `duration` is hours × 3600 s).
    pub period: Period,
    /// The observation timestamp, written as given (ISO 8601 expected), e.g. [`DEFAULT_TIMESTAMP`].
    pub timestamp: String,
}

impl ImpactOptions {
    /// Options with the fixed [`DEFAULT_TIMESTAMP`].
    pub fn new(name: impl Into<String>, period: Period) -> Self {
        ImpactOptions {
            name: name.into(),
            period,
            timestamp: DEFAULT_TIMESTAMP.to_string(),
        }
    }
}

/// Writes the manifest for `resources` (the planned after-state) to `out`.
///
/// Fails with [`io::ErrorKind::InvalidInput`] when a figure is not a finite number or the
/// instance count is negative: if-run could not compute such a manifest.
pub fn write_manifest(
    resources: &[ImpactResource<'_>],
    opts: &ImpactOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    out.write_all(manifest_string(resources, opts)?.as_bytes())
}

/// The manifest as a string; see [`write_manifest`].
pub fn manifest_string(
    resources: &[ImpactResource<'_>],
    opts: &ImpactOptions,
) -> io::Result<String> {
    let manifest = manifest(resources, opts)?;
    let mut s = String::new();
    emit_map(&mut s, &manifest, 0);
    Ok(s)
}

// ---------------------------------------------------------------------------------------------
// The manifest as a value

/// A YAML value; maps keep their insertion order.
#[derive(Debug, Clone)]
enum Y {
    Str(String),
    Num(f64),
    Seq(Vec<Y>),
    Map(Vec<(String, Y)>),
}

fn s(v: &str) -> Y {
    Y::Str(v.to_string())
}

fn map<const N: usize>(entries: [(&str, Y); N]) -> Y {
    Y::Map(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

fn strs(items: &[&str]) -> Y {
    Y::Seq(items.iter().map(|i| s(i)).collect())
}

/// How a parameter aggregates over time and across components.
#[derive(Clone, Copy)]
enum Agg {
    /// Extensive (energy, carbon, for all instances over the period): sums over time and across
    /// components.
    Sum,
    /// A figure of one instance or per unit (watts, watts per vCPU, hours): averaged over time,
    /// not summed across resources. Not in `aggregation.metrics` anyway.
    NotSummed,
}

/// One builtin plugin instance of the pipeline.
struct Plugin {
    name: &'static str,
    method: &'static str,
    config: Y,
    output: &'static str,
    unit: &'static str,
    description: &'static str,
    agg: Agg,
}

fn arith(
    method: &'static str,
    name: &'static str,
    inputs: &[&str],
    output: &'static str,
    unit: &'static str,
    description: &'static str,
    agg: Agg,
) -> Plugin {
    Plugin {
        name,
        method,
        config: map([
            ("input-parameters", strs(inputs)),
            ("output-parameter", s(output)),
        ]),
        output,
        unit,
        description,
        agg,
    }
}

fn divide(
    name: &'static str,
    numerator: &str,
    denominator: f64,
    output: &'static str,
    unit: &'static str,
    description: &'static str,
    agg: Agg,
) -> Plugin {
    Plugin {
        name,
        method: "Divide",
        config: map([
            ("numerator", s(numerator)),
            ("denominator", Y::Num(denominator)),
            ("output", s(output)),
        ]),
        output,
        unit,
        description,
        agg,
    }
}

/// The compute pipeline, in order. Output names use only letters and single `-`: if-run 1.1.0
/// takes a new output name with a digit in it for a malformed arithmetic expression.
fn pipeline() -> Vec<Plugin> {
    use Agg::*;
    vec![
        arith(
            "Subtract",
            "cpu-range",
            &["cpu-max-w", "cpu-min-w"],
            "cpu-range-w",
            "W/vCPU",
            "CPU watts per vCPU between idle and full load",
            NotSummed,
        ),
        arith(
            "Multiply",
            "cpu-dynamic",
            &["cpu-range-w", "utilization"],
            "cpu-dynamic-w",
            "W/vCPU",
            "CPU watts per vCPU above idle at the given utilisation",
            NotSummed,
        ),
        arith(
            "Sum",
            "cpu-per-vcpu",
            &["cpu-min-w", "cpu-dynamic-w"],
            "cpu-w-per-vcpu",
            "W/vCPU",
            "CPU watts per vCPU at the given utilisation",
            NotSummed,
        ),
        arith(
            "Multiply",
            "cpu-power",
            &["vcpus", "cpu-w-per-vcpu"],
            "cpu-power-w",
            "W",
            "CPU power of one instance",
            NotSummed,
        ),
        arith(
            "Multiply",
            "memory-power",
            &["memory-gb", "memory-w-per-gb"],
            "memory-power-w",
            "W",
            "memory power of one instance",
            NotSummed,
        ),
        arith(
            "Multiply",
            "ssd-power",
            &["ssd-tb", "ssd-w-per-tb"],
            "ssd-power-w",
            "W",
            "SSD storage power of one instance",
            NotSummed,
        ),
        arith(
            "Multiply",
            "hdd-power",
            &["hdd-tb", "hdd-w-per-tb"],
            "hdd-power-w",
            "W",
            "HDD storage power of one instance",
            NotSummed,
        ),
        arith(
            "Sum",
            "storage-power",
            &["ssd-power-w", "hdd-power-w"],
            "storage-power-w",
            "W",
            "storage power of one instance",
            NotSummed,
        ),
        arith(
            "Subtract",
            "gpu-range",
            &["gpu-max-w", "gpu-min-w"],
            "gpu-range-w",
            "W",
            "GPU watts between idle and full load, all GPUs of one instance",
            NotSummed,
        ),
        arith(
            "Multiply",
            "gpu-dynamic",
            &["gpu-range-w", "utilization"],
            "gpu-dynamic-w",
            "W",
            "GPU watts above idle at the given utilisation, one instance",
            NotSummed,
        ),
        arith(
            "Sum",
            "gpu-power",
            &["gpu-min-w", "gpu-dynamic-w"],
            "gpu-power-w",
            "W",
            "GPU power of one instance",
            NotSummed,
        ),
        arith(
            "Sum",
            "it-power",
            &[
                "cpu-power-w",
                "memory-power-w",
                "storage-power-w",
                "gpu-power-w",
            ],
            "it-power-w",
            "W",
            "IT power of one instance, before PUE",
            NotSummed,
        ),
        divide(
            "it-power-kilowatts",
            "it-power-w",
            1000.0,
            "it-power-kw",
            "kW",
            "IT power of one instance, before PUE",
            NotSummed,
        ),
        divide(
            "duration-in-hours",
            "duration",
            3600.0,
            "duration-hours",
            "h",
            "the observation's duration in hours",
            NotSummed,
        ),
        arith(
            "Multiply",
            "energy",
            &["it-power-kw", "pue", "duration-hours", "instances"],
            "energy",
            "kWh",
            "energy drawn from the grid over the period by all instances, PUE included",
            Sum,
        ),
        arith(
            "Multiply",
            "operational-carbon",
            &["energy", "grid-intensity"],
            "carbon-operational",
            "gCO2eq",
            "operational emissions over the period (0 where the grid intensity is unknown)",
            Sum,
        ),
        arith(
            "Multiply",
            "embodied",
            &["embodied-g-per-hour", "duration-hours", "instances"],
            "embodied-carbon",
            "gCO2eq",
            "embodied emissions over the period, all instances",
            Sum,
        ),
        arith(
            "Sum",
            "sum-carbon",
            &["carbon-operational", "embodied-carbon"],
            "carbon",
            "gCO2eq",
            "operational plus embodied emissions over the period, all instances",
            Sum,
        ),
    ]
}

/// The parameters that `if-run` sums up the tree.
const AGGREGATED: [&str; 4] = ["energy", "carbon-operational", "embodied-carbon", "carbon"];

fn plugin_entry(p: &Plugin) -> Y {
    let (time, component) = match p.agg {
        Agg::Sum => ("sum", "sum"),
        Agg::NotSummed => ("avg", "none"),
    };
    map([
        ("path", s("builtin")),
        ("method", s(p.method)),
        ("config", p.config.clone()),
        (
            "parameter-metadata",
            map([(
                "outputs",
                Y::Map(vec![(
                    p.output.to_string(),
                    map([
                        ("unit", s(p.unit)),
                        ("description", s(p.description)),
                        (
                            "aggregation-method",
                            map([("time", s(time)), ("component", s(component))]),
                        ),
                    ]),
                )]),
            )]),
        ),
    ])
}

fn finite(what: &str, address: &str, v: f64) -> io::Result<f64> {
    if v.is_finite() {
        Ok(if v == 0.0 { 0.0 } else { v })
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{address}: {what} is {v}, not a finite number; cannot write an Impact Framework manifest"
            ),
        ))
    }
}

fn leaf(r: &ImpactResource<'_>, opts: &ImpactOptions) -> io::Result<Y> {
    let a = r.address;
    let fp = r.footprint;
    let c = r.coefficients;
    let hours = opts.period.hours();
    let instances = finite("the instance count", a, r.instances)?;
    if instances < 0.0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{a}: the instance count is {instances}, below zero"),
        ));
    }
    let u = finite("the utilisation", a, r.utilization)?.clamp(0.0, 1.0);
    // Σ (min + u (max − min)) = Σ min + u (Σ max − Σ min): the GPUs travel as two sums.
    let gpu_min: f64 = fp.gpus.iter().map(|g| g.0).sum();
    let gpu_max: f64 = fp.gpus.iter().map(|g| g.1).sum();
    let grid = c.grid_g_per_kwh;

    let figures: [(&str, f64); 17] = [
        ("instances", instances),
        ("utilization", u),
        ("vcpus", fp.vcpus),
        ("memory-gb", fp.memory_gb),
        ("ssd-tb", fp.ssd_tb),
        ("hdd-tb", fp.hdd_tb),
        ("gpu-count", fp.gpus.len() as f64),
        ("gpu-min-w", gpu_min),
        ("gpu-max-w", gpu_max),
        ("cpu-min-w", c.cpu_min_w),
        ("cpu-max-w", c.cpu_max_w),
        ("memory-w-per-gb", c.memory_w_per_gb),
        ("ssd-w-per-tb", c.ssd_w_per_tb),
        ("hdd-w-per-tb", c.hdd_w_per_tb),
        ("pue", c.pue),
        ("grid-intensity", grid.unwrap_or(0.0)),
        ("embodied-g-per-hour", c.embodied_g_per_hour),
    ];
    let mut input = vec![
        ("timestamp".to_string(), s(&opts.timestamp)),
        ("duration".to_string(), Y::Num(hours * 3600.0)),
    ];
    for (k, v) in figures {
        input.push((k.to_string(), Y::Num(finite(k, a, v)?)));
    }
    if let Some(range) = &r.range {
        for (k, v) in [
            ("carbon-low", range.low_g_per_hour * hours),
            ("carbon-high", range.high_g_per_hour * hours),
        ] {
            input.push((k.to_string(), Y::Num(finite(k, a, v)?)));
        }
    }

    let plural = if instances == 1.0 { "" } else { "s" };
    let mut description = format!(
        "{} {a}: {instances} instance{plural} over one {} ({hours} h)",
        r.resource_type,
        opts.period.unit()
    );
    if let Some(range) = r.range.as_ref().filter(|r| !r.sources.is_empty()) {
        description.push_str(&format!("; sources: {}", range.sources.join(", ")));
    }
    if grid.is_none() {
        description.push_str(
            "; grid carbon intensity unknown for its region: operational carbon counted as 0 \
             (energy is still reported)",
        );
    }
    Ok(map([
        ("description", Y::Str(description)),
        ("inputs", Y::Seq(vec![Y::Map(input)])),
    ]))
}

/// A grouping node under construction: its children in first-seen order.
#[derive(Default)]
struct Group {
    children: Vec<(String, Child)>,
    index: HashMap<String, usize>,
}

enum Child {
    Module(Group),
    Leaf(Y),
}

impl Group {
    fn module(&mut self, key: &str) -> &mut Group {
        let i = match self.index.get(key) {
            Some(&i) if matches!(self.children[i].1, Child::Module(_)) => i,
            _ => {
                let key = self.unique(key);
                self.push(key, Child::Module(Group::default()))
            }
        };
        match &mut self.children[i].1 {
            Child::Module(g) => g,
            Child::Leaf(_) => unreachable!("index points at a module"),
        }
    }

    fn leaf(&mut self, key: &str, node: Y) {
        let key = self.unique(key);
        self.push(key, Child::Leaf(node));
    }

    /// `key`, or `key #2`, `key #3`… if it is taken (addresses should be unique; YAML keys must be).
    fn unique(&self, key: &str) -> String {
        if !self.index.contains_key(key) {
            return key.to_string();
        }
        (2..)
            .map(|n| format!("{key} #{n}"))
            .find(|k| !self.index.contains_key(k))
            .expect("some suffix is free")
    }

    fn push(&mut self, key: String, child: Child) -> usize {
        let i = self.children.len();
        self.index.insert(key.clone(), i);
        self.children.push((key, child));
        i
    }

    fn into_children(self, path: &str) -> Y {
        Y::Map(
            self.children
                .into_iter()
                .map(|(key, child)| {
                    let node = match child {
                        Child::Leaf(node) => node,
                        Child::Module(g) => {
                            let path = if path.is_empty() {
                                key.clone()
                            } else {
                                format!("{path}.{key}")
                            };
                            map([
                                ("description", Y::Str(format!("module {path}"))),
                                ("children", g.into_children(&path)),
                            ])
                        }
                    };
                    (key, node)
                })
                .collect(),
        )
    }
}

fn manifest(
    resources: &[ImpactResource<'_>],
    opts: &ImpactOptions,
) -> io::Result<Vec<(String, Y)>> {
    let plugins = pipeline();
    let mut root = Group::default();
    for r in resources {
        let node = leaf(r, opts)?;
        let mut group = &mut root;
        for segment in &r.module_path {
            group = group.module(segment);
        }
        group.leaf(r.address, node);
    }

    let hours = opts.period.hours();
    let description = format!(
        "Carbon cost of the planned infrastructure (after state) for one {} ({hours} h), \
         computed by carbon-show with Cloud Carbon Footprint's method and re-computable by \
         Impact Framework {IF_VERSION} (if-run) with builtin plugins only. Each leaf is one \
         resource (all its instances), each grouping node a module; `carbon` is in gCO2eq \
         and `energy` in kWh for the whole period.",
        opts.period.unit()
    );
    let mut m = vec![
        ("name".to_string(), s(&opts.name)),
        ("description".to_string(), Y::Str(description)),
        (
            "tags".to_string(),
            map([("kind", s("infrastructure-plan")), ("category", s("cloud"))]),
        ),
    ];
    // if-run 1.1.0 cannot aggregate a tree without any component (it reads the first child).
    if !resources.is_empty() {
        m.push((
            "aggregation".to_string(),
            map([("metrics", strs(&AGGREGATED)), ("type", s("both"))]),
        ));
    }
    m.push((
        "initialize".to_string(),
        map([(
            "plugins",
            Y::Map(
                plugins
                    .iter()
                    .map(|p| (p.name.to_string(), plugin_entry(p)))
                    .collect(),
            ),
        )]),
    ));
    let compute: Vec<&str> = plugins.iter().map(|p| p.name).collect();
    m.push((
        "tree".to_string(),
        map([
            ("pipeline", map([("compute", strs(&compute))])),
            ("children", root.into_children("")),
        ]),
    ));
    Ok(m)
}

// ---------------------------------------------------------------------------------------------
// A small block-style YAML emitter: full control over quoting, order and number formatting.

/// Whether `v` can be written as a plain scalar that every YAML 1.1/1.2 reader takes as that string.
fn is_plain(v: &str) -> bool {
    let mut chars = v.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if !(first.is_ascii_alphabetic() || first == '_') {
        return false;
    }
    if !v
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
    {
        return false;
    }
    !matches!(
        v.to_ascii_lowercase().as_str(),
        "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
    )
}

/// A string scalar: plain when safe, else double-quoted (JSON escaping is valid YAML).
fn scalar_str(v: &str) -> String {
    if is_plain(v) {
        v.to_string()
    } else {
        serde_json::to_string(v).expect("a string always serialises")
    }
}

/// A number: Rust's shortest round-trip decimal form, never an exponent (read alike everywhere).
fn scalar_num(v: f64) -> String {
    debug_assert!(v.is_finite());
    if v == 0.0 {
        "0".to_string()
    } else {
        format!("{v}")
    }
}

fn scalar(y: &Y) -> Option<String> {
    match y {
        Y::Str(v) => Some(scalar_str(v)),
        Y::Num(v) => Some(scalar_num(*v)),
        Y::Seq(items) if items.is_empty() => Some("[]".to_string()),
        Y::Map(entries) if entries.is_empty() => Some("{}".to_string()),
        _ => None,
    }
}

fn emit_map(out: &mut String, entries: &[(String, Y)], indent: usize) {
    for (k, v) in entries {
        out.push_str(&" ".repeat(indent));
        out.push_str(&scalar_str(k));
        out.push(':');
        match scalar(v) {
            Some(text) => {
                out.push(' ');
                out.push_str(&text);
                out.push('\n');
            }
            None => {
                out.push('\n');
                match v {
                    Y::Map(m) => emit_map(out, m, indent + 2),
                    Y::Seq(items) => emit_seq(out, items, indent + 2),
                    _ => unreachable!("scalars handled above"),
                }
            }
        }
    }
}

fn emit_seq(out: &mut String, items: &[Y], indent: usize) {
    for item in items {
        match scalar(item) {
            Some(text) => {
                out.push_str(&" ".repeat(indent));
                out.push_str("- ");
                out.push_str(&text);
                out.push('\n');
            }
            None => {
                // Emit the item two columns deeper, then put the dash in the first line's margin.
                let mut inner = String::new();
                match item {
                    Y::Map(m) => emit_map(&mut inner, m, indent + 2),
                    Y::Seq(s) => emit_seq(&mut inner, s, indent + 2),
                    _ => unreachable!("scalars handled above"),
                }
                out.push_str(&" ".repeat(indent));
                out.push_str("- ");
                out.push_str(&inner[indent + 2..]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::estimate;

    fn aws() -> Coefficients {
        Coefficients {
            cpu_min_w: 0.74,
            cpu_max_w: 3.5,
            memory_w_per_gb: 0.392,
            ssd_w_per_tb: 1.2,
            hdd_w_per_tb: 0.65,
            pue: 1.135,
            grid_g_per_kwh: Some(379.069),
            embodied_g_per_hour: 1.5,
        }
    }

    #[test]
    fn module_paths_are_split_outside_quotes() {
        assert_eq!(
            ImpactResource::module_path_of(r#"module.a["x.y"].module.b.aws_instance.web[0]"#),
            vec![r#"module.a["x.y"]"#, "module.b"]
        );
        assert_eq!(
            ImpactResource::module_path_of(r#"module.m["a\"].b"].data.x.y"#),
            vec![r#"module.m["a\"].b"]"#]
        );
        assert!(ImpactResource::module_path_of("aws_instance.web").is_empty());
        assert_eq!(
            ImpactResource::module_path_of("module.solo"),
            vec!["module.solo"]
        );
    }

    #[test]
    fn scalars_are_quoted_when_needed() {
        assert_eq!(scalar_str("module.app"), "module.app");
        assert_eq!(scalar_str("cpu-min-w"), "cpu-min-w");
        assert_eq!(
            scalar_str(r#"aws_instance.web["it's"]"#),
            r#""aws_instance.web[\"it's\"]""#
        );
        assert_eq!(scalar_str("yes"), "\"yes\"");
        assert_eq!(scalar_str("a: b # c"), "\"a: b # c\"");
        assert_eq!(
            scalar_str("2025-01-01T00:00:00Z"),
            "\"2025-01-01T00:00:00Z\""
        );
        assert_eq!(scalar_num(0.0000001), "0.0000001");
        assert_eq!(scalar_num(-0.0), "0");
        assert_eq!(scalar_num(2628000.0), "2628000");
    }

    /// Two modules (one nested, one with a for_each key holding quotes, a dot and brackets), a
    /// count-indexed root resource, a GPU resource and one in a region of unknown intensity.
    fn sample() -> (Vec<Footprint>, Vec<Coefficients>) {
        let fps = vec![
            Footprint {
                vcpus: 2.0,
                memory_gb: 8.0,
                ..Footprint::default()
            },
            Footprint {
                vcpus: 8.0,
                memory_gb: 61.0,
                ssd_tb: 0.5,
                gpus: vec![(35.0, 306.0)],
                ..Footprint::default()
            },
            Footprint {
                vcpus: 4.0,
                memory_gb: 16.0,
                hdd_tb: 2.0,
                ..Footprint::default()
            },
        ];
        let unknown = Coefficients {
            grid_g_per_kwh: None,
            ..aws()
        };
        (fps, vec![aws(), unknown])
    }

    fn sample_resources<'a>(
        fps: &'a [Footprint],
        cs: &'a [Coefficients],
    ) -> Vec<ImpactResource<'a>> {
        let r = |address: &'a str, resource_type, fp, c, instances| ImpactResource {
            address,
            module_path: ImpactResource::module_path_of(address),
            resource_type,
            footprint: fp,
            coefficients: c,
            instances,
            utilization: 0.5,
            range: None,
        };
        vec![
            r("aws_instance.web[0]", "aws_instance", &fps[0], &cs[0], 1.0),
            r(
                r#"module.ml["it's.a \"model\""].aws_instance.gpu["p3.2xlarge"]"#,
                "aws_instance",
                &fps[1],
                &cs[0],
                2.0,
            ),
            r(
                "module.data.module.db.aws_db_instance.main",
                "aws_db_instance",
                &fps[2],
                &cs[1],
                3.0,
            ),
        ]
    }

    #[test]
    fn golden_manifest() {
        let (fps, cs) = sample();
        let resources = sample_resources(&fps, &cs);
        let yaml = manifest_string(&resources, &ImpactOptions::new("plan", Period::Month)).unwrap();
        insta::assert_snapshot!(yaml);
    }

    #[test]
    fn manifest_parses_back_with_addresses_and_figures_intact() {
        let (fps, cs) = sample();
        let resources = sample_resources(&fps, &cs);
        let yaml = manifest_string(&resources, &ImpactOptions::new("plan", Period::Year)).unwrap();
        let v: serde_json::Value = serde_saphyr::from_str(&yaml).expect("valid YAML");
        let ml = &v["tree"]["children"][r#"module.ml["it's.a \"model\""]"#];
        let gpu =
            &ml["children"][r#"module.ml["it's.a \"model\""].aws_instance.gpu["p3.2xlarge"]"#];
        let input = &gpu["inputs"][0];
        assert_eq!(input["timestamp"], DEFAULT_TIMESTAMP);
        assert_eq!(input["duration"].as_f64(), Some(8760.0 * 3600.0));
        assert_eq!(input["gpu-max-w"].as_f64(), Some(306.0));
        assert_eq!(input["instances"].as_f64(), Some(2.0));
        let db = &v["tree"]["children"]["module.data"]["children"]["module.db"]["children"]["module.data.module.db.aws_db_instance.main"];
        assert_eq!(db["inputs"][0]["grid-intensity"].as_f64(), Some(0.0));
        assert!(db["description"].as_str().unwrap().contains("unknown"));
        assert_eq!(v["aggregation"]["type"], "both");
        let plugins = v["initialize"]["plugins"].as_object().unwrap();
        let compute = v["tree"]["pipeline"]["compute"].as_array().unwrap();
        assert_eq!(compute.len(), plugins.len());
        for p in plugins.values() {
            assert_eq!(p["path"], "builtin");
        }
        for metric in AGGREGATED {
            let producer = plugins
                .values()
                .find(|p| p["parameter-metadata"]["outputs"].get(metric).is_some())
                .unwrap_or_else(|| panic!("no plugin produces {metric}"));
            let agg = &producer["parameter-metadata"]["outputs"][metric]["aggregation-method"];
            assert_eq!(
                (agg["time"].as_str(), agg["component"].as_str()),
                (Some("sum"), Some("sum"))
            );
        }
    }

    /// The pipeline, replayed in Rust over the manifest's own inputs, gives estimate()'s figures.
    #[test]
    fn pipeline_replayed_matches_estimate() {
        let (fps, cs) = sample();
        let resources = sample_resources(&fps, &cs);
        let opts = ImpactOptions::new("plan", Period::Month);
        let yaml = manifest_string(&resources, &opts).unwrap();
        let v: serde_json::Value = serde_saphyr::from_str(&yaml).unwrap();
        let plugins = &v["initialize"]["plugins"];
        let mut leaves = Vec::new();
        fn collect<'v>(
            key: &'v str,
            node: &'v serde_json::Value,
            out: &mut Vec<(&'v str, &'v serde_json::Value)>,
        ) {
            match node.get("children").and_then(|c| c.as_object()) {
                Some(children) => children.iter().for_each(|(k, c)| collect(k, c, out)),
                None => out.push((key, node)),
            }
        }
        collect("", &v["tree"], &mut leaves);
        assert_eq!(leaves.len(), resources.len());
        for (key, leaf) in leaves {
            let r = resources
                .iter()
                .find(|r| r.address == key)
                .expect("leaf keyed by address");
            let mut vals: HashMap<String, f64> = leaf["inputs"][0]
                .as_object()
                .unwrap()
                .iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_f64()?)))
                .collect();
            for name in v["tree"]["pipeline"]["compute"].as_array().unwrap() {
                let p = &plugins[name.as_str().unwrap()];
                let cfg = &p["config"];
                let get =
                    |vals: &HashMap<String, f64>, k: &serde_json::Value| vals[k.as_str().unwrap()];
                let (out, value) = match p["method"].as_str().unwrap() {
                    "Divide" => (
                        cfg["output"].as_str().unwrap(),
                        get(&vals, &cfg["numerator"]) / cfg["denominator"].as_f64().unwrap(),
                    ),
                    method => {
                        let ins: Vec<f64> = cfg["input-parameters"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|k| get(&vals, k))
                            .collect();
                        let value = match method {
                            "Sum" => ins.iter().sum(),
                            "Multiply" => ins.iter().product(),
                            "Subtract" => ins[0] - ins[1..].iter().sum::<f64>(),
                            other => panic!("unexpected plugin {other}"),
                        };
                        (cfg["output-parameter"].as_str().unwrap(), value)
                    }
                };
                vals.insert(out.to_string(), value);
            }
            let e = estimate(r.footprint, r.coefficients, r.utilization);
            let scale = r.instances * opts.period.hours();
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-9);
            assert!(close(vals["energy"], e.energy_kwh * scale), "{}", r.address);
            assert!(
                close(vals["carbon-operational"], e.operational_g * scale),
                "{}",
                r.address
            );
            assert!(
                close(vals["embodied-carbon"], e.embodied_g * scale),
                "{}",
                r.address
            );
            assert!(close(vals["carbon"], e.total_g() * scale), "{}", r.address);
        }
    }

    #[test]
    fn output_is_deterministic_and_keeps_input_order() {
        let (fps, cs) = sample();
        let resources = sample_resources(&fps, &cs);
        let opts = ImpactOptions::new("plan", Period::Hour);
        let a = manifest_string(&resources, &opts).unwrap();
        let b = manifest_string(&resources, &opts).unwrap();
        assert_eq!(a, b);
        let web = a.find("aws_instance.web[0]").unwrap();
        let ml = a.find("module.ml[").unwrap();
        let data = a.find("module.data:").unwrap();
        assert!(web < ml && ml < data);
    }

    #[test]
    fn duplicate_addresses_get_distinct_keys() {
        let fp = Footprint {
            vcpus: 1.0,
            ..Footprint::default()
        };
        let c = aws();
        let r = ImpactResource {
            address: "aws_instance.a",
            module_path: vec![],
            resource_type: "aws_instance",
            footprint: &fp,
            coefficients: &c,
            instances: 1.0,
            utilization: 0.5,
            range: None,
        };
        let yaml =
            manifest_string(&[r.clone(), r], &ImpactOptions::new("x", Period::Hour)).unwrap();
        let v: serde_json::Value = serde_saphyr::from_str(&yaml).unwrap();
        let children = v["tree"]["children"].as_object().unwrap();
        assert!(
            children.contains_key("aws_instance.a") && children.contains_key("aws_instance.a #2")
        );
    }

    #[test]
    fn non_finite_figures_are_refused() {
        let fp = Footprint {
            vcpus: f64::NAN,
            ..Footprint::default()
        };
        let c = aws();
        let r = ImpactResource {
            address: "aws_instance.a",
            module_path: vec![],
            resource_type: "aws_instance",
            footprint: &fp,
            coefficients: &c,
            instances: 1.0,
            utilization: 0.5,
            range: None,
        };
        let mut out = Vec::new();
        let err =
            write_manifest(&[r], &ImpactOptions::new("x", Period::Hour), &mut out).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("vcpus"), "{err}");
        assert!(out.is_empty());
    }

    #[test]
    fn an_empty_plan_has_no_aggregation_block() {
        let yaml = manifest_string(&[], &ImpactOptions::new("empty", Period::Month)).unwrap();
        assert!(!yaml.contains("aggregation:"));
        assert!(yaml.contains("  children: {}\n"));
    }
}
