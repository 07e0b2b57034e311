//! "Order this plan" on the plan page: a plan on the front (a quote, a node count, a pricing)
//! becomes the draft order of its workload, as "Order this" does from the cost page.
//!
//! 1. Plan the comparison of the page's query again, from now: the plan asked for must still be
//!    on the front (a quote, run or assumption may have changed since the page was shown).
//! 2. The comparison carried into the order is the page's query with the quote costed on the
//!    plan's node count (and, on more than one node, the plan's scaling efficiency, so measured
//!    efficiency travels too); it must cost the quote as the plan did — node count, pricing and
//!    total to the cent — or nothing changes.
//! 3. [`super::order_this`]'s steps, with the plan kept on the order ([`SignedPlan`]): the
//!    deadline and budget it was planned against go with it, and the manager signs them.

use super::{Ordered, comparison, order_this::order_with};
use crate::{
    domain::{
        orders::record::SignedPlan,
        plan::{Plan, PlanResult},
        rentals::Instant,
        tco::Pricing,
    },
    error::AppError,
    i18n::{Locale, Msg},
    store::Db,
    views::{Caller, Membership},
};

/// The plan procurement picked on the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanChoice {
    /// The quote.
    pub quote_id: i64,
    /// Nodes.
    pub nodes: u32,
    /// `on_demand` or `monthly`.
    pub pricing: String,
}

/// Puts the plan `chosen` of the plan page for `query` into the workload's draft order (steps
/// in the module docs).
///
/// # Errors
/// [`Msg::PlanNotOnFront`] when the plan is no longer on the front; [`Msg::PlanPricingDiffers`]
/// when the comparison does not cost it as the plan did; else as [`super::order_this`].
pub async fn order_plan(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    query: &str,
    chosen: &PlanChoice,
    locale: Locale,
) -> Result<Ordered, AppError> {
    let computed = comparison::compute(db, team.team_id, &comparison::request_of(query), locale).await?;
    let now = crate::clock::now_unix();
    let result = comparison::plan_of(db, team.team_id, &computed, now)
        .await?
        .ok_or(AppError::Invalid(Msg::PlanNotOnFront))?;
    let plan = on_front(&result, chosen).ok_or(AppError::Invalid(Msg::PlanNotOnFront))?;
    let signed = signed(&result, plan, chosen.quote_id).ok_or(AppError::Invalid(Msg::PlanNotOnFront))?;
    let carried = comparison::query_for_plan(&computed.view.query, chosen.quote_id, plan.nodes, Some(plan.efficiency));
    order_with(db, caller, team, &carried, chosen.quote_id, locale, Some(signed)).await
}

/// The plan `chosen` names, if it is on the front of `result`.
fn on_front<'a>(result: &'a PlanResult, chosen: &PlanChoice) -> Option<&'a Plan> {
    let pricing = match chosen.pricing.as_str() {
        "on_demand" => Pricing::OnDemand,
        "monthly" => Pricing::Monthly,
        _ => return None,
    };
    let id = chosen.quote_id.to_string();
    result
        .front
        .iter()
        .find(|p| p.quote_id == id && p.nodes == chosen.nodes && p.pricing == pricing)
}

/// What the order keeps of `plan`: its facts, and the start, deadline and budget of `result`.
fn signed(result: &PlanResult, plan: &Plan, quote_id: i64) -> Option<SignedPlan> {
    Some(SignedPlan {
        quote_id,
        nodes: plan.nodes,
        pricing: plan.pricing,
        compared_total: plan.compared_total,
        compare_currency: result.compare_currency,
        earliest_start: result.earliest_start?.unix(),
        finish_s: plan.finish_s,
        pessimistic_finish_s: plan.pessimistic_finish_s,
        deadline_s: result.deadline_s,
        deadline_at: result.deadline_at.map(Instant::unix),
        budget: result.budget,
        at_risk: plan.at_risk,
        recommended: result.recommended.as_ref().is_some_and(|r| r.plan.key() == plan.key()),
    })
}
