//! Sane bounds: a value outside them is a typo or a unit mix-up, not a real offer.

use rust_decimal::Decimal;

/// Largest VRAM per GPU, GiB.
pub const MAX_VRAM_GIB: Decimal = Decimal::from_parts(1024, 0, 0, false, 0);

/// Smallest VRAM per GPU, GiB: one MiB (1/1024 GiB). The quote list stores VRAM in whole MiB
/// and refuses zero there, so less would read but could not be saved.
pub const MIN_VRAM_GIB: Decimal = Decimal::from_parts(9_765_625, 0, 0, false, 10);
/// Most GPUs in one node.
pub const MAX_GPUS_PER_NODE: u32 = 64;
/// Highest on-demand price per hour.
pub const MAX_HOURLY_PRICE: Decimal = Decimal::from_parts(1_000_000, 0, 0, false, 0);
/// Highest monthly price per node.
pub const MAX_MONTHLY_PRICE: Decimal = Decimal::from_parts(1_000_000_000, 0, 0, false, 0);
/// Longest minimum billable duration, hours (one leap year).
pub const MAX_MIN_BILLABLE_HOURS: Decimal = Decimal::from_parts(8784, 0, 0, false, 0);
/// Longest commitment term, months.
pub const MAX_COMMITMENT_MONTHS: u32 = 120;
/// Highest unit price (per GB, per GB-month, per IP-hour).
pub const MAX_UNIT_PRICE: Decimal = Decimal::from_parts(1_000_000, 0, 0, false, 0);
/// Highest single fee, and largest free egress allowance (GB).
pub const MAX_AMOUNT: Decimal = Decimal::from_parts(1_000_000_000, 0, 0, false, 0);
/// Most fixed fees on one sheet.
pub const MAX_FEES: usize = 50;
/// Most vCPUs per node.
pub const MAX_VCPUS: u32 = 4096;
/// Largest host memory, GiB.
pub const MAX_RAM_GIB: Decimal = Decimal::from_parts(65_536, 0, 0, false, 0);
/// Largest disk, GB.
pub const MAX_DISK_GB: Decimal = Decimal::from_parts(10_000_000, 0, 0, false, 0);
/// Fastest link, Gbit/s (network and internal bandwidth).
pub const MAX_GBPS: Decimal = Decimal::from_parts(100_000, 0, 0, false, 0);
/// Fastest public bandwidth, Mbit/s.
pub const MAX_PUBLIC_MBPS: Decimal = Decimal::from_parts(1_000_000, 0, 0, false, 0);
/// Most nodes a vendor may offer at once on one quote.
pub const MAX_NODES_AVAILABLE: u32 = 10_000;
/// Longest lead time until the nodes are ready, hours (one year).
pub const MAX_LEAD_TIME_HOURS: Decimal = Decimal::from_parts(8760, 0, 0, false, 0);
/// Longest short text (names, references, versions), characters.
pub const MAX_SHORT_TEXT: usize = 200;
/// Longest long text (notes, rules), characters.
pub const MAX_LONG_TEXT: usize = 4000;
/// Lowest VRAM headroom, percent (the 15–25 % of [`crate::vram`]).
pub const MIN_HEADROOM_PCT: Decimal = Decimal::from_parts(15, 0, 0, false, 0);
/// Highest VRAM headroom, percent.
pub const MAX_HEADROOM_PCT: Decimal = Decimal::from_parts(25, 0, 0, false, 0);
/// The default VRAM headroom, percent.
pub const DEFAULT_HEADROOM_PCT: Decimal = Decimal::from_parts(20, 0, 0, false, 0);
/// Largest workload figure (GiB, GB, hours).
pub const MAX_WORKLOAD_FIGURE: Decimal = Decimal::from_parts(1_000_000_000, 0, 0, false, 0);
/// Most GPUs or concurrent requests a workload may state.
pub const MAX_WORKLOAD_COUNT: u32 = 1_000_000;

// Bounds of numbers typed outside the quote form.
/// Largest workload budget, in the team's base currency.
pub const MAX_BUDGET: i64 = 1_000_000_000_000;
/// Smallest and largest exchange rate accepted (one unit of one currency in another).
pub const RATE_RANGE: (Decimal, Decimal) = (
    Decimal::from_parts(1, 0, 0, false, 6),
    Decimal::from_parts(1_000_000, 0, 0, false, 0),
);
