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
    /// Effective cost of the usage lines.
    pub usage: Decimal,
    /// Effective cost of the credit and adjustment lines.
    pub credits: Decimal,
    /// Effective cost of the correction lines, per corrected charge period (start, end).
    pub corrections: BTreeMap<(i64, i64), Decimal>,
    /// What every line invoices (FOCUS `BilledCost`), usage, credits and corrections.
    pub invoiced: Decimal,
    /// Quantity of the usage lines, in hours where the unit counts time.
    pub quantity: Decimal,
    /// Σ unit price × quantity (in the quantity above) of the usage lines stating a price.
    pub priced_amount: Decimal,
    /// Σ quantity of those lines.
    pub priced_quantity: Decimal,
    /// Per unit price stated (per unit of the quantity above), the quantity billed at it.
    pub by_price: BTreeMap<Decimal, Decimal>,
    /// Usage lines whose unit is not time, GB-month or GB, or differs from the first line's.
    pub odd_units: u64,
    /// Cost of the usage lines charged after the rental's release (also in `usage`, not in the
    /// quantities).
    pub after_release: Decimal,
    /// The comparable unit of the usage lines (of the first, when they agree).
    unit: Option<Measure>,
    /// A sum or product left `Decimal`'s range: the component cannot be reconciled.
    overflow: bool,
}

/// `total += x`, checked: on overflow (or no `x`) the total stays and `overflow` is set.
fn add_checked(total: &mut Decimal, x: Option<Decimal>, overflow: &mut bool) {
    match x.and_then(|x| total.checked_add(x)) {
        Some(sum) => *total = sum,
        None => *overflow = true,
    }
}

/// A bill's unit as compared with the estimate's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Measure {
    /// The estimate's unit it counts.
    unit: PlannedUnit,
    /// Hours of one GPU, not of a node.
    per_gpu: bool,
}

/// The matched lines of a bill (or of every bill of the order), summed per component.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Billed {
    /// The sums of each component.
    pub sums: BTreeMap<Component, Sums>,
    /// Some line was converted from another currency ([`Billed::add_converted`]): prices are then
    /// compared with the conversion's tolerance.
    pub converted: bool,
}

/// The measure of a bill's unit and the factor turning its quantities into that measure's
/// (rules in the module docs).
fn measure_of(unit: &str) -> (Measure, Decimal) {
    let u = unit.trim().to_lowercase();
    let gb = u.contains("gb") || u.contains("gib");
    let measure = |unit, per_gpu| Measure { unit, per_gpu };
    if let Some(hours) = classify::hours(Decimal::ONE, &u) {
        if gb {
            return (measure(PlannedUnit::GbMonth, false), hours / HOURS_PER_MONTH);
        }
        return (measure(PlannedUnit::Hours, classify::per_gpu(&u)), hours);
    }
    if gb && (u.contains("mo") || u.contains('月')) {
        (measure(PlannedUnit::GbMonth, false), Decimal::ONE)
    } else if matches!(u.as_str(), "gb" | "gib") {
        (measure(PlannedUnit::Gb, false), Decimal::ONE)
    } else if u == "tb" {
        (measure(PlannedUnit::Gb, false), Decimal::ONE_THOUSAND)
    } else if u == "tib" {
        (measure(PlannedUnit::Gb, false), Decimal::from(1024))
    } else {
        (measure(PlannedUnit::Other, false), Decimal::ONE)
    }
}

impl Billed {
    /// Adds a matched line, placed in the rental's life, in the currency the reconciliation's
    /// [`Inputs::rate`] converts from.
    pub fn add(&mut self, line: &BillLine, placement: Placement) {
        self.add_times(line, placement, Decimal::ONE);
    }

    /// Adds a matched line of a bill that kept its own exchange rate: its amounts and prices are
    /// converted here, × `factor` (units of the estimate's currency per unit of the bill's,
    /// [`conversion_factor`]), not rounded (the row rounds its sums). The reconciliation is then
    /// given the estimate's currency as the bill's, and no rate.
    pub fn add_converted(&mut self, line: &BillLine, placement: Placement, factor: Decimal) {
        self.converted = true;
        self.add_times(line, placement, factor);
    }

    /// Adds a line with its amounts and prices multiplied by `factor`.
    fn add_times(&mut self, line: &BillLine, placement: Placement, factor: Decimal) {
        let sums = self.sums.entry(line.component).or_default();
        let overflow = &mut sums.overflow;
        let times = |x: Decimal| x.checked_mul(factor);
        let effective = times(line.effective_cost);
        add_checked(&mut sums.invoiced, times(line.cost), overflow);
        match line.kind {
            ChargeKind::Credit => {
                add_checked(&mut sums.credits, effective, overflow);
                return;
            }
            ChargeKind::Correction => {
                let period = (line.period_start, line.period_end);
                add_checked(sums.corrections.entry(period).or_default(), effective, overflow);
                return;
            }
            ChargeKind::Usage => {}
        }
        add_checked(&mut sums.usage, effective, overflow);
        if placement == Placement::AfterRelease {
            add_checked(&mut sums.after_release, effective, overflow);
            return;
        }
        let (measure, per_unit) = measure_of(&line.unit);
        let quantity = line.quantity.checked_mul(per_unit);
        add_checked(&mut sums.quantity, quantity, overflow);
        if let Some(price) = line.unit_price.and_then(times) {
            add_checked(&mut sums.priced_amount, price.checked_mul(line.quantity), overflow);
            add_checked(&mut sums.priced_quantity, quantity, overflow);
            match (price.checked_div(per_unit), quantity) {
                (Some(per_unit), Some(q)) => {
                    let at = sums.by_price.entry(per_unit.normalize()).or_default();
                    add_checked(at, Some(q), overflow);
                }
                _ => *overflow = true,
            }
        }
        match (measure.unit, sums.unit) {
            (PlannedUnit::Other, _) => sums.odd_units += 1,
            (_, None) => sums.unit = Some(measure),
            (_, Some(first)) if measure != first => sums.odd_units += 1,
            _ => {}
        }
    }
}

/// Units of `to` per unit of `from` by `rate` (stated in either direction); `None` when the rate
/// is not between the two or is zero.
#[must_use]
pub fn conversion_factor(rate: &ExchangeRate, from: Currency, to: Currency) -> Option<Decimal> {
    if rate.from == from && rate.to == to {
        Some(rate.rate)
    } else if rate.from == to && rate.to == from {
        Decimal::ONE.checked_div(rate.rate)
    } else {
        None
    }
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

struct Convert<'a> {
    inputs: &'a Inputs<'a>,
}

impl Convert<'_> {
    /// An amount of the bill, in the estimate's currency, rounded to its minor unit.
    fn amount(&self, amount: Decimal) -> Option<Decimal> {
        let i = self.inputs;
        match i.rate {
            Some(rate) if i.bill_currency != i.currency => rate.convert(amount, i.bill_currency).ok(),
            _ => Some(i.currency.round(amount)),
        }
    }

    /// A unit price of the bill in the estimate's currency, not rounded.
    fn price(&self, price: Decimal) -> Option<Decimal> {
        let i = self.inputs;
        match i.rate {
            Some(rate) if i.bill_currency != i.currency && rate.from == i.bill_currency => mul(price, rate.rate),
            Some(rate) if i.bill_currency != i.currency && !rate.rate.is_zero() => div(price, rate.rate),
            _ => Some(price),
        }
    }

    /// Whether the billed price differs from the quoted one (exactly, or by 0.5 % when converted).
    fn differs(&self, billed: Decimal, quoted: Decimal) -> Option<bool> {
        if self.inputs.bill_currency == self.inputs.currency && !self.inputs.billed.converted {
            Some(billed != quoted)
        } else {
            Some(mul(sub(billed, quoted)?.abs(), Decimal::from(200))? > quoted.abs())
        }
    }
}

/// What the quantity reasons of one component read.
struct Basis<'a> {
    plan: &'a Planned,
    quoted: Decimal,
    unit: PlannedUnit,
    /// Bill units per estimate unit: the GPUs per node for GPU-hours, else 1.
    scale: Decimal,
}

/// The quantity reasons' basis, when the bill's quantities can be compared with the estimate's.
fn comparable<'a>(planned: &[&'a Planned], sums: &Sums, gpus: Option<u32>) -> Option<Basis<'a>> {
    let [plan] = planned else { return None };
    let (quoted, measure) = (plan.unit_price?, sums.unit?);
    let unit = measure.unit;
    if sums.odd_units > 0 || unit != plan.unit || unit == PlannedUnit::Other || sums.quantity.is_zero() {
        return None;
    }
    let scale = if measure.per_gpu {
        Decimal::from(gpus.filter(|g| *g > 0)?)
    } else {
        Decimal::ONE
    };
    Some(Basis {
        plan,
        quoted,
        unit,
        scale,
    })
}

/// A quantity as shown: in the bill's unit, four decimals at most.
fn shown(quantity: Decimal) -> Decimal {
    quantity.round_dp(4).normalize()
}

/// The reasons of one component (rules in the module docs); `None` when a figure leaves the
/// range of exact decimals.
fn reasons(c: Component, planned: &[&Planned], sums: &Sums, conv: &Convert<'_>) -> Option<Vec<Reason>> {
    let mut out = Vec::new();
    if !sums.credits.is_zero() {
        out.push(Reason::Credits {
            effect: conv.amount(sums.credits)?,
        });
    }
    for ((period_start, period_end), effect) in &sums.corrections {
        out.push(Reason::Correction {
            period_start: *period_start,
            period_end: *period_end,
            effect: conv.amount(*effect)?,
        });
    }
    if !sums.after_release.is_zero() {
        out.push(Reason::AfterRelease {
            effect: conv.amount(sums.after_release)?,
        });
    }
    let estimated = checked::sum(planned.iter().map(|p| p.cost))?;
    let in_rental = sub(sums.usage, sums.after_release)?;
    if estimated.is_zero() {
        if !in_rental.is_zero() {
            out.push(Reason::Unplanned {
                effect: conv.amount(in_rental)?,
            });
        }
        return Some(out);
    }
    if sums.usage.is_zero() {
        out.push(Reason::NotBilled { effect: -estimated });
        return Some(out);
    }
    if let Some(basis) = comparable(planned, sums, conv.inputs.gpus_per_node) {
        quantity_reasons(c, &basis, sums, in_rental, conv, &mut out)?;
    }
    Some(out)
}

/// Price drift, more hours or usage, and minimum billing, in the bill's unit.
fn quantity_reasons(
    c: Component,
    basis: &Basis<'_>,
    sums: &Sums,
    in_rental: Decimal,
    conv: &Convert<'_>,
    out: &mut Vec<Reason>,
) -> Option<()> {
    let round = |d: Decimal| conv.inputs.currency.round(d);
    let Basis {
        plan,
        quoted,
        unit,
        scale,
    } = *basis;
    // The agreed price per bill unit: what drift is measured against, and what the extra (or
    // missing) quantity is priced at, so that an accountant can check quantity × price = effect.
    let agreed = div(quoted, scale)?.round_dp(6).normalize();
    // Per bill unit (per GPU-hour when the bill counts them): each price the lines state with
    // the quantity billed at it, else one price derived from cost ÷ quantity.
    let prices: Vec<(Decimal, Decimal)> = if sums.by_price.is_empty() {
        vec![(conv.price(div(in_rental, sums.quantity)?)?, sums.quantity)]
    } else {
        let mut at = Vec::new();
        for (price, quantity) in &sums.by_price {
            at.push((conv.price(*price)?, *quantity));
        }
        at
    };
    for (billed_price, quantity) in prices {
        let node_price = mul(billed_price, scale)?;
        let drift = round(div(mul(sub(node_price, quoted)?, quantity)?, scale)?);
        // A price derived from cost ÷ quantity differs by rounding alone: no effect, no reason.
        if conv.differs(node_price, quoted)? && !drift.is_zero() {
            out.push(Reason::PriceDrift {
                quoted: agreed,
                billed: billed_price.round_dp(6).normalize(),
                quantity: shown(quantity),
                effect: drift,
            });
        }
    }
    // In the estimate's unit (node-hours), as the rental's run time is counted.
    let (estimated_q, billed_q) = (plan.quantity, div(sums.quantity, scale)?);
    let ran = conv
        .inputs
        .ran_node_hours
        .filter(|ran| c == Component::Compute && billed_q > *ran);
    let reached = ran.unwrap_or(billed_q);
    let more = round(mul(sub(reached, estimated_q)?, quoted)?);
    if !more.is_zero() {
        let (estimated, billed) = (shown(mul(estimated_q, scale)?), shown(mul(reached, scale)?));
        out.push(if unit == PlannedUnit::Hours {
            Reason::MoreHours {
                estimated,
                billed,
                agreed,
                effect: more,
            }
        } else {
            Reason::MoreUsage {
                estimated,
                billed,
                agreed,
                effect: more,
            }
        });
    }
    if let Some(ran) = ran {
        out.push(Reason::MinimumBilling {
            ran: shown(mul(ran, scale)?),
            billed: shown(sums.quantity),
            agreed,
            effect: round(mul(sub(billed_q, ran)?, quoted)?),
        });
    }
    Some(())
}

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
