//! A workload's response-time target and what a run measured against it, in the reader's
//! language: "p95 TPOT ≤ 22 ms", and the verdict's sentences.

use crate::{
    domain::runs::{LatencyMetric, Reason, ResponseTarget},
    i18n::{Locale, Msg, figure as num},
};

/// The metric's short name: TTFT, TPOT, ITL, E2E (the names the tools print).
#[must_use]
pub const fn metric_short(metric: LatencyMetric) -> &'static str {
    match metric {
        LatencyMetric::Ttft => "TTFT",
        LatencyMetric::Tpot => "TPOT",
        LatencyMetric::Itl => "ITL",
        LatencyMetric::E2el => "E2E",
    }
}

/// The metric's name in words, with its short name: "time per output token (TPOT)".
#[must_use]
pub fn metric_name(locale: Locale, metric: LatencyMetric) -> &'static str {
    locale.t(match metric {
        LatencyMetric::Ttft => Msg::RespMetricTtft,
        LatencyMetric::Tpot => Msg::RespMetricTpot,
        LatencyMetric::Itl => Msg::RespMetricItl,
        LatencyMetric::E2el => Msg::RespMetricE2el,
    })
}

/// "p95 TPOT ≤ 22 ms".
#[must_use]
pub fn target_text(t: &ResponseTarget) -> String {
    format!(
        "{} {} ≤ {} ms",
        t.percentile.as_str(),
        metric_short(t.metric),
        t.max_ms.normalize()
    )
}

/// The verdict's sentence for a response-time reason; `None` for any other reason.
#[must_use]
pub fn reason_text(locale: Locale, reason: &Reason) -> Option<String> {
    let at = |concurrency: &Option<u64>| {
        concurrency.map_or_else(String::new, |n| {
            locale.fmt(Msg::RunReasonAtConcurrency, &[("n", &n.to_string())])
        })
    };
    Some(match reason {
        Reason::ResponseTimeMet {
            target,
            measured_ms,
            concurrency,
        } => locale.fmt(
            Msg::RunReasonResponseTimeMet,
            &[
                ("target", &target_text(target)),
                ("measured", &num(*measured_ms, 2)),
                ("at", &at(concurrency)),
            ],
        ),
        Reason::MissesResponseTarget {
            target,
            measured_ms,
            concurrency,
        } => locale.fmt(
            Msg::RunReasonMissesResponseTarget,
            &[
                ("target", &target_text(target)),
                ("measured", &num(*measured_ms, 2)),
                ("at", &at(concurrency)),
            ],
        ),
        Reason::ResponseTimeUnreported { target } => locale.fmt(
            Msg::RunReasonResponseTimeUnreported,
            &[
                ("target", &target_text(target)),
                ("metric", target.metric.as_str()),
                ("pct", target.percentile.as_str().trim_start_matches('p')),
            ],
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::runs::Percentile;
    use rust_decimal_macros::dec;

    #[test]
    fn a_target_and_its_verdicts_read_in_both_languages() {
        let target = ResponseTarget {
            metric: LatencyMetric::Tpot,
            percentile: Percentile::P95,
            max_ms: dec!(22.0),
        };
        assert_eq!(target_text(&target), "p95 TPOT ≤ 22 ms");
        let missed = Reason::MissesResponseTarget {
            target,
            measured_ms: 26.160_053,
            concurrency: Some(64),
        };
        let en = reason_text(Locale::En, &missed).unwrap();
        assert!(
            en.contains("26.16 ms") && en.contains("p95 TPOT ≤ 22 ms") && en.contains("64"),
            "{en}"
        );
        let zh = reason_text(Locale::ZhCn, &missed).unwrap();
        assert!(zh.contains("26.16") && zh.contains("64"), "{zh}");
        let unreported = reason_text(Locale::En, &Reason::ResponseTimeUnreported { target }).unwrap();
        assert!(unreported.contains("--metric-percentiles 95"), "{unreported}");
        assert_eq!(reason_text(Locale::En, &Reason::NoThroughput), None);
    }
}
