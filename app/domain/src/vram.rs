//! The one VRAM headroom rule, used by the quote's requirement check, the run verdict and the
//! checklist pre-fill so that the three can never disagree.
//!
//! Rule (checklist item `gpu.vram_headroom`: keep about 15 % to 25 % extra room on top of the peak):
//!
//! ```text
//! required per GPU = peak × (1 + headroom ÷ 100)      headroom from the workload, 15–25 %
//! fits            ⇔ usable ≥ required                 usable = the slice for MIG/vGPU
//! actual headroom = (usable − peak) ÷ peak × 100      whole percent, rounded down
//! ```
//!
//! `usable` is what the job can allocate on one GPU: the quote's usable VRAM, the MIG/vGPU
//! slice's memory, or the memory a run observed — never a parent GPU's memory for a slice.
//! Every comparison is exact decimal arithmetic (no floating point): a 20 GiB peak with 20 %
//! headroom needs exactly 24 GiB and fits a 24 GiB A10.
//!
//! Amounts are in any one unit (MiB or GiB) as long as peak and usable use the same one.

use rust_decimal::Decimal;

/// How far a run's observed memory per GPU may fall short of (or exceed) the quoted usable
/// memory before the two are different cards, percent. GDDR6 cards with ECC on report 1/16
/// less (an A10's 23,028 MiB of 24 GiB, 6.3 % short). The run verdict and the checklist both
/// use this one figure.
pub const VRAM_TOLERANCE_PCT: u64 = 7;

/// What the rule says about one GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Headroom {
    /// The workload's peak VRAM per GPU.
    pub peak: Decimal,
    /// The headroom the workload asks for, percent.
    pub headroom_pct: Decimal,
    /// peak × (1 + headroom ÷ 100).
    pub required: Decimal,
    /// What one GPU (or slice) offers.
    pub usable: Decimal,
    /// (usable − peak) ÷ peak × 100, rounded down to a whole percent; `None` for a zero peak.
    pub actual_pct: Option<i64>,
    /// `usable ≥ required`.
    pub fits: bool,
}

/// peak × (1 + headroom ÷ 100), saturating (never panics on huge inputs).
#[must_use]
pub fn required(peak: Decimal, headroom_pct: Decimal) -> Decimal {
    let factor = Decimal::ONE.saturating_add(headroom_pct / Decimal::ONE_HUNDRED);
    peak.saturating_mul(factor)
}

/// Applies the rule to one GPU: `peak` and `usable` in the same unit, `headroom_pct` in
/// percent (the workload's, 15–25).
#[must_use]
pub fn assess(peak: Decimal, headroom_pct: Decimal, usable: Decimal) -> Headroom {
    let required = required(peak, headroom_pct);
    let actual_pct = if peak.is_zero() {
        None
    } else {
        let over = usable.saturating_sub(peak).saturating_mul(Decimal::ONE_HUNDRED);
        i64::try_from((over / peak).floor()).ok()
    };
    Headroom {
        peak,
        headroom_pct,
        required,
        usable,
        actual_pct,
        fits: usable >= required,
    }
}

/// MiB from GiB (× 1024), saturating.
#[must_use]
pub fn gib_to_mib(gib: Decimal) -> Decimal {
    gib.saturating_mul(Decimal::from(1024))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rust_decimal_macros::dec;

    #[test]
    fn a_20_gib_peak_at_20_percent_fits_a_24_gib_a10_exactly() {
        let h = assess(dec!(20), dec!(20), dec!(24));
        assert_eq!(h.required, dec!(24));
        assert!(h.fits);
        assert_eq!(h.actual_pct, Some(20));
    }

    #[test]
    fn a_hundredth_short_does_not_fit() {
        assert!(!assess(dec!(20), dec!(20), dec!(23.99)).fits);
        assert!(assess(dec!(20), dec!(15), dec!(23)).fits);
        assert!(!assess(dec!(20), dec!(25), dec!(24.99)).fits);
        assert!(assess(dec!(20), dec!(25), dec!(25)).fits);
    }

    #[test]
    fn units_do_not_change_the_answer() {
        let gib = assess(dec!(20), dec!(20), dec!(24));
        let mib = assess(gib_to_mib(dec!(20)), dec!(20), gib_to_mib(dec!(24)));
        assert_eq!((gib.fits, gib.actual_pct), (mib.fits, mib.actual_pct));
    }

    #[test]
    fn peak_above_usable_has_negative_headroom_and_zero_peak_none() {
        assert_eq!(assess(dec!(30), dec!(20), dec!(24)).actual_pct, Some(-20));
        assert_eq!(assess(dec!(0), dec!(20), dec!(24)).actual_pct, None);
        assert!(assess(dec!(0), dec!(20), dec!(24)).fits);
    }

    #[test]
    fn huge_inputs_saturate_instead_of_panicking() {
        let h = assess(Decimal::MAX, dec!(25), Decimal::MIN);
        assert!(!h.fits);
    }

    proptest! {
        /// Fits exactly when the actual headroom is at least the one asked for.
        #[test]
        fn fits_agrees_with_the_actual_headroom(peak in 1u32..200_000, usable in 0u32..400_000, h in 15u32..=25) {
            let a = assess(Decimal::from(peak), Decimal::from(h), Decimal::from(usable));
            let exact = (i64::from(usable) - i64::from(peak)) * 100 >= i64::from(h) * i64::from(peak);
            prop_assert_eq!(a.fits, exact);
        }
    }
}
