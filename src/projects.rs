//! Several plans in one run: each input (`FILE`, `NAME=FILE`, `-`) is a project, each document
//! of a stream of concatenated JSON documents (`terragrunt run-all show -json`) is one, and
//! every project has a name of its own.

use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::cli::{Input, NamedInput};
use crate::error::Error;

/// One project's document, read.
#[derive(Debug)]
pub struct Project {
    /// Its name in the summary, the comment and the JSON; unique in a run.
    pub name: String,
    /// The input as given (`live/app/plan.json`, `-`), `#N` for a stream's Nth document.
    pub input: String,
    /// The place errors name: the file (or `<stdin>`), `#N` for a stream's Nth document.
    pub path: PathBuf,
    pub bytes: Vec<u8>,
}

/// A project's name when `NAME=FILE` gives none: the path as given, without a trailing
/// `/plan.json` or `.json` (`live/app/plan.json` → `live/app`, `db.json` → `db`);
/// standard input is `stdin`.
pub fn default_name(input: &Input) -> String {
    let Input::File(p) = input else {
        return "stdin".to_string();
    };
    let text = p.to_string_lossy();
    let stripped = text
        .strip_suffix("/plan.json")
        .or_else(|| text.strip_suffix(".json"))
        .filter(|s| !s.is_empty() && !s.ends_with('/'));
    stripped.unwrap_or(&text).to_string()
}

/// The input as the JSON's `input` names it.
fn input_text(input: &Input) -> String {
    match input {
        Input::Stdin => "-".to_string(),
        Input::File(p) => p.to_string_lossy().into_owned(),
    }
}

/// Reads every input; a stream of documents becomes one project per document. Duplicate
/// names are refused (exit 2), naming both inputs.
pub fn read(inputs: &[NamedInput]) -> Result<Vec<Project>, Error> {
    let mut out = Vec::new();
    for named in inputs {
        let bytes = crate::app::read_input(&named.input)?;
        let path = named.input.display_path();
        match split_stream(&path, &bytes) {
            Some(docs) => out.extend(stream(named, &bytes, &docs?)),
            None => out.push(Project {
                name: named
                    .name
                    .clone()
                    .unwrap_or_else(|| default_name(&named.input)),
                input: input_text(&named.input),
                path,
                bytes,
            }),
        }
    }
    check_unique(&out)?;
    Ok(out)
}

/// The projects of one input's stream of documents (`docs`: their byte ranges), named
/// `<name>#1`, `#2`…: a plan holds nothing that names its root.
pub fn stream(named: &NamedInput, bytes: &[u8], docs: &[Range<usize>]) -> Vec<Project> {
    let name = (named.name.clone()).unwrap_or_else(|| default_name(&named.input));
    let path = named.input.display_path();
    let input = input_text(&named.input);
    (docs.iter().enumerate())
        .map(|(i, r)| Project {
            name: format!("{name}#{}", i + 1),
            input: format!("{input}#{}", i + 1),
            path: PathBuf::from(format!("{}#{}", path.display(), i + 1)),
            bytes: bytes[r.clone()].to_vec(),
        })
        .collect()
}

/// Refuses two projects of one name (exit 2), naming both inputs and what to do.
pub fn check_unique(projects: &[Project]) -> Result<(), Error> {
    let mut seen: std::collections::HashMap<&str, &str> = Default::default();
    for p in projects {
        if let Some(first) = seen.insert(&p.name, &p.input) {
            return Err(Error::Usage(format!(
                "two inputs are both named project `{}` ({} and {}): name them apart with \
                 NAME=FILE (`app-a={}`)",
                p.name, first, p.input, p.input
            )));
        }
    }
    Ok(())
}

/// The byte ranges of the documents of a stream of concatenated JSON documents (whitespace
/// between them), or `None` when `bytes` is not one: a single document, or a document
/// followed by something else (a setup action's `::debug::` lines, which `hints` explains).
/// A piece of a stream that is not JSON is an error (exit 5) naming the document
/// (`file#N`), its line and column in the input, and its byte offset.
pub fn split_stream(path: &Path, bytes: &[u8]) -> Option<Result<Vec<Range<usize>>, Error>> {
    let first = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    if bytes[first] != b'{' {
        return None;
    }
    let mut docs = serde_json::Deserializer::from_slice(bytes).into_iter::<serde::de::IgnoredAny>();
    docs.next()?.ok()?;
    let end = docs.byte_offset();
    let rest = &bytes[end..];
    let next = rest.iter().position(|b| !b.is_ascii_whitespace())? + end;
    const LOG_LINES: [&[u8]; 3] = [b"::", b"[command]", b"stdout: "];
    if LOG_LINES.iter().any(|l| bytes[next..].starts_with(l)) {
        return None;
    }
    let mut ranges = Vec::new();
    ranges.push(first..end);
    let mut start = next;
    loop {
        match docs.next() {
            None => return Some(Ok(ranges)),
            Some(Ok(_)) => {
                let end = docs.byte_offset();
                ranges.push(start..end);
                let rest = &bytes[end..];
                match rest.iter().position(|b| !b.is_ascii_whitespace()) {
                    Some(n) => start = end + n,
                    None => return Some(Ok(ranges)),
                }
            }
            Some(Err(e)) => {
                let n = ranges.len() + 1;
                // serde_json's message names the place itself; the line and column are said once
                let message = e.to_string();
                let message = message.split(" at line ").next().unwrap_or_default();
                return Some(Err(Error::Json {
                    path: PathBuf::from(format!("{}#{n}", path.display())),
                    line: e.line(),
                    column: e.column(),
                    message: format!(
                        "document {n} of a stream of JSON documents, from byte offset {start}, \
                         is not JSON ({message}): give plans as `show -json` prints them"
                    ),
                }));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_drop_the_json_noise_only() {
        let name = |p: &str| default_name(&Input::File(p.into()));
        assert_eq!(name("live/app/plan.json"), "live/app");
        assert_eq!(name("db.json"), "db");
        assert_eq!(name("plan.json"), "plan");
        assert_eq!(name("app.tfplan"), "app.tfplan");
        assert_eq!(name(".json"), ".json");
        assert_eq!(name("x//plan.json"), "x//plan.json");
        assert_eq!(default_name(&Input::Stdin), "stdin");
    }

    #[test]
    fn streams_split_between_documents() {
        let p = Path::new("s.json");
        let text = b" {\"a\":1}\n{\"b\": [2]} \n\n{}\n";
        let r = split_stream(p, text).unwrap().unwrap();
        assert_eq!(r, [1..8, 9..19, 22..24]);
        // one document, or one followed by log lines: not a stream
        assert!(split_stream(p, b"{\"a\":1}\n").is_none());
        assert!(split_stream(p, b"{\"a\":1}\n::debug::x").is_none());
        assert!(split_stream(p, b"[1] [2]").is_none());
    }

    #[test]
    fn a_stream_with_a_piece_that_is_not_json_names_it_and_its_offset() {
        let text = b"{\"a\":1}\n{\"b\":2}\nnot json\n{}";
        let e = split_stream(Path::new("s.json"), text)
            .unwrap()
            .unwrap_err();
        let e = e.to_string();
        assert!(
            e.starts_with("s.json#3: invalid JSON at line 3, column"),
            "{e}"
        );
        assert!(e.contains("from byte offset 16"), "{e}");
        assert!(!e.contains("not json"), "the input is never quoted: {e}");
    }
}
