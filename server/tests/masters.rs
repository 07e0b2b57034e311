//! A team's reference data over HTTP: vendors, workloads, exchange rates and the base currency.
//! Who may write, that teams never see each other's records, and that a refused request
//! writes nothing.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use common::{PASSWORD, TestApp};
use http::StatusCode;

/// Team A with a procurement user, an engineer and a manager; team B with a procurement user.
struct Desk {
    app: TestApp,
    pam: String,
    eve: String,
    max: String,
    bob: String,
}

impl Desk {
    async fn new() -> Self {
        let app = TestApp::new().await;
        let admin = app.setup_admin().await;
        let a = app.create_team(&admin, "Team A").await;
        let b = app.create_team(&admin, "Team B").await;
        app.create_member(&admin, "pam@example.com", a, "procurement").await;
        app.create_member(&admin, "eve@example.com", a, "engineer").await;
        app.create_member(&admin, "max@example.com", a, "manager").await;
        app.create_member(&admin, "bob@example.com", b, "procurement").await;
        let pam = app.login("pam@example.com", PASSWORD).await;
        let eve = app.login("eve@example.com", PASSWORD).await;
        let max = app.login("max@example.com", PASSWORD).await;
        let bob = app.login("bob@example.com", PASSWORD).await;
        Desk {
            app,
            pam,
            eve,
            max,
            bob,
        }
    }

    async fn count(&self, table: &str) -> i64 {
        let sql = match table {
            "vendors" => "SELECT COUNT(*) FROM vendors",
            "workloads" => "SELECT COUNT(*) FROM workloads",
            _ => "SELECT COUNT(*) FROM exchange_rates",
        };
        sqlx::query_scalar(sql).fetch_one(&self.app.db).await.unwrap()
    }
}

const VENDOR: &[(&str, &str)] = &[
    ("name", "GPU Cloud"),
    ("website", "https://gpu.example.com"),
    ("contact", "sales@gpu.example.com"),
    ("environment_setup", "yes"),
    ("resource_release", "no"),
    ("support_notes", "Remote help on weekdays"),
];

const WORKLOAD: &[(&str, &str)] = &[
    ("name", "LoRA fine-tune"),
    ("kind", "training"),
    ("model", "Qwen2-7B"),
    ("precision", "bf16"),
    ("vram_peak_gib", "18.5"),
    ("vram_peak_source", "measured"),
    ("concurrency", "1"),
    ("gpus_needed", "2"),
    ("run_hours", "72"),
    ("data_gb", "120"),
    ("checkpoint_gb", "60"),
    ("headroom_pct", "20"),
];

fn with<'a>(base: &[(&'a str, &'a str)], changes: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut form: Vec<_> = base
        .iter()
        .filter(|(k, _)| !changes.iter().any(|(c, _)| c == k))
        .copied()
        .collect();
    form.extend_from_slice(changes);
    form
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn procurement_keeps_the_vendor_list_and_every_member_reads_it() {
    let d = Desk::new().await;
    let app = &d.app;
    assert_eq!(
        app.call("/api/vendors/create", VENDOR, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    for who in [&d.eve, &d.max] {
        let res = app.call("/api/vendors/create", VENDOR, Some(who)).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.body);
    }
    let created = app.call("/api/vendors/create", VENDOR, Some(&d.pam)).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let id = created.body.trim().to_string();

    let dup = app
        .call(
            "/api/vendors/create",
            &with(VENDOR, &[("name", " gpu cloud ")]),
            Some(&d.pam),
        )
        .await;
    assert_eq!(dup.status, StatusCode::CONFLICT, "{}", dup.body);
    assert!(dup.body.contains("vendors.name_taken"), "{}", dup.body);
    let long_notes = "x".repeat(4001);
    let bad = app
        .call(
            "/api/vendors/create",
            &with(
                VENDOR,
                &[("name", " "), ("notes", &long_notes), ("provisioning", "maybe")],
            ),
            Some(&d.pam),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.body);
    for part in [
        r#""field":"name","code":"required""#,
        r#""field":"notes","code":"too_long","limit":"4000""#,
        r#""field":"provisioning","code":"invalid_choice""#,
    ] {
        assert!(bad.body.contains(part), "{part} in {}", bad.body);
    }
    assert_eq!(d.count("vendors").await, 1, "refused requests write nothing");

    let listed = app.call("/api/vendors", &[], Some(&d.max)).await;
    assert_eq!(listed.status, StatusCode::OK);
    assert!(
        listed.body.contains("GPU Cloud") && listed.body.contains(r#""environment_setup":true"#),
        "{}",
        listed.body
    );
    assert_eq!(
        app.call("/api/vendors/get", &[("id", &id)], Some(&d.eve)).await.status,
        StatusCode::OK
    );

    let rename = with(VENDOR, &[("id", &id), ("name", "GPU Cloud Ltd")]);
    assert_eq!(
        app.call("/api/vendors/update", &rename, Some(&d.eve)).await.status,
        StatusCode::FORBIDDEN
    );
    let res = app.call("/api/vendors/update", &rename, Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let empty = app
        .call("/api/vendors/update", &with(&rename, &[("name", "")]), Some(&d.pam))
        .await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        app.call("/api/vendors", &[], Some(&d.eve))
            .await
            .body
            .contains("GPU Cloud Ltd")
    );

    // Team B sees nothing of team A's and cannot change it by id.
    let theirs = app.call("/api/vendors", &[], Some(&d.bob)).await;
    assert_eq!((theirs.status, theirs.body.trim()), (StatusCode::OK, "[]"));
    assert_eq!(
        app.call("/api/vendors/get", &[("id", &id)], Some(&d.bob)).await.status,
        StatusCode::NOT_FOUND
    );
    let hijack = app
        .call(
            "/api/vendors/update",
            &with(VENDOR, &[("id", &id), ("name", "Mine now")]),
            Some(&d.bob),
        )
        .await;
    assert_eq!(hijack.status, StatusCode::NOT_FOUND);
    assert!(
        app.call("/api/vendors", &[], Some(&d.pam))
            .await
            .body
            .contains("GPU Cloud Ltd")
    );

    // The edit page: procurement gets the filled form; others never see team A's vendor.
    let page = app.get(&format!("/vendors/{id}"), Some(&d.pam), None).await;
    assert!(
        page.body.contains(r#"value="GPU Cloud Ltd""#) && page.body.contains(r#"<option value="yes" selected"#),
        "{}",
        page.body
    );
    let page = app.get(&format!("/vendors/{id}"), Some(&d.bob), None).await;
    assert!(
        !page.body.contains("GPU Cloud") && page.body.contains("belongs to another team"),
        "{}",
        page.body
    );
    assert!(
        app.get(&format!("/vendors/{id}"), Some(&d.eve), None)
            .await
            .body
            .contains("permission")
    );
}

#[tokio::test]
async fn the_vendor_page_links_only_to_web_addresses() {
    let d = Desk::new().await;
    let app = &d.app;
    app.call("/api/vendors/create", VENDOR, Some(&d.pam)).await;
    let sneaky = with(VENDOR, &[("name", "Sneaky"), ("website", "javascript:alert(1)")]);
    assert_eq!(
        app.call("/api/vendors/create", &sneaky, Some(&d.pam)).await.status,
        StatusCode::OK
    );
    let page = app.get("/vendors", Some(&d.eve), None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body
            .contains(r#"href="https://gpu.example.com" target="_blank" rel="noopener noreferrer""#),
        "{}",
        page.body
    );
    assert!(
        !page.body.contains(r#"href="javascript:"#),
        "a javascript: address stays text"
    );
    assert!(
        page.body.contains("Helps with: Remote environment deployment."),
        "scope summary"
    );
    assert!(!page.body.contains("vendor-form"), "engineers get no form");
    let zh = app.get("/vendors", Some(&d.pam), Some("zh-CN")).await;
    assert!(
        zh.body.contains("添加供应商") && zh.body.contains("vendor-form"),
        "procurement gets the form, in Chinese"
    );
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn procurement_describes_workloads_engineers_and_managers_read_them() {
    let d = Desk::new().await;
    let app = &d.app;
    assert_eq!(
        app.call("/api/workloads/create", WORKLOAD, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.call("/api/workloads/create", WORKLOAD, Some(&d.max)).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.call("/api/workloads/create", WORKLOAD, Some(&d.eve)).await.status,
        StatusCode::FORBIDDEN,
        "engineers read workloads"
    );
    let created = app.call("/api/workloads/create", WORKLOAD, Some(&d.pam)).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let id = created.body.trim().to_string();
    let by_pam = app
        .call(
            "/api/workloads/create",
            &with(WORKLOAD, &[("name", "Chat service"), ("kind", "inference_service")]),
            Some(&d.pam),
        )
        .await;
    assert_eq!(by_pam.status, StatusCode::OK, "{}", by_pam.body);

    let too_much = app
        .call(
            "/api/workloads/create",
            &with(WORKLOAD, &[("name", "Other"), ("headroom_pct", "30")]),
            Some(&d.pam),
        )
        .await;
    assert_eq!(too_much.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", too_much.body);
    assert!(
        too_much
            .body
            .contains(r#"{"field":"headroom_pct","code":"out_of_range","limit":"[15, 25]"}"#),
        "{}",
        too_much.body
    );
    // A schedule: a deadline in hours from the start is saved as the moment it names (it does
    // not move with each visit), and listed under the size; one that is neither hours nor a
    // date and time says how to write it.
    let scheduled = app
        .call(
            "/api/workloads/create",
            &with(
                WORKLOAD,
                &[
                    ("name", "Due soon"),
                    ("deadline", "2 d"),
                    ("earliest_start", "2026-12-10 09:00 +08:00"),
                ],
            ),
            Some(&d.pam),
        )
        .await;
    assert_eq!(scheduled.status, StatusCode::OK, "{}", scheduled.body);
    let list = app.get("/workloads", Some(&d.pam), None).await;
    assert!(
        list.body.contains("2026-12-12 01:00 UTC"),
        "2 d after the start: {}",
        list.body
    );
    assert!(!list.body.contains("Due within"), "saved as a moment, not as hours");
    assert!(
        list.body.contains("2026-12-10 01:00 UTC"),
        "the earliest start, in UTC before hydration"
    );
    let vague = app
        .call(
            "/api/workloads/create",
            &with(WORKLOAD, &[("name", "Vague"), ("deadline", "soon")]),
            Some(&d.pam),
        )
        .await;
    assert_eq!(vague.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        vague.body.contains(r#"{"field":"deadline","code":"invalid_deadline"}"#),
        "{}",
        vague.body
    );
    let all_wrong = with(
        WORKLOAD,
        &[
            ("name", "Other"),
            ("vram_peak_gib", "lots"),
            ("gpus_needed", "0"),
            ("run_hours", ""),
            ("checkpoint_gb", "-5"),
        ],
    );
    let res = app.call("/api/workloads/create", &all_wrong, Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    for part in [
        "vram_peak_gib\",\"code\":\"invalid_number",
        "gpus_needed\",\"code\":\"not_positive",
        "run_hours\",\"code\":\"no_work_size",
        "checkpoint_gb\",\"code\":\"negative",
    ] {
        assert!(res.body.contains(part), "{part} in {}", res.body);
    }
    let dup = app
        .call(
            "/api/workloads/create",
            &with(WORKLOAD, &[("name", "lora FINE-TUNE")]),
            Some(&d.pam),
        )
        .await;
    assert_eq!(dup.status, StatusCode::CONFLICT);
    assert!(dup.body.contains("workloads.name_taken"));
    assert_eq!(d.count("workloads").await, 3, "refused requests write nothing");

    let edit = with(
        WORKLOAD,
        &[
            ("id", &id),
            ("headroom_pct", "25"),
            ("run_hours", ""),
            ("total_work_amount", "5000000"),
            ("total_work_unit", "tokens"),
        ],
    );
    assert_eq!(
        app.call("/api/workloads/update", &edit, Some(&d.max)).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.call("/api/workloads/update", &edit, Some(&d.eve)).await.status,
        StatusCode::FORBIDDEN
    );
    let res = app.call("/api/workloads/update", &edit, Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let taken = app
        .call(
            "/api/workloads/update",
            &with(&edit, &[("name", "chat service")]),
            Some(&d.pam),
        )
        .await;
    assert_eq!(taken.status, StatusCode::CONFLICT);
    let got = app.call("/api/workloads/get", &[("id", &id)], Some(&d.max)).await;
    assert!(
        got.body.contains(r#""headroom_pct":"25""#) && got.body.contains(r#""unit":"tokens""#),
        "{}",
        got.body
    );

    let theirs = app.call("/api/workloads", &[], Some(&d.bob)).await;
    assert_eq!((theirs.status, theirs.body.trim()), (StatusCode::OK, "[]"));
    assert_eq!(
        app.call("/api/workloads/get", &[("id", &id)], Some(&d.bob))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.call("/api/workloads/update", &edit, Some(&d.bob)).await.status,
        StatusCode::NOT_FOUND
    );

    let page = app.get("/workloads", Some(&d.max), None).await;
    assert!(
        page.body.contains("LoRA fine-tune") && page.body.contains("23.1 GiB (+25 %)"),
        "{}",
        page.body
    );
    assert!(!page.body.contains("workload-form"), "managers get no form");
    let edit_page = app.get(&format!("/workloads/{id}"), Some(&d.pam), None).await;
    assert!(
        edit_page.body.contains(r#"name="headroom_pct" value="25""#),
        "{}",
        edit_page.body
    );
    assert!(
        !app.get("/workloads", Some(&d.eve), None)
            .await
            .body
            .contains("workload-form"),
        "engineers get no form"
    );
    assert!(
        app.get(&format!("/workloads/{id}"), Some(&d.max), None)
            .await
            .body
            .contains("permission")
    );
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn procurement_sets_the_base_currency_and_dated_rates() {
    let d = Desk::new().await;
    let app = &d.app;
    let rate = [("from", "USD"), ("to", "CNY"), ("rate", "7.21"), ("date", "2026-11-20")];
    assert_eq!(
        app.call("/api/rates/add", &rate, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.call("/api/rates/add", &rate, Some(&d.eve)).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.call("/api/rates/set_base", &[("currency", "USD")], Some(&d.max))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let res = app.call("/api/rates/add", &rate, Some(&d.pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let dup = app
        .call("/api/rates/add", &with(&rate, &[("rate", "7.3")]), Some(&d.pam))
        .await;
    assert_eq!(dup.status, StatusCode::CONFLICT);
    assert!(dup.body.contains("rates.exists"));
    let same = app
        .call("/api/rates/add", &with(&rate, &[("from", "CNY")]), Some(&d.pam))
        .await;
    assert_eq!(same.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        same.body.contains(r#"{"field":"to","code":"same_currency"}"#),
        "{}",
        same.body
    );
    let bad = app
        .call(
            "/api/rates/add",
            &[("from", "USD"), ("to", "CNY"), ("rate", "-1"), ("date", "2026-11-20")],
            Some(&d.pam),
        )
        .await;
    assert!(
        bad.status == StatusCode::UNPROCESSABLE_ENTITY && bad.body.contains("not_positive"),
        "{}",
        bad.body
    );
    let bad = app
        .call(
            "/api/rates/add",
            &[("from", "USD"), ("to", "CNY"), ("rate", "7"), ("date", "20/11/2026")],
            Some(&d.pam),
        )
        .await;
    assert!(
        bad.status == StatusCode::UNPROCESSABLE_ENTITY && bad.body.contains("invalid_date"),
        "{}",
        bad.body
    );
    let unknown = app
        .call("/api/rates/set_base", &[("currency", "XYZ")], Some(&d.pam))
        .await;
    assert!(
        unknown.status == StatusCode::UNPROCESSABLE_ENTITY && unknown.body.contains("unknown_currency"),
        "{}",
        unknown.body
    );
    assert_eq!(d.count("exchange_rates").await, 1, "refused requests write nothing");

    assert_eq!(
        app.call("/api/rates/set_base", &[("currency", "USD")], Some(&d.pam))
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        app.call("/api/rates/base", &[], Some(&d.eve)).await.body.trim(),
        r#""USD""#
    );
    let ours = app.call("/api/rates", &[], Some(&d.eve)).await;
    assert!(
        ours.body
            .contains(r#""from":"USD","to":"CNY","rate":"7.21","date":"2026-11-20""#),
        "{}",
        ours.body
    );
    assert_eq!(
        app.call("/api/rates", &[], Some(&d.bob)).await.body.trim(),
        "[]",
        "team B sees none of team A's rates"
    );
    assert_eq!(
        app.call("/api/rates/base", &[], Some(&d.bob)).await.body.trim(),
        r#""CNY""#,
        "and keeps its own base currency"
    );

    let page = app.get("/rates", Some(&d.max), None).await;
    assert!(page.body.contains("1 USD = 7.21 CNY on 2026-11-20"), "{}", page.body);
}
