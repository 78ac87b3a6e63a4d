//! Placeholders (`${this.<jq>}`, `${key}`, `${config.<path>}`, `${<variable>}`): rewriting them into jq variables so each filter compiles once.
//!
//! A placeholder inside a jq string literal (`"${this.address}"`) becomes an interpolation
//! `\($__ph_N)` bound to the placeholder's value as text; anywhere else (`${ami}.values.x`,
//! `${nb_zones} >= 3`) it becomes `$__ph_N`, bound to the value itself. The filter text after the
//! rewrite no longer depends on the resource, so it is compiled once per mapping load.

/// What a placeholder refers to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PhKind {
    /// `${this.<jq>}`: the jq path (with its leading `.`) evaluated on the current resource.
    This(String),
    /// `${key}`: the value a `reference` is resolving.
    Key,
    /// `${config.<dotted.path>}`: an engine setting, e.g. `provider.gcp.avg_autoscaler_size_percent`.
    Config(String),
    /// `${<name>}`: a variable of the resource mapping's `variables:` section.
    Var(String),
}

/// One placeholder occurrence in a filter.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Placeholder {
    pub kind: PhKind,
    /// True when it stood inside a jq string literal (bound as text).
    pub in_string: bool,
}

/// A filter text with its placeholders replaced by `$__ph_N` variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewritten {
    pub text: String,
    pub placeholders: Vec<Placeholder>,
    /// (offset in rewritten text, offset in original text) at each change, to map error positions back.
    pub offsets: Vec<(usize, usize)>,
}

impl Rewritten {
    /// Map a byte offset of the rewritten text back to the original text.
    pub fn original_offset(&self, at: usize) -> usize {
        let mut best = (0, 0);
        for &(r, o) in &self.offsets {
            if r <= at {
                best = (r, o);
            }
        }
        best.1 + (at - best.0)
    }
}

/// Name of the jq variable bound to the `i`-th placeholder.
pub fn var_name(i: usize) -> String {
    format!("$__ph_{i}")
}

fn kind_of(name: &str) -> PhKind {
    let name = name.trim();
    if let Some(rest) = name.strip_prefix("this") {
        if rest.starts_with('.') || rest.is_empty() {
            let path = if rest.is_empty() {
                ".".to_string()
            } else {
                rest.to_string()
            };
            return PhKind::This(path);
        }
    }
    if name == "key" {
        return PhKind::Key;
    }
    if let Some(rest) = name.strip_prefix("config.") {
        return PhKind::Config(rest.to_string());
    }
    PhKind::Var(name.to_string())
}

/// Rewrite every `${...}` of `text`. Placeholder occurrences are numbered from 0 in order.
pub fn rewrite(text: &str) -> Rewritten {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut placeholders = Vec::new();
    let mut offsets = vec![(0, 0)];
    let mut in_string = false;
    let mut i = 0;
    let mut last = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'$' && bytes.get(i + 1) == Some(&b'{') {
            if let Some(end) = text[i + 2..].find('}') {
                let name = &text[i + 2..i + 2 + end];
                out.push_str(&text[last..i]);
                let n = placeholders.len();
                if in_string {
                    out.push_str(&format!("\\({})", var_name(n)));
                } else {
                    out.push_str(&var_name(n));
                }
                placeholders.push(Placeholder {
                    kind: kind_of(name),
                    in_string,
                });
                i += 2 + end + 1;
                last = i;
                offsets.push((out.len(), i));
                continue;
            }
        }
        if in_string && c == b'\\' {
            i += 2;
            continue;
        }
        if c == b'"' {
            in_string = !in_string;
        } else if !in_string && c == b'#' {
            // a comment runs to the end of the line: copy it as is
            let end = text[i..].find('\n').map_or(text.len(), |e| i + e);
            i = end;
            continue;
        }
        i += 1;
    }
    out.push_str(&text[last.min(text.len())..]);
    Rewritten {
        text: out,
        placeholders,
        offsets,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_string_and_bare_placeholders() {
        let r = rewrite(
            r#"select(.address == "${this.address}") | ${ami}.values | ${config.provider.gcp.x} * ${key}"#,
        );
        assert_eq!(
            r.text,
            r#"select(.address == "\($__ph_0)") | $__ph_1.values | $__ph_2 * $__ph_3"#
        );
        assert_eq!(
            r.placeholders[0],
            Placeholder {
                kind: PhKind::This(".address".into()),
                in_string: true
            }
        );
        assert_eq!(
            r.placeholders[1],
            Placeholder {
                kind: PhKind::Var("ami".into()),
                in_string: false
            }
        );
        assert_eq!(
            r.placeholders[2].kind,
            PhKind::Config("provider.gcp.x".into())
        );
        assert_eq!(r.placeholders[3].kind, PhKind::Key);
        // an error at `.values` in the rewritten text maps back to `.values` in the original
        let at = r.text.find(".values").unwrap();
        let orig = r#"select(.address == "${this.address}") | ${ami}.values"#
            .find(".values")
            .unwrap();
        assert_eq!(r.original_offset(at), orig);
    }

    #[test]
    fn escaped_quotes_stay_in_string() {
        let r = rewrite(r#""a\"${key}" | ${v}"#);
        assert_eq!(r.text, r#""a\"\($__ph_0)" | $__ph_1"#);
        assert!(r.placeholders[0].in_string && !r.placeholders[1].in_string);
    }
}
