//! What the order estimated against what the vendor billed, per cost component, and why they
//! differ. Pure.
//!
//! Inputs: the components of the frozen estimate on the approved revision ([`Planned`], in the
//! estimate's currency), the bill lines matched to the rental summed per component ([`Billed`],
//! in the bill's currency), the team's exchange rate when the currencies differ, the node-hours
//! the rental actually ran, and the team's variance threshold.
//!
//! Per component, with E the estimated cost, B the billed cost (usage + credits, converted to
//! the estimate's currency and rounded to its minor unit) and D = B − E, the reasons are:
//! - **credits** — credits and corrections billed: their (negative) sum;
//! - **unplanned** — E = 0 and the vendor charged it (stopped disks, egress, snapshots the
//!   estimate did not have): the usage billed;
//! - **price drift** — billed unit price p_b (Σ price × quantity ÷ Σ quantity of the usage
//!   lines, or their cost ÷ quantity when they state no price) ≠ the quoted price p_q of the
//!   pinned revision: (p_b − p_q) × billed quantity. The same currency compares exactly; a
//!   converted price differs when it is more than 0.5 % off (conversion rounds);
//! - **more hours** (compute, stopped compute, IP: quantities in hours) — (billed h − estimated h)
//!   × p_q; negative when fewer hours were billed. For compute, when the vendor billed more
//!   node-hours than the rental ran (the rental's start to its stop or release, × nodes), the
//!   excess is the **minimum billing** effect, (billed h − ran h) × p_q, and more hours is
//!   (ran h − estimated h) × p_q;
//! - **more usage** (disk in GB-months, traffic in GB) — the same with the component's quantity;
//! - **other** — what the reasons above leave of D (rounding, quantities in units that cannot
//!   be compared), so the reasons always add up to D.
//!
//! Each effect is rounded to the estimate's minor unit. The variance is D ÷ E over the whole
//! order; it **flags** the order for the manager when |D| > threshold × E (or E = 0 and B ≠ 0).
//!
//! Worked example (in the tests): 48 node-hours of an H100 node quoted at 86.64 USD, billed
//! 50 h at 90.00 with the rental having run 49 h: price drift (90.00 − 86.64) × 50 = 168.00,
//! more hours (49 − 48) × 86.64 = 86.64, minimum billing (50 − 49) × 86.64 = 86.64; E = 4158.72,
//! B = 4500.00, D = 341.28 = 168.00 + 86.64 + 86.64.

use super::{BillLine, ChargeKind, Component, classify};
use crate::domain::tco::{Currency, ExchangeRate};
use rust_decimal::Decimal;

use serde::Serialize;
use std::collections::BTreeMap;

/// The unit an estimated component is counted in, as far as a bill can be compared with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlannedUnit {
    /// Node-hours or IP-hours.
    Hours,
    /// GB stored for a month.
    GbMonth,
    /// GB transferred.
    Gb,
    /// Anything else (a monthly commitment, a fixed fee).
    Other,
}

/// One component of the frozen estimate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    /// What it pays for.
    pub component: Component,
    /// Its unit.
    pub unit: PlannedUnit,
    /// How many units were estimated.
    pub quantity: Decimal,
    /// The quoted price per unit.
    pub unit_price: Option<Decimal>,
    /// The estimated cost.
    pub cost: Decimal,
}

/// The matched lines of one component, summed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sums {
    /// Cost of the usage lines.
    pub usage: Decimal,
    /// Cost of the credit and correction lines.
    pub credits: Decimal,
    /// Quantity of the usage lines, in hours where the unit counts time.
    pub quantity: Decimal,
    /// Σ unit price × quantity (in the quantity above) of the usage lines stating a price.
    pub priced_amount: Decimal,
    /// Σ quantity of those lines.
    pub priced_quantity: Decimal,
    /// Usage lines whose unit is not time, GB-month or GB.
    pub odd_units: u64,
    /// The comparable unit of the usage lines (of the first, when they agree).
    unit: Option<PlannedUnit>,
}

/// The matched lines of a bill (or of every bill of the order), summed per component.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Billed(pub BTreeMap<Component, Sums>);

fn unit_of(unit: &str) -> PlannedUnit {
    let u = unit.trim().to_lowercase();
    if classify::hours(Decimal::ONE, &u).is_some() {
        PlannedUnit::Hours
    } else if (u.contains("gb") || u.contains("gib")) && (u.contains("mo") || u.contains('月')) {
        PlannedUnit::GbMonth
    } else if matches!(u.as_str(), "gb" | "gib") {
        PlannedUnit::Gb
    } else {
        PlannedUnit::Other
    }
}

impl Billed {
    /// Adds a matched line.
    pub fn add(&mut self, line: &BillLine) {
        let sums = self.0.entry(line.component).or_default();
        if line.kind != ChargeKind::Usage {
            sums.credits += line.cost;
            return;
        }
        sums.usage += line.cost;
        let unit = unit_of(&line.unit);
        let quantity = classify::hours(line.quantity, &line.unit).unwrap_or(line.quantity);
        sums.quantity += quantity;
        if let Some(price) = line.unit_price {
            sums.priced_amount += price * line.quantity;
            sums.priced_quantity += quantity;
        }
        match (unit, sums.unit) {
            (PlannedUnit::Other, _) => sums.odd_units += 1,
            (u, None) => sums.unit = Some(u),
            (u, Some(first)) if u != first => sums.odd_units += 1,
            _ => {}
        }
    }
}

/// Why a component's billed cost differs from its estimate; each with its effect in the
/// estimate's currency (rules in the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Reason {
    /// Credits and corrections.
    Credits { effect: Decimal },
    /// Charged, not estimated.
    Unplanned { effect: Decimal },
    /// Billed unit price ≠ quoted.
    PriceDrift {
        quoted: Decimal,
        billed: Decimal,
        quantity: Decimal,
        effect: Decimal,
    },
    /// More (or fewer) hours billed than estimated.
    MoreHours {
        estimated: Decimal,
        billed: Decimal,
        effect: Decimal,
    },
    /// More hours billed than the rental ran.
    MinimumBilling {
        ran: Decimal,
        billed: Decimal,
        effect: Decimal,
    },
    /// More (or less) usage billed than estimated (GB-months, GB).
    MoreUsage {
        estimated: Decimal,
        billed: Decimal,
        effect: Decimal,
    },
    /// What the other reasons leave.
    Other { effect: Decimal },
}

impl Reason {
    /// The effect on the difference.
    #[must_use]
    pub const fn effect(&self) -> Decimal {
        match self {
            Reason::Credits { effect }
            | Reason::Unplanned { effect }
            | Reason::PriceDrift { effect, .. }
            | Reason::MoreHours { effect, .. }
            | Reason::MinimumBilling { effect, .. }
            | Reason::MoreUsage { effect, .. }
            | Reason::Other { effect } => *effect,
        }
    }
}

/// One component of the reconciliation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    /// The component.
    pub component: Component,
    /// Estimated cost.
    pub estimated: Decimal,
    /// Billed cost, converted.
    pub billed: Decimal,
    /// Billed − estimated.
    pub difference: Decimal,
    /// Why, adding up to `difference`.
    pub reasons: Vec<Reason>,
}

/// The whole reconciliation, in the estimate's currency.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reconciliation {
    /// The estimate's currency: every amount is in it.
    pub currency: Currency,
    /// Components estimated or billed, in [`Component::ALL`] order.
    pub rows: Vec<Row>,
    /// Σ estimated.
    pub estimated: Decimal,
    /// Σ billed.
    pub billed: Decimal,
    /// Σ billed − Σ estimated.
    pub difference: Decimal,
    /// Difference ÷ estimated × 100, one decimal; `None` when nothing was estimated.
    pub variance_pct: Option<Decimal>,
    /// The team's threshold, percent.
    pub threshold_pct: Decimal,
    /// The variance is above the threshold: the manager should look.
    pub flagged: bool,
}

/// What a reconciliation needs.
pub struct Inputs<'a> {
    /// The estimate's currency.
    pub currency: Currency,
    /// The frozen estimate's components.
    pub planned: &'a [Planned],
    /// The matched lines, summed.
    pub billed: &'a Billed,
    /// The bill's currency.
    pub bill_currency: Currency,
    /// The rate between the two, when they differ.
    pub rate: Option<&'a ExchangeRate>,
    /// Node-hours the rental ran (start to stop or release, × nodes), when known.
    pub ran_node_hours: Option<Decimal>,
    /// The team's variance threshold, percent.
    pub threshold_pct: Decimal,
}

/// The bill is in a currency the team has no rate for (to the estimate's currency).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no exchange rate from {from} to {to}")]
pub struct NoRate {
    /// The bill's currency.
    pub from: Currency,
    /// The estimate's.
    pub to: Currency,
}

struct Convert<'a> {
    inputs: &'a Inputs<'a>,
}

impl Convert<'_> {
    /// An amount of the bill, in the estimate's currency, rounded to its minor unit.
    fn amount(&self, amount: Decimal) -> Decimal {
        let i = self.inputs;
        match i.rate {
            Some(rate) if i.bill_currency != i.currency => rate
                .convert(amount, i.bill_currency)
                .unwrap_or_else(|_| i.currency.round(amount)),
            _ => i.currency.round(amount),
        }
    }

    /// A unit price of the bill in the estimate's currency, not rounded.
    fn price(&self, price: Decimal) -> Decimal {
        let i = self.inputs;
        match i.rate {
            Some(rate) if i.bill_currency != i.currency && rate.from == i.bill_currency => price * rate.rate,
            Some(rate) if i.bill_currency != i.currency && !rate.rate.is_zero() => price / rate.rate,
            _ => price,
        }
    }

    /// Whether the billed price differs from the quoted one (exactly, or by 0.5 % when converted).
    fn differs(&self, billed: Decimal, quoted: Decimal) -> bool {
        if self.inputs.bill_currency == self.inputs.currency {
            billed != quoted
        } else {
            (billed - quoted).abs() * Decimal::from(200) > quoted.abs()
        }
    }
}

/// The reasons of one component (rules in the module docs).
fn reasons(c: Component, planned: &[&Planned], sums: &Sums, conv: &Convert<'_>, ran: Option<Decimal>) -> Vec<Reason> {
    let round = |d: Decimal| conv.inputs.currency.round(d);
    let mut out = Vec::new();
    if !sums.credits.is_zero() {
        out.push(Reason::Credits {
            effect: conv.amount(sums.credits),
        });
    }
    let estimated: Decimal = planned.iter().map(|p| p.cost).sum();
    if estimated.is_zero() {
        if !sums.usage.is_zero() {
            out.push(Reason::Unplanned {
                effect: conv.amount(sums.usage),
            });
        }
        return out;
    }
    let [plan] = planned else { return out };
    let (Some(quoted), Some(unit)) = (plan.unit_price, sums.unit) else {
        return out;
    };
    if sums.odd_units > 0 || unit != plan.unit || unit == PlannedUnit::Other || sums.quantity.is_zero() {
        return out;
    }
    let billed_price = if sums.priced_quantity.is_zero() {
        conv.price(sums.usage / sums.quantity)
    } else {
        conv.price(sums.priced_amount / sums.priced_quantity)
    };
    if conv.differs(billed_price, quoted) {
        out.push(Reason::PriceDrift {
            quoted,
            billed: billed_price.round_dp(6).normalize(),
            quantity: sums.quantity,
            effect: round((billed_price - quoted) * sums.quantity),
        });
    }
    let (estimated_q, billed_q) = (plan.quantity, sums.quantity);
    let ran = ran.filter(|ran| c == Component::Compute && billed_q > *ran);
    let reached = ran.unwrap_or(billed_q);
    let more = round((reached - estimated_q) * quoted);
    if !more.is_zero() {
        out.push(if unit == PlannedUnit::Hours {
            Reason::MoreHours {
                estimated: estimated_q.normalize(),
                billed: reached.normalize(),
                effect: more,
            }
        } else {
            Reason::MoreUsage {
                estimated: estimated_q.round_dp(4).normalize(),
                billed: reached.round_dp(4).normalize(),
                effect: more,
            }
        });
    }
    if let Some(ran) = ran {
        out.push(Reason::MinimumBilling {
            ran: ran.normalize(),
            billed: billed_q.normalize(),
            effect: round((billed_q - ran) * quoted),
        });
    }
    out
}

/// Reconciles the estimate with what was billed (rules in the module docs).
///
/// # Errors
/// [`NoRate`] when the bill's currency differs from the estimate's and no rate was given.
pub fn reconcile(inputs: &Inputs<'_>) -> Result<Reconciliation, NoRate> {
    if inputs.bill_currency != inputs.currency && inputs.rate.is_none() {
        return Err(NoRate {
            from: inputs.bill_currency,
            to: inputs.currency,
        });
    }
    let conv = Convert { inputs };
    let empty = Sums::default();
    let mut rows = Vec::new();
    for c in Component::ALL {
        let planned: Vec<&Planned> = inputs.planned.iter().filter(|p| p.component == c).collect();
        let sums = inputs.billed.0.get(&c).unwrap_or(&empty);
        if planned.iter().all(|p| p.cost.is_zero()) && sums.usage.is_zero() && sums.credits.is_zero() {
            continue;
        }
        let estimated: Decimal = planned.iter().map(|p| p.cost).sum();
        let billed = conv.amount(sums.usage) + conv.amount(sums.credits);
        let difference = billed - estimated;
        let mut why = reasons(c, &planned, sums, &conv, inputs.ran_node_hours);
        let rest = difference - why.iter().map(Reason::effect).sum::<Decimal>();
        if !rest.is_zero() {
            why.push(Reason::Other { effect: rest });
        }
        rows.push(Row {
            component: c,
            estimated,
            billed,
            difference,
            reasons: why,
        });
    }
    let estimated: Decimal = rows.iter().map(|r| r.estimated).sum();
    let billed: Decimal = rows.iter().map(|r| r.billed).sum();
    let difference = billed - estimated;
    let variance_pct = (!estimated.is_zero()).then(|| (difference * Decimal::ONE_HUNDRED / estimated).round_dp(1));
    let flagged = flagged(estimated, billed, inputs.threshold_pct);
    Ok(Reconciliation {
        currency: inputs.currency,
        rows,
        estimated,
        billed,
        difference,
        variance_pct,
        threshold_pct: inputs.threshold_pct,
        flagged,
    })
}

/// Whether a bill departs from its estimate by more than `threshold_pct` percent of the
/// estimate, either way (|billed − estimated| × 100 > threshold × |estimated|); anything billed
/// against a zero estimate departs from it.
#[must_use]
pub fn flagged(estimated: Decimal, billed: Decimal, threshold_pct: Decimal) -> bool {
    if estimated.is_zero() {
        !billed.is_zero()
    } else {
        (billed - estimated).abs() * Decimal::ONE_HUNDRED > threshold_pct * estimated.abs()
    }
}

#[cfg(test)]
#[path = "reconcile_tests.rs"]
mod tests;
