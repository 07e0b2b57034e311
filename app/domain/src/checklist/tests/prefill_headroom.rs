//! Pre-fill of the VRAM headroom item: the one VRAM rule, its boundaries and the leak check.

use rust_decimal::Decimal;
use rust_decimal_macros::dec;

use super::super::{AnswerCode as C, Fact, Prefill, PrefillFacts, Suggested as S, prefill};

use super::prefill::{get, suggestion};

fn headroom_at(peak: u64, usable: u64, pct: Decimal) -> (S, C) {
    let f = PrefillFacts {
        vram_peak_mib: Some(peak),
        usable_vram_mib: Some(usable),
        headroom_pct: Some(pct),
        ..Default::default()
    };
    suggestion("gpu.vram_headroom", &f)
}

fn headroom(peak: u64, usable: u64) -> (S, C) {
    headroom_at(peak, usable, dec!(15))
}

fn short(pct: i64, wanted: Decimal, required: Decimal) -> (S, C) {
    let code = C::HeadroomBelowRange {
        pct,
        wanted_pct: wanted,
        required_mib: required,
    };
    (S::Problem, code)
}

#[test]
fn headroom_uses_the_one_vram_rule_with_the_workloads_headroom() {
    // The case: a 20 GiB peak at 20 % on a 24 GiB A10 fits exactly (required 24 GiB).
    assert_eq!(
        headroom_at(20 * 1024, 24 * 1024, dec!(20)),
        (S::Confirmed, C::HeadroomWithinRange { pct: 20 })
    );
    // The same card at 25 % headroom needs 25 GiB = 25 600 MiB: short.
    assert_eq!(
        headroom_at(20 * 1024, 24 * 1024, dec!(25)),
        short(20, dec!(25), dec!(25600))
    );
    // 17 % over the peak is within 15–25 % but below the 20 % this workload asks for.
    assert_eq!(headroom_at(100, 117, dec!(20)), short(17, dec!(20), dec!(120)));
    // Agrees with `vram::assess` on every figure.
    for (peak, usable, pct) in [(100, 120, dec!(20)), (100, 119, dec!(20)), (20_480, 24_576, dec!(20))] {
        let h = crate::vram::assess(Decimal::from(peak), pct, Decimal::from(usable));
        let (status, _) = headroom_at(peak, usable, pct);
        assert_eq!(status == S::Problem, !h.fits, "{peak} {usable} {pct}");
    }
}

#[test]
fn headroom_boundaries_at_exactly_15_and_25_percent() {
    assert_eq!(headroom(100, 115), (S::Confirmed, C::HeadroomWithinRange { pct: 15 }));
    assert_eq!(headroom(100, 125), (S::Confirmed, C::HeadroomWithinRange { pct: 25 }));
    assert_eq!(
        headroom(20_000, 23_000),
        (S::Confirmed, C::HeadroomWithinRange { pct: 15 })
    );
    assert_eq!(
        headroom(20_000, 25_000),
        (S::Confirmed, C::HeadroomWithinRange { pct: 25 })
    );
    // Just below 15 % and just above 25 %, without rounding.
    assert_eq!(headroom(20_000, 22_999), short(14, dec!(15), dec!(23000)));
    assert_eq!(
        headroom(20_000, 25_001),
        (S::Confirmed, C::HeadroomAboveRange { pct: 25 })
    );
    assert_eq!(headroom(100, 114), short(14, dec!(15), dec!(115)));
    assert_eq!(headroom(100, 126), (S::Confirmed, C::HeadroomAboveRange { pct: 26 }));
    assert_eq!(headroom(100, 90), short(-10, dec!(15), dec!(115)));
    assert_eq!(headroom(3, 2), short(-34, dec!(15), dec!(3.45)));
    assert_eq!(
        headroom(0, 100),
        (
            S::Open,
            C::InvalidFact {
                fact: Fact::VramPeakMib
            }
        )
    );
}

#[test]
fn the_leak_check_applies_only_when_the_peak_is_near_the_limit() {
    let f = |peak, usable| PrefillFacts {
        vram_peak_mib: Some(peak),
        usable_vram_mib: Some(usable),
        headroom_pct: Some(dec!(20)),
        ..Default::default()
    };
    assert_eq!(
        suggestion("gpu.memory_leak_check", &f(20 * 1024, 24 * 1024)),
        (S::NotApplicable, C::PeakNotNearLimit { pct: 20 })
    );
    assert_eq!(
        suggestion("gpu.memory_leak_check", &f(22 * 1024, 24 * 1024)),
        (S::Open, C::PeakNearLimit { pct: 9 })
    );
    assert_eq!(
        prefill(get("gpu.memory_leak_check"), &PrefillFacts::default()),
        Prefill::Missing(vec![Fact::VramPeakMib, Fact::UsableVramMib, Fact::HeadroomPct])
    );
}
