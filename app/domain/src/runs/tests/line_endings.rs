//! Every text reader of a run reads the same content alike in each shape it arrives in: LF,
//! CRLF, with a byte-order mark, without a final line break ([`crate::line_endings`]).
//!
//! Where the shapes come from: `nvidia-smi.exe` on Windows ends its CSV lines with CRLF (GPUtil
//! splits its `--query-gpu … --format=csv` output on `os.linesep`, `"\r\n"` on Windows:
//! `anderskm/gputil`, `GPUtil/GPUtil.py`, `getGPUs`); a summary or CSV opened and saved again in
//! Excel as "CSV UTF-8" gets a UTF-8 byte-order mark and CRLF (RFC 4180 §2's line break).

use super::super::{ParseError, parse, parse_nvidia_smi};
use super::{MLPERF_OFFLINE, MLPERF_SERVER, SMI_MULTI, SMI_NOUNITS, SMI_REORDERED, SMI_UNITS};
use crate::line_endings::shapes;

#[test]
fn telemetry_and_mlperf_read_alike_in_every_shape() {
    for (name, fixture) in [
        ("smi_units_event.csv", SMI_UNITS),
        ("smi_nounits_throttle.csv", SMI_NOUNITS),
        ("smi_multi_gpu.csv", SMI_MULTI),
        ("smi_reordered.csv", SMI_REORDERED),
        ("mlperf_offline_valid.txt", MLPERF_OFFLINE),
        ("mlperf_server_invalid.txt", MLPERF_SERVER),
    ] {
        let lf = std::str::from_utf8(fixture).expect("utf-8");
        let want = parse(fixture, None).expect(name);
        for (shape, bytes) in shapes::four(lf) {
            assert_eq!(parse(&bytes, None).as_ref(), Ok(&want), "{name}, {shape}");
        }
        if name.ends_with(".csv") {
            for (shape, bytes) in shapes::four(lf) {
                let streamed = parse_nvidia_smi(&bytes[..]).expect(name);
                assert_eq!(streamed, want, "{name}, {shape}, streamed");
            }
        }
    }
}

/// The line an error names is the file's line in every shape (the `csv` crate alone names the
/// line before it in a CRLF file).
#[test]
fn a_bad_telemetry_value_names_its_line_in_every_shape() {
    let text = "timestamp, index, utilization.gpu [%], memory.used [MiB]\n\
                2026/01/05 10:00:00.000, 0, 90 %, 1000 MiB\n\
                2026/01/05 10:00:01.000, 0, 91 %, 1001 MiB\n\
                not a time, 0, 92 %, 1002 MiB\n";
    for (shape, bytes) in shapes::four(text) {
        let err = parse_nvidia_smi(&bytes[..]).expect_err(shape);
        assert_eq!(
            err,
            ParseError::CsvBadValue {
                line: 4,
                column: "timestamp".into()
            },
            "{shape}"
        );
    }
}
