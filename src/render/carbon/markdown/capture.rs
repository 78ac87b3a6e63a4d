//! The plan's text captured for the comment's fold, kept only as far as the comment can show it.
//!
//! A comment holds at most `--max-chars` characters, so of a plan whose text is longer only its
//! first lines can appear: [`Capture`] keeps whole lines until it holds more than that many
//! characters, and of the rest only what the fold says about the whole plan ([`Cut`]: its
//! number of lines, and its longest run of backticks, which sets the code fence). A plan of
//! 200,000 resources then costs the comment a few hundred kilobytes, not its whole text.
//! Without a limit (`--max-chars` not set) everything is kept.

use std::io;

/// What the fold needs of a plan's text that was not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    /// The whole text's lines (as `str::split_inclusive('\n')` counts them).
    pub lines: usize,
    /// The whole text's longest run of backticks.
    pub longest_backticks: usize,
}

/// A writer that keeps the first lines of a text, more than `limit` characters of them, and
/// counts the rest.
#[derive(Debug)]
pub struct Capture {
    kept: Vec<u8>,
    limit: Option<usize>,
    /// Characters kept so far.
    chars: usize,
    /// Past the limit and at the end of a line: nothing more is kept.
    full: bool,
    /// Bytes written, kept or not.
    len: usize,
    newlines: usize,
    last: Option<u8>,
    run: usize,
    longest: usize,
}

impl Capture {
    /// A capture that keeps whole lines until it holds more than `limit` characters (`None`:
    /// all of it).
    pub fn new(limit: Option<usize>) -> Capture {
        Capture {
            kept: Vec::new(),
            limit,
            chars: 0,
            full: false,
            len: 0,
            newlines: 0,
            last: None,
            run: 0,
            longest: 0,
        }
    }

    /// The bytes kept, and what was left out: `None` when everything was kept.
    pub fn finish(self) -> (Vec<u8>, Option<Cut>) {
        let cut = (self.kept.len() < self.len).then(|| Cut {
            lines: self.newlines + usize::from(self.last.is_some_and(|b| b != b'\n')),
            longest_backticks: self.longest,
        });
        (self.kept, cut)
    }

    /// Counts `buf` into the whole text's lines and backtick runs.
    fn count(&mut self, buf: &[u8]) {
        self.len += buf.len();
        self.newlines += buf.iter().filter(|&&b| b == b'\n').count();
        if let Some(&b) = buf.last() {
            self.last = Some(b);
        }
        // a run goes on from the previous write
        for &b in buf {
            if b == b'`' {
                self.run += 1;
                self.longest = self.longest.max(self.run);
            } else {
                self.run = 0;
            }
        }
    }

    /// Keeps what of `buf` comes before the limit is passed and its line ends.
    fn keep(&mut self, buf: &[u8]) {
        let Some(limit) = self.limit else {
            self.kept.extend_from_slice(buf);
            return;
        };
        let mut prev = self.kept.last().copied();
        let mut take = 0;
        for &b in buf {
            if self.chars > limit && prev == Some(b'\n') {
                self.full = true;
                break;
            }
            // a character starts at every byte that is no UTF-8 continuation byte
            self.chars += usize::from(b & 0xC0 != 0x80);
            prev = Some(b);
            take += 1;
        }
        self.kept.extend_from_slice(&buf[..take]);
    }
}

impl io::Write for Capture {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.full {
            self.keep(buf);
        }
        self.count(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    fn capture(limit: Option<usize>, writes: &[&str]) -> (String, Option<Cut>) {
        let mut c = Capture::new(limit);
        for w in writes {
            c.write_all(w.as_bytes()).unwrap();
        }
        let (kept, cut) = c.finish();
        (String::from_utf8(kept).unwrap(), cut)
    }

    #[test]
    fn a_text_within_the_limit_is_kept_whole() {
        assert_eq!(capture(Some(100), &["a\n", "b\n"]), ("a\nb\n".into(), None));
        assert_eq!(capture(None, &["a\n".repeat(1000).as_str()]).1, None);
    }

    #[test]
    fn a_longer_text_keeps_whole_lines_past_the_limit_and_counts_the_rest() {
        let text = "line one\nline two\nline three\nfour";
        // the limit is passed inside "line two": that line is kept whole
        let (kept, cut) = capture(Some(12), &[text]);
        assert_eq!(kept, "line one\nline two\n");
        assert_eq!(
            cut,
            Some(Cut {
                lines: text.split_inclusive('\n').count(),
                longest_backticks: 0,
            })
        );
        // the same, one byte a write
        let bytes: Vec<String> = text.chars().map(String::from).collect();
        let refs: Vec<&str> = bytes.iter().map(String::as_str).collect();
        assert_eq!(capture(Some(12), &refs), (kept, cut));
    }

    #[test]
    fn what_is_kept_holds_more_characters_than_the_limit() {
        // multi-byte characters count once: the limit is in characters, not bytes
        let text = "ééééé\n".repeat(100);
        let (kept, cut) = capture(Some(50), &[&text]);
        assert!(kept.chars().count() > 50, "{kept:?}");
        assert!(kept.ends_with('\n'));
        assert!(text.starts_with(&kept));
        assert_eq!(cut.unwrap().lines, 100);
    }

    #[test]
    fn a_backtick_run_split_between_writes_counts_whole() {
        let (_, cut) = capture(Some(1), &["a\nb ``", "`` c\n", "`\n"]);
        assert_eq!(cut.unwrap().longest_backticks, 4);
        let text = "x\n`` y ````` z ` \n";
        let (_, cut) = capture(Some(1), &[text]);
        assert_eq!(cut.unwrap().longest_backticks, 5);
        assert_eq!(cut.unwrap().lines, 2);
    }
}
