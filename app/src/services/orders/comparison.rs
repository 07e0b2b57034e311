//! Every call from orders into the cost comparison (`services::tco`), in one place. An order's
//! comparison is named by the cost page's query (see [`Content::comparison`]); this module turns
//! it into rows, checks it, and freezes it at submission. Nothing else in `services::orders`
//! calls `services::tco`.

use super::{Content, Frozen, PinnedQuote};
use crate::{
    domain::tco::ExchangeRate,
    error::AppError,
    i18n::{Locale, Msg},
    services::tco::{self, CostRequest},
    store::Db,
    views::tco::CostRow,
};
use rust_decimal::Decimal;
use std::str::FromStr;

/// A comparison as the cost page computes it.
pub(super) type Computed = tco::Computed;

/// Computes `request` as the cost page shows it (without the budget form).
pub(super) async fn compute(
    db: &Db,
    team_id: i64,
    request: &CostRequest,
    locale: Locale,
) -> Result<Computed, AppError> {
    tco::compare(db, team_id, request, locale, false).await
}

/// The rows of the comparison `request` asks for.
pub(super) async fn rows(
    db: &Db,
    team_id: i64,
    request: &CostRequest,
    locale: Locale,
) -> Result<Vec<CostRow>, AppError> {
    Ok(compute(db, team_id, request, locale).await?.view.rows)
}

/// Whether a comparison may be the order's: every field valid, no problem, a quote costed.
pub(super) fn is_usable(computed: &Computed) -> bool {
    let view = &computed.view;
    view.assumptions.iter().all(|f| f.error.is_none()) && view.problems.is_empty() && !view.rows.is_empty()
}

/// Whether the comparison costs the quote `chosen`.
pub(super) fn compares(computed: &Computed, chosen: Option<i64>) -> bool {
    chosen.is_some_and(|q| computed.view.rows.iter().any(|r| r.quote_id == q))
}

/// The default comparison of an order: the quotes considered, default assumptions.
pub(super) fn default_request(c: &Content) -> CostRequest {
    CostRequest::new(Some(c.workload_id)).with_quotes(c.considered.iter().copied())
}

/// The cost page's query of [`default_request`] (what the order page links to).
pub(super) fn default_query(c: &Content) -> String {
    default_request(c).to_query()
}

/// The comparison an order is (or was) submitted with: the frozen one, else the one chosen,
/// else the default. An order records its comparison as the cost page's query, so a chosen or
/// frozen one is read from that query once, here.
pub(super) fn comparison_request(c: &Content) -> CostRequest {
    c.frozen
        .as_ref()
        .map(|f| f.query.as_str())
        .or(c.comparison.as_deref())
        .map_or_else(|| default_request(c), request_of)
}

/// A comparison recorded as the cost page's query (a pasted link), read once.
pub(super) fn request_of(query: &str) -> CostRequest {
    CostRequest::from_query(query)
}

/// The cost page's query of [`comparison_request`] (the link to open it there).
pub(super) fn comparison_query(c: &Content) -> String {
    comparison_request(c).to_query()
}

/// The query of a comparison link: the part after `?` of a pasted address (`/tco?…` or a
/// full URL of the cost page), or a bare query. `None` when it is not a cost page link.
fn link_query(link: &str) -> Option<String> {
    let link = link.trim();
    let link = link.split_once('#').map_or(link, |(l, _)| l);
    let (path, query) = match link.split_once('?') {
        Some((p, q)) => (p, q),
        None if link.contains('=') && !link.contains('/') => ("", link),
        None => (link, ""),
    };
    let path = match path.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("", |i| &rest[i..]),
        None => path,
    };
    let path_ok = path.is_empty() || path == "/tco" || path == "tco";
    path_ok.then(|| query.trim_start_matches('?').to_string())
}

/// The query of a pasted cost page link for an order of `workload_id`: the order's workload is
/// added when the link names none; a link for another workload, or not of the cost page, is
/// refused.
pub(super) fn link_for_workload(link: &str, workload_id: i64) -> Result<String, AppError> {
    let query = link_query(link).ok_or(AppError::Invalid(Msg::OrdersRComparisonInvalid))?;
    match tco::Query::parse(&query).get("workload") {
        Some(w) if w != workload_id.to_string() => Err(AppError::Invalid(Msg::OrdersRComparisonOtherWorkload)),
        Some(_) => Ok(query),
        None if query.is_empty() => Ok(format!("workload={workload_id}")),
        None => Ok(format!("workload={workload_id}&{query}")),
    }
}

/// Whether two exact amounts as the page writes them (`CostRow::total_exact`) are equal.
fn same_amount(shown: &str, frozen: Decimal) -> bool {
    Decimal::from_str(shown).is_ok_and(|d| d == frozen)
}

/// Freezes a computed comparison: the scenario that reproduces it, checked to give every
/// shown total to the cent. `None` when it does not (then nothing may be frozen).
pub(super) fn freeze(computed: &Computed, rates: Vec<ExchangeRate>, query: &str) -> Option<Frozen> {
    let (scenario, result) = tco::scenario_of(computed, rates)?;
    let rows = &computed.view.rows;
    let exact = rows.len() == result.quotes.len()
        && rows.iter().all(|row| {
            result.quotes.iter().any(|q| {
                q.id == row.quote_id.to_string()
                    && same_amount(&row.total_exact, q.estimate.total)
                    && same_amount(&row.compared_exact, q.compared_total)
            })
        });
    if !exact {
        tracing::error!(
            query,
            "the scenario of a comparison does not reproduce its rows; not frozen"
        );
        return None;
    }
    let quotes = rows
        .iter()
        .map(|r| PinnedQuote {
            quote_id: r.quote_id,
            revision: r.revision,
        })
        .collect();
    Some(Frozen {
        query: query.to_string(),
        quotes,
        scenario,
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::{comparison_query, default_query, link_for_workload, link_query, same_amount};
    use crate::{error::AppError, i18n::Msg, services::orders::Content};
    use rust_decimal_macros::dec;

    #[test]
    fn a_comparison_link_is_the_cost_pages_query_in_any_form_it_is_pasted() {
        let q = "workload=3&picked=1&q=7&setup_h_7=6";
        for pasted in [
            format!("http://127.0.0.1:3000/tco?{q}"),
            format!("https://ledger.example.com/tco?{q}#ranking"),
            format!("/tco?{q}"),
            format!("?{q}"),
            q.to_string(),
            format!("  /tco?{q}  "),
        ] {
            assert_eq!(link_query(&pasted).as_deref(), Some(q), "{pasted}");
        }
        assert_eq!(link_query("/tco").as_deref(), Some(""));
        assert_eq!(link_query("/quotes?q=7"), None, "another page");
        assert_eq!(link_query("https://evil.example.com/orders/1?x=1"), None);
        assert_eq!(link_query("just some words"), None);
    }

    #[test]
    fn a_link_is_for_the_orders_workload_which_is_added_when_missing() {
        assert_eq!(
            link_for_workload("/tco?workload=3&q=7", 3).ok().as_deref(),
            Some("workload=3&q=7")
        );
        assert_eq!(
            link_for_workload("/tco?q=7&picked=1", 3).ok().as_deref(),
            Some("workload=3&q=7&picked=1")
        );
        assert_eq!(link_for_workload("/tco", 3).ok().as_deref(), Some("workload=3"));
        assert_eq!(
            link_for_workload("/tco?workload=4&q=7", 3).err(),
            Some(AppError::Invalid(Msg::OrdersRComparisonOtherWorkload))
        );
        assert_eq!(
            link_for_workload("/quotes?q=7", 3).err(),
            Some(AppError::Invalid(Msg::OrdersRComparisonInvalid))
        );
    }

    #[test]
    fn an_order_is_compared_as_frozen_else_as_chosen_else_over_the_quotes_considered() {
        let mut c = Content {
            workload_id: 3,
            considered: vec![7, 9],
            ..Content::default()
        };
        assert_eq!(default_query(&c), "workload=3&picked=1&q=7&q=9");
        assert_eq!(comparison_query(&c), "workload=3&picked=1&q=7&q=9");
        c.comparison = Some("workload=3&q=7&setup_h_7=6".into());
        assert_eq!(comparison_query(&c), "workload=3&q=7&setup_h_7=6");
        assert_eq!(default_query(&c), "workload=3&picked=1&q=7&q=9");
    }

    #[test]
    fn shown_amounts_equal_frozen_ones_exactly() {
        assert!(same_amount("1234.50", dec!(1234.5)));
        assert!(!same_amount("1234.51", dec!(1234.5)));
        assert!(!same_amount("¥1,234.50", dec!(1234.5)));
    }
}
