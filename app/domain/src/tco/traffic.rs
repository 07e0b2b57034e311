//! Traffic priced in tiers, with a free allowance for the rental or for each month.
//!
//! The rule, per direction (egress, then ingress):
//!
//! * `k` = 1 when the sheet counts over the whole rental; with a monthly period, the number of
//!   billing months the rental touches, ⌈rental hours ÷ 730⌉ (at least 1). The workload's GB
//!   are spread evenly over those months, so each month's allowance and each tier's bounds
//!   count `k` times: the free GB are `k × free GB`, a band up to `B` GB holds `k × B`. (Scaling
//!   the bounds instead of dividing the traffic keeps every figure exact.)
//! * The free GB (egress only) come first; what is left runs through the bands in order, each
//!   band taking up to its size (`k × (up to − previous up to)`), the last, open band the rest.
//!   A direction without tiers is one open band at its flat price.
//! * Each band is one line, quantity × price = cost (rounded to the minor unit); the traffic
//!   component's cost is the exact sum of the bands, rounded once, as a flat price always was.
//!
//! *Example* (a price sheet in the style of the large clouds' published internet egress
//! prices: 100 GB free each month, then 0.09 per GB up to 10 TB, 0.085 up to 50 TB, then 0.07):
//! 12,000 GB out over a rental of 800 h (2 months): free 200 GB; the first band holds
//! 2 × 10,000 = 20,000 GB, so 11,800 GB at 0.09 = 1,062.00. Over a rental of 100 h (1 month)
//! the same traffic is 100 GB free, 10,000 GB at 0.09 = 900.00 and 1,900 GB at 0.085 = 161.50
//! (the bands count the GB billed, after the free ones).

use super::arith::{add, div, mul, sub};
use super::billing::{HOURS_PER_MONTH, SECONDS_PER_HOUR, seconds_ms};
use super::error::TcoError;
use super::model::{Assumptions, PriceSheet, TrafficPeriod, TrafficTier};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Which way the traffic goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Out of the vendor's network.
    Egress,
    /// Into it.
    Ingress,
}

/// One band of the traffic line: quantity × price = cost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrafficBand {
    /// Out or in.
    pub direction: Direction,
    /// True for the free allowance (price 0).
    pub free: bool,
    /// Where the band starts, GB billed before it in the whole rental.
    #[serde(with = "rust_decimal::serde::str")]
    pub from_gb: Decimal,
    /// Where it ends in the whole rental; `None` for the open band.
    #[serde(with = "rust_decimal::serde::str_option")]
    pub up_to_gb: Option<Decimal>,
    /// GB billed in this band.
    #[serde(with = "rust_decimal::serde::str")]
    pub quantity_gb: Decimal,
    /// Price per GB.
    #[serde(with = "rust_decimal::serde::str")]
    pub price_gb: Decimal,
    /// quantity × price, rounded to the minor unit.
    #[serde(with = "rust_decimal::serde::str")]
    pub cost: Decimal,
}

/// The traffic of one rental, priced band by band.
pub(crate) struct Priced {
    /// GB billed beyond the allowance, both directions.
    pub billed_gb: Decimal,
    /// The exact cost, both directions.
    pub exact: Decimal,
    /// The bands that carry traffic, egress first.
    pub bands: Vec<TrafficBand>,
}

impl Priced {
    /// The one price every billed GB pays, when there is one.
    pub fn single_price(&self) -> Option<Decimal> {
        let mut prices = self.bands.iter().filter(|b| !b.free).map(|b| b.price_gb);
        let first = prices.next()?;
        prices.all(|p| p == first).then_some(first)
    }
}

/// True when the sheet prices traffic the way it always did: flat prices, one allowance for
/// the whole rental.
pub(crate) fn is_flat(sheet: &PriceSheet) -> bool {
    sheet.egress_tiers.is_empty() && sheet.ingress_tiers.is_empty() && sheet.traffic_period() == TrafficPeriod::Rental
}

/// How many times the allowance and the bounds count: 1 for the rental, else the billing
/// months the rental touches.
pub(crate) fn periods(sheet: &PriceSheet, rental_h: Decimal) -> Result<Decimal, TcoError> {
    const F: &str = "estimate.traffic";
    match sheet.traffic_period() {
        TrafficPeriod::Rental => Ok(Decimal::ONE),
        TrafficPeriod::Month => {
            let month_s = mul(HOURS_PER_MONTH, SECONDS_PER_HOUR, F)?;
            Ok(div(seconds_ms(rental_h, F)?, month_s, F)?.ceil().max(Decimal::ONE))
        }
    }
}

/// Prices both directions of the workload's traffic on `sheet` over `rental_h` hours.
pub(crate) fn priced(sheet: &PriceSheet, a: &Assumptions, rental_h: Decimal) -> Result<Priced, TcoError> {
    let k = periods(sheet, rental_h)?;
    let currency = sheet.currency;
    let mut bands = Vec::new();
    let egress_tiers = tiers_or_flat(&sheet.egress_tiers, sheet.egress_price_gb);
    let ingress_tiers = tiers_or_flat(&sheet.ingress_tiers, sheet.ingress_price_gb);
    let out = direction(
        Direction::Egress,
        a.egress_gb,
        sheet.free_egress_gb,
        &egress_tiers,
        k,
        &mut bands,
    )?;
    let inn = direction(
        Direction::Ingress,
        a.ingress_gb,
        Decimal::ZERO,
        &ingress_tiers,
        k,
        &mut bands,
    )?;
    for band in &mut bands {
        band.cost = currency.round(band.cost);
    }
    Ok(Priced {
        billed_gb: add(out.0, inn.0, "estimate.traffic")?,
        exact: add(out.1, inn.1, "estimate.traffic")?,
        bands,
    })
}

/// The sheet's tiers, or one open band at the flat price.
fn tiers_or_flat(tiers: &[TrafficTier], flat: Decimal) -> Vec<TrafficTier> {
    if tiers.is_empty() {
        vec![TrafficTier {
            up_to_gb: None,
            price_gb: flat,
        }]
    } else {
        tiers.to_vec()
    }
}

/// One direction: the allowance, then each band; pushes the bands that carry traffic (the
/// exact cost in `cost`, rounded by the caller) and returns (GB billed, exact cost).
fn direction(
    direction: Direction,
    gb: Decimal,
    free_gb: Decimal,
    tiers: &[TrafficTier],
    k: Decimal,
    bands: &mut Vec<TrafficBand>,
) -> Result<(Decimal, Decimal), TcoError> {
    const F: &str = "estimate.traffic";
    let free = mul(free_gb, k, F)?.min(gb);
    if free > Decimal::ZERO {
        bands.push(TrafficBand {
            direction,
            free: true,
            from_gb: Decimal::ZERO,
            up_to_gb: Some(free),
            quantity_gb: free,
            price_gb: Decimal::ZERO,
            cost: Decimal::ZERO,
        });
    }
    let mut left = sub(gb, free, F)?;
    let (mut billed, mut exact, mut from, mut previous_bound) =
        (Decimal::ZERO, Decimal::ZERO, Decimal::ZERO, Decimal::ZERO);
    for tier in tiers {
        if left <= Decimal::ZERO {
            break;
        }
        let up_to = tier.up_to_gb.map(|b| mul(b, k, F)).transpose()?;
        let size = match tier.up_to_gb {
            Some(bound) => mul(sub(bound, previous_bound, F)?.max(Decimal::ZERO), k, F)?,
            None => left,
        };
        let quantity = left.min(size);
        if quantity > Decimal::ZERO {
            let cost = mul(quantity, tier.price_gb, F)?;
            bands.push(TrafficBand {
                direction,
                free: false,
                from_gb: from,
                up_to_gb: up_to,
                quantity_gb: quantity,
                price_gb: tier.price_gb,
                cost,
            });
            billed = add(billed, quantity, F)?;
            exact = add(exact, cost, F)?;
        }
        left = sub(left, quantity, F)?;
        from = add(from, quantity, F)?;
        previous_bound = tier.up_to_gb.unwrap_or(previous_bound);
    }
    Ok((billed, exact))
}

#[cfg(test)]
mod tests {
    use super::{Direction, priced};
    use crate::tco::{Assumptions, BillingIncrement, Currency, TrafficPeriod, TrafficTier, on_demand_sheet};
    use rust_decimal::Decimal;
    use rust_decimal_macros::dec;

    fn tier(up_to: Option<Decimal>, price: Decimal) -> TrafficTier {
        TrafficTier {
            up_to_gb: up_to,
            price_gb: price,
        }
    }

    /// The module's worked example: 100 GB free a month, then 0.09 to 10 TB, 0.085 to 50 TB,
    /// then 0.07 — the shape of the large clouds' published internet egress price lists
    /// (first 10 TB / next 40 TB / next 100 TB per month), with round figures.
    fn cloud_sheet() -> crate::tco::PriceSheet {
        let mut sheet = on_demand_sheet(Currency::USD, dec!(10), BillingIncrement::SECOND, false);
        sheet.not_stated.clear();
        sheet.free_egress_gb = dec!(100);
        sheet.traffic_period = Some(TrafficPeriod::Month);
        sheet.egress_tiers = vec![
            tier(Some(dec!(10000)), dec!(0.09)),
            tier(Some(dec!(50000)), dec!(0.085)),
            tier(None, dec!(0.07)),
        ];
        sheet
    }

    #[test]
    fn the_worked_example_over_two_months_stays_in_the_first_band() {
        let a = Assumptions {
            egress_gb: dec!(12000),
            ..Assumptions::NONE
        };
        let p = priced(&cloud_sheet(), &a, dec!(800)).expect("priced");
        assert_eq!(p.bands.len(), 2);
        assert!(p.bands[0].free);
        assert_eq!(p.bands[0].quantity_gb, dec!(200));
        assert_eq!(
            (p.bands[1].quantity_gb, p.bands[1].price_gb, p.bands[1].cost),
            (dec!(11800), dec!(0.09), dec!(1062.00))
        );
        assert_eq!(p.exact, dec!(1062.00));
    }

    #[test]
    fn the_worked_example_in_one_month_reaches_the_second_band() {
        let a = Assumptions {
            egress_gb: dec!(12000),
            ..Assumptions::NONE
        };
        let p = priced(&cloud_sheet(), &a, dec!(100)).expect("priced");
        let paid: Vec<_> = p
            .bands
            .iter()
            .filter(|b| !b.free)
            .map(|b| (b.quantity_gb, b.price_gb, b.cost))
            .collect();
        assert_eq!(
            paid,
            vec![
                (dec!(10000), dec!(0.09), dec!(900.00)),
                (dec!(1900), dec!(0.085), dec!(161.50))
            ]
        );
        assert_eq!(p.exact, dec!(1061.50));
        assert_eq!(p.billed_gb, dec!(11900));
        assert_eq!(p.single_price(), None);
    }

    #[test]
    fn a_free_first_band_is_a_band_at_price_zero_and_ingress_has_its_own_tiers() {
        // "First 1 TB free, then 0.05 to 10 TB, then 0.03" for the whole rental; ingress 0.01.
        let mut sheet = on_demand_sheet(Currency::CNY, dec!(10), BillingIncrement::HOUR, false);
        sheet.not_stated.clear();
        sheet.egress_tiers = vec![
            tier(Some(dec!(1000)), dec!(0)),
            tier(Some(dec!(10000)), dec!(0.05)),
            tier(None, dec!(0.03)),
        ];
        sheet.ingress_tiers = vec![tier(None, dec!(0.01))];
        let a = Assumptions {
            egress_gb: dec!(12500),
            ingress_gb: dec!(300),
            ..Assumptions::NONE
        };
        let p = priced(&sheet, &a, dec!(5000)).expect("priced");
        let rows: Vec<_> = p.bands.iter().map(|b| (b.direction, b.quantity_gb, b.cost)).collect();
        assert_eq!(
            rows,
            vec![
                (Direction::Egress, dec!(1000), dec!(0.00)),
                (Direction::Egress, dec!(9000), dec!(450.00)),
                (Direction::Egress, dec!(2500), dec!(75.00)),
                (Direction::Ingress, dec!(300), dec!(3.00)),
            ]
        );
        assert_eq!(p.exact, dec!(528.00));
    }

    proptest::proptest! {
        /// Tiers are monotone: more traffic never costs less, whatever the bands (ascending ends,
        /// any prices, a free allowance), the period and the rental length; and the bands shown
        /// add up to the GB sent.
        #[test]
        fn more_traffic_never_costs_less(
            ends in proptest::collection::btree_set(1u32..100_000, 0..4),
            prices in proptest::collection::vec(0u32..100_000, 5),
            free in 0u32..5_000,
            gb in 0u32..500_000,
            more in 0u32..100_000,
            hours in 1u32..5_000,
            monthly in proptest::bool::ANY,
        ) {
            let mut sheet = cloud_sheet();
            let ends: Vec<u32> = ends.into_iter().collect();
            sheet.egress_tiers = ends
                .iter()
                .map(|e| Some(Decimal::from(*e)))
                .chain(std::iter::once(None))
                .zip(&prices)
                .map(|(up_to, p)| tier(up_to, Decimal::new(i64::from(*p), 4)))
                .collect();
            sheet.free_egress_gb = Decimal::from(free);
            sheet.traffic_period = monthly.then_some(TrafficPeriod::Month);
            let cost = |gb: u32| {
                let a = Assumptions { egress_gb: Decimal::from(gb), ..Assumptions::NONE };
                priced(&sheet, &a, Decimal::from(hours)).expect("priced")
            };
            let (less, plus) = (cost(gb), cost(gb + more));
            proptest::prop_assert!(plus.exact >= less.exact, "{} < {}", plus.exact, less.exact);
            let sent: Decimal = less.bands.iter().map(|b| b.quantity_gb).sum();
            proptest::prop_assert_eq!(sent, Decimal::from(gb));
        }
    }
}
