//! Machine-readable error codes. The UI translates them (zh-CN / English); nothing here is prose.

use rust_decimal::Decimal;
use serde::Serialize;
use std::fmt;

/// Why a value was rejected. [`ErrorCode::code`] is the stable snake-case identifier.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum ErrorCode {
    /// A required value is empty or missing.
    Required,
    /// The value must be greater than zero.
    NotPositive,
    /// The value must not be negative.
    Negative,
    /// The value is larger than the sane maximum `max`.
    TooLarge {
        /// The largest accepted value.
        #[serde(with = "rust_decimal::serde::str")]
        max: Decimal,
    },
    /// The text is longer than `max_chars` characters.
    TooLong {
        /// The longest accepted length, in characters.
        max_chars: usize,
    },
    /// The value lies outside `allowed` (interval notation, e.g. `(0, 1)` or `[15, 25]`).
    OutOfRange {
        /// The allowed interval.
        allowed: &'static str,
    },
    /// Contains a character that is reserved here (`;` or `=` in a fee label).
    ReservedCharacter,
    /// Not a `YYYY-MM-DD` calendar date.
    InvalidDate,
    /// The end date lies before the start date (`valid_until` before `received_on`).
    EndBeforeStart,
    /// Usable VRAM exceeds the GPU's VRAM.
    ExceedsVram,
    /// A monthly price without a commitment term, or the other way round.
    IncompleteCommitment,
    /// Neither a run length in hours nor a total amount of work was given.
    NoWorkSize,
    /// Not a decimal number.
    InvalidNumber,
    /// Not a whole number in range.
    InvalidInteger,
    /// Not one of `true/false/yes/no/1/0/是/否`.
    InvalidBool,
    /// Not one of the allowed snake-case values.
    InvalidChoice,
    /// Not an ISO 4217 code (three letters).
    InvalidCurrency,
    /// A well-formed currency code that is not supported.
    UnknownCurrency,
    /// A fee list cell that is not `label=amount;label=amount`.
    InvalidFeeList,
    /// A `GpuInfo` cell that cannot be read, at character `offset`.
    InvalidGpuInfo {
        /// Byte offset in the cell where reading failed.
        offset: usize,
    },
    /// The same quote appears on an earlier line of the file.
    Duplicate {
        /// The line where it first appears.
        first_line: u64,
    },
    /// The row has a different number of cells than the header.
    FieldCount {
        /// Cells in the header.
        expected: usize,
        /// Cells in this row.
        found: usize,
    },
    /// The row is not well-formed CSV.
    MalformedRow,
    /// Not a date and time (`2026-12-15 18:00`, with an optional zone such as `+08:00`).
    InvalidMoment,
    /// Neither a date and time nor hours from the start (`48 h`, `2 d`).
    InvalidDeadline,
    /// A price of 0 written as a number: write `free` for a free offer, or leave it empty when
    /// the vendor offers no such price.
    ZeroNeedsFree,
    /// Neither an on-demand price nor a package price: the sheet prices nothing.
    NoPriceOffered,
    /// Not a length of time with a unit (`10 min`, `15分钟`, `1 h`, `per day`).
    InvalidDuration,
    /// Not traffic tiers written `UP_TO:PRICE; …; *:PRICE` with rising bounds.
    InvalidTiers,
    /// Two prices for the same thing (a flat price beside tiers, a stopped share beside a
    /// stopped rate), or a partial stopped price on a sheet that says stopped nodes bill nothing.
    ConflictingPrices,
}

impl ErrorCode {
    /// The stable machine code, e.g. `too_large`.
    pub const fn code(&self) -> &'static str {
        match self {
            ErrorCode::Required => "required",
            ErrorCode::NotPositive => "not_positive",
            ErrorCode::Negative => "negative",
            ErrorCode::TooLarge { .. } => "too_large",
            ErrorCode::TooLong { .. } => "too_long",
            ErrorCode::OutOfRange { .. } => "out_of_range",
            ErrorCode::ReservedCharacter => "reserved_character",
            ErrorCode::InvalidDate => "invalid_date",
            ErrorCode::EndBeforeStart => "end_before_start",
            ErrorCode::ExceedsVram => "exceeds_vram",
            ErrorCode::IncompleteCommitment => "incomplete_commitment",
            ErrorCode::NoWorkSize => "no_work_size",
            ErrorCode::InvalidNumber => "invalid_number",
            ErrorCode::InvalidInteger => "invalid_integer",
            ErrorCode::InvalidBool => "invalid_bool",
            ErrorCode::InvalidChoice => "invalid_choice",
            ErrorCode::InvalidCurrency => "invalid_currency",
            ErrorCode::UnknownCurrency => "unknown_currency",
            ErrorCode::InvalidFeeList => "invalid_fee_list",
            ErrorCode::InvalidGpuInfo { .. } => "invalid_gpu_info",
            ErrorCode::Duplicate { .. } => "duplicate",
            ErrorCode::FieldCount { .. } => "field_count",
            ErrorCode::MalformedRow => "malformed_row",
            ErrorCode::InvalidMoment => "invalid_moment",
            ErrorCode::InvalidDeadline => "invalid_deadline",
            ErrorCode::ZeroNeedsFree => "zero_needs_free",
            ErrorCode::NoPriceOffered => "no_price_offered",
            ErrorCode::InvalidDuration => "invalid_duration",
            ErrorCode::InvalidTiers => "invalid_tiers",
            ErrorCode::ConflictingPrices => "conflicting_prices",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl std::error::Error for ErrorCode {}

/// A rejected field: its dotted path (e.g. `spec.vram_gib`) and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// The dotted path of the field, relative to the validated value.
    pub field: &'static str,
    /// Why it was rejected.
    #[serde(flatten)]
    pub code: ErrorCode,
}

impl FieldError {
    /// An error for `field` with `code`.
    pub const fn new(field: &'static str, code: ErrorCode) -> Self {
        FieldError { field, code }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.code)
    }
}

impl std::error::Error for FieldError {}
