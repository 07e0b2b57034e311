//! AMD telemetry, read as nvidia-smi's is. Fixtures (see `fixtures/SOURCES.md`):
//! `amd_smi_metric.csv` is `amd-smi metric --csv --watch 2` on an MI300X node as ROCm's
//! amd-smi CLI writes it (metric.py and amdsmi_logger.py): a banner, the header again before every
//! sample, epoch-second timestamps, `N/A` for what the card does not report (its
//! `throttle_status`); `rocm_smi_stamped.csv` is `rocm-smi --showuse --showmemuse --showpower
//! --showtemp --csv` sampled by the README's loop, which prepends an ISO timestamp.

use super::super::{Format, ParseError, Reason, RunStatus, VerdictContext, judge, parse};
use super::run_of;

const AMD_SMI: &[u8] = include_bytes!("../fixtures/amd_smi_metric.csv");
const ROCM_STAMPED: &[u8] = include_bytes!("../fixtures/rocm_smi_stamped.csv");
const ROCM_BARE: &[u8] = include_bytes!("../fixtures/rocm_smi.csv");

#[test]
fn amd_smi_metric_watch_output_is_telemetry_with_its_own_clock() {
    let run = run_of(AMD_SMI);
    assert_eq!(run.source_format, Format::AmdSmi);
    assert_eq!(run.node.gpu_count, Some(2));
    assert_eq!(run.node.vram_total_mib, Some(196_592.0));
    assert!(
        run.vram_peak_mib.is_some_and(|p| p > 170_000.0),
        "{:?}",
        run.vram_peak_mib
    );
    assert!(run.gpu_util_mean_pct.is_some_and(|u| u > 90.0));
    assert_eq!(run.started_at.as_deref(), Some("2025-10-14T10:12:31"));
    assert!(run.telemetry.iter().all(|s| s.power_w.is_some() && s.temp_c.is_some()));
    assert_eq!(run.throttle, None, "throttle_status N/A on every row: not watched");
}

#[test]
fn rocm_smi_sampled_by_the_loop_reads_its_stamps_and_cards() {
    let run = run_of(ROCM_STAMPED);
    assert_eq!(run.source_format, Format::AmdSmi);
    assert_eq!(run.node.gpu_count, Some(2));
    assert!(run.gpu_util_mean_pct.is_some_and(|u| u > 90.0));
    assert!(run.telemetry.iter().any(|s| s.power_w == Some(700.0)));
    // A bare rocm-smi CSV cannot be placed in time; the message names AMD's tools, not nvidia-smi.
    assert_eq!(parse(ROCM_BARE, None).unwrap_err(), ParseError::AmdNoTimestamp);
    for locale in nodeledger_messages::Locale::ALL {
        let text = locale.t(nodeledger_messages::Msg::RunErrorAmdNoTimestamp);
        assert!(!text.contains("nvidia-smi") && text.contains("amd-smi"), "{text}");
    }
}

/// `amd-smi metric --usage --power --temperature --mem-usage --throttle --csv --watch 5` on an
/// MI300X for 20 minutes: the `--throttle` columns are the CLI's `throttle_header_csv`
/// (ROCm/amdsmi amdsmi_cli), each violation status `FALSE` or `TRUE` as the amd-smi docs print
/// them. A clean capture is judged as an nvidia-smi one; a socket-thermal violation over 10 % of
/// it makes the run invalid.
fn capture(thermal_from_s: Option<u32>) -> String {
    let mut csv = String::from("'CTRL' + 'C' to stop watching output:\n");
    let header = "timestamp,gpu,gfx_activity,umc_activity,socket_power,throttle_status,hotspot,mem,total_vram,used_vram,free_vram,accumulation_counter,prochot_violation_accumulated,prochot_violation_activity,prochot_violation_status,ppt_violation_accumulated,ppt_violation_activity,ppt_violation_status,socket_thermal_violation_accumulated,socket_thermal_violation_activity,socket_thermal_violation_status,vr_thermal_violation_accumulated,vr_thermal_violation_activity,vr_thermal_violation_status,hbm_thermal_violation_accumulated,hbm_thermal_violation_activity,hbm_thermal_violation_status";
    for i in 0..=240u32 {
        let t = 1_760_436_000 + i * 5;
        csv.push_str(header);
        csv.push('\n');
        for gpu in 0..2 {
            let hot = thermal_from_s.is_some_and(|from| i * 5 >= from);
            let status = if hot { "TRUE" } else { "FALSE" };
            csv.push_str(&format!(
                "{t},{gpu},97,40,690,N/A,78,60,196592,170000,26592,{},0,0 %,FALSE,0,0 %,FALSE,0,0 %,{status},0,0 %,FALSE,0,0 %,FALSE\n",
                i * 1000
            ));
        }
    }
    csv
}

fn vllm_inside() -> String {
    // vllm bench serve --save-result: 20 minutes ended at the capture's last sample (local time
    // written without a zone; the upload places it on the telemetry's clock).
    r#"{"date": "20251014-101950", "backend": "vllm", "model_id": "Qwen/Qwen2.5-32B-Instruct", "max_concurrency": 32,
        "duration": 1190.0, "completed": 4000, "failed": 0, "total_output_tokens": 1011500,
        "output_throughput": 850.0, "request_throughput": 3.36}"#
        .to_owned()
}

#[test]
fn a_clean_amd_capture_with_a_result_is_valid_and_a_thermal_violation_is_not() {
    let merged = |telemetry: &str| {
        let result = parse(vllm_inside().as_bytes(), None).expect("a vLLM result");
        let t = parse(telemetry.as_bytes(), None).expect("amd-smi telemetry");
        assert_eq!(t.source_format, Format::AmdSmi);
        super::super::merge(result, t)
    };
    let clean = merged(&capture(None));
    assert!(clean.throttle.is_some(), "the violation statuses were read");
    let v = judge(&clean, &VerdictContext::default());
    assert_eq!(v.status, RunStatus::Valid, "{:?}", v.reasons);
    let hot = merged(&capture(Some(600)));
    let v = judge(&hot, &VerdictContext::default());
    assert_eq!(v.status, RunStatus::Invalid, "{:?}", v.reasons);
    assert!(
        v.reasons
            .iter()
            .any(|r| matches!(r.reason, Reason::ThermalOrPowerSlowdown { .. }))
    );
}
