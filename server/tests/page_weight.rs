//! Page weight: the heavy pages stay light, and no record is sent twice — once in
//! the markup and again in the hydration data the browser reads to take the page over.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use axum::body::Body;
use common::{PASSWORD, TestApp};
use http::{Request, StatusCode, header};

/// A team with one workload and `n` quotes from `n` differently named vendors at different
/// prices; returns the app, the procurement cookie and the workload.
async fn desk(n: usize) -> (TestApp, String, i64) {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Weight").await;
    app.create_member(&admin, "pam@example.com", team, "procurement").await;
    let pam = app.login("pam@example.com", PASSWORD).await;
    let workload = app.create_workload(&pam, "Weight job").await;
    for i in 0..n {
        let price = format!("{}.{:02}", 3 + i % 17, i % 100);
        let vendor = vendor(i);
        app.create_quote_with(
            &pam,
            &format!("W-{i:03}"),
            &[("vendor", &vendor), ("price.on_demand_hourly", &price)],
        )
        .await;
    }
    (app, pam, workload)
}

fn vendor(i: usize) -> String {
    format!("Vendor{i:03} Cloud")
}

/// A page as a browser asks for it: its size as sent without and with gzip.
struct Weighed {
    html: String,
    gzip_bytes: usize,
}

async fn weigh(app: &TestApp, path: &str, cookie: &str) -> Weighed {
    let page = app.get(path, Some(cookie), None).await;
    assert_eq!(page.status, StatusCode::OK, "{path}: {}", page.body);
    let req = Request::get(path)
        .header(header::ACCEPT, "text/html")
        .header(header::ACCEPT_ENCODING, "gzip")
        .header(header::COOKIE, cookie)
        .body(Body::empty())
        .unwrap();
    // Through the harness, which sends a page whose stream stalled again (as `get` does).
    let (_, headers, body) = app.send_for_bytes(req).await;
    assert_eq!(headers[header::CONTENT_ENCODING], "gzip", "{path}");
    let gzip_bytes = body.len();
    eprintln!(
        "{path}: {} bytes, {gzip_bytes} gzip, {} bytes of hydration data",
        page.body.len(),
        hydration_data(&page.body).len()
    );
    if let Ok(dir) = std::env::var("PAGE_WEIGHT_DUMP") {
        let name = path.trim_start_matches('/').split('?').next().unwrap_or_default();
        std::fs::write(format!("{dir}/{name}.html"), &page.body).unwrap();
    }
    Weighed {
        html: page.body,
        gzip_bytes,
    }
}

/// The data the page hands the browser to hydrate with: Leptos' resolved resources, the
/// `<script>`s that fill `__RESOLVED_RESOURCES`.
fn hydration_data(html: &str) -> String {
    html.split("<script")
        .skip(1)
        .filter_map(|s| s.split_once('>').and_then(|(_, rest)| rest.split_once("</script>")))
        .map(|(body, _)| body)
        .filter(|body| body.contains("__RESOLVED_RESOURCES") || body.contains("__SERIALIZED"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn the_comparison_of_50_quotes_is_light_and_sends_each_record_once() {
    let (app, pam, workload) = desk(50).await;
    let page = weigh(&app, &format!("/tco?workload={workload}"), &pam).await;
    let rows = page.html.matches("data-testid=\"tco-row\"").count();
    assert_eq!(rows, 50, "every quote is ranked");
    assert!(page.html.len() <= 120 * 1024, "{} bytes of HTML", page.html.len());
    assert!(page.gzip_bytes <= 25 * 1024, "{} bytes gzip", page.gzip_bytes);
    let data = hydration_data(&page.html);
    assert!(!data.is_empty(), "the page still hydrates from its data");
    for i in [0, 17, 49] {
        let name = vendor(i);
        assert!(page.html.contains(&name), "{name} is on the page");
        assert!(data.matches(&name).count() <= 1, "{name} is sent twice:\n{data}");
    }
    let total = page
        .html
        .split("data-testid=\"tco-total\">")
        .nth(1)
        .and_then(|s| s.split('<').next())
        .unwrap()
        .to_string();
    assert!(!total.is_empty());
    assert!(
        data.matches(&total).count() <= 1,
        "the cheapest total {total} is sent twice"
    );
}

#[tokio::test]
async fn the_quote_list_of_200_quotes_is_light() {
    let (app, pam, workload) = desk(200).await;
    let list = weigh(&app, "/quotes", &pam).await;
    assert!(
        list.html.matches("data-testid=\"quote-row\"").count() >= 20,
        "a page of quotes"
    );
    assert!(list.html.len() <= 120 * 1024, "{} bytes of HTML", list.html.len());
    assert!(list.gzip_bytes <= 25 * 1024, "{} bytes gzip", list.gzip_bytes);
    // A draft order choosing among the 200 quotes is weighed and printed, not yet bounded: it is
    // 197 KB (36 KB gzip, 88 KB of it hydration data) — the next page to lighten.
    let order = app.create_order(&pam, "Weight order", workload).await;
    weigh(&app, &format!("/orders/{order}"), &pam).await;
}

#[tokio::test]
async fn the_closed_parts_of_the_comparison_load_when_opened() {
    let (app, pam, workload) = desk(3).await;
    let query = format!("workload={workload}");
    let page = app.get(&format!("/tco?{query}"), Some(&pam), None).await;
    let lazy: Vec<&str> = page
        .body
        .split("data-lazy=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .filter(|p| p.starts_with("breakdown:"))
        .collect();
    assert_eq!(lazy.len(), 2, "every breakdown but the cheapest waits to be opened");
    assert!(page.body.contains("data-lazy=\"overrides\""), "so do the overrides");
    assert!(
        !page.body.contains("name=\"setup_h_"),
        "the override inputs are not in the page"
    );

    let part = |part: String| {
        let query = query.clone();
        let app = &app;
        let pam = pam.clone();
        async move {
            app.call("/api/tco/part", &[("query", &query), ("part", &part)], Some(&pam))
                .await
        }
    };
    let breakdown = part(lazy[0].to_string()).await;
    assert_eq!(breakdown.status, StatusCode::OK, "{}", breakdown.body);
    assert!(
        breakdown.body.contains("tco-what-if") && breakdown.body.contains("<tfoot>"),
        "{}",
        breakdown.body
    );
    let overrides = part("overrides".into()).await;
    assert_eq!(overrides.status, StatusCode::OK, "{}", overrides.body);
    assert!(overrides.body.contains("name=\\\"setup_h_"), "{}", overrides.body);
    assert!(
        overrides.body.contains(&vendor(2)),
        "each ticked quote has its fieldset"
    );
    assert_eq!(part("breakdown:999".into()).await.status, StatusCode::NOT_FOUND);
    let stranger = app
        .call("/api/tco/part", &[("query", &query), ("part", "overrides")], None)
        .await;
    assert!(stranger.status.is_client_error(), "{}", stranger.status);
}
