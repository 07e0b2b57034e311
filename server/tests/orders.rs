//! Orders through the router: the lifecycle enforced on the server (roles, completeness, quote
//! and run, self-approval, password, locking), the audit chain, the triggers, export.

mod common;

use app::domain::checklist::{Expert, WorkloadKind, applicable_items};
use common::{PASSWORD, TestApp};
use http::StatusCode;
use serde_json::{Value, json};

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

struct Desk {
    app: TestApp,
    pam: String,
    eve: String,
    max: String,
    mia: String,
    bob: String,
    quote: i64,
    run: i64,
    workload: i64,
}

async fn desk() -> Desk {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let a = app.create_team(&admin, "A").await;
    let b = app.create_team(&admin, "B").await;
    for (email, team, role) in [("pam", a, "procurement"), ("eve", a, "engineer"), ("max", a, "manager"), ("mia", a, "manager"), ("bob", b, "manager")] {
        app.create_member(&admin, &format!("{email}@example.com"), team, role).await;
    }
    let mut cookies = Vec::new();
    for who in ["pam", "eve", "max", "mia", "bob"] {
        cookies.push(app.login(&format!("{who}@example.com"), PASSWORD).await);
    }
    let [pam, eve, max, mia, bob]: [String; 5] = cookies.try_into().unwrap();
    let workload = [
        ("name", "Batch job"), ("kind", "batch"), ("model", ""), ("precision", ""), ("vram_peak_gib", "20"),
        ("vram_peak_source", "measured"), ("concurrency", "1"), ("gpus_needed", "1"), ("run_hours", "10"),
        ("total_work_amount", ""), ("total_work_unit", ""), ("data_gb", "0"), ("checkpoint_gb", "0"), ("headroom_pct", "20"),
    ];
    let res = app.call("/api/workloads/create", &workload, Some(&pam)).await;
    let workload: i64 = res.body.trim().parse().unwrap();
    let fields: Vec<(String, String)> = [
        ("vendor", "Acme GPU"), ("reference", "L4-1"), ("received_on", "2026-11-20"), ("valid_until", "2099-12-31"),
        ("spec.gpu_model", "L4 24GB"), ("spec.gpus_per_node", "1"), ("spec.vram_gib", "24"), ("spec.sharing", "exclusive"),
        ("currency", "CNY"), ("price.basis", "per_node"), ("price.on_demand_hourly", "4.00"), ("price.billing_increment", "hour"),
        ("price.stopped_bills_compute", "no"),
    ]
    .into_iter()
    .map(|(k, v)| (format!("fields[{k}]"), v.to_string()))
    .chain([("quote_id".to_string(), String::new())])
    .collect();
    let refs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let quote = json(&app.call("/api/quotes/save", &refs, Some(&pam)).await.body)["quote_id"].as_i64().unwrap();
    let token = json(&app.call("/api/tokens/create", &[("name", "ci")], Some(&eve)).await.body).as_str().unwrap().to_string();
    let run_json = json!({ "schema": "nodeledger.run/v1", "source_format": "canonical", "node": { "gpu_name": "NVIDIA L4", "gpu_count": 1 },
        "throughput": { "value": 50.0, "unit": "samples/s" }, "duration_s": 900.0, "gpu_util_mean_pct": 90.0,
        "vram_peak_mib": 16000.0, "throttle": { "active_s": 0.0 } }).to_string();
    let (q, w) = (quote.to_string(), workload.to_string());
    let res = app.multipart("/api/v1/runs", &[("result", Some("r.json"), run_json.as_bytes()), ("quote", None, q.as_bytes()), ("workload", None, w.as_bytes())], None, Some(&token)).await;
    assert_eq!(json(&res.body)["status"], "valid", "{}", res.body);
    let run = json(&res.body)["id"].as_i64().unwrap();
    Desk { app, pam, eve, max, mia, bob, quote, run, workload }
}

impl Desk {
    async fn answer(&self, cookie: &str, order: i64, item: &str, status: &str, note: &str) -> common::Answer {
        let o = order.to_string();
        let form = [("order_id", o.as_str()), ("item_id", item), ("status", status), ("status_note", note), ("answer", "checked"), ("evidence_run", ""), ("evidence_note", "")];
        self.app.call("/api/orders/answer", &form, Some(cookie)).await
    }

    async fn decide(&self, cookie: &str, order: i64, decision: &str, password: &str, comment: &str) -> common::Answer {
        let o = order.to_string();
        self.app.call("/api/orders/decide", &[("order_id", &o), ("decision", decision), ("password", password), ("comment", comment)], Some(cookie)).await
    }

    async fn chain(&self) -> app::services::audit::AuditStatus {
        app::services::audit::verify(&self.app.db).await.unwrap().expect("the chain verifies")
    }
}

#[tokio::test]
async fn an_order_goes_from_draft_to_approved_only_by_the_rules() {
    let d = desk().await;
    let w = d.workload.to_string();
    assert_eq!(d.app.call("/api/orders/create", &[("title", "L4 for batch"), ("workload_id", &w)], Some(&d.eve)).await.status, StatusCode::FORBIDDEN);
    let res = d.app.call("/api/orders/create", &[("title", "L4 for batch"), ("workload_id", &w)], Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let order: i64 = res.body.trim().parse().unwrap();
    let o = order.to_string();

    // Incomplete: refused, and the page lists what is missing.
    let res = d.app.call("/api/orders/submit", &[("order_id", &o)], Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let view = json(&d.app.call("/api/orders/get", &[("id", &o)], Some(&d.pam)).await.body);
    let blockers = view["blockers"].to_string();
    assert!(blockers.contains("Choose the quote to rent") && blockers.contains("not answered") && blockers.contains("No valid run"), "{blockers}");

    let q = d.quote.to_string();
    let r = d.run.to_string();
    let select = [("order_id", o.as_str()), ("quote_id", q.as_str()), ("considered[]", q.as_str()), ("runs[]", r.as_str()), ("waiver", "")];
    assert_eq!(d.app.call("/api/orders/select", &select, Some(&d.eve)).await.status, StatusCode::FORBIDDEN, "engineers do not choose quotes");
    let res = d.app.call("/api/orders/select", &select, Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);

    // Evidence: a field of the chosen quote, the vendor's document, the cost comparison.
    let pdf: &[u8] = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n";
    let up = d.app.multipart(&format!("/quotes/{}/documents", d.quote), &[("revision", None, b"1"), ("file", Some("quote.pdf"), pdf)], Some(&d.pam), None).await;
    assert!(up.status.is_redirection(), "{} {}", up.status, up.body);
    let doc: i64 = sqlx::query_scalar("SELECT id FROM quote_documents").fetch_one(&d.app.db).await.unwrap();
    let first = applicable_items(WorkloadKind::Batch, false).into_iter().find(|i| i.expert == Expert::Procurement).unwrap();
    let doc_s = doc.to_string();
    let form = [("order_id", o.as_str()), ("item_id", first.id), ("status", "confirmed"), ("status_note", ""), ("answer", "as quoted"),
        ("evidence_run", ""), ("evidence_note", ""), ("evidence_quote_field", "spec.gpu_model"), ("evidence_file", doc_s.as_str()), ("evidence_tco", "on")];
    let res = d.app.call("/api/orders/answer", &form, Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let view = json(&d.app.call("/api/orders/get", &[("id", &o)], Some(&d.pam)).await.body);
    let item = view["sections"].as_array().unwrap().iter().flat_map(|s| s["items"].as_array().unwrap().clone()).find(|i| i["id"] == first.id).unwrap();
    let evidence = item["evidence"].to_string();
    assert!(evidence.contains("quote.pdf") && evidence.contains(&format!("/documents/{doc}")) && evidence.contains("/tco?workload="), "{evidence}");
    let bad = [("order_id", o.as_str()), ("item_id", first.id), ("status", "confirmed"), ("evidence_quote_field", "spec.nonsense")];
    assert_eq!(d.app.call("/api/orders/answer", &bad, Some(&d.pam)).await.status, StatusCode::UNPROCESSABLE_ENTITY);

    // Each side answers its own items; not applicable needs a reason.
    let items = applicable_items(WorkloadKind::Batch, false);
    let engineer_item = items.iter().find(|i| i.expert == Expert::Engineer).unwrap();
    let buyer_item = items.iter().find(|i| i.expert == Expert::Procurement).unwrap();
    let res = d.answer(&d.eve, order, buyer_item.id, "confirmed", "").await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.body);
    assert!(res.body.contains("orders.r_not_your_item_procurement"), "{}", res.body);
    assert_eq!(d.answer(&d.max, order, engineer_item.id, "confirmed", "").await.status, StatusCode::FORBIDDEN, "managers review, they do not answer");
    assert_eq!(d.answer(&d.eve, order, engineer_item.id, "not_applicable", "").await.status, StatusCode::OK);
    for item in &items {
        let who = if item.expert == Expert::Engineer { &d.eve } else { &d.pam };
        if item.id != engineer_item.id {
            let res = d.answer(who, order, item.id, "confirmed", "").await;
            assert_eq!(res.status, StatusCode::OK, "{}: {}", item.id, res.body);
        }
    }
    if engineer_item.required {
        assert_eq!(d.app.call("/api/orders/submit", &[("order_id", &o)], Some(&d.pam)).await.status, StatusCode::UNPROCESSABLE_ENTITY, "a reasonless N/A blocks");
    }
    assert_eq!(d.answer(&d.eve, order, engineer_item.id, "not_applicable", "single-node batch").await.status, StatusCode::OK);
    let res = d.app.call("/api/orders/submit", &[("order_id", &o)], Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);

    // Submitted: locked.
    let res = d.answer(&d.eve, order, engineer_item.id, "confirmed", "").await;
    assert_eq!(res.status, StatusCode::CONFLICT, "{}", res.body);

    // Sign-off: a manager of the team, not the submitter, with the right password.
    assert_eq!(d.decide(&d.pam, order, "approve", PASSWORD, "").await.status, StatusCode::FORBIDDEN, "procurement cannot approve");
    assert_eq!(d.decide(&d.bob, order, "approve", PASSWORD, "").await.status, StatusCode::NOT_FOUND, "another team's manager");
    let wrong = d.decide(&d.max, order, "approve", "not my password at all", "").await;
    assert!(wrong.status == StatusCode::FORBIDDEN && wrong.body.contains("orders.r_wrong_password"), "{}", wrong.body);
    assert_eq!(d.decide(&d.max, order, "reject", PASSWORD, " ").await.status, StatusCode::UNPROCESSABLE_ENTITY, "a rejection needs a comment");
    let res = d.decide(&d.max, order, "approve", PASSWORD, "Within budget, run valid").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(d.decide(&d.mia, order, "reject", PASSWORD, "late").await.status, StatusCode::CONFLICT, "already decided");

    let view = json(&d.app.call("/api/orders/get", &[("id", &o)], Some(&d.mia)).await.body);
    assert_eq!(view["state"], "approved");
    assert_eq!(view["tco_frozen"], true);
    let status = d.chain().await;
    assert_eq!(view["head_hash"], status.head_hash);
    assert_eq!(status.approved_revisions, 1);
    let pinned = view["content_hash"].as_str().unwrap().to_string();
    let history = view["history"].as_array().unwrap();
    assert_eq!(history.last().unwrap()["action"], "Approved");

    // The database refuses edits of the approved revision and of audit events.
    let edit = sqlx::query("UPDATE order_revisions SET content = '{}' WHERE order_id = ?").bind(order).execute(&d.app.db).await;
    assert!(edit.unwrap_err().to_string().contains("locked"));
    let edit = sqlx::query("UPDATE audit_events SET data = '{}' WHERE seq = 1").execute(&d.app.db).await;
    assert!(edit.unwrap_err().to_string().contains("append-only"));
    assert!(sqlx::query("DELETE FROM audit_events").execute(&d.app.db).await.is_err());

    // Export: every revision and event with hashes.
    let export = json(&d.app.get(&format!("/orders/{order}/export.json"), Some(&d.max), None).await.body);
    assert_eq!(export["revisions"][0]["content_hash"], pinned.as_str());
    assert!(export["events"].as_array().unwrap().iter().all(|e| e["hash"].as_str().is_some_and(|h| h.len() == 64)));
    assert_eq!(d.app.get(&format!("/orders/{order}/export.json"), Some(&d.bob), None).await.status, StatusCode::NOT_FOUND);
    let checked = app::services::audit::check_export(&d.app.db, &export).await.unwrap();
    assert!(checked.is_ok(), "the downloaded record checks against the database: {checked:?}");

    // The printable page shows the head hash; a reopen starts revision 2, revision 1 stays.
    let page = d.app.get(&format!("/orders/{order}"), Some(&d.max), None).await;
    assert!(page.body.contains(&status.head_hash) && page.body.contains("Approved"), "{}", page.body);
    assert_eq!(d.app.call("/api/orders/reopen", &[("order_id", &o)], Some(&d.eve)).await.status, StatusCode::FORBIDDEN);
    assert_eq!(d.app.call("/api/orders/reopen", &[("order_id", &o)], Some(&d.pam)).await.status, StatusCode::OK);
    let view = json(&d.app.call("/api/orders/get", &[("id", &o)], Some(&d.pam)).await.body);
    assert_eq!((view["revision"].as_i64(), view["state"].as_str()), (Some(2), Some("draft")));
    let first = json(&d.app.call("/api/orders/get", &[("id", &o), ("revision", "1")], Some(&d.pam)).await.body);
    assert_eq!((first["state"].as_str(), first["content_hash"].as_str()), (Some("approved"), Some(pinned.as_str())));
    assert_eq!(d.chain().await.events, status.events + 1);
}

#[tokio::test]
async fn the_submitter_cannot_approve_and_tampering_is_caught() {
    let d = desk().await;
    let w = d.workload.to_string();
    let order: i64 = d.app.call("/api/orders/create", &[("title", "Self"), ("workload_id", &w)], Some(&d.pam)).await.body.trim().parse().unwrap();
    // A manager-submitter is impossible through roles (managers cannot submit), so self-approval
    // is checked through the domain rule; here the waiver path and direct tampering.
    let (o, q) = (order.to_string(), d.quote.to_string());
    let select = [("order_id", o.as_str()), ("quote_id", q.as_str()), ("considered[]", q.as_str()), ("waiver", "Benchmarked on the vendor's own trial; report attached")];
    assert_eq!(d.app.call("/api/orders/select", &select, Some(&d.pam)).await.status, StatusCode::OK);
    let view = json(&d.app.call("/api/orders/get", &[("id", &o)], Some(&d.pam)).await.body);
    assert!(!view["blockers"].to_string().contains("No valid run"), "a waiver replaces the run");
    assert!(d.chain().await.events >= 2);

    // Tamper with an event directly in SQLite (the trigger dropped first): verify names it.
    sqlx::query("DROP TRIGGER audit_events_are_append_only_update").execute(&d.app.db).await.unwrap();
    sqlx::query("UPDATE audit_events SET data = replace(data, 'Self', 'Selt') WHERE seq = 1").execute(&d.app.db).await.unwrap();
    let fault = app::services::audit::verify(&d.app.db).await.unwrap().unwrap_err();
    assert!(fault.to_string().contains("audit event 1"), "{fault}");
    let view = json(&d.app.call("/api/orders/get", &[("id", &o)], Some(&d.max)).await.body);
    assert_eq!(view["chain_ok"], false);
    assert!(view["chain_message"].as_str().unwrap().contains("BROKEN"));
}
