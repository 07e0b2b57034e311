//! The one shape every text reader sees (`nodeledger_domain::line_endings`): whatever the bytes and
//! however they are split across reads, `Lf` never panics, hands out no CR and no leading
//! byte-order mark, and its lines are those `numbered_lines` counts in the same text.
#![no_main]

use nodeledger_domain::line_endings::{BOM, Lf, numbered_lines};
use libfuzzer_sys::fuzz_target;
use std::io::Read;

/// A reader handing out at most `step` bytes a call.
struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.1.min(buf.len()).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&step, bytes)) = data.split_first() else { return };
    let mut out = Vec::new();
    Lf::new(Trickle(bytes, usize::from(step % 7) + 1))
        .read_to_end(&mut out)
        .expect("reading a slice cannot fail");
    assert!(!out.contains(&b'\r'));
    assert!(!out.starts_with(BOM) || bytes.starts_with(&[BOM, BOM].concat()));
    // (A second byte-order mark is text, which `numbered_lines` would drop again.)
    if let (Ok(text), Ok(lf), false) = (std::str::from_utf8(bytes), std::str::from_utf8(&out), out.starts_with(BOM)) {
        let lines: Vec<&str> = numbered_lines(text).map(|(_, l)| l).collect();
        let plain: Vec<&str> = numbered_lines(lf).map(|(_, l)| l).collect();
        assert_eq!(lines, plain);
    }
});
