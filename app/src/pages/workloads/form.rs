//! The workload form: its fields as posted, turned into a checked [`Workload`], and its inputs.

use crate::{
    components::form_fields::{FieldMessage, is_invalid},
    domain::{
        bills::timestamp,
        numbers,
        quotes::{DEFAULT_HEADROOM_PCT, Deadline, ErrorCode, FieldError, Workload, WorkloadKind, parse_hours},
        runs::{GpuUse, LatencyMetric, Percentile, ResponseTarget},
        tco::TotalWork,
    },
    error::FieldIssue,
    i18n::{Msg, t},
};
use leptos::prelude::*;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// The kinds of workload, with their stored names and labels, in form order.
pub const KINDS: [(WorkloadKind, &str, Msg); 4] = [
    (WorkloadKind::Training, "training", Msg::WorkloadsKindTraining),
    (
        WorkloadKind::InferenceService,
        "inference_service",
        Msg::WorkloadsKindInferenceService,
    ),
    (WorkloadKind::Batch, "batch", Msg::WorkloadsKindBatch),
    (WorkloadKind::Other, "other", Msg::WorkloadsKindOther),
];

/// How a workload uses a node's GPUs, with their form values and labels.
pub const GPU_USES: [(GpuUse, &str, Msg); 2] = [
    (GpuUse::OneJob, "one_job", Msg::WorkloadsGpuUseOneJob),
    (GpuUse::TaskPerGpu, "task_per_gpu", Msg::WorkloadsGpuUseTaskPerGpu),
];

/// The units a total amount of work is counted in, with their labels.
pub const WORK_UNITS: [(&str, Msg); 3] = [
    ("samples", Msg::WorkloadsUnitSamples),
    ("tokens", Msg::WorkloadsUnitTokens),
    ("requests", Msg::WorkloadsUnitRequests),
];

/// The label of a stored unit (the unit itself when unknown).
pub fn unit_label(unit: &str) -> Option<Msg> {
    WORK_UNITS.iter().find(|(u, _)| *u == unit).map(|(_, m)| *m)
}

/// The label of a kind.
pub fn kind_label(kind: WorkloadKind) -> Msg {
    KINDS
        .iter()
        .find(|(k, _, _)| *k == kind)
        .map_or(Msg::WorkloadsKindOther, |(_, _, m)| *m)
}

/// The workload form as posted: every field as typed. `vram_peak_source` is `measured` or
/// `estimated`; an empty `total_work_amount` means no total is given; an empty
/// `headroom_pct` means the default 20 %.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkloadForm {
    /// Name, unique in the team.
    pub name: String,
    /// `training`, `inference_service`, `batch` or `other`.
    pub kind: String,
    /// Model, e.g. `Qwen2-7B`.
    pub model: String,
    /// Precision, e.g. `bf16`.
    pub precision: String,
    /// Peak VRAM per GPU, GiB.
    pub vram_peak_gib: String,
    /// `measured` (in a test run) or `estimated`.
    pub vram_peak_source: String,
    /// Concurrent requests or jobs at that peak.
    pub concurrency: String,
    /// GPUs needed at once.
    pub gpus_needed: String,
    /// How it uses a node's GPUs: `one_job` (also when left out) or `task_per_gpu`.
    pub gpu_use: String,
    /// Run length, hours.
    pub run_hours: String,
    /// Total amount of work.
    pub total_work_amount: String,
    /// Its unit: `samples`, `tokens` or `requests`.
    pub total_work_unit: String,
    /// Data set size, GB.
    pub data_gb: String,
    /// Checkpoint storage, GB.
    pub checkpoint_gb: String,
    /// VRAM headroom, percent (15–25).
    pub headroom_pct: String,
    /// When the work must be done: a date and time, or hours from the start; empty = none.
    pub deadline: String,
    /// The earliest moment the rental may start; empty = as soon as it is ordered.
    pub earliest_start: String,
    /// The response-time target's metric: `tpot`, `ttft`, `itl` or `e2el`.
    pub response_metric: String,
    /// Its percentile: `p50`, `p90`, `p95` or `p99`.
    pub response_percentile: String,
    /// The most milliseconds it may take; empty = no target.
    pub response_max_ms: String,
}

/// Reads typed values, remembering every field that cannot be read.
#[derive(Default)]
struct Reader(Vec<FieldError>);

impl Reader {
    fn fail(&mut self, field: &'static str, code: ErrorCode) {
        self.0.push(FieldError::new(field, code));
    }

    /// An optional number: `None` when empty or unreadable (then an error is recorded).
    fn decimal(&mut self, field: &'static str, text: &str) -> Option<Decimal> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        let value = numbers::parse_field(field, text).ok();
        if value.is_none() {
            self.fail(field, ErrorCode::InvalidNumber);
        }
        value
    }

    /// A required number; an unreadable one reads as 1 (its error is recorded).
    fn required_decimal(&mut self, field: &'static str, text: &str) -> Decimal {
        if text.trim().is_empty() {
            self.fail(field, ErrorCode::Required);
        }
        self.decimal(field, text).unwrap_or(Decimal::ONE)
    }

    /// A required whole number; an unreadable one reads as 1 (its error is recorded).
    fn count(&mut self, field: &'static str, text: &str) -> u32 {
        let text = text.trim();
        if text.is_empty() {
            self.fail(field, ErrorCode::Required);
            return 1;
        }
        numbers::parse_integer(text).unwrap_or_else(|_| {
            self.fail(field, ErrorCode::InvalidInteger);
            1
        })
    }

    /// An optional date and time as Unix seconds (UTC): `2026-12-15 18:00`, `…T18:00:00Z`,
    /// `… +08:00`; without a zone, UTC.
    fn moment(&mut self, field: &'static str, text: &str) -> Option<i64> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        let at = timestamp::parse(text);
        if at.is_none() {
            self.fail(field, ErrorCode::InvalidMoment);
        }
        at
    }

    /// An optional deadline: hours from the start (`48`, `48 h`, `2 d`, `2 天`), else a date and
    /// time as [`Reader::moment`] reads it.
    fn deadline(&mut self, text: &str) -> Option<Deadline> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        if let Some(hours) = parse_hours(text) {
            return Some(Deadline::HoursFromStart(hours));
        }
        let at = timestamp::parse(text).map(Deadline::At);
        if at.is_none() {
            self.fail("deadline", ErrorCode::InvalidDeadline);
        }
        at
    }

    fn choice<T: Copy>(&mut self, field: &'static str, text: &str, options: &[(T, &str)], fallback: T) -> T {
        options.iter().find(|(_, name)| *name == text.trim()).map_or_else(
            || {
                self.fail(field, ErrorCode::InvalidChoice);
                fallback
            },
            |(v, _)| *v,
        )
    }
}

impl WorkloadForm {
    /// A new workload's form: one GPU, one at a time, measured peak, 20 % headroom.
    pub fn starting_values() -> Self {
        WorkloadForm {
            kind: "training".into(),
            vram_peak_source: "measured".into(),
            concurrency: "1".into(),
            gpus_needed: "1".into(),
            gpu_use: "one_job".into(),
            total_work_unit: "samples".into(),
            response_metric: "tpot".into(),
            response_percentile: "p95".into(),
            data_gb: "0".into(),
            checkpoint_gb: "0".into(),
            headroom_pct: DEFAULT_HEADROOM_PCT.to_string(),
            ..WorkloadForm::default()
        }
    }

    /// The form filled with `w`.
    pub fn from_workload(w: &Workload) -> Self {
        let text = |d: Decimal| d.normalize().to_string();
        WorkloadForm {
            name: w.name.clone(),
            kind: KINDS
                .iter()
                .find(|(k, _, _)| *k == w.kind)
                .map_or("other", |(_, s, _)| s)
                .into(),
            model: w.model.clone(),
            precision: w.precision.clone(),
            vram_peak_gib: text(w.vram_peak_gib),
            vram_peak_source: if w.vram_peak_measured { "measured" } else { "estimated" }.into(),
            concurrency: w.concurrency.to_string(),
            gpus_needed: w.gpus_needed.to_string(),
            gpu_use: GPU_USES
                .iter()
                .find(|(u, _, _)| *u == w.gpu_use)
                .map_or("one_job", |(_, s, _)| s)
                .into(),
            run_hours: w.run_hours.map(text).unwrap_or_default(),
            total_work_amount: w.total_work.as_ref().map(|tw| text(tw.amount)).unwrap_or_default(),
            total_work_unit: w
                .total_work
                .as_ref()
                .map_or_else(|| "samples".into(), |tw| tw.unit.clone()),
            data_gb: text(w.data_gb),
            checkpoint_gb: text(w.checkpoint_gb),
            headroom_pct: text(w.headroom_pct),
            deadline: match w.deadline {
                Some(Deadline::At(at)) => timestamp::format(at),
                Some(Deadline::HoursFromStart(hours)) => format!("{} h", text(hours)),
                None => String::new(),
            },
            earliest_start: w.earliest_start.map(timestamp::format).unwrap_or_default(),
            response_metric: w
                .response_target
                .map_or(LatencyMetric::Tpot, |r| r.metric)
                .as_str()
                .into(),
            response_percentile: w
                .response_target
                .map_or(Percentile::P95, |r| r.percentile)
                .as_str()
                .into(),
            response_max_ms: w.response_target.map(|r| text(r.max_ms)).unwrap_or_default(),
        }
    }

    /// The checked workload (texts trimmed), or every problem found: unreadable fields first,
    /// then what [`Workload::validate`] finds in the others.
    pub fn to_workload(&self) -> Result<Workload, Vec<FieldError>> {
        let mut r = Reader::default();
        let kinds = KINDS.map(|(k, name, _)| (k, name));
        let kind = r.choice("kind", &self.kind, &kinds, WorkloadKind::Other);
        let sources = [(true, "measured"), (false, "estimated")];
        let vram_peak_measured = r.choice("vram_peak_measured", &self.vram_peak_source, &sources, false);
        let vram_peak_gib = r.required_decimal("vram_peak_gib", &self.vram_peak_gib);
        let concurrency = r.count("concurrency", &self.concurrency);
        let gpus_needed = r.count("gpus_needed", &self.gpus_needed);
        let uses = GPU_USES.map(|(u, name, _)| (u, name));
        let gpu_use = match self.gpu_use.trim() {
            "" => GpuUse::OneJob,
            text => r.choice("gpu_use", text, &uses, GpuUse::OneJob),
        };
        let run_hours = r.decimal("run_hours", &self.run_hours);
        let total_work = r.decimal("total_work.amount", &self.total_work_amount).map(|amount| {
            let units = WORK_UNITS.map(|(u, _)| (u, u));
            let unit = r.choice("total_work.unit", &self.total_work_unit, &units, "samples");
            TotalWork {
                amount,
                unit: unit.to_string(),
            }
        });
        let data_gb = r.required_decimal("data_gb", &self.data_gb);
        let checkpoint_gb = r.required_decimal("checkpoint_gb", &self.checkpoint_gb);
        let headroom_pct = r
            .decimal("headroom_pct", &self.headroom_pct)
            .unwrap_or(DEFAULT_HEADROOM_PCT);
        let deadline = r.deadline(&self.deadline);
        let earliest_start = r.moment("earliest_start", &self.earliest_start);
        let response_target = r
            .decimal("response_target.max_ms", &self.response_max_ms)
            .map(|max_ms| {
                let metrics = LatencyMetric::ALL.map(|m| (m, m.as_str()));
                let percentiles = Percentile::ALL.map(|p| (p, p.as_str()));
                ResponseTarget {
                    metric: r.choice(
                        "response_target.metric",
                        &self.response_metric,
                        &metrics,
                        LatencyMetric::Tpot,
                    ),
                    percentile: r.choice(
                        "response_target.percentile",
                        &self.response_percentile,
                        &percentiles,
                        Percentile::P95,
                    ),
                    max_ms,
                }
            });
        let workload = Workload {
            name: self.name.trim().to_string(),
            kind,
            model: self.model.trim().to_string(),
            precision: self.precision.trim().to_string(),
            vram_peak_gib,
            vram_peak_measured,
            concurrency,
            gpus_needed,
            run_hours,
            total_work,
            data_gb,
            checkpoint_gb,
            headroom_pct,
            gpu_use,
            deadline,
            earliest_start,
            response_target,
        };
        let mut errors = r.0;
        let unread: Vec<&str> = errors.iter().map(|e| e.field).collect();
        let checked = workload.validate().err().unwrap_or_default();
        errors.extend(checked.into_iter().filter(|e| !unread.contains(&e.field)));
        if errors.is_empty() { Ok(workload) } else { Err(errors) }
    }
}

/// A labelled text input with its error message.
fn input(
    label: Msg,
    name: &'static str,
    field: &'static str,
    value: String,
    issues: Signal<Vec<FieldIssue>>,
    numeric: bool,
) -> impl IntoView {
    view! {
        <label>
            {t(label)}
            <input
                type="text"
                name=name
                value=value
                inputmode=numeric.then_some("decimal")
                aria-invalid=is_invalid(issues, field)
                aria-describedby=format!("{field}-error")
            />
            <FieldMessage issues field />
        </label>
    }
}

fn options(choices: &[(&'static str, Msg)], selected: &str) -> impl IntoView + use<> {
    choices
        .iter()
        .map(|(value, label)| view! { <option value=*value selected=*value == selected>{t(*label)}</option> })
        .collect_view()
}

/// The inputs of the workload form, filled with `f`, each with its error message.
pub fn workload_fields(f: WorkloadForm, issues: Signal<Vec<FieldIssue>>) -> impl IntoView {
    let kinds = KINDS.map(|(_, name, label)| (name, label));
    let gpu_uses = GPU_USES.map(|(_, name, label)| (name, label));
    let sources = [
        ("measured", Msg::WorkloadsPeakMeasured),
        ("estimated", Msg::WorkloadsPeakEstimated),
    ];
    view! {
        <div class="form-row">
            {input(Msg::WorkloadsName, "name", "name", f.name, issues, false)}
            <label>
                {t(Msg::WorkloadsKind)}
                <select name="kind" aria-invalid=is_invalid(issues, "kind")>{options(&kinds, &f.kind)}</select>
                <FieldMessage issues field="kind" />
            </label>
            {input(Msg::WorkloadsModel, "model", "model", f.model, issues, false)}
            {input(Msg::WorkloadsPrecision, "precision", "precision", f.precision, issues, false)}
        </div>
        <fieldset class="fieldset">
            <legend>{t(Msg::WorkloadsVramTitle)}</legend>
            <div class="form-row">
                {input(Msg::WorkloadsVramPeak, "vram_peak_gib", "vram_peak_gib", f.vram_peak_gib, issues, true)}
                <label>
                    {t(Msg::WorkloadsPeakSource)}
                    <select name="vram_peak_source" aria-invalid=is_invalid(issues, "vram_peak_measured")>
                        {options(&sources, &f.vram_peak_source)}
                    </select>
                    <FieldMessage issues field="vram_peak_measured" />
                </label>
                {input(Msg::WorkloadsConcurrency, "concurrency", "concurrency", f.concurrency, issues, true)}
                {input(Msg::WorkloadsGpusNeeded, "gpus_needed", "gpus_needed", f.gpus_needed, issues, true)}
                <label>
                    {t(Msg::WorkloadsGpuUse)}
                    <select name="gpu_use" aria-invalid=is_invalid(issues, "gpu_use") aria-describedby="gpu_use-rule">
                        {options(&gpu_uses, &f.gpu_use)}
                    </select>
                    <small class="hint" id="gpu_use-rule">{t(Msg::WorkloadsGpuUseRule)}</small>
                    <FieldMessage issues field="gpu_use" />
                </label>
                <label>
                    {t(Msg::WorkloadsHeadroom)}
                    <input type="text" name="headroom_pct" value=f.headroom_pct inputmode="decimal"
                        aria-invalid=is_invalid(issues, "headroom_pct") aria-describedby="headroom_pct-rule headroom_pct-error" />
                    <small class="hint" id="headroom_pct-rule">{t(Msg::WorkloadsHeadroomRule)}</small>
                    <FieldMessage issues field="headroom_pct" />
                </label>
            </div>
            <p class="hint">{crate::i18n::use_locale().fmt(Msg::WorkloadsSliceRule, &[("max", &crate::domain::quotes::LOW_CONCURRENCY_MAX.to_string())])}</p>
        </fieldset>
        <fieldset class="fieldset">
            <legend>{t(Msg::WorkloadsSizeTitle)}</legend>
            <p class="hint">{t(Msg::WorkloadsSizeHint)}</p>
            <div class="form-row">
                {input(Msg::WorkloadsRunHours, "run_hours", "run_hours", f.run_hours, issues, true)}
                {input(Msg::WorkloadsTotalWork, "total_work_amount", "total_work.amount", f.total_work_amount, issues, true)}
                <label>
                    {t(Msg::WorkloadsTotalWorkUnit)}
                    <select name="total_work_unit" aria-invalid=is_invalid(issues, "total_work.unit")>
                        {options(&WORK_UNITS, &f.total_work_unit)}
                    </select>
                    <FieldMessage issues field="total_work.unit" />
                </label>
                {input(Msg::WorkloadsDataGb, "data_gb", "data_gb", f.data_gb, issues, true)}
                {input(Msg::WorkloadsCheckpointGb, "checkpoint_gb", "checkpoint_gb", f.checkpoint_gb, issues, true)}
            </div>
        </fieldset>
        {response_fields(&f.response_metric, &f.response_percentile, f.response_max_ms.clone(), issues)}
        <fieldset class="fieldset">
            <legend>{t(Msg::WorkloadsScheduleTitle)}</legend>
            <p class="hint">{t(Msg::WorkloadsScheduleHint)}</p>
            <div class="form-row">
                {input(Msg::WorkloadsDeadline, "deadline", "deadline", f.deadline, issues, false)}
                {input(Msg::WorkloadsEarliestStart, "earliest_start", "earliest_start", f.earliest_start, issues, false)}
            </div>
        </fieldset>
    }
}

/// The response-time target: percentile, metric and the most milliseconds (empty = none).
fn response_fields(
    metric: &str,
    percentile: &str,
    max_ms: String,
    issues: Signal<Vec<FieldIssue>>,
) -> impl IntoView + use<> {
    let locale = crate::i18n::use_locale();
    let metrics: Vec<(&'static str, &'static str)> = LatencyMetric::ALL
        .iter()
        .map(|m| (m.as_str(), crate::texts::response::metric_name(locale, *m)))
        .collect();
    let metric_options = metrics
        .into_iter()
        .map(|(value, label)| view! { <option value=value selected=value == metric>{label}</option> })
        .collect_view();
    let percentile_options = Percentile::ALL
        .iter()
        .map(|p| view! { <option value=p.as_str() selected=p.as_str() == percentile>{p.as_str()}</option> })
        .collect_view();
    view! {
        <fieldset class="fieldset">
            <legend>{t(Msg::WorkloadsResponseTitle)}</legend>
            <p class="hint">{t(Msg::WorkloadsResponseHint)}</p>
            <div class="form-row">
                <label>
                    {t(Msg::WorkloadsResponsePercentile)}
                    <select name="response_percentile" aria-invalid=is_invalid(issues, "response_target.percentile")>{percentile_options}</select>
                    <FieldMessage issues field="response_target.percentile" />
                </label>
                <label>
                    {t(Msg::WorkloadsResponseMetric)}
                    <select name="response_metric" aria-invalid=is_invalid(issues, "response_target.metric")>{metric_options}</select>
                    <FieldMessage issues field="response_target.metric" />
                </label>
                {input(Msg::WorkloadsResponseMaxMs, "response_max_ms", "response_target.max_ms", max_ms, issues, true)}
            </div>
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn good() -> WorkloadForm {
        WorkloadForm {
            name: " Qwen2-7B LoRA ".into(),
            model: "Qwen2-7B".into(),
            precision: "bf16".into(),
            vram_peak_gib: "18.5".into(),
            run_hours: "72".into(),
            data_gb: "120".into(),
            checkpoint_gb: "60".into(),
            ..WorkloadForm::starting_values()
        }
    }

    fn fields(form: &WorkloadForm) -> Vec<(&'static str, &'static str)> {
        form.to_workload()
            .unwrap_err()
            .into_iter()
            .map(|e| (e.field, e.code.code()))
            .collect()
    }

    /// A deadline is hours from the start (a number, `h` or days) or a date and time (UTC
    /// unless a zone is written); it must fall after the earliest start; both fill back.
    #[test]
    fn a_deadline_reads_as_hours_or_a_moment_after_the_earliest_start() {
        let with = |deadline: &str, earliest_start: &str| WorkloadForm {
            deadline: deadline.into(),
            earliest_start: earliest_start.into(),
            ..good()
        };
        let w = with("48 h", "").to_workload().unwrap();
        assert_eq!(
            (w.deadline, w.earliest_start),
            (Some(Deadline::HoursFromStart(Decimal::from(48))), None)
        );
        assert_eq!(
            with("2 天", "").to_workload().unwrap().deadline,
            Some(Deadline::HoursFromStart(Decimal::from(48)))
        );
        // 18:00 at +08:00 is 10:00 UTC.
        let w = with("2026-12-15 18:00 +08:00", "2026-12-10 09:00")
            .to_workload()
            .unwrap();
        assert_eq!(
            w.deadline,
            Some(Deadline::At(timestamp::parse("2026-12-15T10:00:00Z").unwrap()))
        );
        assert_eq!(w.earliest_start, timestamp::parse("2026-12-10T09:00:00Z"));
        let back = WorkloadForm::from_workload(&w);
        assert_eq!(
            (back.deadline.as_str(), back.earliest_start.as_str()),
            ("2026-12-15T10:00:00Z", "2026-12-10T09:00:00Z")
        );
        assert_eq!(back.to_workload().unwrap(), w);
        assert_eq!(
            WorkloadForm::from_workload(&with("48", "").to_workload().unwrap()).deadline,
            "48 h"
        );
        assert_eq!(fields(&with("soon", "")), [("deadline", "invalid_deadline")]);
        assert_eq!(fields(&with("", "tomorrow")), [("earliest_start", "invalid_moment")]);
        assert_eq!(
            fields(&with("2026-12-10 08:00", "2026-12-10 09:00")),
            [("deadline", "end_before_start")]
        );
        assert_eq!(fields(&with("0 h", "")), [("deadline", "not_positive")]);
        assert_eq!(fields(&with("1800-01-01", "")), [("deadline", "out_of_range")]);
    }

    #[test]
    fn reads_a_workload_and_fills_the_form_back() {
        let w = good().to_workload().unwrap();
        assert_eq!(w.name, "Qwen2-7B LoRA");
        assert_eq!(
            (w.kind, w.vram_peak_measured, w.gpus_needed),
            (WorkloadKind::Training, true, 1)
        );
        assert_eq!(w.headroom_pct, Decimal::from(20));
        assert_eq!(w.total_work, None);
        assert_eq!(WorkloadForm::from_workload(&w).to_workload().unwrap(), w);
        let with_total = WorkloadForm {
            run_hours: String::new(),
            total_work_amount: "1000000".into(),
            total_work_unit: "tokens".into(),
            ..good()
        };
        let w = with_total.to_workload().unwrap();
        assert_eq!(
            w.total_work,
            Some(TotalWork {
                amount: Decimal::from(1_000_000),
                unit: "tokens".into()
            })
        );
        assert_eq!(
            WorkloadForm::from_workload(&w),
            WorkloadForm {
                name: "Qwen2-7B LoRA".into(),
                ..with_total
            }
        );
    }

    #[test]
    fn headroom_outside_15_to_25_is_refused_and_empty_means_20() {
        assert_eq!(
            fields(&WorkloadForm {
                headroom_pct: "30".into(),
                ..good()
            }),
            [("headroom_pct", "out_of_range")]
        );
        assert_eq!(
            fields(&WorkloadForm {
                headroom_pct: "14.9".into(),
                ..good()
            }),
            [("headroom_pct", "out_of_range")]
        );
        let w = WorkloadForm {
            headroom_pct: " ".into(),
            ..good()
        }
        .to_workload()
        .unwrap();
        assert_eq!(w.headroom_pct, Decimal::from(20));
    }

    #[test]
    fn reports_every_field_once() {
        let form = WorkloadForm {
            name: String::new(),
            kind: "mining".into(),
            vram_peak_gib: "lots".into(),
            concurrency: "1.5".into(),
            gpus_needed: "0".into(),
            run_hours: String::new(),
            total_work_amount: "x".into(),
            data_gb: "-1".into(),
            checkpoint_gb: String::new(),
            ..good()
        };
        assert_eq!(
            fields(&form),
            [
                ("kind", "invalid_choice"),
                ("vram_peak_gib", "invalid_number"),
                ("concurrency", "invalid_integer"),
                ("total_work.amount", "invalid_number"),
                ("checkpoint_gb", "required"),
                ("name", "required"),
                ("gpus_needed", "not_positive"),
                ("run_hours", "no_work_size"),
                ("data_gb", "negative"),
            ]
        );
    }
}
