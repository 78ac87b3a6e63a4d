//! Mapping a document: each side's resources, indexed, matched to their mapping and evaluated in parallel.

use super::eval::{Found, Notes, RCx};
use super::index::{
    AddrIndex, Configs, block_of, collect_resources, memo_key, module_prefix, regions_doc,
};
use super::profile::{phase, profiling};
use super::{Engine, TYPE_SELECT};
use crate::mapping::jq::{self, Globals, PerResource};
use crate::mapping::model::ResourceMapping;
use crate::mapping::region::{self, Regions};
use crate::mapping::{MappedPlan, MappedResource};
use jaq_json::Val;
use rayon::prelude::*;
use regex::Regex;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};

impl Engine {
    /// Map a plan (or state) document.
    pub fn map(&self, doc: &serde_json::Value) -> MappedPlan {
        self.map_document(crate::mapping::doc::Document::from_value(doc))
    }

    /// Map a document parsed by [`crate::mapping::doc::Document::from_slice`] (consumed: its values are
    /// freed as soon as mapping is done).
    pub fn map_document(&self, doc: crate::mapping::doc::Document) -> MappedPlan {
        self.map_document_stats(doc).0
    }

    /// [`Engine::map_document`], and what it took.
    pub fn map_document_stats(&self, doc: crate::mapping::doc::Document) -> (MappedPlan, MapStats) {
        let stats = MapStats::default();
        crate::mapping::limits::set_locations(self.locs.clone());
        let crate::mapping::doc::Document { root, unknown } = doc;
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
        let t = std::time::Instant::now();
        region::resolve_from_references(&root, before, &mut plan.before);
        region::resolve_from_references(&root, after, &mut plan.after);
        phase("  regions from references", t);
        // dropped here, before the caller allocates again (a drop on another thread would
        // overlap the renderer's allocations and raise the peak)
        let t = std::time::Instant::now();
        drop(root);
        phase("  free the document", t);
        (plan, stats)
    }

    #[allow(clippy::too_many_arguments)]
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
        let scope = crate::mapping::limits::resource("");
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
        drop(scope);
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
                    r.address = crate::mapping::deposed_address(&r.address, &key);
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

    #[allow(clippy::too_many_arguments)]
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
        let _scope = crate::mapping::limits::resource(&address);
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
    pub(super) fn add(c: &AtomicU64, n: u64) {
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
