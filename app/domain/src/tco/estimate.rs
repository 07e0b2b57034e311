//! The result of an estimate: hours, cost components, totals and warnings.

use super::billing::BreakEven;
use super::currency::Currency;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// What a cost component pays for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ComponentKind {
    /// Running time billed at the on-demand hourly price.
    OnDemandCompute,
    /// Running time covered by a monthly commitment.
    MonthlyCommitment,
    /// Compute billed while the node is stopped but not released.
    StoppedCompute,
    /// System and data disks for the whole rental.
    Disk,
    /// Public IP addresses for the whole rental.
    PublicIp,
    /// Outbound traffic above the free allowance, plus inbound traffic.
    Traffic,
    /// Snapshot storage.
    Snapshots,
    /// A fixed fee from the price sheet, with its label.
    OtherFee(String),
    /// What an early release of a package gives back (a negative amount).
    EarlyReleaseRefund,
}

/// The unit a component's quantity is counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// One node for one hour.
    NodeHour,
    /// One node for one month.
    NodeMonth,
    /// One GB stored for one month (730 hours).
    GbMonth,
    /// One GB transferred.
    Gb,
    /// One public IP address for one hour.
    IpHour,
    /// One item (a fixed fee).
    Item,
}

/// One line of the estimate: quantity × unit price, rounded to the currency's minor unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostComponent {
    /// What is paid for.
    pub kind: ComponentKind,
    /// The unit of `quantity`.
    pub unit: Unit,
    /// How many units are billed.
    pub quantity: Decimal,
    /// Price per unit; `None` when the line mixes prices (traffic billed both ways).
    pub unit_price: Option<Decimal>,
    /// The cost, rounded half away from zero to the minor unit.
    pub cost: Decimal,
    /// The traffic line's bands (free allowance, tiers), each quantity × price; empty for every
    /// other line and for flat traffic prices.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bands: Vec<super::traffic::TrafficBand>,
}

/// Which compute pricing the total uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pricing {
    /// Billed by the hour (also chosen when monthly costs exactly the same).
    OnDemand,
    /// Monthly commitment, because it is strictly cheaper.
    Monthly,
}

/// Which group a quote is ranked in (rule 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuoteGroup {
    /// Compute time from a measured throughput.
    Measured,
    /// Compute time from a throughput someone stated (typed by hand, e.g. a vendor's brochure
    /// figure) but no run measured: "stated, not measured", ranked after every measured quote.
    Stated,
    /// Compute time from the workload's stated run length: estimated, not measured.
    Estimated,
}

/// Where the compute hours come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ComputeBasis {
    /// Total work ÷ planned throughput (the measured one moved to the planned node count).
    MeasuredThroughput,
    /// The workload's stated run length.
    StatedRunLength,
}

/// Cost per unit of work, scaled so the figure is at least 0.01 where possible.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostPerUnit {
    /// How many units the amount is for: 1, 1,000 or 1,000,000.
    pub per: u32,
    /// The cost of `per` units, rounded to two digits more than the currency's minor unit.
    pub amount: Decimal,
    /// The work unit, e.g. `"tokens"`.
    pub unit: String,
}

/// Something the buyer should know about how the figure was reached.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum TcoWarning {
    /// No measured throughput applied: compute time is the workload's stated run length.
    ThroughputAssumed,
    /// A measured throughput was used; the stated run length was ignored.
    StatedRunLengthIgnored {
        /// The ignored run length, hours.
        run_hours: Decimal,
    },
    /// The chosen node count gives fewer GPUs than the workload needs.
    NodesBelowRequirement {
        /// Nodes needed for the workload's GPUs.
        needed: u32,
        /// Nodes chosen by the user.
        chosen: u32,
    },
    /// The busy time is shorter than the minimum billable duration, which is billed instead.
    MinimumBillableApplied {
        /// The minimum billable duration, hours per node.
        minimum_h: Decimal,
    },
    /// The workload uses something whose price the vendor did not state (disk, snapshots,
    /// traffic): it is costed at 0, so the total is a lower bound, incomplete until the vendor
    /// states the price.
    PriceNotStated {
        /// The price not stated.
        price: super::model::UnstatedPrice,
    },
}

/// The total cost of ownership of one quote for one workload. Hours are per node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Estimate {
    /// The currency of every amount.
    pub currency: Currency,
    /// Nodes rented.
    pub nodes: u32,
    /// On-demand price of one node per hour; `None` when the sheet offers no on-demand price.
    pub node_hourly: Option<Decimal>,
    /// Where `compute_h` comes from.
    pub compute_basis: ComputeBasis,
    /// Scaling efficiency e(n) on the planned nodes (1 for one node); `None` for a stated run
    /// length.
    pub efficiency_used: Option<Decimal>,
    /// Nodes the measured throughput ran on (`n_run`); `None` for a stated run length.
    pub n_run: Option<u32>,
    /// One-node throughput T1 = T_run ÷ (n_run × e_run), units per second; `None` for a stated
    /// run length.
    pub one_node_throughput_per_s: Option<Decimal>,
    /// Throughput planned on `nodes` nodes = T_run × n × e(n) ÷ (n_run × e_run) (exactly T_run
    /// when n = n_run), units per second; `None` for a stated run length.
    pub planned_throughput_per_s: Option<Decimal>,
    /// Hours of useful compute.
    pub compute_h: Decimal,
    /// Hours the node runs: overheads + idle + compute × (1 + re-run share).
    pub busy_h: Decimal,
    /// Running hours billed per node (rounded up to the increment, at least the minimum).
    pub billable_h: Decimal,
    /// Hours stopped but not released.
    pub stopped_h: Decimal,
    /// Hours rented: busy + stopped.
    pub rental_h: Decimal,
    /// Hours until the results are out (= `busy_h`).
    pub time_to_finish_h: Decimal,
    /// The cost lines; `total` is their sum.
    pub components: Vec<CostComponent>,
    /// The compute pricing in the total.
    pub pricing_used: Pricing,
    /// The compute side on demand: billable running time plus stopped compute, each rounded;
    /// `None` when the sheet offers no on-demand price.
    pub on_demand_compute: Option<Decimal>,
    /// The compute side under the monthly commitment (covers running and stopped time), if
    /// the sheet offers one.
    pub monthly_compute: Option<Decimal>,
    /// Paid but unrented hours per node of the commitment, when the total uses it.
    pub unused_commitment_h: Option<Decimal>,
    /// When the commitment beats on demand within its term, if the sheet offers one.
    pub break_even: Option<BreakEven>,
    /// The sum of the rounded components.
    pub total: Decimal,
    /// Of which idle: idle share of compute, stopped compute (on demand) or idle, stopped and
    /// unused commitment hours (monthly), disk and IP while stopped.
    pub idle_cost: Decimal,
    /// Total cost per unit of work, when the total work is known.
    pub cost_per_unit: Option<CostPerUnit>,
    /// Total ÷ GPU-hours of useful compute, when there is compute.
    pub effective_gpu_hour_price: Option<Decimal>,
    /// Notes on how the figure was reached.
    pub warnings: Vec<TcoWarning>,
}

impl Estimate {
    /// The component of `kind`, if present.
    pub fn component(&self, kind: &ComponentKind) -> Option<&CostComponent> {
        self.components.iter().find(|c| &c.kind == kind)
    }
}
