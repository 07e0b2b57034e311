//! The access table: for every route the router answers, who it serves, whether it names a
//! team's records by id, and a request a permitted caller would send (valid, so that a refusal
//! can only come from who is asking).

use serde_json::json;

/// Who a route serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// Anybody, signed in or not: sign-in, set-up, health, the language, static files.
    Anyone,
    /// Anybody signed in, in a team or not: their own session, account and tokens.
    SignedIn,
    /// The site administrator.
    Admin,
    /// Members of the active team in these roles: `P` procurement, `E` engineer, `M` manager.
    Team(&'static str),
    /// Only the user the record belongs to, the team's member in this role; to anybody else
    /// signed in it does not exist (404).
    Owner(char),
    /// The team's engineers with their API token; a session is no credential here (401).
    Token,
    /// Signed in, or halfway through a sign-in that must first enrol a second factor; anybody
    /// else is told that sign-in step is gone (403, `second_factor.pending_gone`).
    Enrolling,
}

/// What the request's ids point at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Nothing by id, or only the caller's active team (from the session).
    Session,
    /// A team's records by id: another team's answer as a record that does not exist (404).
    Records,
    /// A team by id: one the caller is not a member of is refused (403).
    Membership,
    /// Ids in a cost page's address (`workload=…&q=…`): ids of another team are unknown ids,
    /// dropped as a stale link's are, and the caller's own team's comparison answers.
    Query,
}

/// One team's records, as the requests name them.
pub struct Records {
    pub team: i64,
    pub workload: i64,
    pub quote: i64,
    pub document: i64,
    pub run: i64,
    pub run_file: i64,
    pub order: i64,
    pub vendor: i64,
    /// An API token of the team's engineer, there to be revoked.
    pub token: i64,
    /// An engineer of the team the administrator's member routes act on.
    pub member: i64,
    /// The disabled user.
    pub disabled: i64,
    /// A suggestion procurement may accept on the draft order.
    pub suggestion: String,
    /// An order submitted for sign-off (its comparison frozen).
    pub submitted: i64,
    /// The workload of the submitted order (with a valid run).
    pub batch_workload: i64,
    /// The throughput unit of the submitted order's run.
    pub unit: String,
    /// A request for quotation, open, with one invited vendor.
    pub request: i64,
    /// Its invited vendor's invitation (the one revoked and replaced).
    pub invitation: i64,
    /// Another open request's vendor link (the path's last part), for the vendor's own routes.
    pub bid_link: String,
}

/// A request.
pub enum Send {
    /// A form posted to the route.
    Form(Vec<(&'static str, String)>),
    /// JSON posted to the route.
    Json(serde_json::Value),
    /// A GET of this address.
    Get(String),
    /// A multipart form posted to this address with the session.
    Multipart(String, Vec<(&'static str, Option<&'static str>, Vec<u8>)>),
    /// A multipart form posted to the route with the caller's API token.
    Upload(Vec<(&'static str, Option<&'static str>, Vec<u8>)>),
}

/// One route's row.
pub struct Row {
    pub path: &'static str,
    pub who: Who,
    pub reach: Reach,
    /// Called with a new session per cell: the route ends or replaces the one it is sent with.
    pub fresh_session: bool,
    /// The one answer a permitted caller gets, where it is not a 2xx (see the row).
    pub served_as: Option<http::StatusCode>,
    pub send: fn(&Records) -> Send,
}

pub const fn row(path: &'static str, who: Who, reach: Reach, send: fn(&Records) -> Send) -> Row {
    Row {
        path,
        who,
        reach,
        fresh_session: false,
        served_as: None,
        send,
    }
}

/// A route that ends or replaces the caller's session.
const fn ends_session(path: &'static str, who: Who, send: fn(&Records) -> Send) -> Row {
    Row {
        path,
        who,
        reach: Reach::Session,
        fresh_session: true,
        served_as: None,
        send,
    }
}

use Reach::{Membership, Query as Q, Records as R, Session as S};
use Who::{Admin, Anyone, SignedIn, Team};

const ALL: Who = Team("PEM");
const PROCUREMENT: Who = Team("P");
const ENGINEER: Who = Team("E");
const MANAGER: Who = Team("M");
/// Procurement and engineers: the checklist and the rental.
const DESK: Who = Team("PE");

fn none(_: &Records) -> Send {
    Send::Form(vec![])
}

fn form<const N: usize>(fields: [(&'static str, String); N]) -> Send {
    Send::Form(fields.into())
}

fn order(r: &Records) -> Send {
    form([("order_id", r.order.to_string())])
}

/// The cost comparison of the team's quote for its workload, as the page's address has it.
fn cost_query(r: &Records) -> String {
    format!("workload={}&q={}", r.workload, r.quote)
}

fn query(r: &Records) -> Send {
    form([("query", cost_query(r))])
}

fn get(path: String) -> Send {
    Send::Get(path)
}

fn workload_form(r: Option<&Records>) -> Send {
    let mut fields: Vec<(&'static str, String)> = crate::common::workload_form("W")
        .into_iter()
        .map(|(k, v)| (k, v.to_string()))
        .collect();
    if let Some(r) = r {
        fields.push(("id", r.workload.to_string()));
    }
    Send::Form(fields)
}

/// A run never uploaded before (an upload of a file the team holds answers with that run).
fn run_parts(r: &Records) -> Vec<(&'static str, Option<&'static str>, Vec<u8>)> {
    vec![
        ("result", Some("r.json"), crate::common::vllm_result(1_234.5)),
        ("quote", None, r.quote.to_string().into_bytes()),
        ("workload", None, r.workload.to_string().into_bytes()),
        ("dry_run", None, b"true".to_vec()),
    ]
}

fn bill_lines(r: &Records) -> Send {
    let content = "resource_id,period_start,period_end,currency,amount,quantity,unit_price\n\
                   i-1,2026-12-01,2026-12-02,CNY,96,24,4\n";
    let request = json!({ "order_id": r.order, "file_name": "b.csv", "content": content });
    Send::Json(json!({ "request": request, "save": false }))
}

fn answer(r: &Records) -> Send {
    form([
        ("order_id", r.order.to_string()),
        ("item_id", "gpu.model_vram".into()),
        ("status", "confirmed".into()),
        ("status_note", String::new()),
        ("answer", "checked".into()),
        ("evidence_run", String::new()),
        ("evidence_note", "seen on the quote".into()),
        ("evidence_quote_field", String::new()),
        ("evidence_file", String::new()),
        ("evidence_tco", String::new()),
    ])
}

fn run_request(r: &Records) -> Send {
    let request = json!({ "files": [], "quote_id": r.quote, "revision": null, "workload_id": r.workload,
        "nodes": null, "node_label": "n1", "note": "" });
    Send::Json(json!({ "request": request }))
}

fn quote_save(r: &Records) -> Send {
    let mut fields: Vec<(&'static str, String)> = vec![("quote_id", r.quote.to_string())];
    for (k, v) in crate::common::quote_form("Q-edit", &[]) {
        if k != "quote_id" {
            fields.push((Box::leak(k.into_boxed_str()), v));
        }
    }
    Send::Form(fields)
}

fn rental(r: &Records) -> Send {
    form([
        ("order_id", r.order.to_string()),
        ("started_at", "2026-12-01 10:00".into()),
        ("resources", "i-1".into()),
    ])
}

/// Every route the router answers, in the order of `bounds/fields.rs`.
pub const ROWS: &[Row] = &[
    // The session and the account.
    row("/api/notifications", Anyone, S, none),
    row("/api/session", Anyone, S, none),
    row("/api/switch_team", SignedIn, Membership, |r| {
        form([("team_id", r.team.to_string())])
    }),
    ends_session("/api/logout", Anyone, none),
    // A new password that does not match its confirmation: the handler's own refusal (422),
    // since a changed password would end every session and revoke the user's tokens.
    row("/api/change_password", SignedIn, S, |_| {
        form([
            ("current_password", crate::common::PASSWORD.into()),
            ("new_password", "another horse battery staple".into()),
            ("new_password_confirm", "another horse battery stable".into()),
        ])
    }),
    row("/api/dashboard", SignedIn, S, none),
    ends_session("/api/login", Anyone, |_| {
        form([
            ("email", "temp-0@example.com".into()),
            ("password", crate::common::PASSWORD.into()),
        ])
    }),
    // With no password step pending, the code step is refused alike for everyone.
    Row {
        served_as: Some(http::StatusCode::FORBIDDEN),
        ..ends_session("/api/login/code", Anyone, |_| form([("code", "123456".into())]))
    },
    ends_session("/api/login/restart", Anyone, none),
    row("/api/setup", Anyone, S, |_| {
        form([
            ("setup_code", "000000".into()),
            ("email", "late@example.com".into()),
            ("display_name", "Late".into()),
            ("password", crate::common::PASSWORD.into()),
            ("password_confirm", crate::common::PASSWORD.into()),
        ])
    }),
    row("/api/second_factor/state", SignedIn, S, none),
    row("/api/second_factor/pending", SignedIn, S, none),
    row("/api/second_factor/start", Who::Enrolling, S, |_| {
        form([("password", crate::common::PASSWORD.into())])
    }),
    row("/api/second_factor/confirm", Who::Enrolling, S, |_| {
        form([("code", "000000".into())])
    }),
    row("/api/second_factor/recovery_codes", SignedIn, S, |_| {
        form([("password", crate::common::PASSWORD.into())])
    }),
    row("/api/second_factor/disable", SignedIn, S, |_| {
        form([("password", crate::common::PASSWORD.into())])
    }),
    // The administrator's.
    row("/api/admin/audit", Admin, S, none),
    row("/api/admin/team", Admin, S, |r| form([("team_id", r.team.to_string())])),
    row("/api/admin/set_role", Admin, S, |r| {
        form([
            ("team_id", r.team.to_string()),
            ("user_id", r.member.to_string()),
            ("role", "engineer".into()),
        ])
    }),
    row("/api/admin/remove_member", Admin, S, |r| {
        form([("team_id", r.team.to_string()), ("user_id", r.member.to_string())])
    }),
    row("/api/admin/teams", Admin, S, none),
    row("/api/admin/create_team", Admin, S, |r| {
        form([("name", format!("Team {}", r.team + 10))])
    }),
    row("/api/admin/users", Admin, S, none),
    row("/api/admin/create_user", Admin, S, |r| {
        form([
            ("email", format!("new-{}@example.com", r.team)),
            ("display_name", "New".into()),
            ("password", crate::common::PASSWORD.into()),
            ("password_confirm", crate::common::PASSWORD.into()),
            ("team_id", r.team.to_string()),
            ("role", "engineer".into()),
        ])
    }),
    row("/api/admin/set_user_disabled", Admin, S, |r| {
        form([("user_id", r.disabled.to_string()), ("disabled", "true".into())])
    }),
    row("/api/admin/unlock_second_factor", Admin, S, |r| {
        form([("user_id", r.member.to_string())])
    }),
    row("/api/admin/second_factor", Admin, S, none),
    row("/api/admin/second_factor/set", Admin, S, |_| {
        form([("required", "false".into())])
    }),
    // Orders, their checklist, bills and rentals.
    row("/api/orders", ALL, S, none),
    row("/api/orders/create", PROCUREMENT, R, |r| {
        form([("title", "Another".into()), ("workload_id", r.workload.to_string())])
    }),
    row("/api/orders/get", ALL, R, |r| form([("id", r.order.to_string())])),
    row("/api/orders/select", PROCUREMENT, R, |r| {
        form([
            ("order_id", r.order.to_string()),
            ("quote_id", r.quote.to_string()),
            ("considered[]", r.quote.to_string()),
            ("runs[]", r.run.to_string()),
            ("waiver", String::new()),
        ])
    }),
    row("/api/orders/comparison", PROCUREMENT, R, |r| {
        form([
            ("order_id", r.order.to_string()),
            ("link", format!("/tco?{}", cost_query(r))),
        ])
    }),
    // A procurement item: an engineer is refused it by the item's rule (403), before the order
    // is looked up; an engineer's own items are proven in the checklist tests.
    row("/api/orders/answer", PROCUREMENT, R, answer),
    // A procurement item's suggestion, refused to an engineer by the item's rule as above.
    row("/api/orders/accept", PROCUREMENT, R, |r| {
        form([
            ("order_id", r.order.to_string()),
            ("suggestions[]", r.suggestion.clone()),
        ])
    }),
    row("/api/orders/submit", PROCUREMENT, R, order),
    row("/api/orders/decide", MANAGER, R, |r| {
        form([
            ("order_id", r.order.to_string()),
            ("decision", "approve".into()),
            ("password", crate::common::PASSWORD.into()),
            ("comment", "fine".into()),
        ])
    }),
    row("/api/orders/repin", PROCUREMENT, R, order),
    row("/api/orders/reopen", ALL, R, order),
    row("/api/orders/bills", ALL, R, order),
    row("/api/orders/bills/import", PROCUREMENT, R, bill_lines),
    row("/api/orders/bills/import_shown", PROCUREMENT, R, bill_lines),
    row("/api/orders/bills/threshold", MANAGER, S, |_| {
        form([("threshold", "5".into())])
    }),
    row("/api/rentals/get", ALL, R, order),
    row("/api/rentals/record", DESK, R, rental),
    row("/api/rentals/stop", DESK, R, order),
    row("/api/rentals/release", DESK, R, |r| {
        form([
            ("order_id", r.order.to_string()),
            ("setup_hours", "0".into()),
            ("data_prep_hours", "0".into()),
            ("rerun_hours", "0".into()),
        ])
    }),
    row("/api/rentals/correct", DESK, R, rental),
    row("/api/rentals/overdue", ALL, S, none),
    row("/api/rentals/learned", ALL, Q, |r| {
        form([("workload_id", r.workload.to_string()), ("query", cost_query(r))])
    }),
    // Quotes, vendors, rates.
    row("/api/quotes/compare", ALL, R, |r| {
        Send::Json(json!({ "ids": [r.quote], "workload_id": r.workload }))
    }),
    row("/api/quotes/detail", ALL, R, |r| {
        form([("quote_id", r.quote.to_string())])
    }),
    row("/api/quotes/form", PROCUREMENT, R, |r| {
        form([("quote_id", r.quote.to_string())])
    }),
    row("/api/quotes/save", PROCUREMENT, R, quote_save),
    row("/api/quotes/import", PROCUREMENT, S, |_| {
        let content = "vendor,reference,currency,spec.gpu_model,spec.gpus_per_node,spec.vram_gib,price.on_demand_hourly\n\
                       Acme GPU,IMP-1,CNY,L4,1,24,4.00\n";
        let request =
            json!({ "content": content, "format": "csv", "vendor": "", "currency": "CNY", "valid_until": "" });
        Send::Json(json!({ "request": request, "save": false }))
    }),
    row("/api/quotes/list", ALL, S, |_| Send::Json(json!({ "query": {} }))),
    row("/api/rates", ALL, S, none),
    row("/api/rates/base", ALL, S, none),
    row("/api/rates/set_base", PROCUREMENT, S, |_| {
        form([("currency", "CNY".into())])
    }),
    row("/api/rates/stale_days", ALL, S, none),
    row("/api/rates/set_stale_days", PROCUREMENT, S, |_| {
        form([("days", "30".into())])
    }),
    row("/api/rates/add", PROCUREMENT, S, |_| {
        form([
            ("from", "USD".into()),
            ("to", "CNY".into()),
            ("rate", "7.1".into()),
            ("date", "2026-12-01".into()),
        ])
    }),
    // Requests for quotation.
    row("/api/requests", ALL, S, none),
    row("/api/requests/one", ALL, R, |r| form([("id", r.request.to_string())])),
    row("/api/requests/form", PROCUREMENT, S, none),
    row("/api/requests/questions", PROCUREMENT, R, |r| {
        form([("workload_id", r.workload.to_string())])
    }),
    row("/api/requests/create", PROCUREMENT, R, |r| {
        crate::rfq::request_form(r.workload, r.vendor)
    }),
    row("/api/requests/revoke", PROCUREMENT, R, |r| {
        form([
            ("request_id", r.request.to_string()),
            ("invitation_id", r.invitation.to_string()),
            ("replace", "true".into()),
        ])
    }),
    // Nothing to change: the request is found and the change refused (422), so it stays as is.
    Row {
        served_as: Some(http::StatusCode::UNPROCESSABLE_ENTITY),
        ..row("/api/requests/change", PROCUREMENT, R, |r| {
            form([
                ("form[request_id]", r.request.to_string()),
                ("form[close_local]", String::new()),
            ])
        })
    },
    // Opening the bids needs a reason: without one the request is found and refused (422),
    // so it stays open for the other rows.
    Row {
        served_as: Some(http::StatusCode::UNPROCESSABLE_ENTITY),
        ..row("/api/requests/close", PROCUREMENT, R, |r| {
            form([("request_id", r.request.to_string()), ("reason", " ".into())])
        })
    },
    // A vendor's page: its link is its key, whoever sends it.
    row("/api/bid/page", Anyone, S, |r| form([("link", r.bid_link.clone())])),
    row("/api/bid/save", Anyone, S, |r| {
        form([("link", r.bid_link.clone()), ("fields[spec.gpu_model]", "H100".into())])
    }),
    row("/api/vendors", ALL, S, none),
    row("/api/vendors/create", PROCUREMENT, S, |_| {
        form([("name", "Another vendor".into())])
    }),
    row("/api/vendors/get", ALL, R, |r| form([("id", r.vendor.to_string())])),
    row("/api/vendors/update", PROCUREMENT, R, |r| {
        form([("id", r.vendor.to_string()), ("name", "Acme GPU Ltd".into())])
    }),
    // Runs and tokens.
    row("/api/runs", ALL, S, none),
    row("/api/runs/get", ALL, R, |r| form([("id", r.run.to_string())])),
    row("/api/runs/options", ENGINEER, S, none),
    row("/api/runs/preview", ENGINEER, R, run_request),
    row("/api/runs/preview_shown", ENGINEER, R, run_request),
    row("/api/runs/save", ENGINEER, R, run_request),
    row("/api/tokens", SignedIn, S, none),
    row("/api/tokens/create", ALL, S, |_| {
        form([("name", "more".into()), ("password", crate::common::PASSWORD.into())])
    }),
    row("/api/tokens/example", ALL, S, none),
    row("/api/tokens/revoke", Who::Owner('E'), R, |r| {
        form([("id", r.token.to_string())])
    }),
    // The cost comparison and the plan.
    row("/api/tco", ALL, Q, query),
    row("/api/tco/page", ALL, Q, query),
    row("/api/tco/part", ALL, Q, |r| {
        form([("query", cost_query(r)), ("part", app::pages::tco::OVERRIDES.into())])
    }),
    row("/api/tco/budget", PROCUREMENT, R, |r| {
        form([("workload_id", r.workload.to_string()), ("amount", "1000".into())])
    }),
    row("/api/tco/order", PROCUREMENT, Q, |r| {
        form([("query", cost_query(r)), ("quote_id", r.quote.to_string())])
    }),
    row("/api/plan", ALL, Q, query),
    row("/api/plan/order", PROCUREMENT, Q, |r| {
        form([
            ("query", cost_query(r)),
            ("quote_id", r.quote.to_string()),
            ("nodes", "1".into()),
            ("pricing", "on_demand".into()),
        ])
    }),
    row("/api/team_members", ALL, S, none),
    row("/api/workloads", ALL, S, none),
    row("/api/workloads/create", PROCUREMENT, S, |_| workload_form(None)),
    row("/api/workloads/get", ALL, R, |r| form([("id", r.workload.to_string())])),
    row("/api/workloads/update", PROCUREMENT, R, |r| workload_form(Some(r))),
    // Raw routes.
    row("/healthz", Anyone, S, |_| get("/healthz".into())),
    row("/lang", Anyone, S, |_| {
        form([("lang", "en".into()), ("next", "/".into())])
    }),
    row("/pkg/texts/{file}", Anyone, S, |_| {
        get(app::i18n::texts_for_browser(app::i18n::Locale::En).0.clone())
    }),
    // No site is built for the router tests: every caller gets the same 404 of a missing file.
    Row {
        served_as: Some(http::StatusCode::NOT_FOUND),
        ..row("/pkg/{*file}", Anyone, S, |_| get("/pkg/nodeledger.css".into()))
    },
    row("/bills/template.csv", ALL, S, |_| get("/bills/template.csv".into())),
    row("/quotes/export.csv", ALL, S, |_| get("/quotes/export.csv".into())),
    row("/quotes/{id}/documents", PROCUREMENT, R, |r| {
        Send::Multipart(
            format!("/quotes/{}/documents", r.quote),
            vec![
                ("revision", None, b"1".to_vec()),
                ("file", Some("more.pdf"), b"%PDF-1.7\nmore\n%%EOF\n".to_vec()),
            ],
        )
    }),
    row("/documents/{id}", ALL, R, |r| get(format!("/documents/{}", r.document))),
    // A vendor's attachments: its link is its key, whoever sends it (a second copy of the same
    // file is refused on the page, still a redirect back).
    row("/bid/{link}/files", Anyone, S, |r| {
        Send::Multipart(
            format!("/bid/{}/files", r.bid_link),
            vec![("file", Some("sheet.pdf"), b"%PDF-1.7\nprice sheet\n%%EOF\n".to_vec())],
        )
    }),
    // No such file: the vendor's own 404 (the link opens, the file is not its).
    Row {
        served_as: Some(http::StatusCode::NOT_FOUND),
        ..row("/bid/{link}/files/{id}/delete", Anyone, S, |r| {
            Send::Multipart(format!("/bid/{}/files/0/delete", r.bid_link), vec![])
        })
    },
    row("/runs/upload", ENGINEER, S, |_| {
        let file = crate::common::l4_run().into_bytes();
        Send::Multipart("/runs/upload".into(), vec![("file", Some("r.json"), file)])
    }),
    row("/api/v1/runs", Who::Token, R, |r| Send::Upload(run_parts(r))),
    row("/api/v1/schema/run.json", Anyone, S, |_| {
        get("/api/v1/schema/run.json".into())
    }),
    row("/runs/{id}/files/{file}", ALL, R, |r| {
        get(format!("/runs/{}/files/{}", r.run, r.run_file))
    }),
    row("/runs/{id}/telemetry.svg", ALL, R, |r| {
        get(format!("/runs/{}/telemetry.svg", r.run))
    }),
    row("/runs/compare.svg", ALL, Q, |r| {
        let unit = crate::common::form_urlencoded(&[("unit", &r.unit)]);
        get(format!("/runs/compare.svg?workload={}&{unit}", r.batch_workload))
    }),
    row("/orders/{id}/export.json", ALL, R, |r| {
        get(format!("/orders/{}/export.json", r.submitted))
    }),
    row("/orders/{id}/scenario.json", ALL, R, |r| {
        get(format!("/orders/{}/scenario.json", r.submitted))
    }),
    row("/tco/export.csv", ALL, Q, |r| {
        get(format!("/tco/export.csv?{}", cost_query(r)))
    }),
    row("/tco/export.json", ALL, Q, |r| {
        get(format!("/tco/export.json?{}", cost_query(r)))
    }),
    row("/tco/stack.svg", ALL, Q, |r| {
        get(format!("/tco/stack.svg?{}", cost_query(r)))
    }),
    row("/tco/hours.svg", ALL, Q, |r| {
        get(format!("/tco/hours.svg?{}&chart={}", cost_query(r), r.quote))
    }),
    row("/tco/nodes.svg", ALL, Q, |r| {
        get(format!("/tco/nodes.svg?{}", cost_query(r)))
    }),
    row("/tco/response.svg", ALL, Q, |r| {
        get(format!("/tco/response.svg?{}", cost_query(r)))
    }),
    row("/plan/chart.svg", ALL, Q, |r| {
        get(format!("/plan/chart.svg?{}", cost_query(r)))
    }),
];
