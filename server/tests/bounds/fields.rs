//! Every numeric field the bounds test fills, found as `bounds.rs` describes, and [`ROUTES`]:
//! every server function and raw route the router answers, with those fields.

use super::World;
use crate::common::PASSWORD;

/// A form server function: its path, who calls it, its other fields, its numeric fields.
pub type Endpoint = (&'static str, String, Vec<(&'static str, String)>, Vec<&'static str>);

/// Form server functions: path, who calls it, the other fields, the numeric fields.
#[expect(
    clippy::too_many_lines,
    reason = "one table: every form server function with a numeric field"
)]
pub fn form_endpoints(w: &World) -> Vec<Endpoint> {
    let (admin, pam, eve, max) = (w.admin.clone(), w.pam.clone(), w.eve.clone(), w.max.clone());
    let team = w.team.to_string();
    let workload_form: Vec<(&'static str, String)> = crate::common::workload_form("W")
        .into_iter()
        .map(|(k, v)| (k, v.to_string()))
        .collect();
    let workload_numbers = vec![
        "vram_peak_gib",
        "concurrency",
        "gpus_needed",
        "run_hours",
        "total_work_amount",
        "data_gb",
        "checkpoint_gb",
        "headroom_pct",
        "deadline",
        "earliest_start",
    ];
    let mut workload_update = workload_form.clone();
    workload_update.push(("id", w.workload.to_string()));
    let mut update_numbers = workload_numbers.clone();
    update_numbers.push("id");
    let vendor = vec![("name", "Acme GPU".to_string())];
    let answer = vec![
        ("order_id", w.order.to_string()),
        ("item_id", "vram".to_string()),
        ("status", "met".to_string()),
        ("status_note", String::new()),
        ("answer", "yes".to_string()),
        ("evidence_run", String::new()),
        ("evidence_note", String::new()),
        ("evidence_quote_field", String::new()),
        ("evidence_file", String::new()),
        ("evidence_tco", String::new()),
    ];
    let order = w.order.to_string();
    vec![
        ("/api/switch_team", eve.clone(), vec![], vec!["team_id"]),
        ("/api/admin/team", admin.clone(), vec![], vec!["team_id"]),
        (
            "/api/admin/set_role",
            admin.clone(),
            vec![
                ("role", "engineer".into()),
                ("team_id", team.clone()),
                ("user_id", "2".into()),
            ],
            vec!["team_id", "user_id"],
        ),
        (
            "/api/admin/remove_member",
            admin.clone(),
            vec![("team_id", "999".into()), ("user_id", "999".into())],
            vec!["team_id", "user_id"],
        ),
        (
            "/api/admin/set_user_disabled",
            admin.clone(),
            vec![("disabled", "false".into())],
            vec!["user_id"],
        ),
        (
            "/api/admin/unlock_second_factor",
            admin.clone(),
            vec![],
            vec!["user_id"],
        ),
        (
            "/api/admin/create_user",
            admin.clone(),
            vec![
                ("email", "new@example.com".into()),
                ("display_name", "New".into()),
                ("password", PASSWORD.into()),
                ("password_confirm", PASSWORD.into()),
                ("role", "engineer".into()),
            ],
            vec!["team_id"],
        ),
        ("/api/vendors/get", pam.clone(), vec![], vec!["id"]),
        ("/api/requests/one", pam.clone(), vec![], vec!["id"]),
        ("/api/requests/questions", pam.clone(), vec![], vec!["workload_id"]),
        (
            "/api/requests/revoke",
            pam.clone(),
            vec![("replace", "true".into())],
            vec!["request_id", "invitation_id"],
        ),
        ("/api/vendors/update", pam.clone(), vendor, vec!["id"]),
        (
            "/api/orders/get",
            pam.clone(),
            vec![("id", order.clone())],
            vec!["id", "revision"],
        ),
        (
            "/api/orders/select",
            pam.clone(),
            vec![
                ("order_id", order.clone()),
                ("quote_id", String::new()),
                ("waiver", String::new()),
            ],
            vec!["order_id", "quote_id", "considered", "runs"],
        ),
        (
            "/api/orders/comparison",
            pam.clone(),
            vec![("link", String::new())],
            vec!["order_id"],
        ),
        (
            "/api/orders/answer",
            pam.clone(),
            answer,
            vec!["order_id", "evidence_run", "evidence_file"],
        ),
        (
            "/api/orders/accept",
            pam.clone(),
            vec![("suggestions[]", format!("gpu.model_vram={}", "0".repeat(64)))],
            vec!["order_id"],
        ),
        (
            "/api/orders/submit",
            pam.clone(),
            vec![("acknowledge_problems", String::new())],
            vec!["order_id"],
        ),
        (
            "/api/orders/decide",
            max,
            vec![
                ("decision", "approve".into()),
                ("password", PASSWORD.into()),
                ("comment", String::new()),
            ],
            vec!["order_id"],
        ),
        ("/api/orders/reopen", pam.clone(), vec![], vec!["order_id"]),
        ("/api/orders/repin", pam.clone(), vec![], vec!["order_id"]),
        (
            "/api/orders/create",
            pam.clone(),
            vec![("title", "T".into())],
            vec!["workload_id"],
        ),
        ("/api/quotes/form", pam.clone(), vec![], vec!["quote_id"]),
        (
            "/api/quotes/detail",
            pam.clone(),
            vec![("quote_id", w.quote.to_string())],
            vec!["quote_id", "revision"],
        ),
        ("/api/workloads/get", pam.clone(), vec![], vec!["id"]),
        ("/api/workloads/create", pam.clone(), workload_form, workload_numbers),
        ("/api/workloads/update", pam.clone(), workload_update, update_numbers),
        (
            "/api/rates/add",
            pam.clone(),
            vec![
                ("from", "USD".into()),
                ("to", "CNY".into()),
                ("date", "2026-11-01".into()),
            ],
            vec!["rate"],
        ),
        ("/api/rates/set_stale_days", pam.clone(), vec![], vec!["days"]),
        ("/api/runs", eve.clone(), vec![], vec!["quote", "workload"]),
        ("/api/tokens/revoke", eve.clone(), vec![], vec!["id"]),
        ("/api/runs/get", eve.clone(), vec![], vec!["id"]),
        (
            "/api/tco/budget",
            pam.clone(),
            vec![("workload_id", w.workload.to_string()), ("amount", "1000".into())],
            vec!["workload_id", "amount"],
        ),
        (
            "/api/tco/order",
            pam.clone(),
            vec![("query", format!("workload={}", w.workload))],
            vec!["quote_id"],
        ),
        (
            "/api/plan/order",
            pam.clone(),
            vec![
                ("query", format!("workload={}", w.workload)),
                ("pricing", "on_demand".into()),
            ],
            vec!["quote_id", "nodes"],
        ),
        ("/api/admin/audit", admin, vec![], vec!["before"]),
        ("/api/orders/bills", pam.clone(), vec![], vec!["order_id"]),
        ("/api/orders/bills/threshold", w.max.clone(), vec![], vec!["threshold"]),
        (
            "/api/tokens/create",
            eve.clone(),
            vec![("name", "T".into()), ("password", PASSWORD.into())],
            vec!["expires_in_days"],
        ),
        (
            "/api/rentals/learned",
            pam.clone(),
            vec![("query", String::new())],
            vec!["workload_id"],
        ),
        // Codes are digits read as text; each asked of someone without a pending second step
        // or factor, so nothing is counted against a real one.
        ("/api/login/code", String::new(), vec![], vec!["code"]),
        ("/api/second_factor/confirm", String::new(), vec![], vec!["code"]),
        ("/api/second_factor/recovery_codes", pam.clone(), vec![], vec!["code"]),
        (
            "/api/second_factor/disable",
            pam.clone(),
            vec![("password", PASSWORD.into())],
            vec!["code"],
        ),
    ]
    .into_iter()
    .chain(rental_endpoints(&pam, &order))
    .collect()
}

/// The rental server functions (the order has none: every call is refused, after its numbers
/// are read).
fn rental_endpoints(pam: &str, order: &str) -> Vec<Endpoint> {
    let started = || ("started_at", "2026-12-01T00:00:00Z".to_string());
    let order = || ("order_id", order.to_string());
    vec![
        ("/api/rentals/get", pam.into(), vec![], vec!["order_id"]),
        (
            "/api/rentals/record",
            pam.into(),
            vec![started(), ("resources", "i-1".into())],
            vec!["order_id"],
        ),
        ("/api/rentals/stop", pam.into(), vec![], vec!["order_id"]),
        (
            "/api/rentals/release",
            pam.into(),
            vec![
                order(),
                ("setup_hours", "1".into()),
                ("data_prep_hours", "1".into()),
                ("rerun_hours", "1".into()),
            ],
            vec!["order_id", "setup_hours", "data_prep_hours", "rerun_hours"],
        ),
        (
            "/api/rentals/correct",
            pam.into(),
            vec![started(), ("resources", "i-1".into())],
            vec!["order_id"],
        ),
    ]
}

/// The quote form's numeric fields (`Input::Number` in `pages/quotes/form.rs` `SECTIONS`).
pub const QUOTE_NUMBERS: [&str; 18] = [
    "spec.gpus_per_node",
    "spec.vram_gib",
    "spec.usable_vram_gib",
    "spec.vcpus",
    "spec.ram_gib",
    "spec.system_disk_gb",
    "spec.data_disk_gb",
    "spec.public_bandwidth_mbps",
    "spec.internal_bandwidth_gbps",
    "spec.network_gbps",
    "price.on_demand_hourly",
    "price.minimum_billable_hours",
    "price.monthly_price",
    "price.commitment_months",
    "price.disk_price_gb_month",
    "price.snapshot_price_gb_month",
    "price.egress_price_gb",
    "price.free_egress_gb",
];

/// The cost page's query strings with `v` in one numeric place each (shared by the page, its
/// server function, its exports and its charts).
pub fn cost_queries(w: &World, v: &str) -> Vec<String> {
    let base = format!("workload={}&q={}", w.workload, w.quote);
    let mut out = vec![
        format!("workload={v}&q={}", w.quote),
        format!("workload={}&q={v}", w.workload),
        format!("workload={}&q={}&rev_{}={v}", w.workload, w.quote, w.quote),
    ];
    for field in app::views::tco::ASSUMPTION_FIELDS {
        out.push(format!("{base}&{field}={v}"));
        out.push(format!("{base}&{field}_{}={v}", w.quote));
    }
    out.push(format!("{base}&tp_{}={v}", w.quote));
    out.push(format!("{base}&tp_{}=100&tpn_{}={v}", w.quote, w.quote));
    out
}

/// The columns of NodeLedger's quote CSV a row needs, with a value each (`QUOTE_NUMBERS` are
/// then set one at a time).
pub const QUOTE_CSV_ROW: [(&str, &str); 13] = [
    ("vendor", "Bounds Cloud"),
    ("reference", "B-1"),
    ("received_on", "2026-11-01"),
    ("valid_until", "2099-12-31"),
    ("currency", "CNY"),
    ("spec.gpu_model", "L4"),
    ("spec.gpus_per_node", "1"),
    ("spec.vram_gib", "24"),
    ("spec.sharing", "exclusive"),
    ("price.basis", "per_node"),
    ("price.on_demand_hourly", "4.00"),
    ("price.billing_increment", "hour"),
    ("price.stopped_bills_compute", "no"),
];

/// The numeric cells of a simple bill line (`app/domain/src/bills/simple.rs`).
pub const BILL_NUMBERS: [&str; 3] = ["amount", "quantity", "unit_price"];

/// Every server function and raw route the router answers (`server_fn_paths()` and
/// `server::router::raw_paths`), with the numeric fields the bounds test fills in it; an empty
/// list says nothing in it is read as a number (checked by reading its arguments, as the module
/// documentation of `bounds.rs` describes). A path the router answers and this table lacks fails
/// `every_route_is_in_the_field_table`; a path listed with fields that no probe sent fails
/// `the_largest_numbers_in_every_field_get_a_4xx_at_worst`.
pub const ROUTES: &[(&str, &[&str])] = &[
    // Server functions.
    ("/api/notifications", &[]),
    ("/api/session", &[]),
    ("/api/switch_team", &["team_id"]),
    ("/api/logout", &[]),
    ("/api/change_password", &[]),
    ("/api/admin/audit", &["before"]),
    ("/api/admin/team", &["team_id"]),
    ("/api/admin/set_role", &["team_id", "user_id"]),
    ("/api/admin/remove_member", &["team_id", "user_id"]),
    ("/api/admin/teams", &[]),
    ("/api/admin/create_team", &[]),
    ("/api/admin/users", &[]),
    ("/api/admin/create_user", &["team_id"]),
    ("/api/admin/set_user_disabled", &["user_id"]),
    ("/api/admin/unlock_second_factor", &["user_id"]),
    ("/api/admin/second_factor", &[]),
    ("/api/admin/second_factor/set", &[]),
    ("/api/dashboard", &[]),
    ("/api/login", &[]),
    ("/api/login/code", &["code"]),
    ("/api/login/restart", &[]),
    ("/api/setup", &[]),
    ("/api/second_factor/state", &[]),
    ("/api/second_factor/pending", &[]),
    ("/api/second_factor/start", &[]),
    ("/api/second_factor/confirm", &["code"]),
    ("/api/second_factor/recovery_codes", &["code"]),
    ("/api/second_factor/disable", &["code"]),
    ("/api/orders", &[]),
    ("/api/orders/create", &["workload_id"]),
    ("/api/orders/get", &["id", "revision"]),
    ("/api/orders/select", &["order_id", "quote_id", "considered", "runs"]),
    ("/api/orders/comparison", &["order_id"]),
    ("/api/orders/answer", &["order_id", "evidence_run", "evidence_file"]),
    ("/api/orders/accept", &["order_id"]),
    ("/api/orders/submit", &["order_id"]),
    ("/api/orders/decide", &["order_id", "code"]),
    ("/api/orders/repin", &["order_id"]),
    ("/api/orders/reopen", &["order_id"]),
    ("/api/orders/bills", &["order_id"]),
    (
        "/api/orders/bills/import",
        &["order_id", "amount", "quantity", "unit_price"],
    ),
    (
        "/api/orders/bills/import_shown",
        &["order_id", "amount", "quantity", "unit_price"],
    ),
    ("/api/orders/bills/threshold", &["threshold"]),
    ("/api/rentals/get", &["order_id"]),
    ("/api/rentals/record", &["order_id"]),
    ("/api/rentals/stop", &["order_id"]),
    (
        "/api/rentals/release",
        &["order_id", "setup_hours", "data_prep_hours", "rerun_hours"],
    ),
    ("/api/rentals/correct", &["order_id"]),
    ("/api/rentals/overdue", &[]),
    ("/api/rentals/learned", &["workload_id", "query"]),
    ("/api/quotes/compare", &["ids", "workload_id"]),
    ("/api/quotes/detail", &["quote_id", "revision"]),
    ("/api/quotes/form", &["quote_id"]),
    ("/api/quotes/save", &["quote_id", "spec.*", "price.*"]),
    ("/api/quotes/import", &["spec.*", "price.*"]),
    ("/api/quotes/list", &["vram", "gpus", "max_price", "page"]),
    ("/api/rates", &[]),
    ("/api/rates/base", &[]),
    ("/api/rates/set_base", &[]),
    ("/api/rates/stale_days", &[]),
    ("/api/rates/set_stale_days", &["days"]),
    ("/api/rates/add", &["rate"]),
    ("/api/runs", &["quote", "workload"]),
    ("/api/runs/get", &["id"]),
    ("/api/runs/options", &[]),
    (
        "/api/runs/preview",
        &["files", "quote_id", "revision", "workload_id", "nodes"],
    ),
    (
        "/api/runs/preview_shown",
        &["files", "quote_id", "revision", "workload_id", "nodes"],
    ),
    (
        "/api/runs/save",
        &["files", "quote_id", "revision", "workload_id", "nodes"],
    ),
    ("/api/tokens", &[]),
    ("/api/tokens/create", &["expires_in_days"]),
    ("/api/tokens/example", &[]),
    ("/api/tokens/revoke", &["id"]),
    ("/api/tco", &["query"]),
    ("/api/tco/page", &["query"]),
    ("/api/tco/part", &["query"]),
    ("/api/tco/budget", &["workload_id", "amount"]),
    ("/api/tco/order", &["query", "quote_id"]),
    ("/api/plan", &["query"]),
    ("/api/plan/order", &["query", "quote_id", "nodes", "pricing"]),
    ("/api/team_members", &[]),
    ("/api/requests", &[]),
    ("/api/requests/one", &["id"]),
    ("/api/requests/form", &[]),
    ("/api/requests/questions", &["workload_id"]),
    ("/api/requests/create", &["form[workload_id]"]),
    ("/api/requests/revoke", &["request_id", "invitation_id"]),
    ("/api/requests/close", &["request_id"]),
    ("/api/requests/change", &["form[request_id]"]),
    ("/api/bid/page", &[]),
    ("/api/bid/save", &["fields[spec.*]", "fields[price.*]"]),
    ("/api/vendors", &[]),
    ("/api/vendors/create", &[]),
    ("/api/vendors/get", &["id"]),
    ("/api/vendors/update", &["id"]),
    ("/api/workloads", &[]),
    (
        "/api/workloads/create",
        &["vram_peak_gib", "concurrency", "gpus_needed", "run_hours"],
    ),
    ("/api/workloads/get", &["id"]),
    ("/api/workloads/update", &["id", "vram_peak_gib"]),
    // Raw routes.
    ("/healthz", &[]),
    ("/lang", &[]),
    ("/pkg/texts/{file}", &[]),
    ("/pkg/{*file}", &[]),
    ("/bills/template.csv", &[]),
    ("/quotes/export.csv", &["vram", "gpus", "max_price", "page"]),
    ("/quotes/{id}/documents", &["id", "revision"]),
    ("/documents/{id}", &["id"]),
    ("/bid/{link}/files", &[]),
    ("/bid/{link}/files/{id}/delete", &["id"]),
    ("/runs/upload", &[]),
    ("/api/v1/runs", &["quote", "revision", "workload", "nodes"]),
    ("/api/v1/schema/run.json", &[]),
    ("/runs/{id}/files/{file}", &["id", "file"]),
    ("/runs/{id}/telemetry.svg", &["id"]),
    ("/runs/compare.svg", &["workload"]),
    ("/orders/{id}/export.json", &["id"]),
    ("/orders/{id}/scenario.json", &["id", "revision"]),
    ("/tco/export.csv", &["query"]),
    ("/tco/export.json", &["query"]),
    ("/tco/stack.svg", &["query"]),
    ("/tco/hours.svg", &["chart"]),
    ("/tco/nodes.svg", &["query"]),
    ("/tco/response.svg", &["query"]),
    ("/plan/chart.svg", &["query"]),
];

/// Whether the route `template` (`/runs/{id}/files/{file}`) answers `path` (`/runs/7/files/1`).
pub fn route_matches(template: &str, path: &str) -> bool {
    let (mut t, mut p) = (template.split('/'), path.split('/'));
    loop {
        match (t.next(), p.next()) {
            (None, None) => return true,
            (Some(seg), Some(_)) if seg.starts_with("{*") => return true,
            (Some(seg), Some(got)) if seg == got || (seg.starts_with('{') && !got.is_empty()) => {}
            _ => return false,
        }
    }
}
