//! Human rendering of the computed tree.

use std::fmt::Write as _;

use super::{Action, BlockEntry, BlockKind, Diff, PrimType, Renderer, json};
use crate::plan::Value;
use crate::structured;
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

const IMPORTANT_ATTRIBUTES: [&str; 3] = ["id", "name", "tags"];

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

fn symbol(action: Action, opts: &RenderOpts) -> String {
    if opts.hide_diff_action_symbols {
        return String::new();
    }
    format!("{} ", opts.c(action_symbol(action)))
}

fn null_suffix(action: Action, opts: &RenderOpts) -> String {
    if !opts.override_null_suffix && action == Action::Delete {
        opts.c(" [dark_gray]-> null[reset]")
    } else {
        String::new()
    }
}

fn forces_replacement(replace: bool, opts: &RenderOpts) -> String {
    if replace || opts.override_forces_replacement {
        opts.c(" [red]# forces replacement[reset]")
    } else {
        String::new()
    }
}

fn indent(n: usize) -> String {
    "    ".repeat(n)
}

fn unchanged(keyword: &str, count: usize, opts: &RenderOpts) -> String {
    let s = if count == 1 { "" } else { "s" };
    opts.c(&format!(
        "[dark_gray]# ({count} unchanged {keyword}{s} hidden)[reset]"
    ))
}

/// Go's `%q`: a double-quoted string with Go escapes.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
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
    out
}

fn is_go_unprintable(c: char) -> bool {
    c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(c as u32, 0xad | 0x200b..=0x200f | 0x2028..=0x202e | 0x2060..=0x2064 | 0xfeff)
}

/// HCL identifiers are printed bare, anything else quoted.
pub fn ensure_valid_attribute_name(name: &str) -> String {
    let mut chars = name.chars();
    let valid = match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' => {
            chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        }
        _ => false,
    };
    if valid {
        name.to_string()
    } else {
        go_quote(name)
    }
}

impl Diff<'_> {
    /// Renders this diff at `indent` (in units of four spaces).
    pub fn render_human(&self, ind: usize, opts: &RenderOpts) -> String {
        match &self.renderer {
            Renderer::Primitive { before, after, ty } => {
                render_primitive(self, before, after, *ty, ind, opts)
            }
            Renderer::List {
                elements,
                display_context,
            } => render_list(self, elements, *display_context, ind, opts),
            Renderer::Set { elements, nested } => render_set(self, elements, *nested, ind, opts),
            Renderer::Map { elements, nested } => render_map(self, elements, *nested, ind, opts),
            Renderer::Object { attributes, nested } => {
                render_object(self, attributes, *nested, ind, opts)
            }
            Renderer::Block { attributes, blocks } => {
                render_block(self, attributes, blocks, ind, opts)
            }
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
                    opts.c("[yellow]->[reset]"),
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
            // No internal marker reaches the user: the value is shown as the attribute it is.
            Renderer::Unexpected(inner) => inner.render_human(ind, opts),
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

fn render_primitive_value(v: &Value, opts: &RenderOpts) -> String {
    match v {
        Value::Null => opts.c("[dark_gray]null[reset]"),
        Value::Bool(true) => "true".into(),
        Value::Bool(false) => "false".into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => go_quote(s),
        other => other.to_string(),
    }
}

fn render_primitive(
    diff: &Diff,
    before: &Value,
    after: &Value,
    ty: PrimType,
    ind: usize,
    opts: &RenderOpts,
) -> String {
    if ty == PrimType::String {
        return render_string(diff, before, after, ind, opts);
    }
    let b = render_primitive_value(before, opts);
    let a = render_primitive_value(after, opts);
    let fr = forces_replacement(diff.replace, opts);
    match diff.action {
        Action::Create => format!("{a}{fr}"),
        Action::Delete => format!("{b}{}{fr}", null_suffix(diff.action, opts)),
        Action::NoOp => format!("{b}{fr}"),
        _ => format!("{b} {} {a}{fr}", opts.c("[yellow]->[reset]")),
    }
}

/// A string value, classified as OpenTofu does.
struct EvaluatedString<'s> {
    text: std::borrow::Cow<'s, str>,
    json: Option<Value<'s>>,
    multiline: bool,
    null: bool,
}

fn evaluate_string<'s>(v: &'s Value, opts: &RenderOpts) -> EvaluatedString<'s> {
    let s = match v {
        Value::String(s) => s.as_ref(),
        Value::Null => {
            return EvaluatedString {
                text: opts.c("[dark_gray]null[reset]").into(),
                json: None,
                multiline: false,
                null: true,
            };
        }
        other => {
            return EvaluatedString {
                text: other.to_string().into(),
                json: None,
                multiline: false,
                null: false,
            };
        }
    };
    if (s.starts_with('{') || s.starts_with('['))
        && let Some(json) = json::parse_json_string(s, opts.terraform)
    {
        return EvaluatedString {
            text: s.into(),
            json: Some(json),
            multiline: false,
            null: false,
        };
    }
    if s.contains('\n') {
        return EvaluatedString {
            text: s.trim().into(),
            json: None,
            multiline: true,
            null: false,
        };
    }
    EvaluatedString {
        text: s.into(),
        json: None,
        multiline: false,
        null: false,
    }
}

impl EvaluatedString<'_> {
    fn simple(&self) -> String {
        if self.null {
            self.text.to_string()
        } else {
            go_quote(&self.text)
        }
    }
}

fn render_string(
    diff: &Diff,
    before: &Value,
    after: &Value,
    ind: usize,
    opts: &RenderOpts,
) -> String {
    let fr = forces_replacement(diff.replace, opts);
    let mut lines: Vec<String> = Vec::new();
    let noop_prefix = format!("{}{}", indent(ind + 1), symbol(Action::NoOp, opts));
    match diff.action {
        Action::Create | Action::NoOp => {
            let s = evaluate_string(after, opts);
            if let Some(json) = &s.json {
                return if diff.action == Action::NoOp {
                    render_string_as_json(diff, ind, opts, Some(json), Some(json))
                } else {
                    render_string_as_json(diff, ind, opts, None, Some(json))
                };
            }
            if !s.multiline {
                return format!("{}{fr}", s.simple());
            }
            lines.extend(s.text.split('\n').map(|l| format!("{noop_prefix}{l}")));
        }
        Action::Delete => {
            let s = evaluate_string(before, opts);
            if s.null {
                return format!("{}{fr}", s.simple());
            }
            if let Some(json) = &s.json {
                return render_string_as_json(diff, ind, opts, Some(json), None);
            }
            if !s.multiline {
                return format!("{}{}{fr}", s.simple(), null_suffix(diff.action, opts));
            }
            lines.extend(s.text.split('\n').map(|l| format!("{noop_prefix}{l}")));
        }
        _ => {
            let b = evaluate_string(before, opts);
            let a = evaluate_string(after, opts);
            if b.json.is_some() && a.json.is_some() {
                return render_string_as_json(diff, ind, opts, b.json.as_ref(), a.json.as_ref());
            }
            if b.json.is_some() || a.json.is_some() {
                let d = Diff::new(
                    Renderer::TypeChange {
                        before: Box::new(Diff::new(
                            Renderer::Primitive {
                                before: before.clone(),
                                after: Value::Null,
                                ty: PrimType::String,
                            },
                            Action::Delete,
                            false,
                        )),
                        after: Box::new(Diff::new(
                            Renderer::Primitive {
                                before: Value::Null,
                                after: after.clone(),
                                ty: PrimType::String,
                            },
                            Action::Create,
                            false,
                        )),
                    },
                    diff.action,
                    diff.replace,
                );
                return d.render_human(ind, opts);
            }
            if !b.multiline && !a.multiline {
                return format!(
                    "{} {} {}{fr}",
                    b.simple(),
                    opts.c("[yellow]->[reset]"),
                    a.simple()
                );
            }
            let bl: Vec<&str> = b.text.split('\n').collect();
            let al: Vec<&str> = a.text.split('\n').collect();
            let process = |bi: usize, ai: usize| {
                if bi >= bl.len() {
                    lines.push(format!(
                        "{}{}{}",
                        indent(ind + 1),
                        symbol(Action::Create, opts),
                        al[ai]
                    ));
                } else if ai >= al.len() {
                    lines.push(format!(
                        "{}{}{}",
                        indent(ind + 1),
                        symbol(Action::Delete, opts),
                        bl[bi]
                    ));
                } else if bl[bi] != al[ai] {
                    // Terraform pairs the lines of equal-length texts: old, then new.
                    for (action, line) in [(Action::Delete, bl[bi]), (Action::Create, al[ai])] {
                        lines.push(format!("{}{}{line}", indent(ind + 1), symbol(action, opts)));
                    }
                } else {
                    lines.push(format!("{noop_prefix}{}", bl[bi]));
                }
            };
            if opts.terraform {
                structured::process_slice_terraform(&bl, &al, process, |_| false);
            } else {
                structured::process_slice(&bl, &al, process, |_, _| false);
            }
        }
    }
    format!(
        "<<-EOT{fr}\n{}\n{}{}EOT{}",
        lines.join("\n"),
        indent(ind),
        symbol(Action::NoOp, opts),
        null_suffix(diff.action, opts)
    )
}

fn render_string_as_json(
    diff: &Diff,
    ind: usize,
    opts: &RenderOpts,
    before: Option<&Value>,
    after: Option<&Value>,
) -> String {
    let json_diff = json::json_transform_values(
        before,
        after,
        diff.action != Action::Create,
        diff.action != Action::Delete,
        structured::Rules {
            terraform: opts.terraform,
            non_legacy: true,
        },
    );
    let mut action = diff.action;
    let mut json_opts = opts.child();
    json_opts.override_null_suffix = true;
    let (mut whitespace, mut replace) = ("", String::new());
    if json_diff.action == Action::NoOp && diff.action == Action::Update {
        whitespace = if diff.replace {
            " # whitespace changes force replacement"
        } else {
            " # whitespace changes"
        };
        json_opts.show_unchanged_children = true;
        action = Action::NoOp;
    } else {
        replace = forces_replacement(diff.replace, opts);
    }
    let rendered = json::with_json_depth(|| json_diff.render_human(ind + 1, &json_opts));
    if diff.action == Action::Create || diff.action == Action::Delete {
        action = Action::NoOp;
    }
    if rendered.contains('\n') {
        format!(
            "jsonencode({whitespace}\n{}{}{rendered}{replace}\n{}{}){}",
            indent(ind + 1),
            symbol(action, opts),
            indent(ind),
            symbol(Action::NoOp, opts),
            null_suffix(diff.action, opts)
        )
    } else {
        format!("jsonencode({rendered}){whitespace}{replace}")
    }
}

fn render_list(
    diff: &Diff,
    elements: &[Diff],
    display_context: bool,
    ind: usize,
    opts: &RenderOpts,
) -> String {
    if elements.is_empty() {
        return format!(
            "[]{}{}",
            null_suffix(diff.action, opts),
            forces_replacement(diff.replace, opts)
        );
    }
    let mut element_opts = opts.child();
    element_opts.override_null_suffix = true;
    let mut unchanged_opts = opts.child();
    unchanged_opts.show_unchanged_children = true;

    let mut unchanged_elements: Vec<&Diff> = Vec::new();
    let mut render_next = false;
    let mut buf = format!("[{}\n", forces_replacement(diff.replace, opts));
    for element in elements {
        if element.action == Action::NoOp && !render_next && !opts.show_unchanged_children {
            unchanged_elements.push(element);
            continue;
        }
        render_next = false;
        let mut eopts = element_opts;
        if display_context {
            if unchanged_elements.len() > 1 {
                let _ = writeln!(
                    buf,
                    "{}{}{}",
                    indent(ind + 1),
                    symbol(Action::NoOp, &eopts),
                    unchanged("element", unchanged_elements.len() - 1, &eopts)
                );
            }
            if let Some(last) = unchanged_elements.last() {
                let _ = writeln!(
                    buf,
                    "{}{}{},",
                    indent(ind + 1),
                    symbol(last.action, &unchanged_opts),
                    last.render_human(ind + 1, &unchanged_opts)
                );
            }
            unchanged_elements.clear();
            if element.action == Action::NoOp {
                eopts = unchanged_opts;
            } else {
                render_next = true;
            }
        }
        for w in element.warnings_human(ind + 1, &eopts) {
            let _ = writeln!(buf, "{}{w}", indent(ind + 1));
        }
        let _ = writeln!(
            buf,
            "{}{}{},",
            indent(ind + 1),
            symbol(element.action, &eopts),
            element.render_human(ind + 1, &eopts)
        );
    }
    if !unchanged_elements.is_empty() {
        let _ = writeln!(
            buf,
            "{}{}{}",
            indent(ind + 1),
            symbol(Action::NoOp, opts),
            unchanged("element", unchanged_elements.len(), opts)
        );
    }
    let _ = write!(
        buf,
        "{}{}]{}",
        indent(ind),
        symbol(Action::NoOp, opts),
        null_suffix(diff.action, opts)
    );
    buf
}

fn render_set(
    diff: &Diff,
    elements: &[Diff],
    nested: bool,
    ind: usize,
    opts: &RenderOpts,
) -> String {
    let in_self = diff.replace && !nested;
    let in_children = diff.replace && nested;
    if elements.is_empty() {
        return format!(
            "[]{}{}",
            null_suffix(diff.action, opts),
            forces_replacement(in_self, opts)
        );
    }
    let mut eopts = opts.child();
    eopts.override_null_suffix = true;
    eopts.override_forces_replacement = in_children;
    let mut unchanged_count = 0;
    let mut buf = format!("[{}\n", forces_replacement(in_self, opts));
    for element in elements {
        if element.action == Action::NoOp && !opts.show_unchanged_children {
            unchanged_count += 1;
            continue;
        }
        for w in element.warnings_human(ind + 1, opts) {
            let _ = writeln!(buf, "{}{w}", indent(ind + 1));
        }
        let _ = writeln!(
            buf,
            "{}{}{},",
            indent(ind + 1),
            symbol(element.action, &eopts),
            element.render_human(ind + 1, &eopts)
        );
    }
    if unchanged_count > 0 {
        let _ = writeln!(
            buf,
            "{}{}{}",
            indent(ind + 1),
            symbol(Action::NoOp, opts),
            unchanged("element", unchanged_count, opts)
        );
    }
    let _ = write!(
        buf,
        "{}{}]{}",
        indent(ind),
        symbol(Action::NoOp, opts),
        null_suffix(diff.action, opts)
    );
    buf
}

fn render_map(
    diff: &Diff,
    elements: &std::collections::BTreeMap<String, Diff>,
    nested: bool,
    ind: usize,
    opts: &RenderOpts,
) -> String {
    let self_replace = diff.replace && !nested;
    let children_replace = diff.replace && nested;
    if elements.is_empty() {
        return format!(
            "{{}}{}{}",
            null_suffix(diff.action, opts),
            forces_replacement(self_replace, opts)
        );
    }
    let escaped: Vec<(String, &Diff)> = elements.iter().map(|(k, v)| (go_quote(k), v)).collect();
    let max_len = escaped.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    let mut eopts = opts.child();
    eopts.override_null_suffix = diff.action == Action::Delete || nested;
    eopts.override_forces_replacement = children_replace;
    let mut unchanged_count = 0;
    let mut buf = format!("{{{}\n", forces_replacement(self_replace, opts));
    for (key, element) in &escaped {
        if element.action == Action::NoOp && !opts.show_unchanged_children {
            unchanged_count += 1;
            continue;
        }
        for w in element.warnings_human(ind + 1, opts) {
            let _ = writeln!(buf, "{}{w}", indent(ind + 1));
        }
        let comma = if matches!(element.renderer, Renderer::Object { .. }) {
            ","
        } else {
            ""
        };
        let value = element.render_human(ind + 1, &eopts);
        if nested {
            let _ = writeln!(
                buf,
                "{}{}{key} = {value}{comma}",
                indent(ind + 1),
                symbol(element.action, &eopts)
            );
        } else {
            let _ = writeln!(
                buf,
                "{}{}{key:<max_len$} = {value}{comma}",
                indent(ind + 1),
                symbol(element.action, &eopts)
            );
        }
    }
    if unchanged_count > 0 {
        let _ = writeln!(
            buf,
            "{}{}{}",
            indent(ind + 1),
            symbol(Action::NoOp, opts),
            unchanged("element", unchanged_count, opts)
        );
    }
    let _ = write!(
        buf,
        "{}{}}}{}",
        indent(ind),
        symbol(Action::NoOp, opts),
        null_suffix(diff.action, opts)
    );
    buf
}

fn render_object(
    diff: &Diff,
    attributes: &std::collections::BTreeMap<String, Diff>,
    nested: bool,
    ind: usize,
    opts: &RenderOpts,
) -> String {
    if attributes.is_empty() {
        return format!(
            "{{}}{}{}",
            null_suffix(diff.action, opts),
            forces_replacement(diff.replace, opts)
        );
    }
    let mut aopts = opts.child();
    aopts.override_null_suffix = !nested;
    let escaped: Vec<(&str, String, &Diff)> = attributes
        .iter()
        .map(|(k, v)| (k.as_str(), ensure_valid_attribute_name(k), v))
        .collect();
    let max_len = escaped.iter().map(|(_, k, _)| k.len()).max().unwrap_or(0);
    let mut unchanged_count = 0;
    let mut buf = format!("{{{}\n", forces_replacement(diff.replace, opts));
    for (raw, key, attr) in &escaped {
        if IMPORTANT_ATTRIBUTES.contains(raw) {
            let mut iopts = aopts.child();
            iopts.show_unchanged_children = true;
            for w in attr.warnings_human(ind + 1, &iopts) {
                let _ = writeln!(buf, "{}{w}", indent(ind + 1));
            }
            let _ = writeln!(
                buf,
                "{}{}{key:<max_len$} = {}",
                indent(ind + 1),
                symbol(attr.action, &iopts),
                attr.render_human(ind + 1, &iopts)
            );
            continue;
        }
        if attr.action == Action::NoOp && !opts.show_unchanged_children {
            unchanged_count += 1;
            continue;
        }
        for w in attr.warnings_human(ind + 1, opts) {
            let _ = writeln!(buf, "{}{w}", indent(ind + 1));
        }
        let _ = writeln!(
            buf,
            "{}{}{key:<max_len$} = {}",
            indent(ind + 1),
            symbol(attr.action, &aopts),
            attr.render_human(ind + 1, &aopts)
        );
    }
    if unchanged_count > 0 {
        let _ = writeln!(
            buf,
            "{}{}{}",
            indent(ind + 1),
            symbol(Action::NoOp, opts),
            unchanged("attribute", unchanged_count, opts)
        );
    }
    let _ = write!(
        buf,
        "{}{}}}{}",
        indent(ind),
        symbol(Action::NoOp, opts),
        null_suffix(diff.action, opts)
    );
    buf
}

fn render_block(
    diff: &Diff,
    attributes: &std::collections::BTreeMap<String, Diff>,
    blocks: &std::collections::BTreeMap<String, BlockEntry>,
    ind: usize,
    opts: &RenderOpts,
) -> String {
    if attributes.is_empty() && blocks.is_empty() {
        return format!("{{}}{}", forces_replacement(diff.replace, opts));
    }
    let escaped: Vec<(&str, String, &Diff)> = attributes
        .iter()
        .map(|(k, v)| (k.as_str(), ensure_valid_attribute_name(k), v))
        .collect();
    let max_len = escaped.iter().map(|(_, k, _)| k.len()).max().unwrap_or(0);
    let mut iopts = opts.child();
    iopts.show_unchanged_children = true;
    let aopts = opts.child();
    let mut unchanged_attrs = 0;
    let mut unchanged_blocks = 0;
    let mut buf = format!("{{{}\n", forces_replacement(diff.replace, opts));
    for (raw, key, attr) in &escaped {
        if IMPORTANT_ATTRIBUTES.contains(raw) {
            for w in attr.warnings_human(ind + 1, &iopts) {
                let _ = writeln!(buf, "{}{w}", indent(ind + 1));
            }
            let _ = writeln!(
                buf,
                "{}{}{raw:<max_len$} = {}",
                indent(ind + 1),
                symbol(attr.action, &iopts),
                attr.render_human(ind + 1, &iopts)
            );
            continue;
        }
        if attr.action == Action::NoOp && !opts.show_unchanged_children {
            unchanged_attrs += 1;
            continue;
        }
        for w in attr.warnings_human(ind + 1, opts) {
            let _ = writeln!(buf, "{}{w}", indent(ind + 1));
        }
        let _ = writeln!(
            buf,
            "{}{}{key:<max_len$} = {}",
            indent(ind + 1),
            symbol(attr.action, &aopts),
            attr.render_human(ind + 1, &aopts)
        );
    }
    if unchanged_attrs > 0 {
        let _ = writeln!(
            buf,
            "{}{}{}",
            indent(ind + 1),
            symbol(Action::NoOp, opts),
            unchanged("attribute", unchanged_attrs, opts)
        );
    }

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
            if !found_changed && !attributes.is_empty() {
                buf.push('\n');
                found_changed = true;
            }
            let mut o = bopts.child();
            o.override_forces_replacement = entry.replace;
            for w in d.warnings_human(ind + 1, &o) {
                let _ = writeln!(buf, "{}{w}", indent(ind + 1));
            }
            let _ = writeln!(
                buf,
                "{}{}{}{map_key} {}",
                indent(ind + 1),
                symbol(d.action, &o),
                ensure_valid_attribute_name(key),
                d.render_human(ind + 1, &o)
            );
        };
        match &entry.kind {
            BlockKind::Single(d) => render_one(d, "", opts, &mut buf),
            BlockKind::Map(m) => {
                if let Some(u) = &unknown_line {
                    render_one(u, "", opts, &mut buf);
                }
                for (k, d) in m {
                    render_one(d, &format!(" {}", go_quote(k)), opts, &mut buf);
                }
            }
            BlockKind::Set(v) => {
                let mut so = opts.child();
                so.override_forces_replacement = diff.replace;
                if let Some(u) = &unknown_line {
                    render_one(u, "", opts, &mut buf);
                }
                for d in v {
                    render_one(d, "", &so, &mut buf);
                }
            }
            BlockKind::List(v) => {
                if let Some(u) = &unknown_line {
                    render_one(u, "", opts, &mut buf);
                }
                for d in v {
                    render_one(d, "", opts, &mut buf);
                }
            }
        }
    }
    if unchanged_blocks > 0 {
        let _ = writeln!(
            buf,
            "\n{}{}{}",
            indent(ind + 1),
            symbol(Action::NoOp, opts),
            unchanged("block", unchanged_blocks, opts)
        );
    }
    let _ = write!(buf, "{}{}}}", indent(ind), symbol(Action::NoOp, opts));
    buf
}
