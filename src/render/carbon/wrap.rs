//! A summary's styled lines on a terminal: each piece's style from its tone ([`style`]), and a
//! line past the terminal's width cut at spaces into indented continuation lines ([`fit`]).

use anstyle::Style;

use super::summary::{Line, Tone};
use crate::render::Theme;

/// The theme's style for a piece of a summary line (`None`: plain).
pub(super) fn style(theme: &Theme, tone: Tone) -> Option<Style> {
    match tone {
        Tone::Plain => None,
        Tone::Label => Some(theme.bold),
        Tone::Up => Some(theme.delete),
        Tone::Down => Some(theme.create),
        Tone::Detail => Some(theme.annotation),
    }
}

/// One styled line cut at spaces into lines of at most `width` columns, continued after four
/// spaces.
pub(super) fn fit(line: Line, width: usize) -> Vec<Line> {
    let total: usize = line.iter().map(|(_, t)| t.chars().count()).sum();
    if total <= width {
        return vec![line];
    }
    let width = width.max(20);
    // continued two columns deeper than the line (at least four)
    let lead = (line.iter().map(|(_, t)| t.as_str()).collect::<String>())
        .chars()
        .take_while(|c| *c == ' ')
        .count();
    let cont = " ".repeat((lead + 2).max(4));
    let mut out: Vec<Line> = Vec::new();
    let mut cur: Line = Vec::new();
    let mut cur_w = 0;
    for (tone, text) in line {
        for seg in text.split_inclusive(' ') {
            let w = seg.trim_end().chars().count();
            if cur_w > 0 && cur_w + w > width && !seg.trim().is_empty() {
                // the break eats the space before it
                if let Some((_, last)) = cur.last_mut() {
                    let trimmed = last.trim_end().len();
                    last.truncate(trimmed);
                }
                out.push(std::mem::take(&mut cur));
                cur.push((Tone::Detail, cont.clone()));
                cur_w = cont.len();
            }
            let piece = if cur_w == cont.len() && cur.len() == 1 && !out.is_empty() {
                seg.trim_start()
            } else {
                seg
            };
            cur_w += piece.chars().count();
            cur.push((tone, piece.to_string()));
        }
    }
    out.push(cur);
    out
}
