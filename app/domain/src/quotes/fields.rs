//! The fields of a quote revision by their column names (`spec.cuda`, `price.basis`, …): what
//! an order's checklist answer may cite as evidence from the chosen quote.

/// Every field of a quote revision, in the order the quote form shows them (the same names as
/// the CSV [`super::COLUMNS`], which list them in export order).
pub const QUOTE_FIELDS: &[&str] = &[
    "vendor",
    "reference",
    "received_on",
    "valid_until",
    "notes",
    "spec.gpu_model",
    "spec.gpus_per_node",
    "spec.vram_gib",
    "spec.usable_vram_gib",
    "spec.form_factor",
    "spec.sharing",
    "spec.interconnect",
    "spec.memory_pooling",
    "spec.cpu_model",
    "spec.vcpus",
    "spec.ram_gib",
    "spec.system_disk_gb",
    "spec.system_disk_type",
    "spec.data_disk_gb",
    "spec.data_disk_type",
    "spec.data_disk_survives_release",
    "spec.temp_disk_wiped",
    "spec.snapshots",
    "spec.object_storage",
    "spec.public_bandwidth_mbps",
    "spec.internal_bandwidth_gbps",
    "spec.network_gbps",
    "spec.rdma",
    "spec.region",
    "spec.os",
    "spec.nvidia_driver",
    "spec.cuda",
    "spec.cudnn",
    "spec.rocm",
    "spec.docker_allowed",
    "spec.root_ssh",
    "currency",
    "price.basis",
    "price.on_demand_hourly",
    "price.billing_increment",
    "price.minimum_billable_hours",
    "price.monthly_price",
    "price.monthly_basis",
    "price.commitment_months",
    "price.package_period",
    "price.early_release_refund",
    "price.stopped_bills_compute",
    "price.stopped_compute_share",
    "price.stopped_hourly",
    "price.stopped_bills_disk",
    "price.stopped_bills_ip",
    "price.disk_price_gb_month",
    "price.snapshot_price_gb_month",
    "price.egress_price_gb",
    "price.free_egress_gb",
    "price.egress_tiers",
    "price.traffic_period",
    "price.ingress_price_gb",
    "price.ingress_tiers",
    "price.public_ip_hourly",
    "price.other_fees",
    "auto_renewal",
    "early_release",
    "nodes_available",
    "lead_time_hours",
];

/// Whether `column` names a field of a quote revision.
#[must_use]
pub fn is_quote_field(column: &str) -> bool {
    QUOTE_FIELDS.contains(&column)
}

#[cfg(test)]
mod tests {
    use super::{QUOTE_FIELDS, is_quote_field};
    use crate::quotes::COLUMNS;
    use crate::tco::test_fixtures::sheet;
    use crate::tco::{
        BillingIncrement, EarlyReleaseRefund, Fee, PriceBasis, PriceSheet, TrafficPeriod, TrafficTier, UnstatedPrice,
    };
    use rust_decimal_macros::dec;
    use std::collections::BTreeSet;

    #[test]
    fn the_quote_fields_are_the_csv_columns_each_once() {
        let fields: BTreeSet<&str> = QUOTE_FIELDS.iter().copied().collect();
        let columns: BTreeSet<&str> = COLUMNS.iter().map(|c| c.name).collect();
        assert_eq!(fields.len(), QUOTE_FIELDS.len(), "a field is listed twice");
        assert_eq!(fields, columns);
        // 56 before price sheet v3, which added 9 price fields (see the test below).
        assert_eq!(QUOTE_FIELDS.len(), 65);
        assert_eq!(QUOTE_FIELDS.first(), Some(&"vendor"));
        assert_eq!(QUOTE_FIELDS.last(), Some(&"lead_time_hours"));
    }

    /// Every field of a price sheet is a quote field (`price.<name>`, the currency `currency`),
    /// except `not_stated`, which the blank cells of the stated prices say.
    #[test]
    fn every_price_sheet_field_is_a_quote_field() {
        let tier = |up_to_gb| TrafficTier {
            up_to_gb,
            price_gb: dec!(0.09),
        };
        // Every optional part set and every switch off its default, so that serde writes every key.
        let sheet = PriceSheet {
            monthly_price: Some(dec!(9000)),
            monthly_basis: Some(PriceBasis::PerNode),
            commitment_months: Some(1),
            package_period: Some(BillingIncrement::WEEK),
            early_release_refund: Some(EarlyReleaseRefund::ProratedDay),
            stopped_bills_compute: true,
            stopped_compute_share: Some(dec!(0.3)),
            stopped_hourly: Some(dec!(1)),
            stopped_bills_disk: false,
            stopped_bills_ip: false,
            egress_tiers: vec![tier(Some(dec!(1000))), tier(None)],
            ingress_tiers: vec![tier(None)],
            traffic_period: Some(TrafficPeriod::Month),
            other_fees: vec![Fee {
                label: "setup".into(),
                amount: dec!(1),
            }],
            not_stated: vec![UnstatedPrice::Disk],
            ..sheet(dec!(10))
        };
        let json = serde_json::to_value(&sheet).expect("json");
        let keys: Vec<&String> = json.as_object().expect("an object").keys().collect();
        assert_eq!(keys.len(), 26, "{keys:?}");
        for key in keys.into_iter().filter(|k| *k != "not_stated") {
            let column = if key == "currency" {
                key.clone()
            } else {
                format!("price.{key}")
            };
            assert!(is_quote_field(&column), "{column} is not a quote field");
        }
    }

    #[test]
    fn only_named_fields_count() {
        assert!(is_quote_field("spec.cuda"));
        assert!(is_quote_field("price.stopped_bills_compute"));
        assert!(!is_quote_field("spec"));
        assert!(!is_quote_field("spec.cuda "));
        assert!(!is_quote_field("password_hash"));
        assert!(!is_quote_field(""));
    }
}
