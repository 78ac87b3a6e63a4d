//! Build-time code generation of the reference tables: `data/*.json` read once, written as sorted static rows of plain data.
//!
//! Included by `build.rs` (`#[path]`), which writes [`generate`]'s text to
//! `$OUT_DIR/data_tables.rs`; `src/data/tables.rs` `include!`s it and defines the row types it
//! names (`Str`, `List`, `InstanceRow`, ...). Rows hold no pointers — a string is a range of one
//! text (`STRINGS`), a list a range of `LISTS` — so the tables sit in the binary's read-only data
//! with no relocation to apply at start-up, and a page is read only when a lookup touches it.
//! Each table is sorted by its key (byte order) for binary search; instance tables also get an
//! index sorted by the lower-cased name. Numbers are parsed by serde_json exactly as the tables
//! were parsed at run time before, and written with `{:?}`, which round-trips every `f64`. A table
//! that does not read gives empty tables and `LOAD_ERROR` (what `data::load_error` reports).

use std::collections::HashMap;
use std::fmt::Write;

use serde_json::{Map, Value};

type Obj = Map<String, Value>;

/// The text of `data_tables.rs`, reading `data/<file>` through `read`.
pub fn generate(read: &dyn Fn(&str) -> Result<String, String>) -> String {
    match Data::read(read) {
        Ok(d) => d.write(None),
        Err(e) => Data::default().write(Some(&e)),
    }
}

#[derive(Default)]
struct Instance {
    name: String,
    vcpus: f64,
    memory_mb: f64,
    /// Models with counts, in first-seen order.
    gpus: Vec<(String, f64)>,
    cpu_types: Vec<String>,
    family: Option<String>,
    /// Disks, GB per disk, kind (only where both are positive).
    storage: Option<(f64, f64, String)>,
}

struct Grid {
    region: String,
    g: f64,
    year: u16,
    source: String,
    url: String,
    via: String,
    derived_from: Vec<String>,
    method: Option<String>,
}

struct Fallback {
    g: f64,
    method: String,
    via: String,
}

struct Embodied {
    name: String,
    family: String,
    platform: String,
    platform_kg: f64,
    vcpus: f64,
    host_vcpus: f64,
    kg: f64,
    low: f64,
    high: f64,
    ccf_total: bool,
    cpu_chassis: f64,
    memory: f64,
    server: Option<String>,
}

struct Coefficients {
    numbers: [f64; 10],
    fallback_method: String,
    pue_by_region: Vec<(String, f64)>,
}

#[derive(Default)]
struct ProviderData {
    instances: Vec<Instance>,
    grid: Vec<Grid>,
    grid_fallback: Option<Fallback>,
    embodied: Vec<Embodied>,
    embodied_fallback: Option<f64>,
    baseline: Vec<(String, f64)>,
    coefficients: Option<Coefficients>,
}

struct Source {
    name: String,
    version: String,
    year: u16,
    licence: String,
    url: String,
    used: String,
}

#[derive(Default)]
struct Data {
    providers: [ProviderData; 3],
    sql: Vec<Instance>,
    architectures: Vec<(String, f64, f64)>,
    median: Vec<String>,
    architecture_aliases: Vec<(String, String)>,
    gpus: Vec<(String, f64, f64)>,
    gpu_aliases: Vec<(String, String)>,
    sources: Vec<Source>,
}

const PROVIDERS: [&str; 3] = ["aws", "gcp", "azure"];

/// The `ProviderCoefficients` members that are numbers, in the order `CoefficientsRow` lists them.
const COEFFICIENT_NUMBERS: [&str; 10] = [
    "cpuMinWattsPerVcpu",
    "cpuMaxWattsPerVcpu",
    "memoryKWhPerGBHour",
    "memoryWattsPerGB",
    "ssdWattsPerTB",
    "hddWattsPerTB",
    "networkingKWhPerGB",
    "pue",
    "averageCpuUtilization",
    "serverLifespanHours",
];

fn object<'a>(v: &'a Value, at: &str) -> Result<&'a Obj, String> {
    v.as_object().ok_or_else(|| format!("{at}: not an object"))
}

fn member<'a>(o: &'a Obj, key: &str, at: &str) -> Result<&'a Value, String> {
    o.get(key).ok_or_else(|| format!("{at}: missing {key}"))
}

fn number(o: &Obj, key: &str, at: &str) -> Result<f64, String> {
    member(o, key, at)?
        .as_f64()
        .ok_or_else(|| format!("{at}: {key} is not a number"))
}

fn year(o: &Obj, key: &str, at: &str) -> Result<u16, String> {
    member(o, key, at)?
        .as_u64()
        .and_then(|n| u16::try_from(n).ok())
        .ok_or_else(|| format!("{at}: {key} is not a year"))
}

fn text(o: &Obj, key: &str, at: &str) -> Result<String, String> {
    member(o, key, at)?
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("{at}: {key} is not a string"))
}

/// A string member that may be absent or null.
fn optional_text(o: &Obj, key: &str, at: &str) -> Result<Option<String>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("{at}: {key} is not a string")),
    }
}

/// A list of strings that may be absent or null (empty then).
fn texts(o: &Obj, key: &str, at: &str) -> Result<Vec<String>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("{at}: {key} holds a non-string"))
            })
            .collect(),
        Some(_) => Err(format!("{at}: {key} is not a list")),
    }
}

/// An object's members, sorted by key (byte order).
fn sorted(o: &Obj) -> Vec<(&String, &Value)> {
    let mut v: Vec<_> = o.iter().collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    v
}

/// A one-entry-per-GPU list grouped into models with counts, in first-seen order.
/// An object's members, sorted by name, each read by `row` (its value an object), the place
/// named `{at}{name}` in errors.
fn rows<R>(
    o: &Obj,
    at: &str,
    row: impl Fn(&str, &Obj, &str) -> Result<R, String>,
) -> Result<Vec<R>, String> {
    sorted(o)
        .into_iter()
        .map(|(k, v)| {
            let at = format!("{at}{k}");
            row(k, object(v, &at)?, &at)
        })
        .collect()
}

fn group_gpus(list: Vec<String>) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = Vec::new();
    for model in list {
        match out.iter_mut().find(|g| g.0 == model) {
            Some(g) => g.1 += 1.0,
            None => out.push((model, 1.0)),
        }
    }
    out
}

fn aws_instance(name: &str, o: &Obj, at: &str) -> Result<Instance, String> {
    let storage = match o.get("InstanceStorage") {
        None | Some(Value::Null) => None,
        Some(s) => {
            let at = format!("{at}.InstanceStorage");
            let s = object(s, &at)?;
            let size = number(s, "SizePerDiskGB", &at)?;
            let count = number(s, "Count", &at)?;
            let kind = text(s, "Type", &at)?;
            (count > 0.0 && size > 0.0).then_some((count, size, kind))
        }
    };
    Ok(Instance {
        name: name.to_string(),
        vcpus: number(o, "VCPU", at)?,
        memory_mb: number(o, "MemoryMb", at)?,
        gpus: group_gpus(texts(o, "GPUs", at)?),
        cpu_types: texts(o, "CPUTypes", at)?,
        family: optional_text(o, "Family", at)?,
        storage,
    })
}

fn shape_instance(name: &str, o: &Obj, at: &str) -> Result<Instance, String> {
    Ok(Instance {
        name: name.to_string(),
        vcpus: number(o, "vcpus", at)?,
        memory_mb: number(o, "memoryMb", at)?,
        gpus: group_gpus(texts(o, "gpus", at)?),
        cpu_types: texts(o, "cpuTypes", at)?,
        family: optional_text(o, "family", at)?,
        storage: None,
    })
}

fn grid_row(region: &str, o: &Obj, at: &str) -> Result<Grid, String> {
    Ok(Grid {
        region: region.to_string(),
        g: number(o, "gCO2eqPerKWh", at)?,
        year: year(o, "year", at)?,
        source: text(o, "source", at)?,
        url: text(o, "url", at)?,
        via: text(o, "via", at)?,
        derived_from: texts(o, "derivedFrom", at)?,
        method: optional_text(o, "method", at)?,
    })
}

fn embodied_row(name: &str, o: &Obj, at: &str) -> Result<Embodied, String> {
    let parts_at = format!("{at}.partsKg");
    let parts = object(member(o, "partsKg", at)?, &parts_at)?;
    Ok(Embodied {
        name: name.to_string(),
        family: text(o, "family", at)?,
        platform: text(o, "platform", at)?,
        platform_kg: number(o, "platformKgCO2eq", at)?,
        vcpus: number(o, "vcpus", at)?,
        host_vcpus: number(o, "hostVcpus", at)?,
        kg: number(o, "kgCO2eqPerHour", at)?,
        low: number(o, "kgCO2eqPerHourLow", at)?,
        high: number(o, "kgCO2eqPerHourHigh", at)?,
        ccf_total: text(o, "method", at)? == "ccf-total",
        cpu_chassis: number(parts, "cpuChassis", &parts_at)?,
        memory: number(parts, "memory", &parts_at)?,
        server: optional_text(o, "serverName", at)?,
    })
}

fn coefficients_row(o: &Obj, at: &str) -> Result<Coefficients, String> {
    let mut numbers = [0.0; 10];
    for (slot, key) in numbers.iter_mut().zip(COEFFICIENT_NUMBERS) {
        *slot = number(o, key, at)?;
    }
    let pue_at = format!("{at}.pueByRegion");
    let pue = object(member(o, "pueByRegion", at)?, &pue_at)?;
    let pue_by_region = sorted(pue)
        .into_iter()
        .map(|(k, v)| {
            v.as_f64()
                .map(|n| (k.clone(), n))
                .ok_or_else(|| format!("{pue_at}.{k}: not a number"))
        })
        .collect::<Result<_, _>>()?;
    Ok(Coefficients {
        numbers,
        fallback_method: text(o, "cpuFallbackMethod", at)?,
        pue_by_region,
    })
}

/// A `{name: {min, max}}` object as sorted `(name, min, max)` rows.
fn ranges(o: &Obj, min: &str, max: &str, at: &str) -> Result<Vec<(String, f64, f64)>, String> {
    sorted(o)
        .into_iter()
        .map(|(k, v)| {
            let at = format!("{at}.{k}");
            let r = object(v, &at)?;
            Ok((k.clone(), number(r, min, &at)?, number(r, max, &at)?))
        })
        .collect()
}

/// A `{name: name}` object as sorted pairs.
fn aliases(o: &Obj, at: &str) -> Result<Vec<(String, String)>, String> {
    sorted(o)
        .into_iter()
        .map(|(k, v)| {
            v.as_str()
                .map(|s| (k.clone(), s.to_string()))
                .ok_or_else(|| format!("{at}.{k}: not a string"))
        })
        .collect()
}

impl Data {
    fn read(read: &dyn Fn(&str) -> Result<String, String>) -> Result<Data, String> {
        let parse = |file: &str| -> Result<Value, String> {
            let text = read(file)?;
            serde_json::from_str(&text).map_err(|e| format!("data/{file}: {e}"))
        };
        let mut d = Data::default();
        // each table's rows, sorted by name
        let table = |file: &str,
                     row: &dyn Fn(&str, &Obj, &str) -> Result<Instance, String>|
         -> Result<Vec<Instance>, String> {
            let v = parse(file)?;
            rows(
                object(&v, &format!("data/{file}"))?,
                &format!("data/{file}: "),
                row,
            )
        };
        d.providers[0].instances = table("aws_instances.json", &aws_instance)?;
        d.providers[1].instances = table("gcp_instances.json", &shape_instance)?;
        d.providers[2].instances = table("azure_instances.json", &shape_instance)?;
        d.sql = table("gcp_sql_tiers.json", &shape_instance)?;
        d.read_coefficients(&parse("coefficients.json")?)?;
        d.read_grid(&parse("grid_intensity.json")?)?;
        d.read_embodied(&parse("embodied.json")?)?;
        d.read_hosts(&parse("hosts.json")?)?;
        d.read_sources(&parse("sources.json")?)?;
        Ok(d)
    }

    fn read_coefficients(&mut self, v: &Value) -> Result<(), String> {
        let at = "data/coefficients.json";
        let c = object(v, at)?;
        let providers = object(member(c, "providers", at)?, at)?;
        for (i, p) in PROVIDERS.iter().enumerate() {
            let pc = providers
                .get(*p)
                .ok_or_else(|| format!("{at}: no provider {p}"))?;
            let at = format!("{at}: providers.{p}");
            self.providers[i].coefficients = Some(coefficients_row(object(pc, &at)?, &at)?);
        }
        let arch = object(member(c, "cpuArchitectures", at)?, at)?;
        self.architectures = ranges(arch, "minWattsPerVcpu", "maxWattsPerVcpu", at)?;
        self.median = texts(c, "medianArchitectures", at)?;
        self.architecture_aliases =
            aliases(object(member(c, "architectureAliases", at)?, at)?, at)?;
        self.gpus = ranges(
            object(member(c, "gpus", at)?, at)?,
            "minWatts",
            "maxWatts",
            at,
        )?;
        self.gpu_aliases = aliases(object(member(c, "gpuAliases", at)?, at)?, at)?;
        Ok(())
    }

    fn read_grid(&mut self, v: &Value) -> Result<(), String> {
        let at = "data/grid_intensity.json";
        let g = object(v, at)?;
        for (i, p) in PROVIDERS.iter().enumerate() {
            self.providers[i].grid = rows(
                object(member(g, p, at)?, at)?,
                &format!("{at}: {p}."),
                grid_row,
            )?;
        }
        let fallback = object(member(g, "fallback", at)?, at)?;
        for (i, p) in PROVIDERS.iter().enumerate() {
            if let Some(f) = fallback.get(*p) {
                let at = format!("{at}: fallback.{p}");
                let f = object(f, &at)?;
                self.providers[i].grid_fallback = Some(Fallback {
                    g: number(f, "gCO2eqPerKWh", &at)?,
                    method: text(f, "method", &at)?,
                    via: text(f, "via", &at)?,
                });
            }
        }
        Ok(())
    }

    fn read_embodied(&mut self, v: &Value) -> Result<(), String> {
        let at = "data/embodied.json";
        let e = object(v, at)?;
        for (i, p) in PROVIDERS.iter().enumerate() {
            self.providers[i].embodied = rows(
                object(member(e, p, at)?, at)?,
                &format!("{at}: {p}."),
                embodied_row,
            )?;
        }
        let fallback = object(member(e, "fallback", at)?, at)?;
        for (i, p) in PROVIDERS.iter().enumerate() {
            if let Some(f) = fallback.get(*p) {
                let at = format!("{at}: fallback.{p}");
                self.providers[i].embodied_fallback =
                    Some(number(object(f, &at)?, "kgCO2eqPerVcpuHour", &at)?);
            }
        }
        Ok(())
    }

    fn read_hosts(&mut self, v: &Value) -> Result<(), String> {
        let at = "data/hosts.json";
        let h = object(v, at)?;
        let baseline = object(member(h, "baselineUtilization", at)?, at)?;
        for (i, p) in PROVIDERS.iter().enumerate() {
            let Some(b) = baseline.get(*p) else { continue };
            let at = format!("{at}: baselineUtilization.{p}");
            self.providers[i].baseline = sorted(object(b, &at)?)
                .into_iter()
                .map(|(k, v)| {
                    v.as_f64()
                        .map(|n| (k.clone(), n))
                        .ok_or_else(|| format!("{at}.{k}: not a number"))
                })
                .collect::<Result<_, _>>()?;
        }
        Ok(())
    }

    fn read_sources(&mut self, v: &Value) -> Result<(), String> {
        let at = "data/sources.json";
        let list = v.as_array().ok_or_else(|| format!("{at}: not a list"))?;
        for (i, s) in list.iter().enumerate() {
            let at = format!("{at}: [{i}]");
            let s = object(s, &at)?;
            self.sources.push(Source {
                name: text(s, "name", &at)?,
                version: text(s, "version", &at)?,
                year: year(s, "year", &at)?,
                licence: text(s, "licence", &at)?,
                url: text(s, "url", &at)?,
                used: text(s, "used", &at)?,
            });
        }
        Ok(())
    }

    fn write(&self, error: Option<&str>) -> String {
        let mut w = Writer::default();
        for (p, name) in self.providers.iter().zip(["AWS", "GCP", "AZURE"]) {
            w.instances(&format!("{name}_INSTANCES"), &p.instances, true);
            w.grid(name, &p.grid);
            w.embodied(name, &p.embodied);
            let baseline: Vec<String> = p
                .baseline
                .iter()
                .map(|(k, v)| format!("({}, {v:?})", w.str(k)))
                .collect();
            w.array(&format!("{name}_BASELINE"), "(Str, f64)", &baseline);
        }
        w.instances("GCP_SQL", &self.sql, false);
        let fallbacks: Vec<String> = self
            .providers
            .iter()
            .map(|p| match &p.grid_fallback {
                Some(f) => format!(
                    "Some(FallbackRow {{ g: {:?}, method: {}, via: {} }})",
                    f.g,
                    w.str(&f.method),
                    w.str(&f.via)
                ),
                None => "None".to_string(),
            })
            .collect();
        w.array("GRID_FALLBACK", "Option<FallbackRow>", &fallbacks);
        let embodied: Vec<String> = self
            .providers
            .iter()
            .map(|p| format!("{:?}", p.embodied_fallback))
            .collect();
        w.array("EMBODIED_FALLBACK", "Option<f64>", &embodied);
        let coefficients: Vec<String> = self
            .providers
            .iter()
            .map(|p| match &p.coefficients {
                Some(c) => w.coefficients(c),
                None => "None".to_string(),
            })
            .collect();
        w.array("COEFFICIENTS", "Option<CoefficientsRow>", &coefficients);
        w.write_power(self);
        let sources: Vec<String> = self
            .sources
            .iter()
            .map(|s| {
                format!(
                    "SourceRow {{ name: {}, version: {}, year: {}, licence: {}, url: {}, used: {} }}",
                    w.str(&s.name),
                    w.str(&s.version),
                    s.year,
                    w.str(&s.licence),
                    w.str(&s.url),
                    w.str(&s.used)
                )
            })
            .collect();
        w.array("SOURCES", "SourceRow", &sources);
        w.finish(error)
    }
}

/// The generated text, with its interned strings and lists.
#[derive(Default)]
struct Writer {
    out: String,
    strings: String,
    interned: HashMap<String, String>,
    lists: Vec<String>,
    interned_lists: HashMap<Vec<String>, String>,
    gpus: Vec<String>,
    interned_gpus: HashMap<Vec<(String, u64)>, String>,
    pue: Vec<String>,
}

impl Writer {
    /// `Str(start, end)`: `s` as a range of `STRINGS` (each distinct string stored once).
    fn str(&mut self, s: &str) -> String {
        if let Some(r) = self.interned.get(s) {
            return r.clone();
        }
        let start = self.strings.len();
        self.strings.push_str(s);
        let r = format!("Str({start}, {})", self.strings.len());
        self.interned.insert(s.to_string(), r.clone());
        r
    }

    fn option_str(&mut self, s: Option<&str>) -> String {
        match s {
            Some(s) => format!("Some({})", self.str(s)),
            None => "None".to_string(),
        }
    }

    /// `List(start, end)`: strings as a range of `LISTS`.
    fn list(&mut self, items: &[String]) -> String {
        if let Some(r) = self.interned_lists.get(items) {
            return r.clone();
        }
        let start = self.lists.len();
        for s in items {
            let s = self.str(s);
            self.lists.push(s);
        }
        let r = format!("List({start}, {})", self.lists.len());
        self.interned_lists.insert(items.to_vec(), r.clone());
        r
    }

    /// `Gpus(start, end)`: models with counts as a range of `GPU_COUNTS`.
    fn gpus(&mut self, items: &[(String, f64)]) -> String {
        let key: Vec<(String, u64)> = items
            .iter()
            .map(|(m, n)| (m.clone(), n.to_bits()))
            .collect();
        if let Some(r) = self.interned_gpus.get(&key) {
            return r.clone();
        }
        let start = self.gpus.len();
        for (model, count) in items {
            let s = format!("({}, {count:?})", self.str(model));
            self.gpus.push(s);
        }
        let r = format!("Gpus({start}, {})", self.gpus.len());
        self.interned_gpus.insert(key, r.clone());
        r
    }

    fn array(&mut self, name: &str, ty: &str, rows: &[String]) {
        let _ = writeln!(self.out, "static {name}: [{ty}; {}] = [", rows.len());
        for r in rows {
            let _ = writeln!(self.out, "    {r},");
        }
        self.out.push_str("];\n");
    }

    /// An instance table sorted by name and, with `lower`, its index by lower-cased name.
    fn instances(&mut self, name: &str, rows: &[Instance], lower: bool) {
        let text: Vec<String> = rows
            .iter()
            .map(|i| {
                let storage = match &i.storage {
                    Some((disks, gb, kind)) => format!(
                        "Some(StorageRow {{ disks: {disks:?}, gb_per_disk: {gb:?}, kind: {} }})",
                        self.str(kind)
                    ),
                    None => "None".to_string(),
                };
                format!(
                    "InstanceRow {{ name: {}, vcpus: {:?}, memory_mb: {:?}, gpus: {}, cpu_types: {}, family: {}, storage: {storage} }}",
                    self.str(&i.name),
                    i.vcpus,
                    i.memory_mb,
                    self.gpus(&i.gpus),
                    self.list(&i.cpu_types),
                    self.option_str(i.family.as_deref()),
                )
            })
            .collect();
        self.array(name, "InstanceRow", &text);
        if lower {
            let mut order: Vec<usize> = (0..rows.len()).collect();
            order.sort_by_key(|&i| rows[i].name.to_ascii_lowercase());
            let order: Vec<String> = order.iter().map(|i| i.to_string()).collect();
            self.array(&format!("{name}_LOWER"), "u32", &order);
        }
    }

    fn grid(&mut self, provider: &str, rows: &[Grid]) {
        let text: Vec<String> = rows
            .iter()
            .map(|g| {
                format!(
                    "GridRow {{ region: {}, g: {:?}, year: {}, source: {}, url: {}, via: {}, derived_from: {}, method: {} }}",
                    self.str(&g.region),
                    g.g,
                    g.year,
                    self.str(&g.source),
                    self.str(&g.url),
                    self.str(&g.via),
                    self.list(&g.derived_from),
                    self.option_str(g.method.as_deref()),
                )
            })
            .collect();
        self.array(&format!("{provider}_GRID"), "GridRow", &text);
        let _ = writeln!(
            self.out,
            "static {provider}_GRID_CELLS: [OnceLock<GridIntensity>; {n}] = [const {{ OnceLock::new() }}; {n}];",
            n = rows.len()
        );
    }

    fn embodied(&mut self, provider: &str, rows: &[Embodied]) {
        let text: Vec<String> = rows
            .iter()
            .map(|e| {
                format!(
                    "EmbodiedRow {{ name: {}, family: {}, platform: {}, platform_kg_co2eq: {:?}, vcpus: {:?}, host_vcpus: {:?}, kg_co2eq_per_hour: {:?}, kg_co2eq_per_hour_low: {:?}, kg_co2eq_per_hour_high: {:?}, ccf_total: {}, cpu_chassis_kg: {:?}, memory_kg: {:?}, server_name: {} }}",
                    self.str(&e.name),
                    self.str(&e.family),
                    self.str(&e.platform),
                    e.platform_kg,
                    e.vcpus,
                    e.host_vcpus,
                    e.kg,
                    e.low,
                    e.high,
                    e.ccf_total,
                    e.cpu_chassis,
                    e.memory,
                    self.option_str(e.server.as_deref()),
                )
            })
            .collect();
        self.array(&format!("{provider}_EMBODIED"), "EmbodiedRow", &text);
    }

    fn coefficients(&mut self, c: &Coefficients) -> String {
        let start = self.pue.len();
        let rows: Vec<String> = c
            .pue_by_region
            .iter()
            .map(|(k, v)| format!("({}, {v:?})", self.str(k)))
            .collect();
        self.pue.extend(rows);
        let n = &c.numbers;
        format!(
            "Some(CoefficientsRow {{ cpu_min_watts_per_vcpu: {:?}, cpu_max_watts_per_vcpu: {:?}, cpu_fallback_method: {}, memory_kwh_per_gb_hour: {:?}, memory_watts_per_gb: {:?}, ssd_watts_per_tb: {:?}, hdd_watts_per_tb: {:?}, networking_kwh_per_gb: {:?}, pue: {:?}, pue_by_region: ({start}, {}), average_cpu_utilization: {:?}, server_lifespan_hours: {:?} }})",
            n[0],
            n[1],
            self.str(&c.fallback_method),
            n[2],
            n[3],
            n[4],
            n[5],
            n[6],
            n[7],
            self.pue.len(),
            n[8],
            n[9],
        )
    }

    /// The power tables: microarchitectures, aliases, GPUs, and the pue-by-region rows.
    fn write_power(&mut self, d: &Data) {
        let pue = std::mem::take(&mut self.pue);
        self.array("PUE_BY_REGION", "(Str, f64)", &pue);
        let ranges = |w: &mut Writer, rows: &[(String, f64, f64)]| -> Vec<String> {
            rows.iter()
                .map(|(k, min, max)| format!("({}, {min:?}, {max:?})", w.str(k)))
                .collect()
        };
        let pairs = |w: &mut Writer, rows: &[(String, String)]| -> Vec<String> {
            rows.iter()
                .map(|(k, v)| format!("({}, {})", w.str(k), w.str(v)))
                .collect()
        };
        let rows = ranges(self, &d.architectures);
        self.array("ARCHITECTURES", "(Str, f64, f64)", &rows);
        let rows: Vec<String> = d.median.iter().map(|m| self.str(m)).collect();
        self.array("MEDIAN_ARCHITECTURES", "Str", &rows);
        let rows = pairs(self, &d.architecture_aliases);
        self.array("ARCHITECTURE_ALIASES", "(Str, Str)", &rows);
        let rows = ranges(self, &d.gpus);
        self.array("GPUS", "(Str, f64, f64)", &rows);
        let rows = pairs(self, &d.gpu_aliases);
        self.array("GPU_ALIASES", "(Str, Str)", &rows);
    }

    /// The text: the tables, then the lists and strings they name, then the error if any.
    fn finish(mut self, error: Option<&str>) -> String {
        let lists = std::mem::take(&mut self.lists);
        self.array("LISTS", "Str", &lists);
        let gpus = std::mem::take(&mut self.gpus);
        self.array("GPU_COUNTS", "(Str, f64)", &gpus);
        let _ = writeln!(self.out, "static STRINGS: &str = {:?};", self.strings);
        let _ = writeln!(
            self.out,
            "/// The first table that failed to read at build time.\nconst LOAD_ERROR: Option<&str> = {error:?};"
        );
        self.out
    }
}
