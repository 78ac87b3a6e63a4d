//! One side of a document (before or after the change) as mappings read it: its resources, the lookups `cbf::all_select` and `cbf::by_address` answer natively from them, and the jaq natives that reach them.
//!
//! Resources stay slices of the plan's text ([`Slot`]); a lookup builds the resources it
//! finds once and keeps them. Every index is built on first use, serially (a lookup runs
//! inside a resource's mapping on a rayon thread: an index built with rayon there could
//! block on itself). Filters that read the whole side (`$__all`, `$__idx`) or the whole
//! document (`cbf::root`) get it built before mapping starts, outside every evaluation's
//! budget, and only when a loaded mapping has such a filter.

use crate::mapping::source::{self, Slot, Wanted};
use crate::mapping::{FastMap, jq};
use jaq_core::native::{Fun, v};
use jaq_json::Val;
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The resources that have a value at one property path, filed by the hash of the value's key
/// ([`source::key_hash`]): sorted by (hash, position), positions in the side's slot order.
#[derive(Default)]
pub(crate) struct PropIndex {
    entries: Vec<(u64, u32)>,
}

impl PropIndex {
    pub(crate) fn new(mut entries: Vec<(u64, u32)>) -> PropIndex {
        entries.sort_unstable();
        PropIndex { entries }
    }

    /// Positions filed under `hash`, in slot order.
    fn candidates(&self, hash: u64) -> impl Iterator<Item = usize> + '_ {
        let start = self.entries.partition_point(|e| e.0 < hash);
        self.entries[start..]
            .iter()
            .take_while(move |e| e.0 == hash)
            .map(|e| e.1 as usize)
    }
}

/// What a side's filters may read beyond the resource they map.
pub(crate) struct SideCx<'s, 'a> {
    pub(crate) slots: &'s [Slot<'a>],
    /// First slot of each address.
    exact: OnceLock<FastMap<&'s str, u32>>,
    /// First slot whose address starts with `<prefix>[`.
    prefix: OnceLock<FastMap<&'s str, u32>>,
    /// Indexes of the properties the loaded filters name (`cbf::all_select("P"; …)`), built
    /// from the keys each slot read.
    props: HashMap<String, PropIndex>,
    /// Indexes of properties only known while mapping.
    dynamic: Mutex<HashMap<String, Arc<PropIndex>>>,
    /// The resources lookups found, built once.
    found: Mutex<FastMap<u32, Val>>,
    /// `$__root`, `$__all`, `$__idx`: built when a loaded filter reads them, else null.
    pub(crate) root: Val,
    pub(crate) all: Val,
    pub(crate) idx: Val,
}

impl<'s, 'a> SideCx<'s, 'a> {
    /// `keys[k]` is the k-th path of `wanted`'s (hash, position) of every slot that has it.
    pub(crate) fn new(
        slots: &'s [Slot<'a>],
        wanted: &Wanted,
        keys: Vec<Vec<(u64, u32)>>,
        root: Val,
        whole: (bool, bool),
    ) -> SideCx<'s, 'a> {
        let props = wanted
            .props
            .iter()
            .map(|p| p.join("."))
            .zip(keys.into_iter().map(PropIndex::new))
            .collect();
        let mut cx = SideCx {
            slots,
            exact: OnceLock::new(),
            prefix: OnceLock::new(),
            props,
            dynamic: Mutex::new(HashMap::new()),
            found: Mutex::new(FastMap::default()),
            root,
            all: Val::Null,
            idx: Val::Null,
        };
        let (all, idx) = whole;
        if all || idx {
            cx.all = Val::Arr(
                (0..slots.len())
                    .map(|i| cx.cached(i))
                    .collect::<Vec<_>>()
                    .into(),
            );
        }
        if idx {
            let names: Vec<String> = wanted.props.iter().map(|p| p.join(".")).collect();
            cx.idx = cx.legacy_idx(&names);
        }
        cx
    }

    /// The whole-document globals of a filter that names them (null for the others).
    pub(crate) fn globals(&self, uses: super::Uses) -> jq::Globals {
        let pick = |on: bool, v: &Val| if on { v.clone() } else { Val::Null };
        jq::Globals {
            root: pick(uses.root, &self.root),
            idx: pick(uses.idx, &self.idx),
            all: pick(uses.all, &self.all),
        }
    }

    /// `$__idx` as filters that read it directly expect it: `{P: {"s": {value: resources},
    /// "j": {json: resources}}}`, one resource as itself and several as a list.
    fn legacy_idx(&self, props: &[String]) -> Val {
        let one = |p: &String| {
            let segs: Vec<&str> = p.split('.').collect();
            let mut s: Vec<(String, Vec<Val>)> = Vec::new();
            let mut j: Vec<(String, Vec<Val>)> = Vec::new();
            for (i, slot) in self.slots.iter().enumerate() {
                let Some((string, k)) = source::dig(slot.raw, &segs).and_then(source::key_of)
                else {
                    continue;
                };
                let group = if string { &mut s } else { &mut j };
                match group.iter_mut().find(|(g, _)| *g == k) {
                    Some((_, rs)) => rs.push(self.cached(i)),
                    None => group.push((k.into_owned(), vec![self.cached(i)])),
                }
            }
            let side = |g: Vec<(String, Vec<Val>)>| {
                Val::obj(
                    g.into_iter()
                        .map(|(k, rs)| {
                            let r = if rs.len() == 1 {
                                rs.into_iter().next().unwrap_or(Val::Null)
                            } else {
                                Val::Arr(rs.into())
                            };
                            (jq::s(&k), r)
                        })
                        .collect(),
                )
            };
            let v = Val::obj(
                [(jq::s("s"), side(s)), (jq::s("j"), side(j))]
                    .into_iter()
                    .collect(),
            );
            (jq::s(p), v)
        };
        Val::obj(props.iter().map(one).collect())
    }

    fn exact(&self) -> &FastMap<&'s str, u32> {
        self.exact.get_or_init(|| {
            let mut m = FastMap::with_capacity_and_hasher(self.slots.len(), Default::default());
            for (i, s) in self.slots.iter().enumerate() {
                if !s.address.is_empty() {
                    m.entry(s.address.as_ref()).or_insert(i as u32);
                }
            }
            m
        })
    }

    /// The slot of the first resource at `address`.
    pub(crate) fn position(&self, address: &str) -> Option<usize> {
        self.exact().get(address).map(|&i| i as usize)
    }

    /// `cbf::by_address($a)`: the first resource at `a`, else the first whose address
    /// starts with `a[` (every `[`, even one inside a quoted key, ends such a prefix).
    pub(crate) fn by_address(&self, a: &str) -> Option<Val> {
        let i = match self.exact().get(a) {
            Some(&i) => i,
            None => *self
                .prefix
                .get_or_init(|| {
                    let mut m = FastMap::default();
                    for (i, s) in self.slots.iter().enumerate() {
                        let a: &'s str = s.address.as_ref();
                        for (j, _) in a.match_indices('[') {
                            m.entry(&a[..j]).or_insert(i as u32);
                        }
                    }
                    m
                })
                .get(a)?,
        };
        Some(self.cached(i as usize))
    }

    /// Resource `i` as a jaq value, built on its first lookup and kept.
    fn cached(&self, i: usize) -> Val {
        let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
        found
            .entry(i as u32)
            .or_insert_with(|| self.slots[i].value())
            .clone()
    }

    /// The index of property path `p` (dot-separated, as `cbf::all_select` names it): kept
    /// from the slots' keys, or built now for a path no loaded filter names.
    fn prop(&self, p: &str) -> PropRef<'_> {
        if let Some(ix) = self.props.get(p) {
            return PropRef::Kept(ix);
        }
        let mut d = self.dynamic.lock().unwrap_or_else(|e| e.into_inner());
        PropRef::Dynamic(
            d.entry(p.to_string())
                .or_insert_with(|| {
                    let segs: Vec<&str> = p.split('.').collect();
                    let entries = self
                        .slots
                        .iter()
                        .enumerate()
                        .filter_map(|(i, s)| {
                            let (string, k) = source::dig(s.raw, &segs).and_then(source::key_of)?;
                            Some((source::key_hash(string, &k), i as u32))
                        })
                        .collect();
                    Arc::new(PropIndex::new(entries))
                })
                .clone(),
        )
    }

    /// `cbf::all_select(a; b)`: the resources whose property `a` equals `b`, in side order.
    pub(crate) fn all_select(&self, a: &Val, b: &Val) -> Vec<Val> {
        let Some(p) = jq::str_ref(a) else {
            return vec![];
        };
        let key: (bool, String) = match b {
            Val::Null => return vec![],
            Val::TStr(_) | Val::BStr(_) => (true, jq::str_of(b).unwrap_or_default()),
            v => (false, v.to_string()),
        };
        let ix = self.prop(p);
        let segs: Vec<&str> = p.split('.').collect();
        ix.candidates(source::key_hash(key.0, &key.1))
            .filter(|&i| {
                // a hash is not an equality: the candidate's own key
                source::dig(self.slots[i].raw, &segs)
                    .and_then(source::key_of)
                    .is_some_and(|(s, k)| s == key.0 && k == key.1)
            })
            .map(|i| self.cached(i))
            .collect()
    }
}

/// An index kept for the whole mapping, or one built for a path found while mapping.
enum PropRef<'s> {
    Kept(&'s PropIndex),
    Dynamic(Arc<PropIndex>),
}

impl std::ops::Deref for PropRef<'_> {
    type Target = PropIndex;
    fn deref(&self) -> &PropIndex {
        match self {
            PropRef::Kept(ix) => ix,
            PropRef::Dynamic(ix) => ix,
        }
    }
}

thread_local! {
    /// The side the running evaluation belongs to (set by [`enter`]).
    static CURRENT: Cell<*const ()> = const { Cell::new(std::ptr::null()) };
}

/// Makes `side` the one the `cbf` natives read on this thread until dropped.
pub(crate) struct Entered(*const ());

pub(crate) fn enter(side: &SideCx<'_, '_>) -> Entered {
    let p = side as *const SideCx<'_, '_> as *const ();
    Entered(CURRENT.with(|c| c.replace(p)))
}

impl Drop for Entered {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(self.0));
    }
}

/// Runs `f` on the side entered on this thread (none outside a mapping: then nothing).
fn with_current<R: Default>(f: impl FnOnce(&SideCx<'_, '_>) -> R) -> R {
    let p = CURRENT.with(|c| c.get());
    if p.is_null() {
        return R::default();
    }
    // SAFETY: `p` was set by `enter` from a `&SideCx` that outlives the `Entered` guard,
    // which restores the previous pointer when dropped; natives run only inside jaq
    // evaluations, which run (and finish) while the guard is alive on this thread.
    let side = unsafe { &*(p as *const SideCx<'_, '_>) };
    f(side)
}

/// The natives the `cbf` module calls.
pub(crate) fn natives<D>() -> impl Iterator<Item = Fun<D>>
where
    D: for<'a> jaq_core::DataT<V<'a> = Val>,
{
    let all_select: jaq_core::native::Filter<jaq_core::RunPtr<D>> =
        ("__cs_all_select", v(2), |mut cv| {
            let b = cv.0.pop_var();
            let a = cv.0.pop_var();
            let out: Vec<Val> = with_current(|s| s.all_select(&a, &b));
            Box::new(out.into_iter().map(Ok))
        });
    let by_address: jaq_core::native::Filter<jaq_core::RunPtr<D>> =
        ("__cs_by_address", v(1), |mut cv| {
            let a = cv.0.pop_var();
            let out: Option<Val> = with_current(|s| jq::str_ref(&a).and_then(|a| s.by_address(a)));
            Box::new(out.into_iter().map(Ok))
        });
    [
        jaq_core::native::run::<D>(all_select),
        jaq_core::native::run::<D>(by_address),
    ]
    .into_iter()
}
