//! The engine: loads and layers mapping sets and compiles their filters once (what each filter
//! reads is in `engine::filters`; the mapping of a document in `engine::map`; a side's resources
//! and the lookups over them in `engine::side`; address helpers in `engine::index`; one
//! resource's evaluation in `engine::eval`; `CARBON_SHOW_PROFILE` in `engine::profile`).

use super::jq::{self, Program};
use super::model::{
    self, DiagKind, Diagnostic, ItemDef, Loc, MappingSet, PropDef, Props, Reference,
    ResourceMapping, Src,
};
use super::placeholder::{self, PhKind};
use super::{DataResolver, FastMap, MappingError};
use regex::Regex;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod across;
mod build;
mod check;
mod eval;
mod filters;
mod index;
mod map;
mod profile;
pub(crate) mod side;

pub use filters::may_scan;
use filters::{FilterInfo, NullRule, Split, Uses, collect_texts, input_free, referrers_shape};
pub use map::MapStats;
pub use profile::profiling;

/// One mapping file given as text.
#[derive(Debug, Clone)]
pub struct MappingFile {
    /// Shown in diagnostics (`mappings/aws/ec2.yaml`).
    pub path: String,
    /// Provider folder it came from (`aws`, `gcp`, `azure`), if any.
    pub folder: Option<String>,
    pub text: String,
}

/// The mapping engine: a merged, compiled mapping set. Cheap to share across threads.
pub struct Engine {
    set: MappingSet,
    /// The jq program of every filter: compiled at load, or when a filter first runs in jaq
    /// for an engine of the shipped mappings alone (`Engine::build`).
    program: std::sync::OnceLock<Program>,
    /// The placeholder variables the program binds.
    nph: usize,
    filters: Vec<FilterInfo>,
    /// The properties' regexes by pattern: a shipped one's compiled when first used.
    regexes: FastMap<String, std::sync::OnceLock<Option<Regex>>>,
    /// `json_data` tables by file name; their entries are converted when first looked up.
    data: FastMap<String, super::table::Table>,
    ignored: HashMap<String, super::ignored::Ignored>,
    /// The paths of `index_props`, which each resource slot reads a key at.
    wanted: super::source::Wanted,
    /// Whether some filter reads the document root, every resource of a side, `$__idx`:
    /// they are then built before mapping.
    whole: Uses,
    /// The members of `values` each shipped resource mapping reads, for those whose filters
    /// say so plainly (`filters::values_read`): its resources are built with only those.
    partial: FastMap<String, Vec<String>>,
    /// Per shipped resource mapping, per property, the members of `values` its filters and
    /// the mapping's variables read (`filters::values_read`); a property missing here reads
    /// the whole resource (`mapping::taint`).
    reads: FastMap<String, FastMap<String, Vec<String>>>,
    /// Resource mappings none of whose filters reads an address or an index: their
    /// count/for_each instances equal in what the mapping sees are mapped once (`engine::map`).
    memo_ok: HashSet<String>,
    /// Shipped resource mappings, unchanged and among `memo_ok` and `partial`, whose equal
    /// resources share their figures across blocks too, and on what they must then agree:
    /// worked out when a plan first needs it (`Engine::across`).
    across: std::sync::OnceLock<FastMap<String, across::Across>>,
    /// Compiled text of every filter (diagnostics, profiling).
    texts: Vec<String>,
    /// `file:line` of every filter, named when one runs past its budget.
    locs: Vec<String>,
    config: serde_json::Value,
    diagnostics: Vec<Diagnostic>,
    /// Every filter runs in jaq (tests compare).
    native_off: bool,
    /// Filters run natively are run in jaq too and compared (tests).
    check_native: Option<check::NativeCheck>,
}

/// Per property of a resource mapping, the members of `values` its filters (and the mapping's
/// variables, which any of them may use) read, when they say so plainly.
fn property_reads<'a>(
    m: &'a ResourceMapping,
    read: &mut filters::ValuesRead<'a>,
) -> FastMap<String, Vec<String>> {
    let mut variables = Vec::new();
    collect_texts(&m.variables, &mut variables);
    m.properties
        .iter()
        .filter_map(|p| {
            let mut texts = variables.clone();
            collect_texts(std::slice::from_ref(p), &mut texts);
            Some((p.0.clone(), read.of(&texts)?))
        })
        .collect()
}

/// The largest mapping file read (the shipped ones hold a few KiB).
pub const MAPPING_FILE_LIMIT: u64 = 4 << 20;

/// The most entries (files and folders) a mapping folder may hold, all levels together.
pub const MAPPING_DIR_ENTRIES: usize = 10_000;

/// Read the mapping files of a directory: `*.yaml`/`*.yml` directly in it or in sub-folders
/// (the sub-folder name is the provider folder), sorted by path. The folder may come from a
/// pull request, so the walk stays inside it (symlinks resolved: an entry whose real path is
/// outside is an error), a symbolic link back to a folder on the way down (a loop) is an
/// error, and so is a tree of more than [`MAPPING_DIR_ENTRIES`] entries.
pub fn read_dir(dir: &Path) -> Result<Vec<MappingFile>, MappingError> {
    struct Walk {
        root: PathBuf,
        /// Real paths of the folders being read, from the top down.
        stack: Vec<PathBuf>,
        entries: usize,
        out: Vec<MappingFile>,
    }
    let io = |p: &Path, m: String| MappingError::Io(p.to_path_buf(), m);
    fn walk(w: &mut Walk, dir: &Path, folder: Option<String>) -> Result<(), MappingError> {
        let io = |p: &Path, m: String| MappingError::Io(p.to_path_buf(), m);
        let real = dir.canonicalize().map_err(|e| io(dir, e.to_string()))?;
        if !real.starts_with(&w.root) {
            return Err(io(dir, "leads outside the mapping folder".into()));
        }
        if w.stack.contains(&real) {
            return Err(io(
                dir,
                "a symbolic link back to a folder it is in (a loop)".into(),
            ));
        }
        w.stack.push(real);
        let rd = std::fs::read_dir(dir).map_err(|e| io(dir, e.to_string()))?;
        let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        w.entries += entries.len();
        if w.entries > MAPPING_DIR_ENTRIES {
            return Err(io(
                &w.root,
                format!("more than {MAPPING_DIR_ENTRIES} files and folders: not a mapping folder"),
            ));
        }
        entries.sort();
        for p in entries {
            if p.is_dir() {
                let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
                walk(w, &p, name.or(folder.clone()))?;
            } else if matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")) {
                let real = p.canonicalize().map_err(|e| io(&p, e.to_string()))?;
                if !real.starts_with(&w.root) {
                    return Err(io(&p, "leads outside the mapping folder".into()));
                }
                let meta = std::fs::metadata(&real).map_err(|e| io(&p, e.to_string()))?;
                if !meta.is_file() {
                    return Err(io(&p, "not a regular file".into()));
                }
                if meta.len() > MAPPING_FILE_LIMIT {
                    return Err(io(
                        &p,
                        format!(
                            "{} bytes: a mapping file may hold at most {} MiB",
                            meta.len(),
                            MAPPING_FILE_LIMIT >> 20
                        ),
                    ));
                }
                let text = std::fs::read_to_string(&real).map_err(|e| io(&p, e.to_string()))?;
                w.out.push(MappingFile {
                    path: p.display().to_string(),
                    folder: folder.clone(),
                    text,
                });
            }
        }
        w.stack.pop();
        Ok(())
    }
    let root = dir.canonicalize().map_err(|e| io(dir, e.to_string()))?;
    let mut w = Walk {
        root,
        stack: Vec::new(),
        entries: 0,
        out: Vec::new(),
    };
    walk(&mut w, dir, None)?;
    Ok(w.out)
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
    /// The filter of each text, run on its input (`[0]`) or on the document (`[1]`).
    by_text: [FastMap<String, usize>; 2],
    /// Ids of the `rest` parts of split filters: their errors are their parent's.
    rests: HashSet<usize>,
    texts: &'a HashMap<Arc<str>, String>,
}

impl Builder<'_> {
    fn register(&mut self, text: &str, loc: &Loc, force_root: bool) -> usize {
        let t = text.trim();
        // a filter that starts with a path reads its input, whatever it looks up later (as
        // Carbonifer runs it: on the resource first); other lookups run on the document
        let on_root = force_root
            || (t.contains("all_select(") && !t.starts_with('.'))
            || [
                ".configuration",
                ".prior_state",
                ".planned_values",
                ".variables",
                ".resource_changes",
            ]
            .iter()
            .any(|p| t.starts_with(p));
        if let Some(&id) = self.by_text[usize::from(on_root)].get(text) {
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
        let native = if fast.is_none() {
            super::native::parse(&rw.text)
        } else {
            None
        };
        let ref_arg = super::fast::ref_arg(&rw.text);
        self.filters.push((
            rw.text.clone(),
            FilterInfo {
                placeholders: phs,
                on_root,
                fast: fast.clone(),
                native,
                split: None,
                ref_arg,
                referrers: referrers_shape(&rw.text),
                indexed: index::indexed_select_shape(&rw.text),
                scans: may_scan(&rw.text),
                uses: Uses::of(&rw.text),
                input_free: input_free(&rw.text),
            },
            loc.clone(),
            rw.clone(),
        ));
        self.by_text[usize::from(on_root)].insert(text.to_string(), id);
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
                native: None,
                split: None,
                ref_arg: None,
                referrers: None,
                indexed: None,
                scans: may_scan(rest),
                uses: Uses::of(rest),
                input_free: false,
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
        let (engine, diags) = Self::build(files, resolver, false);
        let fatal: Vec<Diagnostic> = diags.iter().filter(|d| d.is_fatal()).cloned().collect();
        if !fatal.is_empty() {
            return Err(MappingError::Invalid(fatal));
        }
        engine.ok_or(MappingError::Invalid(diags))
    }

    /// [`Engine::from_files`] with everything compiled at load, as for a user's mappings,
    /// whatever the files (tests compare the two).
    #[doc(hidden)]
    pub fn eager_from_files(
        files: &[MappingFile],
        resolver: &DataResolver,
    ) -> Result<Engine, MappingError> {
        let (engine, diags) = Self::build(files, resolver, true);
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

    /// The jq filters of user mapping files (not the embedded ones) that did not compile: they
    /// yield nothing, and a run says so on stderr.
    pub fn user_filter_errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| {
            d.kind == DiagKind::Jq && !super::BUILTIN.iter().any(|(_, p, _)| *p == &*d.loc.file)
        })
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
        Self::build(files, resolver, true).1
    }

    /// The members of `values` a property of a resource mapping reads; `None`: the whole
    /// resource (a user's mapping, or filters that do not say plainly).
    pub(crate) fn reads(&self, mapping: &str, property: &str) -> Option<&[String]> {
        self.reads.get(mapping)?.get(property).map(Vec::as_slice)
    }

    /// Names of the resource mappings loaded.
    pub fn resource_mappings(&self) -> impl Iterator<Item = &str> {
        self.set.resources.keys().map(String::as_str)
    }

    /// Builds every resource whole, as for a user's mapping (tests compare the two).
    #[doc(hidden)]
    pub fn without_partial_values(mut self) -> Engine {
        self.partial.clear();
        self.across = std::sync::OnceLock::from(FastMap::default());
        self
    }

    /// How many resource mappings build only the members of `values` they read.
    pub fn partial_mappings(&self) -> usize {
        self.partial.len()
    }

    /// Number of distinct compiled filters.
    pub fn filter_count(&self) -> usize {
        self.texts.len()
    }

    /// The jq program of every filter, compiled now if it was not at load.
    fn program(&self) -> &Program {
        self.program.get_or_init(|| {
            let mut texts = self.texts.clone();
            build::compile_program(&mut texts, self.nph, &mut |_, _, _, _| {})
                .expect("the shipped filters compile (engine::build's tests)")
        })
    }

    /// Compiles the jq program now if it was left for later (a large plan's run, while its
    /// parse keeps the other core busy).
    pub fn compile_jq(&self) {
        self.program();
    }

    /// The regex of a property's `pattern`; `None` when it did not compile.
    fn regex(&self, pattern: &str) -> Option<&Regex> {
        self.regexes
            .get(pattern)?
            .get_or_init(|| Regex::new(pattern).ok())
            .as_ref()
    }

    /// Whether the jq program is compiled (at load, or since a filter ran in jaq).
    #[doc(hidden)]
    pub fn jaq_compiled(&self) -> bool {
        self.program.get().is_some()
    }
}
