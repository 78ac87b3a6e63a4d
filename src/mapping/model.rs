//! The YAML model of mapping files (general, compute_resource, properties…), read with locations, and layered merging.

use super::node::{Node, Spanned};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// A place in a mapping file (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loc {
    pub file: Arc<str>,
    pub line: usize,
    pub col: usize,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// What kind of problem a diagnostic reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiagKind {
    /// YAML syntax error.
    Yaml,
    /// A value of the wrong shape (a list where a string was expected…).
    Shape,
    /// A key the language does not know (ignored when loading).
    UnknownKey,
    /// A jq filter that does not parse or calls something undefined (the filter yields nothing when loading).
    Jq,
    /// A regular expression that does not compile.
    Regex,
    /// A data file (json_data) that cannot be found or parsed, or an undeclared json_file.
    Data,
    /// A filter that names what the jq sandbox leaves out (`jq::FORBIDDEN`: `env`, `$ENV`,
    /// `input`, `halt`, `debug`…): it would read the environment, more input or the clock,
    /// end the run or write to the log.
    Unsafe,
}

/// A located problem in a mapping file; displays as `file:line:column: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub loc: Loc,
    pub kind: DiagKind,
    pub message: String,
}

impl Diagnostic {
    /// Whether loading must stop on it (YAML, shape, regex and data errors). Unknown keys and
    /// broken jq filters are reported by `check` but do not stop a load: Carbonifer's own files
    /// carry one of each (`zone:` inside a reference, a `size` filter) and must load unchanged.
    pub fn is_fatal(&self) -> bool {
        matches!(
            self.kind,
            DiagKind::Yaml | DiagKind::Shape | DiagKind::Regex | DiagKind::Data | DiagKind::Unsafe
        )
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.loc, self.message)
    }
}

/// A jq filter written in a mapping file.
#[derive(Debug, Clone)]
pub struct Src {
    pub text: String,
    pub loc: Loc,
    /// Index of the compiled filter (set by the engine; `usize::MAX` = not compiled / broken).
    pub id: usize,
}

#[derive(Debug, Clone)]
pub struct RegexDef {
    pub pattern: String,
    pub group: usize,
    pub value_type: Option<String>,
    pub loc: Loc,
}

#[derive(Debug, Clone, Default)]
pub struct Reference {
    pub json_file: Option<(String, Loc)>,
    /// jq filter (`.VCPU`) or plain key applied to the referenced item.
    pub property: Option<Src>,
    pub general: Option<String>,
    pub paths: Vec<Src>,
    pub return_path: bool,
}

/// One source of a property (properties are ordered lists of these: fallbacks).
#[derive(Debug, Clone)]
pub struct PropDef {
    pub paths: Vec<Src>,
    pub default: Option<serde_json::Value>,
    /// A string default that is a jq path (`.values.node_pool[0]`), evaluated on the resource.
    pub default_filter: Option<Src>,
    pub unit: Option<String>,
    pub regex: Option<RegexDef>,
    pub reference: Option<Reference>,
    pub property: Option<Src>,
    pub list: bool,
    pub items: Vec<ItemDef>,
    pub validator: Option<Src>,
    pub value_type: Option<String>,
    pub loc: Loc,
}

/// An item source of a `type: list` property.
#[derive(Debug, Clone)]
pub struct ItemDef {
    pub paths: Vec<Src>,
    pub properties: Props,
    pub loc: Loc,
}

pub type Props = Vec<(String, Vec<PropDef>)>;

#[derive(Debug, Clone)]
pub struct ResourceMapping {
    pub name: String,
    /// Folder (provider) the file came from, if any.
    pub folder: Option<String>,
    pub paths: Vec<Src>,
    pub kind: String,
    pub variables: Props,
    pub properties: Props,
    pub loc: Loc,
}

#[derive(Debug, Clone, Default)]
pub struct General {
    pub disk_default: Option<String>,
    pub disk_types: BTreeMap<String, String>,
    pub json_data: BTreeMap<String, (String, Loc)>,
    pub ignored: Vec<(String, Loc)>,
}

/// The merged mapping set.
#[derive(Debug, Clone, Default)]
pub struct MappingSet {
    pub general: BTreeMap<String, General>,
    pub resources: BTreeMap<String, ResourceMapping>,
}

struct Cx<'a> {
    file: Arc<str>,
    diags: &'a mut Vec<Diagnostic>,
}

impl Cx<'_> {
    fn loc<T>(&self, s: &Spanned<T>) -> Loc {
        Loc {
            file: self.file.clone(),
            line: s.referenced.line() as usize,
            col: s.referenced.column() as usize,
        }
    }
    fn err(&mut self, loc: Loc, kind: DiagKind, message: impl Into<String>) {
        self.diags.push(Diagnostic {
            loc,
            kind,
            message: message.into(),
        });
    }
    fn unknown(&mut self, k: &Spanned<String>, what: &str) {
        let loc = self.loc(k);
        self.err(
            loc,
            DiagKind::UnknownKey,
            format!("unknown key {:?} in {what}", k.value),
        );
    }
    fn str(&mut self, n: &Spanned<Node>, what: &str) -> Option<String> {
        match &n.value {
            Node::Str(s) => Some(s.clone()),
            Node::Num(x) => Some(if x.fract() == 0.0 {
                format!("{}", *x as i64)
            } else {
                x.to_string()
            }),
            Node::Bool(b) => Some(b.to_string()),
            Node::Null => None,
            _ => {
                let loc = self.loc(n);
                self.err(loc, DiagKind::Shape, format!("{what}: expected a string"));
                None
            }
        }
    }
    fn map<'n>(
        &mut self,
        n: &'n Spanned<Node>,
        what: &str,
    ) -> &'n [(Spanned<String>, Spanned<Node>)] {
        match &n.value {
            Node::Map(m) => m,
            Node::Null => &[],
            _ => {
                let loc = self.loc(n);
                self.err(loc, DiagKind::Shape, format!("{what}: expected a mapping"));
                &[]
            }
        }
    }
    fn srcs(&mut self, n: &Spanned<Node>, what: &str) -> Vec<Src> {
        match &n.value {
            Node::Seq(v) => v.iter().filter_map(|x| self.src(x, what)).collect(),
            _ => self.src(n, what).into_iter().collect(),
        }
    }
    fn src(&mut self, n: &Spanned<Node>, what: &str) -> Option<Src> {
        let text = self.str(n, what)?;
        Some(Src {
            text,
            loc: self.loc(n),
            id: usize::MAX,
        })
    }
}

fn to_json(n: &Node) -> serde_json::Value {
    use serde_json::Value as J;
    match n {
        Node::Null => J::Null,
        Node::Bool(b) => J::Bool(*b),
        Node::Num(x) => serde_json::Number::from_f64(*x)
            .map(J::Number)
            .unwrap_or(J::Null),
        Node::Str(s) => J::String(s.clone()),
        Node::Seq(v) => J::Array(v.iter().map(|x| to_json(&x.value)).collect()),
        Node::Map(m) => J::Object(
            m.iter()
                .map(|(k, v)| (k.value.clone(), to_json(&v.value)))
                .collect(),
        ),
    }
}

fn parse_props(cx: &mut Cx, n: &Spanned<Node>, what: &str) -> Props {
    let mut out = Vec::new();
    for (k, v) in cx.map(n, what) {
        let defs = match &v.value {
            Node::Seq(items) => items.iter().map(|d| parse_def(cx, d)).collect(),
            Node::Map(_) => vec![parse_def(cx, v)],
            Node::Null => vec![],
            _ => {
                let loc = cx.loc(v);
                cx.err(
                    loc,
                    DiagKind::Shape,
                    format!("property {:?}: expected a list of sources", k.value),
                );
                vec![]
            }
        };
        out.push((k.value.clone(), defs));
    }
    out
}

fn parse_def(cx: &mut Cx, n: &Spanned<Node>) -> PropDef {
    let mut d = PropDef {
        paths: vec![],
        default: None,
        default_filter: None,
        unit: None,
        regex: None,
        reference: None,
        property: None,
        list: false,
        items: vec![],
        validator: None,
        value_type: None,
        loc: cx.loc(n),
    };
    for (k, v) in cx.map(n, "property source") {
        match k.value.as_str() {
            "paths" | "path" => d.paths = cx.srcs(v, "paths"),
            "default" => {
                d.default = Some(to_json(&v.value));
                if let Node::Str(s) = &v.value
                    && s.trim_start().starts_with('.')
                {
                    d.default_filter = Some(Src {
                        text: s.clone(),
                        loc: cx.loc(v),
                        id: usize::MAX,
                    });
                }
            }
            "unit" => d.unit = cx.str(v, "unit").map(|s| s.to_lowercase()),
            "property" => d.property = cx.src(v, "property"),
            "validator" => d.validator = cx.src(v, "validator"),
            "value_type" => d.value_type = cx.str(v, "value_type"),
            "type" => match cx.str(v, "type").as_deref() {
                Some("list") => d.list = true,
                other => d.value_type = other.map(str::to_string),
            },
            "item" | "items" => match &v.value {
                Node::Seq(items) => d.items = items.iter().map(|i| parse_item(cx, i)).collect(),
                Node::Map(_) => d.items = vec![parse_item(cx, v)],
                _ => {
                    let loc = cx.loc(v);
                    cx.err(
                        loc,
                        DiagKind::Shape,
                        "item: expected a list of item sources",
                    )
                }
            },
            "regex" => d.regex = parse_regex(cx, v),
            "reference" => d.reference = Some(parse_reference(cx, v)),
            _ => cx.unknown(k, "property source"),
        }
    }
    d
}

fn parse_item(cx: &mut Cx, n: &Spanned<Node>) -> ItemDef {
    let mut it = ItemDef {
        paths: vec![],
        properties: vec![],
        loc: cx.loc(n),
    };
    for (k, v) in cx.map(n, "list item") {
        match k.value.as_str() {
            "paths" | "path" => it.paths = cx.srcs(v, "paths"),
            "properties" => it.properties = parse_props(cx, v, "properties"),
            _ => cx.unknown(k, "list item"),
        }
    }
    it
}

fn parse_regex(cx: &mut Cx, n: &Spanned<Node>) -> Option<RegexDef> {
    if let Node::Str(s) = &n.value {
        return Some(RegexDef {
            pattern: s.clone(),
            group: 1,
            value_type: None,
            loc: cx.loc(n),
        });
    }
    let mut r = RegexDef {
        pattern: String::new(),
        group: 1,
        value_type: None,
        loc: cx.loc(n),
    };
    let mut have = false;
    for (k, v) in cx.map(n, "regex") {
        match k.value.as_str() {
            "pattern" | "regex" => {
                if let Some(p) = cx.str(v, "regex pattern") {
                    r.pattern = p;
                    r.loc = cx.loc(v);
                    have = true;
                }
            }
            "group" => match &v.value {
                Node::Num(g) if *g >= 0.0 => r.group = *g as usize,
                _ => {
                    let loc = cx.loc(v);
                    cx.err(loc, DiagKind::Shape, "regex group: expected a number")
                }
            },
            "value_type" | "type" => r.value_type = cx.str(v, "value_type"),
            _ => cx.unknown(k, "regex"),
        }
    }
    if !have {
        let loc = cx.loc(n);
        cx.err(loc, DiagKind::Shape, "regex: missing `pattern`");
        return None;
    }
    Some(r)
}

fn parse_reference(cx: &mut Cx, n: &Spanned<Node>) -> Reference {
    let mut r = Reference::default();
    for (k, v) in cx.map(n, "reference") {
        match k.value.as_str() {
            "json_file" | "file" => r.json_file = cx.str(v, "json_file").map(|s| (s, cx.loc(v))),
            "property" => r.property = cx.src(v, "property"),
            "general" | "generals" => r.general = cx.str(v, "general"),
            "paths" | "path" => r.paths = cx.srcs(v, "paths"),
            "return_path" => r.return_path = matches!(v.value, Node::Bool(true)),
            _ => cx.unknown(k, "reference"),
        }
    }
    r
}

fn parse_general(cx: &mut Cx, n: &Spanned<Node>, out: &mut BTreeMap<String, General>) {
    for (prov, body) in cx.map(n, "general") {
        let g = out.entry(prov.value.clone()).or_default();
        for (k, v) in cx.map(body, "general provider") {
            match k.value.as_str() {
                "disk_types" => {
                    for (dk, dv) in cx.map(v, "disk_types") {
                        match dk.value.as_str() {
                            "default" => g.disk_default = cx.str(dv, "disk_types.default"),
                            "types" => {
                                for (tk, tv) in cx.map(dv, "disk_types.types") {
                                    if let Some(t) = cx.str(tv, "disk type") {
                                        g.disk_types.insert(tk.value.clone(), t);
                                    }
                                }
                            }
                            _ => cx.unknown(dk, "disk_types"),
                        }
                    }
                }
                "json_data" => {
                    for (jk, jv) in cx.map(v, "json_data") {
                        if let Some(f) = cx.str(jv, "json_data file") {
                            let loc = cx.loc(jv);
                            g.json_data.insert(jk.value.clone(), (f, loc));
                        }
                    }
                }
                "ignored_resources" => match &v.value {
                    Node::Seq(items) => {
                        for i in items {
                            if let Some(s) = cx.str(i, "ignored resource") {
                                let loc = cx.loc(i);
                                g.ignored.push((s, loc));
                            }
                        }
                    }
                    Node::Null => {}
                    _ => {
                        let loc = cx.loc(v);
                        cx.err(loc, DiagKind::Shape, "ignored_resources: expected a list")
                    }
                },
                _ => cx.unknown(k, "general"),
            }
        }
    }
}

/// Parse one mapping file and merge it into `set` (a later file's resource of the same name
/// replaces the earlier one; `general` merges key-wise). Problems go to `diags`.
pub fn parse_into(
    set: &mut MappingSet,
    file: &str,
    folder: Option<&str>,
    text: &str,
    diags: &mut Vec<Diagnostic>,
) {
    let file: Arc<str> = Arc::from(file);
    // an embedded file is read from the nodes the build stored, the others are parsed
    let parsed = match super::builtin_nodes(&file, text) {
        Some(root) => Ok(root),
        None => super::node::parse(text),
    };
    let root = match parsed {
        Ok(r) => r,
        Err(e) => {
            let (line, col) = e
                .location()
                .map_or((1, 1), |l| (l.line() as usize, l.column() as usize));
            let msg = e.to_string();
            let msg = msg.lines().next().unwrap_or("invalid YAML").to_string();
            diags.push(Diagnostic {
                loc: Loc { file, line, col },
                kind: DiagKind::Yaml,
                message: format!("YAML syntax error: {msg}"),
            });
            return;
        }
    };
    let mut cx = Cx { file, diags };
    let mut general = BTreeMap::new();
    for (k, v) in cx.map(&root, "mapping file") {
        match k.value.as_str() {
            "general" => parse_general(&mut cx, v, &mut general),
            "compute_resource" => {
                for (name, body) in cx.map(v, "compute_resource") {
                    let mut r = ResourceMapping {
                        name: name.value.clone(),
                        folder: folder.map(str::to_string),
                        paths: vec![],
                        kind: "resource".into(),
                        variables: vec![],
                        properties: vec![],
                        loc: cx.loc(name),
                    };
                    for (rk, rv) in cx.map(body, "resource mapping") {
                        match rk.value.as_str() {
                            "paths" | "path" => r.paths = cx.srcs(rv, "paths"),
                            "type" => r.kind = cx.str(rv, "type").unwrap_or_default(),
                            "properties" => r.properties = parse_props(&mut cx, rv, "properties"),
                            "variables" => {
                                for (vk, vv) in cx.map(rv, "variables") {
                                    if vk.value == "properties" {
                                        r.variables = parse_props(&mut cx, vv, "variables");
                                    } else {
                                        cx.unknown(vk, "variables");
                                    }
                                }
                            }
                            _ => cx.unknown(rk, "resource mapping"),
                        }
                    }
                    set.resources.insert(r.name.clone(), r);
                }
            }
            _ => cx.unknown(k, "mapping file"),
        }
    }
    for (p, g) in general {
        let e = set.general.entry(p).or_default();
        if g.disk_default.is_some() {
            e.disk_default = g.disk_default;
        }
        e.disk_types.extend(g.disk_types);
        e.json_data.extend(g.json_data);
        e.ignored.extend(g.ignored);
    }
}
