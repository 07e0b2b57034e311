//! The rental plan's chart through the router (`/plan/chart.svg?<the plan page's query>`): the
//! seed's worked example of `plan.rs` (72 h on one card or 24 h on four, each vendor with one
//! node, due 48 h after the start) drawn as a dot per plan the page weighed, in the reader's
//! language, served as an image that runs nothing; nothing to plan is a 404; the caller is
//! checked first.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common::PASSWORD;
use crate::plan::{Desk, desk, query};
use crate::tco::json;
use http::{StatusCode, header};

/// The number of plans the plan page says it weighed for `query`.
async fn plans_weighed(d: &Desk, query: &str) -> usize {
    let res = d.app.call("/api/plan", &[("query", query)], Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let n = json(&res.body)["plan"]["plans_weighed"].as_u64().unwrap();
    usize::try_from(n).unwrap()
}

/// `<circle>` elements of radius `r`.
fn circles(svg: &str, r: &str) -> usize {
    svg.lines()
        .filter(|l| l.starts_with("<circle") && l.contains(&format!(" r=\"{r}\" ")))
        .count()
}

#[tokio::test]
async fn the_chart_has_a_dot_per_plan_weighed_the_ringed_recommendation_and_the_deadline() {
    let d = desk().await;
    let q = query(&d);
    let res = d.app.get(&format!("/plan/chart.svg?{q}"), Some(&d.pam), None).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(res.headers[header::CONTENT_TYPE], "image/svg+xml");
    assert_eq!(
        res.headers[header::CONTENT_SECURITY_POLICY],
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
    );
    let svg = &res.body;
    assert!(svg.starts_with("<svg role=\"img\""), "{svg}");
    assert!(
        svg.contains("<title>Every plan: time to finish against total cost (CNY)</title>"),
        "{svg}"
    );
    // One card (72 h, late) and four cards (24 h, recommended): both on the front.
    let weighed = plans_weighed(&d, &q).await;
    assert_eq!(weighed, 2);
    assert_eq!(circles(svg, "4"), weighed, "a dot per plan: {svg}");
    assert_eq!(circles(svg, "9"), 1, "the recommendation is ringed");
    // The plans, the ring, and the legend's swatches drawn as the marks: front, ring, late.
    assert_eq!(svg.matches("<circle").count(), weighed + 1 + 3);
    for text in [
        "Best trade-offs",
        "Recommended",
        "Deadline",
        "Late or over budget",
        "Time to finish (h)",
        "Total cost (CNY)",
    ] {
        assert!(svg.contains(&format!(">\n{text}\n</text>")), "{text}: {svg}");
    }
    assert!(!svg.contains(">\nBudget\n</text>"), "no budget set");

    let zh = d
        .app
        .get(&format!("/plan/chart.svg?{q}"), Some(&d.pam), Some("zh-CN"))
        .await;
    assert_eq!(zh.status, StatusCode::OK, "{}", zh.body);
    assert!(
        zh.body.contains("<title>所有计划：完成用时与总费用（CNY）</title>"),
        "{}",
        zh.body
    );
    assert!(zh.body.contains(">\n截止时间\n</text>"), "{}", zh.body);
    assert!(zh.body.contains(">\n延误或超出预算\n</text>"), "{}", zh.body);
}

/// The plan page's `<picture>` asks a phone's drawing with `narrow=1`: the same plans and
/// texts, 400 px wide instead of 960, whatever the order of the query.
#[tokio::test]
async fn a_phone_gets_the_same_chart_drawn_narrow() {
    let d = desk().await;
    let q = query(&d);
    let wide = d.app.get(&format!("/plan/chart.svg?{q}"), Some(&d.pam), None).await;
    for path in [
        format!("/plan/chart.svg?{q}&narrow=1"),
        format!("/plan/chart.svg?narrow=1&{q}"),
    ] {
        let narrow = d.app.get(&path, Some(&d.pam), None).await;
        assert_eq!(narrow.status, StatusCode::OK, "{}", narrow.body);
        assert!(
            narrow.body.starts_with("<svg role=\"img\" width=\"400\""),
            "{}",
            narrow.body
        );
        assert_eq!(circles(&narrow.body, "4"), circles(&wide.body, "4"), "the same plans");
        assert!(narrow.body.contains(">\nDeadline\n</text>"), "{}", narrow.body);
    }
    assert!(
        wide.body.starts_with("<svg role=\"img\" width=\"960\""),
        "{}",
        wide.body
    );
}

#[tokio::test]
async fn nothing_to_plan_is_not_found_and_the_caller_is_checked_first() {
    let d = desk().await;
    let path = format!("/plan/chart.svg?{}", query(&d));
    // Team B has no workload (team A's id is not theirs): nothing to plan.
    let b = d.app.create_team(&d.admin, "B").await;
    d.app.create_member(&d.admin, "bob@example.com", b, "procurement").await;
    let bob = d.app.login("bob@example.com", PASSWORD).await;
    let res = d.app.get(&path, Some(&bob), None).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.body);
    assert!(!res.body.contains("ONE-GPU"));

    let anon = d.app.get(&path, None, None).await;
    assert_eq!((anon.status, anon.body.as_str()), (StatusCode::UNAUTHORIZED, ""));
    let teamless = d.app.get(&path, Some(&d.admin), None).await;
    assert_eq!(
        (teamless.status, teamless.body.as_str()),
        (StatusCode::FORBIDDEN, ""),
        "the administrator belongs to no team"
    );
}

/// Bytes that are not UTF-8 (`%FF%FE`, an overlong `%C0%AF`), a NUL and numbers past every
/// integer type, percent-encoded into the plan's three routes: each answers 2xx or 4xx, never a
/// server error, and the server still answers after.
#[tokio::test]
async fn bad_bytes_and_crafted_numbers_in_the_plan_routes_are_answered_without_a_server_error() {
    let d = desk().await;
    let huge = "99999999999999999999999999";
    let bad = format!("workload=%FF%FE&q=%C0%AF&nodes_1=%00&setup_h={huge}");
    let chart = d.app.get(&format!("/plan/chart.svg?{bad}"), Some(&d.pam), None).await;
    let raw_post = |path: &'static str, body: String| {
        let req = http::Request::post(path)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ACCEPT, "application/json")
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::ORIGIN, crate::common::ORIGIN)
            .header(header::COOKIE, d.pam.as_str())
            .body(axum::body::Body::from(body))
            .unwrap();
        d.app.send(req)
    };
    let page = raw_post("/api/plan", "query=%FF%FE%C0%AF%00".into()).await;
    let order = raw_post(
        "/api/plan/order",
        format!("query=%FF&quote_id={huge}&nodes=-{huge}&pricing=%FF%FE"),
    )
    .await;
    for (route, res) in [("chart", &chart), ("page", &page), ("order", &order)] {
        assert!(!res.status.is_server_error(), "{route}: {} {}", res.status, res.body);
    }
    assert!(order.status.is_client_error(), "nothing is ordered: {}", order.body);
    let again = d
        .app
        .get(&format!("/plan/chart.svg?{}", query(&d)), Some(&d.pam), None)
        .await;
    assert_eq!(again.status, StatusCode::OK);
}
