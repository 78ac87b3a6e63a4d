//! Mapping a document: each side's resources read from the plan's text, matched to their mapping and evaluated in parallel.

use super::Engine;
use super::across;
use super::eval::{Found, Notes, RCx};
use super::index::{block_of, module_prefix};
use super::profile::{phase, profiling};
use super::side::{self, SideCx};
use crate::mapping::config::Config;
use crate::mapping::jq::{self, PerResource};
use crate::mapping::model::ResourceMapping;
use crate::mapping::region::{self, Regions};
use crate::mapping::source::{self, Sections, Seen, Slot};
use crate::mapping::{Body, FastMap, MappedPlan, MappedResource};
use jaq_json::Val;
use rayon::prelude::*;
use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

impl Engine {
    /// Map a plan (or state) document given as a parsed value (tests, library users).
    pub fn map(&self, doc: &serde_json::Value) -> MappedPlan {
        self.map_text(&doc.to_string())
    }

    /// Map a plan (or state) document given as its JSON text.
    pub fn map_text(&self, text: &str) -> MappedPlan {
        self.map_sections(&Sections::from_text(text))
    }

    /// Map the sections of a document (`plan::Plan::sections` gives them without reading the
    /// text again).
    pub fn map_sections(&self, sections: &Sections<'_>) -> MappedPlan {
        self.map_sections_stats(sections).0
    }

    /// [`Engine::map_sections`], and what it took.
    pub fn map_sections_stats(&self, s: &Sections<'_>) -> (MappedPlan, MapStats) {
        self.map_with_config_stats(s, s.unknown.clone(), &Config::new(s.configuration))
    }

    /// [`Engine::map_sections`] with the document's configuration already read (it is read
    /// once for a plan mapped in two parts: `mapping::fallback`). The sections are taken, so
    /// that the list of unknown marks is freed once it is filed.
    pub fn map_with_config(&self, mut s: Sections<'_>, configs: &Config<'_>) -> MappedPlan {
        let unknown = std::mem::take(&mut s.unknown);
        self.map_with_config_stats(&s, unknown, configs).0
    }

    /// Whether a loaded filter reads the whole document (`cbf::root`, a path from
    /// `.planned_values`…): it is then built for it.
    pub fn reads_document(&self) -> bool {
        self.whole.root
    }

    fn map_with_config_stats<'a>(
        &self,
        s: &Sections<'a>,
        marks: Vec<(Cow<'a, str>, &'a str)>,
        configs: &Config<'_>,
    ) -> (MappedPlan, MapStats) {
        let stats = MapStats::default();
        crate::mapping::limits::set_locations(self.locs.clone());
        let t = std::time::Instant::now();
        let variables = source::value(s.variables);
        let regions = Regions::new(configs, s.variables);
        // each change's after_unknown marks, when they mark something (a later change of the
        // same address replaces an earlier one)
        // (the list is consumed: it is not held beside its map)
        let mut unknown: Unknown<'a> = FastMap::default();
        for (a, u) in marks {
            let u = u.trim();
            if u.starts_with('{') && u[1..].trim_start() != "}" {
                unknown.insert(a, u);
            }
        }
        // the whole document, for filters that read it
        let root = if self.whole.root {
            crate::mapping::Document::from_slice(s.text.as_bytes()).map_or(Val::Null, |d| d.root)
        } else {
            Val::Null
        };
        phase("  configuration", t);
        let t = std::time::Instant::now();
        let slots = |raws| slots_of(raws, &self.wanted);
        let (before, after) = rayon::join(|| s.before().map(slots), || s.after().map(slots));
        let (before, before_keys) = before.unzip();
        crate::memory::release();
        phase("  resources", t);
        let mut plan = MappedPlan::default();
        // one body of each kind, for both sides (a resource the change leaves alone has the
        // same figures before and after)
        let bodies = Bodies::default();
        if let (Some(before), Some(keys)) = (&before, before_keys) {
            let (mapped, _, _) = self.map_side(
                before,
                keys,
                &root,
                configs,
                &regions,
                FastMap::default(),
                &stats,
                &bodies,
            );
            // ignored / unsupported are reported for the state after the change
            plan.before = mapped;
            crate::memory::release();
        }
        let after = after.map(|(mut after, mut keys)| {
            // data sources read during plan live in prior_state: make them findable too
            if let Some(before) = &before {
                let have: std::collections::HashSet<&str, foldhash::fast::RandomState> =
                    after.iter().map(|r| r.address.as_ref()).collect();
                let extra: Vec<_> = before
                    .iter()
                    .filter(|r| r.mode == source::Mode::Data && !have.contains(r.address.as_ref()))
                    .map(|r| r.raw)
                    .collect();
                let (extra, extra_keys) = slots_of(extra, &self.wanted);
                for (k, more) in keys.iter_mut().zip(extra_keys) {
                    k.extend(more.into_iter().map(|(h, i)| (h, i + after.len() as u32)));
                }
                after.extend(extra);
            }
            (after, keys)
        });
        let (after, after_keys) = after.unzip();
        if let (Some(after), Some(keys)) = (&after, after_keys) {
            let (mapped, ignored, unsupported) = self.map_side(
                after, keys, &root, configs, &regions, unknown, &stats, &bodies,
            );
            plan.after = mapped;
            plan.ignored = ignored;
            plan.unsupported = unsupported;
        }
        // regions left unknown: follow the configuration's references (mapping::region)
        let t = std::time::Instant::now();
        let prior = before.as_deref().unwrap_or_default();
        region::resolve_from_references(configs, &variables, prior, prior, &mut plan.before);
        region::resolve_from_references(
            configs,
            &variables,
            after.as_deref().unwrap_or_default(),
            prior,
            &mut plan.after,
        );
        phase("  regions from references", t);
        if profiling() {
            eprintln!(
                "  bodies: {} kept for {} mapped resources",
                bodies.len(),
                plan.before.len() + plan.after.len()
            );
        }
        (plan, stats)
    }

    #[allow(clippy::too_many_arguments)]
    fn map_side(
        &self,
        slots: &[Slot<'_>],
        keys: Vec<Vec<(u64, u32)>>,
        root: &Val,
        configs: &Config<'_>,
        regions: &Regions,
        unknown: Unknown<'_>,
        stats: &MapStats,
        bodies: &Bodies,
    ) -> (Vec<MappedResource>, Vec<String>, Vec<String>) {
        let t = std::time::Instant::now();
        let side = SideCx::new(
            slots,
            &self.wanted,
            keys,
            root.clone(),
            (self.whole.all, self.whole.idx),
        );
        if profiling() {
            eprintln!("  side: {} resources", slots.len());
        }
        let (work, taken) = self.entry_work(slots, &side);
        phase("  side: entry paths", t);
        let t = std::time::Instant::now();
        let rep = self.representatives(slots, &work, &unknown, configs);
        if profiling() {
            let reps = rep.iter().enumerate().filter(|(k, r)| k == *r).count();
            eprintln!(
                "  side: {} to map, {reps} mapped (the others equal to one of them)",
                work.len()
            );
        }
        phase("  side: prepare", t);
        let t = std::time::Instant::now();
        // the representatives only: what is allocated while the side's indexes are held
        let reps: Vec<MappedResource> = work
            .par_iter()
            .enumerate()
            .filter(|(k, _)| rep[*k] == *k)
            .map(|(_, (i, m))| {
                let r = &slots[*i];
                let addr = r.address.as_ref();
                let (modpath, rel) = region::config_address(addr);
                let per = PerResource {
                    unknown: unknown
                        .get(addr)
                        .and_then(|u| crate::mapping::doc::build_slice(u, false, None))
                        .filter(|u| matches!(u, Val::Obj(o) if !o.is_empty()))
                        .unwrap_or(Val::Null),
                    config: configs.block(&modpath, &rel),
                    modprefix: jq::s(&module_prefix(addr)),
                    modconfig: if self.whole.modconfig {
                        configs.module_list(&modpath)
                    } else {
                        Val::Null
                    },
                };
                let mut r = self.map_resource(m, r, &side, configs, stats, regions, per, modpath);
                r.body = bodies.intern(r.body);
                r
            })
            .collect();
        // the side's indexes, the resources its lookups built and the unknown marks are not
        // read again: gone before the copies are made
        drop((side, unknown));
        // what other threads freed, handed back before the copies are allocated (mimalloc)
        crate::memory::release();
        // in the plan's order; an instance equal to a representative (which comes first) shares
        // its body
        let mut mapped: Vec<MappedResource> = Vec::with_capacity(work.len());
        let mut reps = reps.into_iter();
        for (k, (i, _)) in work.iter().enumerate() {
            let slot = &slots[*i];
            let mut r = match (rep[k] == k).then(|| reps.next()).flatten() {
                Some(r) => r,
                None => MappedResource {
                    address: slot.address.to_string(),
                    body: Arc::clone(&mapped[rep[k]].body),
                },
            };
            // a deposed object shares its address with the current object: keep them apart
            if let Some(key) = slot.deposed_key.as_deref().filter(|k| !k.is_empty()) {
                r.address = crate::mapping::deposed_address(&r.address, key);
            }
            mapped.push(r);
        }

        phase("  side: map resources", t);
        let (ignored, unsupported) = self.unmapped(slots, &taken);
        (mapped, ignored, unsupported)
    }

    /// Which mapping takes each resource of a side (the first mapping by name wins), in the
    /// side's order, and whether each resource is taken.
    fn entry_work<'m>(
        &'m self,
        slots: &[Slot<'_>],
        side: &SideCx<'_, '_>,
    ) -> (Vec<(usize, &'m ResourceMapping)>, Vec<bool>) {
        let mut by_type: FastMap<&str, Vec<usize>> = FastMap::default();
        for (i, r) in slots.iter().enumerate() {
            by_type.entry(r.type_.as_ref()).or_default().push(i);
        }

        // which mapping takes each resource (first mapping by name wins)
        let mut work: Vec<(usize, &ResourceMapping)> = Vec::new();
        let mut taken = vec![false; slots.len()];
        let scope = crate::mapping::limits::resource("");
        for m in self.set.resources.values() {
            if m.kind != "resource" && !m.kind.is_empty() {
                continue;
            }
            for p in &m.paths {
                // the usual entry path is answered from the type index, without jq
                let found: Vec<usize> = match super::filters::type_select(&p.text) {
                    Some(ty) => by_type.get(ty).cloned().unwrap_or_default(),
                    None => self
                        .run_plain(p.id, side)
                        .iter()
                        .filter_map(|r| {
                            let a = jq::get(r, "address").and_then(jq::str_ref)?;
                            side.position(a)
                        })
                        .collect(),
                };
                for i in found {
                    let r = &slots[i];
                    if !r.mode.managed() || r.family.is_none() || taken[i] {
                        continue;
                    }
                    taken[i] = true;
                    work.push((i, m));
                }
            }
        }
        drop(scope);
        drop(by_type);
        // (each resource is taken once: its position alone orders it)
        work.sort_unstable_by_key(|w| w.0);
        (work, taken)
    }

    /// For each resource of `work`, the one it is mapped as: itself, or an earlier instance of
    /// its block equal in everything their mapping sees (`Engine::memo_key`).
    fn representatives(
        &self,
        slots: &[Slot<'_>],
        work: &[(usize, &ResourceMapping)],
        unknown: &Unknown<'_>,
        configs: &Config<'_>,
    ) -> Vec<usize> {
        let mut block_size: FastMap<&str, usize> = FastMap::default();
        // (a mapping of one resource has nothing to share: its view is not read, which for
        // one very wide resource is a pass over most of the plan)
        let mut mapping_size: FastMap<&str, usize> = FastMap::default();
        for (i, m) in work {
            *block_size.entry(block_of(&slots[*i].address)).or_default() += 1;
            *mapping_size.entry(m.name.as_str()).or_default() += 1;
        }
        // instances of count/for_each blocks whose mapping never reads an address or an
        // index, equal in everything their mapping sees, map once (`Engine::memo_key`)
        let memo = |k: usize| {
            let (i, m) = work[k];
            self.memo_ok.contains(&m.name)
                && block_size
                    .get(block_of(&slots[i].address))
                    .is_some_and(|n| *n > 1)
        };
        let keys: Vec<Option<u64>> = (0..work.len())
            .into_par_iter()
            .map(|k| {
                let (i, m) = work[k];
                let shared = match self.across().contains_key(&m.name) {
                    true => mapping_size.get(m.name.as_str()) > Some(&1),
                    false => memo(k),
                };
                shared
                    .then(|| self.memo_key(m, &slots[i], unknown, configs))
                    .flatten()
            })
            .collect();
        let mut rep: Vec<usize> = (0..work.len()).collect();
        let mut first: FastMap<u64, usize> = FastMap::default();
        for (k, key) in keys.iter().enumerate() {
            if let Some(h) = key {
                rep[k] = *first.entry(*h).or_insert(k);
            }
        }
        drop((keys, first));
        // a hash collision is not an equality: check it, against each representative's view
        // read once
        let mut followed = vec![false; work.len()];
        for (k, &r) in rep.iter().enumerate() {
            followed[r] |= r != k;
        }
        // (only the representatives followed: a map, not a list as long as the side's)
        let views: FastMap<usize, Seen<'_>> = (0..work.len())
            .into_par_iter()
            .filter(|k| followed[*k])
            .filter_map(|k| Some((k, self.view_of(work[k].1, &slots[work[k].0])?)))
            .collect();
        let rep: Vec<usize> = rep
            .par_iter()
            .enumerate()
            .map(|(k, &r)| {
                if r == k {
                    return k;
                }
                let ((a, ma), (b, mb)) = (
                    (&slots[work[k].0], work[k].1),
                    (&slots[work[r].0], work[r].1),
                );
                let near = match self.across().get(&ma.name) {
                    Some(how) => {
                        across::surroundings(*how, a, configs)
                            == across::surroundings(*how, b, configs)
                    }
                    None => block_of(&a.address) == block_of(&b.address),
                };
                let same = ma.name == mb.name
                    && near
                    && unknown.get(a.address.as_ref()) == unknown.get(b.address.as_ref())
                    && match (self.partial.contains_key(&ma.name), views.get(&r)) {
                        (true, Some(seen)) => self.view_of(ma, a).as_ref() == Some(seen),
                        (true, None) => false,
                        (false, _) => a.same_body(b),
                    };
                if same { r } else { k }
            })
            .collect();
        drop(views);
        rep
    }

    /// The managed resources of a side that no mapping took: (ignored by the provider's
    /// `ignored_resources`, unsupported).
    fn unmapped(&self, slots: &[Slot<'_>], taken: &[bool]) -> (Vec<String>, Vec<String>) {
        let mut ignored = Vec::new();
        let mut unsupported = Vec::new();
        for (i, r) in slots.iter().enumerate() {
            if !r.mode.managed() || taken[i] {
                continue;
            }
            let Some(fam) = r.family else {
                continue;
            };
            let is_ignored = self
                .ignored
                .get(fam)
                .is_some_and(|ig| ig.is_match(&r.type_));
            if is_ignored {
                ignored.push(r.address.to_string())
            } else {
                unsupported.push(r.address.to_string())
            }
        }
        (ignored, unsupported)
    }

    /// The memo key of a resource mapped by `m`: the mapping; where it is mapped: its block
    /// (its address without the last instance key: the configuration block, module instance
    /// and provider it is mapped with), or for a mapping that shares across blocks the block's
    /// surroundings ([`across::surroundings`]); its `after_unknown`; and what `m` reads of it
    /// ([`Engine::view_of`]), else the whole body. `None`: not to be memoised.
    fn memo_key(
        &self,
        m: &ResourceMapping,
        r: &Slot<'_>,
        unknown: &Unknown<'_>,
        configs: &Config<'_>,
    ) -> Option<u64> {
        use std::hash::{BuildHasher, Hash, Hasher};
        let mut h = foldhash::fast::FixedState::with_seed(0x3e30).build_hasher();
        h.write(m.name.as_bytes());
        h.write_u8(0xff);
        match self.across().get(&m.name) {
            Some(how) => across::surroundings(*how, r, configs).hash(&mut h),
            None => h.write(block_of(&r.address).as_bytes()),
        }
        h.write_u8(0xff);
        h.write(
            unknown
                .get(r.address.as_ref())
                .copied()
                .unwrap_or("")
                .as_bytes(),
        );
        h.write_u8(0xff);
        match self.partial.get(&m.name) {
            Some(_) => h.write_u64(self.view_of(m, r)?.hash()),
            None => h.write_u64(r.body_hash),
        }
        Some(h.finish())
    }

    /// What mapping `m` sees of a resource when it says which members of `values` it reads
    /// ([`Slot::seen`]; without the resource's `name` for a mapping that shares across blocks):
    /// the view [`Engine::memo_key`] hashes and two resources are compared by. `None` when it
    /// reads the whole body.
    fn view_of<'a>(&self, m: &ResourceMapping, r: &Slot<'a>) -> Option<Seen<'a>> {
        let keep = self.partial.get(&m.name)?;
        match self.across().contains_key(&m.name) {
            true => r.seen_without_name(keep),
            false => r.seen(keep),
        }
    }

    fn run_plain(&self, fid: usize, side: &SideCx<'_, '_>) -> Vec<Val> {
        if fid == usize::MAX {
            return vec![];
        }
        let _entered = side::enter(side);
        let g = side.globals(self.filters[fid].uses);
        self.program()
            .run(fid, side.root.clone(), &g, &PerResource::default(), &[])
            .into_iter()
            .filter_map(Result::ok)
            .filter(|v| !matches!(*v, Val::Null))
            .collect()
    }

    /// Map one resource by `m`; `modpath`: its module path without instance keys (the first
    /// half of `region::config_address`, worked out once by `map_side`).
    #[allow(clippy::too_many_arguments)]
    fn map_resource(
        &self,
        m: &ResourceMapping,
        slot: &Slot<'_>,
        side: &SideCx<'_, '_>,
        configs: &Config<'_>,
        stats: &MapStats,
        regions: &Regions,
        per: PerResource,
        modpath: String,
    ) -> MappedResource {
        MapStats::add(&stats.resources, 1);
        let _scope = crate::mapping::limits::resource(&slot.address);
        let _entered = side::enter(side);
        // built for this mapping only (a lookup keeps its own), with the members of `values`
        // the mapping reads when it says which
        let res = match self.partial.get(&m.name) {
            Some(keep) => slot.value_keeping(keep),
            None => slot.value(),
        };
        let get = |k| jq::get(&res, k).and_then(jq::str_of).unwrap_or_default();
        let address = get("address");
        let provider_name = get("provider_name");
        let family = region::provider_family(&provider_name).unwrap_or("aws");
        let pck = jq::get(&per.config, "provider_config_key").and_then(jq::str_of);
        let cx = RCx {
            e: self,
            side,
            configs,
            stats,
            modpath,
            res: res.clone(),
            family,
            m,
            per,
            vars: RefCell::default(),
            notes: RefCell::new(Notes::default()),
        };
        let mut out = Body {
            resource_type: get("type"),
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
            out.memory_gb = jq::num(&f.val).map(|n| n * unit_factor_gb(f.unit.unwrap_or("mb")));
        }
        // what each field was read from: a field read from a sensitive member is marked
        let marked = crate::mapping::taint::Marked::of(slot);
        let taints = |props: &[&str]| {
            marked != crate::mapping::taint::Marked::Nothing
                && props.iter().any(|p| {
                    m.properties.iter().any(|(n, _)| n == p)
                        && marked.taints(self.reads(&m.name, p))
                })
        };
        out.tainted = crate::mapping::taint::Tainted {
            machine_type: taints(&["machine_type"]),
            zone: taints(&["zone"]),
            region: false,
            gpus: taints(&["guest_accelerator", "gpus"]),
            cpu_types: taints(&["cpu_platform", "cpu_types"]),
            whole: marked == crate::mapping::taint::Marked::Whole,
        };
        let zone = cx.scalar("zone");
        out.zone = zone.and_then(|f| match &f.val {
            Val::Arr(a) => a.first().and_then(jq::str_of),
            v => jq::str_of(v),
        });
        out.region = text(cx.scalar("region")).filter(|r| !r.is_empty());
        out.tainted.region = out.region.is_some() && taints(&["region"]);
        if out.region.is_none() {
            out.region = out.zone.as_deref().map(|z| match family {
                "aws" => region::aws_zone_region(z),
                "gcp" => region::gcp_zone_region(z),
                _ => z.to_string(),
            });
            // a region worked out from a sensitive zone is as sensitive
            out.tainted.region |= out.region.is_some() && out.tainted.zone;
        }
        if out.region.is_none() {
            out.region = regions.region_with_key(pck.as_deref(), &address, family, &provider_name);
            // a provider region read from a sensitive variable (`mapping::region`)
            out.tainted.region |= out.region.as_deref() == Some(crate::redact::SENSITIVE);
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
        // kept until the report is written: no spare capacity (a pushed-to vector holds four)
        out.gpus.shrink_to_fit();
        out.cpu_types.shrink_to_fit();
        out.storage.shrink_to_fit();
        out.assumed.shrink_to_fit();
        out.warnings.shrink_to_fit();
        MappedResource {
            address,
            body: Arc::new(out),
        }
    }
}

/// Each resource slice read into a slot, on every core, and per path of `wanted` the
/// (key hash, position) of every slot that has a key there.
#[allow(clippy::type_complexity)]
fn slots_of<'a>(
    raws: Vec<&'a serde_json::value::RawValue>,
    wanted: &source::Wanted,
) -> (Vec<Slot<'a>>, Vec<Vec<(u64, u32)>>) {
    // the slots straight into their own vector (one buffer of their exact length: not read
    // into pairs first and moved, which held both at once)
    let (slots, read): (Vec<Slot<'a>>, Vec<Vec<(u16, u64)>>) =
        raws.par_iter().map(|r| Slot::new(r, wanted)).unzip();
    drop(raws);
    let mut keys = vec![Vec::new(); wanted.props.len()];
    for (i, ks) in read.into_iter().enumerate() {
        for (p, h) in ks {
            keys[p as usize].push((h, i as u32));
        }
    }
    (slots, keys)
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

/// What one [`Engine::map_sections_stats`] call did: tests compare these between plans of
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
    /// Filters run by the native evaluator (`mapping::native`).
    pub native_runs: AtomicU64,
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

/// Each resource change's `after_unknown` text by its address, when it marks something.
type Unknown<'a> = FastMap<Cow<'a, str>, &'a str>;

/// One body of each kind a run's mapping gave (`Body::same`): a resource whose figures equal
/// another's (the instances of a block, resources of one type, size and region anywhere in
/// the plan, a resource the change leaves alone on both sides) shares its body.
#[derive(Default)]
pub(super) struct Bodies(Mutex<FastMap<u64, Vec<Arc<Body>>>>);

impl Bodies {
    /// The body kept that is the same as `b`, else `b`, kept from now on. (Hashed once, before
    /// the lock: the threads mapping a side wait only for the lookup.)
    fn intern(&self, b: Arc<Body>) -> Arc<Body> {
        use std::hash::{BuildHasher, Hasher};
        let mut h = foldhash::fast::FixedState::with_seed(0x6b0d).build_hasher();
        b.hash_bits(&mut h);
        let key = h.finish();
        // a panic elsewhere while it was held leaves the map as it was: still usable
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let same = kept.entry(key).or_default();
        if let Some(k) = same.iter().find(|k| Arc::ptr_eq(k, &b) || k.same(&b)) {
            return Arc::clone(k);
        }
        same.push(Arc::clone(&b));
        b
    }

    /// How many bodies it keeps.
    fn len(&self) -> usize {
        self.0.lock().map_or(0, |m| m.values().map(Vec::len).sum())
    }
}
