//! Number texts of the cost charts: axis ticks and amounts.

use crate::i18n::grouped;

/// Tick text: whole numbers without decimals, others with one (two below 1).
pub(super) fn tick(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        grouped(&format!("{v:.0}"))
    } else if v.abs() < 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.1}")
    }
}

/// An amount: whole units (grouped by thousands) from 1000 up, else two
/// decimals; then `unit` when not empty; `–` when not finite.
pub(super) fn amount(v: f64, unit: &str) -> String {
    if !v.is_finite() {
        return "–".to_owned();
    }
    // No "-0.00": negative zero (e.g. an empty float sum) prints as zero.
    let v = if v == 0.0 { 0.0 } else { v };
    let number = if v.abs() >= 1000.0 {
        grouped(&format!("{v:.0}"))
    } else {
        format!("{v:.2}")
    };
    if unit.is_empty() {
        number
    } else {
        format!("{number} {unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_and_ticks() {
        assert_eq!(amount(1234.56, "CNY"), "1,235 CNY");
        assert_eq!(amount(12_345.4, ""), "12,345");
        assert_eq!(amount(-1_234_567.0, "$"), "-1,234,567 $");
        assert_eq!(amount(12.5, "元"), "12.50 元");
        assert_eq!(amount(f64::NAN, "元"), "–");
        assert_eq!(amount(-0.0, ""), "0.00");
        assert_eq!(tick(&2000.0), "2,000");
        assert_eq!(tick(&20_000.0), "20,000");
        assert_eq!(tick(&2.5), "2.5");
        assert_eq!(tick(&0.25), "0.25");
    }
}
