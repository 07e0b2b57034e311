//! Quotes through the router: roles, validation, revisions, import, export, team isolation.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use common::{PASSWORD, TestApp};
use http::StatusCode;
use serde_json::{Value, json};

const GOOD_CSV: &str = include_str!("../../app/domain/src/quotes/fixtures/nodeledger_quotes.csv");
const ONE_BAD_ROW: &str = include_str!("../../app/domain/src/quotes/fixtures/nodeledger_one_bad_row.csv");
const LAMBDA: &str = include_str!("../../app/domain/src/quotes/fixtures/lambda_vms.csv");

/// An admin, teams A and B, procurement and engineer in A, procurement in B; their cookies.
struct Desk {
    app: TestApp,
    buyer_a: String,
    engineer_a: String,
    manager_a: String,
    buyer_b: String,
}

async fn desk() -> Desk {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let a = app.create_team(&admin, "A").await;
    let b = app.create_team(&admin, "B").await;
    app.create_member(&admin, "pa@example.com", a, "procurement").await;
    app.create_member(&admin, "ea@example.com", a, "engineer").await;
    app.create_member(&admin, "ma@example.com", a, "manager").await;
    app.create_member(&admin, "pb@example.com", b, "procurement").await;
    Desk {
        buyer_a: app.login("pa@example.com", PASSWORD).await,
        engineer_a: app.login("ea@example.com", PASSWORD).await,
        manager_a: app.login("ma@example.com", PASSWORD).await,
        buyer_b: app.login("pb@example.com", PASSWORD).await,
        app,
    }
}

fn quote_form(reference: &str, vram: &str, price: &str) -> Vec<(String, String)> {
    [
        ("vendor", "Acme GPU"),
        ("reference", reference),
        ("received_on", "2026-11-20"),
        ("valid_until", "2099-12-31"),
        ("spec.gpu_model", "L40S 48GB"),
        ("spec.gpus_per_node", "2"),
        ("spec.vram_gib", vram),
        ("spec.sharing", "exclusive"),
        ("currency", "CNY"),
        ("price.basis", "per_gpu"),
        ("price.on_demand_hourly", price),
        ("price.billing_increment", "minute"),
        ("price.stopped_bills_compute", "no"),
    ]
    .into_iter()
    .map(|(k, v)| (format!("fields[{k}]"), v.to_string()))
    .collect()
}

async fn save(d: &Desk, cookie: &str, quote_id: Option<i64>, form: Vec<(String, String)>) -> common::Answer {
    let mut pairs: Vec<(String, String)> =
        vec![("quote_id".into(), quote_id.map(|i| i.to_string()).unwrap_or_default())];
    pairs.extend(form);
    let refs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    d.app.call("/api/quotes/save", &refs, Some(cookie)).await
}

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// The side-by-side comparison of `ids` checked against `workload_id`, as an engineer reads it.
async fn compared(d: &Desk, ids: &[i64], workload_id: i64) -> Value {
    let body = json!({ "ids": ids, "workload_id": workload_id });
    json(
        &d.app
            .call_json("/api/quotes/compare", &body, Some(&d.engineer_a))
            .await
            .body,
    )
}

async fn count(d: &Desk) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM quote_revisions")
        .fetch_one(&d.app.db)
        .await
        .unwrap()
}

#[tokio::test]
async fn procurement_enters_a_quote_and_edits_it_as_a_new_revision() {
    let d = desk().await;
    let res = save(&d, &d.buyer_a, None, quote_form("ACME-1", "48", "6.25")).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let saved = json(&res.body);
    let id = saved["quote_id"].as_i64().expect("saved");
    assert_eq!(saved["revision"], 1);

    let edit = save(&d, &d.buyer_a, Some(id), quote_form("ignored-on-edit", "48", "5.75")).await;
    assert_eq!(json(&edit.body)["revision"], 2, "{}", edit.body);
    let latest = d
        .app
        .call(
            "/api/quotes/detail",
            &[("quote_id", &id.to_string())],
            Some(&d.engineer_a),
        )
        .await;
    let latest = json(&latest.body);
    assert_eq!(latest["revision"], 2);
    assert_eq!(latest["reference"], "ACME-1", "a revision keeps the quote's identity");
    assert_eq!(latest["node_hour"], "¥11.50", "per-GPU price × 2 GPUs");
    assert_eq!(latest["can_edit"], false, "engineers read only");
    let first = d
        .app
        .call(
            "/api/quotes/detail",
            &[("quote_id", &id.to_string()), ("revision", "1")],
            Some(&d.buyer_a),
        )
        .await;
    assert_eq!(
        json(&first.body)["values"]["price.on_demand_hourly"],
        "6.25",
        "revision 1 stays readable"
    );

    let dup = save(&d, &d.buyer_a, None, quote_form("acme-1", "48", "6.25")).await;
    assert_eq!(dup.status, StatusCode::CONFLICT, "{}", dup.body);
    assert_eq!(count(&d).await, 2);
}

#[tokio::test]
async fn bad_fields_are_named_and_nothing_is_stored() {
    let d = desk().await;
    let mut form = quote_form("ACME-2", "0", "-1");
    form.iter_mut().find(|(k, _)| k == "fields[valid_until]").unwrap().1 = "2026-01-01".into();
    let res = save(&d, &d.buyer_a, None, form).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let body = json(&res.body);
    assert_eq!(body["error"], "invalid_fields", "{body}");
    let code_of = |field: &str| {
        body["detail"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["field"] == field)
            .map(|i| i["code"].as_str().unwrap().to_string())
    };
    assert_eq!(code_of("spec.vram_gib").as_deref(), Some("not_positive"), "{body}");
    assert_eq!(code_of("price.on_demand_hourly").as_deref(), Some("negative"), "{body}");
    assert_eq!(code_of("valid_until").as_deref(), Some("end_before_start"), "{body}");
    let mut unknown = quote_form("ACME-3", "48", "1");
    unknown.iter_mut().find(|(k, _)| k == "fields[currency]").unwrap().1 = "XYZ".into();
    let res = save(&d, &d.buyer_a, None, unknown).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(res.body.contains(r#""field":"currency""#), "{}", res.body);
    assert_eq!(count(&d).await, 0);
}

#[tokio::test]
async fn only_procurement_changes_quotes_and_teams_never_see_each_other() {
    let d = desk().await;
    let eng = save(&d, &d.engineer_a, None, quote_form("ENG-1", "48", "1")).await;
    assert_eq!(eng.status, StatusCode::FORBIDDEN);
    let mgr = save(&d, &d.manager_a, None, quote_form("MGR-1", "48", "1")).await;
    assert_eq!(mgr.status, StatusCode::FORBIDDEN);
    let read = d
        .app
        .call_json("/api/quotes/list", &json!({ "query": {} }), Some(&d.manager_a))
        .await;
    assert_eq!(read.status, StatusCode::OK, "managers read the quotes");
    let form = quote_form("ANON-1", "48", "1");
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let anon = d.app.call("/api/quotes/save", &pairs, None).await;
    assert_eq!(anon.status, StatusCode::UNAUTHORIZED);
    let res = save(&d, &d.buyer_a, None, quote_form("A-1", "48", "1")).await;
    let id = json(&res.body)["quote_id"].as_i64().unwrap();

    let b_detail = d
        .app
        .call("/api/quotes/detail", &[("quote_id", &id.to_string())], Some(&d.buyer_b))
        .await;
    assert_eq!(b_detail.status, StatusCode::NOT_FOUND);
    let b_edit = save(&d, &d.buyer_b, Some(id), quote_form("A-1", "48", "0.01")).await;
    assert_eq!(b_edit.status, StatusCode::NOT_FOUND);
    let b_compare = d
        .app
        .call_json("/api/quotes/compare", &json!({ "ids": [id, id] }), Some(&d.buyer_b))
        .await;
    assert_eq!(b_compare.status, StatusCode::NOT_FOUND);
    let b_list = d
        .app
        .call_json("/api/quotes/list", &json!({ "query": {} }), Some(&d.buyer_b))
        .await;
    assert_eq!(json(&b_list.body)["total"], 0);
    let b_export = d.app.get("/quotes/export.csv", Some(&d.buyer_b), None).await;
    assert!(!b_export.body.contains("A-1"));
    let a_export = d.app.get("/quotes/export.csv", Some(&d.buyer_a), None).await;
    assert!(a_export.body.contains("A-1"));
    assert_eq!(a_export.headers["content-type"], "text/csv; charset=utf-8");
    let anon_export = d.app.get("/quotes/export.csv", None, None).await;
    assert_eq!(anon_export.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn import_previews_every_problem_then_saves_all_or_nothing() {
    let d = desk().await;
    let req = |content: &str, save: bool| json!({ "request": { "content": content, "format": "auto", "vendor": "", "currency": "USD" }, "save": save });
    let bad = d
        .app
        .call_json("/api/quotes/import", &req(ONE_BAD_ROW, true), Some(&d.buyer_a))
        .await;
    assert_eq!(bad.status, StatusCode::OK, "{}", bad.body);
    let bad = json(&bad.body);
    assert!(
        bad["saved"].is_null(),
        "a file with errors saves nothing even when asked"
    );
    assert!(bad["bad"].as_u64().unwrap() >= 1);
    let problem = &bad["problems"][0];
    assert!(
        problem["line"].as_u64().unwrap() >= 2 && !problem["message"].as_str().unwrap().is_empty(),
        "{bad}"
    );
    assert!(
        bad["problems"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["line"] == 3 && p["column"] == "VRAM per GPU (GiB)"),
        "line and column: {bad}"
    );
    assert_eq!(count(&d).await, 0);

    let wrong = d
        .app
        .call_json(
            "/api/quotes/import",
            &req(&GOOD_CSV.replace(',', ";"), false),
            Some(&d.buyer_a),
        )
        .await;
    assert!(
        json(&wrong.body)["file_error"].as_str().unwrap().contains("separated"),
        "{}",
        wrong.body
    );
    let sky = d
        .app
        .call_json("/api/quotes/import", &req(LAMBDA, false), Some(&d.buyer_a))
        .await;
    assert!(
        json(&sky.body)["file_error"].as_str().unwrap().contains("vendor"),
        "{}",
        sky.body
    );

    let check = json(
        &d.app
            .call_json("/api/quotes/import", &req(GOOD_CSV, false), Some(&d.buyer_a))
            .await
            .body,
    );
    assert_eq!(
        (check["ready"].as_u64(), check["saved"].is_null()),
        (Some(3), true),
        "{check}"
    );
    assert_eq!(count(&d).await, 0, "checking stores nothing");
    let done = json(
        &d.app
            .call_json("/api/quotes/import", &req(GOOD_CSV, true), Some(&d.buyer_a))
            .await
            .body,
    );
    assert_eq!(done["saved"], 3, "{done}");
    let again = json(
        &d.app
            .call_json("/api/quotes/import", &req(GOOD_CSV, true), Some(&d.buyer_a))
            .await
            .body,
    );
    assert!(again["file_error"].as_str().unwrap().contains("Line 2"), "{again}");
    assert_eq!(count(&d).await, 3, "the duplicate import wrote nothing");

    let engineer = d
        .app
        .call_json("/api/quotes/import", &req(GOOD_CSV, true), Some(&d.engineer_a))
        .await;
    assert_eq!(engineer.status, StatusCode::FORBIDDEN);
    let manager = d
        .app
        .call_json("/api/quotes/import", &req(GOOD_CSV, true), Some(&d.manager_a))
        .await;
    assert_eq!(manager.status, StatusCode::FORBIDDEN);
    assert_eq!(count(&d).await, 3);
}

/// The import preview's row on `line`.
fn preview_row(outcome: &Value, line: u64) -> &Value {
    outcome["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["line"] == line)
        .unwrap_or_else(|| panic!("line {line}: {outcome}"))
}

/// The cell `key` of a previewed row.
fn cell<'a>(row: &'a Value, key: &str) -> &'a Value {
    row["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["key"] == key)
        .unwrap()
}

#[tokio::test]
async fn the_preview_lists_the_rows_to_create_with_each_error_in_its_cell() {
    let d = desk().await;
    let req = json!({ "request": { "content": ONE_BAD_ROW, "format": "auto", "vendor": "", "currency": "USD" }, "save": false });
    let o = json(&d.app.call_json("/api/quotes/import", &req, Some(&d.buyer_a)).await.body);
    assert_eq!(o["rows"].as_array().unwrap().len(), 3, "{o}");
    let good = preview_row(&o, 2);
    assert_eq!(good["status"], "ready");
    let texts: Vec<&str> = good["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "算力港",
            "SLG-A10-1X",
            "1 × A10 24GB",
            "24 GiB",
            "4.20 CNY/h per node",
            "2025-03-31",
            ""
        ]
    );
    let bad = preview_row(&o, 3);
    assert_eq!(bad["status"], "error");
    assert_eq!(cell(bad, "vram")["text"], "20GB", "the file's own text: {bad}");
    assert!(
        cell(bad, "vram")["problems"][0].as_str().unwrap().contains("number"),
        "{bad}"
    );
    assert!(cell(bad, "reference")["problems"].as_array().unwrap().is_empty());
    assert_eq!(o["more_rows"], 0);
    assert_eq!(o["asks_valid_until"], false);

    // A skipped row is listed in its place; a catalog's rows show the date given.
    let sky = json!({ "request": { "content": LAMBDA, "format": "auto", "vendor": "Lambda", "currency": "USD", "valid_until": "2099-12-31" }, "save": false });
    let o = json(&d.app.call_json("/api/quotes/import", &sky, Some(&d.buyer_a)).await.body);
    let skipped = preview_row(&o, 6);
    assert_eq!(skipped["status"], "skipped");
    assert!(
        skipped["skipped_because"].as_str().unwrap().contains("GPU"),
        "{skipped}"
    );
    assert_eq!(cell(preview_row(&o, 2), "valid_until")["text"], "2099-12-31");

    // A file longer than the preview: the first rows, the count of the rest, every error kept.
    let mut long = String::from(GOOD_CSV.lines().next().unwrap());
    long.push('\n');
    let row = GOOD_CSV.lines().nth(1).unwrap();
    let first = row.split(',').next().unwrap();
    for i in 0..250 {
        long.push_str(&row.replacen(first, &format!("{first}-{i}"), 1));
        long.push('\n');
    }
    long.push_str(&row.replacen(first, "LAST", 1).replace(",80,79.2,", ",lots,79.2,"));
    long.push('\n');
    let req =
        json!({ "request": { "content": long, "format": "auto", "vendor": "", "currency": "USD" }, "save": false });
    let o = json(&d.app.call_json("/api/quotes/import", &req, Some(&d.buyer_a)).await.body);
    assert_eq!(o["rows"].as_array().unwrap().len(), 200, "the first 200 rows");
    assert_eq!(o["more_rows"], 51);
    assert_eq!(o["bad"], 1);
    assert!(
        o["problems"].as_array().unwrap().iter().any(|p| p["line"] == 252),
        "{}",
        o["problems"]
    );
}

#[tokio::test]
async fn a_skypilot_catalog_asks_for_its_validity_date_before_it_is_saved() {
    let d = desk().await;
    let req = |valid_until: &str, save: bool| json!({ "request": { "content": LAMBDA, "format": "auto", "vendor": "Lambda", "currency": "USD", "valid_until": valid_until }, "save": save });
    let ask = |valid_until: &'static str, save: bool| {
        let body = req(valid_until, save);
        let app = &d.app;
        let cookie = &d.buyer_a;
        async move { json(&app.call_json("/api/quotes/import", &body, Some(cookie)).await.body) }
    };

    let check = ask("", false).await;
    assert_eq!(check["asks_valid_until"], true, "{check}");
    assert!(
        check["valid_until_problem"].is_null(),
        "not an error before saving: {check}"
    );
    assert_eq!((check["ready"].as_u64(), check["bad"].as_u64()), (Some(8), Some(0)));
    assert_eq!(
        cell(preview_row(&check, 2), "valid_until")["text"],
        "",
        "no made-up date"
    );

    let refused = ask("", true).await;
    assert!(refused["saved"].is_null(), "{refused}");
    assert!(
        refused["valid_until_problem"].as_str().unwrap().contains("valid until"),
        "{refused}"
    );
    let unreadable = ask("next month", true).await;
    assert!(
        unreadable["valid_until_problem"]
            .as_str()
            .unwrap()
            .contains("YYYY-MM-DD"),
        "{unreadable}"
    );
    let past = ask("2001-01-31", true).await;
    assert!(
        past["valid_until_problem"].as_str().unwrap().contains("before today"),
        "{past}"
    );
    assert!(past["saved"].is_null());
    assert_eq!(count(&d).await, 0, "nothing saved without a usable date");
    // An API client that predates the field gets the same answer, not a 400.
    let old = json!({ "request": { "content": LAMBDA, "format": "auto", "vendor": "Lambda", "currency": "USD" }, "save": true });
    let old = json(&d.app.call_json("/api/quotes/import", &old, Some(&d.buyer_a)).await.body);
    assert!(
        old["saved"].is_null() && old["valid_until_problem"].is_string(),
        "{old}"
    );

    let done = ask("2099-06-30", true).await;
    assert_eq!(done["saved"], 8, "{done}");
    assert_eq!(count(&d).await, 8);
    let csv = d.app.get("/quotes/export.csv", Some(&d.buyer_a), None).await.body;
    assert!(csv.lines().skip(1).all(|l| l.contains(",2099-06-30")), "{csv}");
}

#[tokio::test]
async fn oversized_imports_get_413_and_the_list_filters() {
    let d = desk().await;
    let huge = "x".repeat(14 * 1024 * 1024);
    let res = d.app.call_json("/api/quotes/import", &json!({ "request": { "content": huge, "format": "auto", "vendor": "", "currency": "USD" }, "save": false }), Some(&d.buyer_a)).await;
    assert_eq!(res.status, StatusCode::PAYLOAD_TOO_LARGE);

    let req = json!({ "request": { "content": LAMBDA, "format": "skypilot", "vendor": "Lambda", "currency": "USD", "valid_until": "2099-12-31" }, "save": true });
    let done = json(&d.app.call_json("/api/quotes/import", &req, Some(&d.buyer_a)).await.body);
    let saved = done["saved"].as_u64().unwrap();
    let all = json(
        &d.app
            .call_json("/api/quotes/list", &json!({ "query": {} }), Some(&d.engineer_a))
            .await
            .body,
    );
    assert_eq!(all["total"].as_u64(), Some(saved));
    let h100 = json(
        &d.app
            .call_json(
                "/api/quotes/list",
                &json!({ "query": { "gpu": "h100", "sort": "price_desc" } }),
                Some(&d.engineer_a),
            )
            .await
            .body,
    );
    let rows = h100["rows"].as_array().unwrap();
    assert!(
        !rows.is_empty() && rows.iter().all(|r| r["gpu_model"].as_str().unwrap().contains("H100")),
        "{h100}"
    );
    let bad = d
        .app
        .call_json(
            "/api/quotes/list",
            &json!({ "query": { "vram": "lots" } }),
            Some(&d.engineer_a),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);

    // The CSV export exports what the list shows: the same filter, every page.
    let export = d
        .app
        .get("/quotes/export.csv?gpu=h100&sort=price_desc", Some(&d.engineer_a), None)
        .await;
    assert_eq!(export.status, StatusCode::OK);
    let lines: Vec<&str> = export.body.lines().skip(1).collect();
    assert_eq!(lines.len() as u64, h100["total"].as_u64().unwrap(), "{}", export.body);
    assert!(lines.iter().all(|l| l.contains("H100")), "{}", export.body);
    let everything = d.app.get("/quotes/export.csv", Some(&d.engineer_a), None).await;
    assert_eq!(
        everything.body.lines().count() as u64,
        saved + 1,
        "header and every current quote"
    );
    let bad_export = d
        .app
        .get("/quotes/export.csv?vram=lots", Some(&d.engineer_a), None)
        .await;
    assert_eq!(bad_export.status, StatusCode::UNPROCESSABLE_ENTITY);
}

fn multipart(revision: &str, name: &str, bytes: &[u8]) -> (String, Vec<u8>) {
    let boundary = "----nodeledgerTestBoundary";
    let mut body = Vec::new();
    body.extend_from_slice(
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"revision\"\r\n\r\n{revision}\r\n").as_bytes(),
    );
    body.extend_from_slice(
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\nContent-Type: application/pdf\r\n\r\n").as_bytes(),
    );
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

async fn upload(d: &Desk, cookie: &str, quote_id: i64, name: &str, bytes: &[u8]) -> common::Answer {
    upload_to(d, cookie, quote_id, "1", name, bytes).await
}

async fn upload_to(d: &Desk, cookie: &str, quote_id: i64, revision: &str, name: &str, bytes: &[u8]) -> common::Answer {
    let (content_type, body) = multipart(revision, name, bytes);
    let req = http::Request::post(format!("/quotes/{quote_id}/documents"))
        .header("content-type", content_type)
        .header("content-length", body.len())
        .header("origin", common::ORIGIN)
        .header("cookie", cookie)
        .body(axum::body::Body::from(body))
        .unwrap();
    d.app.send(req).await
}

#[tokio::test]
async fn vendor_documents_are_checked_by_content_and_served_as_downloads() {
    let d = desk().await;
    let res = save(&d, &d.buyer_a, None, quote_form("DOC-1", "48", "1")).await;
    let id = json(&res.body)["quote_id"].as_i64().unwrap();
    let pdf = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n";

    let ok = upload(&d, &d.buyer_a, id, "../报价单.pdf", pdf).await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER, "{}", ok.body);
    assert_eq!(ok.headers["location"], format!("/quotes/{id}?rev=1#documents"));
    let again = upload(&d, &d.buyer_a, id, "copy.pdf", pdf).await;
    assert!(
        again.headers["location"]
            .to_str()
            .unwrap()
            .contains("doc_error=duplicate")
    );
    let html = upload(
        &d,
        &d.buyer_a,
        id,
        "evil.pdf",
        b"<html><script>alert(1)</script></html>",
    )
    .await;
    assert!(
        html.headers["location"].to_str().unwrap().contains("doc_error=kind"),
        "judged by content, not name"
    );
    let engineer = upload(&d, &d.engineer_a, id, "x.pdf", pdf).await;
    assert_eq!(engineer.status, StatusCode::FORBIDDEN);
    let manager = upload(&d, &d.manager_a, id, "x.pdf", pdf).await;
    assert_eq!(manager.status, StatusCode::FORBIDDEN);
    let no_such_revision = upload_to(&d, &d.buyer_a, id, "9", "other.pdf", b"%PDF-1.7\nother\n%%EOF\n").await;
    assert_eq!(
        no_such_revision.status,
        StatusCode::NOT_FOUND,
        "not quietly attached to another revision"
    );
    let big = upload(&d, &d.buyer_a, id, "big.pdf", &vec![b'%'; 11 * 1024 * 1024]).await;
    assert_eq!(big.status, StatusCode::PAYLOAD_TOO_LARGE);

    let detail = json(
        &d.app
            .call(
                "/api/quotes/detail",
                &[("quote_id", &id.to_string())],
                Some(&d.engineer_a),
            )
            .await
            .body,
    );
    let docs = detail["documents"].as_array().unwrap();
    assert_eq!(docs.len(), 1, "{detail}");
    assert_eq!(docs[0]["file_name"], "报价单.pdf");
    assert_eq!(docs[0]["sha256"].as_str().unwrap().len(), 64);
    let doc_id = docs[0]["id"].as_i64().unwrap();

    let file = d
        .app
        .get(&format!("/documents/{doc_id}"), Some(&d.engineer_a), None)
        .await;
    assert_eq!(file.status, StatusCode::OK);
    assert_eq!(file.headers["content-type"], "application/pdf");
    assert!(
        file.headers["content-disposition"]
            .to_str()
            .unwrap()
            .starts_with("attachment;")
    );
    assert!(
        file.headers["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("sandbox")
    );
    assert_eq!(file.body.as_bytes(), pdf);
    let other_team = d.app.get(&format!("/documents/{doc_id}"), Some(&d.buyer_b), None).await;
    assert_eq!(other_team.status, StatusCode::NOT_FOUND);
    let other_upload = upload(&d, &d.buyer_b, id, "x.pdf", pdf).await;
    assert_eq!(other_upload.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn comparing_against_a_workload_names_each_requirement() {
    let d = desk().await;
    let workload = [
        ("name", "LoRA fine-tune"),
        ("kind", "training"),
        ("model", "Qwen2-7B"),
        ("precision", "bf16"),
        ("vram_peak_gib", "42"),
        ("vram_peak_source", "measured"),
        ("concurrency", "1"),
        ("gpus_needed", "2"),
        ("run_hours", "72"),
        ("data_gb", "120"),
        ("checkpoint_gb", "60"),
        ("headroom_pct", "20"),
    ];
    let created = d.app.call("/api/workloads/create", &workload, Some(&d.buyer_a)).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let workload_id: i64 = created
        .body
        .trim()
        .parse()
        .unwrap_or_else(|_| json(&created.body)["id"].as_i64().unwrap());
    // The workload needs 42 GiB × 1.2 = 50.4 GiB per GPU: 48 GiB without pooling fails,
    // 80 GiB passes, 48 GiB with pooling not stated is a question for the vendor.
    let small_form = with(quote_form("SMALL", "48", "1"), &[("spec.memory_pooling", "no")]);
    let small = json(&save(&d, &d.buyer_a, None, small_form).await.body)["quote_id"]
        .as_i64()
        .unwrap();
    let big = json(&save(&d, &d.buyer_a, None, quote_form("BIG", "80", "2")).await.body)["quote_id"]
        .as_i64()
        .unwrap();
    let res = d
        .app
        .call_json(
            "/api/quotes/compare",
            &json!({ "ids": [small, big], "workload_id": workload_id }),
            Some(&d.engineer_a),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let c = json(&res.body);
    assert_eq!(c["check"][0], "LoRA fine-tune");
    let vram = |i: usize| {
        c["check"][1][i]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["label"] == "VRAM with headroom")
            .cloned()
            .unwrap()
    };
    assert_eq!(vram(0)["status"], "fail", "{c}");
    assert_eq!(vram(1)["status"], "pass", "{c}");
    assert!(vram(0)["detail"].as_str().unwrap().contains("50.4 GiB"), "{c}");
    assert_eq!(c["workloads"][0][1], "LoRA fine-tune");
    let unstated = json(
        &save(&d, &d.buyer_a, None, quote_form("SMALL-UNSAID", "48", "1"))
            .await
            .body,
    )["quote_id"]
        .as_i64()
        .unwrap();
    let c = compared(&d, &[unstated, big], workload_id).await;
    let vram = |i: usize| {
        c["check"][1][i]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["label"] == "VRAM with headroom")
            .cloned()
            .unwrap()
    };
    assert_eq!(vram(0)["status"], "unknown", "{c}");
    assert!(
        c["questions"][0]
            .as_array()
            .unwrap()
            .contains(&json!("Ask the vendor: is GPU memory pooled across the node's GPUs?")),
        "{c}"
    );
    // Supply not stated is asked, never assumed: how many nodes at once, and how soon.
    let questions = c["questions"][0].as_array().unwrap();
    for q in [
        "Ask the vendor: how many of these nodes can you provide at once?",
        "Ask the vendor: how long from the order until the nodes are ready?",
    ] {
        assert!(questions.contains(&json!(q)), "{q} in {c}");
    }
    let supplied = with(
        quote_form("SMALL-SUPPLIED", "48", "1"),
        &[("nodes_available", "4"), ("lead_time_hours", "3 d")],
    );
    let supplied = json(&save(&d, &d.buyer_a, None, supplied).await.body)["quote_id"]
        .as_i64()
        .unwrap();
    let c = compared(&d, &[supplied], workload_id).await;
    assert!(
        !c["questions"][0].to_string().contains("until the nodes are ready")
            && !c["questions"][0].to_string().contains("at once"),
        "{c}"
    );
    let csv = d.app.get("/quotes/export.csv", Some(&d.buyer_a), None).await.body;
    let row = csv.lines().find(|l| l.contains("SMALL-SUPPLIED")).unwrap();
    assert!(row.contains(",4,72,"), "lead time stored in hours: {row}");
    let other = d
        .app
        .call_json(
            "/api/quotes/compare",
            &json!({ "ids": [small, big], "workload_id": workload_id }),
            Some(&d.buyer_b),
        )
        .await;
    assert_eq!(other.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn compared_prices_in_another_currency_show_the_base_currency_with_rate_and_date() {
    let d = desk().await;
    let rate = [("from", "USD"), ("to", "CNY"), ("rate", "7.2"), ("date", "2026-11-20")];
    let added = d.app.call("/api/rates/add", &rate, Some(&d.buyer_a)).await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.body);
    let cny = json(&save(&d, &d.buyer_a, None, quote_form("CNY-1", "48", "5")).await.body)["quote_id"]
        .as_i64()
        .unwrap();
    let mut usd_form = quote_form("USD-1", "48", "1.50");
    usd_form.iter_mut().find(|(k, _)| k == "fields[currency]").unwrap().1 = "USD".into();
    let usd = json(&save(&d, &d.buyer_a, None, usd_form).await.body)["quote_id"]
        .as_i64()
        .unwrap();
    let c = json(
        &d.app
            .call_json("/api/quotes/compare", &json!({ "ids": [cny, usd] }), Some(&d.buyer_a))
            .await
            .body,
    );
    assert!(
        c["quotes"][0]["converted"].is_null(),
        "already in the base currency: {c}"
    );
    // 2 GPUs × $1.50 = $3.00 per node-hour = ¥21.60 at 7.2.
    assert_eq!(
        c["quotes"][1]["converted"], "≈ ¥21.60 (1 USD = 7.20 CNY, 2026-11-20)",
        "{c}"
    );
}

#[tokio::test]
async fn an_administrator_in_the_team_keeps_quotes_too() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "A").await;
    let admin_id: i64 = sqlx::query_scalar("SELECT id FROM users WHERE email = 'admin@example.com'")
        .fetch_one(&app.db)
        .await
        .unwrap();
    let outside = app.call("/api/quotes/save", &[("quote_id", "")], Some(&admin)).await;
    assert!(outside.status.is_client_error(), "not in any team yet");
    app.set_role(&admin, team, admin_id, "manager").await;
    let d = Desk {
        app,
        buyer_a: admin.clone(),
        engineer_a: admin.clone(),
        manager_a: admin.clone(),
        buyer_b: admin,
    };
    let res = save(&d, &d.buyer_a, None, quote_form("ADMIN-1", "48", "1")).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
}

/// A training workload on `gpus` GPUs of 30 GiB peak (36 GiB with 20 % headroom); its id.
async fn training_workload(d: &Desk, name: &str, gpus: &str) -> i64 {
    let workload = [
        ("name", name),
        ("kind", "training"),
        ("vram_peak_gib", "30"),
        ("vram_peak_source", "measured"),
        ("concurrency", "1"),
        ("gpus_needed", gpus),
        ("run_hours", "72"),
        ("data_gb", "10"),
        ("checkpoint_gb", "10"),
        ("headroom_pct", "20"),
    ];
    let created = d.app.call("/api/workloads/create", &workload, Some(&d.buyer_a)).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    created
        .body
        .trim()
        .parse()
        .unwrap_or_else(|_| json(&created.body)["id"].as_i64().unwrap())
}

fn with(mut form: Vec<(String, String)>, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    for (k, v) in extra {
        let key = format!("fields[{k}]");
        form.retain(|(f, _)| *f != key);
        form.push((key, v.to_string()));
    }
    form
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn a_quote_saved_without_stating_rdma_shows_not_stated_and_does_not_fail_an_rdma_requirement() {
    let d = desk().await;
    let disks = [
        ("spec.network_gbps", "200"),
        ("spec.system_disk_gb", "100"),
        ("spec.data_disk_gb", "500"),
        ("spec.interconnect", "pcie"),
    ];
    let unstated = with(
        quote_form("NO-RDMA-SAID", "48", "6"),
        &[disks.as_slice(), &[("spec.rdma", "")]].concat(),
    );
    let saved = save(&d, &d.buyer_a, None, unstated).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    let id = json(&saved.body)["quote_id"].as_i64().unwrap();
    let no = json(
        &save(
            &d,
            &d.buyer_a,
            None,
            with(
                quote_form("RDMA-NO", "48", "6"),
                &[disks.as_slice(), &[("spec.rdma", "no")]].concat(),
            ),
        )
        .await
        .body,
    )["quote_id"]
        .as_i64()
        .unwrap();
    let yes = json(
        &save(
            &d,
            &d.buyer_a,
            None,
            with(
                quote_form("RDMA-YES", "48", "6"),
                &[disks.as_slice(), &[("spec.rdma", "yes")]].concat(),
            ),
        )
        .await
        .body,
    )["quote_id"]
        .as_i64()
        .unwrap();

    // Stored as "not stated" (null), shown as "not stated", exported as an empty cell.
    let body: String = sqlx::query_scalar("SELECT body FROM quote_revisions WHERE quote_id = ?")
        .bind(id)
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    let stored = json(&body);
    assert_eq!(
        (&stored["spec"]["rdma"], &stored["spec"]["memory_pooling"]),
        (&Value::Null, &Value::Null),
        "{body}"
    );
    let detail = json(
        &d.app
            .call(
                "/api/quotes/detail",
                &[("quote_id", &id.to_string())],
                Some(&d.engineer_a),
            )
            .await
            .body,
    );
    assert_eq!(detail["values"]["spec.rdma"], "", "{detail}");
    let page = d
        .app
        .get(&format!("/quotes/{id}"), Some(&d.engineer_a), Some("en"))
        .await;
    assert!(page.body.contains("<dt>RDMA</dt><dd>not stated</dd>"), "{}", page.body);
    let no_page = d
        .app
        .get(&format!("/quotes/{no}"), Some(&d.engineer_a), Some("en"))
        .await;
    assert!(
        no_page.body.contains("<dt>RDMA</dt><dd>no</dd>"),
        "a stated no stays no"
    );
    let csv = d.app.get("/quotes/export.csv", Some(&d.engineer_a), None).await.body;
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let rdma = header.iter().position(|h| *h == "spec.rdma").unwrap();
    let cell = |reference: &str| {
        csv.lines()
            .find(|l| l.contains(reference))
            .unwrap()
            .split(',')
            .nth(rdma)
            .unwrap()
            .to_string()
    };
    assert_eq!(
        (cell("NO-RDMA-SAID"), cell("RDMA-NO"), cell("RDMA-YES")),
        (String::new(), "false".into(), "true".into())
    );

    // Four GPUs on 2-GPU nodes: two nodes, so RDMA is checked.
    let workload = training_workload(&d, "two-node fine-tune", "4").await;
    let c = json(
        &d.app
            .call_json(
                "/api/quotes/compare",
                &json!({ "ids": [id, no, yes], "workload_id": workload }),
                Some(&d.engineer_a),
            )
            .await
            .body,
    );
    let line = |i: usize, label: &str| {
        c["check"][1][i]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["label"] == label)
            .cloned()
            .unwrap_or_else(|| panic!("{label}: {c}"))
    };
    assert_eq!(line(0, "RDMA between nodes")["status"], "unknown", "{c}");
    assert!(
        line(0, "RDMA between nodes")["detail"]
            .as_str()
            .unwrap()
            .contains("Ask the vendor: does the node support RDMA?"),
        "{c}"
    );
    assert_eq!(line(1, "RDMA between nodes")["status"], "warning", "{c}");
    assert_eq!(line(2, "RDMA between nodes")["status"], "pass", "{c}");
    for i in 0..3 {
        let fails: Vec<&Value> = c["check"][1][i]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["status"] == "fail")
            .collect();
        assert!(fails.is_empty(), "quote {i}: {fails:?}");
    }
    // Disk, snapshot and traffic prices were left blank: not stated, so questions as well.
    let prices = [
        "Ask the vendor: what does disk cost per GB and month?",
        "Ask the vendor: what do snapshots cost per GB and month?",
        "Ask the vendor: what does outbound traffic cost per GB?",
        "Ask the vendor: what does inbound traffic cost per GB?",
    ];
    // Nor do they say how many nodes they can provide or how soon: asked after the prices.
    let supply = [
        "Ask the vendor: how many of these nodes can you provide at once?",
        "Ask the vendor: how long from the order until the nodes are ready?",
    ];
    let mut first = vec!["Ask the vendor: does the node support RDMA?"];
    first.extend(prices);
    first.extend(supply);
    assert_eq!(c["questions"][0], json!(first), "{c}");
    let mut third = prices.to_vec();
    third.extend(supply);
    assert_eq!(c["questions"][2], json!(third), "{c}");

    // Editing the quote keeps "not stated": the form starts empty, the new revision stores null.
    let form = json(
        &d.app
            .call("/api/quotes/form", &[("quote_id", &id.to_string())], Some(&d.buyer_a))
            .await
            .body,
    );
    assert_eq!(form["values"]["spec.rdma"], "", "{form}");
    assert_eq!(form["values"]["spec.memory_pooling"], "", "{form}");
    let values: Vec<(String, String)> = form["values"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (format!("fields[{k}]"), v.as_str().unwrap().to_string()))
        .collect();
    let edited = save(
        &d,
        &d.buyer_a,
        Some(id),
        with(values, &[("price.on_demand_hourly", "5.5")]),
    )
    .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.body);
    let body: String = sqlx::query_scalar("SELECT body FROM quote_revisions WHERE quote_id = ? AND revision = 2")
        .bind(id)
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    assert_eq!(json(&body)["spec"]["rdma"], Value::Null, "{body}");
}

#[tokio::test]
async fn a_mig_slice_is_checked_with_the_slices_memory_not_the_parent_gpus() {
    let d = desk().await;
    let slice = with(
        quote_form("A100-MIG", "80", "3"),
        &[
            ("spec.gpu_model", "A100 80GB"),
            ("spec.gpus_per_node", "1"),
            ("spec.sharing", "mig:1g.10gb"),
        ],
    );
    let saved = save(&d, &d.buyer_a, None, slice).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    let mig = json(&saved.body)["quote_id"].as_i64().unwrap();
    let whole = json(
        &save(&d, &d.buyer_a, None, quote_form("L40S-WHOLE", "48", "6"))
            .await
            .body,
    )["quote_id"]
        .as_i64()
        .unwrap();
    let workload = training_workload(&d, "one-GPU fine-tune", "1").await;
    let c = json(
        &d.app
            .call_json(
                "/api/quotes/compare",
                &json!({ "ids": [mig, whole], "workload_id": workload }),
                Some(&d.engineer_a),
            )
            .await
            .body,
    );
    let line = |i: usize, label: &str| {
        c["check"][1][i]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["label"] == label)
            .cloned()
            .unwrap_or_else(|| panic!("{label}: {c}"))
    };
    // 30 GiB × 1.2 = 36 GiB: the 10 GiB slice fails, never compared with the parent's 80 GiB.
    assert_eq!(line(0, "VRAM with headroom")["status"], "fail", "{c}");
    assert!(
        line(0, "VRAM with headroom")["detail"]
            .as_str()
            .unwrap()
            .contains("offers 10 GiB"),
        "{c}"
    );
    assert_eq!(line(1, "VRAM with headroom")["status"], "pass", "{c}");
    // Training on a slice: better suited to exclusive GPUs — a warning, not a failure.
    assert_eq!(line(0, "Whole GPUs")["status"], "warning", "{c}");
    assert!(
        line(0, "Whole GPUs")["detail"]
            .as_str()
            .unwrap()
            .contains("better suited"),
        "{c}"
    );
}

/// The quote CSV parser's fuzz corpus (vendor catalogues, GBK, missing columns, a bad row)
/// and its mutations driven through the import route, previewed and saved: every answer is a
/// JSON answer the page can show, never a 5xx.
#[tokio::test]
async fn the_quote_csv_fuzz_corpus_through_the_import_route_never_answers_5xx() {
    let d = desk().await;
    let route = ("/api/quotes/import", &["quote_csv"][..]);
    let sent = crate::bills::corpora_never_5xx(&d.app, &d.buyer_a, route, |_, content| {
        [false, true]
            .map(|save| json!({ "request": { "content": content, "format": "auto", "vendor": "Fuzz", "currency": "USD" }, "save": save }))
            .into()
    })
    .await;
    assert!(sent >= 90, "{sent}");
}
