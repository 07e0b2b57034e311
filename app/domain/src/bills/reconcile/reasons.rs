//! Each component's reasons: how much of the difference price drift, hours, usage,
//! credits and corrections explain (the rules are in the parent module's docs).

use super::*;

pub(super) struct Convert<'a> {
    pub(super) inputs: &'a Inputs<'a>,
}

impl Convert<'_> {
    /// An amount of the bill, in the estimate's currency, rounded to its minor unit.
    pub(super) fn amount(&self, amount: Decimal) -> Option<Decimal> {
        let i = self.inputs;
        match i.rate {
            Some(rate) if i.bill_currency != i.currency => rate.convert(amount, i.bill_currency).ok(),
            _ => Some(i.currency.round(amount)),
        }
    }

    /// A unit price of the bill in the estimate's currency, not rounded.
    pub(super) fn price(&self, price: Decimal) -> Option<Decimal> {
        let i = self.inputs;
        match i.rate {
            Some(rate) if i.bill_currency != i.currency && rate.from == i.bill_currency => mul(price, rate.rate),
            Some(rate) if i.bill_currency != i.currency && !rate.rate.is_zero() => div(price, rate.rate),
            _ => Some(price),
        }
    }

    /// Whether the billed price differs from the quoted one (exactly, or by 0.5 % when converted).
    pub(super) fn differs(&self, billed: Decimal, quoted: Decimal) -> Option<bool> {
        if self.inputs.bill_currency == self.inputs.currency && !self.inputs.billed.converted {
            Some(billed != quoted)
        } else {
            Some(mul(sub(billed, quoted)?.abs(), Decimal::from(200))? > quoted.abs())
        }
    }
}

/// What the quantity reasons of one component read.
pub(super) struct Basis<'a> {
    pub(super) plan: &'a Planned,
    pub(super) quoted: Decimal,
    pub(super) unit: PlannedUnit,
    /// Bill units per estimate unit: the GPUs per node for GPU-hours, else 1.
    pub(super) scale: Decimal,
}

/// The quantity reasons' basis, when the bill's quantities can be compared with the estimate's.
pub(super) fn comparable<'a>(planned: &[&'a Planned], sums: &Sums, gpus: Option<u32>) -> Option<Basis<'a>> {
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
pub(super) fn shown(quantity: Decimal) -> Decimal {
    quantity.round_dp(4).normalize()
}

/// The reasons of one component (rules in the module docs); `None` when a figure leaves the
/// range of exact decimals.
pub(super) fn reasons(c: Component, planned: &[&Planned], sums: &Sums, conv: &Convert<'_>) -> Option<Vec<Reason>> {
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
pub(super) fn quantity_reasons(
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
