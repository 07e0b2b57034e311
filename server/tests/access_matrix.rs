//! Who may call what, proven cell by cell: every server function and raw route the router
//! answers (the list the bounds test reads from the router itself), called by each kind of
//! caller — nobody signed in, each role of team A, each role of team B, the site administrator
//! (in no team) and a user disabled after signing in — once with team A's record ids and once
//! with team B's.
//!
//! What each cell must answer is derived from the route's one row in [`table::ROWS`] (who it
//! serves, and whether it names a team's records by id):
//! - nobody signed in and the disabled user → 401, unless the route serves anyone;
//! - a route for the administrator → 403 for everyone else signed in;
//! - a team route → 403 for the administrator (no team) and for a role the row does not name;
//! - a team route naming records by id, called by an allowed role of the other team → 404, the
//!   same answer as for an id that does not exist;
//! - every other cell is served: the handler answered (2xx, or a 4xx of its own rules such as
//!   409 "already submitted" or 422 "check the fields"), never 401, 403, 404 or a 5xx.
//!
//! A route the router answers without a row, or a row for a route it no longer answers, fails
//! `every_route_has_a_row_in_the_access_table`.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

#[path = "access_matrix/table.rs"]
pub mod table;

use crate::common::{self, PASSWORD, TestApp};
use http::StatusCode;
use table::{ROWS, Reach, Records, Send, Who};

/// The fixtures the requests come from: a vLLM result and its nvidia-smi telemetry.
const VLLM: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/vllm_serve.json");
const SMI: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/smi_multi_gpu.csv");
const PDF: &[u8] = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n";

/// One kind of caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Caller {
    Anonymous,
    /// A member of team 0 (A) or 1 (B) in the role `P`, `E` or `M`.
    Member(usize, char),
    Admin,
    /// Procurement of team A, signed in, then disabled by the administrator.
    Disabled,
}

const CALLERS: [Caller; 9] = [
    Caller::Anonymous,
    Caller::Member(0, 'P'),
    Caller::Member(0, 'E'),
    Caller::Member(0, 'M'),
    Caller::Member(1, 'P'),
    Caller::Member(1, 'E'),
    Caller::Member(1, 'M'),
    Caller::Admin,
    Caller::Disabled,
];

/// What a cell must answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// The handler ran and answered by its own rules: 2xx, a redirect, 409 or 422.
    Served,
    /// Another team's ids in a cost page's address, read as ids this team does not have: the
    /// caller's own comparison (or its refusal), never a 5xx.
    Blind,
    Denied(StatusCode),
}

/// The answer the table gives for `caller` asking `row`'s route about team `ids`'s records.
fn expected(who: Who, reach: Reach, caller: Caller, ids: usize) -> Expect {
    use Expect::{Blind, Denied, Served};
    let not_signed_in = matches!(caller, Caller::Anonymous | Caller::Disabled);
    let other_team = matches!(caller, Caller::Member(team, _) if team != ids);
    match (who, caller) {
        (Who::Anyone, _) => Served,
        (Who::Enrolling, _) if not_signed_in => Denied(StatusCode::FORBIDDEN),
        (_, _) if not_signed_in => Denied(StatusCode::UNAUTHORIZED),
        (Who::SignedIn, _) if reach == Reach::Membership && !matches!(caller, Caller::Member(t, _) if t == ids) => {
            Denied(StatusCode::FORBIDDEN)
        }
        (Who::SignedIn | Who::Enrolling, _) | (Who::Admin, Caller::Admin) => Served,
        (Who::Owner(role), Caller::Member(team, r)) if r == role && team == ids => Served,
        (Who::Owner(_), _) => Denied(StatusCode::NOT_FOUND),
        (Who::Token, Caller::Member(_, 'E')) if other_team => Denied(StatusCode::NOT_FOUND),
        (Who::Token, Caller::Member(_, 'E')) => Served,
        (Who::Token, _) => Denied(StatusCode::UNAUTHORIZED),
        (Who::Admin, _) | (Who::Team(_), Caller::Admin) => Denied(StatusCode::FORBIDDEN),
        (Who::Team(roles), Caller::Member(_, role)) if !roles.contains(role) => Denied(StatusCode::FORBIDDEN),
        (Who::Team(_), _) if other_team && reach == Reach::Records => Denied(StatusCode::NOT_FOUND),
        (Who::Team(_), _) if other_team && reach == Reach::Query => Blind,
        (Who::Team(_), _) => Served,
    }
}

/// The site: two teams with a record of every kind each, everyone signed in.
struct Site {
    app: TestApp,
    records: [Records; 2],
    /// Session cookies by caller (`None` for nobody signed in).
    cookies: Vec<(Caller, Option<String>)>,
    /// Each team's engineer's API token (the one the upload route is called with).
    tokens: [String; 2],
    admin: String,
}

fn email(team: usize, role: char) -> String {
    format!("{}-{}@example.com", role.to_ascii_lowercase(), ["a", "b"][team])
}

async fn site() -> Site {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let mut teams = Vec::new();
    for (t, name) in ["A", "B"].into_iter().enumerate() {
        let team = app.create_team(&admin, name).await;
        for (role, stored) in [('P', "procurement"), ('E', "engineer"), ('M', "manager")] {
            app.create_member(&admin, &email(t, role), team, stored).await;
        }
        teams.push(team);
    }
    let dan = app
        .create_member(&admin, "dan@example.com", teams[0], "procurement")
        .await;
    let mut cookies = vec![(Caller::Anonymous, None)];
    for caller in CALLERS {
        if let Caller::Member(t, role) = caller {
            cookies.push((caller, Some(app.login(&email(t, role), PASSWORD).await)));
        }
    }
    cookies.push((Caller::Admin, Some(admin.clone())));
    let dan_cookie = app.login("dan@example.com", PASSWORD).await;
    cookies.push((Caller::Disabled, Some(dan_cookie)));
    let mut records = Vec::new();
    let mut tokens = Vec::new();
    for (t, team) in teams.iter().enumerate() {
        let cookie = |role| {
            cookies
                .iter()
                .find(|(c, _)| *c == Caller::Member(t, role))
                .and_then(|(_, cookie)| cookie.clone())
                .unwrap()
        };
        let (made, token) = records_of(&app, &admin, *team, t, &cookie('P'), &cookie('E'), dan).await;
        records.push(made);
        tokens.push(token);
    }
    let res = app
        .call(
            "/api/admin/set_user_disabled",
            &[("user_id", &dan.to_string()), ("disabled", "true")],
            Some(&admin),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    Site {
        app,
        records: records.try_into().ok().unwrap(),
        cookies,
        tokens: tokens.try_into().ok().unwrap(),
        admin,
    }
}

/// An inference service with a response-time target (its cost page draws the response chart).
async fn chat_service(app: &TestApp, pam: &str) -> i64 {
    let mut workload_form = common::workload_form("Chat").to_vec();
    workload_form.retain(|(k, _)| !["kind", "total_work_amount", "total_work_unit"].contains(k));
    workload_form.extend([
        ("kind", "inference_service"),
        ("total_work_amount", "36000000"),
        ("total_work_unit", "tokens"),
        ("response_percentile", "p95"),
        ("response_metric", "tpot"),
        ("response_max_ms", "50"),
    ]);
    let res = app.call("/api/workloads/create", &workload_form, Some(pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    res.body.trim().parse().unwrap()
}

/// A PDF attached to `quote`; returns the document's id.
async fn a_document(app: &TestApp, pam: &str, team: i64, quote: i64) -> i64 {
    let res = app
        .multipart(
            &format!("/quotes/{quote}/documents"),
            &[("revision", None, b"1"), ("file", Some("quote.pdf"), PDF)],
            Some(pam),
            None,
        )
        .await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    sqlx::query_scalar("SELECT id FROM quote_documents WHERE team_id = ?")
        .bind(team)
        .fetch_one(&app.db)
        .await
        .unwrap()
}

/// A record of every kind in `team`, made by its procurement `pam` and engineer `eve`, and the
/// engineer's token for uploads.
async fn records_of(
    app: &TestApp,
    admin: &str,
    team: i64,
    t: usize,
    pam: &str,
    eve: &str,
    disabled: i64,
) -> (Records, String) {
    let workload = chat_service(app, pam).await;
    let quote = app.create_quote(pam, &marker(t)).await;
    let document = a_document(app, pam, team, quote).await;
    let token = app.create_token(eve, "uploads").await;
    let spare = app.create_token(eve, "to revoke").await;
    let spare_id: i64 = sqlx::query_scalar("SELECT id FROM api_tokens ORDER BY id DESC LIMIT 1")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert!(!spare.is_empty());
    let q = quote.to_string();
    let w = workload.to_string();
    let res = app
        .multipart(
            "/api/v1/runs",
            &[
                ("result", Some("v.json"), VLLM),
                ("telemetry", Some("smi.csv"), SMI),
                ("quote", None, q.as_bytes()),
                ("workload", None, w.as_bytes()),
            ],
            None,
            Some(&token),
        )
        .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let (run, run_file): (i64, i64) =
        sqlx::query_as("SELECT id, result_file_id FROM runs WHERE team_id = ? ORDER BY id DESC LIMIT 1")
            .bind(team)
            .fetch_one(&app.db)
            .await
            .unwrap();
    let order = app.create_order(pam, "Order", workload).await;
    let suggestion = a_suggestion(app, pam, order, quote).await;
    let (submitted, batch_workload, batch_run) = app.submit_batch_order(pam, eve, &token).await;
    let unit: String = sqlx::query_scalar("SELECT throughput_unit FROM runs WHERE id = ?")
        .bind(batch_run)
        .fetch_one(&app.db)
        .await
        .unwrap();
    let res = app
        .call(
            "/api/vendors/create",
            &[("name", "Spare GPU Co"), ("contact", "Li Lei <sales@spare.example>")],
            Some(pam),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let vendor: i64 = res.body.trim().parse().unwrap();
    let (request, invitation) = crate::rfq::a_request(app, pam, workload, vendor).await;
    let (_, bid_link) = crate::rfq::a_link(app, pam, workload, vendor).await;
    let member = app
        .create_member(admin, &format!("temp-{t}@example.com"), team, "engineer")
        .await;
    let records = Records {
        team,
        workload,
        quote,
        document,
        run,
        run_file,
        order,
        vendor,
        token: spare_id,
        member,
        disabled,
        submitted,
        suggestion,
        batch_workload,
        unit,
        request,
        invitation,
        bid_link,
    };
    (records, token)
}

/// The token of a suggestion procurement may accept on `order`, once `quote` is chosen.
async fn a_suggestion(app: &TestApp, pam: &str, order: i64, quote: i64) -> String {
    let (o, q) = (order.to_string(), quote.to_string());
    let select = [
        ("order_id", o.as_str()),
        ("quote_id", &q),
        ("waiver", ""),
        ("considered[]", &q),
    ];
    let res = app.call("/api/orders/select", &select, Some(pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let view: serde_json::Value =
        serde_json::from_str(&app.call("/api/orders/get", &[("id", &o)], Some(pam)).await.body).unwrap();
    view["sections"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| s["items"].as_array().into_iter().flatten())
        .find_map(|i| i["accept"]["token"].as_str())
        .expect("a suggestion to accept")
        .to_string()
}

/// Every path the router answers, as the bounds test lists them.
fn routed_paths() -> Vec<&'static str> {
    crate::bounds::routed_paths()
}

#[test]
fn every_route_has_a_row_in_the_access_table() {
    let routed = routed_paths();
    let missing: Vec<String> = routed
        .iter()
        .filter(|path| !ROWS.iter().any(|row| row.path == **path))
        .map(|path| format!("add {path} to server/tests/access_matrix/table.rs: who it serves and what it names"))
        .collect();
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    let gone: Vec<&str> = ROWS
        .iter()
        .map(|row| row.path)
        .filter(|path| !routed.contains(path))
        .collect();
    assert!(
        gone.is_empty(),
        "no longer routed, remove from the access table: {gone:?}"
    );
    let mut seen = std::collections::BTreeSet::new();
    let twice: Vec<&str> = ROWS.iter().map(|r| r.path).filter(|p| !seen.insert(*p)).collect();
    assert!(twice.is_empty(), "one row per route: {twice:?}");
}

impl Site {
    fn cookie(&self, caller: Caller) -> Option<String> {
        self.cookies
            .iter()
            .find(|(c, _)| *c == caller)
            .and_then(|(_, cookie)| cookie.clone())
    }

    /// New sessions for everyone still able to sign in.
    async fn sign_in_again(&mut self) {
        for i in 0..self.cookies.len() {
            let caller = self.cookies[i].0;
            if matches!(caller, Caller::Admin | Caller::Member(..)) {
                self.cookies[i].1 = self.fresh_cookie(caller).await;
            }
        }
    }

    /// A new session for `caller` (for routes that end or replace the one they are called with).
    async fn fresh_cookie(&self, caller: Caller) -> Option<String> {
        match caller {
            Caller::Anonymous | Caller::Disabled => self.cookie(caller),
            Caller::Admin => Some(self.app.login("admin@example.com", PASSWORD).await),
            Caller::Member(t, role) => Some(self.app.login(&email(t, role), PASSWORD).await),
        }
    }

    /// Sends one cell's request; the answer's status and the first of its body.
    async fn send(&self, path: &str, send: Send, caller: Caller, cookie: Option<&str>) -> (StatusCode, String) {
        let res = match send {
            Send::Form(fields) => {
                let form: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
                self.app.post(path, &form, cookie, Some(common::ORIGIN)).await
            }
            Send::Json(body) => self.app.call_json(path, &body, cookie).await,
            Send::Get(uri) => self.app.get(&uri, cookie, None).await,
            Send::Multipart(uri, parts) => {
                let parts: Vec<(&str, Option<&str>, &[u8])> =
                    parts.iter().map(|(n, f, b)| (*n, *f, b.as_slice())).collect();
                // Nobody signed in still posts from the site's page (a cookie that is no session).
                self.app
                    .multipart(&uri, &parts, cookie.or(Some("nl_lang=en")), None)
                    .await
            }
            Send::Upload(parts) => {
                // The API takes a token, never a session: the caller's engineer token when they
                // have one, else their session cookie alone.
                let token = match caller {
                    Caller::Member(t, 'E') => Some(self.tokens[t].as_str()),
                    _ => None,
                };
                let parts: Vec<(&str, Option<&str>, &[u8])> =
                    parts.iter().map(|(n, f, b)| (*n, *f, b.as_slice())).collect();
                let cookie = if token.is_some() { None } else { cookie };
                self.app.multipart(path, &parts, cookie, token).await
            }
        };
        (res.status, res.body)
    }
}

fn holds(expect: Expect, status: StatusCode, served_as: Option<StatusCode>) -> bool {
    match (expect, served_as) {
        (Expect::Denied(code), _) => status == code,
        (Expect::Served, Some(code)) => status == code,
        (Expect::Served, None) => {
            status.is_success()
                || status.is_redirection()
                || [StatusCode::CONFLICT, StatusCode::UNPROCESSABLE_ENTITY].contains(&status)
        }
        (Expect::Blind, _) => !status.is_server_error(),
    }
}

/// What only team `t`'s answers may contain: its quote's reference.
fn marker(t: usize) -> String {
    format!("REF-{}-7731", ["ALPHA", "BRAVO"][t])
}

/// Every cell of the matrix: each route × each caller × each team's ids, the answer the table
/// says. Prints the number of cells.
#[tokio::test]
async fn every_route_answers_each_caller_as_the_access_table_says() {
    let mut site = site().await;
    let mut failures = Vec::new();
    let mut cells = 0;
    for row in ROWS {
        for ids in 0..2 {
            for caller in CALLERS {
                let cookie = if row.fresh_session {
                    site.fresh_cookie(caller).await
                } else {
                    site.cookie(caller)
                };
                let expect = expected(row.who, row.reach, caller, ids);
                let send = (row.send)(&site.records[ids]);
                let (status, body) = site.send(row.path, send, caller, cookie.as_deref()).await;
                cells += 1;
                let member_of_ids = matches!(caller, Caller::Member(t, _) if t == ids);
                if !member_of_ids && body.contains(&marker(ids)) {
                    failures.push(format!(
                        "{} as {caller:?} with team {}'s ids: the answer shows that team's quote",
                        row.path,
                        ["A", "B"][ids]
                    ));
                }
                let body: String = body.chars().take(200).collect();
                if !holds(expect, status, row.served_as) {
                    failures.push(format!(
                        "{} as {caller:?} with team {}'s ids: expected {expect:?}, got {status} {body}",
                        row.path,
                        ["A", "B"][ids]
                    ));
                }
            }
        }
        if row.fresh_session {
            // A changed password ends every session of its user: everyone signs in again.
            site.sign_in_again().await;
        }
    }
    let health = site.app.get("/healthz", None, None).await;
    assert_eq!(health.status, StatusCode::OK);
    assert!(!site.admin.is_empty());
    eprintln!(
        "access matrix: {} routes × {} callers × 2 teams' ids = {cells} cells",
        ROWS.len(),
        CALLERS.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {cells} cells answered otherwise than the table says:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
