//! Forms and the API, through the router: numbers are read as people type them (`2,000,000`,
//! `12,50`) and stored normalised; a refusal names every rejected field, and the scripts' API
//! says so in words a script's log can show (never "see the messages next to them").

use crate::common;

use common::{PASSWORD, TestApp, quote_form};
use http::StatusCode;
use rust_decimal::Decimal;
use serde_json::Value;

const VLLM: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/vllm_serve.json");

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// One team with a buyer (pam) and an engineer (eve); returns the app, the team and their sessions.
async fn team() -> (TestApp, i64, String, String) {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "GPU Team").await;
    app.create_member(&admin, "pam@example.com", team, "procurement").await;
    app.create_member(&admin, "eve@example.com", team, "engineer").await;
    let pam = app.login("pam@example.com", PASSWORD).await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    (app, team, pam, eve)
}

async fn save_quote(app: &TestApp, cookie: &str, form: &[(String, String)]) -> common::Answer {
    let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    app.call("/api/quotes/save", &form, Some(cookie)).await
}

#[tokio::test]
async fn the_quote_form_reads_thousands_separators_and_decimal_commas() {
    let (app, team, pam, _) = team().await;
    let form = quote_form(
        "Q-1",
        &[
            ("price.on_demand_hourly", "12,50"),
            ("spec.ram_gib", "2,000"),
            ("spec.system_disk_gb", "1 000"),
            ("price.free_egress_gb", "2.000.000"),
        ],
    );
    let res = save_quote(&app, &pam, &form).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = json(&res.body)["quote_id"].as_i64().unwrap();
    let saved = app::store::quotes::latest(&app.db, team, id).await.unwrap().unwrap();
    assert_eq!(
        saved
            .draft
            .price
            .on_demand_hourly
            .map(|p| p.to_string())
            .unwrap_or_default(),
        "12.50",
        "shown back as 12.50"
    );
    assert_eq!(saved.draft.spec.ram_gib, Some(Decimal::from(2000)));
    assert_eq!(saved.draft.spec.system_disk_gb, Some(Decimal::from(1000)));
    assert_eq!(saved.draft.price.free_egress_gb, Decimal::from(2_000_000));
}

#[tokio::test]
async fn a_quote_form_with_two_unreadable_numbers_names_both_and_saves_nothing() {
    let (app, _, pam, _) = team().await;
    let form = quote_form(
        "Q-2",
        &[("price.on_demand_hourly", "1,234.5.6"), ("spec.vram_gib", "12 50")],
    );
    let res = save_quote(&app, &pam, &form).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let body = json(&res.body);
    assert_eq!(body["error"], "invalid_fields");
    let named: Vec<(&str, &str)> = body["detail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["field"].as_str().unwrap(), i["code"].as_str().unwrap()))
        .collect();
    assert!(
        named.contains(&("price.on_demand_hourly", "mixed_separators")),
        "{named:?}"
    );
    assert!(named.contains(&("spec.vram_gib", "misgrouped_number")), "{named:?}");
    assert_eq!(named.len(), 2, "each field once: {named:?}");
    let quotes: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM quotes")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(quotes, 0);
}

#[tokio::test]
async fn rates_budgets_and_workloads_read_numbers_as_typed() {
    let (app, _, pam, _) = team().await;
    let rate = app
        .call(
            "/api/rates/add",
            &[("from", "USD"), ("to", "CNY"), ("rate", "7,21"), ("date", "2026-11-20")],
            Some(&pam),
        )
        .await;
    assert_eq!(rate.status, StatusCode::OK, "{}", rate.body);
    let stored: String = sqlx::query_scalar("SELECT rate FROM exchange_rates")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(stored.parse::<Decimal>().unwrap(), "7.21".parse::<Decimal>().unwrap());
    let mixed = app
        .call(
            "/api/rates/add",
            &[
                ("from", "EUR"),
                ("to", "CNY"),
                ("rate", "7,21.5.1"),
                ("date", "2026-11-20"),
            ],
            Some(&pam),
        )
        .await;
    assert_eq!(mixed.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", mixed.body);
    assert!(mixed.body.contains("mixed_separators"), "{}", mixed.body);

    let typed = [
        ("name", "Qwen2-7B LoRA"),
        ("kind", "batch"),
        ("model", ""),
        ("precision", ""),
        ("vram_peak_gib", "18,5"),
        ("vram_peak_source", "measured"),
        ("concurrency", "1"),
        ("gpus_needed", "2"),
        ("run_hours", "1,000"),
        ("total_work_amount", ""),
        ("total_work_unit", ""),
        ("data_gb", "2 000"),
        ("checkpoint_gb", "0"),
        ("headroom_pct", "20"),
    ];
    let created = app.call("/api/workloads/create", &typed, Some(&pam)).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let body: String = sqlx::query_scalar("SELECT body FROM workloads")
        .fetch_one(&app.db)
        .await
        .unwrap();
    let stored: app::domain::quotes::Workload = serde_json::from_str(&body).unwrap();
    assert_eq!(stored.vram_peak_gib.to_string(), "18.5");
    assert_eq!(stored.run_hours, Some(Decimal::from(1000)));
    assert_eq!(stored.data_gb, Decimal::from(2000));

    let workload = app.create_workload(&pam, "Render farm").await;
    let id = workload.to_string();
    let budget = app
        .call(
            "/api/tco/budget",
            &[("workload_id", &id), ("amount", "2 000 000")],
            Some(&pam),
        )
        .await;
    assert_eq!(budget.status, StatusCode::OK, "{}", budget.body);
    let amount: String = sqlx::query_scalar("SELECT amount FROM workload_budgets")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(amount.parse::<Decimal>().unwrap(), Decimal::from(2_000_000));
    let garbage = app
        .call(
            "/api/tco/budget",
            &[("workload_id", &id), ("amount", "two million")],
            Some(&pam),
        )
        .await;
    assert_eq!(garbage.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", garbage.body);
    assert!(garbage.body.contains("invalid_number"), "{}", garbage.body);
}

#[tokio::test]
async fn the_scripts_api_names_every_bad_field_in_words() {
    let (app, _, _, eve) = team().await;
    let token = app.create_token(&eve, "CI").await;
    let parts: &[(&str, Option<&str>, &[u8])] = &[
        ("result", Some("vllm.json"), VLLM),
        ("quote", None, b"seven"),
        ("nodes", None, b"1,5"),
        ("workload", None, b"1,234.5.6"),
    ];
    let res = app.multipart("/api/v1/runs", parts, None, Some(&token)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(!res.body.contains("next to"), "no pointer to a page: {}", res.body);
    let body = json(&res.body);
    assert_eq!(body["error"], "invalid_fields");
    assert_eq!(
        body["message"],
        "3 fields need attention: quote, nodes, workload. Each field's message is in \"fields\"."
    );
    let fields = body["fields"].as_array().unwrap();
    let named: Vec<(&str, &str)> = fields
        .iter()
        .map(|f| (f["field"].as_str().unwrap(), f["code"].as_str().unwrap()))
        .collect();
    assert_eq!(
        named,
        [
            ("quote", "invalid_number"),
            ("nodes", "invalid_integer"),
            ("workload", "mixed_separators")
        ]
    );
    assert!(
        fields
            .iter()
            .all(|f| f["message"].as_str().is_some_and(|m| m.len() > 10)),
        "{body}"
    );
    let runs: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM runs")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(runs, 0, "nothing stored");

    let one = app
        .multipart(
            "/api/v1/runs",
            &[("result", Some("vllm.json"), VLLM), ("format", None, b"excel")],
            None,
            Some(&token),
        )
        .await;
    assert_eq!(one.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", one.body);
    let body = json(&one.body);
    let message = body["message"].as_str().unwrap();
    assert!(message.starts_with("format: Unknown format"), "{message}");
    assert_eq!(body["fields"][0]["field"], "format");
}
