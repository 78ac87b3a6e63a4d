//! The human plan and state renderer: OpenTofu's `tofu show` text, byte for byte.

use std::io::{self, Write};

use rayon::prelude::*;

use crate::computed::{Diff, RenderOpts, action_symbol, ensure_valid_attribute_name, go_quote};
use crate::differ::{self, Change, Matcher};
use crate::plan::{Action, Plan, ResourceChange, StateModule, Value};
use crate::schema::{self, Block, Schemas, Type};
use crate::theme::Theme;

/// How many resources are rendered in parallel before being written out.
const RENDER_CHUNK: usize = 256;

/// The width OpenTofu wraps prose at when stdout is not a terminal.
pub const DEFAULT_COLUMNS: usize = 78;

/// Which product's wording to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Flavor {
    #[default]
    OpenTofu,
    Terraform,
}

/// The planning mode the plan was made in (it is not recorded in the JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PlanMode {
    #[default]
    Normal,
    Destroy,
    RefreshOnly,
}

/// Options of the human renderer.
#[derive(Debug, Clone, Copy)]
pub struct HumanOptions {
    pub flavor: Flavor,
    pub mode: PlanMode,
    /// Columns for word wrapping prose.
    pub columns: usize,
    /// Whether the output is for automation (changes one suggestion).
    pub running_in_automation: bool,
}

impl Default for HumanOptions {
    fn default() -> Self {
        HumanOptions {
            flavor: Flavor::OpenTofu,
            mode: PlanMode::Normal,
            columns: DEFAULT_COLUMNS,
            running_in_automation: false,
        }
    }
}

/// Extra lines the carbon work adds to the plan: comment lines under each resource header.
/// The default methods add nothing, so the output equals OpenTofu's. (The carbon summary is
/// not the renderer's: its caller writes it after the plan, see [`Rendered`].)
///
/// Annotators must be `Sync`: resources are rendered in parallel.
pub trait Annotator: Sync {
    /// Lines printed as `  # <line>` (theme slot `annotation`) under the resource's header
    /// comment, before its `resource "…" "…" {` line.
    fn resource_lines(&self, _rc: &ResourceChange) -> Vec<String> {
        Vec::new()
    }
    /// Lines printed as `# <line>` under a state document's `# <address>:` header;
    /// `deposed_key` is set for a deposed object.
    fn state_resource_lines(&self, _address: &str, _deposed_key: Option<&str>) -> Vec<String> {
        Vec::new()
    }
}

/// What a rendering tells its caller, besides the text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rendered {
    /// The plan's headline as plain text: its `Plan: …` line (`Plan: 1 to add, 0 to change,
    /// 0 to destroy.`) or its `No changes. …` sentence; `None` for a state document or a plan
    /// that prints neither (only drift, or only outputs).
    pub plan_line: Option<String>,
}

/// The default annotator: adds nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoAnnotations;
impl Annotator for NoAnnotations {}

/// Everything one rendering needs.
pub struct HumanRenderer<'r> {
    pub theme: &'r Theme,
    pub options: HumanOptions,
    pub schemas: Option<&'r Schemas>,
    pub annotator: &'r dyn Annotator,
}

/// Mimics go-wordwrap as OpenTofu uses it: lines starting with a space are kept whole.
pub fn word_wrap(s: &str, columns: usize) -> String {
    if columns <= 1 {
        return s.to_string();
    }
    let lim = columns - 1;
    let mut out = String::with_capacity(s.len() + 8);
    for (i, line) in s.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.starts_with(' ') {
            out.push_str(line);
            continue;
        }
        let mut current = 0usize;
        let mut first = true;
        for word in line.split(' ') {
            let wl = word.chars().count();
            if first {
                out.push_str(word);
                current = wl;
                first = false;
            } else if current + 1 + wl > lim && wl < lim {
                out.push('\n');
                out.push_str(word);
                current = wl;
            } else {
                out.push(' ');
                out.push_str(word);
                current += 1 + wl;
            }
        }
    }
    out
}

struct ComputedChange<'p, 'a> {
    rc: &'p ResourceChange<'a>,
    diff: Diff<'a>,
}

impl<'r> HumanRenderer<'r> {
    /// Product wording of the flavor.
    fn words(&self, s: &str) -> String {
        match self.options.flavor {
            Flavor::OpenTofu => s.to_string(),
            Flavor::Terraform => s
                .replace("tofu apply", "terraform apply")
                .replace("OpenTofu", "Terraform"),
        }
    }

    /// The differ's rules for this flavour.
    fn rules(&self) -> differ::Rules {
        differ::Rules {
            terraform: self.options.flavor == Flavor::Terraform,
            non_legacy: false,
        }
    }

    fn c(&self, markup: &str) -> String {
        self.theme.color(&self.words(markup))
    }

    fn wrap(&self, s: &str) -> String {
        word_wrap(&self.words(s), self.options.columns)
    }

    fn rule(&self) -> String {
        let w = self.options.columns;
        if w <= 1 {
            return "\n".into();
        }
        self.theme
            .color(&format!("[dark_gray]\n{}", "─".repeat(w - 1)))
    }

    fn block_for<'s>(
        &'s self,
        provider: &str,
        mode: &str,
        type_: &str,
        implied: &'s mut Option<Block>,
        values: &[&Value],
    ) -> &'s Block {
        if let Some(b) = self.schemas.and_then(|s| s.block(provider, mode, type_)) {
            return b;
        }
        implied.insert(schema::implied_block(values))
    }

    fn compute<'p, 'a>(
        &self,
        rc: &'p ResourceChange<'a>,
        relevant: Matcher<'p, 'a>,
    ) -> ComputedChange<'p, 'a> {
        // this resource's values, built now and dropped with the diff's inputs
        let c = rc.change.values();
        let mut implied = None;
        let block = self.block_for(
            &rc.provider_name,
            &rc.mode,
            &rc.type_,
            &mut implied,
            &[&c.before, &c.after, &c.after_unknown],
        );
        let mut change = Change::from_plan(&c, relevant).with_rules(self.rules());
        if self.options.flavor == Flavor::Terraform && rc.action() == Action::Forget {
            // Terraform shows a forget-only change as a no-op (its `AsNoOp`).
            change = change.as_noop();
        }
        let diff = differ::compute_diff_for_block(&change, block);
        ComputedChange { rc, diff }
    }

    /// Renders a plan or a state document.
    pub fn render(&self, plan: &Plan, out: &mut dyn Write) -> io::Result<Rendered> {
        if plan.is_state() {
            self.render_state(plan, out)?;
            Ok(Rendered::default())
        } else {
            let mut plan_line = None;
            self.render_plan(plan, out, &mut plan_line)?;
            Ok(Rendered { plan_line })
        }
    }

    /// Renders a plan as `tofu show` does; `plan_line` gets its headline ([`Rendered`]).
    pub fn render_plan(
        &self,
        plan: &Plan,
        out: &mut dyn Write,
        plan_line: &mut Option<String>,
    ) -> io::Result<()> {
        let mode = self.options.mode;
        let errored = plan.errored.unwrap_or(false);
        let empty_rc = Vec::new();
        let relevant_attrs = plan.relevant_attributes.as_ref();

        // Drift.
        let mut drift = Vec::new();
        for rc in plan.resource_drift.as_ref().unwrap_or(&empty_rc) {
            let relevant = if mode == PlanMode::RefreshOnly {
                Matcher::Always
            } else {
                let mut m = Matcher::empty(true);
                for attr in relevant_attrs.into_iter().flatten() {
                    if attr.resource.is_empty() || attr.resource == rc.address {
                        m.push(&attr.attribute);
                    }
                }
                if m.is_empty() {
                    continue;
                }
                m
            };
            if rc.mode == "ephemeral" {
                continue;
            }
            drift.push(self.compute(rc, relevant));
        }
        // Diffs are computed when a resource is rendered, a chunk at a time, never all at once.
        let changes: &[ResourceChange] = plan.resource_changes.as_deref().unwrap_or(&empty_rc);
        let outputs: Vec<(&str, Diff)> = plan
            .output_changes
            .iter()
            .flatten()
            .map(|(k, c)| {
                let change = Change::from_plan(c, Matcher::Always).with_rules(self.rules());
                (k.as_ref(), differ::compute_diff_for_output(&change))
            })
            .collect();

        // (stops at the first change: usually one of the first few resources)
        let diffs_empty = !changes
            .par_iter()
            .any(|rc| rc.moved() || self.compute(rc, Matcher::Always).diff.action != Action::NoOp)
            && outputs.iter().all(|(_, d)| d.action == Action::NoOp);

        let have_refresh_changes = self.render_drift(out, &drift, diffs_empty)?;

        let mut will_print = false;
        let mut counts = std::collections::BTreeMap::<u8, usize>::new();
        let count_key = |a: Action| a as u8;
        let mut importing = 0;
        let mut forgetting = 0;
        let mut shown = Vec::new();
        for rc in changes {
            let action = rc.action();
            if action == Action::NoOp && !rc.moved() && !rc.importing() {
                continue;
            }
            if action == Action::Delete && rc.mode != "managed" {
                continue;
            }
            if rc.mode == "ephemeral" {
                continue;
            }
            shown.push(rc);
            if rc.importing() {
                importing += 1;
            }
            if matches!(action, Action::Forget | Action::ForgetThenCreate) {
                forgetting += 1;
            }
            if action != Action::NoOp {
                will_print = true;
                *counts.entry(count_key(action)).or_default() += 1;
            }
        }
        let count = |a: Action| counts.get(&count_key(a)).copied().unwrap_or(0);

        let outputs_text = self.render_outputs(&outputs);

        if shown.is_empty() && outputs_text.is_empty() {
            if errored {
                if have_refresh_changes {
                    writeln!(out, "{}", self.rule())?;
                }
                write!(
                    out,
                    "{}",
                    self.c("\n[reset][bold][red]Planning failed.[reset][bold] OpenTofu encountered an error while generating this plan.[reset]\n\n")
                )?;
            } else {
                match mode {
                    PlanMode::RefreshOnly => {
                        if have_refresh_changes {
                            return Ok(());
                        }
                        *plan_line = Some(
                            "No changes. Your infrastructure still matches the configuration."
                                .into(),
                        );
                        write!(out, "{}", self.c("\n[reset][bold][green]No changes.[reset][bold] Your infrastructure still matches the configuration.[reset]\n\n"))?;
                        writeln!(out, "{}", self.wrap("OpenTofu has checked that the real remote objects still match the result of your most recent changes, and found no differences."))?;
                    }
                    PlanMode::Destroy => {
                        if have_refresh_changes {
                            writeln!(out, "{}", self.rule())?;
                        }
                        *plan_line = Some("No changes. No objects need to be destroyed.".into());
                        write!(out, "{}", self.c("\n[reset][bold][green]No changes.[reset][bold] No objects need to be destroyed.[reset]\n\n"))?;
                        writeln!(out, "{}", self.wrap("Either you have not created any objects yet or the existing objects were already deleted outside of OpenTofu."))?;
                    }
                    PlanMode::Normal => {
                        if have_refresh_changes {
                            writeln!(out, "{}", self.rule())?;
                        }
                        *plan_line = Some(
                            "No changes. Your infrastructure matches the configuration.".into(),
                        );
                        write!(out, "{}", self.c("\n[reset][bold][green]No changes.[reset][bold] Your infrastructure matches the configuration.[reset]\n\n"))?;
                        if have_refresh_changes {
                            if plan.applyable != Some(false) {
                                writeln!(out, "{}", self.wrap("Your configuration already matches the changes detected above, so applying this plan will only update the state to include the changes detected above and won't change any real infrastructure."))?;
                            } else {
                                let suggestion = if self.options.running_in_automation {
                                    "."
                                } else {
                                    ":\n  tofu apply -refresh-only"
                                };
                                writeln!(out, "{}", self.wrap(&format!("Your configuration already matches the changes detected above. If you'd like to update the OpenTofu state to match, create and apply a refresh-only plan{suggestion}")))?;
                            }
                            return Ok(());
                        }
                        writeln!(out, "{}", self.wrap("OpenTofu has compared your real infrastructure against your configuration and found no differences, so no changes are needed."))?;
                    }
                }
            }
        }

        if have_refresh_changes {
            writeln!(out, "{}", self.rule())?;
        }

        if will_print {
            writeln!(out, "{}", self.wrap("\nOpenTofu used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:"))?;
            for action in [
                Action::Create,
                Action::Update,
                Action::Delete,
                Action::DeleteThenCreate,
                Action::CreateThenDelete,
                Action::Read,
                Action::ForgetThenCreate,
                Action::Forget,
            ] {
                let forget = matches!(action, Action::ForgetThenCreate | Action::Forget);
                // Terraform's legend has no forget lines.
                if count(action) > 0 && !(forget && self.options.flavor == Flavor::Terraform) {
                    writeln!(out, "{}", self.c(self.action_description(action)))?;
                }
            }
        }

        if !shown.is_empty() {
            if errored {
                write!(out, "{}", self.words("\nOpenTofu planned the following actions, but then encountered a problem:\n"))?;
            } else {
                write!(
                    out,
                    "{}",
                    self.words("\nOpenTofu will perform the following actions:\n")
                )?;
            }
            // Rendered in parallel, a chunk at a time, written in order.
            for chunk in shown.chunks(RENDER_CHUNK) {
                let texts: Vec<Option<String>> = chunk
                    .par_iter()
                    .map(|rc| {
                        self.render_resource(&self.compute(rc, Matcher::Always), Cause::Change)
                    })
                    .collect();
                for text in texts.into_iter().flatten() {
                    writeln!(out)?;
                    writeln!(out, "{text}")?;
                }
            }
            let to_add = count(Action::Create)
                + count(Action::DeleteThenCreate)
                + count(Action::CreateThenDelete)
                + count(Action::ForgetThenCreate);
            let to_change = count(Action::Update);
            let to_destroy = count(Action::Delete)
                + count(Action::DeleteThenCreate)
                + count(Action::CreateThenDelete);
            if self.options.flavor == Flavor::Terraform {
                // Terraform counts no forgets.
                forgetting = 0;
            }
            let summary = match (importing > 0, forgetting > 0) {
                (true, true) => format!(
                    "{importing} to import, {to_add} to add, {to_change} to change, {to_destroy} to destroy, {forgetting} to forget."
                ),
                (true, false) => format!(
                    "{importing} to import, {to_add} to add, {to_change} to change, {to_destroy} to destroy."
                ),
                (false, true) => format!(
                    "{to_add} to add, {to_change} to change, {to_destroy} to destroy, {forgetting} to forget."
                ),
                (false, false) => {
                    format!("{to_add} to add, {to_change} to change, {to_destroy} to destroy.")
                }
            };
            if self.options.flavor == Flavor::Terraform {
                // Terraform colours only `Plan: ` (its reset lands before the counts).
                writeln!(out, "{}{summary}", self.c("\n[bold]Plan:[reset] "))?;
            } else {
                // Coloured as one piece, like OpenTofu (its reset lands after the newline).
                write!(
                    out,
                    "{}",
                    self.c(&format!("\n[bold]Plan:[reset] {summary}\n"))
                )?;
            }
            *plan_line = Some(format!("Plan: {summary}"));
        }

        if !outputs_text.is_empty() {
            write!(out, "\nChanges to Outputs:\n")?;
            writeln!(out, "{outputs_text}")?;
            if counts.is_empty() {
                writeln!(out, "{}", self.wrap("\nYou can apply this plan to save these new output values to the OpenTofu state, without changing any real infrastructure."))?;
            }
        }
        Ok(())
    }

    fn action_description(&self, action: Action) -> &'static str {
        match action {
            Action::Create => "  [green]+[reset] create",
            Action::Delete => "  [red]-[reset] destroy",
            Action::Update => match self.options.flavor {
                Flavor::OpenTofu => "  [yellow]~[reset] update in-place (current -> planned)",
                Flavor::Terraform => "  [yellow]~[reset] update in-place",
            },
            Action::CreateThenDelete => {
                "[green]+[reset]/[red]-[reset] create replacement and then destroy"
            }
            Action::DeleteThenCreate => {
                "[red]-[reset]/[green]+[reset] destroy and then create replacement"
            }
            Action::ForgetThenCreate => {
                "[red].[reset]/[green]+[reset] forget and then create replacement"
            }
            Action::Read => " [cyan]<=[reset] read (data resources)",
            Action::Forget => "  [red].[reset] forget",
            Action::NoOp | Action::Unknown => "  ? (unsupported action)",
        }
    }

    fn render_outputs(&self, outputs: &[(&str, Diff)]) -> String {
        let escaped: Vec<String> = outputs
            .iter()
            .map(|(k, _)| ensure_valid_attribute_name(k))
            .collect();
        let max = escaped.iter().map(|k| k.len()).max().unwrap_or(0);
        let mut opts = RenderOpts::new(self.theme);
        opts.terraform = self.options.flavor == Flavor::Terraform;
        let mut lines = Vec::new();
        for ((_, d), key) in outputs.iter().zip(&escaped) {
            if d.action == Action::NoOp {
                continue;
            }
            lines.push(format!(
                "{} {key:<max$} = {}",
                self.theme.color(action_symbol(d.action)),
                d.render_human(0, &opts)
            ));
        }
        lines.join("\n")
    }

    fn render_drift(
        &self,
        out: &mut dyn Write,
        drift: &[ComputedChange],
        diffs_empty: bool,
    ) -> io::Result<bool> {
        let mode = self.options.mode;
        let shown: Vec<&ComputedChange> = drift
            .iter()
            .filter(|d| mode == PlanMode::RefreshOnly || d.diff.action != Action::NoOp)
            .collect();
        if shown.is_empty() {
            return Ok(false);
        }
        if diffs_empty && mode != PlanMode::RefreshOnly {
            return Ok(false);
        }
        write!(
            out,
            "{}",
            self.c("\n[bold][cyan]Note:[reset][bold] Objects have changed outside of OpenTofu\n")
        )?;
        writeln!(out)?;
        write!(out, "{}", self.wrap("OpenTofu detected the following changes made outside of OpenTofu since the last \"tofu apply\" which may have affected this plan:\n"))?;
        for d in shown {
            if let Some(text) = self.render_resource(d, Cause::Drift) {
                writeln!(out)?;
                writeln!(out, "{text}")?;
            }
        }
        let text = match mode {
            PlanMode::RefreshOnly => {
                "\n\nThis is a refresh-only plan, so OpenTofu will not take any actions to undo these. If you were expecting these changes then you can apply this plan to record the updated values in the OpenTofu state without changing any remote objects."
            }
            _ => {
                "\n\nUnless you have made equivalent changes to your configuration, or ignored the relevant attributes using ignore_changes, the following plan may include actions to undo or respond to these changes."
            }
        };
        writeln!(out, "{}", self.wrap(text))?;
        Ok(true)
    }

    fn render_resource(&self, c: &ComputedChange, cause: Cause) -> Option<String> {
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
            for line in self.annotator.resource_lines(rc) {
                buf.push_str("  ");
                buf.push_str(
                    &self
                        .theme
                        .paint(self.theme.annotation, &format!("# {line}")),
                );
                buf.push('\n');
            }
        }
        let mut opts = RenderOpts::new(self.theme);
        opts.terraform = self.options.flavor == Flavor::Terraform;
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
        buf.push_str(&format!(
            "{} {mode} \"{}\" \"{}\" {}",
            self.theme.color(match action {
                // Terraform's own symbols for the forget actions
                Action::Forget if terraform => " [red].[reset]",
                Action::ForgetThenCreate if terraform => " [green]+[reset]/[red].[reset]",
                _ => action_symbol(action),
            }),
            rc.type_,
            rc.name,
            c.diff.render_human(0, &opts)
        ));
        Some(buf)
    }

    fn resource_comment(&self, rc: &ResourceChange, action: Action, cause: Cause) -> String {
        let addr = match rc.deposed.as_deref() {
            Some(d) if !d.is_empty() => format!("{} (deposed object {d})", rc.address),
            _ => rc.address.to_string(),
        };
        let reason = rc.action_reason.as_deref().unwrap_or("");
        let deposed = rc.deposed.as_deref().is_some_and(|d| !d.is_empty());
        let prev = rc.previous_address.as_deref().unwrap_or("");
        let mut b = String::new();
        let mut printed_moved = false;
        let terraform = self.options.flavor == Flavor::Terraform;
        let replaced = |b: &mut String| {
            match reason {
            "replace_because_tainted" if terraform => b.push_str(&format!(
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
        };
        let left_over = "\n  # (left over from a partially-failed replacement of this instance)";
        match action {
            Action::Create => b.push_str(&format!("[bold]  # {addr}[reset] will be created")),
            Action::Read => {
                b.push_str(&format!(
                    "[bold]  # {addr}[reset] will be read during apply"
                ));
                match reason {
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
            Action::Update => match cause {
                Cause::Change => {
                    b.push_str(&format!("[bold]  # {addr}[reset] will be updated in-place"))
                }
                Cause::Drift => b.push_str(&format!("[bold]  # {addr}[reset] has changed")),
            },
            Action::CreateThenDelete | Action::DeleteThenCreate => replaced(&mut b),
            Action::Delete => {
                match cause {
                    Cause::Change => b.push_str(&format!(
                        "[bold]  # {addr}[reset] will be [bold][red]destroyed[reset]"
                    )),
                    Cause::Drift => {
                        b.push_str(&format!("[bold]  # {addr}[reset] has been deleted"))
                    }
                }
                match reason {
                    "delete_because_no_resource_config" => b.push_str(&format!(
                        "\n  # (because {}.{} is not in configuration)",
                        rc.type_, rc.name
                    )),
                    "delete_because_no_move_target" => b.push_str(&format!(
                        "\n  # (because {prev} was moved to {}, which is not in configuration)",
                        rc.address
                    )),
                    "delete_because_no_module" => b.push_str(&format!(
                        "\n  # (because {} is not in configuration)",
                        rc.module_address.as_deref().unwrap_or("")
                    )),
                    "delete_because_wrong_repetition" => match &rc.index {
                        Value::Null => {
                            b.push_str("\n  # (because resource uses count or for_each)")
                        }
                        Value::Number(_) => {
                            b.push_str("\n  # (because resource does not use count)")
                        }
                        Value::String(_) => {
                            b.push_str("\n  # (because resource does not use for_each)")
                        }
                        _ => {}
                    },
                    "delete_because_count_index" => b.push_str(&format!(
                        "\n  # (because index [{}] is out of range for count)",
                        raw_json(&rc.index)
                    )),
                    "delete_because_enabled_false" => {
                        b.push_str("\n  # (because enabled is false)")
                    }
                    "delete_because_each_key" => b.push_str(&format!(
                        "\n  # (because key [{}] is not in for_each map)",
                        raw_json(&rc.index)
                    )),
                    _ => {}
                }
                if deposed {
                    b.push_str(left_over);
                }
            }
            Action::Forget if terraform => {
                if deposed {
                    b.push_str(&format!("[bold] # {addr}[reset] will be removed from Terraform state, but [bold][red]will not be destroyed[reset]"));
                    b.push_str("\n[bold] # (left over from a partially-failed replacement of this instance)");
                } else {
                    b.push_str(&format!("[bold] # {addr}[reset] will no longer be managed by Terraform, but [bold][red]will not be destroyed[reset]"));
                }
                b.push_str("\n # (destroy = false is set in the configuration)");
            }
            Action::Forget => {
                b.push_str(&format!("[bold]  # {addr}[reset] will be removed from the OpenTofu state [bold][red]but will not be destroyed[reset]"));
                match reason {
                    "forgot_because_lifecycle_destroy_in_state" => b.push_str(" \n (because [bold]lifecycle.destroy = false[reset] was configured before this resource was removed from the configuration)"),
                    "forgot_because_lifecycle_destroy_in_config" => b.push_str(" \n (because [bold]lifecycle.destroy = false[reset] is set in the configuration)"),
                    _ => {}
                }
                if deposed {
                    b.push_str(left_over);
                }
            }
            Action::ForgetThenCreate if terraform => b.push_str(&format!(
                "[bold] # {addr}[reset] must be replaced, but the existing object will not be destroyed"
            )),
            Action::ForgetThenCreate => {
                replaced(&mut b);
                b.push_str(" - [yellow]older instance will [bold]not[reset][yellow] be destroyed [reset]([bold]lifecycle.destroy = false[reset])");
                if deposed {
                    b.push_str(left_over);
                }
            }
            Action::NoOp if rc.moved() => {
                b.push_str(&format!(
                    "[bold]  # {prev}[reset] has moved to [bold]{addr}[reset]"
                ));
                printed_moved = true;
            }
            Action::NoOp if rc.importing() => {
                b.push_str(&format!("[bold]  # {addr}[reset] will be imported"));
                if rc
                    .change
                    .generated_config
                    .as_deref()
                    .is_some_and(|g| !g.is_empty())
                {
                    b.push_str("\n  #[reset] (config will be generated)");
                }
            }
            Action::NoOp | Action::Unknown => b.push_str(&format!(
                "{addr} has an action the plan renderer doesn't support (this is a bug): {}",
                go_quote(
                    &rc.change
                        .actions
                        .iter()
                        .map(|a| a.as_ref())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            )),
        }
        b.push('\n');
        if rc.moved() && !printed_moved {
            b.push_str(&format!("  # [reset](moved from {prev})\n"));
        }
        // Terraform's "will be imported" header already says it all (no `(imported from …)`).
        let import_header = terraform && action == Action::NoOp && !rc.moved();
        if let Some(imp) = rc.change.importing.as_ref().filter(|_| !import_header) {
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
        // No product-wording pass here: `b` holds addresses, which must stay as they are.
        b
    }

    /// Renders a state document as `tofu show` does.
    pub fn render_state(&self, plan: &Plan, out: &mut dyn Write) -> io::Result<()> {
        let default = crate::plan::StateValues::default();
        let values = plan.values.as_ref().unwrap_or(&default);
        let empty = values.outputs.is_empty()
            && values.root_module.resources.is_empty()
            && values.root_module.child_modules.is_empty();
        if empty {
            writeln!(
                out,
                "The state file is empty. No resources are represented."
            )?;
            return Ok(());
        }
        let mut opts = RenderOpts::new(self.theme);
        opts.terraform = self.options.flavor == Flavor::Terraform;
        opts.show_unchanged_children = true;
        opts.hide_diff_action_symbols = true;
        // Iterative over modules: no recursion on input depth.
        // Like OpenTofu, each child module starts from its parent's `first` flag.
        let mut stack: Vec<(&StateModule, bool)> = vec![(&values.root_module, true)];
        while let Some((module, mut first)) = stack.pop() {
            if !module.resources.is_empty() && !first {
                writeln!(out)?;
            }
            for r in &module.resources {
                if !first {
                    writeln!(out)?;
                }
                first = false;
                match r.deposed_key.as_deref() {
                    Some(k) if !k.is_empty() => {
                        write!(out, "# {}: (deposed object {k})", r.address)?
                    }
                    _ if r.tainted => write!(out, "# {}: (tainted)", r.address)?,
                    _ => write!(out, "# {}:", r.address)?,
                }
                writeln!(out)?;
                let key = r.deposed_key.as_deref().filter(|k| !k.is_empty());
                for line in self.annotator.state_resource_lines(&r.address, key) {
                    writeln!(
                        out,
                        "{}",
                        self.theme
                            .paint(self.theme.annotation, &format!("# {line}"))
                    )?;
                }
                let (values, sensitive) = (r.values.value(), r.sensitive_values.value());
                let mut implied = None;
                let block = self.block_for(
                    &r.provider_name,
                    &r.mode,
                    &r.type_,
                    &mut implied,
                    &[&values],
                );
                let change = Change::from_state(&values, &sensitive).with_rules(self.rules());
                let diff = differ::compute_diff_for_block(&change, block);
                let kw = if r.mode == "data" { "data" } else { "resource" };
                write!(
                    out,
                    "{kw} {} {} {}",
                    go_quote(&r.type_),
                    go_quote(&r.name),
                    diff.render_human(0, &opts)
                )?;
                writeln!(out)?;
            }
            for child in module.child_modules.iter().rev() {
                stack.push((child, first));
            }
        }
        if !values.outputs.is_empty() {
            write!(out, "\n\nOutputs:\n\n")?;
            for (key, o) in &values.outputs {
                let sensitive = if o.sensitive {
                    &differ::TRUE
                } else {
                    &differ::FALSE
                };
                let change = Change::from_state(&o.value, sensitive).with_rules(self.rules());
                let ty: Option<Type> = serde_json::from_value(o.type_.to_json()).ok();
                let diff = match &ty {
                    Some(t) => differ::compute_diff_for_type(&change, t),
                    None => differ::compute_diff_for_output(&change),
                };
                writeln!(out, "{key} = {}", diff.render_human(0, &opts))?;
            }
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cause {
    Change,
    Drift,
}

fn raw_json(v: &Value) -> String {
    v.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_like_go_wordwrap() {
        let s = word_wrap(
            "\nOpenTofu used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:",
            78,
        );
        assert_eq!(
            s,
            "\nOpenTofu used the selected providers to generate the following execution\nplan. Resource actions are indicated with the following symbols:"
        );
        assert_eq!(word_wrap("  keep   me", 5), "  keep   me");
    }
}
