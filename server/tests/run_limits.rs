//! One request cannot make the server load or write more than a run needs: a
//! run is at most two distinct files, and more ids, more file parts or a repeated one are
//! refused (422 naming `files`) before anything is loaded from the database or written to the
//! upload folder.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use axum::body::Body;
use common::{ORIGIN, PASSWORD, TestApp};
use http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use server::config::ServeConfig;
use std::{path::PathBuf, time::Duration};
use tower::ServiceExt;

const VLLM: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/vllm_serve.json");
const SMI: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/smi_multi_gpu.csv");
const MLPERF: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/mlperf_offline_valid.txt");
const BOUNDARY: &str = "----nodeledger-limits-boundary";

/// A team with engineer eve (signed in, and with an API token), its uploads kept in `uploads`.
struct Bench {
    app: TestApp,
    eve: String,
    token: String,
    uploads: PathBuf,
}

async fn bench() -> Bench {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let uploads = std::env::temp_dir().join(format!(
        "nl-limits-uploads-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&uploads).unwrap();
    let cfg = ServeConfig {
        upload_dir: Some(uploads.clone()),
        ..ServeConfig::for_tests()
    };
    let app = TestApp::with_config(Duration::from_secs(3600), &cfg).await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "A").await;
    app.create_member(&admin, "eve@example.com", team, "engineer").await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    let token = app.create_token(&eve, "CI").await;
    Bench {
        app,
        eve,
        token,
        uploads,
    }
}

impl Bench {
    /// Files waiting in the upload folder.
    fn waiting(&self) -> Vec<String> {
        std::fs::read_dir(&self.uploads)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }

    async fn count(&self, sql: &'static str) -> i64 {
        sqlx::query_scalar(sql).fetch_one(&self.app.db).await.unwrap()
    }

    /// Uploads one file as the browser does; returns its id.
    async fn upload(&self, name: &str, bytes: &[u8]) -> i64 {
        let res = self
            .app
            .multipart("/runs/upload", &[("file", Some(name), bytes)], Some(&self.eve), None)
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        json(&res.body)["file"]["id"].as_i64().unwrap()
    }

    /// Sends `head` (complete multipart parts) followed by the start of one more file part whose
    /// bytes never finish arriving, and returns the answer if one comes within five seconds.
    async fn send_stalled(&self, path: &str, head: Vec<u8>, bearer: bool) -> Option<(StatusCode, Value)> {
        let mut start = head;
        start.extend_from_slice(
            format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"more.json\"\r\n\r\n{{")
                .as_bytes(),
        );
        let chunks = futures_util::stream::iter([Ok::<_, std::io::Error>(axum::body::Bytes::from(start))])
            .chain(futures_util::stream::pending());
        let mut req = Request::post(path)
            .header(
                header::CONTENT_TYPE,
                format!("multipart/form-data; boundary={BOUNDARY}"),
            )
            .header(header::ACCEPT, "application/json")
            .header(header::HOST, "127.0.0.1:3000");
        req = if bearer {
            req.header(header::AUTHORIZATION, format!("Bearer {}", self.token))
        } else {
            req.header(header::COOKIE, &self.eve).header(header::ORIGIN, ORIGIN)
        };
        let req = req.body(Body::from_stream(chunks)).unwrap();
        let answer = tokio::time::timeout(Duration::from_secs(5), async {
            let res = self.app.router.clone().oneshot(req).await.unwrap();
            let status = res.status();
            let body = res.into_body().collect().await.unwrap().to_bytes();
            (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
        })
        .await;
        answer.ok()
    }
}

impl Drop for Bench {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.uploads);
    }
}

use futures_util::StreamExt as _;

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// One complete multipart part.
fn part(name: &str, file_name: Option<&str>, bytes: &[u8]) -> Vec<u8> {
    let disposition = match file_name {
        Some(f) => format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\n"),
        None => format!("Content-Disposition: form-data; name=\"{name}\"\r\n"),
    };
    let mut out = format!("--{BOUNDARY}\r\n{disposition}\r\n").into_bytes();
    out.extend_from_slice(bytes);
    out.extend_from_slice(b"\r\n");
    out
}

/// The one field issue of a 422 answer: (field, code, limit). Raw routes answer `fields` (with
/// `message`s), server functions the encoded error's `detail` (the page words it).
fn issue(body: &Value) -> (String, String, String) {
    let fields = body["fields"]
        .as_array()
        .or_else(|| body["detail"].as_array())
        .unwrap_or_else(|| panic!("no fields: {body}"));
    assert_eq!(fields.len(), 1, "{body}");
    let text = |k: &str| fields[0][k].as_str().unwrap_or_default().to_string();
    (text("field"), text("code"), text("limit"))
}

#[tokio::test]
async fn a_preview_or_save_with_ten_thousand_ids_is_refused_before_any_is_loaded() {
    let b = bench().await;
    // Ids no file has: loading even the first would answer "not found" (404).
    let ids: Vec<i64> = (0..10_000).map(|i| 900_000 + i % 7).collect();
    for path in ["/api/runs/preview", "/api/runs/preview_shown", "/api/runs/save"] {
        let res = b
            .app
            .call_json(
                path,
                &json!({ "request": { "files": ids, "node_label": "n1", "note": "" } }),
                Some(&b.eve),
            )
            .await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{path}: {}", res.body);
        let body = json(&res.body);
        assert_eq!(
            issue(&body),
            ("files".into(), "too_many_files".into(), "2".into()),
            "{path}: {body}"
        );
    }
    assert_eq!(b.count("SELECT COUNT(*) FROM runs").await, 0);
}

#[tokio::test]
async fn a_file_named_twice_is_refused_as_a_repeat() {
    let b = bench().await;
    let id = b.upload("vllm.json", VLLM).await;
    for path in ["/api/runs/preview", "/api/runs/preview_shown", "/api/runs/save"] {
        let res = b
            .app
            .call_json(
                path,
                &json!({ "request": { "files": [id, id], "node_label": "n1", "note": "" } }),
                Some(&b.eve),
            )
            .await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{path}: {}", res.body);
        assert_eq!(
            issue(&json(&res.body)),
            ("files".into(), "duplicate_file".into(), String::new()),
            "{path}"
        );
    }
    assert_eq!(b.count("SELECT COUNT(*) FROM runs").await, 0);
    // Two distinct files still make one run.
    let smi = b.upload("smi.csv", SMI).await;
    let res = b
        .app
        .call_json(
            "/api/runs/save",
            &json!({ "request": { "files": [id, smi], "node_label": "n1", "note": "" } }),
            Some(&b.eve),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
}

#[tokio::test]
async fn the_api_refuses_a_third_file_part_before_reading_it() {
    let b = bench().await;
    let mut head = part("result", Some("r.json"), VLLM);
    head.extend(part("telemetry", Some("t.csv"), SMI));
    head.extend(part("node_label", None, b"n1"));
    let answer = b.send_stalled("/api/v1/runs", head, true).await;
    let (status, body) = answer.expect("the third file part is refused at once, not read to its end");
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(issue(&body), ("files".into(), "too_many_files".into(), "2".into()));
    assert!(body["message"].as_str().unwrap().starts_with("files:"), "{body}");
    assert_eq!(b.waiting(), Vec::<String>::new(), "the staged files are gone");
    assert_eq!(b.count("SELECT COUNT(*) FROM run_files").await, 0);

    // Complete forms: a third file, or a second result, are refused and nothing is kept.
    let parts = [
        ("result", Some("r.json"), VLLM),
        ("telemetry", Some("t.csv"), SMI),
        ("file", Some("m.txt"), MLPERF),
        ("node_label", None, b"n1".as_slice()),
    ];
    let res = b.app.multipart("/api/v1/runs", &parts, None, Some(&b.token)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert_eq!(issue(&json(&res.body)).1, "too_many_files");
    let parts = [
        ("result", Some("r.json"), VLLM),
        ("result", Some("m.txt"), MLPERF),
        ("node_label", None, b"n1".as_slice()),
    ];
    let res = b.app.multipart("/api/v1/runs", &parts, None, Some(&b.token)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert_eq!(
        issue(&json(&res.body)),
        ("result".into(), "duplicate_file".into(), String::new())
    );
    // The same bytes as two `file` parts are one file sent twice.
    let parts = [
        ("file", Some("a.json"), VLLM),
        ("file", Some("b.json"), VLLM),
        ("node_label", None, b"n1".as_slice()),
    ];
    let res = b.app.multipart("/api/v1/runs", &parts, None, Some(&b.token)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert_eq!(issue(&json(&res.body)).1, "duplicate_file");
    assert_eq!(b.waiting(), Vec::<String>::new());
    assert_eq!(b.count("SELECT COUNT(*) FROM run_files").await, 0);
    assert_eq!(b.count("SELECT COUNT(*) FROM runs").await, 0);
}

#[tokio::test]
async fn the_browser_upload_refuses_a_second_file_part_before_reading_it() {
    let b = bench().await;
    let head = part("file", Some("r.json"), VLLM);
    let answer = b.send_stalled("/runs/upload", head, false).await;
    let (status, body) = answer.expect("the second file part is refused at once, not read to its end");
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(issue(&body), ("files".into(), "too_many_files".into(), "1".into()));
    assert_eq!(b.waiting(), Vec::<String>::new());
    assert_eq!(b.count("SELECT COUNT(*) FROM run_files").await, 0);
}

#[tokio::test]
async fn huge_text_fields_and_endless_parts_are_cut_short() {
    let b = bench().await;
    let note = "n".repeat(64 * 1024);
    let parts = [
        ("result", Some("r.json"), VLLM),
        ("node_label", None, b"n1".as_slice()),
        ("note", None, note.as_bytes()),
    ];
    let res = b.app.multipart("/api/v1/runs", &parts, None, Some(&b.token)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert_eq!(
        issue(&json(&res.body)),
        ("note".into(), "field_too_large".into(), "16384".into())
    );
    let many: Vec<(&str, Option<&str>, &[u8])> = (0..40).map(|_| ("node_label", None, b"n1".as_slice())).collect();
    let res = b.app.multipart("/api/v1/runs", &many, None, Some(&b.token)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert_eq!(
        issue(&json(&res.body)),
        ("form".into(), "too_many_parts".into(), "32".into())
    );
    let res = b.app.multipart("/runs/upload", &many, Some(&b.eve), None).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert_eq!(issue(&json(&res.body)).1, "too_many_parts");
    assert_eq!(b.waiting(), Vec::<String>::new());
}

/// Reading is bounded, not only receiving: a result read whole is at most 16 MB (only
/// nvidia-smi telemetry, streamed, may be larger), and a JSON result holds at most two million
/// values — a 6 MB file of `[0,0,0,…]` once became a tree of three million values. Both are
/// refused with what to do, nothing is stored and nothing is left in the upload folder.
#[tokio::test]
async fn a_result_too_large_to_read_whole_or_with_too_many_values_is_refused() {
    let b = bench().await;
    let mut big = b"{\"padding\": \"".to_vec();
    big.resize(17 * 1024 * 1024, b'x');
    big.extend_from_slice(b"\"}");
    let res = b
        .app
        .multipart("/runs/upload", &[("file", Some("big.json"), &big)], Some(&b.eve), None)
        .await;
    assert_eq!(res.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", res.body);
    assert!(res.body.contains("at most 16 MB"), "{}", res.body);
    let mut zeros = b"[0".to_vec();
    for _ in 0..3_000_000 {
        zeros.extend_from_slice(b",0");
    }
    zeros.push(b']');
    let res = b
        .app
        .multipart(
            "/runs/upload",
            &[("file", Some("zeros.json"), &zeros)],
            Some(&b.eve),
            None,
        )
        .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.body.contains("more than 2,000,000 values"), "{}", res.body);
    assert_eq!(b.count("SELECT COUNT(*) FROM run_files").await, 0);
    assert_eq!(b.waiting(), Vec::<String>::new());
}
