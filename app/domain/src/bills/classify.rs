//! Which cost component a bill line pays for, and whether it charges or gives back.
//!
//! The rules, first match wins. FOCUS's own classification comes before words: the charge
//! category, then `ServiceCategory` (FOCUS 1.0–1.2 allowed values such as `Compute`, `Storage`,
//! `Networking`, `AI and Machine Learning`); words are matched in the lower-cased text of
//! `ResourceType`, `ServiceName`, `SkuId`, `ChargeDescription` and the unit, English and Chinese,
//! as vendors write them:
//!
//! | #  | when                                                                    | component        |
//! |----|-------------------------------------------------------------------------|------------------|
//! | 1  | `ChargeCategory` is `Tax`                                               | tax              |
//! | 2  | `ChargeCategory` is `Purchase` (an up-front fee, a commitment bought)    | fees             |
//! | 3  | "snapshot", "快照"                                                       | snapshots        |
//! | 4  | "public ip", "elastic ip", "eip", "ip address", "公网ip", "弹性公网", "ipv4" | IP             |
//! | 5  | "stopped", "停机", "关机" with an instance word (rule 10's words)         | stopped compute  |
//! | 6  | `ServiceCategory` `Storage`                                              | disk             |
//! | 7  | `ServiceCategory` `Networking` with a data unit or a traffic word         | traffic          |
//! | 8  | `ServiceCategory` `Compute` or `AI and Machine Learning`, unit not data or GB-month | compute |
//! | 9  | "egress", "data transfer", "traffic", "bandwidth", "outbound", "internet", "流量", "带宽", or the unit is GB/GiB/TB (not per month) | traffic |
//! | 10 | "disk", "volume", "storage", "ebs", "ssd", "硬盘", "磁盘", "云盘", "存储", or the unit is GB-month or GB-hour | disk |
//! | 11 | "compute", "instance", "gpu", "vm", "virtual machine", "node", "ec2", "ecs", "实例", "计算", "算力", or the unit is hours (of a node or a GPU) | compute |
//! | 12 | anything else (support, setup, marketplace…)                            | fees             |
//!
//! The IP comes before "stopped": "Elastic IP address, instance stopped" is the address a
//! stopped node keeps, billed as an IP (AWS bills an idle Elastic IP by the hour). A stopped
//! node's disks match rule 6 or 10 ("stopped" alone is not enough for rule 5): a stopped but
//! unreleased node's disk is the classic unplanned charge, and it is a disk charge.
//!
//! The kind ([`charge_kind`]): `ChargeClass = Correction` is a correction; `ChargeCategory`
//! `Credit` or `Adjustment` is a credit; anything else is a usage charge, which may not be
//! negative.

use super::{ChargeKind, Component};
use rust_decimal::Decimal;

/// What the rules read of a line.
#[derive(Clone, Copy, Debug, Default)]
pub struct Facts<'a> {
    /// FOCUS `ChargeCategory` (`Usage`, `Purchase`, `Tax`, `Credit`, `Adjustment`).
    pub category: &'a str,
    /// FOCUS `ServiceCategory` (`Compute`, `Storage`, `Networking`…), empty when absent.
    pub service_category: &'a str,
    /// FOCUS `ResourceType` (`Virtual Machine`, `Disk`…), empty when absent.
    pub resource_type: &'a str,
    /// FOCUS `ServiceName`.
    pub service: &'a str,
    /// FOCUS `SkuId` / `SkuPriceId`.
    pub sku: &'a str,
    /// FOCUS `ChargeDescription`.
    pub description: &'a str,
    /// FOCUS `ConsumedUnit` / `PricingUnit`.
    pub unit: &'a str,
}

const SNAPSHOT: &[&str] = &["snapshot", "快照"];
const STOPPED: &[&str] = &["stopped", "停机", "关机", "已停止"];
const IP: &[&str] = &[
    "public ip",
    "elastic ip",
    "eip",
    "ip address",
    "公网ip",
    "弹性公网",
    "ipv4",
    "publicip",
];
const TRAFFIC: &[&str] = &[
    "egress",
    "data transfer",
    "traffic",
    "bandwidth",
    "outbound",
    "internet",
    "流量",
    "带宽",
];
const DISK: &[&str] = &[
    "disk", "volume", "storage", "ebs", "ssd", "硬盘", "磁盘", "云盘", "存储",
];
const COMPUTE: &[&str] = &[
    "compute",
    "instance",
    "gpu",
    " vm",
    "vm ",
    "virtual machine",
    "node",
    "ec2",
    "ecs",
    "实例",
    "计算",
    "算力",
];

fn any(text: &str, words: &[&str]) -> bool {
    words.iter().any(|w| text.contains(w))
}

/// Whether `unit` (lower case) counts hours: of a node, or of a GPU (`GPU-Hours`, `卡时`).
fn is_hours(unit: &str) -> bool {
    matches!(unit, "h" | "hr" | "hrs") || unit.contains("hour") || unit.contains("小时") || unit.ends_with("卡时")
}

/// Whether `unit` (lower case) counts hours of one GPU rather than of a node.
#[must_use]
pub fn per_gpu(unit: &str) -> bool {
    let unit = unit.to_lowercase();
    is_hours(&unit) && (unit.contains("gpu") || unit.contains('卡'))
}

/// Whether `unit` (lower case) is stored data over time (GB-months, GB-hours).
fn is_gb_month(unit: &str) -> bool {
    (unit.contains("gb") || unit.contains("gib"))
        && (unit.contains("mo") || unit.contains("月") || unit.contains("hour") || unit.contains("小时"))
}

/// Whether `unit` (lower case) is data transferred.
fn is_data(unit: &str) -> bool {
    matches!(unit, "gb" | "gib" | "tb" | "tib" | "bytes")
}

/// The component a line pays for (rules in the module docs).
#[must_use]
pub fn component(f: &Facts<'_>) -> Component {
    let category = f.category.trim().to_ascii_lowercase();
    if category == "tax" {
        return Component::Tax;
    }
    if category == "purchase" {
        return Component::Fees;
    }
    let unit = f.unit.trim().to_lowercase();
    let text = format!(
        " {} {} {} {} {} ",
        f.resource_type, f.service, f.sku, f.description, f.unit
    )
    .to_lowercase();
    if any(&text, SNAPSHOT) {
        return Component::Snapshots;
    }
    if any(&text, IP) {
        return Component::Ip;
    }
    if any(&text, STOPPED) && any(&text, COMPUTE) && !any(&text, DISK) {
        return Component::StoppedCompute;
    }
    if let Some(c) = by_service_category(f.service_category, &unit, &text) {
        return c;
    }
    by_words(&unit, &text)
}

/// Rules 6–8: what FOCUS's `ServiceCategory` says, where it settles the component.
fn by_service_category(category: &str, unit: &str, text: &str) -> Option<Component> {
    match category.trim().to_ascii_lowercase().as_str() {
        "storage" => Some(Component::Disk),
        "networking" if is_data(unit) || any(text, TRAFFIC) => Some(Component::Traffic),
        "compute" | "ai and machine learning" if !is_data(unit) && !is_gb_month(unit) => Some(Component::Compute),
        _ => None,
    }
}

/// Rules 9–12: words and units.
fn by_words(unit: &str, text: &str) -> Component {
    if any(text, TRAFFIC) || is_data(unit) {
        Component::Traffic
    } else if any(text, DISK) || is_gb_month(unit) {
        Component::Disk
    } else if any(text, COMPUTE) || is_hours(unit) {
        Component::Compute
    } else {
        Component::Fees
    }
}

/// Whether a line charges or gives back (rules in the module docs).
#[must_use]
pub fn charge_kind(category: &str, class: &str) -> ChargeKind {
    if class.trim().eq_ignore_ascii_case("correction") {
        ChargeKind::Correction
    } else if ["credit", "adjustment"].contains(&category.trim().to_ascii_lowercase().as_str()) {
        ChargeKind::Credit
    } else {
        ChargeKind::Usage
    }
}

/// `quantity` in hours when `unit` counts time (hours, minutes or seconds); `None` otherwise.
#[must_use]
pub fn hours(quantity: Decimal, unit: &str) -> Option<Decimal> {
    let unit = unit.trim().to_lowercase();
    if is_hours(&unit) {
        Some(quantity)
    } else if matches!(unit.as_str(), "min" | "mins" | "分钟") || unit.contains("minute") {
        Some(quantity / Decimal::from(60))
    } else if matches!(unit.as_str(), "s" | "sec" | "secs" | "秒") || unit.contains("second") {
        Some(quantity / Decimal::from(3600))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    fn of(service: &str, description: &str, unit: &str) -> Component {
        component(&Facts {
            category: "Usage",
            service,
            description,
            unit,
            ..Facts::default()
        })
    }

    #[test]
    fn each_rule_gives_its_component() {
        let tax = Facts {
            category: "Tax",
            description: "GPU instance VAT",
            ..Facts::default()
        };
        assert_eq!(component(&tax), Component::Tax, "rule 1 before the instance word");
        assert_eq!(
            of("Block Storage", "Snapshot storage", "GB-Mo"),
            Component::Snapshots,
            "rule 2"
        );
        assert_eq!(
            of("云服务器", "实例停机计费", "小时"),
            Component::StoppedCompute,
            "rule 3"
        );
        assert_eq!(
            of("Compute", "Stopped instance, compute billed", "Hours"),
            Component::StoppedCompute
        );
        assert_eq!(
            of("VPC", "Elastic IP address", "Hours"),
            Component::Ip,
            "rule 4 before hours"
        );
        assert_eq!(
            of("Compute", "Data transfer out to internet", "GB"),
            Component::Traffic,
            "rule 5"
        );
        assert_eq!(of("", "", "GB"), Component::Traffic, "rule 5 by unit");
        assert_eq!(
            of("Compute", "Disk of stopped instance", "GB-Mo"),
            Component::Disk,
            "rule 6, not 3"
        );
        assert_eq!(of("", "", "GiB-month"), Component::Disk, "rule 6 by unit");
        assert_eq!(
            of("GPU Cloud", "H100 x8 on demand", "Hours"),
            Component::Compute,
            "rule 7"
        );
        assert_eq!(of("", "", "Hours"), Component::Compute, "rule 7 by unit");
        assert_eq!(
            of("Support", "Business support plan", "Month"),
            Component::Fees,
            "rule 8"
        );
    }

    #[test]
    fn credits_and_corrections_are_told_apart_from_charges() {
        assert_eq!(charge_kind("Usage", ""), ChargeKind::Usage);
        assert_eq!(charge_kind("Credit", ""), ChargeKind::Credit);
        assert_eq!(charge_kind("adjustment", ""), ChargeKind::Credit);
        assert_eq!(charge_kind("Usage", "Correction"), ChargeKind::Correction);
    }

    #[test]
    fn time_units_read_as_hours_and_others_do_not() {
        assert_eq!(hours(dec!(12), "Hours"), Some(dec!(12)));
        assert_eq!(hours(dec!(90), "Minutes"), Some(dec!(1.5)));
        assert_eq!(hours(dec!(5400), "s"), Some(dec!(1.5)));
        assert_eq!(hours(dec!(5), "GB"), None);
        assert_eq!(hours(dec!(384), "GPU-Hours"), Some(dec!(384)));
        assert_eq!(hours(dec!(384), "卡时"), Some(dec!(384)));
        assert!(per_gpu("GPU-Hours") && per_gpu("gpu_hour") && per_gpu("卡时") && per_gpu("GPU·小时"));
        assert!(!per_gpu("Hours") && !per_gpu("小时") && !per_gpu("GPU"));
    }

    #[test]
    fn focus_service_category_comes_before_words() {
        let with = |service_category: &str, description: &str, unit: &str| {
            component(&Facts {
                category: "Usage",
                service_category,
                description,
                unit,
                ..Facts::default()
            })
        };
        // AWS bills an Elastic IP kept by a stopped instance by the hour under EC2 (its
        // description: "$0.005 per Elastic IP address not attached to a running instance per
        // hour"): the address, not stopped compute.
        assert_eq!(
            with("Compute", "Elastic IP address, instance stopped", "Hours"),
            Component::Ip
        );
        assert_eq!(
            with("Storage", "Provisioned gp3 for instance i-0abc", "GB-Months"),
            Component::Disk
        );
        assert_eq!(with("Networking", "Outbound to Asia Pacific", "GB"), Component::Traffic);
        // A GPU node whose description names its local disk is still compute.
        assert_eq!(
            with("AI and Machine Learning", "8x H100 with 30 TB local NVMe disk", "Hours"),
            Component::Compute
        );
        // Data units under Compute (EC2 data transfer) fall through to the words.
        assert_eq!(with("Compute", "Data transfer out", "GB"), Component::Traffic);
        assert_eq!(
            component(&Facts {
                category: "Purchase",
                service_category: "Compute",
                description: "Savings plan, 1 year",
                ..Facts::default()
            }),
            Component::Fees
        );
    }

    #[test]
    fn gpu_hours_are_compute_and_gb_hours_are_disk() {
        assert_eq!(of("", "", "GPU-Hours"), Component::Compute);
        assert_eq!(of("", "", "卡时"), Component::Compute);
        assert_eq!(of("", "", "GB-Hours"), Component::Disk);
    }
}
