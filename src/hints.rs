//! What a wrong input most likely is, and how to get the plan's JSON instead: the hint that
//! replaces a bare "invalid JSON" or "not a plan" for the common mistakes (the plan's text
//! without `-json`, carbon-show's own output, HCL, a raw state file, JSON followed by a setup
//! action's wrapper lines or by a second document). Hints never quote the input.

use std::path::Path;

use crate::error::Error;

/// `e`, the error `plan::parse` gave for `bytes`, with a hint when the input is a known
/// mistake; any other error unchanged.
pub fn explain(bytes: &[u8], e: Error) -> Error {
    match e {
        Error::Json {
            path,
            line,
            column,
            message,
        } => {
            let hint = json_hint(&path, bytes, &message);
            Error::Json {
                path,
                line,
                column,
                message: hint.unwrap_or(message),
            }
        }
        Error::NotAPlan { path, message } => {
            let message = state_hint(&path, bytes).unwrap_or(message);
            Error::NotAPlan { path, message }
        }
        e => e,
    }
}

/// The text start of the input, whitespace and ANSI colour codes skipped.
fn start(bytes: &[u8]) -> String {
    let head = &bytes[..bytes.len().min(512)];
    let text = String::from_utf8_lossy(head);
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI … final byte
            if chars.peek() == Some(&'[') {
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out.trim_start().to_string()
}

/// Which setup action's wrapper wrote text like `[command]/…/tofu-bin show -json`.
fn wrapper(head: &str) -> &'static str {
    if head.contains("tofu") {
        "opentofu/setup-opentofu's wrapper: set `tofu_wrapper: false` in the workflow, or run \
         `tofu-bin`"
    } else {
        "hashicorp/setup-terraform's wrapper: set `terraform_wrapper: false` in the workflow, or \
         run `terraform-bin` (opentofu/setup-opentofu: `tofu_wrapper: false`, `tofu-bin`)"
    }
}

fn json_hint(path: &Path, bytes: &[u8], message: &str) -> Option<String> {
    let head = start(bytes);
    let show = if path == Path::new("<stdin>") {
        "pipe `tofu show -json plan.tfplan` (or `terraform show -json plan.tfplan`)".to_string()
    } else {
        "run `tofu show -json plan.tfplan > plan.json` (or `terraform show -json …`) and give \
         that file"
            .to_string()
    };
    const TEXT: &[&str] = &[
        "OpenTofu used the selected providers",
        "Terraform used the selected providers",
        "OpenTofu will perform the following actions",
        "Terraform will perform the following actions",
        "No changes.",
        "Resource actions are indicated",
        "Plan:",
        "Changes to Outputs:",
        "Carbon ",
    ];
    const ACTIONS: &[&str] = &[
        " will be created",
        " will be destroyed",
        " will be updated in-place",
        " must be replaced",
        " will be read during apply",
        "\n  # ",
    ];
    const HCL: &[&str] = &[
        "resource \"",
        "data \"",
        "module \"",
        "provider \"",
        "variable \"",
        "output \"",
        "terraform {",
        "locals {",
        "//",
        "/*",
    ];
    if message.contains("setup-terraform's wrapper") {
        return Some(format!(
            "this is a setup action's wrapper output (`[command]…`), not the plan's JSON: {}",
            wrapper(&head)
        ));
    }
    if TEXT.iter().any(|t| head.starts_with(t)) || ACTIONS.iter().any(|a| head.contains(a)) {
        return Some(format!(
            "this is a plan's text (`show` without `-json`, or carbon-show's own output), not \
             its JSON: {show}"
        ));
    }
    if HCL.iter().any(|t| head.starts_with(t)) || head.starts_with("#") {
        return Some(format!(
            "this looks like configuration (HCL, a .tf file), not a plan: make a plan with \
             `tofu plan -out=plan.tfplan`, then {show}"
        ));
    }
    if message.contains("trailing characters") {
        let (rest, _) = after_first_value(bytes)?;
        let rest = start(rest);
        if rest.starts_with("::") || rest.starts_with("[command]") || rest.starts_with("stdout: ") {
            return Some(format!(
                "the JSON is followed by a setup action's log lines (`::debug::…`): {}",
                wrapper(&String::from_utf8_lossy(bytes))
            ));
        }
        if rest.starts_with('{') {
            return Some(
                "a second JSON document follows the first: give one plan (one `show -json` \
                 output) per run"
                    .to_string(),
            );
        }
    }
    None
}

/// The rest of `bytes` after its first JSON value, when it begins with one.
fn after_first_value(bytes: &[u8]) -> Option<(&[u8], ())> {
    let mut stream =
        serde_json::Deserializer::from_slice(bytes).into_iter::<serde::de::IgnoredAny>();
    stream.next()?.ok()?;
    Some((&bytes[stream.byte_offset()..], ()))
}

/// A raw state file (`terraform.tfstate`: `"version": 4`, `resources`, no `format_version`).
fn state_hint(path: &Path, bytes: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Raw {
        version: Option<serde_json::Value>,
        terraform_version: Option<serde::de::IgnoredAny>,
        resources: Option<serde::de::IgnoredAny>,
        lineage: Option<serde::de::IgnoredAny>,
    }
    let raw: Raw = serde_json::from_slice(bytes).ok()?;
    let state = raw.version.is_some()
        && raw.resources.is_some()
        && (raw.terraform_version.is_some() || raw.lineage.is_some());
    let file = if path == Path::new("<stdin>") {
        "terraform.tfstate".to_string()
    } else {
        path.display().to_string()
    };
    state.then(|| {
        format!(
            "this is a raw state file (terraform.tfstate, state format {}), not `show -json` \
             output: run `tofu show -json {file}` (or `terraform show -json {file}`) and give \
             its output",
            raw.version.map(|v| v.to_string()).unwrap_or_default()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint(text: &str) -> String {
        let e = crate::plan::parse(Path::new("<stdin>"), text.as_bytes()).unwrap_err();
        explain(text.as_bytes(), e).to_string()
    }

    #[test]
    fn plan_text_without_json_got_no_hint() {
        for text in [
            "\nOpenTofu used the selected providers to generate the following execution\nplan.",
            "\u{1b}[1mTerraform will perform the following actions:\u{1b}[0m\n",
            "\n  # aws_instance.web will be created\n  + resource \"aws_instance\" \"web\" {\n",
            "No changes. Your infrastructure matches the configuration.\n",
        ] {
            let h = hint(text);
            assert!(h.contains("a plan's text"), "{text:?}: {h}");
            assert!(h.contains("pipe `tofu show -json plan.tfplan`"), "{h}");
        }
    }

    #[test]
    fn hcl_got_no_hint() {
        let h = hint("resource \"aws_instance\" \"web\" {\n  ami = \"x\"\n}\n");
        assert!(h.contains("configuration (HCL"), "{h}");
        let h = hint("# main.tf\nterraform {\n}\n");
        assert!(h.contains("configuration (HCL"), "{h}");
    }

    #[test]
    fn json_followed_by_debug_lines_said_trailing_characters() {
        let h = hint("{\"format_version\":\"1.2\"}\n::debug::stdout: ...\n::debug::exitcode: 0\n");
        assert!(h.contains("`terraform_wrapper: false`"), "{h}");
        let h = hint("{\"format_version\":\"1.2\"}\n[command]/opt/tofu-bin show -json\n");
        assert!(h.contains("`tofu_wrapper: false`"), "{h}");
        assert!(!h.contains("terraform_wrapper"), "{h}");
        let h = hint("{\"format_version\":\"1.2\"}\n{\"format_version\":\"1.2\"}\n");
        assert!(h.contains("a second JSON document"), "{h}");
        // the wrapper's text alone, from setup-opentofu
        let h = hint("[command]/home/runner/tofu-bin show -json plan\n{}\n");
        assert!(
            h.contains("setup-opentofu's wrapper: set `tofu_wrapper: false`"),
            "{h}"
        );
    }

    #[test]
    fn raw_state_was_called_not_a_plan_or_state() {
        let h = hint(
            "{\"version\": 4, \"terraform_version\": \"1.11.4\", \"serial\": 3, \"lineage\": \
             \"x\", \"outputs\": {}, \"resources\": []}",
        );
        assert!(h.contains("raw state file"), "{h}");
        assert!(h.contains("state format 4"), "{h}");
        assert!(h.contains("tofu show -json terraform.tfstate"), "{h}");
    }
}
