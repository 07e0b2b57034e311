use std::io::{BufReader, Read};

use super::super::series::{Point, Series};
use super::super::smi_value::{parse_hex, parse_num, parse_timestamp};
use super::super::{MAX_POINTS_PER_GPU, ThrottleReason, parse_nvidia_smi};
use super::{SMI_MULTI, SMI_NOUNITS, SMI_REORDERED, SMI_UNITS, close, run_of};

/// Naive reference: (peak memory.used, mean utilization.gpu) by splitting lines.
fn naive(csv: &[u8]) -> (f64, f64) {
    let text = std::str::from_utf8(csv).expect("utf8");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').map(str::trim).collect();
    let col = |p: &str| header.iter().position(|h| h.starts_with(p)).expect("column");
    let (m, u) = (col("memory.used"), col("utilization.gpu"));
    let num = |s: &str| s.split_whitespace().next().and_then(|n| n.parse::<f64>().ok());
    let (mut peak, mut sum, mut n) = (0.0f64, 0.0, 0.0);
    for line in lines {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        peak = peak.max(num(f[m]).expect("mem"));
        if let Some(v) = num(f[u]) {
            sum += v;
            n += 1.0;
        }
    }
    (peak, sum / n)
}

#[test]
fn units_and_event_reason_names() {
    let run = run_of(SMI_UNITS);
    let (peak, mean) = naive(SMI_UNITS);
    assert_eq!(run.vram_peak_mib, Some(peak));
    close(run.gpu_util_mean_pct, mean, 1e-9);
    assert_eq!(run.node.gpu_name.as_deref(), Some("NVIDIA A100-SXM4-80GB"));
    assert_eq!(run.node.gpu_count, Some(1));
    assert_eq!(run.node.vram_total_mib, Some(81_920.0));
    assert_eq!(run.node.driver_version.as_deref(), Some("550.54.15"));
    assert_eq!(run.node.mig, Some(false));
    close(run.duration_s, 650.0, 1e-6);
    let throttle = run.throttle.clone().expect("reason columns present");
    close(Some(throttle.active_s), 30.0, 1e-6);
    assert_eq!(throttle.reasons, [ThrottleReason::HwThermalSlowdown]);
    assert_eq!(run.telemetry.len(), 131);
    let first = &run.telemetry[0];
    assert_eq!(first.t, 0.0);
    assert_eq!(first.throttle_reasons, [ThrottleReason::GpuIdle]);
    let at_300 = run
        .telemetry
        .iter()
        .find(|s| (s.t - 300.0).abs() < 1e-6)
        .expect("sample at 300 s");
    assert_eq!(at_300.throttle_reasons, [ThrottleReason::HwThermalSlowdown]);
    assert_eq!(at_300.sm_clock_mhz, Some(1155.0));
    assert_eq!(at_300.temp_c, Some(86.0));
}

#[test]
fn no_units_and_throttle_reason_names() {
    let run = run_of(SMI_NOUNITS);
    let (peak, mean) = naive(SMI_NOUNITS);
    assert_eq!(run.vram_peak_mib, Some(peak));
    close(run.gpu_util_mean_pct, mean, 1e-9);
    assert_eq!(run.node.gpu_name.as_deref(), Some("NVIDIA GeForce RTX 4090"));
    assert_eq!(run.node.mig, None);
    close(run.duration_s, 120.0, 1e-6);
    let throttle = run.throttle.expect("throttle");
    // 10 s at the power cap: reported apart, not a slowdown.
    close(Some(throttle.active_s), 0.0, 1e-6);
    assert_eq!(throttle.reasons, []);
    close(throttle.power_cap_s, 10.0, 1e-6);
    assert_eq!(run.started_at.as_deref(), Some("2024-05-01T12:00:00.123"));
    assert_eq!(run.ended_at.as_deref(), Some("2024-05-01T12:02:00.123"));
    assert_eq!(run.telemetry_origin, run.started_at);
    assert_eq!(run.telemetry[0].sm_clock_mhz, Some(2520.0));
}

#[test]
fn multi_gpu_series_and_worst_gpu_throttle() {
    let run = run_of(SMI_MULTI);
    let (peak, mean) = naive(SMI_MULTI);
    assert_eq!(run.vram_peak_mib, Some(peak));
    close(run.gpu_util_mean_pct, mean, 1e-9);
    assert_eq!(run.node.gpu_count, Some(4));
    assert_eq!(run.node.vram_total_mib, Some(81_559.0));
    close(run.duration_s, 700.012, 1e-6);
    let throttle = run.throttle.clone().expect("throttle");
    close(Some(throttle.active_s), 100.0, 1e-6);
    assert_eq!(
        throttle.reasons,
        [ThrottleReason::HwSlowdown, ThrottleReason::HwPowerBrakeSlowdown]
    );
    assert_eq!(run.telemetry.len(), 4 * 141);
    let gpus: Vec<u32> = run.telemetry.iter().map(|s| s.gpu).collect();
    assert!(gpus.windows(2).all(|w| w[0] <= w[1]), "grouped by GPU");
    assert!(!run.extra.contains_key("gpu_names"), "all GPUs share a name");
}

#[test]
fn reordered_columns_bus_id_identity_and_missing_values() {
    let run = run_of(SMI_REORDERED);
    assert_eq!(run.node.gpu_count, Some(2));
    assert_eq!(run.node.mig, Some(true));
    assert_eq!(run.node.vram_total_mib, Some(40_960.0));
    assert_eq!(run.node.driver_version.as_deref(), Some("535.104.05"));
    assert_eq!(run.gpu_util_mean_pct, None, "[N/A] utilisation");
    assert!(
        run.telemetry
            .iter()
            .all(|s| s.util_pct.is_none() && s.power_w.is_some())
    );
    close(run.duration_s, 27.0, 1e-6);
    assert_eq!(run.throttle.map(|t| t.active_s), Some(0.0));
    assert_eq!(
        run.extra.get("nvidia_smi").and_then(|v| v.get("unknown_columns")),
        Some(&serde_json::json!([]))
    );
}

#[test]
fn same_result_with_any_column_order() {
    let text = std::str::from_utf8(SMI_UNITS).expect("utf8");
    let reversed: String = text
        .lines()
        .map(|l| l.split(',').rev().collect::<Vec<_>>().join(","))
        .collect::<Vec<_>>()
        .join("\n");
    let a = run_of(SMI_UNITS);
    let b = run_of(reversed.as_bytes());
    assert_eq!(a.telemetry, b.telemetry);
    assert_eq!(a.throttle, b.throttle);
    assert_eq!(a.node, b.node);
}

/// A reader that hands out at most `chunk` bytes per call.
struct Trickle<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.chunk.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn streaming_in_tiny_chunks_gives_the_same_run() {
    let reader = BufReader::with_capacity(
        16,
        Trickle {
            data: SMI_MULTI,
            chunk: 7,
        },
    );
    assert_eq!(parse_nvidia_smi(reader), Ok(run_of(SMI_MULTI)));
}

/// Generates an nvidia-smi CSV lazily, row by row, never holding it whole.
pub(super) struct Synth {
    gpus: u32,
    rows: u64,
    row: u64,
    pending: Vec<u8>,
}

impl Synth {
    pub(super) fn new(gpus: u32, rows_per_gpu: u64) -> Self {
        let header = b"timestamp, index, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB], \
clocks.current.sm [MHz], temperature.gpu, power.draw [W], clocks_event_reasons.sw_power_cap, clocks_event_reasons.active\n";
        Self {
            gpus,
            rows: rows_per_gpu * u64::from(gpus),
            row: 0,
            pending: header.to_vec(),
        }
    }

    fn next_row(&mut self) {
        let (sec, gpu) = (self.row / u64::from(self.gpus), self.row % u64::from(self.gpus));
        let (h, m, s) = (sec / 3600 % 24, sec / 60 % 60, sec % 60);
        let day = 1 + sec / 86_400 % 28;
        let util = (sec * 7 + gpu * 13) % 101;
        let mem = 1000 + (sec * 31 + gpu) % 70_000;
        let capped = sec % 10 == 0;
        let row = format!(
            "2024/05/{day:02} {h:02}:{m:02}:{s:02}.250, {gpu}, NVIDIA H100 80GB HBM3, {util} %, {mem} MiB, 81559 MiB, 1755 MHz, 61, 612.25 W, {}, 0x{:016X}\n",
            if capped { "Active" } else { "Not Active" },
            if capped { 4 } else { 0 }
        );
        self.pending.extend_from_slice(row.as_bytes());
        self.row += 1;
    }
}

impl Read for Synth {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.pending.len() < buf.len() && self.row < self.rows {
            self.next_row();
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

#[test]
fn long_streams_keep_a_bounded_series_and_exact_aggregates() {
    let rows = 9_001;
    let run = parse_nvidia_smi(BufReader::new(Synth::new(3, rows))).expect("parses");
    for gpu in 0..3 {
        let n = run.telemetry.iter().filter(|s| s.gpu == gpu).count();
        assert!(
            (MAX_POINTS_PER_GPU / 2..=MAX_POINTS_PER_GPU).contains(&n),
            "gpu {gpu}: {n} points"
        );
    }
    close(run.duration_s, 9_000.0, 1e-6);
    let exact_mean = (0..rows)
        .flat_map(|s| (0..3).map(move |g| ((s * 7 + g * 13) % 101) as f64))
        .sum::<f64>()
        / (rows * 3) as f64;
    close(run.gpu_util_mean_pct, exact_mean, 1e-9);
    let exact_peak = (0..rows)
        .flat_map(|s| (0..3).map(move |g| 1000 + (s * 31 + g) % 70_000))
        .max();
    assert_eq!(run.vram_peak_mib, exact_peak.map(|p| p as f64));
    let series_peak = run.telemetry.iter().filter_map(|s| s.mem_used_mib).fold(0.0, f64::max);
    assert_eq!(Some(series_peak), run.vram_peak_mib, "bucket maxima keep the peak");
    // Every 10th second is capped: 901 capped samples, the last has no following interval;
    // the power cap is reported, not counted as a slowdown.
    close(run.throttle.as_ref().map(|t| t.active_s), 0.0, 1e-6);
    close(run.throttle.and_then(|t| t.power_cap_s), 900.0, 1e-6);
    assert_eq!(run.telemetry[0].t, 0.0);
}

#[test]
fn series_downsampling_preserves_sample_weighted_means() {
    let mut s = Series::new(8);
    for i in 0..100u32 {
        s.push(&Point {
            t: f64::from(i),
            util: Some(f64::from(i % 10)),
            ..Point::default()
        });
    }
    let samples: Vec<_> = s.into_samples(0, 0.0).collect();
    assert!(samples.len() <= 8 && samples.len() >= 4, "{}", samples.len());
    assert_eq!(samples[0].t, 0.0);
    assert!(samples.windows(2).all(|w| w[0].t < w[1].t));
    // First bucket holds 16 samples (0..16): mean of i % 10 over them.
    let expected = (0..16).map(|i| f64::from(i % 10)).sum::<f64>() / 16.0;
    close(samples[0].util_pct, expected, 1e-12);
}

#[test]
fn value_parsers() {
    assert_eq!(parse_num(b"45 %"), Some(45.0));
    assert_eq!(parse_num(b"250.50 W"), Some(250.5));
    assert_eq!(parse_num(b"1234 MiB"), Some(1234.0));
    assert_eq!(parse_num(b"-3.25"), Some(-3.25));
    assert_eq!(parse_num(b"1.5e3"), Some(1500.0));
    assert_eq!(parse_num(b"123456789012345678901"), Some(123_456_789_012_345_678_901.0));
    for na in [&b"[N/A]"[..], b"N/A", b"[Not Supported]", b"", b"-", b".", b"1.2.3"] {
        assert_eq!(parse_num(na), None, "{}", String::from_utf8_lossy(na));
    }
    assert_eq!(parse_hex(b"0x0000000000000044"), Some(0x44));
    assert_eq!(parse_hex(b"44"), None);
    let a = parse_timestamp(b"2024/12/31 23:59:59.500").expect("ts");
    let b = parse_timestamp(b"2025-01-01T00:00:00.500").expect("ts");
    close(Some(b - a), 1.0, 1e-6);
    let leap =
        parse_timestamp(b"2024/03/01 00:00:00").expect("ts") - parse_timestamp(b"2024/02/28 00:00:00").expect("ts");
    close(Some(leap), 2.0 * 86_400.0, 1e-6);
    assert_eq!(parse_timestamp(b"2024/13/01 00:00:00"), None);
    assert_eq!(parse_timestamp(b"yesterday"), None);
}

/// Throughput check against a bare csv loop. Timing is meaningless in debug
/// builds: run with `cargo test --release -- --ignored throughput_vs_raw_csv`.
#[test]
#[ignore = "timing; run in release"]
fn throughput_vs_raw_csv() {
    let mut data = Vec::new();
    Synth::new(8, 50_000).read_to_end(&mut data).expect("synth");
    let best = |f: &dyn Fn() -> usize| {
        (0..5)
            .map(|_| {
                let start = std::time::Instant::now();
                std::hint::black_box(f());
                start.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let raw = best(&|| {
        let mut rdr = csv::ReaderBuilder::new().trim(csv::Trim::All).from_reader(&data[..]);
        let mut rec = csv::ByteRecord::new();
        let mut fields = 0;
        while rdr.read_byte_record(&mut rec).expect("csv") {
            fields += rec.len();
        }
        fields
    });
    let ours = best(&|| parse_nvidia_smi(&data[..]).expect("parses").telemetry.len());
    let mb = data.len() as f64 / 1e6;
    println!("raw csv {:.0} MB/s, parse_nvidia_smi {:.0} MB/s", mb / raw, mb / ours);
    assert!(
        ours <= raw * 2.0,
        "parser at {:.0} % of raw csv speed",
        100.0 * raw / ours
    );
}

/// Fields are trimmed by the parser itself (not by the csv crate): extra
/// spaces and tabs around any value, the header and the bus-id identity
/// change nothing.
#[test]
fn padded_fields_give_the_same_run() {
    let text = std::str::from_utf8(SMI_REORDERED).expect("utf8");
    let padded = text.replace(", ", " \t,  ").replace('\n', " \t\n");
    let (a, b) = (run_of(SMI_REORDERED), run_of(padded.as_bytes()));
    assert_eq!(a.node.gpu_count, Some(2));
    assert_eq!(a.telemetry, b.telemetry);
    assert_eq!(a.node, b.node);
    assert_eq!(a.extra, b.extra);
}
