//! The non-compute cost lines (stopped compute, disk, IP, traffic, snapshots, fees) and the
//! idle share.

use super::arith::{add, div, mul, product, sub, sum};
use super::billing::HOURS_PER_MONTH;
use super::error::TcoError;
use super::estimate::{ComponentKind, CostComponent, Unit};
use super::model::{Assumptions, NodeShape, PriceSheet};
use rust_decimal::Decimal;

/// Everything the cost lines depend on besides the price sheet's compute prices.
pub(crate) struct Rental<'a> {
    pub sheet: &'a PriceSheet,
    pub shape: &'a NodeShape,
    pub assumptions: &'a Assumptions,
    pub nodes: Decimal,
    pub node_hourly: Decimal,
    pub rental_h: Decimal,
}

/// A line from its parts, with the cost rounded to the minor unit.
fn line(
    kind: ComponentKind,
    unit: Unit,
    quantity: Decimal,
    unit_price: Option<Decimal>,
    exact_cost: Decimal,
    rental: &Rental<'_>,
) -> CostComponent {
    let cost = rental.sheet.currency.round(exact_cost);
    CostComponent {
        kind,
        unit,
        quantity,
        unit_price,
        cost,
    }
}

impl Rental<'_> {
    /// Stopped hours × node price × nodes if stopped nodes bill compute, else 0.
    pub fn stopped_compute(&self) -> Result<CostComponent, TcoError> {
        const F: &str = "estimate.stopped_compute";
        let quantity = mul(self.assumptions.stopped_h, self.nodes, F)?;
        let price = if self.sheet.stopped_bills_compute {
            self.node_hourly
        } else {
            Decimal::ZERO
        };
        let exact = mul(quantity, price, F)?;
        Ok(line(
            ComponentKind::StoppedCompute,
            Unit::NodeHour,
            quantity,
            Some(price),
            exact,
            self,
        ))
    }

    /// Disk GB-months and their exact cost over `hours`.
    fn disk_exact(&self, hours: Decimal) -> Result<(Decimal, Decimal), TcoError> {
        const F: &str = "estimate.disk";
        let gb = add(self.shape.system_disk_gb, self.shape.data_disk_gb, F)?;
        let gb_hours = product(&[gb, hours, self.nodes], F)?;
        let quantity = div(gb_hours, HOURS_PER_MONTH, F)?;
        let exact = div(mul(gb_hours, self.sheet.disk_price_gb_month, F)?, HOURS_PER_MONTH, F)?;
        Ok((quantity, exact))
    }

    /// (System + data GB) × price per GB-month × rental hours ÷ 730 × nodes.
    pub fn disk(&self) -> Result<CostComponent, TcoError> {
        let (quantity, exact) = self.disk_exact(self.rental_h)?;
        let price = Some(self.sheet.disk_price_gb_month);
        Ok(line(ComponentKind::Disk, Unit::GbMonth, quantity, price, exact, self))
    }

    /// IP-hours and their exact cost over `hours`.
    fn ip_exact(&self, hours: Decimal) -> Result<(Decimal, Decimal), TcoError> {
        let quantity = mul(hours, self.nodes, "estimate.public_ip")?;
        Ok((
            quantity,
            mul(quantity, self.sheet.public_ip_hourly, "estimate.public_ip")?,
        ))
    }

    /// Public IP price per hour × rental hours × nodes.
    pub fn public_ip(&self) -> Result<CostComponent, TcoError> {
        let (quantity, exact) = self.ip_exact(self.rental_h)?;
        let price = Some(self.sheet.public_ip_hourly);
        Ok(line(
            ComponentKind::PublicIp,
            Unit::IpHour,
            quantity,
            price,
            exact,
            self,
        ))
    }

    /// max(0, egress − free egress) × egress price + ingress × ingress price.
    pub fn traffic(&self) -> Result<CostComponent, TcoError> {
        const F: &str = "estimate.traffic";
        let (s, a) = (self.sheet, self.assumptions);
        let egress_gb = sub(a.egress_gb, s.free_egress_gb, F)?.max(Decimal::ZERO);
        let egress = mul(egress_gb, s.egress_price_gb, F)?;
        let ingress = mul(a.ingress_gb, s.ingress_price_gb, F)?;
        let exact = add(egress, ingress, F)?;
        let (quantity, price) = if ingress.is_zero() {
            (egress_gb, Some(s.egress_price_gb))
        } else if egress.is_zero() {
            (a.ingress_gb, Some(s.ingress_price_gb))
        } else {
            (add(egress_gb, a.ingress_gb, F)?, None)
        };
        Ok(line(ComponentKind::Traffic, Unit::Gb, quantity, price, exact, self))
    }

    /// Snapshot GB × price per GB-month × months kept.
    pub fn snapshots(&self) -> Result<CostComponent, TcoError> {
        let quantity = mul(
            self.assumptions.snapshot_gb,
            self.assumptions.snapshot_months,
            "estimate.snapshots",
        )?;
        let price = self.sheet.snapshot_price_gb_month;
        let exact = mul(quantity, price, "estimate.snapshots")?;
        Ok(line(
            ComponentKind::Snapshots,
            Unit::GbMonth,
            quantity,
            Some(price),
            exact,
            self,
        ))
    }

    /// One line per fixed fee on the sheet.
    pub fn other_fees(&self) -> Vec<CostComponent> {
        let fees = self.sheet.other_fees.iter();
        fees.map(|f| {
            let kind = ComponentKind::OtherFee(f.label.clone());
            line(kind, Unit::Item, Decimal::ONE, Some(f.amount), f.amount, self)
        })
        .collect()
    }

    /// Under the monthly plan stopped time is covered by the commitment: the stopped line
    /// keeps its node-hours at price 0.
    pub fn stopped_in_commitment(&self) -> Result<CostComponent, TcoError> {
        let quantity = mul(self.assumptions.stopped_h, self.nodes, "estimate.stopped_compute")?;
        Ok(line(
            ComponentKind::StoppedCompute,
            Unit::NodeHour,
            quantity,
            Some(Decimal::ZERO),
            Decimal::ZERO,
            self,
        ))
    }

    /// Of which idle under the monthly plan: idle-while-running, stopped and unused hours
    /// (idle + stopped + `unused_h`) × nodes × `monthly_price` ÷ 730, rounded, plus disk and IP
    /// during stopped hours, each rounded.
    pub fn idle_cost_monthly(&self, monthly_price: Decimal, unused_h: Decimal) -> Result<Decimal, TcoError> {
        const F: &str = "estimate.idle_cost";
        let round = |x| self.sheet.currency.round(x);
        let a = self.assumptions;
        let idle_h = sum([a.idle_h, a.stopped_h, unused_h], F)?;
        let paid = div(product(&[idle_h, self.nodes, monthly_price], F)?, HOURS_PER_MONTH, F)?;
        let disk = self.disk_exact(a.stopped_h)?.1;
        let ip = self.ip_exact(a.stopped_h)?.1;
        sum([round(paid), round(disk), round(ip)], F)
    }

    /// Of which idle: the idle-while-running share of `compute_cost` (idle ÷ busy hours),
    /// `stopped_cost`, and disk and IP during stopped hours — each rounded, then summed.
    pub fn idle_cost(
        &self,
        compute_cost: Decimal,
        busy_h: Decimal,
        stopped_cost: Decimal,
    ) -> Result<Decimal, TcoError> {
        const F: &str = "estimate.idle_cost";
        let round = |x| self.sheet.currency.round(x);
        let running_idle = if busy_h.is_zero() {
            Decimal::ZERO
        } else {
            div(mul(compute_cost, self.assumptions.idle_h, F)?, busy_h, F)?
        };
        let stopped_h = self.assumptions.stopped_h;
        let disk = self.disk_exact(stopped_h)?.1;
        let ip = self.ip_exact(stopped_h)?.1;
        sum([round(running_idle), stopped_cost, round(disk), round(ip)], F)
    }
}
