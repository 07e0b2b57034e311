//! The desk the rental tests work at: two teams, a priced quote, a valid run, and helpers for
//! each rental step.

use super::common::{self, PASSWORD, TestApp};
use app::domain::{
    checklist::{Expert, OrderKind, applicable_items},
    rentals::Instant,
};
use http::StatusCode;
use serde_json::Value;

pub fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// `hours` ago, as the form may send it (UTC).
pub fn ago(hours: i64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    Instant::from_unix(i64::try_from(now).unwrap() - hours * 3600).to_string()
}

pub struct Desk {
    pub app: TestApp,
    pub pam: String,
    pub eve: String,
    pub max: String,
    pub bob: String,
    pub quote: i64,
    pub run: i64,
    pub workload: i64,
}

/// Team A (pam procurement, eve engineer, max manager) with a batch workload (10 h, so the
/// frozen estimate's time to finish is 1 h setup + 10 h × 1.1 = 12 h), an L4 quote at 4.00/h
/// with 100 + 200 GB of disk at 0.30/GB-month and an IP at 0.05/h, and a valid run; team B (bob,
/// procurement).
pub async fn desk() -> Desk {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let a = app.create_team(&admin, "A").await;
    let b = app.create_team(&admin, "B").await;
    for (email, team, role) in [
        ("pam", a, "procurement"),
        ("eve", a, "engineer"),
        ("max", a, "manager"),
        ("bob", b, "procurement"),
    ] {
        app.create_member(&admin, &format!("{email}@example.com"), team, role)
            .await;
    }
    let mut cookies = Vec::new();
    for who in ["pam", "eve", "max", "bob"] {
        cookies.push(app.login(&format!("{who}@example.com"), PASSWORD).await);
    }
    let [pam, eve, max, bob]: [String; 4] = cookies.try_into().unwrap();
    let workload = app.create_workload(&pam, "Batch job").await;
    let prices = [
        ("spec.system_disk_gb", "100"),
        ("spec.data_disk_gb", "200"),
        ("price.disk_price_gb_month", "0.30"),
        ("price.public_ip_hourly", "0.05"),
    ];
    let quote = app.create_quote_with(&pam, "L4-1", &prices).await;
    let token = app.create_token(&eve, "ci").await;
    let run = app.upload_valid_l4_run(&token, quote, workload).await;
    Desk {
        app,
        pam,
        eve,
        max,
        bob,
        quote,
        run,
        workload,
    }
}

impl Desk {
    /// A draft order choosing the desk's quote and run.
    pub async fn draft(&self, title: &str) -> i64 {
        let order = self.app.create_order(&self.pam, title, self.workload).await;
        let (o, q, r) = (order.to_string(), self.quote.to_string(), self.run.to_string());
        let select = [
            ("order_id", o.as_str()),
            ("quote_id", q.as_str()),
            ("considered[]", q.as_str()),
            ("runs[]", r.as_str()),
            ("waiver", ""),
        ];
        let res = self.app.call("/api/orders/select", &select, Some(&self.pam)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        order
    }

    /// The draft answered, submitted and approved by the manager.
    pub async fn approve(&self, order: i64) {
        let (o, r) = (order.to_string(), self.run.to_string());
        for item in applicable_items(OrderKind::Batch, false) {
            let who = if item.expert == Expert::Engineer {
                &self.eve
            } else {
                &self.pam
            };
            let form = [
                ("order_id", o.as_str()),
                ("item_id", item.id),
                ("status", "confirmed"),
                ("status_note", ""),
                ("answer", "checked"),
                ("evidence_run", r.as_str()),
                ("evidence_note", "see the run"),
            ];
            let res = self.app.call("/api/orders/answer", &form, Some(who)).await;
            assert_eq!(res.status, StatusCode::OK, "{}: {}", item.id, res.body);
        }
        let res = self
            .app
            .call("/api/orders/submit", &[("order_id", &o)], Some(&self.pam))
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        let decide = [
            ("order_id", o.as_str()),
            ("decision", "approve"),
            ("password", PASSWORD),
            ("comment", "ok"),
        ];
        let res = self.app.call("/api/orders/decide", &decide, Some(&self.max)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    }

    pub async fn record(&self, who: &str, order: i64, started_at: &str, resources: &str) -> common::Answer {
        let o = order.to_string();
        let form = [
            ("order_id", o.as_str()),
            ("started_at", started_at),
            ("resources", resources),
            ("note", "node 1"),
        ];
        self.app.call("/api/rentals/record", &form, Some(who)).await
    }

    pub async fn section(&self, who: &str, order: i64) -> Value {
        let res = self
            .app
            .call("/api/rentals/get", &[("order_id", &order.to_string())], Some(who))
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        json(&res.body)
    }

    pub async fn overdue(&self, who: &str) -> Value {
        let res = self.app.call("/api/rentals/overdue", &[], Some(who)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        json(&res.body)
    }

    pub async fn release(&self, order: i64, at: &str, setup: &str) -> common::Answer {
        let o = order.to_string();
        let form = [
            ("order_id", o.as_str()),
            ("released_at", at),
            ("setup_hours", setup),
            ("data_prep_hours", "1.5"),
            ("rerun_hours", "0.5"),
        ];
        self.app.call("/api/rentals/release", &form, Some(&self.eve)).await
    }

    pub async fn correct(&self, order: i64, started: &str, stopped: &str) -> common::Answer {
        let o = order.to_string();
        let form = [
            ("order_id", o.as_str()),
            ("started_at", started),
            ("stopped_at", stopped),
            ("resources", "i-right\nvol-1"),
            ("note", "typo"),
        ];
        self.app.call("/api/rentals/correct", &form, Some(&self.eve)).await
    }

    pub async fn learned(&self, cookie: &str, query: &str) -> Value {
        let w = self.workload.to_string();
        let res = self
            .app
            .call(
                "/api/rentals/learned",
                &[("workload_id", w.as_str()), ("query", query)],
                Some(cookie),
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        json(&res.body)
    }

    /// (rentals, rental resources, audit events) in the database.
    pub async fn counts(&self) -> (i64, i64, i64) {
        let one =
            |sql: &'static str| async move { sqlx::query_scalar::<_, i64>(sql).fetch_one(&self.app.db).await.unwrap() };
        (
            one("SELECT count(*) FROM rentals").await,
            one("SELECT count(*) FROM rental_resources").await,
            one("SELECT count(*) FROM audit_events").await,
        )
    }
}

/// The field and code of a 422 answer.
pub fn field_error(res: &common::Answer) -> (String, String, Option<String>) {
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    let v = json(&res.body);
    let d = &v["detail"][0];
    (
        d["field"].as_str().unwrap().to_string(),
        d["code"].as_str().unwrap().to_string(),
        d["limit"].as_str().map(str::to_string),
    )
}
