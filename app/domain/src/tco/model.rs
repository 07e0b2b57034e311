//! The inputs: a vendor's price sheet, the node shape, the workload and the assumptions.
//!
//! Every decimal is written as a JSON string (`"10.00"`), never as a float, and unknown fields
//! are rejected so that a scenario file with a typo fails instead of being silently ignored.

use super::currency::Currency;
use super::error::TcoError;
use super::throughput::{
    EfficiencyPoint, EfficiencySource, RunThroughput, Scaling, measured_points, scaling_efficiency,
};
use crate::runs::GpuUse;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// What the on-demand hourly price is quoted for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PriceBasis {
    /// The price is for the whole node.
    PerNode,
    /// The price is for one GPU; a node costs this × GPUs per node.
    PerGpu,
}

/// A usage price the vendor did not state. Its amount on the sheet is then 0 only as a
/// placeholder: the cost it would price is unknown, and an estimate that needs it says so
/// ([`super::TcoWarning::PriceNotStated`]: the total is a lower bound).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnstatedPrice {
    /// `disk_price_gb_month`.
    Disk,
    /// `snapshot_price_gb_month`.
    Snapshot,
    /// `egress_price_gb`.
    Egress,
    /// `ingress_price_gb`.
    Ingress,
    /// `stopped_bills_compute` (false stands in: stopped hours are costed as not billing
    /// compute, a lower bound).
    StoppedCompute,
}

pub use super::period::BillingIncrement;

/// Whether stopped time bills compute, and at what price per node-hour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoppedCompute {
    /// A stopped node bills no compute.
    Free,
    /// The full on-demand price of the node.
    Full,
    /// This share of the on-demand price, in (0, 1): e.g. CPU and RAM billed, the GPU not.
    Share(Decimal),
    /// A stopped rate per node-hour of its own.
    Rate(Decimal),
}

/// What a traffic allowance and the tiers are counted over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrafficPeriod {
    /// The whole rental: one allowance, the tiers counted once.
    Rental,
    /// Each billing month (730 h) of the rental: the traffic is spread evenly over the months the
    /// rental touches (⌈rental hours ÷ 730⌉), each month has its allowance and starts the tiers
    /// again.
    Month,
}

/// One band of a tiered traffic price: the GB up to `up_to_gb` (counted from the end of the
/// band before) at `price_gb`; the last band has no upper bound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrafficTier {
    /// Where the band ends, GB counted from the first GB billed in the period (after the
    /// allowance); `None` for the last, open band.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub up_to_gb: Option<Decimal>,
    /// The price per GB in this band.
    #[serde(with = "rust_decimal::serde::str")]
    pub price_gb: Decimal,
}

/// What is given back when a package is released before the time paid for ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EarlyReleaseRefund {
    /// Nothing: the periods paid for are due in full.
    None,
    /// The unused whole days beyond the minimum term, pro rata.
    ProratedDay,
    /// The unused whole hours beyond the minimum term, pro rata.
    ProratedHour,
}

/// A fixed fee on the price sheet (set-up fee, support plan …).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fee {
    /// What the fee is for, as the vendor names it.
    pub label: String,
    /// The amount, in the sheet's currency.
    #[serde(with = "rust_decimal::serde::str")]
    pub amount: Decimal,
}

/// A vendor's prices for one node type. All amounts are in `currency`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceSheet {
    /// The currency of every amount on this sheet.
    pub currency: Currency,
    /// Whether `on_demand_hourly` is per node or per GPU.
    pub basis: PriceBasis,
    /// On-demand price per hour; `None` when the vendor offers no on-demand price (a sheet of
    /// packages only). A price of 0 is a free offer, never "not offered".
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub on_demand_hourly: Option<Decimal>,
    /// The billing step for running time (any whole number of seconds, see [`BillingIncrement`]).
    pub billing_increment: BillingIncrement,
    /// The shortest running time billed per node, in hours (0 if none).
    #[serde(with = "rust_decimal::serde::str")]
    pub minimum_billable_hours: Decimal,
    /// The package price per period (`package_period`, a month when absent) under a commitment,
    /// if offered, for what `monthly_basis` says.
    #[serde(default, with = "rust_decimal::serde::str_option")]
    pub monthly_price: Option<Decimal>,
    /// What `monthly_price` is quoted for. Quotes entered or imported since the monthly price
    /// follows the price basis carry it (the basis they were entered on); absent means **per
    /// node**, because that is how every quote and scenario written before this field read
    /// their monthly price, whatever `basis` said, and a stored record keeps its meaning.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub monthly_basis: Option<PriceBasis>,
    /// The minimum commitment term, counted in package periods (months for a monthly price), if
    /// a package price is offered.
    #[serde(default)]
    pub commitment_months: Option<u32>,
    /// The period one package price pays for: a month (730 h) when absent, else a week, a day or
    /// a block of hours (`100 h` is written `360000s`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package_period: Option<BillingIncrement>,
    /// What releasing a package early gives back; absent: nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub early_release_refund: Option<EarlyReleaseRefund>,
    /// Whether a stopped (not released) instance still bills compute (false as a placeholder
    /// when `not_stated` lists [`UnstatedPrice::StoppedCompute`]).
    pub stopped_bills_compute: bool,
    /// With `stopped_bills_compute`: the share of the on-demand price a stopped node still
    /// bills, in (0, 1) (CPU and RAM billed, the GPU not). Absent: the full price.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub stopped_compute_share: Option<Decimal>,
    /// With `stopped_bills_compute`: a stopped price per node-hour of its own, instead of a
    /// share. Absent: the full (or shared) on-demand price.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub stopped_hourly: Option<Decimal>,
    /// Whether disks bill while the node is stopped (true when absent, as every sheet written
    /// before the field read).
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub stopped_bills_disk: bool,
    /// Whether the public IP bills while the node is stopped (true when absent).
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub stopped_bills_ip: bool,
    /// Disk price per GB and month.
    #[serde(with = "rust_decimal::serde::str")]
    pub disk_price_gb_month: Decimal,
    /// Snapshot storage price per GB and month.
    #[serde(with = "rust_decimal::serde::str")]
    pub snapshot_price_gb_month: Decimal,
    /// Outbound traffic price per GB.
    #[serde(with = "rust_decimal::serde::str")]
    pub egress_price_gb: Decimal,
    /// Outbound GB included free, for the whole rental or each month (`traffic_period`).
    #[serde(with = "rust_decimal::serde::str")]
    pub free_egress_gb: Decimal,
    /// Tiered outbound prices, beyond the free GB; when given, `egress_price_gb` is 0.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub egress_tiers: Vec<TrafficTier>,
    /// Tiered inbound prices; when given, `ingress_price_gb` is 0.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ingress_tiers: Vec<TrafficTier>,
    /// What the free GB and the tiers are counted over: the whole rental when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traffic_period: Option<TrafficPeriod>,
    /// Inbound traffic price per GB.
    #[serde(with = "rust_decimal::serde::str")]
    pub ingress_price_gb: Decimal,
    /// Public IP address price per hour and node.
    #[serde(with = "rust_decimal::serde::str")]
    pub public_ip_hourly: Decimal,
    /// Fixed fees charged once.
    pub other_fees: Vec<Fee>,
    /// The usage prices the vendor did not state (their amounts above are 0 placeholders).
    /// Absent: every price was stated, as sheets written before this field read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_stated: Vec<UnstatedPrice>,
}

/// Serde default of the stopped-billing switches: billed, as before the fields existed.
const fn yes() -> bool {
    true
}

/// Skips a switch that says what its absence says.
#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
const fn is_yes(value: &bool) -> bool {
    *value
}

impl PriceSheet {
    /// How stopped time bills compute: free, the full on-demand price, a share of it or a rate
    /// of its own.
    #[must_use]
    pub fn stopped_compute(&self) -> StoppedCompute {
        match (
            self.stopped_bills_compute,
            self.stopped_hourly,
            self.stopped_compute_share,
        ) {
            (false, _, _) => StoppedCompute::Free,
            (true, Some(rate), _) => StoppedCompute::Rate(rate),
            (true, None, Some(share)) => StoppedCompute::Share(share),
            (true, None, None) => StoppedCompute::Full,
        }
    }

    /// The package period: `package_period`, a month when absent.
    #[must_use]
    pub fn package_period(&self) -> BillingIncrement {
        self.package_period.unwrap_or(BillingIncrement::MONTH)
    }

    /// What the free GB and tiers are counted over: `traffic_period`, the rental when absent.
    #[must_use]
    pub fn traffic_period(&self) -> TrafficPeriod {
        self.traffic_period.unwrap_or(TrafficPeriod::Rental)
    }

    /// What the monthly price is quoted for: `monthly_basis`, per node when absent.
    #[must_use]
    pub fn monthly_price_basis(&self) -> PriceBasis {
        self.monthly_basis.unwrap_or(PriceBasis::PerNode)
    }

    /// The monthly price of one node: the monthly price × `gpus_per_node` when it is per GPU
    /// (1,200 per GPU-month on an 8-GPU node = 9,600), as it is when per node. `None` without a
    /// monthly price or when the product overflows.
    #[must_use]
    pub fn monthly_per_node(&self, gpus_per_node: u32) -> Option<Decimal> {
        let price = self.monthly_price?;
        match self.monthly_price_basis() {
            PriceBasis::PerNode => Some(price),
            PriceBasis::PerGpu => price.checked_mul(Decimal::from(gpus_per_node)),
        }
    }
}

/// A per-node price sheet that states only the on-demand price, how it is billed and whether a
/// stopped node still bills compute (all that a catalogue import such as SkyPilot's knows): no
/// minimum, no monthly offer, no public IP or other fees; disk, snapshot and traffic prices are
/// *not stated* (a catalogue does not say them, which is not saying they are free).
#[must_use]
pub fn on_demand_sheet(
    currency: Currency,
    on_demand_hourly: Decimal,
    billing_increment: BillingIncrement,
    stopped_bills_compute: bool,
) -> PriceSheet {
    PriceSheet {
        currency,
        basis: PriceBasis::PerNode,
        on_demand_hourly: Some(on_demand_hourly),
        billing_increment,
        minimum_billable_hours: Decimal::ZERO,
        monthly_price: None,
        monthly_basis: None,
        commitment_months: None,
        package_period: None,
        early_release_refund: None,
        stopped_bills_compute,
        stopped_compute_share: None,
        stopped_hourly: None,
        stopped_bills_disk: true,
        stopped_bills_ip: true,
        disk_price_gb_month: Decimal::ZERO,
        snapshot_price_gb_month: Decimal::ZERO,
        egress_price_gb: Decimal::ZERO,
        free_egress_gb: Decimal::ZERO,
        egress_tiers: Vec::new(),
        ingress_tiers: Vec::new(),
        traffic_period: None,
        ingress_price_gb: Decimal::ZERO,
        public_ip_hourly: Decimal::ZERO,
        other_fees: Vec::new(),
        not_stated: vec![
            UnstatedPrice::Disk,
            UnstatedPrice::Snapshot,
            UnstatedPrice::Egress,
            UnstatedPrice::Ingress,
        ],
    }
}

/// The node type offered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeShape {
    /// GPUs in one node.
    pub gpus_per_node: u32,
    /// System disk size per node, GB.
    #[serde(with = "rust_decimal::serde::str")]
    pub system_disk_gb: Decimal,
    /// Data disk size per node, GB.
    #[serde(with = "rust_decimal::serde::str")]
    pub data_disk_gb: Decimal,
}

/// The total amount of work, e.g. 2,000,000,000 tokens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TotalWork {
    /// How many units.
    #[serde(with = "rust_decimal::serde::str")]
    pub amount: Decimal,
    /// The unit, e.g. `"tokens"` or `"images"`.
    pub unit: String,
}

/// How much work has to be done, as the cost engine needs it (the team's workload record is
/// `quotes::Workload`, which converts with `to_tco`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Demand {
    /// GPUs the workload needs at once.
    pub gpus_needed: u32,
    /// The total work, if known (needed for a measured-throughput estimate and cost per unit).
    #[serde(default)]
    pub total_work: Option<TotalWork>,
    /// The stated run length in hours, used when no measured throughput applies.
    #[serde(default, with = "rust_decimal::serde::str_option")]
    pub run_hours: Option<Decimal>,
    /// How the work uses a node's GPUs, which sets how it scales with GPUs and nodes (the
    /// module docs' node-scaling rule). Absent: as every scenario written before the field read,
    /// the stated run length is the compute time on any node, and nodes scale by the assumed
    /// efficiency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_use: Option<crate::runs::GpuUse>,
}

/// The buyer's assumptions about how the rental will be used. Hours are per node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Assumptions {
    /// Hours to set the node up.
    #[serde(with = "rust_decimal::serde::str")]
    pub setup_h: Decimal,
    /// Hours of data preparation on the node.
    #[serde(with = "rust_decimal::serde::str")]
    pub data_prep_h: Decimal,
    /// Hours downloading models and data.
    #[serde(with = "rust_decimal::serde::str")]
    pub download_h: Decimal,
    /// Hours exporting results.
    #[serde(with = "rust_decimal::serde::str")]
    pub export_h: Decimal,
    /// Hours the node runs but sits idle.
    #[serde(with = "rust_decimal::serde::str")]
    pub idle_h: Decimal,
    /// Hours the node is shut down but not released.
    #[serde(with = "rust_decimal::serde::str")]
    pub stopped_h: Decimal,
    /// Share of compute repeated because of failures, in `[0, 1)` (0.1 = 10 % extra).
    #[serde(with = "rust_decimal::serde::str")]
    pub rerun_share: Decimal,
    /// Outbound traffic, GB.
    #[serde(with = "rust_decimal::serde::str")]
    pub egress_gb: Decimal,
    /// Inbound traffic, GB.
    #[serde(with = "rust_decimal::serde::str")]
    pub ingress_gb: Decimal,
    /// Snapshot size kept, GB.
    #[serde(with = "rust_decimal::serde::str")]
    pub snapshot_gb: Decimal,
    /// Months the snapshots are kept.
    #[serde(with = "rust_decimal::serde::str")]
    pub snapshot_months: Decimal,
    /// A node count chosen by the user instead of the computed one.
    #[serde(default)]
    pub nodes: Option<u32>,
    /// Multi-node scaling efficiency in `(0, 1]`; a single node always counts as 1.
    #[serde(with = "rust_decimal::serde::str")]
    pub efficiency: Decimal,
    /// Measured steady-state throughput `T_run`, work units per second, of the whole run on
    /// `n_run` nodes (rule 2 of the module documentation turns it into the planned throughput).
    #[serde(default, with = "rust_decimal::serde::str_option")]
    pub measured_throughput_per_s: Option<Decimal>,
    /// Nodes the measured throughput ran on (`n_run`); absent means 1.
    #[serde(default)]
    pub n_run: Option<u32>,
    /// The efficiency at given node counts, when it depends on the count (stated, or what the
    /// runs measured): interpolated between them ([`super::throughput::Scaling`]). Empty:
    /// `efficiency` on every count, as files written before the field read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub efficiency_by_nodes: Vec<EfficiencyPoint>,
}

impl Assumptions {
    /// No overheads, no stopped or idle hours, no traffic or snapshots, the planned node count,
    /// efficiency 1 and no measured throughput: the base that stated assumptions are laid on.
    pub const NONE: Assumptions = Assumptions {
        setup_h: Decimal::ZERO,
        data_prep_h: Decimal::ZERO,
        download_h: Decimal::ZERO,
        export_h: Decimal::ZERO,
        idle_h: Decimal::ZERO,
        stopped_h: Decimal::ZERO,
        rerun_share: Decimal::ZERO,
        egress_gb: Decimal::ZERO,
        ingress_gb: Decimal::ZERO,
        snapshot_gb: Decimal::ZERO,
        snapshot_months: Decimal::ZERO,
        nodes: None,
        efficiency: Decimal::ONE,
        measured_throughput_per_s: None,
        n_run: None,
        efficiency_by_nodes: Vec::new(),
    };

    /// The scaling efficiency by node count: `efficiency`, or its points when it has some.
    pub fn scaling(&self) -> Scaling<'_> {
        Scaling {
            flat: self.efficiency,
            points: &self.efficiency_by_nodes,
        }
    }

    /// Sets the scaling by [`scaling_efficiency`]: one task per GPU scales linearly at every
    /// count; measured runs give their efficiency and, by node count, their [`measured_points`];
    /// an assumption keeps the stated figure and points. Returns where the efficiency came from.
    pub fn apply_scaling(&mut self, gpu_use: GpuUse, runs: &[RunThroughput]) -> Result<EfficiencySource, TcoError> {
        let (efficiency, source) = scaling_efficiency(gpu_use, runs, self.efficiency)?;
        self.efficiency = efficiency;
        match source {
            EfficiencySource::TaskPerGpu => self.efficiency_by_nodes.clear(),
            EfficiencySource::Runs => self.efficiency_by_nodes = measured_points(runs)?,
            EfficiencySource::Assumption => {}
        }
        Ok(source)
    }

    /// The node count of the measured run: `n_run`, 1 when absent.
    pub fn run_nodes(&self) -> u32 {
        self.n_run.unwrap_or(1)
    }
}
