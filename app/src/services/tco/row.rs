//! One ranked row of the comparison: a costed quote as the page, the CSV and the order show it,
//! in the reader's language, with money in the base currency and the quote's own currency in
//! tooltips.

use super::{
    Costed,
    scenario::prices_in_base,
    texts::{component_line, decimal, hours, rate_note, requirement_text, throughput_text},
};
use crate::{
    domain::{
        money::{format_money, format_per_unit, group},
        quotes::Workload,
        runs::RunStatus,
        tco::{
            BreakEven, Currency, Estimate, ExchangeRate, Pricing, QuoteGroup, TcoWarning, UnstatedPrice, latest_rate,
            unit_scale,
        },
    },
    i18n::{Locale, Msg},
    views::tco::CostRow,
};
use rust_decimal::Decimal;

/// The row of costed quote `c`: `budget` is the workload's budget in `base` (when it could be
/// converted), `rates` the team's exchange rates, `unit_scale` the one scale of the comparison's
/// cost-per-unit column ([`unit_cost_scale`]).
pub(super) fn row(
    locale: Locale,
    c: &Costed,
    base: Currency,
    budget: Option<Decimal>,
    rates: &[ExchangeRate],
    workload: Option<&Workload>,
    unit_scale: u32,
) -> CostRow {
    let e = &c.ranked.estimate;
    let cur = e.currency;
    let rate = latest_rate(rates, cur, base);
    let over_budget = budget.is_some_and(|amount| c.ranked.compared_total > amount);
    let estimated = c.ranked.group == QuoteGroup::Estimated;
    let stated = c.ranked.group == QuoteGroup::Stated;
    let work = workload.and_then(|w| w.total_work.as_ref()).map(|w| w.amount);
    let (_, gpu_hour_base) = prices_in_base(&c.ranked, base, work, c.draft.spec.gpus_per_node);
    let (unit_own, unit_base) = unit_costs(c, base, work, unit_scale);
    let own_currency_title = |amount: String| (cur != base).then_some(amount);
    CostRow {
        rank: c.ranked.rank,
        quote_id: c.quote_id,
        revision: c.revision,
        label: c.ranked.label.clone(),
        currency: cur.code().to_string(),
        total: format_money(e.total, cur),
        total_exact: decimal(e.total),
        compared_total: format_money(c.ranked.compared_total, base),
        compared_exact: decimal(c.ranked.compared_total),
        rate_note: c.ranked.rate_date.as_ref().and(rate).map(|r| rate_note(locale, r)),
        cost_per_unit: unit_base.map(|p| format_per_unit(p, base)),
        cost_per_unit_title: unit_own.and_then(|p| own_currency_title(format_per_unit(p, cur))),
        unit_cost_column: e
            .cost_per_unit
            .as_ref()
            .map(|u| unit_cost_column(locale, unit_scale, &u.unit)),
        gpu_hour: gpu_hour_base.map(|p| format_per_unit(p, base)),
        gpu_hour_title: e
            .effective_gpu_hour_price
            .and_then(|p| own_currency_title(format_per_unit(p, cur))),
        time_to_finish: format!("{} h", hours(e.time_to_finish_h)),
        hours_note: hours_note(locale, e),
        nodes: e.nodes,
        idle: format_money(e.idle_cost, cur),
        pricing_note: pricing_note(locale, e),
        components: e
            .components
            .iter()
            .map(|comp| component_line(locale, comp, cur))
            .collect(),
        what_if: what_if_lines(locale, c),
        warnings: warnings(locale, c, base, budget.filter(|_| over_budget)),
        run_id: c.runs_used.first().copied(),
        run_ids: c.runs_used.clone(),
        throughput: throughput_note(locale, c),
        over_budget,
        estimated,
        stated,
        to_measure: if stated {
            Some(locale.t(Msg::TcoToMeasureStated).to_string())
        } else {
            estimated.then(|| to_measure(locale, workload))
        },
    }
}

/// The one scale of the cost-per-unit column of `costed`: by the median cost of a unit of work in
/// the base currency ([`unit_scale::column_scale`]); per 1 without a stated total work.
#[must_use]
pub fn unit_cost_scale(costed: &[Costed], work: Option<Decimal>) -> u32 {
    let Some(work) = work.filter(|w| !w.is_zero()) else {
        return 1;
    };
    let each: Vec<Decimal> = costed
        .iter()
        .filter(|c| c.ranked.estimate.cost_per_unit.is_some())
        .filter_map(|c| c.ranked.compared_total.checked_div(work))
        .collect();
    unit_scale::column_scale(&each)
}

/// The cost of `scale` units of work in the quote's currency and in `base` (the total in base,
/// the rate of the totals), with two digits more than each currency's minor unit; none when the
/// workload states no total work.
#[must_use]
pub fn unit_costs(c: &Costed, base: Currency, work: Option<Decimal>, scale: u32) -> (Option<Decimal>, Option<Decimal>) {
    let e = &c.ranked.estimate;
    let Some(work) = work.filter(|_| e.cost_per_unit.is_some()) else {
        return (None, None);
    };
    (
        unit_scale::at_scale(e.total, work, scale, e.currency.minor_units() + 2),
        unit_scale::at_scale(c.ranked.compared_total, work, scale, base.minor_units() + 2),
    )
}

/// "Cost per <scale> <unit>": the header of the cost-per-unit column.
fn unit_cost_column(locale: Locale, scale: u32, unit: &str) -> String {
    locale.fmt(
        Msg::TcoColUnitCostPer,
        &[("per", &group(Decimal::from(scale), 0)), ("unit", unit)],
    )
}

/// Nodes, busy, billable and rental hours.
fn hours_note(locale: Locale, e: &Estimate) -> String {
    locale.fmt(
        Msg::TcoHours,
        &[
            ("nodes", &e.nodes.to_string()),
            ("busy", &hours(e.busy_h)),
            ("billable", &hours(e.billable_h)),
            ("rental", &hours(e.rental_h)),
        ],
    )
}

/// What to measure to move an estimated quote into the measured group: a run, or first the
/// workload's total work.
fn to_measure(locale: Locale, workload: Option<&Workload>) -> String {
    locale
        .t(if workload.is_some_and(|w| w.total_work.is_some()) {
            Msg::TcoToMeasure
        } else {
            Msg::TcoToMeasureWork
        })
        .to_string()
}

/// The row's warnings, in this order: validity ended, failed requirements, the engine's
/// warnings, runs left out, over `over_budget` (the budget in `base`, when exceeded), unused
/// commitment hours.
fn warnings(locale: Locale, c: &Costed, base: Currency, over_budget: Option<Decimal>) -> Vec<String> {
    let e = &c.ranked.estimate;
    let mut warnings = Vec::new();
    if c.expired {
        warnings.push(locale.t(Msg::TcoWExpired).to_string());
    }
    for kind in &c.failing {
        warnings.push(locale.fmt(
            Msg::TcoWRequirement,
            &[("requirement", &requirement_text(locale, *kind))],
        ));
    }
    // An estimated row already says it is not measured (its "to measure" note, first in the
    // row): the engine's "throughput assumed" would say it a second time.
    let estimated = c.ranked.group == QuoteGroup::Estimated;
    warnings.extend(
        e.warnings
            .iter()
            .filter(|w| !(estimated && matches!(w, TcoWarning::ThroughputAssumed)))
            .map(|w| engine_warning(locale, w)),
    );
    for (id, used, node) in &c.runs_scaled {
        warnings.push(locale.fmt(
            Msg::TcoWRunScaledPerGpu,
            &[
                ("id", &id.to_string()),
                ("used", &used.to_string()),
                ("node", &node.to_string()),
            ],
        ));
    }
    for (id, status) in &c.left_out {
        let why = locale.t(if *status == RunStatus::Invalid {
            Msg::TcoWhyInvalid
        } else {
            Msg::TcoWhyWarn
        });
        warnings.push(locale.fmt(Msg::TcoWRunNotUsed, &[("id", &id.to_string()), ("why", why)]));
    }
    if let Some(amount) = over_budget {
        warnings.push(locale.fmt(Msg::TcoWOverBudget, &[("budget", &format_money(amount, base))]));
    }
    if let Some(unused) = e.unused_commitment_h.filter(|h| !h.is_zero()) {
        warnings.push(locale.fmt(Msg::TcoWUnusedCommitment, &[("hours", &hours(unused))]));
    }
    warnings
}

/// One of the engine's warnings as a sentence.
fn engine_warning(locale: Locale, w: &TcoWarning) -> String {
    match w {
        TcoWarning::ThroughputAssumed => locale.t(Msg::TcoWThroughputAssumed).to_string(),
        TcoWarning::StatedRunLengthIgnored { run_hours } => {
            locale.fmt(Msg::TcoWRunLengthIgnored, &[("hours", &hours(*run_hours))])
        }
        TcoWarning::NodesBelowRequirement { needed, chosen } => locale.fmt(
            Msg::TcoWNodesBelow,
            &[("needed", &needed.to_string()), ("chosen", &chosen.to_string())],
        ),
        TcoWarning::MinimumBillableApplied { minimum_h } => {
            locale.fmt(Msg::TcoWMinimum, &[("hours", &hours(*minimum_h))])
        }
        TcoWarning::PriceNotStated { price } => {
            let price_not_stated = |what| locale.fmt(Msg::TcoWPriceNotStated, &[("price", locale.t(what))]);
            match price {
                UnstatedPrice::Disk => price_not_stated(Msg::TcoPriceDisk),
                UnstatedPrice::Snapshot => price_not_stated(Msg::TcoPriceSnapshot),
                UnstatedPrice::Egress => price_not_stated(Msg::TcoPriceEgress),
                UnstatedPrice::Ingress => price_not_stated(Msg::TcoPriceIngress),
                // Not a price but a yes/no: its own sentence.
                UnstatedPrice::StoppedCompute => locale.t(Msg::TcoWStoppedComputeNotStated).to_string(),
            }
        }
    }
}

/// With a monthly commitment on the sheet: the pricing used, both compute prices and the
/// break-even (rule 4).
fn pricing_note(locale: Locale, e: &Estimate) -> Option<String> {
    let cur = e.currency;
    let (monthly, be) = e.monthly_compute.zip(e.break_even)?;
    let break_even = match be {
        BreakEven::WithinTerm { hours: h } => locale.fmt(Msg::TcoBreakEvenAt, &[("hours", &hours(h))]),
        BreakEven::NeverWithinTerm => locale.t(Msg::TcoBreakEvenNever).to_string(),
    };
    let args = [
        ("monthly", format_money(monthly, cur)),
        ("on_demand", format_money(e.on_demand_compute, cur)),
        ("break_even", break_even),
    ];
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    Some(locale.fmt(
        if e.pricing_used == Pricing::Monthly {
            Msg::TcoPricingMonthly
        } else {
            Msg::TcoPricingOnDemand
        },
        &args,
    ))
}

/// Low / expected / high totals, then 20 % slower and faster throughput and the slowest valid
/// run when the engine gave them, in the quote's currency.
fn what_if_lines(locale: Locale, c: &Costed) -> Vec<(String, String)> {
    let Some(w) = &c.what_if else {
        return Vec::new();
    };
    let cur = c.ranked.estimate.currency;
    let pct = "20";
    let mut out = vec![
        (locale.t(Msg::TcoWiLow).to_string(), format_money(w.low.total, cur)),
        (
            locale.t(Msg::TcoWiExpected).to_string(),
            format_money(w.expected.total, cur),
        ),
        (locale.t(Msg::TcoWiHigh).to_string(), format_money(w.high.total, cur)),
    ];
    if let Some(s) = &w.slower_throughput {
        out.push((
            locale.fmt(Msg::TcoWiSlower, &[("pct", pct)]),
            format_money(s.total, cur),
        ));
    }
    if let Some(f) = &w.faster_throughput {
        out.push((
            locale.fmt(Msg::TcoWiFaster, &[("pct", pct)]),
            format_money(f.total, cur),
        ));
    }
    if let (Some(s), Some(id)) = (&w.slowest_run, c.slowest_run) {
        out.push((
            locale.fmt(Msg::TcoWiSlowest, &[("id", &id.to_string())]),
            format_money(s.total, cur),
        ));
    }
    out
}

/// Where the throughput comes from (typed, or the runs used) and the one-node and planned
/// figures (rule 2), when the estimate is measured.
fn throughput_note(locale: Locale, c: &Costed) -> Option<String> {
    let e = &c.ranked.estimate;
    let unit = e.cost_per_unit.as_ref().map_or("", |u| u.unit.as_str());
    let (t1, planned) = e.one_node_throughput_per_s.zip(e.planned_throughput_per_s)?;
    let ids = c
        .runs_used
        .iter()
        .map(|id| format!("#{id}"))
        .collect::<Vec<_>>()
        .join(", ");
    let args = [
        ("t1", format!("{} {unit}/s", throughput_text(t1))),
        ("planned", format!("{} {unit}/s", throughput_text(planned))),
        ("nodes", e.nodes.to_string()),
        ("n_run", e.n_run.unwrap_or(1).to_string()),
        ("ids", ids),
    ];
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let msg = if c.runs_used.is_empty() {
        Msg::TcoThroughputTyped
    } else {
        Msg::TcoThroughputFromRuns
    };
    Some(locale.fmt(msg, &args))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A price not stated names the price; stopped compute not stated, a yes/no, has its own
    /// sentence; both in both languages.
    #[test]
    fn each_unstated_price_reads_as_its_own_sentence() {
        let all = [
            UnstatedPrice::Disk,
            UnstatedPrice::Snapshot,
            UnstatedPrice::Egress,
            UnstatedPrice::Ingress,
            UnstatedPrice::StoppedCompute,
        ];
        for locale in [Locale::En, Locale::ZhCn] {
            let texts: Vec<String> = all
                .iter()
                .map(|&price| engine_warning(locale, &TcoWarning::PriceNotStated { price }))
                .collect();
            let distinct: std::collections::BTreeSet<&String> = texts.iter().collect();
            assert_eq!(distinct.len(), all.len(), "{texts:?}");
            assert!(texts.iter().all(|t| !t.contains('{')), "{texts:?}");
        }
        let stopped = engine_warning(
            Locale::En,
            &TcoWarning::PriceNotStated {
                price: UnstatedPrice::StoppedCompute,
            },
        );
        assert!(
            stopped.contains("stopped (not released) node still bills compute"),
            "{stopped}"
        );
    }
}
