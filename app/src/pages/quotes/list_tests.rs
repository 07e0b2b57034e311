//! The quote list's query: which filters count as set, and how typed numbers are read.

use super::*;

#[test]
fn only_set_filters_count_as_active() {
    let q = |k: &str, v: &str| serde_json::from_value::<QuoteQuery>(serde_json::json!({ k: v })).unwrap();
    assert_eq!(QuoteQuery::default().active_filters(), 0);
    assert_eq!(q("sort", "price_desc").active_filters(), 0, "sort is no filter");
    assert_eq!(q("page", "2").active_filters(), 0, "page is no filter");
    assert_eq!(q("gpu", "  ").active_filters(), 0, "an emptied field is no filter");
    let two = QuoteQuery {
        expired: Some("on".into()),
        ..q("gpu", "H100")
    };
    assert_eq!(two.active_filters(), 2);
}

#[cfg(feature = "ssr")]
#[test]
fn filters_read_numbers_as_people_type_them() {
    let query = QuoteQuery {
        vram: Some("1,024".into()),
        gpus: Some("8".into()),
        max_price: Some("1 234,50".into()),
        ..QuoteQuery::default()
    };
    let (filter, _, _) = server::parse(&query).unwrap();
    assert_eq!(filter.min_vram_gib, Some(1024));
    assert_eq!(filter.gpus_per_node, Some(8));
    assert_eq!(filter.max_node_hourly, Some(rust_decimal::Decimal::new(123_450, 2)));
    let fraction = QuoteQuery {
        gpus: Some("2.5".into()),
        ..QuoteQuery::default()
    };
    assert!(server::parse(&fraction).is_err(), "a GPU count is whole");
}

#[cfg(feature = "ssr")]
#[test]
fn crafted_numbers_are_refused_naming_the_filter_and_its_bounds() {
    let refused = |k: &str, v: &str| {
        let q = serde_json::from_value::<QuoteQuery>(serde_json::json!({ k: v })).unwrap();
        match server::parse(&q) {
            Err(AppError::Invalid(msg)) => msg,
            other => panic!("{k}={v}: {other:?}"),
        }
    };
    // 7.9 × 10^22: its millionths fit a Decimal, and the price bound overflowed (a panic).
    for v in [
        "79228162514264337593543",
        "79228162514264337593543950335",
        "1e308",
        "-1",
        "1000000000000.01",
    ] {
        assert_eq!(refused("max_price", v), Msg::LimitsFilterMaxPrice, "{v}");
    }
    for v in ["1025", "-1", "9223372036854775807", "99999999999999999999"] {
        assert_eq!(refused("vram", v), Msg::LimitsFilterVram, "{v}");
    }
    for v in ["0", "65", "18446744073709551615"] {
        assert_eq!(refused("gpus", v), Msg::LimitsFilterGpus, "{v}");
    }
    for v in ["0", "100001", "-9223372036854775808"] {
        assert_eq!(refused("page", v), Msg::LimitsPage, "{v}");
    }
    let edge = QuoteQuery {
        vram: Some("1024".into()),
        gpus: Some("64".into()),
        max_price: Some("1000000000000".into()),
        page: Some("100000".into()),
        ..QuoteQuery::default()
    };
    let (filter, _, page) = server::parse(&edge).unwrap();
    assert_eq!(
        (filter.min_vram_gib, filter.gpus_per_node, page),
        (Some(1024), Some(64), 100_000)
    );
    assert_eq!(
        crate::i18n::Locale::En.t(Msg::LimitsPage),
        "Page: enter a whole number from 1 to 100,000."
    );
    assert_eq!(
        crate::i18n::Locale::ZhCn.t(Msg::LimitsPage),
        "页码：请输入 1 到 100,000 之间的整数。"
    );
}
