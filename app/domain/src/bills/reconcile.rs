//! What the order estimated against what the vendor billed, per cost component, and why they
//! differ. Pure.
//!
//! Inputs: the components of the frozen estimate on the approved revision ([`Planned`], in the
//! estimate's currency), the bill lines matched to the rental summed per component ([`Billed`],
//! in the bill's currency), the team's exchange rate when the currencies differ, the node-hours
//! the rental actually ran, and the team's variance threshold.
//!
//! Per component, with E the estimated cost, B the billed cost (usage + credits + corrections,
//! converted to the estimate's currency and rounded to its minor unit) and D = B − E, the reasons
//! are:
//! - **credits** — credits and adjustments billed: their (negative) sum;
//! - **correction of a period** — lines FOCUS marks `ChargeClass = Correction`, which a later bill
//!   writes with the charge period of the charge they correct: one reason per corrected period,
//!   their sum, so the original charge plus its correction is what the period finally cost;
//! - **unplanned** — E = 0 and the vendor charged it (stopped disks, egress, snapshots the
//!   estimate did not have): the usage billed;
//! - **not billed** — E ≠ 0 and the bill charges nothing for it (a public IP planned, not
//!   billed): −E;
//! - **price drift** — per billed unit price p_b the usage lines state (or their cost ÷ quantity
//!   when none states a price) that ≠ the quoted price p_q of the pinned revision: the quantity q
//!   billed at it, q × p_b against q × p_q, effect (p_b − p_q) × q — one reason per price, as an
//!   accountant reads it ("24 h at ¥13.10 instead of ¥12.50"), never an average over lines at
//!   different prices. The same currency compares exactly; a converted price differs when it is
//!   more than 0.5 % off (conversion rounds);
//! - **more hours** (compute, stopped compute, IP: quantities in hours) — (billed h − estimated h)
//!   × p_q; negative when fewer hours were billed. For compute, when the vendor billed more
//!   node-hours than the rental ran (the rental's start to its stop or release, × nodes), the
//!   excess is the **minimum billing** effect, (billed h − ran h) × p_q, and more hours is
//!   (ran h − estimated h) × p_q;
//! - **more usage** (disk in GB-months, traffic in GB) — the same with the component's quantity;
//!   **less usage** when it is negative;
//! - **other** — what the reasons above leave of D (rounding, quantities in units that cannot
//!   be compared), so the reasons always add up to D.
//!
//! - **after release** — usage charged for the rental's resources for periods starting at or
//!   after its release ([`super::matching::Placement::AfterRelease`]: a disk, snapshot or
//!   address left behind): its cost. It is inside the difference, is not counted in the
//!   quantities above, and flags the order whatever the variance.
//!
//! Quantities are compared in the unit the bill uses. A vendor billing **GPU-hours** (`GPU-Hours`,
//! `卡时`) against an estimate in node-hours is compared at the quote's GPUs per node g: the
//! estimate's h × g GPU-hours, the quoted price ÷ g per GPU-hour (the effects are the same money
//! as in node-hours). Minutes and seconds count as hours, GB-hours as GB-months (÷ 730, the
//! engine's hours per month) and TB as 1,000 GB (TiB as 1,024 GiB).
//!
//! **Which cost.** B counts each line's *effective* cost (FOCUS `EffectiveCost`: usage covered by
//! a commitment is billed 0 but costs its share of the commitment, and the commitment's purchase
//! line is effectively 0), so covered usage is reconciled at what it cost, never as "not
//! billed". What the bill *invoices* (FOCUS `BilledCost`) is summed beside it per row and in
//! total; the two differ only where commitments or prepayments moved cost between lines.
//!
//! **Tax.** Tax lines are their own row; the estimate is before tax, so the variance is stated
//! with tax and before tax, and the flag reads the variance before tax.
//!
//! **Rates.** A bill in another currency is converted line by line at the rate that bill kept
//! ([`Billed::add_converted`]): bills of one order may have been converted at different rates,
//! and a rate entered later changes no bill already reconciled.
//!
//! Each effect is rounded to the estimate's minor unit. The variance is D ÷ E over the whole
//! order; it **flags** the order for the manager when |D| > threshold × E (or E = 0 and B ≠ 0),
//! with D and B before tax.
//!
//! Worked example (in the tests): 48 node-hours of an H100 node quoted at 86.64 USD, billed
//! 50 h at 90.00 with the rental having run 49 h: price drift (90.00 − 86.64) × 50 = 168.00,
//! more hours (49 − 48) × 86.64 = 86.64, minimum billing (50 − 49) × 86.64 = 86.64; E = 4158.72,
//! B = 4500.00, D = 341.28 = 168.00 + 86.64 + 86.64.

use super::{BillLine, ChargeKind, Component, classify, matching::Placement};
use crate::tco::{Currency, ExchangeRate, HOURS_PER_MONTH};
use rust_decimal::Decimal;

use serde::Serialize;
use std::collections::BTreeMap;

mod reasons;
use reasons::{Convert, reasons};
mod billed;
pub use billed::{Billed, Sums, conversion_factor};

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

/// Why a component's billed cost differs from its estimate; each with its effect in the
/// estimate's currency (rules in the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Reason {
    /// Credits and adjustments.
    Credits { effect: Decimal },
    /// Corrections of the charges of one earlier period (start and end, Unix seconds UTC).
    Correction {
        period_start: i64,
        period_end: i64,
        effect: Decimal,
    },
    /// Charged for the rental's resources after its release.
    AfterRelease { effect: Decimal },
    /// Charged, not estimated.
    Unplanned { effect: Decimal },
    /// Estimated, not charged.
    NotBilled { effect: Decimal },
    /// Billed unit price ≠ quoted.
    PriceDrift {
        quoted: Decimal,
        billed: Decimal,
        quantity: Decimal,
        effect: Decimal,
    },
    /// More (or fewer) hours billed than estimated, at the agreed price per bill unit.
    MoreHours {
        estimated: Decimal,
        billed: Decimal,
        agreed: Decimal,
        effect: Decimal,
    },
    /// More hours billed than the rental ran, at the agreed price per bill unit.
    MinimumBilling {
        ran: Decimal,
        billed: Decimal,
        agreed: Decimal,
        effect: Decimal,
    },
    /// More (or less) usage billed than estimated (GB-months, GB), at the agreed price per
    /// bill unit.
    MoreUsage {
        estimated: Decimal,
        billed: Decimal,
        agreed: Decimal,
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
            | Reason::Correction { effect, .. }
            | Reason::AfterRelease { effect }
            | Reason::Unplanned { effect }
            | Reason::NotBilled { effect }
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
    /// Billed cost, converted: what the lines effectively cost (FOCUS `EffectiveCost`).
    pub billed: Decimal,
    /// What the lines invoice, converted (FOCUS `BilledCost`).
    pub invoiced: Decimal,
    /// Billed − estimated.
    pub difference: Decimal,
    /// Why, adding up to `difference`.
    pub reasons: Vec<Reason>,
    /// The unit the reasons' quantities and prices are in (the estimate's; `Other` when the
    /// component was not estimated in a comparable unit).
    pub unit: PlannedUnit,
    /// The GPUs per node the quantities were compared at, when the bill counts GPU-hours (the
    /// reasons' hours and prices are then per GPU).
    pub per_gpu: Option<u32>,
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
    /// Σ invoiced (FOCUS `BilledCost`).
    pub invoiced: Decimal,
    /// Σ billed − Σ estimated.
    pub difference: Decimal,
    /// Difference ÷ estimated × 100, one decimal; `None` when nothing was estimated.
    pub variance_pct: Option<Decimal>,
    /// The tax row's billed cost (0 when the bill states no tax).
    pub tax: Decimal,
    /// Σ billed − tax − Σ estimated: the difference before tax.
    pub difference_before_tax: Decimal,
    /// The difference before tax ÷ estimated × 100, one decimal; `None` when nothing was
    /// estimated.
    pub variance_before_tax_pct: Option<Decimal>,
    /// The team's threshold, percent.
    pub threshold_pct: Decimal,
    /// Charged for the rental's resources after its release (inside `billed`).
    pub after_release: Decimal,
    /// The variance before tax is above the threshold, or something was charged after release:
    /// the manager should look.
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
    /// GPUs per node of the quote, to compare a bill in GPU-hours; `None` when unknown.
    pub gpus_per_node: Option<u32>,
    /// The team's variance threshold, percent.
    pub threshold_pct: Decimal,
}

/// Why a bill cannot be reconciled with its estimate.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReconcileError {
    /// The bill is in a currency the team has no rate for (to the estimate's currency).
    #[error("no exchange rate from {from} to {to}")]
    NoRate {
        /// The bill's currency.
        from: Currency,
        /// The estimate's.
        to: Currency,
    },
    /// A sum or product of the bill's figures leaves the range of exact decimals: the bill's
    /// numbers are beyond any real bill.
    #[error("the bill's amounts are too large to add up")]
    TooLarge,
}

/// Checked arithmetic: `None` when the result leaves `Decimal`'s range (or divides by zero).
mod checked {
    use rust_decimal::Decimal;

    pub(super) fn add(a: Decimal, b: Decimal) -> Option<Decimal> {
        a.checked_add(b)
    }
    pub(super) fn sub(a: Decimal, b: Decimal) -> Option<Decimal> {
        a.checked_sub(b)
    }
    pub(super) fn mul(a: Decimal, b: Decimal) -> Option<Decimal> {
        a.checked_mul(b)
    }
    pub(super) fn div(a: Decimal, b: Decimal) -> Option<Decimal> {
        a.checked_div(b)
    }
    /// Σ, checked.
    pub(super) fn sum(items: impl IntoIterator<Item = Decimal>) -> Option<Decimal> {
        items.into_iter().try_fold(Decimal::ZERO, add)
    }
}

use checked::{div, mul, sub};

/// One component's row; `None` when a figure leaves the range of exact decimals.
fn row(c: Component, inputs: &Inputs<'_>, conv: &Convert<'_>) -> Option<Option<Row>> {
    let empty = Sums::default();
    let planned: Vec<&Planned> = inputs.planned.iter().filter(|p| p.component == c).collect();
    let sums = inputs.billed.sums.get(&c).unwrap_or(&empty);
    if sums.overflow {
        return None;
    }
    let corrected = checked::sum(sums.corrections.values().copied())?;
    if planned.iter().all(|p| p.cost.is_zero())
        && sums.usage.is_zero()
        && sums.credits.is_zero()
        && sums.corrections.values().all(Decimal::is_zero)
        && sums.invoiced.is_zero()
    {
        return Some(None);
    }
    let estimated = checked::sum(planned.iter().map(|p| p.cost))?;
    let billed = checked::sum([
        conv.amount(sums.usage)?,
        conv.amount(sums.credits)?,
        conv.amount(corrected)?,
    ])?;
    let invoiced = conv.amount(sums.invoiced)?;
    let difference = sub(billed, estimated)?;
    let mut why = reasons(c, &planned, sums, conv)?;
    let rest = sub(difference, checked::sum(why.iter().map(Reason::effect))?)?;
    if !rest.is_zero() {
        why.push(Reason::Other { effect: rest });
    }
    let per_gpu = sums
        .unit
        .filter(|m| m.per_gpu && !estimated.is_zero())
        .and(inputs.gpus_per_node);
    let unit = match planned.as_slice() {
        [plan] => plan.unit,
        _ => PlannedUnit::Other,
    };
    Some(Some(Row {
        component: c,
        estimated,
        billed,
        invoiced,
        difference,
        reasons: why,
        unit,
        per_gpu,
    }))
}

/// Reconciles the estimate with what was billed (rules in the module docs).
///
/// # Errors
/// [`ReconcileError::NoRate`] when the bill's currency differs from the estimate's and no rate
/// was given; [`ReconcileError::TooLarge`] when a sum or product leaves the range of exact
/// decimals.
pub fn reconcile(inputs: &Inputs<'_>) -> Result<Reconciliation, ReconcileError> {
    if inputs.bill_currency != inputs.currency && inputs.rate.is_none() {
        return Err(ReconcileError::NoRate {
            from: inputs.bill_currency,
            to: inputs.currency,
        });
    }
    let conv = Convert { inputs };
    let mut rows = Vec::new();
    for c in Component::ALL {
        if let Some(r) = row(c, inputs, &conv).ok_or(ReconcileError::TooLarge)? {
            rows.push(r);
        }
    }
    totals(inputs, rows).ok_or(ReconcileError::TooLarge)
}

/// The reconciliation of `rows`: totals, variance and flag.
fn totals(inputs: &Inputs<'_>, rows: Vec<Row>) -> Option<Reconciliation> {
    let estimated = checked::sum(rows.iter().map(|r| r.estimated))?;
    let billed = checked::sum(rows.iter().map(|r| r.billed))?;
    let invoiced = checked::sum(rows.iter().map(|r| r.invoiced))?;
    let tax = checked::sum(rows.iter().filter(|r| r.component == Component::Tax).map(|r| r.billed))?;
    let after_release = checked::sum(rows.iter().flat_map(|r| &r.reasons).filter_map(|r| match r {
        Reason::AfterRelease { effect } => Some(*effect),
        _ => None,
    }))?;
    let difference = sub(billed, estimated)?;
    let before_tax = sub(billed, tax)?;
    let difference_before_tax = sub(before_tax, estimated)?;
    let pct = |d: Decimal| -> Option<Option<Decimal>> {
        if estimated.is_zero() {
            Some(None)
        } else {
            Some(Some(div(mul(d, Decimal::ONE_HUNDRED)?, estimated)?.round_dp(1)))
        }
    };
    let (variance_pct, variance_before_tax_pct) = (pct(difference)?, pct(difference_before_tax)?);
    let over = flagged(estimated, before_tax, inputs.threshold_pct);
    Some(Reconciliation {
        currency: inputs.currency,
        rows,
        estimated,
        billed,
        invoiced,
        difference,
        variance_pct,
        tax,
        difference_before_tax,
        variance_before_tax_pct,
        threshold_pct: inputs.threshold_pct,
        after_release,
        flagged: over || after_release > Decimal::ZERO,
    })
}

/// Whether a bill departs from its estimate by more than `threshold_pct` percent of the
/// estimate, either way (|billed − estimated| × 100 > threshold × |estimated|); anything billed
/// against a zero estimate departs from it.
#[must_use]
pub fn flagged(estimated: Decimal, billed: Decimal, threshold_pct: Decimal) -> bool {
    if estimated.is_zero() {
        return !billed.is_zero();
    }
    // |D| ÷ |E| × 100, checked: a difference too large to compute is above any threshold.
    sub(billed, estimated)
        .and_then(|d| div(d.abs(), estimated.abs()))
        .and_then(|r| mul(r, Decimal::ONE_HUNDRED))
        .is_none_or(|pct| pct > threshold_pct)
}

#[cfg(test)]
#[path = "reconcile_tests.rs"]
mod tests;
