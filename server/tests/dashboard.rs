//! Dashboards, notifications and the optional to-do mail through the router: each role's counts
//! and to-do follow what the team does, the header's list is the same to-do, and the mail sends
//! each new entry once, through a fake SMTP server.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;
#[path = "dashboard/fake_smtp.rs"]
pub(crate) mod fake_smtp;

use app::{
    domain::checklist::{Expert, OrderKind, applicable_items},
    store,
};
use common::{PASSWORD, TestApp};
use fake_smtp::{decoded, fake_smtp};
use http::StatusCode;
use lettre::{AsyncSmtpTransport, Tokio1Executor};
use serde_json::{Value, json};
use server::mail::{Mailer, Pass, pass};
use tokio::net::TcpListener;

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

struct Team {
    app: TestApp,
    admin: String,
    pam: String,
    eve: String,
    max: String,
    workload: i64,
}

async fn team() -> Team {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let a = app.create_team(&admin, "A").await;
    for (who, role) in [("pam", "procurement"), ("eve", "engineer"), ("max", "manager")] {
        app.create_member(&admin, &format!("{who}@example.com"), a, role).await;
    }
    let pam = app.login("pam@example.com", PASSWORD).await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    let max = app.login("max@example.com", PASSWORD).await;
    let workload = app.create_workload(&pam, "Batch job").await;
    Team {
        app,
        admin,
        pam,
        eve,
        max,
        workload,
    }
}

impl Team {
    async fn dashboard(&self, cookie: &str) -> Value {
        let res = self.app.call("/api/dashboard", &[], Some(cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        json(&res.body)
    }

    async fn notifications(&self, cookie: &str) -> Vec<Value> {
        let res = self.app.call("/api/notifications", &[], Some(cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        json(&res.body).as_array().unwrap().clone()
    }

    /// A quote valid for `days` more days (from today), as procurement; returns its id.
    async fn quote_valid_for(&self, reference: &str, days: u32) -> i64 {
        let today = store::today();
        let until = today.add_days(days).unwrap().to_string();
        let today_text = today.to_string();
        let changes = [
            ("vendor", "Short GPU"),
            ("received_on", today_text.as_str()),
            ("valid_until", until.as_str()),
            ("spec.gpu_model", "A10 24GB"),
            ("spec.gpus_per_node", "2"),
            ("price.on_demand_hourly", "6.00"),
        ];
        self.app.create_quote_with(&self.pam, reference, &changes).await
    }
}

fn kinds(entries: &[Value]) -> Vec<&str> {
    entries.iter().map(|e| e["kind"].as_str().unwrap()).collect()
}

fn count(board: &Value, what: &Value) -> i64 {
    board["counts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| &c["what"] == what)
        .unwrap_or_else(|| panic!("no count {what} in {board}"))["n"]
        .as_i64()
        .unwrap()
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn each_role_sees_live_counts_and_its_own_to_do_and_the_header_lists_the_same() {
    let t = team().await;
    // An empty team: the counts are zero and nothing waits.
    let board = t.dashboard(&t.pam).await;
    assert_eq!(count(&board, &json!("current_quotes")), 0);
    assert!(board["todo"].as_array().unwrap().is_empty());
    assert!(t.notifications(&t.eve).await.is_empty());

    let lasting = t.app.create_quote(&t.pam, "L4-1").await;
    let expiring = t.quote_valid_for("A10-soon", 3).await;
    let order = t.app.create_order(&t.pam, "Batch nodes", t.workload).await;

    let board = t.dashboard(&t.pam).await;
    assert_eq!(count(&board, &json!("current_quotes")), 2);
    assert_eq!(count(&board, &json!({ "orders": "draft" })), 1);
    assert_eq!(count(&board, &json!({ "orders": "submitted" })), 0);
    let todo = board["todo"].as_array().unwrap();
    assert_eq!(kinds(todo), ["order_draft", "quote_expiring"]);
    assert_eq!(todo[0]["order_id"], order);
    let blocks = todo[0]["blocks"].to_string();
    assert!(
        blocks.contains("no_quote") && blocks.contains("no_run") && blocks.contains("items"),
        "{blocks}"
    );
    assert_eq!(todo[1]["quote"]["quote_id"], expiring);
    assert_eq!(todo[1]["quote"]["gpus"], "2× A10 24GB");
    assert_eq!(todo[1]["days_left"], 3);
    assert_eq!(
        t.notifications(&t.pam).await,
        *todo,
        "the header lists the dashboard's to-do"
    );

    // Engineers: the order's items for them; no quote asked for while no open order weighs one.
    assert_eq!(kinds(&t.notifications(&t.eve).await), ["items_to_answer"]);
    // Procurement weighs both quotes in the order: both still lack a valid run.
    let (o, l, e) = (order.to_string(), lasting.to_string(), expiring.to_string());
    let select = [
        ("order_id", o.as_str()),
        ("quote_id", ""),
        ("waiver", ""),
        ("considered[]", l.as_str()),
        ("considered[]", e.as_str()),
    ];
    let res = t.app.call("/api/orders/select", &select, Some(&t.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let board = t.dashboard(&t.eve).await;
    assert_eq!(count(&board, &json!("runs")), 0);
    let todo = board["todo"].as_array().unwrap();
    assert_eq!(
        kinds(todo),
        ["items_to_answer", "quote_without_run", "quote_without_run"]
    );
    let engineer_items: Vec<&str> = applicable_items(OrderKind::Batch, false)
        .into_iter()
        .filter(|i| i.expert == Expert::Engineer)
        .map(|i| i.id)
        .collect();
    assert_eq!(todo[0]["items"], engineer_items.len());
    assert_eq!(todo[0]["first_item"], engineer_items[0]);
    let quotes: Vec<i64> = todo[1..]
        .iter()
        .map(|e| e["quote"]["quote_id"].as_i64().unwrap())
        .collect();
    assert!(quotes.contains(&lasting) && quotes.contains(&expiring));

    // An engineer answers one of theirs: one fewer waits.
    let form = [
        ("order_id", o.as_str()),
        ("item_id", engineer_items[0]),
        ("status", "not_applicable"),
        ("status_note", "single-node batch"),
        ("answer", ""),
        ("evidence_run", ""),
        ("evidence_note", ""),
    ];
    let res = t.app.call("/api/orders/answer", &form, Some(&t.eve)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let todo = t.notifications(&t.eve).await;
    assert_eq!(todo[0]["items"], engineer_items.len() - 1);

    // Managers: nothing to sign yet; no decisions.
    let board = t.dashboard(&t.max).await;
    assert!(board["todo"].as_array().unwrap().is_empty());
    assert!(board["decisions"].as_array().unwrap().is_empty());

    // Another team sees none of it.
    let b = t.app.create_team(&t.admin, "B").await;
    t.app.create_member(&t.admin, "bea@example.com", b, "procurement").await;
    let bea = t.app.login("bea@example.com", PASSWORD).await;
    let board = t.dashboard(&bea).await;
    assert_eq!(count(&board, &json!("current_quotes")), 0);
    assert_eq!(count(&board, &json!({ "orders": "draft" })), 0);
    assert!(board["todo"].as_array().unwrap().is_empty(), "{board}");
}

/// The quote ids of the engineers' "no valid run yet" entries.
fn quotes_without_run(todo: &[Value]) -> Vec<i64> {
    todo.iter()
        .filter(|e| e["kind"] == "quote_without_run")
        .map(|e| e["quote"]["quote_id"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn engineers_are_asked_for_runs_only_of_quotes_an_open_order_weighs_that_fit_its_workload() {
    let t = team().await;
    // A catalogue of five rows nobody compared, two fitting quotes, one too small (16 GiB for a
    // 20 GiB workload) and one already measured.
    for n in 0..5 {
        t.app.create_quote(&t.pam, &format!("catalog-{n}")).await;
    }
    let chosen = t.app.create_quote(&t.pam, "L4-chosen").await;
    let considered = t.app.create_quote(&t.pam, "L4-considered").await;
    let small = t
        .app
        .create_quote_with(
            &t.pam,
            "T4-small",
            &[("spec.gpu_model", "T4 16GB"), ("spec.vram_gib", "16")],
        )
        .await;
    let measured = t.app.create_quote(&t.pam, "L4-measured").await;
    let token = t.app.create_token(&t.eve, "ci").await;
    t.app.upload_valid_l4_run(&token, measured, t.workload).await;
    assert!(
        quotes_without_run(&t.notifications(&t.eve).await).is_empty(),
        "nine quotes, no open order: nothing to measure"
    );

    let order = t.app.create_order(&t.pam, "Batch nodes", t.workload).await.to_string();
    let ids = [chosen, considered, small, measured].map(|q| q.to_string());
    let mut select = vec![
        ("order_id", order.as_str()),
        ("quote_id", ids[0].as_str()),
        ("waiver", ""),
    ];
    select.extend(ids.iter().map(|q| ("considered[]", q.as_str())));
    let res = t.app.call("/api/orders/select", &select, Some(&t.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let mut asked = quotes_without_run(&t.notifications(&t.eve).await);
    asked.sort_unstable();
    assert_eq!(
        asked,
        [chosen, considered],
        "not the catalogue, the small node or the measured one"
    );
    assert_eq!(
        quotes_without_run(&t.dashboard(&t.eve).await["todo"].as_array().unwrap().clone()).len(),
        2,
        "the dashboard lists the same"
    );
    let team: i64 = sqlx::query_scalar("SELECT team_id FROM quotes WHERE id = ?")
        .bind(chosen)
        .fetch_one(&t.app.db)
        .await
        .unwrap();
    let stored = store::quotes::run_candidates(&t.app.db, team, &[measured, small, chosen, 9999])
        .await
        .unwrap();
    let loaded: Vec<(i64, bool)> = stored.iter().map(|c| (c.fact.quote_id, c.has_valid_run)).collect();
    assert_eq!(
        loaded,
        [(chosen, false), (small, false), (measured, true)],
        "by vendor then id, unknown ids skipped"
    );
}

#[tokio::test]
async fn a_submitted_order_waits_on_the_managers_dashboard_until_decided() {
    let t = team().await;
    let quote = t.app.create_quote(&t.pam, "L4-1").await;
    let token = t.app.create_token(&t.eve, "ci").await;
    let run = t.app.upload_valid_l4_run(&token, quote, t.workload).await.to_string();
    let q = quote.to_string();
    let order = t.app.create_order(&t.pam, "L4 for batch", t.workload).await;
    let o = order.to_string();
    let select = [
        ("order_id", o.as_str()),
        ("quote_id", q.as_str()),
        ("waiver", ""),
        ("considered[]", q.as_str()),
        ("runs[]", run.as_str()),
    ];
    let res = t.app.call("/api/orders/select", &select, Some(&t.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    // The quote now has a valid run: the engineers no longer hear of it.
    assert!(!kinds(&t.notifications(&t.eve).await).contains(&"quote_without_run"));
    for item in applicable_items(OrderKind::Batch, false) {
        let who = if item.expert == Expert::Engineer {
            &t.eve
        } else {
            &t.pam
        };
        let form = [
            ("order_id", o.as_str()),
            ("item_id", item.id),
            ("status", "confirmed"),
            ("status_note", ""),
            ("answer", "checked"),
            ("evidence_run", run.as_str()),
            ("evidence_note", "see the run"),
        ];
        let res = t.app.call("/api/orders/answer", &form, Some(who)).await;
        assert_eq!(res.status, StatusCode::OK, "{}: {}", item.id, res.body);
    }
    let pam = t.dashboard(&t.pam).await;
    assert_eq!(pam["todo"][0]["kind"], "order_draft");
    assert_eq!(pam["todo"][0]["blocks"], json!([]), "ready to submit");
    assert!(t.notifications(&t.eve).await.is_empty(), "every engineer item answered");

    let res = t
        .app
        .call("/api/orders/submit", &[("order_id", &o)], Some(&t.pam))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let board = t.dashboard(&t.max).await;
    let todo = board["todo"].as_array().unwrap();
    assert_eq!(kinds(todo), ["awaiting_sign_off"]);
    assert_eq!(todo[0]["order_id"], order);
    assert_eq!(todo[0]["days"], 0, "submitted today");
    assert_eq!(t.notifications(&t.max).await, *todo);
    assert!(t.dashboard(&t.pam).await["todo"].as_array().unwrap().is_empty());

    // Rejected: off the manager's list, on procurement's with the comment, in the decisions.
    let decide = [
        ("order_id", o.as_str()),
        ("decision", "reject"),
        ("password", PASSWORD),
        ("comment", "Ask for a longer validity"),
    ];
    let res = t.app.call("/api/orders/decide", &decide, Some(&t.max)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let board = t.dashboard(&t.max).await;
    assert!(board["todo"].as_array().unwrap().is_empty());
    assert_eq!(board["decisions"][0]["order_id"], order);
    assert_eq!(board["decisions"][0]["approved"], false);
    assert_eq!(board["decisions"][0]["by"], "max@example.com");
    let pam = t.notifications(&t.pam).await;
    assert_eq!(kinds(&pam), ["order_rejected"]);
    assert_eq!(pam[0]["comment"], "Ask for a longer validity");
}

#[tokio::test]
async fn the_administrator_sees_users_without_a_team_and_members_do_not() {
    let t = team().await;
    let board = t.dashboard(&t.admin).await;
    assert!(board["admin"].as_array().unwrap().is_empty(), "{board}");
    let b = t.app.create_team(&t.admin, "B").await;
    let lone = t.app.create_member(&t.admin, "lone@example.com", b, "engineer").await;
    let res = t
        .app
        .call(
            "/api/admin/remove_member",
            &[("user_id", &lone.to_string()), ("team_id", &b.to_string())],
            Some(&t.admin),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let board = t.dashboard(&t.admin).await;
    let admin = board["admin"].as_array().unwrap();
    assert_eq!(kinds(admin), ["user_without_team"]);
    assert_eq!(admin[0]["user_id"], lone);
    assert_eq!(t.notifications(&t.admin).await, *admin);

    // Disabled, the user needs no team: the dashboard and the user list say the same.
    let res = t
        .app
        .call(
            "/api/admin/set_user_disabled",
            &[("user_id", &lone.to_string()), ("disabled", "true")],
            Some(&t.admin),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert!(t.dashboard(&t.admin).await["admin"].as_array().unwrap().is_empty());
    let home = t.app.get("/", Some(&t.admin), None).await;
    assert!(home.body.contains("Every enabled user is in a team"), "{}", home.body);
    let users = t.app.get("/admin/users", Some(&t.admin), None).await;
    assert!(users.body.contains("None needed: disabled"), "{}", users.body);
    assert!(!users.body.contains(">No team<"), "{}", users.body);

    // What waits for administrators is not a team member's.
    assert!(t.dashboard(&t.pam).await["admin"].as_array().unwrap().is_empty());
    let anon = t.app.call("/api/dashboard", &[], None).await;
    assert_eq!(anon.status, StatusCode::UNAUTHORIZED);
    assert!(t.app.call("/api/notifications", &[], None).await.body.contains("[]"));
}

#[tokio::test]
async fn the_to_do_mail_sends_each_new_entry_once_in_the_users_language() {
    let t = team().await;
    let order = t.app.create_order(&t.pam, "Batch nodes", t.workload).await;
    // Eve reads the app in Chinese: her dashboard remembers it for her mail.
    let res = t.app.get("/", Some(&t.eve), Some("zh-CN")).await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(
        res.body.contains("项工程师检查项尚未填写"),
        "her dashboard lists her items in Chinese"
    );

    // The mail server is down: nothing is recorded as sent, so the next pass tries again.
    let closed = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let down = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1")
        .port(closed)
        .build();
    let down = Mailer::new(down, "nodeledger@example.com", "https://desk.example.com").unwrap();
    let failed = pass(&down, &t.app.db, store::today()).await.unwrap();
    assert_eq!((failed.mails, failed.failed), (0, 2));

    let (port, inbox) = fake_smtp().await;
    let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1")
        .port(port)
        .build();
    let mailer = Mailer::new(
        transport,
        "NodeLedger <nodeledger@example.com>",
        "https://desk.example.com/",
    )
    .unwrap();
    let first = pass(&mailer, &t.app.db, store::today()).await.unwrap();
    assert_eq!(
        first.mails, 2,
        "pam (her draft) and eve (items to answer); max has nothing"
    );

    let mails = inbox.lock().unwrap().clone();
    let to_eve = mails
        .iter()
        .find(|(to, _)| to == &["eve@example.com"])
        .expect("a mail to eve");
    let text = decoded(&to_eve.1);
    assert!(text.contains("Subject: =?utf-8?"), "a Chinese subject, encoded: {text}");
    assert!(text.contains("Batch nodes"), "{text}");
    assert!(text.contains("项工程师检查项尚未填写"), "in Chinese: {text}");
    assert!(
        text.contains(&format!("https://desk.example.com/orders/{order}#item-")),
        "{text}"
    );
    let to_pam = mails
        .iter()
        .find(|(to, _)| to == &["pam@example.com"])
        .expect("a mail to pam");
    let text = decoded(&to_pam.1);
    assert!(text.contains("Subject: NodeLedger: 1 new for you in A"), "{text}");
    assert!(text.contains("Batch nodes (draft): "), "{text}");
    assert!(text.contains("no quote chosen"), "{text}");

    // Nothing new: the second pass sends nothing.
    let second = pass(&mailer, &t.app.db, store::today()).await.unwrap();
    assert_eq!(second, Pass::default());
    assert_eq!(inbox.lock().unwrap().len(), 2);

    // Something new: only that is mailed.
    t.app.create_order(&t.pam, "More nodes", t.workload).await;
    let third = pass(&mailer, &t.app.db, store::today()).await.unwrap();
    assert_eq!(third.mails, 2, "pam and eve each hear of the new order");
    assert_eq!(third.entries, 2);
    let mails = inbox.lock().unwrap().clone();
    let last_to_pam = decoded(&mails.iter().rev().find(|(to, _)| to == &["pam@example.com"]).unwrap().1);
    assert!(
        last_to_pam.contains("More nodes") && !last_to_pam.contains("Batch nodes"),
        "{last_to_pam}"
    );
}

#[test]
fn mail_is_off_unless_a_server_is_named_and_needs_a_sender() {
    use server::config::MailConfig;
    assert!(
        Mailer::from_config(&MailConfig::default(), "http://x")
            .unwrap()
            .is_none()
    );
    let no_sender = MailConfig {
        smtp_url: Some("smtp://localhost:2525".into()),
        ..MailConfig::default()
    };
    assert!(Mailer::from_config(&no_sender, "http://x").is_err());
}
