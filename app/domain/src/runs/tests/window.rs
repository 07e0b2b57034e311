//! One clock per run, and files that disagree, as found with real files. The files are generated here: a vLLM result with its
//! end `date` and `duration`, and a 1 s nvidia-smi capture with throttle masks.

use std::fmt::Write as _;

use super::super::{
    Difference, EXTRA_VRAM_PEAK_WHOLE_CAPTURE, Reason, RunStatus, Severity, ThrottleReason, VerdictContext, assess,
    judge, merge, parse,
};
use super::has_reason;

/// A `vllm bench serve` result ending at `date` after `duration` s.
fn vllm(date: Option<&str>, duration: f64, gpu: Option<&str>) -> Vec<u8> {
    let mut v = serde_json::json!({
        "backend": "vllm",
        "model_id": "meta-llama/Llama-3.1-8B-Instruct",
        "duration": duration,
        "completed": 1000,
        "request_throughput": 2.4,
        "output_throughput": 1234.5,
        "median_e2el_ms": 900.0,
    });
    if let Some(d) = date {
        v["date"] = d.into();
    }
    if let Some(g) = gpu {
        v["gpu"] = g.into();
    }
    v.to_string().into_bytes()
}

/// What one second of the capture looks like.
struct Second {
    util: u32,
    mem_mib: u32,
    mask: u32,
}

/// A 1 s nvidia-smi capture from 2025-01-01 11:45:00 (one GPU, `seconds` rows).
fn smi(name: &str, total_mib: u32, seconds: u32, at: impl Fn(u32) -> Second) -> Vec<u8> {
    let mut csv = String::from(
        "timestamp, index, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB], driver_version, clocks_event_reasons.active\n",
    );
    for t in 0..seconds {
        let s = at(t);
        let (m, sec) = (45 + t / 60, t % 60);
        let (h, m) = (11 + m / 60, m % 60);
        let _ = writeln!(
            csv,
            "2025/01/01 {h:02}:{m:02}:{sec:02}.000, 0, {name}, {} %, {} MiB, {total_mib} MiB, 550.54.15, 0x{:016x}",
            s.util, s.mem_mib, s.mask
        );
    }
    csv.into_bytes()
}

/// The case: 1199 s of telemetry; the 412 s result ends at 12:00:00,
/// so it ran 11:53:08–12:00:00 = t 488–900 s. Inside: `warmup` s idle, then
/// busy; a hardware thermal slowdown at t 600–659 (60 s); the power cap at
/// t 700–799; 20480 MiB used. Outside: idle, and another job's 75000 MiB
/// before the window.
fn capture(name: &str, warmup: u32) -> Vec<u8> {
    smi(name, 46_068, 1200, |t| {
        let inside = (488..=900).contains(&t);
        Second {
            util: if inside && t >= 488 + warmup { 95 } else { 0 },
            mem_mib: if inside {
                20_480
            } else if t < 488 {
                75_000
            } else {
                500
            },
            mask: if (600..660).contains(&t) {
                0x40
            } else if (700..800).contains(&t) {
                0x4
            } else {
                0
            },
        }
    })
}

fn merged(result: &[u8], telemetry: &[u8]) -> super::super::CanonicalRun {
    let r = parse(result, None).expect("result parses");
    let t = parse(telemetry, None).expect("telemetry parses");
    merge(r, t)
}

fn reason<'a>(v: &'a super::super::Verdict, code: &str) -> &'a super::super::VerdictReason {
    v.reasons
        .iter()
        .find(|r| r.reason.code() == code)
        .unwrap_or_else(|| panic!("no {code} in {:?}", v.reasons))
}

#[test]
fn vllm_date_and_duration_give_the_window() {
    let r = parse(&vllm(Some("20250101-120000"), 412.0, None), None).expect("parses");
    assert_eq!(r.ended_at.as_deref(), Some("2025-01-01T12:00:00"));
    assert_eq!(r.started_at.as_deref(), Some("2025-01-01T11:53:08"));
    let t = parse(&capture("NVIDIA L40S", 0), None).expect("parses");
    assert_eq!(t.telemetry_origin.as_deref(), Some("2025-01-01T11:45:00"));
    assert_eq!(t.duration_s, Some(1199.0));
    let whole = t.throttle.as_ref().expect("throttle");
    assert_eq!((whole.active_s, whole.power_cap_s), (60.0, Some(100.0)));
}

/// 60 s of slowdown in a 412 s run is 14.6 %: invalid by the 10 % rule
/// (over the 1199 s capture it would look like 5 %).
#[test]
fn slowdown_is_judged_inside_the_results_window() {
    let run = merged(
        &vllm(Some("20250101-120000"), 412.0, Some("1xNVIDIA_L40S")),
        &capture("NVIDIA L40S", 0),
    );
    let v = judge(&run, &VerdictContext::default());
    assert_eq!(
        reason(&v, "run_window").reason,
        Reason::RunWindow {
            start_s: 488.0,
            end_s: 900.0,
            covered_share: 1.0
        }
    );
    let slow = reason(&v, "thermal_or_power_slowdown");
    assert_eq!(slow.severity, Severity::Invalid);
    let Reason::ThermalOrPowerSlowdown {
        active_s,
        share: Some(share),
        reasons,
        ..
    } = &slow.reason
    else {
        panic!("{slow:?}");
    };
    assert_eq!(
        (*active_s, reasons.as_slice()),
        (60.0, &[ThrottleReason::HwThermalSlowdown][..])
    );
    assert!(
        (share - 60.0 / 412.0).abs() < 1e-12 && (share * 1000.0).round() == 146.0,
        "{share}"
    );
    assert_eq!(
        reason(&v, "power_capped").reason,
        Reason::PowerCapped {
            active_s: 100.0,
            share: Some(100.0 / 412.0)
        }
    );
    // VRAM inside the window: 20480 MiB × 1.2 fits 46068 MiB; the other
    // job's 75000 MiB before the window does not count.
    assert!(
        !has_reason(&v, |r| matches!(r, Reason::VramHeadroomLow { .. })),
        "{:?}",
        v.reasons
    );
    assert!(!has_reason(&v, |r| matches!(r, Reason::FilesDisagree { .. })));
    assert_eq!(v.status, RunStatus::Invalid);

    let assessed = assess(run.clone(), &VerdictContext::default());
    assert_eq!(assessed.vram_peak_mib, Some(20_480.0));
    assert_eq!(
        assessed
            .extra
            .get(EXTRA_VRAM_PEAK_WHOLE_CAPTURE)
            .and_then(serde_json::Value::as_f64),
        Some(75_000.0)
    );
    assert_eq!(assessed.throttle.as_ref().map(|t| t.active_s), Some(60.0));
    assert_eq!(assessed.warmup_s, Some(0.0));
    assert_eq!(
        assess(assessed.clone(), &VerdictContext::default()),
        assessed,
        "judging again changes nothing"
    );
}

/// No date in the result: the window cannot be placed; say so (info: it is no fault of the
/// run) and judge the whole capture (60 s of max(412, 1199) s = 5 %: a warning, not invalid).
#[test]
fn an_unplaced_result_is_judged_on_the_whole_telemetry() {
    let run = merged(&vllm(None, 412.0, None), &capture("NVIDIA L40S", 0));
    let v = judge(&run, &VerdictContext::default());
    assert_eq!(reason(&v, "run_window_unknown").severity, Severity::Info);
    let slow = reason(&v, "thermal_or_power_slowdown");
    assert_eq!(slow.severity, Severity::Warn);
    assert!(
        matches!(slow.reason, Reason::ThermalOrPowerSlowdown { share: Some(s), .. } if (s - 60.0 / 1199.0).abs() < 1e-12)
    );
}

/// A result written on another clock (8 h off) lies outside the telemetry:
/// the files are not of the same run.
#[test]
fn a_window_outside_the_telemetry_is_invalid() {
    let run = merged(&vllm(Some("20250101-200000"), 412.0, None), &capture("NVIDIA L40S", 0));
    let v = judge(&run, &VerdictContext::default());
    let w = reason(&v, "run_window");
    assert_eq!(w.severity, Severity::Invalid);
    assert!(matches!(w.reason, Reason::RunWindow { covered_share, .. } if covered_share == 0.0));
    // Half inside: a warning.
    let run = merged(&vllm(Some("20250101-121000"), 412.0, None), &capture("NVIDIA L40S", 0));
    let w = reason(&judge(&run, &VerdictContext::default()), "run_window").clone();
    assert_eq!(w.severity, Severity::Warn);
    assert!(
        matches!(w.reason, Reason::RunWindow { covered_share, .. } if (covered_share - 111.0 / 412.0).abs() < 1e-12)
    );
}

/// The warm-up is found inside the window; a whole-run figure includes it:
/// 27 s of 412 s is information, 60 s is over 10 % and invalid.
#[test]
fn a_whole_run_figure_says_how_much_warmup_it_includes() {
    let run = merged(&vllm(Some("20250101-120000"), 412.0, None), &capture("NVIDIA L40S", 0));
    assert!(
        !judge(&run, &VerdictContext::default())
            .reasons
            .iter()
            .any(|r| r.reason.code() == "warmup_included")
    );
    for (idle, severity) in [(30, Severity::Info), (60, Severity::Invalid)] {
        let run = merged(
            &vllm(Some("20250101-120000"), 412.0, None),
            &capture("NVIDIA L40S", idle),
        );
        let v = judge(&run, &VerdictContext::default());
        let r = reason(&v, "warmup_included");
        let Reason::WarmupIncluded {
            warmup_s,
            duration_s,
            share,
            max_share,
        } = r.reason
        else {
            panic!("{r:?}");
        };
        // The 30 s rolling mean reaches 85 % (95 − 10 points) 27 s before the idle stretch ends.
        assert_eq!(
            (warmup_s, duration_s, max_share),
            (f64::from(idle) - 3.0, 412.0, 0.1),
            "{r:?}"
        );
        assert!((share - warmup_s / 412.0).abs() < 1e-12);
        assert_eq!(r.severity, severity, "{warmup_s} s of 412 s");
        // Too short is judged after the warm-up.
        assert_eq!(
            reason(&v, "short_run").reason,
            Reason::ShortRun {
                duration_s: 412.0,
                warmup_s,
                min_s: 600.0
            }
        );
    }
}

/// `1xNVIDIA_L40S` in the result, an A100 in the telemetry: not the same node.
#[test]
fn a_result_and_telemetry_of_different_gpus_are_invalid() {
    let run = merged(
        &vllm(Some("20250101-120000"), 412.0, Some("1xNVIDIA_L40S")),
        &capture("NVIDIA A100-SXM4-80GB", 0),
    );
    assert_eq!(
        run.result_node.as_ref().and_then(|n| n.gpu_name.as_deref()),
        Some("NVIDIA L40S")
    );
    assert_eq!(run.result_node.as_ref().and_then(|n| n.gpu_count), Some(1));
    let v = judge(&run, &VerdictContext::default());
    let r = reason(&v, "files_disagree");
    assert_eq!(r.severity, Severity::Invalid);
    assert_eq!(
        r.reason,
        Reason::FilesDisagree {
            difference: Difference::GpuModel,
            result: "NVIDIA L40S".into(),
            telemetry: "NVIDIA A100-SXM4-80GB".into()
        }
    );
    // Two GPUs named, one seen: fewer GPUs is invalid; the telemetry seeing
    // more GPUs than the benchmark used is normal.
    let run = merged(
        &vllm(Some("20250101-120000"), 412.0, Some("2xNVIDIA_L40S")),
        &capture("NVIDIA L40S", 0),
    );
    let r = reason(&judge(&run, &VerdictContext::default()), "files_disagree").clone();
    assert_eq!(
        (r.severity, r.reason),
        (
            Severity::Invalid,
            Reason::FilesDisagree {
                difference: Difference::FewerGpus,
                result: "2".into(),
                telemetry: "1".into()
            }
        )
    );
}
