//! nccl-tests output (`all_reduce_perf`, `all_gather_perf`, … as printed to stdout): how fast
//! the GPUs of a node, or of several nodes, exchange data. The seeds ask multi-GPU work to
//! "test communication bandwidth and sync time"; this is that test, kept as a run of its own (an
//! execution of its own, like any benchmark) on the node it measured.
//!
//! # What is read
//! Lines starting with `#` are metadata: the `nccl-tests version`, `Collective test starting:
//! <name>`, `nThread N nGpus G …`, one `Rank r … on <host> device d [bus] <GPU name>` line per
//! rank, the column header, `Out of bounds values : N OK|FAILED` and `Avg bus bandwidth : X`.
//! Every other non-blank line is a data row: `size count type redop root`, then for the
//! out-of-place and the in-place half `time algbw busbw #wrong` (NVIDIA/nccl-tests
//! `src/util.cu`; `#wrong` is `N/A` with `-c 0`, a `-S 1` timestamp may follow). An output of
//! `-I 1` (four more per-iteration columns in each half) is refused with the line, never read
//! by position into the wrong columns.
//!
//! # The figure
//! **Bus bandwidth at the largest sizes**: the median busbw of both halves over the rows of the
//! three largest sizes. Bus bandwidth is the figure nccl-tests means to compare with the
//! hardware (`algbw × 2(n−1)/n` for all-reduce), and only large messages reach it. The tool's
//! own `Avg bus bandwidth` averages every row, the 8-byte ones too, so it reads far lower (156
//! GB/s for an NVSwitch node that moves 480 GB/s); it is kept, never judged.
//!
//! Worked example (`fixtures/nccl_all_reduce_perf.txt`, 8× H100 SXM on NVSwitch): the rows of
//! 2, 4 and 8 GiB give busbw 479.60, 478.10, 482.17, 478.05, 483.01 and 490.58 GB/s; their
//! median is (479.60 + 482.17) ÷ 2 = 480.885 GB/s.

use super::canonical::{BusTest, CanonicalRun, NodeInfo};
use super::error::ParseError;
use super::format::Format;

/// Most data rows read: `-b 8 -e 16G -f 2` prints 32; a step of 1 MiB up to 8 GiB, 8,192.
pub const MAX_ROWS: usize = 20_000;

/// Sizes whose rows give the figure.
const LARGEST_SIZES: usize = 3;

/// Whether `text` looks like nccl-tests output: its `nThread … nGpus` line, its start line or
/// its version line among the first lines.
#[must_use]
pub fn sniff(text: &str) -> bool {
    text.lines().take(8).any(|l| {
        let l = l.trim_start();
        l.starts_with("# nccl-tests version")
            || l.starts_with("# Collective test starting:")
            || (l.starts_with("# nThread") && l.contains("nGpus"))
    })
}

/// One data row: size and the busbw and `#wrong` of both halves.
struct Row {
    size: u64,
    busbw: [f64; 2],
    wrong: [Option<u64>; 2],
}

/// Reads an nccl-tests output into a run holding its [`BusTest`] (no throughput: it measures the
/// link, not work done), the GPU the rank lines name and the ranks per host.
///
/// # Errors
/// [`ParseError::NoData`] without a data row, [`ParseError::CsvFieldCount`] for a row of too
/// few fields, [`ParseError::CsvBadValue`] for a figure that is not a finite number ≥ 0, and
/// [`ParseError::TooManyValues`] past [`MAX_ROWS`] rows.
pub fn parse(text: &str) -> Result<CanonicalRun, ParseError> {
    let mut meta = Meta::default();
    let mut rows = Vec::new();
    for (line_no, line) in crate::line_endings::numbered_lines(text) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            meta.read(comment.trim());
            continue;
        }
        if rows.len() == MAX_ROWS {
            return Err(ParseError::TooManyValues { max: MAX_ROWS });
        }
        rows.push(row(line, u64::try_from(line_no).unwrap_or(u64::MAX))?);
    }
    let Some(largest_bytes) = rows.iter().map(|r| r.size).max() else {
        return Err(ParseError::NoData {
            format: Format::NcclTests,
        });
    };
    let bus = BusTest {
        test: meta.test.clone(),
        ranks: meta.ranks(),
        hosts: u32::try_from(meta.hosts.len()).unwrap_or(u32::MAX),
        largest_bytes,
        bus_gbps: at_largest_sizes(&rows),
        avg_bus_gbps: meta.avg_bus,
        wrong: wrong_total(&rows),
        out_of_bounds: meta.out_of_bounds,
    };
    let mut run = CanonicalRun::new(Format::NcclTests);
    let per_host = bus.ranks.checked_div(bus.hosts.max(1)).filter(|n| *n > 0);
    run.node = NodeInfo {
        gpu_name: meta.gpu_name.clone(),
        gpu_count: per_host,
        ..NodeInfo::default()
    };
    run.bus_test = Some(bus);
    Ok(run)
}

/// The metadata lines' facts.
#[derive(Default)]
struct Meta {
    test: Option<String>,
    threads_by_gpus: Option<u32>,
    rank_lines: u32,
    hosts: Vec<String>,
    gpu_name: Option<String>,
    avg_bus: Option<f64>,
    out_of_bounds: Option<u64>,
}

/// Most distinct hosts remembered.
const MAX_HOSTS: usize = 4096;

impl Meta {
    fn read(&mut self, line: &str) {
        if let Some(name) = line.strip_prefix("Collective test starting:") {
            self.test = Some(name.trim().chars().take(64).collect()).filter(|n: &String| !n.is_empty());
        } else if line.starts_with("nThread") {
            let after = |key: &str| {
                let mut words = line.split_whitespace();
                words.find(|w| *w == key)?;
                words.next()?.parse::<u32>().ok()
            };
            self.threads_by_gpus = after("nThread").zip(after("nGpus")).and_then(|(t, g)| t.checked_mul(g));
        } else if line.starts_with("Rank") {
            self.rank(line);
        } else if let Some(rest) = line.strip_prefix("Avg bus bandwidth") {
            self.avg_bus = number(rest.trim_start().trim_start_matches(':').trim());
        } else if let Some(rest) = line.strip_prefix("Out of bounds values") {
            let value = rest.trim_start().trim_start_matches(':').split_whitespace().next();
            self.out_of_bounds = value.and_then(|v| v.parse().ok());
        }
    }

    /// `Rank  0 Group  0 Pid 412893 on hgx-h100-07 device  0 [0000:18:00] NVIDIA H100 80GB HBM3`
    /// (older versions: `Rank  0 Pid … on host device 0 [0x18] name`).
    fn rank(&mut self, line: &str) {
        self.rank_lines = self.rank_lines.saturating_add(1);
        let mut words = line.split_whitespace();
        if words.any(|w| w == "on")
            && let Some(host) = words.next()
            && !self.hosts.iter().any(|h| h == host)
            && self.hosts.len() < MAX_HOSTS
        {
            self.hosts.push(host.chars().take(255).collect());
        }
        if self.gpu_name.is_none()
            && let Some((_, name)) = line.split_once(']')
        {
            let name = name.trim();
            if !name.is_empty() && name != "..." {
                self.gpu_name = Some(name.chars().take(128).collect());
            }
        }
    }

    /// Ranks: the rank lines, or nThread × nGpus of one process when none was printed.
    fn ranks(&self) -> u32 {
        if self.rank_lines > 0 {
            self.rank_lines
        } else {
            self.threads_by_gpus.unwrap_or(0)
        }
    }
}

/// A data row. Fields are whitespace-separated; a `-S 1` timestamp (`YYYY-MM-DD HH:MM:SS`) is
/// left out before counting.
fn row(line: &str, line_no: u64) -> Result<Row, ParseError> {
    let fields: Vec<&str> = line
        .split_whitespace()
        .filter(|f| !is_timestamp_part(f))
        .take(32)
        .collect();
    // `-I 1` adds four per-iteration columns to each half: read by position they would be
    // misread, so any other count is refused with the line.
    if fields.len() != 13 {
        return Err(ParseError::CsvFieldCount {
            line: line_no,
            expected: 13,
            found: fields.len(),
        });
    }
    let bad = |column: &str| ParseError::CsvBadValue {
        line: line_no,
        column: column.into(),
    };
    let size = fields[0].parse::<u64>().map_err(|_| bad("size"))?;
    let busbw = |i: usize| number(fields[i]).ok_or_else(|| bad("busbw"));
    let wrong = |i: usize| match fields[i] {
        "N/A" => Ok(None),
        text => number(text)
            .filter(|w| w.fract() == 0.0 && *w < 1e18)
            .map(|w| Some(w as u64))
            .ok_or_else(|| bad("#wrong")),
    };
    Ok(Row {
        size,
        busbw: [busbw(7)?, busbw(11)?],
        wrong: [wrong(8)?, wrong(12)?],
    })
}

/// A finite figure ≥ 0 as printed (`482.17`, `1.2e+03`, ` 718238`).
fn number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0)
}

fn is_timestamp_part(field: &str) -> bool {
    let b = field.as_bytes();
    let shaped = |pattern: &[u8]| {
        b.len() == pattern.len()
            && b.iter()
                .zip(pattern)
                .all(|(c, p)| if *p == b'9' { c.is_ascii_digit() } else { c == p })
    };
    shaped(b"9999-99-99") || shaped(b"99:99:99")
}

/// The median busbw of both halves over the rows of the [`LARGEST_SIZES`] largest sizes.
fn at_largest_sizes(rows: &[Row]) -> f64 {
    let mut sizes: Vec<u64> = rows.iter().map(|r| r.size).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let from = sizes[sizes.len().saturating_sub(LARGEST_SIZES)..]
        .first()
        .copied()
        .unwrap_or(0);
    let mut figures: Vec<f64> = rows.iter().filter(|r| r.size >= from).flat_map(|r| r.busbw).collect();
    figures.sort_by(f64::total_cmp);
    let n = figures.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => figures[n / 2],
        _ => (figures[n / 2 - 1] + figures[n / 2]) / 2.0,
    }
}

/// Wrong elements over every row; `None` when any half was not checked (`N/A`).
fn wrong_total(rows: &[Row]) -> Option<u64> {
    rows.iter()
        .flat_map(|r| r.wrong)
        .try_fold(0u64, |sum, w| w.map(|w| sum.saturating_add(w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NVSWITCH: &str = include_str!("fixtures/nccl_all_reduce_perf.txt");
    const PCIE: &str = include_str!("fixtures/nccl_all_reduce_perf_pcie.txt");

    fn bus(text: &str) -> BusTest {
        parse(text).expect("reads").bus_test.expect("a bus test")
    }

    /// The module's worked example, and what the rank lines say of the node.
    #[test]
    fn an_nvswitch_node_reads_480_gb_s_at_the_largest_sizes_not_its_156_average() {
        let run = parse(NVSWITCH).unwrap();
        let b = run.bus_test.clone().unwrap();
        assert_eq!(b.test.as_deref(), Some("all_reduce_perf"));
        assert_eq!((b.ranks, b.hosts, b.largest_bytes), (8, 1, 8_589_934_592));
        assert!((b.bus_gbps - 480.885).abs() < 1e-9, "{}", b.bus_gbps);
        assert_eq!(b.avg_bus_gbps, Some(156.464));
        assert_eq!((b.wrong, b.out_of_bounds), (Some(0), Some(0)));
        assert_eq!(run.node.gpu_name.as_deref(), Some("NVIDIA H100 80GB HBM3"));
        assert_eq!(run.node.gpu_count, Some(8));
        assert_eq!(run.source_format, Format::NcclTests);
        assert!(run.throughput.is_none(), "a link test measures no work");
    }

    #[test]
    fn a_pcie_node_reads_about_21_gb_s() {
        let b = bus(PCIE);
        // 2, 4 and 8 GiB: 21.13, 21.17, 21.32, 21.02, 21.07, 21.17; median (21.13 + 21.17) ÷ 2.
        assert!((b.bus_gbps - 21.15).abs() < 1e-9, "{}", b.bus_gbps);
        assert_eq!(b.ranks, 8);
    }

    #[test]
    fn unchecked_results_and_wrong_values_are_kept_as_printed() {
        // `-c 0`: util.cu prints `N/A` in place of `#wrong`.
        let unchecked = NVSWITCH
            .replace("       0\n", "     N/A\n")
            .replace("       0    ", "     N/A    ");
        assert_eq!(bus(&unchecked).wrong, None);
        // Twelve wrong elements in the out-of-place half of the 8 GiB row.
        let wrong: String = NVSWITCH
            .lines()
            .map(|l| {
                if l.trim_start().starts_with("8589934592") {
                    let mut f: Vec<&str> = l.split_whitespace().collect();
                    f[8] = "12";
                    f.join(" ")
                } else {
                    l.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(bus(&wrong).wrong, Some(12));
    }

    #[test]
    fn several_hosts_older_rank_lines_and_stamped_rows_read() {
        // Two nodes over MPI, ranks named the way versions before Feb 2025 printed them, and
        // `-S 1` timestamps after each half.
        let text = "# nThread 1 nGpus 1 minBytes 1048576 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n\
            #   Rank  0 Pid  1001 on   node-a device  0 [0x18] NVIDIA H100 80GB HBM3\n\
            #   Rank  1 Pid  1002 on   node-b device  0 [0x18] NVIDIA H100 80GB HBM3\n\
            #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n\
            1073741824  268435456  float  sum  -1  23000  46.68  46.68  0  2026-12-01 10:00:01  23100  46.48  46.48  0  2026-12-01 10:00:02\n";
        let run = parse(text).unwrap();
        let b = run.bus_test.unwrap();
        assert_eq!((b.ranks, b.hosts), (2, 2));
        assert!((b.bus_gbps - 46.58).abs() < 1e-9);
        assert_eq!(run.node.gpu_count, Some(1), "one GPU per host");
    }

    #[test]
    fn broken_output_is_refused_with_the_line() {
        let header = "# nThread 1 nGpus 8 minBytes 8 maxBytes 8 step: 2(factor)\n";
        assert!(matches!(parse(header), Err(ParseError::NoData { .. })));
        let short = format!("{header}8 2 float sum -1 17.3 0.00\n");
        assert!(matches!(parse(&short), Err(ParseError::CsvFieldCount { line: 2, .. })));
        // `-I 1`: 4 more columns per half (i_min i_max i_p99 i_cv%).
        let wide = format!("{header}8 2 float sum -1 17.31 0.00 0.00 0 1 2 3 4 17.92 0.00 0.00 0 1 2 3 4\n");
        assert!(matches!(
            parse(&wide),
            Err(ParseError::CsvFieldCount {
                line: 2,
                expected: 13,
                found: 21
            })
        ));
        for figure in ["-1.00", "nan", "inf", "x"] {
            let text = format!("{header}8 2 float sum -1 17.31 0.00 {figure} 0 17.92 0.00 0.00 0\n");
            assert!(
                matches!(parse(&text), Err(ParseError::CsvBadValue { line: 2, .. })),
                "{figure}"
            );
        }
    }

    #[test]
    fn only_nccl_tests_output_is_sniffed_as_it() {
        assert!(sniff(NVSWITCH));
        assert!(sniff(PCIE));
        assert!(!sniff("timestamp, index, utilization.gpu [%]\n"));
        assert!(!sniff("# nThread is not a word here\n"));
    }
}
