//! The snake-case names of enum values in NodeLedger CSV cells.

use crate::quotes::spec::{FormFactor, Interconnect};
use crate::tco::{EarlyReleaseRefund, PriceBasis, TrafficPeriod};

/// `spec.form_factor` values.
pub(crate) const FORM_FACTORS: &[(&str, FormFactor)] = &[
    ("pcie", FormFactor::Pcie),
    ("sxm", FormFactor::Sxm),
    ("other", FormFactor::Other),
];

/// `spec.interconnect` values.
pub(crate) const INTERCONNECTS: &[(&str, Interconnect)] = &[
    ("none", Interconnect::None),
    ("pcie", Interconnect::Pcie),
    ("nvlink", Interconnect::Nvlink),
    ("nvswitch", Interconnect::Nvswitch),
];

/// `price.basis` values.
pub(crate) const BASES: &[(&str, PriceBasis)] = &[("per_node", PriceBasis::PerNode), ("per_gpu", PriceBasis::PerGpu)];

/// `price.early_release_refund` values.
pub(crate) const REFUNDS: &[(&str, EarlyReleaseRefund)] = &[
    ("none", EarlyReleaseRefund::None),
    ("prorated_day", EarlyReleaseRefund::ProratedDay),
    ("prorated_hour", EarlyReleaseRefund::ProratedHour),
];

/// `price.traffic_period` values.
pub(crate) const TRAFFIC_PERIODS: &[(&str, TrafficPeriod)] =
    &[("rental", TrafficPeriod::Rental), ("month", TrafficPeriod::Month)];
