//! The bill's messages, read as the page shows them.

use super::*;
use rust_decimal_macros::dec;

#[test]
fn every_reason_and_refusal_reads_in_both_languages_with_its_figures() {
    let drift = Reason::PriceDrift {
        quoted: dec!(86.64),
        billed: dec!(90),
        quantity: dec!(50),
        effect: dec!(168.00),
    };
    let en = reason(Locale::En, &drift, Currency::USD, "h");
    assert!(
        en.contains("$90") && en.contains("$86.64") && en.contains("+$168.00"),
        "{en}"
    );
    assert_ne!(reason(Locale::ZhCn, &drift, Currency::USD, "小时"), en);
    let fewer = Reason::MoreHours {
        estimated: dec!(48),
        billed: dec!(40),
        agreed: dec!(86.64),
        effect: dec!(-693.12),
    };
    assert_eq!(
        reason(Locale::En, &fewer, Currency::USD, "h"),
        "Fewer hours: 40 h billed against 48 h planned, 8 h fewer at the agreed $86.64: -$693.12"
    );
    let minimum = Reason::MinimumBilling {
        ran: dec!(49),
        billed: dec!(50),
        agreed: dec!(86.64),
        effect: dec!(86.64),
    };
    assert_eq!(
        reason(Locale::En, &minimum, Currency::USD, "h"),
        "Minimum billing: 50 h billed for 49 h the rental ran, 1 h more at the agreed $86.64: +$86.64"
    );
    assert!(reason(Locale::ZhCn, &minimum, Currency::USD, "小时").contains("按约定单价 $86.64"));
    let left = Reason::AfterRelease { effect: dec!(19.73) };
    assert!(reason(Locale::En, &left, Currency::USD, "GB-month").contains("after it was released"));
    let row = Row {
        component: Component::Compute,
        estimated: dec!(4158.72),
        billed: dec!(4500),
        invoiced: dec!(4500),
        difference: dec!(341.28),
        reasons: vec![Reason::MoreHours {
            estimated: dec!(384),
            billed: dec!(392),
            agreed: dec!(10.83),
            effect: dec!(86.64),
        }],
        unit: PlannedUnit::Hours,
        per_gpu: Some(8),
    };
    let texts = reasons(Locale::En, &row, Currency::USD, Figures::Shown);
    assert!(texts[0].contains("8 GPU-hours"), "{texts:?}");
    assert!(
        texts[1].contains("392 GPU-h billed against 384 GPU-h planned, 8 GPU-h more at the agreed $10.83"),
        "{texts:?}"
    );
    assert!(reasons(Locale::ZhCn, &row, Currency::USD, Figures::Shown)[1].contains("392 卡时"));
    let refused = Refusal::NoRate {
        code: "EUR".into(),
        to: Currency::CNY,
        line: 2,
        column: "BillingCurrency",
    };
    let text = refusal(Locale::En, &refused);
    assert!(
        text.contains("2") && text.contains("BillingCurrency") && text.contains("EUR") && text.contains("CNY"),
        "{text}"
    );
    for c in Component::ALL {
        assert_ne!(component(Locale::En, c), component(Locale::ZhCn, c));
    }
}

#[test]
fn reasons_read_in_an_accountants_terms_with_quantities_and_both_prices() {
    let drift = Reason::PriceDrift {
        quoted: dec!(12.5),
        billed: dec!(13.1),
        quantity: dec!(24),
        effect: dec!(14.40),
    };
    let en = reason(Locale::En, &drift, Currency::CNY, "h");
    assert!(
        en.starts_with("Price: 24 h at ¥13.10 instead of the agreed ¥12.50"),
        "{en}"
    );
    assert!(
        en.contains("24 × ¥13.10 = ¥314.40 against 24 × ¥12.50 = ¥300.00") && en.ends_with("+¥14.40"),
        "{en}"
    );
    let zh = reason(Locale::ZhCn, &drift, Currency::CNY, "小时");
    assert!(zh.contains("24 小时 按 ¥13.10 计费") && zh.contains("¥314.40"), "{zh}");
    let less = Reason::MoreUsage {
        estimated: dec!(100),
        billed: dec!(80),
        agreed: dec!(0.5),
        effect: dec!(-10.00),
    };
    assert_eq!(
        reason(Locale::En, &less, Currency::CNY, "GB-month"),
        "Less usage: 80 GB-month billed against 100 GB-month planned, 20 GB-month less at the agreed ¥0.50: -¥10.00"
    );
    assert!(reason(Locale::ZhCn, &less, Currency::CNY, "GB·月").starts_with("用量减少"));
    let ip = Row {
        component: Component::Ip,
        estimated: dec!(3.60),
        billed: Decimal::ZERO,
        invoiced: Decimal::ZERO,
        difference: dec!(-3.60),
        reasons: vec![Reason::NotBilled { effect: dec!(-3.60) }],
        unit: PlannedUnit::Hours,
        per_gpu: None,
    };
    assert_eq!(
        reasons(Locale::En, &ip, Currency::CNY, Figures::Shown),
        ["Public IP: planned, not billed (¥3.60 in the estimate): -¥3.60"]
    );
    assert!(reasons(Locale::ZhCn, &ip, Currency::CNY, Figures::Shown)[0].contains("已计划，未计费"));
}

/// A GB-month figure is read to the hundredth on the page; the exact one is in the `title`.
#[test]
fn quantities_are_shown_to_two_decimals_and_kept_exact_for_the_title() {
    let more = Reason::MoreUsage {
        estimated: dec!(60.5),
        billed: dec!(65.8927),
        agreed: dec!(0.5),
        effect: dec!(2.70),
    };
    assert_eq!(
        reason(Locale::En, &more, Currency::CNY, "GB-month"),
        "More usage: 65.89 GB-month billed against 60.5 GB-month planned, 5.39 GB-month more at the agreed ¥0.50: +¥2.70"
    );
    assert_eq!(
        reason_with(Locale::En, &more, Currency::CNY, "GB-month", Figures::Exact),
        "More usage: 65.8927 GB-month billed against 60.5 GB-month planned, 5.3927 GB-month more at the agreed ¥0.50: +¥2.70"
    );
}
