//! A comparison row's notes in the reader's language: hours, warnings, pricing, what-ifs,
//! throughput and token costs, written from the signed row's plain values.

use super::*;

/// "Cost per <scale> <unit>": the header of the cost-per-unit column.
pub(super) fn unit_cost_column(locale: Locale, scale: u32, unit: &str) -> String {
    locale.fmt(
        Msg::TcoColUnitCostPer,
        &[("per", &group(Decimal::from(scale), 0)), ("unit", unit)],
    )
}
/// Nodes, busy, billable and rental hours.
pub(super) fn hours_note(locale: Locale, r: &SignedCostRow) -> String {
    locale.fmt(
        Msg::TcoHours,
        &[
            ("nodes", &r.nodes.to_string()),
            ("busy", &hours(r.busy_h)),
            ("billable", &hours(r.billable_h)),
            ("rental", &hours(r.rental_h)),
        ],
    )
}
/// A warning as a sentence; `base` is the currency of the budget.
pub(super) fn warning_text(locale: Locale, w: &SignedWarning, base: Currency) -> String {
    match w {
        SignedWarning::Expired => locale.t(Msg::TcoWExpired).to_string(),
        SignedWarning::Requirement { requirement } => locale.fmt(
            Msg::TcoWRequirement,
            &[("requirement", &requirement_text(locale, requirement))],
        ),
        SignedWarning::ThroughputAssumed => locale.t(Msg::TcoWThroughputAssumed).to_string(),
        SignedWarning::RunLengthIgnored { hours: h } => locale.fmt(Msg::TcoWRunLengthIgnored, &[("hours", &hours(*h))]),
        SignedWarning::NodesBelowRequirement { needed, chosen } => locale.fmt(
            Msg::TcoWNodesBelow,
            &[("needed", &needed.to_string()), ("chosen", &chosen.to_string())],
        ),
        SignedWarning::MinimumBillable { hours: h } => locale.fmt(Msg::TcoWMinimum, &[("hours", &hours(*h))]),
        SignedWarning::PriceNotStated { price } => {
            let price_not_stated = |what| locale.fmt(Msg::TcoWPriceNotStated, &[("price", what)]);
            match price.as_str() {
                "disk" => price_not_stated(locale.t(Msg::TcoPriceDisk)),
                "snapshot" => price_not_stated(locale.t(Msg::TcoPriceSnapshot)),
                "egress" => price_not_stated(locale.t(Msg::TcoPriceEgress)),
                "ingress" => price_not_stated(locale.t(Msg::TcoPriceIngress)),
                // Not a price but a yes/no: its own sentence.
                "stopped_compute" => locale.t(Msg::TcoWStoppedComputeNotStated).to_string(),
                other => price_not_stated(other),
            }
        }
        SignedWarning::RunScaledPerGpu { run_id, used, node } => locale.fmt(
            Msg::TcoWRunScaledPerGpu,
            &[
                ("id", &run_id.to_string()),
                ("used", &used.to_string()),
                ("node", &node.to_string()),
            ],
        ),
        SignedWarning::RunNotUsed { run_id, invalid } => {
            let why = locale.t(if *invalid { Msg::TcoWhyInvalid } else { Msg::TcoWhyWarn });
            locale.fmt(Msg::TcoWRunNotUsed, &[("id", &run_id.to_string()), ("why", why)])
        }
        SignedWarning::OverBudget { budget } => {
            locale.fmt(Msg::TcoWOverBudget, &[("budget", &format_money(*budget, base))])
        }
        SignedWarning::UnusedCommitment { hours: h } => locale.fmt(Msg::TcoWUnusedCommitment, &[("hours", &hours(*h))]),
    }
}
/// The pricing used, both compute prices and the break-even, in one line.
pub(super) fn pricing_note(locale: Locale, p: &SignedPricing, cur: Currency) -> String {
    let break_even = match p.break_even_h {
        Some(h) => locale.fmt(Msg::TcoBreakEvenAt, &[("hours", &hours(h))]),
        None => locale.t(Msg::TcoBreakEvenNever).to_string(),
    };
    let args = [
        ("monthly", format_money(p.monthly, cur)),
        ("on_demand", format_money(p.on_demand, cur)),
        ("break_even", break_even),
    ];
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    locale.fmt(
        if p.monthly_used {
            Msg::TcoPricingMonthly
        } else {
            Msg::TcoPricingOnDemand
        },
        &args,
    )
}
/// One what-if case and its total in the quote's currency.
pub(super) fn what_if_line(locale: Locale, w: &SignedWhatIf, cur: Currency) -> (String, String) {
    let (name, total) = match w {
        SignedWhatIf::Low { total } => (locale.t(Msg::TcoWiLow).to_string(), total),
        SignedWhatIf::Expected { total } => (locale.t(Msg::TcoWiExpected).to_string(), total),
        SignedWhatIf::High { total } => (locale.t(Msg::TcoWiHigh).to_string(), total),
        SignedWhatIf::Slower { pct, total } => (locale.fmt(Msg::TcoWiSlower, &[("pct", &pct.to_string())]), total),
        SignedWhatIf::Faster { pct, total } => (locale.fmt(Msg::TcoWiFaster, &[("pct", &pct.to_string())]), total),
        SignedWhatIf::SlowestRun { run_id, total } => {
            (locale.fmt(Msg::TcoWiSlowest, &[("id", &run_id.to_string())]), total)
        }
    };
    (name, format_money(*total, cur))
}
/// Where the throughput comes from (typed, or the runs used) and the one-node and planned
/// figures.
pub(super) fn throughput_note(locale: Locale, t: &SignedThroughput, r: &SignedCostRow) -> String {
    let unit = &t.unit;
    let ids = r
        .run_ids
        .iter()
        .map(|id| format!("#{id}"))
        .collect::<Vec<_>>()
        .join(", ");
    let args = [
        ("t1", format!("{} {unit}/s", throughput_text(t.one_node_per_s))),
        ("planned", format!("{} {unit}/s", throughput_text(t.planned_per_s))),
        ("nodes", r.nodes.to_string()),
        ("n_run", t.n_run.to_string()),
        ("ids", ids),
    ];
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    if let Some(at) = &t.at_target {
        let figure = format!("{} {unit}/s", throughput_text(t.one_node_per_s));
        let ids = args.iter().find(|(k, _)| *k == "ids").map_or("", |(_, v)| *v);
        return locale.fmt(
            Msg::TcoThroughputAtTarget,
            &[
                ("figure", &figure),
                ("target", &crate::texts::response::target_text(&at.target)),
                ("ids", ids),
                ("nodes", &r.nodes.to_string()),
            ],
        );
    }
    let msg = if r.run_ids.is_empty() {
        Msg::TcoThroughputTyped
    } else {
        Msg::TcoThroughputFromRuns
    };
    locale.fmt(msg, &args)
}
/// What one million input, output and all tokens cost at the response-time target, in the
/// compared currency: "Per 1M tokens at p95 TPOT ≤ 22 ms: output ¥3.0000 · input ¥1.5000 · all ¥1.0000".
pub(super) fn token_costs_note(locale: Locale, r: &SignedCostRow) -> Option<String> {
    let at = r.throughput.as_ref()?.at_target.as_ref()?;
    let costs = at.per_million?;
    let base = r.compare_currency;
    let mut parts = vec![locale.fmt(
        Msg::TcoTokenCostOutput,
        &[("cost", &format_per_unit(costs.output, base))],
    )];
    if let Some(input) = costs.input {
        parts.push(locale.fmt(Msg::TcoTokenCostInput, &[("cost", &format_per_unit(input, base))]));
    }
    if let Some(total) = costs.total {
        parts.push(locale.fmt(Msg::TcoTokenCostTotal, &[("cost", &format_per_unit(total, base))]));
    }
    Some(locale.fmt(
        Msg::TcoTokenCosts,
        &[
            ("target", &crate::texts::response::target_text(&at.target)),
            ("costs", &parts.join(" · ")),
        ],
    ))
}
