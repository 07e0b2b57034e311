//! Who may use the raw routes (documents, quote export, run files and charts, order export, cost
//! exports): every one of them goes through the `TeamAccess` extractor, so each answers alike —
//! nobody signed in → 401, no active team or a role without the capability → 403, another
//! team's record → 404, allowed → 200 — with the bodies the routes have always sent.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use common::{Answer, PASSWORD, TestApp};
use http::StatusCode;

const VLLM: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/vllm_serve.json");
const SMI: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/smi_multi_gpu.csv");
/// A cookie that is no session: the request comes from the site's page, nobody signed in.
const NO_SESSION: &str = "nl_lang=en";
const PDF: &[u8] = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n";

/// Team A: procurement pam, engineer eve, each with a record of every kind; team B: procurement
/// bob. The administrator belongs to no team.
struct Desk {
    app: TestApp,
    admin: String,
    pam: String,
    eve: String,
    bob: String,
    quote: i64,
    document: i64,
    run: i64,
    run_file: i64,
    order: i64,
}

async fn desk() -> Desk {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let a = app.create_team(&admin, "A").await;
    let b = app.create_team(&admin, "B").await;
    app.create_member(&admin, "pam@example.com", a, "procurement").await;
    app.create_member(&admin, "eve@example.com", a, "engineer").await;
    app.create_member(&admin, "bob@example.com", b, "procurement").await;
    let pam = app.login("pam@example.com", PASSWORD).await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    let bob = app.login("bob@example.com", PASSWORD).await;
    let workload = app.create_workload(&pam, "Batch job").await;
    let quote = app.create_quote(&pam, "L4-1").await;
    let res = app
        .multipart(
            &format!("/quotes/{quote}/documents"),
            &[("revision", None, b"1"), ("file", Some("quote.pdf"), PDF)],
            Some(&pam),
            None,
        )
        .await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let document = sqlx::query_scalar("SELECT id FROM quote_documents")
        .fetch_one(&app.db)
        .await
        .unwrap();
    let token = app.create_token(&eve, "ci").await;
    let res = app
        .multipart(
            "/api/v1/runs",
            &[
                ("result", Some("v.json"), VLLM),
                ("telemetry", Some("smi.csv"), SMI),
                ("node_label", None, b"box"),
            ],
            None,
            Some(&token),
        )
        .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let (run, run_file): (i64, i64) = sqlx::query_as("SELECT id, result_file_id FROM runs")
        .fetch_one(&app.db)
        .await
        .unwrap();
    let order = app.create_order(&pam, "L4 for batch", workload).await;
    Desk {
        app,
        admin,
        pam,
        eve,
        bob,
        quote,
        document,
        run,
        run_file,
        order,
    }
}

impl Desk {
    /// Every raw GET route of a team record, each naming one of team A's records.
    fn record_routes(&self) -> Vec<String> {
        vec![
            format!("/documents/{}", self.document),
            format!("/runs/{}/files/{}", self.run, self.run_file),
            format!("/runs/{}/telemetry.svg", self.run),
            format!("/orders/{}/export.json", self.order),
        ]
    }

    async fn get(&self, path: &str, cookie: Option<&str>) -> Answer {
        self.app.get(path, cookie, None).await
    }
}

#[tokio::test]
async fn nobody_signed_in_gets_401_and_a_caller_without_a_team_403_on_every_raw_route() {
    let d = desk().await;
    let mut routes = d.record_routes();
    routes.extend(
        [
            "/quotes/export.csv",
            "/tco/export.csv",
            "/tco/export.json",
            "/tco/stack.svg",
        ]
        .map(String::from),
    );
    routes.push("/runs/compare.svg?workload=&unit=tokens%2Fs".into());
    // A draft order holds no frozen scenario yet (404 for its team), but the caller is checked first.
    routes.push(format!("/orders/{}/scenario.json", d.order));
    for path in &routes {
        let anon = d.get(path, None).await;
        assert_eq!(
            (anon.status, anon.body.as_str()),
            (StatusCode::UNAUTHORIZED, ""),
            "{path}"
        );
        let teamless = d.get(path, Some(&d.admin)).await;
        assert_eq!(
            (teamless.status, teamless.body.as_str()),
            (StatusCode::FORBIDDEN, ""),
            "{path}: the administrator belongs to no team"
        );
    }
}

#[tokio::test]
async fn members_read_their_team_s_records_and_another_team_finds_none() {
    let d = desk().await;
    for path in d.record_routes() {
        for (who, cookie) in [("pam", &d.pam), ("eve", &d.eve)] {
            let res = d.get(&path, Some(cookie)).await;
            assert_eq!(res.status, StatusCode::OK, "{who} {path}: {}", res.body);
        }
        let other = d.get(&path, Some(&d.bob)).await;
        assert_eq!(other.status, StatusCode::NOT_FOUND, "team B on {path}");
    }
    let export = d.get("/quotes/export.csv", Some(&d.eve)).await;
    assert_eq!(export.status, StatusCode::OK);
    assert!(export.body.contains("L4-1"), "{}", export.body);
    let other = d.get("/quotes/export.csv", Some(&d.bob)).await;
    assert_eq!(other.status, StatusCode::OK, "team B exports its own, empty list");
    assert!(!other.body.contains("L4-1"), "{}", other.body);
}

#[tokio::test]
async fn only_procurement_attaches_documents_to_its_own_team_s_quotes() {
    let d = desk().await;
    let path = format!("/quotes/{}/documents", d.quote);
    let send = |cookie: Option<&str>| {
        let (app, path, cookie) = (&d.app, path.clone(), cookie.map(str::to_string));
        async move {
            app.multipart(
                &path,
                &[
                    ("revision", None, b"1"),
                    ("file", Some("other.pdf"), b"%PDF-1.7\nother\n%%EOF\n"),
                ],
                cookie.as_deref(),
                None,
            )
            .await
        }
    };
    let anon = send(Some(NO_SESSION)).await;
    assert_eq!((anon.status, anon.body.as_str()), (StatusCode::UNAUTHORIZED, ""));
    let engineer = send(Some(&d.eve)).await;
    assert_eq!((engineer.status, engineer.body.as_str()), (StatusCode::FORBIDDEN, ""));
    assert_eq!(send(Some(&d.admin)).await.status, StatusCode::FORBIDDEN, "no team");
    assert_eq!(
        send(Some(&d.bob)).await.status,
        StatusCode::NOT_FOUND,
        "team B's procurement"
    );
    let allowed = send(Some(&d.pam)).await;
    assert_eq!(allowed.status, StatusCode::SEE_OTHER, "{}", allowed.body);
    assert_eq!(
        allowed.headers["location"],
        format!("/quotes/{}?rev=1#documents", d.quote)
    );
}

#[tokio::test]
async fn the_browser_s_run_upload_refuses_in_words() {
    let d = desk().await;
    let send = |cookie: Option<String>| {
        let app = &d.app;
        async move {
            app.multipart(
                "/runs/upload",
                &[("file", Some("v.json"), VLLM)],
                cookie.as_deref(),
                None,
            )
            .await
        }
    };
    let anon = send(Some(NO_SESSION.to_string())).await;
    assert_eq!(anon.status, StatusCode::UNAUTHORIZED, "{}", anon.body);
    let body: serde_json::Value = serde_json::from_str(&anon.body).unwrap();
    assert_eq!(body["error"], "unauthenticated");
    assert!(body["message"].is_string(), "{body}");
    let buyer = send(Some(format!("{}; nl_lang=zh-CN", d.pam))).await;
    assert_eq!(buyer.status, StatusCode::FORBIDDEN, "procurement uploads no runs");
    let body: serde_json::Value = serde_json::from_str(&buyer.body).unwrap();
    assert_eq!(body["error"], "forbidden");
    assert_eq!(
        body["message"],
        app::i18n::Locale::ZhCn.t(app::i18n::Msg::ErrorForbidden),
        "in the reader's language"
    );
    assert_eq!(send(Some(d.eve.clone())).await.status, StatusCode::OK);
}

#[tokio::test]
async fn errors_after_the_check_carry_the_server_function_body() {
    let d = desk().await;
    let missing = d.get("/orders/999999/export.json", Some(&d.pam)).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(
        serde_json::from_str::<app::error::AppError>(&missing.body).unwrap(),
        app::error::AppError::NotFound,
        "{}",
        missing.body
    );
}
