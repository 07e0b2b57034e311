//! Every numeric field the bounds test fills, found as `bounds.rs` describes.

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
        ("/api/runs", eve.clone(), vec![], vec!["quote", "workload"]),
        ("/api/tokens/revoke", eve.clone(), vec![], vec!["id"]),
        ("/api/runs/get", eve, vec![], vec!["id"]),
        (
            "/api/tco/budget",
            pam,
            vec![("workload_id", w.workload.to_string()), ("amount", "1000".into())],
            vec!["workload_id", "amount"],
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
