//! Streaming parser for `nvidia-smi --query-gpu=… --format=csv` telemetry.
//!
//! Reads row by row with `csv::ByteRecord` (one reused record, no per-row
//! allocation: fields are trimmed here as they are read, because the `csv`
//! crate's own `Trim::All` rebuilds every record in a fresh allocation);
//! keeps exact aggregates and a bounded downsampled series of at
//! most [`MAX_POINTS_PER_GPU`] points per GPU and at most [`MAX_GPUS`] GPUs.

use std::io::BufRead;

use csv::{ByteRecord, ReaderBuilder};

use crate::line_endings::{Lf, record_line};
use serde_json::{Value, json};

use super::canonical::{CanonicalRun, Throttle};
use super::clock;
use super::error::ParseError;
use super::format::Format;
use super::series::{Point, Series};
use super::smi_header::Layout;
use super::smi_value::{parse_active, parse_enabled, parse_hex, parse_num, parse_timestamp, parse_u32};
use super::vocab::ThrottleReason;

/// Most telemetry points kept per GPU (older points are bucket-aggregated).
pub const MAX_POINTS_PER_GPU: usize = 2_000;

/// Most distinct GPUs accepted in one telemetry file.
pub const MAX_GPUS: usize = 64;

struct Gpu {
    id: u32,
    series: Series,
    prev_t: Option<f64>,
    prev_slow: bool,
    active_s: f64,
    prev_capped: bool,
    capped_s: f64,
    name: Option<String>,
    mem_total: Option<f64>,
}

#[derive(Default)]
struct Totals {
    rows: u64,
    util_sum: f64,
    util_n: u64,
    mem_peak: Option<f64>,
    origin: Option<f64>,
    t_min: f64,
    t_max: f64,
    driver: Option<String>,
    mig: Option<bool>,
    reasons: u16,
    /// Whether any row said whether a throttle reason was active.
    reasons_read: bool,
}

/// Parses nvidia-smi CSV telemetry from a reader, streaming. LF, CRLF (what `nvidia-smi.exe`
/// writes on Windows), a byte-order mark and a last row without a line break read alike
/// ([`crate::line_endings`]): the lines errors name are the file's.
///
/// # Errors
/// [`ParseError::Empty`], [`ParseError::CsvNoTimestamp`],
/// [`ParseError::CsvNoHeader`], [`ParseError::CsvFieldCount`],
/// [`ParseError::CsvBadValue`], [`ParseError::TooManyGpus`],
/// [`ParseError::NoData`] or [`ParseError::Io`].
pub fn parse_nvidia_smi<R: BufRead>(mut reader: R) -> Result<CanonicalRun, ParseError> {
    match super::dcgm::first_line(&mut reader)? {
        super::dcgm::Sniffed::Other => parse_csv(reader),
        super::dcgm::Sniffed::Unstamped => Err(ParseError::DcgmNoTimestamp),
        super::dcgm::Sniffed::Stamped => {
            let mut run = parse_csv(std::io::BufReader::new(super::dcgm::DmonCsv::new(reader)))?;
            run.source_format = Format::Dcgm;
            Ok(run)
        }
    }
}

/// [`parse_nvidia_smi`] of a CSV (nvidia-smi's, amd-smi's, or dmon's as [`super::dcgm`] writes it).
fn parse_csv<R: BufRead>(reader: R) -> Result<CanonicalRun, ParseError> {
    let mut rdr = ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(Lf::new(reader));
    let mut rec = ByteRecord::new();
    if !read(&mut rdr, &mut rec)? {
        return Err(ParseError::Empty);
    }
    // amd-smi's `--watch` prints a banner before its first header.
    while rec.len() == 1 && is_watch_banner(field(&rec, 0)) {
        if !read(&mut rdr, &mut rec)? {
            return Err(ParseError::Empty);
        }
    }
    let layout = Layout::from_header(rec.iter());
    let Some(ts_col) = layout.timestamp else {
        if layout.amd {
            return Err(ParseError::AmdNoTimestamp);
        }
        return Err(no_timestamp_column(&rec));
    };
    let width = rec.len();
    let mut gpus: Vec<Gpu> = Vec::new();
    let mut identities: Vec<Vec<u8>> = Vec::new();
    let mut tot = Totals::default();
    while read(&mut rdr, &mut rec)? {
        let line = record_line(rdr.position(), rec.as_slice());
        if rec.len() != width {
            return Err(ParseError::CsvFieldCount {
                line,
                expected: width,
                found: rec.len(),
            });
        }
        let ts = field(&rec, ts_col);
        if ts.eq_ignore_ascii_case(b"timestamp") {
            continue; // header repeated by an appended log
        }
        let bad = |col: usize| ParseError::CsvBadValue {
            line,
            column: layout.names.get(col).cloned().unwrap_or_default(),
        };
        let abs_t = parse_timestamp(ts).ok_or_else(|| bad(ts_col))?;
        let id = gpu_id(&layout, &rec, &mut identities).ok_or_else(|| bad(layout.index.unwrap_or(0)))?;
        let slot = gpu_slot(&mut gpus, id, line)?;
        let origin = *tot.origin.get_or_insert(abs_t);
        let point = row_point(&layout, &rec, abs_t - origin);
        tot.add(&point);
        note_identity(&mut tot, &mut gpus[slot], &layout, &rec);
        gpus[slot].add(&point);
    }
    if tot.rows == 0 {
        return Err(ParseError::NoData {
            format: Format::NvidiaSmi,
        });
    }
    Ok(finish(tot, gpus, &layout))
}

/// `'CTRL' + 'C' to stop watching output:`, what `amd-smi metric --watch` prints first.
pub(crate) fn is_watch_banner(line: &[u8]) -> bool {
    line.trim_ascii().starts_with(b"'CTRL' + 'C'")
}

fn read<R: std::io::Read>(rdr: &mut csv::Reader<R>, rec: &mut ByteRecord) -> Result<bool, ParseError> {
    rdr.read_byte_record(rec).map_err(|e| ParseError::Io {
        line: e.position().map_or(rdr.position().line(), csv::Position::line),
    })
}

/// Field `i` without surrounding ASCII whitespace (empty when absent).
fn field(rec: &ByteRecord, i: usize) -> &[u8] {
    rec.get(i).unwrap_or_default().trim_ascii()
}

/// Field `col` like [`field`]; empty when the layout has no such column.
fn cell(rec: &ByteRecord, col: Option<usize>) -> &[u8] {
    col.map_or(&b""[..], |i| field(rec, i))
}

/// Why a first row without a timestamp column is refused: a first row that
/// already holds a timestamp means the header is missing.
fn no_timestamp_column(first_row: &ByteRecord) -> ParseError {
    if parse_timestamp(super::text::strip_bom(field(first_row, 0))).is_some() {
        ParseError::CsvNoHeader
    } else {
        ParseError::CsvNoTimestamp
    }
}

/// Index of GPU `id` in `gpus`, adding it when new; at most [`MAX_GPUS`].
fn gpu_slot(gpus: &mut Vec<Gpu>, id: u32, line: u64) -> Result<usize, ParseError> {
    match gpus.iter().position(|g| g.id == id) {
        Some(s) => Ok(s),
        None if gpus.len() >= MAX_GPUS => Err(ParseError::TooManyGpus { line, limit: MAX_GPUS }),
        None => {
            gpus.push(new_gpu(id));
            Ok(gpus.len() - 1)
        }
    }
}

/// The telemetry point of one row, `t` seconds after the first row; the
/// throttle mask joins the per-reason columns and the hex bitmask column.
fn row_point(layout: &Layout, rec: &ByteRecord, t: f64) -> Point {
    let num = |col: Option<usize>| col.and_then(|c| parse_num(field(rec, c)));
    let mut mask: u16 = 0;
    let mut read_reasons = false;
    for &(col, reason) in &layout.reasons {
        let active = parse_active(field(rec, col));
        read_reasons |= active.is_some();
        if active == Some(true) {
            mask |= reason.bit();
        }
    }
    if let Some(bits) = layout.mask.and_then(|c| parse_hex(field(rec, c))) {
        read_reasons = true;
        mask |= (bits & 0x1FF) as u16;
    }
    let mib = |col: Option<usize>| num(col).map(|v| if layout.mem_in_bytes { v / 1_048_576.0 } else { v });
    Point {
        t,
        util: num(layout.util),
        mem: mib(layout.mem_used),
        read_reasons,
        clock: num(layout.sm_clock),
        temp: num(layout.temp),
        power: num(layout.power),
        mask,
    }
}

/// Driver, MIG mode, GPU name and VRAM total: the first stated value is kept
/// (MIG is on when any row says so); text is only allocated while unknown.
fn note_identity(tot: &mut Totals, gpu: &mut Gpu, layout: &Layout, rec: &ByteRecord) {
    if tot.driver.is_none() {
        tot.driver = text_value(cell(rec, layout.driver));
    }
    if let Some(m) = layout.mig.and_then(|c| parse_enabled(field(rec, c))) {
        tot.mig = Some(tot.mig.unwrap_or(false) || m);
    }
    if gpu.name.is_none() {
        gpu.name = text_value(cell(rec, layout.name));
    }
    if gpu.mem_total.is_none() {
        let bytes = if layout.mem_in_bytes { 1_048_576.0 } else { 1.0 };
        gpu.mem_total = layout
            .mem_total
            .and_then(|c| parse_num(field(rec, c)))
            .map(|v| v / bytes);
    }
}

fn new_gpu(id: u32) -> Gpu {
    Gpu {
        id,
        series: Series::new(MAX_POINTS_PER_GPU),
        prev_t: None,
        prev_slow: false,
        active_s: 0.0,
        prev_capped: false,
        capped_s: 0.0,
        name: None,
        mem_total: None,
    }
}

/// GPU identity: the `index` column, else the ordinal of `uuid`/`pci.bus_id`,
/// else 0 (single GPU).
fn gpu_id(layout: &Layout, rec: &ByteRecord, seen: &mut Vec<Vec<u8>>) -> Option<u32> {
    if let Some(c) = layout.index {
        return parse_u32(field(rec, c));
    }
    let Some(key) = layout.identity.and_then(|c| rec.get(c)).map(<[u8]>::trim_ascii) else {
        return Some(0);
    };
    let pos = seen.iter().position(|k| k.as_slice() == key).unwrap_or_else(|| {
        seen.push(key.to_vec());
        seen.len() - 1
    });
    u32::try_from(pos).ok()
}

/// A text value, unless empty or `[N/A]`-like.
fn text_value(field: &[u8]) -> Option<String> {
    let f = field.trim_ascii();
    let na = f.is_empty() || f.starts_with(b"[") || f.eq_ignore_ascii_case(b"N/A");
    (!na).then(|| String::from_utf8_lossy(f).into_owned())
}

impl Totals {
    fn add(&mut self, p: &Point) {
        if self.rows == 0 {
            self.t_min = p.t;
            self.t_max = p.t;
        }
        self.rows += 1;
        self.t_min = self.t_min.min(p.t);
        self.t_max = self.t_max.max(p.t);
        if let Some(u) = p.util {
            self.util_sum += u;
            self.util_n += 1;
        }
        if let Some(m) = p.mem {
            self.mem_peak = Some(self.mem_peak.map_or(m, |x| x.max(m)));
        }
        self.reasons |= p.mask;
        self.reasons_read |= p.read_reasons;
    }
}

impl Gpu {
    fn add(&mut self, p: &Point) {
        if let Some(prev) = self.prev_t {
            let dt = p.t - prev;
            if self.prev_slow && dt > 0.0 {
                self.active_s += dt;
            }
            if self.prev_capped && dt > 0.0 {
                self.capped_s += dt;
            }
        }
        self.prev_t = Some(p.t);
        self.prev_slow = p.mask & ThrottleReason::SLOWDOWN_MASK != 0;
        self.prev_capped = p.mask & ThrottleReason::SwPowerCap.bit() != 0;
        self.series.push(p);
    }
}

fn finish(tot: Totals, mut gpus: Vec<Gpu>, layout: &Layout) -> CanonicalRun {
    gpus.sort_by_key(|g| g.id);
    let mut run = CanonicalRun::new(if layout.amd { Format::AmdSmi } else { Format::NvidiaSmi });
    run.node.gpu_count = u32::try_from(gpus.len()).ok();
    run.node.gpu_name = gpus.iter().find_map(|g| g.name.clone());
    run.node.vram_total_mib = gpus.iter().filter_map(|g| g.mem_total).reduce(f64::min);
    run.node.driver_version = tot.driver;
    run.node.mig = tot.mig;
    run.vram_peak_mib = tot.mem_peak;
    run.gpu_util_mean_pct = (tot.util_n > 0).then(|| tot.util_sum / tot.util_n as f64);
    run.duration_s = Some(tot.t_max - tot.t_min);
    if let Some(origin) = tot.origin {
        run.started_at = clock::format(origin + tot.t_min);
        run.ended_at = clock::format(origin + tot.t_max);
        run.telemetry_origin = clock::format(origin + tot.t_min.min(0.0));
    }
    // Throttling is watched only where a row said whether it was active: amd-smi writes
    // `throttle_status` as N/A on the cards that report violations instead.
    if layout.has_reasons() && tot.reasons_read {
        let capped = tot.reasons & ThrottleReason::SwPowerCap.bit() != 0;
        run.throttle = Some(Throttle {
            active_s: gpus.iter().map(|g| g.active_s).fold(0.0, f64::max),
            reasons: ThrottleReason::from_mask(tot.reasons & ThrottleReason::SLOWDOWN_MASK),
            power_cap_s: capped.then(|| gpus.iter().map(|g| g.capped_s).fold(0.0, f64::max)),
        });
    }
    let names: Vec<Value> = gpus.iter().map(|g| json!(g.name)).collect();
    if names.windows(2).any(|w| w[0] != w[1]) {
        run.extra.insert("gpu_names".into(), Value::Array(names));
    }
    run.extra.insert(
        "nvidia_smi".into(),
        json!({ "rows": tot.rows, "unknown_columns": layout.unknown }),
    );
    let shift = tot.t_min.min(0.0);
    for g in gpus {
        run.telemetry.extend(g.series.into_samples(g.id, shift));
    }
    run
}
