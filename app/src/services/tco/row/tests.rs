//! A cost row as the page shows it.

use super::*;

/// An engine warning as the row shows it.
fn engine_warning(locale: Locale, w: &TcoWarning) -> String {
    warning_text(locale, &engine(w), Currency::parse("CNY").unwrap())
}

/// A price not stated names the price; stopped compute not stated, a yes/no, has its own
/// sentence; both in both languages.
#[test]
fn each_unstated_price_reads_as_its_own_sentence() {
    let all = [
        UnstatedPrice::Disk,
        UnstatedPrice::Snapshot,
        UnstatedPrice::Egress,
        UnstatedPrice::Ingress,
        UnstatedPrice::StoppedCompute,
    ];
    for locale in [Locale::En, Locale::ZhCn] {
        let texts: Vec<String> = all
            .iter()
            .map(|&price| engine_warning(locale, &TcoWarning::PriceNotStated { price }))
            .collect();
        let distinct: std::collections::BTreeSet<&String> = texts.iter().collect();
        assert_eq!(distinct.len(), all.len(), "{texts:?}");
        assert!(texts.iter().all(|t| !t.contains('{')), "{texts:?}");
    }
    let stopped = engine_warning(
        Locale::En,
        &TcoWarning::PriceNotStated {
            price: UnstatedPrice::StoppedCompute,
        },
    );
    assert!(
        stopped.contains("stopped (not released) node still bills compute"),
        "{stopped}"
    );
}
