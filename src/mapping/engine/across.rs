//! Which shipped mappings may share one resource's figures with an equal resource of another
//! block, and what such resources must agree on beyond what the mapping reads of them.
//!
//! A mapping's figures are a function of what it reads: the members of the resource it says
//! it reads (`filters::values_read`), the resource's `after_unknown` marks, its provider's
//! region, and, through `cbf::ref`, its configuration block and module instance. Instances of
//! one block already share their figures when equal in all that (`engine::map`). Resources of
//! different blocks (`aws_instance.web` and `aws_instance.api`, equal in type, size and
//! region) differ in their `name` as well, which a mapping might read: only a mapping whose
//! texts plainly never read the resource's own name, nor its configuration but through
//! `cbf::ref`, shares across blocks. Only shipped mappings, unchanged, are read so: their texts
//! are known, and `tests/mapping/across.rs` renames every resource of every fixture plan and
//! finds their figures unchanged.

use super::Engine;
use super::filters::mapping_texts;
use crate::mapping::FastMap;
use crate::mapping::config::Config;
use crate::mapping::region;
use crate::mapping::source::{Slot, split_members};
use std::borrow::Cow;

/// What a mapping's resources must agree on, beyond their view, to share figures across
/// blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Across {
    /// Their provider's region.
    Region,
    /// Their region, module instance and configuration block but for its `address` and `name`
    /// (the mapping follows `cbf::ref`, which reads the block's `expressions`).
    Config,
}

impl Engine {
    /// The shipped mappings that share figures across blocks ([`across`] of each one's texts,
    /// among those that say what they read of `values` and read no address or index): worked
    /// out once, when a plan first maps resources (not at every start).
    pub(super) fn across(&self) -> &FastMap<String, Across> {
        self.across.get_or_init(|| {
            self.set
                .resources
                .values()
                .filter(|r| self.partial.contains_key(&r.name) && self.memo_ok.contains(&r.name))
                .filter_map(|r| Some((r.name.clone(), across(&mapping_texts(r))?)))
                .collect()
        })
    }
}

/// Texts that read the configuration or the document other than by `cbf::ref`: a mapping
/// naming one is not shared across blocks.
const ENVIRONMENT: [&str; 9] = [
    "cbf::config",
    "$__config",
    "config_resources",
    "referrers",
    "$__modprefix",
    "$__modconfig",
    "by_address",
    "ref_address",
    "input",
];

/// Builtins that can read every member of their input (the resource's `name` too, when the
/// input is the resource).
const WHOLE_INPUT: [&str; 16] = [
    "add",
    "map",
    "map_values",
    "contains",
    "inside",
    "any",
    "all",
    "unique",
    "unique_by",
    "sort",
    "sort_by",
    "group_by",
    "min_by",
    "max_by",
    "flatten",
    "tojson",
];

/// Whether the mapping whose variables' and properties' texts are `texts` may share figures
/// across blocks, and on what its resources must then agree.
pub(crate) fn across(texts: &[&str]) -> Option<Across> {
    let mut how = Across::Region;
    for t in texts {
        if ENVIRONMENT.iter().any(|e| t.contains(e)) || may_read_name(t) {
            return None;
        }
        if t.contains("cbf::ref(") {
            how = Across::Config;
        }
    }
    Some(how)
}

fn ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether bytes `at..end` of `t` are a word of their own (no identifier byte either side).
fn whole_word(t: &[u8], at: usize, end: usize) -> bool {
    let before = at.checked_sub(1).map(|i| t[i]);
    !before.is_some_and(ident) && !t.get(end).copied().is_some_and(ident)
}

/// The identifier that ends just before byte `end` of `t`, and the byte before it.
fn word_before(t: &[u8], end: usize) -> (&[u8], Option<u8>) {
    let mut s = end;
    while s > 0 && ident(t[s - 1]) {
        s -= 1;
    }
    (&t[s..end], s.checked_sub(1).map(|i| t[i]))
}

/// Whether a filter's text may read the `name` member of the resource it runs on
/// (conservatively: a `name` read from a member or an element of something, from a
/// `${placeholder}` or from a `$__ph_N` placeholder is not the resource's own, and past a plain
/// path the input is no longer the resource).
pub(crate) fn may_read_name(t: &str) -> bool {
    let b = t.as_bytes();
    // `this` (the resource, in a placeholder) read other than by a member
    for (at, _) in t.match_indices("this") {
        let end = at + "this".len();
        if whole_word(b, at, end)
            && !(b.get(end) == Some(&b'.') && b.get(end + 1).is_some_and(|c| ident(*c)))
        {
            return true;
        }
    }
    for (at, _) in t.match_indices("name") {
        let end = at + "name".len();
        if !whole_word(b, at, end) {
            continue;
        }
        match at.checked_sub(1).map(|j| b[j]) {
            // `$name`: a variable of the filter's own
            Some(b'$') => {}
            Some(b'.') if member_of_something(b, at - 1) => {
                // `this.name`: the resource's
                let (w, _) = word_before(b, at - 1);
                if w == b"this" {
                    return true;
                }
            }
            _ => return true,
        }
    }
    // the stages of the pipe that may run on the resource: up to the first plain path
    for stage in stages(t) {
        if reads_whole_input(stage) {
            return true;
        }
        if plain_path(stage) {
            break;
        }
    }
    false
}

/// Whether a stage that runs on the resource may read every member of it: a builtin that
/// does, `.[…]`, `."…"` or `..` of what may be the resource, or the resource bound to a
/// variable (`. as $r`).
fn reads_whole_input(stage: &str) -> bool {
    let b = stage.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !ident(b[i]) || (i > 0 && (ident(b[i - 1]) || matches!(b[i - 1], b'$' | b'.' | b':'))) {
            i += 1;
            continue;
        }
        let mut e = i;
        while e < b.len() && ident(b[e]) {
            e += 1;
        }
        let w = &stage[i..e];
        // (`.values.x as $n` binds what the path found)
        if WHOLE_INPUT.contains(&w) || (w == "as" && !plain_path(&stage[..i])) {
            return true;
        }
        i = e;
    }
    stage.match_indices('.').any(|(at, _)| {
        matches!(b.get(at + 1), Some(b'[' | b'"' | b'.')) && !member_of_something(b, at)
    })
}

/// The stages of a filter's top-level pipe (a `|` outside brackets and strings).
fn stages(t: &str) -> Vec<&str> {
    let b = t.as_bytes();
    let (mut depth, mut in_str, mut esc) = (0i32, false, false);
    let (mut out, mut from) = (Vec::new(), 0);
    for (i, &c) in b.iter().enumerate() {
        if in_str {
            match (esc, c) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'|' if depth == 0 && b.get(i + 1) != Some(&b'=') => {
                out.push(&t[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(&t[from..]);
    out
}

/// A path from the input or from a placeholder and nothing else (`.values.disks[]?`,
/// `${info}.Count`, `$__ph_0.VCPU`): what follows it runs on what it found, not on the
/// resource.
fn plain_path(stage: &str) -> bool {
    let s = stage.trim().as_bytes();
    let mut i = 0;
    let mut any = false;
    if s.starts_with(b"${") {
        let Some(close) = s.iter().position(|c| *c == b'}') else {
            return false;
        };
        if &s[2..close] == b"this" || !s[2..close].iter().all(|c| ident(*c) || *c == b'.') {
            return false;
        }
        (i, any) = (close + 1, true);
    } else if s.starts_with(b"$__ph_") {
        i = "$__ph_".len();
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
        any = i > "$__ph_".len();
    }
    while i < s.len() {
        match s[i] {
            b'.' if s
                .get(i + 1)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_') =>
            {
                i += 1;
                while i < s.len() && ident(s[i]) {
                    i += 1;
                }
                any = true;
            }
            b'?' => i += 1,
            b'[' => {
                let close = s[i..].iter().position(|c| *c == b']');
                match close {
                    Some(n) if s[i + 1..i + n].iter().all(u8::is_ascii_digit) => i += n + 1,
                    _ => return false,
                }
            }
            _ => return false,
        }
    }
    any
}

/// Whether the `.` at byte `dot` reads a member of something other than the filter's input:
/// of a member or an element (`.a.name`, `.a[0].name`, `.a?.name`), of a placeholder
/// (`${x}.name`, `$__ph_0.name`), but not of a variable of the filter's own (`$r.name`, where
/// `$r` may hold the resource) nor of `${this}`.
fn member_of_something(b: &[u8], dot: usize) -> bool {
    match dot.checked_sub(1).map(|j| b[j]) {
        Some(b']' | b'?') => true,
        Some(b'}') => {
            let t = &b[..dot - 1];
            let open = t.windows(2).rposition(|w| w == b"${");
            open.is_some_and(|o| &t[o + 2..] != b"this")
        }
        Some(c) if ident(c) => {
            let (w, before) = word_before(b, dot);
            match before {
                Some(b'$') => w.starts_with(b"__ph_"),
                _ => !w.is_empty() && !w[0].is_ascii_digit(),
            }
        }
        _ => false,
    }
}

/// What two resources mapped by an [`Across`] mapping must agree on beyond their views (which
/// hold their `provider_name`): the region their provider gives, which follows from their
/// configuration block's `provider_config_key` or else their module; for [`Across::Config`],
/// also their module instance and their configuration block but for its `address` and `name`.
pub(crate) fn surroundings<'a>(
    how: Across,
    slot: &Slot<'_>,
    configs: &Config<'a>,
) -> Surroundings<'a> {
    let addr = slot.address.as_ref();
    let (modpath, rel) = region::config_address(addr);
    let members = configs
        .block_raw(&modpath, &rel)
        .and_then(|b| split_members(b.get()))
        .unwrap_or_default();
    // (every one, as written: a repeated key is read as the last)
    let keep = |k: &str| match how {
        Across::Region => k == "provider_config_key",
        Across::Config => !matches!(k, "address" | "name"),
    };
    let config = members.into_iter().filter(|(k, _)| keep(k)).collect();
    let modprefix = match how {
        Across::Region => String::new(),
        Across::Config => super::index::module_prefix(addr),
    };
    Surroundings {
        modpath,
        modprefix,
        config,
    }
}

/// See [`surroundings`].
#[derive(PartialEq, Eq, Hash)]
pub(crate) struct Surroundings<'a> {
    modpath: String,
    modprefix: String,
    config: Vec<(Cow<'a, str>, &'a str)>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any text is read without a panic (the shipped texts alone are read, but a slice
        /// taken at a byte that is not a character's boundary would panic on any).
        #[test]
        fn any_text_is_read(t in "[.$a-z_{}()\\[\\]|\"?: é0-9]{0,40}") {
            let _ = may_read_name(&t);
            let _ = across(&[t.as_str()]);
        }
    }

    #[test]
    fn a_name_read_from_the_resource_is_seen() {
        for reads in [
            ".name",
            ".name | ascii_downcase",
            "select(.name == \"x\")",
            "(.name)",
            ".[\"name\"]",
            ".\"name\"",
            ". as $r | $r.name",
            "${this}.name",
            "\"${this.name}\"",
            "${this}",
            "{name}",
            "has(\"name\")",
            "[.[]]",
            "add",
            ". | tojson",
            "map(.)",
            "[..]",
            "[.values.x, .name]",
            ". as $r | [range(2)] | map($r) | .[]",
            "select(.values.x != null) | map_values(1)",
            "(.values.x | length) as $n | .[]",
        ] {
            assert!(may_read_name(reads), "{reads}");
        }
        for not in [
            ".values.name",
            ".values.launch_template[0]?.name | select(. != null) as $n | cbf::all_select(\"values.name\"; $n)",
            "${launch_template}.values.name",
            "${ami}.values.root_device_name",
            "$__ph_0.name",
            "$__ph_1.values.block_device_mappings[]? | select(.device_name == $__ph_1.values.root_device_name)",
            ".values.tags.Name",
            "$name | ascii_downcase",
            "if \"${this.type}\" == \"x\" then 1 else 2 end",
            "cbf::all_select(\"type\"; \"aws_ami\")",
            ".values.disks[0].name",
            ".values.x?.name",
            ".names",
            ".my_name",
            "${instance_info}.InstanceStorage | select((.Count // 0) > 0) | . as $s | [range(.Count)] | map($s) | .[]",
            ".values.x as $n | $n",
            ".values.disks[]? | map(.size) | add",
            "\"a|b\" | .values.x",
        ] {
            assert!(!may_read_name(not), "{not}");
        }
    }

    #[test]
    fn what_a_mapping_shares_across_blocks_by() {
        assert_eq!(
            across(&[".values.size", ".values.type"]),
            Some(Across::Region)
        );
        assert_eq!(
            across(&["cbf::ref(.expressions.launch_template[0].id)", ".values.x"]),
            Some(Across::Config)
        );
        for not in [
            "cbf::config | .expressions",
            "first(cbf::referrers(\"a\"))",
            "cbf::by_address(\"x\")",
            ".name",
            "cbf::config_resources",
        ] {
            assert_eq!(across(&[".values.size", not]), None, "{not}");
        }
    }
}
