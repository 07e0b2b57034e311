use proptest::prelude::*;

use super::super::smi_value::parse_num;
use super::super::{
    CanonicalRun, EXTRA_TELEMETRY_SOURCE, Format, Interval, TelemetrySample, Throttle, ThrottleReason, VerdictContext,
    assess, detect, parse, parse_nvidia_smi,
};
use super::FIXTURES;

fn parse_all_ways(bytes: &[u8]) {
    let _ = detect(bytes);
    let _ = parse(bytes, None);
    for f in Format::ALL {
        let _ = parse(bytes, Some(*f));
    }
    let _ = parse_nvidia_smi(bytes);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn parse_never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..1024)) {
        parse_all_ways(&bytes);
    }

    #[test]
    fn parse_never_panics_on_mutated_fixtures(
        which in 0..FIXTURES.len(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..8),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let mut bytes = FIXTURES[which].1.to_vec();
        for (at, byte, op) in edits {
            if bytes.is_empty() { break; }
            let i = at.index(bytes.len());
            match op {
                0 => bytes[i] = byte,
                1 => bytes.insert(i, byte),
                _ => { bytes.remove(i); }
            }
        }
        if truncate && !bytes.is_empty() {
            let keep = cut.index(bytes.len());
            bytes.truncate(keep);
        }
        parse_all_ways(&bytes);
    }

    #[test]
    fn ascii_csv_like_noise_never_panics(rows in proptest::collection::vec(
        proptest::collection::vec(prop::sample::select(vec![
            "timestamp", "index", "2024/05/01 12:00:00.1", "0", "7", "[N/A]", "Active", "0xFFFF",
            "45 %", "-1e308", "99999999999999999999", "utilization.gpu [%]", "memory.used [MiB]",
            "clocks_event_reasons.active", "", "Enabled",
        ]), 1..6), 1..20)) {
        let csv: String = rows.iter().map(|r| r.join(",") + "\n").collect();
        parse_all_ways(csv.as_bytes());
    }

    #[test]
    fn number_parser_matches_std(v in -1.0e9f64..1.0e9, decimals in 0usize..7) {
        let text = format!("{v:.decimals$}");
        let expected: f64 = text.parse().expect("std parses its own output");
        prop_assert_eq!(parse_num(format!("{text} W").as_bytes()), Some(expected));
    }

    #[test]
    fn judge_never_panics_on_odd_numbers(
        nums in proptest::collection::vec(prop_oneof![
            Just(f64::NAN), Just(f64::INFINITY), Just(f64::NEG_INFINITY), Just(0.0), Just(-1.0), any::<f64>()
        ], 8),
        samples in proptest::collection::vec((any::<f64>(), 0u32..3, proptest::option::of(any::<f64>())), 0..50),
    ) {
        let mut run = CanonicalRun::new(Format::Canonical);
        run.duration_s = Some(nums[0]);
        run.gpu_util_mean_pct = Some(nums[1]);
        run.vram_peak_mib = Some(nums[2]);
        run.node.vram_total_mib = Some(nums[3]);
        run.throttle = Some(Throttle { active_s: nums[4], reasons: Vec::new(), power_cap_s: Some(nums[5]) });
        run.intervals = samples.iter().map(|(t, _, v)| Interval { t: *t, dt: nums[6], value: v.unwrap_or(nums[7]) }).collect();
        run.telemetry = samples.into_iter().map(|(t, gpu, util_pct)| TelemetrySample {
            t, gpu, util_pct, mem_used_mib: util_pct, sm_clock_mhz: None, temp_c: None, power_w: None,
            throttle_reasons: if gpu == 1 { vec![ThrottleReason::HwSlowdown, ThrottleReason::SwPowerCap] } else { Vec::new() },
        }).collect();
        run.started_at = Some("2025-01-01T00:00:00".into());
        run.telemetry_origin = Some("2024-12-31T23:59:00".into());
        run.extra.insert(EXTRA_TELEMETRY_SOURCE.into(), "nvidia_smi".into());
        let headroom_pct = rust_decimal::Decimal::from_f64_retain(nums[5]).unwrap_or_default();
        let mut ctx = VerdictContext { headroom_pct, ..VerdictContext::default() };
        ctx.thresholds.warmup_window_s = nums[6];
        ctx.thresholds.warmup_tolerance_pct = nums[7];
        let _ = assess(run, &ctx);
    }
}
