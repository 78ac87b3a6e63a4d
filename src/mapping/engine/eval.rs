//! Evaluating one resource's mapping: placeholders, sources, references, lists and storages.

use super::map::MapStats;
use super::profile::{Prof, profiling};
use super::side::SideCx;
use super::{Engine, NullRule};
use crate::mapping::config::Config;
use crate::mapping::jq::{self, PerResource};
use crate::mapping::model::{PropDef, Reference, ResourceMapping};
use crate::mapping::placeholder::PhKind;
use crate::mapping::{DiskKind, FastMap, Storage};
use jaq_json::Val;
use std::cell::RefCell;

#[derive(Default)]
pub(super) struct Notes {
    pub(super) assumed: Vec<String>,
    pub(super) warnings: Vec<String>,
}

#[derive(Clone)]
pub(super) struct Found<'e> {
    pub(super) val: Val,
    pub(super) unit: Option<&'e str>,
}

/// One item of a list property: its properties found, by name, in the mapping's order.
pub(super) struct Item<'e>(Vec<(&'e str, Found<'e>)>);

impl<'e> Item<'e> {
    pub(super) fn get(&self, name: &str) -> Option<&Found<'e>> {
        self.0.iter().find(|(k, _)| *k == name).map(|(_, f)| f)
    }
}

/// Evaluation context of one resource.
pub(super) struct RCx<'e, 's, 'a> {
    pub(super) e: &'e Engine,
    pub(super) side: &'e SideCx<'s, 'a>,
    pub(super) configs: &'e Config<'e>,
    pub(super) stats: &'e MapStats,
    /// Module path of the resource without instance keys (`module.a.module.b`).
    pub(super) modpath: String,
    pub(super) res: Val,
    pub(super) family: &'e str,
    pub(super) m: &'e ResourceMapping,
    pub(super) per: PerResource,
    pub(super) vars: RefCell<FastMap<&'e str, Option<Val>>>,
    pub(super) notes: RefCell<Notes>,
}

impl<'e> RCx<'e, '_, '_> {
    /// The first output of [`RCx::eval`]: a plain path (`mapping::fast`) gives it without
    /// collecting its outputs.
    fn eval_first(&self, fid: usize, input: &Val, key: Option<&Val>) -> Option<Val> {
        let info = self.e.filters.get(fid)?;
        let plain = info.indexed.is_none()
            && info.referrers.is_none()
            && !self.e.native_off
            && self.e.check_native.is_none();
        match info.fast.as_ref().filter(|_| plain) {
            Some(f) => {
                let phs = self.placeholders(info, key);
                if profiling() {
                    super::profile::count_native(fid);
                }
                f.first(self.input_of(info, input), &phs)
            }
            None => self.eval(fid, input, key).into_iter().next(),
        }
    }

    /// What a filter reads as its input: a lookup reads the document (or nothing).
    fn input_of<'v>(&'v self, info: &super::filters::FilterInfo, input: &'v Val) -> &'v Val {
        // a lookup that reads nothing of its input gets null, not the whole document
        match (info.on_root, info.input_free) {
            (true, true) => &Val::Null,
            (true, false) => &self.side.root,
            (false, _) => input,
        }
    }

    /// The values of a filter's placeholders, in order.
    fn placeholders(&self, info: &'e super::filters::FilterInfo, key: Option<&Val>) -> Vec<Val> {
        let mut phs = Vec::with_capacity(info.placeholders.len());
        for (ph, this_id) in &info.placeholders {
            let v = match &ph.kind {
                PhKind::This(_) => self.eval_first(*this_id, &self.res, None),
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
                match v.filter(|v| !matches!(*v, Val::Null)) {
                    // a string is its own text
                    Some(v @ Val::TStr(_)) if jq::str_ref(&v).is_some() => v,
                    v => jq::s(&v.map_or_else(|| ".not_found".to_string(), |v| jq::display(&v))),
                }
            } else {
                v.unwrap_or(Val::Null)
            });
        }
        phs
    }

    fn eval(&self, fid: usize, input: &Val, key: Option<&Val>) -> Vec<Val> {
        if fid == usize::MAX {
            return vec![];
        }
        let info = &self.e.filters[fid];
        let phs = self.placeholders(info, key);
        if let Some(sel) = &info.indexed
            && let Some(out) = self.native_select(sel, &phs)
        {
            return out;
        }
        if let Some((first, types)) = &info.referrers {
            return self.native_referrers(*first, types);
        }
        let input = self.input_of(info, input);
        if let Some(f) = info.fast.as_ref().filter(|_| !self.e.native_off) {
            if profiling() {
                super::profile::count_native(fid);
            }
            let out = f.run(input, &phs);
            if let Some(check) = &self.e.check_native {
                // a plain path gives jaq's values, its nulls and errors dropped
                let g = self.side.globals(info.uses);
                let by_jaq: Vec<_> =
                    (self
                        .e
                        .program()
                        .run(fid, input.clone(), &g, &self.per, &phs))
                    .into_iter()
                    .filter(|r| r.as_ref().is_ok_and(|v| !matches!(*v, Val::Null)))
                    .collect();
                let out: Vec<_> = out.iter().cloned().map(Ok).collect();
                check.compare(fid, &self.e.texts[fid], input, &out, &by_jaq);
            }
            return out;
        }
        // a plain path piped into a native `select` is cheaper split (`fast::Pred`)
        let split_native = info.split.as_ref().is_some_and(|s| s.pred.is_some());
        if !split_native && let Some(out) = self.native(fid, input, &phs) {
            return out
                .into_iter()
                .filter_map(Result::ok)
                .filter(|v| !matches!(*v, Val::Null))
                .collect();
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
                if let Some(p) = sp.pred.as_ref().filter(|_| !self.e.native_off) {
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

    /// Filter `fid` by the native evaluator, when it has a native form and knows the answer
    /// (every output, errors as jaq words them); `None`: run it in jaq.
    fn native(&self, fid: usize, input: &Val, phs: &[Val]) -> Option<Vec<Result<Val, String>>> {
        if self.e.native_off {
            return None;
        }
        let n = self.e.filters[fid].native.as_ref()?;
        let run = || -> Option<Vec<Result<Val, String>>> {
            Some(
                n.run(input, phs)?
                    .into_iter()
                    .take(jq::MAX_OUTPUTS)
                    .map(|r| r.map_err(|e| e.to_string()))
                    .collect(),
            )
        };
        // a filter that reads only its placeholders gives what it gave for the same ones
        let out = if n.reads_input() || self.e.check_native.is_some() {
            run()?
        } else {
            kept::outputs(fid, phs, run)?
        };
        MapStats::add(&self.stats.native_runs, 1);
        if profiling() {
            super::profile::count_native(fid);
        }
        if let Some(check) = &self.e.check_native {
            let g = self.side.globals(self.e.filters[fid].uses);
            let by_jaq = self.e.program().run(fid, input.clone(), &g, &self.per, phs);
            check.compare(fid, &self.e.texts[fid], input, &out, &by_jaq);
        }
        Some(out)
    }

    fn count_jaq(&self, fid: usize) {
        MapStats::add(&self.stats.jaq_runs, 1);
        if self.e.filters.get(fid).is_some_and(|f| f.scans) {
            MapStats::add(&self.stats.scan_runs, 1);
            MapStats::add(&self.stats.scanned, self.side.slots.len() as u64);
        }
    }

    /// `cbf::referrers(T)` for each of `types` in turn (the first answer only with `first`):
    /// configuration resources of type T in this module that refer to this resource, by address.
    fn native_referrers(&self, first: bool, types: &[String]) -> Vec<Val> {
        MapStats::add(&self.stats.indexed, 1);
        let me = jq::get(&self.per.config, "address")
            .and_then(jq::str_ref)
            .unwrap_or("");
        let prefix = jq::str_ref(&self.per.modprefix).unwrap_or_default();
        let mut out = Vec::new();
        for ty in types {
            for a in self.configs.referrers(&self.modpath, ty, me) {
                if let Some(r) = self.side.by_address(&format!("{prefix}{a}")) {
                    out.push(r);
                    if first {
                        return out;
                    }
                }
            }
        }
        out
    }

    /// `cbf::all_select(P; "\($__ph_N)")` (and its `select(.type == T)`) from the side's
    /// index, as the cbf module's definition reads it; `None` when P is not indexed (jaq then
    /// scans).
    fn native_select(&self, sel: &super::index::IndexedSelect, phs: &[Val]) -> Option<Vec<Val>> {
        let key = phs.get(sel.ph)?;
        jq::str_ref(key)?;
        MapStats::add(&self.stats.indexed, 1);
        let keep = |r: &Val| {
            sel.type_
                .as_deref()
                .is_none_or(|t| jq::get(r, "type").and_then(jq::str_ref) == Some(t))
        };
        Some(
            self.side
                .all_select(&jq::s(&sel.prop), key)
                .into_iter()
                .filter(keep)
                .collect(),
        )
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
        self.side.by_address(&format!("{prefix}{r}"))
    }

    fn run_jaq(&self, fid: usize, input: Val, phs: &[Val]) -> Vec<Val> {
        self.count_jaq(fid);
        // (compiled first if it was not at load: not counted in the filter's time)
        let program = self.e.program();
        let _t = profiling().then(|| Prof(fid, std::time::Instant::now()));
        let g = self.side.globals(self.e.filters[fid].uses);
        program
            .run(fid, input, &g, &self.per, phs)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|v| !matches!(*v, Val::Null))
            .collect()
    }

    fn var(&self, name: &'e str) -> Option<Val> {
        if let Some(v) = self.vars.borrow().get(name) {
            return v.clone();
        }
        self.vars.borrow_mut().insert(name, None); // cycle guard
        let v = self
            .m
            .variables
            .iter()
            .find(|(k, _)| k == name)
            .and_then(|(_, defs)| self.prop(defs, &self.res, false))
            .map(|f| f.val);
        self.vars.borrow_mut().insert(name, v.clone());
        v
    }

    pub(super) fn scalar(&self, name: &str) -> Option<Found<'e>> {
        let (_, defs) = self.m.properties.iter().find(|(k, _)| k == name)?;
        // only the figures the estimate depends on get "unknown until apply" notes
        let noted = matches!(
            name,
            "machine_type" | "vCPUs" | "vcpus" | "memory" | "count" | "replication_factor"
        );
        self.prop(defs, &self.res, noted)
    }

    /// Resolve a property from its ordered sources.
    fn prop(&self, defs: &'e [PropDef], input: &Val, top: bool) -> Option<Found<'e>> {
        for d in defs.iter().filter(|d| !d.list) {
            let found = d
                .paths
                .iter()
                .find_map(|p| self.eval_first(p.id, input, None));
            if let Some(v) = found
                && let Some(v) = self.post(d, v)
            {
                return Some(Found {
                    val: v,
                    unit: d.unit.as_deref(),
                });
            }
        }
        for d in defs.iter().filter(|d| !d.list) {
            let Some(def) = &d.default else { continue };
            let v = match &d.default_filter {
                Some(f) => self.eval_first(f.id, input, None),
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
                unit: d.unit.as_deref(),
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
                self.eval_first(p.id, &v, None)?
            } else {
                jq::get(&v, p.text.trim()).cloned()?
            };
        }
        if let Some(r) = &d.regex
            && let Some(sv) = jq::str_of(&v)
        {
            let re = self.e.regex(&r.pattern)?;
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
            && (matches!(v, Val::TStr(_) | Val::BStr(_)) || jq::num(&v).is_some())
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
            let outs = self.native(val.id, &v, &[]).unwrap_or_else(|| {
                let g = self.side.globals(self.e.filters[val.id].uses);
                self.count_jaq(val.id);
                self.e.program().run(val.id, v.clone(), &g, &self.per, &[])
            });
            let errs: Vec<String> = outs.into_iter().filter_map(Result::err).collect();
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
            let item = table.get(&key_s)?;
            return match &r.property {
                Some(p) if p.id != usize::MAX => self.eval_first(p.id, item, None),
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
                // a reference path runs on the document (registered so)
                let items = self.eval(p.id, &Val::Null, Some(&key));
                if items.is_empty() {
                    continue;
                }
                if let Some(prop) = &r.property {
                    for it in &items {
                        let v = if prop.id != usize::MAX {
                            self.eval_first(prop.id, it, None)
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
        if t.eq_ignore_ascii_case("ssd") {
            return "ssd";
        }
        if t.eq_ignore_ascii_case("hdd") {
            return "hdd";
        }
        let g = self.e.set.general.get(self.family);
        let d = g
            .and_then(|g| g.disk_types.get(t))
            .or_else(|| g.and_then(|g| g.disk_default.as_ref()));
        match d {
            Some(d) if d.eq_ignore_ascii_case("hdd") => "hdd",
            _ => "ssd",
        }
    }

    pub(super) fn list(&self, name: &str) -> Vec<Item<'e>> {
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
                            let mut props: Vec<(&str, Found)> =
                                Vec::with_capacity(it.properties.len());
                            for (k, pdefs) in &it.properties {
                                if let Some(f) = self.prop(pdefs, &el, false) {
                                    // a name given twice: the last one found wins
                                    props.retain(|(n, _)| n != k);
                                    props.push((k, f));
                                }
                            }
                            out.push(Item(props));
                        }
                    }
                }
            }
        }
        out
    }

    pub(super) fn storages(&self) -> Vec<Storage> {
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
            let gb = match size.unit {
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
        let mut best: FastMap<String, (usize, f64)> = FastMap::default();
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

/// The outputs of native filters that read only their placeholders, kept per thread by filter
/// and placeholder values: `${instance_info}.InstanceStorage | select(…) | …` runs once per
/// instance type, not once per instance. Arrays and objects are told apart by allocation
/// (the entry keeps them alive, so an address is never reused while it is kept), the rest by
/// value.
mod kept {
    use crate::mapping::FastMap;
    use jaq_json::Val;
    use std::cell::RefCell;

    type Outputs = Vec<Result<Val, String>>;

    /// By hash: the filter, its placeholder values and its outputs.
    type Table = FastMap<u64, (usize, Vec<Val>, Outputs)>;

    /// Entries per thread; past this, the table starts again.
    const ENTRIES: usize = 1024;

    fn same(a: &Val, b: &Val) -> bool {
        match (a, b) {
            (Val::Arr(x), Val::Arr(y)) => jaq_json::Rc::ptr_eq(x, y),
            (Val::Obj(x), Val::Obj(y)) => jaq_json::Rc::ptr_eq(x, y),
            (Val::Arr(_) | Val::Obj(_), _) | (_, Val::Arr(_) | Val::Obj(_)) => false,
            _ => a == b,
        }
    }

    fn hash(fid: usize, phs: &[Val]) -> u64 {
        use std::hash::{BuildHasher, Hash, Hasher};
        let mut h = foldhash::fast::FixedState::with_seed(0x6b65).build_hasher();
        h.write_usize(fid);
        for v in phs {
            match v {
                Val::Arr(a) => h.write_usize(jaq_json::Rc::as_ptr(a) as *const u8 as usize),
                Val::Obj(o) => h.write_usize(jaq_json::Rc::as_ptr(o) as *const u8 as usize),
                v => v.hash(&mut h),
            }
        }
        h.finish()
    }

    /// Filter `fid`'s outputs for placeholder values `phs`: kept ones, or `run`'s (kept when
    /// it knows them).
    pub(super) fn outputs(
        fid: usize,
        phs: &[Val],
        run: impl FnOnce() -> Option<Outputs>,
    ) -> Option<Outputs> {
        thread_local! {
            static KEPT: RefCell<Table> = RefCell::default();
        }
        let h = hash(fid, phs);
        let found = KEPT.with_borrow(|k| {
            k.get(&h)
                .filter(|(f, p, _)| {
                    *f == fid && p.len() == phs.len() && p.iter().zip(phs).all(|(a, b)| same(a, b))
                })
                .map(|(_, _, out)| out.clone())
        });
        if found.is_some() {
            return found;
        }
        let out = run()?;
        KEPT.with_borrow_mut(|k| {
            if k.len() >= ENTRIES {
                k.clear();
            }
            k.insert(h, (fid, phs.to_vec(), out.clone()));
        });
        Some(out)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn kept_outputs_are_told_apart_by_filter_and_placeholders() {
            let obj = |n: isize| {
                Val::obj(std::iter::once((crate::mapping::jq::s("n"), Val::from(n))).collect())
            };
            let (a, b) = (obj(1), obj(1));
            let runs = std::cell::Cell::new(0);
            let run = |v: &Val| {
                let v = v.clone();
                let runs = &runs;
                move || {
                    runs.set(runs.get() + 1);
                    Some(vec![Ok(v)])
                }
            };
            let got = |fid, phs: &[Val]| outputs(fid, phs, run(&phs[0])).unwrap();
            assert_eq!(got(1, std::slice::from_ref(&a)), vec![Ok(a.clone())]);
            assert_eq!(got(1, std::slice::from_ref(&a)), vec![Ok(a.clone())]);
            assert_eq!(runs.get(), 1, "the same placeholder again: kept");
            // an equal object built apart, another filter, a scalar: run again
            got(1, std::slice::from_ref(&b));
            got(2, std::slice::from_ref(&a));
            got(1, &[Val::Null]);
            got(1, &[Val::Null]);
            assert_eq!(runs.get(), 4);
            // what the filter does not know is not kept
            assert_eq!(outputs(3, &[Val::Null], || None), None);
            assert_eq!(outputs(3, &[Val::Null], || Some(vec![])), Some(vec![]));
        }
    }
}
