//! Every carbon line carbon-show writes, worded in one place over the plain-data report: the
//! `# ≈` annotation under each resource ([`line`]), the closing summary of the human output
//! ([`summary`]) and the pull-request comment ([`markdown`]).
//!
//! The report ([`crate::report::Report`]) holds figures only; this module decides how they
//! read: which period leads, how instances of one resource are grouped, what is named when
//! something could not be estimated, and which styles of the [`crate::render::Theme`] a
//! summary line uses.

pub mod greener;
pub mod line;
pub mod markdown;
pub mod modules;
pub mod projects;
pub mod summary;
mod wrap;

pub use line::{CarbonAnnotator, annotation};
pub use markdown::{Capture, CommentOptions, Cut, PlanText, write_comment};
pub use summary::{DocumentKind, Group, Summary, Verdict, write_human, write_human_within};

use crate::estimate::{push_int, push_mass, push_sig3, sig3};

/// Annotation and summary lines aim to fit this many columns (the resource header's `  # `
/// included), dropping detail that `--format json` keeps.
pub const COLUMNS: usize = 100;

/// `line` cut at spaces into lines of at most `width` columns (one column a character), each
/// after the first starting with `cont`; a word wider than a line is cut where it must be.
pub(crate) fn wrap(line: &str, width: usize, cont: &str) -> Vec<String> {
    let width = width.max(cont.chars().count() + 10);
    if line.chars().count() <= width {
        return vec![line.to_string()];
    }
    let lead: String = line.chars().take_while(|c| *c == ' ').collect();
    let mut out = Vec::new();
    let mut cur = lead.clone();
    let mut cur_w = cur.chars().count();
    let mut fresh = true;
    for word in line[lead.len()..].split(' ') {
        let w = word.chars().count();
        if !fresh && cur_w + 1 + w > width {
            out.push(std::mem::take(&mut cur));
            cur = cont.to_string();
            cur_w = cur.chars().count();
            fresh = true;
        }
        if !fresh {
            cur.push(' ');
            cur_w += 1;
        }
        let mut rest: Vec<char> = word.chars().collect();
        while cur_w + rest.len() > width {
            let room = width - cur_w;
            cur.extend(rest.drain(..room));
            out.push(std::mem::take(&mut cur));
            cur = cont.to_string();
            cur_w = cur.chars().count();
        }
        cur_w += rest.len();
        cur.extend(rest);
        fresh = false;
    }
    out.push(cur);
    out
}

/// `+` for a positive figure (negative ones carry their own `-`).
pub(crate) fn sign(v: f64) -> &'static str {
    if v > 0.0 { "+" } else { "" }
}

/// A signed mass with its unit: `+10.3 kgCO2eq`, `-6.53 kgCO2eq`, `0 gCO2eq`.
pub(crate) fn signed(g: f64) -> String {
    let mut s = String::with_capacity(16);
    push_signed(&mut s, g);
    s
}

/// Appends [`signed`]`(g)`.
pub(crate) fn push_signed(out: &mut String, g: f64) {
    out.push_str(sign(g));
    push_mass(out, g);
}

/// A mass in the short form used beside a headline: `14.2 g`, `-1.25 kg`.
pub(crate) fn short(g: f64) -> String {
    let mut s = String::with_capacity(8);
    push_short(&mut s, g);
    s
}

/// Appends [`short`]`(g)`.
pub(crate) fn push_short(out: &mut String, g: f64) {
    let (v, unit) = if g.abs() >= 1e6 {
        (g / 1e6, "t")
    } else if g.abs() >= 1e3 {
        (g / 1e3, "kg")
    } else {
        (g, "g")
    };
    push_sig3(out, v);
    out.push(' ');
    out.push_str(unit);
}

/// The grams per unit [`Mass`](crate::estimate::Mass) shows `g` in (1, 1e3 or 1e6).
pub(crate) fn unit_scale(g: f64) -> f64 {
    if g.abs() >= 1e6 {
        1e6
    } else if g.abs() >= 1e3 {
        1e3
    } else {
        1.0
    }
}

/// The band of a figure, its ends to three significant figures: in the unit
/// [`Mass`](crate::estimate::Mass) shows
/// `central` in (`[8.10–12.9]`, `[-12.9 to -8.10]` when an end is negative), or, when its
/// larger end reaches the next unit, in that end's unit, named (`[0.457–1.20 kg]`); `None`
/// when low, central and high are one value.
pub fn band(central: f64, low: f64, high: f64) -> Option<String> {
    let mut s = String::new();
    push_band(&mut s, central, low, high).then_some(s)
}

/// Appends [`band`]`(central, low, high)`; `false`, with nothing written, where it is `None`.
pub(crate) fn push_band(out: &mut String, central: f64, low: f64, high: f64) -> bool {
    if low == central && high == central {
        return false;
    }
    let k = unit_scale(central);
    let larger = if low.abs() > high.abs() { low } else { high };
    let (k, unit) = match unit_scale(larger) {
        end if end > k => (end, if end >= 1e6 { " t" } else { " kg" }),
        _ => (k, ""),
    };
    let sep = if low < 0.0 || high < 0.0 {
        " to "
    } else {
        "–"
    };
    out.push('[');
    push_sig3(out, low / k);
    out.push_str(sep);
    push_sig3(out, high / k);
    out.push_str(unit);
    out.push(']');
    true
}

/// A number without a trailing `.0` (`4`, `0.5`, `3.75`).
pub fn trim_num(v: f64) -> String {
    let mut s = String::with_capacity(8);
    push_trim_num(&mut s, v);
    s
}

/// Appends [`trim_num`]`(v)`.
pub(crate) fn push_trim_num(out: &mut String, v: f64) {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        push_int(out, v as i64);
    } else {
        let s = format!("{v:.2}");
        out.push_str(s.trim_end_matches('0').trim_end_matches('.'));
    }
}

/// The relative change `after / before − 1` as `+12.5 %`, or `None` when there was nothing
/// before to compare with.
pub(crate) fn relative(before: f64, delta: f64) -> Option<String> {
    (before > 0.0).then(|| percent(delta / before * 100.0))
}

/// A signed percentage: whole from 10 % up (`+13 %`, `+700 %`), three significant figures
/// under it (`+4.57 %`).
pub fn percent(p: f64) -> String {
    let s = sig3(p);
    let s = if s
        .trim_start_matches('-')
        .parse::<f64>()
        .is_ok_and(|a| a >= 10.0)
    {
        format!("{:.0}", p.round())
    } else {
        s
    };
    format!("{}{s} %", sign(p))
}

/// Splits `aws_instance.web[3]` into (`aws_instance.web`, `3`): the last index of an address,
/// when it ends with one. Quoted keys may hold brackets and dots (`app["a]b"]`).
pub(crate) fn split_index(address: &str) -> Option<(&str, &str)> {
    if !address.ends_with(']') {
        return None;
    }
    let mut open = None;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in address.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '[' => open = Some(i),
            _ => {}
        }
    }
    let open = open?;
    Some((&address[..open], &address[open + 1..address.len() - 1]))
}

/// The resource type of an address: `module.a["x"].aws_instance.web[0]` → `aws_instance`.
pub(crate) fn type_of(address: &str) -> &str {
    // Dots at the top level split the address; module keys may hold dots inside quotes.
    let mut parts: Vec<&str> = Vec::new();
    let (mut start, mut in_string, mut escaped, mut depth) = (0, false, false, 0usize);
    for (i, c) in address.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '.' if depth == 0 => {
                parts.push(&address[start..i]);
                start = i + 1;
            }
            ' ' if depth == 0 => break, // " (deposed object …)"
            _ => {}
        }
    }
    parts.push(address[start..].split(' ').next().unwrap_or(""));
    let mut i = 0;
    while i + 1 < parts.len() && parts[i] == "module" {
        i += 2;
    }
    if parts.get(i) == Some(&"data") && i + 2 < parts.len() {
        i += 1;
    }
    parts.get(i).copied().unwrap_or(address)
}

/// `label` within `max` characters, `…` in the middle: the module path is cut from its end,
/// so that its start, the resource type and the rest of the last step stay whole
/// (`module.platform.module.…aws_instance.worker[0..2] ×3`); a last step longer than that keeps
/// its type, the start of its name and its end (`…aws_instance.very…["key"] ×3`).
pub(crate) fn shorten(label: &str, max: usize) -> std::borrow::Cow<'_, str> {
    let n = label.chars().count();
    if n <= max || max < 8 {
        return label.into();
    }
    // the last step starts at its type (type_of returns a slice of the label)
    let ty = type_of(label);
    let at = (ty.as_ptr() as usize)
        .checked_sub(label.as_ptr() as usize)
        .filter(|&i| label.get(i..i + ty.len()) == Some(ty))
        .unwrap_or(0);
    let (path, last) = label.split_at(at);
    let last_n = last.chars().count();
    if last_n < max {
        let head: String = path.chars().take(max - 1 - last_n).collect();
        return format!("{head}…{last}").into();
    }
    // the last step alone is too long: its type, then the start and end of the rest
    let lead = if path.is_empty() { "" } else { "…" };
    let keep = max - lead.chars().count() - 1;
    let ty_n = ty.chars().count().min(keep / 2);
    let rest_keep = keep - ty_n;
    let head_n = ty_n + rest_keep / 3;
    let tail_n = keep - head_n;
    let head: String = last.chars().take(head_n).collect();
    let tail: String = last.chars().skip(last_n - tail_n).collect();
    format!("{lead}{head}…{tail}").into()
}

/// The label of the instances of one resource: `aws_instance.worker[0..2] ×3` for a run of
/// numbers, `app["api","web"] ×2` for a few keys, `app[*] ×12` otherwise.
pub(crate) fn group_label(base: &str, keys: &[&str]) -> String {
    let n = keys.len();
    let mut numbers: Vec<u64> = keys.iter().filter_map(|k| k.parse().ok()).collect();
    let index = if numbers.len() == n {
        numbers.sort_unstable();
        let (first, last) = (numbers[0], numbers[n - 1]);
        if last - first + 1 == n as u64 {
            format!("{first}..{last}")
        } else if n <= 4 {
            let v: Vec<String> = numbers.iter().map(u64::to_string).collect();
            v.join(",")
        } else {
            "*".into()
        }
    } else if n <= 3 {
        keys.join(",")
    } else {
        "*".into()
    };
    format!("{base}[{index}] ×{n}")
}

/// Groups items by resource (instances of `count`/`for_each` together), in the order each
/// resource first appears: (label, items). A resource with one instance keeps its address.
pub(crate) fn group_by_resource<'a, T>(
    items: impl IntoIterator<Item = (&'a str, T)>,
) -> Vec<(String, Vec<T>)> {
    let mut order: Vec<(&'a str, Vec<&'a str>, Vec<T>)> = Vec::new();
    let mut at: std::collections::HashMap<&'a str, usize> = std::collections::HashMap::new();
    for (address, item) in items {
        let (base, key) = split_index(address).unwrap_or((address, ""));
        match at.get(base) {
            Some(&i) => {
                order[i].1.push(key);
                order[i].2.push(item);
            }
            None => {
                at.insert(base, order.len());
                order.push((base, vec![key], vec![item]));
            }
        }
        // an address without an index stands alone even if an indexed one shares its base
        if key.is_empty() {
            at.remove(base);
        }
    }
    order
        .into_iter()
        .map(|(base, keys, items)| {
            let label = if keys.len() > 1 && keys.iter().all(|k| !k.is_empty()) {
                group_label(base, &keys)
            } else if keys[0].is_empty() {
                base.to_string()
            } else {
                format!("{base}[{}]", keys[0])
            };
            (label, items)
        })
        .collect()
}

/// Counts per resource type, largest first (ties by name): `aws_lambda_function ×2`.
pub(crate) fn type_counts<'a>(addresses: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for a in addresses {
        *counts.entry(type_of(a)).or_default() += 1;
    }
    let mut v: Vec<(&str, usize)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    v.into_iter().map(|(t, n)| format!("{t} ×{n}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `signed`, `short`, `band` and `trim_num` as they were written before they appended
    /// to one string: through `format!`, `Mass`'s display and `sig3`'s own strings.
    mod by_fmt {
        use crate::estimate::{Mass, sig3};

        pub fn signed(g: f64) -> String {
            format!("{}{}", super::sign(g), Mass(g))
        }

        pub fn short(g: f64) -> String {
            let (v, unit) = if g.abs() >= 1e6 {
                (g / 1e6, "t")
            } else if g.abs() >= 1e3 {
                (g / 1e3, "kg")
            } else {
                (g, "g")
            };
            format!("{} {unit}", sig3(v))
        }

        pub fn band(central: f64, low: f64, high: f64) -> Option<String> {
            if low == central && high == central {
                return None;
            }
            let k = super::unit_scale(central);
            let larger = if low.abs() > high.abs() { low } else { high };
            let (k, unit) = match super::unit_scale(larger) {
                end if end > k => (end, if end >= 1e6 { " t" } else { " kg" }),
                _ => (k, ""),
            };
            let sep = if low < 0.0 || high < 0.0 {
                " to "
            } else {
                "–"
            };
            Some(format!("[{}{sep}{}{unit}]", sig3(low / k), sig3(high / k)))
        }

        pub fn trim_num(v: f64) -> String {
            if v.fract() == 0.0 && v.abs() < 1e15 {
                format!("{}", v as i64)
            } else {
                let s = format!("{v:.2}");
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            }
        }
    }

    /// The figures appended to one string read as they did through `format!`: over masses of
    /// every unit and sign, bands about them (equal, narrow, crossing zero, reaching the next
    /// unit) and hardware counts whole and fractional.
    #[test]
    fn appended_figures_read_as_formatted_ones() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut values = vec![
            0.0, -0.0, 1.0, 0.5, 999.5, 1000.0, 999_999.0, 1e6, 3.75, 1e15,
        ];
        for _ in 0..30_000 {
            let r = next();
            let v = (r % 100_000) as f64 / 100.0 * 10f64.powi((r >> 40) as i32 % 10 - 3);
            values.extend([v, -v, v.round()]);
        }
        for (i, &g) in values.iter().enumerate() {
            assert_eq!(signed(g), by_fmt::signed(g), "{g:e}");
            assert_eq!(short(g), by_fmt::short(g), "{g:e}");
            assert_eq!(trim_num(g), by_fmt::trim_num(g), "{g:e}");
            let other = values[(i * 7 + 3) % values.len()];
            for (low, high) in [(g, g), (g * 0.8, g * 1.25), (other, g), (-g, g), (g, other)] {
                assert_eq!(
                    band(g, low, high),
                    by_fmt::band(g, low, high),
                    "{g:e} {low:e} {high:e}"
                );
            }
        }
    }

    #[test]
    fn wrap_cuts_at_spaces_within_the_width() {
        let l = "≈ +5.34 kgCO2eq/month [2.32–4.13] · 2 vCPU · 4 GiB · 8 GiB SSD · us-east-1";
        let w = wrap(l, 30, "  ");
        assert!(w.iter().all(|x| x.chars().count() <= 30), "{w:?}");
        assert_eq!(
            w.join(" ").split_whitespace().collect::<Vec<_>>(),
            l.split_whitespace().collect::<Vec<_>>()
        );
        assert!(w[1..].iter().all(|x| x.starts_with("  ")));
        assert_eq!(wrap("short", 30, "  "), vec!["short"]);
        let long = "x".repeat(50);
        assert!(
            wrap(&long, 20, "  ")
                .iter()
                .all(|x| x.chars().count() <= 20)
        );
    }

    #[test]
    fn indexes_split_off_with_quoted_brackets() {
        assert_eq!(split_index("a.b[3]"), Some(("a.b", "3")));
        assert_eq!(
            split_index(r#"module.m["x.y"].a.b["k]"]"#),
            Some((r#"module.m["x.y"].a.b"#, r#""k]""#))
        );
        assert_eq!(split_index("a.b"), None);
        assert_eq!(split_index("a.b (deposed object 1)"), None);
    }

    #[test]
    fn types_come_from_the_last_resource_step() {
        assert_eq!(type_of("aws_instance.web"), "aws_instance");
        assert_eq!(
            type_of(r#"module.a["x.y"].module.b.aws_instance.web[0]"#),
            "aws_instance"
        );
        assert_eq!(type_of("data.aws_ami.ubuntu"), "aws_ami");
        assert_eq!(
            type_of("aws_instance.x (deposed object 00ab)"),
            "aws_instance"
        );
    }

    #[test]
    fn instances_of_one_resource_group() {
        let g = group_by_resource([
            ("aws_instance.worker[1]", 1),
            ("aws_instance.web", 2),
            ("aws_instance.worker[0]", 3),
            ("aws_instance.worker[2]", 4),
            (r#"app["api"]"#, 5),
            (r#"app["web"]"#, 6),
            ("one[7]", 7),
            ("gap[0]", 8),
            ("gap[5]", 9),
        ]);
        let labels: Vec<(&str, &[i32])> = g.iter().map(|(l, v)| (l.as_str(), &v[..])).collect();
        assert_eq!(
            labels,
            [
                ("aws_instance.worker[0..2] ×3", &[1, 3, 4][..]),
                ("aws_instance.web", &[2][..]),
                (r#"app["api","web"] ×2"#, &[5, 6][..]),
                ("one[7]", &[7][..]),
                ("gap[0,5] ×2", &[8, 9][..]),
            ]
        );
        let many: Vec<String> = (0..5).map(|i| format!("m[\"k{i}\"]")).collect();
        let g = group_by_resource(many.iter().map(|a| (a.as_str(), ())));
        assert_eq!(g[0].0, "m[*] ×5");
    }

    #[test]
    fn types_are_counted() {
        assert_eq!(type_counts(["b.x", "a.y", "b.z[0]"]), ["b ×2", "a ×1"]);
    }

    #[test]
    fn short_masses_and_relative_changes() {
        assert_eq!(short(14.2), "14.2 g");
        assert_eq!(short(-1250.0), "-1.25 kg");
        assert_eq!(relative(5640.0, 57100.0).as_deref(), Some("+1012 %"));
        assert_eq!(relative(0.0, 5.0), None);
    }
}
