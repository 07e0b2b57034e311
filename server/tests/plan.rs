//! The rental plan page through the router: the seed's worked example (72 h on one card or 24 h
//! on four, each vendor with one node) with a 48-hour deadline; the page and `nodeledger plan`
//! on the cost page's export agree to the cent and the second; a plan on the front goes into the
//! workload's draft order with the deadline it was planned against.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common::{PASSWORD, TestApp};
use crate::tco::{NO_OVERHEADS, create_workload_with, json, quote, save_quote, seed_workload, upload_run};
use http::StatusCode;
use serde_json::Value;

/// When the plans start: a fixed moment, so the page and the CLI plan from the same start.
const START: &str = "2030-01-15T08:00:00Z";
/// The same, Unix seconds.
const START_UNIX: i64 = 1_894_694_400;

/// Team A's desk for the seed's example: the administrator, procurement (`pam`), an engineer
/// (`eve`), a manager (`max`), the workload and the one-card (`small`) and four-card (`big`)
/// quotes.
pub(crate) struct Desk {
    pub(crate) app: TestApp,
    pub(crate) admin: String,
    pub(crate) pam: String,
    eve: String,
    max: String,
    pub(crate) workload: i64,
    small: i64,
    big: i64,
}

/// Seed 002 with supply: 2,592,000 tokens, due 48 h after the start; a one-GPU node at 10.00/h
/// measured at 10 tokens/s and a four-GPU node at 35.00/h measured at 30 tokens/s; each vendor
/// can provide one node, ready at once.
pub(crate) async fn desk() -> Desk {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let a = app.create_team(&admin, "A").await;
    app.create_member(&admin, "pam@example.com", a, "procurement").await;
    app.create_member(&admin, "eve@example.com", a, "engineer").await;
    app.create_member(&admin, "max@example.com", a, "manager").await;
    let pam = app.login("pam@example.com", PASSWORD).await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    let workload = create_workload(&app, &pam).await;
    let with_supply = |mut form: Vec<(String, String)>| {
        form.push(("fields[nodes_available]".into(), "1".into()));
        form.push(("fields[lead_time_hours]".into(), "0".into()));
        form
    };
    let small = save_quote(&app, &pam, with_supply(quote("ONE-GPU", "1", "10.00"))).await;
    let big = save_quote(&app, &pam, with_supply(quote("FOUR-GPU", "4", "35.00"))).await;
    let token = app.create_token(&eve, "ci").await;
    for (quote, gpus, tps) in [(small, 1, 10.0), (big, 4, 30.0)] {
        upload_run(&app, &token, quote, workload, gpus, tps).await;
    }
    Desk {
        max: app.login("max@example.com", PASSWORD).await,
        app,
        admin,
        pam,
        eve,
        workload,
        small,
        big,
    }
}

/// Seed 002's job, one job across its GPUs, due 48 h after [`START`].
async fn create_workload(app: &TestApp, pam: &str) -> i64 {
    let mut form = seed_workload("Seed 002 job", "");
    form.extend([("gpu_use", "one_job"), ("deadline", "48 h"), ("earliest_start", START)]);
    create_workload_with(app, pam, &form).await
}

/// The plan page's query for the desk's workload, without overheads (the seed's bare hours).
pub(crate) fn query(d: &Desk) -> String {
    format!("workload={}&{NO_OVERHEADS}", d.workload)
}

/// The plan page's data for `query`, as `cookie` sees it.
async fn page(d: &Desk, cookie: &str, query: &str) -> Value {
    let res = d.app.call("/api/plan", &[("query", query)], Some(cookie)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    json(&res.body)
}

/// `nodeledger plan` on the cost page's JSON export for `query`, as downloaded.
async fn cli_plan(d: &Desk, query: &str) -> Value {
    let export = d
        .app
        .get(&format!("/tco/export.json?{query}"), Some(&d.max), None)
        .await;
    assert_eq!(export.status, StatusCode::OK, "{}", export.body);
    let path = std::env::temp_dir().join(format!("nl-plan-page-{}.json", std::process::id()));
    std::fs::write(&path, &export.body).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_nodeledger"))
        .args(["plan", path.to_str().unwrap()])
        .output()
        .unwrap();
    std::fs::remove_file(&path).ok();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A plan's key and exact figures: quote, nodes, pricing, total, finish, slowest finish.
type Figures = (String, u64, String, String, u64, u64);

fn page_figures(row: &Value) -> Figures {
    (
        row["quote_id"].to_string(),
        row["nodes"].as_u64().unwrap(),
        row["pricing"].as_str().unwrap().to_string(),
        row["total_exact"].as_str().unwrap().to_string(),
        row["finish_s"].as_u64().unwrap(),
        row["pessimistic_finish_s"].as_u64().unwrap(),
    )
}

fn cli_figures(plan: &Value) -> Figures {
    let total: rust_decimal::Decimal = plan["compared_total"].as_str().unwrap().parse().unwrap();
    (
        plan["quote_id"].as_str().unwrap().to_string(),
        plan["nodes"].as_u64().unwrap(),
        plan["pricing"].as_str().unwrap().to_string(),
        total.normalize().to_string(),
        plan["finish_s"].as_u64().unwrap(),
        plan["pessimistic_finish_s"].as_u64().unwrap(),
    )
}

#[tokio::test]
async fn the_page_and_nodeledger_plan_agree_to_the_cent_and_second_and_the_page_says_why() {
    let d = desk().await;
    let q = query(&d);
    let shown = page(&d, &d.pam, &q).await;
    let cli = cli_plan(&d, &q).await;

    let front: Vec<Figures> = shown["plan"]["front"]
        .as_array()
        .unwrap()
        .iter()
        .map(page_figures)
        .collect();
    let cli_front: Vec<Figures> = cli["front"].as_array().unwrap().iter().map(cli_figures).collect();
    assert_eq!(front, cli_front, "the same front, to the cent and the second");
    assert_eq!(cli["earliest_start"], START, "{cli}");

    // The seed's answer: four cards, done in 24 h for 840.00; one card would be 24 h late, and
    // its vendor has no second node.
    let big = d.big.to_string();
    let recommended = &cli["recommended"]["plan"];
    assert_eq!(
        (recommended["quote_id"].as_str(), recommended["nodes"].as_u64()),
        (Some(big.as_str()), Some(1)),
        "{cli}"
    );
    let row = shown["plan"]["front"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["recommended"] == true)
        .unwrap();
    assert_eq!(page_figures(row), cli_figures(recommended));
    assert_eq!(row["total_exact"], "840");
    let sentence = shown["plan"]["sentence"].as_str().unwrap();
    assert_eq!(
        sentence,
        "1 node of Acme GPU · FOUR-GPU · 4× A100 80GB, on demand: done in 24 h (2030-01-16 08:00 UTC) for ¥840.00; \
         1 node of Acme GPU · ONE-GPU · 1× A100 80GB, on demand would finish 24 h after the deadline.",
    );
    // One card is the cheapest plan, so it stays on the front, with why it is not the choice.
    let front = shown["plan"]["front"].as_array().unwrap();
    let small = front.iter().find(|r| r["quote_id"] == d.small).unwrap();
    assert!(
        small["reasons"].as_str().unwrap().contains("24 h after the deadline"),
        "{small}"
    );
    assert!(shown["can_order"] == true && shown["draft"].is_null(), "{shown}");

    // The same in Chinese.
    let zh = page(&d, &format!("{}; nl_lang=zh-CN", d.pam), &q).await;
    let sentence = zh["plan"]["sentence"].as_str().unwrap();
    assert!(sentence.contains("24 小时后（2030-01-16 08:00 UTC）完成"), "{sentence}");
    assert!(sentence.contains("会在截止时间之后 24 小时完成"), "{sentence}");
}

#[tokio::test]
async fn ordering_a_plan_puts_its_nodes_and_the_deadline_on_the_draft_order() {
    let d = desk().await;
    let q = query(&d);
    let big = d.big.to_string();
    let res = order_plan(&d, &d.eve, d.big, "1", "on_demand").await;
    assert_eq!(
        res.status,
        StatusCode::FORBIDDEN,
        "engineers do not order: {}",
        res.body
    );
    let res = order_plan(&d, &d.pam, d.big, "2", "on_demand").await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "2 nodes: beyond the vendor's capacity: {}",
        res.body
    );
    assert_eq!(json(&res.body)["detail"], "plan.not_on_front", "{}", res.body);
    let res = order_plan(&d, &d.pam, d.big, "1", "monthly").await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no monthly price: {}",
        res.body
    );
    assert_eq!(json(&res.body)["detail"], "plan.not_on_front", "{}", res.body);

    let res = order_plan(&d, &d.pam, d.big, "1", "on_demand").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let made = json(&res.body);
    assert_eq!(made["created"], true);
    let id = made["order_id"].as_i64().unwrap();
    let content: String =
        sqlx::query_scalar("SELECT content FROM order_revisions WHERE order_id = ? ORDER BY revision DESC LIMIT 1")
            .bind(id)
            .fetch_one(&d.app.db)
            .await
            .unwrap();
    let record = json(&content);
    assert_eq!(record["quote_id"], d.big);
    assert!(
        record["comparison"]
            .as_str()
            .unwrap()
            .contains(&format!("nodes_{big}=1")),
        "{record}"
    );
    let plan = &record["plan"];
    assert_eq!(
        (
            plan["quote_id"].as_i64(),
            plan["nodes"].as_u64(),
            plan["pricing"].as_str()
        ),
        (Some(d.big), Some(1), Some("on_demand")),
        "{record}"
    );
    assert_eq!(plan["compared_total"], "840.00", "{plan}");
    assert_eq!(plan["finish_s"], 24 * 3600, "{plan}");
    assert_eq!(plan["deadline_s"], 48 * 3600, "{plan}");
    assert_eq!(plan["earliest_start"], START_UNIX, "{plan}");
    assert_eq!(plan["recommended"], true, "{plan}");

    // The page now names the draft the next plan would update.
    let shown = page(&d, &d.pam, &q).await;
    assert_eq!(shown["draft"][0], id, "{shown}");

    the_manager_reads_the_plan_on_the_order(&d, id).await;
}

/// Procurement (or whoever `cookie` is) orders the plan of `quote` on `nodes` nodes, `pricing`.
async fn order_plan(d: &Desk, cookie: &str, quote: i64, nodes: &str, pricing: &str) -> crate::common::Answer {
    let (q, quote) = (query(d), quote.to_string());
    let form = [
        ("query", q.as_str()),
        ("quote_id", &quote),
        ("nodes", nodes),
        ("pricing", pricing),
    ];
    d.app.call("/api/plan/order", &form, Some(cookie)).await
}

/// The manager reads the recommended plan and what it was planned against on order `id`, in
/// either language.
async fn the_manager_reads_the_plan_on_the_order(d: &Desk, id: i64) {
    let order_page = |cookie: String| {
        let (app, id) = (&d.app, id.to_string());
        async move { json(&app.call("/api/orders/get", &[("id", &id)], Some(&cookie)).await.body) }
    };
    let view = order_page(d.max.clone()).await;
    let card = &view["plan"];
    assert_eq!(
        card["sentence"],
        "1 node of Acme GPU · FOUR-GPU · 4× A100 80GB, on demand: done in 24 h (2030-01-16 08:00 UTC) for ¥840.00.",
        "{view}"
    );
    assert_eq!(
        card["deadline"],
        "Deadline: 2030-01-17 08:00 UTC (48 h after the start)"
    );
    assert_eq!(card["chosen"], "The planner's recommendation.");
    assert_eq!(
        card["shortfalls"],
        serde_json::json!([]),
        "in time, within budget: {card}"
    );
    let zh = order_page(format!("{}; nl_lang=zh-CN", d.max)).await;
    assert_eq!(
        zh["plan"]["deadline"], "截止：2030-01-17 08:00 UTC（开始后 48 小时）",
        "{zh}"
    );
    assert!(
        zh["plan"]["sentence"]
            .as_str()
            .unwrap()
            .contains("24 小时后（2030-01-16 08:00 UTC）完成"),
        "{zh}"
    );
}

#[tokio::test]
async fn a_late_plan_is_signed_as_late_and_a_changed_choice_drops_the_plan() {
    let d = desk().await;
    let q = query(&d);
    // The cheapest plan is on the front although it is a day late: procurement may order it,
    // and the order says so.
    let res = order_plan(&d, &d.pam, d.small, "1", "on_demand").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = json(&res.body)["order_id"].as_i64().unwrap().to_string();
    let view = json(&d.app.call("/api/orders/get", &[("id", &id)], Some(&d.max)).await.body);
    let card = &view["plan"];
    assert_eq!(card["shortfalls"][0], "Late: done 24 h after the deadline.", "{card}");
    // The summary's problems name it too, never "None recorded".
    let page = d.app.get(&format!("/orders/{id}"), Some(&d.max), None).await;
    let summary = page
        .body
        .split("data-testid=\"order-summary-problems\"")
        .nth(1)
        .expect("the summary");
    let summary = summary.split("</dd>").next().unwrap_or_default();
    assert!(summary.contains("Late: done 24 h after the deadline."), "{summary}");
    assert!(!summary.contains("None recorded"), "{summary}");
    assert!(
        card["chosen"].as_str().unwrap().contains("recommended another plan"),
        "{card}"
    );

    // "Order this" on the cost page replaces the choice: the plan no longer describes the
    // order, so it is dropped, and the history says so.
    let big = d.big.to_string();
    let res = d
        .app
        .call(
            "/api/tco/order",
            &[("query", q.as_str()), ("quote_id", big.as_str())],
            Some(&d.pam),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let view = json(&d.app.call("/api/orders/get", &[("id", &id)], Some(&d.max)).await.body);
    assert!(view["plan"].is_null(), "{view}");
    let data: String = sqlx::query_scalar("SELECT data FROM audit_events WHERE order_id = ? ORDER BY seq DESC LIMIT 1")
        .bind(id.parse::<i64>().unwrap())
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    assert!(data.contains(r#""plan_cleared":true"#), "{data}");
}

/// One cost for one rental: a workload that runs one task per GPU, a one-GPU and an eight-GPU
/// quote (each vendor states 4 nodes ready at once), the cost page's default assumptions (90 %
/// scaling efficiency, overheads, re-runs). On every node count 1–4 the cost page with `nodes=n`,
/// `nodeledger tco` on its export and `nodeledger plan` on the export price the rental alike,
/// to the cent; the stated efficiency does not touch one task per GPU (it scales linearly).
#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn the_cost_page_the_plan_and_both_clis_price_one_rental_alike_on_every_node_count() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let a = app.create_team(&admin, "A").await;
    app.create_member(&admin, "pam@example.com", a, "procurement").await;
    app.create_member(&admin, "eve@example.com", a, "engineer").await;
    let pam = app.login("pam@example.com", PASSWORD).await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    let mut form = seed_workload("Batch of independent tasks", "");
    form.extend([("gpu_use", "task_per_gpu"), ("earliest_start", START)]);
    let workload = create_workload_with(&app, &pam, &form).await;
    let with_supply = |mut form: Vec<(String, String)>| {
        form.push(("fields[nodes_available]".into(), "4".into()));
        form.push(("fields[lead_time_hours]".into(), "0".into()));
        form
    };
    let one = save_quote(&app, &pam, with_supply(quote("ONE-GPU", "1", "10.00"))).await;
    let eight = save_quote(&app, &pam, with_supply(quote("EIGHT-GPU", "8", "70.00"))).await;
    let token = app.create_token(&eve, "ci").await;
    upload_run(&app, &token, one, workload, 1, 10.0).await;
    upload_run(&app, &token, eight, workload, 8, 76.0).await;

    let base = format!("workload={workload}");
    let export = app.get(&format!("/tco/export.json?{base}"), Some(&pam), None).await;
    assert_eq!(export.status, StatusCode::OK, "{}", export.body);
    let path = std::env::temp_dir().join(format!("nl-one-rental-{}.json", std::process::id()));
    std::fs::write(&path, &export.body).unwrap();
    let cli = |command: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_nodeledger"))
            .args([command, path.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        json(&String::from_utf8_lossy(&out.stdout))
    };
    let planned = cli("plan");
    let plans: Vec<&Value> = planned["front"]
        .as_array()
        .unwrap()
        .iter()
        .chain(planned["others"].as_array().unwrap())
        .filter(|p| p["pricing"] == "on_demand")
        .collect();
    let mut compared = 0;
    for nodes in 1..=4_u64 {
        let q = format!("{base}&nodes={nodes}");
        let res = app.call("/api/tco", &[("query", &q)], Some(&pam)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        let page = json(&res.body);
        for id in [one, eight] {
            let row = page["rows"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["quote_id"] == id)
                .unwrap();
            let shown: rust_decimal::Decimal = row["compared_exact"].as_str().unwrap().parse().unwrap();
            let plan = plans
                .iter()
                .find(|p| p["quote_id"].as_str().and_then(|q| q.parse::<i64>().ok()) == Some(id) && p["nodes"] == nodes)
                .unwrap_or_else(|| panic!("no plan of {id} on {nodes} nodes: {planned}"));
            let in_plan: rust_decimal::Decimal = plan["compared_total"].as_str().unwrap().parse().unwrap();
            assert_eq!(shown, in_plan, "quote {id} on {nodes} nodes: the page and the plan");
            compared += 1;
        }
        if nodes == 4 {
            // The page's own export reruns to the page's totals with `nodeledger tco`.
            let export = app.get(&format!("/tco/export.json?{q}"), Some(&pam), None).await;
            std::fs::write(&path, &export.body).unwrap();
            let rerun = cli("tco");
            for r in rerun["quotes"].as_array().unwrap() {
                let row = page["rows"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|x| x["quote_id"].as_i64() == r["id"].as_str().and_then(|q| q.parse().ok()))
                    .unwrap();
                let cli_total: rust_decimal::Decimal = r["compared_total"].as_str().unwrap().parse().unwrap();
                let shown: rust_decimal::Decimal = row["compared_exact"].as_str().unwrap().parse().unwrap();
                assert_eq!(cli_total, shown, "nodeledger tco on 4 nodes");
            }
        }
    }
    std::fs::remove_file(&path).ok();
    assert_eq!(compared, 8);
}

/// An order placed from a plan (its record carries the plan: version 3 and later) signed off,
/// exported and checked by `nodeledger audit verify --export` against the database: the hash
/// the approval pinned is the hash of the stored text, and the export matches it.
#[tokio::test]
async fn a_plan_placed_order_signed_off_passes_audit_verify_with_its_export() {
    use app::{
        domain::{
            audit::{Action, sha256_hex},
            orders::OrderState,
        },
        store,
    };
    let d = desk().await;
    let res = order_plan(&d, &d.pam, d.big, "1", "on_demand").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let order = json(&res.body)["order_id"].as_i64().unwrap();
    let (revision, content): (i64, String) =
        sqlx::query_as("SELECT id, content FROM order_revisions WHERE order_id = ? ORDER BY revision DESC LIMIT 1")
            .bind(order)
            .fetch_one(&d.app.db)
            .await
            .unwrap();
    assert!(json(&content)["plan"].is_object(), "placed from the plan: {content}");
    // Signed off as the approval does: the hash of the stored text pinned in the event.
    let hash = sha256_hex(&content);
    let manager: i64 = sqlx::query_scalar("SELECT id FROM users WHERE email = 'max@example.com'")
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    let at = "2030-01-15T09:00:00Z";
    let mut tx = store::begin_write(&d.app.db).await.unwrap();
    for (action, data) in [
        (Action::Submit, serde_json::json!({ "revision": 1 })),
        (
            Action::Approve,
            serde_json::json!({ "revision": 1, "content_hash": hash }),
        ),
    ] {
        store::audit::append(&mut tx, order, manager, at, action, data)
            .await
            .unwrap();
    }
    let approved = store::orders::set_state(
        &mut tx,
        revision,
        OrderState::Draft,
        OrderState::Approved,
        manager,
        at,
        "",
        Some(&hash),
    )
    .await
    .unwrap();
    assert!(approved);
    tx.commit().await.unwrap();
    let export = app::services::audit::export_order(&d.app.db, order)
        .await
        .unwrap()
        .unwrap();
    let file = d.app.path.join("order.json");
    std::fs::write(&file, serde_json::to_string_pretty(&export).unwrap()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_nodeledger"))
        .arg("--db")
        .arg(d.app.path.join("test.db"))
        .args(["audit", "verify", "--export", file.to_str().unwrap()])
        .env("NODELEDGER_LOG", "error")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(&format!("audit export OK: order {order}")), "{stdout}");
}
