//! Collects every field error at once instead of stopping at the first.

use super::error::{ErrorCode, FieldError};
use rust_decimal::Decimal;

/// An error collector for one validated value.
#[derive(Default)]
pub(super) struct Errors(Vec<FieldError>);

impl Errors {
    /// Records `code` for `field`.
    pub(super) fn push(&mut self, field: &'static str, code: ErrorCode) {
        self.0.push(FieldError::new(field, code));
    }

    /// Text that must not be empty (after trimming) and not exceed `max_chars`.
    pub(super) fn required_text(&mut self, field: &'static str, value: &str, max_chars: usize) {
        if value.trim().is_empty() {
            self.push(field, ErrorCode::Required);
        }
        self.text(field, value, max_chars);
    }

    /// Optional text of at most `max_chars` characters.
    pub(super) fn text(&mut self, field: &'static str, value: &str, max_chars: usize) {
        if value.chars().count() > max_chars {
            self.push(field, ErrorCode::TooLong { max_chars });
        }
    }

    /// A value in `[0, max]`.
    pub(super) fn non_negative(&mut self, field: &'static str, value: Decimal, max: Decimal) {
        if value < Decimal::ZERO {
            self.push(field, ErrorCode::Negative);
        } else {
            self.at_most(field, value, max);
        }
    }

    /// A value in `(0, max]`.
    pub(super) fn positive(&mut self, field: &'static str, value: Decimal, max: Decimal) {
        if value <= Decimal::ZERO {
            self.push(field, ErrorCode::NotPositive);
        } else {
            self.at_most(field, value, max);
        }
    }

    /// A count in `[1, max]`.
    pub(super) fn count(&mut self, field: &'static str, value: u32, max: u32) {
        if value == 0 {
            self.push(field, ErrorCode::NotPositive);
        } else {
            self.at_most(field, Decimal::from(value), Decimal::from(max));
        }
    }

    fn at_most(&mut self, field: &'static str, value: Decimal, max: Decimal) {
        if value > max {
            self.push(field, ErrorCode::TooLarge { max });
        }
    }

    /// `Ok` when nothing was recorded, else every error in the order found.
    pub(super) fn finish(self) -> Result<(), Vec<FieldError>> {
        if self.0.is_empty() { Ok(()) } else { Err(self.0) }
    }
}
