//! Requests for quotation through the router: bids sealed until the close for every role and
//! every route, a link that does not open answers 404 without saying why, one vendor's link
//! reaches only its own bid, and the close makes the bids quotes with their receipts.
#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::access_matrix::table::Send;
use crate::common::{PASSWORD, TestApp, team_of_pam_and_eve};
use http::StatusCode;

/// The new-request form for `workload`, inviting `vendor`, closing in 2099.
pub fn request_form(workload: i64, vendor: i64) -> Send {
    Send::Form(
        form_fields(workload, &[vendor])
            .into_iter()
            .map(|(k, v)| (leak(k), v))
            .collect(),
    )
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn form_fields(workload: i64, vendors: &[i64]) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = [
        ("workload_id", workload.to_string()),
        ("title", "8 × H100 for fine-tuning".to_string()),
        ("region", "上海".to_string()),
        ("budget", String::new()),
        ("currency", "CNY".to_string()),
        (
            "questions",
            "Which NVIDIA driver and CUDA?\n临时盘释放后是否清除？".to_string(),
        ),
        ("close_local", "2099-12-31T18:00".to_string()),
        ("utc_offset", "+08:00".to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (format!("form[{k}]"), v))
    .collect();
    fields.extend(
        vendors
            .iter()
            .map(|v| (format!("form[vendors][{v}]"), "on".to_string())),
    );
    fields
}

/// Makes a request for `workload` inviting `vendors` (closing 2099-12-31 10:00 UTC): the answer.
pub async fn create(app: &TestApp, pam: &str, workload: i64, vendors: &[i64]) -> serde_json::Value {
    let fields = form_fields(workload, vendors);
    let form: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let res = app.call("/api/requests/create", &form, Some(pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    serde_json::from_str(&res.body).unwrap()
}

/// A request inviting `vendor`: `(request id, invitation id)`.
pub async fn a_request(app: &TestApp, pam: &str, workload: i64, vendor: i64) -> (i64, i64) {
    let created = create(app, pam, workload, &[vendor]).await;
    let id = created["id"].as_i64().unwrap();
    let invitation: i64 = sqlx::query_scalar("SELECT id FROM rfq_invitations WHERE request_id = ?")
        .bind(id)
        .fetch_one(&app.db)
        .await
        .unwrap();
    (id, invitation)
}

/// Another request inviting `vendor`: `(request id, the vendor's link)`.
pub async fn a_link(app: &TestApp, pam: &str, workload: i64, vendor: i64) -> (i64, String) {
    let created = create(app, pam, workload, &[vendor]).await;
    (created["id"].as_i64().unwrap(), link_of(&created, 0))
}

/// The `i`-th link of a made request (in the order of the vendors' ids), without `/bid/`.
pub fn link_of(created: &serde_json::Value, i: usize) -> String {
    created["links"][i]["path"]
        .as_str()
        .unwrap()
        .trim_start_matches("/bid/")
        .to_string()
}

/// Adds a vendor to pam's team; its id.
pub async fn vendor(app: &TestApp, pam: &str, name: &str, contact: &str) -> i64 {
    let res = app
        .call(
            "/api/vendors/create",
            &[("name", name), ("contact", contact)],
            Some(pam),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    res.body.trim().parse().unwrap()
}

/// A bid's fields: an H100 node at `price` an hour.
pub fn bid(link: &str, price: &str, answer: &str, submit: bool) -> Vec<(String, String)> {
    let mut form: Vec<(String, String)> = [
        ("valid_until", "2099-12-31"),
        ("spec.gpu_model", "H100 80GB"),
        ("spec.gpus_per_node", "8"),
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
    .collect();
    form.push(("link".into(), link.into()));
    form.push(("answers[0]".into(), answer.into()));
    form.push(("answers[1]".into(), "释放后立即清除".into()));
    if submit {
        form.push(("submit".into(), "1".into()));
    }
    form
}

/// Saves (or submits) a bid through the vendor's API.
pub async fn send_bid(app: &TestApp, form: &[(String, String)]) -> crate::common::Answer {
    let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    app.call("/api/bid/save", &form, None).await
}

struct Site {
    app: TestApp,
    admin: String,
    pam: String,
    eve: String,
    max: String,
    request: i64,
    links: [String; 2],
}

/// A team (procurement pam, engineer eve, manager max, and the administrator in it), a
/// workload and a request to two vendors, both of which submitted a bid.
async fn site() -> Site {
    let (app, pam, eve) = team_of_pam_and_eve().await;
    let admin = app.login("admin@example.com", PASSWORD).await;
    let team: i64 = sqlx::query_scalar("SELECT id FROM teams")
        .fetch_one(&app.db)
        .await
        .unwrap();
    app.create_member(&admin, "max@example.com", team, "manager").await;
    let admin_id: i64 = sqlx::query_scalar("SELECT id FROM users WHERE email = 'admin@example.com'")
        .fetch_one(&app.db)
        .await
        .unwrap();
    let _ = app
        .call(
            "/api/admin/set_role",
            &[
                ("team_id", &team.to_string()),
                ("user_id", &admin_id.to_string()),
                ("role", "procurement"),
            ],
            Some(&admin),
        )
        .await;
    let max = app.login("max@example.com", PASSWORD).await;
    let workload = app.create_workload(&pam, "Fine-tune").await;
    let xinghe = vendor(&app, &pam, "星河算力", "王芳，wang@xinghe.example").await;
    let lambda = vendor(&app, &pam, "Nimbus", "Sales <sales@nimbus.example>").await;
    let created = create(&app, &pam, workload, &[xinghe, lambda]).await;
    let links = [link_of(&created, 0), link_of(&created, 1)];
    for (link, price) in links.iter().zip(["4321.09", "3987.65"]) {
        let res = send_bid(&app, &bid(link, price, "驱动 550.54，CUDA 12.4", true)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    }
    Site {
        request: created["id"].as_i64().unwrap(),
        app,
        admin,
        pam,
        eve,
        max,
        links,
    }
}

const FIGURES: [&str; 4] = ["4321.09", "3987.65", "4,321.09", "550.54"];

fn assert_sealed(what: &str, body: &str) {
    for figure in FIGURES {
        assert!(!body.contains(figure), "{what} shows {figure} before the close: {body}");
    }
}

#[tokio::test]
async fn a_bid_before_the_close_is_invisible_to_every_role_and_route() {
    let s = site().await;
    let id = s.request.to_string();
    for who in [&s.pam, &s.eve, &s.max, &s.admin] {
        let one = s.app.call("/api/requests/one", &[("id", &id)], Some(who)).await;
        assert_eq!(one.status, StatusCode::OK, "{}", one.body);
        assert_sealed("the request", &one.body);
        let view: serde_json::Value = serde_json::from_str(&one.body).unwrap();
        assert!(view["opened"].as_array().unwrap().is_empty());
        assert_eq!(view["vendors"][0]["revisions"], 1, "who submitted is shown");
        for path in ["/api/requests", "/api/dashboard"] {
            let res = s.app.call(path, &[], Some(who)).await;
            assert_eq!(res.status, StatusCode::OK, "{path}: {}", res.body);
            assert_sealed(path, &res.body);
        }
        let quotes = s
            .app
            .call_json("/api/quotes/list", &serde_json::json!({"query": {}}), Some(who))
            .await;
        assert_eq!(quotes.status, StatusCode::OK, "{}", quotes.body);
        assert_sealed("the quote list", &quotes.body);
        for page in [
            format!("/requests/{id}"),
            "/requests".into(),
            "/quotes".into(),
            "/admin/audit".into(),
        ] {
            let res = s.app.get(&page, Some(who), None).await;
            assert_sealed(&page, &res.body);
        }
        let csv = s.app.get("/quotes/export.csv", Some(who), None).await;
        assert_sealed("the quote export", &csv.body);
    }
    let quotes: i64 = sqlx::query_scalar("SELECT count(*) FROM quotes")
        .fetch_one(&s.app.db)
        .await
        .unwrap();
    assert_eq!(quotes, 0, "no bid is a quote before the close");
}

#[tokio::test]
async fn a_revoked_expired_malformed_or_unknown_link_answers_404_without_saying_why() {
    let s = site().await;
    let open = s.app.get(&format!("/bid/{}", s.links[0]), None, None).await;
    assert_eq!(open.status, StatusCode::OK);
    assert!(
        open.body.contains("星河算力") && !open.body.contains("Nimbus"),
        "only its own vendor"
    );
    let invitation: i64 = sqlx::query_scalar("SELECT id FROM rfq_invitations ORDER BY id LIMIT 1")
        .fetch_one(&s.app.db)
        .await
        .unwrap();
    let (r, i) = (s.request.to_string(), invitation.to_string());
    let res = s
        .app
        .call(
            "/api/requests/revoke",
            &[("request_id", &r), ("invitation_id", &i)],
            Some(&s.pam),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let unknown = format!("nlb_{}", "A".repeat(43));
    let mut bodies = Vec::new();
    for link in [
        s.links[0].clone(),
        unknown,
        "nlb_short".into(),
        "../../etc/passwd".into(),
    ] {
        let page = s.app.get(&format!("/bid/{link}"), None, None).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "{link}");
        assert!(!page.body.contains("revoked") && !page.body.contains("撤销"), "{link}");
        let api = s.app.call("/api/bid/page", &[("link", &link)], None).await;
        assert_eq!(api.status, StatusCode::NOT_FOUND, "{link}");
        bodies.push(api.body);
        let save = send_bid(&s.app, &bid(&link, "1.00", "", true)).await;
        assert_eq!(save.status, StatusCode::NOT_FOUND, "{link}");
    }
    assert!(
        bodies.windows(2).all(|w| w[0] == w[1]),
        "every refusal reads the same: {bodies:?}"
    );
    // Past the close time the other link stops opening too, and its bid is not taken.
    sqlx::query("UPDATE rfq_requests SET close_at = 1")
        .execute(&s.app.db)
        .await
        .unwrap();
    let late = s.app.get(&format!("/bid/{}", s.links[1]), None, None).await;
    assert_eq!(late.status, StatusCode::NOT_FOUND);
    // A bid from a page opened before the close is refused with the close time.
    let save = send_bid(&s.app, &bid(&s.links[1], "1.00", "", true)).await;
    assert_eq!(save.status, StatusCode::FORBIDDEN, "{}", save.body);
    assert!(
        save.body.contains("bids_closed") || save.body.contains("BidsClosed"),
        "{}",
        save.body
    );
    let back = s
        .app
        .browser_post(
            "/api/bid/save",
            &[("link", &s.links[1]), ("submit", "1")],
            None,
            &format!("/bid/{}", s.links[1]),
        )
        .await;
    let to = back.headers["location"].to_str().unwrap().to_string();
    let page = s.app.get(&to, None, None).await;
    assert!(
        page.body.contains("Bids closed at 1970-01-01 00:00 UTC"),
        "{}",
        page.body
    );
}

#[tokio::test]
async fn one_vendors_link_reads_and_writes_only_its_own_bid() {
    let s = site().await;
    let a = s.app.call("/api/bid/page", &[("link", &s.links[0])], None).await;
    assert!(a.body.contains("4321.09") && !a.body.contains("3987.65"), "{}", a.body);
    assert!(
        !a.body.contains("Nimbus") && !a.body.contains("pam@example.com"),
        "{}",
        a.body
    );
    // A draft through the first link changes nothing of the second vendor's.
    let res = send_bid(&s.app, &bid(&s.links[0], "4000.00", "改为 4000", false)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let b = s.app.call("/api/bid/page", &[("link", &s.links[1])], None).await;
    assert!(b.body.contains("3987.65") && !b.body.contains("4000.00"), "{}", b.body);
    // A revision through the first link is that vendor's second; the other keeps one.
    let res = send_bid(&s.app, &bid(&s.links[0], "4000.00", "改为 4000", true)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let revisions: Vec<(String, i64)> = sqlx::query_as(
        "SELECT v.name, count(b.id) FROM rfq_invitations i JOIN vendors v ON v.id = i.vendor_id
         LEFT JOIN rfq_bids b ON b.invitation_id = i.id GROUP BY i.id ORDER BY v.name",
    )
    .fetch_all(&s.app.db)
    .await
    .unwrap();
    assert_eq!(revisions, vec![("Nimbus".to_string(), 1), ("星河算力".to_string(), 2)]);
}

#[tokio::test]
async fn a_bid_with_a_mistake_is_refused_field_by_field_and_kept_as_a_draft() {
    let s = site().await;
    let res = send_bid(&s.app, &bid(&s.links[0], "cheap", "", true)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.body.contains("price.on_demand_hourly"), "{}", res.body);
    let page = s.app.call("/api/bid/page", &[("link", &s.links[0])], None).await;
    assert!(
        page.body.contains("cheap"),
        "the draft keeps what was typed: {}",
        page.body
    );
}

#[tokio::test]
async fn the_close_makes_each_last_revision_a_quote_with_its_receipt_and_answers() {
    let s = site().await;
    let res = send_bid(&s.app, &bid(&s.links[0], "4100.00", "驱动 550.54，CUDA 12.4", true)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let receipt: serde_json::Value = serde_json::from_str(&res.body).unwrap();
    let id = s.request.to_string();
    // Closing early needs a reason, and only procurement may.
    let none = s
        .app
        .call(
            "/api/requests/close",
            &[("request_id", &id), ("reason", " ")],
            Some(&s.pam),
        )
        .await;
    assert_eq!(none.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", none.body);
    let eng = s
        .app
        .call(
            "/api/requests/close",
            &[("request_id", &id), ("reason", "x")],
            Some(&s.eve),
        )
        .await;
    assert_eq!(eng.status, StatusCode::FORBIDDEN);
    let res = s
        .app
        .call(
            "/api/requests/close",
            &[("request_id", &id), ("reason", "both vendors answered")],
            Some(&s.pam),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(res.body.trim(), "2");
    let view: serde_json::Value =
        serde_json::from_str(&s.app.call("/api/requests/one", &[("id", &id)], Some(&s.max)).await.body).unwrap();
    let opened = view["opened"].as_array().unwrap();
    assert_eq!(opened.len(), 2);
    let xinghe = opened.iter().find(|b| b["vendor"] == "星河算力").unwrap();
    assert_eq!(xinghe["revision"], 2, "the last revision");
    assert_eq!(xinghe["receipt"], receipt["receipt"]);
    assert_eq!(xinghe["answers"], 2);
    // The quotes carry the vendor as their source and the bid's figures.
    let quotes: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT v.name, q.reference, r.node_hourly_micros FROM quotes q JOIN vendors v ON v.id = q.vendor_id
         JOIN quote_revisions r ON r.quote_id = q.id ORDER BY v.name",
    )
    .fetch_all(&s.app.db)
    .await
    .unwrap();
    let reference = format!("RFQ-{id}");
    assert_eq!(
        quotes,
        vec![
            ("Nimbus".to_string(), reference.clone(), 3_987_650_000),
            ("星河算力".to_string(), reference, 4_100_000_000)
        ]
    );
    // The receipt is the SHA-256 of the stored bid, and the audit chain names it.
    let (body, stored): (String, String) = sqlx::query_as("SELECT body, receipt FROM rfq_bids WHERE revision = 2")
        .fetch_one(&s.app.db)
        .await
        .unwrap();
    assert_eq!(stored, app::domain::audit::sha256_hex(&body));
    let events: Vec<String> = sqlx::query_scalar("SELECT data FROM audit_events WHERE action = 'rfq_closed'")
        .fetch_all(&s.app.db)
        .await
        .unwrap();
    assert!(events.len() == 1 && events[0].contains(&stored) && events[0].contains("both vendors answered"));
    // Closed: the links stop opening, a second close is refused.
    let page = s.app.get(&format!("/bid/{}", s.links[1]), None, None).await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    let again = s
        .app
        .call(
            "/api/requests/close",
            &[("request_id", &id), ("reason", "again")],
            Some(&s.pam),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_request_past_its_close_time_is_opened_at_the_first_look() {
    let s = site().await;
    sqlx::query("UPDATE rfq_requests SET close_at = 1")
        .execute(&s.app.db)
        .await
        .unwrap();
    let list: serde_json::Value =
        serde_json::from_str(&s.app.call("/api/requests", &[], Some(&s.eve)).await.body).unwrap();
    assert_eq!(list[0]["closed"], true);
    let quotes: i64 = sqlx::query_scalar("SELECT count(*) FROM quotes")
        .fetch_one(&s.app.db)
        .await
        .unwrap();
    assert_eq!(quotes, 2);
}

#[tokio::test]
async fn a_vendor_page_says_nothing_of_the_team() {
    let s = site().await;
    let page = s.app.get(&format!("/bid/{}", s.links[0]), None, Some("zh-CN")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        !page.body.contains("<leptos-island"),
        "no island: the page loads no WASM"
    );
    for secret in [
        "Fine-tune",
        "pam@example.com",
        "Nimbus",
        "nimbus.example",
        "wang@xinghe.example",
    ] {
        assert!(!page.body.contains(secret), "the vendor page shows {secret}");
    }
    assert!(page.body.contains("8 × H100 for fine-tuning") && page.body.contains("截止时间"));
}

/// The item lines of an order's checklist.
fn items(view: &serde_json::Value) -> Vec<serde_json::Value> {
    view["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["items"].as_array().unwrap().clone())
        .collect()
}

/// An order for a quote made from a bid that answered the first generated question in
/// writing: `(app, pam, eve, order id, request id, that question)`.
async fn order_from_a_bid() -> (TestApp, String, String, String, String, String) {
    let (app, pam, eve) = team_of_pam_and_eve().await;
    let workload = app.create_workload(&pam, "Fine-tune").await;
    let acme = vendor(&app, &pam, "Acme GPU", "sales@acme.example").await;
    // The questions as the form offers them: the checklist items a vendor answers.
    let w = workload.to_string();
    let generated = app
        .call("/api/requests/questions", &[("workload_id", &w)], Some(&pam))
        .await;
    let generated: String = serde_json::from_str(&generated.body).unwrap();
    let first = generated.lines().next().unwrap().to_string();
    let mut fields = form_fields(workload, &[acme]);
    fields.retain(|(k, _)| k != "form[questions]");
    fields.push(("form[questions]".into(), format!("{first}\nAnything else?")));
    let form: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let created: serde_json::Value =
        serde_json::from_str(&app.call("/api/requests/create", &form, Some(&pam)).await.body).unwrap();
    let link = link_of(&created, 0);
    let res = send_bid(
        &app,
        &bid(&link, "3999.00", "书面回答：Ubuntu 22.04，驱动 550.54", true),
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let id = created["id"].as_i64().unwrap().to_string();
    let res = app
        .call(
            "/api/requests/close",
            &[("request_id", &id), ("reason", "one vendor")],
            Some(&pam),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let quote: i64 = sqlx::query_scalar("SELECT id FROM quotes")
        .fetch_one(&app.db)
        .await
        .unwrap();
    let order = app.create_order(&pam, "From the bid", workload).await;
    let (o, q) = (order.to_string(), quote.to_string());
    let select = [
        ("order_id", o.as_str()),
        ("quote_id", &q),
        ("waiver", "no run yet"),
        ("considered[]", &q),
    ];
    let res = app.call("/api/orders/select", &select, Some(&pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    (app, pam, eve, o, id, first)
}

#[tokio::test]
async fn the_vendors_written_answers_are_evidence_on_the_items_they_answer() {
    let (app, pam, eve, o, id, first) = order_from_a_bid().await;
    let view: serde_json::Value =
        serde_json::from_str(&app.call("/api/orders/get", &[("id", &o)], Some(&pam)).await.body).unwrap();
    // The order names the request and the bid revision it was chosen from.
    let from = view["from_bid"].as_str().unwrap();
    assert!(
        from.contains(&format!("#{id}")) && from.contains("revision 1"),
        "{from}"
    );
    // The answered item shows the answer, and asks the vendor nothing more.
    let lines = items(&view);
    let answered: Vec<&serde_json::Value> = lines.iter().filter(|i| !i["vendor_answer"].is_null()).collect();
    assert_eq!(
        answered.len(),
        1,
        "only the question made from an item is one item's evidence"
    );
    let item = answered[0];
    assert_eq!(item["vendor_answer"]["question"], first.as_str());
    assert!(item["ask_vendor"].is_null());
    // Cited as evidence: recorded from the bid, not from the form, and enough for the item.
    let who = if item["expert"] == "engineer" { &eve } else { &pam };
    let item_id = item["id"].as_str().unwrap();
    let answer = [
        ("order_id", o.as_str()),
        ("item_id", item_id),
        ("status", "confirmed"),
        ("status_note", ""),
        ("answer", ""),
        ("evidence_run", ""),
        ("evidence_note", ""),
        ("evidence_quote_field", ""),
        ("evidence_file", ""),
        ("evidence_tco", ""),
        ("evidence_vendor_answer", "on"),
    ];
    let res = app.call("/api/orders/answer", &answer, Some(who)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let view: serde_json::Value =
        serde_json::from_str(&app.call("/api/orders/get", &[("id", &o)], Some(&pam)).await.body).unwrap();
    let item = items(&view).into_iter().find(|i| i["id"] == item_id).unwrap();
    assert_eq!(item["status"], "confirmed");
    assert_eq!(item["done"], true, "{item}");
    let evidence = item["evidence"][0]["label"].as_str().unwrap();
    assert!(
        evidence.contains("Vendor's written answer") && evidence.contains("驱动 550.54"),
        "{evidence}"
    );
    // An item the vendor did not answer cannot cite an answer.
    let other = lines
        .iter()
        .find(|i| i["vendor_answer"].is_null() && i["expert"] == item["expert"])
        .unwrap();
    let mut refused = answer;
    refused[1] = ("item_id", other["id"].as_str().unwrap());
    let res = app.call("/api/orders/answer", &refused, Some(who)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.body.contains("evidence_vendor_answer"), "{}", res.body);
}

#[tokio::test]
async fn a_link_or_an_address_that_asks_too_often_is_told_to_wait() {
    use app::domain::rfq::limits::{PER_ADDRESS, PER_LINK};
    let s = site().await;
    // One link: its allowance (the bid submitted in `site` was one), then 429 with how long to
    // wait; the other link is not held back.
    for i in 1..PER_LINK.max {
        let res = s.app.call("/api/bid/page", &[("link", &s.links[0])], None).await;
        assert_eq!(res.status, StatusCode::OK, "request {i}");
    }
    let res = s.app.call("/api/bid/page", &[("link", &s.links[0])], None).await;
    assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS, "{}", res.body);
    let wait: u64 = res.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=600).contains(&wait), "{wait}");
    let page = s.app.get(&format!("/bid/{}", s.links[0]), None, None).await;
    assert_eq!(page.status, StatusCode::TOO_MANY_REQUESTS, "the page is held back too");
    assert!(page.body.contains("Too many requests"), "and says why");
    let other = s.app.call("/api/bid/page", &[("link", &s.links[1])], None).await;
    assert_eq!(other.status, StatusCode::OK);
    // One address guessing links: unknown links count too, then it is held back.
    for i in 0..PER_ADDRESS.max {
        let guess = format!("nlb_{i:A>43}");
        let res =
            crate::throttle::call_from(&s.app, "203.0.113.9", "/api/bid/page", &[("link", &guess)], None, &[]).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "guess {i}");
    }
    let res = crate::throttle::call_from(
        &s.app,
        "203.0.113.9",
        "/api/bid/page",
        &[("link", &s.links[1])],
        None,
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS, "{}", res.body);
    let elsewhere = crate::throttle::call_from(
        &s.app,
        "198.51.100.7",
        "/api/bid/page",
        &[("link", &s.links[1])],
        None,
        &[],
    )
    .await;
    assert_eq!(elsewhere.status, StatusCode::OK);
}

/// The same-origin addresses a page names (`href`, `src`, `action`), without their fragment.
fn addresses(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\"", "action=\""] {
        for part in body.split(attr).skip(1) {
            let value = part.split('"').next().unwrap_or_default();
            let value = value.split('#').next().unwrap_or_default().replace("&amp;", "&");
            if value.starts_with('/') && !value.starts_with("//") {
                out.push(value);
            }
        }
    }
    out
}

#[tokio::test]
async fn nothing_a_vendor_can_reach_from_its_link_names_the_team_another_vendor_or_a_user() {
    let s = site().await;
    let secrets = [
        "Fine-tune",
        "Nimbus",
        "nimbus.example",
        "wang@xinghe.example",
        "pam@example.com",
        "eve@example.com",
        "max@example.com",
        "admin@example.com",
        "3987.65",
        "team_id",
        "request_id",
        "RFQ-",
    ];
    let start = format!("/bid/{}", s.links[0]);
    let mut seen = std::collections::BTreeSet::new();
    let mut queue = vec![start.clone(), format!("/bid/{}", "nlb_unknown")];
    while let Some(path) = queue.pop() {
        if !seen.insert(path.clone()) || seen.len() > 60 {
            continue;
        }
        for lang in [None, Some("zh-CN")] {
            let res = s.app.get(&path, None, lang).await;
            assert!(res.status.as_u16() < 500, "{path}: {}", res.status);
            for secret in secrets {
                assert!(!res.body.contains(secret), "{path} shows {secret}");
            }
            if res
                .headers
                .get("content-type")
                .is_some_and(|v| v.to_str().unwrap_or("").starts_with("text/html"))
            {
                queue.extend(addresses(&res.body));
            }
        }
    }
    // The page's own data, and the answer to its form, say nothing of the others either.
    for res in [
        s.app.call("/api/bid/page", &[("link", &s.links[0])], None).await,
        send_bid(&s.app, &bid(&s.links[0], "4321.09", "草稿", false)).await,
    ] {
        for secret in secrets {
            assert!(!res.body.contains(secret), "{} shows {secret}", res.body);
        }
    }
    assert!(seen.contains(&start) && seen.len() > 3, "crawled {seen:?}");
}

/// POSTs a file to the vendor's attachment form, as its page does (a plain multipart form).
async fn attach(app: &TestApp, link: &str, name: &str, bytes: &[u8]) -> crate::common::Answer {
    // A cookie that is no session: the page's post carries the site's origin.
    app.multipart(
        &format!("/bid/{link}/files"),
        &[("file", Some(name), bytes)],
        Some("nl_lang=en"),
        None,
    )
    .await
}

const PDF: &[u8] = b"%PDF-1.7\n1 0 obj <<>> endobj\nprice sheet: H100 8x 4321.09/h\n%%EOF\n";

#[tokio::test]
async fn a_vendor_attaches_a_pdf_price_sheet_and_it_becomes_the_quotes_document_at_the_close() {
    let s = site().await;
    let res = attach(&s.app, &s.links[0], "price sheet.pdf", PDF).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    assert_eq!(res.headers["location"], format!("/bid/{}#files", s.links[0]).as_str());
    // Refused by content (a PNG named .pdf) and as a second copy; each named on the page.
    let png: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    for (bytes, code) in [(png, "kind"), (PDF, "duplicate")] {
        let res = attach(&s.app, &s.links[0], "x.pdf", bytes).await;
        let to = res.headers["location"].to_str().unwrap();
        assert!(to.contains(&format!("file_error={code}")), "{to}");
    }
    let other_pdf = attach(&s.app, &s.links[0], "terms.pdf", b"%PDF-1.4\nterms\n%%EOF\n").await;
    assert!(!other_pdf.headers["location"].to_str().unwrap().contains("file_error"));
    let big = [PDF, &vec![b' '; app::domain::documents::MAX_DOCUMENT_BYTES]].concat();
    let res = attach(&s.app, &s.links[0], "big.pdf", &big).await;
    assert!(
        res.status == StatusCode::PAYLOAD_TOO_LARGE
            || res.headers["location"]
                .to_str()
                .unwrap()
                .contains("file_error=too_large"),
        "{}",
        res.status
    );
    let page = s
        .app
        .get(&format!("/bid/{}?file_error=kind", s.links[0]), None, None)
        .await;
    assert!(
        page.body.contains("price_sheet.pdf") || page.body.contains("price sheet.pdf"),
        "listed"
    );
    assert!(page.body.contains("Only PDF files"), "the refusal explained");
    // Another vendor's link cannot remove it.
    let id: i64 = sqlx::query_scalar("SELECT id FROM rfq_files ORDER BY id LIMIT 1")
        .fetch_one(&s.app.db)
        .await
        .unwrap();
    let other = s
        .app
        .multipart(
            &format!("/bid/{}/files/{id}/delete", s.links[1]),
            &[],
            Some("nl_lang=en"),
            None,
        )
        .await;
    assert_eq!(other.status, StatusCode::NOT_FOUND);
    // The revision submitted now names the files; at the close they are the quote's documents.
    let res = send_bid(&s.app, &bid(&s.links[0], "4321.09", "附价格表", true)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let body: String = sqlx::query_scalar("SELECT body FROM rfq_bids WHERE revision = 2")
        .fetch_one(&s.app.db)
        .await
        .unwrap();
    let record = app::domain::rfq::bid::BidRecord::decode(&body).unwrap();
    assert_eq!(record.files.len(), 2);
    assert_eq!(record.files[0].sha256, app::domain::documents::sha256_of(PDF));
    let id = s.request.to_string();
    let res = s
        .app
        .call(
            "/api/requests/close",
            &[("request_id", &id), ("reason", "early")],
            Some(&s.pam),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let documents: Vec<(String, String)> = sqlx::query_as(
        "SELECT v.name, d.sha256 FROM quote_documents d JOIN quote_revisions r ON r.id = d.revision_id
         JOIN quotes q ON q.id = r.quote_id JOIN vendors v ON v.id = q.vendor_id ORDER BY d.id",
    )
    .fetch_all(&s.app.db)
    .await
    .unwrap();
    assert_eq!(documents.len(), 2, "{documents:?}");
    assert!(documents.iter().all(|(v, _)| v == "星河算力"));
    assert_eq!(documents[0].1, app::domain::documents::sha256_of(PDF));
}

#[tokio::test]
async fn procurement_moves_the_close_and_invites_one_more_vendor_until_the_close() {
    let s = site().await;
    let id = s.request.to_string();
    let late = vendor(&s.app, &s.pam, "Late Cloud", "bids@late.example").await;
    let none = vendor(&s.app, &s.pam, "No Mail Cloud", "+86 400 000").await;
    let change = |close: &'static str, vendors: Vec<i64>| {
        let mut form = vec![
            ("form[request_id]".to_string(), id.clone()),
            ("form[close_local]".to_string(), close.to_string()),
            ("form[utc_offset]".to_string(), "+00:00".to_string()),
        ];
        form.extend(
            vendors
                .into_iter()
                .map(|v| (format!("form[vendors][{v}]"), "on".to_string())),
        );
        form
    };
    let send = |form: Vec<(String, String)>, who: String| {
        let app = &s.app;
        async move {
            let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            app.call("/api/requests/change", &pairs, Some(&who)).await
        }
    };
    // Refused: nothing to change, a close in the past, a vendor without e-mail, the engineer.
    assert_eq!(
        send(change("", vec![]), s.pam.clone()).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        send(change("2001-01-01T00:00", vec![]), s.pam.clone()).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        send(change("", vec![none]), s.pam.clone()).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        send(change("", vec![late]), s.eve.clone()).await.status,
        StatusCode::FORBIDDEN
    );
    // Moved and one more invited: its link is shown once, and it opens.
    let res = send(change("2098-06-30T12:00", vec![late]), s.pam.clone()).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let links: serde_json::Value = serde_json::from_str(&res.body).unwrap();
    let path = links[0]["path"].as_str().unwrap();
    assert_eq!(s.app.get(path, None, None).await.status, StatusCode::OK);
    let close_at: i64 = sqlx::query_scalar("SELECT close_at FROM rfq_requests")
        .fetch_one(&s.app.db)
        .await
        .unwrap();
    assert_eq!(close_at, 4_054_968_000, "2098-06-30 12:00 UTC");
    let view: serde_json::Value =
        serde_json::from_str(&s.app.call("/api/requests/one", &[("id", &id)], Some(&s.pam)).await.body).unwrap();
    assert_eq!(view["vendors"].as_array().unwrap().len(), 3);
    // Invited twice is refused; the change is in the audit chain.
    assert_eq!(
        send(change("", vec![late]), s.pam.clone()).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let events: Vec<String> = sqlx::query_scalar("SELECT data FROM audit_events WHERE action = 'rfq_changed'")
        .fetch_all(&s.app.db)
        .await
        .unwrap();
    assert_eq!(events.len(), 1);
    assert!(
        events[0].contains("4054968000") && events[0].contains(&format!("[{late}]")),
        "{}",
        events[0]
    );
    // Closed: no more changes.
    let res = s
        .app
        .call(
            "/api/requests/close",
            &[("request_id", &id), ("reason", "done")],
            Some(&s.pam),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(
        send(change("2098-07-01T12:00", vec![]), s.pam.clone()).await.status,
        StatusCode::CONFLICT
    );
}

#[tokio::test]
async fn a_field_the_request_asks_for_is_required_of_every_bid() {
    let (app, pam, _) = team_of_pam_and_eve().await;
    let workload = app.create_workload(&pam, "Fine-tune").await;
    let acme = vendor(&app, &pam, "Acme GPU", "sales@acme.example").await;
    let mut fields = form_fields(workload, &[acme]);
    fields.push(("form[fields][spec.cuda]".into(), "on".into()));
    fields.push(("form[fields][vendor]".into(), "on".into()));
    let form: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let created: serde_json::Value =
        serde_json::from_str(&app.call("/api/requests/create", &form, Some(&pam)).await.body).unwrap();
    let id = created["id"].as_i64().unwrap().to_string();
    let view: serde_json::Value =
        serde_json::from_str(&app.call("/api/requests/one", &[("id", &id)], Some(&pam)).await.body).unwrap();
    assert_eq!(
        view["requested"],
        serde_json::json!(["spec.cuda"]),
        "only what a vendor types"
    );
    let link = link_of(&created, 0);
    let res = send_bid(&app, &bid(&link, "30.00", "", true)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(
        res.body.contains("spec.cuda") && res.body.contains("requested_by_buyer"),
        "{}",
        res.body
    );
    let mut with_cuda = bid(&link, "30.00", "", true);
    with_cuda.push(("fields[spec.cuda]".into(), "12.4".into()));
    let res = send_bid(&app, &with_cuda).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let page = app.get(&format!("/bid/{link}"), None, None).await;
    assert!(page.body.contains("CUDA"), "the vendor's page marks it");
}

/// POSTs a raw form body to a server function as the page would (same origin).
async fn raw_form(app: &TestApp, path: &str, body: String) -> crate::common::Answer {
    let req = http::Request::post(path)
        .header(http::header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(http::header::ACCEPT, "application/json")
        .header(http::header::HOST, "127.0.0.1:3000")
        .header(http::header::ORIGIN, crate::common::ORIGIN)
        .body(axum::body::Body::from(body))
        .unwrap();
    app.send(req).await
}

#[tokio::test]
async fn the_vendors_routes_answer_bad_utf8_huge_lists_and_huge_indexes_with_a_4xx_at_worst() {
    let s = site().await;
    let link = &s.links[0];
    let many: String = (0..5_000).map(|i| format!("&answers%5B{i}%5D=x")).collect();
    let bodies = [
        format!("link=%FF%FE{link}"),
        format!("link={link}&fields%5Bspec.gpu_model%5D=%FF%FE&submit=1"),
        format!("link={link}&fields%5B%FF%5D=1&submit=1"),
        format!("link={link}{many}&submit=1"),
        format!("link={link}&answers%5B18446744073709551615%5D=x&answers%5B-1%5D=y&submit=1"),
        format!("link={link}&answers=not-a-map"),
    ];
    for path in ["/api/bid/page", "/api/bid/save"] {
        for body in &bodies {
            let res = raw_form(&s.app, path, body.clone()).await;
            assert!(
                res.status.is_client_error() || res.status.is_success(),
                "{path} {}: {} {}",
                &body[..body.len().min(80)],
                res.status,
                res.body
            );
        }
    }
    // The vendor's page still opens: nothing above broke its bid.
    assert_eq!(
        s.app.get(&format!("/bid/{link}"), None, None).await.status,
        StatusCode::OK
    );
}

/// A new link made by the request page's form (posted as a page) is shown on the page the post
/// goes back to, that once; the link itself is never in an address.
#[tokio::test]
async fn a_replaced_link_made_by_the_page_s_form_is_shown_once_on_the_request_page() {
    let s = site().await;
    let invitation: i64 = sqlx::query_scalar("SELECT id FROM rfq_invitations ORDER BY id LIMIT 1")
        .fetch_one(&s.app.db)
        .await
        .unwrap();
    let page = format!("/requests/{}", s.request);
    let res = s
        .app
        .browser_post(
            "/api/requests/revoke",
            &[
                ("request_id", &s.request.to_string()),
                ("invitation_id", &invitation.to_string()),
                ("replace", "true"),
            ],
            Some(&s.pam),
            &page,
        )
        .await;
    assert_eq!(res.status, StatusCode::FOUND, "{}", res.body);
    let back = res.location();
    assert_eq!(back, format!("{page}?saved=/api/requests/revoke"));
    assert!(
        !back.contains("nlb_") && !res.body.contains("nlb_"),
        "{back} {}",
        res.body
    );
    let shown = s.app.get(&back, Some(&s.pam), None).await;
    assert_eq!(shown.status, StatusCode::OK);
    let link = shown
        .body
        .split(r#"data-testid="request-new-link""#)
        .nth(1)
        .and_then(|rest| rest.split("<code>").nth(1))
        .and_then(|rest| rest.split('<').next())
        .unwrap_or_default()
        .to_owned();
    assert!(link.starts_with("/bid/nlb_"), "{}", shown.body);
    assert_eq!(
        s.app.get(&link, None, None).await.status,
        StatusCode::OK,
        "the new link works"
    );
    assert_eq!(
        s.app.get(&format!("/bid/{}", s.links[0]), None, None).await.status,
        StatusCode::NOT_FOUND,
        "the old one does not"
    );
    let again = s.app.get(&back, Some(&s.pam), None).await;
    assert!(!again.body.contains("request-new-link"), "{}", again.body);
}
