//! How the human renderer prints one resource change: its `# address will be …` comment and its diff body.

use std::fmt::Write as _;

use super::{Cause, ComputedChange, Flavor, HumanRenderer, raw_json};
use crate::computed::go_quote;
use crate::plan::{Action, ResourceChange, Value};

impl HumanRenderer<'_> {
    pub(super) fn render_resource(&self, c: &ComputedChange, cause: Cause) -> Option<String> {
        let rc = c.rc;
        if rc.mode == "ephemeral" {
            return None;
        }
        let action = rc.action();
        if action == Action::NoOp && !rc.moved() && !rc.importing() {
            return None;
        }
        let mut buf = self.theme.color(&self.resource_comment(rc, action, cause));
        if cause == Cause::Change {
            // `  ` and the line as `Theme::paint(annotation, "# {line}")` colours it, written
            // into the resource's text without a copy of its own
            let (open, close) = if self.theme.enabled {
                let style = self.theme.annotation;
                (style.render().to_string(), style.render_reset().to_string())
            } else {
                (String::new(), String::new())
            };
            self.annotator.for_each_resource_line(rc, &mut |line| {
                buf.push_str("  ");
                buf.push_str(&open);
                buf.push_str("# ");
                buf.push_str(line);
                buf.push_str(&close);
                buf.push('\n');
            });
        }
        let mut opts = self.render_opts();
        let terraform = self.options.flavor == Flavor::Terraform;
        if action == Action::Forget && !terraform {
            opts.hide_diff_action_symbols = true;
            opts.override_null_suffix = true;
        }
        opts.show_unchanged_children = rc.importing();
        let mode = if rc.mode == "managed" {
            "resource"
        } else {
            "data"
        };
        match action {
            // Terraform's own symbols for the forget actions
            Action::Forget if terraform => {
                buf.push_str(&self.theme.color(" [red].[reset]"));
                buf.push(' ');
            }
            Action::ForgetThenCreate if terraform => {
                buf.push_str(&self.theme.color(" [green]+[reset]/[red].[reset]"));
                buf.push(' ');
            }
            // `action_symbol(action)` coloured and a space, coloured once per theme
            _ => buf.push_str(&crate::computed::symbol_and_space(action, &opts)),
        }
        let _ = write!(buf, "{mode} \"{}\" \"{}\" ", rc.type_, rc.name);
        c.diff.render_human_into(&mut buf, 0, &opts);
        Some(buf)
    }

    /// The `# address will be …` lines above a resource's body, with `[bold]`-style markup.
    fn resource_comment(&self, rc: &ResourceChange, action: Action, cause: Cause) -> String {
        // OpenTofu's addresses are printable (keys are quoted with escapes); a forged one is
        // escaped for the terminal (`crate::escape`)
        let address = crate::escape::line(&rc.address);
        let addr = match rc.deposed() {
            Some(d) if !d.is_empty() => {
                format!("{address} (deposed object {})", crate::escape::line(d))
            }
            _ => address.into_owned(),
        };
        let head = Head {
            rc,
            addr,
            prev: crate::escape::line(rc.previous_address().unwrap_or("")).into_owned(),
            reason: rc.action_reason().unwrap_or(""),
            deposed: rc.deposed().is_some_and(|d| !d.is_empty()),
            terraform: self.options.flavor == Flavor::Terraform,
        };
        let mut b = String::new();
        let printed_moved = head.action_line(&mut b, action, cause);
        b.push('\n');
        if rc.moved() && !printed_moved {
            b.push_str(&format!("  # [reset](moved from {})\n", head.prev));
        }
        head.import_lines(&mut b, action);
        // No product-wording pass here: `b` holds addresses, which must stay as they are.
        b
    }
}

/// What the comment above one resource is worded from.
struct Head<'r> {
    rc: &'r ResourceChange<'r>,
    /// The address, escaped, with its deposed key.
    addr: String,
    /// The previous address, escaped.
    prev: String,
    reason: &'r str,
    deposed: bool,
    terraform: bool,
}

const LEFT_OVER: &str = "\n  # (left over from a partially-failed replacement of this instance)";

impl Head<'_> {
    /// The comment's first line(s) for `action`; whether it said the resource moved.
    fn action_line(&self, b: &mut String, action: Action, cause: Cause) -> bool {
        let addr = &self.addr;
        match action {
            Action::Create => b.push_str(&format!("[bold]  # {addr}[reset] will be created")),
            Action::Read => {
                b.push_str(&format!(
                    "[bold]  # {addr}[reset] will be read during apply"
                ));
                self.read_reason(b);
            }
            Action::Update => match cause {
                Cause::Change => {
                    b.push_str(&format!("[bold]  # {addr}[reset] will be updated in-place"))
                }
                Cause::Drift => b.push_str(&format!("[bold]  # {addr}[reset] has changed")),
            },
            Action::CreateThenDelete | Action::DeleteThenCreate => self.replaced(b),
            Action::Delete => {
                match cause {
                    Cause::Change => b.push_str(&format!(
                        "[bold]  # {addr}[reset] will be [bold][red]destroyed[reset]"
                    )),
                    Cause::Drift => {
                        b.push_str(&format!("[bold]  # {addr}[reset] has been deleted"))
                    }
                }
                self.delete_reason(b);
                if self.deposed {
                    b.push_str(LEFT_OVER);
                }
            }
            Action::Forget | Action::ForgetThenCreate => self.forget(b, action),
            Action::NoOp if self.rc.moved() => {
                b.push_str(&format!(
                    "[bold]  # {}[reset] has moved to [bold]{addr}[reset]",
                    self.prev
                ));
                return true;
            }
            Action::NoOp if self.rc.importing() => {
                b.push_str(&format!("[bold]  # {addr}[reset] will be imported"));
                if self.rc.generated_config().is_some_and(|g| !g.is_empty()) {
                    b.push_str("\n  #[reset] (config will be generated)");
                }
            }
            Action::NoOp | Action::Unknown => b.push_str(&format!(
                "{addr} has an action the plan renderer doesn't support (this is a bug): {}",
                go_quote(
                    &self
                        .rc
                        .change
                        .actions
                        .iter()
                        .map(|a| a.as_ref())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            )),
        }
        false
    }

    /// `… must be replaced`, worded after the reason.
    fn replaced(&self, b: &mut String) {
        let addr = &self.addr;
        match self.reason {
            "replace_because_tainted" if self.terraform => b.push_str(&format!(
                "[bold]  # {addr}[reset] is tainted, so must be [bold][red]replaced[reset]"
            )),
            "replace_because_tainted" => b.push_str(&format!(
                "[bold]  # {addr}[reset] is tainted, so it must be [bold][red]replaced[reset]"
            )),
            "replace_by_request" => b.push_str(&format!(
                "[bold]  # {addr}[reset] will be [bold][red]replaced[reset], as requested"
            )),
            "replace_by_triggers" => b.push_str(&format!(
                "[bold]  # {addr}[reset] will be [bold][red]replaced[reset] due to changes in replace_triggered_by"
            )),
            _ => b.push_str(&format!(
                "[bold]  # {addr}[reset] must be [bold][red]replaced[reset]"
            )),
        }
    }

    /// Why a data source is read during apply.
    fn read_reason(&self, b: &mut String) {
        match self.reason {
            "read_because_config_unknown" => {
                b.push_str("\n  # (config refers to values not yet known)")
            }
            "read_because_dependency_pending" => {
                b.push_str("\n  # (depends on a resource or a module with changes pending)")
            }
            "read_because_check_nested" => {
                b.push_str("\n  # (config will be reloaded to verify a check block)")
            }
            _ => {}
        }
    }

    /// Why a resource is destroyed.
    fn delete_reason(&self, b: &mut String) {
        let rc = self.rc;
        match self.reason {
            "delete_because_no_resource_config" => b.push_str(&format!(
                "\n  # (because {}.{} is not in configuration)",
                rc.type_, rc.name
            )),
            "delete_because_no_move_target" => b.push_str(&format!(
                "\n  # (because {} was moved to {}, which is not in configuration)",
                self.prev,
                crate::escape::line(&rc.address)
            )),
            "delete_because_no_module" => b.push_str(&format!(
                "\n  # (because {} is not in configuration)",
                crate::escape::line(rc.module_address.as_deref().unwrap_or(""))
            )),
            "delete_because_wrong_repetition" => match &rc.index {
                Value::Null => b.push_str("\n  # (because resource uses count or for_each)"),
                Value::Number(_) => b.push_str("\n  # (because resource does not use count)"),
                Value::String(_) => b.push_str("\n  # (because resource does not use for_each)"),
                _ => {}
            },
            "delete_because_count_index" => b.push_str(&format!(
                "\n  # (because index [{}] is out of range for count)",
                raw_json(&rc.index)
            )),
            "delete_because_enabled_false" => b.push_str("\n  # (because enabled is false)"),
            "delete_because_each_key" => b.push_str(&format!(
                "\n  # (because key [{}] is not in for_each map)",
                raw_json(&rc.index)
            )),
            _ => {}
        }
    }

    /// `forget` and `forget, then create`: removed from the state, not destroyed.
    fn forget(&self, b: &mut String, action: Action) {
        let addr = &self.addr;
        match action {
            Action::Forget if self.terraform => {
                if self.deposed {
                    b.push_str(&format!("[bold] # {addr}[reset] will be removed from Terraform state, but [bold][red]will not be destroyed[reset]"));
                    b.push_str("\n[bold] # (left over from a partially-failed replacement of this instance)");
                } else {
                    b.push_str(&format!("[bold] # {addr}[reset] will no longer be managed by Terraform, but [bold][red]will not be destroyed[reset]"));
                }
                b.push_str("\n # (destroy = false is set in the configuration)");
            }
            Action::Forget => {
                b.push_str(&format!("[bold]  # {addr}[reset] will be removed from the OpenTofu state [bold][red]but will not be destroyed[reset]"));
                match self.reason {
                    "forgot_because_lifecycle_destroy_in_state" => b.push_str(" \n (because [bold]lifecycle.destroy = false[reset] was configured before this resource was removed from the configuration)"),
                    "forgot_because_lifecycle_destroy_in_config" => b.push_str(" \n (because [bold]lifecycle.destroy = false[reset] is set in the configuration)"),
                    _ => {}
                }
                if self.deposed {
                    b.push_str(LEFT_OVER);
                }
            }
            _ if self.terraform => b.push_str(&format!(
                "[bold] # {addr}[reset] must be replaced, but the existing object will not be destroyed"
            )),
            _ => {
                self.replaced(b);
                b.push_str(" - [yellow]older instance will [bold]not[reset][yellow] be destroyed [reset]([bold]lifecycle.destroy = false[reset])");
                if self.deposed {
                    b.push_str(LEFT_OVER);
                }
            }
        }
    }

    /// `(imported from "…")` and its kin, under the action line.
    fn import_lines(&self, b: &mut String, action: Action) {
        // Terraform's "will be imported" header already says it all (no `(imported from …)`).
        let import_header = self.terraform && action == Action::NoOp && !self.rc.moved();
        let Some(imp) = self.rc.import().filter(|_| !import_header) else {
            return;
        };
        if let Some(id) = imp.id.as_deref().filter(|s| !s.is_empty()) {
            b.push_str(&format!("  # [reset](imported from \"{id}\")\n"));
        } else if !imp.identity.is_null() {
            let pretty = serde_json::to_string_pretty(&imp.identity.to_json())
                .unwrap_or_default()
                .replace('\n', "\n  # ");
            b.push_str(&format!(
                "  # [reset]imported using resource identity: {pretty}\n"
            ));
        } else {
            b.push_str("  # [reset](will be imported first)\n");
        }
        if matches!(action, Action::CreateThenDelete | Action::DeleteThenCreate) {
            b.push_str(
                "  # [reset][yellow]Warning: this will destroy the imported resource[reset]\n",
            );
        }
    }
}
