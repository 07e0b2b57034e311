//! How the quote list is filtered and sorted: the filter, the price basis across currencies, the
//! sort order, and the SQL they add to a query on the `quote_list` view.

use crate::domain::{
    quotes::Date,
    tco::{Currency, ExchangeRate, latest_rate},
};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sqlx::{QueryBuilder, Sqlite};

/// How the quote list is filtered.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QuoteFilter {
    /// Vendor name (exact, case-insensitive).
    pub vendor: Option<String>,
    /// Part of the GPU model name.
    pub gpu_model: Option<String>,
    /// At least this much VRAM per GPU, GiB.
    pub min_vram_gib: Option<u32>,
    /// Exactly this many GPUs per node.
    pub gpus_per_node: Option<u32>,
    /// Whole GPUs only (no MIG, vGPU or fractional share).
    pub exclusive_only: bool,
    /// Part of the region name.
    pub region: Option<String>,
    /// Node price per hour at most this, in the currency of the [`PriceConversion`] (the team's base
    /// currency; as quoted when the team has none).
    pub max_node_hourly: Option<Decimal>,
    /// Also list quotes whose validity has ended.
    pub include_expired: bool,
}

/// How node prices in different currencies are compared when filtering and sorting by price.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum PriceConversion {
    /// The team has no base currency: prices are compared as quoted.
    #[default]
    AsQuoted,
    /// Prices are compared in the team's base currency. Each entry is a currency that can be
    /// converted (the base itself, and those with a rate into it): one unit of it is worth
    /// `numerator / denominator` units of the base. Quotes in other currencies are left out of a
    /// price filter and listed after the others when sorting by price.
    Base(Vec<PriceFactor>),
}

/// One currency's value in the base currency: `numerator / denominator`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PriceFactor {
    /// ISO 4217 code.
    pub currency: &'static str,
    /// Numerator (the rate when the pair is "1 currency = rate base").
    pub numerator: Decimal,
    /// Denominator (the rate when the pair is "1 base = rate currency").
    pub denominator: Decimal,
}

impl PriceConversion {
    /// The basis for a team with `base` currency and these rates: for each currency, the latest
    /// rate of its pair with the base (either direction).
    pub fn new(base: Option<Currency>, rates: &[ExchangeRate]) -> Self {
        let Some(base) = base else { return Self::AsQuoted };
        let mut factors = vec![PriceFactor {
            currency: base.code(),
            numerator: Decimal::ONE,
            denominator: Decimal::ONE,
        }];
        for currency in Currency::ALL.into_iter().filter(|c| *c != base) {
            if let Some(rate) = latest_rate(rates, currency, base) {
                let (numerator, denominator) = if rate.from == currency {
                    (rate.rate, Decimal::ONE)
                } else {
                    (Decimal::ONE, rate.rate)
                };
                factors.push(PriceFactor {
                    currency: currency.code(),
                    numerator,
                    denominator,
                });
            }
        }
        Self::Base(factors)
    }

    /// The currency prices are compared in (the team's base currency), if any.
    pub fn currency(&self) -> Option<&'static str> {
        match self {
            Self::AsQuoted => None,
            Self::Base(factors) => factors.first().map(|f| f.currency),
        }
    }
}

impl PriceFactor {
    /// The largest node price in this currency, in millionths, whose value in the base currency
    /// is at most `max_base` (exact: no rounding can let a dearer quote through). A bound past
    /// what a stored price can be saturates at `i64::MAX` (or `MIN`); `None` for a zero rate.
    fn max_micros(&self, max_base: Decimal) -> Option<i64> {
        if self.numerator.is_zero() {
            return None;
        }
        let saturated = |negative: bool| Some(if negative { i64::MIN } else { i64::MAX });
        let negative =
            max_base.is_sign_negative() != (self.numerator.is_sign_negative() != self.denominator.is_sign_negative());
        let Some(max_micros) = max_base.checked_mul(Decimal::from(1_000_000)) else {
            return saturated(negative);
        };
        let Some(scaled) = max_micros
            .checked_mul(self.denominator)
            .and_then(|v| v.checked_div(self.numerator))
            .map(|v| v.floor())
        else {
            return saturated(negative);
        };
        // Past what a stored price (i64 micros) can be, every price is below (or above) the bound;
        // saturating here also keeps the ±1 steps below far from a Decimal's limits.
        if scaled >= Decimal::from(i64::MAX) || scaled <= Decimal::from(i64::MIN) {
            return saturated(scaled.is_sign_negative());
        }
        // Division may round; step to the exact boundary: price × num ≤ max × den.
        let fits = |p: Decimal| {
            p.checked_mul(self.numerator)
                .zip(max_micros.checked_mul(self.denominator))
                .is_some_and(|(a, b)| a <= b)
        };
        let bound = if fits(scaled + Decimal::ONE) {
            scaled + Decimal::ONE
        } else if fits(scaled) {
            scaled
        } else {
            scaled - Decimal::ONE
        };
        Some(i64::try_from(bound).unwrap_or(if bound.is_sign_negative() { i64::MIN } else { i64::MAX }))
    }

    /// The factor in billionths, for a sort key (ordering only; never shown as money).
    fn sort_factor(&self) -> i64 {
        let f = self
            .numerator
            .checked_mul(Decimal::from(1_000_000_000))
            .and_then(|v| v.checked_div(self.denominator));
        f.and_then(|v| i64::try_from(v.round()).ok()).unwrap_or(i64::MAX)
    }
}

/// Sort order of the quote list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuoteSort {
    /// Cheapest node-hour first.
    #[default]
    PriceAsc,
    /// Most expensive first.
    PriceDesc,
    /// Most VRAM per GPU first.
    VramDesc,
    /// Newest quote first.
    ReceivedDesc,
    /// Soonest to expire first.
    ValidUntilAsc,
}

/// A node-hour price in millionths, for sorting and filtering.
pub(super) fn micros(price: Decimal) -> Option<i64> {
    let scaled = price.checked_mul(Decimal::from(1_000_000))?.round();
    i64::try_from(scaled).ok()
}

/// Appends the FROM and WHERE of the quote list for `f`: the team's current quotes (latest
/// revisions), valid on `today` unless expired ones are included, prices compared on `basis`.
pub(super) fn push_filter(
    q: &mut QueryBuilder<Sqlite>,
    team_id: i64,
    f: &QuoteFilter,
    basis: &PriceConversion,
    today: Date,
) {
    // `quote_list`: one row per quote, its latest revision's filter and sort columns.
    q.push(" FROM quote_list r");
    if f.vendor.is_some() {
        q.push(" JOIN vendors v ON v.id = r.vendor_id");
    }
    q.push(" WHERE r.team_id = ").push_bind(team_id);
    if let Some(vendor) = &f.vendor {
        q.push(" AND v.name = ").push_bind(vendor.clone());
    }
    if let Some(model) = &f.gpu_model {
        q.push(" AND instr(lower(r.gpu_model), lower(")
            .push_bind(model.clone())
            .push(")) > 0");
    }
    if let Some(gib) = f.min_vram_gib {
        q.push(" AND r.vram_mib >= ").push_bind(i64::from(gib) * 1024);
    }
    if let Some(n) = f.gpus_per_node {
        q.push(" AND r.gpus_per_node = ").push_bind(i64::from(n));
    }
    if f.exclusive_only {
        q.push(" AND r.exclusive = 1");
    }
    if let Some(region) = &f.region {
        q.push(" AND instr(lower(r.region), lower(")
            .push_bind(region.clone())
            .push(")) > 0");
    }
    if let Some(max) = f.max_node_hourly {
        match basis {
            PriceConversion::AsQuoted => {
                q.push(" AND r.node_hourly_micros <= ")
                    .push_bind(micros(max).unwrap_or(i64::MAX));
            }
            PriceConversion::Base(factors) => {
                q.push(" AND (0");
                for factor in factors {
                    if let Some(bound) = factor.max_micros(max) {
                        q.push(" OR (r.currency = ").push_bind(factor.currency);
                        q.push(" AND r.node_hourly_micros <= ").push_bind(bound).push(")");
                    }
                }
                q.push(")");
            }
        }
    }
    if !f.include_expired {
        q.push(" AND r.valid_until >= ").push_bind(today.to_string());
    }
}

/// Appends the ORDER BY for `sort`.
pub(super) fn push_order(q: &mut QueryBuilder<Sqlite>, basis: &PriceConversion, sort: QuoteSort) {
    // The price sort key: the node price in the base currency (billionths of a millionth), NULL
    // for a currency without a rate (listed last); as quoted without a base currency.
    let price_key = |q: &mut QueryBuilder<Sqlite>| match basis {
        PriceConversion::AsQuoted => {
            q.push("r.node_hourly_micros");
        }
        PriceConversion::Base(factors) => {
            q.push("(CASE r.currency");
            for factor in factors {
                q.push(" WHEN ").push_bind(factor.currency);
                q.push(" THEN r.node_hourly_micros * ").push_bind(factor.sort_factor());
            }
            q.push(" END)");
        }
    };
    match sort {
        QuoteSort::ReceivedDesc => {
            q.push(" ORDER BY r.received_on DESC, r.revision_id DESC");
        }
        QuoteSort::ValidUntilAsc => {
            q.push(" ORDER BY r.valid_until, r.revision_id");
        }
        QuoteSort::PriceAsc | QuoteSort::PriceDesc | QuoteSort::VramDesc => {
            q.push(" ORDER BY ");
            if sort == QuoteSort::VramDesc {
                q.push("r.vram_mib DESC, ");
            }
            if matches!(basis, PriceConversion::Base(_)) {
                price_key(q);
                q.push(" IS NULL, ");
            }
            price_key(q);
            q.push(if sort == QuoteSort::PriceDesc {
                " DESC, r.revision_id"
            } else {
                ", r.revision_id"
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn factor(numerator: &str, denominator: &str) -> PriceFactor {
        PriceFactor {
            currency: "USD",
            numerator: numerator.parse().unwrap(),
            denominator: denominator.parse().unwrap(),
        }
    }

    #[test]
    fn price_limits_convert_exactly_at_the_boundary() {
        // 1 X = 1/3 base: at most 1 base is exactly 3 X.
        assert_eq!(factor("1", "3").max_micros(Decimal::ONE), Some(3_000_000));
        // 1 X = 3 base: at most 1 base is 0.333333 X (one micro more would cost over 1 base).
        assert_eq!(factor("3", "1").max_micros(Decimal::ONE), Some(333_333));
        // 1 X = 7.2 base: ¥7.20 buys exactly $1.
        assert_eq!(factor("7.2", "1").max_micros("7.20".parse().unwrap()), Some(1_000_000));
        assert_eq!(factor("7.2", "1").max_micros("7.19".parse().unwrap()), Some(998_611));
        assert_eq!(factor("1", "1").max_micros("-1".parse().unwrap()), Some(-1_000_000));
    }

    #[test]
    fn the_largest_limits_saturate_instead_of_overflowing() {
        // Was a panic on `scaled + 1`; every stored price is below such a bound.
        assert_eq!(factor("1", "1").max_micros(Decimal::MAX), Some(i64::MAX));
        assert_eq!(factor("1", "1").max_micros(Decimal::MIN), Some(i64::MIN));
        let huge: Decimal = "79228162514264337593543".parse().unwrap();
        assert_eq!(factor("1", "1").max_micros(huge), Some(i64::MAX));
        assert_eq!(factor("1", "1").max_micros(-huge), Some(i64::MIN));
        assert_eq!(
            factor("0.0000000000000000000000000001", "1").max_micros(Decimal::ONE),
            Some(i64::MAX)
        );
        assert_eq!(factor("0", "1").max_micros(Decimal::ONE), None);
        // The largest price filter (10^12) still converts exactly.
        assert_eq!(
            factor("1", "7.2").max_micros("1000000000000".parse().unwrap()),
            Some(7_200_000_000_000_000_000)
        );
        assert_eq!(
            factor("1", "1").max_micros("0.0000000000000000000000000001".parse().unwrap()),
            Some(0)
        );
    }

    #[test]
    fn sort_factors_are_billionths() {
        assert_eq!(factor("7.2", "1").sort_factor(), 7_200_000_000);
        assert_eq!(factor("1", "8").sort_factor(), 125_000_000);
    }
}
