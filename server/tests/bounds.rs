//! Crafted numbers cannot make the server fail: the largest and smallest
//! decimals and integers, sent to every numeric field of every form, filter, query and API,
//! are answered 2xx or 4xx — never 5xx, never a panic, never a stalled answer — and the server
//! still answers `/healthz` afterwards.
//!
//! How the list of fields was built (from the code, not from memory):
//! - server functions: `grep -rn -A3 '#\[server' app/src` — every argument that is a number
//!   (`i64`, `Option<i64>`, `Vec<i64>`) or a `String` the function reads as a number, and the
//!   fields of the flattened forms (`VendorForm`, `WorkloadForm`, `AnswerFields`, the quote
//!   form's `Input::Number` fields in `pages/quotes/form.rs` `SECTIONS`, `QuoteQuery`,
//!   `RunRequest`), plus the cost page's query fields (`views::tco::ASSUMPTION_FIELDS`, read
//!   here from the code, their per-quote `<field>_<id>` forms, `tp_<id>`, `tpn_<id>`, `q`,
//!   `workload`);
//! - where text becomes a number: `grep -rn 'parse_decimal\|parse_integer\|normalise_fields\|
//!   \.parse::<\|\.parse()' app/src server/src` (page query parameters `rev`, `id`, `quote`,
//!   `workload`, `chart`, multipart `revision`, `quote`, `workload`, `nodes`);
//! - raw routes: `grep -rn 'Query<\|Path<\|\.route(' server/src` (ids in paths, `?revision=`,
//!   `?workload=`, the quote CSV export's filter, the cost exports and charts);
//! - pages: the `path!(…)` routes of `app/src/lib.rs` with an `:id` or a numeric query.
//!
//! That no route is forgotten is checked from the router itself: `every_route_is_in_the_field_table`
//! lists every server function (`server_fn_paths()`) and raw route (`server::router::raw_paths`)
//! and fails for one missing from `fields::ROUTES`; the probing test then fails for a route
//! listed there with numeric fields that no request reached.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use axum::body::Body;
#[path = "bounds/fields.rs"]
mod fields;

use common::{ORIGIN, PASSWORD, TestApp, form_urlencoded, l4_run, quote_form};
use fields::{BILL_NUMBERS, QUOTE_CSV_ROW, QUOTE_NUMBERS, ROUTES, cost_queries, form_endpoints, route_matches};
use http::{Method, Request, StatusCode, header};
use http_body_util::BodyExt;
use tower::ServiceExt;

/// Decimals at and past what a `Decimal` holds, an exponent, the smallest step, 40 digits.
const DECIMALS: [&str; 8] = [
    "79228162514264337593543950335",
    "-79228162514264337593543950335",
    "79228162514264337593543950336",
    "1e308",
    "0.0000000000000000000000000001",
    "-0.0000000000000000000000000001",
    "1234567890123456789012345678901234567890",
    "0.1234567890123456789012345678901234567890",
];

/// Integers at the ends of `i64` and `u64`, and past them.
const INTEGERS: [&str; 4] = [
    "9223372036854775807",
    "18446744073709551615",
    "-9223372036854775808",
    "99999999999999999999",
];

fn extremes() -> impl Iterator<Item = &'static str> {
    DECIMALS.into_iter().chain(INTEGERS)
}

/// The signed-in people and the records a request can point at.
struct World {
    app: TestApp,
    admin: String,
    pam: String,
    eve: String,
    max: String,
    token: String,
    team: i64,
    quote: i64,
    workload: i64,
    order: i64,
    run: i64,
    /// The path of every request sent.
    probed: std::sync::Mutex<std::collections::BTreeSet<String>>,
}

async fn world() -> World {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "A").await;
    app.create_member(&admin, "pam@example.com", team, "procurement").await;
    app.create_member(&admin, "eve@example.com", team, "engineer").await;
    app.create_member(&admin, "max@example.com", team, "manager").await;
    let pam = app.login("pam@example.com", PASSWORD).await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    let max = app.login("max@example.com", PASSWORD).await;
    let token = app.create_token(&eve, "CI").await;
    let workload = app.create_workload(&pam, "Batch").await;
    let quote = app.create_quote(&pam, "Q-1").await;
    let order = app.create_order(&pam, "Order", workload).await;
    let run = app.upload_valid_l4_run(&token, quote, workload).await;
    World {
        app,
        admin,
        pam,
        eve,
        max,
        token,
        team,
        quote,
        workload,
        order,
        run,
        probed: std::sync::Mutex::default(),
    }
}

/// What went wrong with one request: its description and what it answered.
type Failure = String;

impl World {
    /// Sends `req` in its own task (a panic is caught as a failure, not a crash of the test) and
    /// records a failure for a 5xx, a panic or no answer within [`common::STALL`]. A page (GET)
    /// that stalls is sent up to twice more, as [`common::TestApp::send`] does (Leptos' rare
    /// streaming race; a third stall is a failure).
    async fn probe(&self, what: String, req: Request<Body>, failures: &mut Vec<Failure>) {
        let (parts, body) = req.into_parts();
        self.probed.lock().unwrap().insert(parts.uri.path().to_string());
        let body = body.collect().await.unwrap().to_bytes();
        let retries = if parts.method == Method::GET { 2 } else { 0 };
        for attempt in 0..=retries {
            let req = Request::from_parts(parts.clone(), Body::from(body.clone()));
            let router = self.app.router.clone();
            let task = tokio::spawn(async move {
                let res = router.oneshot(req).await.unwrap();
                let status = res.status();
                let body = res
                    .into_body()
                    .collect()
                    .await
                    .map(http_body_util::Collected::to_bytes)
                    .unwrap_or_default();
                (
                    status,
                    String::from_utf8_lossy(&body).chars().take(300).collect::<String>(),
                )
            });
            match tokio::time::timeout(common::STALL, task).await {
                Ok(Ok((status, _))) if status.as_u16() < 500 => {}
                Ok(Ok((status, body))) => failures.push(format!("{what} → {status} {body}")),
                Ok(Err(e)) => failures.push(format!("{what} → panic: {e}")),
                Err(_) if attempt < retries => {
                    eprintln!("warning: {what} stalled for {:?}; sending it again", common::STALL);
                    continue;
                }
                Err(_) => failures.push(format!("{what} → no answer in {:?}", common::STALL)),
            }
            return;
        }
    }

    async fn form(&self, path: &str, fields: &[(String, String)], cookie: &str, failures: &mut Vec<Failure>) {
        let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let body = form_urlencoded(&pairs);
        let req = Request::post(path)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ACCEPT, "application/json")
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::ORIGIN, ORIGIN)
            .header(header::COOKIE, cookie)
            .body(Body::from(body))
            .unwrap();
        self.probe(format!("POST {path} {fields:?}"), req, failures).await;
    }

    /// POSTs raw JSON text (numbers written as sent, not as a JSON library would).
    async fn json(&self, path: &str, body: String, cookie: &str, failures: &mut Vec<Failure>) {
        self.json_bytes(path, body.into_bytes(), cookie, failures).await;
    }

    /// POSTs `body` as JSON whatever its bytes are (not UTF-8 included).
    async fn json_bytes(&self, path: &str, body: Vec<u8>, cookie: &str, failures: &mut Vec<Failure>) {
        let what = format!("POST {path} {}", String::from_utf8_lossy(&body));
        let req = Request::post(path)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json")
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::ORIGIN, ORIGIN)
            .header(header::COOKIE, cookie)
            .body(Body::from(body))
            .unwrap();
        self.probe(what, req, failures).await;
    }

    async fn get(&self, path: &str, cookie: &str, failures: &mut Vec<Failure>) {
        let req = Request::builder()
            .method(Method::GET)
            .uri(path)
            .header(header::ACCEPT, "text/html")
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::COOKIE, cookie)
            .body(Body::empty())
            .unwrap();
        self.probe(format!("GET {path}"), req, failures).await;
    }

    async fn multipart(
        &self,
        path: &str,
        parts: &[(&str, Option<&str>, &[u8])],
        auth: (&str, &str),
        failures: &mut Vec<Failure>,
    ) {
        let boundary = "----nodeledger-bounds";
        let mut body = Vec::new();
        for (name, file, bytes) in parts {
            let disposition = match file {
                Some(f) => format!("form-data; name=\"{name}\"; filename=\"{f}\""),
                None => format!("form-data; name=\"{name}\""),
            };
            body.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: {disposition}\r\n\r\n").as_bytes());
            body.extend_from_slice(bytes);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        let req = Request::post(path)
            .header(
                header::CONTENT_TYPE,
                format!("multipart/form-data; boundary={boundary}"),
            )
            .header(header::ACCEPT, "application/json")
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::ORIGIN, ORIGIN)
            .header(auth.0, auth.1)
            .body(Body::from(body))
            .unwrap();
        let shown: Vec<(&str, String)> = parts
            .iter()
            .map(|(n, f, b)| {
                (
                    *n,
                    if f.is_some() {
                        "<file>".into()
                    } else {
                        String::from_utf8_lossy(b).into_owned()
                    },
                )
            })
            .collect();
        self.probe(format!("POST {path} {shown:?}"), req, failures).await;
    }
}

/// `base` with `name` set to `value` (added when missing).
fn with(base: &[(&str, &str)], name: &str, value: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = base
        .iter()
        .filter(|(k, _)| *k != name)
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    out.push((name.to_string(), value.to_string()));
    out
}

fn enc(v: &str) -> String {
    form_urlencoded(&[("x", v)]).trim_start_matches("x=").to_string()
}

async fn probe_forms(w: &World, failures: &mut Vec<Failure>) {
    for (path, cookie, base, numbers) in form_endpoints(w) {
        let base: Vec<(&str, &str)> = base.iter().map(|(k, v)| (*k, v.as_str())).collect();
        for field in numbers {
            for v in extremes() {
                w.form(path, &with(&base, field, v), &cookie, failures).await;
            }
        }
    }
    probe_requests(w, failures).await;
    let quote = quote_form("Q-bounds", &[]);
    let quote: Vec<(&str, &str)> = quote.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    for field in QUOTE_NUMBERS.into_iter().chain(["quote_id"]) {
        for v in extremes() {
            w.form("/api/quotes/save", &with(&quote, field, v), &w.pam, failures)
                .await;
        }
    }
    for v in extremes() {
        for query in cost_queries(w, v) {
            w.form("/api/tco", &[("query".into(), query.clone())], &w.pam, failures)
                .await;
            w.form("/api/tco/page", &[("query".into(), query.clone())], &w.pam, failures)
                .await;
            // The rental plan reads the same query, then plans every node count and pricing.
            w.form("/api/plan", &[("query".into(), query.clone())], &w.pam, failures)
                .await;
            let part = [
                ("query".into(), query.clone()),
                ("part".into(), app::pages::tco::OVERRIDES.into()),
            ];
            w.form("/api/tco/part", &part, &w.pam, failures).await;
            let learned = [("workload_id".into(), w.workload.to_string()), ("query".into(), query)];
            w.form("/api/rentals/learned", &learned, &w.pam, failures).await;
        }
    }
}

/// A request for quotation: made for extreme workload ids, closed with extreme request ids,
/// and a vendor's bid with every quote number extreme.
async fn probe_requests(w: &World, failures: &mut Vec<Failure>) {
    let res = w
        .app
        .call(
            "/api/vendors/create",
            &[("name", "Bounds GPU"), ("contact", "bids@bounds.example")],
            Some(&w.pam),
        )
        .await;
    let vendor: i64 = res.body.trim().parse().expect("a vendor");
    let crate::access_matrix::table::Send::Form(request) = crate::rfq::request_form(w.workload, vendor) else {
        unreachable!("a form")
    };
    let request: Vec<(&str, &str)> = request.iter().map(|(k, v)| (*k, v.as_str())).collect();
    for v in extremes() {
        w.form(
            "/api/requests/create",
            &with(&request, "workload_id", v),
            &w.pam,
            failures,
        )
        .await;
        let change = [
            ("form[request_id]", v),
            ("form[close_local]", "2099-01-01T00:00"),
            ("form[utc_offset]", "+00:00"),
        ];
        w.form(
            "/api/requests/change",
            &with(&change, "form[request_id]", v),
            &w.pam,
            failures,
        )
        .await;
        let close = [("request_id", v), ("reason", "bounds")];
        w.form("/api/requests/close", &with(&close, "request_id", v), &w.pam, failures)
            .await;
    }
    let (_, link) = crate::rfq::a_link(&w.app, &w.pam, w.workload, vendor).await;
    let bid = quote_form("Q-bid", &[]);
    let mut bid: Vec<(&str, &str)> = bid.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    bid.extend([("link", link.as_str()), ("submit", "1")]);
    for field in QUOTE_NUMBERS {
        let name = format!("fields[{field}]");
        for v in extremes() {
            w.form("/api/bid/save", &with(&bid, &name, v), &w.pam, failures).await;
        }
    }
    for v in extremes() {
        let e = enc(v);
        w.form(&format!("/bid/{link}/files/{e}/delete"), &[], &w.pam, failures)
            .await;
        w.get(&format!("/requests/{e}"), &w.pam, failures).await;
        w.get(&format!("/bid/{e}"), &w.pam, failures).await;
    }
}

/// A quote CSV of one row, `field` set to `v` (added as a column when the row lacks it).
fn quote_csv(field: &str, v: &str) -> String {
    let mut row: Vec<(&str, &str)> = QUOTE_CSV_ROW.into_iter().filter(|(k, _)| *k != field).collect();
    row.push((field, v));
    let header: Vec<&str> = row.iter().map(|(k, _)| *k).collect();
    let values: Vec<&str> = row.iter().map(|(_, v)| *v).collect();
    format!("{}\n{}\n", header.join(","), values.join(","))
}

/// The imports: the numbers inside the file (every numeric quote column, a bill line's
/// amounts) and the bill's order id.
async fn probe_imports(w: &World, failures: &mut Vec<Failure>) {
    for v in extremes() {
        for field in QUOTE_NUMBERS {
            let request = serde_json::json!({ "content": quote_csv(field, v), "format": "csv", "vendor": "",
                "currency": "CNY", "valid_until": "" });
            let body = serde_json::json!({ "request": request, "save": true }).to_string();
            w.json("/api/quotes/import", body, &w.pam, failures).await;
        }
        for field in BILL_NUMBERS {
            let line = |name: &str| if name == field { v } else { "1" };
            let content = format!(
                "resource_id,period_start,period_end,currency,amount,quantity,unit_price\n\
                 i-1,2026-12-01,2026-12-02,CNY,{},{},{}\n",
                line("amount"),
                line("quantity"),
                line("unit_price")
            );
            let request = serde_json::json!({ "order_id": w.order, "file_name": "b.csv", "content": content });
            let body = serde_json::json!({ "request": request, "save": false }).to_string();
            w.json("/api/orders/bills/import", body.clone(), &w.pam, failures).await;
            w.json("/api/orders/bills/import_shown", body, &w.pam, failures).await;
        }
        let raw = v.trim_start_matches('+');
        let body = format!(r#"{{"request":{{"order_id":{raw},"file_name":"b.csv","content":"x"}},"save":false}}"#);
        w.json("/api/orders/bills/import", body.clone(), &w.pam, failures).await;
        w.json("/api/orders/bills/import_shown", body, &w.pam, failures).await;
    }
}

async fn probe_json(w: &World, failures: &mut Vec<Failure>) {
    for v in extremes() {
        for field in ["vram", "gpus", "max_price", "page"] {
            let body = format!(r#"{{"query":{{"{field}":"{v}"}}}}"#);
            w.json("/api/quotes/list", body, &w.pam, failures).await;
        }
        // JSON numbers written as sent: past i64 they do not decode (a 4xx, not a panic).
        let raw = v.trim_start_matches('+');
        w.json(
            "/api/quotes/compare",
            format!(r#"{{"ids":[{raw}],"workload_id":null}}"#),
            &w.pam,
            failures,
        )
        .await;
        w.json(
            "/api/quotes/compare",
            format!(r#"{{"ids":[{}],"workload_id":{raw}}}"#, w.quote),
            &w.pam,
            failures,
        )
        .await;
        for field in ["files", "quote_id", "revision", "workload_id", "nodes"] {
            let value = if field == "files" {
                format!("[{raw}]")
            } else {
                raw.to_string()
            };
            let files = if field == "files" {
                String::new()
            } else {
                r#""files":[],"#.to_string()
            };
            let body = format!(r#"{{"request":{{{files}"node_label":"n","note":"","{field}":{value}}}}}"#);
            w.json("/api/runs/preview", body.clone(), &w.eve, failures).await;
            w.json("/api/runs/preview_shown", body.clone(), &w.eve, failures).await;
            w.json("/api/runs/save", body, &w.eve, failures).await;
        }
    }
}

/// Every server function that reads JSON, sent bodies that are not UTF-8: outside a string, and
/// inside one (a file's content read by a script in the wrong encoding).
async fn probe_json_not_utf8(w: &World, failures: &mut Vec<Failure>) {
    let order = w.order.to_string();
    let bodies: [Vec<u8>; 3] = [
        b"\xff\xfe{\"request\":{}}".to_vec(),
        [
            br#"{"request":{"content":""#.as_slice(),
            b"\xc3\x28\xa0\xa1",
            br#"","format":"csv"}}"#,
        ]
        .concat(),
        [
            br#"{"request":{"order_id":"#.as_slice(),
            order.as_bytes(),
            br#","file_name":"b.csv","content":""#,
            b"\xed\xa0\x80",
            br#""},"save":false}"#,
        ]
        .concat(),
    ];
    let routes = [
        ("/api/quotes/list", &w.pam),
        ("/api/quotes/compare", &w.pam),
        ("/api/quotes/import", &w.pam),
        ("/api/orders/bills/import", &w.pam),
        ("/api/orders/bills/import_shown", &w.pam),
        ("/api/runs/preview", &w.eve),
        ("/api/runs/preview_shown", &w.eve),
        ("/api/runs/save", &w.eve),
    ];
    for (path, who) in routes {
        for body in &bodies {
            w.json_bytes(path, body.clone(), who, failures).await;
        }
    }
}

async fn probe_raw_routes(w: &World, failures: &mut Vec<Failure>) {
    let bearer = format!("Bearer {}", w.token);
    let run = l4_run();
    for v in extremes() {
        let e = enc(v);
        for field in ["vram", "gpus", "max_price", "page"] {
            w.get(&format!("/quotes/export.csv?{field}={e}"), &w.pam, failures)
                .await;
            w.get(&format!("/quotes?{field}={e}"), &w.pam, failures).await;
        }
        for path in [
            format!("/runs/{e}/files/1"),
            format!("/runs/{}/files/{e}", w.run),
            format!("/runs/{e}/telemetry.svg"),
            format!("/runs/compare.svg?workload={e}"),
            format!("/documents/{e}"),
            format!("/orders/{e}/export.json"),
            format!("/orders/{e}/scenario.json"),
            format!("/orders/{}/scenario.json?revision={e}", w.order),
            format!("/quotes/{e}"),
            format!("/quotes/{}?rev={e}", w.quote),
            format!("/quotes/{e}/edit"),
            format!("/quotes/compare?id={e}&workload={e}"),
            format!("/orders/{e}"),
            format!("/orders/{}?rev={e}", w.order),
            format!("/runs?quote={e}&workload={e}"),
            format!("/runs/{e}"),
            format!("/workloads/{e}"),
            format!("/vendors/{e}"),
            format!("/admin/teams/{e}"),
            format!("/pkg/texts/{e}"),
            format!("/pkg/texts/en.{e}.json"),
        ] {
            let cookie = if path.starts_with("/admin") { &w.admin } else { &w.pam };
            w.get(&path, cookie, failures).await;
        }
        // The exports and charts read the query as the page's server function does (probed in
        // `probe_forms` for every field); each is also asked with the ids out of bounds.
        for (i, query) in cost_queries(w, v).into_iter().enumerate() {
            let query = query.replace(v, &e);
            let paths: &[&str] = if i < 2 {
                &[
                    "/tco",
                    "/tco/export.csv",
                    "/tco/export.json",
                    "/tco/stack.svg",
                    "/tco/nodes.svg",
                    "/tco/response.svg",
                    "/plan/chart.svg",
                ]
            } else {
                &["/tco/export.json"]
            };
            for path in paths {
                w.get(&format!("{path}?{query}"), &w.pam, failures).await;
            }
        }
        // A texts file name that is not UTF-8 once decoded.
        w.get("/pkg/texts/en.%FF%FE.json", &w.pam, failures).await;
        w.get(
            &format!("/tco/hours.svg?workload={}&q={}&chart={e}", w.workload, w.quote),
            &w.pam,
            failures,
        )
        .await;
        let document = [
            ("revision", None, v.as_bytes()),
            ("file", Some("quote.pdf"), b"%PDF-1.4\n".as_slice()),
        ];
        let path = format!("/quotes/{}/documents", w.quote);
        w.multipart(&path, &document, ("cookie", &w.pam), failures).await;
        for field in ["quote", "revision", "workload", "nodes"] {
            let parts = [
                ("result", Some("r.json"), run.as_bytes()),
                ("node_label", None, b"n1".as_slice()),
                (field, None, v.as_bytes()),
                ("dry_run", None, b"true".as_slice()),
            ];
            w.multipart("/api/v1/runs", &parts, ("authorization", &bearer), failures)
                .await;
        }
    }
}

#[tokio::test]
async fn the_largest_numbers_in_every_field_get_a_4xx_at_worst() {
    let w = world().await;
    let mut failures = Vec::new();
    probe_forms(&w, &mut failures).await;
    probe_json(&w, &mut failures).await;
    probe_json_not_utf8(&w, &mut failures).await;
    probe_imports(&w, &mut failures).await;
    probe_raw_routes(&w, &mut failures).await;
    let health = w.app.get("/healthz", None, None).await;
    assert_eq!(health.status, StatusCode::OK, "the server still answers");
    let probed = w.probed.lock().unwrap().clone();
    let unprobed: Vec<&str> = ROUTES
        .iter()
        .filter(|(route, numbers)| !numbers.is_empty() && !probed.iter().any(|p| route_matches(route, p)))
        .map(|(route, _)| *route)
        .collect();
    assert!(
        unprobed.is_empty(),
        "listed with numeric fields in server/tests/bounds/fields.rs, but never probed: {unprobed:?}"
    );
    assert!(
        failures.is_empty(),
        "{} requests failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The order's selection as the page posts it: `count` entries of `list` (`runs[]` or
/// `considered[]`), all `id`.
fn selection_form(w: &World, list: &'static str, id: i64, count: usize) -> Vec<(String, String)> {
    let mut form = vec![
        ("order_id".to_string(), w.order.to_string()),
        ("quote_id".to_string(), String::new()),
        ("waiver".to_string(), String::new()),
    ];
    form.extend(std::iter::repeat_n((list.to_string(), id.to_string()), count));
    form
}

#[tokio::test]
async fn an_orders_lists_of_runs_and_quotes_considered_are_capped() {
    let w = world().await;
    let post = |form: Vec<(String, String)>| {
        let app = &w.app;
        let pam = w.pam.clone();
        async move {
            let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            app.call("/api/orders/select", &form, Some(&pam)).await
        }
    };
    for (list, id, field) in [("runs[]", w.run, "runs"), ("considered[]", w.quote, "considered")] {
        // 50 000 entries fit in the body limit: refused before one is looked up.
        for count in [101, 50_000] {
            let res = post(selection_form(&w, list, id, count)).await;
            assert_eq!(
                res.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{list} × {count}: {}",
                res.body
            );
            let body: serde_json::Value = serde_json::from_str(&res.body).unwrap();
            assert_eq!(body["detail"][0]["field"], field, "{}", res.body);
            assert_eq!(body["detail"][0]["code"], "too_many_items", "{}", res.body);
            assert_eq!(body["detail"][0]["limit"], "100", "{}", res.body);
        }
        let res = post(selection_form(&w, list, id, 100)).await;
        assert_eq!(res.status, StatusCode::OK, "{list} × 100 is allowed: {}", res.body);
    }
}

/// Every path the router answers: its server functions and its raw routes.
pub(crate) fn routed_paths() -> Vec<&'static str> {
    let functions = leptos::server_fn::axum::server_fn_paths().map(|(path, _)| path);
    let mut paths: Vec<&'static str> = functions
        .chain(server::router::raw_paths(&server::config::ServeConfig::for_tests()))
        .collect();
    paths.sort_unstable();
    paths.dedup();
    paths
}

/// A server function or raw route added to the app without its numbers probed here fails this
/// test, naming it; a route removed from the app is named too, so the table stays true.
#[test]
fn every_route_is_in_the_field_table() {
    let routed = routed_paths();
    assert!(routed.contains(&"/api/quotes/import") && routed.contains(&"/runs/{id}/files/{file}"));
    let missing: Vec<String> = routed
        .iter()
        .filter(|path| !ROUTES.iter().any(|(listed, _)| listed == *path))
        .map(|path| format!("add {path} to server/tests/bounds/fields.rs (ROUTES, with its numeric fields)"))
        .collect();
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    let gone: Vec<&str> = ROUTES
        .iter()
        .map(|(listed, _)| *listed)
        .filter(|listed| !routed.contains(listed))
        .collect();
    assert!(
        gone.is_empty(),
        "no longer routed, remove from server/tests/bounds/fields.rs: {gone:?}"
    );
}
