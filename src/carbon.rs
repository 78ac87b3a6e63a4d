//! Carbon figures of a plan: joins the mapping engine's resources to the reference data and the
//! estimate arithmetic, and produces the [`Report`] that every output format reads.

use rayon::prelude::*;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use crate::estimate::{self, Coefficients, Footprint, Period};
use crate::mapping::{MappedPlan, MappedResource};
use crate::report::{Band, Figures, Report, ResourceReport, Side, Status, Text};

mod lookups;
mod pricing;
mod usage;

pub(crate) use pricing::Subject;
use pricing::Want;

type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// How figures are computed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// CPU and GPU utilisation, 0..=1 (`--utilization`).
    pub utilization: f64,
    /// Whether `utilization` was asked for (`--utilization`). When it was not, burstable and
    /// shared-core types run at their provider's published baseline CPU share instead.
    pub utilization_given: bool,
    /// The headline period (`--period`).
    pub period: Period,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            utilization: 0.5,
            utilization_given: false,
            period: Period::Month,
        }
    }
}

/// One resource change of the plan, as the report needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Change<'a> {
    pub address: Cow<'a, str>,
    pub resource_type: &'a str,
    /// OpenTofu's action names (`create`, `delete`, `update`, `no-op`, `read`, `forget`).
    pub actions: &'a [Cow<'a, str>],
}

/// Where one figure of an estimate comes from: what `explain` prints beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct Provenance {
    /// The figure (`vcpus`, `cpu_w`, `grid`, …; the keys `explain` prints).
    pub what: &'static str,
    /// A source id (a data table, `data/<id>.json`), or `plan` for a value the mapping read
    /// from the plan itself.
    pub source: String,
    /// Which entry of the source, and how it was chosen.
    pub detail: String,
}

/// The inputs of one estimated side: what the Impact Framework export and `explain` need to
/// redo the sums.
#[derive(Debug, Clone, PartialEq)]
pub struct Priced {
    pub address: String,
    pub resource_type: String,
    pub provider: String,
    /// `None`: the region is unknown and the provider's range of grid intensities applies.
    pub region: Option<String>,
    pub machine_type: Option<String>,
    pub footprint: Footprint,
    /// The central coefficients.
    pub coefficients: Coefficients,
    /// The coefficients at the low and high ends of the range.
    pub low: Coefficients,
    pub high: Coefficients,
    /// The central CPU/GPU utilisation this resource was priced at, 0..=1 (the setting, or a
    /// burstable type's published baseline); the range spans 10–90 % around it.
    pub utilization: f64,
    /// Instances × replicas.
    pub instances: f64,
    /// Where each figure comes from.
    pub provenance: Vec<Provenance>,
    /// The source ids used, sorted.
    pub sources: Vec<String>,
}

impl Priced {
    /// Low, central and high figures of all instances for one hour.
    pub fn ranged(&self) -> estimate::Ranged {
        ranged(
            &self.footprint,
            &self.low,
            &self.coefficients,
            &self.high,
            self.utilization,
            self.instances,
        )
    }
}

/// The report and, for both states, the inputs behind each figure.
#[derive(Debug, Clone)]
pub struct Assessment {
    pub report: Report,
    pub after_inputs: Vec<Priced>,
    /// The before (prior state) side's inputs, for `explain`.
    pub before_inputs: Vec<Priced>,
}

/// The hourly figures (low, central, high) of one instance's coefficients, for all
/// `instances`.
fn ranged(
    footprint: &Footprint,
    low: &Coefficients,
    central: &Coefficients,
    high: &Coefficients,
    utilization: f64,
    instances: f64,
) -> estimate::Ranged {
    estimate::estimate_range(footprint, low, central, high, utilization).scaled(instances)
}

/// The warning the mapping engine leaves on a resource whose region it could not find.
pub const REGION_UNKNOWN: &str = "region unknown";

/// One subject priced on its own, as `assess` prices each side: its side, or `None` when it
/// cannot be estimated. Alternatives re-run this with the region or type substituted
/// (`crate::alternatives`).
pub(crate) fn price_side(s: &Subject<'_>, settings: Settings) -> Option<Side> {
    pricing::price(s, settings, Want::Side).ok().map(|p| p.side)
}

/// A note a mapping writes with a validator that fails on purpose (docs/mappings.md, "Notes
/// from a mapping"): the engine reports it as `validator: "assumed: …"` or
/// `validator: "unsupported: …"`. Returns (is an assumption, the text without the wrapper).
fn mapping_note(w: &str) -> Option<(bool, String)> {
    let text: String = serde_json::from_str(w.strip_prefix("validator: ")?).ok()?;
    if let Some(a) = text.strip_prefix("assumed: ") {
        Some((true, a.to_string()))
    } else {
        text.starts_with("unsupported: ").then_some((false, text))
    }
}

/// `Unsupported` for a reason the mapping gave as `unsupported: …` (a type no sourced method
/// covers), `NotEstimated` for any other (a figure was missing).
fn status_of(reason: String) -> Status {
    match reason.strip_prefix("unsupported: ") {
        Some(why) => Status::Unsupported {
            reason: why.to_string(),
        },
        None => Status::NotEstimated { reason },
    }
}

fn push_unique(into: &mut Vec<String>, items: impl IntoIterator<Item = String>) {
    for i in items {
        if !into.contains(&i) {
            into.push(i);
        }
    }
}

/// Builds the report of a plan from its resource changes (in plan order) and what the mapping
/// engine found before and after. Mapped resources that no change names (a state document, or a
/// plan that leaves out no-op changes) are reported as unchanged.
pub fn assess(changes: &[Change<'_>], mapped: &MappedPlan, settings: Settings) -> Assessment {
    assess_keeping(changes, mapped, settings, true)
}

/// [`assess`]; with `keep_inputs` false, `after_inputs` and `before_inputs` stay empty (only the
/// Impact Framework export and `explain` read them: for the other outputs, 50k resources'
/// inputs cost 40 MB at the run's peak).
pub fn assess_keeping(
    changes: &[Change<'_>],
    mapped: &MappedPlan,
    settings: Settings,
    keep_inputs: bool,
) -> Assessment {
    let order = Order::new(changes, mapped);
    assess_order(&order, mapped, settings, keep_inputs, false)
}

/// The resources of a report, in the plan's order: every address the mappings found, with
/// its type and actions (its change's, or those its sides imply). Held as indices into the
/// mapped plan, so that it can be worked out while the plan's sensitive values are still
/// being found (and then hidden in the mapped resources).
pub struct Order<'a> {
    entries: Vec<Entry<'a>>,
}

/// One resource of an [`Order`]: its mapped resources (indices into `before` and `after`),
/// type and actions.
#[derive(Clone, Copy)]
struct Entry<'a> {
    before: Option<u32>,
    after: Option<u32>,
    resource_type: Type<'a>,
    actions: Actions<'a>,
}

/// Where a resource's type is read: its change, or a mapped resource (a side and an index).
#[derive(Clone, Copy)]
enum Type<'a> {
    Change(&'a str),
    Mapped(bool, u32),
}

impl<'a> Order<'a> {
    /// The resources of `changes` (in plan order) that the mappings found, then the mapped
    /// resources that no change names (a state document, or a plan that leaves out no-op
    /// changes), as unchanged, created or deleted.
    pub fn new(changes: &[Change<'a>], mapped: &MappedPlan) -> Order<'a> {
        // each address's mapped resources, and whether the order has it yet
        #[derive(Default)]
        struct Slot {
            before: Option<u32>,
            after: Option<u32>,
            listed: bool,
        }
        let mut slots: Map<&str, Slot> = Map::with_capacity_and_hasher(
            mapped.before.len().max(mapped.after.len()),
            Default::default(),
        );
        // per side: whether each resource is the one its slot holds (the last of its address),
        // and whether that slot is listed (so that the resources of listed slots are passed
        // over without a lookup)
        let mut held = [
            vec![true; mapped.before.len()],
            vec![true; mapped.after.len()],
        ];
        let mut listed = [
            vec![false; mapped.before.len()],
            vec![false; mapped.after.len()],
        ];
        for (i, m) in mapped.before.iter().enumerate() {
            let slot = slots.entry(&m.address).or_default();
            if let Some(was) = slot.before.replace(i as u32) {
                held[0][was as usize] = false;
            }
        }
        for (i, m) in mapped.after.iter().enumerate() {
            let slot = slots.entry(&m.address).or_default();
            if let Some(was) = slot.after.replace(i as u32) {
                held[1][was as usize] = false;
            }
        }
        fn list(slot: &mut Slot, listed: &mut [Vec<bool>; 2]) {
            slot.listed = true;
            for (side, i) in [(0, slot.before), (1, slot.after)] {
                if let Some(i) = i {
                    listed[side][i as usize] = true;
                }
            }
        }
        let mut entries = Vec::new();
        for c in changes {
            if let Some(slot) = slots.get_mut(&*c.address)
                && !slot.listed
            {
                list(slot, &mut listed);
                entries.push(Entry {
                    before: slot.before,
                    after: slot.after,
                    resource_type: Type::Change(c.resource_type),
                    actions: Actions::Plan(c.actions),
                });
            }
        }
        let after = mapped.after.iter().enumerate().map(|(i, m)| (1, i, m));
        let before = mapped.before.iter().enumerate().map(|(i, m)| (0, i, m));
        for (side, i, m) in after.chain(before) {
            if held[side][i] && listed[side][i] {
                continue;
            }
            let slot = slots.get_mut(m.address.as_str()).expect("indexed above");
            if !slot.listed {
                list(slot, &mut listed);
                let action = match (slot.before, slot.after) {
                    (Some(_), Some(_)) => "no-op",
                    _ if changes.is_empty() => "no-op",
                    (_, Some(_)) => "create",
                    _ => "delete",
                };
                entries.push(Entry {
                    before: slot.before,
                    after: slot.after,
                    resource_type: Type::Mapped(side == 1, i as u32),
                    actions: Actions::One(action),
                });
            }
        }
        Order { entries }
    }
}

/// [`assess_keeping`] of the resources of `order`; with `alternatives`, every estimated after
/// side is given its greener alternatives (`alternatives::for_resource`) as its entry is built,
/// once per shared entry.
pub fn assess_order(
    order: &Order<'_>,
    mapped: &MappedPlan,
    settings: Settings,
    keep_inputs: bool,
    alternatives: bool,
) -> Assessment {
    let want = if keep_inputs {
        Want::Inputs
    } else {
        Want::Notes
    };
    // Instances the mappings saw alike (next to each other in the plan's order, equal but for
    // their addresses) are priced once and share one report entry (the inputs the Impact
    // Framework export keeps name each resource: then every one is priced).
    let rep = if keep_inputs {
        (0..order.entries.len()).collect()
    } else {
        representatives(order, mapped)
    };
    // Each resource is priced on its own: in parallel, in the plan's order.
    let pass = Pass {
        mapped,
        settings,
        want,
        keep_inputs,
        alternatives,
    };
    let (resources, inputs): (Vec<Option<ResourceReport>>, Vec<Option<Box<Inputs>>>) = order
        .entries
        .par_iter()
        .enumerate()
        .map(|(k, e)| {
            if rep[k] != k {
                return (None, None);
            }
            let (r, inputs) = pass.entry(e);
            (Some(r), inputs)
        })
        .unzip();
    let resources = share_entries(order, mapped, &rep, resources);
    let mut after_inputs = Vec::new();
    let mut before_inputs = Vec::new();
    for (before, after) in inputs.into_iter().flatten().map(|b| *b) {
        before_inputs.extend(before);
        after_inputs.extend(after);
    }
    let report = Report::new(
        resources,
        mapped.unsupported.clone(),
        mapped.ignored.len(),
        settings.utilization,
        settings.period,
    );
    Assessment {
        report,
        after_inputs,
        before_inputs,
    }
}

/// What pricing each entry of an [`Order`] needs ([`assess_order`]).
struct Pass<'m> {
    mapped: &'m MappedPlan,
    settings: Settings,
    want: Want,
    keep_inputs: bool,
    alternatives: bool,
}

impl Pass<'_> {
    /// The report of one entry (and its priced inputs, when kept): both sides priced, their
    /// notes gathered, greener alternatives found for an estimated after side.
    fn entry(&self, e: &Entry<'_>) -> (ResourceReport, Option<Box<Inputs>>) {
        let actions = e.actions;
        let b = at(e.before, &self.mapped.before);
        let address = b
            .or(at(e.after, &self.mapped.after))
            .map_or("", |m| &m.address);
        let resource_type = match e.resource_type {
            Type::Change(t) => t,
            Type::Mapped(true, i) => &self.mapped.after[i as usize].resource_type,
            Type::Mapped(false, i) => &self.mapped.before[i as usize].resource_type,
        };
        let forget = actions.any(|a| a == "forget");
        // A forgotten resource keeps running outside OpenTofu: its emissions do not change.
        let a = if forget {
            b
        } else {
            at(e.after, &self.mapped.after)
        };
        // An unchanged resource seen on one side only (a state document's `values`, or a no-op
        // change whose prior state is left out) runs the same before and after: it adds nothing.
        let unchanged = actions.all(|a| a == "no-op");
        let (b, a) = if unchanged {
            (b.or(a), a.or(b))
        } else {
            (b, a)
        };
        let price = |m: &MappedResource| pricing::price(&Subject::of(m), self.settings, self.want);
        let pb = b.map(price);
        let pa = match (b, a, &pb) {
            // the same resource on both sides: priced once
            (Some(b), Some(a), Some(p)) if std::ptr::eq(b, a) || b == a => Some(p.clone()),
            _ => a.map(price),
        };
        let reason = match (&pb, &pa) {
            (_, Some(Err(r))) | (Some(Err(r)), None) => Some(r.clone()),
            _ => None,
        };
        let (warnings, assumptions) = notes([b, a], [&pb, &pa]);
        let mut inputs = None;
        let (address, resource_type, actions) = (
            address.to_string(),
            lookups::intern(resource_type),
            actions.shared(),
        );
        let mut r = match reason {
            // An update whose after side is not known (a machine type known only after
            // apply) keeps its before figures; its delta is unknown, not −before.
            Some(reason) if matches!(pb, Some(Ok(_))) => {
                let bs = pb.and_then(Result::ok).expect("matched Ok");
                if self.keep_inputs {
                    inputs = Some(Box::new((bs.priced, None)));
                }
                let mut r =
                    ResourceReport::shared(address, resource_type, actions, Some(bs.side), None);
                r.status = Status::NotEstimated { reason };
                r.delta_per_hour = Figures::default();
                r.delta_range_per_hour = Band::default();
                r
            }
            Some(reason) => {
                let mut r = ResourceReport::shared(address, resource_type, actions, None, None);
                r.status = status_of(reason);
                r
            }
            None => {
                let (bs, as_) = (pb.and_then(Result::ok), pa.and_then(Result::ok));
                let (bs, bp) = bs.map(|p| (p.side, p.priced)).unzip();
                let (as_, ap) = as_.map(|p| (p.side, p.priced)).unzip();
                if self.keep_inputs {
                    inputs = Some(Box::new((bp.flatten(), ap.flatten())));
                }
                ResourceReport::shared(address, resource_type, actions, bs, as_)
            }
        };
        r.warnings = warnings;
        r.assumptions = assumptions;
        if matches!(r.status, Status::Estimated) {
            usage_of(&mut r, a.or(b));
            // a forgotten resource leaves OpenTofu's hands: nothing to advise
            if self.alternatives
                && !forget
                && let (Some(side), Some(m)) = (&r.after, at(e.after, &self.mapped.after))
            {
                let found = crate::alternatives::for_resource(m, side, self.settings);
                r.alternatives = found;
            }
        }
        (r, inputs)
    }
}

/// The warnings and assumptions of an entry: its mapped resources' notes (each said once, the
/// mapping's unknown-region warning left to pricing's), then its pricings'.
fn notes(
    sides: [Option<&MappedResource>; 2],
    priced: [&Option<Result<pricing::Pricing, String>>; 2],
) -> (Vec<String>, Vec<String>) {
    let mut warnings = Vec::new();
    let mut assumptions = Vec::new();
    for m in sides.into_iter().flatten() {
        for w in &m.warnings {
            // pricing says how an unknown region was estimated: its warning replaces
            // this one
            if w == REGION_UNKNOWN {
                continue;
            }
            match mapping_note(w) {
                Some((true, a)) => push_unique(&mut assumptions, [a]),
                Some((false, u)) => push_unique(&mut warnings, [u]),
                None => push_unique(&mut warnings, [w.clone()]),
            }
        }
        push_unique(&mut assumptions, m.assumed.iter().cloned());
    }
    for p in priced.into_iter().flatten().flatten() {
        push_unique(&mut warnings, p.warnings.iter().cloned());
        push_unique(&mut assumptions, p.assumptions.iter().cloned());
    }
    (warnings, assumptions)
}

/// Lists the usage a resource's figures rest on (its after side's, else its before side's)
/// and says so among its assumptions: `from carbon-usage.yml: storage_gb = 500 (…)`.
fn usage_of(r: &mut ResourceReport, m: Option<&MappedResource>) {
    let Some(u) = m.and_then(|m| m.usage.as_deref()) else {
        return;
    };
    r.usage = u
        .inputs
        .iter()
        .map(|i| crate::report::UsageInput {
            key: i.key.name(),
            value: i.value,
            unit: i.key.unit(),
            file: u.file.to_string(),
            from: i.origin.as_str(),
        })
        .collect();
    push_unique(&mut r.assumptions, [u.describe()]);
}

/// The mapped resource at index `i` of a side.
fn at(i: Option<u32>, side: &[MappedResource]) -> Option<&MappedResource> {
    i.map(|i| &side[i as usize])
}

/// For each entry of `order`, the entry whose report it shares: the first one with the same
/// type and actions whose mapped resources are equal but for their addresses
/// ([`alike`]: the instances of a `count` or `for_each` block, and the resources of one type,
/// size and region across the plan), else itself. Candidates are found by a hash of what
/// [`alike`] compares, so that the whole plan is searched in one pass.
fn representatives<'a>(order: &Order<'a>, mapped: &'a MappedPlan) -> Vec<usize> {
    let type_of = |e: &Entry<'a>| -> &'a str {
        match e.resource_type {
            Type::Change(t) => t,
            Type::Mapped(true, i) => mapped.after[i as usize].resource_type.as_str(),
            Type::Mapped(false, i) => mapped.before[i as usize].resource_type.as_str(),
        }
    };
    let same = |x: &Entry<'a>, y: &Entry<'a>| {
        type_of(x) == type_of(y)
            && x.actions.same(y.actions)
            && alike(at(x.before, &mapped.before), at(y.before, &mapped.before))
            && alike(at(x.after, &mapped.after), at(y.after, &mapped.after))
    };
    let state = foldhash::fast::FixedState::default();
    let hashes: Vec<u64> = order
        .entries
        .par_iter()
        .map(|e| {
            use std::hash::{BuildHasher, Hash, Hasher};
            let mut h = state.build_hasher();
            type_of(e).hash(&mut h);
            e.actions.hash(&mut h);
            hash_alike(&mut h, at(e.before, &mapped.before));
            hash_alike(&mut h, at(e.after, &mapped.after));
            h.finish()
        })
        .collect();
    // each hash's representatives (more than one only when different resources collide)
    let mut seen: Map<u64, Vec<u32>> = Map::with_capacity_and_hasher(64, Default::default());
    let mut rep: Vec<usize> = Vec::with_capacity(order.entries.len());
    for (k, (e, h)) in order.entries.iter().zip(hashes).enumerate() {
        // the instances of one block are next to each other: no lookup
        if let Some(p) = k.checked_sub(1)
            && same(&order.entries[p], e)
        {
            rep.push(rep[p]);
            continue;
        }
        let list = seen.entry(h).or_default();
        match list.iter().find(|&&r| same(&order.entries[r as usize], e)) {
            Some(&r) => rep.push(r as usize),
            None => {
                list.push(k as u32);
                rep.push(k);
            }
        }
    }
    rep
}

/// Feeds `h` with what [`alike`] compares but the usage and the taint marks (rare, and
/// compared by [`alike`]): equal resources hash equal, and resources that differ seldom do.
fn hash_alike(h: &mut impl std::hash::Hasher, m: Option<&MappedResource>) {
    use std::hash::Hash;
    let Some(m) = m else {
        return 0u8.hash(h);
    };
    1u8.hash(h);
    // the body's fields, numbers by their bits (`0.0` and `-0.0` hash apart, as before)
    m.body.hash_bits(h);
}

/// Whether two mapped resources are equal but for their addresses, so that one report entry
/// can stand for both (every field of their bodies is named, so that a new one is compared
/// too).
fn alike(a: Option<&MappedResource>, b: Option<&MappedResource>) -> bool {
    let (a, b) = match (a, b) {
        (None, None) => return true,
        (Some(a), Some(b)) => (a, b),
        _ => return false,
    };
    // one body (the engine keeps one of each kind): equal, unless a figure is not a number
    if std::sync::Arc::ptr_eq(&a.body, &b.body) && a.body.equals_itself() {
        return true;
    }
    let crate::mapping::Body {
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
    } = &*a.body;
    *resource_type == b.resource_type
        && *provider == b.provider
        && *region == b.region
        && *zone == b.zone
        && *machine_type == b.machine_type
        && *vcpus == b.vcpus
        && *memory_gb == b.memory_gb
        && *gpus == b.gpus
        && *cpu_types == b.cpu_types
        && *storage == b.storage
        && *count == b.count
        && *replication_factor == b.replication_factor
        && *assumed == b.assumed
        && *warnings == b.warnings
        && *usage == b.usage
        && *tainted == b.tainted
}

/// The report's resources in order: each entry priced, and each instance that shares its
/// representative's report given it under its own address.
fn share_entries(
    order: &Order<'_>,
    mapped: &MappedPlan,
    rep: &[usize],
    mut priced: Vec<Option<ResourceReport>>,
) -> Vec<ResourceReport> {
    for k in 0..priced.len() {
        if rep[k] == k {
            continue;
        }
        let e = &order.entries[k];
        let address = at(e.before, &mapped.before)
            .or(at(e.after, &mapped.after))
            .map_or("", |m| &m.address);
        let entry = Arc::clone(&priced[rep[k]].as_ref().expect("priced").entry);
        priced[k] = Some(ResourceReport {
            address: address.to_string(),
            entry,
        });
    }
    // (in place: an `Option` of a report is as large as the report)
    priced
        .into_iter()
        .map(|r| r.expect("every entry is priced or shared"))
        .collect()
}

/// The inputs of a resource's before and after sides (with `keep_inputs`).
type Inputs = (Option<Priced>, Option<Priced>);

/// A resource's actions: the plan's, or the one its sides imply.
#[derive(Clone, Copy)]
enum Actions<'a> {
    Plan(&'a [Cow<'a, str>]),
    One(&'static str),
}

impl Actions<'_> {
    /// Whether two resources have the same actions.
    fn same(self, other: Actions<'_>) -> bool {
        match (self, other) {
            (Actions::Plan(a), Actions::Plan(b)) => a == b,
            (Actions::One(a), Actions::One(b)) => a == b,
            (Actions::Plan(a), Actions::One(b)) | (Actions::One(b), Actions::Plan(a)) => {
                a.len() == 1 && a[0] == b
            }
        }
    }

    /// Hashes the action names, so that actions [`Actions::same`] finds equal hash equal.
    fn hash(self, h: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        match self {
            Actions::Plan(a) => {
                a.len().hash(h);
                a.iter().for_each(|a| (**a).hash(h));
            }
            Actions::One(a) => {
                1usize.hash(h);
                a.hash(h);
            }
        }
    }

    fn any(self, f: impl Fn(&str) -> bool) -> bool {
        match self {
            Actions::Plan(a) => a.iter().any(|a| f(a)),
            Actions::One(a) => f(a),
        }
    }

    fn all(self, f: impl Fn(&str) -> bool) -> bool {
        match self {
            Actions::Plan(a) => a.iter().all(|a| f(a)),
            Actions::One(a) => f(a),
        }
    }

    /// The actions as the report holds them: one list for every resource of this thread with
    /// the same ones.
    fn shared(self) -> Arc<[Text]> {
        thread_local! {
            static SEEN: RefCell<Vec<Arc<[Text]>>> = const { RefCell::new(Vec::new()) };
        }
        let same = |list: &[Text]| match self {
            Actions::Plan(a) => {
                a.len() == list.len() && a.iter().zip(list).all(|(a, b)| **a == **b)
            }
            Actions::One(a) => list.len() == 1 && *list[0] == *a,
        };
        SEEN.with_borrow_mut(|seen| {
            if let Some(list) = seen.iter().find(|l| same(l)) {
                return list.clone();
            }
            let list: Arc<[Text]> = match self {
                Actions::Plan(a) => a.iter().map(|a| lookups::intern(a)).collect(),
                Actions::One(a) => Arc::from([lookups::intern(a)]),
            };
            if seen.len() >= 64 {
                seen.clear();
            }
            seen.push(list.clone());
            list
        })
    }
}

#[cfg(test)]
mod tests;
