//! Accepting what the data suggests on the checklist, through the router: one item or a whole
//! section, each as the person's own answer with its evidence and an `item_answered` event
//! marked with the suggestion; only by the role that answers the item; refused whole when a
//! suggestion changed or an item was answered since the page showed it.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use common::{PASSWORD, TestApp};
use http::StatusCode;
use serde_json::Value;

struct Desk {
    app: TestApp,
    pam: String,
    eve: String,
    order: i64,
    quote: i64,
    run: i64,
}

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// Procurement (pam) and an engineer (eve); a draft order choosing a well-stated L4 quote, with
/// a valid run of it attached.
async fn desk() -> Desk {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "A").await;
    for (email, role) in [("pam", "procurement"), ("eve", "engineer")] {
        app.create_member(&admin, &format!("{email}@example.com"), team, role)
            .await;
    }
    let pam = app.login("pam@example.com", PASSWORD).await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    let workload = app.create_workload(&pam, "Batch job").await;
    let stated = [
        ("spec.form_factor", "pcie"),
        ("price.minimum_billable_hours", "1"),
        ("price.disk_price_gb_month", "0.3"),
        ("price.egress_price_gb", "0.8"),
    ];
    let quote = app.create_quote_with(&pam, "L4-1", &stated).await;
    let token = app.create_token(&eve, "ci").await;
    let run = app.upload_valid_l4_run(&token, quote, workload).await;
    let order = app.create_order(&pam, "Accepting", workload).await;
    let d = Desk {
        app,
        pam,
        eve,
        order,
        quote,
        run,
    };
    d.select(&[run]).await;
    d
}

impl Desk {
    async fn select(&self, runs: &[i64]) {
        let (o, q) = (self.order.to_string(), self.quote.to_string());
        let runs: Vec<String> = runs.iter().map(i64::to_string).collect();
        let mut form = vec![("order_id", o.as_str()), ("quote_id", q.as_str()), ("waiver", "")];
        form.extend(runs.iter().map(|r| ("runs[]", r.as_str())));
        let res = self.app.call("/api/orders/select", &form, Some(&self.pam)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    }

    async fn view(&self, cookie: &str) -> Value {
        let o = self.order.to_string();
        json(&self.app.call("/api/orders/get", &[("id", &o)], Some(cookie)).await.body)
    }

    /// Every item of the page as `cookie` sees it.
    async fn items(&self, cookie: &str) -> Vec<Value> {
        let v = self.view(cookie).await;
        v["sections"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| s["items"].as_array().unwrap().clone())
            .collect()
    }

    async fn item(&self, cookie: &str, id: &str) -> Value {
        self.items(cookie)
            .await
            .into_iter()
            .find(|i| i["id"] == id)
            .unwrap_or_else(|| panic!("{id}"))
    }

    /// The token of the suggestion `id` offers to `cookie`.
    async fn token(&self, cookie: &str, id: &str) -> String {
        let item = self.item(cookie, id).await;
        item["accept"]["token"]
            .as_str()
            .unwrap_or_else(|| panic!("{id} offers nothing to accept: {item}"))
            .to_string()
    }

    async fn accept(&self, cookie: &str, tokens: &[&str]) -> common::Answer {
        let o = self.order.to_string();
        let mut form = vec![("order_id", o.as_str())];
        form.extend(tokens.iter().map(|t| ("suggestions[]", *t)));
        self.app.call("/api/orders/accept", &form, Some(cookie)).await
    }

    /// The order's `item_answered` events, oldest first.
    async fn answered_events(&self) -> Vec<Value> {
        let rows: Vec<(String, String)> =
            sqlx::query_as("SELECT action, data FROM audit_events WHERE order_id = ? ORDER BY seq")
                .bind(self.order)
                .fetch_all(&self.app.db)
                .await
                .unwrap();
        rows.into_iter()
            .filter(|(a, _)| a == "item_answered")
            .map(|(_, d)| json(&d))
            .collect()
    }
}

#[tokio::test]
async fn one_suggestion_is_accepted_in_one_action_as_the_persons_own_audited_answer() {
    let d = desk().await;
    let token = d.token(&d.pam, "gpu.model_vram").await;
    let res = d.accept(&d.pam, &[&token]).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let saved = json(&res.body);
    assert_eq!(saved["items"].as_array().unwrap().len(), 1);
    let item = &saved["items"][0];
    assert_eq!(item["id"], "gpu.model_vram");
    assert_eq!(item["status"], "confirmed");
    assert_eq!(item["done"], true);
    assert!(item["accept"].is_null(), "nothing left to accept");
    assert!(item["answer"].as_str().unwrap().contains("L4 24GB"), "{item}");
    assert!(item["answered"].as_str().unwrap().contains("pam"), "{item}");
    let evidence: Vec<&str> = item["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["label"].as_str().unwrap())
        .collect();
    assert_eq!(evidence.len(), 2, "the model and the VRAM fields: {evidence:?}");
    // Audited as a manual answer is, marked with the suggestion it accepted.
    let events = d.answered_events().await;
    let last = events.last().unwrap();
    assert_eq!(last["item_id"], "gpu.model_vram");
    assert_eq!(last["status"]["kind"], "confirmed");
    assert_eq!(last["suggestion"]["code"], "gpu_quoted");
    assert_eq!(last["evidence"][0]["field"], "spec.gpu_model");
    let chain = app::services::audit::verify(&d.app.db).await.unwrap();
    assert!(chain.is_ok(), "the chain still verifies");
    // A run-backed suggestion cites the valid run.
    let token = d.token(&d.eve, "env.smoke_test").await;
    let res = d.accept(&d.eve, &[&token]).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let item = &json(&res.body)["items"][0];
    assert_eq!(item["evidence"][0]["href"], format!("/runs/{}", d.run));
    // The same token again: the item is answered now.
    let res = d.accept(&d.eve, &[&token]).await;
    assert_eq!(res.status, StatusCode::CONFLICT, "{}", res.body);
}

#[tokio::test]
async fn only_the_role_that_answers_an_item_accepts_it_and_a_mixed_request_records_nothing() {
    let d = desk().await;
    let procurement = d.token(&d.pam, "gpu.model_vram").await;
    let engineer = d.token(&d.eve, "env.smoke_test").await;
    assert!(
        d.item(&d.eve, "gpu.model_vram").await["accept"].is_null(),
        "not offered to eve"
    );
    let before = d.answered_events().await.len();
    let res = d.accept(&d.eve, &[&procurement]).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.body);
    assert!(res.body.contains("procurement"), "{}", res.body);
    let res = d.accept(&d.eve, &[&engineer, &procurement]).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.body);
    let res = d.accept(&d.pam, &[&engineer]).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.body);
    assert_eq!(d.answered_events().await.len(), before, "nothing recorded");
    assert_eq!(d.item(&d.pam, "gpu.model_vram").await["status"], "open");
    // Crafted keys are refused at the field.
    let res = d.accept(&d.pam, &["gpu.model_vram=abc"]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let res = d.accept(&d.pam, &[]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
}

#[tokio::test]
async fn a_suggestion_that_changed_or_an_item_answered_meanwhile_is_refused_whole() {
    let d = desk().await;
    // The run is taken off the order: the suggestions it backed are not what was read.
    let form_factor = d.token(&d.pam, "gpu.form_factor").await;
    let model = d.token(&d.pam, "gpu.model_vram").await;
    let before = d.answered_events().await.len();
    d.select(&[]).await;
    let res = d.accept(&d.pam, &[&model, &form_factor]).await;
    assert_eq!(res.status, StatusCode::CONFLICT, "{}", res.body);
    assert!(res.body.contains("changed"), "{}", res.body);
    assert_eq!(
        d.answered_events().await.len(),
        before,
        "the one unchanged was not recorded either"
    );
    // Someone answered the item since the page showed it.
    let model = d.token(&d.pam, "gpu.model_vram").await;
    let o = d.order.to_string();
    let form = [
        ("order_id", o.as_str()),
        ("item_id", "gpu.model_vram"),
        ("status", "problem"),
        ("status_note", "the vendor now offers another model"),
        ("answer", ""),
    ];
    let res = d.app.call("/api/orders/answer", &form, Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let res = d.accept(&d.pam, &[&model]).await;
    assert_eq!(res.status, StatusCode::CONFLICT, "{}", res.body);
    assert!(res.body.contains("answered"), "{}", res.body);
    let item = d.item(&d.pam, "gpu.model_vram").await;
    assert_eq!(item["status"], "problem", "the answer stands");
    assert!(item["accept"].is_null());
}

#[tokio::test]
async fn a_section_is_accepted_at_once_each_item_audited() {
    let d = desk().await;
    let v = d.view(&d.pam).await;
    let billing = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["code"] == "billing")
        .unwrap()
        .clone();
    assert!(billing["open"].as_bool().unwrap(), "open items: unfolded");
    let total = billing["progress"]["procurement"]["total"].as_u64().unwrap();
    assert_eq!(billing["progress"]["procurement"]["done"], 0);
    let tokens: Vec<String> = billing["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["accept"]["token"].as_str().map(str::to_string))
        .collect();
    assert!(tokens.len() >= 2, "{billing}");
    let before = d.answered_events().await.len();
    let refs: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let res = d.accept(&d.pam, &refs).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(json(&res.body)["items"].as_array().unwrap().len(), tokens.len());
    let events = d.answered_events().await;
    assert_eq!(events.len(), before + tokens.len(), "one event per item");
    assert!(events[before..].iter().all(|e| !e["suggestion"].is_null()));
    let v = d.view(&d.pam).await;
    let billing = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["code"] == "billing")
        .unwrap();
    assert_eq!(billing["progress"]["procurement"]["total"].as_u64().unwrap(), total);
    assert_eq!(
        billing["progress"]["procurement"]["done"].as_u64().unwrap(),
        tokens.len() as u64
    );
    let history: Vec<&str> = v["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["detail"].as_str().unwrap())
        .collect();
    assert!(
        history.iter().any(|h| h.ends_with("suggestion accepted")),
        "{history:?}"
    );
}
