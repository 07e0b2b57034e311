//! What can be wrong with the inputs, naming the field at fault.

use serde::Serialize;

/// Why a field was rejected. The snake-case name ([`ErrorReason::code`]) is a stable machine code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum ErrorReason {
    /// A price, quantity or number of hours is below zero.
    #[error("must not be negative")]
    Negative,
    /// The value must be greater than zero (throughput, GPUs per node, node count, rate …).
    #[error("must be greater than zero")]
    NotPositive,
    /// The value lies outside its allowed interval.
    #[error("must lie in {allowed}")]
    OutOfRange {
        /// The allowed interval, e.g. `(0, 1]`.
        allowed: &'static str,
    },
    /// A value the model needs was not given (the model never assumes one).
    #[error("is required here")]
    Missing,
    /// Neither a total work with a measured throughput nor a run length in hours was given.
    #[error("needs a run length in hours, or a total work and a measured throughput")]
    NoWorkSize,
    /// The figure does not fit an exact decimal (about 7.9 × 10^28).
    #[error("is too large to compute exactly")]
    Overflow,
    /// Not three upper-case letters A–Z.
    #[error("`{code}` is not an ISO 4217 code")]
    InvalidCurrencyCode {
        /// The rejected text.
        code: String,
    },
    /// A well-formed ISO 4217 code this module has no minor-unit data for.
    #[error("currency `{code}` is not supported")]
    UnknownCurrency {
        /// The rejected code.
        code: String,
    },
    /// The amount's currency is neither side of the exchange rate.
    #[error("currency {currency} does not match the rate {from}/{to}")]
    CurrencyMismatch {
        /// The amount's currency.
        currency: String,
        /// The rate's base currency.
        from: String,
        /// The rate's quote currency.
        to: String,
    },
    /// An exchange rate from a currency to itself.
    #[error("must differ from the base currency")]
    SameCurrency,
    /// No exchange rate converts between these currencies.
    #[error("no exchange rate from {from} to {to}")]
    MissingRate {
        /// Currency to convert from.
        from: String,
        /// Currency to convert to.
        to: String,
    },
    /// Not a `YYYY-MM-DD` date.
    #[error("`{value}` is not a YYYY-MM-DD date")]
    InvalidDate {
        /// The rejected text.
        value: String,
    },
    /// A list that must not be empty is empty.
    #[error("must not be empty")]
    Empty,
    /// The same identifier appears twice.
    #[error("`{value}` appears more than once")]
    Duplicate {
        /// The repeated identifier.
        value: String,
    },
}

impl ErrorReason {
    /// The stable machine code, e.g. `out_of_range`.
    pub const fn code(&self) -> &'static str {
        match self {
            ErrorReason::Negative => "negative",
            ErrorReason::NotPositive => "not_positive",
            ErrorReason::OutOfRange { .. } => "out_of_range",
            ErrorReason::Missing => "missing",
            ErrorReason::NoWorkSize => "no_work_size",
            ErrorReason::Overflow => "overflow",
            ErrorReason::InvalidCurrencyCode { .. } => "invalid_currency_code",
            ErrorReason::UnknownCurrency { .. } => "unknown_currency",
            ErrorReason::CurrencyMismatch { .. } => "currency_mismatch",
            ErrorReason::SameCurrency => "same_currency",
            ErrorReason::MissingRate { .. } => "missing_rate",
            ErrorReason::InvalidDate { .. } => "invalid_date",
            ErrorReason::Empty => "empty",
            ErrorReason::Duplicate { .. } => "duplicate",
        }
    }
}

/// A rejected input or an impossible figure, naming the field at fault.
///
/// `field` is a stable dotted path such as `assumptions.efficiency` or
/// `price_sheet.on_demand_hourly`; computed figures use `estimate.…` (e.g. `estimate.busy_h`).
/// In a scenario, `quote` names the quote whose inputs were rejected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{}{field}: {reason}", quote_prefix(.quote.as_deref()))]
pub struct TcoError {
    /// The dotted path of the field at fault.
    pub field: &'static str,
    /// Why it was rejected.
    #[serde(flatten)]
    pub reason: ErrorReason,
    /// The scenario quote id, when the error came from one quote of a scenario.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
}

fn quote_prefix(quote: Option<&str>) -> String {
    quote.map(|q| format!("quote `{q}`: ")).unwrap_or_default()
}

impl TcoError {
    /// An error for `field` with `reason`, not tied to a quote.
    pub const fn new(field: &'static str, reason: ErrorReason) -> Self {
        TcoError {
            field,
            reason,
            quote: None,
        }
    }

    /// A figure that overflowed while computing `field`.
    pub const fn overflow(field: &'static str) -> Self {
        TcoError::new(field, ErrorReason::Overflow)
    }

    /// The same error, attributed to the scenario quote `id`.
    #[must_use]
    pub fn for_quote(mut self, id: &str) -> Self {
        self.quote = Some(id.to_owned());
        self
    }
}
