//! The plan's `configuration` as the mapping engine reads it: its module tree over borrowed slices of the text, each piece (a resource's block, a module's resource list, an expression) built into a value only when a mapping asks for it.
//!
//! The configuration of a large plan is a few MB of text that, built whole into jaq values,
//! would cost more than ten times that; a mapping reads the block of the resource it maps and
//! now and then an expression.

use super::region::config_address;
use super::source::{Members, member, value};
use jaq_json::Val;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// One module of the configuration.
struct Module<'a> {
    /// Its `resources` list as written (`$__modconfig`).
    list: Option<&'a RawValue>,
    /// Each configuration resource: its address as written, and its block.
    resources: Vec<(Cow<'a, str>, &'a RawValue)>,
    /// The module call that creates it (none for the root module).
    call: Option<&'a RawValue>,
    /// The module object itself (`variables`, `outputs`).
    body: &'a RawValue,
    list_val: OnceLock<Val>,
    /// (type, referred address or attribute prefix) → positions in `resources`.
    referrers: OnceLock<Map<(String, String), Vec<u32>>>,
}

/// The configuration: modules by path (`""` for the root, `module.a.module.b`).
#[derive(Default)]
pub struct Config<'a> {
    provider_config: Option<&'a RawValue>,
    modules: Map<String, Module<'a>>,
    /// (module path, module-relative address) → (module path, position): the last block of
    /// an address wins, as in an object read twice.
    blocks: Map<(String, String), usize>,
    /// Unique to this configuration (among all read by the process): a thread's cached block
    /// is never taken for another configuration's.
    id: u64,
}

/// A string slice's text, or `None` for any other value.
fn text(raw: &RawValue) -> Option<Cow<'_, str>> {
    serde_json::from_str::<Cow<'_, str>>(raw.get())
        .ok()
        .filter(|_| raw.get().starts_with('"'))
}

impl<'a> Config<'a> {
    /// Reads the module tree of a `configuration` slice (no value is built).
    pub fn new(configuration: Option<&'a RawValue>) -> Config<'a> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let mut c = Config {
            id: NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            ..Config::default()
        };
        let Some(conf) = configuration else {
            return c;
        };
        let m = Members::of(conf);
        c.provider_config = m.last("provider_config");
        if let Some(root) = m.last("root_module") {
            c.walk(root, None, String::new(), 0);
        }
        c
    }

    fn walk(&mut self, body: &'a RawValue, call: Option<&'a RawValue>, path: String, depth: usize) {
        let m = Members::of(body);
        let list = m.last("resources").filter(|l| l.get().starts_with('['));
        let mut resources = Vec::new();
        if let Some(l) = list
            && let Ok(items) = serde_json::from_str::<Vec<&'a RawValue>>(l.get())
        {
            for r in items {
                let a = member(r, "address").and_then(text);
                if let Some(a) = &a {
                    let (_, rel) = config_address(a);
                    self.blocks.insert((path.clone(), rel), resources.len());
                }
                resources.push((a.unwrap_or_default(), r));
            }
        }
        let calls = m.last("module_calls").map(Members::of);
        self.modules.insert(
            path.clone(),
            Module {
                list,
                resources,
                call,
                body,
                list_val: OnceLock::new(),
                referrers: OnceLock::new(),
            },
        );
        if depth > 64 {
            return;
        }
        for (name, call) in calls.map(|c| c.0).into_iter().flatten() {
            if !call.get().starts_with('{') {
                continue;
            }
            let child = if path.is_empty() {
                format!("module.{name}")
            } else {
                format!("{path}.module.{name}")
            };
            if let Some(module) = member(call, "module") {
                self.walk(module, Some(call), child, depth + 1);
            }
        }
    }

    /// The text of the block [`Config::block`] builds, as written.
    pub fn block_raw(&self, modpath: &str, rel: &str) -> Option<&'a RawValue> {
        let i = *self.blocks.get(&(modpath.to_string(), rel.to_string()))?;
        Some(self.modules.get(modpath)?.resources.get(i)?.1)
    }

    /// The block of configuration resource `rel` in module `modpath` (`$__config`). The
    /// instances of a block are mapped one after another: the last block built on this thread
    /// is kept for the next.
    pub fn block(&self, modpath: &str, rel: &str) -> Val {
        thread_local! {
            static LAST: std::cell::RefCell<((u64, usize), Val)> =
                const { std::cell::RefCell::new(((0, 0), Val::Null)) };
        }
        let Some(r) = self.block_raw(modpath, rel) else {
            return Val::Null;
        };
        // a block is known by this configuration's id and its slice's place in the text
        let id = (self.id, r.get().as_ptr() as usize);
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            if last.0 != id {
                *last = (id, value(Some(r)));
            }
            last.1.clone()
        })
    }

    /// The resource list of module `modpath` (`$__modconfig`), built once.
    pub fn module_list(&self, modpath: &str) -> Val {
        match self.modules.get(modpath) {
            Some(m) if m.list.is_some() => m.list_val.get_or_init(|| value(m.list)).clone(),
            _ => Val::Null,
        }
    }

    /// `cbf::referrers(T)` of the resource whose configuration address is `me` in module
    /// `modpath`: the addresses of the module's configuration resources of type `ty` whose
    /// expressions refer to `me` or to one of its attributes, in the module's order.
    pub fn referrers(&self, modpath: &str, ty: &str, me: &str) -> Vec<&str> {
        let Some(m) = self.modules.get(modpath) else {
            return vec![];
        };
        let index = m.referrers.get_or_init(|| {
            let mut index: Map<(String, String), Vec<u32>> = Map::default();
            for (p, (_, r)) in m.resources.iter().enumerate() {
                let Some(ty) = member(r, "type").and_then(text) else {
                    continue;
                };
                let mut refs = Vec::new();
                let mut de = serde_json::Deserializer::from_str(r.get());
                let _ = de.deserialize_any(Refs {
                    out: &mut refs,
                    member: false,
                    collect: false,
                });
                for reference in refs {
                    // `. == $me or startswith($me + ".")`: the reference and its prefixes
                    // ending before a dot
                    let ends = reference
                        .match_indices('.')
                        .map(|(i, _)| i)
                        .chain([reference.len()]);
                    for e in ends {
                        let v = index
                            .entry((ty.to_string(), reference[..e].to_string()))
                            .or_default();
                        if v.last() != Some(&(p as u32)) {
                            v.push(p as u32);
                        }
                    }
                }
            }
            for v in index.values_mut() {
                v.sort_unstable();
                v.dedup();
            }
            index
        });
        index
            .get(&(ty.to_string(), me.to_string()))
            .into_iter()
            .flatten()
            .filter_map(|&p| m.resources.get(p as usize))
            .map(|(a, _)| a.as_ref())
            .filter(|a| !a.is_empty())
            .collect()
    }

    /// `expressions.<name>` of the call of module `path`.
    pub fn call_expression(&self, path: &str, name: &str) -> Option<Val> {
        Some(value(Some(self.call_expression_raw(path, name)?)))
    }

    /// [`Config::call_expression`] as written.
    pub fn call_expression_raw(&self, path: &str, name: &str) -> Option<&'a RawValue> {
        let call = self.modules.get(path)?.call?;
        let e = member(call, "expressions")?;
        member(e, name)
    }

    /// The default of variable `name` of module `path`.
    pub fn variable_default(&self, path: &str, name: &str) -> Option<Val> {
        Some(value(Some(self.variable_default_raw(path, name)?)))
    }

    /// [`Config::variable_default`] as written.
    pub fn variable_default_raw(&self, path: &str, name: &str) -> Option<&'a RawValue> {
        let m = self.modules.get(path)?;
        let vars = member(m.body, "variables")?;
        let var = member(vars, name)?;
        member(var, "default")
    }

    /// Whether variable `name` of module `path` (`""`: the root) is declared `sensitive`.
    pub fn variable_sensitive(&self, path: &str, name: &str) -> bool {
        (|| {
            let m = self.modules.get(path)?;
            let var = member(member(m.body, "variables")?, name)?;
            Some(member(var, "sensitive")?.get() == "true")
        })()
        .unwrap_or(false)
    }

    /// The configuration's `provider_config` as written.
    pub fn provider_config(&self) -> Option<&'a RawValue> {
        self.provider_config
    }

    /// The `provider_config_key` of configuration resource `rel` in module `modpath`.
    pub fn provider_key(&self, modpath: &str, rel: &str) -> Option<String> {
        let k = member(self.block_raw(modpath, rel)?, "provider_config_key")?;
        k.get()
            .starts_with('"')
            .then(|| serde_json::from_str::<String>(k.get()).ok())
            .flatten()
    }

    /// The expression of output `output` of module `path`.
    pub fn output_expression(&self, path: &str, output: &str) -> Option<Val> {
        let m = self.modules.get(path)?;
        let outs = member(m.body, "outputs")?;
        let out = member(outs, output)?;
        Some(value(Some(member(out, "expression")?)))
    }

    /// The `expressions` of configuration resource `rel` in module `modpath`.
    pub fn resource_expressions(&self, modpath: &str, rel: &str) -> Option<Val> {
        let m = self.modules.get(modpath)?;
        let (_, r) = m
            .resources
            .iter()
            .find(|(a, _)| !a.is_empty() && config_address(a).1 == rel)?;
        Some(value(Some(member(r, "expressions")?)))
    }

    /// Whether module `path` is in the configuration.
    pub fn has_module(&self, path: &str) -> bool {
        self.modules.contains_key(path)
    }
}

/// Collects the strings of every `references` array, at any depth.
struct Refs<'o> {
    out: &'o mut Vec<String>,
    /// This value is a `references` member: the strings of its array are collected.
    member: bool,
    /// This value is an element of a `references` array.
    collect: bool,
}

impl<'de> Visitor<'de> for Refs<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<(), E> {
        if self.collect {
            self.out.push(s.to_string());
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(k) = map.next_key::<Cow<'de, str>>()? {
            let member = k == "references";
            map.next_value_seed(Seed(Refs {
                out: self.out,
                member,
                collect: false,
            }))?;
        }
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq
            .next_element_seed(Seed(Refs {
                out: self.out,
                member: false,
                collect: self.member,
            }))?
            .is_some()
        {}
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
}

struct Seed<'o>(Refs<'o>);

impl<'de> de::DeserializeSeed<'de> for Seed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self.0)
    }
}
