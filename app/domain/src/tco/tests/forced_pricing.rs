//! `estimate_priced`: the pricing forced, every other rule the same.

use super::fixtures::{assumptions, hours, shape, sheet};
use crate::tco::{ComponentKind, Pricing, PricingChoice, estimate, estimate_priced};
use rust_decimal_macros::dec;

#[test]
fn a_forced_pricing_prices_that_side_and_cheaper_is_estimate() {
    // Rule 3 with the choice forced: 400 h at 10.00/h = 4000 on demand, 5000/month under the
    // commitment; `Cheaper` is exactly `estimate`, which picks on demand here.
    let mut s = sheet(dec!(10.00));
    s.monthly_price = Some(dec!(5000));
    s.commitment_months = Some(1);
    let (shape, work, a) = (shape(1), hours(dec!(400), 1), assumptions());
    let priced = |c| estimate_priced(&s, &shape, &work, &a, c).unwrap().unwrap();
    assert_eq!(priced(PricingChoice::Cheaper), estimate(&s, &shape, &work, &a).unwrap());
    let on_demand = priced(PricingChoice::OnDemand);
    let monthly = priced(PricingChoice::Monthly);
    assert_eq!(
        (on_demand.pricing_used, on_demand.total),
        (Pricing::OnDemand, dec!(4000.00))
    );
    assert_eq!((monthly.pricing_used, monthly.total), (Pricing::Monthly, dec!(5000.00)));
    assert!(monthly.component(&ComponentKind::MonthlyCommitment).is_some());
    assert_eq!(monthly.unused_commitment_h, Some(dec!(330)));
    // No commitment on the sheet: nothing to force.
    s.monthly_price = None;
    s.commitment_months = None;
    let none = estimate_priced(&s, &shape, &work, &a, PricingChoice::Monthly).unwrap();
    assert_eq!(none, None);
}
