//! The comparison's notes in the reader's language: exchange rates, the response-time target
//! and the budget.

use super::*;

/// The row with what is doubtful about its rate said after the rate itself: older than the
/// team's limit in days on the day of the comparison, or disagreeing with the same day's rate of
/// the opposite direction.
pub(super) fn with_rate_warnings(
    mut row: crate::views::tco::CostRow,
    s: &crate::domain::orders::record::SignedCostRow,
    (rates, stale_days): (&[ExchangeRate], i64),
    today: i64,
    locale: Locale,
) -> crate::views::tco::CostRow {
    let (Some(note), Some(used)) = (row.rate_note.as_mut(), s.rate.as_ref()) else {
        return row;
    };
    let used = ExchangeRate {
        from: used.from,
        to: used.to,
        rate: used.rate,
        date: used.date.clone(),
    };
    for warning in rate_warnings(rates, &used, today, stale_days) {
        note.push_str(locale.t(Msg::TcoRateWarningSeparator));
        note.push_str(&match warning {
            RateWarning::Stale { days } => locale.fmt(
                Msg::TcoRateStale,
                &[("days", &days.to_string()), ("limit", &stale_days.to_string())],
            ),
            RateWarning::PairDisagrees { used, inverse, pct } => locale.fmt(
                Msg::TcoRatePairDisagrees,
                &[
                    ("used", &used.normalize().to_string()),
                    ("inverse", &inverse.normalize().to_string()),
                    ("pct", &pct.normalize().to_string()),
                ],
            ),
        });
    }
    row
}
/// The row with what its node's runs give at the workload's response-time target (its
/// throughput line already says the figure was read there: [`super::row::shown`]).
pub(super) fn with_response_note(
    mut row: crate::views::tco::CostRow,
    at_target: Option<(ResponseTarget, AtTarget)>,
    unit: &str,
    locale: Locale,
) -> crate::views::tco::CostRow {
    if let Some((target, at)) = at_target {
        row.response_note = Some(response_note(locale, &target, &at, unit));
    }
    row
}
/// What the node's runs give at the workload's response-time target, in one sentence.
pub(super) fn response_note(locale: Locale, target: &ResponseTarget, at: &AtTarget, unit: &str) -> String {
    let target = crate::texts::response::target_text(target);
    let per_s = |d: Decimal| format!("{} {unit}/s", super::super::texts::throughput_text(d.round_dp(1)));
    match at {
        AtTarget::Measured { throughput, run_id } => locale.fmt(
            Msg::TcoResponseMeasured,
            &[
                ("target", &target),
                ("throughput", &per_s(*throughput)),
                ("run", &run_id.to_string()),
            ],
        ),
        AtTarget::Between {
            throughput,
            meets,
            misses,
        } => locale.fmt(
            Msg::TcoResponseBetween,
            &[
                ("target", &target),
                ("throughput", &per_s(*throughput)),
                ("meets", &meets.to_string()),
                ("misses", &misses.to_string()),
            ],
        ),
        AtTarget::NoneMeets { best_ms } => locale.fmt(
            Msg::TcoResponseNone,
            &[
                ("target", &target),
                ("best", &best_ms.round_dp(2).normalize().to_string()),
            ],
        ),
    }
}
/// The note under the budget: the rate it was converted with, or the pair that has no rate.
pub(super) fn budget_note(
    locale: Locale,
    budget: &Result<(Decimal, Option<ExchangeRate>), (Currency, Currency)>,
    base: Currency,
) -> Option<String> {
    match budget {
        Ok((amount, Some(rate))) => Some(locale.fmt(
            Msg::TcoBudgetConverted,
            &[
                ("amount", &format_money(*amount, base)),
                ("rate", &rate_note(locale, rate)),
            ],
        )),
        Err((from, to)) => Some(locale.fmt(Msg::TcoBudgetNoRate, &[("from", from.code()), ("to", to.code())])),
        Ok((_, None)) => None,
    }
}
