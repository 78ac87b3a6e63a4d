//! Provider schemas (`providers schema -json`): tells blocks from attributes and marks sensitive attributes.
//!
//! The built-in provider's schema (`terraform_data`, `terraform_remote_state`) is embedded
//! ([`Schemas::builtin`], from `data/schemas/terraform-builtin.json`, provenance beside it) and
//! answers whenever the given document (or no document) lacks it. For other providers without a
//! schema document, [`implied_block`] infers a block schema from the values themselves (see
//! `docs/rendering.md` for where that heuristic can differ from OpenTofu).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::error::Error;
use crate::plan::Value;

/// A cty type, as written in `attribute.type`.
#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    String,
    Number,
    Bool,
    Dynamic,
    List(Box<Type>),
    Set(Box<Type>),
    Map(Box<Type>),
    Object(BTreeMap<String, Type>),
    Tuple(Vec<Type>),
}

impl Type {
    fn from_json(v: &serde_json::Value) -> Result<Type, String> {
        use serde_json::Value as J;
        match v {
            J::String(s) => match s.as_str() {
                "string" => Ok(Type::String),
                "number" => Ok(Type::Number),
                "bool" => Ok(Type::Bool),
                "dynamic" => Ok(Type::Dynamic),
                other => Err(format!("unknown type {other:?}")),
            },
            J::Array(a) if a.len() == 2 => {
                let kind = a[0].as_str().unwrap_or("");
                match kind {
                    "list" => Ok(Type::List(Box::new(Type::from_json(&a[1])?))),
                    "set" => Ok(Type::Set(Box::new(Type::from_json(&a[1])?))),
                    "map" => Ok(Type::Map(Box::new(Type::from_json(&a[1])?))),
                    "object" => {
                        let attrs = a[1].as_object().ok_or("object type without attributes")?;
                        let mut out = BTreeMap::new();
                        for (k, t) in attrs {
                            out.insert(k.clone(), Type::from_json(t)?);
                        }
                        Ok(Type::Object(out))
                    }
                    "tuple" => {
                        let elems = a[1].as_array().ok_or("tuple type without elements")?;
                        Ok(Type::Tuple(
                            elems
                                .iter()
                                .map(Type::from_json)
                                .collect::<Result<_, _>>()?,
                        ))
                    }
                    other => Err(format!("unknown type kind {other:?}")),
                }
            }
            // ["object", {...}, ["optional"]] (type constraints with optional attributes)
            J::Array(a) if a.len() == 3 && a[0] == "object" => {
                Type::from_json(&J::Array(a[..2].to_vec()))
            }
            other => Err(format!("unknown type {other}")),
        }
    }

    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::String | Type::Number | Type::Bool)
    }
}

impl<'de> Deserialize<'de> for Type {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        Type::from_json(&v).map_err(serde::de::Error::custom)
    }
}

/// How a nested block or nested attribute type repeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum NestingMode {
    #[default]
    Single,
    Group,
    List,
    Set,
    Map,
}

#[derive(Debug, Clone, Deserialize, Default)]
pub struct Attribute {
    #[serde(rename = "type", default)]
    pub type_: Option<Type>,
    /// (boxed: rare, and an attribute is kept per key of a resource's implied schema)
    #[serde(default)]
    pub nested_type: Option<Box<NestedType>>,
    #[serde(default)]
    pub sensitive: bool,
    #[serde(default)]
    pub write_only: bool,
    /// Inferred from values (no schema): `# forces replacement` is then shown even on
    /// `dynamic` values, which OpenTofu's JSON differ never marks.
    #[serde(skip)]
    pub implied: bool,
    /// Inferred, and its values show a type the legacy SDK could not write (an object with
    /// an object or array member: a map block, a map or single nested attribute, an object
    /// type): Terraform's `NonLegacySchema` applies, an empty string is a value.
    #[serde(skip)]
    pub implied_non_legacy: bool,
}

#[derive(Debug, Clone, Deserialize, Default)]
pub struct NestedType {
    #[serde(default)]
    pub attributes: BTreeMap<String, Attribute>,
    #[serde(default)]
    pub nesting_mode: NestingMode,
}

#[derive(Debug, Clone, Deserialize, Default)]
pub struct Block {
    #[serde(default)]
    pub attributes: BTreeMap<String, Attribute>,
    #[serde(default)]
    pub block_types: BTreeMap<String, BlockType>,
}

#[derive(Debug, Clone, Deserialize, Default)]
pub struct BlockType {
    #[serde(default)]
    pub nesting_mode: NestingMode,
    #[serde(default)]
    pub block: Block,
}

#[derive(Debug, Clone, Deserialize, Default)]
pub struct ResourceSchema {
    #[serde(default)]
    pub block: Block,
}

#[derive(Debug, Clone, Deserialize, Default)]
pub struct ProviderSchema {
    #[serde(default)]
    pub resource_schemas: BTreeMap<String, ResourceSchema>,
    #[serde(default)]
    pub data_source_schemas: BTreeMap<String, ResourceSchema>,
}

/// The built-in provider's address (the same in OpenTofu and Terraform).
pub const BUILTIN_PROVIDER: &str = "terraform.io/builtin/terraform";

const BUILTIN_JSON: &str = include_str!("../data/schemas/terraform-builtin.json");

/// A whole `providers schema -json` document.
#[derive(Debug, Clone, Deserialize, Default)]
pub struct Schemas {
    #[serde(default)]
    pub format_version: Option<String>,
    #[serde(default)]
    pub provider_schemas: BTreeMap<String, ProviderSchema>,
}

impl Schemas {
    /// Parses a schema document; `path` names it in errors.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Schemas, Error> {
        serde_json::from_slice(bytes).map_err(|e| Error::Schema {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
    }

    /// The embedded schema of the built-in provider `terraform.io/builtin/terraform`
    /// (`terraform providers schema -json` of Terraform 1.15.5).
    pub fn builtin() -> &'static Schemas {
        static BUILTIN: OnceLock<Schemas> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            let path = Path::new("data/schemas/terraform-builtin.json");
            Schemas::parse(path, BUILTIN_JSON.as_bytes())
                .unwrap_or_else(|e| panic!("embedded schema: {e}"))
        })
    }

    /// The block schema of a resource (`mode` "managed" or "data"); the built-in provider's
    /// types fall back to the embedded schema when this document lacks them.
    pub fn block(&self, provider: &str, mode: &str, type_: &str) -> Option<&Block> {
        self.block_in_document(provider, mode, type_).or_else(|| {
            let builtin = Schemas::builtin();
            // (Terraform 0.12 wrote the short name "terraform")
            let is_builtin = provider == BUILTIN_PROVIDER || provider == "terraform";
            if is_builtin && !std::ptr::eq(self, builtin) {
                builtin.block_in_document(provider, mode, type_)
            } else {
                None
            }
        })
    }

    fn block_in_document(&self, provider: &str, mode: &str, type_: &str) -> Option<&Block> {
        let p = self.provider_schemas.get(provider).or_else(|| {
            // Terraform 0.12 wrote short provider names ("aws") in plans and long ones in
            // schemas, or the other way round: match on the last path segment.
            let short = provider.rsplit('/').next().unwrap_or(provider);
            self.provider_schemas
                .iter()
                .find(|(k, _)| k.rsplit('/').next() == Some(short))
                .map(|(_, v)| v)
        })?;
        let map = if mode == "data" {
            &p.data_source_schemas
        } else {
            &p.resource_schemas
        };
        map.get(type_).map(|r| &r.block)
    }
}

/// Infers a block schema from the values of a change (before, after, after_unknown, …).
///
/// A key whose values are arrays of objects becomes a list block (so does a key whose values
/// are all empty arrays, unless it becomes unknown: in real plans those are nearly always
/// absent blocks); every other key becomes
/// an attribute: objects whose members are all primitive become `map(dynamic)`, anything
/// else `dynamic` (rendered like an output value).
pub fn implied_block(values: &[&Value]) -> Block {
    let mut shape = Vec::new();
    implied_shape(values, &mut shape);
    block_of_shape(&shape)
}

/// What [`implied_block`] reads from the values, written to `out` compactly: equal shapes
/// make equal blocks ([`block_of_shape`]), so a renderer can keep the blocks of the shapes it
/// has seen. Each key, in order, is `K`, its length (u32, little-endian) and its bytes, then
/// `B`, the nested block's shape and `E` for a list block, or `M` (`map(dynamic)`) or `D`
/// (`dynamic`) and `implied_non_legacy` (0 or 1) for an attribute; `E` ends the block.
pub fn implied_shape(values: &[&Value], out: &mut Vec<u8>) {
    implied_shape_depth(values, 0, out);
}

fn implied_shape_depth(values: &[&Value], depth: usize, out: &mut Vec<u8>) {
    // The objects' keys in order, each with its values in the order of `values` (a merge of
    // the objects' sorted keys).
    let mut objects: Vec<_> = values
        .iter()
        .filter_map(|v| v.as_object())
        .map(|o| o.iter().peekable())
        .collect();
    let mut group: Vec<&Value> = Vec::new();
    while let Some(key) = objects
        .iter_mut()
        .filter_map(|o| o.peek().map(|&(k, _)| k.as_ref()))
        .min()
    {
        group.clear();
        for o in &mut objects {
            if let Some(&(k, v)) = o.peek()
                && k.as_ref() == key
            {
                group.push(v);
                o.next();
            }
        }
        out.push(b'K');
        out.extend_from_slice(&u32::try_from(key.len()).unwrap_or(u32::MAX).to_le_bytes());
        out.extend_from_slice(key.as_bytes());
        let children = || group.iter().copied();
        let non_null = || children().filter(|v| !v.is_null() && !matches!(v, Value::Bool(_)));
        let any_non_null = non_null().next().is_some();
        // An array that is empty wherever it is known but becomes unknown is a computed
        // attribute (`[] -> (known after apply)`), not absent blocks: a computed block that
        // goes unknown is one the provider had filled.
        let empty_then_unknown = children().any(|v| matches!(v, Value::Bool(true)))
            && non_null().all(|v| v.as_array().is_some_and(|a| a.is_empty()));
        let is_block = depth < 64
            && any_non_null
            && !empty_then_unknown
            && non_null().all(|v| {
                v.as_array()
                    .is_some_and(|a| a.iter().all(|e| matches!(e, Value::Object(_))))
            });
        if is_block {
            let elems: Vec<&Value> = non_null()
                .flat_map(|v| v.as_array().unwrap_or(&[]).iter())
                .collect();
            out.push(b'B');
            implied_shape_depth(&elems, depth + 1, out);
            continue;
        }
        let is_map = any_non_null
            && children().filter(|v| !v.is_null()).all(|v| match v {
                Value::Object(o) => o.values().all(|e| {
                    matches!(
                        e,
                        Value::String(_) | Value::Number(_) | Value::Bool(_) | Value::Null
                    )
                }),
                // after_unknown / sensitive markers
                Value::Bool(_) => true,
                _ => false,
            })
            && non_null().any(|v| matches!(v, Value::Object(_)));
        let implied_non_legacy = non_null().any(|v| {
            v.as_object().is_some_and(|o| {
                o.values()
                    .any(|m| matches!(m, Value::Object(_) | Value::Array(_)))
            })
        });
        out.push(if is_map { b'M' } else { b'D' });
        out.push(u8::from(implied_non_legacy));
    }
    out.push(b'E');
}

/// The block of a shape written by [`implied_shape`].
pub fn block_of_shape(shape: &[u8]) -> Block {
    let mut rest = shape;
    block_of_shape_part(&mut rest)
}

fn block_of_shape_part(rest: &mut &[u8]) -> Block {
    fn take<'s>(rest: &mut &'s [u8], n: usize) -> &'s [u8] {
        let (head, tail) = rest.split_at(n.min(rest.len()));
        *rest = tail;
        head
    }
    let mut attributes = Vec::new();
    let mut block_types = Vec::new();
    while take(rest, 1) == b"K" {
        let len = take(rest, 4).try_into().map_or(0, u32::from_le_bytes) as usize;
        let key = String::from_utf8_lossy(take(rest, len)).into_owned();
        match take(rest, 1) {
            b"B" => block_types.push((
                key,
                BlockType {
                    nesting_mode: NestingMode::List,
                    block: block_of_shape_part(rest),
                },
            )),
            code => {
                let type_ = if code == b"M" {
                    Type::Map(Box::new(Type::Dynamic))
                } else {
                    Type::Dynamic
                };
                attributes.push((
                    key,
                    Attribute {
                        type_: Some(type_),
                        implied: true,
                        implied_non_legacy: take(rest, 1) == [1],
                        ..Attribute::default()
                    },
                ));
            }
        }
    }
    // (keys already sorted and unique: the maps are built in one pass)
    Block {
        attributes: attributes.into_iter().collect(),
        block_types: block_types.into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_types() {
        let t: Type = serde_json::from_str(r#"["map",["list","string"]]"#).unwrap();
        assert_eq!(t, Type::Map(Box::new(Type::List(Box::new(Type::String)))));
        let t: Type = serde_json::from_str(r#"["object",{"a":"number"}]"#).unwrap();
        assert!(matches!(t, Type::Object(_)));
        assert!(serde_json::from_str::<Type>(r#""frob""#).is_err());
    }

    #[test]
    fn builtin_schema_answers_for_the_builtin_provider_only() {
        let b = Schemas::builtin();
        let data = b
            .block(BUILTIN_PROVIDER, "managed", "terraform_data")
            .unwrap();
        assert_eq!(data.attributes["input"].type_, Some(Type::Dynamic));
        assert!(data.block_types.is_empty());
        let rs = b
            .block(BUILTIN_PROVIDER, "data", "terraform_remote_state")
            .unwrap();
        assert_eq!(rs.attributes["backend"].type_, Some(Type::String));
        // a user document without the built-in provider still answers for it
        let user = Schemas::parse(Path::new("s.json"), br#"{"provider_schemas":{}}"#).unwrap();
        assert!(
            user.block(BUILTIN_PROVIDER, "managed", "terraform_data")
                .is_some()
        );
        assert!(
            user.block(
                "registry.terraform.io/hashicorp/aws",
                "managed",
                "aws_instance"
            )
            .is_none()
        );
        assert!(
            b.block(BUILTIN_PROVIDER, "managed", "aws_instance")
                .is_none()
        );
    }

    #[test]
    fn implied() {
        let v: Value = serde_json::from_str(
            r#"{"id":"x","tags":{"a":"b"},"ebs":[{"size":1}],"list":["a"],"n":null}"#,
        )
        .unwrap();
        let b = implied_block(&[&v]);
        assert!(b.block_types.contains_key("ebs"));
        assert_eq!(
            b.attributes["tags"].type_,
            Some(Type::Map(Box::new(Type::Dynamic)))
        );
        assert_eq!(b.attributes["list"].type_, Some(Type::Dynamic));
        assert_eq!(b.attributes["id"].type_, Some(Type::Dynamic));
        let v: Value = serde_json::from_str(r#"{"empty":[],"unknown":true}"#).unwrap();
        let b = implied_block(&[&v]);
        assert!(b.block_types.contains_key("empty"));
        assert!(b.attributes.contains_key("unknown"));
    }

    #[test]
    fn implied_empty_list_becoming_unknown_is_an_attribute() {
        // aws_instance's security_groups on replacement: `[] -> (known after apply)`.
        let before: Value =
            serde_json::from_str(r#"{"sg":[],"blocks":[],"cpu":[{"n":1}]}"#).unwrap();
        let unknown: Value = serde_json::from_str(r#"{"sg":true,"cpu":true}"#).unwrap();
        let b = implied_block(&[&before, &Value::Null, &unknown]);
        assert!(b.attributes.contains_key("sg"));
        assert!(b.block_types.contains_key("blocks"));
        assert!(b.block_types.contains_key("cpu"));
    }

    #[test]
    fn implied_shapes_keep_every_key() {
        // keys that look like the shape's own markers, empty, NUL, non-ASCII; nested blocks
        let v: Value = serde_json::from_str(
            r#"{"":1,"E":{"a":"b"},"K\u0000B":[{"x":[{"E":null}],"M":{"o":{}}}],"é":[1]}"#,
        )
        .unwrap();
        let b = implied_block(&[&v]);
        let keys: Vec<&str> = b.attributes.keys().map(String::as_str).collect();
        assert_eq!(keys, ["", "E", "é"]);
        assert_eq!(
            b.attributes["E"].type_,
            Some(Type::Map(Box::new(Type::Dynamic)))
        );
        let nested = &b.block_types["K\u{0}B"].block;
        assert!(nested.block_types["x"].block.attributes.contains_key("E"));
        assert!(nested.attributes["M"].implied_non_legacy);
        // equal shapes, equal blocks; another value, another shape
        let (mut s1, mut s2, mut s3) = (Vec::new(), Vec::new(), Vec::new());
        implied_shape(&[&v], &mut s1);
        let w: Value = serde_json::from_str(
            r#"{"":2,"E":{"a":"c"},"K\u0000B":[{"x":[{"E":1}],"M":{"o":{"p":1}}}],"é":[2]}"#,
        )
        .unwrap();
        implied_shape(&[&w], &mut s2);
        assert_eq!(s1, s2);
        let u: Value = serde_json::from_str(r#"{"":2,"E":{"a":{}}}"#).unwrap();
        implied_shape(&[&u], &mut s3);
        assert_ne!(s1, s3);
    }

    #[test]
    fn implied_object_with_object_members_is_non_legacy() {
        let v: Value =
            serde_json::from_str(r#"{"apps":{"a":{"v":"1"}},"tags":{"a":"b"},"s":""}"#).unwrap();
        let b = implied_block(&[&v]);
        assert!(b.attributes["apps"].implied_non_legacy);
        assert!(!b.attributes["tags"].implied_non_legacy);
        assert!(!b.attributes["s"].implied_non_legacy);
    }
}
