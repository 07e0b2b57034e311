//! One ranked row of the comparison, in two steps: [`signed`] takes a costed quote to the plain
//! values an order record signs ([`SignedCostRow`]: exact amounts, codes, ids), and [`shown`]
//! builds from those values the row the page, the CSV and the order show, in the reader's
//! language, with money in the base currency and the quote's own currency in tooltips. The
//! cost page and an order's frozen comparison go through the same [`shown`], so a manager reads
//! a signed comparison as the cost page showed it, in their own language.

use super::{
    Costed,
    scenario::prices_in_base,
    texts::{component_line, decimal, hours, rate_note, requirement_text, throughput_text},
};
use crate::{
    domain::{
        money::{format_money, format_per_unit, group},
        orders::record::{
            SignedAtTarget, SignedBand, SignedComponent, SignedCostRow, SignedCostRowV1, SignedPricing, SignedRate,
            SignedThroughput, SignedUnitCost, SignedWarning, SignedWhatIf, ToMeasure,
        },
        quotes::Workload,
        runs::{RunStatus, TokenCosts, tokens_at_target},
        tco::{
            BreakEven, ComponentKind, CostComponent, Currency, Estimate, ExchangeRate, Pricing, QuoteGroup, TcoWarning,
            Unit, UnstatedPrice, latest_rate, unit_scale,
        },
    },
    i18n::{Locale, Msg},
    views::tco::{ComponentLine, CostRow},
};
use rust_decimal::Decimal;

mod notes;
use notes::{
    hours_note, pricing_note, throughput_note, token_costs_note, unit_cost_column, warning_text, what_if_line,
};

/// How much slower and faster the what-if's throughput cases are, in percent
/// ([`crate::domain::tco::WhatIfProfiles`]).
const SENSITIVITY_PCT: u32 = 20;

/// The signed values of costed quote `c`: `budget` is the workload's budget in `base` (when it
/// could be converted), `rates` the team's exchange rates, `unit_scale` the one scale of the
/// comparison's cost-per-unit column ([`unit_cost_scale`]).
pub(super) fn signed(
    c: &Costed,
    base: Currency,
    budget: Option<Decimal>,
    rates: &[ExchangeRate],
    workload: Option<&Workload>,
    unit_scale: u32,
) -> SignedCostRow {
    let e = &c.ranked.estimate;
    let cur = e.currency;
    let rate = c.ranked.rate_date.as_ref().and(latest_rate(rates, cur, base));
    let over_budget = budget.is_some_and(|amount| c.ranked.compared_total > amount);
    let estimated = c.ranked.group == QuoteGroup::Estimated;
    let stated = c.ranked.group == QuoteGroup::Stated;
    let work = workload.and_then(|w| w.total_work.as_ref()).map(|w| w.amount);
    let (_, gpu_hour_base) = prices_in_base(&c.ranked, base, work, c.draft.spec.gpus_per_node);
    let (unit_own, unit_base) = unit_costs(c, base, work, unit_scale);
    SignedCostRow {
        rank: c.ranked.rank,
        quote_id: c.quote_id,
        revision: c.revision,
        label: c.ranked.label.clone(),
        currency: cur,
        total: e.total,
        compare_currency: base,
        compared_total: c.ranked.compared_total,
        rate: rate.map(|r| SignedRate {
            from: r.from,
            to: r.to,
            rate: r.rate,
            date: r.date.clone(),
        }),
        unit_cost: e.cost_per_unit.as_ref().map(|u| SignedUnitCost {
            scale: unit_scale,
            unit: u.unit.clone(),
            compared: unit_base,
            own: unit_own,
        }),
        gpu_hour: gpu_hour_base,
        gpu_hour_own: e.effective_gpu_hour_price,
        time_to_finish_h: e.time_to_finish_h,
        busy_h: e.busy_h,
        billable_h: e.billable_h,
        rental_h: e.rental_h,
        nodes: e.nodes,
        idle: e.idle_cost,
        pricing: pricing(e),
        components: e.components.iter().map(component).collect(),
        what_if: what_if(c),
        warnings: warnings(c, budget.filter(|_| over_budget)),
        run_ids: c.runs_used.clone(),
        throughput: throughput(c, workload, work),
        over_budget,
        estimated,
        stated,
        to_measure: if stated {
            Some(ToMeasure::Stated)
        } else {
            estimated.then_some(if workload.is_some_and(|w| w.total_work.is_some()) {
                ToMeasure::Run
            } else {
                ToMeasure::WorkSize
            })
        },
    }
}

/// The row of signed values `r`, as shown to a reader of `locale`.
#[must_use]
pub fn shown(locale: Locale, r: &SignedCostRow) -> CostRow {
    let (cur, base) = (r.currency, r.compare_currency);
    let own_currency_title = |amount: Option<Decimal>| amount.filter(|_| cur != base).map(|p| format_per_unit(p, cur));
    let unit = r.unit_cost.as_ref();
    let rate = r.rate.as_ref().map(|s| ExchangeRate {
        from: s.from,
        to: s.to,
        rate: s.rate,
        date: s.date.clone(),
    });
    CostRow {
        rank: r.rank,
        quote_id: r.quote_id,
        revision: r.revision,
        label: r.label.clone(),
        currency: cur.code().to_string(),
        total: format_money(r.total, cur),
        total_exact: decimal(r.total),
        compared_total: format_money(r.compared_total, base),
        compared_exact: decimal(r.compared_total),
        rate_note: rate.as_ref().map(|rate| rate_note(locale, rate)),
        cost_per_unit: unit.and_then(|u| u.compared).map(|p| format_per_unit(p, base)),
        cost_per_unit_title: own_currency_title(unit.and_then(|u| u.own)),
        unit_cost_column: unit.map(|u| unit_cost_column(locale, u.scale, &u.unit)),
        gpu_hour: r.gpu_hour.map(|p| format_per_unit(p, base)),
        gpu_hour_title: own_currency_title(r.gpu_hour_own),
        time_to_finish: format!("{} h", hours(r.time_to_finish_h)),
        hours_note: hours_note(locale, r),
        nodes: r.nodes,
        idle: format_money(r.idle, cur),
        // The idle cost at the rate the total was converted with: the heading ranks in the base.
        compared_idle: rate
            .as_ref()
            .filter(|_| cur != base)
            .and_then(|rate| rate.convert(r.idle, cur).ok())
            .map_or_else(String::new, |idle| format_money(idle, base)),
        pricing_note: r.pricing.as_ref().map(|p| pricing_note(locale, p, cur)),
        components: r.components.iter().map(|c| component_line(locale, c, cur)).collect(),
        what_if: r.what_if.iter().map(|w| what_if_line(locale, w, cur)).collect(),
        warnings: r.warnings.iter().map(|w| warning_text(locale, w, base)).collect(),
        run_id: r.run_ids.first().copied(),
        run_ids: r.run_ids.clone(),
        throughput: r.throughput.as_ref().map(|t| throughput_note(locale, t, r)),
        over_budget: r.over_budget,
        estimated: r.estimated,
        stated: r.stated,
        to_measure: r.to_measure.map(|m| {
            locale
                .t(match m {
                    ToMeasure::Stated => Msg::TcoToMeasureStated,
                    ToMeasure::Run => Msg::TcoToMeasure,
                    ToMeasure::WorkSize => Msg::TcoToMeasureWork,
                })
                .to_string()
        }),
        response_note: None,
        token_costs: token_costs_note(locale, r),
    }
}

/// A version 1 row, shown as it was signed: it holds the texts the submitter's page showed.
#[must_use]
pub fn shown_v1(r: &SignedCostRowV1) -> CostRow {
    let r = r.clone();
    CostRow {
        rank: r.rank,
        quote_id: r.quote_id,
        revision: r.revision,
        label: r.label,
        currency: r.currency,
        total: r.total,
        total_exact: r.total_exact,
        compared_total: r.compared_total,
        compared_exact: r.compared_exact,
        rate_note: r.rate_note,
        cost_per_unit: r.cost_per_unit,
        cost_per_unit_title: r.cost_per_unit_title,
        unit_cost_column: r.unit_cost_column,
        gpu_hour: r.gpu_hour,
        gpu_hour_title: r.gpu_hour_title,
        time_to_finish: r.time_to_finish,
        hours_note: r.hours_note,
        nodes: r.nodes,
        idle: r.idle,
        compared_idle: String::new(),
        pricing_note: r.pricing_note,
        components: r
            .components
            .into_iter()
            .map(|c| ComponentLine {
                code: c.code,
                name: c.name,
                unit: c.unit,
                quantity: c.quantity,
                price: c.price,
                cost: c.cost,
                cost_exact: c.cost_exact,
                bands: Vec::new(),
            })
            .collect(),
        what_if: r.what_if,
        warnings: r.warnings,
        run_id: r.run_id,
        run_ids: r.run_ids,
        throughput: r.throughput,
        over_budget: r.over_budget,
        estimated: r.estimated,
        stated: r.stated,
        to_measure: r.to_measure,
        response_note: None,
        token_costs: None,
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
/// the rate of the totals), with two digits more than each currency's minor unit and four
/// significant digits below one minor unit ([`unit_scale::derived`]); none when the workload
/// states no total work.
#[must_use]
pub fn unit_costs(c: &Costed, base: Currency, work: Option<Decimal>, scale: u32) -> (Option<Decimal>, Option<Decimal>) {
    let e = &c.ranked.estimate;
    let Some(work) = work.filter(|_| e.cost_per_unit.is_some()) else {
        return (None, None);
    };
    // Unrounded first: `derived` decides the digits from the figure itself.
    let at = |total: Decimal, currency: Currency| {
        unit_scale::at_scale(total, work, scale, 28).map(|cost| unit_scale::derived(cost, currency.minor_units()))
    };
    (at(e.total, e.currency), at(c.ranked.compared_total, base))
}

/// A cost component's code and unit code, as the record writes them.
fn component(c: &CostComponent) -> SignedComponent {
    let (code, fee) = match &c.kind {
        ComponentKind::OnDemandCompute => ("on_demand_compute", None),
        ComponentKind::MonthlyCommitment => ("monthly_commitment", None),
        ComponentKind::StoppedCompute => ("stopped_compute", None),
        ComponentKind::Disk => ("disk", None),
        ComponentKind::PublicIp => ("public_ip", None),
        ComponentKind::Traffic => ("traffic", None),
        ComponentKind::Snapshots => ("snapshots", None),
        ComponentKind::OtherFee(label) => ("other_fee", Some(label.clone())),
        ComponentKind::EarlyReleaseRefund => ("early_release_refund", None),
    };
    let unit = match c.unit {
        Unit::NodeHour => "node_hour",
        Unit::NodeMonth => "node_month",
        Unit::GbMonth => "gb_month",
        Unit::Gb => "gb",
        Unit::IpHour => "ip_hour",
        Unit::Item => "item",
    };
    SignedComponent {
        code: code.to_string(),
        fee,
        unit: unit.to_string(),
        quantity: c.quantity,
        unit_price: c.unit_price,
        cost: c.cost,
        bands: c
            .bands
            .iter()
            .map(|b| SignedBand {
                direction: match b.direction {
                    crate::domain::tco::traffic::Direction::Egress => "egress".into(),
                    crate::domain::tco::traffic::Direction::Ingress => "ingress".into(),
                },
                free: b.free,
                from_gb: b.from_gb,
                up_to_gb: b.up_to_gb,
                quantity_gb: b.quantity_gb,
                price_gb: b.price_gb,
                cost: b.cost,
            })
            .collect(),
    }
}

/// The row's warnings, in this order: validity ended, failed requirements, the engine's
/// warnings, runs scaled, runs left out, over `over_budget` (the budget in the base currency,
/// when exceeded), unused commitment hours.
fn warnings(c: &Costed, over_budget: Option<Decimal>) -> Vec<SignedWarning> {
    let e = &c.ranked.estimate;
    let mut warnings = Vec::new();
    if c.expired {
        warnings.push(SignedWarning::Expired);
    }
    for kind in &c.failing {
        let requirement = serde_json::to_value(kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        warnings.push(SignedWarning::Requirement { requirement });
    }
    // An estimated row already says it is not measured (its "to measure" note, first in the
    // row): the engine's "throughput assumed" would say it a second time.
    let estimated = c.ranked.group == QuoteGroup::Estimated;
    warnings.extend(
        e.warnings
            .iter()
            .filter(|w| !(estimated && matches!(w, TcoWarning::ThroughputAssumed)))
            .map(engine),
    );
    for &(run_id, used, node) in &c.runs_scaled {
        warnings.push(SignedWarning::RunScaledPerGpu { run_id, used, node });
    }
    for &(run_id, status) in &c.left_out {
        warnings.push(SignedWarning::RunNotUsed {
            run_id,
            invalid: status == RunStatus::Invalid,
        });
    }
    if let Some(budget) = over_budget {
        warnings.push(SignedWarning::OverBudget { budget });
    }
    if let Some(hours) = e.unused_commitment_h.filter(|h| !h.is_zero()) {
        warnings.push(SignedWarning::UnusedCommitment { hours });
    }
    warnings
}

/// One of the engine's warnings, as the record writes it.
fn engine(w: &TcoWarning) -> SignedWarning {
    match w {
        TcoWarning::ThroughputAssumed => SignedWarning::ThroughputAssumed,
        TcoWarning::StatedRunLengthIgnored { run_hours } => SignedWarning::RunLengthIgnored { hours: *run_hours },
        TcoWarning::NodesBelowRequirement { needed, chosen } => SignedWarning::NodesBelowRequirement {
            needed: *needed,
            chosen: *chosen,
        },
        TcoWarning::MinimumBillableApplied { minimum_h } => SignedWarning::MinimumBillable { hours: *minimum_h },
        TcoWarning::PriceNotStated { price } => SignedWarning::PriceNotStated {
            price: match price {
                UnstatedPrice::Disk => "disk",
                UnstatedPrice::Snapshot => "snapshot",
                UnstatedPrice::Egress => "egress",
                UnstatedPrice::Ingress => "ingress",
                UnstatedPrice::StoppedCompute => "stopped_compute",
            }
            .to_string(),
        },
    }
}

/// With a monthly commitment on the sheet: the pricing used, both compute prices and the
/// break-even (rule 4).
fn pricing(e: &Estimate) -> Option<SignedPricing> {
    let (monthly, be) = e.monthly_compute.zip(e.break_even)?;
    Some(SignedPricing {
        monthly_used: e.pricing_used == Pricing::Monthly,
        monthly,
        on_demand: e.on_demand_compute?,
        break_even_h: match be {
            BreakEven::WithinTerm { hours: h } => Some(h),
            BreakEven::NeverWithinTerm => None,
        },
    })
}

/// Low / expected / high totals, then slower and faster throughput and the slowest valid run
/// when the engine gave them.
fn what_if(c: &Costed) -> Vec<SignedWhatIf> {
    let Some(w) = &c.what_if else {
        return Vec::new();
    };
    let mut out = vec![
        SignedWhatIf::Low { total: w.low.total },
        SignedWhatIf::Expected {
            total: w.expected.total,
        },
        SignedWhatIf::High { total: w.high.total },
    ];
    if let Some(s) = &w.slower_throughput {
        out.push(SignedWhatIf::Slower {
            pct: SENSITIVITY_PCT,
            total: s.total,
        });
    }
    if let Some(f) = &w.faster_throughput {
        out.push(SignedWhatIf::Faster {
            pct: SENSITIVITY_PCT,
            total: f.total,
        });
    }
    if let (Some(s), Some(run_id)) = (&w.slowest_run, c.slowest_run) {
        out.push(SignedWhatIf::SlowestRun { run_id, total: s.total });
    }
    out
}

/// The one-node and planned throughput (rule 2), when the estimate is measured.
fn throughput(c: &Costed, workload: Option<&Workload>, work: Option<Decimal>) -> Option<SignedThroughput> {
    let e = &c.ranked.estimate;
    let (one_node_per_s, planned_per_s) = e.one_node_throughput_per_s.zip(e.planned_throughput_per_s)?;
    Some(SignedThroughput {
        one_node_per_s,
        planned_per_s,
        unit: e.cost_per_unit.as_ref().map_or_else(String::new, |u| u.unit.clone()),
        n_run: e.n_run.unwrap_or(1),
        at_target: at_target(c, workload, work),
    })
}

/// Digits kept of a cost per million tokens in the record.
const TOKEN_COST_DP: u32 = 6;

/// The response-time target the throughput was read at, and, for work counted in tokens, what
/// one million input, output and all tokens cost there: the compared total over the work (the
/// output tokens), spread over each kind by the runs' own token counts.
fn at_target(c: &Costed, workload: Option<&Workload>, work: Option<Decimal>) -> Option<SignedAtTarget> {
    let target = workload?.response_target?;
    let at = c.at_target?;
    at.throughput()?;
    let in_tokens = workload?
        .total_work
        .as_ref()
        .is_some_and(|w| w.unit.to_lowercase().contains("token"));
    let per_million = in_tokens
        .then(|| {
            let mix = tokens_at_target(&c.curve, &target, &at)?;
            let per_output = c
                .ranked
                .compared_total
                .checked_mul(Decimal::from(1_000_000))?
                .checked_div(work.filter(|w| *w > Decimal::ZERO)?)?;
            let costs = mix.per_million(per_output);
            let round = |d: Decimal| d.round_dp(TOKEN_COST_DP);
            Some(TokenCosts {
                output: round(costs.output),
                input: costs.input.map(round),
                total: costs.total.map(round),
            })
        })
        .flatten();
    Some(SignedAtTarget { target, per_million })
}

#[cfg(test)]
mod tests;
