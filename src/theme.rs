//! The one colour theme: every style of the human output, built from anstyle [`Style`]s.
//!
//! Templates use OpenTofu's colour markup (`[green]+[reset]`, `[bold]`, `[dark_gray]`, …);
//! [`Theme::color`] turns the known tags into the theme's styles, or strips them when colour
//! is off. User content is never passed through markup.

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};

/// Styles of the human renderer, one slot per markup tag.
#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    /// Whether styles are emitted at all.
    pub enabled: bool,
    pub bold: Style,
    pub create: Style,
    pub delete: Style,
    pub update: Style,
    pub read: Style,
    pub dim: Style,
    /// Lines added by an [`crate::render::Annotator`].
    pub annotation: Style,
}

impl Theme {
    /// OpenTofu's colours (green create, red destroy, yellow update, cyan read, dark grey
    /// for hidden-element notes and `null`).
    pub fn colored() -> Theme {
        Theme {
            enabled: true,
            bold: Style::new().bold(),
            create: AnsiColor::Green.on_default(),
            delete: AnsiColor::Red.on_default(),
            update: AnsiColor::Yellow.on_default(),
            read: AnsiColor::Cyan.on_default(),
            dim: AnsiColor::BrightBlack.on_default(),
            annotation: Style::new().dimmed(),
        }
    }

    /// No colour at all.
    pub fn plain() -> Theme {
        Theme {
            enabled: false,
            ..Theme::colored()
        }
    }

    fn tag(&self, name: &str) -> Option<Style> {
        Some(match name {
            "reset" => Style::new(),
            "bold" => self.bold,
            "green" => self.create,
            "red" => self.delete,
            "yellow" => self.update,
            "cyan" => self.read,
            "dark_gray" => self.dim,
            "annotation" => self.annotation,
            _ => return None,
        })
    }

    /// Applies colour markup: known `[tag]`s become styles (or vanish when colour is off);
    /// unknown bracketed text (like `[0]`) is kept. A coloured fragment ends with a reset.
    pub fn color(&self, markup: &str) -> String {
        let mut out = String::with_capacity(markup.len() + 16);
        let mut rest = markup;
        let mut colored = false;
        while let Some(open) = rest.find('[') {
            let Some(close_rel) = rest[open..].find(']') else {
                break;
            };
            let name = &rest[open + 1..open + close_rel];
            out.push_str(&rest[..open]);
            match self.tag(name) {
                Some(style) => {
                    colored = true;
                    if self.enabled {
                        if name == "reset" {
                            let _ = write!(out, "{}", anstyle::Reset.render());
                        } else {
                            let _ = write!(out, "{}", style.render());
                        }
                    }
                }
                None => out.push_str(&rest[open..=open + close_rel]),
            }
            rest = &rest[open + close_rel + 1..];
        }
        out.push_str(rest);
        if colored && self.enabled {
            let _ = write!(out, "{}", anstyle::Reset.render());
        }
        out
    }

    /// Paints one line of user text with a style slot (no markup parsing).
    pub fn paint(&self, style: Style, text: &str) -> String {
        if self.enabled {
            format!("{}{}{}", style.render(), text, style.render_reset())
        } else {
            text.to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_known_tags_only() {
        let t = Theme::plain();
        assert_eq!(t.color("[green]+[reset] a[0]"), "+ a[0]");
        assert_eq!(t.color("x[dark_gray]null[reset]"), "xnull");
        assert_eq!(t.color("[unclosed"), "[unclosed");
    }

    #[test]
    fn colours() {
        let t = Theme::colored();
        assert_eq!(t.color("[green]+[reset]"), "\x1b[32m+\x1b[0m\x1b[0m");
    }
}
