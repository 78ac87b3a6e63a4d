//! The plan model: typed, borrowing structs for `show -json` plan and state documents.
//!
//! # Representation of values
//!
//! Values (`before`, `after`, `after_unknown`, the sensitivity masks, `replace_paths`, a state
//! resource's `values`) are [`Value`]s, small borrowed JSON trees: serde_json hands each of
//! them over as a `&RawValue` slice of the input, and [`value`]'s parser builds the tree from
//! it. Strings without escapes and all numbers borrow from the input (numbers keep their text,
//! like Go's `json.Number`), objects are `BTreeMap`s (keys sorted byte-wise, as OpenTofu sorts
//! them).
//!
//! Resource changes and state resources keep their values as [`Raw`] slices: checked by the
//! same parser while the document is read, so that a 10,000-deep value is a JSON error with a
//! line and column and never a stack overflow later on, but built only when the renderer
//! reaches the resource ([`RawChange::values`], [`Raw::value`]). A plan is thus never held as
//! trees all at once: the renderer's memory is the input plus a chunk of resources.
//!
//! Sections the human renderer does not read (`prior_state`, `planned_values`, `configuration`,
//! `checks`) are kept as borrowed `&RawValue` slices, never built here; the mapping engine reads
//! them from those slices (`mapping::source`, `mapping::config`).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde::de::{self, IgnoredAny};
use serde_json::value::RawValue;

use crate::error::Error;

mod parts;
mod sensitive;
mod value;
pub use sensitive::sensitive_strings;
pub use value::{
    MAX_DEPTH, Raw, Value, ValueError, parse as parse_json, parse_first as parse_first_json,
};

/// A borrowed string that is also happy with `null`.
fn opt_cow<'de, D: de::Deserializer<'de>>(d: D) -> Result<Option<Cow<'de, str>>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum S<'a> {
        #[serde(borrow)]
        S(Cow<'a, str>),
        Other(IgnoredAny),
    }
    Ok(match Option::<S<'de>>::deserialize(d)? {
        Some(S::S(s)) => Some(s),
        _ => None,
    })
}

/// A struct that must be written as a JSON object: serde's derived structs also accept an
/// array of their fields (`[]` would be a resource change with every field empty).
fn object<'de, D: de::Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    struct V<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> de::Visitor<'de> for V<T> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::deserialize(de::value::MapAccessDeserializer::new(map))
        }
    }
    d.deserialize_map(V(std::marker::PhantomData))
}

/// A list of [`object`]s.
fn object_list<'de, D: de::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Vec<T>>, D::Error> {
    struct Obj<T>(T);
    impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            object(d).map(Obj)
        }
    }
    // serde_json gives no length: a list grown by doubling has up to half of it slack
    // (10k-resource plan: 2.9 MB of 9.4 MB), and moving it into a list of its exact length
    // held both at once (50k changes: 15 MB above the parse's end). Read in chunks instead,
    // each freed as it is moved into the list of its exact length: one chunk above it.
    struct Chunked<T>(Vec<T>);
    impl<'de, T: Deserialize<'de>> Deserialize<'de> for Chunked<T> {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V<T>(std::marker::PhantomData<T>);
            impl<'de, T: Deserialize<'de>> de::Visitor<'de> for V<T> {
                type Value = Vec<T>;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a sequence")
                }
                fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
                    const CHUNK: usize = 1024;
                    let mut full: Vec<Vec<T>> = Vec::new();
                    let mut last: Vec<T> = Vec::new();
                    while let Some(Obj(v)) = seq.next_element::<Obj<T>>()? {
                        if last.len() == CHUNK {
                            full.push(std::mem::replace(&mut last, Vec::with_capacity(CHUNK)));
                        }
                        last.push(v);
                    }
                    let mut exact = Vec::with_capacity(full.len() * CHUNK + last.len());
                    for chunk in full {
                        exact.extend(chunk);
                    }
                    exact.extend(last);
                    Ok(exact)
                }
            }
            d.deserialize_seq(V(std::marker::PhantomData)).map(Chunked)
        }
    }
    Ok(Option::<Chunked<T>>::deserialize(d)?.map(|c| c.0))
}

/// The document root: a plan (`resource_changes` …) or a state (`values`).
#[derive(Debug, Deserialize, Default)]
pub struct Plan<'a> {
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub format_version: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub terraform_version: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "object_list")]
    pub resource_changes: Option<Vec<ResourceChange<'a>>>,
    #[serde(borrow, default, deserialize_with = "object_list")]
    pub resource_drift: Option<Vec<ResourceChange<'a>>>,
    #[serde(borrow, default)]
    pub output_changes: Option<BTreeMap<Cow<'a, str>, Change<'a>>>,
    #[serde(borrow, default)]
    pub relevant_attributes: Option<Vec<ResourceAttr<'a>>>,
    /// State documents (`show -json` of a state) carry their resources here.
    #[serde(borrow, default)]
    pub values: Option<StateValues<'a>>,
    /// Sections the human renderer does not read, kept as borrowed raw JSON (no parsing
    /// beyond a syntax check, no allocation).
    #[serde(borrow, default)]
    pub prior_state: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub planned_values: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub configuration: Option<&'a RawValue>,
    /// Root module input variables (the mapping engine follows references to them).
    #[serde(borrow, default)]
    pub variables: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub checks: Option<&'a RawValue>,
    #[serde(default)]
    pub errored: Option<bool>,
    #[serde(default)]
    pub applyable: Option<bool>,
    #[serde(default)]
    pub timestamp: Option<IgnoredAny>,
    /// The whole document's text (the mapping engine reads its sections from it).
    #[serde(skip)]
    pub text: &'a str,
}

/// One entry of `relevant_attributes`.
#[derive(Debug, Deserialize)]
pub struct ResourceAttr<'a> {
    #[serde(borrow, default)]
    pub resource: Cow<'a, str>,
    #[serde(borrow, default)]
    pub attribute: Value<'a>,
}

/// One entry of `resource_changes` / `resource_drift`. The members most changes lack
/// (`previous_address`, `deposed`, `action_reason`, `change.importing`,
/// `change.generated_config`) are kept apart, in [`ResourceChange::extras`]: a plan holds one of
/// these per resource for the whole run.
#[derive(Debug)]
pub struct ResourceChange<'a> {
    pub address: Cow<'a, str>,
    pub module_address: Option<Cow<'a, str>>,
    pub mode: Cow<'a, str>,
    pub type_: Cow<'a, str>,
    pub name: Cow<'a, str>,
    pub index: Value<'a>,
    pub provider_name: Cow<'a, str>,
    pub change: RawChange<'a>,
    /// The rarely present members, when one is.
    pub extras: Option<Box<ChangeExtras<'a>>>,
}

/// The members of a resource change that most changes lack.
#[derive(Debug, Default)]
pub struct ChangeExtras<'a> {
    pub previous_address: Option<Cow<'a, str>>,
    pub deposed: Option<Cow<'a, str>>,
    pub action_reason: Option<Cow<'a, str>>,
    /// `change.importing`.
    pub importing: Option<Importing<'a>>,
    /// `change.generated_config`.
    pub generated_config: Option<Cow<'a, str>>,
}

/// A resource change as written: read whole, then its rare members moved into
/// [`ChangeExtras`].
#[derive(Deserialize)]
struct WireResourceChange<'a> {
    #[serde(borrow, default)]
    address: Cow<'a, str>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    previous_address: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    module_address: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    mode: Cow<'a, str>,
    #[serde(borrow, default, rename = "type")]
    type_: Cow<'a, str>,
    #[serde(borrow, default)]
    name: Cow<'a, str>,
    #[serde(borrow, default)]
    index: Value<'a>,
    #[serde(borrow, default)]
    provider_name: Cow<'a, str>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    deposed: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "object")]
    change: WireRawChange<'a>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    action_reason: Option<Cow<'a, str>>,
}

impl<'de: 'a, 'a> Deserialize<'de> for ResourceChange<'a> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let w = WireResourceChange::<'a>::deserialize(d)?;
        let c = w.change;
        let extras = ChangeExtras {
            previous_address: w.previous_address,
            deposed: w.deposed,
            action_reason: w.action_reason,
            importing: c.importing,
            generated_config: c.generated_config,
        };
        let rare = extras.previous_address.is_some()
            || extras.deposed.is_some()
            || extras.action_reason.is_some()
            || extras.importing.is_some()
            || extras.generated_config.is_some();
        Ok(ResourceChange {
            address: w.address,
            module_address: w.module_address,
            mode: w.mode,
            type_: w.type_,
            name: w.name,
            index: w.index,
            provider_name: w.provider_name,
            change: RawChange {
                actions: c.actions,
                before: c.before,
                after: c.after,
                after_unknown: c.after_unknown,
                before_sensitive: c.before_sensitive,
                after_sensitive: c.after_sensitive,
                replace_paths: c.replace_paths,
            },
            extras: rare.then(|| Box::new(extras)),
        })
    }
}

/// The `change` object of a resource or output change.
#[derive(Debug, Deserialize, Default)]
pub struct Change<'a> {
    #[serde(borrow, default)]
    pub actions: Vec<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub before: Value<'a>,
    #[serde(borrow, default)]
    pub after: Value<'a>,
    #[serde(borrow, default)]
    pub after_unknown: Value<'a>,
    #[serde(borrow, default)]
    pub before_sensitive: Value<'a>,
    #[serde(borrow, default)]
    pub after_sensitive: Value<'a>,
    #[serde(borrow, default)]
    pub replace_paths: Value<'a>,
    #[serde(borrow, default)]
    pub importing: Option<Importing<'a>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub generated_config: Option<Cow<'a, str>>,
}

/// The `change` object of a resource change as read: its values are checked but not built
/// until [`RawChange::values`] asks, so the renderer holds one resource's trees at a time.
/// (`importing` and `generated_config` are in the change's [`ChangeExtras`].)
#[derive(Debug, Default)]
pub struct RawChange<'a> {
    pub actions: Vec<Cow<'a, str>>,
    pub before: Raw<'a>,
    pub after: Raw<'a>,
    pub after_unknown: Raw<'a>,
    pub before_sensitive: Raw<'a>,
    pub after_sensitive: Raw<'a>,
    pub replace_paths: Raw<'a>,
}

/// The `change` object of a resource change as written.
#[derive(Deserialize, Default)]
struct WireRawChange<'a> {
    #[serde(borrow, default)]
    actions: Vec<Cow<'a, str>>,
    #[serde(borrow, default)]
    before: Raw<'a>,
    #[serde(borrow, default)]
    after: Raw<'a>,
    #[serde(borrow, default)]
    after_unknown: Raw<'a>,
    #[serde(borrow, default)]
    before_sensitive: Raw<'a>,
    #[serde(borrow, default)]
    after_sensitive: Raw<'a>,
    #[serde(borrow, default)]
    replace_paths: Raw<'a>,
    #[serde(borrow, default)]
    importing: Option<Importing<'a>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    generated_config: Option<Cow<'a, str>>,
}

impl<'a> RawChange<'a> {
    /// The change with its values built (`importing` and `generated_config` stay in the
    /// resource change's extras).
    pub fn values(&self) -> Change<'a> {
        Change {
            actions: self.actions.clone(),
            before: self.before.value(),
            after: self.after.value(),
            after_unknown: self.after_unknown.value(),
            before_sensitive: self.before_sensitive.value(),
            after_sensitive: self.after_sensitive.value(),
            replace_paths: self.replace_paths.value(),
            importing: None,
            generated_config: None,
        }
    }
}

/// `change.importing`.
#[derive(Debug, Deserialize, Default)]
pub struct Importing<'a> {
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub identity: Value<'a>,
}

/// `values` of a state document.
#[derive(Debug, Deserialize, Default)]
pub struct StateValues<'a> {
    #[serde(borrow, default)]
    pub outputs: BTreeMap<Cow<'a, str>, StateOutput<'a>>,
    #[serde(borrow, default)]
    pub root_module: StateModule<'a>,
}

#[derive(Debug, Deserialize, Default)]
pub struct StateOutput<'a> {
    #[serde(default)]
    pub sensitive: bool,
    #[serde(borrow, default)]
    pub value: Value<'a>,
    #[serde(borrow, default, rename = "type")]
    pub type_: Value<'a>,
}

#[derive(Debug, Deserialize, Default)]
pub struct StateModule<'a> {
    #[serde(borrow, default)]
    pub resources: Vec<StateResource<'a>>,
    #[serde(borrow, default)]
    pub child_modules: Vec<StateModule<'a>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub address: Option<Cow<'a, str>>,
}

#[derive(Debug, Deserialize, Default)]
pub struct StateResource<'a> {
    #[serde(borrow, default)]
    pub address: Cow<'a, str>,
    #[serde(borrow, default)]
    pub mode: Cow<'a, str>,
    #[serde(borrow, default, rename = "type")]
    pub type_: Cow<'a, str>,
    #[serde(borrow, default)]
    pub name: Cow<'a, str>,
    #[serde(borrow, default)]
    pub provider_name: Cow<'a, str>,
    #[serde(borrow, default)]
    pub values: Raw<'a>,
    #[serde(borrow, default)]
    pub sensitive_values: Raw<'a>,
    #[serde(default)]
    pub tainted: bool,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub deposed_key: Option<Cow<'a, str>>,
}

/// The action of a change, as OpenTofu's `plans.Action`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    NoOp,
    Create,
    Read,
    Update,
    DeleteThenCreate,
    CreateThenDelete,
    Delete,
    Forget,
    ForgetThenCreate,
    /// An action list this renderer does not know (the raw list stays in `change.actions`).
    Unknown,
}

impl Action {
    /// Decodes a `change.actions` list.
    pub fn from_actions<S: AsRef<str>>(actions: &[S]) -> Action {
        let a: Vec<&str> = actions.iter().map(|s| s.as_ref()).collect();
        match a.as_slice() {
            ["no-op"] => Action::NoOp,
            ["create"] => Action::Create,
            ["read"] => Action::Read,
            ["update"] => Action::Update,
            ["delete"] => Action::Delete,
            ["forget"] => Action::Forget,
            ["delete", "create"] => Action::DeleteThenCreate,
            ["create", "delete"] => Action::CreateThenDelete,
            ["forget", "create"] => Action::ForgetThenCreate,
            _ => Action::Unknown,
        }
    }
}

impl<'a> ResourceChange<'a> {
    /// The action of this change.
    pub fn action(&self) -> Action {
        Action::from_actions(&self.change.actions)
    }
    /// Whether the resource moved (`previous_address` differs from `address`).
    pub fn moved(&self) -> bool {
        self.previous_address()
            .is_some_and(|p| !p.is_empty() && p != self.address)
    }
    /// Whether the resource is being imported.
    pub fn importing(&self) -> bool {
        self.import().is_some()
    }
    fn extras(&self) -> Option<&ChangeExtras<'a>> {
        self.extras.as_deref()
    }
    /// `previous_address`.
    pub fn previous_address(&self) -> Option<&str> {
        self.extras()?.previous_address.as_deref()
    }
    /// `deposed`: the deposed object's key.
    pub fn deposed(&self) -> Option<&str> {
        self.extras()?.deposed.as_deref()
    }
    /// `action_reason`.
    pub fn action_reason(&self) -> Option<&str> {
        self.extras()?.action_reason.as_deref()
    }
    /// `change.importing`.
    pub fn import(&self) -> Option<&Importing<'_>> {
        self.extras()?.importing.as_ref()
    }
    /// `change.generated_config`.
    pub fn generated_config(&self) -> Option<&str> {
        self.extras()?.generated_config.as_deref()
    }
}

impl Plan<'_> {
    /// Whether this document is a state: no plan-only section at all (`show -json` of an
    /// empty state is just `{"format_version": …, "terraform_version": …}`).
    pub fn is_state(&self) -> bool {
        self.resource_changes.is_none()
            && self.output_changes.is_none()
            && self.resource_drift.is_none()
            && self.relevant_attributes.is_none()
            && self.planned_values.is_none()
            && self.prior_state.is_none()
            && self.configuration.is_none()
            && self.errored.is_none()
            && self.applyable.is_none()
            && self.timestamp.is_none()
    }

    /// The version of the tool that wrote the document (`terraform_version`: OpenTofu writes
    /// its own version there too); `None` when absent or not a version number.
    pub fn version(&self) -> Option<crate::structured::Version> {
        crate::structured::Version::parse(self.terraform_version.as_deref()?)
    }
}

fn json_error(path: &Path, e: &serde_json::Error) -> Error {
    Error::Json {
        path: path.to_path_buf(),
        line: e.line(),
        column: e.column(),
        message: strip_position(&e.to_string()),
    }
}

/// serde_json appends " at line L column C"; we print the position ourselves.
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

/// Checks the syntax and the top-level shape, and returns the format_version.
fn check_document(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Error::Json {
            path: path.to_path_buf(),
            line: 1,
            column: 0,
            message: "empty input".into(),
        });
    }
    let json_error_at_start = |message: &str| Error::Json {
        path: path.to_path_buf(),
        line: 1,
        column: 1,
        message: message.into(),
    };
    if bytes.starts_with(b"\xff\xfe")
        || bytes.starts_with(b"\xfe\xff")
        || (bytes.len() > 3 && (bytes[1] == 0 || bytes[0] == 0))
    {
        return Err(json_error_at_start(
            "the input is UTF-16 (PowerShell's `>` writes UTF-16): re-save it as UTF-8, \
             e.g. `tofu show -json plan | Out-File -Encoding utf8NoBOM plan.json`",
        ));
    }
    if bytes.starts_with(b"\xef\xbb\xbf") {
        return Err(json_error_at_start(
            "the input starts with a byte-order mark: re-save it as UTF-8 without BOM",
        ));
    }
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace()).copied();
    let head = &bytes[..bytes.len().min(4096)];
    if first != Some(b'{')
        && [
            &b"[command]"[..],
            b"::debug::",
            b"::set-output",
            b"stdout: ",
        ]
        .iter()
        .any(|m| head.windows(m.len()).any(|w| w == *m))
    {
        return Err(json_error_at_start(
            "this is the text of hashicorp/setup-terraform's wrapper (`[command]…`), not the \
             plan's JSON: set `terraform_wrapper: false` in the workflow, or run `terraform-bin`",
        ));
    }
    if first != Some(b'{') {
        // Make sure it is at least valid JSON before calling it "not a plan".
        serde_json::from_slice::<IgnoredAny>(bytes).map_err(|e| json_error(path, &e))?;
        return Err(Error::NotAPlan {
            path: path.to_path_buf(),
            message: "the document is not a JSON object".into(),
        });
    }
    Ok(())
}

/// Checks `format_version`: 0.x and 1.x are read, 2.0 and later are refused.
fn check_version(path: &Path, plan: &Plan) -> Result<(), Error> {
    if let Some(v) = plan.format_version.as_deref() {
        let major = v.split('.').next().unwrap_or("");
        match major.parse::<u64>() {
            Ok(0 | 1) => {}
            _ => {
                return Err(Error::FormatVersion {
                    path: path.to_path_buf(),
                    version: v.to_string(),
                });
            }
        }
    }
    if plan.resource_changes.is_none()
        && plan.output_changes.is_none()
        && plan.values.is_none()
        && plan.format_version.is_none()
    {
        return Err(Error::NotAPlan {
            path: path.to_path_buf(),
            message: "no format_version, resource_changes, output_changes or values".into(),
        });
    }
    Ok(())
}

/// Parses a plan or state document, borrowing from `bytes`. `path` only names the input in
/// error messages.
pub fn parse<'a>(path: &Path, bytes: &'a [u8]) -> Result<Plan<'a>, Error> {
    check_document(path, bytes)?;
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, column) = line_col(bytes, e.valid_up_to());
        Error::Json {
            path: path.to_path_buf(),
            line,
            column,
            message: "invalid UTF-8".into(),
        }
    })?;
    let (result, value_error) =
        value::with_document(text, || serde_json::from_str::<Plan<'a>>(text));
    if value_error.is_some() || result.is_err() {
        // A 2.0 document with an unexpected shape gets the version error rather than a schema
        // one. (Only read when the plan did not parse, as this reads the whole text again: a
        // plan that parses gets the same error from `check_version`.)
        #[derive(Deserialize)]
        struct Peek<'a> {
            #[serde(borrow, default, deserialize_with = "opt_cow")]
            format_version: Option<Cow<'a, str>>,
        }
        if let Ok(p) = serde_json::from_str::<Peek>(text)
            && let Some(v) = p.format_version.as_deref()
            && !matches!(v.split('.').next().unwrap_or("").parse::<u64>(), Ok(0 | 1))
        {
            return Err(Error::FormatVersion {
                path: path.to_path_buf(),
                version: v.to_string(),
            });
        }
    }
    if let Some((offset, message)) = value_error {
        let (line, column) = line_col(bytes, offset);
        return Err(Error::Json {
            path: path.to_path_buf(),
            line,
            column,
            message: message.to_string(),
        });
    }
    let plan: Plan<'a> = result.map_err(|e| {
        if e.is_data() {
            Error::NotAPlan {
                path: path.to_path_buf(),
                message: format!(
                    "{} (line {}, column {})",
                    redact_strings(&strip_position(&e.to_string())),
                    e.line(),
                    e.column()
                ),
            }
        } else {
            json_error(path, &e)
        }
    })?;
    check_version(path, &plan)?;
    check_sections(path, &plan)?;
    Ok(Plan { text, ..plan })
}

/// The raw sections the mappings read must be objects: another type would silently change
/// the figures.
fn check_sections(path: &Path, plan: &Plan<'_>) -> Result<(), Error> {
    for (name, raw) in [
        ("planned_values", plan.planned_values),
        ("prior_state", plan.prior_state),
        ("configuration", plan.configuration),
    ] {
        if let Some(raw) = raw {
            let t = raw.get().trim_start();
            if !t.starts_with('{') && t != "null" {
                return Err(Error::NotAPlan {
                    path: path.to_path_buf(),
                    message: format!("{name} is not an object"),
                });
            }
        }
    }
    Ok(())
}

/// Parses the same bytes into a `serde_json::Value` (for the mapping engine).
pub fn parse_value(path: &Path, bytes: &[u8]) -> Result<serde_json::Value, Error> {
    serde_json::from_slice(bytes).map_err(|e| json_error(path, &e))
}

/// serde's data errors quote the offending value (`invalid type: string "…"`); a plan may
/// hold secrets, so quoted text never reaches stderr.
fn redact_strings(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut in_quote = false;
    let mut escaped = false;
    for ch in msg.chars() {
        if in_quote {
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == '"' {
                in_quote = false;
                out.push_str("\"…\"");
            }
            continue;
        }
        if ch == '"' {
            in_quote = true;
            continue;
        }
        out.push(ch);
    }
    if in_quote {
        out.push_str("\"…");
    }
    out
}

fn line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, col)
}

#[cfg(test)]
mod tests;
