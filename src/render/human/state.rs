//! How the human renderer prints a state document, as `tofu show` does.

use std::io::{self, Write};

use super::HumanRenderer;
use crate::computed::go_quote;
use crate::differ::{self, Change};
use crate::plan::{Plan, StateModule};
use crate::schema::Type;

impl HumanRenderer<'_> {
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
        let mut opts = self.render_opts();
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
                // a forged address is escaped for the terminal (`crate::escape`)
                let address = crate::escape::line(&r.address);
                match r.deposed_key.as_deref() {
                    Some(k) if !k.is_empty() => write!(
                        out,
                        "# {address}: (deposed object {})",
                        crate::escape::line(k)
                    )?,
                    _ if r.tainted => write!(out, "# {address}: (tainted)")?,
                    _ => write!(out, "# {address}:")?,
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
