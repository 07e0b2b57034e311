//! The cost comparison through the router: the seed's worked example end to end (quotes, runs
//! with measured throughput, a workload), ranking, budget, exports, bad assumptions, team scope.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

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
    token: String,
}

pub(crate) fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

pub(crate) fn quote(reference: &str, gpus: &str, price: &str) -> Vec<(String, String)> {
    quote_in(reference, gpus, price, "CNY")
}

fn quote_in(reference: &str, gpus: &str, price: &str, currency: &str) -> Vec<(String, String)> {
    [
        ("vendor", "Acme GPU"),
        ("reference", reference),
        ("received_on", "2026-11-20"),
        ("valid_until", "2099-12-31"),
        ("spec.gpu_model", "A100 80GB"),
        ("spec.gpus_per_node", gpus),
        ("spec.vram_gib", "80"),
        ("spec.sharing", "exclusive"),
        ("currency", currency),
        ("price.basis", "per_node"),
        ("price.on_demand_hourly", price),
        ("price.billing_increment", "hour"),
        ("price.stopped_bills_compute", "no"),
    ]
    .into_iter()
    .map(|(k, v)| (format!("fields[{k}]"), v.to_string()))
    .collect()
}

pub(crate) async fn save_quote(app: &TestApp, cookie: &str, form: Vec<(String, String)>) -> i64 {
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
    let workload = create_workload(&app, &pam, "Seed 002 job", "").await;
    let small = save_quote(&app, &pam, quote("ONE-GPU", "1", "10.00")).await;
    let big = save_quote(&app, &pam, quote("FOUR-GPU", "4", "35.00")).await;
    let token = app.create_token(&eve, "ci").await;
    for (quote, gpus, tps) in [(small, 1, 10.0), (big, 4, 30.0)] {
        upload_run(&app, &token, quote, workload, gpus, tps).await;
    }
    Desk {
        max: app.login("max@example.com", PASSWORD).await,
        bob: app.login("bob@example.com", PASSWORD).await,
        app,
        pam,
        eve,
        workload,
        small,
        big,
        token,
    }
}

/// Uploads a valid 15-minute canonical run (with steady telemetry) of `quote` on `workload`
/// (its duration differs by workload, so the file is not a duplicate of another workload's).
pub(crate) async fn upload_run(app: &TestApp, token: &str, quote: i64, workload: i64, gpus: u32, tps: f64) -> i64 {
    let telemetry: Vec<Value> = (0..=30)
        .flat_map(|i| (0..gpus).map(move |g| json!({ "t": f64::from(i) * 30.0, "gpu": g, "util_pct": 95.0, "mem_used_mib": 20000.0, "temp_c": 60.0, "power_w": 300.0 })))
        .collect();
    let run = json!({
        "schema": "nodeledger.run/v1", "source_format": "canonical",
        "node": { "gpu_name": "NVIDIA A100 80GB", "gpu_count": gpus },
        "throughput": { "value": tps, "unit": "tokens/s" }, "duration_s": 900.0 + f64::from(u32::try_from(workload).unwrap()), "gpu_util_mean_pct": 95.0,
        "vram_peak_mib": 20000.0, "throttle": { "active_s": 0.0, "reasons": [] }, "telemetry": telemetry
    })
    .to_string();
    let (quote, workload) = (quote.to_string(), workload.to_string());
    let parts: &[(&str, Option<&str>, &[u8])] = &[
        ("result", Some("run.json"), run.as_bytes()),
        ("quote", None, quote.as_bytes()),
        ("workload", None, workload.as_bytes()),
    ];
    let res = app.multipart("/api/v1/runs", parts, None, Some(token)).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    assert_eq!(json(&res.body)["status"], "valid", "{}", res.body);
    json(&res.body)["id"].as_i64().unwrap_or_default()
}

pub(crate) const NO_OVERHEADS: &str = "setup_h=0&rerun_pct=0&efficiency_pct=100&egress_gb=0&ingress_gb=0";

impl Desk {
    async fn compare(&self, cookie: &str, query: &str) -> Value {
        let res = self.app.call("/api/tco", &[("query", query)], Some(cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        json(&res.body)
    }
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn the_seed_example_ranks_the_one_gpu_node_first_from_measured_throughput() {
    let d = desk().await;
    let c = d
        .compare(&d.max, &format!("workload={}&{NO_OVERHEADS}", d.workload))
        .await;
    let rows = c["rows"].as_array().unwrap();
    assert_eq!(
        rows.len(),
        2,
        "both quotes pass the requirement check and are compared by default: {c}"
    );
    assert_eq!(
        (rows[0]["quote_id"].as_i64(), rows[0]["compared_exact"].as_str()),
        (Some(d.small), Some("720")),
        "{c}"
    );
    assert_eq!(
        (rows[1]["quote_id"].as_i64(), rows[1]["compared_exact"].as_str()),
        (Some(d.big), Some("840")),
        "{c}"
    );
    assert_eq!(rows[0]["time_to_finish"], "72 h");
    assert_eq!(rows[1]["time_to_finish"], "24 h");
    assert!(
        rows[0]["throughput"].as_str().unwrap().contains("measured in run #"),
        "{c}"
    );
    // One scale for the column, named once: every row is per 1,000 tokens.
    assert_eq!(rows[0]["cost_per_unit"], "¥0.28", "{c}");
    assert!(
        rows.iter().all(|r| r["unit_cost_column"] == "Cost per 1,000 tokens"),
        "{c}"
    );
    assert!(rows[0]["warnings"].as_array().unwrap().is_empty(), "{c}");

    // Stopped hours on a sheet that does not bill stopped compute change nothing; only one quote.
    let c = d
        .compare(
            &d.pam,
            &format!("workload={}&{NO_OVERHEADS}&picked=1&q={}", d.workload, d.big),
        )
        .await;
    assert_eq!(c["rows"].as_array().unwrap().len(), 1);

    // A typed throughput overrides the run: the four-GPU node at 60 tokens/s finishes in 12 h.
    // Typed is stated, not measured: cheaper (420) but ranked after the measured 720.
    let c = d
        .compare(
            &d.pam,
            &format!("workload={}&{NO_OVERHEADS}&tp_{}=60", d.workload, d.big),
        )
        .await;
    assert_eq!(
        (
            c["rows"][0]["quote_id"].as_i64(),
            c["rows"][1]["quote_id"].as_i64(),
            c["rows"][1]["compared_exact"].as_str(),
            c["rows"][1]["stated"].as_bool(),
        ),
        (Some(d.small), Some(d.big), Some("420"), Some(true)),
        "{c}"
    );
    assert!(c["rows"][1]["throughput"].as_str().unwrap().contains("as typed"));
    assert_eq!(c["rows"][0]["stated"].as_bool(), None, "measured: not written");

    // Any assumption can be set for one quote: 20 h of setup on the one-GPU node turns the ranking.
    let c = d
        .compare(
            &d.pam,
            &format!("workload={}&{NO_OVERHEADS}&setup_h_{}=20", d.workload, d.small),
        )
        .await;
    assert_eq!(
        (
            c["rows"][0]["quote_id"].as_i64(),
            c["rows"][1]["compared_exact"].as_str()
        ),
        (Some(d.big), Some("920")),
        "{c}"
    );
    let c = d
        .compare(
            &d.pam,
            &format!("workload={}&{NO_OVERHEADS}&idle_h_{}=-1", d.workload, d.big),
        )
        .await;
    assert_eq!(c["rows"].as_array().unwrap().len(), 1, "{c}");
    assert!(
        c["problems"][0]["message"]
            .as_str()
            .unwrap()
            .contains("Idle while running (h): Must not be negative."),
        "{c}"
    );

    // The page renders the same ranking, in Chinese too.
    let page = d
        .app
        .get(
            &format!("/tco?workload={}&{NO_OVERHEADS}", d.workload),
            Some(&d.max),
            Some("zh-CN"),
        )
        .await;
    assert!(
        page.body.contains("¥720.00") && page.body.contains("¥840.00") && page.body.contains("最便宜"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("/tco/stack.svg?workload="),
        "charts follow the query"
    );
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn budgets_mark_quotes_and_bad_assumptions_are_named() {
    let d = desk().await;
    let w = d.workload.to_string();
    assert_eq!(
        d.app
            .call(
                "/api/tco/budget",
                &[("workload_id", &w), ("amount", "800")],
                Some(&d.max)
            )
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let bad = d
        .app
        .call(
            "/api/tco/budget",
            &[("workload_id", &w), ("amount", "-3")],
            Some(&d.pam),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        d.app
            .call(
                "/api/tco/budget",
                &[("workload_id", &w), ("amount", "800")],
                Some(&d.bob)
            )
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        d.app
            .call(
                "/api/tco/budget",
                &[("workload_id", &w), ("amount", "800")],
                Some(&d.eve)
            )
            .await
            .status,
        StatusCode::FORBIDDEN,
        "engineers read budgets"
    );
    assert_eq!(
        d.app
            .call(
                "/api/tco/budget",
                &[("workload_id", &w), ("amount", "800")],
                Some(&d.pam)
            )
            .await
            .status,
        StatusCode::OK
    );
    let c = d.compare(&d.max, &format!("workload={w}&{NO_OVERHEADS}")).await;
    assert_eq!(c["budget_exact"], "800");
    assert_eq!(
        (
            c["rows"][0]["over_budget"].as_bool(),
            c["rows"][1]["over_budget"].as_bool()
        ),
        (Some(false), Some(true)),
        "{c}"
    );
    assert!(
        c["rows"][1]["warnings"]
            .to_string()
            .contains("Over the budget of ¥800.00"),
        "{c}"
    );

    let c = d
        .compare(
            &d.max,
            &format!("workload={w}&setup_h=-1&rerun_pct=100&efficiency_pct=0&egress_gb=lots"),
        )
        .await;
    assert!(
        c["rows"].as_array().unwrap().is_empty(),
        "nothing is computed from bad input: {c}"
    );
    let errors: Vec<String> = c["assumptions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| {
            f["error"]
                .as_str()
                .map(|e| format!("{}: {e}", f["name"].as_str().unwrap()))
        })
        .collect();
    assert_eq!(
        errors,
        [
            "setup_h: Must not be negative.",
            "rerun_pct: Must lie between 0 and 99 %.",
            "egress_gb: Enter a number, e.g. 1.5.",
            "efficiency_pct: Must lie between 1 and 100 %."
        ]
    );
    let page = d
        .app
        .get(&format!("/tco?workload={w}&setup_h=abc"), Some(&d.max), None)
        .await;
    assert!(
        page.body.contains("Fix the marked assumptions") && !page.body.contains("NaN"),
        "{}",
        page.body
    );

    // Team B has no workloads or quotes of team A.
    let theirs = d.compare(&d.bob, &format!("workload={w}")).await;
    assert!(
        theirs["workloads"].as_array().unwrap().is_empty() && theirs["rows"].as_array().unwrap().is_empty(),
        "{theirs}"
    );
}

#[tokio::test]
async fn exports_match_the_page_and_the_json_reruns_with_the_same_engine() {
    let d = desk().await;
    let q = format!("workload={}&{NO_OVERHEADS}", d.workload);
    let csv = d.app.get(&format!("/tco/export.csv?{q}"), Some(&d.max), None).await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(
        csv.headers["content-disposition"]
            .to_str()
            .unwrap()
            .contains("cost-comparison.csv")
    );
    let lines: Vec<&str> = csv.body.lines().collect();
    assert!(
        lines[0].starts_with("rank,quote_id,revision,quote,currency,total,"),
        "{}",
        lines[0]
    );
    assert!(
        lines.iter().any(|l| l.starts_with(&format!("1,{},1,", d.small))
            && l.contains(",720.00,")
            && l.contains("on_demand_compute,72,10.00,720.00")),
        "{}",
        csv.body
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("2,{},1,", d.big)) && l.contains("on_demand_compute,24,35.00,840.00")),
        "{}",
        csv.body
    );

    let exported = json(
        &d.app
            .get(&format!("/tco/export.json?{q}"), Some(&d.max), None)
            .await
            .body,
    );
    let scenario: app::domain::tco::Scenario =
        serde_json::from_value(exported["scenario"].clone()).expect("a valid scenario file");
    let rerun = app::domain::tco::run_scenario(&scenario).expect("it runs");
    assert_eq!(
        serde_json::to_value(&rerun).unwrap(),
        exported["result"],
        "the CLI engine gives the same result"
    );
    assert_eq!(rerun.quotes[0].compared_total.to_string(), "720.00");
    assert_eq!(
        d.app.get(&format!("/tco/export.csv?{q}"), None, None).await.status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn the_charts_render_for_the_same_query_in_both_languages() {
    let d = desk().await;
    let q = format!("workload={}&{NO_OVERHEADS}", d.workload);
    for (chart, needle) in [
        ("stack", "ONE-GPU"),
        ("hours", "Break-even"),
        ("nodes", "Time to finish"),
    ] {
        let res = d.app.get(&format!("/tco/{chart}.svg?{q}"), Some(&d.max), None).await;
        assert_eq!(res.status, StatusCode::OK, "{chart}: {}", res.body);
        assert_eq!(res.headers["content-type"], "image/svg+xml");
        assert!(res.body.starts_with("<svg") && res.body.contains("<title>"), "{chart}");
        if chart != "hours" {
            assert!(res.body.contains(needle), "{chart}: {}", res.body);
        }
    }
    let zh = d
        .app
        .get(
            &format!("/tco/nodes.svg?{q}&chart={}", d.big),
            Some(&d.max),
            Some("zh-CN"),
        )
        .await;
    assert!(
        zh.body.contains("完成时间") && zh.body.contains("FOUR-GPU"),
        "{}",
        zh.body
    );
    assert_eq!(
        d.app.get(&format!("/tco/stack.svg?{q}"), None, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert!(
        !d.app
            .get(&format!("/tco/stack.svg?{q}"), Some(&d.bob), None)
            .await
            .body
            .contains("ONE-GPU"),
        "team B sees none of team A's quotes"
    );
}

fn decimal(v: &Value) -> rust_decimal::Decimal {
    v.as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a decimal: {v}"))
}

/// A batch workload of 2,592,000 tokens on one GPU (20 GiB peak, 20 % headroom), with an
/// optional stated run length.
async fn create_workload(app: &TestApp, pam: &str, name: &str, run_hours: &str) -> i64 {
    create_workload_with(app, pam, &seed_workload(name, run_hours)).await
}

/// Seed 002's job: 2,592,000 tokens, 20 GiB measured peak, one GPU; `run_hours` when stated.
pub(crate) fn seed_workload<'a>(name: &'a str, run_hours: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("name", name),
        ("kind", "batch"),
        ("model", ""),
        ("precision", ""),
        ("vram_peak_gib", "20"),
        ("vram_peak_source", "measured"),
        ("concurrency", "1"),
        ("gpus_needed", "1"),
        ("run_hours", run_hours),
        ("total_work_amount", "2592000"),
        ("total_work_unit", "tokens"),
        ("data_gb", "0"),
        ("checkpoint_gb", "0"),
        ("headroom_pct", "20"),
    ]
}

/// Creates the workload of `form` as procurement (`pam`); returns its id.
pub(crate) async fn create_workload_with(app: &TestApp, pam: &str, form: &[(&str, &str)]) -> i64 {
    let res = app.call("/api/workloads/create", form, Some(pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    res.body.trim().parse().unwrap()
}

#[tokio::test]
async fn a_per_quote_override_on_the_second_quote_exports_a_scenario_that_reruns_to_the_page_totals() {
    let d = desk().await;
    // Shared: 1 h setup. The four-GPU node alone: 5 h setup, 2 nodes at 80 % efficiency. Its run
    // ran on 1 node at 30 tokens/s → 30 × 2 × 0.8 = 48 tokens/s → 15 h + 5 h = 20 h × 35 × 2.
    let q = format!(
        "workload={}&{NO_OVERHEADS}&setup_h=1&setup_h_{big}=5&nodes_{big}=2&efficiency_pct_{big}=80",
        d.workload,
        big = d.big
    );
    let page = d.compare(&d.max, &q).await;
    let rows = page["rows"].as_array().unwrap();
    let totals: Vec<(i64, String)> = rows
        .iter()
        .map(|r| {
            (
                r["quote_id"].as_i64().unwrap(),
                r["compared_exact"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        totals,
        vec![(d.small, "730".to_string()), (d.big, "1400".to_string())],
        "{page}"
    );

    let exported = json(
        &d.app
            .get(&format!("/tco/export.json?{q}"), Some(&d.max), None)
            .await
            .body,
    );
    let s = &exported["scenario"];
    assert_eq!(s["assumptions"]["setup_h"], "1", "shared values stay shared: {s}");
    let (big_id, small_id) = (d.big.to_string(), d.small.to_string());
    let big = s["quotes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == big_id.as_str())
        .unwrap();
    assert_eq!(
        big["assumption_overrides"],
        json!({ "setup_h": "5", "nodes": 2, "efficiency": "0.8" }),
        "{s}"
    );
    assert_eq!(
        (big["measured_throughput_per_s"].as_str(), big["n_run"].as_u64()),
        (Some("30"), Some(1)),
        "{s}"
    );
    let small = s["quotes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == small_id.as_str())
        .unwrap();
    assert!(small["assumption_overrides"].is_null(), "{s}");

    let scenario: app::domain::tco::Scenario = serde_json::from_value(s.clone()).expect("a valid scenario file");
    let rerun = app::domain::tco::run_scenario(&scenario).expect("it runs");
    for row in rows {
        let q = rerun
            .quotes
            .iter()
            .find(|x| x.id == row["quote_id"].as_i64().unwrap().to_string())
            .unwrap();
        assert_eq!(q.compared_total, decimal(&row["compared_exact"]), "to the cent: {row}");
        assert_eq!(q.rank, u32::try_from(row["rank"].as_u64().unwrap()).unwrap());
    }
    assert_eq!(serde_json::to_value(&rerun).unwrap(), exported["result"]);
}

#[tokio::test]
async fn the_median_valid_run_sets_the_throughput_and_quotes_of_the_same_node_share_runs() {
    let d = desk().await;
    // Runs of the one-GPU node at 10 (desk), 20 and 12 tokens/s: the median 12 → 60 h → 600.00.
    upload_run(&d.app, &d.token, d.small, d.workload, 1, 20.0).await;
    let median = upload_run(&d.app, &d.token, d.small, d.workload, 1, 12.0).await;
    // A second vendor's quote for the same node (1× A100 80GB, exclusive), 9.00/h, has no run.
    let same = save_quote(&d.app, &d.pam, quote("SAME-NODE", "1", "9.00")).await;
    let c = d
        .compare(&d.max, &format!("workload={}&{NO_OVERHEADS}", d.workload))
        .await;
    let row = |id: i64| row_of(&c, id);
    assert_eq!(row(d.small)["compared_exact"], "600", "{c}");
    assert_eq!(
        row(same)["compared_exact"],
        "540",
        "60 h × 9.00 from the same node's runs: {c}"
    );
    assert_eq!(row(d.small)["run_ids"], json!([median]));
    assert!(
        row(d.small)["throughput"]
            .as_str()
            .unwrap()
            .contains(&format!("run #{median}")),
        "{c}"
    );
    // The what-if prices the slowest valid run (10 tokens/s, 72 h).
    let what_if = row(d.small)["what_if"].to_string();
    assert!(
        what_if.contains("Slowest valid run") && what_if.contains("¥720.00"),
        "{what_if}"
    );
}

/// `form` with the quote field `key` set to `value`.
fn with_field(mut form: Vec<(String, String)>, key: &str, value: &str) -> Vec<(String, String)> {
    let name = format!("fields[{key}]");
    form.retain(|(k, _)| *k != name);
    form.push((name, value.to_string()));
    form
}

#[tokio::test]
async fn runs_pool_by_catalogue_model_and_form_factor_and_the_row_links_the_runs_it_used() {
    let d = desk().await;
    // One vendor writes the marketing name and SXM; another pastes nvidia-smi's name: the same
    // node, so the first one's run measures both. A PCIe quote of the same card is not measured
    // by it (nor by the desk's "A100 80GB", whose form factor is not stated).
    let sxm = with_field(
        with_field(quote("SXM-VENDOR", "1", "9.00"), "spec.gpu_model", "A100 SXM 80GB"),
        "spec.form_factor",
        "sxm",
    );
    let sxm = save_quote(&d.app, &d.pam, sxm).await;
    let smi = save_quote(
        &d.app,
        &d.pam,
        with_field(
            quote("SMI-NAMED", "1", "8.00"),
            "spec.gpu_model",
            "NVIDIA A100-SXM4-80GB",
        ),
    )
    .await;
    let pcie = save_quote(
        &d.app,
        &d.pam,
        with_field(quote("PCIE-CARD", "1", "7.00"), "spec.form_factor", "pcie"),
    )
    .await;
    let run = upload_run(&d.app, &d.token, sxm, d.workload, 1, 40.0).await;
    let c = d
        .compare(&d.max, &format!("workload={}&{NO_OVERHEADS}", d.workload))
        .await;
    let rows = c["rows"].as_array().unwrap();
    let row = |id: i64| rows.iter().find(|r| r["quote_id"] == id);
    for id in [sxm, smi] {
        let r = row(id).unwrap_or_else(|| panic!("{c}"));
        assert_eq!(r["run_ids"], json!([run]), "{c}");
        assert_eq!(r["estimated"], false, "{c}");
    }
    assert!(row(pcie).is_none(), "no run measures the PCIe quote: {c}");
    assert!(c["problems"].to_string().contains("PCIE-CARD"), "{c}");
    // The page links the runs each measured row rests on.
    let page = d
        .app
        .get(
            &format!("/tco?workload={}&{NO_OVERHEADS}", d.workload),
            Some(&d.max),
            None,
        )
        .await;
    assert!(page.body.contains("data-testid=\"tco-runs-used\""), "{}", page.body);
    assert!(page.body.contains(&format!("href=\"/runs/{run}\"")), "{}", page.body);
}

#[tokio::test]
async fn quotes_without_a_run_are_estimated_below_the_measured_ones_or_say_why_they_cannot_be_costed() {
    let d = desk().await;
    // No run and no stated run length: a sentence, not `workload.run_hours: needs …`.
    let two = save_quote(&d.app, &d.pam, quote("TWO-GPU", "2", "18.00")).await;
    let c = d
        .compare(&d.max, &format!("workload={}&{NO_OVERHEADS}", d.workload))
        .await;
    let problems = c["problems"].to_string();
    assert!(
        problems.contains("No valid run measures this quote and the workload states no run length"),
        "{problems}"
    );
    assert!(!problems.contains("workload.run_hours"), "{problems}");
    let zh = d
        .app
        .get(
            &format!("/tco?workload={}&{NO_OVERHEADS}", d.workload),
            Some(&d.max),
            Some("zh-CN"),
        )
        .await;
    assert!(
        zh.body.contains("没有有效的测试记录覆盖该报价"),
        "in the reader's language: {}",
        zh.body
    );

    // A workload with a stated run length of 72 h: only the one-GPU node is measured on it.
    let w2 = create_workload(&d.app, &d.pam, "Stated 72 h", "72").await;
    upload_run(&d.app, &d.token, d.small, w2, 1, 10.0).await;
    let c = d.compare(&d.max, &format!("workload={w2}&{NO_OVERHEADS}")).await;
    let got: Vec<(i64, u64, bool, String)> = c["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["quote_id"].as_i64().unwrap(),
                r["rank"].as_u64().unwrap(),
                r["estimated"].as_bool().unwrap(),
                r["compared_exact"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // Measured 720 first; then estimated 72 h × 18 = 1296 and 72 h × 35 = 2520.
    assert_eq!(
        got,
        vec![
            (d.small, 1, false, "720".into()),
            (two, 2, true, "1296".into()),
            (d.big, 3, true, "2520".into())
        ],
        "{c}"
    );
    assert!(
        c["rows"][1]["to_measure"].as_str().unwrap().contains("10–30 minutes"),
        "{c}"
    );
    let page = d
        .app
        .get(&format!("/tco?workload={w2}&{NO_OVERHEADS}"), Some(&d.max), None)
        .await;
    let body = &page.body;
    let measured_at = body.find("data-testid=\"tco-ranking\"").expect("measured table");
    let estimated_at = body
        .find("data-testid=\"tco-estimated-group\"")
        .expect("estimated section");
    assert!(
        measured_at < estimated_at,
        "the estimated group is below the measured ranking"
    );
    assert!(
        body.contains("Estimated, not measured") && body.contains("run the workload on this node for 10–30 minutes"),
        "{body}"
    );
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn one_currency_per_column_budgets_convert_and_csv_rounds_money() {
    let d = desk().await;
    let rate = d
        .app
        .call(
            "/api/rates/add",
            &[("from", "USD"), ("to", "CNY"), ("rate", "7.2"), ("date", "2026-11-20")],
            Some(&d.pam),
        )
        .await;
    assert_eq!(rate.status, StatusCode::OK, "{}", rate.body);
    // A USD quote for the same node at 1.50/h: the one-GPU node's run gives 72 h → $108.00 = ¥777.60.
    let usd = save_quote(&d.app, &d.pam, quote_in("USD-GPU", "1", "1.50", "USD")).await;
    let q = format!("workload={}&{NO_OVERHEADS}", d.workload);
    let c = d.compare(&d.max, &q).await;
    let row = row_of(&c, usd);
    assert_eq!(
        (row["total"].as_str(), row["compared_total"].as_str()),
        (Some("$108.00"), Some("¥777.60")),
        "{row}"
    );
    // 777.60 × 1000 ÷ 2,592,000 = ¥0.30 per 1,000 tokens; 777.60 ÷ 72 GPU-h = ¥10.80.
    assert_eq!(row["cost_per_unit"], "¥0.30", "{row}");
    assert_eq!(row["cost_per_unit_title"], "$0.04", "{row}");
    assert_eq!(row["unit_cost_column"], "Cost per 1,000 tokens", "{row}");
    assert_eq!(
        (row["gpu_hour"].as_str(), row["gpu_hour_title"].as_str()),
        (Some("¥10.80"), Some("$1.50")),
        "{row}"
    );
    let page = d.app.get(&format!("/tco?{q}"), Some(&d.max), None).await;
    assert!(page.body.contains("title=\"$0.04\""), "original currency in a tooltip");
    assert!(
        page.body.contains("Cost per 1,000 tokens"),
        "the scale is named once, in the column header"
    );

    let csv = d
        .app
        .get(&format!("/tco/export.csv?{q}"), Some(&d.max), None)
        .await
        .body;
    let line = csv
        .lines()
        .find(|l| l.contains("USD-GPU") && l.contains("on_demand_compute"))
        .unwrap();
    assert!(line.contains(",USD,108.00,CNY,777.60,2026-11-20,"), "{line}");
    // Every row at the column's one scale: `cost_per_unit,per_units,work_unit`.
    assert!(line.contains(",0.04,1000,tokens,"), "{line}");
    assert!(
        csv.lines().skip(1).all(|l| l.contains(",1000,tokens,")),
        "one scale for every row: {csv}"
    );
    assert!(
        line.contains("on_demand_compute,72,1.50,108.00,measured,0.30,10.80,USD/CNY,7.2"),
        "{line}"
    );
    for field in csv.lines().skip(1).flat_map(|l| l.split(',')) {
        let digits = field.split_once('.').map_or(0, |(_, f)| f.len());
        assert!(
            digits <= 4 || field.parse::<f64>().is_err() || field.contains('/'),
            "not rounded: {field}"
        );
    }

    // A budget of ¥800 seen from a USD base: converted at 7.2 → $111.11; the four-GPU node
    // (¥840 = $116.67) is over it.
    assert_eq!(
        d.app
            .call(
                "/api/tco/budget",
                &[("workload_id", &d.workload.to_string()), ("amount", "800")],
                Some(&d.pam)
            )
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        d.app
            .call("/api/rates/set_base", &[("currency", "USD")], Some(&d.pam))
            .await
            .status,
        StatusCode::OK
    );
    let c = d.compare(&d.max, &q).await;
    assert!(c["budget_note"].as_str().unwrap().contains("$111.11"), "{c}");
    let over: Vec<(i64, bool)> = c["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["quote_id"].as_i64().unwrap(), r["over_budget"].as_bool().unwrap()))
        .collect();
    assert!(
        over.contains(&(d.big, true)) && over.contains(&(d.small, false)) && over.contains(&(usd, false)),
        "{over:?}"
    );
    // In EUR there is no rate: the budget is flagged, never silently compared.
    assert_eq!(
        d.app
            .call("/api/rates/set_base", &[("currency", "EUR")], Some(&d.pam))
            .await
            .status,
        StatusCode::OK
    );
    let c = d.compare(&d.max, &q).await;
    assert_eq!(c["budget_unconverted"], true, "{c}");
    assert!(c["budget_note"].as_str().unwrap().contains("no CNY/EUR rate"), "{c}");
    assert!(
        c["problems"].to_string().contains("There is no exchange rate between"),
        "{c}"
    );
}

#[tokio::test]
async fn no_quote_passes_is_said_only_when_none_passes() {
    let d = desk().await;
    let page = d
        .app
        .get(&format!("/tco?workload={}&picked=1", d.workload), Some(&d.max), None)
        .await;
    assert!(page.body.contains("No quote is ticked"), "{}", page.body);
    assert!(
        !page.body.contains("No quote passes the requirement check"),
        "both quotes pass"
    );
}

#[tokio::test]
async fn break_even_of_a_three_month_commitment_is_1500_hours_on_the_page_and_the_chart() {
    let d = desk().await;
    // Same node as the one-GPU quote (its run: 72 h), 10.00/h or 5000 a month for 3 months.
    let mut form = quote("MONTHLY", "1", "10.00");
    form.push(("fields[price.monthly_price]".into(), "5000".into()));
    form.push(("fields[price.commitment_months]".into(), "3".into()));
    let monthly = save_quote(&d.app, &d.pam, form).await;
    let q = format!("workload={}&{NO_OVERHEADS}&picked=1&q={monthly}", d.workload);
    let c = d.compare(&d.max, &q).await;
    let note = c["rows"][0]["pricing_note"].as_str().unwrap_or_else(|| panic!("{c}"));
    assert!(
        note.contains("break-even at 1,500 busy hours per node within the term"),
        "3 × 5000 ÷ 10 (v1 said 500): {note}"
    );
    assert!(
        note.contains("On demand (¥720.00)") && note.contains("¥15,000.00"),
        "{note}"
    );
    let chart = d.app.get(&format!("/tco/hours.svg?{q}"), Some(&d.max), None).await;
    assert!(chart.body.contains(">\nBreak-even 1,500\n</text>"), "{}", chart.body);
    // 5000 a month at 5.00/h never pays off within a 1-month term: said, not drawn.
    let mut form = quote("NEVER", "1", "5.00");
    form.push(("fields[price.monthly_price]".into(), "5000".into()));
    form.push(("fields[price.commitment_months]".into(), "1".into()));
    let never = save_quote(&d.app, &d.pam, form).await;
    let q = format!("workload={}&{NO_OVERHEADS}&picked=1&q={never}", d.workload);
    let c = d.compare(&d.max, &q).await;
    assert!(
        c["rows"][0]["pricing_note"]
            .as_str()
            .unwrap()
            .contains("never pays off within its term"),
        "{c}"
    );
    let chart = d.app.get(&format!("/tco/hours.svg?{q}"), Some(&d.max), None).await;
    assert!(
        chart.body.contains("Break-even: never within the term") && !chart.body.contains(">\nBreak-even 1"),
        "{}",
        chart.body
    );
}

#[tokio::test]
async fn a_per_gpu_monthly_price_is_costed_per_gpu_on_the_cost_page() {
    let d = desk().await;
    // An 8-GPU node at 2.00 per GPU-hour (16.00 a node-hour) or 1,200 per GPU-month, entered
    // with the monthly price on the price basis (the form's default): 9,600 per node-month.
    let mut form = quote("EIGHT-GPU", "8", "2.00");
    for (k, v) in [
        ("price.basis", "per_gpu"),
        ("price.monthly_price", "1200"),
        ("price.commitment_months", "1"),
    ] {
        form.retain(|(name, _)| name != &format!("fields[{k}]"));
        form.push((format!("fields[{k}]"), v.into()));
    }
    let eight = save_quote(&d.app, &d.pam, form).await;
    // No run of this node: 10 tokens/s typed, 72 h, 72 × 16.00 = 1,152.00 on demand.
    let q = format!(
        "workload={}&{NO_OVERHEADS}&picked=1&q={eight}&tp_{eight}=10",
        d.workload
    );
    let c = d.compare(&d.max, &q).await;
    let note = c["rows"][0]["pricing_note"].as_str().unwrap_or_else(|| panic!("{c}"));
    assert!(note.contains("On demand (¥1,152.00)"), "{note}");
    assert!(
        note.contains("break-even at 600 busy hours per node within the term"),
        "9,600 ÷ 16.00 (read per node it was 75 h): {note}"
    );
    assert!(note.contains("¥9,600.00"), "{note}");
    // The quote's CSV says on which basis its monthly price is.
    let csv = d.app.get("/quotes/export.csv", Some(&d.pam), None).await;
    let header = csv.body.lines().next().unwrap_or_default();
    let row = csv.body.lines().find(|l| l.contains("EIGHT-GPU")).unwrap_or_default();
    let column = header.split(',').position(|c| c == "price.monthly_basis");
    assert_eq!(
        column.and_then(|i| row.split(',').nth(i)),
        Some("per_gpu"),
        "{header}\n{row}"
    );
}

#[tokio::test]
async fn a_typed_throughput_is_its_own_group_stated_not_measured_on_the_page_and_in_the_csv() {
    let d = desk().await;
    // The four-GPU node's brochure says 60 tokens/s: 12 h × 35.00 = 420.00, cheaper than the
    // measured one-GPU node (720.00), but only stated.
    let q = format!("workload={}&{NO_OVERHEADS}&tp_{}=60", d.workload, d.big);
    let page = d.app.get(&format!("/tco?{q}"), Some(&d.max), None).await;
    let body = &page.body;
    let measured_at = body.find("data-testid=\"tco-ranking\"").expect("measured table");
    let stated_at = body.find("data-testid=\"tco-stated-group\"").expect("stated section");
    assert!(
        measured_at < stated_at,
        "the stated group is below the measured ranking"
    );
    assert!(
        body.contains("Stated, not measured") && body.contains("typed by hand"),
        "{body}"
    );
    let zh = d.app.get(&format!("/tco?{q}"), Some(&d.max), Some("zh-CN")).await;
    assert!(zh.body.contains("标称，非实测"), "{}", zh.body);
    let csv = d.app.get(&format!("/tco/export.csv?{q}"), Some(&d.max), None).await;
    let header: Vec<&str> = csv.body.lines().next().unwrap_or_default().split(',').collect();
    let group = header.iter().position(|c| *c == "group").expect("group column");
    let groups: Vec<(String, String)> = csv
        .body
        .lines()
        .skip(1)
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            (
                cells[1].to_string(),
                cells.get(group).copied().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert!(groups.contains(&(d.big.to_string(), "stated".into())), "{}", csv.body);
    assert!(
        groups.contains(&(d.small.to_string(), "measured".into())),
        "{}",
        csv.body
    );
}

/// The order's content as stored (latest revision) and its events' actions.
async fn order_record(app: &TestApp, order: i64) -> (Value, Vec<String>) {
    let content: String =
        sqlx::query_scalar("SELECT content FROM order_revisions WHERE order_id = ? ORDER BY revision DESC LIMIT 1")
            .bind(order)
            .fetch_one(&app.db)
            .await
            .unwrap();
    let actions: Vec<String> = sqlx::query_scalar("SELECT action FROM audit_events WHERE order_id = ? ORDER BY seq")
        .bind(order)
        .fetch_all(&app.db)
        .await
        .unwrap();
    (json(&content), actions)
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one story: create, check, update, refuse")]
async fn order_this_carries_the_comparison_into_the_workloads_draft_and_a_second_call_updates_it() {
    let d = desk().await;
    let query = format!(
        "workload={}&picked=1&q={}&q={}&{NO_OVERHEADS}&nodes=1",
        d.workload, d.small, d.big
    );
    let runs: Vec<i64> = d.compare(&d.pam, &query).await["rows"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["run_ids"].as_array().unwrap().iter().map(|id| id.as_i64().unwrap()))
        .collect();
    assert_eq!(runs.len(), 2, "each quote measured by its run");

    // The cost page offers it to procurement only.
    let page = json(
        &d.app
            .call("/api/tco/page", &[("query", &query)], Some(&d.pam))
            .await
            .body,
    );
    assert_eq!(page["page"]["order"]["draft"], Value::Null, "{page}");
    let page = json(
        &d.app
            .call("/api/tco/page", &[("query", &query)], Some(&d.eve))
            .await
            .body,
    );
    assert_eq!(page["page"]["order"], Value::Null);
    let small = d.small.to_string();
    let res = d
        .app
        .call(
            "/api/tco/order",
            &[("query", &query), ("quote_id", &small)],
            Some(&d.eve),
        )
        .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.body);

    // One action: a draft with the chosen quote, both quotes considered, both runs and the
    // assumptions.
    let res = d
        .app
        .call(
            "/api/tco/order",
            &[("query", &query), ("quote_id", &small)],
            Some(&d.pam),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let made = json(&res.body);
    assert_eq!(made["created"], true);
    let order = made["order_id"].as_i64().unwrap();
    let (content, actions) = order_record(&d.app, order).await;
    assert_eq!(content["workload_id"], d.workload);
    assert_eq!(content["quote_id"], d.small);
    assert!(content["quote_revision_id"].is_i64());
    let mut considered: Vec<i64> = content["considered"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q.as_i64().unwrap())
        .collect();
    considered.sort_unstable();
    assert_eq!(considered, [d.small, d.big]);
    let mut attached: Vec<i64> = content["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_i64().unwrap())
        .collect();
    attached.sort_unstable();
    let mut expected = runs.clone();
    expected.sort_unstable();
    assert_eq!(attached, expected);
    let comparison = content["comparison"].as_str().unwrap();
    assert!(
        comparison.contains("setup_h=0") && comparison.contains("nodes=1"),
        "{comparison}"
    );
    assert_eq!(actions, ["create", "evidence_attached"], "the order page's events");
    let view = json(
        &d.app
            .call("/api/orders/get", &[("id", &order.to_string())], Some(&d.pam))
            .await
            .body,
    );
    assert!(view["comparison_custom"].as_bool().unwrap(), "{view}");

    // The page now says it updates that draft; a second call (another quote, other hours)
    // updates the same draft instead of creating a second one.
    let page = json(
        &d.app
            .call("/api/tco/page", &[("query", &query)], Some(&d.pam))
            .await
            .body,
    );
    assert_eq!(page["page"]["order"]["draft"][0], order);
    let hours = query.replace("setup_h=0", "setup_h=2");
    let big = d.big.to_string();
    let res = d
        .app
        .call("/api/tco/order", &[("query", &hours), ("quote_id", &big)], Some(&d.pam))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(json(&res.body), json!({ "order_id": order, "created": false }));
    let (content, actions) = order_record(&d.app, order).await;
    assert_eq!(content["quote_id"], d.big);
    assert!(content["comparison"].as_str().unwrap().contains("setup_h=2"));
    assert_eq!(actions, ["create", "evidence_attached", "evidence_attached"]);
    let orders: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders")
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    assert_eq!(orders, 1, "no duplicate");

    // A quote the comparison does not cost is refused.
    let res = d
        .app
        .call(
            "/api/tco/order",
            &[
                ("query", &format!("workload={}&picked=1&q={}", d.workload, d.small)),
                ("quote_id", &big),
            ],
            Some(&d.pam),
        )
        .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
}

/// The comparison's row of quote `id`.
fn row_of(c: &Value, id: i64) -> Value {
    c["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["quote_id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("no row for quote {id}: {c}"))
}

/// A quote far cheaper than the rest costs less than one minor unit at the column's scale: it
/// keeps four significant digits on the page and in the CSV, not two digits past the cent.
#[tokio::test]
async fn a_cost_per_unit_below_one_minor_unit_keeps_four_significant_digits() {
    let d = desk().await;
    // The one-GPU node's run gives 72 h: 72 × ¥0.01 = ¥0.72; per 1,000 of the 2,592,000
    // tokens 0.72 × 1000 ÷ 2,592,000 = ¥0.000277…, shown ¥0.0002778 (it read ¥0.0003).
    let cheap = save_quote(&d.app, &d.pam, quote_in("Cheap-GPU", "1", "0.01", "CNY")).await;
    let q = format!("workload={}&{NO_OVERHEADS}", d.workload);
    let c = d.compare(&d.max, &q).await;
    let row = row_of(&c, cheap);
    assert_eq!(row["total"], "¥0.72", "{row}");
    assert_eq!(row["unit_cost_column"], "Cost per 1,000 tokens", "{row}");
    assert_eq!(row["cost_per_unit"], "¥0.0002778", "{row}");
    let csv = d
        .app
        .get(&format!("/tco/export.csv?{q}"), Some(&d.max), None)
        .await
        .body;
    let line = csv.lines().find(|l| l.contains("Cheap-GPU")).unwrap();
    assert!(line.contains(",0.0002778,1000,tokens,"), "{line}");
}

/// The cost page's JSON export carries the rental plan of its workload: the plan file the
/// planner was given and its result. `nodeledger plan` on that file prints the same plans,
/// to the cent and the second; with a 48-hour deadline the recommendation finishes in time.
#[tokio::test]
async fn the_export_carries_the_plan_and_nodeledger_plan_reruns_it_to_the_same_plans() {
    let d = desk().await;
    let mut form: Vec<(&str, String)> = vec![("id", d.workload.to_string()), ("deadline", "48 h".into())];
    for (k, v) in [
        ("name", "Seed 002 job"),
        ("kind", "batch"),
        ("vram_peak_gib", "20"),
        ("vram_peak_source", "measured"),
        ("concurrency", "1"),
        ("gpus_needed", "1"),
        ("total_work_amount", "2592000"),
        ("total_work_unit", "tokens"),
        ("data_gb", "0"),
        ("checkpoint_gb", "0"),
        ("headroom_pct", "20"),
    ] {
        form.push((k, v.to_string()));
    }
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let res = d.app.call("/api/workloads/update", &pairs, Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);

    let q = format!("workload={}&{NO_OVERHEADS}", d.workload);
    let export: Value = json(
        &d.app
            .get(&format!("/tco/export.json?{q}"), Some(&d.max), None)
            .await
            .body,
    );
    assert_eq!(export["plan_error"], Value::Null, "{export}");
    let file = &export["plan_file"];
    // "48" was saved as the moment 48 h after the update (no earliest start): the plan starts
    // now, so it is due at most 48 h from its start.
    assert_eq!(file["plan"]["deadline_h"], Value::Null, "{file}");
    let due = file["plan"]["deadline_at"].as_str().expect("a moment");
    let start = file["plan"]["earliest_start"].as_str().expect("the plan's start");
    assert!(due > start, "{file}");
    let planned = &export["plan_result"];
    let recommended = &planned["recommended"]["plan"];
    assert!(
        recommended["finish_s"].as_u64().unwrap() <= 48 * 3600 && recommended["late"] == false,
        "{planned}"
    );
    // Capacity and lead time are not stated on these quotes: questions, not assumptions.
    assert_eq!(
        planned["quotes"][0]["questions"],
        json!(["capacity_not_stated", "lead_time_not_stated"]),
        "{planned}"
    );

    let dir = std::env::temp_dir().join(format!("nl-plan-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The plan file alone, and the whole export as downloaded (its `plan_file` is read).
    for (name, body) in [("plan.json", file), ("cost-comparison.json", &export)] {
        let path = dir.join(name);
        std::fs::write(&path, body.to_string()).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_nodeledger"))
            .args(["plan", path.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let rerun: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(&rerun, planned, "{name}: the CLI and the export agree");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A USD quote converted with a rate whose same-day opposite rate does not invert to it (7.14
/// against 1 ÷ 0.1389 = 7.1994, 0.83 % apart) says so beside the rate, in both languages; a
/// rate years old says it is stale. (Both facts hold whatever day the test runs.)
#[tokio::test]
async fn a_doubtful_rate_is_named_beside_the_converted_total() {
    let d = desk().await;
    for (from, to, rate, date) in [
        ("USD", "CNY", "7.14", "2020-01-06"),
        ("CNY", "USD", "0.1389", "2020-01-06"),
    ] {
        let form = [("from", from), ("to", to), ("rate", rate), ("date", date)];
        let res = d.app.call("/api/rates/add", &form, Some(&d.pam)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    }
    let usd = save_quote(&d.app, &d.pam, quote_in("USD-GPU", "1", "1.50", "USD")).await;
    let q = format!("workload={}&{NO_OVERHEADS}", d.workload);
    let note = row_of(&d.compare(&d.max, &q).await, usd)["rate_note"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(note.starts_with("1 USD = 7.14 CNY on 2020-01-06"), "{note}");
    assert!(note.contains("days old (more than 30): enter today's rate"), "{note}");
    assert!(
        note.contains("the same day's opposite rate gives 7.1994, 0.83 % away from 7.14"),
        "{note}"
    );
    let zh = format!("{}; nl_lang=zh-CN", d.max);
    let note = row_of(&d.compare(&zh, &q).await, usd)["rate_note"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(note.contains("同日反向汇率折算为 7.1994"), "{note}");
}

/// A quote's breakdown heading ranks it as the ranking does, in the team's currency at the rate
/// used, with the quote's own figures in parentheses: "¥… ($…)", the idle cost too.
#[tokio::test]
async fn a_breakdown_heading_shows_the_ranking_s_currency_first() {
    let d = desk().await;
    let form = [("from", "USD"), ("to", "CNY"), ("rate", "7.2"), ("date", "2026-11-20")];
    let res = d.app.call("/api/rates/add", &form, Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let usd = save_quote(&d.app, &d.pam, quote_in("USD-GPU", "1", "1.50", "USD")).await;
    let q = format!("workload={}&{NO_OVERHEADS}", d.workload);
    let row = row_of(&d.compare(&d.max, &q).await, usd);
    let (compared, own) = (row["compared_total"].as_str().unwrap(), row["total"].as_str().unwrap());
    assert!(compared.starts_with('¥') && own.starts_with('$'), "{row}");
    assert!(row["compared_idle"].as_str().unwrap().starts_with('¥'), "{row}");
    let page = d.app.get(&format!("/tco?{q}"), Some(&d.max), None).await;
    let heading = format!("{compared} ({own})");
    assert!(page.body.contains("tco-breakdown-total"), "{}", page.body);
    assert!(page.body.contains(&heading), "{heading} in {}", page.body);
}

/// How old a rate may be is the team's setting: a rate 40 days old is stale at the default 30
/// days and not at 60; only procurement changes it, within 1–3650 days, and every member reads
/// it. (The rate is dated from the day the test runs, so this holds on any day.)
#[tokio::test]
async fn the_team_sets_how_old_a_rate_may_be() {
    use app::domain::quotes::Date;
    let d = desk().await;
    let today = Date::EPOCH.days_until(app::clock::today());
    let dated = Date::EPOCH
        .add_days(u32::try_from(today - 40).unwrap())
        .unwrap()
        .to_string();
    let form = [
        ("from", "USD"),
        ("to", "CNY"),
        ("rate", "7.2"),
        ("date", dated.as_str()),
    ];
    let res = d.app.call("/api/rates/add", &form, Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let usd = save_quote(&d.app, &d.pam, quote_in("USD-GPU", "1", "1.50", "USD")).await;
    let q = format!("workload={}&{NO_OVERHEADS}", d.workload);
    let note = |c: Value| row_of(&c, usd)["rate_note"].as_str().unwrap().to_string();
    let before = note(d.compare(&d.max, &q).await);
    assert!(before.contains("(more than 30)"), "{before}");

    let refused = d
        .app
        .call("/api/rates/set_stale_days", &[("days", "60")], Some(&d.eve))
        .await;
    assert_eq!(
        refused.status,
        StatusCode::FORBIDDEN,
        "engineers read the setting, never change it"
    );
    for wrong in ["0", "3651", "2.5", "thirty"] {
        let res = d
            .app
            .call("/api/rates/set_stale_days", &[("days", wrong)], Some(&d.pam))
            .await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{wrong}: {}", res.body);
        assert!(res.body.contains("\"field\":\"days\""), "{}", res.body);
    }
    let set = d
        .app
        .call("/api/rates/set_stale_days", &[("days", "60")], Some(&d.pam))
        .await;
    assert_eq!(set.status, StatusCode::OK, "{}", set.body);
    let read = d.app.call("/api/rates/stale_days", &[], Some(&d.eve)).await;
    assert_eq!(read.body.trim(), "60");
    let after = note(d.compare(&d.max, &q).await);
    assert!(!after.contains("days old"), "40 days is within 60: {after}");
    let page = d.app.get("/rates", Some(&d.eve), None).await;
    assert!(
        page.body.contains("Rates older than 60 days are flagged as stale."),
        "{}",
        page.body
    );
}
