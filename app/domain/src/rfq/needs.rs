//! What a request asks for, taken from the workload when the request is made and frozen with it:
//! plain values a vendor reads (the workload's own name and notes stay in the team).

use crate::quotes::Workload;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// What the team needs, as sent to the vendors (version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Needs {
    /// Whole GPUs at once.
    pub gpus: u32,
    /// GPU memory per GPU, GiB, with the workload's headroom (the peak × (1 + headroom)).
    #[serde(with = "rust_decimal::serde::str")]
    pub vram_gib: Decimal,
    /// The headroom included, percent.
    #[serde(with = "rust_decimal::serde::str")]
    pub headroom_pct: Decimal,
    /// Whole, unshared GPUs (no vGPU, MIG or time slicing).
    pub exclusive: bool,
    /// The GPUs work on one job together, so how they are connected matters.
    pub interconnect: bool,
    /// Data to bring, GB.
    #[serde(with = "rust_decimal::serde::str")]
    pub data_gb: Decimal,
    /// Checkpoints and outputs to keep, GB.
    #[serde(with = "rust_decimal::serde::str")]
    pub checkpoint_gb: Decimal,
    /// The region or city asked for; empty: any.
    pub region: String,
    /// The earliest start, Unix seconds; `None`: as soon as ordered.
    pub start: Option<i64>,
    /// The work must be done by then, Unix seconds.
    pub done_by: Option<i64>,
    /// Expected rental length, hours.
    #[serde(with = "rust_decimal::serde::str_option")]
    pub hours: Option<Decimal>,
    /// The budget, only when procurement chose to say it: (amount, currency code).
    pub budget: Option<(String, String)>,
}

impl Needs {
    /// The needs of `workload`, asked in `region`, with `budget` only when given.
    #[must_use]
    pub fn from_workload(workload: &Workload, region: &str, budget: Option<(String, String)>) -> Needs {
        let done_by = match workload.deadline {
            Some(crate::quotes::Deadline::At(at)) => Some(at),
            _ => None,
        };
        Needs {
            gpus: workload.gpus_needed.max(1),
            vram_gib: workload.required_vram_gib().round_dp(1),
            headroom_pct: workload.headroom_pct,
            exclusive: workload.kind.prefers_exclusive(),
            interconnect: workload.gpus_needed > 1 && workload.gpu_use == crate::runs::GpuUse::OneJob,
            data_gb: workload.data_gb,
            checkpoint_gb: workload.checkpoint_gb,
            region: region.trim().to_string(),
            start: workload.earliest_start,
            done_by,
            hours: workload.run_hours,
            budget,
        }
    }

    /// Disk space to offer at least: the data and the checkpoints, GB.
    #[must_use]
    pub fn disk_gb(&self) -> Decimal {
        self.data_gb.saturating_add(self.checkpoint_gb)
    }

    /// The stored JSON (with its version).
    #[must_use]
    pub fn encode(&self) -> String {
        let mut value = serde_json::to_value(self).unwrap_or_default();
        if let Some(map) = value.as_object_mut() {
            map.insert("version".into(), 1.into());
        }
        value.to_string()
    }

    /// Reads stored needs of any version ever written.
    ///
    /// # Errors
    /// The parser's message when they do not read.
    pub fn decode(text: &str) -> Result<Needs, String> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(1) => serde_json::from_value(value).map_err(|e| e.to_string()),
            other => Err(format!("unknown needs version {other:?}")),
        }
    }
}
