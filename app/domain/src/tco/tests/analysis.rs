//! What-if profiles, throughput sensitivity and the chart series.

use super::fixtures::{assumptions, hours, shape, sheet, what_if_36k_tokens, work};
use crate::tco::{
    Assumptions, ErrorReason as R, PriceSheet, TcoError, WhatIfProfiles, cost_vs_hours, cost_vs_nodes, what_if,
};
use rust_decimal_macros::dec;

#[test]
fn profiles_scale_hours_and_traffic() {
    let s = PriceSheet {
        egress_price_gb: dec!(1),
        ..sheet(dec!(10))
    };
    let a = Assumptions {
        setup_h: dec!(10),
        egress_gb: dec!(100),
        ..assumptions()
    };
    let w = what_if(
        &s,
        &shape(1),
        &hours(dec!(100), 1),
        &a,
        &WhatIfProfiles::default(),
        None,
    )
    .unwrap();
    assert_eq!(w.low.total, dec!(960.00), "88 h + 80 GB");
    assert_eq!(w.expected.total, dec!(1200.00), "110 h + 100 GB");
    assert_eq!(w.high.total, dec!(1560.00), "143 h + 130 GB");
    assert!(w.slower_throughput.is_none() && w.faster_throughput.is_none());
}

#[test]
fn throughput_sensitivity_moves_compute_time_by_twenty_percent() {
    let w = what_if_36k_tokens(dec!(1), None);
    assert_eq!(w.expected.compute_h, dec!(10));
    let slower = w.slower_throughput.unwrap();
    assert_eq!((slower.compute_h, slower.total), (dec!(12.5), dec!(130.00)));
    let faster = w.faster_throughput.unwrap();
    assert_eq!(faster.total, dec!(90.00), "8.33 h billed as 9");
}

#[test]
fn what_if_rejects_bad_profiles() {
    let run = |a: &Assumptions, p: &WhatIfProfiles| {
        what_if(&sheet(dec!(1)), &shape(1), &hours(dec!(1), 1), a, p, None).map(|_| ())
    };
    let high_reruns = Assumptions {
        rerun_share: dec!(0.8),
        ..assumptions()
    };
    let err = run(&high_reruns, &WhatIfProfiles::default()).unwrap_err();
    assert_eq!((err.field, err.reason.code()), ("what_if.high", "out_of_range"));
    let sensitivity = WhatIfProfiles {
        throughput_sensitivity: dec!(1),
        ..WhatIfProfiles::default()
    };
    assert_eq!(
        run(&assumptions(), &sensitivity).unwrap_err().field,
        "what_if.throughput_sensitivity"
    );
    let negative = WhatIfProfiles {
        low: dec!(-0.1),
        ..WhatIfProfiles::default()
    };
    assert_eq!(
        run(&assumptions(), &negative),
        Err(TcoError::new("what_if.low", R::Negative))
    );
}

#[test]
fn cost_versus_hours_shows_both_pricings() {
    let s = PriceSheet {
        monthly_price: Some(dec!(5000)),
        commitment_months: Some(1),
        ..sheet(dec!(10))
    };
    let points = cost_vs_hours(&s, &shape(1), 2, &[dec!(0), dec!(500), dec!(501), dec!(800)]).unwrap();
    let pairs: Vec<_> = points.iter().map(|p| (p.on_demand, p.monthly)).collect();
    assert_eq!(
        pairs,
        vec![
            (Some(dec!(0.00)), Some(dec!(10000.00))),
            (Some(dec!(10000.00)), Some(dec!(10000.00))),
            (Some(dec!(10020.00)), Some(dec!(10000.00))),
            (Some(dec!(16000.00)), Some(dec!(20000.00))),
        ]
    );
    assert_eq!(
        cost_vs_hours(&s, &shape(1), 0, &[]),
        Err(TcoError::new("nodes", R::NotPositive))
    );
    assert_eq!(
        cost_vs_hours(&s, &shape(1), 1, &[dec!(-1)]),
        Err(TcoError::new("hours", R::Negative))
    );
}

#[test]
fn cost_versus_nodes_trades_time_for_money_under_efficiency() {
    let a = Assumptions {
        measured_throughput_per_s: Some(dec!(1)),
        efficiency: dec!(0.8),
        ..assumptions()
    };
    let series = cost_vs_nodes(&sheet(dec!(1)), &shape(1), &work(dec!(57600), 1), &a, 3).unwrap();
    let got: Vec<_> = series.iter().map(|e| (e.nodes, e.billable_h, e.total)).collect();
    assert_eq!(
        got,
        vec![
            (1, dec!(16), dec!(16.00)),
            (2, dec!(10), dec!(20.00)),
            (3, dec!(7), dec!(21.00))
        ]
    );
    assert!(series.windows(2).all(|p| p[1].time_to_finish_h < p[0].time_to_finish_h));
    let err = cost_vs_nodes(&sheet(dec!(1)), &shape(1), &work(dec!(1), 1), &a, 0).unwrap_err();
    assert_eq!((err.field, err.reason.code()), ("max_nodes", "out_of_range"));
}
