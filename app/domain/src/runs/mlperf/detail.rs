//! LoadGen's `mlperf_log_detail.txt`: one `:::MLLOG {json}` line per event.

use serde::Deserialize;
use serde_json::Value;

use super::{EXTRA_KEY, MlperfSummary, throughput};
use crate::runs::canonical::CanonicalRun;
use crate::runs::clock;
use crate::runs::error::ParseError;
use crate::runs::format::Format;

/// How every detail line begins (`USE_NEW_LOGGING_FORMAT`, `loadgen/logging.h`).
pub(crate) const DETAIL_PREFIX: &str = ":::MLLOG";

/// One event: its key, value and milliseconds since logging started.
#[derive(Deserialize)]
struct Event {
    key: String,
    #[serde(default)]
    value: Value,
    #[serde(default)]
    time_ms: Option<f64>,
}

/// What the events give, besides the summary's fields.
#[derive(Default)]
struct Clock {
    /// `test_datetime`, canonical form, and its `time_ms`.
    start: Option<(String, f64)>,
    /// Latest `time_ms` seen.
    last_ms: Option<f64>,
}

/// Parses a detail log; lines that are not events (or not JSON) are passed over.
pub(super) fn parse(text: &str) -> Result<CanonicalRun, ParseError> {
    let mut run = CanonicalRun::new(Format::Mlperf);
    let mut s = MlperfSummary::default();
    let mut clock = Clock::default();
    let mut recognised = false;
    for line in text.lines() {
        let Some(body) = line.trim().strip_prefix(DETAIL_PREFIX) else {
            continue;
        };
        let Ok(event) = serde_json::from_str::<Event>(body.trim()) else {
            continue;
        };
        if let Some(t) = event.time_ms.filter(|t| t.is_finite() && *t >= 0.0) {
            clock.last_ms = Some(clock.last_ms.map_or(t, |l: f64| l.max(t)));
        }
        recognised |= apply(&event, &mut run, &mut s, &mut clock);
    }
    if !recognised {
        return Err(ParseError::NoData { format: Format::Mlperf });
    }
    if let (Some((start, t0)), Some(last)) = (clock.start, clock.last_ms)
        && let Some(secs) = clock::seconds(&start)
    {
        let duration = (last - t0).max(0.0) / 1000.0;
        run.started_at = Some(start);
        run.ended_at = clock::format(secs + duration);
        run.duration_s = Some(duration);
    }
    if let Ok(v) = serde_json::to_value(&s) {
        run.extra.insert(EXTRA_KEY.into(), v);
    }
    Ok(run)
}

/// Applies one event; true when it was one of the results or the start.
fn apply(e: &Event, run: &mut CanonicalRun, s: &mut MlperfSummary, clock: &mut Clock) -> bool {
    let text = e.value.as_str();
    let flag = || e.value.as_bool();
    let number = e.value.as_f64().filter(|v| v.is_finite());
    match e.key.as_str() {
        "test_datetime" => {
            let naive = text.map(|t| t.trim().trim_end_matches('Z'));
            clock.start = naive
                .and_then(clock::seconds)
                .and_then(clock::format)
                .map(|start| (start, e.time_ms.unwrap_or(0.0)));
        }
        "sut_name" => s.sut_name = text.map(str::to_owned),
        "effective_scenario" => s.scenario = text.map(str::to_owned),
        "effective_test_mode" => s.mode = text.map(str::to_owned),
        "result_validity" => s.result_valid = text.map(|v| v.eq_ignore_ascii_case("VALID")),
        "result_min_duration_met" => s.min_duration_satisfied = flag(),
        "result_min_queries_met" => s.min_queries_satisfied = flag(),
        "early_stopping_met" => s.early_stopping_satisfied = flag(),
        "effective_min_duration_ms" => s.min_duration_ms = number,
        key => {
            let line = match key {
                "result_samples_per_second" => "Samples per second",
                "result_completed_samples_per_sec" => "Completed samples per second",
                "result_completed_tokens_per_second" => "Completed tokens per second",
                "result_scheduled_samples_per_sec" => "Scheduled samples per second",
                _ => return false,
            };
            return number.is_some_and(|v| throughput(line, v, run));
        }
    }
    true
}
