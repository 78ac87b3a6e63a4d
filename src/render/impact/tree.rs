//! The manifest tree: one leaf per resource with its input observation, grouping nodes per module, and the manifest's top level.

use std::collections::HashMap;
use std::io;

use super::pipeline::{AGGREGATED, pipeline, plugin_entry};
use super::yaml::{Y, map, s, strs};
use super::{IF_VERSION, ImpactOptions, ImpactResource};

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

    let figures: [(&str, f64); 18] = [
        ("instances", instances),
        ("utilization", u),
        ("vcpus", fp.vcpus),
        ("memory-gb", fp.memory_gb),
        ("ssd-tb", fp.ssd_tb),
        ("hdd-tb", fp.hdd_tb),
        ("network-w", fp.network_w),
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

    /// The children as YAML; `projects`: this is the root of a multi-project manifest, whose
    /// grouping nodes are projects (their modules' paths start afresh under each).
    fn into_children(self, path: &str, projects: bool) -> Y {
        Y::Map(
            self.children
                .into_iter()
                .map(|(key, child)| {
                    let node = match child {
                        Child::Leaf(node) => node,
                        Child::Module(g) if projects => map([
                            ("description", Y::Str(format!("project {key}"))),
                            ("children", g.into_children("", false)),
                        ]),
                        Child::Module(g) => {
                            let path = if path.is_empty() {
                                key.clone()
                            } else {
                                format!("{path}.{key}")
                            };
                            map([
                                ("description", Y::Str(format!("module {path}"))),
                                ("children", g.into_children(&path, false)),
                            ])
                        }
                    };
                    (key, node)
                })
                .collect(),
        )
    }
}

pub(super) fn manifest(
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
         resource (all its instances), each grouping node a module{}; `carbon` is in gCO2eq \
         and `energy` in kWh for the whole period.",
        opts.period.unit(),
        if opts.projects {
            " (those under the root: a project each, a plan of its own)"
        } else {
            ""
        }
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
            ("children", root.into_children("", opts.projects)),
        ]),
    ));
    Ok(m)
}

// ---------------------------------------------------------------------------------------------
