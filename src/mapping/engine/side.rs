//! One side of a document (before or after the change) as mappings read it: its resources, the lookups `cbf::all_select` and `cbf::by_address` answer natively from them, and the jaq natives that reach them.
//!
//! Resources stay slices of the plan's text ([`Slot`]); a lookup builds the resources it
//! finds once and keeps them. Every index is built on first use, serially (a lookup runs
//! inside a resource's mapping on a rayon thread: an index built with rayon there could
//! block on itself). Filters that read the whole side (`$__all`, `$__idx`) or the whole
//! document (`cbf::root`) get it built before mapping starts, outside every evaluation's
//! budget, and only when a loaded mapping has such a filter.

use crate::mapping::jq;
use crate::mapping::source::{Slot, Wanted};
use jaq_core::native::{Fun, v};
use jaq_json::Val;
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The resources of one property's value, by the value: strings by their text, other values
/// by their JSON (jq's `tojson`). Positions are the side's slot order.
#[derive(Default)]
pub(crate) struct PropIndex {
    s: HashMap<Box<str>, Vec<u32>>,
    j: HashMap<Box<str>, Vec<u32>>,
}

impl PropIndex {
    fn add(&mut self, v: &Val, i: usize) {
        match v {
            Val::Null => {}
            Val::TStr(_) | Val::BStr(_) => {
                let k: Box<str> = jq::str_of(v).unwrap_or_default().into();
                self.s.entry(k).or_default().push(i as u32);
            }
            v => self
                .j
                .entry(v.to_string().into())
                .or_default()
                .push(i as u32),
        }
    }

    fn get(&self, key: &Val) -> &[u32] {
        let found = match key {
            Val::TStr(_) | Val::BStr(_) => self.s.get(jq::str_ref(key).unwrap_or_default()),
            v => self.j.get(v.to_string().as_str()),
        };
        found.map_or(&[], |v| v.as_slice())
    }
}

/// What a side's filters may read beyond the resource they map.
pub(crate) struct SideCx<'s, 'a> {
    pub(crate) slots: &'s [Slot<'a>],
    /// The members each slot recorded, by index property path.
    wanted: &'s Wanted,
    /// First slot of each address.
    exact: OnceLock<HashMap<&'s str, u32>>,
    /// First slot whose address starts with `<prefix>[`.
    prefix: OnceLock<HashMap<&'s str, u32>>,
    /// Indexes of the properties the loaded filters name (`cbf::all_select("P"; …)`).
    props: HashMap<String, OnceLock<PropIndex>>,
    /// Indexes of properties only known while mapping.
    dynamic: Mutex<HashMap<String, Arc<PropIndex>>>,
    /// `$__root`, `$__all`, `$__idx`: built when a loaded filter reads them, else null.
    pub(crate) root: Val,
    pub(crate) all: Val,
    pub(crate) idx: Val,
}

impl<'s, 'a> SideCx<'s, 'a> {
    pub(crate) fn new(
        slots: &'s [Slot<'a>],
        wanted: &'s Wanted,
        index_props: &[String],
        root: Val,
        whole: (bool, bool),
    ) -> SideCx<'s, 'a> {
        let mut cx = SideCx {
            slots,
            wanted,
            exact: OnceLock::new(),
            prefix: OnceLock::new(),
            props: index_props
                .iter()
                .map(|p| (p.clone(), OnceLock::new()))
                .collect(),
            dynamic: Mutex::new(HashMap::new()),
            root,
            all: Val::Null,
            idx: Val::Null,
        };
        let (all, idx) = whole;
        if all || idx {
            cx.all = Val::Arr(
                slots
                    .iter()
                    .map(|s| s.cached().clone())
                    .collect::<Vec<_>>()
                    .into(),
            );
        }
        if idx {
            cx.idx = cx.legacy_idx(index_props);
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
            let ix = self.prop(p);
            let side = |m: &HashMap<Box<str>, Vec<u32>>| {
                let mut keys: Vec<(&Box<str>, &Vec<u32>)> = m.iter().collect();
                keys.sort_by_key(|(_, v)| v[0]);
                Val::obj(
                    keys.into_iter()
                        .map(|(k, v)| {
                            let rs: Vec<Val> = v
                                .iter()
                                .map(|&i| self.slots[i as usize].cached().clone())
                                .collect();
                            let r = if rs.len() == 1 {
                                rs.into_iter().next().unwrap_or(Val::Null)
                            } else {
                                Val::Arr(rs.into())
                            };
                            (jq::s(k), r)
                        })
                        .collect(),
                )
            };
            let v = Val::obj(
                [(jq::s("s"), side(&ix.s)), (jq::s("j"), side(&ix.j))]
                    .into_iter()
                    .collect(),
            );
            (jq::s(p), v)
        };
        Val::obj(props.iter().map(one).collect())
    }

    fn exact(&self) -> &HashMap<&'s str, u32> {
        self.exact.get_or_init(|| {
            let mut m = HashMap::with_capacity(self.slots.len());
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
    pub(crate) fn by_address(&self, a: &str) -> Option<&Val> {
        let i = match self.exact().get(a) {
            Some(&i) => i,
            None => *self
                .prefix
                .get_or_init(|| {
                    let mut m = HashMap::new();
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
        Some(self.slots[i as usize].cached())
    }

    /// The index of property path `p` (dot-separated, as `cbf::all_select` names it).
    fn prop(&self, p: &str) -> PropRef<'_> {
        if let Some(cell) = self.props.get(p) {
            return PropRef::Kept(cell.get_or_init(|| self.build_prop(p)));
        }
        let mut d = self.dynamic.lock().unwrap_or_else(|e| e.into_inner());
        PropRef::Dynamic(
            d.entry(p.to_string())
                .or_insert_with(|| Arc::new(self.build_prop(p)))
                .clone(),
        )
    }

    /// Builds the index of `p` from the members the slots recorded (or, for a path no
    /// loaded filter names, from each resource's slice).
    fn build_prop(&self, p: &str) -> PropIndex {
        let segs: Vec<&str> = p.split('.').collect();
        let mut ix = PropIndex::default();
        // the fields every slot read (an empty one may be absent or not a string: the
        // resource then answers for itself)
        let meta = |s: &Slot<'_>| -> Option<Val> {
            let t: &Cow<'_, str> = match segs.as_slice() {
                ["address"] => &s.address,
                ["type"] => &s.type_,
                ["mode"] => &s.mode,
                ["provider_name"] => &s.provider_name,
                _ => return None,
            };
            (!t.is_empty()).then(|| jq::s(t))
        };
        // the recorded member the path starts with, and the segments left under it
        let recorded: Option<(u16, usize)> = match segs.as_slice() {
            ["values", name, ..] => self
                .wanted
                .values
                .iter()
                .position(|w| w == name)
                .map(|i| ((self.wanted.top.len() + i) as u16, 2)),
            [name, ..] => self
                .wanted
                .top
                .iter()
                .position(|w| w == name)
                .map(|i| (i as u16, 1)),
            [] => None,
        };
        for (i, s) in self.slots.iter().enumerate() {
            let v = if let Some(v) = meta(s) {
                v
            } else if let Some((id, used)) = recorded {
                let Some((_, raw)) = s.wanted.iter().find(|(w, _)| *w == id) else {
                    continue;
                };
                let v = crate::mapping::source::value(Some(raw));
                dig(&v, &segs[used..])
            } else {
                dig(s.cached(), &segs)
            };
            ix.add(&v, i);
        }
        ix
    }

    /// `cbf::all_select(a; b)`: the resources whose property `a` equals `b`, in side order.
    pub(crate) fn all_select(&self, a: &Val, b: &Val) -> Vec<Val> {
        let Some(p) = jq::str_ref(a) else {
            return vec![];
        };
        let ix = self.prop(p);
        ix.get(b)
            .iter()
            .map(|&i| self.slots[i as usize].cached().clone())
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

/// `__get`: the value at a dotted path (null past a non-object).
fn dig(v: &Val, segs: &[&str]) -> Val {
    let mut v = v;
    for k in segs {
        match jq::get(v, k) {
            Some(x) => v = x,
            None => return Val::Null,
        }
    }
    v.clone()
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
            let out: Option<Val> =
                with_current(|s| jq::str_ref(&a).and_then(|a| s.by_address(a)).cloned());
            Box::new(out.into_iter().map(Ok))
        });
    [
        jaq_core::native::run::<D>(all_select),
        jaq_core::native::run::<D>(by_address),
    ]
    .into_iter()
}
