//! Colour output: ANSI spelled out as `(green)…(reset)` and snapshotted.

use crate::common::*;

fn spell(ansi: &str) -> String {
    ansi.replace("\x1b[1m", "(bold)")
        .replace("\x1b[2m", "(dim)")
        .replace("\x1b[31m", "(red)")
        .replace("\x1b[32m", "(green)")
        .replace("\x1b[33m", "(yellow)")
        .replace("\x1b[36m", "(cyan)")
        .replace("\x1b[90m", "(dark_gray)")
        .replace("\x1b[0m", "(reset)")
}

const PLAN: &str = r#"{"format_version":"1.2","resource_changes":[
 {"address":"a.new","mode":"managed","type":"a","name":"new","change":{"actions":["create"],"after":{"x":"1"}}},
 {"address":"a.old","mode":"managed","type":"a","name":"old","change":{"actions":["delete"],"before":{"x":"1"}}},
 {"address":"a.upd","mode":"managed","type":"a","name":"upd","change":{"actions":["update"],"before":{"x":"1","y":"same"},"after":{"x":"2","y":"same"}}},
 {"address":"a.rep","mode":"managed","type":"a","name":"rep","change":{"actions":["delete","create"],"before":{"x":"1"},"after":{"x":"2"},"replace_paths":[["x"]]}},
 {"address":"data.d.r","mode":"data","type":"d","name":"r","change":{"actions":["read"],"after":{},"after_unknown":{"id":true}},"action_reason":"read_because_config_unknown"}]}"#;

#[test]
fn always_colours_like_opentofu() {
    let o = run(&["--color", "always"], PLAN.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    insta::assert_snapshot!("color_plan", spell(&stdout(&o)));
}

#[test]
fn never_has_no_escapes() {
    let o = run(&["--color", "never"], PLAN.as_bytes());
    assert!(!stdout(&o).contains('\x1b'));
}

#[test]
fn auto_is_plain_when_piped_and_honours_clicolor_force() {
    let o = run(&["--color", "auto"], PLAN.as_bytes());
    assert!(!stdout(&o).contains('\x1b'));
    let mut cmd = bin();
    let out = cmd
        .args(["--color", "auto"])
        .env("CLICOLOR_FORCE", "1")
        .env_remove("NO_COLOR")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(PLAN.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("\x1b[32m"));
    let out = bin()
        .args(["--color", "auto"])
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(PLAN.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains('\x1b'));
}
