//! One scale for a whole column of "cost per unit of work".
//!
//! Each [`super::CostPerUnit`] of an estimate is written at the smallest of 1, 1,000 or
//! 1,000,000 units that shows at least 0.01 of its currency, which is right for one quote alone
//! and wrong in a column: "¥2.57 per 1,000,000 tokens" above "¥0.048 per 1,000 tokens" puts the
//! dearer quote (¥48 per million) under the cheaper one and reads as cheaper. A column compares
//! only when every row is at one scale, written once in its header.
//!
//! The scale of a column is the smallest of [`SCALES`] at which its median row shows at least
//! 0.01 (the lower of the two middle rows for an even count: the scale then suits the cheaper
//! half too), so the typical row is readable and the others are exact decimals at the same scale.
//!
//! Worked example: 2,000,000,000 tokens for ¥5,140 (¥0.00000257 a token) and for ¥96,000
//! (¥0.000048 a token): the median (the lower middle, ¥0.00000257) needs 1,000,000 tokens to
//! show a cent, so both rows are per 1,000,000 tokens: ¥2.57 and ¥48.00.
//!
//! A row cheaper than the median may still cost less than one minor unit at the column's scale.
//! Such a cost keeps [`PER_UNIT_SIGNIFICANT`] significant digits ([`derived`]) rather than two
//! digits more than the minor unit, which would leave ¥0.003457 as ¥0.0035.

use rust_decimal::Decimal;

/// The scales a cost per unit is written at.
pub const SCALES: [u32; 3] = [1, 1_000, 1_000_000];

/// The scale of a column whose rows cost `per_unit` each (the cost of one unit of work, in one
/// currency). Zero-cost rows are left out of the median; a column of none is per 1.
#[must_use]
pub fn column_scale(per_unit: &[Decimal]) -> u32 {
    let mut costs: Vec<Decimal> = per_unit
        .iter()
        .copied()
        .filter(|c| !c.is_zero())
        .map(|c| c.abs())
        .collect();
    if costs.is_empty() {
        return 1;
    }
    costs.sort_unstable();
    let median = costs[(costs.len() - 1) / 2];
    let cent = Decimal::new(1, 2);
    SCALES
        .into_iter()
        .find(|&s| median.checked_mul(Decimal::from(s)).is_some_and(|v| v >= cent))
        .unwrap_or(SCALES[SCALES.len() - 1])
}

/// The most significant digits a per-unit figure below one minor unit keeps.
pub const PER_UNIT_SIGNIFICANT: u32 = 4;

/// A derived per-unit cost as kept and exported: two digits more than the currency's `minor`
/// digits, and at least [`PER_UNIT_SIGNIFICANT`] significant digits below one minor unit
/// (rounded half away from zero). *Example:* CNY 14.72416 → 14.7242; 0.00345678 → 0.003457.
#[must_use]
pub fn derived(cost: Decimal, minor: u32) -> Decimal {
    let below_minor = !cost.is_zero() && cost.abs() < Decimal::new(1, minor);
    let mut digits = minor + 2;
    if below_minor {
        digits = digits.max(significant_scale(cost, PER_UNIT_SIGNIFICANT));
    }
    cost.round_dp_with_strategy(digits, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
}

/// The decimals that keep `significant` significant digits of `amount` (not zero, below 1):
/// 0.0034567 has its first significant digit at the 3rd decimal, so 4 digits need 6 decimals.
#[must_use]
pub fn significant_scale(amount: Decimal, significant: u32) -> u32 {
    let n = amount.abs().normalize();
    let mantissa_digits = u32::try_from(n.mantissa().unsigned_abs().to_string().len()).unwrap_or(28);
    let first = (n.scale() + 1).saturating_sub(mantissa_digits);
    (first + significant - 1).min(28)
}

/// The cost of `scale` units of work when `work` units cost `total`, with `digits` decimal
/// places (rounded half away from zero); `None` without work.
#[must_use]
pub fn at_scale(total: Decimal, work: Decimal, scale: u32, digits: u32) -> Option<Decimal> {
    if work.is_zero() {
        return None;
    }
    let cost = total.checked_mul(Decimal::from(scale))?.checked_div(work)?;
    Some(cost.round_dp_with_strategy(digits, rust_decimal::RoundingStrategy::MidpointAwayFromZero))
}

#[cfg(test)]
mod tests {
    use super::{at_scale, column_scale, derived};
    use rust_decimal_macros::dec;

    #[test]
    fn the_median_row_decides_the_scale() {
        assert_eq!(column_scale(&[]), 1);
        assert_eq!(column_scale(&[dec!(0)]), 1);
        assert_eq!(column_scale(&[dec!(10)]), 1);
        assert_eq!(column_scale(&[dec!(0.01)]), 1);
        assert_eq!(column_scale(&[dec!(0.0099)]), 1_000);
        assert_eq!(column_scale(&[dec!(0.00000257)]), 1_000_000);
        assert_eq!(column_scale(&[dec!(0.000000001)]), 1_000_000, "no larger scale");
        // One dear outlier does not pull a column of cheap rows to per 1.
        assert_eq!(column_scale(&[dec!(0.000002), dec!(0.000003), dec!(5)]), 1_000_000);
        // Even count: the lower middle row.
        assert_eq!(column_scale(&[dec!(0.000048), dec!(0.00000257)]), 1_000_000);
        assert_eq!(column_scale(&[dec!(0.02), dec!(0.5), dec!(0), dec!(0)]), 1);
    }

    /// The example of the module docs: a dearer quote never reads as the cheaper one.
    #[test]
    fn rows_of_different_magnitudes_share_the_scale() {
        let work = dec!(2_000_000_000);
        let (cheap, dear) = (dec!(5140), dec!(96000));
        let scale = column_scale(&[cheap / work, dear / work]);
        assert_eq!(scale, 1_000_000);
        let cells = [at_scale(cheap, work, scale, 4), at_scale(dear, work, scale, 4)];
        assert_eq!(cells, [Some(dec!(2.57)), Some(dec!(48.00))]);
        assert!(cells[0] < cells[1], "the order of the cells is the order of the costs");
        assert_eq!(at_scale(dec!(1), dec!(0), scale, 4), None);
    }

    /// Below one minor unit a cost keeps four significant digits, so a cheap row never reads
    /// as a rounder figure than it is; at or above it, two digits more than the minor unit.
    #[test]
    fn a_cost_below_one_minor_unit_keeps_four_significant_digits() {
        assert_eq!(derived(dec!(14.72416), 2), dec!(14.7242));
        assert_eq!(derived(dec!(0.00345678), 2), dec!(0.003457));
        assert_eq!(derived(dec!(0.0000123456), 2), dec!(0.00001235));
        assert_eq!(derived(dec!(0.01), 2), dec!(0.01));
        assert_eq!(derived(dec!(0.009999), 2), dec!(0.009999));
        assert_eq!(derived(dec!(0), 2), dec!(0));
        // JPY has no minor digits: one yen is its minor unit.
        assert_eq!(derived(dec!(0.123456), 0), dec!(0.1235));
        assert_eq!(derived(dec!(-0.00345678), 2), dec!(-0.003457));
    }
}
