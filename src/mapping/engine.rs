//! The engine: loads and layers mapping sets, compiles their filters once, and maps a plan's resources into MappedResource figures.

use super::jq::{self, Globals, PerResource, Program};
use super::model::{
    self, DiagKind, Diagnostic, ItemDef, Loc, MappingSet, PropDef, Props, Reference,
    ResourceMapping, Src,
};
use super::placeholder::{self, PhKind, Placeholder};
use super::region::{self, Regions};
use super::{DataResolver, DiskKind, MappedPlan, MappedResource, MappingError, Storage};
use jaq_json::Val;
use rayon::prelude::*;
use regex::Regex;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// One mapping file given as text.
#[derive(Debug, Clone)]
pub struct MappingFile {
    /// Shown in diagnostics (`mappings/aws/ec2.yaml`).
    pub path: String,
    /// Provider folder it came from (`aws`, `gcp`, `azure`), if any.
    pub folder: Option<String>,
    pub text: String,
}

struct FilterInfo {
    placeholders: Vec<(Placeholder, usize)>,
    on_root: bool,
    /// Plain paths run natively, without jaq.
    fast: Option<super::fast::Fast>,
    /// `<plain path> | rest`: the path runs natively; `rest` (filter id) runs in jaq only on
    /// values that need it (nulls give a cached or empty answer when `rest` allows it).
    split: Option<Split>,
    /// `cbf::ref(<path>)`: nothing to do when the path is null on the configuration block.
    ref_arg: Option<super::fast::Fast>,
    /// `cbf::referrers("T")` or `first(cbf::referrers("A"), cbf::referrers("B")…)`: answered
    /// natively from the configuration's reference index; (first only, types).
    referrers: Option<(bool, Vec<String>)>,
    /// The filter can read the whole document (or a module's configuration) by scanning it.
    scans: bool,
}

struct Split {
    prefix: super::fast::Fast,
    rest: usize,
    null_rule: NullRule,
    /// A `rest` that runs natively.
    pred: Option<super::fast::Pred>,
}

enum NullRule {
    /// `rest` on null must run in jaq.
    Run,
    /// `rest` on null gives nothing.
    Empty,
    /// `rest` depends on its input only: its answer on null is computed once.
    Cached(std::sync::OnceLock<Vec<Val>>),
}

/// The mapping engine: a merged, compiled mapping set. Cheap to share across threads.
pub struct Engine {
    set: MappingSet,
    program: Program,
    filters: Vec<FilterInfo>,
    regexes: HashMap<String, Regex>,
    data: HashMap<String, Val>,
    ignored: HashMap<String, Vec<Regex>>,
    index_props: Vec<String>,
    /// Resource mappings none of whose filters reads an address or an index: their identical
    /// count/for_each instances are mapped once.
    memo_ok: HashSet<String>,
    /// Compiled text of every filter (diagnostics, profiling).
    texts: Vec<String>,
    config: serde_json::Value,
    diagnostics: Vec<Diagnostic>,
}

/// Read the mapping files of a directory: `*.yaml`/`*.yml` directly in it or in sub-folders
/// (the sub-folder name is the provider folder), sorted by path.
pub fn read_dir(dir: &Path) -> Result<Vec<MappingFile>, MappingError> {
    fn walk(
        dir: &Path,
        folder: Option<String>,
        out: &mut Vec<MappingFile>,
    ) -> Result<(), MappingError> {
        let rd = std::fs::read_dir(dir)
            .map_err(|e| MappingError::Io(dir.to_path_buf(), e.to_string()))?;
        let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
                walk(&p, name.or(folder.clone()), out)?;
            } else if matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")) {
                let text = std::fs::read_to_string(&p)
                    .map_err(|e| MappingError::Io(p.clone(), e.to_string()))?;
                out.push(MappingFile {
                    path: p.display().to_string(),
                    folder: folder.clone(),
                    text,
                });
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, None, &mut out)?;
    Ok(out)
}

fn default_config() -> serde_json::Value {
    serde_json::json!({"provider": {
        "aws": {"avg_autoscaler_size_percent": 0.5},
        "gcp": {"avg_autoscaler_size_percent": 0.5},
        "azure": {"avg_autoscaler_size_percent": 0.5}
    }})
}

struct Builder<'a> {
    filters: Vec<(String, FilterInfo, Loc, placeholder::Rewritten)>,
    by_text: HashMap<(String, bool), usize>,
    /// Ids of the `rest` parts of split filters: their errors are their parent's.
    rests: HashSet<usize>,
    texts: &'a HashMap<Arc<str>, String>,
}

impl Builder<'_> {
    fn register(&mut self, text: &str, loc: &Loc, force_root: bool) -> usize {
        let t = text.trim();
        let on_root = force_root
            || t.contains("all_select(")
            || [
                ".configuration",
                ".prior_state",
                ".planned_values",
                ".variables",
                ".resource_changes",
            ]
            .iter()
            .any(|p| t.starts_with(p));
        if let Some(&id) = self.by_text.get(&(text.to_string(), on_root)) {
            return id;
        }
        let rw = placeholder::rewrite(text);
        let mut phs = Vec::new();
        for ph in &rw.placeholders {
            let this_id = match &ph.kind {
                PhKind::This(path) => self.register(path, loc, false),
                _ => usize::MAX,
            };
            phs.push((ph.clone(), this_id));
        }
        let id = self.filters.len();
        let fast = super::fast::parse(&rw.text);
        let ref_arg = super::fast::ref_arg(&rw.text);
        self.filters.push((
            rw.text.clone(),
            FilterInfo {
                placeholders: phs,
                on_root,
                fast: fast.clone(),
                split: None,
                ref_arg,
                referrers: referrers_shape(&rw.text),
                scans: may_scan(&rw.text),
            },
            loc.clone(),
            rw.clone(),
        ));
        self.by_text.insert((text.to_string(), on_root), id);
        if fast.is_none()
            && let Some((prefix, rest)) = super::fast::split_prefix(&rw.text)
        {
            let null_rule = if super::fast::empty_on_null(rest) {
                NullRule::Empty
            } else if super::fast::is_pure(rest) {
                NullRule::Cached(std::sync::OnceLock::new())
            } else {
                NullRule::Run
            };
            // the rest keeps the placeholder numbering of the whole filter
            let rest_id = self.filters.len();
            self.rests.insert(rest_id);
            let info = FilterInfo {
                placeholders: self.filters[id].1.placeholders.clone(),
                on_root: false,
                fast: None,
                split: None,
                ref_arg: None,
                referrers: None,
                scans: may_scan(rest),
            };
            let pred = super::fast::pred(rest);
            let rest = rest.to_string();
            self.filters.push((rest, info, loc.clone(), rw));
            self.filters[id].1.split = Some(Split {
                prefix,
                rest: rest_id,
                null_rule,
                pred,
            });
        }
        id
    }

    fn src(&mut self, s: &mut Src, force_root: bool) {
        s.id = self.register(&s.text, &s.loc, force_root);
    }

    fn props(&mut self, props: &mut Props) {
        for (_, defs) in props.iter_mut() {
            for d in defs.iter_mut() {
                self.def(d);
            }
        }
    }

    fn def(&mut self, d: &mut PropDef) {
        for p in d.paths.iter_mut() {
            self.src(p, false);
        }
        if let Some(p) = d
            .property
            .as_mut()
            .filter(|p| p.text.trim_start().starts_with('.'))
        {
            self.src(p, false);
        }
        if let Some(v) = d.validator.as_mut() {
            self.src(v, false);
        }
        if let Some(f) = d.default_filter.as_mut() {
            self.src(f, false);
        }
        if let Some(r) = d.reference.as_mut() {
            for p in r.paths.iter_mut() {
                self.src(p, true);
            }
            if let Some(p) = r
                .property
                .as_mut()
                .filter(|p| p.text.trim_start().starts_with('.'))
            {
                self.src(p, false);
            }
        }
        for it in d.items.iter_mut() {
            self.item(it);
        }
    }

    fn item(&mut self, it: &mut ItemDef) {
        for p in it.paths.iter_mut() {
            self.src(p, false);
        }
        self.props(&mut it.properties);
    }

    /// Location of byte `offset` of filter `id`'s rewritten text, in its YAML file.
    fn locate(&self, id: usize, offset: usize) -> Loc {
        let (_, _, loc, rw) = &self.filters[id];
        // an error at the very end points just after the last character written
        let orig = rw.original_offset(offset).min(rw.original.trim_end().len());
        let mut l = loc.clone();
        let file_text = self.texts.get(&loc.file);
        let file_line = |n: usize| file_text.and_then(|t| t.lines().nth(n.saturating_sub(1)));
        let first =
            file_line(loc.line).and_then(|line| line.chars().nth(loc.col.saturating_sub(1)));
        let before = rw.original.get(..orig).unwrap_or("");
        match before.rfind('\n') {
            // a multi-line (block) scalar: count its lines; each is indented in the file
            Some(nl) => {
                let start = if matches!(first, Some('|' | '>')) {
                    loc.line + 1
                } else {
                    loc.line
                };
                l.line = start + before.matches('\n').count();
                let indent = file_line(l.line).map_or(0, |t| t.len() - t.trim_start().len());
                l.col = indent + 1 + (before.len() - nl - 1);
            }
            None => {
                // a quoted scalar starts one column after its quote
                if matches!(first, Some('\'' | '"')) {
                    l.col += 1;
                }
                l.col += orig;
            }
        }
        l
    }
}

fn collect_texts<'a>(props: &'a Props, out: &mut Vec<&'a str>) {
    fn srcs<'a>(v: &'a [Src], out: &mut Vec<&'a str>) {
        out.extend(v.iter().map(|s| s.text.as_str()));
    }
    for (_, defs) in props {
        for d in defs {
            srcs(&d.paths, out);
            out.extend(
                d.property
                    .iter()
                    .chain(&d.validator)
                    .chain(&d.default_filter)
                    .map(|s| s.text.as_str()),
            );
            if let Some(r) = &d.reference {
                srcs(&r.paths, out);
                out.extend(r.property.iter().map(|s| s.text.as_str()));
            }
            for it in &d.items {
                srcs(&it.paths, out);
                collect_texts(&it.properties, out);
            }
        }
    }
}

fn walk_regexes(props: &Props, out: &mut Vec<(String, Loc)>) {
    for (_, defs) in props {
        for d in defs {
            if let Some(r) = &d.regex {
                out.push((r.pattern.clone(), r.loc.clone()));
            }
            for it in &d.items {
                walk_regexes(&it.properties, out);
            }
        }
    }
}

fn walk_json_files(props: &Props, out: &mut Vec<(String, Loc)>) {
    for (_, defs) in props {
        for d in defs {
            if let Some(Reference {
                json_file: Some((f, l)),
                ..
            }) = &d.reference
            {
                out.push((f.clone(), l.clone()));
            }
            for it in &d.items {
                walk_json_files(&it.properties, out);
            }
        }
    }
}

impl Engine {
    /// Load mapping files (in layering order: later files override earlier ones), resolving data
    /// files by name with `resolver`. Fails on fatal diagnostics (see [`Diagnostic::is_fatal`]).
    pub fn from_files(
        files: &[MappingFile],
        resolver: &DataResolver,
    ) -> Result<Engine, MappingError> {
        let (engine, diags) = Self::build(files, resolver);
        let fatal: Vec<Diagnostic> = diags.iter().filter(|d| d.is_fatal()).cloned().collect();
        if !fatal.is_empty() {
            return Err(MappingError::Invalid(fatal));
        }
        engine.ok_or(MappingError::Invalid(diags))
    }

    /// Every diagnostic of the loaded set (non-fatal ones: unknown keys, broken jq filters).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Override engine settings read by `${config.…}` placeholders (merged key-wise).
    pub fn set_config(&mut self, config: serde_json::Value) {
        fn merge(a: &mut serde_json::Value, b: serde_json::Value) {
            match (a, b) {
                (serde_json::Value::Object(a), serde_json::Value::Object(b)) => {
                    for (k, v) in b {
                        merge(a.entry(k).or_insert(serde_json::Value::Null), v);
                    }
                }
                (a, b) => *a = b,
            }
        }
        merge(&mut self.config, config);
    }

    /// Load and validate: every diagnostic, fatal or not.
    pub fn check_files(files: &[MappingFile], resolver: &DataResolver) -> Vec<Diagnostic> {
        Self::build(files, resolver).1
    }

    #[allow(clippy::needless_range_loop)]
    fn build(files: &[MappingFile], resolver: &DataResolver) -> (Option<Engine>, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let mut set = MappingSet::default();
        let mut texts = HashMap::new();
        for f in files {
            model::parse_into(&mut set, &f.path, f.folder.as_deref(), &f.text, &mut diags);
            texts.insert(Arc::<str>::from(f.path.as_str()), f.text.clone());
        }

        // filters
        let mut b = Builder {
            filters: vec![],
            by_text: HashMap::new(),
            rests: HashSet::new(),
            texts: &texts,
        };
        for r in set.resources.values_mut() {
            for p in r.paths.iter_mut() {
                b.src(p, true);
            }
            b.props(&mut r.variables);
            b.props(&mut r.properties);
        }
        let nph = b
            .filters
            .iter()
            .map(|f| f.1.placeholders.len())
            .max()
            .unwrap_or(0);
        let mut texts_v: Vec<String> = b.filters.iter().map(|f| f.0.clone()).collect();
        let mut program = None;
        let mut parsed_each = false;
        for _round in 0..12 {
            let refs: Vec<&str> = texts_v.iter().map(String::as_str).collect();
            match Program::compile(&refs, nph) {
                Ok(p) => {
                    program = Some(p);
                    break;
                }
                Err(errs) => {
                    if !parsed_each {
                        // syntax errors stop the parser at the first one: check each filter on its own
                        parsed_each = true;
                        for i in 0..texts_v.len() {
                            if let Err((off, msg)) = jq::parse_one(&texts_v[i]) {
                                if !b.rests.contains(&i) {
                                    diags.push(Diagnostic {
                                        loc: b.locate(i, off),
                                        kind: DiagKind::Jq,
                                        message: format!("jq: {msg}"),
                                    });
                                }
                                texts_v[i] = "empty".into();
                            }
                        }
                        continue;
                    }
                    for (i, off, msg) in &errs {
                        if *i < texts_v.len() && texts_v[*i] != "empty" {
                            if !b.rests.contains(i) {
                                diags.push(Diagnostic {
                                    loc: b.locate(*i, *off),
                                    kind: DiagKind::Jq,
                                    message: format!("jq: {msg}"),
                                });
                            }
                            texts_v[*i] = "empty".into();
                        }
                    }
                }
            }
        }
        let Some(program) = program else {
            return (None, diags);
        };
        let filters: Vec<FilterInfo> = b.filters.into_iter().map(|f| f.1).collect();

        // regexes
        let mut regexes = HashMap::new();
        let mut pats = Vec::new();
        for r in set.resources.values() {
            walk_regexes(&r.variables, &mut pats);
            walk_regexes(&r.properties, &mut pats);
        }
        for (p, loc) in pats {
            match Regex::new(&p) {
                Ok(re) => {
                    regexes.insert(p, re);
                }
                Err(e) => {
                    let msg = e
                        .to_string()
                        .lines()
                        .last()
                        .unwrap_or("invalid")
                        .trim()
                        .to_string();
                    diags.push(Diagnostic {
                        loc,
                        kind: DiagKind::Regex,
                        message: format!("bad regex {p:?}: {msg}"),
                    })
                }
            }
        }
        let mut ignored: HashMap<String, Vec<Regex>> = HashMap::new();
        for (prov, g) in &set.general {
            for (pat, loc) in &g.ignored {
                match Regex::new(&format!("^(?:{pat})$")) {
                    Ok(re) => ignored.entry(prov.clone()).or_default().push(re),
                    Err(e) => diags.push(Diagnostic {
                        loc: loc.clone(),
                        kind: DiagKind::Regex,
                        message: format!(
                            "bad ignored_resources pattern {pat:?}: {}",
                            e.to_string().lines().last().unwrap_or("").trim()
                        ),
                    }),
                }
            }
        }

        // data files
        let mut data = HashMap::new();
        let mut declared = HashSet::new();
        for g in set.general.values() {
            for (name, (file, loc)) in &g.json_data {
                declared.insert(name.clone());
                if data.contains_key(file) {
                    continue;
                }
                match resolver(file) {
                    None => diags.push(Diagnostic {
                        loc: loc.clone(),
                        kind: DiagKind::Data,
                        message: format!("data file {file:?} not found"),
                    }),
                    Some(text) => match serde_json::from_str::<serde_json::Value>(&text) {
                        Ok(v) => {
                            data.insert(file.clone(), jq::to_val(&v));
                        }
                        Err(e) => diags.push(Diagnostic {
                            loc: loc.clone(),
                            kind: DiagKind::Data,
                            message: format!("data file {file:?}: {e}"),
                        }),
                    },
                }
            }
        }
        let mut refs = Vec::new();
        for r in set.resources.values() {
            walk_json_files(&r.variables, &mut refs);
            walk_json_files(&r.properties, &mut refs);
        }
        for (name, loc) in refs {
            if !declared.contains(&name) {
                diags.push(Diagnostic {
                    loc,
                    kind: DiagKind::Data,
                    message: format!(
                        "json_file {name:?} is not declared in any general.<provider>.json_data"
                    ),
                });
            }
        }

        // properties all_select is asked about in jq: index them. (An entry path that is only
        // `cbf::all_select("type"; "T")` is answered from the engine's own type index. Without
        // an index, all_select scans the resources: the same answer, in the same order.)
        let re = Regex::new(r#"all_select\(\s*"([^"]+)""#).expect("static regex");
        let native = Regex::new(TYPE_SELECT).expect("static regex");
        let mut index_props: Vec<String> = Vec::new();
        for t in texts_v.iter().filter(|t| !native.is_match(t)) {
            let by_address = ["by_address", "cbf::ref(", "referrers"]
                .iter()
                .any(|f| t.contains(f))
                .then(|| "address".to_string());
            let every = t.contains("$__idx").then_some(["type", "address"]);
            for p in re
                .captures_iter(t)
                .map(|c| c[1].to_string())
                .chain(by_address)
                .chain(every.into_iter().flatten().map(String::from))
            {
                if !index_props.contains(&p) {
                    index_props.push(p);
                }
            }
        }

        let memo_ok = set
            .resources
            .values()
            .filter(|r| {
                let mut texts = Vec::new();
                collect_texts(&r.variables, &mut texts);
                collect_texts(&r.properties, &mut texts);
                !texts
                    .iter()
                    .any(|t| t.contains("address") || t.contains("index"))
            })
            .map(|r| r.name.clone())
            .collect();
        let engine = Engine {
            set,
            program,
            filters,
            regexes,
            data,
            ignored,
            index_props,
            memo_ok,
            texts: texts_v,
            config: default_config(),
            diagnostics: diags.clone(),
        };
        (Some(engine), diags)
    }

    /// Names of the resource mappings loaded.
    pub fn resource_mappings(&self) -> impl Iterator<Item = &str> {
        self.set.resources.keys().map(String::as_str)
    }

    /// Number of distinct compiled filters.
    pub fn filter_count(&self) -> usize {
        self.program.len()
    }

    /// Map a plan (or state) document.
    pub fn map(&self, doc: &serde_json::Value) -> MappedPlan {
        self.map_document(super::doc::Document::from_value(doc))
    }

    /// Map a document parsed by [`super::doc::Document::from_slice`] (consumed: its values are
    /// freed as soon as mapping is done).
    pub fn map_document(&self, doc: super::doc::Document) -> MappedPlan {
        self.map_document_stats(doc).0
    }

    /// [`Engine::map_document`], and what it took.
    pub fn map_document_stats(&self, doc: super::doc::Document) -> (MappedPlan, MapStats) {
        let stats = MapStats::default();
        let super::doc::Document { root, unknown } = doc;
        let t = std::time::Instant::now();
        let regions_doc = regions_doc(&root);
        let regions = Regions::new(&regions_doc);
        phase("  regions", t);
        let unknown: HashMap<&str, &Val> = unknown.iter().map(|(k, v)| (k.as_str(), v)).collect();
        let empty = HashMap::new();
        let mut plan = MappedPlan::default();
        let before = jq::get(&root, "prior_state")
            .and_then(|p| jq::get(p, "values"))
            .and_then(|v| jq::get(v, "root_module"));
        let after = jq::get(&root, "planned_values")
            .and_then(|v| jq::get(v, "root_module"))
            .or_else(|| jq::get(&root, "values").and_then(|v| jq::get(v, "root_module")));
        let configs = Configs::new(&root);
        if let Some(m) = before {
            let mapped = self.map_side(&root, m, None, &configs, &regions, &empty, &stats);
            // ignored / unsupported are reported for the state after the change
            plan.before = mapped.0;
        }
        if let Some(m) = after {
            let (mapped, ignored, unsupported) =
                self.map_side(&root, m, before, &configs, &regions, &unknown, &stats);
            plan.after = mapped;
            plan.ignored = ignored;
            plan.unsupported = unsupported;
        }
        // regions left unknown: follow the configuration's references (mapping::region)
        region::resolve_from_references(&root, before, &mut plan.before);
        region::resolve_from_references(&root, after, &mut plan.after);
        // dropped here, before the caller allocates again (a drop on another thread would
        // overlap the renderer's allocations and raise the peak)
        drop(root);
        (plan, stats)
    }

    fn map_side(
        &self,
        root: &Val,
        module: &Val,
        extra: Option<&Val>,
        configs: &Configs,
        regions: &Regions,
        unknown: &HashMap<&str, &Val>,
        stats: &MapStats,
    ) -> (Vec<MappedResource>, Vec<String>, Vec<String>) {
        let t = std::time::Instant::now();
        let mut all = Vec::new();
        collect_resources(module, &mut all);
        // data sources read during plan live in prior_state: make them findable too
        if let Some(extra) = extra {
            let mut more = Vec::new();
            collect_resources(extra, &mut more);
            let have: HashSet<String> = all
                .iter()
                .filter_map(|r| jq::get(r, "address").and_then(jq::str_of))
                .collect();
            all.extend(more.into_iter().filter(|r| {
                jq::get(r, "mode").and_then(jq::str_of).as_deref() == Some("data")
                    && !jq::get(r, "address")
                        .and_then(jq::str_of)
                        .is_some_and(|a| have.contains(&a))
            }));
        }
        // what the engine reads of every resource, once
        let keys = [
            jq::s("address"),
            jq::s("type"),
            jq::s("mode"),
            jq::s("provider_name"),
        ];
        fn text<'v>(r: &'v Val, k: &Val) -> &'v str {
            match r {
                Val::Obj(o) => o.get(k).and_then(jq::str_ref).unwrap_or_default(),
                _ => "",
            }
        }
        let metas: Vec<[&str; 4]> = all
            .par_iter()
            .map(|r| {
                [
                    text(r, &keys[0]),
                    text(r, &keys[1]),
                    text(r, &keys[2]),
                    text(r, &keys[3]),
                ]
            })
            .collect();

        // the all_select index: property path → {"s": {string value → resources}, "j": {JSON of other values → resources}}
        let idx: Vec<(Val, Val)> = self
            .index_props
            .par_iter()
            .map(|p| {
                let path: Vec<Val> = p.split('.').map(jq::s).collect();
                // one resource is stored as itself, several as a list (`cbf::all_select`
                // tells them apart: resources are objects)
                fn add(map: &mut jaq_json::Map<Val, Val>, k: Val, r: &Val) {
                    match map.entry(k) {
                        indexmap::map::Entry::Vacant(e) => {
                            e.insert(r.clone());
                        }
                        indexmap::map::Entry::Occupied(mut e) => match e.get_mut() {
                            Val::Arr(a) => jaq_json::Rc::make_mut(a).push(r.clone()),
                            one => *one = Val::Arr(vec![one.clone(), r.clone()].into()),
                        },
                    }
                }
                let mut strings = jaq_json::Map::default();
                let mut others = jaq_json::Map::default();
                for r in &all {
                    let mut v = Some(r);
                    for k in &path {
                        v = match v {
                            Some(Val::Obj(o)) => o.get(k),
                            _ => None,
                        };
                    }
                    match v {
                        None | Some(Val::Null) => {}
                        Some(v @ (Val::TStr(_) | Val::BStr(_))) => add(&mut strings, v.clone(), r),
                        // the same text as jq's `tojson`
                        Some(v) => add(&mut others, jq::s(&v.to_string()), r),
                    }
                }
                let (s, j) = (Val::obj(strings), Val::obj(others));
                (
                    jq::s(p),
                    Val::obj([(jq::s("s"), s), (jq::s("j"), j)].into_iter().collect()),
                )
            })
            .collect();
        let idx_val = Val::obj(idx.into_iter().collect());
        let position = std::sync::OnceLock::<HashMap<&str, usize>>::new();
        let position =
            || position.get_or_init(|| metas.iter().enumerate().map(|(i, m)| (m[0], i)).collect());
        let mut by_type: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, m) in metas.iter().enumerate() {
            by_type.entry(m[1]).or_default().push(i);
        }
        let g = Globals {
            root: root.clone(),
            idx: idx_val,
            all: Val::Arr(all.clone().into()),
        };
        let ix = AddrIndex::new(&all, metas.iter().map(|m| m[0]));
        if profiling() {
            eprintln!(
                "  side: {} resources, all_select indexes: {:?}",
                all.len(),
                self.index_props
            );
        }
        phase("  side: indexes", t);
        let t = std::time::Instant::now();

        // which mapping takes each resource (first mapping by name wins)
        let mut work: Vec<(usize, &ResourceMapping, Val)> = Vec::new();
        let mut taken = vec![false; all.len()];
        let type_select = Regex::new(TYPE_SELECT).expect("static regex");
        for m in self.set.resources.values() {
            if m.kind != "resource" && !m.kind.is_empty() {
                continue;
            }
            for p in &m.paths {
                // the usual entry path is answered from the type index, without jq
                let found: Vec<usize> = match type_select.captures(&p.text) {
                    Some(c) => by_type.get(&c[1]).cloned().unwrap_or_default(),
                    None => self
                        .run_plain(p.id, root, &g)
                        .iter()
                        .filter_map(|r| position().get(text(r, &keys[0])).copied())
                        .collect(),
                };
                for i in found {
                    let meta = &metas[i];
                    if (meta[2] != "managed" && !meta[2].is_empty())
                        || region::provider_family(meta[3]).is_none()
                        || taken[i]
                    {
                        continue;
                    }
                    taken[i] = true;
                    work.push((i, m, all[i].clone()));
                }
            }
        }
        work.sort_by_key(|w| w.0);
        phase("  side: entry paths", t);
        let t = std::time::Instant::now();
        let mut block_size: HashMap<&str, usize> = HashMap::new();
        for (i, _, _) in &work {
            *block_size.entry(block_of(metas[*i][0])).or_default() += 1;
        }
        // per-resource context, and for instances of count/for_each blocks whose mapping never
        // reads an address, a key: instances equal but for their address map once
        let prepared: Vec<(PerResource, Option<(u64, Val)>)> = work
            .par_iter()
            .map(|(i, m, r)| {
                let addr = metas[*i][0];
                let (modpath, rel) = region::config_address(addr);
                let per = PerResource {
                    unknown: unknown.get(addr).map_or(Val::Null, |u| (*u).clone()),
                    config: configs
                        .resources
                        .get(&(modpath.clone(), rel))
                        .cloned()
                        .unwrap_or(Val::Null),
                    modprefix: jq::s(&module_prefix(addr)),
                    modconfig: configs.modules.get(&modpath).cloned().unwrap_or(Val::Null),
                };
                let key = (self.memo_ok.contains(&m.name)
                    && block_size.get(block_of(addr)).is_some_and(|n| *n > 1))
                .then(|| memo_key(m, r, &per));
                (per, key)
            })
            .collect();
        phase("  side: prepare", t);
        let t = std::time::Instant::now();
        let mut rep: Vec<usize> = (0..work.len()).collect();
        let mut first: HashMap<u64, usize> = HashMap::new();
        for (k, (_, key)) in prepared.iter().enumerate() {
            if let Some((h, _)) = key {
                rep[k] = *first.entry(*h).or_insert(k);
            }
        }
        // a hash collision is not an equality: check it
        let rep: Vec<usize> = rep
            .par_iter()
            .enumerate()
            .map(|(k, &r)| {
                let same = r == k
                    || matches!((&prepared[k].1, &prepared[r].1), (Some((_, a)), Some((_, b))) if a == b);
                if same { r } else { k }
            })
            .collect();
        let own: Vec<Option<MappedResource>> = work
            .par_iter()
            .zip(prepared.into_par_iter())
            .enumerate()
            .map(|(k, ((_, m, r), (per, _)))| {
                (rep[k] == k)
                    .then(|| self.map_resource(m, r.clone(), &g, &ix, configs, stats, regions, per))
            })
            .collect();
        let mapped: Vec<MappedResource> = (0..work.len())
            .map(|k| match &own[k] {
                Some(r) => r.clone(),
                None => {
                    let mut r = own[rep[k]].clone().expect("a representative is mapped");
                    r.address = metas[work[k].0][0].to_string();
                    r
                }
            })
            .zip(&work)
            .map(|(mut r, (i, _, _))| {
                // a deposed object shares its address with the current object: keep them apart
                if let Some(key) = jq::get(&all[*i], "deposed_key")
                    .and_then(jq::str_of)
                    .filter(|k| !k.is_empty())
                {
                    r.address = super::deposed_address(&r.address, &key);
                }
                r
            })
            .collect();

        phase("  side: map resources", t);
        let mut ignored = Vec::new();
        let mut unsupported = Vec::new();
        for (i, [addr, ty, mode, pn]) in metas.iter().enumerate() {
            if (*mode != "managed" && !mode.is_empty()) || taken[i] {
                continue;
            }
            let Some(fam) = region::provider_family(pn) else {
                continue;
            };
            let is_ignored = self
                .ignored
                .get(fam)
                .is_some_and(|v| v.iter().any(|re| re.is_match(ty)));
            if is_ignored {
                ignored.push(addr.to_string())
            } else {
                unsupported.push(addr.to_string())
            }
        }
        // freed before the other side is mapped
        drop((g, all));
        (mapped, ignored, unsupported)
    }

    fn run_plain(&self, fid: usize, input: &Val, g: &Globals) -> Vec<Val> {
        if fid == usize::MAX {
            return vec![];
        }
        self.program
            .run(fid, input.clone(), g, &PerResource::default(), &[])
            .into_iter()
            .filter_map(Result::ok)
            .filter(|v| !matches!(*v, Val::Null))
            .collect()
    }

    fn map_resource(
        &self,
        m: &ResourceMapping,
        res: Val,
        g: &Globals,
        ix: &AddrIndex,
        configs: &Configs,
        stats: &MapStats,
        regions: &Regions,
        per: PerResource,
    ) -> MappedResource {
        MapStats::add(&stats.resources, 1);
        let get = |k| jq::get(&res, k).and_then(jq::str_of).unwrap_or_default();
        let address = get("address");
        let provider_name = get("provider_name");
        let family = region::provider_family(&provider_name).unwrap_or("aws");
        let pck = jq::get(&per.config, "provider_config_key").and_then(jq::str_of);
        let cx = RCx {
            e: self,
            g,
            ix,
            configs,
            stats,
            modpath: region::config_address(&address).0,
            res: res.clone(),
            family,
            m,
            per,
            vars: RefCell::new(HashMap::new()),
            notes: RefCell::new(Notes::default()),
        };
        let mut out = MappedResource {
            address: address.clone(),
            resource_type: get("type"),
            name: get("name"),
            provider: family.to_string(),
            count: 1,
            replication_factor: 1,
            ..Default::default()
        };

        let text = |f: Option<Found>| {
            f.and_then(|f| match jq::str_of(&f.val) {
                Some(s) => Some(s),
                None => jq::num(&f.val).map(|n| jq::display(&jq::s(&n.to_string()))),
            })
        };
        out.machine_type = text(cx.scalar("machine_type"));
        if let Some(f) = cx.scalar("vCPUs").or_else(|| cx.scalar("vcpus")) {
            out.vcpus = jq::num(&f.val);
        }
        if let Some(f) = cx.scalar("memory") {
            out.memory_gb =
                jq::num(&f.val).map(|n| n * unit_factor_gb(f.unit.as_deref().unwrap_or("mb")));
        }
        let zone = cx.scalar("zone");
        out.zone = zone.and_then(|f| match &f.val {
            Val::Arr(a) => a.first().and_then(jq::str_of),
            v => jq::str_of(v),
        });
        out.region = text(cx.scalar("region")).filter(|r| !r.is_empty());
        if out.region.is_none() {
            out.region = out.zone.as_deref().map(|z| match family {
                "aws" => region::aws_zone_region(z),
                "gcp" => region::gcp_zone_region(z),
                _ => z.to_string(),
            });
        }
        if out.region.is_none() {
            out.region = regions.region_with_key(pck.as_deref(), &address, family, &provider_name);
        }
        if out.region.is_none() {
            cx.notes
                .borrow_mut()
                .warnings
                .push("region unknown".to_string());
        }
        if let Some(f) = cx.scalar("count")
            && let Some(n) = jq::num(&f.val)
        {
            out.count = n.round().max(0.0) as u32;
        }
        if let Some(f) = cx.scalar("replication_factor")
            && let Some(n) = jq::num(&f.val)
        {
            out.replication_factor = (n.round() as u32).max(1);
        }
        // GPUs: guest_accelerator items {count, type}, and a `gpus` property (list of models)
        for item in cx.list("guest_accelerator") {
            let ty = item.get("type").and_then(|f| jq::str_of(&f.val));
            let n = item
                .get("count")
                .and_then(|f| jq::num(&f.val))
                .unwrap_or(1.0);
            if let Some(ty) = ty {
                for _ in 0..(n.max(0.0) as usize) {
                    out.gpus
                        .push(ty.rsplit('/').next().unwrap_or(&ty).to_string());
                }
            }
        }
        if let Some(f) = cx.scalar("gpus") {
            push_strings(&f.val, &mut out.gpus);
        }
        if let Some(f) = cx.scalar("cpu_platform").or_else(|| cx.scalar("cpu_types")) {
            push_strings(&f.val, &mut out.cpu_types);
        }
        out.storage = cx.storages();
        let notes = cx.notes.into_inner();
        out.assumed = notes.assumed;
        out.warnings = notes.warnings;
        out
    }
}

fn push_strings(v: &Val, out: &mut Vec<String>) {
    match v {
        Val::Arr(a) => a.iter().filter_map(jq::str_of).for_each(|s| out.push(s)),
        v => {
            if let Some(s) = jq::str_of(v) {
                out.push(s)
            }
        }
    }
}

fn unit_factor_gb(unit: &str) -> f64 {
    match unit {
        "b" => 1.0 / (1024.0 * 1024.0 * 1024.0),
        "kb" => 1.0 / (1024.0 * 1024.0),
        "gb" => 1.0,
        "tb" => 1024.0,
        "pb" => 1024.0 * 1024.0,
        _ => 1.0 / 1024.0,
    }
}

/// What [`Regions`] reads of a document (provider configurations, variables, module calls and
/// each configuration resource's provider key), as JSON: small next to the document.
fn regions_doc(root: &Val) -> serde_json::Value {
    use serde_json::{Map, Value};
    fn module(m: &Val) -> Value {
        let mut out = Map::new();
        if let Some(Val::Arr(rs)) = jq::get(m, "resources") {
            let keep = |r: &Val| {
                let mut o = Map::new();
                for k in ["address", "provider_config_key"] {
                    if let Some(v) = jq::get(r, k) {
                        o.insert(k.to_string(), jq::to_json(v));
                    }
                }
                Value::Object(o)
            };
            out.insert("resources".into(), rs.iter().map(keep).collect());
        }
        if let Some(v) = jq::get(m, "variables") {
            out.insert("variables".into(), jq::to_json(v));
        }
        if let Some(Val::Obj(calls)) = jq::get(m, "module_calls") {
            let calls = calls
                .iter()
                .map(|(name, call)| {
                    let mut c = Map::new();
                    if let Some(e) = jq::get(call, "expressions") {
                        c.insert("expressions".into(), jq::to_json(e));
                    }
                    if let Some(m) = jq::get(call, "module") {
                        c.insert("module".into(), module(m));
                    }
                    (jq::str_of(name).unwrap_or_default(), Value::Object(c))
                })
                .collect();
            out.insert("module_calls".into(), Value::Object(calls));
        }
        Value::Object(out)
    }
    let mut conf = Map::new();
    if let Some(c) = jq::get(root, "configuration") {
        if let Some(pc) = jq::get(c, "provider_config") {
            conf.insert("provider_config".into(), jq::to_json(pc));
        }
        if let Some(m) = jq::get(c, "root_module") {
            conf.insert("root_module".into(), module(m));
        }
    }
    let mut doc = Map::new();
    doc.insert("configuration".into(), Value::Object(conf));
    if let Some(v) = jq::get(root, "variables") {
        doc.insert("variables".into(), jq::to_json(v));
    }
    Value::Object(doc)
}

/// An instance address without its final instance key: `a.b["x"]` → `a.b`.
fn block_of(addr: &str) -> &str {
    match addr
        .strip_suffix(']')
        .and_then(|a| a.rfind('[').map(|i| &addr[..i]))
    {
        Some(b) if !b.is_empty() => b,
        _ => addr,
    }
}

/// The memo key of a resource instance: its mapping, module instance, `after_unknown` marks and
/// everything of it but its address and index.
fn memo_key(m: &ResourceMapping, r: &Val, per: &PerResource) -> (u64, Val) {
    use std::hash::BuildHasher;
    let body = match r {
        Val::Obj(o) => Val::obj(
            o.iter()
                .filter(|(k, _)| !matches!(jq::str_ref(k), Some("address" | "index")))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        v => v.clone(),
    };
    let key = Val::Arr(
        vec![
            jq::s(&m.name),
            per.modprefix.clone(),
            per.unknown.clone(),
            body,
        ]
        .into(),
    );
    // the same seed for every key of one map call
    static SEED: std::sync::OnceLock<std::collections::hash_map::RandomState> =
        std::sync::OnceLock::new();
    (SEED.get_or_init(Default::default).hash_one(&key), key)
}

/// `cbf::by_address` answered natively: the first resource (in `$__all` order) at an address,
/// and the first whose address starts with `<prefix>[`.
struct AddrIndex<'a> {
    exact: HashMap<&'a str, usize>,
    prefix: HashMap<&'a str, usize>,
    all: &'a [Val],
}

impl<'a> AddrIndex<'a> {
    fn new(all: &'a [Val], addrs: impl Iterator<Item = &'a str>) -> AddrIndex<'a> {
        let mut exact = HashMap::new();
        let mut prefix = HashMap::new();
        for (i, a) in addrs.enumerate() {
            if a.is_empty() {
                continue;
            }
            exact.entry(a).or_insert(i);
            // every `[` (even one inside a quoted key) ends a prefix `startswith($a + "[")` accepts
            for (j, _) in a.match_indices('[') {
                prefix.entry(&a[..j]).or_insert(i);
            }
        }
        AddrIndex { exact, prefix, all }
    }

    /// `cbf::by_address($a)`.
    fn by_address(&self, a: &str) -> Option<&'a Val> {
        self.exact
            .get(a)
            .or_else(|| self.prefix.get(a))
            .map(|&i| &self.all[i])
    }
}

/// What one [`Engine::map_document_stats`] call did: tests compare these between plans of
/// different sizes to catch work per resource that grows with the plan, without timing anything.
#[derive(Debug, Default)]
pub struct MapStats {
    /// Resources mapped (both sides, memoised instances excluded).
    pub resources: AtomicU64,
    /// Filters run by jaq.
    pub jaq_runs: AtomicU64,
    /// jaq runs of filters that can scan the document ([`may_scan`]).
    pub scan_runs: AtomicU64,
    /// Those runs weighted by the number of resources they could scan.
    pub scanned: AtomicU64,
    /// Lookups answered from an index (`cbf::ref`, `cbf::referrers`).
    pub indexed: AtomicU64,
}

impl MapStats {
    fn add(c: &AtomicU64, n: u64) {
        c.fetch_add(n, Ordering::Relaxed);
    }
    /// (resources, jaq runs, scan runs, resources scanned, indexed lookups).
    pub fn get(&self) -> (u64, u64, u64, u64, u64) {
        let g = |c: &AtomicU64| c.load(Ordering::Relaxed);
        (
            g(&self.resources),
            g(&self.jaq_runs),
            g(&self.scan_runs),
            g(&self.scanned),
            g(&self.indexed),
        )
    }
}

/// Configuration resources by (module path, module-relative address), and each module's list.
#[derive(Default)]
struct Configs {
    resources: HashMap<(String, String), Val>,
    modules: HashMap<String, Val>,
    /// (module path, type, referred address) → positions in the module's resource list of the
    /// resources of that type whose expressions refer to the address or to one of its attributes.
    referrers: std::sync::OnceLock<HashMap<(String, String, String), Vec<usize>>>,
}

impl Configs {
    fn referrers(&self) -> &HashMap<(String, String, String), Vec<usize>> {
        self.referrers.get_or_init(|| {
            fn refs<'v>(v: &'v Val, out: &mut Vec<&'v str>) {
                match v {
                    Val::Obj(o) => {
                        if let Some(Val::Arr(rs)) = o.get(&jq::s("references")) {
                            out.extend(rs.iter().filter_map(jq::str_ref));
                        }
                        o.values().for_each(|v| refs(v, out));
                    }
                    Val::Arr(a) => a.iter().for_each(|v| refs(v, out)),
                    _ => {}
                }
            }
            let mut index: HashMap<(String, String, String), Vec<usize>> = HashMap::new();
            for (path, list) in &self.modules {
                let Val::Arr(list) = list else { continue };
                for (p, r) in list.iter().enumerate() {
                    let Some(ty) = jq::get(r, "type").and_then(jq::str_ref) else {
                        continue;
                    };
                    let mut rs = Vec::new();
                    refs(r, &mut rs);
                    for reference in rs {
                        // `. == $me or startswith($me + ".")`: the reference and its prefixes
                        // ending before a dot
                        let ends = reference
                            .match_indices('.')
                            .map(|(i, _)| i)
                            .chain([reference.len()]);
                        for e in ends {
                            let v = index
                                .entry((path.clone(), ty.to_string(), reference[..e].to_string()))
                                .or_default();
                            if v.last() != Some(&p) {
                                v.push(p);
                            }
                        }
                    }
                }
            }
            for v in index.values_mut() {
                v.sort_unstable();
                v.dedup();
            }
            index
        })
    }

    fn new(root: &Val) -> Configs {
        let mut c = Configs::default();
        if let Some(m) = jq::get(root, "configuration").and_then(|c| jq::get(c, "root_module")) {
            c.walk(m, String::new());
        }
        c
    }
    fn walk(&mut self, module: &Val, path: String) {
        if let Some(rs @ Val::Arr(list)) = jq::get(module, "resources") {
            for r in list.iter() {
                if let Some(a) = jq::get(r, "address").and_then(jq::str_of) {
                    let (_, rel) = region::config_address(&a);
                    self.resources.insert((path.clone(), rel), r.clone());
                }
            }
            self.modules.insert(path.clone(), rs.clone());
        }
        if let Some(Val::Obj(calls)) = jq::get(module, "module_calls") {
            for (name, call) in calls.iter() {
                let name = jq::str_of(name).unwrap_or_default();
                let child = if path.is_empty() {
                    format!("module.{name}")
                } else {
                    format!("{path}.module.{name}")
                };
                if let Some(m) = jq::get(call, "module") {
                    self.walk(m, child);
                }
            }
        }
    }
}

/// `module.a["x"].module.b.` for `module.a["x"].module.b.aws_instance.web[0]`; empty at the root.
fn module_prefix(addr: &str) -> String {
    let segs = region::split_address(addr);
    let mut out = String::new();
    let mut i = 0;
    while i + 1 < segs.len() && segs[i] == "module" {
        out.push_str("module.");
        out.push_str(segs[i + 1]);
        out.push('.');
        i += 2;
    }
    out
}

fn collect_resources(module: &Val, out: &mut Vec<Val>) {
    if let Some(Val::Arr(rs)) = jq::get(module, "resources") {
        out.extend(rs.iter().cloned());
    }
    if let Some(Val::Arr(cs)) = jq::get(module, "child_modules") {
        for c in cs.iter() {
            collect_resources(c, out);
        }
    }
}

#[derive(Default)]
struct Notes {
    assumed: Vec<String>,
    warnings: Vec<String>,
}

#[derive(Clone)]
struct Found {
    val: Val,
    unit: Option<String>,
}

/// Evaluation context of one resource.
struct RCx<'e> {
    e: &'e Engine,
    g: &'e Globals,
    ix: &'e AddrIndex<'e>,
    configs: &'e Configs,
    stats: &'e MapStats,
    /// Module path of the resource without instance keys (`module.a.module.b`).
    modpath: String,
    res: Val,
    family: &'e str,
    m: &'e ResourceMapping,
    per: PerResource,
    vars: RefCell<HashMap<String, Option<Val>>>,
    notes: RefCell<Notes>,
}

impl RCx<'_> {
    fn eval(&self, fid: usize, input: &Val, key: Option<&Val>) -> Vec<Val> {
        if fid == usize::MAX {
            return vec![];
        }
        let info = &self.e.filters[fid];
        let mut phs = Vec::with_capacity(info.placeholders.len());
        for (ph, this_id) in &info.placeholders {
            let v = match &ph.kind {
                PhKind::This(_) => self.eval(*this_id, &self.res, None).into_iter().next(),
                PhKind::Key => key.cloned(),
                PhKind::Config(p) => {
                    let mut c = &self.e.config;
                    for k in p.split('.') {
                        c = &c[k];
                    }
                    (!c.is_null()).then(|| jq::to_val(c))
                }
                PhKind::Var(n) => self.var(n),
            };
            phs.push(if ph.in_string {
                jq::s(
                    &v.filter(|v| !matches!(*v, Val::Null))
                        .map_or_else(|| ".not_found".to_string(), |v| jq::display(&v)),
                )
            } else {
                v.unwrap_or(Val::Null)
            });
        }
        let input = if info.on_root { &self.g.root } else { input };
        if let Some(f) = &info.fast {
            return f.run(input, &phs);
        }
        if let Some((first, types)) = &info.referrers {
            return self.native_referrers(*first, types);
        }
        if let Some(r) = &info.ref_arg {
            let found = r.run(&self.per.config, &[]);
            if found.is_empty() {
                return vec![];
            }
            // `cbf::ref(<path without []>)`: ref_address and by_address, natively
            if !r.has_iter() {
                return self.native_ref(&found[0]).into_iter().collect();
            }
        }
        if let Some(sp) = &info.split {
            let mut out = Vec::new();
            for v in sp.prefix.run_keep_null(input, &phs) {
                if let Some(p) = &sp.pred {
                    if !matches!(v, Val::Null) && p.keeps(&v) {
                        out.push(v);
                    }
                    continue;
                }
                if matches!(v, Val::Null) {
                    match &sp.null_rule {
                        NullRule::Empty => continue,
                        NullRule::Cached(c) => {
                            out.extend(
                                c.get_or_init(|| self.run_jaq(sp.rest, Val::Null, &phs))
                                    .iter()
                                    .cloned(),
                            );
                            continue;
                        }
                        NullRule::Run => {}
                    }
                }
                out.extend(self.run_jaq(sp.rest, v, &phs));
            }
            return out;
        }
        self.run_jaq(fid, input.clone(), &phs)
    }

    fn count_jaq(&self, fid: usize) {
        MapStats::add(&self.stats.jaq_runs, 1);
        if self.e.filters.get(fid).is_some_and(|f| f.scans) {
            MapStats::add(&self.stats.scan_runs, 1);
            let n = match &self.g.all {
                Val::Arr(a) => a.len(),
                _ => 0,
            };
            MapStats::add(&self.stats.scanned, n as u64);
        }
    }

    /// `cbf::referrers(T)` for each of `types` in turn (the first answer only with `first`):
    /// configuration resources of type T in this module that refer to this resource, by address.
    fn native_referrers(&self, first: bool, types: &[String]) -> Vec<Val> {
        MapStats::add(&self.stats.indexed, 1);
        let me = jq::get(&self.per.config, "address")
            .and_then(jq::str_ref)
            .unwrap_or("");
        let Some(Val::Arr(list)) = self.configs.modules.get(&self.modpath) else {
            return vec![];
        };
        let prefix = jq::str_ref(&self.per.modprefix).unwrap_or_default();
        let index = self.configs.referrers();
        let mut out = Vec::new();
        for ty in types {
            let key = (self.modpath.clone(), ty.clone(), me.to_string());
            for &p in index.get(&key).into_iter().flatten() {
                let Some(a) = jq::get(&list[p], "address").and_then(jq::str_ref) else {
                    continue;
                };
                if let Some(r) = self.ix.by_address(&format!("{prefix}{a}")) {
                    out.push(r.clone());
                    if first {
                        return out;
                    }
                }
            }
        }
        out
    }

    /// `ref_address(f) as $a | by_address($a)` where `found` is the value of `$__config | f`.
    fn native_ref(&self, found: &Val) -> Option<Val> {
        MapStats::add(&self.stats.indexed, 1);
        let refs: Vec<&Val> = match jq::get(found, "references") {
            Some(Val::Arr(a)) => a.iter().collect(),
            Some(Val::Obj(o)) => o.values().collect(),
            _ => vec![],
        };
        let r = refs
            .into_iter()
            .filter_map(jq::str_ref)
            .find(|r| is_ref_address(r))?;
        let prefix = jq::str_ref(&self.per.modprefix).unwrap_or_default();
        self.ix.by_address(&format!("{prefix}{r}")).cloned()
    }

    fn run_jaq(&self, fid: usize, input: Val, phs: &[Val]) -> Vec<Val> {
        self.count_jaq(fid);
        let _t = profiling().then(|| Prof(fid, std::time::Instant::now()));
        self.e
            .program
            .run(fid, input, self.g, &self.per, phs)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|v| !matches!(*v, Val::Null))
            .collect()
    }

    fn var(&self, name: &str) -> Option<Val> {
        if let Some(v) = self.vars.borrow().get(name) {
            return v.clone();
        }
        self.vars.borrow_mut().insert(name.to_string(), None); // cycle guard
        let v = self
            .m
            .variables
            .iter()
            .find(|(k, _)| k == name)
            .and_then(|(_, defs)| self.prop(defs, &self.res, false))
            .map(|f| f.val);
        self.vars.borrow_mut().insert(name.to_string(), v.clone());
        v
    }

    fn scalar(&self, name: &str) -> Option<Found> {
        let (_, defs) = self.m.properties.iter().find(|(k, _)| k == name)?;
        // only the figures the estimate depends on get "unknown until apply" notes
        let noted = matches!(
            name,
            "machine_type" | "vCPUs" | "vcpus" | "memory" | "count" | "replication_factor"
        );
        self.prop(defs, &self.res, noted)
    }

    /// Resolve a property from its ordered sources.
    fn prop(&self, defs: &[PropDef], input: &Val, top: bool) -> Option<Found> {
        for d in defs.iter().filter(|d| !d.list) {
            let found = d
                .paths
                .iter()
                .find_map(|p| self.eval(p.id, input, None).into_iter().next());
            if let Some(v) = found
                && let Some(v) = self.post(d, v)
            {
                return Some(Found {
                    val: v,
                    unit: d.unit.clone(),
                });
            }
        }
        for d in defs.iter().filter(|d| !d.list) {
            let Some(def) = &d.default else { continue };
            let v = match &d.default_filter {
                Some(f) => self.eval(f.id, input, None).into_iter().next(),
                None => Some(jq::to_val(def)),
            };
            let v = v.and_then(|v| self.post(d, v));
            if top && let Some(attr) = self.unknown_attr(defs) {
                let shown = v.as_ref().map_or("none".to_string(), jq::display);
                self.notes
                    .borrow_mut()
                    .assumed
                    .push(format!("{attr} = {shown} (known after apply)"));
            }
            return v.map(|v| Found {
                val: v,
                unit: d.unit.clone(),
            });
        }
        if top && let Some(attr) = self.unknown_attr(defs) {
            self.notes
                .borrow_mut()
                .warnings
                .push(format!("{attr} known after apply"));
        }
        None
    }

    /// The first `.values.<attr>` the sources read that is unknown until apply.
    fn unknown_attr(&self, defs: &[PropDef]) -> Option<String> {
        if self.per.unknown == Val::Null {
            return None;
        }
        for d in defs {
            for p in &d.paths {
                let mut rest = p.text.as_str();
                while let Some(i) = rest.find(".values.") {
                    let tail = &rest[i + 8..];
                    let attr: String = tail
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if let Some(u) = jq::get(&self.per.unknown, &attr)
                        && contains_true(u)
                    {
                        return Some(attr);
                    }
                    rest = tail;
                }
            }
        }
        None
    }

    /// property, regex, reference, value_type and validator of one source, applied to a found value.
    fn post(&self, d: &PropDef, mut v: Val) -> Option<Val> {
        if let (Some(p), Val::Obj(_)) = (&d.property, &v) {
            v = if p.id != usize::MAX {
                self.eval(p.id, &v, None).into_iter().next()?
            } else {
                jq::get(&v, p.text.trim()).cloned()?
            };
        }
        if let (Some(r), Some(sv)) = (&d.regex, jq::str_of(&v)) {
            let re = self.e.regexes.get(&r.pattern)?;
            let caps = re.captures(&sv)?;
            let g = caps.get(r.group)?.as_str().to_string();
            v = jq::s(&g);
            if matches!(
                r.value_type.as_deref(),
                Some("integer" | "int" | "float" | "number")
            ) {
                v = Val::from(g.parse::<f64>().ok()?);
            }
        }
        if let Some(r) = &d.reference
            && (jq::str_of(&v).is_some() || jq::num(&v).is_some())
        {
            v = self.reference(r, v)?;
        }
        match d.value_type.as_deref() {
            Some("integer" | "int") => v = Val::from(jq::num(&v)?.trunc()),
            Some("float" | "number") => v = Val::from(jq::num(&v)?),
            _ => {}
        }
        if let Some(val) = &d.validator
            && val.id != usize::MAX
        {
            let g = self.g;
            self.count_jaq(val.id);
            let errs: Vec<String> = self
                .e
                .program
                .run(val.id, v.clone(), g, &self.per, &[])
                .into_iter()
                .filter_map(Result::err)
                .collect();
            if let Some(e) = errs.first() {
                self.notes
                    .borrow_mut()
                    .warnings
                    .push(format!("validator: {e}"));
                return None;
            }
        }
        Some(v)
    }

    fn reference(&self, r: &Reference, key: Val) -> Option<Val> {
        let key_s = jq::display(&key);
        if let Some((name, _)) = &r.json_file {
            let general = &self.e.set.general;
            let file = general
                .get(self.family)
                .and_then(|g| g.json_data.get(name))
                .or_else(|| general.values().find_map(|g| g.json_data.get(name)))?;
            let table = self.e.data.get(&file.0)?;
            let item = jq::get(table, &key_s)?;
            return match &r.property {
                Some(p) if p.id != usize::MAX => self.eval(p.id, item, None).into_iter().next(),
                Some(p) => jq::get(item, p.text.trim())
                    .cloned()
                    .filter(|v| !matches!(*v, Val::Null)),
                None => Some(item.clone()),
            };
        }
        if r.general.is_some() {
            return Some(jq::s(self.disk_kind_name(&key_s)));
        }
        if !r.paths.is_empty() {
            for p in &r.paths {
                let items = self.eval(p.id, &self.g.root, Some(&key));
                if items.is_empty() {
                    continue;
                }
                if let Some(prop) = &r.property {
                    for it in &items {
                        let v = if prop.id != usize::MAX {
                            self.eval(prop.id, it, None).into_iter().next()
                        } else {
                            jq::get(it, prop.text.trim()).cloned()
                        };
                        if let Some(v) = v.filter(|v| !matches!(*v, Val::Null)) {
                            return Some(v);
                        }
                    }
                    continue;
                }
                return Some(if items.len() == 1 || r.return_path {
                    items[0].clone()
                } else {
                    Val::Arr(items.into())
                });
            }
            return None;
        }
        Some(key)
    }

    /// `ssd`/`hdd` for a provider disk type, via general.<provider>.disk_types.
    fn disk_kind_name(&self, t: &str) -> &'static str {
        let lower = t.to_ascii_lowercase();
        if lower == "ssd" || lower == "hdd" {
            return if lower == "ssd" { "ssd" } else { "hdd" };
        }
        let g = self.e.set.general.get(self.family);
        let mapped = g
            .and_then(|g| g.disk_types.get(t))
            .map(|s| s.to_ascii_lowercase());
        let d = mapped.or_else(|| {
            g.and_then(|g| g.disk_default.clone())
                .map(|s| s.to_ascii_lowercase())
        });
        match d.as_deref() {
            Some("hdd") => "hdd",
            _ => "ssd",
        }
    }

    fn list(&self, name: &str) -> Vec<HashMap<String, Found>> {
        let Some((_, defs)) = self.m.properties.iter().find(|(k, _)| k == name) else {
            return vec![];
        };
        let mut out = Vec::new();
        for d in defs.iter().filter(|d| d.list || !d.items.is_empty()) {
            for it in &d.items {
                for p in &it.paths {
                    for v in self.eval(p.id, &self.res, None) {
                        let elems: Vec<Val> = match &v {
                            Val::Arr(a) => a
                                .iter()
                                .filter(|x| matches!(x, Val::Obj(_)))
                                .cloned()
                                .collect(),
                            Val::Obj(_) => vec![v.clone()],
                            _ => vec![],
                        };
                        for el in elems {
                            let mut props = HashMap::new();
                            for (k, pdefs) in &it.properties {
                                if let Some(f) = self.prop(pdefs, &el, false) {
                                    props.insert(k.clone(), f);
                                }
                            }
                            out.push(props);
                        }
                    }
                }
            }
        }
        out
    }

    fn storages(&self) -> Vec<Storage> {
        struct S {
            st: Storage,
            prio: f64,
        }
        let mut all: Vec<S> = Vec::new();
        for item in self.list("storage") {
            let Some(size) = item.get("size") else {
                continue;
            };
            let Some(n) = jq::num(&size.val) else {
                continue;
            };
            let gb = match size.unit.as_deref() {
                Some("mb") => n / 1024.0,
                Some("tb") => n * 1024.0,
                Some("kb") => n / 1024.0 / 1024.0,
                Some("b") => n / 1024.0 / 1024.0 / 1024.0,
                _ => n,
            };
            let kind = match item.get("type").and_then(|f| jq::str_of(&f.val)) {
                Some(t) => self.disk_kind_name(&t),
                None => self.disk_kind_name(""),
            };
            let kind = if kind == "hdd" {
                DiskKind::Hdd
            } else {
                DiskKind::Ssd
            };
            let key = item
                .get("key")
                .and_then(|f| jq::str_of(&f.val))
                .filter(|k| !k.is_empty());
            let prio = item
                .get("override_priority")
                .and_then(|f| jq::num(&f.val))
                .unwrap_or(0.0);
            all.push(S {
                st: Storage {
                    size_gb: gb,
                    kind,
                    key,
                },
                prio,
            });
        }
        // one storage per key: the lowest override_priority wins (first one on a tie)
        let mut out: Vec<Storage> = Vec::new();
        let mut best: HashMap<String, (usize, f64)> = HashMap::new();
        for s in all {
            match &s.st.key {
                None => out.push(s.st),
                Some(k) => match best.get(k) {
                    Some(&(_, p)) if p <= s.prio => {}
                    Some(&(i, _)) => {
                        best.insert(k.clone(), (i, s.prio));
                        out[i] = s.st;
                    }
                    None => {
                        best.insert(k.clone(), (out.len(), s.prio));
                        out.push(s.st);
                    }
                },
            }
        }
        out
    }
}

/// `cbf::referrers("T")`, or `first(…)` of several: (first only, the types).
fn referrers_shape(text: &str) -> Option<(bool, Vec<String>)> {
    let t = text.trim();
    let (first, inner) = match t.strip_prefix("first(").and_then(|x| x.strip_suffix(')')) {
        Some(i) => (true, i),
        None => (false, t),
    };
    let mut types = Vec::new();
    for part in inner.split(',') {
        let ty = part
            .trim()
            .strip_prefix("cbf::referrers(\"")?
            .strip_suffix("\")")?;
        if ty.is_empty() || !ty.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            return None;
        }
        types.push(ty.to_string());
    }
    (first || types.len() == 1).then_some((first, types))
}

/// An entry path that is only `cbf::all_select("type"; "T")`: the engine answers it from its own
/// type index, without jq.
const TYPE_SELECT: &str = r#"^\s*cbf::all_select\(\s*"type"\s*;\s*"([^"]+)"\s*\)\s*$"#;

/// Whether a filter run by jaq can scan the document: it reads every resource (`$__all`, a
/// non-indexed `all_select`, `by_address`), the root, or a module's configuration resources.
pub fn may_scan(text: &str) -> bool {
    let t = text.trim_start();
    let literal_select = Regex::new(r#"all_select\(\s*"[^"]+"\s*;"#).expect("static regex");
    [
        "$__all",
        "$__root",
        "$__modconfig",
        "cbf::root",
        "cbf::by_address",
        "cbf::ref(",
        "cbf::referrers",
        "cbf::config_resources",
    ]
    .iter()
    .any(|p| t.contains(p))
        || t.matches("all_select(").count() > literal_select.find_iter(t).count()
        || ([
            ".configuration",
            ".prior_state",
            ".planned_values",
            ".resource_changes",
        ]
        .iter()
        .any(|p| t.starts_with(p))
            && (t.contains("[]") || t.contains("..")))
}

/// `test("^(data\\.)?[a-zA-Z0-9_]+\\.[a-zA-Z0-9_-]+$")` of `cbf::ref_address`.
fn is_ref_address(r: &str) -> bool {
    let ok = |s: &str, dash: bool| {
        !s.is_empty()
            && s.bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'_' || (dash && c == b'-'))
    };
    let plain = |r: &str| matches!(r.split_once('.'), Some((t, n)) if ok(t, false) && ok(n, true));
    plain(r) || r.strip_prefix("data.").is_some_and(plain)
}

fn contains_true(v: &Val) -> bool {
    match v {
        Val::Bool(b) => *b,
        Val::Arr(a) => a.iter().any(contains_true),
        Val::Obj(o) => o.values().any(contains_true),
        _ => false,
    }
}

fn phase(name: &str, since: std::time::Instant) {
    if profiling() {
        let (now, peak) = crate::memory::resident();
        eprintln!(
            "{name}: {:.3}s (RSS {now}, peak {peak})",
            since.elapsed().as_secs_f64()
        );
    }
}

/// `CARBON_SHOW_PROFILE=1`: time spent in jaq per filter, printed to stderr after mapping.
static PROF: std::sync::Mutex<Option<HashMap<usize, (u64, f64)>>> = std::sync::Mutex::new(None);

/// Whether `CARBON_SHOW_PROFILE` is set.
pub fn profiling() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("CARBON_SHOW_PROFILE").is_some())
}

struct Prof(usize, std::time::Instant);
impl Drop for Prof {
    fn drop(&mut self) {
        let d = self.1.elapsed().as_secs_f64();
        let mut g = PROF.lock().unwrap();
        let e = g
            .get_or_insert_with(HashMap::new)
            .entry(self.0)
            .or_default();
        e.0 += 1;
        e.1 += d;
    }
}
impl Engine {
    fn filter_text(&self, fid: usize) -> String {
        self.texts.get(fid).cloned().unwrap_or_default()
    }
    /// Prints the filters jaq spent most time in (with `CARBON_SHOW_PROFILE`).
    pub fn dump_prof(&self, texts: bool) {
        let g = PROF.lock().unwrap();
        let mut v: Vec<_> = g.iter().flatten().collect();
        v.sort_by(|a, b| b.1.1.partial_cmp(&a.1.1).unwrap());
        for (fid, (n, t)) in v.iter().take(25) {
            eprintln!(
                "{fid}\t{n}\t{t:.3}\t{}",
                if texts {
                    self.filter_text(**fid)
                } else {
                    String::new()
                }
            );
        }
    }
}
