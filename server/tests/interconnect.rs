//! nccl-tests output through the router: uploaded as a run of the quote's node by a script, it
//! is judged on its bus bandwidth against what the quoted link should give, listed on the quote
//! page, and taken by the order's interconnect item as its evidence.
//!
//! The files are the repository's fixtures, made to NVIDIA/nccl-tests `src/util.cu` @a0b82b2
//! (`app/domain/src/runs/fixtures/SOURCES.md` §8): `all_reduce_perf -b 8 -e 8G -f 2 -g 8` on an
//! HGX H100 node with NVSwitch (≈ 480 GB/s at the largest sizes) and on 8× L40S over PCIe Gen4
//! (≈ 21 GB/s).

use crate::common::{TestApp, team_of_pam_and_eve};
use crate::tco::{create_workload_with, json, save_quote};
use http::StatusCode;
use serde_json::Value;

const NVSWITCH: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/nccl_all_reduce_perf.txt");
const PCIE: &[u8] = include_bytes!("../../app/domain/src/runs/fixtures/nccl_all_reduce_perf_pcie.txt");

/// An HGX node: 8× H100 SXM on NVSwitch, 98.00 CNY an hour.
fn hgx() -> Vec<(String, String)> {
    [
        ("vendor", "Acme GPU"),
        ("reference", "HGX-8"),
        ("received_on", "2026-11-20"),
        ("valid_until", "2099-12-31"),
        ("spec.gpu_model", "H100 SXM5 80GB"),
        ("spec.gpus_per_node", "8"),
        ("spec.vram_gib", "80"),
        ("spec.sharing", "exclusive"),
        ("spec.interconnect", "nvswitch"),
        ("currency", "CNY"),
        ("price.basis", "per_node"),
        ("price.on_demand_hourly", "98.00"),
        ("price.billing_increment", "hour"),
        ("price.stopped_bills_compute", "no"),
    ]
    .into_iter()
    .map(|(k, v)| (format!("fields[{k}]"), v.to_string()))
    .collect()
}

async fn upload(app: &TestApp, token: &str, quote: i64, file: &[u8]) -> Value {
    let quote = quote.to_string();
    let parts: &[(&str, Option<&str>, &[u8])] = &[
        ("result", Some("all_reduce_perf.txt"), file),
        ("quote", None, quote.as_bytes()),
    ];
    let res = app.multipart("/api/v1/runs", parts, None, Some(token)).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    json(&res.body)
}

fn message(run: &Value, code: &str) -> String {
    run["reasons"]
        .as_array()
        .and_then(|r| r.iter().find(|x| x["code"] == code))
        .and_then(|x| x["message"].as_str())
        .unwrap_or_else(|| panic!("no {code}: {run}"))
        .to_owned()
}

#[tokio::test]
async fn an_nccl_tests_run_is_judged_on_its_link_and_is_the_interconnect_items_evidence() {
    let (app, pam, eve) = team_of_pam_and_eve().await;
    let token = app.create_token(&eve, "ci").await;
    let quote = save_quote(&app, &pam, hgx()).await;

    // Sent with a benchmark's result, the test is refused with what to do: it is a run of its own.
    let q = quote.to_string();
    let result = crate::common::vllm_result(1200.0);
    let parts: &[(&str, Option<&str>, &[u8])] = &[
        ("result", Some("bench.json"), &result),
        ("file", Some("all_reduce_perf.txt"), NVSWITCH),
        ("quote", None, q.as_bytes()),
    ];
    let both = app.multipart("/api/v1/runs", parts, None, Some(&token)).await;
    assert_eq!(both.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", both.body);
    assert!(
        both.body.contains("An nccl-tests output is a run of its own"),
        "{}",
        both.body
    );
    // The NVSwitch capture: valid, its bus bandwidth as the quoted link should give.
    let good = upload(&app, &token, quote, NVSWITCH).await;
    assert_eq!(good["status"], "valid", "{good}");
    assert_eq!(
        message(&good, "bus_bandwidth"),
        "Bus bandwidth 480.9 GB/s at 8 GiB on 8 GPUs: the quoted NVLink should give at least 270 GB/s (60 % of its 450 GB/s one way), and does."
    );
    assert_eq!(
        good["reasons"].as_array().map(Vec::len),
        Some(1),
        "no benchmark rule: {good}"
    );
    // The PCIe capture on the same quote: a warning that says what to ask.
    let slow = upload(&app, &token, quote, PCIE).await;
    assert_eq!(slow["status"], "warn", "{slow}");
    assert!(
        message(&slow, "bus_bandwidth").contains("21.1 GB/s at 8 GiB on 8 GPUs is below the 270 GB/s"),
        "{slow}"
    );
    // A bus test is never a throughput: the cost page does not cost the quote on it.
    let run = app.get(&format!("/runs/{}", good["id"]), Some(&pam), None).await;
    assert_eq!(run.status, StatusCode::OK);
    assert!(run.body.contains("nccl-tests output"), "the run page names the format");

    // The quote page lists both, newest first, in both languages.
    let page = app.get(&format!("/quotes/{quote}"), Some(&pam), None).await;
    assert_eq!(page.status, StatusCode::OK);
    let tests = page
        .body
        .split("data-testid=\"quote-link-tests\"")
        .nth(1)
        .expect("the card");
    let (first, second) = (
        tests.find(&format!("#{}", slow["id"])).expect("the slow run"),
        tests.find(&format!("#{}", good["id"])).expect("the good run"),
    );
    assert!(first < second, "newest first");
    assert!(tests.contains("480.9 GB/s"));
    let zh = app.get(&format!("/quotes/{quote}"), Some(&pam), Some("zh-CN")).await;
    assert!(zh.body.contains("互联测试") && zh.body.contains("低于报价中 NVLink 应达到的 270 GB/s"));

    // An order for 8-GPU training on this node, the good run attached: the interconnect item
    // is confirmed by the measurement.
    let form = training_on_eight();
    let workload = create_workload_with(&app, &pam, &form).await;
    let order = app.create_order(&pam, "HGX training", workload).await;
    let s = interconnect_suggestion(&app, &pam, (order, quote), &good).await;
    assert!(
        s.contains(&format!(
            "nccl-tests run #{} measured 480.9 GB/s bus bandwidth, at least the 270 GB/s it should give",
            good["id"]
        )),
        "{s}"
    );
    // With the slow run attached instead, the item shows the problem.
    let s = interconnect_suggestion(&app, &pam, (order, quote), &slow).await;
    assert!(
        s.contains("measured only 21.1 GB/s bus bandwidth, below the 270 GB/s"),
        "{s}"
    );
}

/// The order's interconnect item's suggestion once `run` is the one run attached to it.
async fn interconnect_suggestion(app: &TestApp, pam: &str, (order, quote): (i64, i64), run: &Value) -> String {
    let (o, q, r) = (order.to_string(), quote.to_string(), run["id"].to_string());
    let select = [
        ("order_id", o.as_str()),
        ("quote_id", q.as_str()),
        ("waiver", ""),
        ("runs[]", r.as_str()),
    ];
    let res = app.call("/api/orders/select", &select, Some(pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let view = json(&app.call("/api/orders/get", &[("id", &o)], Some(pam)).await.body);
    view["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .flat_map(|s| s["items"].as_array().expect("items").clone())
        .find(|i| i["id"] == "gpu.multi_gpu_interconnect")
        .and_then(|i| i["suggestion"].as_str().map(str::to_owned))
        .unwrap_or_else(|| panic!("{view}"))
}

/// Training on 8 GPUs with a 60 GiB peak ([`crate::common::workload_form`] otherwise): the
/// interconnect item applies to several GPUs.
fn training_on_eight() -> Vec<(&'static str, &'static str)> {
    crate::common::workload_form("HGX training")
        .into_iter()
        .map(|(k, v)| match k {
            "kind" => (k, "training"),
            "gpus_needed" => (k, "8"),
            "vram_peak_gib" => (k, "60"),
            _ => (k, v),
        })
        .collect()
}
