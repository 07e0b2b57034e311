//! Checked decimal arithmetic: an overflow becomes a [`TcoError`] naming the figure, never a panic.

use super::error::{ErrorReason, TcoError};
use rust_decimal::Decimal;

/// `a + b`, or an overflow error for `field`.
pub(crate) fn add(a: Decimal, b: Decimal, field: &'static str) -> Result<Decimal, TcoError> {
    a.checked_add(b).ok_or(TcoError::overflow(field))
}

/// `a − b`, or an overflow error for `field`.
pub(crate) fn sub(a: Decimal, b: Decimal, field: &'static str) -> Result<Decimal, TcoError> {
    a.checked_sub(b).ok_or(TcoError::overflow(field))
}

/// `a × b`, or an overflow error for `field`.
pub(crate) fn mul(a: Decimal, b: Decimal, field: &'static str) -> Result<Decimal, TcoError> {
    a.checked_mul(b).ok_or(TcoError::overflow(field))
}

/// `a ÷ b`, or an overflow error for `field` (callers validate `b ≠ 0` beforehand).
pub(crate) fn div(a: Decimal, b: Decimal, field: &'static str) -> Result<Decimal, TcoError> {
    a.checked_div(b).ok_or(TcoError::overflow(field))
}

/// The product of all `factors`, or an overflow error for `field`.
pub(crate) fn product(factors: &[Decimal], field: &'static str) -> Result<Decimal, TcoError> {
    factors.iter().try_fold(Decimal::ONE, |acc, f| mul(acc, *f, field))
}

/// The sum of all `terms`, or an overflow error for `field`.
pub(crate) fn sum(terms: impl IntoIterator<Item = Decimal>, field: &'static str) -> Result<Decimal, TcoError> {
    terms.into_iter().try_fold(Decimal::ZERO, |acc, t| add(acc, t, field))
}

/// Rejects a negative `value` of `field`.
pub(crate) fn non_negative(value: Decimal, field: &'static str) -> Result<Decimal, TcoError> {
    if value < Decimal::ZERO {
        return Err(TcoError::new(field, ErrorReason::Negative));
    }
    Ok(value)
}

/// Rejects a zero or negative `value` of `field`.
pub(crate) fn positive(value: Decimal, field: &'static str) -> Result<Decimal, TcoError> {
    if value <= Decimal::ZERO {
        return Err(TcoError::new(field, ErrorReason::NotPositive));
    }
    Ok(value)
}
