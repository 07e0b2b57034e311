//! What the pages show of rentals: the order page's section, the dashboard's overdue list, the
//! learned defaults of the cost page and the rental in the order's export. Each loads with the
//! store, then builds with the pure functions below (and `domain::rentals`).

use super::{Pinned, now, times_of};
use crate::{
    domain::{
        money::format_money,
        rentals::{Actuals, DailyCost, DailyPrices, Instant, Learned, Overdue, RentalTimes, summarise, with_learned},
        roles::Capability,
        tco::Assumptions,
    },
    error::AppError,
    i18n::{Locale, Msg},
    store::{self, Db, rentals::RentalRow},
    views::{
        Caller, Membership,
        rentals::{LearnedKind, LearnedOffer, OverdueRental, RentalSection, RentalShown},
    },
};
use rust_decimal::Decimal;
use std::str::FromStr;

/// Hours as the page writes them: at most 2 decimals, trailing zeros trimmed.
fn hours_text(h: Decimal) -> String {
    h.round_dp(2).normalize().to_string()
}

/// Why a rental is overdue, in words.
pub(crate) fn overdue_text(locale: Locale, o: Overdue) -> String {
    match o {
        Overdue::PastPlannedEnd { hours } => locale.fmt(Msg::RentalsOverduePastEnd, &[("hours", &hours.to_string())]),
        Overdue::StoppedNotReleased { hours } => {
            locale.fmt(Msg::RentalsOverdueStopped, &[("hours", &hours.to_string())])
        }
    }
}

/// The lines of a daily cost that are not zero, labelled.
fn cost_lines(locale: Locale, c: &DailyCost, prices: &DailyPrices) -> Vec<(String, String)> {
    [
        (Msg::RentalsLineCompute, c.compute),
        (Msg::RentalsLineStoppedCompute, c.stopped_compute),
        (Msg::RentalsLineDisk, c.disk),
        (Msg::RentalsLineIp, c.ip),
    ]
    .into_iter()
    .filter(|(_, d)| !d.is_zero())
    .map(|(m, d)| (locale.t(m).to_string(), format_money(d, prices.currency)))
    .collect()
}

/// One recorded rental as the order page shows it at `now`.
#[must_use]
pub fn shown(
    r: &RentalRow,
    times: &RentalTimes,
    prices: Option<&DailyPrices>,
    now: Instant,
    locale: Locale,
) -> RentalShown {
    let state = times.state_at(now);
    let cost = prices.and_then(|p| p.per_day(state).map(|c| (c, p)));
    let actual_hours = match (&r.setup_hours, &r.data_prep_hours, &r.rerun_hours) {
        (Some(s), Some(d), Some(x)) => Some((s.clone(), d.clone(), x.clone())),
        _ => None,
    };
    RentalShown {
        id: r.id,
        state,
        started_at: r.started_at.clone(),
        planned_end_at: r.planned_end_at.clone(),
        stopped_at: r.stopped_at.clone(),
        released_at: r.released_at.clone(),
        resources: r.resources.clone(),
        note: r.note.clone(),
        per_day: cost.as_ref().map(|(c, p)| format_money(c.total, p.currency)),
        per_day_exact: cost.as_ref().map(|(c, _)| c.total.to_string()),
        per_day_lines: cost.as_ref().map(|(c, p)| cost_lines(locale, c, p)).unwrap_or_default(),
        overdue: times.overdue_at(now).map(|o| overdue_text(locale, o)),
        running_h: hours_text(times.running_hours(now)),
        stopped_h: hours_text(times.stopped_hours(now)),
        actual_hours,
    }
}

/// The prices pinned by the (approved) revision a rental follows (`None`: that revision is gone
/// or pinned no prices).
async fn pinned_of(db: &Db, team_id: i64, r: &RentalRow) -> Result<Option<Pinned>, AppError> {
    match store::orders::revision_content(db, team_id, r.order_revision_id).await? {
        Some(content) => Pinned::of_content(&content),
        None => Ok(None),
    }
}

/// The rental section of one of the team's orders.
pub async fn section(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    order_id: i64,
    locale: Locale,
) -> Result<RentalSection, AppError> {
    let latest = store::orders::latest(db, team.team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let approved = latest.state == crate::domain::orders::OrderState::Approved;
    let rental = store::rentals::of_order(db, team.team_id, order_id).await?;
    let pinned = match &rental {
        Some(r) => pinned_of(db, team.team_id, r).await?,
        None if approved => Pinned::of_row(&latest)?,
        None => None,
    };
    let shown = match &rental {
        Some(r) => Some(shown(
            r,
            &times_of(r)?,
            pinned.as_ref().map(|p| &p.prices),
            now(),
            locale,
        )),
        None => None,
    };
    Ok(RentalSection {
        order_id,
        approved,
        can_act: caller.may(Capability::RecordRentals),
        time_to_finish_h: pinned.map(|p| hours_text(p.time_to_finish_h)),
        rental: shown,
    })
}

/// Every rental of the team past its planned end or stopped and not released for more than a
/// day, with what it costs per day now; longest overdue first.
pub async fn overdue(db: &Db, team_id: i64, locale: Locale) -> Result<Vec<OverdueRental>, AppError> {
    let now = now();
    let mut lines = Vec::new();
    for w in store::rentals::unreleased(db, team_id).await? {
        let times = times_of(&w.rental)?;
        let Some(why) = times.overdue_at(now) else { continue };
        let state = times.state_at(now);
        let cost = Pinned::of_content(&w.content)?.and_then(|p| p.prices.per_day(state).map(|c| (c, p.prices)));
        let hours = match why {
            Overdue::PastPlannedEnd { hours } | Overdue::StoppedNotReleased { hours } => hours,
        };
        lines.push((
            hours,
            OverdueRental {
                order_id: w.rental.order_id,
                title: w.title,
                state,
                reason: overdue_text(locale, why),
                per_day: cost.as_ref().map(|(c, p)| format_money(c.total, p.currency)),
                per_day_exact: cost.as_ref().map(|(c, _)| c.total.to_string()),
            },
        ));
    }
    lines.sort_by_key(|(hours, _)| std::cmp::Reverse(*hours));
    Ok(lines.into_iter().map(|(_, l)| l).collect())
}

/// The actuals of one released rental (`None` when its hours were not recorded).
fn actuals_of(r: &RentalRow, times: &RentalTimes, pinned: Option<&Pinned>) -> Option<Actuals> {
    let dec = |s: &Option<String>| s.as_deref().and_then(|s| Decimal::from_str(s).ok());
    let released = times.released_at?;
    Some(Actuals {
        setup_h: dec(&r.setup_hours)?,
        data_prep_h: dec(&r.data_prep_hours)?,
        rerun_h: dec(&r.rerun_hours)?,
        running_h: times.running_hours(released),
        stopped_h: times.stopped_hours(released),
        compute_h: pinned.map_or(Decimal::ZERO, |p| p.compute_h),
        transfer_h: pinned.map_or(Decimal::ZERO, |p| p.transfer_h),
    })
}

fn kind_label(locale: Locale, kind: &str) -> String {
    Msg::from_key(&format!("workloads.kind_{kind}")).map_or_else(|| kind.to_string(), |m| locale.t(m).to_string())
}

fn learned_kind(locale: Locale, kind: &str, l: &Learned) -> LearnedKind {
    LearnedKind {
        kind: kind.to_string(),
        kind_label: kind_label(locale, kind),
        rentals: l.rentals,
        setup_h: hours_text(l.setup_h),
        data_prep_h: hours_text(l.data_prep_h),
        rerun_pct: hours_text(l.rerun_share * Decimal::ONE_HUNDRED),
        idle_h: hours_text(l.idle_h),
        stopped_h: hours_text(l.stopped_h),
    }
}

/// The offer in words: what the rentals averaged and, when the page's assumptions read, what
/// the comparison assumes now.
fn offer_sentence(locale: Locale, v: &LearnedKind, assumed: Option<&Assumptions>) -> String {
    let learned = [
        ("n", v.rentals.to_string()),
        ("kind", v.kind_label.clone()),
        ("setup", v.setup_h.clone()),
        ("prep", v.data_prep_h.clone()),
        ("rerun", v.rerun_pct.clone()),
        ("idle", v.idle_h.clone()),
        ("stopped", v.stopped_h.clone()),
    ];
    let now = assumed.map(|a| {
        [
            ("now_setup", hours_text(a.setup_h)),
            ("now_prep", hours_text(a.data_prep_h)),
            ("now_rerun", hours_text(a.rerun_share * Decimal::ONE_HUNDRED)),
            ("now_idle", hours_text(a.idle_h)),
            ("now_stopped", hours_text(a.stopped_h)),
        ]
    });
    let args: Vec<(&str, &str)> = learned
        .iter()
        .chain(now.iter().flatten())
        .map(|(k, v)| (*k, v.as_str()))
        .collect();
    let msg = if now.is_some() {
        Msg::RentalsLearnedOfferAssumed
    } else {
        Msg::RentalsLearnedOffer
    };
    locale.fmt(msg, &args)
}

/// What the team's released rentals took, per kind of workload, and — for `workload_id`, the
/// cost page's workload — its kind's averages as one sentence with the page's `query` set to
/// them (the user applies them with one click; nothing changes by itself).
pub async fn learned(
    db: &Db,
    team_id: i64,
    workload_id: Option<i64>,
    query: &str,
    locale: Locale,
) -> Result<LearnedOffer, AppError> {
    let mut by_kind: Vec<(String, Vec<Actuals>)> = Vec::new();
    for w in store::rentals::released(db, team_id).await? {
        let times = times_of(&w.rental)?;
        let pinned = Pinned::of_content(&w.content)?;
        let Some(a) = actuals_of(&w.rental, &times, pinned.as_ref()) else {
            continue;
        };
        match by_kind.iter_mut().find(|(k, _)| *k == w.kind) {
            Some((_, list)) => list.push(a),
            None => by_kind.push((w.kind, vec![a])),
        }
    }
    let summaries: Vec<(String, Learned)> = by_kind
        .into_iter()
        .filter_map(|(k, list)| summarise(&list).map(|l| (k, l)))
        .collect();
    let workload = match workload_id {
        Some(id) => store::workloads::by_id(db, team_id, id).await?.map(|w| w.record),
        None => None,
    };
    let assumed = crate::services::tco::assumed(query, workload.as_ref());
    let offer = workload
        .and_then(|w| serde_json::to_value(w.kind).ok()?.as_str().map(str::to_string))
        .and_then(|k| summaries.iter().find(|(s, _)| *s == k))
        .map(|(k, l)| {
            let sentence = offer_sentence(locale, &learned_kind(locale, k, l), assumed.as_ref());
            (sentence, format!("/tco?{}", with_learned(query, l)))
        });
    Ok(LearnedOffer {
        kinds: summaries.iter().map(|(k, l)| learned_kind(locale, k, l)).collect(),
        offer,
    })
}

/// The rental of one of the team's orders for the order's export (`None`: no rental): its
/// times, resources, note, actual hours and the state and cost per day at export time.
pub async fn export(db: &Db, team_id: i64, order_id: i64) -> Result<Option<serde_json::Value>, AppError> {
    let Some(r) = store::rentals::of_order(db, team_id, order_id).await? else {
        return Ok(None);
    };
    let times = times_of(&r)?;
    let pinned = pinned_of(db, team_id, &r).await?;
    let now = now();
    let state = times.state_at(now);
    let per_day = pinned.as_ref().and_then(|p| p.prices.per_day(state));
    Ok(Some(serde_json::json!({
        "rental_id": r.id,
        "order_revision_id": r.order_revision_id,
        "state": state,
        "started_at": r.started_at,
        "planned_end_at": r.planned_end_at,
        "stopped_at": r.stopped_at,
        "released_at": r.released_at,
        "resources": r.resources,
        "note": r.note,
        "setup_hours": r.setup_hours,
        "data_prep_hours": r.data_prep_hours,
        "rerun_hours": r.rerun_hours,
        "currency": pinned.as_ref().map(|p| p.prices.currency.code()),
        "per_day": per_day,
        "overdue": times.overdue_at(now),
        "running_hours": times.running_hours(now).to_string(),
        "stopped_hours": times.stopped_hours(now).to_string(),
        "exported_at": now,
    })))
}

#[cfg(test)]
mod tests {
    use super::shown;
    use crate::{
        domain::{
            rentals::{DailyPrices, Instant, RentalState},
            tco::Currency,
        },
        i18n::Locale,
        services::rentals::times_of,
        store::rentals::RentalRow,
    };
    use rust_decimal_macros::dec;

    #[test]
    fn a_stopped_rental_shows_what_it_still_costs_and_why_it_is_overdue() {
        let r = RentalRow {
            id: 1,
            order_id: 2,
            order_revision_id: 3,
            started_at: "2026-12-01T08:00:00Z".into(),
            planned_end_at: "2026-12-02T08:00:00Z".into(),
            stopped_at: Some("2026-12-01T20:00:00Z".into()),
            released_at: None,
            setup_hours: None,
            data_prep_hours: None,
            rerun_hours: None,
            note: String::new(),
            created_by: 1,
            resources: vec!["i-1".into()],
        };
        let prices = DailyPrices {
            currency: Currency::parse("CNY").expect("CNY"),
            node_hourly: dec!(10),
            nodes: 2,
            monthly_price: None,
            package_days: dec!(30),
            stopped_hourly: dec!(0),
            stopped_bills_disk: true,
            stopped_bills_ip: true,
            disk_gb: dec!(500),
            disk_price_gb_month: dec!(0.30),
            public_ip_hourly: dec!(0.02),
        };
        let times = times_of(&r).expect("times");
        let now = Instant::parse("2026-12-03T08:00").expect("now");
        let v = shown(&r, &times, Some(&prices), now, Locale::En);
        assert_eq!(v.state, RentalState::Stopped);
        assert_eq!(v.per_day_exact.as_deref(), Some("10.96"));
        assert_eq!(v.per_day_lines.len(), 2, "disk and IP: {:?}", v.per_day_lines);
        assert_eq!((v.running_h.as_str(), v.stopped_h.as_str()), ("12", "36"));
        assert!(v.overdue.is_some_and(|o| o.contains("36")));
    }
}
