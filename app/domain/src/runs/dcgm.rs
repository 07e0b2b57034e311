//! DCGM `dcgmi dmon` telemetry, read as nvidia-smi's CSV is.
//!
//! `dcgmi dmon -e 203,204,252,150,155,100 -d 1000` prints fixed-width, left-aligned columns
//! (NVIDIA/DCGM `dcgmi/DeviceMonitor.cpp`): a `#Entity` line of short field names, an `ID` line
//! of units, then one line per entity and sample (`GPU 0  97  44 …`), `N/A` for a blank value;
//! both header lines are printed again every 14 samples, and Ctrl-C ends the stream with
//! "dmon was stopped due to receiving a signal". Field names (`dcgmlib/src/dcgm_fields.cpp`):
//! 203 `GPUTL` GPU utilisation %, 204 `MCUTL` memory-controller utilisation %, 252 `FBUSD`
//! framebuffer used MiB, 250 `FBTTL` framebuffer total MiB, 150 `TMPTR` temperature °C, 155
//! `POWER` board power W, 100 `SMCLK` SM clock MHz, 112 `DVCCTR` the clock-event (throttle)
//! reasons as a decimal bitmask; the profiling ratios (`SMACT`, `TENSO`, …) are not read.
//!
//! dmon prints **no time**: samples are one `-d` delay apart only approximately. So, as for
//! `rocm-smi`, each line is stamped as it is written by this loop (bash, GNU date):
//!
//! ```text
//! dcgmi dmon -e 203,204,252,250,150,155,100,112 -d 1000 | while IFS= read -r l; do printf '%s %s\n' "$(date -u +%FT%T.%3NZ)" "$l"; done > dcgmi.txt
//! ```
//!
//! A file without the stamps is refused with [`ParseError::DcgmNoTimestamp`], which names the
//! loop. [`DmonCsv`] turns the stamped lines into the CSV [`super::parse_nvidia_smi`] reads
//! (`timestamp, index, utilization.gpu [%], …`), streaming, line by line.

use std::io::{self, BufRead, Read};

use super::error::ParseError;

/// Longest line read, bytes: dmon's lines are a few hundred; more is not dmon's output.
const MAX_LINE: usize = 64 * 1024;

/// DCGM field short names and the nvidia-smi column each is read as.
const COLUMNS: [(&str, &str); 8] = [
    ("GPUTL", "utilization.gpu [%]"),
    ("MCUTL", "utilization.memory [%]"),
    ("FBUSD", "memory.used [MiB]"),
    ("FBTTL", "memory.total [MiB]"),
    ("TMPTR", "temperature.gpu"),
    ("POWER", "power.draw [W]"),
    ("SMCLK", "clocks.sm [MHz]"),
    ("DVCCTR", "clocks_event_reasons.active"),
];

/// The field whose value is the clock-event (throttle) bitmask, printed as a decimal int64;
/// DCGM's `DCGM_CLOCKS_EVENT_REASON_*` bits are NVML's, so it is written as nvidia-smi's hex.
const REASONS: &str = "DVCCTR";

/// What the first line of a telemetry file says about DCGM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sniffed {
    /// Not dmon output.
    Other,
    /// dmon output with each line stamped.
    Stamped,
    /// dmon output as dmon prints it, without times.
    Unstamped,
}

/// Whether `first_line` (the first non-empty line) starts dmon output, stamped or not.
pub(crate) fn sniff(first_line: &str) -> Sniffed {
    let line = first_line.trim_start_matches('\u{feff}').trim();
    if line.starts_with("#Entity") {
        return Sniffed::Unstamped;
    }
    match split_stamp(line) {
        (Some(_), payload) if payload.starts_with("#Entity") => Sniffed::Stamped,
        _ => Sniffed::Other,
    }
}

/// The leading time of a stamped line (`2026-12-01T10:00:00.123Z`, the `Z` dropped) and the
/// rest; `None` when the line does not start with a date.
fn split_stamp(line: &str) -> (Option<&str>, &str) {
    let (first, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let dated =
        first.len() >= 19 && first.as_bytes()[4] == b'-' && first.as_bytes()[..4].iter().all(u8::is_ascii_digit);
    if dated {
        (Some(first.trim_end_matches('Z')), rest.trim_start())
    } else {
        (None, line)
    }
}

/// The first non-empty line of `reader`'s buffer, as far as it is buffered.
pub(crate) fn first_line<R: BufRead>(reader: &mut R) -> Result<Sniffed, ParseError> {
    let buf = reader.fill_buf().map_err(|_| ParseError::Io { line: 1 })?;
    let text = String::from_utf8_lossy(&buf[..buf.len().min(MAX_LINE)]);
    Ok(text
        .lines()
        .find(|l| !l.trim().trim_start_matches('\u{feff}').is_empty())
        .map_or(Sniffed::Other, sniff))
}

/// Stamped dmon lines as nvidia-smi CSV, produced as they are read.
pub(crate) struct DmonCsv<R> {
    inner: R,
    /// Positions in a `GPU n …` line's values of the fields read, in [`COLUMNS`] order, each
    /// with whether it is the [`REASONS`] bitmask.
    picked: Option<Vec<(usize, bool)>>,
    /// Values per entity line (the `#Entity` line's names).
    width: usize,
    out: Vec<u8>,
    at: usize,
    line: Vec<u8>,
}

impl<R: BufRead> DmonCsv<R> {
    pub(crate) const fn new(inner: R) -> Self {
        DmonCsv {
            inner,
            picked: None,
            width: 0,
            out: Vec::new(),
            at: 0,
            line: Vec::new(),
        }
    }

    /// Reads input lines until one gives CSV output (or the input ends): `false` at the end.
    fn refill(&mut self) -> io::Result<bool> {
        self.out.clear();
        self.at = 0;
        while self.out.is_empty() {
            self.line.clear();
            let n = (&mut self.inner)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut self.line)?;
            if n == 0 {
                return Ok(false);
            }
            if self.line.len() > MAX_LINE {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "a line longer than 64 KiB is not dmon's",
                ));
            }
            let text = String::from_utf8_lossy(&self.line).into_owned();
            self.convert(&text);
        }
        Ok(true)
    }

    /// One input line into CSV: the first `#Entity` line becomes the header, entity lines of
    /// GPUs become rows; everything else (units, repeated headers, other entities, the stop
    /// message) is skipped.
    fn convert(&mut self, raw: &str) {
        let (stamp, payload) = split_stamp(raw.trim_start_matches('\u{feff}').trim());
        let mut words = payload.split_whitespace();
        match words.next() {
            Some("#Entity") if self.picked.is_none() => {
                let names: Vec<&str> = words.collect();
                self.width = names.len();
                let picked: Vec<(usize, bool)> = COLUMNS
                    .iter()
                    .filter_map(|(name, _)| names.iter().position(|n| n == name).map(|i| (i, *name == REASONS)))
                    .collect();
                let headers = COLUMNS
                    .iter()
                    .filter(|(name, _)| names.contains(name))
                    .map(|(_, header)| *header)
                    .collect::<Vec<_>>();
                self.out = format!("timestamp, index, {}\n", headers.join(", ")).into_bytes();
                self.picked = Some(picked);
            }
            Some("GPU") => {
                let Some(picked) = &self.picked else { return };
                let index = words.next().unwrap_or_default();
                let values: Vec<&str> = words.collect();
                let cells = if values.len() == self.width {
                    picked
                        .iter()
                        .map(|(i, reasons)| match values[*i] {
                            "N/A" => "[N/A]".to_string(),
                            v if *reasons => v
                                .parse::<u64>()
                                .map_or_else(|_| v.to_string(), |bits| format!("0x{bits:016X}")),
                            v => v.to_string(),
                        })
                        .collect::<Vec<_>>()
                } else {
                    // Another count than the header's: passed on as it is, so the CSV reader
                    // names the line and the field count.
                    values.iter().map(|v| (*v).to_string()).collect()
                };
                self.out = format!("{}, {index}, {}\n", stamp.unwrap_or_default(), cells.join(", ")).into_bytes();
            }
            _ => {}
        }
    }
}

impl<R: BufRead> Read for DmonCsv<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at >= self.out.len() && !self.refill()? {
            return Ok(0);
        }
        let n = buf.len().min(self.out.len() - self.at);
        buf[..n].copy_from_slice(&self.out[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runs::{Format, ParseError, parse, parse_nvidia_smi};

    /// The fixture: `dcgmi dmon -i 0,1 -e 203,204,1002,1003,1004,1005,150,155,252 -d 1000` on
    /// two H100s, stopped with Ctrl-C (see `fixtures/SOURCES.md`, DCGM `DeviceMonitor.cpp`).
    const DMON: &str = include_str!("fixtures/dcgmi_dmon.txt");

    /// The fixture as the README's loop writes it: each line stamped, one sample a second.
    fn stamped() -> String {
        let mut out = String::new();
        let mut second = 0u32;
        for line in DMON.lines() {
            if line.starts_with("GPU 0") {
                second += 1;
            }
            out.push_str(&format!(
                "2026-12-01T10:{:02}:{:02}.004Z {line}\n",
                second / 60,
                second % 60
            ));
        }
        out
    }

    #[test]
    fn stamped_dmon_lines_read_as_telemetry_of_each_gpu() {
        let text = stamped();
        // Read with no format named: detection finds DCGM.
        let run = parse(text.as_bytes(), None).expect("dmon");
        assert_eq!(run.source_format, Format::Dcgm);
        let gpus: std::collections::BTreeSet<u32> = run.telemetry.iter().map(|p| p.gpu).collect();
        assert_eq!(gpus.into_iter().collect::<Vec<_>>(), vec![0, 1]);
        // FBUSD is MiB: the peak is the fixture's highest, GPU 1's 73,971 MiB.
        assert_eq!(run.vram_peak_mib, Some(73_971.0));
        let util = run.gpu_util_mean_pct.expect("utilisation");
        assert!((97.0..=100.0).contains(&util), "{util}");
        // The same through the streaming reader every upload uses.
        let streamed = parse_nvidia_smi(std::io::Cursor::new(text.as_bytes())).expect("streamed");
        assert_eq!(streamed.vram_peak_mib, run.vram_peak_mib);
    }

    #[test]
    fn dmon_as_it_prints_is_refused_naming_the_stamping_loop() {
        assert_eq!(parse(DMON.as_bytes(), None).unwrap_err(), ParseError::DcgmNoTimestamp);
        assert_eq!(
            parse_nvidia_smi(std::io::Cursor::new(DMON.as_bytes())).unwrap_err(),
            ParseError::DcgmNoTimestamp
        );
        assert_eq!(sniff("GPU 0   97"), Sniffed::Other);
        assert_eq!(sniff("timestamp, index"), Sniffed::Other);
    }

    /// Field 112's decimal bitmask is NVML's clock-event reasons: 8 is the hardware slowdown
    /// bit, read as nvidia-smi's `0x0000000000000008`.
    #[test]
    fn the_clock_event_bitmask_is_read_as_a_slowdown() {
        let mut text = String::from("2026-12-01T10:00:00Z #Entity GPUTL FBUSD DVCCTR\n2026-12-01T10:00:00Z ID\n");
        for s in 0..60u32 {
            let bits = if s < 30 { 0 } else { 8 };
            text.push_str(&format!(
                "2026-12-01T10:{:02}:{:02}Z GPU 0 95 70000 {bits}\n",
                s / 60 + s * 10 / 60,
                s * 10 % 60
            ));
        }
        let run = parse_nvidia_smi(std::io::Cursor::new(text.as_bytes())).expect("dmon");
        let throttle = run.throttle.expect("reasons were read");
        assert!(throttle.active_s > 0.0, "{throttle:?}");
    }

    proptest::proptest! {
        /// Any text after a stamped dmon header reads or fails with a reason, never panics.
        #[test]
        fn any_lines_after_a_dmon_header_never_panic(body in "[ -~\\n]{0,400}") {
            let text = format!("2026-12-01T10:00:00Z #Entity GPUTL FBUSD\n{body}");
            let _ = parse_nvidia_smi(std::io::Cursor::new(text.as_bytes()));
        }
    }
}
