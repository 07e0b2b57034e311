//! The estimate a bill is reconciled against: the frozen comparison of the approved revision the
//! rental follows (`OrderRecord::frozen`, the scenario's result), the chosen quote's estimate, its
//! cost components mapped to the bill's.

use crate::domain::{
    bills::{
        Component,
        reconcile::{Planned, PlannedUnit},
    },
    orders::record,
    tco::{ComponentKind, Currency, Estimate, Unit},
};
use rust_decimal::Decimal;

/// What the order estimated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderEstimate {
    /// The estimate's currency.
    pub currency: Currency,
    /// Nodes rented.
    pub nodes: u32,
    /// GPUs per node of the chosen quote's node (to compare a bill in GPU-hours).
    pub gpus_per_node: Option<u32>,
    /// Its components.
    pub planned: Vec<Planned>,
}

/// The bill's component of an estimate's component.
const fn component_of(kind: &ComponentKind) -> Component {
    match kind {
        ComponentKind::OnDemandCompute | ComponentKind::MonthlyCommitment | ComponentKind::EarlyReleaseRefund => {
            Component::Compute
        }
        ComponentKind::StoppedCompute => Component::StoppedCompute,
        ComponentKind::Disk => Component::Disk,
        ComponentKind::PublicIp => Component::Ip,
        ComponentKind::Traffic => Component::Traffic,
        ComponentKind::Snapshots => Component::Snapshots,
        ComponentKind::OtherFee(_) => Component::Fees,
    }
}

const fn unit_of(unit: Unit) -> PlannedUnit {
    match unit {
        Unit::NodeHour | Unit::IpHour => PlannedUnit::Hours,
        Unit::GbMonth => PlannedUnit::GbMonth,
        Unit::Gb => PlannedUnit::Gb,
        Unit::NodeMonth | Unit::Item => PlannedUnit::Other,
    }
}

/// The planned components of one estimate, of a node with `gpus_per_node` GPUs.
#[must_use]
pub fn planned(estimate: &Estimate, gpus_per_node: Option<u32>) -> OrderEstimate {
    let planned = estimate
        .components
        .iter()
        .map(|c| Planned {
            component: component_of(&c.kind),
            unit: unit_of(c.unit),
            quantity: c.quantity,
            unit_price: c.unit_price,
            cost: c.cost,
        })
        .collect();
    OrderEstimate {
        currency: estimate.currency,
        nodes: estimate.nodes,
        gpus_per_node,
        planned,
    }
}

/// The chosen quote's frozen estimate in an approved revision's content (stored JSON); `None`
/// when the revision froze no comparison or it does not cost the chosen quote.
#[must_use]
pub fn of_content(content: &str) -> Option<OrderEstimate> {
    let content = record::decode(content).ok()?;
    let (ranked, quote) = content.chosen_costing()?;
    Some(planned(&ranked.estimate, Some(quote.node_shape.gpus_per_node)))
}

/// Node-hours the rental ran: from its start to its stop (else its release), × nodes; `None`
/// while it runs.
#[must_use]
pub fn ran_node_hours(started: i64, stopped: Option<i64>, released: Option<i64>, nodes: u32) -> Option<Decimal> {
    let end = stopped.or(released)?;
    let seconds = Decimal::from(end.saturating_sub(started).max(0));
    Some(seconds / Decimal::from(3600) * Decimal::from(nodes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn the_rental_ran_until_it_stopped_or_else_was_released() {
        assert_eq!(ran_node_hours(0, Some(5400), Some(9000), 2), Some(dec!(3)));
        assert_eq!(ran_node_hours(0, None, Some(7200), 1), Some(dec!(2)));
        assert_eq!(ran_node_hours(0, None, None, 1), None);
    }

    #[test]
    fn a_revision_without_a_frozen_comparison_has_no_estimate() {
        let content = record::OrderRecord {
            workload_id: 1,
            quote_id: Some(3),
            ..record::OrderRecord::default()
        };
        let text = content.canonical().expect("json");
        assert_eq!(of_content(&text), None);
        assert_eq!(of_content("not json"), None);
    }
}
