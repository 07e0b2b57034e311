//! The bill and quote imports share the process's parse slots with the run uploads: with one
//! slot, held by an import whose body is still arriving (the slot is taken before the body is
//! read), another import and a run upload each wait `SLOT_WAIT` and are answered 503 with
//! `Retry-After` — the import in the caller's language — and once the first import has answered,
//! the slot is free again.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use axum::body::Body;
use common::{ORIGIN, PASSWORD, TestApp};
use http::{Request, StatusCode, header};
use serde_json::{Value, json};
use server::{config::ServeConfig, parse_slots};
use std::time::Duration;
use tower::ServiceExt;

const VLLM: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/vllm_serve.json");

/// The rest of a quote import's JSON after the opening `{"request":{"content":"`.
const IMPORT_TAIL: &str = r#"a,b\n","format":"auto","vendor":"","currency":"USD","valid_until":""},"save":false}"#;

/// A quote import (a two-line file that is not a quote CSV: answered 200 with a file error).
fn small_import() -> Value {
    json!({ "request": { "content": "a,b\n", "format": "auto", "vendor": "", "currency": "USD",
        "valid_until": "" }, "save": false })
}

/// An import request of `pam` whose body arrives through the returned sender.
fn streamed_import(pam: &str) -> (Request<Body>, tokio::sync::mpsc::Sender<Result<String, std::io::Error>>) {
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    let chunks = futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|c| (c, rx)) });
    let req = Request::post("/api/quotes/import")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json")
        .header(header::HOST, "127.0.0.1:3000")
        .header(header::ORIGIN, ORIGIN)
        .header(header::COOKIE, pam)
        .body(Body::from_stream(chunks))
        .unwrap();
    (req, tx)
}

/// A POST as the browser sends it (`TestApp::send` would give up before the slot wait ends).
fn post(path: &str, content_type: &str, auth: (header::HeaderName, &str), body: Vec<u8>) -> Request<Body> {
    Request::post(path)
        .header(header::CONTENT_TYPE, content_type)
        .header(header::ACCEPT, "application/json")
        .header(header::HOST, "127.0.0.1:3000")
        .header(header::ORIGIN, ORIGIN)
        .header(auth.0, auth.1)
        .body(Body::from(body))
        .unwrap()
}

/// Status, `Retry-After` and body of the answer to `req`.
async fn answer(app: &TestApp, req: Request<Body>) -> (StatusCode, Option<String>, String) {
    let res = app.router.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let retry = res
        .headers()
        .get(header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let body = http_body_util::BodyExt::collect(res.into_body())
        .await
        .unwrap()
        .to_bytes();
    (status, retry, String::from_utf8_lossy(&body).into_owned())
}

/// A script's run upload of the vLLM fixture.
fn run_upload(token: &str) -> Request<Body> {
    let boundary = "----nodeledger-slots";
    let mut body =
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"result\"; filename=\"r.json\"\r\n\r\n")
            .into_bytes();
    body.extend_from_slice(VLLM);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let bearer = format!("Bearer {token}");
    let mut req = post(
        "/api/v1/runs",
        &format!("multipart/form-data; boundary={boundary}"),
        (header::AUTHORIZATION, &bearer),
        body,
    );
    req.headers_mut().remove(header::ORIGIN);
    req
}

#[tokio::test]
async fn with_the_one_slot_held_by_an_import_another_import_and_a_run_upload_get_503() {
    let cfg = ServeConfig {
        parse_slots: 1,
        ..ServeConfig::for_tests()
    };
    let app = TestApp::with_config(Duration::from_secs(3600), &cfg).await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "A").await;
    app.create_member(&admin, "pam@example.com", team, "procurement").await;
    app.create_member(&admin, "eve@example.com", team, "engineer").await;
    let pam = app.login("pam@example.com", PASSWORD).await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    let token = app.create_token(&eve, "CI").await;

    let (held, body) = streamed_import(&pam);
    body.send(Ok(r#"{"request":{"content":""#.to_string())).await.unwrap();
    let router = app.router.clone();
    let first = tokio::spawn(async move { router.oneshot(held).await.unwrap() });
    tokio::time::sleep(Duration::from_millis(300)).await;

    let json = "application/json";
    let mut zh = post(
        "/api/quotes/import",
        json,
        (header::COOKIE, &pam),
        small_import().to_string().into_bytes(),
    );
    zh.headers_mut()
        .insert(header::ACCEPT_LANGUAGE, "zh-CN".parse().unwrap());
    let bill_import = json!({ "request": { "order_id": 1, "file_name": "b.csv", "content": "x" }, "save": false });
    let bill = post(
        "/api/orders/bills/import",
        json,
        (header::COOKIE, &pam),
        bill_import.to_string().into_bytes(),
    );
    let started = std::time::Instant::now();
    let (zh, bill, run) = tokio::join!(answer(&app, zh), answer(&app, bill), answer(&app, run_upload(&token)));
    assert!(
        started.elapsed() >= parse_slots::SLOT_WAIT,
        "each waited for the slot first"
    );
    for (what, (status, retry, body)) in [("quote import", &zh), ("bill import", &bill), ("run upload", &run)] {
        assert_eq!(*status, StatusCode::SERVICE_UNAVAILABLE, "{what}: {body}");
        assert_eq!(retry.as_deref(), Some("5"), "{what}");
    }
    let zh: Value = serde_json::from_str(&zh.2).unwrap();
    assert_eq!(zh["message"], "服务器正在读取其他导入或上传的文件：请几秒后重试。");
    assert!(bill.2.contains("try again in a few seconds"), "{}", bill.2);

    // The held import reads the rest of its body, answers, and frees the slot.
    body.send(Ok(IMPORT_TAIL.to_string())).await.unwrap();
    drop(body);
    assert_eq!(first.await.unwrap().status(), StatusCode::OK);
    let again = app.call_json("/api/quotes/import", &small_import(), Some(&pam)).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
}
