//! Human rendering of primitive values: numbers, booleans, strings, heredocs and JSON-encoded strings.

use std::fmt::Write as _;

use super::{
    RenderOpts, arrow, forces_replacement, go_quote_into, indent, null, null_suffix, symbol,
};
use crate::computed::{Action, Diff, PrimType, Renderer, json};
use crate::plan::Value;
use crate::structured;

fn render_primitive_value(buf: &mut String, v: &Value, opts: &RenderOpts) {
    match v {
        Value::Null => buf.push_str(&null(opts)),
        Value::Bool(true) => buf.push_str("true"),
        Value::Bool(false) => buf.push_str("false"),
        Value::Number(n) if opts.terraform && !opts.since.exact_numbers => {
            buf.push_str(&structured::version::float64_text(n))
        }
        Value::Number(n) => buf.push_str(n),
        Value::String(s) => go_quote_into(buf, s),
        other => {
            let _ = write!(buf, "{other}");
        }
    }
}

pub(super) fn render_primitive(
    buf: &mut String,
    diff: &Diff,
    before: &Value,
    after: &Value,
    ty: PrimType,
    ind: usize,
    opts: &RenderOpts,
) {
    if ty == PrimType::String {
        return render_string(buf, diff, before, after, ind, opts);
    }
    match diff.action {
        Action::Create => render_primitive_value(buf, after, opts),
        Action::Delete => {
            render_primitive_value(buf, before, opts);
            buf.push_str(&null_suffix(diff.action, opts));
        }
        Action::NoOp => render_primitive_value(buf, before, opts),
        _ => {
            render_primitive_value(buf, before, opts);
            buf.push(' ');
            buf.push_str(&arrow(opts));
            buf.push(' ');
            render_primitive_value(buf, after, opts);
        }
    }
    buf.push_str(&forces_replacement(diff.replace, opts));
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
                text: null(opts),
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
        && let Some(json) =
            json::parse_json_string(s, opts.terraform && !opts.since.json_first_document)
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
    fn simple_into(&self, buf: &mut String) {
        if self.null {
            buf.push_str(&self.text);
        } else {
            go_quote_into(buf, &self.text);
        }
    }
}

fn render_string(
    buf: &mut String,
    diff: &Diff,
    before: &Value,
    after: &Value,
    ind: usize,
    opts: &RenderOpts,
) {
    let fr = forces_replacement(diff.replace, opts);
    let mut lines: Vec<String> = Vec::new();
    let noop_prefix = || format!("{}{}", indent(ind + 1), symbol(Action::NoOp, opts));
    match diff.action {
        Action::Create | Action::NoOp => {
            let s = evaluate_string(after, opts);
            if let Some(json) = &s.json {
                buf.push_str(&if diff.action == Action::NoOp {
                    render_string_as_json(diff, ind, opts, Some(json), Some(json))
                } else {
                    render_string_as_json(diff, ind, opts, None, Some(json))
                });
                return;
            }
            if !s.multiline {
                s.simple_into(buf);
                buf.push_str(&fr);
                return;
            }
            let noop_prefix = noop_prefix();
            lines.extend(s.text.split('\n').map(|l| format!("{noop_prefix}{l}")));
        }
        Action::Delete => {
            let s = evaluate_string(before, opts);
            if s.null {
                s.simple_into(buf);
                buf.push_str(&fr);
                return;
            }
            if let Some(json) = &s.json {
                buf.push_str(&render_string_as_json(diff, ind, opts, Some(json), None));
                return;
            }
            if !s.multiline {
                s.simple_into(buf);
                buf.push_str(&null_suffix(diff.action, opts));
                buf.push_str(&fr);
                return;
            }
            let noop_prefix = noop_prefix();
            lines.extend(s.text.split('\n').map(|l| format!("{noop_prefix}{l}")));
        }
        _ => {
            let b = evaluate_string(before, opts);
            let a = evaluate_string(after, opts);
            if b.json.is_some() && a.json.is_some() {
                buf.push_str(&render_string_as_json(
                    diff,
                    ind,
                    opts,
                    b.json.as_ref(),
                    a.json.as_ref(),
                ));
                return;
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
                d.render_human_into(buf, ind, opts);
                return;
            }
            if !b.multiline && !a.multiline {
                b.simple_into(buf);
                buf.push(' ');
                buf.push_str(&arrow(opts));
                buf.push(' ');
                a.simple_into(buf);
                buf.push_str(&fr);
                return;
            }
            let noop_prefix = noop_prefix();
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
                let pairwise = opts.since.pairwise_lists;
                structured::process_slice_terraform(&bl, &al, process, |_| false, pairwise);
            } else {
                structured::process_slice(&bl, &al, process, |_, _| false);
            }
        }
    }
    let _ = write!(
        buf,
        "<<-EOT{fr}\n{}\n{}{}EOT{}",
        lines.join("\n"),
        indent(ind),
        symbol(Action::NoOp, opts),
        null_suffix(diff.action, opts)
    );
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
            since: opts.since,
            hide_unchanged_attributes: false,
        },
    );
    let mut action = diff.action;
    let mut json_opts = opts.child();
    json_opts.override_null_suffix = true;
    let (mut whitespace, mut replace) = ("", std::borrow::Cow::Borrowed(""));
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
