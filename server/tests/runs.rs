//! Benchmark runs through the router: API tokens and their scopes, the scripts' upload, the
//! browser's upload-preview-save, duplicates, bad files (4xx, nothing stored), team isolation.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use common::{PASSWORD, TestApp};
use http::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;

const VLLM: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/vllm_serve.json");
const SMI: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/smi_multi_gpu.csv");
const SMI_OTHER: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/smi_units_event.csv");
const MLPERF_VALID: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/mlperf_offline_valid.txt");
const MLPERF_INVALID: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/mlperf_server_invalid.txt");

/// Team A: engineer eve, manager max, procurement pam; team B: engineer bob.
struct Desk {
    app: TestApp,
    eve: String,
    max: String,
    pam: String,
    bob: String,
}

async fn desk_with(app: TestApp) -> Desk {
    let admin = app.setup_admin().await;
    let a = app.create_team(&admin, "A").await;
    let b = app.create_team(&admin, "B").await;
    app.create_member(&admin, "eve@example.com", a, "engineer").await;
    app.create_member(&admin, "max@example.com", a, "manager").await;
    app.create_member(&admin, "pam@example.com", a, "procurement").await;
    app.create_member(&admin, "bob@example.com", b, "engineer").await;
    Desk {
        eve: app.login("eve@example.com", PASSWORD).await,
        max: app.login("max@example.com", PASSWORD).await,
        pam: app.login("pam@example.com", PASSWORD).await,
        bob: app.login("bob@example.com", PASSWORD).await,
        app,
    }
}

async fn desk() -> Desk {
    desk_with(TestApp::new().await).await
}

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

impl Desk {
    async fn token(&self, cookie: &str, name: &str) -> String {
        let res = self
            .app
            .call(
                "/api/tokens/create",
                &[("name", name), ("password", PASSWORD)],
                Some(cookie),
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        json(&res.body).as_str().expect("the token").to_string()
    }

    async fn count(&self, table: &str) -> i64 {
        let sql = match table {
            "runs" => "SELECT COUNT(*) FROM runs",
            "chunks" => "SELECT COUNT(*) FROM run_file_chunks",
            _ => "SELECT COUNT(*) FROM run_files",
        };
        sqlx::query_scalar(sql).fetch_one(&self.app.db).await.unwrap()
    }
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn scripts_upload_with_a_token_shown_once_and_revocable() {
    let d = desk().await;
    let token = d.token(&d.eve, "CI on node-7").await;
    assert!(token.starts_with("nlt_") && token.len() == 47, "{token}");
    let listed = d.app.call("/api/tokens", &[], Some(&d.eve)).await;
    assert!(
        listed.body.contains("CI on node-7") && listed.body.contains(&token[..12]),
        "{}",
        listed.body
    );
    assert!(!listed.body.contains(&token), "the token itself is never shown again");
    let stored: String = sqlx::query_scalar("SELECT token_hash FROM api_tokens")
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    assert_ne!(stored, token, "stored hashed");

    let files: &[(&str, Option<&str>, &[u8])] = &[
        ("result", Some("vllm.json"), VLLM),
        ("telemetry", Some("smi.csv"), SMI),
        ("node_label", None, b"Acme H100 x4 trial"),
        ("note", None, b"nightly"),
    ];
    let res = d.app.multipart("/api/v1/runs", files, None, Some(&token)).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let created = json(&res.body);
    let id = created["id"].as_i64().unwrap();
    assert_eq!(created["url"], format!("/runs/{id}"));
    assert!(
        created["reasons"]
            .as_array()
            .is_some_and(|r| r.iter().all(|r| r["message"].is_string())),
        "{created}"
    );
    assert_eq!((d.count("runs").await, d.count("files").await), (1, 2));
    let last_used: Option<String> = sqlx::query_scalar("SELECT last_used_at FROM api_tokens")
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    assert!(last_used.is_some(), "use is recorded");

    // The same bytes again: recognised, nothing new stored.
    let again = d.app.multipart("/api/v1/runs", files, None, Some(&token)).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert_eq!(
        (
            json(&again.body)["duplicate"].as_bool(),
            json(&again.body)["id"].as_i64()
        ),
        (Some(true), Some(id))
    );
    assert_eq!((d.count("runs").await, d.count("files").await), (1, 2));

    // The run is the team's: its members read it, team B does not.
    let got = d
        .app
        .call("/api/runs/get", &[("id", &id.to_string())], Some(&d.max))
        .await;
    assert_eq!(got.status, StatusCode::OK, "{}", got.body);
    assert!(
        got.body.contains("output_tokens_per_s") || got.body.contains("tokens/s"),
        "{}",
        got.body
    );
    assert_eq!(
        d.app
            .call("/api/runs/get", &[("id", &id.to_string())], Some(&d.bob))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let page = d.app.get(&format!("/runs/{id}"), Some(&d.max), None).await;
    assert!(
        page.body.contains(&format!("Run #{id}")) && page.body.contains("telemetry-chart"),
        "{}",
        page.body
    );

    // The telemetry chart, in the reader's language; the comparison chart of the team's runs.
    let chart = d
        .app
        .get(&format!("/runs/{id}/telemetry.svg"), Some(&d.max), Some("zh-CN"))
        .await;
    assert_eq!(chart.status, StatusCode::OK);
    assert_eq!(chart.headers["content-type"], "image/svg+xml");
    assert!(
        chart.body.starts_with("<svg") && chart.body.contains("<title>") && chart.body.contains("SM 频率"),
        "{}",
        &chart.body[..200.min(chart.body.len())]
    );
    assert_eq!(
        d.app
            .get(&format!("/runs/{id}/telemetry.svg"), Some(&d.bob), None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let listed = d.app.call("/api/runs", &[], Some(&d.max)).await;
    assert!(listed.body.contains(r#""has_telemetry":true"#), "{}", listed.body);
    let invalid = d
        .app
        .get("/runs/compare.svg?workload=&unit=tokens%2Fs", Some(&d.max), None)
        .await;
    assert_eq!(
        invalid.status,
        StatusCode::NOT_FOUND,
        "invalid runs are left out of the comparison"
    );
    let valid = d
        .app
        .multipart(
            "/api/v1/runs",
            &[("result", Some("s.txt"), MLPERF_VALID), ("node_label", None, b"L4 box")],
            None,
            Some(&token),
        )
        .await;
    assert_eq!(valid.status, StatusCode::CREATED, "{}", valid.body);
    let bars = d
        .app
        .get("/runs/compare.svg?workload=&unit=samples%2Fs", Some(&d.max), None)
        .await;
    assert_eq!(bars.status, StatusCode::OK, "{}", bars.body);
    assert!(
        bars.body.contains("L4 box") && bars.body.starts_with("<svg"),
        "{}",
        bars.body
    );
    let page = d.app.get("/runs", Some(&d.max), None).await;
    assert!(
        page.body.contains("/runs/compare.svg?workload=&amp;unit=samples%2Fs")
            || page.body.contains("/runs/compare.svg?workload=&unit=samples%2Fs"),
        "{}",
        page.body
    );

    // Raw files come back byte for byte, to the team only.
    let file_id: i64 = sqlx::query_scalar("SELECT result_file_id FROM runs")
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    let raw = d
        .app
        .get(&format!("/runs/{id}/files/{file_id}"), Some(&d.pam), None)
        .await;
    assert_eq!(raw.status, StatusCode::OK);
    assert_eq!(raw.body.as_bytes(), VLLM);
    assert!(
        raw.headers["content-disposition"]
            .to_str()
            .unwrap()
            .contains("attachment")
    );
    assert_eq!(
        d.app
            .get(&format!("/runs/{id}/files/{file_id}"), Some(&d.bob), None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    // Revoked: refused.
    let token_id: i64 = sqlx::query_scalar("SELECT id FROM api_tokens")
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    assert_eq!(
        d.app
            .call("/api/tokens/revoke", &[("id", &token_id.to_string())], Some(&d.bob))
            .await
            .status,
        StatusCode::NOT_FOUND,
        "not bob's"
    );
    assert_eq!(
        d.app
            .call("/api/tokens/revoke", &[("id", &token_id.to_string())], Some(&d.eve))
            .await
            .status,
        StatusCode::OK
    );
    let res = d
        .app
        .multipart(
            "/api/v1/runs",
            &[("result", Some("m.txt"), MLPERF_INVALID), ("node_label", None, b"x")],
            None,
            Some(&token),
        )
        .await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED, "{}", res.body);
    assert!(res.headers.contains_key("www-authenticate"));
    assert_eq!(d.count("runs").await, 2, "nothing stored after revocation");
}

#[tokio::test]
async fn tokens_act_only_with_their_team_and_role() {
    let d = desk().await;
    let upload = |token: Option<String>| {
        let app = &d.app;
        async move {
            let parts: &[(&str, Option<&str>, &[u8])] = &[
                ("result", Some("m.txt"), MLPERF_INVALID),
                ("node_label", None, b"trial"),
            ];
            app.multipart("/api/v1/runs", parts, None, token.as_deref()).await
        }
    };
    let none = upload(None).await;
    assert_eq!(none.status, StatusCode::UNAUTHORIZED);
    assert!(none.body.contains("Authorization: Bearer"), "{}", none.body);
    assert_eq!(
        upload(Some("nlt_not-a-real-token".into())).await.status,
        StatusCode::UNAUTHORIZED
    );
    let made_up = format!("nlt_{}", "A".repeat(43));
    assert_eq!(upload(Some(made_up)).await.status, StatusCode::UNAUTHORIZED);
    let manager = d.token(&d.max, "dashboards").await;
    let res = upload(Some(manager)).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.body);
    assert!(res.body.contains("engineers upload runs"), "{}", res.body);

    // Bob's token uploads into team B; team A never sees it.
    let bobs = d.token(&d.bob, "B's CI").await;
    let res = upload(Some(bobs.clone())).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    assert!(
        res.body.contains(r#""status":"invalid""#),
        "MLPerf INVALID is invalid: {}",
        res.body
    );
    let ours = d.app.call("/api/runs", &[], Some(&d.eve)).await;
    assert_eq!(
        json(&ours.body)["runs"].as_array().map(Vec::len),
        Some(0),
        "{}",
        ours.body
    );
    let theirs = d.app.call("/api/runs", &[], Some(&d.bob)).await;
    assert_eq!(
        json(&theirs.body)["runs"].as_array().map(Vec::len),
        Some(1),
        "{}",
        theirs.body
    );

    // A token of a role the user no longer holds stops working.
    let eves = d.token(&d.eve, "laptop").await;
    sqlx::query("UPDATE memberships SET role = 'manager' WHERE user_id = (SELECT id FROM users WHERE email = 'eve@example.com')")
        .execute(&d.app.db)
        .await
        .unwrap();
    assert_eq!(upload(Some(eves)).await.status, StatusCode::UNAUTHORIZED);

    // A token with a cookie is not an API call: the cross-site check applies.
    let mut req = http::Request::post("/api/v1/runs")
        .header(http::header::AUTHORIZATION, format!("Bearer {bobs}"))
        .header(http::header::COOKIE, d.bob.as_str())
        .header(http::header::CONTENT_TYPE, "multipart/form-data; boundary=x")
        .header("sec-fetch-site", "cross-site");
    req = req.header(http::header::CONTENT_LENGTH, 0);
    let res = d.app.send(req.body(axum::body::Body::empty()).unwrap()).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn bad_files_get_a_clear_4xx_and_nothing_is_stored() {
    let mut cfg = server::config::ServeConfig::for_tests();
    cfg.run_file_limit_mb = 1;
    let d = desk_with(TestApp::with_config(Duration::from_secs(3600), &cfg).await).await;
    let token = d.token(&d.eve, "ci").await;
    let cases: Vec<(&str, Vec<u8>, StatusCode, &str)> = vec![
        (
            "truncated.json",
            br#"{"date": "20250611", "duration": 612.4, "completed": "#.to_vec(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "line 1, column",
        ),
        (
            "other.json",
            br#"{"hello": "world"}"#.to_vec(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "canonical, vllm, vllm_legacy, sglang, llama_bench, mlperf, nvidia_smi, amd_smi, dcgmi_dmon",
        ),
        (
            "garbage.bin",
            vec![0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00],
            StatusCode::UNPROCESSABLE_ENTITY,
            "binary",
        ),
        (
            "empty.json",
            Vec::new(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "The file is empty",
        ),
        (
            "big.csv",
            vec![b'a'; 1_200_000],
            StatusCode::PAYLOAD_TOO_LARGE,
            "limit of 1 MB",
        ),
    ];
    for (name, bytes, status, message) in cases {
        let parts: &[(&str, Option<&str>, &[u8])] = &[("result", Some(name), &bytes), ("node_label", None, b"trial")];
        let res = d.app.multipart("/api/v1/runs", parts, None, Some(&token)).await;
        assert_eq!(res.status, status, "{name}: {}", res.body);
        assert!(res.body.contains(message), "{name}: {}", res.body);
    }
    let no_timestamp = b"index, utilization.gpu [%], memory.used [MiB]\n0, 50 %, 100 MiB\n";
    let res = d
        .app
        .multipart(
            "/api/v1/runs",
            &[("telemetry", Some("t.csv"), no_timestamp), ("node_label", None, b"x")],
            None,
            Some(&token),
        )
        .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.body.contains("no timestamp column"), "{}", res.body);
    // Good files but no node named: 422, the files are not kept either.
    let res = d
        .app
        .multipart(
            "/api/v1/runs",
            &[("result", Some("m.txt"), MLPERF_INVALID)],
            None,
            Some(&token),
        )
        .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.body.contains("node_required"), "{}", res.body);
    let two = d
        .app
        .multipart(
            "/api/v1/runs",
            &[
                ("file", Some("a.json"), VLLM),
                ("file", Some("b.txt"), MLPERF_INVALID),
                ("node_label", None, b"x"),
            ],
            None,
            Some(&token),
        )
        .await;
    assert_eq!(two.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", two.body);
    let unknown_quote = d
        .app
        .multipart(
            "/api/v1/runs",
            &[("result", Some("m.txt"), MLPERF_INVALID), ("quote", None, b"999")],
            None,
            Some(&token),
        )
        .await;
    assert_eq!(unknown_quote.status, StatusCode::NOT_FOUND, "{}", unknown_quote.body);
    // In Chinese when asked.
    let res = d
        .app
        .multipart(
            "/runs/upload",
            &[("file", Some("e.json"), b"")],
            Some(&format!("{}; nl_lang=zh-CN", d.eve)),
            None,
        )
        .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.body.contains("文件是空的"), "{}", res.body);
    assert_eq!(
        (d.count("runs").await, d.count("files").await, d.count("chunks").await),
        (0, 0, 0),
        "nothing half-written"
    );
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn the_browser_uploads_previews_and_saves() {
    let d = desk().await;
    let up = |cookie: &str, name: &'static str, bytes: &'static [u8]| {
        let app = &d.app;
        let cookie = cookie.to_string();
        async move {
            app.multipart(
                "/runs/upload",
                &[("format", None, b"auto"), ("file", Some(name), bytes)],
                Some(&cookie),
                None,
            )
            .await
        }
    };
    assert_eq!(
        up(&d.max, "v.json", VLLM).await.status,
        StatusCode::FORBIDDEN,
        "managers read runs, engineers upload"
    );
    assert_eq!(up(&d.pam, "v.json", VLLM).await.status, StatusCode::FORBIDDEN);
    let result = up(&d.eve, "v.json", VLLM).await;
    assert_eq!(result.status, StatusCode::OK, "{}", result.body);
    let result = json(&result.body);
    assert_eq!(
        (result["role"].as_str(), result["file"]["format"].as_str()),
        (Some("result"), Some("vllm"))
    );
    // What the upload form shows for the file, worded by the server in the reader's language.
    let recognised = result["recognised"].as_str().unwrap_or_default();
    assert!(
        recognised == "read as vLLM benchmark (vllm bench serve), 1 KB",
        "{recognised}"
    );
    let telemetry = json(&up(&d.eve, "smi.csv", SMI).await.body);
    assert_eq!(telemetry["role"], "telemetry");
    let again = json(&up(&d.eve, "copy.csv", SMI).await.body);
    assert_eq!(again["file"]["id"], telemetry["file"]["id"], "same bytes, same file");
    assert_eq!(d.count("files").await, 2);

    // Cross-site uploads are refused before anything is read.
    let mut req = http::Request::post("/runs/upload")
        .header(http::header::COOKIE, d.eve.as_str())
        .header(http::header::ORIGIN, "https://evil.example.com")
        .header(http::header::CONTENT_TYPE, "multipart/form-data; boundary=x");
    req = req.header(http::header::CONTENT_LENGTH, 0);
    assert_eq!(
        d.app.send(req.body(axum::body::Body::empty()).unwrap()).await.status,
        StatusCode::FORBIDDEN
    );

    let files = json!([result["file"]["id"], telemetry["file"]["id"]]);
    let request = json!({ "request": { "files": files, "quote_id": null, "revision": null, "node_label": "", "workload_id": null, "nodes": 1, "note": "" } });
    let preview = d.app.call_json("/api/runs/preview", &request, Some(&d.eve)).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    let preview = json(&preview.body);
    assert_eq!(preview["adds_to"], Value::Null, "a new run");
    let preview = &preview["run"];
    assert_eq!(preview["source_format"], "vllm");
    assert_eq!(preview["node"]["gpu_count"], 4, "node facts come from the telemetry");
    assert!(preview["verdict"]["status"].is_string());
    assert!(
        preview["telemetry"].as_array().is_none_or(Vec::is_empty),
        "the preview leaves the series out"
    );
    assert_eq!(d.count("runs").await, 0, "a preview saves nothing");
    // The upload form's preview: the same judgement, rendered by the server for the island.
    let shown = d.app.call_json("/api/runs/preview_shown", &request, Some(&d.eve)).await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.body);
    let markup: String = serde_json::from_str(&shown.body).unwrap();
    assert!(markup.contains(r#"data-testid="run-preview""#), "{markup}");
    assert!(markup.contains(r#"data-testid="verdict-status""#), "{markup}");
    assert!(!markup.contains("run-adds-to"), "a new run: {markup}");
    assert_eq!(d.count("runs").await, 0, "a preview saves nothing");
    assert_eq!(
        d.app
            .call_json("/api/runs/preview_shown", &request, Some(&d.bob))
            .await
            .status,
        StatusCode::NOT_FOUND,
        "team A's files are not team B's"
    );
    assert_eq!(
        d.app
            .call_json("/api/runs/preview", &request, Some(&d.bob))
            .await
            .status,
        StatusCode::NOT_FOUND,
        "team A's files are not team B's"
    );

    let unnamed = d.app.call_json("/api/runs/save", &request, Some(&d.eve)).await;
    assert_eq!(unnamed.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", unnamed.body);
    let mut named = request.clone();
    named["request"]["node_label"] = json!("Acme H100 ×4 trial");
    let saved = d.app.call_json("/api/runs/save", &named, Some(&d.eve)).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    let id: i64 = saved.body.trim().parse().unwrap();
    let twice = d.app.call_json("/api/runs/save", &named, Some(&d.eve)).await;
    assert_eq!(twice.status, StatusCode::CONFLICT, "{}", twice.body);
    assert!(twice.body.contains(&format!("{id}")), "{}", twice.body);
    let reupload = json(&up(&d.eve, "v.json", VLLM).await.body);
    assert_eq!(reupload["file"]["run_id"], id, "the same file again names its run");

    let list = d.app.get("/runs", Some(&d.max), None).await;
    assert!(
        list.body.contains(&format!("/runs/{id}")) && list.body.contains("Acme H100 ×4 trial"),
        "{}",
        list.body
    );
    let zh = d.app.get(&format!("/runs/{id}"), Some(&d.max), Some("zh-CN")).await;
    assert!(zh.body.contains(&format!("测试记录 #{id}")), "{}", zh.body);
    let upload_page = d.app.get("/runs/new", Some(&d.eve), None).await;
    // The form is an island drawn in the browser (uploading needs it).
    assert!(
        upload_page.body.contains(r#"data-component="RunUploadForm_"#),
        "{}",
        upload_page.body
    );
    assert!(
        d.app
            .get("/runs/new", Some(&d.max), None)
            .await
            .body
            .contains("permission")
    );
}

#[tokio::test]
async fn the_run_schema_is_published() {
    let app = TestApp::new().await;
    let res = app.get("/api/v1/schema/run.json", None, None).await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(res.headers["content-type"], "application/schema+json");
    let schema = json(&res.body);
    assert!(res.body.contains("nodeledger.run/v1"), "{schema}");
}

#[tokio::test]
async fn much_more_compute_but_barely_more_throughput_is_flagged() {
    let d = desk().await;
    let token = d.token(&d.eve, "ci").await;
    let run = |gpu: &str, value: f64| {
        json!({
            "schema": "nodeledger.run/v1",
            "source_format": "canonical",
            "node": { "gpu_name": gpu, "gpu_count": 1 },
            "throughput": { "value": value, "unit": "samples/s" },
            "duration_s": 900.0,
            "gpu_util_mean_pct": 92.0,
        })
        .to_string()
    };
    for (label, gpu, value) in [
        ("H100 box", "NVIDIA H100 80GB HBM3", 1150.0),
        ("A10 box", "NVIDIA A10", 1000.0),
    ] {
        let body = run(gpu, value);
        let res = d
            .app
            .multipart(
                "/api/v1/runs",
                &[
                    ("result", Some("run.json"), body.as_bytes()),
                    ("node_label", None, label.as_bytes()),
                ],
                None,
                Some(&token),
            )
            .await;
        assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    }
    let list = json(&d.app.call("/api/runs", &[], Some(&d.pam)).await.body);
    let group = &list["compare"][0];
    assert_eq!(group["bars"][0]["label"], "H100 box", "{list}");
    assert_eq!(group["bottlenecks"][0]["stronger"], "H100 box", "{list}");
    assert_eq!(group["bottlenecks"][0]["weaker"], "A10 box");
    let body = run("NVIDIA L4", 300.0);
    let dry = d
        .app
        .multipart(
            "/api/v1/runs",
            &[
                ("result", Some("l4.json"), body.as_bytes()),
                ("node_label", None, b"L4"),
                ("dry_run", None, b"true"),
            ],
            None,
            Some(&token),
        )
        .await;
    assert_eq!(dry.status, StatusCode::OK, "{}", dry.body);
    assert_eq!(json(&dry.body)["dry_run"], true);
    assert_eq!(
        (d.count("runs").await, d.count("files").await),
        (2, 2),
        "a dry run stores nothing"
    );
    let page = d.app.get("/runs", Some(&d.pam), None).await;
    assert!(
        page.body
            .contains("the bottleneck is likely CPU, disk, network or memory bandwidth"),
        "{}",
        page.body
    );
}

/// A `vllm bench serve` result that ended at 2025-01-01 12:00:00 after 412 s, naming its GPU.
fn vllm_412s(gpu: &str) -> Vec<u8> {
    json!({
        "date": "20250101-120000", "duration": 412.0, "gpu": gpu, "model_id": "m",
        "completed": 1000, "request_throughput": 2.4, "output_throughput": 1234.5,
    })
    .to_string()
    .into_bytes()
}

/// 1200 s of 1 s nvidia-smi rows from 11:45:00 on one GPU; the result's window is t 488–900 s.
/// A hardware thermal slowdown at t 600–659 (60 s), busy only inside the window.
fn telemetry_1199s(name: &str) -> Vec<u8> {
    use std::fmt::Write as _;
    let mut csv = String::from(
        "timestamp, index, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB], clocks_event_reasons.active\n",
    );
    for t in 0..1200u32 {
        let (h, m, s) = (11 + (45 + t / 60) / 60, (45 + t / 60) % 60, t % 60);
        let busy = (488..=900).contains(&t);
        let mask = if (600..660).contains(&t) { 0x40 } else { 0 };
        let _ = writeln!(
            csv,
            "2025/01/01 {h:02}:{m:02}:{s:02}.000, 0, {name}, {} %, {} MiB, 81920 MiB, 0x{mask:016x}",
            if busy { 95 } else { 0 },
            if busy { 20480 } else { 500 }
        );
    }
    csv.into_bytes()
}

/// Found with real files: the slowdown is judged inside the result's own window
/// (60 s of 412 s = 14.6 %, not 60 s of 1199 s = 5 %), the run is too short, and a result
/// naming an L40S with telemetry from an A100 is not from the same node. A preview (dry run)
/// answers exactly what the upload stores.
#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn the_api_answers_the_verdict_with_its_reasons() {
    let d = desk().await;
    let token = d.token(&d.eve, "ci").await;
    let result = vllm_412s("1xNVIDIA_L40S");
    let telemetry = telemetry_1199s("NVIDIA A100-SXM4-80GB");
    let parts = |dry: &'static [u8]| -> Vec<(&'static str, Option<&'static str>, Vec<u8>)> {
        vec![
            ("result", Some("vllm.json"), result.clone()),
            ("telemetry", Some("smi.csv"), telemetry.clone()),
            ("node_label", None, b"trial".to_vec()),
            ("dry_run", None, dry.to_vec()),
        ]
    };
    let send = |p: Vec<(&'static str, Option<&'static str>, Vec<u8>)>| {
        let app = &d.app;
        let token = token.clone();
        async move {
            let p: Vec<(&str, Option<&str>, &[u8])> = p.iter().map(|(n, f, b)| (*n, *f, b.as_slice())).collect();
            app.multipart("/api/v1/runs", &p, None, Some(&token)).await
        }
    };
    let dry = send(parts(b"true")).await;
    assert_eq!(dry.status, StatusCode::OK, "{}", dry.body);
    let res = send(parts(b"false")).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let (dry, created) = (json(&dry.body), json(&res.body));
    assert_eq!(dry["reasons"], created["reasons"], "the preview judges as the upload");
    assert_eq!(created["status"], "invalid");
    let reasons = created["reasons"].as_array().unwrap();
    let find = |code: &str| {
        reasons
            .iter()
            .find(|r| r["code"] == code)
            .unwrap_or_else(|| panic!("no {code}: {created}"))
    };
    assert_eq!(find("run_window")["severity"], "info");
    assert!(
        find("run_window")["message"]
            .as_str()
            .unwrap()
            .contains("from 488 s to 900 s"),
        "{created}"
    );
    let slow = find("thermal_or_power_slowdown");
    assert_eq!(slow["severity"], "invalid");
    assert!(
        slow["message"].as_str().unwrap().contains("60 s (14.6 % of the run"),
        "{slow}"
    );
    let files = find("files_disagree");
    assert_eq!(files["severity"], "invalid");
    assert!(
        files["message"]
            .as_str()
            .unwrap()
            .contains("GPU model is NVIDIA L40S in the result, NVIDIA A100-SXM4-80GB in the telemetry"),
        "{files}"
    );
    assert_eq!(find("short_run")["severity"], "invalid");
    assert!(
        !reasons.iter().any(|r| r["code"] == "vram_headroom_low"),
        "20480 MiB × 1.2 fits 81920 MiB: {created}"
    );
    let id = created["id"].as_i64().unwrap();
    let stored: String = sqlx::query_scalar("SELECT status FROM runs WHERE id = ?")
        .bind(id)
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    assert_eq!(stored, "invalid");
    let got = json(
        &d.app
            .call("/api/runs/get", &[("id", &id.to_string())], Some(&d.max))
            .await
            .body,
    );
    let got = got.to_string();
    assert!(
        got.contains("result_node") && got.contains("NVIDIA L40S") && got.contains("2025-01-01T11:53:08"),
        "the stored record keeps both nodes and the window: {got}"
    );

    // A 5-second llama-bench is a microbenchmark: invalid, so no cost or order rests on it.
    let llama = json!([{ "gpu_info": "NVIDIA A10", "model_filename": "m.gguf", "model_type": "llama 8B Q4_0", "n_prompt": 0, "n_gen": 128, "avg_ns": 1_000_000_000u64, "avg_ts": 128.0, "samples_ns": [1e9, 1e9, 1e9, 1e9, 1e9] }]).to_string();
    let res = d
        .app
        .multipart(
            "/api/v1/runs",
            &[
                ("result", Some("llama.json"), llama.as_bytes()),
                ("node_label", None, b"A10 box"),
            ],
            None,
            Some(&token),
        )
        .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let llama = json(&res.body);
    assert_eq!(llama["status"], "invalid", "{llama}");
    assert!(
        llama["reasons"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["code"] == "short_run" && r["severity"] == "invalid"),
        "{llama}"
    );
}

/// A run stored under earlier rules keeps its stored status and still opens, even when a
/// stored reason has a shape these rules no longer write.
#[tokio::test]
async fn stored_runs_keep_their_status() {
    let d = desk().await;
    let token = d.token(&d.eve, "ci").await;
    let res = d
        .app
        .multipart(
            "/api/v1/runs",
            &[("result", Some("m.txt"), MLPERF_VALID), ("node_label", None, b"L4 box")],
            None,
            Some(&token),
        )
        .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let id = json(&res.body)["id"].as_i64().unwrap();
    let old = json!({
        "schema": "nodeledger.run/v1", "source_format": "mlperf",
        "throughput": { "value": 2954.39, "unit": "samples/s" },
        "verdict": { "status": "valid", "reasons": [
            { "severity": "info", "code": "telemetry_missing" },
            { "severity": "info", "code": "vram_headroom_low", "peak_mib": 1.0, "total_mib": 2.0, "headroom_share": 0.2, "limit_mib": 1.6 }
        ] }
    });
    sqlx::query("UPDATE runs SET canonical = ?, status = 'valid' WHERE id = ?")
        .bind(old.to_string())
        .bind(id)
        .execute(&d.app.db)
        .await
        .unwrap();
    let page = d.app.get(&format!("/runs/{id}"), Some(&d.max), None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.contains("earlier version of the checks (vram_headroom_low)"),
        "{}",
        page.body
    );
    let listed = json(&d.app.call("/api/runs", &[], Some(&d.max)).await.body);
    assert_eq!(listed["runs"][0]["status"], "valid", "{listed}");
}

/// `rejudge_all` (behind `nodeledger runs rejudge`) judges every stored run with today's rules
/// and stores the new status: an MLPerf run stored as valid under the old rules (no telemetry
/// was informational then) is a warning today.
#[tokio::test]
async fn rejudging_applies_todays_rules_to_stored_runs() {
    let d = desk().await;
    let token = d.token(&d.eve, "ci").await;
    let res = d
        .app
        .multipart(
            "/api/v1/runs",
            &[("result", Some("m.txt"), MLPERF_VALID), ("node_label", None, b"L4 box")],
            None,
            Some(&token),
        )
        .await;
    let id = json(&res.body)["id"].as_i64().unwrap();
    let old = r#"{"schema":"nodeledger.run/v1","source_format":"mlperf","throughput":{"value":2954.39,"unit":"samples/s"},
        "extra":{"mlperf":{"result_valid":true,"min_duration_satisfied":true,"min_duration_ms":600000.0}},
        "verdict":{"status":"valid","reasons":[{"severity":"info","code":"telemetry_missing"}]}}"#;
    sqlx::query("UPDATE runs SET canonical = ?, status = 'valid' WHERE id = ?")
        .bind(old)
        .bind(id)
        .execute(&d.app.db)
        .await
        .unwrap();
    let done = app::services::runs::rejudge_all(&d.app.db).await.unwrap();
    assert_eq!(
        (done.runs, done.changed),
        (
            1,
            vec![(
                id,
                app::domain::runs::RunStatus::Valid,
                app::domain::runs::RunStatus::Warn
            )]
        )
    );
    let (status, canonical): (String, String) = sqlx::query_as("SELECT status, canonical FROM runs WHERE id = ?")
        .bind(id)
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    assert_eq!(status, "warn");
    assert!(
        canonical.contains(r#""code":"duration_from_mlperf""#)
            && canonical.contains(r#""severity":"warn","code":"telemetry_missing""#),
        "{canonical}"
    );
    let again = app::services::runs::rejudge_all(&d.app.db).await.unwrap();
    assert_eq!(
        (again.runs, again.changed.len()),
        (1, 0),
        "judging again changes nothing"
    );
}

/// Runs judged before the sanity rules are judged again once, at start, when the rules are
/// newer than their verdicts: a vLLM run whose every request failed, stored as valid, becomes
/// invalid and is named; the next start changes nothing.
#[tokio::test]
async fn stored_runs_are_judged_again_once_when_the_rules_change() {
    use app::domain::runs::RunStatus;
    let d = desk().await;
    let token = d.token(&d.eve, "ci").await;
    let res = d
        .app
        .multipart(
            "/api/v1/runs",
            &[("result", Some("m.txt"), MLPERF_VALID), ("node_label", None, b"L4 box")],
            None,
            Some(&token),
        )
        .await;
    let id = json(&res.body)["id"].as_i64().unwrap();
    let first = app::services::runs::rejudge_if_rules_changed(&d.app.db).await.unwrap();
    assert_eq!(
        first.map(|f| f.changed),
        Some(Vec::new()),
        "the first start records today's rules; the run judged at upload stays as it is"
    );
    assert_eq!(
        app::services::runs::rejudge_if_rules_changed(&d.app.db).await.unwrap(),
        None
    );
    // As stored before the rules: every request failed (vllm/benchmarks/serve.py writes 0 tokens/s).
    let old = r#"{"schema":"nodeledger.run/v1","source_format":"vllm","duration_s":1.1,"throughput":{"value":0.0,"unit":"tokens/s"},
        "extra":{"completed":0,"failed":4200},"verdict":{"status":"valid","reasons":[]}}"#;
    sqlx::query("UPDATE runs SET canonical = ?, status = 'valid' WHERE id = ?")
        .bind(old)
        .bind(id)
        .execute(&d.app.db)
        .await
        .unwrap();
    sqlx::query("UPDATE site SET run_rules_version = 0")
        .execute(&d.app.db)
        .await
        .unwrap();
    let done = app::services::runs::rejudge_if_rules_changed(&d.app.db)
        .await
        .unwrap()
        .expect("older verdicts are judged again");
    assert_eq!(done.changed, vec![(id, RunStatus::Valid, RunStatus::Invalid)]);
    let canonical: String = sqlx::query_scalar("SELECT canonical FROM runs WHERE id = ?")
        .bind(id)
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    assert!(canonical.contains(r#""code":"requests_failed""#), "{canonical}");
    assert_eq!(
        app::services::runs::rejudge_if_rules_changed(&d.app.db).await.unwrap(),
        None
    );
}

/// A run can get its telemetry later: the result uploaded alone makes run A; the same result
/// with its nvidia-smi CSV adds the telemetry to A, judged again (one execution stays one run);
/// the same set of files again is a duplicate of A; other telemetry for A is refused naming it.
#[tokio::test]
async fn a_run_gains_its_telemetry_later_and_a_duplicate_is_the_same_set_of_files() {
    let d = desk().await;
    let token = d.token(&d.eve, "ci").await;
    let label: &[u8] = b"Acme H100 x4 trial";
    let post = |parts: Vec<(&'static str, Option<&'static str>, &'static [u8])>| {
        let (app, token) = (&d.app, token.clone());
        async move {
            let mut parts = parts;
            parts.push(("node_label", None, label));
            app.multipart("/api/v1/runs", &parts, None, Some(&token)).await
        }
    };
    let alone = post(vec![("result", Some("vllm.json"), VLLM)]).await;
    assert_eq!(alone.status, StatusCode::CREATED, "{}", alone.body);
    let id = json(&alone.body)["id"].as_i64().unwrap();
    let telemetry_of = |id: i64| {
        let db = d.app.db.clone();
        async move {
            sqlx::query_scalar::<_, Option<i64>>("SELECT telemetry_file_id FROM runs WHERE id = ?")
                .bind(id)
                .fetch_one(&db)
                .await
                .unwrap()
        }
    };
    assert_eq!(telemetry_of(id).await, None);
    let listed = d.app.call("/api/runs", &[], Some(&d.eve)).await;
    assert!(listed.body.contains(r#""has_telemetry":false"#), "{}", listed.body);

    let both = vec![("result", Some("vllm.json"), VLLM), ("telemetry", Some("smi.csv"), SMI)];
    let added = post(both.clone()).await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.body);
    let added = json(&added.body);
    assert_eq!(
        (
            added["id"].as_i64(),
            added["added"].as_bool(),
            added["duplicate"].as_bool()
        ),
        (Some(id), Some(true), Some(false)),
        "{added}"
    );
    assert!(telemetry_of(id).await.is_some(), "run A has its telemetry now");
    assert_eq!((d.count("runs").await, d.count("files").await), (1, 2));
    let listed = d.app.call("/api/runs", &[], Some(&d.eve)).await;
    assert!(
        listed.body.contains(r#""has_telemetry":true"#),
        "judged again with the telemetry merged in: {}",
        listed.body
    );

    // The same set again: a duplicate of A (the API's harmless retry), nothing stored.
    let again = post(both).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert_eq!(
        (
            json(&again.body)["duplicate"].as_bool(),
            json(&again.body)["id"].as_i64()
        ),
        (Some(true), Some(id))
    );
    // Other telemetry for A, which has telemetry: refused naming A, nothing stored.
    let other = post(vec![
        ("result", Some("vllm.json"), VLLM),
        ("telemetry", Some("other.csv"), SMI_OTHER),
    ])
    .await;
    assert_eq!(other.status, StatusCode::CONFLICT, "{}", other.body);
    assert!(other.body.contains(&format!("run #{id}")), "{}", other.body);
    // The result alone, now that A has two files: part of A, refused naming it.
    let part = post(vec![("result", Some("vllm.json"), VLLM)]).await;
    assert_eq!(part.status, StatusCode::CONFLICT, "{}", part.body);
    assert_eq!((d.count("runs").await, d.count("files").await), (1, 2));
}

/// The browser: a saved run's file dropped again with the telemetry is not left out; the
/// preview says the telemetry is added to that run, saving does so, and the same files again
/// are 409 naming the run.
#[tokio::test]
async fn the_browser_adds_telemetry_to_the_run_of_its_result() {
    let d = desk().await;
    let up = |name: &'static str, bytes: &'static [u8]| {
        let (app, cookie) = (&d.app, d.eve.clone());
        async move {
            let res = app
                .multipart(
                    "/runs/upload",
                    &[("format", None, b"auto"), ("file", Some(name), bytes)],
                    Some(&cookie),
                    None,
                )
                .await;
            assert_eq!(res.status, StatusCode::OK, "{}", res.body);
            json(&res.body)["file"]["id"].as_i64().unwrap()
        }
    };
    let request = |files: Vec<i64>| json!({ "request": { "files": files, "quote_id": null, "revision": null, "node_label": "L40S box", "workload_id": null, "nodes": 1, "note": "" } });
    let result = up("v.json", VLLM).await;
    let saved = d
        .app
        .call_json("/api/runs/save", &request(vec![result]), Some(&d.eve))
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    let id: i64 = saved.body.trim().parse().unwrap();

    let telemetry = up("smi.csv", SMI).await;
    let both = request(vec![result, telemetry]);
    let preview = d.app.call_json("/api/runs/preview", &both, Some(&d.eve)).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    let preview = json(&preview.body);
    assert_eq!(preview["adds_to"].as_i64(), Some(id), "{preview}");
    assert_eq!(preview["run"]["node"]["gpu_count"], 4, "judged with the telemetry");
    let saved = d.app.call_json("/api/runs/save", &both, Some(&d.eve)).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert_eq!(saved.body.trim(), id.to_string(), "the same run");
    assert_eq!(d.count("runs").await, 1);
    let again = d.app.call_json("/api/runs/preview", &both, Some(&d.eve)).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    let again = json(&again.body);
    assert_eq!(
        (again["error"].as_str(), again["detail"].as_i64()),
        (Some("duplicate_run"), Some(id)),
        "{again}"
    );
}

/// The run list filters by the quotes that have runs (and the one it is filtered by now), not
/// by every quote of a catalogue of thousands.
#[tokio::test]
async fn the_run_list_filters_by_the_quotes_with_runs() {
    let (app, pam, eve) = common::team_of_pam_and_eve().await;
    let workload = app.create_workload(&pam, "Batch").await;
    let measured = app.create_quote(&pam, "L4-measured").await;
    let unmeasured = app.create_quote(&pam, "L4-unmeasured").await;
    let _other = app.create_quote(&pam, "L4-other").await;
    let token = app.create_token(&eve, "ci").await;
    app.upload_valid_l4_run(&token, measured, workload).await;
    let offered = |query: Vec<(&'static str, String)>| {
        let (app, eve) = (&app, eve.clone());
        async move {
            let form: Vec<(&str, &str)> = query.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let res = app.call("/api/runs", &form, Some(&eve)).await;
            assert_eq!(res.status, StatusCode::OK, "{}", res.body);
            let list: serde_json::Value = serde_json::from_str(&res.body).expect("json");
            list["quotes"]
                .as_array()
                .expect("quotes")
                .iter()
                .map(|q| q[0].as_i64().expect("id"))
                .collect::<Vec<i64>>()
        }
    };
    assert_eq!(offered(vec![]).await, vec![measured]);
    assert_eq!(
        offered(vec![("quote", unmeasured.to_string())]).await,
        vec![measured, unmeasured],
        "the quote filtered by stays offered"
    );
}
