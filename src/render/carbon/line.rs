//! The `# ≈` lines under each resource of the human plan: the headline period's figure first,
//! then the hourly rate, the hardware and the region, within [`COLUMNS`] where possible.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use super::{COLUMNS, push_band, push_short, push_signed, push_trim_num, sign, trim_num};
use crate::estimate::{Period, push_mass};
use crate::mapping;
use crate::plan::ResourceChange;
use crate::render::Annotator;
use crate::report::{Report, ResourceReport, Side, Status};

/// Columns a resource header's comment takes before the text (`  # `).
const INDENT: usize = 4;

/// One part of a line and how readily it is left out to fit (higher goes first; 0 never).
struct Part {
    text: String,
    drop: u8,
}

impl Part {
    fn keep(text: String) -> Part {
        Part { text, drop: 0 }
    }
}

/// The annotation lines of one resource (without the leading `# `): the figures line, and a
/// second line for what was assumed or warned about. Empty for a resource with nothing to say.
///
/// `≈ +10.3 kgCO2eq/month [8.1–12.9] · 14.2 g/h · 2 vCPU · 4 GiB · 20 GB SSD · us-east-1`: the
/// headline figure with its band (low–high, same unit), then the detail.
pub fn annotation(r: &ResourceReport, period: Period) -> Vec<String> {
    // an update to a machine type known only after apply keeps its before figures
    let kept_before = match (&r.status, &r.before, &r.after) {
        (Status::NotEstimated { reason }, Some(b), None) => Some((reason, b)),
        (Status::NotEstimated { reason }, _, _) => {
            return vec![format!("≈ not estimated: {reason}")];
        }
        (Status::Unsupported { reason }, _, _) => {
            return vec![format!("≈ unsupported: {reason}")];
        }
        _ => None,
    };
    let hours = period.hours();
    let per = period.unit();
    // `lead` and the headline figure over the period, `/month`, and its band
    let headline = |lead: &str, g: f64, range: (f64, f64), signed_figure: bool| {
        let mut t = String::with_capacity(48);
        t.push_str(lead);
        if signed_figure {
            push_signed(&mut t, g * hours);
        } else {
            push_mass(&mut t, g * hours);
        }
        t.push('/');
        t.push_str(per);
        let at = t.len();
        t.push(' ');
        if !push_band(&mut t, g * hours, range.0 * hours, range.1 * hours) {
            t.truncate(at);
        }
        Part::keep(t)
    };
    let own = |s: &Side| {
        (
            s.range_per_hour.low.total_gco2eq,
            s.range_per_hour.high.total_gco2eq,
        )
    };
    let delta_band = (
        r.delta_range_per_hour.low.total_gco2eq,
        r.delta_range_per_hour.high.total_gco2eq,
    );
    let hourly = |g: f64, signed_figure: bool| -> Option<Part> {
        (period != Period::Hour).then(|| {
            let mut text = String::with_capacity(16);
            if signed_figure {
                text.push_str(sign(g));
            }
            push_short(&mut text, g);
            text.push_str("/h");
            Part {
                text,
                // first to go: the headline already says it over the period, while the
                // hardware and regions say why the figure is what it is
                drop: PER_HOUR,
            }
        })
    };
    let footprint = r.actions.iter().all(|a| &**a == "no-op");
    let d = r.delta_per_hour.total_gco2eq;
    let mut parts: Vec<Part> = Vec::with_capacity(8);
    match (&r.before, &r.after) {
        (Some(b), None) if kept_before.is_some() => {
            let g = b.per_hour.total_gco2eq;
            parts.push(headline("≈ before ", g, own(b), false));
            parts.extend(hourly(g, false));
            describe(b, &mut parts);
        }
        // a state's resource, or one the plan leaves as it is: what it emits
        (_, Some(a)) if footprint => {
            let g = a.per_hour.total_gco2eq;
            parts.push(headline("≈ ", g, own(a), false));
            parts.extend(hourly(g, false));
            describe(a, &mut parts);
        }
        (None, Some(a)) => {
            parts.push(headline("≈ ", d, delta_band, true));
            parts.extend(hourly(d, true));
            describe(a, &mut parts);
        }
        (Some(b), None) => {
            parts.push(headline("≈ ", d, delta_band, true));
            parts.extend(hourly(d, true));
            describe(b, &mut parts);
        }
        (Some(b), Some(a)) if d == 0.0 => {
            let g = a.per_hour.total_gco2eq;
            parts.push(headline("≈ unchanged at ", g, own(a), false));
            parts.extend(hourly(g, false));
            describe_change(b, a, &mut parts);
        }
        (Some(b), Some(a)) => {
            parts.push(headline("≈ ", d, delta_band, true));
            parts.extend(hourly(d, true));
            describe_change(b, a, &mut parts);
        }
        (None, None) => return Vec::new(),
    }
    let mut lines = fit(parts);
    let mut notes: Vec<String> = Vec::new();
    if let Some((reason, _)) = kept_before {
        notes.push(format!("after not estimated: {reason}"));
    }
    // (the reason the after side is not estimated is said once)
    let said = |w: &&String| kept_before.is_some_and(|(reason, _)| *w == reason);
    if let Some(w) = r.warnings.iter().find(|w| !said(w)) {
        notes.push(format!("⚠ {w}"));
    }
    if !r.assumptions.is_empty() {
        notes.push(format!("assumed {}", r.assumptions.join("; ")));
    }
    if !notes.is_empty() {
        lines.push(format!("≈ {}", notes.join(" · ")));
    }
    lines
}

/// How readily the per-hour figure is left out: before any hardware (at most 5).
const PER_HOUR: u8 = 6;

/// The width of the parts joined with ` · `, after the resource's `  # `.
fn width(parts: &[Part]) -> usize {
    INDENT
        + parts.iter().map(|p| p.text.chars().count()).sum::<usize>()
        + 3 * parts.len().saturating_sub(1)
}

/// The figures line: the parts (the headline first) joined with ` · `. When they do not fit,
/// the per-hour figure goes; when they still do not, the hardware and region go on a `≈` line
/// of their own, which leaves out its most droppable parts only if it is itself too wide.
fn fit(parts: Vec<Part>) -> Vec<String> {
    if width(&parts) <= COLUMNS {
        return vec![shorten(parts)];
    }
    let (head, rest): (Vec<_>, Vec<_>) = (parts.into_iter().enumerate())
        .map(|(i, p)| (i == 0 || p.drop == PER_HOUR, p))
        .partition::<Vec<_>, _>(|(h, _)| *h);
    let (head, mut rest): (Vec<Part>, Vec<Part>) = (
        head.into_iter().map(|(_, p)| p).collect(),
        rest.into_iter().map(|(_, p)| p).collect(),
    );
    if rest.is_empty() || width(&head[..1]) + width(&rest) - INDENT + 3 <= COLUMNS {
        let mut one: Vec<Part> = head.into_iter().take(1).collect();
        one.extend(rest);
        return vec![shorten(one)];
    }
    rest[0].text = format!("≈ {}", rest[0].text);
    vec![shorten(head), shorten(rest)]
}

/// Joins the parts with ` · `, leaving out the most droppable ones until the line fits.
fn shorten(mut parts: Vec<Part>) -> String {
    while width(&parts) > COLUMNS {
        let Some((i, _)) = parts
            .iter()
            .enumerate()
            .filter(|(_, p)| p.drop > 0)
            // the most droppable; among equals, the last
            .max_by_key(|(i, p)| (p.drop, *i))
        else {
            break;
        };
        parts.remove(i);
    }
    let mut parts = parts.into_iter();
    let mut line = parts.next().map(|p| p.text).unwrap_or_default();
    for p in parts {
        line.push_str(" · ");
        line.push_str(&p.text);
    }
    line
}

/// A kind of figure on a side: its value, unit and how readily it is left out.
fn hardware(s: &Side) -> [(&'static str, f64, &'static str, u8); 5] {
    [
        ("vcpu", s.vcpus, "vCPU", 1),
        ("mem", s.memory_gb, "GiB", 2),
        ("gpu", f64::from(s.gpus), "GPU", 1),
        ("ssd", s.ssd_gb, "GB SSD", 4),
        ("hdd", s.hdd_gb, "GB HDD", 4),
    ]
}

fn place(s: &Side) -> String {
    match &s.region {
        // a region from the plan, quoted as Terraform quotes it when it holds a control
        Some(r) => crate::escape::value(r).into_owned(),
        None => "region unknown".into(),
    }
}

fn instances(n: f64) -> Option<String> {
    // a share of one (a function busy part of the month, from a usage file): its significant
    // figures, not `0×`
    if n > 0.0 && n < 0.995 {
        return Some(format!("{}×", crate::estimate::sig3(n)));
    }
    (n != 1.0).then(|| format!("{}×", trim_num(n)))
}

/// `2× 4 vCPU · 16 GiB · 100 GB SSD · us-east-1`: the hardware that is there, and the region,
/// after the `parts` already there.
fn describe(s: &Side, parts: &mut Vec<Part>) {
    let first = parts.len();
    for (_, v, unit, drop) in hardware(s) {
        if v != 0.0 {
            parts.push(Part {
                text: figure(v, unit),
                drop,
            });
        }
    }
    prefix_instances(parts, first, instances(s.instances));
    parts.push(Part {
        text: place(s),
        drop: if s.region.is_some() { 1 } else { 0 },
    });
}

/// `4 vCPU`: a hardware figure and its unit.
fn figure(v: f64, unit: &str) -> String {
    let mut text = String::with_capacity(8 + unit.len());
    push_trim_num(&mut text, v);
    text.push(' ');
    text.push_str(unit);
    text
}

/// Before and after in one description, after the `parts` already there: unchanged parts
/// once, changed ones as `2 → 4 vCPU` (kept longer than the unchanged ones when the line is
/// short of room).
fn describe_change(b: &Side, a: &Side, parts: &mut Vec<Part>) {
    let first = parts.len();
    for ((_, x, unit, drop), (_, y, _, _)) in hardware(b).into_iter().zip(hardware(a)) {
        if x == 0.0 && y == 0.0 {
            continue;
        }
        parts.push(if x == y {
            Part {
                text: figure(y, unit),
                drop: drop + 1,
            }
        } else {
            let mut text = String::with_capacity(16 + unit.len());
            push_trim_num(&mut text, x);
            text.push_str(" → ");
            text.push_str(&figure(y, unit));
            Part { text, drop }
        });
    }
    let count = if b.instances == a.instances {
        instances(a.instances)
    } else {
        Some(format!(
            "{}× → {}×",
            trim_num(b.instances),
            trim_num(a.instances)
        ))
    };
    prefix_instances(parts, first, count);
    let (pb, pa) = (place(b), place(a));
    parts.push(Part {
        text: if pb == pa {
            pa
        } else {
            format!("{pb} → {pa}")
        },
        drop: 1,
    });
}

/// `3×` goes before the first hardware figure, `parts[first]` (or stands alone when there is
/// none).
fn prefix_instances(parts: &mut Vec<Part>, first: usize, prefix: Option<String>) {
    let Some(mut prefix) = prefix else { return };
    match parts.get_mut(first) {
        Some(p) => {
            prefix.push(' ');
            p.text.insert_str(0, &prefix);
            p.drop = 0;
        }
        None => parts.push(Part::keep(prefix)),
    }
}

/// The carbon lines of the human plan: the annotation lines of every resource the report
/// has something to say about, found by address. Each resource's lines are worded when the
/// renderer asks for them (in parallel, and only for the resources it shows); those of an
/// entry several resources share (instances priced once, `report::ResourceReport::entry`)
/// are worded once and lent to each.
pub struct CarbonAnnotator<'r> {
    by_address: HashMap<&'r str, Reports<'r>, foldhash::fast::FixedState>,
    /// The lines of each shared entry, by its address in memory, worded by the first
    /// resource that asks.
    shared: HashMap<usize, OnceLock<Vec<String>>, foldhash::fast::FixedState>,
    period: Period,
    alternatives: bool,
    /// A terminal's width: lines past it continue on `#` lines of their own.
    width: Option<usize>,
}

/// The reports of one address: nearly always one.
enum Reports<'r> {
    One(&'r ResourceReport),
    /// In report order.
    Many(Vec<&'r ResourceReport>),
}

/// The key of a report's entry in [`CarbonAnnotator::shared`].
fn entry_key(r: &ResourceReport) -> usize {
    Arc::as_ptr(&r.entry) as usize
}

impl<'r> CarbonAnnotator<'r> {
    pub fn new(report: &'r Report, period: Period) -> Self {
        Self::with_alternatives(report, period, false)
    }

    /// With `alternatives`, a resource's `# ↳ greener:` line follows its `# ≈` lines
    /// (`crate::alternatives::words::arrow_line`).
    pub fn with_alternatives(report: &'r Report, period: Period, alternatives: bool) -> Self {
        let mut by_address: HashMap<&'r str, Reports<'r>, _> = HashMap::with_capacity_and_hasher(
            report.resources.len(),
            foldhash::fast::FixedState::default(),
        );
        let mut shared: HashMap<usize, OnceLock<Vec<String>>, _> = HashMap::default();
        for r in &report.resources {
            if Arc::strong_count(&r.entry) > 1 {
                shared.entry(entry_key(r)).or_default();
            }
            match by_address.entry(r.address.as_str()) {
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(Reports::One(r));
                }
                std::collections::hash_map::Entry::Occupied(mut e) => {
                    let all = match e.get_mut() {
                        Reports::One(first) => vec![*first, r],
                        Reports::Many(v) => {
                            v.push(r);
                            continue;
                        }
                    };
                    e.insert(Reports::Many(all));
                }
            }
        }
        CarbonAnnotator {
            by_address,
            shared,
            period,
            alternatives,
            width: None,
        }
    }

    /// Lines fitted to a terminal of `width` columns (`None`: today's single lines of at most
    /// [`COLUMNS`], as piped output and golden files hold them).
    pub fn within(mut self, width: Option<usize>) -> Self {
        self.width = width;
        self
    }

    /// The lines of one resource: those of its shared entry, worded once, else worded now.
    fn lines(&self, r: &ResourceReport) -> Cow<'_, [String]> {
        match self.shared.get(&entry_key(r)) {
            Some(once) => Cow::Borrowed(once.get_or_init(|| self.word(r))),
            None => Cow::Owned(self.word(r)),
        }
    }

    /// The lines of one entry, each escaped for the terminal ([`crate::escape::line`]):
    /// reasons, assumptions and warnings quote the plan and the mappings.
    fn word(&self, r: &ResourceReport) -> Vec<String> {
        let mut l = annotation(r, self.period);
        if self.alternatives {
            l.extend(crate::alternatives::words::arrow_line(r, self.period));
        }
        for line in &mut l {
            if let Cow::Owned(escaped) = crate::escape::line(line) {
                *line = escaped;
            }
        }
        match self.width {
            // `  # ` before each line (a state's `# `): continued lines are indented under it
            Some(w) => (l.iter())
                .flat_map(|line| super::wrap(line, w.saturating_sub(INDENT), "  "))
                .collect(),
            None => l,
        }
    }

    fn lines_of(&self, address: &str) -> Cow<'_, [String]> {
        match self.by_address.get(address) {
            None => Cow::Borrowed(&[]),
            Some(Reports::One(r)) => self.lines(r),
            // the last report of the address that has something to say
            Some(Reports::Many(all)) => all
                .iter()
                .rev()
                .map(|r| self.lines(r))
                .find(|l| !l.is_empty())
                .unwrap_or_default(),
        }
    }

    fn resource_lines_of(&self, rc: &ResourceChange) -> Cow<'_, [String]> {
        match rc.deposed() {
            Some(key) if !key.is_empty() => {
                self.lines_of(&mapping::deposed_address(&rc.address, key))
            }
            _ => self.lines_of(&rc.address),
        }
    }
}

impl Annotator for CarbonAnnotator<'_> {
    fn resource_lines(&self, rc: &ResourceChange) -> Vec<String> {
        self.resource_lines_of(rc).into_owned()
    }

    fn for_each_resource_line(&self, rc: &ResourceChange, each: &mut dyn FnMut(&str)) {
        for line in self.resource_lines_of(rc).iter() {
            each(line);
        }
    }

    fn state_resource_lines(&self, address: &str, deposed_key: Option<&str>) -> Vec<String> {
        let address = match deposed_key {
            Some(key) => Cow::Owned(mapping::deposed_address(address, key)),
            None => Cow::Borrowed(address),
        };
        self.lines_of(&address).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::side;

    fn resource(actions: &[&str], before: Option<Side>, after: Option<Side>) -> ResourceReport {
        ResourceReport::new(
            "aws_instance.web".into(),
            "aws_instance".into(),
            actions.iter().map(|a| a.to_string()).collect(),
            before,
            after,
        )
    }

    /// Instances priced once share one entry: its lines are worded once, for the first
    /// address that asks, and every address of the entry gets the same lines as an entry of
    /// its own would (a lone resource's are worded each time it is asked).
    #[test]
    fn instances_sharing_an_entry_get_its_lines_worded_once() {
        let first = resource(&["create"], None, Some(side(4.0, 16.0, 23.1, 1.0)));
        let mut second = first.clone();
        second.address = "aws_instance.web[1]".into();
        let mut lone = resource(&["delete"], Some(side(2.0, 8.0, 5.0, 1.0)), None);
        lone.address = "aws_instance.old".into();
        let expected = annotation(&first, Period::Month);
        let report = Report::new(vec![first, second, lone], vec![], 0, 0.5, Period::Month);
        let a = CarbonAnnotator::new(&report, Period::Month);
        assert_eq!(a.shared.len(), 1, "one shared entry, the lone one not kept");
        let slot = a.shared.values().next().unwrap();
        assert!(slot.get().is_none(), "worded when asked, not before");
        assert_eq!(*a.lines_of("aws_instance.web"), expected[..]);
        assert_eq!(slot.get().map(Vec::as_slice), Some(&expected[..]));
        // the second instance borrows the same lines
        let Cow::Borrowed(second) = a.lines_of("aws_instance.web[1]") else {
            panic!("the second instance's lines are worded again")
        };
        assert!(std::ptr::eq(second, slot.get().unwrap().as_slice()));
        assert_eq!(
            *a.lines_of("aws_instance.old"),
            annotation(&report.resources[2], Period::Month)[..]
        );
        assert!(matches!(a.lines_of("aws_instance.old"), Cow::Owned(_)));
        assert!(a.lines_of("aws_instance.none").is_empty());
    }

    #[test]
    fn create_leads_with_the_headline_period() {
        // 23.1 g/h × 730 h = 16,863 g → "+16.9 kgCO2eq/month"
        let r = resource(&["create"], None, Some(side(4.0, 16.0, 23.1, 1.0)));
        assert_eq!(
            annotation(&r, Period::Month),
            ["≈ +16.9 kgCO2eq/month · +23.1 g/h · 4 vCPU · 16 GiB · 100 GB SSD · us-east-1"]
        );
        assert_eq!(
            annotation(&r, Period::Hour),
            ["≈ +23.1 gCO2eq/h · 4 vCPU · 16 GiB · 100 GB SSD · us-east-1"]
        );
    }

    #[test]
    fn delete_and_update_show_the_change() {
        let d = resource(&["delete"], Some(side(4.0, 16.0, 10.0, 3.0)), None);
        // -10 g/h × 8,760 h = -87.6 kg
        assert_eq!(
            annotation(&d, Period::Year),
            ["≈ -87.6 kgCO2eq/year · -10.0 g/h · 3× 4 vCPU · 16 GiB · 100 GB SSD · us-east-1"]
        );
        let u = resource(
            &["update"],
            Some(side(4.0, 16.0, 10.0, 1.0)),
            Some(side(8.0, 32.0, 26.0, 1.0)),
        );
        // +16 g/h × 730 = +11,680 g
        assert_eq!(
            annotation(&u, Period::Month),
            [
                "≈ +11.7 kgCO2eq/month · +16.0 g/h · 4 → 8 vCPU · 16 → 32 GiB · 100 GB SSD · us-east-1"
            ]
        );
    }

    /// A replacement that changes no figure says so, instead of `3.09 → 3.09 (0 …)`.
    #[test]
    fn unchanged_replacement_says_unchanged() {
        let r = resource(
            &["delete", "create"],
            Some(side(2.0, 8.0, 3.09, 1.0)),
            Some(side(2.0, 8.0, 3.09, 1.0)),
        );
        assert_eq!(
            annotation(&r, Period::Month),
            [
                "≈ unchanged at 2.26 kgCO2eq/month · 3.09 g/h · 2 vCPU · 8 GiB · 100 GB SSD · us-east-1"
            ]
        );
    }

    #[test]
    fn long_lines_put_the_hardware_on_a_line_of_its_own_and_notes_on_another() {
        let mut s = side(96.0, 768.0, 1234.5, 12.0);
        s.gpus = 8;
        s.hdd_gb = 16000.0;
        s.region = Some("ap-southeast-4-very-long-region-name".into());
        let mut r = resource(&["update"], Some(side(4.0, 16.0, 10.0, 1.0)), Some(s));
        r.warnings = vec!["grid intensity of 2019".into()];
        r.assumptions = vec!["instance_type = m5.large (known after apply)".into()];
        let lines = annotation(&r, Period::Month);
        for l in &lines {
            assert!(INDENT + l.chars().count() <= COLUMNS, "{l}");
        }
        // too wide for one line: the hardware and region get a line of their own, which
        // leaves out storage first since it is too wide itself
        assert_eq!(lines[0], "≈ +894 kgCO2eq/month · +1.22 kg/h");
        assert!(
            lines[1].starts_with("≈ 1× → 12× 4 → 96 vCPU"),
            "{}",
            lines[1]
        );
        assert!(lines[1].contains("0 → 8 GPU"), "{}", lines[1]);
        assert!(
            !lines[1].contains("GB SSD"),
            "storage goes first: {}",
            lines[1]
        );
        assert_eq!(
            lines[2],
            "≈ ⚠ grid intensity of 2019 · assumed instance_type = m5.large (known after apply)"
        );
    }

    #[test]
    fn not_estimated_gives_the_reason() {
        let mut r = resource(&["create"], None, None);
        r.status = Status::NotEstimated {
            reason: "unknown instance type \"zz.huge\"".into(),
        };
        assert_eq!(
            annotation(&r, Period::Month),
            ["≈ not estimated: unknown instance type \"zz.huge\""]
        );
    }

    #[test]
    fn the_band_follows_the_headline_in_its_unit() {
        let mut s = side(2.0, 8.0, 10.0, 1.0);
        s.range_per_hour.low.total_gco2eq = 6.0;
        s.range_per_hour.high.total_gco2eq = 15.5;
        let r = resource(&["create"], None, Some(s));
        // 10 g/h × 730 = 7.30 kg; 6 × 730 = 4.38 kg; 15.5 × 730 = 11.3 kg
        assert_eq!(
            annotation(&r, Period::Month),
            [
                "≈ +7.30 kgCO2eq/month [4.38–11.3] · +10.0 g/h · 2 vCPU · 8 GiB · 100 GB SSD · us-east-1"
            ]
        );
        // a deletion's band is negative
        let mut s = side(2.0, 8.0, 10.0, 1.0);
        s.range_per_hour.low.total_gco2eq = 6.0;
        s.range_per_hour.high.total_gco2eq = 15.5;
        let d = resource(&["delete"], Some(s), None);
        assert_eq!(
            annotation(&d, Period::Hour),
            ["≈ -10.0 gCO2eq/h [-15.5 to -6.00] · 2 vCPU · 8 GiB · 100 GB SSD · us-east-1"]
        );
    }

    #[test]
    fn an_update_to_a_type_known_after_apply_keeps_its_before_figures() {
        let mut r = resource(&["update"], Some(side(2.0, 8.0, 4.0, 1.0)), None);
        r.status = Status::NotEstimated {
            reason: "instance_type known after apply".into(),
        };
        r.warnings = vec!["instance_type known after apply".into()];
        assert_eq!(
            annotation(&r, Period::Hour),
            [
                "≈ before 4.00 gCO2eq/h · 2 vCPU · 8 GiB · 100 GB SSD · us-east-1",
                "≈ after not estimated: instance_type known after apply"
            ]
        );
    }
}
