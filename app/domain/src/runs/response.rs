//! The response time an inference workload needs, and what runs at several concurrencies say
//! about the throughput a node gives while meeting it.
//!
//! The seeds ask to "record the single response time" at "the target concurrency": a serving
//! node is only as cheap as the tokens it serves while each user still gets answers fast enough.
//! A workload states a **response-time target**: a percentile (p50, p90, p95, p99) of one latency
//! metric (time to first token, time per output token, inter-token latency or the whole request)
//! and the most milliseconds it may take.
//!
//! # Reading a run
//! vLLM `bench serve --save-result` writes `p95_tpot_ms`, `median_tpot_ms`, …, and SGLang
//! `bench_serving` the same names; the parsers keep them as `"tpot.p95"`, `"tpot.median"` in
//! `CanonicalRun::latencies`. p50 is read from `p50` or `median` (vLLM writes the median only).
//!
//! # The curve
//! Runs of one node at several concurrencies give points (latency at the percentile, throughput).
//! Higher concurrency serves more tokens and answers each user more slowly. The throughput **at
//! the target** is the best of:
//! - every point that meets the target (latency ≤ target): its throughput as measured;
//! - every pair of points of which one meets and the other misses: the throughput on the
//!   straight line between them at latency = target.
//!
//! Nothing is extrapolated: with no point at or under the target there is no figure (the node
//! was never measured fast enough); beyond the fastest-serving point that meets it, that point's
//! throughput is the figure.
//!
//! Worked example (the vLLM fixtures of a 2-card tensor-parallel Qwen2.5-32B at 8, 32 and 64
//! concurrent requests): p95 TPOT 14.63, 19.36 and 26.16 ms at 551.96, 1,676.58 and 2,448.93
//! output tokens/s. With a target of p95 TPOT ≤ 22 ms the 32-run meets it and the 64-run misses;
//! on the line between them, 22 ms is (22 − 19.36) ÷ (26.16 − 19.36) = 0.388 of the way, so the
//! node serves 1,676.58 + 0.388 × 772.35 ≈ 1,976.4 tokens/s at the target.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The latency a target is stated in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LatencyMetric {
    /// Time to first token.
    Ttft,
    /// Time per output token after the first (per-user speed = 1000 ÷ TPOT ms tokens/s).
    Tpot,
    /// Inter-token latency.
    Itl,
    /// The whole request, end to end.
    E2el,
}

impl LatencyMetric {
    /// Every metric, in the order a form offers them.
    pub const ALL: [Self; 4] = [Self::Tpot, Self::Ttft, Self::Itl, Self::E2el];

    /// The name in `latencies` keys and in forms: `tpot`, `ttft`, `itl`, `e2el`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Ttft => "ttft",
            Self::Tpot => "tpot",
            Self::Itl => "itl",
            Self::E2el => "e2el",
        }
    }

    /// The metric named `name`, if any.
    #[must_use]
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == name.trim())
    }

    /// Whether the metric is a time per token, so 1000 ÷ ms is the speed one user sees.
    #[must_use]
    pub const fn per_token(self) -> bool {
        matches!(self, Self::Tpot | Self::Itl)
    }
}

/// The percentile a target is stated at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Percentile {
    /// The median.
    P50,
    /// 90th percentile.
    P90,
    /// 95th percentile.
    P95,
    /// 99th percentile.
    P99,
}

impl Percentile {
    /// Every percentile, in the order a form offers them.
    pub const ALL: [Self; 4] = [Self::P50, Self::P90, Self::P95, Self::P99];

    /// `p50`, `p90`, `p95`, `p99`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::P50 => "p50",
            Self::P90 => "p90",
            Self::P95 => "p95",
            Self::P99 => "p99",
        }
    }

    /// The percentile named `name`, if any.
    #[must_use]
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == name.trim())
    }
}

/// The most milliseconds a target may state: ten minutes.
pub const MAX_TARGET_MS: Decimal = Decimal::from_parts(600_000, 0, 0, false, 0);

/// How fast each user must be answered: `percentile` of `metric` at most `max_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResponseTarget {
    /// What is timed.
    pub metric: LatencyMetric,
    /// At which percentile.
    pub percentile: Percentile,
    /// The most it may take, milliseconds (above 0, at most [`MAX_TARGET_MS`]).
    #[serde(with = "rust_decimal::serde::str")]
    pub max_ms: Decimal,
}

impl ResponseTarget {
    /// The run's figure for this target, milliseconds: `latencies["<metric>.<pNN>"]`, or for p50
    /// the median; `None` when the run does not report it or it is not a finite figure ≥ 0.
    #[must_use]
    pub fn measured(&self, latencies: &BTreeMap<String, f64>) -> Option<f64> {
        let metric = self.metric.as_str();
        let key = format!("{metric}.{}", self.percentile.as_str());
        let median = format!("{metric}.median");
        let value = latencies.get(&key).or_else(|| {
            (self.percentile == Percentile::P50)
                .then(|| latencies.get(&median))
                .flatten()
        })?;
        (value.is_finite() && *value >= 0.0).then_some(*value)
    }

    /// Whether a latency of `ms` meets the target.
    #[must_use]
    pub fn met_by(&self, ms: Decimal) -> bool {
        ms <= self.max_ms
    }
}

/// One run on the curve: its latency at the target's percentile and its throughput.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurvePoint {
    /// The run.
    pub run_id: i64,
    /// Concurrent requests it ran with, when the result says.
    pub concurrency: Option<u64>,
    /// Latency at the target's percentile, milliseconds.
    pub latency_ms: Decimal,
    /// Throughput (per node, in the workload's unit per second).
    pub throughput: Decimal,
    /// Input and output tokens per second together (per node), when the result says.
    pub total_tokens: Option<Decimal>,
}

/// The throughput a node gives at a response-time target, and where it was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtTarget {
    /// A run met the target and none between it and a slower run serves more: its throughput.
    Measured {
        /// The throughput.
        throughput: Decimal,
        /// The run.
        run_id: i64,
    },
    /// On the straight line between a run that meets the target and one that misses it.
    Between {
        /// The throughput at latency = target.
        throughput: Decimal,
        /// The run that meets the target.
        meets: i64,
        /// The run that misses it.
        misses: i64,
    },
    /// Every run missed the target: no throughput meets it as far as was measured.
    NoneMeets {
        /// The fastest-answering run's latency, milliseconds.
        best_ms: Decimal,
    },
}

impl AtTarget {
    /// The throughput, when some run meets the target.
    #[must_use]
    pub const fn throughput(&self) -> Option<Decimal> {
        match self {
            Self::Measured { throughput, .. } | Self::Between { throughput, .. } => Some(*throughput),
            Self::NoneMeets { .. } => None,
        }
    }
}

/// The throughput at `target` read off `points` (see the module docs); `None` without points.
#[must_use]
pub fn at_target(points: &[CurvePoint], target: &ResponseTarget) -> Option<AtTarget> {
    let best_ms = points.iter().map(|p| p.latency_ms).min()?;
    let meets: Vec<&CurvePoint> = points.iter().filter(|p| target.met_by(p.latency_ms)).collect();
    let misses: Vec<&CurvePoint> = points.iter().filter(|p| !target.met_by(p.latency_ms)).collect();
    let mut best: Option<AtTarget> = None;
    let mut consider = |found: AtTarget| {
        let better = match (&best, found.throughput()) {
            (None, _) => true,
            (Some(b), Some(t)) => b.throughput().is_none_or(|bt| t > bt),
            (Some(_), None) => false,
        };
        if better {
            best = Some(found);
        }
    };
    for m in &meets {
        consider(AtTarget::Measured {
            throughput: m.throughput,
            run_id: m.run_id,
        });
        for x in &misses {
            if let Some(throughput) = on_line(m, x, target.max_ms) {
                consider(AtTarget::Between {
                    throughput,
                    meets: m.run_id,
                    misses: x.run_id,
                });
            }
        }
    }
    Some(best.unwrap_or(AtTarget::NoneMeets { best_ms }))
}

/// Output and all (input + output) tokens a node serves per second at the target, as read by
/// [`at_target`]: the run's own figures, or both read on the same line at the same share of the
/// way. `None` when a run it was read off does not say its total tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenMix {
    /// Output tokens per second (the throughput).
    pub output: Decimal,
    /// Input and output tokens per second.
    pub total: Decimal,
}

impl TokenMix {
    /// What one million input, output and all tokens cost when one million output tokens cost
    /// `per_million_output`: the same money spread over the tokens of each kind the node
    /// serves alongside. Input is `None` when the runs say no input was sent.
    ///
    /// With 1,976.4 output and 5,929.2 total tokens/s (2 input tokens per output token), ¥3.00
    /// per 1M output tokens is ¥1.50 per 1M input tokens and ¥1.00 per 1M tokens in all.
    #[must_use]
    pub fn per_million(&self, per_million_output: Decimal) -> TokenCosts {
        let input = self.total.checked_sub(self.output).filter(|i| *i > Decimal::ZERO);
        let spread = |tokens: Decimal| {
            per_million_output
                .checked_mul(self.output)
                .and_then(|x| x.checked_div(tokens))
        };
        TokenCosts {
            output: per_million_output,
            input: input.and_then(spread),
            total: spread(self.total).filter(|_| self.total >= self.output),
        }
    }
}

/// The cost of one million tokens of each kind at the target (see [`TokenMix::per_million`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenCosts {
    /// One million output tokens.
    #[serde(with = "rust_decimal::serde::str")]
    pub output: Decimal,
    /// One million input tokens, when input was sent.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub input: Option<Decimal>,
    /// One million tokens, input and output together.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub total: Option<Decimal>,
}

/// The tokens served at the target `at` (from [`at_target`] on the same `points`).
#[must_use]
pub fn tokens_at_target(points: &[CurvePoint], target: &ResponseTarget, at: &AtTarget) -> Option<TokenMix> {
    let point = |id: i64| points.iter().find(|p| p.run_id == id);
    match *at {
        AtTarget::Measured { throughput, run_id } => Some(TokenMix {
            output: throughput,
            total: point(run_id)?.total_tokens?,
        }),
        AtTarget::Between {
            throughput,
            meets,
            misses,
        } => {
            let (a, b) = (point(meets)?, point(misses)?);
            let (ta, tb) = (a.total_tokens?, b.total_tokens?);
            let total = between(ta, tb, share_of_the_way(a, b, target.max_ms)?)?;
            Some(TokenMix {
                output: throughput,
                total,
            })
        }
        AtTarget::NoneMeets { .. } => None,
    }
}

/// The throughput at latency `ms` on the line from `a` (meets) to `b` (misses); `None` when
/// the line does not serve more at the target than at `a`, or on overflow.
fn on_line(a: &CurvePoint, b: &CurvePoint, ms: Decimal) -> Option<Decimal> {
    if b.latency_ms <= a.latency_ms || b.throughput <= a.throughput {
        return None;
    }
    between(a.throughput, b.throughput, share_of_the_way(a, b, ms)?)
}

/// How far latency `ms` lies from `a`'s to `b`'s, as a share of the way; `None` when they
/// have the same latency, or on overflow.
fn share_of_the_way(a: &CurvePoint, b: &CurvePoint, ms: Decimal) -> Option<Decimal> {
    let span = b.latency_ms.checked_sub(a.latency_ms)?;
    ms.checked_sub(a.latency_ms)?.checked_div(span)
}

/// The figure `share` of the way from `from` to `to`.
fn between(from: Decimal, to: Decimal, share: Decimal) -> Option<Decimal> {
    from.checked_add(to.checked_sub(from)?.checked_mul(share)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    fn target(ms: Decimal) -> ResponseTarget {
        ResponseTarget {
            metric: LatencyMetric::Tpot,
            percentile: Percentile::P95,
            max_ms: ms,
        }
    }

    fn point(run_id: i64, latency_ms: Decimal, throughput: Decimal) -> CurvePoint {
        CurvePoint {
            run_id,
            concurrency: None,
            latency_ms,
            throughput,
            total_tokens: None,
        }
    }

    /// The fixtures with their `total_token_throughput` (vllm_tp2_concurrency_{8,32,64}.json).
    fn with_totals() -> Vec<CurvePoint> {
        let totals = [dec!(1103.90), dec!(3353.11), dec!(4897.80)];
        fixtures()
            .into_iter()
            .zip(totals)
            .map(|(p, t)| CurvePoint {
                total_tokens: Some(t),
                ..p
            })
            .collect()
    }

    #[test]
    fn tokens_at_the_target_are_read_on_the_same_line_as_the_throughput() {
        let points = with_totals();
        let target = target(dec!(22));
        let at = at_target(&points, &target).unwrap();
        let mix = tokens_at_target(&points, &target, &at).unwrap();
        assert_eq!(mix.output.round_dp(1), dec!(1976.4));
        // 3,353.11 + 0.388 × (4,897.80 − 3,353.11) ≈ 3,952.8.
        assert_eq!(mix.total.round_dp(1), dec!(3952.8));
        let measured = AtTarget::Measured {
            throughput: dec!(1676.58),
            run_id: 32,
        };
        assert_eq!(
            tokens_at_target(&points, &target, &measured).map(|m| m.total),
            Some(dec!(3353.11))
        );
        // A run that does not say its total tokens gives no mix; nor does a target none meets.
        assert_eq!(tokens_at_target(&fixtures(), &target, &at), None);
        let none = AtTarget::NoneMeets { best_ms: dec!(14.63) };
        assert_eq!(tokens_at_target(&points, &target, &none), None);
    }

    #[test]
    fn one_cost_spread_over_input_output_and_all_tokens() {
        let mix = TokenMix {
            output: dec!(1976.4),
            total: dec!(5929.2),
        };
        let costs = mix.per_million(dec!(3.00));
        assert_eq!(costs.output, dec!(3.00));
        assert_eq!(costs.input.map(|d| d.round_dp(6)), Some(dec!(1.5)));
        assert_eq!(costs.total.map(|d| d.round_dp(6)), Some(dec!(1)));
        // No input sent: no input price, and all tokens are the output tokens.
        let output_only = TokenMix {
            output: dec!(100),
            total: dec!(100),
        };
        assert_eq!(output_only.per_million(dec!(2)).input, None);
        assert_eq!(output_only.per_million(dec!(2)).total, Some(dec!(2)));
        // A total below the output is not a total: no figure rather than a cheaper one.
        let broken = TokenMix {
            output: dec!(100),
            total: dec!(50),
        };
        assert_eq!(broken.per_million(dec!(2)).total, None);
    }

    /// The module's worked example, with the fixtures' figures to two decimals.
    fn fixtures() -> Vec<CurvePoint> {
        vec![
            point(8, dec!(14.63), dec!(551.96)),
            point(32, dec!(19.36), dec!(1676.58)),
            point(64, dec!(26.16), dec!(2448.93)),
        ]
    }

    #[test]
    fn between_a_run_that_meets_and_one_that_misses_the_line_is_read() {
        let found = at_target(&fixtures(), &target(dec!(22))).unwrap();
        let AtTarget::Between {
            throughput,
            meets,
            misses,
        } = found
        else {
            panic!("{found:?}");
        };
        assert_eq!((meets, misses), (32, 64));
        assert_eq!(throughput.round_dp(1), dec!(1976.4));
    }

    #[test]
    fn nothing_is_extrapolated_past_the_runs() {
        // Every run meets 30 ms: the best measured, not a guess beyond 64.
        assert_eq!(
            at_target(&fixtures(), &target(dec!(30))),
            Some(AtTarget::Measured {
                throughput: dec!(2448.93),
                run_id: 64
            })
        );
        // No run meets 10 ms: no figure, and the fastest latency measured is said.
        assert_eq!(
            at_target(&fixtures(), &target(dec!(10))),
            Some(AtTarget::NoneMeets { best_ms: dec!(14.63) })
        );
        assert_eq!(at_target(&[], &target(dec!(10))), None);
        // Exactly on a run: that run.
        assert_eq!(
            at_target(&fixtures(), &target(dec!(19.36))).and_then(|a| a.throughput()),
            Some(dec!(1676.58))
        );
    }

    #[test]
    fn a_slower_run_that_serves_less_is_no_line_to_read() {
        let points = [point(1, dec!(10), dec!(100)), point(2, dec!(30), dec!(90))];
        assert_eq!(
            at_target(&points, &target(dec!(20))),
            Some(AtTarget::Measured {
                throughput: dec!(100),
                run_id: 1
            })
        );
    }

    #[test]
    fn the_run_figure_is_read_at_the_percentile_or_the_median() {
        let mut l = BTreeMap::new();
        l.insert("tpot.median".to_owned(), 14.35);
        l.insert("tpot.p95".to_owned(), 14.63);
        l.insert("ttft.p99".to_owned(), f64::NAN);
        assert_eq!(target(dec!(20)).measured(&l), Some(14.63));
        let median = ResponseTarget {
            percentile: Percentile::P50,
            ..target(dec!(20))
        };
        assert_eq!(median.measured(&l), Some(14.35));
        let ttft = ResponseTarget {
            metric: LatencyMetric::Ttft,
            percentile: Percentile::P99,
            max_ms: dec!(500),
        };
        assert_eq!(ttft.measured(&l), None, "not a finite figure");
        let p90 = ResponseTarget {
            percentile: Percentile::P90,
            ..target(dec!(20))
        };
        assert_eq!(p90.measured(&l), None, "not reported");
    }

    proptest::proptest! {
        /// The figure at a target never exceeds the best throughput measured and never falls
        /// below the best throughput of a run that meets it; a looser target never gives less.
        #[test]
        fn the_figure_stays_within_what_was_measured(
            raw in proptest::collection::vec((1u32..100_000, 1u32..1_000_000), 1..8),
            ms in 1u32..100_000,
            looser in 0u32..10_000,
        ) {
            let points: Vec<CurvePoint> = raw
                .iter()
                .enumerate()
                .map(|(i, (l, t))| point(i64::try_from(i).unwrap(), Decimal::new(i64::from(*l), 1), Decimal::from(*t)))
                .collect();
            let max = points.iter().map(|p| p.throughput).max().unwrap();
            let t = target(Decimal::new(i64::from(ms), 1));
            let found = at_target(&points, &t).unwrap();
            let best_meeting = points.iter().filter(|p| t.met_by(p.latency_ms)).map(|p| p.throughput).max();
            proptest::prop_assert_eq!(found.throughput().is_some(), best_meeting.is_some());
            if let (Some(got), Some(floor)) = (found.throughput(), best_meeting) {
                proptest::prop_assert!(got >= floor && got <= max, "{got} not in [{floor}, {max}]");
            }
            let loose = target(t.max_ms + Decimal::new(i64::from(looser), 1));
            let more = at_target(&points, &loose).unwrap().throughput();
            proptest::prop_assert!(more >= found.throughput(), "{more:?} < {:?}", found.throughput());
        }
    }
}
