//! The mapping engine: Carbonifer's YAML + jq mapping language, evaluated with jaq.
//!
//! Entry points: [`load`] (embedded defaults + user mapping dirs), [`check`] (validation with
//! `file:line:column: message` diagnostics) and [`Engine::map`] (a plan → [`MappedPlan`]).
//! The language and design are described in `docs/mappings.md`.

pub mod config;
pub mod doc;
pub mod engine;
pub mod fallback;
pub mod fast;
pub mod ignored;
pub mod jq;
pub mod limits;
pub mod model;
pub mod native;
pub mod node;
pub mod placeholder;
pub mod region;
pub mod source;
pub mod table;
pub mod taint;

pub use doc::Document;
pub use engine::{Engine, MappingFile, read_dir};
pub use model::{DiagKind, Diagnostic, Loc};
pub use source::Sections;

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A hash map with a fast hasher (keys are addresses and names from the plan; no hash
/// flooding concern for a one-shot run over a file the user gave).
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// Finds a data file (`aws_instances.json`…) by name and returns its contents.
pub type DataResolver = dyn Fn(&str) -> Option<Cow<'static, str>>;

/// Errors of the mapping engine.
#[derive(Debug, thiserror::Error)]
pub enum MappingError {
    /// A mapping directory or file could not be read.
    #[error("{0}: {1}")]
    Io(PathBuf, String),
    /// Mapping files with fatal problems, one `file:line:column: message` per line.
    #[error("{}", .0.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"))]
    Invalid(Vec<Diagnostic>),
}

impl From<MappingError> for crate::Error {
    fn from(e: MappingError) -> Self {
        crate::Error::Mapping(e.to_string())
    }
}

/// Kind of a storage device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiskKind {
    Ssd,
    Hdd,
}

/// A storage device of a resource.
#[derive(Debug, Clone, PartialEq)]
pub struct Storage {
    pub size_gb: f64,
    pub kind: DiskKind,
    /// Device key (e.g. `b` for `/dev/xvdb`); one storage per key is kept.
    pub key: Option<String>,
}

/// The figures of one resource instance: where it sits (its address) and its [`Body`],
/// everything else, read through `Deref` (`m.region`, `m.storage`…). Resources equal in all
/// but their addresses share one body: the instances of a block the
/// engine maps once, and every resource whose figures equal another's (the engine keeps one
/// body of each kind per run, `engine::map`'s `Bodies`). A write through `DerefMut` gives the
/// resource a body of its own first when it shares one (`Arc::make_mut`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MappedResource {
    /// Full address incl. module path and index, e.g. `module.a.aws_instance.web["x"]`.
    pub address: String,
    pub body: Arc<Body>,
}

impl MappedResource {
    /// A resource at `address` with these figures.
    pub fn new(address: impl Into<String>, body: Body) -> MappedResource {
        MappedResource {
            address: address.into(),
            body: Arc::new(body),
        }
    }
}

impl std::ops::Deref for MappedResource {
    type Target = Body;
    fn deref(&self) -> &Body {
        &self.body
    }
}

impl std::ops::DerefMut for MappedResource {
    /// The resource's own body, copied first if it shares it.
    fn deref_mut(&mut self) -> &mut Body {
        Arc::make_mut(&mut self.body)
    }
}

/// What a mapped resource is, apart from where it sits: what pricing, wording and the report
/// read (`carbon::alike` compares exactly this).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Body {
    pub resource_type: String,
    /// `aws` | `gcp` | `azure`.
    pub provider: String,
    pub region: Option<String>,
    pub zone: Option<String>,
    pub machine_type: Option<String>,
    pub vcpus: Option<f64>,
    pub memory_gb: Option<f64>,
    /// One model name per GPU.
    pub gpus: Vec<String>,
    pub cpu_types: Vec<String>,
    pub storage: Vec<Storage>,
    /// Instances it stands for (ASG desired, node count…); 1 by default.
    pub count: u32,
    /// Copies kept by the service (2 for multi-AZ RDS); count it once in totals.
    pub replication_factor: u32,
    /// Figures assumed because a value is unknown until apply.
    pub assumed: Vec<String>,
    pub warnings: Vec<String>,
    /// The usage a usage file declares for it (`crate::usage::apply`), which pricing reads.
    pub usage: Option<Box<crate::usage::Applied>>,
    /// The fields read from a value the plan marks sensitive (`taint`): hidden before they
    /// are priced or printed (`redact::tainted`).
    pub tainted: taint::Tainted,
}

impl Body {
    /// Whether two bodies are the same to the bit (numbers compared by their bits, so that
    /// `0.0` and `-0.0` stay apart): one may stand for the other. A body with a usage (given
    /// after mapping, `usage::apply`) is the same as none.
    pub fn same(&self, o: &Body) -> bool {
        let Body {
            resource_type,
            provider,
            region,
            zone,
            machine_type,
            vcpus,
            memory_gb,
            gpus,
            cpu_types,
            storage,
            count,
            replication_factor,
            assumed,
            warnings,
            usage,
            tainted,
        } = self;
        let bits = |v: &Option<f64>| v.map(f64::to_bits);
        *resource_type == o.resource_type
            && *provider == o.provider
            && *region == o.region
            && *zone == o.zone
            && *machine_type == o.machine_type
            && bits(vcpus) == bits(&o.vcpus)
            && bits(memory_gb) == bits(&o.memory_gb)
            && *gpus == o.gpus
            && *cpu_types == o.cpu_types
            && storage.len() == o.storage.len()
            && storage.iter().zip(&o.storage).all(|(a, b)| {
                a.size_gb.to_bits() == b.size_gb.to_bits() && a.kind == b.kind && a.key == b.key
            })
            && *count == o.count
            && *replication_factor == o.replication_factor
            && *assumed == o.assumed
            && *warnings == o.warnings
            && usage.is_none()
            && o.usage.is_none()
            && *tainted == o.tainted
    }

    /// Whether `==` holds between this body and itself: none of its figures is NaN (and it has
    /// no usage, whose figures are not looked into).
    pub fn equals_itself(&self) -> bool {
        let number = |v: Option<f64>| v.is_none_or(|x| !x.is_nan());
        number(self.vcpus)
            && number(self.memory_gb)
            && self.storage.iter().all(|d| !d.size_gb.is_nan())
            && self.usage.is_none()
    }

    /// Feeds `h` with what [`Body::same`] compares (but the taint marks, rare): bodies that
    /// are the same hash alike.
    pub fn hash_bits(&self, h: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        self.resource_type.hash(h);
        self.provider.hash(h);
        self.region.hash(h);
        self.zone.hash(h);
        self.machine_type.hash(h);
        self.vcpus.map(f64::to_bits).hash(h);
        self.memory_gb.map(f64::to_bits).hash(h);
        self.gpus.hash(h);
        self.cpu_types.hash(h);
        self.storage.len().hash(h);
        for d in &self.storage {
            d.size_gb.to_bits().hash(h);
            (d.kind == DiskKind::Ssd).hash(h);
            d.key.hash(h);
        }
        self.count.hash(h);
        self.replication_factor.hash(h);
        self.assumed.hash(h);
        self.warnings.hash(h);
    }
}

/// Every mapped resource of a document, before and after the change.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MappedPlan {
    /// From `prior_state`.
    pub before: Vec<MappedResource>,
    /// From `planned_values` (or a state document's `values`).
    pub after: Vec<MappedResource>,
    /// Addresses of resources listed in `ignored_resources`.
    pub ignored: Vec<String>,
    /// Addresses of managed AWS/GCP/Azure resources neither mapped nor ignored.
    pub unsupported: Vec<String>,
}

macro_rules! builtin {
    ($($folder:literal / $file:literal),* $(,)?) => {
        /// Our shipped mappings, embedded in the binary: (provider folder, path, text).
        pub const BUILTIN: &[(&str, &str, &str)] = &[$(($folder, concat!("mappings/", $folder, "/", $file), include_str!(concat!("../../mappings/", $folder, "/", $file)))),*];
        /// The YAML nodes of each of [`BUILTIN`], read by `build.rs` (see `node.rs`; empty when
        /// the build could not read the file).
        pub(crate) const BUILTIN_NODES: &[&[u8]] = &[$(include_bytes!(concat!(env!("OUT_DIR"), "/mappings/", $folder, "/", $file, ".node"))),*];
    };
}

builtin![
    "aws" / "general.yaml",
    "aws" / "ec2.yaml",
    "aws" / "ebs.yaml",
    "aws" / "asg.yaml",
    "aws" / "fleets.yaml",
    "aws" / "rds.yaml",
    "aws" / "eks.yaml",
    "aws" / "elasticache.yaml",
    "aws" / "serverless.yaml",
    "aws" / "analytics.yaml",
    "aws" / "databases.yaml",
    "aws" / "storage.yaml",
    "aws" / "unsupported.yaml",
    "aws" / "usage.yaml",
    "gcp" / "general.yaml",
    "gcp" / "compute.yaml",
    "gcp" / "groups.yaml",
    "gcp" / "disk.yaml",
    "gcp" / "sql.yaml",
    "gcp" / "gke.yaml",
    "gcp" / "serverless.yaml",
    "gcp" / "data.yaml",
    "gcp" / "unsupported.yaml",
    "gcp" / "usage.yaml",
    "azure" / "general.yaml",
    "azure" / "vm.yaml",
    "azure" / "disk.yaml",
    "azure" / "aks.yaml",
    "azure" / "databases.yaml",
    "azure" / "apps.yaml",
    "azure" / "unsupported.yaml",
    "azure" / "usage.yaml",
];

/// The YAML nodes of embedded mapping file `path` if `text` is its text, without parsing it.
fn builtin_nodes(path: &str, text: &str) -> Option<node::Spanned<node::Node>> {
    let i = BUILTIN
        .iter()
        .position(|(_, p, t)| *p == path && *t == text)?;
    node::decode(BUILTIN_NODES[i])
}

/// The embedded mapping files.
/// The address a deposed object (left over from a failed create-before-destroy replacement) is
/// reported under: it runs beside the current object of the same address.
pub fn deposed_address(address: &str, key: &str) -> String {
    format!("{address} (deposed object {key})")
}

pub fn builtin_files() -> Vec<MappingFile> {
    BUILTIN
        .iter()
        .map(|(f, p, t)| MappingFile {
            path: p.to_string(),
            folder: Some(f.to_string()),
            text: t.to_string(),
        })
        .collect()
}

/// The embedded defaults, then each user mapping dir layered on top (a later dir's resource
/// mapping of the same name replaces the earlier one; `general` merges key-wise).
pub fn load(user_dirs: &[PathBuf], resolver: &DataResolver) -> Result<Engine, MappingError> {
    let mut files = builtin_files();
    for d in user_dirs {
        files.extend(read_dir(d)?);
    }
    Engine::from_files(&files, resolver)
}

/// Validate a mapping dir layered on the embedded defaults: every problem, located.
pub fn check(dir: &Path, resolver: &DataResolver) -> Result<Vec<Diagnostic>, MappingError> {
    let mut files = builtin_files();
    files.extend(read_dir(dir)?);
    Ok(Engine::check_files(&files, resolver))
}

/// The largest data file read from a `--data` folder.
pub const DATA_FILE_LIMIT: u64 = 64 << 20;

/// Whether a `json_data` file name stays inside its folder: relative, no `..`, no root.
pub fn plain_data_name(name: &str) -> bool {
    let p = Path::new(name);
    !name.is_empty()
        && p.components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// Every `--data` folder must exist: a mistyped one would silently fall back to the
/// embedded tables.
pub fn check_data_dirs(dirs: &[PathBuf]) -> Result<(), MappingError> {
    for d in dirs {
        if !d.is_dir() {
            return Err(MappingError::Io(
                d.clone(),
                "--data: no such folder".to_string(),
            ));
        }
    }
    Ok(())
}

/// `name` read from `dir`, confined to it: a plain relative name, its real path (symlinks
/// resolved) inside the folder's real path, a regular file, at most [`DATA_FILE_LIMIT`].
fn read_confined(dir: &Path, name: &str) -> Option<String> {
    use std::io::Read;
    if !plain_data_name(name) {
        return None;
    }
    let root = dir.canonicalize().ok()?;
    let real = dir.join(name).canonicalize().ok()?;
    if !real.starts_with(&root) {
        return None;
    }
    let meta = std::fs::metadata(&real).ok()?;
    if !meta.is_file() || meta.len() > DATA_FILE_LIMIT {
        return None;
    }
    let mut text = String::new();
    std::fs::File::open(&real)
        .ok()?
        .take(DATA_FILE_LIMIT)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

/// A resolver that looks in `dirs` first (user data dirs, each file confined to its folder),
/// then asks `fallback`.
pub fn dir_resolver(
    dirs: Vec<PathBuf>,
    fallback: impl Fn(&str) -> Option<Cow<'static, str>> + 'static,
) -> Box<DataResolver> {
    Box::new(move |name: &str| {
        for d in &dirs {
            if let Some(t) = read_confined(d, name) {
                return Some(Cow::Owned(t));
            }
        }
        fallback(name)
    })
}
