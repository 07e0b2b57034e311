//! What a rental costs per day in its current state, from the pinned quote revision's prices
//! (the price sheet and node shape frozen with the order) and the frozen estimate's node count
//! and pricing.
//!
//! # Formula (per day, each line rounded half away from zero to the currency's minor unit,
//! the total the sum of the rounded lines)
//!
//! With `node_hourly` the on-demand price per node and hour (× GPUs per node for a per-GPU
//! price, as the estimate computed it) and `n` the nodes rented:
//!
//! * **Compute** (running): `node_hourly × 24 × n`; under a package commitment (when the frozen
//!   estimate chose it) `package price × n ÷ days in the period` (30 for a month, 7 for a week,
//!   period hours ÷ 24 otherwise), running or stopped: the commitment is paid either way.
//! * **Stopped compute** (stopped, on demand): `stopped price × 24 × n`, where the stopped price
//!   per node-hour is what the sheet says a stopped instance bills: `node_hourly`, a share of it,
//!   a stopped rate of its own, or 0.
//! * **Disk** (running, and stopped unless the sheet says stopped disks bill nothing):
//!   `(system + data GB per node) × disk price per GB-month ÷ 30 × n`.
//! * **Public IP** (running, and stopped unless the sheet says a stopped IP bills nothing):
//!   `IP price per hour × 24 × n`.
//! * Released: nothing.
//!
//! One-off fees, traffic and snapshots are not per-day charges and are left to the bill.
//!
//! *Example:* 2 nodes at 10.00/h, 500 GB disk per node at 0.30/GB-month, IP 0.02/h, stopped
//! compute not billed. Running: compute 10 × 24 × 2 = 480.00, disk 500 × 0.30 ÷ 30 × 2 =
//! 10.00, IP 0.02 × 24 × 2 = 0.96: 490.96 a day. Stopped: disk 10.00 + IP 0.96 = 10.96 a day
//! (with stopped compute billed: 490.96).

use super::RentalState;
use crate::tco::{BillingIncrement, Currency, Estimate, NodeShape, PriceSheet, Pricing, StoppedCompute};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Days in a month for per-month prices (disk, commitment) turned into a daily figure.
pub const DAYS_PER_MONTH: u32 = 30;

/// What a rental holds and what it pays for, per node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailyPrices {
    /// The currency of every price.
    pub currency: Currency,
    /// On-demand price per node and hour (0 on a sheet of packages only, which bills no
    /// on-demand hour).
    pub node_hourly: Decimal,
    /// Nodes rented.
    pub nodes: u32,
    /// The package price per node when the frozen estimate chose the commitment.
    pub monthly_price: Option<Decimal>,
    /// Days one package period lasts (30 for a month).
    pub package_days: Decimal,
    /// What a stopped node bills per hour for compute (0 when nothing).
    pub stopped_hourly: Decimal,
    /// Whether disks bill while stopped.
    pub stopped_bills_disk: bool,
    /// Whether the public IP bills while stopped.
    pub stopped_bills_ip: bool,
    /// System plus data disk per node, GB.
    pub disk_gb: Decimal,
    /// Disk price per GB and month.
    pub disk_price_gb_month: Decimal,
    /// Public IP price per node and hour.
    pub public_ip_hourly: Decimal,
}

/// One rental's cost per day, by line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailyCost {
    /// Running compute (or the commitment).
    pub compute: Decimal,
    /// Compute billed while stopped.
    pub stopped_compute: Decimal,
    /// Disks.
    pub disk: Decimal,
    /// Public addresses.
    pub ip: Decimal,
    /// The sum of the lines.
    pub total: Decimal,
}

impl DailyPrices {
    /// The prices of the quote `sheet`/`shape` as the frozen `estimate` used them.
    #[must_use]
    pub fn of(sheet: &PriceSheet, shape: &NodeShape, estimate: &Estimate) -> DailyPrices {
        let node_hourly = estimate.node_hourly.unwrap_or(Decimal::ZERO);
        let period = sheet.package_period();
        let package_days = if period == BillingIncrement::MONTH {
            Decimal::from(DAYS_PER_MONTH)
        } else {
            period.hours() / Decimal::from(24)
        };
        let stopped_hourly = match sheet.stopped_compute() {
            StoppedCompute::Free => Decimal::ZERO,
            StoppedCompute::Full => node_hourly,
            StoppedCompute::Share(share) => node_hourly.checked_mul(share).unwrap_or(Decimal::MAX),
            StoppedCompute::Rate(rate) => rate,
        };
        DailyPrices {
            currency: sheet.currency,
            node_hourly,
            nodes: estimate.nodes,
            monthly_price: (estimate.pricing_used == Pricing::Monthly)
                .then(|| sheet.monthly_per_node(shape.gpus_per_node))
                .flatten(),
            package_days,
            stopped_hourly,
            stopped_bills_disk: sheet.stopped_bills_disk,
            stopped_bills_ip: sheet.stopped_bills_ip,
            disk_gb: shape.system_disk_gb + shape.data_disk_gb,
            disk_price_gb_month: sheet.disk_price_gb_month,
            public_ip_hourly: sheet.public_ip_hourly,
        }
    }

    /// The cost per day in `state` (the module's formula); `None` if a figure overflows.
    #[must_use]
    pub fn per_day(&self, state: RentalState) -> Option<DailyCost> {
        if state == RentalState::Released {
            return Some(DailyCost::default());
        }
        let n = Decimal::from(self.nodes);
        let day = Decimal::from(24);
        let month = Decimal::from(DAYS_PER_MONTH);
        let round = |d: Option<Decimal>| d.map(|d| self.currency.round(d));
        let per_day = |hourly: Decimal| round(hourly.checked_mul(day).and_then(|d| d.checked_mul(n)));
        let running = state == RentalState::Running;
        let (compute, stopped_compute) = match self.monthly_price {
            Some(m) => (
                round(m.checked_mul(n).and_then(|d| d.checked_div(self.package_days)))?,
                Decimal::ZERO,
            ),
            None if running => (per_day(self.node_hourly)?, Decimal::ZERO),
            None => (Decimal::ZERO, per_day(self.stopped_hourly)?),
        };
        let disk = if running || self.stopped_bills_disk {
            round(
                self.disk_gb
                    .checked_mul(self.disk_price_gb_month)
                    .and_then(|d| d.checked_div(month))
                    .and_then(|d| d.checked_mul(n)),
            )?
        } else {
            Decimal::ZERO
        };
        let ip = if running || self.stopped_bills_ip {
            per_day(self.public_ip_hourly)?
        } else {
            Decimal::ZERO
        };
        let total = compute
            .checked_add(stopped_compute)?
            .checked_add(disk)?
            .checked_add(ip)?;
        Some(DailyCost {
            compute,
            stopped_compute,
            disk,
            ip,
            total,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{DailyCost, DailyPrices};
    use crate::{rentals::RentalState, tco::Currency};
    use proptest::prelude::*;
    use rust_decimal::Decimal;
    use rust_decimal_macros::dec;

    fn prices() -> DailyPrices {
        DailyPrices {
            currency: Currency::parse("CNY").expect("CNY"),
            node_hourly: dec!(10.00),
            nodes: 2,
            monthly_price: None,
            package_days: dec!(30),
            stopped_hourly: dec!(0),
            stopped_bills_disk: true,
            stopped_bills_ip: true,
            disk_gb: dec!(500),
            disk_price_gb_month: dec!(0.30),
            public_ip_hourly: dec!(0.02),
        }
    }

    #[test]
    fn the_worked_example_of_the_module_documentation() {
        let p = prices();
        assert_eq!(
            p.per_day(RentalState::Running),
            Some(DailyCost {
                compute: dec!(480.00),
                stopped_compute: dec!(0),
                disk: dec!(10.00),
                ip: dec!(0.96),
                total: dec!(490.96),
            })
        );
        let stopped = p.per_day(RentalState::Stopped).expect("figures");
        assert_eq!(
            (stopped.compute, stopped.stopped_compute, stopped.total),
            (dec!(0), dec!(0), dec!(10.96))
        );
        let billed = DailyPrices {
            stopped_hourly: dec!(10.00),
            ..prices()
        };
        let stopped = billed.per_day(RentalState::Stopped).expect("figures");
        assert_eq!((stopped.stopped_compute, stopped.total), (dec!(480.00), dec!(490.96)));
        assert_eq!(p.per_day(RentalState::Released).map(|c| c.total), Some(dec!(0)));
    }

    #[test]
    fn a_partial_stopped_price_and_unbilled_stopped_disks_and_ip_count_as_the_sheet_says() {
        // Stopped: CPU and RAM billed at 3.00 per node-hour, the disks and IP released with the GPU.
        let p = DailyPrices {
            stopped_hourly: dec!(3.00),
            stopped_bills_disk: false,
            stopped_bills_ip: false,
            ..prices()
        };
        let stopped = p.per_day(RentalState::Stopped).expect("figures");
        assert_eq!(
            (stopped.stopped_compute, stopped.disk, stopped.ip, stopped.total),
            (dec!(144.00), dec!(0), dec!(0), dec!(144.00))
        );
        let running = p.per_day(RentalState::Running).expect("figures");
        assert_eq!(running.total, dec!(490.96));
    }

    #[test]
    fn a_weekly_package_bills_a_seventh_a_day() {
        let p = DailyPrices {
            monthly_price: Some(dec!(700)),
            package_days: dec!(7),
            ..prices()
        };
        let c = p.per_day(RentalState::Running).expect("figures");
        assert_eq!(c.compute, dec!(200.00));
    }

    #[test]
    fn each_line_is_rounded_to_the_cent_before_the_sum() {
        // 1 node, 100 GB at 0.10/GB-month: 10 ÷ 30 = 0.3333… → 0.33; IP 0.001 × 24 = 0.024 → 0.02.
        let p = DailyPrices {
            nodes: 1,
            node_hourly: dec!(3.3333),
            disk_gb: dec!(100),
            disk_price_gb_month: dec!(0.10),
            public_ip_hourly: dec!(0.001),
            ..prices()
        };
        let c = p.per_day(RentalState::Running).expect("figures");
        // 3.3333 × 24 = 79.9992 → 80.00
        assert_eq!(
            (c.compute, c.disk, c.ip, c.total),
            (dec!(80.00), dec!(0.33), dec!(0.02), dec!(80.35))
        );
    }

    #[test]
    fn a_monthly_commitment_bills_a_thirtieth_a_day_running_or_stopped() {
        let p = DailyPrices {
            monthly_price: Some(dec!(5000)),
            stopped_hourly: dec!(10.00),
            ..prices()
        };
        for state in [RentalState::Running, RentalState::Stopped] {
            let c = p.per_day(state).expect("figures");
            // 5000 × 2 ÷ 30 = 333.333… → 333.33
            assert_eq!(
                (c.compute, c.stopped_compute, c.total),
                (dec!(333.33), dec!(0), dec!(344.29))
            );
        }
    }

    proptest! {
        #[test]
        fn stopping_never_costs_more_than_running_and_the_total_is_the_sum(
            hourly in 0u32..100_000, nodes in 1u32..64, disk in 0u32..100_000, billed in any::<bool>()
        ) {
            let node_hourly = Decimal::new(i64::from(hourly), 2);
            let p = DailyPrices {
                node_hourly,
                nodes,
                disk_gb: Decimal::from(disk),
                stopped_hourly: if billed { node_hourly } else { Decimal::ZERO },
                ..prices()
            };
            let run = p.per_day(RentalState::Running).expect("figures");
            let stop = p.per_day(RentalState::Stopped).expect("figures");
            prop_assert!(stop.total <= run.total);
            prop_assert_eq!(run.total, run.compute + run.stopped_compute + run.disk + run.ip);
            prop_assert_eq!(stop.total == run.total, billed || hourly == 0);
        }
    }
}
