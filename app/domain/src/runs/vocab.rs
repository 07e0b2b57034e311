//! Small closed vocabularies shared by the canonical run: throughput units and
//! GPU clock-throttle reasons.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Unit of a throughput figure. Serialized as a short string such as
/// `"tokens/s"`; unknown units round-trip through [`ThroughputUnit::Other`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ThroughputUnit {
    /// `samples/s` (MLPerf).
    SamplesPerS,
    /// `tokens/s` (LLM serving, llama.cpp).
    TokensPerS,
    /// `requests/s` (serving benchmarks).
    RequestsPerS,
    /// `queries/s` (MLPerf single/multi-stream QPS).
    QueriesPerS,
    /// Any other unit, kept verbatim.
    Other(String),
}

impl ThroughputUnit {
    /// The wire spelling of the unit.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            Self::SamplesPerS => "samples/s",
            Self::TokensPerS => "tokens/s",
            Self::RequestsPerS => "requests/s",
            Self::QueriesPerS => "queries/s",
            Self::Other(s) => s,
        }
    }

    /// Parses the wire spelling; never fails (unknown → [`Self::Other`]).
    #[must_use]
    pub fn from_wire(s: &str) -> Self {
        match s {
            "samples/s" => Self::SamplesPerS,
            "tokens/s" => Self::TokensPerS,
            "requests/s" => Self::RequestsPerS,
            "queries/s" => Self::QueriesPerS,
            other => Self::Other(other.to_owned()),
        }
    }
}

impl Serialize for ThroughputUnit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ThroughputUnit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ok(Self::from_wire(&s))
    }
}

/// A GPU clock event ("throttle") reason as reported by NVML / nvidia-smi.
///
/// The declaration order is the NVML bit order (`0x1` … `0x100`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThrottleReason {
    /// `gpu_idle` (0x1): nothing running; not a slowdown.
    GpuIdle,
    /// `applications_clocks_setting` (0x2): clocks limited by application settings.
    ApplicationsClocksSetting,
    /// `sw_power_cap` (0x4): software power capping.
    SwPowerCap,
    /// `hw_slowdown` (0x8): hardware slowdown (thermal or power brake).
    HwSlowdown,
    /// `sync_boost` (0x10): synchronised boost group; not a slowdown.
    SyncBoost,
    /// `sw_thermal_slowdown` (0x20): software thermal slowdown.
    SwThermalSlowdown,
    /// `hw_thermal_slowdown` (0x40): hardware thermal slowdown.
    HwThermalSlowdown,
    /// `hw_power_brake_slowdown` (0x80): external power brake.
    HwPowerBrakeSlowdown,
    /// `display_clock_setting` (0x100): display clock setting; not a slowdown.
    DisplayClockSetting,
}

impl ThrottleReason {
    /// All reasons in NVML bit order.
    pub const ALL: [Self; 9] = [
        Self::GpuIdle,
        Self::ApplicationsClocksSetting,
        Self::SwPowerCap,
        Self::HwSlowdown,
        Self::SyncBoost,
        Self::SwThermalSlowdown,
        Self::HwThermalSlowdown,
        Self::HwPowerBrakeSlowdown,
        Self::DisplayClockSetting,
    ];

    /// The NVML bit of this reason.
    #[must_use]
    pub const fn bit(self) -> u16 {
        1 << (self as u16)
    }

    /// The nvidia-smi column suffix (`clocks_event_reasons.<suffix>`).
    #[must_use]
    pub const fn smi_name(self) -> &'static str {
        match self {
            Self::GpuIdle => "gpu_idle",
            Self::ApplicationsClocksSetting => "applications_clocks_setting",
            Self::SwPowerCap => "sw_power_cap",
            Self::HwSlowdown => "hw_slowdown",
            Self::SyncBoost => "sync_boost",
            Self::SwThermalSlowdown => "sw_thermal_slowdown",
            Self::HwThermalSlowdown => "hw_thermal_slowdown",
            Self::HwPowerBrakeSlowdown => "hw_power_brake_slowdown",
            Self::DisplayClockSetting => "display_clock_setting",
        }
    }

    /// True for thermal, power-brake and hardware slowdowns (the ones the
    /// verdict counts). `sw_power_cap` is not one: it means the GPU runs at
    /// its configured power limit, which is reported but not counted.
    #[must_use]
    pub const fn is_slowdown(self) -> bool {
        matches!(
            self,
            Self::HwSlowdown | Self::SwThermalSlowdown | Self::HwThermalSlowdown | Self::HwPowerBrakeSlowdown
        )
    }

    /// Bit mask of every slowdown reason (see [`Self::is_slowdown`]).
    pub const SLOWDOWN_MASK: u16 = Self::HwSlowdown.bit()
        | Self::SwThermalSlowdown.bit()
        | Self::HwThermalSlowdown.bit()
        | Self::HwPowerBrakeSlowdown.bit();

    /// Expands a bit mask into reasons, in NVML bit order.
    #[must_use]
    pub fn from_mask(mask: u16) -> Vec<Self> {
        Self::ALL.into_iter().filter(|r| mask & r.bit() != 0).collect()
    }

    /// Folds reasons into a bit mask.
    #[must_use]
    pub fn to_mask(reasons: &[Self]) -> u16 {
        reasons.iter().fold(0, |m, r| m | r.bit())
    }
}
