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
//! it-power-kw       = (cpu + memory + storage + gpu + network-w) / 1000
//!                     (network-w: the power of the data a usage file says it processes)
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

use std::io::{self, Write};

use crate::estimate::{Coefficients, Footprint, Period};

mod pipeline;
mod tree;
mod yaml;

#[cfg(test)]
mod tests;

use tree::manifest;
use yaml::emit_map;

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
        let mut from = 0;
        crate::report::modules::module_steps(address)
            .into_iter()
            .map(|step| {
                let segment = &step.instance[from..];
                from = step.instance.len() + 1;
                segment
            })
            .collect()
    }
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
    /// The first step of each resource's `module_path` is its project's name (a multi-project
    /// run): the root's children are projects.
    pub projects: bool,
}

impl ImpactOptions {
    /// Options with the fixed [`DEFAULT_TIMESTAMP`].
    pub fn new(name: impl Into<String>, period: Period) -> Self {
        ImpactOptions {
            name: name.into(),
            period,
            timestamp: DEFAULT_TIMESTAMP.to_string(),
            projects: false,
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
