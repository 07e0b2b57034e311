//! The cost comparison through the router: the seed's worked example end to end (quotes, runs
//! with measured throughput, a workload), ranking, budget, exports, bad assumptions, team scope.

mod common;

use common::{PASSWORD, TestApp};
use http::StatusCode;
use serde_json::{Value, json};

struct Desk {
    app: TestApp,
    pam: String,
    eve: String,
    max: String,
    bob: String,
    workload: i64,
    small: i64,
    big: i64,
}

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

fn quote(reference: &str, gpus: &str, price: &str) -> Vec<(String, String)> {
    [
        ("vendor", "Acme GPU"),
        ("reference", reference),
        ("received_on", "2026-11-20"),
        ("valid_until", "2099-12-31"),
        ("spec.gpu_model", "A100 80GB"),
        ("spec.gpus_per_node", gpus),
        ("spec.vram_gib", "80"),
        ("spec.sharing", "exclusive"),
        ("currency", "CNY"),
        ("price.basis", "per_node"),
        ("price.on_demand_hourly", price),
        ("price.billing_increment", "hour"),
        ("price.stopped_bills_compute", "no"),
    ]
    .into_iter()
    .map(|(k, v)| (format!("fields[{k}]"), v.to_string()))
    .collect()
}

async fn save_quote(app: &TestApp, cookie: &str, form: Vec<(String, String)>) -> i64 {
    let mut pairs: Vec<(String, String)> = vec![("quote_id".into(), String::new())];
    pairs.extend(form);
    let refs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let res = app.call("/api/quotes/save", &refs, Some(cookie)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    json(&res.body)["quote_id"].as_i64().expect("saved")
}

/// Seed 002: 2,592,000 tokens; a one-GPU node at 10.00/h doing 10 tokens/s (72 h) and a
/// four-GPU node at 35.00/h doing 30 tokens/s (24 h), each measured by a valid run.
async fn desk() -> Desk {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let a = app.create_team(&admin, "A").await;
    let b = app.create_team(&admin, "B").await;
    app.create_member(&admin, "pam@example.com", a, "procurement").await;
    app.create_member(&admin, "eve@example.com", a, "engineer").await;
    app.create_member(&admin, "max@example.com", a, "manager").await;
    app.create_member(&admin, "bob@example.com", b, "procurement").await;
    let pam = app.login("pam@example.com", PASSWORD).await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    let workload = [
        ("name", "Seed 002 job"),
        ("kind", "batch"),
        ("model", ""),
        ("precision", ""),
        ("vram_peak_gib", "20"),
        ("vram_peak_source", "measured"),
        ("concurrency", "1"),
        ("gpus_needed", "1"),
        ("run_hours", ""),
        ("total_work_amount", "2592000"),
        ("total_work_unit", "tokens"),
        ("data_gb", "0"),
        ("checkpoint_gb", "0"),
        ("headroom_pct", "20"),
    ];
    let res = app.call("/api/workloads/create", &workload, Some(&pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let workload: i64 = res.body.trim().parse().unwrap();
    let small = save_quote(&app, &pam, quote("ONE-GPU", "1", "10.00")).await;
    let big = save_quote(&app, &pam, quote("FOUR-GPU", "4", "35.00")).await;
    let token = json(&app.call("/api/tokens/create", &[("name", "ci")], Some(&eve)).await.body).as_str().unwrap().to_string();
    for (quote, gpus, tps) in [(small, 1, 10.0), (big, 4, 30.0)] {
        let run = json!({
            "schema": "nodeledger.run/v1", "source_format": "canonical",
            "node": { "gpu_name": "NVIDIA A100 80GB", "gpu_count": gpus },
            "throughput": { "value": tps, "unit": "tokens/s" }, "duration_s": 900.0, "gpu_util_mean_pct": 95.0,
            "vram_peak_mib": 20480.0, "throttle": { "active_s": 0.0 }
        })
        .to_string();
        let (quote, workload) = (quote.to_string(), workload.to_string());
        let parts: &[(&str, Option<&str>, &[u8])] = &[
            ("result", Some("run.json"), run.as_bytes()),
            ("quote", None, quote.as_bytes()),
            ("workload", None, workload.as_bytes()),
        ];
        let res = app.multipart("/api/v1/runs", parts, None, Some(&token)).await;
        assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
        assert_eq!(json(&res.body)["status"], "valid", "{}", res.body);
    }
    Desk { max: app.login("max@example.com", PASSWORD).await, bob: app.login("bob@example.com", PASSWORD).await, app, pam, eve, workload, small, big }
}

const NO_OVERHEADS: &str = "setup_h=0&rerun_pct=0&efficiency_pct=100&egress_gb=0&ingress_gb=0";

impl Desk {
    async fn compare(&self, cookie: &str, query: &str) -> Value {
        let res = self.app.call("/api/tco", &[("query", query)], Some(cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        json(&res.body)
    }
}

#[tokio::test]
async fn the_seed_example_ranks_the_one_gpu_node_first_from_measured_throughput() {
    let d = desk().await;
    let c = d.compare(&d.max, &format!("workload={}&{NO_OVERHEADS}", d.workload)).await;
    let rows = c["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "both quotes pass the requirement check and are compared by default: {c}");
    assert_eq!((rows[0]["quote_id"].as_i64(), rows[0]["compared_exact"].as_str()), (Some(d.small), Some("720")), "{c}");
    assert_eq!((rows[1]["quote_id"].as_i64(), rows[1]["compared_exact"].as_str()), (Some(d.big), Some("840")), "{c}");
    assert_eq!(rows[0]["time_to_finish"], "72 h");
    assert_eq!(rows[1]["time_to_finish"], "24 h");
    assert!(rows[0]["throughput"].as_str().unwrap().contains("measured in run #"), "{c}");
    assert!(rows[0]["cost_per_unit"].as_str().unwrap().contains("¥0.2778 per 1,000 tokens"), "{c}");
    assert!(rows[0]["warnings"].as_array().unwrap().is_empty(), "{c}");

    // Stopped hours on a sheet that does not bill stopped compute change nothing; only one quote.
    let c = d.compare(&d.pam, &format!("workload={}&{NO_OVERHEADS}&picked=1&q={}", d.workload, d.big)).await;
    assert_eq!(c["rows"].as_array().unwrap().len(), 1);

    // A typed throughput overrides the run: the four-GPU node at 60 tokens/s finishes in 12 h.
    let c = d.compare(&d.pam, &format!("workload={}&{NO_OVERHEADS}&tp_{}=60", d.workload, d.big)).await;
    assert_eq!((c["rows"][0]["quote_id"].as_i64(), c["rows"][0]["compared_exact"].as_str()), (Some(d.big), Some("420")), "{c}");
    assert!(c["rows"][0]["throughput"].as_str().unwrap().contains("as typed"));

    // Any assumption can be set for one quote: 20 h of setup on the one-GPU node turns the ranking.
    let c = d.compare(&d.pam, &format!("workload={}&{NO_OVERHEADS}&setup_h_{}=20", d.workload, d.small)).await;
    assert_eq!((c["rows"][0]["quote_id"].as_i64(), c["rows"][1]["compared_exact"].as_str()), (Some(d.big), Some("920")), "{c}");
    let c = d.compare(&d.pam, &format!("workload={}&{NO_OVERHEADS}&idle_h_{}=-1", d.workload, d.big)).await;
    assert_eq!(c["rows"].as_array().unwrap().len(), 1, "{c}");
    assert!(c["problems"][0]["message"].as_str().unwrap().contains("Idle while running (h): Must not be negative."), "{c}");

    // The page renders the same ranking, in Chinese too.
    let page = d.app.get(&format!("/tco?workload={}&{NO_OVERHEADS}", d.workload), Some(&d.max), Some("zh-CN")).await;
    assert!(page.body.contains("¥720.00") && page.body.contains("¥840.00") && page.body.contains("最便宜"), "{}", page.body);
    assert!(page.body.contains("/tco/stack.svg?workload="), "charts follow the query");
}

#[tokio::test]
async fn budgets_mark_quotes_and_bad_assumptions_are_named() {
    let d = desk().await;
    let w = d.workload.to_string();
    assert_eq!(d.app.call("/api/tco/budget", &[("workload_id", &w), ("amount", "800")], Some(&d.max)).await.status, StatusCode::FORBIDDEN);
    let bad = d.app.call("/api/tco/budget", &[("workload_id", &w), ("amount", "-3")], Some(&d.pam)).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(d.app.call("/api/tco/budget", &[("workload_id", &w), ("amount", "800")], Some(&d.bob)).await.status, StatusCode::NOT_FOUND);
    assert_eq!(d.app.call("/api/tco/budget", &[("workload_id", &w), ("amount", "800")], Some(&d.eve)).await.status, StatusCode::FORBIDDEN, "engineers read budgets");
    assert_eq!(d.app.call("/api/tco/budget", &[("workload_id", &w), ("amount", "800")], Some(&d.pam)).await.status, StatusCode::OK);
    let c = d.compare(&d.max, &format!("workload={w}&{NO_OVERHEADS}")).await;
    assert_eq!(c["budget_exact"], "800");
    assert_eq!((c["rows"][0]["over_budget"].as_bool(), c["rows"][1]["over_budget"].as_bool()), (Some(false), Some(true)), "{c}");
    assert!(c["rows"][1]["warnings"].to_string().contains("Over the budget of ¥800.00"), "{c}");

    let c = d.compare(&d.max, &format!("workload={w}&setup_h=-1&rerun_pct=100&efficiency_pct=0&egress_gb=lots")).await;
    assert!(c["rows"].as_array().unwrap().is_empty(), "nothing is computed from bad input: {c}");
    let errors: Vec<String> = c["assumptions"].as_array().unwrap().iter().filter_map(|f| f["error"].as_str().map(|e| format!("{}: {e}", f["name"].as_str().unwrap()))).collect();
    assert_eq!(errors, ["setup_h: Must not be negative.", "rerun_pct: Must lie between 0 and 99 %.", "egress_gb: Enter a number, e.g. 1.5.", "efficiency_pct: Must lie between 1 and 100 %."]);
    let page = d.app.get(&format!("/tco?workload={w}&setup_h=abc"), Some(&d.max), None).await;
    assert!(page.body.contains("Fix the marked assumptions") && !page.body.contains("NaN"), "{}", page.body);

    // Team B has no workloads or quotes of team A.
    let theirs = d.compare(&d.bob, &format!("workload={w}")).await;
    assert!(theirs["workloads"].as_array().unwrap().is_empty() && theirs["rows"].as_array().unwrap().is_empty(), "{theirs}");
}

#[tokio::test]
async fn exports_match_the_page_and_the_json_reruns_with_the_same_engine() {
    let d = desk().await;
    let q = format!("workload={}&{NO_OVERHEADS}", d.workload);
    let csv = d.app.get(&format!("/tco/export.csv?{q}"), Some(&d.max), None).await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(csv.headers["content-disposition"].to_str().unwrap().contains("cost-comparison.csv"));
    let lines: Vec<&str> = csv.body.lines().collect();
    assert!(lines[0].starts_with("rank,quote_id,revision,quote,currency,total,"), "{}", lines[0]);
    assert!(lines.iter().any(|l| l.starts_with(&format!("1,{},1,", d.small)) && l.contains(",720,") && l.contains("on_demand_compute,72,10,720")), "{}", csv.body);
    assert!(lines.iter().any(|l| l.starts_with(&format!("2,{},1,", d.big)) && l.contains("on_demand_compute,24,35,840")), "{}", csv.body);

    let exported = json(&d.app.get(&format!("/tco/export.json?{q}"), Some(&d.max), None).await.body);
    let scenario: app::domain::tco::Scenario = serde_json::from_value(exported["scenario"].clone()).expect("a valid scenario file");
    let rerun = app::domain::tco::run_scenario(&scenario).expect("it runs");
    assert_eq!(serde_json::to_value(&rerun).unwrap(), exported["result"], "the CLI engine gives the same result");
    assert_eq!(rerun.quotes[0].compared_total.to_string(), "720.00");
    assert_eq!(d.app.get(&format!("/tco/export.csv?{q}"), None, None).await.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_charts_render_for_the_same_query_in_both_languages() {
    let d = desk().await;
    let q = format!("workload={}&{NO_OVERHEADS}", d.workload);
    for (chart, needle) in [("stack", "ONE-GPU"), ("hours", "Break-even"), ("nodes", "Time to finish")] {
        let res = d.app.get(&format!("/tco/{chart}.svg?{q}"), Some(&d.max), None).await;
        assert_eq!(res.status, StatusCode::OK, "{chart}: {}", res.body);
        assert_eq!(res.headers["content-type"], "image/svg+xml");
        assert!(res.body.starts_with("<svg") && res.body.contains("<title>"), "{chart}");
        if chart != "hours" {
            assert!(res.body.contains(needle), "{chart}: {}", res.body);
        }
    }
    let zh = d.app.get(&format!("/tco/nodes.svg?{q}&chart={}", d.big), Some(&d.max), Some("zh-CN")).await;
    assert!(zh.body.contains("完成时间") && zh.body.contains("FOUR-GPU"), "{}", zh.body);
    assert_eq!(d.app.get(&format!("/tco/stack.svg?{q}"), None, None).await.status, StatusCode::UNAUTHORIZED);
    assert!(!d.app.get(&format!("/tco/stack.svg?{q}"), Some(&d.bob), None).await.body.contains("ONE-GPU"), "team B sees none of team A's quotes");
}
