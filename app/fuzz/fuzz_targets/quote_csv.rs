//! The quote import: format detection, then the whole file read as NodeLedger CSV and as a
//! SkyPilot catalog (whichever the header says, and the other forced), and the `GpuInfo`
//! cell parser on every line. None may panic; a preview's row count never exceeds the
//! file's line count.
#![no_main]

use nodeledger_domain::quotes::{CsvFormat, Date, ImportDefaults, import, parse_gpu_info};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let today = Date::new(2026, 12, 1).expect("a real date");
    let defaults = ImportDefaults::new("Fuzz Cloud", today, Some(today));
    // LF, CRLF and a lone CR each end a line: at most one line per either byte.
    let lines = data.split(|b| *b == b'\n' || *b == b'\r').count();
    for format in [None, Some(CsvFormat::NodeLedger), Some(CsvFormat::SkyPilot)] {
        if let Ok(preview) = import(data, format, &defaults) {
            assert!(preview.rows.len() <= lines, "{} rows from {lines} lines", preview.rows.len());
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        for line in text.lines() {
            let _ = parse_gpu_info(line);
        }
    }
});
