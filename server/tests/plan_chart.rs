//! The rental plan's chart through the router (`/plan/chart.svg?<the plan page's query>`): the
//! seed's worked example (72 h on one card or 24 h on four, each vendor with one node, due 48 h
//! after the start) drawn as a dot per plan the page weighed, in the reader's language, served
//! as an image that runs nothing; nothing to plan is a 404; the caller is checked first.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common::{PASSWORD, TestApp};
use crate::tco::{NO_OVERHEADS, json, quote, save_quote, upload_run};
use http::{StatusCode, header};

struct Desk {
    app: TestApp,
    admin: String,
    pam: String,
    bob: String,
    workload: i64,
}

/// Team A: seed 002 (2,592,000 tokens due 48 h after the start; a one-GPU node at 10.00/h
/// measured at 10 tokens/s, a four-GPU node at 35.00/h measured at 30 tokens/s; one node each,
/// ready at once). Team B: no workload.
async fn desk() -> Desk {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let a = app.create_team(&admin, "A").await;
    let b = app.create_team(&admin, "B").await;
    app.create_member(&admin, "pam@example.com", a, "procurement").await;
    app.create_member(&admin, "eve@example.com", a, "engineer").await;
    app.create_member(&admin, "bob@example.com", b, "procurement").await;
    let pam = app.login("pam@example.com", PASSWORD).await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    let workload = create_workload(&app, &pam).await;
    let one_node = |mut form: Vec<(String, String)>| {
        form.push(("fields[nodes_available]".into(), "1".into()));
        form.push(("fields[lead_time_hours]".into(), "0".into()));
        form
    };
    let small = save_quote(&app, &pam, one_node(quote("ONE-GPU", "1", "10.00"))).await;
    let big = save_quote(&app, &pam, one_node(quote("FOUR-GPU", "4", "35.00"))).await;
    let created = app
        .call(
            "/api/tokens/create",
            &[("name", "ci"), ("password", PASSWORD)],
            Some(&eve),
        )
        .await;
    let token = json(&created.body).as_str().unwrap().to_string();
    for (quote, gpus, tps) in [(small, 1, 10.0), (big, 4, 30.0)] {
        upload_run(&app, &token, quote, workload, gpus, tps).await;
    }
    Desk {
        bob: app.login("bob@example.com", PASSWORD).await,
        app,
        admin,
        pam,
        workload,
    }
}

async fn create_workload(app: &TestApp, pam: &str) -> i64 {
    let form = [
        ("name", "Seed 002 job"),
        ("kind", "batch"),
        ("model", ""),
        ("precision", ""),
        ("vram_peak_gib", "20"),
        ("vram_peak_source", "measured"),
        ("concurrency", "1"),
        ("gpus_needed", "1"),
        ("gpu_use", "one_job"),
        ("run_hours", ""),
        ("total_work_amount", "2592000"),
        ("total_work_unit", "tokens"),
        ("data_gb", "0"),
        ("checkpoint_gb", "0"),
        ("headroom_pct", "20"),
        ("deadline", "48 h"),
        ("earliest_start", "2030-01-15T08:00:00Z"),
    ];
    let res = app.call("/api/workloads/create", &form, Some(pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    res.body.trim().parse().unwrap()
}

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
    let q = format!("workload={}&{NO_OVERHEADS}", d.workload);
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
    assert_eq!(svg.matches("<circle").count(), weighed + 1);
    for text in [
        "Best trade-offs",
        "Recommended",
        "Deadline",
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
}

#[tokio::test]
async fn nothing_to_plan_is_not_found_and_the_caller_is_checked_first() {
    let d = desk().await;
    let q = format!("workload={}&{NO_OVERHEADS}", d.workload);
    let path = format!("/plan/chart.svg?{q}");
    // Team B has no workload (team A's id is not theirs): nothing to plan.
    let res = d.app.get(&path, Some(&d.bob), None).await;
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
