//! The cost page's query read in one pass: every key is looked at once and filed under what it
//! is ([`QueryParts`]), so reading a comparison of 50 quotes (the form sends some 800 pairs:
//! every per-quote input, most of them empty) costs one walk over the pairs — not one search of
//! the whole query per field per quote.

use super::fields::{FIELDS, Query};
use std::collections::BTreeMap;

/// The inputs the form sends for one quote id, each the last value sent, trimmed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct QuoteParts<'a> {
    /// `<field>_<id>` by the field's position in [`FIELDS`].
    pub fields: [Option<&'a str>; FIELDS.len()],
    /// Some `<field>_<id>` key was sent (even empty): the quote has an overrides entry.
    pub any_field: bool,
    /// `tp_<id>`: a typed throughput.
    pub tp: Option<&'a str>,
    /// `tpn_<id>`: the node count the typed throughput was measured on.
    pub tpn: Option<&'a str>,
    /// `rev_<id>`: the revision costed instead of the latest.
    pub rev: Option<&'a str>,
}

/// A cost page query with every key filed: what [`super::CostRequest::from_query`] reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct QueryParts<'a> {
    /// `workload`, the last value.
    pub workload: Option<&'a str>,
    /// `picked`, the last value.
    pub picked: Option<&'a str>,
    /// Every `q`, in order.
    pub quotes: Vec<&'a str>,
    /// Each shared field by its position in [`FIELDS`], the last value (sent empty included).
    pub shared: [Option<&'a str>; FIELDS.len()],
    /// Per quote id (written as Rust prints it: `7`, not `+7` or `07`), its inputs.
    pub per_quote: BTreeMap<i64, QuoteParts<'a>>,
}

/// What one key of the query is.
enum Key {
    Workload,
    Picked,
    Quote,
    Shared(usize),
    QuoteField(i64, usize),
    Throughput(i64),
    ThroughputNodes(i64),
    Revision(i64),
    Other,
}

/// Files one key: a field name, or a field name, `tp` or `tpn` then `_<quote id>`.
fn key(k: &str) -> Key {
    match k {
        "workload" => return Key::Workload,
        "picked" => return Key::Picked,
        "q" => return Key::Quote,
        _ => {}
    }
    if let Some(i) = FIELDS.iter().position(|f| *f == k) {
        return Key::Shared(i);
    }
    let Some((prefix, id)) = k.rsplit_once('_') else {
        return Key::Other;
    };
    let Some(id) = id.parse::<i64>().ok().filter(|n| n.to_string() == id) else {
        return Key::Other;
    };
    match prefix {
        "tp" => Key::Throughput(id),
        "tpn" => Key::ThroughputNodes(id),
        "rev" => Key::Revision(id),
        _ => FIELDS
            .iter()
            .position(|f| *f == prefix)
            .map_or(Key::Other, |i| Key::QuoteField(id, i)),
    }
}

impl<'a> QueryParts<'a> {
    /// Files every pair of `query` in one pass; a later value of the same key replaces an
    /// earlier one (as a browser's form sends at most one).
    pub fn of(query: &'a Query) -> Self {
        let mut parts = Self::default();
        for (k, v) in query.pairs() {
            let v = v.trim();
            match key(k) {
                Key::Workload => parts.workload = Some(v),
                Key::Picked => parts.picked = Some(v),
                Key::Quote => parts.quotes.push(v),
                Key::Shared(i) => parts.shared[i] = Some(v),
                Key::QuoteField(id, i) => {
                    let quote = parts.per_quote.entry(id).or_default();
                    quote.fields[i] = Some(v);
                    quote.any_field = true;
                }
                Key::Throughput(id) => parts.per_quote.entry(id).or_default().tp = Some(v),
                Key::ThroughputNodes(id) => parts.per_quote.entry(id).or_default().tpn = Some(v),
                Key::Revision(id) => parts.per_quote.entry(id).or_default().rev = Some(v),
                Key::Other => {}
            }
        }
        parts
    }
}

/// The query as the comparison reads it, in one written form: every key it files (the last value
/// of each, `q` in order, per-quote inputs by quote id), values trimmed, anything else dropped.
/// Two queries with the same form ask for the same comparison.
pub(super) fn normalised(raw: &str) -> String {
    let query = Query::parse(raw);
    format!("{:?}", QueryParts::of(&query))
}

/// A value that says something: sent and not empty.
pub(super) fn given(v: Option<&str>) -> Option<&str> {
    v.filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_and_order_do_not_change_the_normalised_query() {
        let a = normalised("workload=3&q=7&q=8&setup_h=2&nodes_7=2");
        assert_eq!(a, normalised("?nodes_7=2&setup_h= 2 &z=1&workload=3&q=7&q=8&chart_x=9"));
        assert_ne!(
            a,
            normalised("workload=3&q=8&q=7&setup_h=2&nodes_7=2"),
            "the ticked quotes' order is kept"
        );
        assert_ne!(a, normalised("workload=3&q=7&q=8&setup_h=3&nodes_7=2"));
    }

    #[test]
    fn every_key_is_filed_once_under_what_it_is() {
        let q =
            Query::parse("?workload=3&q=7&q=8&setup_h=+2+&setup_h=&nodes_7=2&tp_7=5&tpn_8=2&x_7=1&setup_h_07=1&tp_=1");
        let p = QueryParts::of(&q);
        assert_eq!(
            (p.workload, p.picked, p.quotes.as_slice()),
            (Some("3"), None, &["7", "8"][..])
        );
        assert_eq!(p.shared[0], Some(""), "the last value wins, sent empty included");
        let seven = &p.per_quote[&7];
        let nodes = FIELDS.iter().position(|f| *f == "nodes").unwrap_or_default();
        assert_eq!(
            (seven.fields[nodes], seven.any_field, seven.tp),
            (Some("2"), true, Some("5"))
        );
        let eight = &p.per_quote[&8];
        assert_eq!((eight.any_field, eight.tpn), (false, Some("2")));
        assert_eq!(
            p.per_quote.len(),
            2,
            "`x_7`, `setup_h_07` and `tp_` name no quote input"
        );
    }

    #[test]
    fn field_names_with_underscores_split_at_the_quote_id() {
        let q = Query::parse("snapshot_months_12=3&efficiency_pct=90");
        let p = QueryParts::of(&q);
        let months = FIELDS.iter().position(|f| *f == "snapshot_months").unwrap_or_default();
        let efficiency = FIELDS.iter().position(|f| *f == "efficiency_pct").unwrap_or_default();
        assert_eq!(p.per_quote[&12].fields[months], Some("3"));
        assert_eq!(p.shared[efficiency], Some("90"));
    }

    /// The form's query for 50 quotes: every per-quote input sent, `idle_h` typed for each,
    /// and `bad` as quote 23's `efficiency_pct`.
    fn fifty(bad: &str) -> String {
        let mut q = String::from("picked=1&workload=1&setup_h=2&nodes=");
        for id in 1..=50 {
            q.push_str(&format!("&q={id}&tp_{id}=&tpn_{id}="));
            for name in FIELDS {
                let value = match (name, id) {
                    ("idle_h", _) => "1",
                    ("efficiency_pct", 23) => bad,
                    _ => "",
                };
                q.push_str(&format!("&{name}_{id}={value}"));
            }
        }
        q
    }

    #[test]
    fn fifty_quotes_read_into_one_request_and_a_bad_value_names_its_field() {
        use crate::{i18n::Locale, services::tco::CostRequest};
        let r = CostRequest::from_query(&fifty("80"));
        assert_eq!(r.overrides.len(), 50);
        assert!(
            r.overrides
                .values()
                .all(|o| o.idle_h == Some(rust_decimal::Decimal::ONE))
        );
        assert_eq!(r.overrides[&23].efficiency, Some(rust_decimal::Decimal::new(8, 1)));
        assert!((1..=50).all(|id| r.quote_error(id).is_none()) && r.throughput.is_empty());

        let r = CostRequest::from_query(&fifty("most"));
        let e = r.quote_error(23).unwrap_or_else(|| panic!("quote 23 has a bad value"));
        assert_eq!(
            e,
            super::super::QuoteInputError::Override("efficiency_pct", super::super::FieldError::Number)
        );
        assert!(!r.overrides.contains_key(&23) && r.overrides.len() == 49);
        let text = super::super::texts::quote_input_error(Locale::En, e);
        assert!(
            text.starts_with("Scaling efficiency"),
            "the sentence names the field: {text}"
        );
    }
}
