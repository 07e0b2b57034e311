//! An in-process NodeLedger for router tests: a real SQLite file with the real migrations, the
//! real router and layers, requests sent with `tower::ServiceExt::oneshot`.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]
#![allow(
    dead_code,
    reason = "each test binary uses a different part of the harness; `expect` would be unfulfilled in some"
)]

use app::{
    auth::{AppState, AuthConfig, setup_code::SetupCode},
    store::{self, sessions::SqliteSessionStore},
};
use axum::{
    Router,
    body::{Body, Bytes},
};
use http::{Request, Response, StatusCode, header};
use http_body_util::BodyExt;
use server::{config::ServeConfig, router};
use std::{
    path::PathBuf,
    sync::atomic::{AtomicU32, Ordering},
    time::Duration,
};
use tower::ServiceExt;

/// The origin the test server believes it is served at.
pub const ORIGIN: &str = "http://127.0.0.1:3000";

/// A password that passes the policy.
pub const PASSWORD: &str = "correct horse battery staple";

/// How long a response may take before the test calls it stalled.
pub const STALL: Duration = Duration::from_secs(10);

/// The second-factor key file's text of every test app (hex of 32 bytes).
pub const TEST_KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

static NEXT: AtomicU32 = AtomicU32::new(0);

/// A running app over a fresh database.
pub struct TestApp {
    pub router: Router,
    pub db: store::Db,
    pub path: PathBuf,
    /// The cost comparison cache of this app.
    pub tco_cache: app::services::tco::ComparisonCache,
}

/// A response, read whole.
pub struct Answer {
    pub status: StatusCode,
    pub headers: http::HeaderMap,
    pub body: String,
}

impl Answer {
    /// Where a redirect answer sends the browser (a plain post of a form), without the origin;
    /// empty when it is no redirect.
    pub fn location(&self) -> String {
        let to = self
            .headers
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        to.strip_prefix(ORIGIN).unwrap_or(to).to_owned()
    }

    /// The `name=value` of the session cookie this response sets, if any.
    pub fn session_cookie(&self) -> Option<String> {
        self.headers
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|c| c.starts_with("nl_session=") || c.starts_with("__Host-nl_session="))
            .map(|c| c.split(';').next().unwrap_or_default().to_string())
    }
}

impl TestApp {
    /// A fresh app; `absolute_timeout` overrides the 12 h default.
    pub async fn with_absolute_timeout(absolute_timeout: Duration) -> Self {
        Self::with_config(absolute_timeout, &ServeConfig::for_tests()).await
    }

    /// A fresh app with these settings.
    pub async fn with_config(absolute_timeout: Duration, cfg: &ServeConfig) -> Self {
        Self::with_settings(
            AuthConfig {
                idle_timeout: Duration::from_secs(1800),
                absolute_timeout,
            },
            cfg,
        )
        .await
    }

    /// A fresh app with these session timeouts and settings.
    pub async fn with_settings(auth: AuthConfig, cfg: &ServeConfig) -> Self {
        let dir = std::env::temp_dir().join(format!(
            "nl-router-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let path = dir.join("test.db");
        let db = store::connect(path.to_str().unwrap()).await.expect("open database");
        // As `nodeledger serve` does at start: the one-time set-up code, in `setup-code` beside
        // the database.
        let setup_code = SetupCode::at_start(&db, path.to_str().unwrap()).await.unwrap();
        // As `nodeledger serve` does at start: the second-factor key file beside the database.
        // The key is process-wide, so every test app of this binary writes the same one.
        std::fs::write(dir.join("nodeledger.key"), format!("{TEST_KEY}\n")).unwrap();
        app::store::secret_key::at_start(&db, &dir.join("nodeledger.key"))
            .await
            .expect("second-factor key");
        let state = AppState {
            db: db.clone(),
            sessions: SqliteSessionStore::new(db.clone()),
            auth,
            setup_code,
        };
        // The cost comparison cache, kept so a test can count computations.
        // A long time to live: a computation count must not depend on how fast this machine is.
        let tco_cache = app::services::tco::ComparisonCache::with_ttl(std::time::Duration::from_secs(600));
        let router = router::build(state, tco_cache.clone(), cfg);
        Self {
            router,
            db,
            path: dir,
            tco_cache,
        }
    }

    /// A fresh app with default settings.
    pub async fn new() -> Self {
        Self::with_absolute_timeout(Duration::from_secs(12 * 3600)).await
    }

    /// Sends a request and reads the whole answer.
    ///
    /// A response that stalls for [`STALL`] fails the test with the request named, instead of
    /// hanging the run. A stalled page (GET) is tried up to twice more and reported on stderr:
    /// Leptos' streaming SSR has had rare races where a `Suspense` never resolves
    /// (leptos-rs/leptos #4578, #4647, #4851); a third stall fails.
    pub async fn send(&self, req: Request<Body>) -> Answer {
        let (status, headers, bytes) = self.send_for_bytes(req).await;
        Answer {
            status,
            headers,
            body: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    /// [`Self::send`], keeping the body as bytes (compressed or binary answers).
    pub async fn send_for_bytes(&self, req: Request<Body>) -> (StatusCode, http::HeaderMap, Bytes) {
        let (parts, body) = req.into_parts();
        let body = body.collect().await.expect("request body").to_bytes();
        let retries = if parts.method == http::Method::GET { 2 } else { 0 };
        for attempt in 0..=retries {
            let req = Request::from_parts(parts.clone(), Body::from(body.clone()));
            match tokio::time::timeout(STALL, self.send_once(req)).await {
                Ok(answer) => return answer,
                Err(_) if attempt < retries => {
                    eprintln!(
                        "warning: {} {} stalled for {STALL:?}; sending it again",
                        parts.method, parts.uri
                    );
                }
                Err(_) => break,
            }
        }
        panic!("{} {} stalled for {STALL:?}", parts.method, parts.uri)
    }

    async fn send_once(&self, req: Request<Body>) -> (StatusCode, http::HeaderMap, Bytes) {
        let res: Response<Body> = self.router.clone().oneshot(req).await.expect("infallible");
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = res.into_body().collect().await.expect("body").to_bytes();
        (status, headers, bytes)
    }

    /// GET `path` with an optional cookie and `Accept-Language`.
    pub async fn get(&self, path: &str, cookie: Option<&str>, lang: Option<&str>) -> Answer {
        let mut req = Request::get(path).header(header::ACCEPT, "text/html");
        if let Some(c) = cookie {
            req = req.header(header::COOKIE, c);
        }
        if let Some(l) = lang {
            req = req.header(header::ACCEPT_LANGUAGE, l);
        }
        self.send(req.body(Body::empty()).unwrap()).await
    }

    /// POSTs a form to a server function the way the hydrated page does (same origin).
    pub async fn call(&self, path: &str, form: &[(&str, &str)], cookie: Option<&str>) -> Answer {
        self.post(path, form, cookie, Some(ORIGIN)).await
    }

    /// POSTs a form with an explicit `Origin` (or none).
    pub async fn post(&self, path: &str, form: &[(&str, &str)], cookie: Option<&str>, origin: Option<&str>) -> Answer {
        let body = form_urlencoded(form);
        let mut req = Request::post(path)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ACCEPT, "application/json")
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::CONTENT_LENGTH, body.len());
        if let Some(o) = origin {
            req = req.header(header::ORIGIN, o);
        }
        if let Some(c) = cookie {
            req = req.header(header::COOKIE, c);
        }
        self.send(req.body(Body::from(body)).unwrap()).await
    }

    /// POSTs a form the way a browser does without the app's WASM (a plain `<form>` post from
    /// the page `referer`): it accepts HTML, so the server function answers with a redirect.
    pub async fn browser_post(&self, path: &str, form: &[(&str, &str)], cookie: Option<&str>, referer: &str) -> Answer {
        let body = form_urlencoded(form);
        let mut req = Request::post(path)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ACCEPT, "text/html,application/xhtml+xml,*/*;q=0.8")
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::ORIGIN, ORIGIN)
            .header(header::REFERER, format!("{ORIGIN}{referer}"))
            .header(header::CONTENT_LENGTH, body.len());
        if let Some(c) = cookie {
            req = req.header(header::COOKIE, c);
        }
        self.send(req.body(Body::from(body)).unwrap()).await
    }

    /// POSTs JSON to a server function declared with `input = Json`.
    pub async fn call_json(&self, path: &str, body: &serde_json::Value, cookie: Option<&str>) -> Answer {
        let body = body.to_string();
        let mut req = Request::post(path)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json")
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::ORIGIN, ORIGIN)
            .header(header::CONTENT_LENGTH, body.len());
        if let Some(c) = cookie {
            req = req.header(header::COOKIE, c);
        }
        self.send(req.body(Body::from(body)).unwrap()).await
    }

    /// POSTs a multipart form: `(name, file name, bytes)`, a file part when the file name is
    /// set. With `bearer`, no cookie and no `Origin` are sent (as a script would).
    pub async fn multipart(
        &self,
        path: &str,
        parts: &[(&str, Option<&str>, &[u8])],
        cookie: Option<&str>,
        bearer: Option<&str>,
    ) -> Answer {
        let boundary = "----nodeledger-test-boundary-7MA4YWxkTrZu0gW";
        let mut body = Vec::new();
        for (name, file_name, bytes) in parts {
            body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
            match file_name {
                Some(f) => body.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\nContent-Type: application/octet-stream\r\n\r\n").as_bytes(),
                ),
                None => body.extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes()),
            }
            body.extend_from_slice(bytes);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        let mut req = Request::post(path)
            .header(
                header::CONTENT_TYPE,
                format!("multipart/form-data; boundary={boundary}"),
            )
            .header(header::ACCEPT, "application/json")
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::CONTENT_LENGTH, body.len());
        if let Some(c) = cookie {
            req = req.header(header::COOKIE, c).header(header::ORIGIN, ORIGIN);
        }
        if let Some(t) = bearer {
            req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
        }
        self.send(req.body(Body::from(body)).unwrap()).await
    }

    /// Where the server wrote the one-time set-up code: `setup-code` beside the database.
    pub fn setup_code_file(&self) -> PathBuf {
        self.path.join(app::auth::setup_code::FILE_NAME)
    }

    /// The one-time set-up code, read from its file as an operator would (panics once set-up is
    /// done: the file is gone).
    pub fn setup_code(&self) -> String {
        std::fs::read_to_string(self.setup_code_file())
            .expect("the set-up code file")
            .trim()
            .to_string()
    }

    /// Creates the first administrator through the set-up page with the set-up code; returns
    /// their session cookie.
    pub async fn setup_admin(&self) -> String {
        let code = self.setup_code();
        let res = self
            .call(
                "/api/setup",
                &[
                    ("setup_code", &code),
                    ("email", "admin@example.com"),
                    ("display_name", "Ada Admin"),
                    ("password", PASSWORD),
                    ("password_confirm", PASSWORD),
                ],
                None,
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.session_cookie().expect("setup signs the admin in")
    }

    /// Creates a team as the administrator; returns its id.
    pub async fn create_team(&self, admin: &str, name: &str) -> i64 {
        let res = self
            .call("/api/admin/create_team", &[("name", name)], Some(admin))
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body.trim().parse().expect("team id")
    }

    /// Creates a user with a role in a team; returns their id.
    pub async fn create_member(&self, admin: &str, email: &str, team_id: i64, role: &str) -> i64 {
        let team = team_id.to_string();
        let res = self
            .call(
                "/api/admin/create_user",
                &[
                    ("email", email),
                    ("display_name", email),
                    ("password", PASSWORD),
                    ("password_confirm", PASSWORD),
                    ("team_id", &team),
                    ("role", role),
                ],
                Some(admin),
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body.trim().parse().expect("user id")
    }

    /// Gives a user a role in a team as the administrator (adds them to it when they are not
    /// in it yet).
    pub async fn set_role(&self, admin: &str, team_id: i64, user_id: i64, role: &str) {
        let (team, user) = (team_id.to_string(), user_id.to_string());
        let res = self
            .call(
                "/api/admin/set_role",
                &[("team_id", &team), ("user_id", &user), ("role", role)],
                Some(admin),
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    }

    /// Signs in; returns the session cookie.
    pub async fn login(&self, email: &str, password: &str) -> String {
        let res = self
            .call("/api/login", &[("email", email), ("password", password)], None)
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.session_cookie().expect("sign-in sets a session cookie")
    }
}

/// Records a test needs before it can ask a route about them, made the way the pages make them.
impl TestApp {
    /// A batch workload (20 GiB measured peak, one GPU, 10 h) as procurement; returns its id.
    pub async fn create_workload(&self, procurement: &str, name: &str) -> i64 {
        let form = workload_form(name);
        let res = self.call("/api/workloads/create", &form, Some(procurement)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body.trim().parse().expect("workload id")
    }

    /// A one-GPU L4 quote from Acme at 4.00 CNY an hour, valid until 2099; returns its id.
    pub async fn create_quote(&self, procurement: &str, reference: &str) -> i64 {
        self.create_quote_with(procurement, reference, &[]).await
    }

    /// The quote of [`quote_form`] with `changes` applied, saved as `procurement`; returns its id.
    pub async fn create_quote_with(&self, procurement: &str, reference: &str, changes: &[(&str, &str)]) -> i64 {
        let fields = quote_form(reference, changes);
        let form: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let res = self.call("/api/quotes/save", &form, Some(procurement)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        let saved: serde_json::Value = serde_json::from_str(&res.body).expect("json");
        saved["quote_id"].as_i64().expect("quote id")
    }

    /// Uploads [`l4_run`] for `quote` and `workload` with an API `token`, checks the verdict is
    /// valid, and returns the run's id.
    pub async fn upload_valid_l4_run(&self, token: &str, quote: i64, workload: i64) -> i64 {
        let (q, w) = (quote.to_string(), workload.to_string());
        let run = l4_run();
        let parts = [
            ("result", Some("r.json"), run.as_bytes()),
            ("quote", None, q.as_bytes()),
            ("workload", None, w.as_bytes()),
        ];
        let res = self.multipart("/api/v1/runs", &parts, None, Some(token)).await;
        let body: serde_json::Value = serde_json::from_str(&res.body).expect("json");
        assert_eq!(body["status"], "valid", "{}", res.body);
        body["id"].as_i64().expect("run id")
    }

    /// An API token of an engineer (who confirms with the password), as shown once; returns the
    /// token.
    pub async fn create_token(&self, engineer: &str, name: &str) -> String {
        let form = [("name", name), ("password", PASSWORD)];
        let res = self.call("/api/tokens/create", &form, Some(engineer)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        let token: serde_json::Value = serde_json::from_str(&res.body).expect("json");
        token.as_str().expect("the token").to_string()
    }

    /// A draft order for a workload, as procurement; returns its id.
    pub async fn create_order(&self, procurement: &str, title: &str, workload: i64) -> i64 {
        let workload = workload.to_string();
        let res = self
            .call(
                "/api/orders/create",
                &[("title", title), ("workload_id", &workload)],
                Some(procurement),
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body.trim().parse().expect("order id")
    }
}

/// Orders as far as sign-off, the way the pages get there.
impl TestApp {
    /// A batch workload, an L4 quote with a valid run uploaded with `token`, and an order for it
    /// with every applicable item confirmed by its side (procurement `pam`, engineer `eve`),
    /// submitted; returns the order, the workload and the run.
    pub async fn submit_batch_order(&self, pam: &str, eve: &str, token: &str) -> (i64, i64, i64) {
        use app::domain::checklist::{Expert, OrderKind, applicable_items};
        let workload = self.create_workload(pam, "Batch job").await;
        let quote = self.create_quote(pam, "L4-1").await;
        let run = self.upload_valid_l4_run(token, quote, workload).await;
        let order = self.create_order(pam, "Sign-off", workload).await;
        let (o, q, r) = (order.to_string(), quote.to_string(), run.to_string());
        let select = [
            ("order_id", o.as_str()),
            ("quote_id", &q),
            ("waiver", ""),
            ("considered[]", &q),
            ("runs[]", &r),
        ];
        let res = self.call("/api/orders/select", &select, Some(pam)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        for item in applicable_items(OrderKind::Batch, false) {
            let who = if item.expert == Expert::Engineer { eve } else { pam };
            let form = [
                ("order_id", o.as_str()),
                ("item_id", item.id),
                ("status", "confirmed"),
                ("status_note", ""),
                ("answer", "checked"),
                ("evidence_run", &r),
                ("evidence_note", "see the run"),
            ];
            let res = self.call("/api/orders/answer", &form, Some(who)).await;
            assert_eq!(res.status, StatusCode::OK, "{}: {}", item.id, res.body);
        }
        let res = self.call("/api/orders/submit", &[("order_id", &o)], Some(pam)).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        (order, workload, run)
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// A team with procurement pam and engineer eve, both signed in: `(app, pam, eve)`.
pub async fn team_of_pam_and_eve() -> (TestApp, String, String) {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "A").await;
    app.create_member(&admin, "pam@example.com", team, "procurement").await;
    app.create_member(&admin, "eve@example.com", team, "engineer").await;
    let pam = app.login("pam@example.com", PASSWORD).await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    (app, pam, eve)
}

/// `application/x-www-form-urlencoded` encoding.
pub fn form_urlencoded(form: &[(&str, &str)]) -> String {
    fn enc(s: &str) -> String {
        s.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
                b' ' => "+".into(),
                _ => format!("%{b:02X}"),
            })
            .collect()
    }
    form.iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// The quote form's fields for a one-GPU L4 quote from Acme at 4.00 CNY an hour, valid until
/// 2099, with `changes` applied (a field the list lacks is added).
pub fn quote_form(reference: &str, changes: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut fields: Vec<(&str, &str)> = vec![
        ("vendor", "Acme GPU"),
        ("reference", reference),
        ("received_on", "2026-11-20"),
        ("valid_until", "2099-12-31"),
        ("spec.gpu_model", "L4 24GB"),
        ("spec.gpus_per_node", "1"),
        ("spec.vram_gib", "24"),
        ("spec.sharing", "exclusive"),
        ("currency", "CNY"),
        ("price.basis", "per_node"),
        ("price.on_demand_hourly", "4.00"),
        ("price.billing_increment", "hour"),
        ("price.stopped_bills_compute", "no"),
    ];
    for (k, v) in changes {
        match fields.iter_mut().find(|(name, _)| name == k) {
            Some(field) => field.1 = v,
            None => fields.push((k, v)),
        }
    }
    fields
        .into_iter()
        .map(|(k, v)| (format!("fields[{k}]"), v.to_string()))
        .chain([("quote_id".to_string(), String::new())])
        .collect()
}

/// A 15-minute canonical run on the quoted L4 (24 GiB), with telemetry every 30 s and no
/// slowdown: valid.
pub fn l4_run() -> String {
    let telemetry: Vec<serde_json::Value> = (0..=30)
        .map(|i| serde_json::json!({ "t": f64::from(i) * 30.0, "gpu": 0, "util_pct": 90.0, "mem_used_mib": 18000.0, "sm_clock_mhz": 1900.0, "temp_c": 60.0, "power_w": 70.0 }))
        .collect();
    serde_json::json!({ "schema": "nodeledger.run/v1", "source_format": "canonical",
        "node": { "gpu_name": "NVIDIA L4", "gpu_count": 1, "vram_total_mib": 24576.0 },
        "throughput": { "value": 50.0, "unit": "samples/s" }, "duration_s": 900.0, "gpu_util_mean_pct": 90.0,
        "vram_peak_mib": 18000.0, "throttle": { "active_s": 0.0, "reasons": [] }, "telemetry": telemetry })
    .to_string()
}

/// The fields of a batch workload (20 GiB measured peak, one GPU, 10 h) named `name`.
pub fn workload_form(name: &str) -> [(&'static str, &str); 14] {
    [
        ("name", name),
        ("kind", "batch"),
        ("model", ""),
        ("precision", ""),
        ("vram_peak_gib", "20"),
        ("vram_peak_source", "measured"),
        ("concurrency", "1"),
        ("gpus_needed", "1"),
        ("run_hours", "10"),
        ("total_work_amount", ""),
        ("total_work_unit", ""),
        ("data_gb", "0"),
        ("checkpoint_gb", "0"),
        ("headroom_pct", "20"),
    ]
}

/// Files as engineers really produce them (where each fact comes from: the unit tests in
/// `app/domain/src/runs/tests/real_uploads.rs`).
///
/// A default `vllm bench serve --save-result` file: a `duration`-second run of a 7B model at
/// 850 output tokens/s that finished at 10:20:05.
pub fn vllm_result(duration: f64) -> Vec<u8> {
    serde_json::json!({
        "date": "20261201-102005", "endpoint_type": "openai", "backend": "openai", "label": null,
        "model_id": "Qwen/Qwen2.5-7B-Instruct", "num_prompts": 4000, "request_rate": "inf",
        "max_concurrency": 32, "duration": duration, "completed": 4000, "failed": 0,
        "request_throughput": 3.3, "output_throughput": 850.0, "total_token_throughput": 4250.0,
        "mean_ttft_ms": 180.2, "median_ttft_ms": 171.0, "p99_ttft_ms": 402.1
    })
    .to_string()
    .into_bytes()
}

/// nvidia-smi `--query-gpu=timestamp,index,name,utilization.gpu,memory.used,memory.total,
/// clocks_event_reasons.active --format=csv -l 5` from 09:59:00 to 10:21:00 on an 8 × H100 node:
/// GPU 0 serves (utilisation following the load, memory flat at vLLM's reservation), the
/// others idle at 4 MiB; `cards` GPUs listed (1 as with `-i 0`).
pub fn h100_node_telemetry(cards: u32) -> Vec<u8> {
    use std::fmt::Write as _;
    let mut csv = String::from(
        "timestamp, index, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB], clocks_event_reasons.active\n",
    );
    for i in 0..265u32 {
        let t = 9 * 3600 + 59 * 60 + i * 5;
        for gpu in 0..cards {
            let (util, mem) = if gpu == 0 {
                ([62, 97, 35, 88, 71, 94, 48][(i % 7) as usize], 74_213 + i % 3)
            } else {
                (0, 4)
            };
            let _ = writeln!(
                csv,
                "2026/12/01 {:02}:{:02}:{:02}.{:03}, {gpu}, NVIDIA H100 80GB HBM3, {util} %, {mem} MiB, 81559 MiB, 0x0000000000000000",
                t / 3600,
                t / 60 % 60,
                t % 60,
                100 + gpu * 4
            );
        }
    }
    csv.into_bytes()
}

/// A mailer for a (fake) SMTP server on `127.0.0.1:port`, its links under
/// `https://desk.example.com`.
pub fn mailer(port: u16) -> server::mail::Mailer {
    use lettre::{AsyncSmtpTransport, Tokio1Executor};
    let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1")
        .port(port)
        .build();
    server::mail::Mailer::new(
        transport,
        "NodeLedger <nodeledger@example.com>",
        "https://desk.example.com",
    )
    .expect("a mailer")
}

/// A mailer whose SMTP server does not answer (a port nobody listens on).
pub async fn mailer_down() -> server::mail::Mailer {
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free port")
        .local_addr()
        .expect("its address")
        .port();
    mailer(closed)
}
