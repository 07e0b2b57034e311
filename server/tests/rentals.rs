//! The rental after an approved order through the router: record it, see it
//! running with its planned end and cost per day, stop it, see it on the dashboard's overdue
//! list, release it with the actual hours; the refusals (not approved, times out of order,
//! bad resource lines, another team's order, roles) leave nothing written; every step is in
//! the order's audit chain and export; released actuals are offered to the cost comparison.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

#[path = "rentals/desk.rs"]
mod desk;

use app::domain::rentals::Instant;
use desk::{ago, desk, field_error, json};
use http::StatusCode;
use serde_json::Value;

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one rental's story, read top to bottom")]
async fn a_rental_is_recorded_on_an_approved_order_stopped_listed_as_overdue_and_released() {
    let d = desk().await;
    let order = d.draft("L4 batch").await;
    let before = d.counts().await;

    // A draft has no rental.
    let res = d.record(&d.pam, order, &ago(72), "i-0abc").await;
    assert_eq!(res.status, StatusCode::CONFLICT, "{}", res.body);
    assert!(res.body.contains("rentals.r_not_approved"), "{}", res.body);
    assert_eq!(d.section(&d.pam, order).await["approved"], false);

    d.approve(order).await;
    let before = (before.0, before.1, d.counts().await.2);
    let s = d.section(&d.pam, order).await;
    assert_eq!(
        (
            s["approved"].as_bool(),
            s["can_act"].as_bool(),
            s["time_to_finish_h"].as_str()
        ),
        (Some(true), Some(true), Some("12"))
    );
    assert_eq!(d.section(&d.max, order).await["can_act"], false, "managers see");

    // Refusals: roles, another team, bad times and resource lines; nothing is written.
    assert_eq!(
        d.record(&d.max, order, &ago(72), "i-0abc").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        d.record(&d.bob, order, &ago(72), "i-0abc").await.status,
        StatusCode::NOT_FOUND
    );
    let bob = d
        .app
        .call("/api/rentals/get", &[("order_id", &order.to_string())], Some(&d.bob))
        .await;
    assert_eq!(bob.status, StatusCode::NOT_FOUND);
    let duplicate = d.record(&d.pam, order, &ago(72), "i-0abc\nvol-1\ni-0abc").await;
    assert_eq!(
        field_error(&duplicate),
        ("resources".into(), "resource_duplicate".into(), Some("3".into()))
    );
    let spaced = d.record(&d.pam, order, &ago(72), "i-0abc\nvol 1").await;
    assert_eq!(field_error(&spaced).1, "resource_whitespace");
    assert_eq!(
        field_error(&d.record(&d.pam, order, &ago(-2), "i-1").await).1,
        "rental_in_future"
    );
    assert_eq!(
        field_error(&d.record(&d.pam, order, "yesterday", "i-1").await).1,
        "rental_time"
    );
    assert_eq!(
        field_error(&d.record(&d.pam, order, &ago(72), " \n ").await),
        ("resources".into(), "required".into(), None)
    );
    assert_eq!(d.counts().await, before, "nothing half-written");

    // Recorded three days ago: running, planned end = start + 12 h, so overdue by 60 h.
    let started = ago(72);
    let res = d.record(&d.eve, order, &started, "i-0abc\n vol-0def \n\neip-1").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let s = d.section(&d.max, order).await;
    let r = &s["rental"];
    assert_eq!(r["state"], "running");
    assert_eq!(r["started_at"].as_str(), Some(started.as_str()));
    let planned = Instant::parse(&started)
        .unwrap()
        .plus_hours(rust_decimal::Decimal::from(12))
        .unwrap()
        .to_string();
    assert_eq!(r["planned_end_at"].as_str(), Some(planned.as_str()));
    assert_eq!(r["resources"], serde_json::json!(["i-0abc", "vol-0def", "eip-1"]));
    // 4.00 × 24 = 96.00 compute + 300 GB × 0.30 ÷ 30 = 3.00 disk + 0.05 × 24 = 1.20 IP.
    assert_eq!(r["per_day_exact"], "100.20");
    assert_eq!(r["per_day"], "¥100.20");
    assert!(
        r["overdue"].as_str().unwrap().contains("60 h past its planned end"),
        "{r}"
    );
    let again = d.record(&d.pam, order, &ago(10), "i-2").await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(again.body.contains("rentals.r_already"));

    let list = d.overdue(&d.max).await;
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    assert_eq!(
        (
            list[0]["order_id"].as_i64(),
            list[0]["state"].as_str(),
            list[0]["per_day_exact"].as_str()
        ),
        (Some(order), Some("running"), Some("100.20"))
    );
    assert!(
        d.overdue(&d.bob).await.as_array().unwrap().is_empty(),
        "another team's list"
    );

    // Stopped 30 h ago (not before the start): stopped but not released, disks and IP still bill.
    let o = order.to_string();
    let early = d
        .app
        .call(
            "/api/rentals/stop",
            &[("order_id", &o), ("stopped_at", &ago(80))],
            Some(&d.pam),
        )
        .await;
    assert_eq!(
        field_error(&early),
        ("stopped_at".into(), "stop_before_start".into(), None)
    );
    let res = d
        .app
        .call(
            "/api/rentals/stop",
            &[("order_id", &o), ("stopped_at", &ago(30))],
            Some(&d.pam),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let r = d.section(&d.pam, order).await["rental"].clone();
    assert_eq!(
        (
            r["state"].as_str(),
            r["per_day_exact"].as_str(),
            r["running_h"].as_str()
        ),
        (Some("stopped"), Some("4.20"), Some("42"))
    );
    let list = d.overdue(&d.pam).await;
    assert_eq!(
        (list[0]["state"].as_str(), list[0]["per_day"].as_str()),
        (Some("stopped"), Some("¥4.20"))
    );
    assert!(
        list[0]["reason"]
            .as_str()
            .unwrap()
            .contains("Stopped 30 h ago, not released"),
        "{list}"
    );
    let res = d.app.call("/api/rentals/stop", &[("order_id", &o)], Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::CONFLICT, "once");

    // Release: before the start is refused with nothing written; then released with the hours.
    let events = d.counts().await.2;
    assert_eq!(
        field_error(&d.release(order, &ago(100), "3").await),
        ("released_at".into(), "release_before_start".into(), None)
    );
    assert_eq!(
        field_error(&d.release(order, &ago(1), "-1").await),
        ("setup_hours".into(), "negative".into(), None)
    );
    assert_eq!(
        field_error(&d.release(order, &ago(1), "lots").await).1,
        "invalid_number"
    );
    assert_eq!(d.counts().await.2, events, "no event for a refused release");
    assert_eq!(d.section(&d.pam, order).await["rental"]["released_at"], Value::Null);
    let res = d.release(order, &ago(1), "3").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let r = d.section(&d.pam, order).await["rental"].clone();
    assert_eq!(
        (r["state"].as_str(), r["per_day_exact"].as_str()),
        (Some("released"), Some("0"))
    );
    assert_eq!(r["actual_hours"], serde_json::json!(["3", "1.5", "0.5"]));
    assert!(d.overdue(&d.pam).await.as_array().unwrap().is_empty());
    let res = d.app.call("/api/rentals/stop", &[("order_id", &o)], Some(&d.pam)).await;
    assert!(
        res.status == StatusCode::CONFLICT && res.body.contains("rentals.r_released"),
        "{}",
        res.body
    );

    // Every step is in the order's chain, which still verifies, and in its export.
    let actions: Vec<String> = sqlx::query_scalar("SELECT action FROM audit_events WHERE order_id = ? ORDER BY seq")
        .bind(order)
        .fetch_all(&d.app.db)
        .await
        .unwrap();
    let tail: Vec<&str> = actions.iter().rev().take(3).rev().map(String::as_str).collect();
    assert_eq!(tail, ["rental_recorded", "rental_stopped", "rental_released"]);
    app::services::audit::verify(&d.app.db)
        .await
        .unwrap()
        .expect("the chain verifies");
    let export = d
        .app
        .get(&format!("/orders/{order}/export.json"), Some(&d.max), None)
        .await;
    assert_eq!(export.status, StatusCode::OK);
    let export = json(&export.body);
    assert_eq!(
        (
            export["rental"]["state"].as_str(),
            export["rental"]["setup_hours"].as_str()
        ),
        (Some("released"), Some("3"))
    );
    assert_eq!(export["rental"]["resources"][2], "eip-1");
    let view = json(&d.app.call("/api/orders/get", &[("id", &o)], Some(&d.max)).await.body);
    assert!(
        view["history"].to_string().contains("Rental released"),
        "the order's history names the step"
    );
}

#[tokio::test]
async fn a_mistake_is_corrected_before_release_and_the_record_is_locked_after() {
    let d = desk().await;
    let order = d.draft("Fix me").await;
    d.approve(order).await;
    let res = d.record(&d.pam, order, &ago(5), "i-wrong").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let o = order.to_string();
    let early = d.correct(order, &ago(6), &ago(7)).await;
    assert_eq!(field_error(&early).1, "stop_before_start");
    assert_eq!(
        d.section(&d.pam, order).await["rental"]["resources"],
        serde_json::json!(["i-wrong"]),
        "unchanged"
    );
    let res = d.correct(order, &ago(6), "").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let r = d.section(&d.pam, order).await["rental"].clone();
    assert_eq!(r["resources"], serde_json::json!(["i-right", "vol-1"]));
    let (start, end) = (
        Instant::parse(r["started_at"].as_str().unwrap()).unwrap(),
        Instant::parse(r["planned_end_at"].as_str().unwrap()).unwrap(),
    );
    assert_eq!(
        end.unix() - start.unix(),
        12 * 3600,
        "the planned end moves with the start"
    );
    let six = Instant::parse(&ago(6)).unwrap().unix();
    assert!((six - start.unix()).abs() < 60, "started six hours ago: {start}");
    // Data preparation and re-run hours are often none: left empty (or not sent) they are 0.
    let form = [("order_id", o.as_str()), ("setup_hours", "2"), ("data_prep_hours", " ")];
    let res = d.app.call("/api/rentals/release", &form, Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let r = d.section(&d.pam, order).await["rental"].clone();
    assert_eq!(r["actual_hours"], serde_json::json!(["2", "0", "0"]), "{r}");
    let res = d.correct(order, &ago(6), "").await;
    assert!(
        res.status == StatusCode::CONFLICT && res.body.contains("rentals.r_released"),
        "{}",
        res.body
    );
}

#[tokio::test]
async fn released_actuals_are_offered_to_the_next_comparison_of_the_same_kind() {
    let d = desk().await;
    let w = d.workload.to_string();
    let query = format!("workload={w}&picked=1&q={}&setup_h=1", d.quote);
    assert_eq!(
        d.learned(&d.pam, &query).await["offer"],
        Value::Null,
        "nothing learned yet"
    );
    for (setup, hours_ago) in [("3", 40), ("4", 30)] {
        let order = d.draft(&format!("Run {setup}")).await;
        d.approve(order).await;
        assert_eq!(
            d.record(&d.pam, order, &ago(hours_ago), "i-1").await.status,
            StatusCode::OK
        );
        let o = order.to_string();
        let stop = ago(hours_ago - 20);
        assert_eq!(
            d.app
                .call(
                    "/api/rentals/stop",
                    &[("order_id", &o), ("stopped_at", &stop)],
                    Some(&d.pam)
                )
                .await
                .status,
            StatusCode::OK
        );
        let form = [
            ("order_id", o.as_str()),
            ("released_at", &ago(hours_ago - 22)),
            ("setup_hours", setup),
            ("data_prep_hours", "1"),
            ("rerun_hours", "1"),
        ];
        let res = d.app.call("/api/rentals/release", &form, Some(&d.pam)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    }
    let l = d.learned(&d.pam, &query).await;
    // Two batch rentals: setup (3 + 4) ÷ 2 = 3.5 h; re-runs 1 h of 10 h compute = 10 %;
    // 20 h running − (setup + 1 + 10 + 1) = 5 h and 4 h idle → 4.5; stopped 2 h each.
    let (sentence, href) = (l["offer"][0].as_str().unwrap(), l["offer"][1].as_str().unwrap());
    assert!(
        sentence.contains("last 2 released rentals of Offline batch processing averaged 3.5 h setup"),
        "{sentence}"
    );
    assert!(
        sentence.ends_with("; this comparison assumes 1 h, 0 h, 10 %, 0 h and 0 h."),
        "the offer says what the page assumes now (setup typed, the rest defaults): {sentence}"
    );
    assert_eq!(
        href,
        format!(
            "/tco?workload={w}&picked=1&q={}&setup_h=3.5&data_prep_h=1&rerun_pct=10&idle_h=4.5&stopped_h=2",
            d.quote
        )
    );
    assert_eq!(l["kinds"][0]["rentals"], 2);
    assert!(
        d.learned(&d.bob, &query).await["kinds"].as_array().unwrap().is_empty(),
        "another team learns nothing from these"
    );
    // The link opens the comparison with those assumptions.
    let res = d
        .app
        .call("/api/tco", &[("query", href.trim_start_matches("/tco?"))], Some(&d.pam))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert!(
        res.body.contains("\"setup_h\"") && res.body.contains("3.5"),
        "{}",
        &res.body[..res.body.len().min(400)]
    );
}
