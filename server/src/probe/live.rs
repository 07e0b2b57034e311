//! The live line: elapsed time, GPU utilisation, memory and SM clock from the newest telemetry
//! rows, the warm-up as the server will judge it, and the moment the run passes the minimum
//! length (10 minutes) without its warm-up.
//!
//! Rows are read by their header's names (any order, with or without `[unit]`), so a captured
//! file or the probe's own `nvidia-smi` reads alike: the header and the values are read by the
//! server's own parser ([`SmiColumns`], [`smi_number`], [`smi_mask`]), and the warm-up comes
//! from the telemetry so far through its judge ([`app::domain::runs`]): one rule, not two.

use super::duration::clock;
use app::domain::runs::{SmiColumns, Thresholds, VerdictContext, assess, parse_nvidia_smi, smi_mask, smi_number};

/// The newest sample of one GPU.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GpuNow {
    index: String,
    util_pct: Option<f64>,
    mem_used_mib: Option<f64>,
    mem_total_mib: Option<f64>,
    sm_mhz: Option<f64>,
    /// `clocks_*_reasons.active` without the idle bit: something holds the clocks down.
    limited: bool,
}

/// The telemetry read so far, newest sample per GPU.
#[derive(Clone, Debug, Default)]
pub struct Live {
    columns: Option<SmiColumns>,
    gpus: Vec<GpuNow>,
}

fn number(field: Option<&&str>) -> Option<f64> {
    smi_number(field?)
}

impl Live {
    /// Reads one line of `nvidia-smi` CSV (the first is the header).
    pub fn feed(&mut self, line: &str) {
        // amd-smi's `--watch` prints a banner first and the header again before every sample.
        if line.trim_start().starts_with("'CTRL'") || (self.columns.is_some() && line.starts_with("timestamp,")) {
            return;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let Some(cols) = &self.columns else {
            self.columns = Some(SmiColumns::of_header(line));
            return;
        };
        let at = |i: Option<usize>| i.and_then(|i| fields.get(i));
        let mask = at(cols.mask).and_then(|m| smi_mask(m)).unwrap_or(0);
        let now = GpuNow {
            index: at(cols.index).map_or_else(String::new, |s| (*s).to_string()),
            util_pct: number(at(cols.util)),
            mem_used_mib: number(at(cols.mem_used)),
            mem_total_mib: number(at(cols.mem_total)),
            sm_mhz: number(at(cols.sm_clock)),
            limited: mask & !1 != 0,
        };
        match self.gpus.iter_mut().find(|g| g.index == now.index) {
            Some(g) => *g = now,
            None => self.gpus.push(now),
        }
    }

    /// The line for `elapsed_s` seconds into the run, with the warm-up if known.
    #[must_use]
    pub fn line(&self, elapsed_s: u64, warmup_s: Option<f64>) -> String {
        let mut parts = vec![format!("probe {}", clock(elapsed_s))];
        if self.gpus.is_empty() {
            parts.push("no telemetry yet".into());
        } else {
            let utils: Vec<f64> = self.gpus.iter().filter_map(|g| g.util_pct).collect();
            if !utils.is_empty() {
                parts.push(format!("GPU {:.0} %", utils.iter().sum::<f64>() / utils.len() as f64));
            }
            let used: f64 = self.gpus.iter().filter_map(|g| g.mem_used_mib).sum();
            let total: f64 = self.gpus.iter().filter_map(|g| g.mem_total_mib).sum();
            if total > 0.0 {
                parts.push(format!("VRAM {:.1}/{:.1} GiB", used / 1024.0, total / 1024.0));
            }
            if let Some(sm) = self.gpus.iter().filter_map(|g| g.sm_mhz).reduce(f64::min) {
                parts.push(format!("SM {sm:.0} MHz"));
            }
            if self.gpus.iter().any(|g| g.limited) {
                parts.push("clocks held down".into());
            }
        }
        parts.push(steady_phrase(elapsed_s, warmup_s));
        parts.join(" · ")
    }
}

/// The minimum run length after the warm-up, seconds (the judge's [`Thresholds`]).
#[must_use]
pub fn min_steady_s() -> u64 {
    // Whole seconds of a small positive constant: no truncation in practice.
    #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "600.0")]
    let s = Thresholds::default().min_duration_s as u64;
    s
}

/// Seconds of the run after its warm-up (`None` while the warm-up is unknown).
#[must_use]
pub fn steady_s(elapsed_s: u64, warmup_s: Option<f64>) -> Option<u64> {
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "non-negative seconds"
    )]
    let warm = warmup_s?.max(0.0).ceil() as u64;
    Some(elapsed_s.saturating_sub(warm))
}

fn steady_phrase(elapsed_s: u64, warmup_s: Option<f64>) -> String {
    let min = min_steady_s();
    match (warmup_s, steady_s(elapsed_s, warmup_s)) {
        (Some(w), Some(steady)) if steady >= min => {
            format!(
                "warm-up {} · {} without warm-up: long enough",
                clock_f(w),
                clock(steady)
            )
        }
        (Some(w), Some(steady)) => format!(
            "warm-up {} · {} of {} without warm-up",
            clock_f(w),
            clock(steady),
            clock(min)
        ),
        _ => "warm-up not judged yet".into(),
    }
}

fn clock_f(secs: f64) -> String {
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "non-negative seconds"
    )]
    let s = secs.max(0.0).round() as u64;
    clock(s)
}

/// The message printed once when the run passes the minimum after its warm-up.
#[must_use]
pub fn long_enough_message(elapsed_s: u64, warmup_s: Option<f64>) -> Option<String> {
    let steady = steady_s(elapsed_s, warmup_s)?;
    (steady >= min_steady_s()).then(|| {
        format!(
            "nodeledger probe: the run has passed {} without its warm-up: long enough to be judged valid",
            clock(min_steady_s())
        )
    })
}

/// The warm-up of the telemetry written so far, as the server will judge it (`None` when the
/// file cannot be read yet).
#[must_use]
pub fn warmup_so_far(csv: &[u8]) -> Option<f64> {
    let run = parse_nvidia_smi(std::io::BufReader::new(csv)).ok()?;
    assess(run, &VerdictContext::default()).warmup_s
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "timestamp, index, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB], clocks.current.sm [MHz], clocks_event_reasons.active";

    #[test]
    fn the_line_shows_utilisation_memory_and_the_slowest_clock_of_all_gpus() {
        let mut live = Live::default();
        live.feed(HEADER);
        assert!(live.line(3, None).contains("no telemetry yet"));
        live.feed("2024/05/01 12:00:00.123, 0, NVIDIA H100, 90 %, 40960 MiB, 81920 MiB, 1980 MHz, 0x0000000000000000");
        live.feed("2024/05/01 12:00:00.127, 1, NVIDIA H100, 70 %, 20480 MiB, 81920 MiB, 1755 MHz, 0x0000000000000004");
        live.feed("2024/05/01 12:00:01.123, 0, NVIDIA H100, 100 %, 40960 MiB, 81920 MiB, 1980 MHz, 0x0000000000000001");
        assert_eq!(
            live.line(754, None),
            "probe 12:34 · GPU 85 % · VRAM 60.0/160.0 GiB · SM 1755 MHz · clocks held down · warm-up not judged yet"
        );
    }

    #[test]
    fn the_idle_bit_alone_does_not_count_as_held_down() {
        let mut live = Live::default();
        live.feed("timestamp, index, utilization.gpu, clocks.sm, clocks_throttle_reasons.active");
        live.feed("2024/05/01 12:00:00.123, 0, 3, 210, 0x0000000000000001");
        assert_eq!(
            live.line(5, None),
            "probe 0:05 · GPU 3 % · SM 210 MHz · warm-up not judged yet"
        );
    }

    #[test]
    fn the_run_is_long_enough_ten_minutes_after_its_warm_up() {
        let mut live = Live::default();
        live.feed(HEADER);
        assert!(
            live.line(640, Some(40.0))
                .ends_with("warm-up 0:40 · 10:00 without warm-up: long enough")
        );
        assert!(
            live.line(639, Some(40.0))
                .ends_with("warm-up 0:40 · 9:59 of 10:00 without warm-up")
        );
        assert_eq!(long_enough_message(639, Some(40.0)), None);
        assert!(
            long_enough_message(640, Some(40.0))
                .unwrap()
                .contains("passed 10:00 without its warm-up")
        );
        assert_eq!(long_enough_message(5000, None), None, "not before the warm-up is known");
    }

    #[test]
    fn the_warm_up_so_far_is_the_one_the_server_judges() {
        let csv = include_bytes!("../../../app/domain/src/runs/fixtures/smi_units_event.csv");
        let warmup = warmup_so_far(csv).unwrap();
        assert!((30.0..=60.0).contains(&warmup), "{warmup}");
        assert_eq!(warmup_so_far(b"timestamp, index\n"), None);
    }
}
