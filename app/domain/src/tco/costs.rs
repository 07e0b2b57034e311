//! The non-compute cost lines (stopped compute, disk, IP, traffic, snapshots, fees) and the
//! idle share.

use super::arith::{add, div, mul, product, sub, sum};
use super::billing::HOURS_PER_MONTH;
use super::error::TcoError;
use super::estimate::{ComponentKind, CostComponent, Unit};
use super::model::{Assumptions, NodeShape, PriceSheet, StoppedCompute};
use super::traffic;
use rust_decimal::Decimal;

/// Everything the cost lines depend on besides the price sheet's compute prices.
pub(crate) struct Rental<'a> {
    pub sheet: &'a PriceSheet,
    pub shape: &'a NodeShape,
    pub assumptions: &'a Assumptions,
    pub nodes: Decimal,
    /// The on-demand price of one node, `None` when the sheet offers none.
    pub node_hourly: Option<Decimal>,
    pub rental_h: Decimal,
    /// Hours the node runs (busy); stopped hours are `rental_h` − `busy_h`.
    pub busy_h: Decimal,
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
        bands: Vec::new(),
    }
}

impl Rental<'_> {
    /// Stopped hours × the stopped price × nodes: the node's on-demand price, a share of it or
    /// a stopped rate of its own as the sheet says, 0 when stopped nodes bill no compute.
    pub fn stopped_compute(&self) -> Result<CostComponent, TcoError> {
        const F: &str = "estimate.stopped_compute";
        let quantity = mul(self.assumptions.stopped_h, self.nodes, F)?;
        let hourly = self.node_hourly.unwrap_or(Decimal::ZERO);
        let price = match self.sheet.stopped_compute() {
            StoppedCompute::Free => Decimal::ZERO,
            StoppedCompute::Full => hourly,
            StoppedCompute::Share(share) => mul(hourly, share, F)?,
            StoppedCompute::Rate(rate) => rate,
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

    /// Hours disks bill: the rental's, or only the busy hours when stopped nodes bill no disks.
    fn disk_hours(&self) -> Decimal {
        if self.sheet.stopped_bills_disk {
            self.rental_h
        } else {
            self.busy_h
        }
    }

    /// Hours the public IP bills: the rental's, or only the busy hours when a stopped node's
    /// IP bills nothing.
    fn ip_hours(&self) -> Decimal {
        if self.sheet.stopped_bills_ip {
            self.rental_h
        } else {
            self.busy_h
        }
    }

    /// Stopped hours that bill disks (0 when stopped nodes bill none).
    fn stopped_disk_h(&self) -> Decimal {
        if self.sheet.stopped_bills_disk {
            self.assumptions.stopped_h
        } else {
            Decimal::ZERO
        }
    }

    /// Stopped hours that bill the IP (0 when a stopped node's IP bills nothing).
    fn stopped_ip_h(&self) -> Decimal {
        if self.sheet.stopped_bills_ip {
            self.assumptions.stopped_h
        } else {
            Decimal::ZERO
        }
    }

    /// (System + data GB) × price per GB-month × hours billed ÷ 730 × nodes.
    pub fn disk(&self) -> Result<CostComponent, TcoError> {
        let (quantity, exact) = self.disk_exact(self.disk_hours())?;
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

    /// Public IP price per hour × hours billed × nodes.
    pub fn public_ip(&self) -> Result<CostComponent, TcoError> {
        let (quantity, exact) = self.ip_exact(self.ip_hours())?;
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

    /// Traffic: flat, max(0, egress − free egress) × egress price + ingress × ingress price;
    /// with tiers or a monthly allowance, band by band ([`traffic`]).
    pub fn traffic(&self) -> Result<CostComponent, TcoError> {
        const F: &str = "estimate.traffic";
        let (s, a) = (self.sheet, self.assumptions);
        if traffic::is_flat(s) {
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
            return Ok(line(ComponentKind::Traffic, Unit::Gb, quantity, price, exact, self));
        }
        let priced = traffic::priced(s, a, self.rental_h)?;
        let mut component = line(
            ComponentKind::Traffic,
            Unit::Gb,
            priced.billed_gb,
            priced.single_price(),
            priced.exact,
            self,
        );
        component.bands = priced.bands;
        Ok(component)
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

    /// Early-release refund of a package: the hours given back × nodes at −(price ÷ period
    /// hours), the amount already exact in `refund`.
    pub fn refund(
        &self,
        refunded_h: Decimal,
        price: Decimal,
        period_h: Decimal,
        refund: Decimal,
    ) -> Result<CostComponent, TcoError> {
        const F: &str = "estimate.refund";
        let quantity = mul(refunded_h, self.nodes, F)?;
        let unit_price = div(price, period_h, F)?;
        Ok(line(
            ComponentKind::EarlyReleaseRefund,
            Unit::NodeHour,
            quantity,
            Some(-unit_price),
            -refund,
            self,
        ))
    }

    /// Of which idle under a package: idle-while-running, stopped and unused hours (idle +
    /// stopped + `unused_h`) × nodes × package price ÷ period hours (730 for a month), rounded,
    /// plus disk and IP during the stopped hours they bill, each rounded.
    pub fn idle_cost_monthly(
        &self,
        monthly_price: Decimal,
        unused_h: Decimal,
        period_h: Decimal,
    ) -> Result<Decimal, TcoError> {
        const F: &str = "estimate.idle_cost";
        let round = |x| self.sheet.currency.round(x);
        let a = self.assumptions;
        let idle_h = sum([a.idle_h, a.stopped_h, unused_h], F)?;
        let paid = div(product(&[idle_h, self.nodes, monthly_price], F)?, period_h, F)?;
        let disk = self.disk_exact(self.stopped_disk_h())?.1;
        let ip = self.ip_exact(self.stopped_ip_h())?.1;
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
        let disk = self.disk_exact(self.stopped_disk_h())?.1;
        let ip = self.ip_exact(self.stopped_ip_h())?.1;
        sum([round(running_idle), stopped_cost, round(disk), round(ip)], F)
    }
}
