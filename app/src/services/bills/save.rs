//! Saving a checked bill (all or nothing, with its audit event) and the team's threshold.

use super::{Checked, Refusal, check};
use crate::{
    domain::{audit::Action, bills::reconcile::Reconciliation, bills::timestamp},
    error::AppError,
    store::{self, Db},
};
use rust_decimal::Decimal;

/// What an import did.
#[derive(Debug)]
pub struct Outcome {
    /// The check, or why the bill was refused.
    pub checked: Result<Checked, Refusal>,
    /// The bill saved (only when asked to save a clean bill).
    pub saved: Option<i64>,
}

/// Checks the bill and, with `save` and no error, stores it with every line and its audit event
/// in one `BEGIN IMMEDIATE` transaction (all or nothing).
///
/// # Errors
/// [`AppError::NotFound`] for an order not in the team; database failures.
pub async fn import(
    db: &Db,
    team_id: i64,
    actor: i64,
    order_id: i64,
    file_name: &str,
    content: &[u8],
    save: bool,
) -> Result<Outcome, AppError> {
    let checked = check(db, team_id, order_id, content).await?;
    let ready = match &checked {
        Ok(c) if save && c.error_count == 0 => c.reconciliation.as_ref(),
        _ => None,
    };
    let Some(reconciliation) = ready else {
        return Ok(Outcome { checked, saved: None });
    };
    let Ok(c) = &checked else {
        return Ok(Outcome { checked, saved: None });
    };
    let saved = save_checked(db, team_id, actor, order_id, file_name, c, reconciliation).await?;
    match saved {
        Ok(id) => Ok(Outcome {
            checked,
            saved: Some(id),
        }),
        Err(refusal) => Ok(Outcome {
            checked: Err(refusal),
            saved: None,
        }),
    }
}

/// The rate the bill is converted at, as kept with it: units of the estimate's currency per unit
/// of the bill's, and the rate's date.
fn kept_rate(c: &Checked, r: &Reconciliation) -> Option<(Decimal, String)> {
    let rate = c.rate.as_ref()?;
    let from = crate::domain::tco::Currency::parse(&c.currency).ok()?;
    let factor = crate::domain::bills::reconcile::conversion_factor(rate, from, r.currency)?;
    Some((factor, rate.date.clone()))
}

async fn save_checked(
    db: &Db,
    team_id: i64,
    actor: i64,
    order_id: i64,
    file_name: &str,
    c: &Checked,
    r: &Reconciliation,
) -> Result<Result<i64, Refusal>, AppError> {
    let (start, end) = c.period();
    let (start, end) = (timestamp::format(start), timestamp::format(end));
    let file_name: String = file_name.chars().take(255).collect();
    let mut tx = store::begin_write(db).await?;
    // Checked again inside the transaction: another import may have saved in between.
    if let Some((_, order_id)) = store::bills::with_file(&mut *tx, team_id, &c.sha256).await? {
        return Ok(Err(Refusal::DuplicateFile { order_id }));
    }
    let overlap = match c.own_period() {
        Some(_) => store::bills::overlapping(&mut *tx, team_id, order_id, &start, &end).await?,
        None => None,
    };
    if let Some((bill_id, s, e)) = overlap {
        let column = "";
        return Ok(Err(Refusal::Overlap {
            line: 0,
            column,
            bill_id,
            start: s,
            end: e,
        }));
    }
    let bill = store::bills::NewBill {
        team_id,
        order_id,
        rental_id: c.rental_id,
        file_name: &file_name,
        file_sha256: &c.sha256,
        layout: c.layout.as_str(),
        currency: &c.currency,
        period_start: &start,
        period_end: &end,
        matched_count: c.matched(),
        billed_total: c.total(),
        matched_total: c.matched_total(),
        estimated_total: r.estimated,
        // Before tax: what the flag reads, and what a change of the threshold re-flags from.
        reconciled_total: r.billed - r.tax,
        variance_pct: r.variance_pct,
        after_release: r.after_release,
        flagged: r.flagged,
        imported_by: actor,
        rate: kept_rate(c, r),
    };
    let id = match store::bills::insert(&mut tx, &bill, &c.lines, &c.keys).await {
        Ok(id) => id,
        Err(e) if store::db::is_unique_violation(&e) => return Ok(Err(Refusal::DuplicateLine { line: 0, bill_id: 0 })),
        Err(e) => return Err(e.into()),
    };
    let data = serde_json::json!({
        "bill_id": id,
        "file_sha256": c.sha256,
        "file_name": file_name,
        "layout": c.layout.as_str(),
        "lines": c.lines.len(),
        "matched": c.matched(),
        "unmatched": c.lines.len() - c.matched(),
        "currency": c.currency,
        "billed_total": c.total().normalize().to_string(),
        "estimated_total": r.estimated.normalize().to_string(),
        "variance_pct": r.variance_pct.map(|v| v.normalize().to_string()),
        "threshold_pct": r.threshold_pct.normalize().to_string(),
        "after_release": r.after_release.normalize().to_string(),
        "flagged": r.flagged,
        "rate": c.rate.as_ref().map(|x| serde_json::json!({
            "from": x.from.code(), "to": x.to.code(), "rate": x.rate.normalize().to_string(), "date": x.date,
        })),
        "tax": r.tax.normalize().to_string(),
    });
    let at = crate::clock::now_stamp();
    store::audit::append(&mut tx, order_id, actor, &at, Action::BillImported, data).await?;
    tx.commit().await?;
    Ok(Ok(id))
}

/// Sets the team's variance threshold (percent, above 0 and at most 1000) as a manager, re-flags
/// every order from its latest bill, and records the change (`bill_threshold_set`).
///
/// # Errors
/// [`AppError::InvalidFields`] for a threshold out of range; database failures.
pub async fn set_threshold(db: &Db, team_id: i64, actor: i64, pct: Decimal) -> Result<(), AppError> {
    if pct <= Decimal::ZERO || pct > Decimal::from(1000) {
        return Err(AppError::InvalidFields(vec![crate::error::FieldIssue {
            field: "threshold".into(),
            code: "out_of_range".into(),
            limit: Some("(0, 1000]".into()),
        }]));
    }
    let mut tx = store::begin_write(db).await?;
    let previous = store::bills::set_threshold(&mut tx, team_id, pct, actor).await?;
    for (bill_id, estimated, billed, after_release) in store::bills::latest_per_order(&mut *tx, team_id).await? {
        // A charge after release flags the order whatever the threshold.
        let flagged = crate::domain::bills::reconcile::flagged(estimated, billed, pct) || after_release > Decimal::ZERO;
        store::bills::set_flag(&mut tx, team_id, bill_id, flagged).await?;
    }
    let data = serde_json::json!({
        "team_id": team_id,
        "value": pct.normalize().to_string(),
        "previous": previous.normalize().to_string(),
    });
    crate::services::site_audit::record(&mut tx, actor, Action::BillThresholdSet, data).await?;
    tx.commit().await?;
    Ok(())
}
