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
