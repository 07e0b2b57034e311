//! The scenario file that reproduces a comparison (`nodeledger tco` reruns it), and the prices
//! and budget in the base currency (rule 7: converted with the rate of the totals).

use super::{Computed, Costed};
use crate::domain::{
    quotes::{QuoteDraft, Workload},
    tco::{
        AssumptionOverrides, Assumptions, Currency, ExchangeRate, Quote, RankedQuote, Scenario, ScenarioResult,
        latest_rate, run_scenario,
    },
};
use rust_decimal::Decimal;

/// The scenario file that reproduces a comparison (`nodeledger tco` reads it) and its result:
/// the shared assumptions, and per quote every override and its throughput with `n_run`.
#[must_use]
pub fn scenario_of(computed: &Computed, rates: Vec<ExchangeRate>) -> Option<(Scenario, ScenarioResult)> {
    let w = computed.workload.as_ref()?;
    let shared = computed.shared.as_ref()?;
    if computed.costed.is_empty() {
        return None;
    }
    let scenario = scenario_from(w, shared, &computed.costed, computed.base, rates);
    let result = run_scenario(&scenario).ok()?;
    Some((scenario, result))
}

/// The engine's quote for one of the team's quotes (its throughput and overrides travel in the
/// assumptions, or in [`scenario_from`]).
pub(super) fn tco_quote(quote_id: i64, label: &str, draft: &QuoteDraft) -> Quote {
    Quote {
        id: quote_id.to_string(),
        label: label.to_string(),
        price_sheet: draft.price.clone(),
        node_shape: draft.spec.shape(),
        measured_throughput_per_s: None,
        n_run: None,
        throughput_stated: false,
        assumption_overrides: None,
    }
}

/// The per-quote fields of `a` that differ from `shared`.
fn overrides_of(a: &Assumptions, shared: &Assumptions) -> Option<AssumptionOverrides> {
    let diff = |x: Decimal, y: Decimal| (x != y).then_some(x.normalize());
    let o = AssumptionOverrides {
        setup_h: diff(a.setup_h, shared.setup_h),
        data_prep_h: diff(a.data_prep_h, shared.data_prep_h),
        download_h: diff(a.download_h, shared.download_h),
        export_h: diff(a.export_h, shared.export_h),
        idle_h: diff(a.idle_h, shared.idle_h),
        stopped_h: diff(a.stopped_h, shared.stopped_h),
        rerun_share: diff(a.rerun_share, shared.rerun_share),
        egress_gb: diff(a.egress_gb, shared.egress_gb),
        ingress_gb: diff(a.ingress_gb, shared.ingress_gb),
        snapshot_gb: diff(a.snapshot_gb, shared.snapshot_gb),
        snapshot_months: diff(a.snapshot_months, shared.snapshot_months),
        nodes: (a.nodes != shared.nodes).then_some(a.nodes).flatten(),
        efficiency: diff(a.efficiency, shared.efficiency),
    };
    (o != AssumptionOverrides::default()).then_some(o)
}

/// The scenario of the costed quotes: the shared assumptions, and per quote its overrides and
/// its throughput (typed or from runs) with the nodes it ran on.
fn scenario_from(
    w: &Workload,
    shared: &Assumptions,
    costed: &[Costed],
    base: Currency,
    rates: Vec<ExchangeRate>,
) -> Scenario {
    let quotes = costed
        .iter()
        .map(|c| Quote {
            measured_throughput_per_s: c.assumptions.measured_throughput_per_s,
            n_run: c
                .assumptions
                .n_run
                .filter(|_| c.assumptions.measured_throughput_per_s.is_some()),
            assumption_overrides: overrides_of(&c.assumptions, shared),
            throughput_stated: c.throughput_typed,
            ..tco_quote(c.quote_id, &c.ranked.label, &c.draft)
        })
        .collect();
    Scenario {
        title: Some(w.name.clone()),
        workload: w.to_tco(),
        assumptions: Assumptions {
            measured_throughput_per_s: None,
            n_run: None,
            ..shared.clone()
        },
        quotes,
        compare_currency: Some(base),
        exchange_rates: rates,
    }
}

/// Cost per unit of work and price per GPU-hour in the base currency: the converted total
/// (converted with the rate of the totals) × units ÷ the work, and ÷ the GPU-hours of compute,
/// with two digits more than the base currency's minor unit. In the base currency itself they
/// are the estimate's own figures.
#[must_use]
pub fn prices_in_base(
    ranked: &RankedQuote,
    base: Currency,
    work: Option<Decimal>,
    gpus_per_node: u32,
) -> (Option<Decimal>, Option<Decimal>) {
    let e = &ranked.estimate;
    if e.currency == base {
        return (e.cost_per_unit.as_ref().map(|u| u.amount), e.effective_gpu_hour_price);
    }
    let fine = |d: Decimal| {
        d.round_dp_with_strategy(
            base.minor_units() + 2,
            rust_decimal::RoundingStrategy::MidpointAwayFromZero,
        )
    };
    let total = ranked.compared_total;
    let per_unit = e
        .cost_per_unit
        .as_ref()
        .zip(work)
        .and_then(|(u, w)| total.checked_mul(Decimal::from(u.per))?.checked_div(w))
        .map(fine);
    let gpu_hours = e
        .compute_h
        .checked_mul(Decimal::from(gpus_per_node))
        .and_then(|h| h.checked_mul(Decimal::from(e.nodes)));
    let gpu_hour = e
        .effective_gpu_hour_price
        .and(gpu_hours)
        .filter(|h| !h.is_zero())
        .and_then(|h| total.checked_div(h))
        .map(fine);
    (per_unit, gpu_hour)
}

/// A budget in `base`: as stored when in the base currency, else converted with the latest rate
/// of the pair (the rate of the totals); `Err` names the pair when no rate exists.
pub fn budget_in_base(
    budget: (Decimal, Currency),
    base: Currency,
    rates: &[ExchangeRate],
) -> Result<(Decimal, Option<ExchangeRate>), (Currency, Currency)> {
    let (amount, currency) = budget;
    if currency == base {
        return Ok((amount, None));
    }
    let rate = latest_rate(rates, currency, base).ok_or((currency, base))?;
    let converted = rate.convert(amount, currency).map_err(|_| (currency, base))?;
    Ok((converted, Some(rate.clone())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    fn usd() -> Currency {
        Currency::parse("USD").expect("USD is a currency")
    }

    /// The module docs' rule 7 example: USD→CNY 7.10 on 2026-11-01, CNY→USD 0.14 on 2026-11-20.
    fn rates() -> Vec<ExchangeRate> {
        vec![
            ExchangeRate {
                from: usd(),
                to: Currency::CNY,
                rate: dec!(7.10),
                date: "2026-11-01".into(),
            },
            ExchangeRate {
                from: Currency::CNY,
                to: usd(),
                rate: dec!(0.14),
                date: "2026-11-20".into(),
            },
        ]
    }

    #[test]
    fn a_budget_is_converted_with_the_latest_rate_of_the_pair_and_a_missing_pair_is_named() {
        let (amount, rate) = budget_in_base((dec!(100.00), usd()), Currency::CNY, &rates()).unwrap();
        assert_eq!(Currency::CNY.round(amount), dec!(714.29), "100 ÷ 0.14, the later rate");
        assert_eq!(rate.map(|r| r.date), Some("2026-11-20".to_string()));
        assert_eq!(
            budget_in_base((dec!(800), Currency::CNY), Currency::CNY, &[]).unwrap(),
            (dec!(800), None)
        );
        assert_eq!(
            budget_in_base((dec!(100), usd()), Currency::CNY, &[]),
            Err((usd(), Currency::CNY))
        );
    }

    #[test]
    fn only_the_fields_that_differ_from_the_shared_assumptions_are_overrides() {
        let shared = Assumptions {
            setup_h: dec!(1),
            data_prep_h: dec!(0),
            download_h: dec!(0),
            export_h: dec!(0),
            idle_h: dec!(0),
            stopped_h: dec!(0),
            rerun_share: dec!(0.10),
            egress_gb: dec!(30),
            ingress_gb: dec!(0),
            snapshot_gb: dec!(0),
            snapshot_months: dec!(0),
            nodes: None,
            efficiency: dec!(0.9),
            measured_throughput_per_s: None,
            n_run: None,
            efficiency_by_nodes: Vec::new(),
        };
        assert_eq!(overrides_of(&shared, &shared), None);
        let own = Assumptions {
            setup_h: dec!(3.50),
            nodes: Some(2),
            measured_throughput_per_s: Some(dec!(1800)),
            ..shared.clone()
        };
        let o = overrides_of(&own, &shared).unwrap();
        assert_eq!((o.setup_h, o.nodes, o.efficiency), (Some(dec!(3.5)), Some(2), None));
        assert_eq!(
            o.setup_h.map(|d| d.to_string()),
            Some("3.5".into()),
            "written normalized"
        );
    }
}
