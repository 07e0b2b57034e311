//! The columns of NodeLedger's own CSV format, in export order.

/// One column of the NodeLedger CSV format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// The header name: the draft's dotted field path (`currency` is `price.currency`).
    pub name: &'static str,
    /// Whether the header must contain it (a required column may still not be blank).
    pub required: bool,
}

const fn req(name: &'static str) -> Column {
    Column { name, required: true }
}

const fn opt(name: &'static str) -> Column {
    Column { name, required: false }
}

/// Every column, in the order [`super::super::export`] writes them.
pub const COLUMNS: &[Column] = &[
    req("vendor"),
    req("reference"),
    req("received_on"),
    req("valid_until"),
    opt("auto_renewal"),
    opt("early_release"),
    opt("nodes_available"),
    opt("lead_time_hours"),
    opt("notes"),
    req("spec.gpu_model"),
    req("spec.gpus_per_node"),
    req("spec.vram_gib"),
    opt("spec.usable_vram_gib"),
    opt("spec.form_factor"),
    req("spec.sharing"),
    opt("spec.interconnect"),
    opt("spec.network_gbps"),
    opt("spec.rdma"),
    opt("spec.memory_pooling"),
    opt("spec.cpu_model"),
    opt("spec.vcpus"),
    opt("spec.ram_gib"),
    opt("spec.system_disk_gb"),
    opt("spec.system_disk_type"),
    opt("spec.data_disk_gb"),
    opt("spec.data_disk_type"),
    opt("spec.data_disk_survives_release"),
    opt("spec.temp_disk_wiped"),
    opt("spec.public_bandwidth_mbps"),
    opt("spec.internal_bandwidth_gbps"),
    opt("spec.region"),
    opt("spec.os"),
    opt("spec.nvidia_driver"),
    opt("spec.cuda"),
    opt("spec.cudnn"),
    opt("spec.docker_allowed"),
    opt("spec.root_ssh"),
    opt("spec.rocm"),
    opt("spec.snapshots"),
    opt("spec.object_storage"),
    req("currency"),
    req("price.basis"),
    req("price.on_demand_hourly"),
    req("price.billing_increment"),
    opt("price.minimum_billable_hours"),
    opt("price.monthly_price"),
    opt("price.monthly_basis"),
    opt("price.commitment_months"),
    opt("price.package_period"),
    opt("price.early_release_refund"),
    opt("price.stopped_bills_compute"),
    opt("price.stopped_compute_share"),
    opt("price.stopped_hourly"),
    opt("price.stopped_bills_disk"),
    opt("price.stopped_bills_ip"),
    opt("price.disk_price_gb_month"),
    opt("price.snapshot_price_gb_month"),
    opt("price.egress_price_gb"),
    opt("price.free_egress_gb"),
    opt("price.egress_tiers"),
    opt("price.traffic_period"),
    opt("price.ingress_price_gb"),
    opt("price.ingress_tiers"),
    opt("price.public_ip_hourly"),
    opt("price.other_fees"),
];

/// The column named `name` (lower case), if it is one of ours.
pub(super) fn find(name: &str) -> Option<&'static Column> {
    COLUMNS.iter().find(|c| c.name == name)
}
