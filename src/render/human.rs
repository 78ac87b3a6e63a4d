//! The human plan and state renderer: OpenTofu's `tofu show` text, byte for byte.

mod resource;
mod state;

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{self, Write};
use std::rc::Rc;

use rayon::prelude::*;

use crate::computed::{Diff, RenderOpts, action_symbol, ensure_valid_attribute_name};
use crate::differ::{self, Change, Matcher};
use crate::plan::{Action, Plan, ResourceChange, Value};
use crate::schema::{self, Block, Schemas};
use crate::structured::{Since, Version};
use crate::theme::Theme;

/// How many resources one rendering job takes, and how many jobs may be in flight: the rayon
/// workers render ahead while the caller writes the finished chunks out, in order.
const RENDER_CHUNK: usize = 32;
const RENDER_AHEAD: usize = 16;

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
    /// The Terraform version whose rules apply (`--terraform-version`); `None`: the
    /// document's `terraform_version`, else the newest rules (`structured::version`).
    pub version: Option<Version>,
}

impl Default for HumanOptions {
    fn default() -> Self {
        HumanOptions {
            flavor: Flavor::OpenTofu,
            mode: PlanMode::Normal,
            columns: DEFAULT_COLUMNS,
            running_in_automation: false,
            version: None,
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
    /// Hands [`Annotator::resource_lines`] to `each`, one line at a time, in order: what the
    /// renderer calls. An annotator that keeps its lines overrides it to lend them rather
    /// than copy them.
    fn for_each_resource_line(&self, rc: &ResourceChange, each: &mut dyn FnMut(&str)) {
        for line in self.resource_lines(rc) {
            each(&line);
        }
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

/// The implied schema of values without a schema ([`schema::implied_block`]), kept by shape:
/// resources of one type nearly always have the same. A cache per thread (the rayon workers
/// render resources side by side), emptied when it holds [`IMPLIED_CACHED`] shapes.
fn implied_block(values: &[&Value]) -> Rc<Block> {
    type Cache = (
        Vec<u8>,
        HashMap<Box<[u8]>, Rc<Block>, foldhash::fast::FixedState>,
    );
    thread_local! {
        static IMPLIED: RefCell<Cache> = RefCell::default();
    }
    IMPLIED.with(|cache| {
        let (shape, blocks) = &mut *cache.borrow_mut();
        shape.clear();
        schema::implied_shape(values, shape);
        if let Some(b) = blocks.get(shape.as_slice()) {
            return Rc::clone(b);
        }
        let block = Rc::new(schema::block_of_shape(shape));
        if shape.len() > IMPLIED_CACHED_BYTES {
            // a wide resource's shape (its every key): not kept, nor its copy in the cache
            *shape = Vec::new();
            return block;
        }
        if blocks.len() >= IMPLIED_CACHED {
            blocks.clear();
        }
        blocks.insert(shape.as_slice().into(), Rc::clone(&block));
        block
    })
}

/// How many implied schemas a thread keeps.
const IMPLIED_CACHED: usize = 1024;

/// The longest shape whose schema a thread keeps (a resource of some 2,000 attributes): a
/// longer one is a wide resource, rarely repeated, whose shape and schema would stay for the
/// rest of the run.
const IMPLIED_CACHED_BYTES: usize = 64 * 1024;

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
            since: self.since(),
            hide_unchanged_attributes: false,
        }
    }

    /// The version switches: Terraform's of `options.version`, the newest for OpenTofu.
    fn since(&self) -> Since {
        match self.options.flavor {
            Flavor::Terraform => Since::terraform(self.options.version),
            Flavor::OpenTofu => Since::NEWEST,
        }
    }

    /// Computed-renderer options for this flavour and version.
    fn render_opts(&self) -> RenderOpts<'r> {
        let mut opts = RenderOpts::new(self.theme);
        opts.terraform = self.options.flavor == Flavor::Terraform;
        opts.since = self.since();
        opts
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
        implied: &'s mut Option<Rc<Block>>,
        values: &[&Value],
    ) -> &'s Block {
        if let Some(b) = self.schemas.and_then(|s| s.block(provider, mode, type_)) {
            return b;
        }
        implied.insert(implied_block(values))
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
        // the resource's unchanged attributes are hidden unless it is imported
        // (`render_resource`): counted by the differ, not kept
        let rules = differ::Rules {
            hide_unchanged_attributes: !rc.importing(),
            ..self.rules()
        };
        let mut change = Change::from_plan(&c, relevant).with_rules(rules);
        if self.options.flavor == Flavor::Terraform && rc.action() == Action::Forget {
            // Terraform shows a forget-only change as a no-op (its `AsNoOp`).
            change = change.as_noop();
        }
        let diff = differ::compute_diff_for_block(&change, block);
        ComputedChange { rc, diff }
    }

    /// Renders a plan or a state document, with the rules of `options.version`, else of the
    /// document's `terraform_version`.
    pub fn render(&self, plan: &Plan, out: &mut dyn Write) -> io::Result<Rendered> {
        if self.options.version.is_none()
            && let Some(version) = plan.version()
        {
            let with_version = HumanRenderer {
                options: HumanOptions {
                    version: Some(version),
                    ..self.options
                },
                ..*self
            };
            return with_version.render(plan, out);
        }
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
        let errored = plan.errored.unwrap_or(false);
        let empty_rc = Vec::new();
        let drift = self.drift_diffs(plan);
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

        // (stops at the first change: usually one of the first few resources). The diff that
        // answered is kept for its rendering: a wide resource is diffed once, not twice.
        let first_change = changes.par_iter().find_map_first(|rc| {
            if rc.moved() {
                return Some(None);
            }
            let c = self.compute(rc, Matcher::Always);
            (c.diff.action != Action::NoOp).then_some(Some(c))
        });
        let diffs_empty =
            first_change.is_none() && outputs.iter().all(|(_, d)| d.action == Action::NoOp);
        let mut first_change = first_change.flatten();

        let have_refresh_changes = self.render_drift(out, &drift, diffs_empty)?;

        let t = Tally::of(changes);

        let outputs_text = self.render_outputs(&outputs);

        if t.shown.is_empty()
            && outputs_text.is_empty()
            && self.no_changes(out, plan, have_refresh_changes, plan_line)?
        {
            return Ok(());
        }

        if have_refresh_changes {
            writeln!(out, "{}", self.rule())?;
        }

        if t.will_print {
            self.legend(out, &t)?;
        }

        if !t.shown.is_empty() {
            if errored {
                write!(out, "{}", self.words("\nOpenTofu planned the following actions, but then encountered a problem:\n"))?;
            } else {
                write!(
                    out,
                    "{}",
                    self.words("\nOpenTofu will perform the following actions:\n")
                )?;
            }
            self.render_changes(&t.shown, &mut first_change, out)?;
            self.plan_counts(out, &t, plan_line)?;
        }

        if !outputs_text.is_empty() {
            write!(out, "\nChanges to Outputs:\n")?;
            writeln!(out, "{outputs_text}")?;
            if t.counts.is_empty() {
                writeln!(out, "{}", self.wrap("\nYou can apply this plan to save these new output values to the OpenTofu state, without changing any real infrastructure."))?;
            }
        }
        Ok(())
    }

    /// The drift worth showing: every drifted resource in a refresh-only plan, else those with
    /// a relevant attribute; never an ephemeral one.
    fn drift_diffs<'p, 'a>(&self, plan: &'p Plan<'a>) -> Vec<ComputedChange<'p, 'a>> {
        let mode = self.options.mode;
        let relevant_attrs = plan.relevant_attributes.as_ref();
        let mut drift = Vec::new();
        for rc in plan.resource_drift.iter().flatten() {
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
        drift
    }

    /// The "No changes." (or "Planning failed.") text of a plan with no resource or output to
    /// show. `true`: the plan's text ends there.
    fn no_changes(
        &self,
        out: &mut dyn Write,
        plan: &Plan,
        have_refresh_changes: bool,
        plan_line: &mut Option<String>,
    ) -> io::Result<bool> {
        let mode = self.options.mode;
        let errored = plan.errored.unwrap_or(false);
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
                        return Ok(true);
                    }
                    *plan_line = Some(
                        "No changes. Your infrastructure still matches the configuration.".into(),
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
                    *plan_line =
                        Some("No changes. Your infrastructure matches the configuration.".into());
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
                        return Ok(true);
                    }
                    writeln!(out, "{}", self.wrap("OpenTofu has compared your real infrastructure against your configuration and found no differences, so no changes are needed."))?;
                }
            }
        }

        Ok(false)
    }

    /// The legend of the action symbols the plan uses.
    fn legend(&self, out: &mut dyn Write, t: &Tally) -> io::Result<()> {
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
            if t.count(action) > 0 && !(forget && self.options.flavor == Flavor::Terraform) {
                writeln!(out, "{}", self.c(self.action_description(action)))?;
            }
        }

        Ok(())
    }

    /// The `Plan: N to add, …` line (and its words for `plan_line`).
    fn plan_counts(
        &self,
        out: &mut dyn Write,
        t: &Tally,
        plan_line: &mut Option<String>,
    ) -> io::Result<()> {
        let (count, importing, mut forgetting) =
            (|a: Action| t.count(a), t.importing, t.forgetting);
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
        if self.options.flavor == Flavor::Terraform && self.since().plan_bold_only {
            // Terraform 1.14+ colours only `Plan: ` (its reset lands before the counts).
            writeln!(out, "{}{summary}", self.c("\n[bold]Plan:[reset] "))?;
        } else {
            // Coloured as one piece, like OpenTofu and Terraform before 1.14 (the reset
            // lands after the newline).
            write!(
                out,
                "{}",
                self.c(&format!("\n[bold]Plan:[reset] {summary}\n"))
            )?;
        }
        *plan_line = Some(format!("Plan: {summary}"));
        Ok(())
    }

    /// Renders the shown resource changes in parallel, [`RENDER_CHUNK`] resources a job with
    /// up to [`RENDER_AHEAD`] jobs queued, and writes them in order as they come: the workers
    /// never wait for the writing, and no more than the queued chunks' text is held.
    /// `computed` is a change already diffed (by the search for the first change), used
    /// instead of diffing it again.
    fn render_changes<'p, 'a>(
        &self,
        shown: &[&'p ResourceChange<'a>],
        computed: &mut Option<ComputedChange<'p, 'a>>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        type Texts = Vec<Option<String>>;
        rayon::in_place_scope_fifo(|scope| {
            let mut chunks = shown.chunks(RENDER_CHUNK);
            let mut queued = std::collections::VecDeque::with_capacity(RENDER_AHEAD);
            let mut queue_next = |queued: &mut std::collections::VecDeque<_>| {
                if let Some(chunk) = chunks.next() {
                    let (tx, rx) = std::sync::mpsc::sync_channel::<Texts>(1);
                    // the chunk that holds the change already diffed takes it along
                    let mut done =
                        computed.take_if(|c| chunk.iter().any(|rc| std::ptr::eq(*rc, c.rc)));
                    scope.spawn_fifo(move |_| {
                        let texts = chunk
                            .iter()
                            .map(|rc| {
                                let c = match done.take_if(|c| std::ptr::eq(*rc, c.rc)) {
                                    Some(c) => c,
                                    None => self.compute(rc, Matcher::Always),
                                };
                                self.render_resource(&c, Cause::Change)
                            })
                            .collect();
                        // (the receiver is gone only when writing failed)
                        let _ = tx.send(texts);
                    });
                    queued.push_back(rx);
                }
            };
            for _ in 0..RENDER_AHEAD {
                queue_next(&mut queued);
            }
            while let Some(rx) = queued.pop_front() {
                // no text: the job panicked, and the scope passes its panic on
                let Ok(texts) = rx.recv() else { break };
                queue_next(&mut queued);
                for text in texts.into_iter().flatten() {
                    writeln!(out)?;
                    writeln!(out, "{text}")?;
                }
            }
            Ok(())
        })
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
        let opts = self.render_opts();
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cause {
    Change,
    Drift,
}

fn raw_json(v: &Value) -> String {
    v.to_string()
}

/// The resource changes a plan shows, and what its legend and `Plan:` line count of them.
struct Tally<'p> {
    shown: Vec<&'p ResourceChange<'p>>,
    /// Changes per action (`Action as u8`), no-ops left out.
    counts: std::collections::BTreeMap<u8, usize>,
    importing: usize,
    forgetting: usize,
    /// Whether any change is more than a no-op (then the legend is printed).
    will_print: bool,
}

impl<'p> Tally<'p> {
    fn of(changes: &'p [ResourceChange<'p>]) -> Tally<'p> {
        let mut t = Tally {
            shown: Vec::new(),
            counts: std::collections::BTreeMap::new(),
            importing: 0,
            forgetting: 0,
            will_print: false,
        };
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
            t.shown.push(rc);
            if rc.importing() {
                t.importing += 1;
            }
            if matches!(action, Action::Forget | Action::ForgetThenCreate) {
                t.forgetting += 1;
            }
            if action != Action::NoOp {
                t.will_print = true;
                *t.counts.entry(action as u8).or_default() += 1;
            }
        }
        t
    }

    fn count(&self, a: Action) -> usize {
        self.counts.get(&(a as u8)).copied().unwrap_or(0)
    }
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
