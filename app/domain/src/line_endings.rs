//! Text files as they arrive: one shape for every reader.
//!
//! The same content reaches NodeLedger in several shapes, and every reader must read them alike:
//!
//! | shape | who writes it |
//! |---|---|
//! | LF (`\n`) | Linux and macOS tools: `nvidia-smi` on Linux, MLPerf's loadgen, most scripts |
//! | CRLF (`\r\n`) | Windows tools (`nvidia-smi.exe` writes through the C runtime's text mode), Excel's "CSV" and "CSV UTF-8", RFC 4180's own line break, many cloud billing exports |
//! | lone CR (`\r`) | Excel for Mac's old "CSV (Macintosh)" |
//! | a UTF-8 byte-order mark first | Excel's "CSV UTF-8 (Comma delimited)" |
//! | no line break after the last line | hand-edited files, many exporters |
//!
//! The `csv` crate splits records on all three line breaks but counts file lines only at an LF
//! it sees *before* a record starts: after a CRLF the LF is read as part of the next record, so
//! every record of a CRLF file is reported one line too early (the first data line as line 1,
//! the header's), and after a blank CRLF line or a quoted line break two lines too early. The
//! readers' line numbers then point at the wrong line, and a bill line numbered 1 broke the
//! `bill_lines.line >= 2` check on insert.
//!
//! It also dates a record from where it started reading, before the blank lines it skips, so a
//! line after a blank line is named one line early in any file.
//!
//! The fix is at the source: [`Lf`] turns any input into LF-only text without a BOM and with a
//! final line break before the `csv` crate (or anything else) sees it, streaming and in place
//! (no copy of the file), [`record_line`] names a record's line from where the reader stands
//! after it, and [`numbered_lines`] does the same for readers that take whole text line by
//! line. A CR or CRLF inside a quoted CSV cell becomes LF too: the cell's text is the same line
//! break.

use std::io::{self, Read};

/// The UTF-8 byte-order mark.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `bytes` without a leading UTF-8 byte-order mark.
#[must_use]
pub fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM).unwrap_or(bytes)
}

/// A reader of `inner` without its leading byte-order mark, with every CRLF and lone CR turned
/// into LF and a line break after the last line; bytes are rewritten in the caller's buffer as
/// they pass, so a 100 MB file is never held or copied whole.
pub struct Lf<R> {
    inner: R,
    /// The first bytes, read ahead to look for a byte-order mark, and how many of them are
    /// still to be handed out (from the end of the first `head_len`).
    head: [u8; 3],
    head_len: usize,
    head_pos: usize,
    /// Whether the start of the input was looked at yet.
    started: bool,
    /// The last byte handed out was a CR turned into LF: an LF right after it is the same line
    /// break and is dropped.
    after_cr: bool,
    /// The last byte handed out (`None` before the first).
    last: Option<u8>,
}

impl<R: Read> Lf<R> {
    /// Wraps `inner`.
    pub const fn new(inner: R) -> Self {
        Lf {
            inner,
            head: [0; 3],
            head_len: 0,
            head_pos: 0,
            started: false,
            after_cr: false,
            last: None,
        }
    }

    /// Reads up to three bytes ahead and drops them when they are a byte-order mark.
    fn start(&mut self) -> io::Result<()> {
        self.started = true;
        while self.head_len < BOM.len() {
            match self.inner.read(&mut self.head[self.head_len..]) {
                Ok(0) => break,
                Ok(n) => self.head_len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if self.head[..self.head_len] == *BOM {
            self.head_len = 0;
        }
        Ok(())
    }

    /// Rewrites `buf[..n]` in place; returns how many bytes are left.
    fn rewrite(&mut self, buf: &mut [u8], n: usize) -> usize {
        let mut write = 0;
        for read in 0..n {
            let byte = buf[read];
            if self.after_cr {
                self.after_cr = false;
                if byte == b'\n' {
                    continue;
                }
            }
            buf[write] = if byte == b'\r' {
                self.after_cr = true;
                b'\n'
            } else {
                byte
            };
            write += 1;
        }
        write
    }
}

impl<R: Read> Read for Lf<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if !self.started {
            self.start()?;
        }
        loop {
            let n = if self.head_pos < self.head_len {
                let n = (self.head_len - self.head_pos).min(buf.len());
                buf[..n].copy_from_slice(&self.head[self.head_pos..self.head_pos + n]);
                self.head_pos += n;
                n
            } else {
                self.inner.read(buf)?
            };
            if n == 0 {
                // The last line gets its line break, so every record ends alike.
                if self.last.is_some_and(|b| b != b'\n') {
                    self.last = Some(b'\n');
                    buf[0] = b'\n';
                    return Ok(1);
                }
                return Ok(0);
            }
            // Most files have no CR at all: hand them on untouched.
            let kept = if !self.after_cr && !buf[..n].contains(&b'\r') {
                n
            } else {
                self.rewrite(buf, n)
            };
            // A chunk that was only the LF of a CRLF split across reads: 0 would mean the end.
            if kept > 0 {
                self.last = Some(buf[kept - 1]);
                return Ok(kept);
            }
        }
    }
}

/// The file line a CSV record read through [`Lf`] starts on, from `after`, where the reader
/// stands once it has read the record (the line after the record's line break, which [`Lf`]
/// guarantees), less the line breaks inside its quoted cells (`record`: its cells' bytes).
#[must_use]
pub fn record_line(after: &csv::Position, record: &[u8]) -> u64 {
    let inside = if record.contains(&b'\n') {
        record.iter().filter(|&&b| b == b'\n').count() as u64
    } else {
        0
    };
    after.line().saturating_sub(1 + inside).max(1)
}

/// The lines of `text` with their 1-based numbers: a leading byte-order mark dropped, LF, CRLF
/// and a lone CR each ending one line, no empty line made up after a final line break.
pub fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rest = Some(text).filter(|t| !t.is_empty());
    std::iter::from_fn(move || {
        let current = rest?;
        let Some(end) = current.find(['\n', '\r']) else {
            rest = None;
            return Some(current);
        };
        let skip = if current[end..].starts_with("\r\n") { 2 } else { 1 };
        rest = Some(&current[end + skip..]).filter(|r| !r.is_empty());
        Some(&current[..end])
    })
    .enumerate()
    .map(|(i, line)| (i + 1, line))
}

/// Test support: the same content in the four shapes every reader must read alike.
#[cfg(test)]
pub(crate) mod shapes {
    /// `lf_text` (LF line breaks, ending with one) as LF, CRLF, with a BOM (and CRLF, as Excel's
    /// "CSV UTF-8" writes it) and without its final line break.
    pub(crate) fn four(lf_text: &str) -> [(&'static str, Vec<u8>); 4] {
        assert!(lf_text.ends_with('\n') && !lf_text.contains('\r'), "give LF text");
        let crlf = lf_text.replace('\n', "\r\n");
        let mut bom = super::BOM.to_vec();
        bom.extend_from_slice(crlf.as_bytes());
        [
            ("LF", lf_text.as_bytes().to_vec()),
            ("CRLF", crlf.into_bytes()),
            ("BOM + CRLF", bom),
            ("no final newline", lf_text.trim_end_matches('\n').as_bytes().to_vec()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::{Lf, numbered_lines};
    use proptest::prelude::*;
    use std::io::Read;

    /// A reader handing out at most `step` bytes per call, to split CRLF and the BOM across
    /// reads.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    fn through_lf(data: &[u8], step: usize, buf_len: usize) -> Vec<u8> {
        let mut reader = Lf::new(Trickle { data, step });
        let (mut out, mut buf) = (Vec::new(), vec![0; buf_len]);
        loop {
            let n = reader.read(&mut buf).unwrap();
            if n == 0 {
                return out;
            }
            out.extend_from_slice(&buf[..n]);
        }
    }

    #[test]
    fn crlf_cr_and_the_bom_become_plain_lf() {
        let cases: [(&[u8], &[u8]); 8] = [
            (b"a,b\r\n1,2\r\n", b"a,b\n1,2\n"),
            (b"\xEF\xBB\xBFa,b\r\n1,2", b"a,b\n1,2\n"),
            (b"a\rb\rc", b"a\nb\nc\n"),
            (b"a\r\r\nb\r", b"a\n\nb\n"),
            (b"\"x\r\ny\",2\r\n", b"\"x\ny\",2\n"),
            (b"\xEF\xBB", b"\xEF\xBB\n"),
            (b"\xEF\xBB\xBF", b""),
            (b"", b""),
        ];
        for (input, want) in cases {
            for step in [1, 2, 3, 64] {
                for buf_len in [1, 2, 8192] {
                    assert_eq!(
                        through_lf(input, step, buf_len),
                        want,
                        "{input:?} step {step} buf {buf_len}"
                    );
                }
            }
        }
    }

    /// Where the `csv` crate stands after each record, as [`super::record_line`] reads it: a
    /// blank line, a quoted line break and a last line without a line break.
    #[test]
    fn records_are_named_by_their_first_line() {
        let text = b"h1,h2\r\n1,2\r\n\"x\r\ny\",2\r\n\r\nten,4\r\n5,6";
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(Lf::new(&text[..]));
        let mut rec = csv::ByteRecord::new();
        let mut lines = Vec::new();
        while rdr.read_byte_record(&mut rec).unwrap() {
            lines.push(super::record_line(rdr.position(), rec.as_slice()));
        }
        assert_eq!(lines, [1, 2, 3, 6, 7]);
    }

    #[test]
    fn lines_are_numbered_alike_in_every_shape() {
        let want = vec![(1, "a"), (2, ""), (3, "b")];
        for text in ["a\n\nb\n", "a\r\n\r\nb\r\n", "\u{feff}a\r\n\r\nb", "a\r\rb\r", "a\n\nb"] {
            assert_eq!(numbered_lines(text).collect::<Vec<_>>(), want, "{text:?}");
        }
        assert_eq!(numbered_lines("").count(), 0);
        assert_eq!(numbered_lines("\n").collect::<Vec<_>>(), vec![(1, "")]);
    }

    proptest! {
        /// Whatever the line breaks and however the input is split across reads, the stream is
        /// the LF text the lines stand for.
        #[test]
        fn any_line_breaks_read_as_lf(
            // Not empty: a lone CR before an empty line ended by LF would be one CRLF.
            lines in proptest::collection::vec("[a-z,\" ]{1,6}", 0..8),
            breaks in proptest::collection::vec(0_usize..3, 8),
            bom in any::<bool>(),
            step in 1_usize..5,
        ) {
            let mut input = if bom { super::BOM.to_vec() } else { Vec::new() };
            let mut want = Vec::new();
            for (line, brk) in lines.iter().zip(&breaks) {
                input.extend_from_slice(line.as_bytes());
                input.extend_from_slice([&b"\n"[..], b"\r\n", b"\r"][*brk]);
                want.extend_from_slice(line.as_bytes());
                want.push(b'\n');
            }
            prop_assert_eq!(through_lf(&input, step, 3), want.clone());
            let text = String::from_utf8(input).unwrap();
            let numbered: Vec<(usize, String)> = numbered_lines(&text).map(|(n, l)| (n, l.to_owned())).collect();
            let expected: Vec<(usize, String)> = lines.iter().enumerate().map(|(i, l)| (i + 1, l.clone())).collect();
            prop_assert_eq!(numbered, expected);
        }
    }
}
