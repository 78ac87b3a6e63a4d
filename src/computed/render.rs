//! Human rendering of the computed tree: the options, the shared line pieces, and the dispatch on each node's renderer.

mod block;
mod collections;
mod primitive;

use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::OnceLock;

use block::render_block;
use collections::{render_list, render_map, render_object, render_set};
use primitive::render_primitive;

use super::{Action, Diff, Hidden, Keyed, Renderer};
use crate::theme::Theme;

/// Options passed down the tree while rendering.
#[derive(Debug, Clone, Copy)]
pub struct RenderOpts<'t> {
    pub theme: &'t Theme,
    /// Don't print `-> null` for deleted values.
    pub override_null_suffix: bool,
    /// Print `# forces replacement` even if the diff itself doesn't say so (does not cascade).
    pub override_forces_replacement: bool,
    /// Print unchanged children instead of `# (N unchanged … hidden)`.
    pub show_unchanged_children: bool,
    /// Don't print action symbols (state rendering, forget).
    pub hide_diff_action_symbols: bool,
    /// Print sensitive values (never set by the CLI).
    pub show_sensitive: bool,
    /// Terraform's rules where they differ from OpenTofu's (a string is JSON only when it
    /// holds nothing after the document).
    pub terraform: bool,
    /// With `terraform`: the rules of the version that wrote the document.
    pub since: crate::structured::Since,
    /// The fixed pieces of markup in `theme`, coloured once (`None`: a theme other than the
    /// two standard ones, coloured at each use).
    marks: Option<&'static Marks>,
}

/// The pieces of colour markup every line uses (action symbols, `-> null`, `# forces
/// replacement`, …), coloured once for each of the two standard themes instead of once per
/// line.
#[derive(Debug)]
struct Marks {
    /// `symbol(action)`, by `Action as usize`.
    symbols: [String; ACTIONS.len()],
    null_suffix: String,
    forces_replacement: String,
    arrow: String,
    null: String,
    /// What `[dark_gray]…[reset]` puts around a text without markup.
    dim: (String, String),
}

const ACTIONS: [Action; 10] = [
    Action::NoOp,
    Action::Create,
    Action::Read,
    Action::Update,
    Action::DeleteThenCreate,
    Action::CreateThenDelete,
    Action::Delete,
    Action::Forget,
    Action::ForgetThenCreate,
    Action::Unknown,
];

impl Marks {
    fn of(theme: &Theme) -> Marks {
        Marks {
            symbols: ACTIONS.map(|a| format!("{} ", theme.color(action_symbol(a)))),
            null_suffix: theme.color(" [dark_gray]-> null[reset]"),
            forces_replacement: theme.color(" [red]# forces replacement[reset]"),
            arrow: theme.color("[yellow]->[reset]"),
            null: theme.color("[dark_gray]null[reset]"),
            dim: {
                let around = theme.color("[dark_gray]\u{1}[reset]");
                let (open, close) = around.split_once('\u{1}').unwrap_or_default();
                (open.to_string(), close.to_string())
            },
        }
    }

    /// The marks of `theme` if it is [`Theme::colored`] or [`Theme::plain`] (its fields are
    /// public: another theme is coloured at each use).
    fn standard(theme: &Theme) -> Option<&'static Marks> {
        static COLORED: OnceLock<(Theme, Marks)> = OnceLock::new();
        static PLAIN: OnceLock<(Theme, Marks)> = OnceLock::new();
        let slot = if theme.enabled { &COLORED } else { &PLAIN };
        let (t, m) = slot.get_or_init(|| {
            let t = if theme.enabled {
                Theme::colored()
            } else {
                Theme::plain()
            };
            let m = Marks::of(&t);
            (t, m)
        });
        (t == theme).then_some(m)
    }
}

impl<'t> RenderOpts<'t> {
    pub fn new(theme: &'t Theme) -> Self {
        RenderOpts {
            theme,
            override_null_suffix: false,
            override_forces_replacement: false,
            show_unchanged_children: false,
            hide_diff_action_symbols: false,
            show_sensitive: false,
            terraform: false,
            since: crate::structured::Since::NEWEST,
            marks: Marks::standard(theme),
        }
    }

    /// A copy for children: `override_forces_replacement` never cascades.
    fn child(&self) -> Self {
        RenderOpts {
            override_forces_replacement: false,
            ..*self
        }
    }

    fn c(&self, markup: &str) -> String {
        self.theme.color(markup)
    }
}

/// The action symbol of an action, in colour markup.
pub fn action_symbol(action: Action) -> &'static str {
    match action {
        Action::DeleteThenCreate => "[red]-[reset]/[green]+[reset]",
        Action::CreateThenDelete => "[green]+[reset]/[red]-[reset]",
        Action::ForgetThenCreate => "  [red].[reset]/[green]+[reset]",
        Action::Create => "  [green]+[reset]",
        Action::Delete => "  [red]-[reset]",
        Action::Read => " [cyan]<=[reset]",
        Action::Update => "  [yellow]~[reset]",
        Action::NoOp => "   ",
        Action::Forget => "  [red].[reset]",
        Action::Unknown => "  ?",
    }
}

/// A fixed piece of markup, coloured: from the theme's [`Marks`], or now.
fn mark(
    opts: &RenderOpts,
    pick: impl FnOnce(&'static Marks) -> &'static str,
    markup: impl FnOnce() -> String,
) -> Cow<'static, str> {
    match opts.marks {
        Some(m) => Cow::Borrowed(pick(m)),
        None => Cow::Owned(markup()),
    }
}

fn symbol(action: Action, opts: &RenderOpts) -> Cow<'static, str> {
    if opts.hide_diff_action_symbols {
        return Cow::Borrowed("");
    }
    mark(
        opts,
        |m| &m.symbols[action as usize],
        || format!("{} ", opts.c(action_symbol(action))),
    )
}

/// The action symbol of `action` coloured, and a space (what a resource's header line starts
/// with), whatever `opts.hide_diff_action_symbols` says.
pub fn symbol_and_space(action: Action, opts: &RenderOpts) -> Cow<'static, str> {
    mark(
        opts,
        |m| &m.symbols[action as usize],
        || format!("{} ", opts.c(action_symbol(action))),
    )
}

fn null_suffix(action: Action, opts: &RenderOpts) -> Cow<'static, str> {
    if !opts.override_null_suffix && action == Action::Delete {
        mark(
            opts,
            |m| &m.null_suffix,
            || opts.c(" [dark_gray]-> null[reset]"),
        )
    } else {
        Cow::Borrowed("")
    }
}

fn forces_replacement(replace: bool, opts: &RenderOpts) -> Cow<'static, str> {
    if replace || opts.override_forces_replacement {
        mark(
            opts,
            |m| &m.forces_replacement,
            || opts.c(" [red]# forces replacement[reset]"),
        )
    } else {
        Cow::Borrowed("")
    }
}

/// `[yellow]->[reset]`, coloured.
fn arrow(opts: &RenderOpts) -> Cow<'static, str> {
    mark(opts, |m| &m.arrow, || opts.c("[yellow]->[reset]"))
}

/// `[dark_gray]null[reset]`, coloured.
fn null(opts: &RenderOpts) -> Cow<'static, str> {
    mark(opts, |m| &m.null, || opts.c("[dark_gray]null[reset]"))
}

fn indent(n: usize) -> Cow<'static, str> {
    indent_spaces(4 * n)
}

/// `n` spaces.
fn indent_spaces(n: usize) -> Cow<'static, str> {
    const SPACES: &str = "                                                                                                                                ";
    match SPACES.get(..n) {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(" ".repeat(n)),
    }
}

fn unchanged(keyword: &str, count: usize, opts: &RenderOpts) -> String {
    let s = if count == 1 { "" } else { "s" };
    opts.c(&format!(
        "[dark_gray]# ({count} unchanged {keyword}{s} hidden)[reset]"
    ))
}

/// A child's lines one level in: its sensitivity warnings, then `symbol` `name` value `suffix`
/// (`name` carries any padding and ` = `).
fn write_child(
    buf: &mut String,
    ind: usize,
    name: &str,
    child: &Diff,
    opts: &RenderOpts,
    suffix: &str,
) {
    let ind1 = indent(ind + 1);
    for w in child.warnings_human(ind + 1, opts) {
        buf.push_str(&ind1);
        buf.push_str(&w);
        buf.push('\n');
    }
    buf.push_str(&ind1);
    buf.push_str(&symbol(child.action, opts));
    buf.push_str(name);
    child.render_human_into(buf, ind + 1, opts);
    buf.push_str(suffix);
    buf.push('\n');
}

/// `key` padded with spaces to `width` characters, then ` = ` (what `format!("{key:<width$} =
/// ")` writes), into `name`.
fn padded_name(name: &mut String, key: &str, width: usize) {
    name.clear();
    name.push_str(key);
    pad_name(name, width);
}

/// The key already in `name` padded with spaces to `width` characters, then ` = `.
fn pad_name(name: &mut String, width: usize) {
    let chars = if name.is_ascii() {
        name.len()
    } else {
        name.chars().count()
    };
    name.push_str(&indent_spaces(width.saturating_sub(chars)));
    name.push_str(" = ");
}

/// The attribute lines of an object or a block, names padded to the longest: `id`, `name` and
/// `tags` always (with `important`), the others (with `rest`) unless unchanged and hidden by
/// `opts`. Returns how many were hidden.
fn write_attributes(
    buf: &mut String,
    ind: usize,
    attributes: &Keyed,
    counted: Hidden,
    important: &RenderOpts,
    rest: &RenderOpts,
    opts: &RenderOpts,
) -> usize {
    let escaped: Vec<(&str, Cow<str>, &Diff)> = attributes
        .iter()
        .map(|(k, v)| (k.as_str(), attribute_name(k), v))
        .collect();
    let max_len = escaped
        .iter()
        .map(|(_, k, _)| k.len())
        .max()
        .unwrap_or(0)
        .max(counted.width);
    let mut hidden = counted.count;
    let mut name = String::new();
    for (raw, key, attr) in &escaped {
        let important_one = always_shown(raw);
        if !important_one && attr.action == Action::NoOp && !opts.show_unchanged_children {
            hidden += 1;
            continue;
        }
        let o = if important_one { important } else { rest };
        padded_name(&mut name, key, max_len);
        write_child(buf, ind, &name, attr, o, "");
    }
    hidden
}

/// `# (N unchanged KEYWORDs hidden)` one level in, when N > 0.
fn write_unchanged(buf: &mut String, ind: usize, keyword: &str, count: usize, opts: &RenderOpts) {
    if count == 0 {
        return;
    }
    buf.push_str(&indent(ind + 1));
    buf.push_str(&symbol(Action::NoOp, opts));
    match opts.marks {
        // (the keywords hold no markup)
        Some(m) => {
            let s = if count == 1 { "" } else { "s" };
            let _ = writeln!(
                buf,
                "{}# ({count} unchanged {keyword}{s} hidden){}",
                m.dim.0, m.dim.1
            );
        }
        None => {
            let _ = writeln!(buf, "{}", unchanged(keyword, count, opts));
        }
    }
}

/// The closing bracket of a collection, with the `-> null` of a deleted one.
fn write_close(buf: &mut String, ind: usize, bracket: char, action: Action, opts: &RenderOpts) {
    let _ = write!(
        buf,
        "{}{}{bracket}{}",
        indent(ind),
        symbol(Action::NoOp, opts),
        null_suffix(action, opts)
    );
}

/// Go's `%q`: a double-quoted string with Go escapes.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    go_quote_into(&mut out, s);
    out
}

/// Printable ASCII other than `"` and `\\`: what [`go_quote`] copies as it is.
fn go_plain(b: u8) -> bool {
    (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\'
}

/// `go_quote(s).len()`, without building the quoted string when `s` needs no escapes.
fn go_quoted_len(s: &str) -> usize {
    if s.bytes().all(go_plain) {
        s.len() + 2
    } else {
        go_quote(s).len()
    }
}

/// [`go_quote`], appended to `out`.
fn go_quote_into(out: &mut String, s: &str) {
    out.push('"');
    // printable ASCII other than `"` and `\\` is copied as it is, a run at a time
    let plain = go_plain;
    let mut rest = s;
    loop {
        let run = rest.bytes().position(|b| !plain(b)).unwrap_or(rest.len());
        out.push_str(&rest[..run]);
        rest = &rest[run..];
        let Some(ch) = rest.chars().next() else {
            break;
        };
        rest = &rest[ch.len_utf8()..];
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if is_go_unprintable(c) => {
                if (c as u32) < 0x10000 {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                } else {
                    let _ = write!(out, "\\U{:08x}", c as u32);
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Go's `!strconv.IsPrint` (one predicate for every destination, [`crate::escape`]).
fn is_go_unprintable(c: char) -> bool {
    crate::escape::unprintable(c)
}

/// The attributes shown even when unchanged (OpenTofu's "important" attributes).
pub fn always_shown(key: &str) -> bool {
    matches!(key, "id" | "name" | "tags")
}

/// HCL identifiers are printed bare, anything else quoted.
pub fn ensure_valid_attribute_name(name: &str) -> String {
    attribute_name(name).into_owned()
}

/// [`ensure_valid_attribute_name`], borrowing a bare name.
pub fn attribute_name(name: &str) -> Cow<'_, str> {
    let mut chars = name.chars();
    let valid = match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' => {
            chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        }
        _ => false,
    };
    if valid {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(go_quote(name))
    }
}

impl Diff<'_> {
    /// Renders this diff at `indent` (in units of four spaces).
    pub fn render_human(&self, ind: usize, opts: &RenderOpts) -> String {
        let mut buf = String::new();
        self.render_human_into(&mut buf, ind, opts);
        buf
    }

    /// [`Diff::render_human`], appended to `buf`: collections and blocks write their lines
    /// straight into it, not into a String of their own copied into their parent's.
    pub fn render_human_into(&self, buf: &mut String, ind: usize, opts: &RenderOpts) {
        match &self.renderer {
            Renderer::Primitive { before, after, ty } => {
                render_primitive(buf, self, before, after, *ty, ind, opts)
            }
            Renderer::List {
                elements,
                display_context,
            } => render_list(buf, self, elements, *display_context, ind, opts),
            Renderer::Set { elements, nested } => {
                render_set(buf, self, elements, *nested, ind, opts)
            }
            Renderer::Map { elements, nested } => {
                render_map(buf, self, elements, *nested, ind, opts)
            }
            Renderer::Object { attributes, nested } => {
                render_object(buf, self, attributes, *nested, ind, opts)
            }
            Renderer::Block {
                attributes,
                blocks,
                hidden,
            } => render_block(buf, self, attributes, blocks, *hidden, ind, opts),
            // No internal marker reaches the user: the value is shown as the attribute it is.
            Renderer::Unexpected(inner) => inner.render_human_into(buf, ind, opts),
            _ => buf.push_str(&self.render_other(ind, opts)),
        }
    }

    /// The renderers that print a line or two of their own.
    fn render_other(&self, ind: usize, opts: &RenderOpts) -> String {
        match &self.renderer {
            Renderer::Primitive { .. }
            | Renderer::List { .. }
            | Renderer::Set { .. }
            | Renderer::Map { .. }
            | Renderer::Object { .. }
            | Renderer::Block { .. }
            | Renderer::Unexpected(_) => self.render_human(ind, opts),
            Renderer::Sensitive { inner, .. } => {
                if opts.show_sensitive {
                    return inner.render_human(ind, opts);
                }
                format!(
                    "(sensitive value){}{}",
                    null_suffix(self.action, opts),
                    forces_replacement(self.replace, opts)
                )
            }
            Renderer::SensitiveBlock { .. } => {
                let prefix = format!("{}{}", indent(ind), symbol(Action::NoOp, opts));
                format!(
                    "{{{}\n{prefix}  # At least one attribute in this block is (or was) sensitive,\n{prefix}  # so its contents will not be displayed.\n{prefix}}}",
                    forces_replacement(self.replace, opts)
                )
            }
            Renderer::Unknown { before } => {
                if self.action == Action::Create || before.is_none() {
                    return format!(
                        "(known after apply){}",
                        forces_replacement(self.replace, opts)
                    );
                }
                let mut o = *opts;
                o.override_null_suffix = true;
                let before = before.as_ref().expect("checked above");
                format!(
                    "{} -> (known after apply){}",
                    before.render_human(ind, &o),
                    forces_replacement(self.replace, opts)
                )
            }
            Renderer::TypeChange { before, after } => {
                let mut o = *opts;
                o.override_null_suffix = true;
                format!(
                    "{} {} {}",
                    before.render_human(ind, &o),
                    arrow(opts),
                    after.render_human(ind, &o)
                )
            }
            // Terraform prints the null suffix before the replace mark, OpenTofu after it.
            Renderer::WriteOnly { sensitive } if opts.terraform => format!(
                "({}write-only attribute){}{}",
                if *sensitive { "sensitive, " } else { "" },
                null_suffix(self.action, opts),
                forces_replacement(self.replace, opts)
            ),
            Renderer::WriteOnly { .. } => format!(
                "(write-only attribute){}{}",
                forces_replacement(self.replace, opts),
                null_suffix(self.action, opts)
            ),
        }
    }

    /// Warning lines printed above this diff (sensitivity changes).
    pub fn warnings_human(&self, ind: usize, opts: &RenderOpts) -> Vec<String> {
        let (inner, before, after, what) = match &self.renderer {
            Renderer::Sensitive {
                inner,
                before,
                after,
            } => (inner, *before, *after, "attribute value"),
            Renderer::SensitiveBlock {
                inner,
                before,
                after,
            } => (inner, *before, *after, "block"),
            _ => return Vec::new(),
        };
        if before == after || inner.action == Action::Create || inner.action == Action::Delete {
            return Vec::new();
        }
        let warning = if before {
            opts.c(&format!(
                "  # [yellow]Warning[reset]: this {what} will no longer be marked as sensitive\n{}  # after applying this change.",
                indent(ind)
            ))
        } else {
            opts.c(&format!(
                "  # [yellow]Warning[reset]: this {what} will be marked as sensitive and will not\n{}  # display in UI output after applying this change.",
                indent(ind)
            ))
        };
        if what == "attribute value" && inner.action == Action::NoOp {
            vec![format!("{warning} The value is unchanged.")]
        } else {
            vec![warning]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_length_is_the_quoted_strings() {
        for s in [
            "",
            "tag-1",
            "a b",
            "q\"uote",
            "back\\slash",
            "tab\t",
            "é",
            "\u{200b}",
        ] {
            assert_eq!(go_quoted_len(s), go_quote(s).len(), "{s:?}");
        }
    }
}
