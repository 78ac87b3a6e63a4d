//! Human rendering of a schema block: its attributes, then its nested blocks.

use std::fmt::Write as _;

use super::{
    RenderOpts, attribute_name, forces_replacement, go_quote, indent, symbol, write_attributes,
    write_child, write_unchanged,
};
use crate::computed::{Action, BlockEntry, BlockKind, Diff, Hidden, Keyed, Renderer};

pub(super) fn render_block(
    buf: &mut String,
    diff: &Diff,
    attributes: &Keyed,
    blocks: &std::collections::BTreeMap<String, BlockEntry>,
    hidden: Hidden,
    ind: usize,
    opts: &RenderOpts,
) {
    if attributes.is_empty() && blocks.is_empty() && hidden.count == 0 {
        let _ = write!(buf, "{{}}{}", forces_replacement(diff.replace, opts));
        return;
    }
    let mut iopts = opts.child();
    iopts.show_unchanged_children = true;
    let aopts = opts.child();
    let mut unchanged_blocks = 0;
    // a nested block's name and map key, written into one buffer
    let mut name = String::new();
    let _ = writeln!(buf, "{{{}", forces_replacement(diff.replace, opts));
    let unchanged_attrs = write_attributes(buf, ind, attributes, hidden, &iopts, &aopts, opts);
    write_unchanged(buf, ind, "attribute", unchanged_attrs, opts);

    for (key, entry) in blocks {
        let mut found_changed = false;
        // Terraform's line for a wholly unknown collection of blocks: the enclosing block's
        // action, no replace mark of its own.
        let unknown_line = entry
            .unknown
            .then(|| Diff::new(Renderer::Unknown { before: None }, diff.action, false));
        let mut render_one = |d: &Diff, map_key: &str, bopts: &RenderOpts, buf: &mut String| {
            let creating = d.action == Action::Create && entry.after_sensitive;
            let deleting = d.action == Action::Delete && entry.before_sensitive;
            let modifying = (d.action == Action::Update || d.action == Action::NoOp)
                && (entry.after_sensitive || entry.before_sensitive);
            let wrapped;
            let d = if creating || deleting || modifying {
                let mut action = d.action;
                if d.action == Action::NoOp && entry.before_sensitive != entry.after_sensitive {
                    action = Action::Update;
                }
                wrapped = Diff::new(
                    Renderer::SensitiveBlock {
                        inner: Box::new(d.clone()),
                        before: entry.before_sensitive,
                        after: entry.after_sensitive,
                    },
                    action,
                    d.replace,
                );
                &wrapped
            } else {
                d
            };
            if d.action == Action::NoOp && !bopts.show_unchanged_children {
                unchanged_blocks += 1;
                return;
            }
            if !found_changed && (!attributes.is_empty() || hidden.count > 0) {
                buf.push('\n');
                found_changed = true;
            }
            let mut o = bopts.child();
            o.override_forces_replacement = entry.replace;
            name.clear();
            name.push_str(&attribute_name(key));
            name.push_str(map_key);
            name.push(' ');
            write_child(buf, ind, &name, d, &o, "");
        };
        match &entry.kind {
            BlockKind::Single(d) => render_one(d, "", opts, buf),
            BlockKind::Map(m) => {
                if let Some(u) = &unknown_line {
                    render_one(u, "", opts, buf);
                }
                for (k, d) in m {
                    render_one(d, &format!(" {}", go_quote(k)), opts, buf);
                }
            }
            BlockKind::Set(v) => {
                let mut so = opts.child();
                so.override_forces_replacement = diff.replace;
                if let Some(u) = &unknown_line {
                    render_one(u, "", opts, buf);
                }
                for d in v {
                    render_one(d, "", &so, buf);
                }
            }
            BlockKind::List(v) => {
                if let Some(u) = &unknown_line {
                    render_one(u, "", opts, buf);
                }
                for d in v {
                    render_one(d, "", opts, buf);
                }
            }
        }
    }
    if unchanged_blocks > 0 {
        buf.push('\n');
        write_unchanged(buf, ind, "block", unchanged_blocks, opts);
    }
    let _ = write!(buf, "{}{}}}", indent(ind), symbol(Action::NoOp, opts));
}
