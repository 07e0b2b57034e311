//! A self-contained scenario file: several quotes for one workload, ranked cheapest first.
//! The CLI `nodeledger tco SCENARIO.json` prints the [`ScenarioResult`] of [`run_scenario`].

use super::arith::positive;
use super::currency::{Currency, ExchangeRate, latest_rate};
use super::engine::estimate;
use super::error::{ErrorReason, TcoError};
use super::estimate::{ComputeBasis, Estimate, QuoteGroup};
use super::model::{Assumptions, Demand, NodeShape, PriceSheet};
use super::overrides::AssumptionOverrides;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// One vendor quote: a price sheet for a node shape. Its currency is the price sheet's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quote {
    /// A short unique identifier, e.g. `"vendor-a-h100"`.
    pub id: String,
    /// The name shown to people, e.g. `"Vendor A, 8×H100"`.
    pub label: String,
    /// The vendor's prices.
    pub price_sheet: PriceSheet,
    /// The node offered.
    pub node_shape: NodeShape,
    /// Measured throughput `T_run` on this quote's node, work units per second of the whole
    /// run (replaces the shared one, together with `n_run`).
    #[serde(default, with = "rust_decimal::serde::str_option")]
    pub measured_throughput_per_s: Option<Decimal>,
    /// Nodes this quote's measured throughput ran on; absent means 1. Only read with
    /// `measured_throughput_per_s`.
    #[serde(default)]
    pub n_run: Option<u32>,
    /// The throughput this quote is costed with (its own or the shared one) was stated, not
    /// measured: typed by hand, e.g. from a vendor's brochure. The quote then ranks in the
    /// [`QuoteGroup::Stated`] group. Absent means false (written only when true).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub throughput_stated: bool,
    /// Changes to the shared assumptions for this quote only.
    #[serde(default)]
    pub assumption_overrides: Option<AssumptionOverrides>,
}

/// Quotes to compare for one workload under shared assumptions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// What the comparison is for.
    #[serde(default)]
    pub title: Option<String>,
    /// The work to be done.
    pub workload: Demand,
    /// Assumptions shared by all quotes.
    pub assumptions: Assumptions,
    /// The quotes to compare (at least one, unique ids).
    pub quotes: Vec<Quote>,
    /// Currency to rank in; required when the quotes use different currencies.
    #[serde(default)]
    pub compare_currency: Option<Currency>,
    /// Rates for converting totals into `compare_currency` (either direction; latest date wins).
    #[serde(default)]
    pub exchange_rates: Vec<ExchangeRate>,
}

/// One quote's result within a scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankedQuote {
    /// 1 for the cheapest measured quote; estimated quotes rank after every measured one.
    pub rank: u32,
    /// Measured (from a measured throughput), stated (from a throughput typed by hand) or
    /// estimated (from the stated run length).
    pub group: QuoteGroup,
    /// The quote's id.
    pub id: String,
    /// The quote's label.
    pub label: String,
    /// The total converted to the comparison currency.
    pub compared_total: Decimal,
    /// Date of the exchange rate used, if the total was converted.
    pub rate_date: Option<String>,
    /// The full estimate in the quote's own currency.
    pub estimate: Estimate,
}

/// All quotes of a scenario: measured ones cheapest first, then the estimated ones cheapest
/// first (ties by label, then id).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioResult {
    /// The scenario's title.
    pub title: Option<String>,
    /// The currency of `compared_total`.
    pub compare_currency: Currency,
    /// The ranked quotes.
    pub quotes: Vec<RankedQuote>,
}

/// Estimates every quote of `scenario` and ranks them: the measured group cheapest first,
/// then the "stated, not measured" group, then the "estimated, not measured" group, each
/// cheapest first (ties by label, then id); ranks run 1..n over all groups.
///
/// Errors from one quote carry its id in [`TcoError::quote`].
pub fn run_scenario(scenario: &Scenario) -> Result<ScenarioResult, TcoError> {
    let compare_currency = check_scenario(scenario)?;
    let mut quotes = scenario
        .quotes
        .iter()
        .map(|q| rank_input(scenario, q, compare_currency).map_err(|e| e.for_quote(&q.id)))
        .collect::<Result<Vec<_>, _>>()?;
    quotes.sort_by(ranking_order);
    for (rank, q) in (1..).zip(quotes.iter_mut()) {
        q.rank = rank;
    }
    Ok(ScenarioResult {
        title: scenario.title.clone(),
        compare_currency,
        quotes,
    })
}

/// The order of a ranking (rule 6): measured quotes, then stated, then estimated, each group cheapest
/// first in the comparison currency, ties by label, then id. [`run_scenario`] and the cost page
/// both sort with it, so the page and its exported scenario rank alike.
#[must_use]
pub fn ranking_order(a: &RankedQuote, b: &RankedQuote) -> Ordering {
    (a.group, a.compared_total, &a.label, &a.id).cmp(&(b.group, b.compared_total, &b.label, &b.id))
}

/// Checks the scenario as a whole (quotes present, unique ids, valid rates, a comparison
/// currency when currencies differ) and returns the comparison currency.
pub(crate) fn check_scenario(s: &Scenario) -> Result<Currency, TcoError> {
    let Some(first) = s.quotes.first() else {
        return Err(TcoError::new("scenario.quotes", ErrorReason::Empty));
    };
    // A set of the ids seen, so 20,000 quotes are checked in linear time, not 20,000².
    let mut seen = std::collections::HashSet::with_capacity(s.quotes.len());
    for q in &s.quotes {
        if !seen.insert(q.id.as_str()) {
            let reason = ErrorReason::Duplicate { value: q.id.clone() };
            return Err(TcoError::new("scenario.quotes.id", reason));
        }
    }
    for rate in &s.exchange_rates {
        rate.validate()?;
    }
    let single = first.price_sheet.currency;
    match s.compare_currency {
        Some(c) => Ok(c),
        None if s.quotes.iter().all(|q| q.price_sheet.currency == single) => Ok(single),
        None => Err(TcoError::new("scenario.compare_currency", ErrorReason::Missing)),
    }
}

/// The estimate of one quote, with its total in the comparison currency (rank set later).
fn rank_input(s: &Scenario, q: &Quote, compare: Currency) -> Result<RankedQuote, TcoError> {
    let assumptions = quote_assumptions(s, q)?;
    let estimate = estimate(&q.price_sheet, &q.node_shape, &s.workload, &assumptions)?;
    let (compared_total, rate_date) = compared_total(s, estimate.total, estimate.currency, compare)?;
    let (id, label) = (q.id.clone(), q.label.clone());
    let group = quote_group(estimate.compute_basis, q.throughput_stated);
    Ok(RankedQuote {
        rank: 0,
        group,
        id,
        label,
        compared_total,
        rate_date,
        estimate,
    })
}

/// The shared assumptions with the quote's overrides and its own measured throughput.
pub(crate) fn quote_assumptions(s: &Scenario, q: &Quote) -> Result<Assumptions, TcoError> {
    let mut assumptions = match &q.assumption_overrides {
        Some(o) => o.apply(&s.assumptions),
        None => s.assumptions.clone(),
    };
    if let Some(t) = q.measured_throughput_per_s {
        assumptions.measured_throughput_per_s = Some(positive(t, "quote.measured_throughput_per_s")?);
        assumptions.n_run = q.n_run;
    }
    Ok(assumptions)
}

/// `total` in `currency` converted to `compare` (rule 7) with the date of the rate used;
/// unchanged, without a date, in the same currency.
pub(crate) fn compared_total(
    s: &Scenario,
    total: Decimal,
    currency: Currency,
    compare: Currency,
) -> Result<(Decimal, Option<String>), TcoError> {
    if currency == compare {
        return Ok((total, None));
    }
    let rate = find_rate(&s.exchange_rates, currency, compare)?;
    Ok((rate.convert(total, currency)?, Some(rate.date.clone())))
}

/// The ranking group (rule 6) of a quote costed on `basis`; `stated` when its throughput was
/// typed by hand.
pub(crate) fn quote_group(basis: ComputeBasis, stated: bool) -> QuoteGroup {
    match basis {
        ComputeBasis::MeasuredThroughput if stated => QuoteGroup::Stated,
        ComputeBasis::MeasuredThroughput => QuoteGroup::Measured,
        ComputeBasis::StatedRunLength => QuoteGroup::Estimated,
    }
}

/// The latest rate between `from` and `to` ([`latest_rate`]), or a missing-rate error.
fn find_rate(rates: &[ExchangeRate], from: Currency, to: Currency) -> Result<&ExchangeRate, TcoError> {
    latest_rate(rates, from, to).ok_or_else(|| {
        let reason = ErrorReason::MissingRate {
            from: from.code().to_owned(),
            to: to.code().to_owned(),
        };
        TcoError::new("scenario.exchange_rates", reason)
    })
}
