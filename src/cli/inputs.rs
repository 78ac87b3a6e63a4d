//! The inputs of a `show` run: `FILE`, `NAME=FILE` or `-` each, as `NamedInput`s.

use std::path::PathBuf;

use super::{Args, Input, NamedInput, input_of};
use crate::error::Error;

/// The inputs of a `show`: `FILE`, `NAME=FILE` or `-` each (none: standard input). An
/// argument that names an existing file is that file, `=` or not. A later input that is a
/// subcommand's name and no file is refused, naming it (subcommands come first).
pub(super) fn parse_inputs(
    args: &[PathBuf],
    cwd: &std::path::Path,
) -> Result<Vec<NamedInput>, Error> {
    use clap::CommandFactory;
    let mut out = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        let text = arg.to_string_lossy();
        let exists = cwd.join(arg).exists();
        if i > 0
            && !exists
            && Args::command()
                .get_subcommands()
                .any(|c| c.get_name() == text)
        {
            return Err(Error::Usage(format!(
                "input {} `{}` is a subcommand's name and no such file: a subcommand comes                  first (`carbon-show {} …`); a plan file of that name: `./{}`",
                i + 1,
                crate::escape::line(&text),
                crate::escape::line(&text),
                crate::escape::line(&text),
            )));
        }
        let named = match text.split_once('=') {
            Some((name, file)) if !exists => {
                if name.trim().is_empty() || file.is_empty() {
                    return Err(Error::Usage(format!(
                        "input `{}`: NAME=FILE needs a name and a file (`app=plan.json`)",
                        crate::escape::line(&text)
                    )));
                }
                NamedInput {
                    name: Some(name.to_string()),
                    input: input_of(Some(PathBuf::from(file))),
                }
            }
            _ => NamedInput {
                name: None,
                input: input_of(Some(arg.clone())),
            },
        };
        out.push(named);
    }
    if out.is_empty() {
        out.push(NamedInput {
            name: None,
            input: Input::Stdin,
        });
    }
    if out.iter().filter(|n| n.input == Input::Stdin).count() > 1 {
        return Err(Error::Usage(
            "standard input (`-`) is given more than once: it can be read once".to_string(),
        ));
    }
    Ok(out)
}
