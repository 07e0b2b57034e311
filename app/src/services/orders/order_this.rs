//! "Order this" on the cost page: the comparison as shown becomes the draft order of its
//! workload in one action, through the same checks and audit events as the order page.
//!
//! 1. Compute the comparison of the cost page's query, as the page shows it: it must be usable
//!    (every field valid, no problem, a quote costed) and cost the quote chosen.
//! 2. The selection: the chosen quote, every quote the comparison costs as the alternatives
//!    considered, and the runs its measured throughputs come from (each row's runs, in rank
//!    order, at most [`super::MAX_SELECTED`]); checked as the order page's selection is.
//! 3. In one write transaction: the team's newest draft for the workload, else a new order
//!    (event `create`); its selection and comparison (the query, with its assumptions and
//!    per-quote overrides) set under the lifecycle (event `evidence_attached`). A draft's
//!    waiver and checklist answers stay.

use super::{MAX_SELECTED, MAX_TITLE_CHARS, Selection, apply_selection, check_selection, create_in, edit_in, now};
use crate::{
    domain::{
        audit::Action,
        orders::{OrderState, record::SignedPlan},
    },
    error::AppError,
    i18n::{Locale, Msg},
    store::{self, Db, orders::OrderRow},
    views::{Caller, Membership},
};

/// What "order this" did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ordered {
    /// The draft order.
    pub order_id: i64,
    /// A new order was created (else the workload's draft was updated).
    pub created: bool,
}

/// The team's newest draft order for `workload_id`: the one "order this" updates (the cost page
/// names it before the click).
///
/// # Errors
/// The database.
pub async fn workload_draft(
    db: impl sqlx::SqliteExecutor<'_>,
    team_id: i64,
    workload_id: i64,
) -> Result<Option<OrderRow>, sqlx::Error> {
    Ok(store::orders::latest_in_states(db, team_id, &[OrderState::Draft])
        .await?
        .into_iter()
        .map(|(row, _)| row)
        .filter(|row| row.workload_id == workload_id)
        .max_by_key(|row| row.id))
}

/// The title of a new order for `quote` on `workload`, cut to the longest title.
fn title(workload: &str, quote: &str) -> String {
    format!("{workload} — {quote}").chars().take(MAX_TITLE_CHARS).collect()
}

/// Makes the comparison of the cost page's `query` the draft order of its workload, with
/// `quote_id` chosen (steps in the module docs).
pub async fn order_this(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    query: &str,
    quote_id: i64,
    locale: Locale,
) -> Result<Ordered, AppError> {
    order_with(db, caller, team, query, quote_id, locale, None).await
}

/// [`order_this`], keeping `plan` on the order (`None` clears a plan the draft had: a plan
/// belongs to the comparison it was made with). With a plan, the comparison must cost the
/// chosen quote as the plan did (its node count, pricing and total), else nothing changes.
pub(super) async fn order_with(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    query: &str,
    quote_id: i64,
    locale: Locale,
    plan: Option<SignedPlan>,
) -> Result<Ordered, AppError> {
    let request = super::comparison::request_of(query);
    let computed = super::comparison::compute(db, team.team_id, &request, locale).await?;
    if !super::comparison::is_usable(&computed) {
        return Err(AppError::Invalid(Msg::OrdersRComparisonInvalid));
    }
    if let Some(p) = &plan
        && !super::comparison::costs_as_planned(&computed, p)
    {
        return Err(AppError::Invalid(Msg::PlanPricingDiffers));
    }
    let view = &computed.view;
    let workload_id = view.workload_id.ok_or(AppError::NotFound)?;
    let chosen = view
        .rows
        .iter()
        .find(|r| r.quote_id == quote_id)
        .ok_or(AppError::Invalid(Msg::OrdersRChosenNotCompared))?;
    let comparison = super::comparison::link_for_workload(&view.query, workload_id)?;
    let mut runs: Vec<i64> = Vec::new();
    for id in view.rows.iter().flat_map(|r| &r.run_ids) {
        if !runs.contains(id) && runs.len() < MAX_SELECTED {
            runs.push(*id);
        }
    }
    let selection = Selection {
        quote_id: Some(quote_id),
        considered: view.rows.iter().map(|r| r.quote_id).take(MAX_SELECTED).collect(),
        runs,
        waiver: String::new(),
    };
    let quote_revision_id = check_selection(db, team.team_id, &selection).await?;
    let new_title = title(&view.workload_name, &chosen.label);

    let at = now();
    let mut tx = store::begin_write(db).await?;
    let draft = workload_draft(&mut *tx, team.team_id, workload_id).await?;
    let (order_id, created) = match draft {
        Some(row) => (row.id, false),
        None => (
            create_in(&mut tx, caller, team, &new_title, workload_id, &at).await?,
            true,
        ),
    };
    edit_in(
        &mut tx,
        team.team_id,
        caller.user_id,
        order_id,
        Action::EvidenceAttached,
        &at,
        move |c, _| {
            let waiver = std::mem::take(&mut c.waiver);
            let selection = Selection { waiver, ..selection };
            let mut data = apply_selection(c, &selection, quote_revision_id);
            c.comparison = Some(comparison);
            data["comparison"] = serde_json::Value::from(c.comparison.clone());
            data["from_cost_page"] = serde_json::Value::Bool(true);
            // A plan ordered replaces the one before; "Order this" from the cost page drops it,
            // as the comparison is now the cost page's, not the plan's.
            match &plan {
                Some(p) => {
                    data["plan"] = serde_json::json!({"quote_id": p.quote_id, "nodes": p.nodes, "pricing": p.pricing});
                }
                None if c.plan.is_some() => data["plan_cleared"] = serde_json::Value::Bool(true),
                None => {}
            }
            c.plan = plan;
            Ok(data)
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Ordered { order_id, created })
}

#[cfg(test)]
mod tests {
    use super::title;

    #[test]
    fn a_new_orders_title_names_the_workload_and_the_quote_within_the_longest_title() {
        assert_eq!(title("chat", "Acme · L4-1"), "chat — Acme · L4-1");
        assert_eq!(title(&"w".repeat(300), "q").chars().count(), super::MAX_TITLE_CHARS);
    }
}
