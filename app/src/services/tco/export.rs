//! The comparison's exports: the CSV of every quote's components (`/tco/export.csv`) and the
//! scenario file with its result (`/tco/export.json`, what `nodeledger tco` reruns).

use super::{Computed, prices_in_base, unit_costs};
use crate::{
    domain::{
        csv_cell,
        money::round_per_unit,
        tco::{Currency, latest_rate},
    },
    error::AppError,
    store::Db,
    views::tco::CostRow,
};
use rust_decimal::{Decimal, RoundingStrategy};

/// The CSV's header line.
const CSV_HEADER: &str = "rank,quote_id,revision,quote,currency,total,base_currency,total_in_base,rate_date,nodes,busy_h,billable_h,rental_h,time_to_finish_h,cost_per_unit,per_units,work_unit,effective_gpu_hour,idle_cost,pricing,over_budget,component,quantity,unit_price,component_cost,group,cost_per_unit_in_base,effective_gpu_hour_in_base,rate_pair,rate\n";

/// A money amount with exactly the currency's minor digits (`720.00`, JPY `1200`).
fn money(amount: Decimal, currency: Currency) -> String {
    currency.round(amount).to_string()
}

/// A unit or derived price, as the page shows it: in minor units, or to four significant
/// digits below one minor unit (`10.00`, `0.28`, `0.003457`).
fn price(amount: Decimal, currency: Currency) -> String {
    round_per_unit(amount, currency).to_string()
}

/// Hours and quantities: at most four decimals, trailing zeros dropped (`72`, `436368.7225`);
/// the exact figures are in `export.json`.
fn quantity(value: Decimal) -> String {
    value
        .round_dp_with_strategy(4, RoundingStrategy::MidpointAwayFromZero)
        .normalize()
        .to_string()
}

/// The ranked comparison as CSV: one line per quote and component. Money is rounded to the
/// currency's minor unit, unit prices as the page shows them ([`price`]), hours and quantities
/// to four decimals ([`quantity`]); the exchange rate as it was entered.
#[must_use]
pub fn comparison_csv(c: &Computed) -> String {
    let mut out = String::from(CSV_HEADER);
    for (row, costed) in c.view.rows.iter().zip(&c.costed) {
        let e = &costed.ranked.estimate;
        let cur = e.currency;
        let per = e.cost_per_unit.as_ref();
        let rate = latest_rate(&c.rates, cur, c.base);
        let work = c
            .workload
            .as_ref()
            .and_then(|w| w.total_work.as_ref())
            .map(|w| w.amount);
        let (_, gpu_hour_base) = prices_in_base(&costed.ranked, c.base, work, costed.draft.spec.gpus_per_node);
        // One scale for every row (`per_units`), as on the page.
        let (unit_own, unit_base) = unit_costs(costed, c.base, work, c.unit_scale);
        let head = [
            row.rank.to_string(),
            row.quote_id.to_string(),
            row.revision.to_string(),
            csv_cell::field(&row.label),
            row.currency.clone(),
            money(e.total, cur),
            c.base.code().to_string(),
            money(costed.ranked.compared_total, c.base),
            costed.ranked.rate_date.clone().unwrap_or_default(),
            e.nodes.to_string(),
            quantity(e.busy_h),
            quantity(e.billable_h),
            quantity(e.rental_h),
            quantity(e.time_to_finish_h),
            unit_own.map(|p| price(p, cur)).unwrap_or_default(),
            per.map(|_| c.unit_scale.to_string()).unwrap_or_default(),
            per.map(|p| csv_cell::field(&p.unit)).unwrap_or_default(),
            e.effective_gpu_hour_price.map(|p| price(p, cur)).unwrap_or_default(),
            money(e.idle_cost, cur),
            format!("{:?}", e.pricing_used).to_lowercase(),
            row.over_budget.to_string(),
        ]
        .join(",");
        let tail = [
            group_name(row).to_string(),
            unit_base.map(|p| price(p, c.base)).unwrap_or_default(),
            gpu_hour_base.map(|p| price(p, c.base)).unwrap_or_default(),
            rate.map(|r| format!("{}/{}", r.from.code(), r.to.code()))
                .unwrap_or_default(),
            rate.map(|r| r.rate.normalize().to_string()).unwrap_or_default(),
        ]
        .join(",");
        for (comp, line) in e.components.iter().zip(&row.components) {
            let name = if line.code == "other_fee" {
                format!("other_fee:{}", line.name)
            } else {
                line.code.clone()
            };
            out.push_str(&format!(
                "{head},{},{},{},{},{tail}\n",
                csv_cell::field(&name),
                quantity(comp.quantity),
                comp.unit_price.map(|p| price(p, cur)).unwrap_or_default(),
                money(comp.cost, cur)
            ));
        }
    }
    out
}

/// The ranking group of a row as the CSV names it: `measured`, `stated` (a throughput typed by
/// hand, not measured) or `estimated` (the workload's stated run length).
fn group_name(row: &CostRow) -> &'static str {
    match (row.estimated, row.stated) {
        (true, _) => "estimated",
        (false, true) => "stated",
        (false, false) => "measured",
    }
}

/// `{ "scenario": …, "result": …, "plan_file": …, "plan_result": …, "plan_error": … }` for
/// comparison `c` of team `team_id`: the scenario that reproduces `c` and the rental plan of its
/// workload ([`super::planned`]: `plan_file` is what `nodeledger plan` reads, `plan_error` why
/// the planner made no plan); all `null` when there is nothing to reproduce.
///
/// # Errors
/// [`AppError::Internal`] when the rates cannot be read (logged).
pub async fn scenario_json(db: &Db, team_id: i64, c: &Computed) -> Result<serde_json::Value, AppError> {
    Ok(match super::planned(db, team_id, c, crate::clock::now_unix()).await? {
        Some(p) => {
            let (plan_result, plan_error) = match p.plan {
                Some(Ok(r)) => (serde_json::to_value(r).ok(), None),
                Some(Err(e)) => (None, Some(e)),
                None => (None, None),
            };
            serde_json::json!({
                "scenario": p.scenario,
                "result": p.result,
                "plan_file": p.file,
                "plan_result": plan_result,
                "plan_error": plan_error,
            })
        }
        None => serde_json::json!({
            "scenario": null, "result": null, "plan_file": null, "plan_result": null, "plan_error": null
        }),
    })
}
