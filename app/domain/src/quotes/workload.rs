//! What the buyer needs to run, as measured in a small test run: the task split into measurable
//! figures (VRAM peak, throughput, run length or total work, data sizes) before any node is
//! compared (“先把任务拆成四个可测指标”).

use super::error::{ErrorCode, FieldError};
use super::limits::{
    DEFAULT_HEADROOM_PCT, MAX_HEADROOM_PCT, MAX_SHORT_TEXT, MAX_WORKLOAD_COUNT, MAX_WORKLOAD_FIGURE, MIN_HEADROOM_PCT,
};
use super::rules::Errors;
use crate::runs::{GpuUse, MAX_TARGET_MS, ResponseTarget};
use crate::tco;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// The kind of job; training and online inference are better suited to exclusive GPUs
/// (checklist item `gpu.exclusivity`), except low-concurrency inference (see [`super::LOW_CONCURRENCY_MAX`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkloadKind {
    /// Model training or fine-tuning.
    Training,
    /// An online inference service.
    InferenceService,
    /// Offline batch processing (batch inference, encoding, simulation).
    Batch,
    /// Anything else.
    Other,
}

impl WorkloadKind {
    /// True when the kind is better suited to whole, unshared GPUs (the requirement check
    /// then looks at the sharing mode).
    pub const fn prefers_exclusive(self) -> bool {
        matches!(self, WorkloadKind::Training | WorkloadKind::InferenceService)
    }
}

fn default_headroom() -> Decimal {
    DEFAULT_HEADROOM_PCT
}

/// A workload to place on a node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    /// A name for the workload.
    pub name: String,
    /// Training, inference service, batch or other.
    pub kind: WorkloadKind,
    /// The model, e.g. `Qwen2-7B`.
    #[serde(default)]
    pub model: String,
    /// The numeric precision, e.g. `bf16`.
    #[serde(default)]
    pub precision: String,
    /// Peak VRAM one worker needs at the stated concurrency, GiB.
    #[serde(with = "rust_decimal::serde::str")]
    pub vram_peak_gib: Decimal,
    /// Whether the peak was measured in a real run (rather than estimated).
    pub vram_peak_measured: bool,
    /// Concurrent requests or jobs the peak was taken at.
    pub concurrency: u32,
    /// GPUs the workload needs at once.
    pub gpus_needed: u32,
    /// The run length in hours, if known.
    #[serde(default, with = "rust_decimal::serde::str_option")]
    pub run_hours: Option<Decimal>,
    /// The total amount of work, if known.
    #[serde(default)]
    pub total_work: Option<tco::TotalWork>,
    /// Data set size, GB.
    #[serde(with = "rust_decimal::serde::str")]
    pub data_gb: Decimal,
    /// Checkpoint storage needed, GB.
    #[serde(with = "rust_decimal::serde::str")]
    pub checkpoint_gb: Decimal,
    /// VRAM headroom on top of the peak, percent; 15–25, default 20 ([`crate::vram`]).
    #[serde(default = "default_headroom", with = "rust_decimal::serde::str")]
    pub headroom_pct: Decimal,
    /// How the workload uses a node's GPUs: one job across them (the reading of every workload
    /// saved before this was asked), or one task per GPU.
    #[serde(default)]
    pub gpu_use: GpuUse,
    /// When the work must be done, if it must. Left out when not stated, so a workload saved
    /// before the schedule was asked reads and writes as it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<Deadline>,
    /// The earliest moment the rental may start, Unix seconds (UTC); not stated = as soon as it
    /// is ordered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub earliest_start: Option<i64>,
    /// How fast each user must be answered (an inference service): a percentile of a latency
    /// at the workload's concurrency. Left out when not stated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_target: Option<ResponseTarget>,
}

/// When a workload's work must be done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Deadline {
    /// By a moment, Unix seconds (UTC).
    At(i64),
    /// Within this many hours of the start (the earliest start, or the order).
    HoursFromStart(#[serde(with = "rust_decimal::serde::str")] Decimal),
}

impl Deadline {
    /// The deadline as a moment: a number of hours counts from `start` (Unix seconds). A
    /// deadline left as hours from "now" would move with every visit, and a plan would never
    /// become late. Unchanged when it is a moment already, or when the sum leaves
    /// [`SCHEDULE_RANGE`].
    #[must_use]
    pub fn fixed_from(self, start: i64) -> Deadline {
        let Deadline::HoursFromStart(hours) = self else {
            return self;
        };
        let seconds = hours
            .checked_mul(Decimal::from(3600))
            .map(|s| s.round())
            .and_then(|s| i64::try_from(s).ok());
        match seconds.and_then(|s| start.checked_add(s)) {
            Some(at) if (SCHEDULE_RANGE.0..=SCHEDULE_RANGE.1).contains(&at) => Deadline::At(at),
            _ => self,
        }
    }
}

/// The earliest and latest moments a schedule may name: 2000-01-01 and 2200-01-01 (UTC). Outside
/// them a figure is a typo, not a plan.
pub const SCHEDULE_RANGE: (i64, i64) = (946_684_800, 7_258_118_400);

impl Workload {
    /// The workload as it is saved: a deadline in hours becomes the moment it names, counted
    /// from the earliest start or, when none is stated, from `now` (Unix seconds, the moment of
    /// saving) — [`Deadline::fixed_from`].
    #[must_use]
    pub fn with_fixed_deadline(mut self, now: i64) -> Workload {
        let start = self.earliest_start.unwrap_or(now);
        self.deadline = self.deadline.map(|d| d.fixed_from(start));
        self
    }

    /// Checks every field; `Err` lists all problems found.
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut e = Errors::default();
        e.required_text("name", &self.name, MAX_SHORT_TEXT);
        e.text("model", &self.model, MAX_SHORT_TEXT);
        e.text("precision", &self.precision, MAX_SHORT_TEXT);
        e.positive("vram_peak_gib", self.vram_peak_gib, MAX_WORKLOAD_FIGURE);
        e.count("concurrency", self.concurrency, MAX_WORKLOAD_COUNT);
        e.count("gpus_needed", self.gpus_needed, MAX_WORKLOAD_COUNT);
        if let Some(hours) = self.run_hours {
            e.positive("run_hours", hours, MAX_WORKLOAD_FIGURE);
        }
        if let Some(work) = &self.total_work {
            e.positive("total_work.amount", work.amount, Decimal::MAX);
            e.required_text("total_work.unit", &work.unit, MAX_SHORT_TEXT);
        }
        if self.run_hours.is_none() && self.total_work.is_none() {
            e.push("run_hours", ErrorCode::NoWorkSize);
        }
        e.non_negative("data_gb", self.data_gb, MAX_WORKLOAD_FIGURE);
        e.non_negative("checkpoint_gb", self.checkpoint_gb, MAX_WORKLOAD_FIGURE);
        if self.headroom_pct < MIN_HEADROOM_PCT || self.headroom_pct > MAX_HEADROOM_PCT {
            e.push("headroom_pct", ErrorCode::OutOfRange { allowed: "[15, 25]" });
        }
        self.validate_schedule(&mut e);
        if let Some(target) = &self.response_target {
            e.positive("response_target.max_ms", target.max_ms, MAX_TARGET_MS);
        }
        e.finish()
    }

    /// A deadline after the earliest start, both within [`SCHEDULE_RANGE`]; hours positive.
    fn validate_schedule(&self, e: &mut Errors) {
        let in_range = |at: i64| (SCHEDULE_RANGE.0..SCHEDULE_RANGE.1).contains(&at);
        let range = ErrorCode::OutOfRange {
            allowed: "[2000-01-01, 2200-01-01)",
        };
        if let Some(start) = self.earliest_start
            && !in_range(start)
        {
            e.push("earliest_start", range.clone());
        }
        match self.deadline {
            Some(Deadline::HoursFromStart(hours)) => e.positive("deadline", hours, MAX_WORKLOAD_FIGURE),
            Some(Deadline::At(at)) if !in_range(at) => e.push("deadline", range),
            Some(Deadline::At(at)) if self.earliest_start.is_some_and(|start| at <= start) => {
                e.push("deadline", ErrorCode::EndBeforeStart);
            }
            _ => {}
        }
    }

    /// The VRAM to look for per GPU: [`crate::vram::required`] of the peak and the
    /// headroom, GiB (saturating, never panics).
    pub fn required_vram_gib(&self) -> Decimal {
        crate::vram::required(self.vram_peak_gib, self.headroom_pct)
    }

    /// The cost model's view of this workload.
    pub fn to_tco(&self) -> tco::Demand {
        tco::Demand {
            gpus_needed: self.gpus_needed,
            total_work: self.total_work.clone(),
            run_hours: self.run_hours,
            gpu_use: Some(self.gpu_use),
        }
    }
}
