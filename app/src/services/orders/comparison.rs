//! Every call from orders into the cost comparison (`services::tco`), in one place. An order's
//! comparison is named by the cost page's query (see [`OrderRecord::comparison`]); this module turns
//! it into rows, checks it, and freezes it at submission. Nothing else in `services::orders`
//! calls `services::tco`.

use super::{Frozen, OrderRecord, PinnedQuote};
use crate::{
    domain::{checklist::ComparedChoice, tco::ExchangeRate},
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

/// The rows of an order's live comparison and its compare currency: none when the order weighs
/// no quote and names no comparison.
pub(super) async fn live_rows(
    db: &Db,
    team_id: i64,
    c: &OrderRecord,
    pinned: Option<i64>,
    locale: Locale,
) -> Result<(Vec<CostRow>, String), AppError> {
    if c.considered.is_empty() && c.comparison.is_none() {
        return Ok((Vec::new(), String::new()));
    }
    let view = compute(db, team_id, &comparison_request(c, pinned), locale).await?.view;
    Ok((view.rows, view.base_currency))
}

/// Where the chosen quote stands among `rows` (compared in `base_currency`): its place, its
/// total, whether its throughput was measured, and how many quotes were (`None`: not among them).
pub(super) fn chosen_in(rows: &[CostRow], base_currency: &str, quote_id: Option<i64>) -> Option<ComparedChoice> {
    let row = rows.iter().find(|r| Some(r.quote_id) == quote_id)?;
    let measured = |r: &CostRow| !r.estimated && !r.stated;
    Some(ComparedChoice {
        rank: row.rank,
        of: u32::try_from(rows.len()).unwrap_or(u32::MAX),
        total: Decimal::from_str(&row.compared_exact).ok()?,
        currency: base_currency.to_string(),
        over_budget: row.over_budget,
        measured: measured(row),
        time_to_finish: row.time_to_finish.clone(),
        measured_quotes: u32::try_from(rows.iter().filter(|r| measured(r)).count()).unwrap_or(u32::MAX),
    })
}

/// The rental plan of `computed`, planned from `now` (Unix seconds) at the earliest: `None`
/// when nothing could be planned.
pub(super) async fn plan_of(
    db: &Db,
    team_id: i64,
    computed: &Computed,
    now: i64,
) -> Result<Option<crate::domain::plan::PlanResult>, AppError> {
    Ok(tco::planned(db, team_id, computed, now)
        .await?
        .and_then(|p| p.plan)
        .and_then(Result::ok))
}

/// Whether `computed` costs the plan's quote as the plan did: its node count, its pricing and
/// its total in the compare currency, exactly.
pub(super) fn costs_as_planned(computed: &Computed, plan: &crate::domain::orders::record::SignedPlan) -> bool {
    computed.costed.iter().any(|q| {
        q.quote_id == plan.quote_id
            && q.assumptions.nodes == Some(plan.nodes)
            && q.ranked.estimate.pricing_used == plan.pricing
            && q.ranked.compared_total == plan.compared_total
    })
}

/// The cost page's `query` with quote `quote_id` costed on `nodes` nodes at scaling
/// `efficiency` (a share; set only for more than one node): the comparison a plan carries
/// into an order. The quote's earlier node and efficiency fields give way.
pub(super) fn query_for_plan(query: &str, quote_id: i64, nodes: u32, efficiency: Option<Decimal>) -> String {
    let node_key = format!("nodes_{quote_id}");
    let efficiency_key = format!("efficiency_pct_{quote_id}");
    let mut pairs: Vec<(String, String)> = tco::Query::parse(query)
        .pairs()
        .iter()
        .filter(|(k, _)| *k != node_key && *k != efficiency_key)
        .cloned()
        .collect();
    pairs.push((node_key, nodes.to_string()));
    if let Some(e) = efficiency.filter(|_| nodes > 1) {
        pairs.push((efficiency_key, (e * Decimal::ONE_HUNDRED).normalize().to_string()));
    }
    serde_urlencoded::to_string(&pairs).unwrap_or_default()
}

/// Whether a comparison may be the order's: every field valid, no problem, a quote costed.
pub(super) fn is_usable(computed: &Computed) -> bool {
    let view = &computed.view;
    view.assumptions.iter().all(|f| f.error.is_none()) && view.problems.is_empty() && !view.rows.is_empty()
}

/// Whether the comparison costs the quote `chosen` at revision `pinned` (the one the order
/// pinned; `None`: any revision).
pub(super) fn compares(computed: &Computed, chosen: Option<i64>, pinned: Option<i64>) -> bool {
    chosen.is_some_and(|q| {
        computed
            .view
            .rows
            .iter()
            .any(|r| r.quote_id == q && pinned.is_none_or(|rev| r.revision == rev))
    })
}

/// The revision numbers of an order's chosen quote: the one it pinned, and the quote's latest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuoteRevisions {
    /// The revision the order pinned when the quote was chosen; the order is priced at it.
    pub pinned: i64,
    /// The quote's latest revision (above `pinned` when the quote was edited since).
    pub latest: i64,
}

impl QuoteRevisions {
    /// Whether a revision newer than the pinned one exists.
    #[must_use]
    pub fn newer_exists(self) -> bool {
        self.latest > self.pinned
    }
}

/// The revisions of `c`'s chosen quote (`None`: no quote chosen, or its revision is gone).
pub(super) async fn quote_revisions(
    conn: &mut sqlx::SqliteConnection,
    team_id: i64,
    c: &OrderRecord,
) -> Result<Option<QuoteRevisions>, AppError> {
    let (Some(quote_id), Some(rev_id)) = (c.quote_id, c.quote_revision_id) else {
        return Ok(None);
    };
    let Some(pinned) = crate::store::quotes::revision(&mut *conn, team_id, rev_id).await? else {
        return Ok(None);
    };
    let latest = crate::store::quotes::latest(&mut *conn, team_id, quote_id)
        .await?
        .map_or(pinned.revision, |q| q.revision);
    Ok(Some(QuoteRevisions {
        pinned: pinned.revision,
        latest,
    }))
}

/// The default comparison of an order: the quotes considered, default assumptions, the chosen
/// quote at `pinned`, the revision number the order pinned (see [`comparison_request`]).
pub(super) fn default_request(c: &OrderRecord, pinned: Option<i64>) -> CostRequest {
    pin(
        CostRequest::new(Some(c.workload_id)).with_quotes(c.considered.iter().copied()),
        c,
        pinned,
    )
}

/// The cost page's query of [`default_request`] (what the order page links to).
pub(super) fn default_query(c: &OrderRecord, pinned: Option<i64>) -> String {
    default_request(c, pinned).to_query()
}

/// The chosen quote of `c` costed at revision `pinned` rather than its latest.
fn pin(request: CostRequest, c: &OrderRecord, pinned: Option<i64>) -> CostRequest {
    match (c.quote_id, pinned) {
        (Some(quote), Some(rev)) => request.with_revision(quote, rev),
        _ => request,
    }
}

/// The comparison an order is (or was) submitted with: the frozen one, else the one chosen,
/// else the default. An order records its comparison as the cost page's query, so a chosen or
/// frozen one is read from that query once, here.
///
/// `pinned` is the revision number of the quote revision the order pinned
/// ([`OrderRecord::quote_revision_id`]): the chosen quote is costed at it, never at a later
/// revision, so that the price beside the spec procurement chose is that revision's. A frozen
/// comparison is read as it was frozen (its query names the revision since orders cost what
/// they pin).
pub(super) fn comparison_request(c: &OrderRecord, pinned: Option<i64>) -> CostRequest {
    match (&c.frozen, &c.comparison) {
        (Some(f), _) => request_of(&f.query),
        (None, Some(query)) => pin(request_of(query), c, pinned),
        (None, None) => default_request(c, pinned),
    }
}

/// A comparison recorded as the cost page's query (a pasted link), read once.
pub(super) fn request_of(query: &str) -> CostRequest {
    CostRequest::from_query(query)
}

/// The cost page's query of [`comparison_request`] (the link to open it there).
pub(super) fn comparison_query(c: &OrderRecord, pinned: Option<i64>) -> String {
    comparison_request(c, pinned).to_query()
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
    use super::{
        chosen_in, comparison_query, comparison_request, default_query, link_for_workload, link_query, same_amount,
    };
    use crate::{error::AppError, i18n::Msg, services::orders::OrderRecord, views::tco::CostRow};
    use rust_decimal_macros::dec;

    #[test]
    fn the_chosen_quote_is_found_with_its_place_total_and_how_many_were_measured() {
        let row = |quote_id, rank, exact: &str, estimated| CostRow {
            quote_id,
            rank,
            compared_exact: exact.into(),
            estimated,
            time_to_finish: "20.8 h".into(),
            ..CostRow::default()
        };
        let rows = [
            row(7, 1, "980", false),
            row(8, 2, "1037.50", false),
            row(9, 3, "23000", true),
        ];
        let c = chosen_in(&rows, "CNY", Some(8)).expect("in the comparison");
        assert_eq!(
            (c.rank, c.of, c.total, c.currency.as_str()),
            (2, 3, dec!(1037.50), "CNY")
        );
        assert!(c.measured && !c.over_budget);
        assert_eq!((c.measured_quotes, c.time_to_finish.as_str()), (2, "20.8 h"));
        assert!(chosen_in(&rows, "CNY", Some(9)).is_some_and(|c| !c.measured));
        assert_eq!(chosen_in(&rows, "CNY", Some(99)), None, "not compared");
        assert_eq!(chosen_in(&rows, "CNY", None), None, "no quote chosen");
    }

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
        let mut c = OrderRecord {
            workload_id: 3,
            considered: vec![7, 9],
            ..OrderRecord::default()
        };
        assert_eq!(default_query(&c, None), "workload=3&picked=1&q=7&q=9");
        assert_eq!(comparison_query(&c, None), "workload=3&picked=1&q=7&q=9");
        c.comparison = Some("workload=3&q=7&setup_h_7=6".into());
        assert_eq!(comparison_query(&c, None), "workload=3&q=7&setup_h_7=6");
        assert_eq!(default_query(&c, None), "workload=3&picked=1&q=7&q=9");
    }

    #[test]
    fn the_chosen_quote_is_compared_at_the_revision_the_order_pinned() {
        let mut c = OrderRecord {
            workload_id: 3,
            quote_id: Some(7),
            considered: vec![7, 9],
            ..OrderRecord::default()
        };
        assert_eq!(default_query(&c, Some(1)), "workload=3&picked=1&q=7&q=9&rev_7=1");
        assert_eq!(comparison_request(&c, Some(1)).revisions.get(&7), Some(&1));
        c.comparison = Some("workload=3&q=7&rev_7=2".into());
        let chosen = comparison_request(&c, Some(1));
        assert_eq!(chosen.revisions.get(&7), Some(&1), "the pin wins over a pasted link");
        assert_eq!(chosen.to_query(), "workload=3&q=7&rev_7=2&rev_7=1");
        assert_eq!(
            comparison_request(&request_of_link(&chosen.to_query()), None)
                .revisions
                .get(&7),
            Some(&1),
            "its link costs the same"
        );
        c.quote_id = None;
        assert_eq!(default_query(&c, Some(1)), "workload=3&picked=1&q=7&q=9");
    }

    /// An order whose chosen comparison is `query`.
    fn request_of_link(query: &str) -> OrderRecord {
        OrderRecord {
            workload_id: 3,
            comparison: Some(query.into()),
            ..OrderRecord::default()
        }
    }

    #[test]
    fn shown_amounts_equal_frozen_ones_exactly() {
        assert!(same_amount("1234.50", dec!(1234.5)));
        assert!(!same_amount("1234.51", dec!(1234.5)));
        assert!(!same_amount("¥1,234.50", dec!(1234.5)));
    }
}
