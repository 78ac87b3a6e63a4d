//! The filters of a mapping set: what each one's text says about how it runs (natively, on the
//! document or the resource, with which globals) and what a mapping reads of a resource.

use super::super::fast;
use super::index;
use crate::mapping::model::{PropDef, ResourceMapping, Src};
use crate::mapping::placeholder::Placeholder;
use jaq_json::Val;

pub(super) struct FilterInfo {
    pub(super) placeholders: Vec<(Placeholder, usize)>,
    pub(super) on_root: bool,
    /// Plain paths run natively, without jaq.
    pub(super) fast: Option<fast::Fast>,
    /// Other filters the native evaluator knows (`mapping::native`), compiled once.
    pub(super) native: Option<crate::mapping::native::Native>,
    /// `<plain path> | rest`: the path runs natively; `rest` (filter id) runs in jaq only on
    /// values that need it (nulls give a cached or empty answer when `rest` allows it).
    pub(super) split: Option<Split>,
    /// `cbf::ref(<path>)`: nothing to do when the path is null on the configuration block.
    pub(super) ref_arg: Option<fast::Fast>,
    /// `cbf::referrers("T")` or `first(cbf::referrers("A"), cbf::referrers("B")…)`: answered
    /// natively from the configuration's reference index; (first only, types).
    pub(super) referrers: Option<(bool, Vec<String>)>,
    /// `cbf::all_select("P"; "\($__ph_N)")`, optionally `| select(.type == "T")`: answered
    /// from the side's all_select index without jaq when P is indexed.
    pub(super) indexed: Option<index::IndexedSelect>,
    /// The filter can read the whole document (or a module's configuration) by scanning it.
    pub(super) scans: bool,
    /// Names `$__root`/`cbf::root`, `$__all`, `$__idx`: they are bound only for such filters.
    pub(super) uses: Uses,
    /// Runs on the document but reads nothing of it: `cbf::all_select("P"; <string or
    /// variable>)`, piped on or not. Its input is null.
    pub(super) input_free: bool,
}

/// The whole-document globals a filter names.
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct Uses {
    pub(crate) root: bool,
    pub(crate) all: bool,
    pub(crate) idx: bool,
    /// `$__modconfig` (through `cbf::config_resources` or a `cbf::referrers` run by jaq).
    pub(crate) modconfig: bool,
}

impl Uses {
    pub(super) fn of(text: &str) -> Uses {
        Uses {
            root: text.contains("$__root") || text.contains("cbf::root"),
            all: text.contains("$__all"),
            idx: text.contains("$__idx"),
            modconfig: ["$__modconfig", "config_resources", "referrers"]
                .iter()
                .any(|p| text.contains(p)),
        }
    }
}

impl FilterInfo {
    /// Whether running this filter can read the document root (as its input or `cbf::root`).
    pub(super) fn reads_root(&self) -> bool {
        self.uses.root
            || (self.on_root
                && !self.input_free
                && self.indexed.is_none()
                && self.referrers.is_none())
    }
}

/// `cbf::all_select("P"; "…")` or `(…; $var)` at the start of a filter, followed by nothing
/// or a pipe: the filter reads nothing of its input. (Read by hand, as the regex
/// `^\s*cbf::all_select\(\s*"[^"\\]*"\s*;\s*(?:"(?:[^"\\]|\\\(\$NAME\))*"|\$NAME)\s*\)\s*(?:$|\|)`
/// would, without compiling one at every run: `tests::hand_readers_agree_with_their_regexes`.)
pub(super) fn input_free(text: &str) -> bool {
    fn read(text: &str) -> Option<()> {
        let s = text.trim_start().strip_prefix("cbf::all_select(")?;
        let s = s.trim_start().strip_prefix('"')?;
        let end = s.find(['"', '\\'])?;
        let s = s[end..].strip_prefix('"')?.trim_start();
        let s = s.strip_prefix(';')?.trim_start();
        let s = match s.strip_prefix('"') {
            // a string of plain characters and `\($name)`
            Some(mut r) => loop {
                match r.chars().next()? {
                    '"' => break &r[1..],
                    '\\' => {
                        let t = r.strip_prefix("\\($")?;
                        r = t[name_len(t)?..].strip_prefix(')')?;
                    }
                    c => r = &r[c.len_utf8()..],
                }
            },
            None => {
                let r = s.strip_prefix('$')?;
                &r[name_len(r)?..]
            }
        };
        let s = s.trim_start().strip_prefix(')')?.trim_start();
        (s.is_empty() || s.starts_with('|')).then_some(())
    }
    read(text).is_some()
}

/// The length of the variable name `[A-Za-z_][A-Za-z0-9_]*` `s` starts with.
fn name_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if !b
        .first()
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
    {
        return None;
    }
    Some(
        b.iter()
            .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
            .unwrap_or(b.len()),
    )
}

pub(super) struct Split {
    pub(super) prefix: fast::Fast,
    pub(super) rest: usize,
    pub(super) null_rule: NullRule,
    /// A `rest` that runs natively.
    pub(super) pred: Option<fast::Pred>,
}

pub(super) enum NullRule {
    /// `rest` on null must run in jaq.
    Run,
    /// `rest` on null gives nothing.
    Empty,
    /// `rest` depends on its input only: its answer on null is computed once.
    Cached(std::sync::OnceLock<Vec<Val>>),
}

/// Every filter text of a resource mapping: its variables' and its properties'.
pub(super) fn mapping_texts(r: &ResourceMapping) -> Vec<&str> {
    let mut texts = Vec::new();
    collect_texts(&r.variables, &mut texts);
    collect_texts(&r.properties, &mut texts);
    texts
}

pub(super) fn collect_texts<'a>(props: &'a [(String, Vec<PropDef>)], out: &mut Vec<&'a str>) {
    fn srcs<'a>(v: &'a [Src], out: &mut Vec<&'a str>) {
        out.extend(v.iter().map(|s| s.text.as_str()));
    }
    for (_, defs) in props {
        for d in defs {
            srcs(&d.paths, out);
            out.extend(
                d.property
                    .iter()
                    .chain(&d.validator)
                    .chain(&d.default_filter)
                    .map(|s| s.text.as_str()),
            );
            if let Some(r) = &d.reference {
                srcs(&r.paths, out);
                out.extend(r.property.iter().map(|s| s.text.as_str()));
            }
            for it in &d.items {
                srcs(&it.paths, out);
                collect_texts(&it.properties, out);
            }
        }
    }
}

/// `cbf::referrers("T")`, or `first(…)` of several: (first only, the types).
pub(super) fn referrers_shape(text: &str) -> Option<(bool, Vec<String>)> {
    let t = text.trim();
    let (first, inner) = match t.strip_prefix("first(").and_then(|x| x.strip_suffix(')')) {
        Some(i) => (true, i),
        None => (false, t),
    };
    let mut types = Vec::new();
    for part in inner.split(',') {
        let ty = part
            .trim()
            .strip_prefix("cbf::referrers(\"")?
            .strip_suffix("\")")?;
        if ty.is_empty() || !ty.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            return None;
        }
        types.push(ty.to_string());
    }
    (first || types.len() == 1).then_some((first, types))
}

/// An entry path that is only `cbf::all_select("type"; "T")`: the engine answers it from its own
/// type index, without jq. `Some(T)`. (Read by hand, as the regex
/// `^\s*cbf::all_select\(\s*"type"\s*;\s*"([^"]+)"\s*\)\s*$` would.)
pub(super) fn type_select(text: &str) -> Option<&str> {
    let s = text.trim_start().strip_prefix("cbf::all_select(")?;
    let s = s.trim_start().strip_prefix("\"type\"")?.trim_start();
    let s = s.strip_prefix(';')?.trim_start().strip_prefix('"')?;
    let end = s.find('"').filter(|&e| e > 0)?;
    let rest = s[end + 1..].trim_start().strip_prefix(')')?;
    rest.trim_start().is_empty().then_some(&s[..end])
}

/// The properties `t` asks `all_select` about: what `all_select\(\s*"([^"]+)"` captures, one
/// match after the other (read by hand: no regex compiled at every run).
pub(super) fn all_select_props(t: &str) -> impl Iterator<Item = &str> {
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(i) = t[from..].find("all_select(") {
            let at = from + i;
            let s = t[at + "all_select(".len()..].trim_start();
            if let Some(r) = s.strip_prefix('"')
                && let Some(e) = r.find('"').filter(|&e| e > 0)
            {
                let start = t.len() - r.len();
                from = start + e + 1;
                return Some(&t[start..start + e]);
            }
            from = at + 1;
        }
        None
    })
}

/// How many times the regex `all_select\(\s*"[^"]+"\s*;` matches in `t`, one after the other
/// (read by hand).
fn literal_selects(t: &str) -> usize {
    let (mut n, mut from) = (0, 0);
    while let Some(i) = t[from..].find("all_select(") {
        let at = from + i;
        let s = t[at + "all_select(".len()..].trim_start();
        let end = s
            .strip_prefix('"')
            .and_then(|r| Some((r, r.find('"').filter(|&e| e > 0)?)))
            .and_then(|(r, e)| r[e + 1..].trim_start().strip_prefix(';'));
        match end {
            Some(rest) => {
                n += 1;
                from = t.len() - rest.len();
            }
            None => from = at + 1,
        }
    }
    n
}

/// Whether a filter run by jaq can scan the document: it reads every resource (`$__all`, a
/// non-indexed `all_select`, `by_address`), the root, or a module's configuration resources.
pub fn may_scan(text: &str) -> bool {
    let t = text.trim_start();
    [
        "$__all",
        "$__root",
        "$__modconfig",
        "cbf::root",
        "cbf::by_address",
        "cbf::ref(",
        "cbf::referrers",
        "cbf::config_resources",
    ]
    .iter()
    .any(|p| t.contains(p))
        || t.matches("all_select(").count() > literal_selects(t)
        || ([
            ".configuration",
            ".prior_state",
            ".planned_values",
            ".resource_changes",
        ]
        .iter()
        .any(|p| t.starts_with(p))
            && (t.contains("[]") || t.contains("..")))
}

/// The members of a resource's `values` that a mapping reads, when its filters say so plainly:
/// every `values` in them is `.values.<name>` (of this resource or another: `$__ph_0.values.x`,
/// `${this.values.x}`) or a string naming a property path (`"values.image_id"`), and none
/// reads a value whole (`..`, `tojson`, `paths`, `keys`…, the document). `None`: the resource
/// is built whole.
#[cfg(test)]
pub(super) fn values_read(texts: &[&str]) -> Option<Vec<String>> {
    ValuesRead::default().of(texts)
}

/// [`values_read`] of texts, each text read once however many mappings and properties share
/// it (a mapping's variables are read with each of its properties).
#[derive(Default)]
pub(super) struct ValuesRead<'a>(crate::mapping::FastMap<&'a str, Option<Vec<String>>>);

impl<'a> ValuesRead<'a> {
    /// What `texts` read of `values` together: the members each reads, in order, or `None`
    /// when one reads it whole.
    pub(super) fn of(&mut self, texts: &[&'a str]) -> Option<Vec<String>> {
        let mut names: Vec<String> = Vec::new();
        for t in texts {
            let one = self.0.entry(t).or_insert_with(|| read_of_one(t));
            for n in one.as_ref()? {
                if !names.contains(n) {
                    names.push(n.clone());
                }
            }
        }
        Some(names)
    }
}

/// What one text reads of `values` (see [`values_read`]).
fn read_of_one(t: &str) -> Option<Vec<String>> {
    const WHOLE: [&str; 14] = [
        "..",
        "tojson",
        "tostring",
        "tostream",
        "paths",
        "getpath",
        "keys",
        "to_entries",
        "with_entries",
        "walk",
        "@",
        "$__",
        "cbf::root",
        "input",
    ];
    let mut names: Vec<String> = Vec::new();
    // `$__ph_N` placeholders are how `${…}` reach a filter: allowed
    let plain = match t.contains("$__ph_") {
        true => std::borrow::Cow::Owned(t.replace("$__ph_", "")),
        false => std::borrow::Cow::Borrowed(t),
    };
    if WHOLE.iter().any(|w| plain.contains(w)) {
        return None;
    }
    let b = t.as_bytes();
    let mut from = 0;
    while let Some(i) = t[from..].find("values") {
        let at = from + i;
        from = at + "values".len();
        let before = at.checked_sub(1).map(|j| b[j]);
        let after = &t[from..];
        match before {
            // a property path in a string: `cbf::all_select("values.id"; …)`
            Some(b'"') if after.starts_with('.') => continue,
            Some(b'.') => {
                let name: String = after
                    .strip_prefix('.')?
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
                    return None;
                }
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            // `values` as a word of its own (a variable, a key): read whole
            _ => {
                let word =
                    |c: Option<u8>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_');
                if !word(before) && !word(after.bytes().next()) {
                    return None;
                }
            }
        }
    }
    Some(names)
}

#[cfg(test)]
mod tests {
    use super::{input_free, type_select, values_read};
    use regex::Regex;

    /// `input_free` and `type_select` read what their regexes match, on every line of the
    /// shipped mappings, each from every character on, and on the shapes near theirs.
    #[test]
    fn hand_readers_agree_with_their_regexes() {
        let free = Regex::new(
            r#"^\s*cbf::all_select\(\s*"[^"\\]*"\s*;\s*(?:"(?:[^"\\]|\\\(\$[A-Za-z_][A-Za-z0-9_]*\))*"|\$[A-Za-z_][A-Za-z0-9_]*)\s*\)\s*(?:$|\|)"#,
        )
        .unwrap();
        let ty = Regex::new(r#"^\s*cbf::all_select\(\s*"type"\s*;\s*"([^"]+)"\s*\)\s*$"#).unwrap();
        let mut texts: Vec<String> = [
            r#"cbf::all_select("type"; "aws_ami")"#,
            r#" cbf::all_select( "type" ;"a b\n" ) "#,
            r#"cbf::all_select("type"; "")"#,
            r#"cbf::all_select("type"; "a") | .x"#,
            r#"cbf::all_select("type"; "a"))"#,
            r#"cbf::all_select("values.id"; "\($__ph_0)") | select(.type == "x")"#,
            r#"cbf::all_select("values.id"; "x\($__ph_0)y\($v)")"#,
            r#"cbf::all_select("values.id"; "\($__ph_0")"#,
            r#"cbf::all_select("values.id"; "\(.a)")"#,
            r#"cbf::all_select("values.id"; "\n")"#,
            r#"cbf::all_select("values.id"; $__ph_1)|.a"#,
            r#"cbf::all_select("values.id"; $1)"#,
            r#"cbf::all_select("va\"l"; $x)"#,
            r#"cbf::all_select("values.id"; $x) .a"#,
            "cbf::all_select(\u{a0}\"type\";\u{2003}\"é\")\u{3000}",
            r#"cbf::all_select("values.id"; "é\($x)")"#,
        ]
        .iter()
        .map(|t| t.to_string())
        .collect();
        for (_, _, text) in crate::mapping::BUILTIN {
            for line in text.lines() {
                for (i, _) in line.char_indices() {
                    texts.push(line[i..].replace("''", "'"));
                }
            }
        }
        for t in &texts {
            assert_eq!(input_free(t), free.is_match(t), "{t:?}");
            assert_eq!(
                type_select(t),
                ty.captures(t).map(|c| c.get(1).unwrap().as_str()),
                "{t:?}"
            );
        }
        let props = Regex::new(r#"all_select\(\s*"([^"]+)""#).unwrap();
        let literal = Regex::new(r#"all_select\(\s*"[^"]+"\s*;"#).unwrap();
        texts.extend(
            [
                r#"all_select("a"; all_select( "b" ;x) all_select("";all_select("c"x"#,
                r#"all_select("all_select(\"x\"; y" z; all_select("q"  ;"#,
                r#"all_select(all_select("x"; 1)"#,
                "all_select(\u{2003}\"é\"\n;",
            ]
            .map(String::from),
        );
        for t in &texts {
            let by_hand: Vec<&str> = super::all_select_props(t).collect();
            let by_regex: Vec<&str> = props
                .captures_iter(t)
                .map(|c| c.get(1).unwrap().as_str())
                .collect();
            assert_eq!(by_hand, by_regex, "{t:?}");
            assert_eq!(
                super::literal_selects(t),
                literal.find_iter(t).count(),
                "{t:?}"
            );
        }
        assert!(texts.iter().filter(|t| input_free(t)).count() > 3);
        assert!(texts.iter().filter(|t| type_select(t).is_some()).count() > 50);
    }

    #[test]
    fn what_a_mapping_reads_of_values() {
        let v = |t: &[&str]| values_read(t);
        assert_eq!(
            v(&[
                ".values.instance_type",
                "${this.values.ami}",
                ".values.root_block_device[0]?.volume_size"
            ]),
            Some(vec![
                "instance_type".into(),
                "ami".into(),
                "root_block_device".into()
            ])
        );
        assert_eq!(
            v(&[
                r#"cbf::all_select("values.image_id"; "\($__ph_0)") | .values.block_device_mappings"#
            ]),
            Some(vec!["block_device_mappings".into()])
        );
        assert_eq!(
            v(&["$__ph_1.values.machine_type"]),
            Some(vec!["machine_type".into()])
        );
        for whole in [
            ".values",
            ".values | keys",
            ".values[\"x\"]",
            ". as $r | $r.values | length",
            ".values.tags | tojson",
            "[.. | .size?]",
            "$__root.planned_values",
            ".values | to_entries",
            "values",
        ] {
            assert_eq!(v(&[whole]), None, "{whole}");
        }
        // a word that only contains `values`
        assert_eq!(v(&[".my_values_x"]), Some(vec![]));
    }
}
