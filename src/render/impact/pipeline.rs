//! The pipeline of builtin Impact Framework plugins (Subtract, Multiply, Sum, Divide) that recomputes the estimate, and its manifest entries.

use super::yaml::{Y, map, s, strs};

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
pub(super) struct Plugin {
    pub(super) name: &'static str,
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
pub(super) fn pipeline() -> Vec<Plugin> {
    let mut plugins = power_plugins();
    plugins.extend(carbon_plugins());
    plugins
}

/// The steps to one instance's IT power: CPU, memory, storage, GPUs, summed.
fn power_plugins() -> Vec<Plugin> {
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
                "network-w",
            ],
            "it-power-w",
            "W",
            "IT power of one instance, before PUE",
            NotSummed,
        ),
    ]
}

/// From IT power to the period's energy and emissions, operational and embodied.
fn carbon_plugins() -> Vec<Plugin> {
    use Agg::*;
    vec![
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
pub(super) const AGGREGATED: [&str; 4] =
    ["energy", "carbon-operational", "embodied-carbon", "carbon"];

pub(super) fn plugin_entry(p: &Plugin) -> Y {
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
