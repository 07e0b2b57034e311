//! The bill's matched lines, summed per component in the units the estimate compares.

use super::*;

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
    pub(super) unit: Option<Measure>,
    /// A sum or product left `Decimal`'s range: the component cannot be reconciled.
    pub(super) overflow: bool,
}

/// `total += x`, checked: on overflow (or no `x`) the total stays and `overflow` is set.
pub(super) fn add_checked(total: &mut Decimal, x: Option<Decimal>, overflow: &mut bool) {
    match x.and_then(|x| total.checked_add(x)) {
        Some(sum) => *total = sum,
        None => *overflow = true,
    }
}

/// A bill's unit as compared with the estimate's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Measure {
    /// The estimate's unit it counts.
    pub(super) unit: PlannedUnit,
    /// Hours of one GPU, not of a node.
    pub(super) per_gpu: bool,
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
pub(super) fn measure_of(unit: &str) -> (Measure, Decimal) {
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
    pub(super) fn add_times(&mut self, line: &BillLine, placement: Placement, factor: Decimal) {
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
