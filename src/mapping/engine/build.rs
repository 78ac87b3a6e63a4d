//! Building an [`Engine`] from mapping files, step by step: the model parsed, the filters
//! compiled, the regexes and `ignored_resources` patterns, the data files, and what the
//! filters read (the indexes the mapping keeps, the values each mapping reads).

use super::*;
use crate::mapping::ignored::Ignored;
use std::sync::OnceLock;

impl Engine {
    /// The engine of `files` (none when no filter compiles), and every diagnostic.
    ///
    /// When every file is one of the shipped mappings, unchanged, and `eager` is not asked
    /// (`mappings check`), the jq program is compiled when a filter first runs in jaq: their
    /// filters are known to compile (`tests::every_shipped_filter_compiles`).
    pub(super) fn build(
        files: &[MappingFile],
        resolver: &DataResolver,
        eager: bool,
    ) -> (Option<Engine>, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let mut set = MappingSet::default();
        let mut texts = HashMap::new();
        for f in files {
            model::parse_into(&mut set, &f.path, f.folder.as_deref(), &f.text, &mut diags);
            texts.insert(Arc::<str>::from(f.path.as_str()), f.text.clone());
        }
        let lazy = !eager && files.iter().all(is_shipped);
        let Some(Filters {
            program,
            nph,
            filters,
            texts: texts_v,
            locs,
        }) = compile_filters(&mut set, &texts, lazy, &mut diags)
        else {
            return (None, diags);
        };
        // the files given that are shipped ones, unchanged: their patterns are known to compile,
        // and their filters say plainly what they read (a user's read the whole resource)
        let mut unchanged: HashMap<&str, bool> = HashMap::new();
        for f in files {
            *unchanged.entry(f.path.as_str()).or_insert(true) &= is_shipped(f);
        }
        let unchanged_at = |loc: &Loc| unchanged.get(&*loc.file) == Some(&true);
        let shipped_at = |loc: &Loc| !eager && unchanged_at(loc);
        let regexes = compile_regexes(&set, &shipped_at, &mut diags);
        let ignored = compile_ignored(&set, &shipped_at, &mut diags);
        let data = load_data(&set, resolver, &mut diags);
        let wanted = indexed_props(&texts_v);
        let whole = whole_uses(&filters, &texts_v);
        let mut read = filters::ValuesRead::default();
        let partial = set
            .resources
            .values()
            .filter(|r| unchanged_at(&r.loc))
            .filter_map(|r| Some((r.name.clone(), read.of(&filters::mapping_texts(r))?)))
            .collect();
        let reads = set
            .resources
            .values()
            .filter(|r| unchanged_at(&r.loc))
            .map(|r| (r.name.clone(), property_reads(r, &mut read)))
            .collect();
        let memo_ok = set
            .resources
            .values()
            .filter(|r| {
                !filters::mapping_texts(r)
                    .iter()
                    .any(|t| t.contains("address") || t.contains("index"))
            })
            .map(|r| r.name.clone())
            .collect();
        let engine = Engine {
            set,
            program,
            nph,
            filters,
            regexes,
            data,
            ignored,
            wanted,
            whole,
            partial,
            reads,
            memo_ok,
            across: std::sync::OnceLock::new(),
            texts: texts_v,
            locs,
            config: default_config(),
            diagnostics: diags.clone(),
            native_off: false,
            check_native: None,
        };
        (Some(engine), diags)
    }
}

/// The filters of every mapping, registered, and what each one's text says.
pub(super) struct Filters {
    /// The jq program of them all: compiled here unless `lazy` (then when one first needs it).
    pub(super) program: OnceLock<Program>,
    /// The placeholder variables the program binds.
    pub(super) nph: usize,
    pub(super) filters: Vec<FilterInfo>,
    /// Each filter's text (`empty` for one that did not compile).
    pub(super) texts: Vec<String>,
    /// Where each comes from (`file:line`).
    pub(super) locs: Vec<String>,
}

/// The filters of every mapping, registered and, unless `lazy`, compiled as one jq program; a
/// filter that does not parse or compile is reported and replaced by `empty`. `None`: no
/// program compiled.
fn compile_filters(
    set: &mut MappingSet,
    texts: &HashMap<Arc<str>, String>,
    lazy: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<Filters> {
    // filters
    let mut b = Builder {
        filters: vec![],
        by_text: Default::default(),
        rests: HashSet::new(),
        texts,
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
    let program = OnceLock::new();
    if !lazy {
        let mut report = |i: usize, offset: usize, kind: DiagKind, message: String| {
            if !b.rests.contains(&i) {
                diags.push(Diagnostic {
                    loc: b.locate(i, offset),
                    kind,
                    message,
                });
            }
        };
        let _ = program.set(compile_program(&mut texts_v, nph, &mut report)?);
    }
    let locs = b
        .filters
        .iter()
        .map(|(_, _, l, _)| format!("{}:{}", l.file, l.line))
        .collect();
    let mut filters: Vec<FilterInfo> = b.filters.into_iter().map(|f| f.1).collect();
    // a filter jaq did not compile gives nothing, natively too
    for (f, t) in filters.iter_mut().zip(&texts_v) {
        if t == "empty" {
            f.native = None;
        }
    }
    Some(Filters {
        program,
        nph,
        filters,
        texts: texts_v,
        locs,
    })
}

/// `texts` compiled as one jq program: a filter that does not parse or compile is reported
/// (`report`: the filter, the offset in its text, the kind, the message) and replaced by
/// `empty`. `None`: no program compiled.
#[allow(clippy::needless_range_loop)]
pub(super) fn compile_program(
    texts_v: &mut [String],
    nph: usize,
    report: &mut dyn FnMut(usize, usize, DiagKind, String),
) -> Option<Program> {
    let mut parsed_each = false;
    for _round in 0..12 {
        let refs: Vec<&str> = texts_v.iter().map(String::as_str).collect();
        match Program::compile(&refs, nph) {
            Ok(p) => return Some(p),
            Err(errs) => {
                if !parsed_each {
                    // syntax errors stop the parser at the first one: check each filter on its own
                    parsed_each = true;
                    for i in 0..texts_v.len() {
                        if let Err((off, msg)) = jq::parse_one(&texts_v[i]) {
                            report(i, off, DiagKind::Jq, format!("jq: {msg}"));
                            texts_v[i] = "empty".into();
                        }
                    }
                    continue;
                }
                for e in &errs {
                    let i = e.filter;
                    if i < texts_v.len() && texts_v[i] != "empty" {
                        let kind = if e.forbidden {
                            DiagKind::Unsafe
                        } else {
                            DiagKind::Jq
                        };
                        report(i, e.offset, kind, format!("jq: {}", e.message));
                        texts_v[i] = "empty".into();
                    }
                }
            }
        }
    }
    None
}

/// The regexes the mappings' properties match with, each compiled once: a user's now (its
/// errors are reported at load), a shipped one's (`shipped`: known to compile) when first used.
fn compile_regexes(
    set: &MappingSet,
    shipped: &dyn Fn(&Loc) -> bool,
    diags: &mut Vec<Diagnostic>,
) -> FastMap<String, OnceLock<Option<Regex>>> {
    // regexes
    let mut regexes: FastMap<String, OnceLock<Option<Regex>>> = FastMap::default();
    let mut pats = Vec::new();
    for r in set.resources.values() {
        walk_regexes(&r.variables, &mut pats);
        walk_regexes(&r.properties, &mut pats);
    }
    for (p, loc) in pats {
        if shipped(&loc) {
            regexes.entry(p).or_default();
            continue;
        }
        match Regex::new(&p) {
            Ok(re) => {
                regexes.insert(p, OnceLock::from(Some(re)));
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
    regexes
}

/// Each provider's `ignored_resources` patterns: those that need a regex compiled now when one
/// is a user's (its errors are reported at load), else when first needed.
fn compile_ignored(
    set: &MappingSet,
    shipped: &dyn Fn(&Loc) -> bool,
    diags: &mut Vec<Diagnostic>,
) -> HashMap<String, Ignored> {
    let mut ignored = HashMap::new();
    for (prov, g) in &set.general {
        let ig = Ignored::new(g.ignored.iter().map(|(p, _)| p.as_str()));
        if ig.needs_regex() && !g.ignored.iter().all(|(_, loc)| shipped(loc)) {
            for (i, msg) in ig.compile() {
                let (pat, loc) = &g.ignored[i];
                diags.push(Diagnostic {
                    loc: loc.clone(),
                    kind: DiagKind::Regex,
                    message: format!("bad ignored_resources pattern {pat:?}: {msg}"),
                });
            }
        }
        if !g.ignored.is_empty() {
            ignored.insert(prov.clone(), ig);
        }
    }
    ignored
}

/// The data files the mappings declare (`json_data`), read through `resolver`; and a
/// diagnostic for each `json_file` no mapping declares.
fn load_data(
    set: &MappingSet,
    resolver: &DataResolver,
    diags: &mut Vec<Diagnostic>,
) -> FastMap<String, crate::mapping::table::Table> {
    // data files
    let mut data = FastMap::default();
    let mut declared = HashSet::new();
    for g in set.general.values() {
        for (name, (file, loc)) in &g.json_data {
            declared.insert(name.clone());
            if data.contains_key(file) {
                continue;
            }
            if !crate::mapping::plain_data_name(file) {
                diags.push(Diagnostic {
                    loc: loc.clone(),
                    kind: DiagKind::Data,
                    message: format!(
                        "data file {file:?}: give a name inside the --data folder (no \
                         absolute path, no `..`)"
                    ),
                });
                continue;
            }
            match resolver(file) {
                None => diags.push(Diagnostic {
                    loc: loc.clone(),
                    kind: DiagKind::Data,
                    message: format!("data file {file:?} not found"),
                }),
                Some(text) => match crate::mapping::table::Table::new(text) {
                    Ok(t) => {
                        data.insert(file.clone(), t);
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
    data
}

/// The properties the filters ask `all_select` about, which the mapping indexes.
fn indexed_props(texts_v: &[String]) -> crate::mapping::source::Wanted {
    // properties all_select is asked about in jq: index them. (An entry path that is only
    // `cbf::all_select("type"; "T")` is answered from the engine's own type index. Without
    // an index, all_select scans the resources: the same answer, in the same order.)
    let mut index_props: Vec<String> = Vec::new();
    for t in texts_v.iter().filter(|t| filters::type_select(t).is_none()) {
        // (`by_address`, `cbf::ref` and `cbf::referrers` have an index of their own)
        let every = t.contains("$__idx").then_some(["type", "address"]);
        for p in filters::all_select_props(t)
            .map(String::from)
            .chain(every.into_iter().flatten().map(String::from))
        {
            if !index_props.contains(&p) {
                index_props.push(p);
            }
        }
    }
    crate::mapping::source::Wanted {
        props: index_props
            .iter()
            .map(|p| p.split('.').map(String::from).collect())
            .collect(),
    }
}

/// What the filters read of the whole document, all together.
fn whole_uses(filters: &[FilterInfo], texts_v: &[String]) -> Uses {
    // entry paths answered from the type index never run
    Uses {
        root: filters
            .iter()
            .zip(texts_v)
            .any(|(f, t)| f.reads_root() && filters::type_select(t).is_none()),
        all: filters.iter().any(|f| f.uses.all),
        idx: filters.iter().any(|f| f.uses.idx),
        // a `cbf::referrers` answered natively reads the module's list itself
        modconfig: filters
            .iter()
            .any(|f| f.uses.modconfig && f.referrers.is_none()),
    }
}

/// Whether `f` is one of the shipped mapping files, unchanged.
fn is_shipped(f: &MappingFile) -> bool {
    crate::mapping::BUILTIN
        .iter()
        .any(|(_, p, t)| *p == f.path && *t == f.text)
}
