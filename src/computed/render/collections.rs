//! Human rendering of collections: lists, sets, maps and objects.

use std::fmt::Write as _;

use super::{
    RenderOpts, forces_replacement, go_quote_into, go_quoted_len, null_suffix, pad_name,
    write_attributes, write_child, write_close, write_unchanged,
};
use crate::computed::{Action, Diff, Hidden, Keyed, Renderer};

pub(super) fn render_list(
    buf: &mut String,
    diff: &Diff,
    elements: &[Diff],
    display_context: bool,
    ind: usize,
    opts: &RenderOpts,
) {
    if elements.is_empty() {
        let _ = write!(
            buf,
            "[]{}{}",
            null_suffix(diff.action, opts),
            forces_replacement(diff.replace, opts)
        );
        return;
    }
    let mut element_opts = opts.child();
    element_opts.override_null_suffix = true;
    let mut unchanged_opts = opts.child();
    unchanged_opts.show_unchanged_children = true;

    let mut unchanged_elements: Vec<&Diff> = Vec::new();
    let mut render_next = false;
    let _ = writeln!(buf, "[{}", forces_replacement(diff.replace, opts));
    for element in elements {
        if element.action == Action::NoOp && !render_next && !opts.show_unchanged_children {
            unchanged_elements.push(element);
            continue;
        }
        render_next = false;
        let mut eopts = element_opts;
        if display_context {
            let hidden = unchanged_elements.len().saturating_sub(1);
            write_unchanged(buf, ind, "element", hidden, &eopts);
            if let Some(last) = unchanged_elements.last() {
                write_child(buf, ind, "", last, &unchanged_opts, ",");
            }
            unchanged_elements.clear();
            if element.action == Action::NoOp {
                eopts = unchanged_opts;
            } else {
                render_next = true;
            }
        }
        write_child(buf, ind, "", element, &eopts, ",");
    }
    write_unchanged(buf, ind, "element", unchanged_elements.len(), opts);
    write_close(buf, ind, ']', diff.action, opts);
}

pub(super) fn render_set(
    buf: &mut String,
    diff: &Diff,
    elements: &[Diff],
    nested: bool,
    ind: usize,
    opts: &RenderOpts,
) {
    let in_self = diff.replace && !nested;
    let in_children = diff.replace && nested;
    if elements.is_empty() {
        let _ = write!(
            buf,
            "[]{}{}",
            null_suffix(diff.action, opts),
            forces_replacement(in_self, opts)
        );
        return;
    }
    let mut eopts = opts.child();
    eopts.override_null_suffix = true;
    eopts.override_forces_replacement = in_children;
    let mut unchanged_count = 0;
    let _ = writeln!(buf, "[{}", forces_replacement(in_self, opts));
    for element in elements {
        if element.action == Action::NoOp && !opts.show_unchanged_children {
            unchanged_count += 1;
            continue;
        }
        write_child(buf, ind, "", element, &eopts, ",");
    }
    write_unchanged(buf, ind, "element", unchanged_count, opts);
    write_close(buf, ind, ']', diff.action, opts);
}

pub(super) fn render_map(
    buf: &mut String,
    diff: &Diff,
    elements: &Keyed,
    nested: bool,
    ind: usize,
    opts: &RenderOpts,
) {
    let self_replace = diff.replace && !nested;
    let children_replace = diff.replace && nested;
    if elements.is_empty() {
        let _ = write!(
            buf,
            "{{}}{}{}",
            null_suffix(diff.action, opts),
            forces_replacement(self_replace, opts)
        );
        return;
    }
    // each key is quoted where it is written, not kept quoted: a wide map would hold a
    // quoted copy of every key
    let max_len = elements.keys().map(|k| go_quoted_len(k)).max().unwrap_or(0);
    let mut eopts = opts.child();
    eopts.override_null_suffix = diff.action == Action::Delete || nested;
    eopts.override_forces_replacement = children_replace;
    let mut unchanged_count = 0;
    let _ = writeln!(buf, "{{{}", forces_replacement(self_replace, opts));
    let mut name = String::new();
    for (raw, element) in elements {
        if element.action == Action::NoOp && !opts.show_unchanged_children {
            unchanged_count += 1;
            continue;
        }
        let comma = if matches!(element.renderer, Renderer::Object { .. }) {
            ","
        } else {
            ""
        };
        let width = if nested { 0 } else { max_len };
        name.clear();
        go_quote_into(&mut name, raw);
        pad_name(&mut name, width);
        write_child(buf, ind, &name, element, &eopts, comma);
    }
    write_unchanged(buf, ind, "element", unchanged_count, opts);
    write_close(buf, ind, '}', diff.action, opts);
}

pub(super) fn render_object(
    buf: &mut String,
    diff: &Diff,
    attributes: &Keyed,
    nested: bool,
    ind: usize,
    opts: &RenderOpts,
) {
    if attributes.is_empty() {
        let _ = write!(
            buf,
            "{{}}{}{}",
            null_suffix(diff.action, opts),
            forces_replacement(diff.replace, opts)
        );
        return;
    }
    let mut aopts = opts.child();
    aopts.override_null_suffix = !nested;
    let mut iopts = aopts.child();
    iopts.show_unchanged_children = true;
    let _ = writeln!(buf, "{{{}", forces_replacement(diff.replace, opts));
    let unchanged_count = write_attributes(
        buf,
        ind,
        attributes,
        Hidden::default(),
        &iopts,
        &aopts,
        opts,
    );
    write_unchanged(buf, ind, "attribute", unchanged_count, opts);
    write_close(buf, ind, '}', diff.action, opts);
}
