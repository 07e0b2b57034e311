//! Runs as engineers really upload them, through `/api/v1/runs` and the cost page: a default
//! `vllm bench serve` run (its server reserved ≈ 91 % of the card) with nvidia-smi telemetry of
//! the whole 8-GPU node, one card busy; and the same measured with `nvidia-smi -i 0`. Both are
//! valid, and the quote is costed as measured from them at the card's throughput × 8.
//!
//! What the files follow (the unit tests in `app/domain/src/runs/tests/real_uploads.rs` say
//! where each fact comes from): nvidia-smi's CSV with units and one row per GPU per sample;
//! `NVIDIA H100 80GB HBM3` with 81559 MiB; vLLM's `date`, `backend` `"openai"` and `duration`.

use crate::common;

use common::team_of_pam_and_eve;
use http::StatusCode;
use serde_json::{Value, json};

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn a_reserving_vllm_run_on_one_card_of_an_8_gpu_quote_is_valid_and_costs_the_node_as_measured() {
    let (app, pam, eve) = team_of_pam_and_eve().await;
    let form = [
        ("name", "Qwen chat, a task per card"),
        ("kind", "inference_service"),
        ("model", "Qwen/Qwen2.5-7B-Instruct"),
        ("precision", "bf16"),
        ("vram_peak_gib", "20"),
        ("vram_peak_source", "measured"),
        ("concurrency", "32"),
        ("gpus_needed", "1"),
        ("gpu_use", "task_per_gpu"),
        ("run_hours", ""),
        ("total_work_amount", "244800000"),
        ("total_work_unit", "tokens"),
        ("data_gb", "0"),
        ("checkpoint_gb", "0"),
        ("headroom_pct", "20"),
    ];
    let res = app.call("/api/workloads/create", &form, Some(&pam)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let workload: i64 = res.body.trim().parse().unwrap();
    let quote = app
        .create_quote_with(
            &pam,
            "H100-8X",
            &[
                ("spec.gpu_model", "H100 80GB"),
                ("spec.gpus_per_node", "8"),
                ("spec.vram_gib", "80"),
                ("price.on_demand_hourly", "160.00"),
            ],
        )
        .await;
    let token = app.create_token(&eve, "ci").await;
    let (q, w) = (quote.to_string(), workload.to_string());
    let upload = |result: Vec<u8>, smi: Vec<u8>| {
        let (app, token, q, w) = (&app, token.clone(), q.clone(), w.clone());
        async move {
            let parts: [(&str, Option<&str>, &[u8]); 4] = [
                (
                    "result",
                    Some("openai-infqps-concurrency32-Qwen2.5-7B-Instruct-20261201-102005.json"),
                    &result,
                ),
                ("telemetry", Some("smi.csv"), &smi),
                ("quote", None, q.as_bytes()),
                ("workload", None, w.as_bytes()),
            ];
            let res = app.multipart("/api/v1/runs", &parts, None, Some(&token)).await;
            assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
            json(&res.body)
        }
    };

    // The whole node sampled: GPU 0 served, GPUs 1–7 idle.
    let whole = upload(common::vllm_result(1205.0), common::h100_node_telemetry(8)).await;
    assert_eq!(whole["status"], "valid", "{whole}");
    let codes: Vec<(&str, &str)> = whole["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["code"].as_str().unwrap(), r["severity"].as_str().unwrap()))
        .collect();
    for expected in [
        ("gpus_used", "info"),
        ("vram_reserved", "info"),
        ("part_of_node", "info"),
    ] {
        assert!(codes.contains(&expected), "{expected:?} in {whole}");
    }
    assert!(
        !codes
            .iter()
            .any(|(c, _)| *c == "vram_headroom_low" || *c == "low_utilization")
    );
    let message = |code: &str| {
        whole["reasons"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["code"] == code)
            .map(|r| r["message"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert!(
        message("vram_reserved").contains("judged on the workload's stated peak of 20,480 MiB"),
        "{}",
        message("vram_reserved")
    );
    assert!(
        message("gpus_used").contains("1, 2, 3, 4, 5, 6, 7"),
        "{}",
        message("gpus_used")
    );

    // `nvidia-smi -i 0`: only the card that ran (another duration, so another file).
    let one = upload(common::vllm_result(1200.0), common::h100_node_telemetry(1)).await;
    assert_eq!(one["status"], "valid", "{one}");

    // The cost page: measured from both runs, each card's 850 tokens/s × 8 per node.
    let c = json(
        &app.call(
            "/api/tco",
            &[(
                "query",
                &format!("workload={workload}&setup_h=0&rerun_pct=0&efficiency_pct=100&egress_gb=0&ingress_gb=0"),
            )],
            Some(&pam),
        )
        .await
        .body,
    );
    let row = &c["rows"][0];
    assert_eq!(row["quote_id"], quote, "{c}");
    assert_eq!(row["estimated"], false, "measured, not estimated: {row}");
    let mut used: Vec<i64> = row["run_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    used.sort_unstable();
    let mut expected = vec![whole["id"].as_i64().unwrap(), one["id"].as_i64().unwrap()];
    expected.sort_unstable();
    assert_eq!(used, expected, "{row}");
    assert!(row["throughput"].as_str().unwrap().contains("6,800"), "850 × 8: {row}");
    // 244,800,000 tokens at 6,800 tokens/s is 10 h on one node.
    assert!(row["time_to_finish"].as_str().unwrap().starts_with("10"), "{row}");
    let notes = row["warnings"].to_string();
    assert!(notes.contains("used 1 of the node's 8 GPUs"), "{notes}");
}

/// A checklist answer rests only on a valid run of the order's quote (or of a quote with the
/// same node): a run of another node, a run that is not valid, or a run before any quote is
/// chosen is refused at `evidence_run` with the reason.
#[tokio::test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
async fn checklist_evidence_is_a_valid_run_of_the_chosen_node() {
    let (app, pam, eve) = team_of_pam_and_eve().await;
    let workload = app.create_workload(&pam, "Batch job").await;
    let chosen = app.create_quote(&pam, "L4-1").await;
    let same_node = app.create_quote(&pam, "L4-2").await;
    let other_node = app
        .create_quote_with(
            &pam,
            "A10-1",
            &[("spec.gpu_model", "A10 24GB"), ("spec.vram_gib", "24")],
        )
        .await;
    let token = app.create_token(&eve, "ci").await;
    let valid = app.upload_valid_l4_run(&token, chosen, workload).await;
    // The same node under another quote (another file: a run of 901 s).
    let twin = {
        let body = common::l4_run().replace("\"duration_s\":900.0", "\"duration_s\":901.0");
        let (q, w) = (same_node.to_string(), workload.to_string());
        let parts: [(&str, Option<&str>, &[u8]); 3] = [
            ("result", Some("twin.json"), body.as_bytes()),
            ("quote", None, q.as_bytes()),
            ("workload", None, w.as_bytes()),
        ];
        let res = json(&app.multipart("/api/v1/runs", &parts, None, Some(&token)).await.body);
        assert_eq!(res["status"], "valid", "{res}");
        res["id"].as_i64().unwrap()
    };
    // A 5-second microbenchmark is invalid.
    let short = json!([{ "gpu_info": "NVIDIA L4", "model_filename": "m.gguf", "n_prompt": 0, "n_gen": 128, "avg_ns": 1_000_000_000u64, "avg_ts": 128.0, "samples_ns": [1e9, 1e9, 1e9, 1e9, 1e9] }]).to_string();
    let (q, w) = (chosen.to_string(), workload.to_string());
    let parts: [(&str, Option<&str>, &[u8]); 3] = [
        ("result", Some("llama.json"), short.as_bytes()),
        ("quote", None, q.as_bytes()),
        ("workload", None, w.as_bytes()),
    ];
    let res = app.multipart("/api/v1/runs", &parts, None, Some(&token)).await;
    let invalid = json(&res.body)["id"].as_i64().unwrap();
    let other = {
        let q = other_node.to_string();
        let body = json!({ "schema": "nodeledger.run/v1", "source_format": "canonical", "node": { "gpu_name": "NVIDIA A10", "gpu_count": 1 }, "duration_s": 900.0 }).to_string();
        let parts: [(&str, Option<&str>, &[u8]); 2] = [
            ("result", Some("a10.json"), body.as_bytes()),
            ("quote", None, q.as_bytes()),
        ];
        json(&app.multipart("/api/v1/runs", &parts, None, Some(&token)).await.body)["id"]
            .as_i64()
            .unwrap()
    };
    let order = app.create_order(&pam, "L4 for batch", workload).await;
    let o = order.to_string();
    let answer = |run: i64| {
        let (app, eve, o) = (&app, eve.clone(), o.clone());
        async move {
            let r = run.to_string();
            let form = [
                ("order_id", o.as_str()),
                ("item_id", "perf.benchmark"),
                ("status", "confirmed"),
                ("status_note", ""),
                ("answer", "measured"),
                ("evidence_run", r.as_str()),
                ("evidence_note", ""),
            ];
            app.call("/api/orders/answer", &form, Some(&eve)).await
        }
    };
    let before = answer(valid).await;
    assert_eq!(before.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", before.body);
    assert!(before.body.contains("run_before_quote"), "{}", before.body);
    let select = [
        ("order_id", o.as_str()),
        ("quote_id", q.as_str()),
        ("waiver", ""),
        ("considered[]", q.as_str()),
    ];
    assert_eq!(
        app.call("/api/orders/select", &select, Some(&pam)).await.status,
        StatusCode::OK
    );
    for (run, expected) in [
        (valid, None),
        (twin, None),
        (invalid, Some("run_invalid")),
        (other, Some("run_other_node")),
    ] {
        let res = answer(run).await;
        match expected {
            None => assert_eq!(res.status, StatusCode::OK, "run {run}: {}", res.body),
            Some(code) => {
                assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "run {run}: {}", res.body);
                assert!(
                    res.body.contains(code) && res.body.contains("evidence_run"),
                    "{}",
                    res.body
                );
            }
        }
    }
}

/// `dcgmi dmon -e 203,252,250,150,155,112 -d 5000` (NVIDIA/DCGM `DeviceMonitor.cpp`: fixed-width,
/// `#Entity` then an `ID` units line, `GPU n` rows, `N/A` for a blank; field 112 `DVCCTR` is the
/// clock-event bitmask, 0 when nothing slows the card) from 09:59:00 to 10:21:00 on one H100,
/// each line stamped by the README's loop when `stamped`.
fn dmon(stamped: bool) -> Vec<u8> {
    use std::fmt::Write as _;
    let stamp = |t: u32| {
        if stamped {
            format!("2026-12-01T{:02}:{:02}:{:02}.004Z ", t / 3600, t / 60 % 60, t % 60)
        } else {
            String::new()
        }
    };
    let start = 9 * 3600 + 59 * 60;
    let mut out = format!(
        "{}#Entity         GPUTL             FBUSD             FBTTL             TMPTR        POWER             DVCCTR                      \n{}ID                                                                      C            W                                             \n",
        stamp(start),
        stamp(start)
    );
    for i in 0..265u32 {
        let util = [62, 97, 35, 88, 71, 94, 48][(i % 7) as usize];
        let power = if i == 0 {
            "N/A".to_string()
        } else {
            format!("{}.811", 500 + i % 50)
        };
        let _ = writeln!(
            out,
            "{}GPU 0           {util:<18}{:<18}81559             {:<13}{power:<18}0                           ",
            stamp(start + i * 5),
            74_213 + i % 3,
            60 + i % 5
        );
    }
    out.into_bytes()
}

/// A vLLM run with `dcgmi dmon` telemetry (stamped by the README's loop) is placed in it and
/// judged as with nvidia-smi's; dmon as it prints, without times, is refused naming the loop.
#[tokio::test]
async fn a_vllm_run_with_stamped_dcgmi_dmon_telemetry_is_judged_and_unstamped_dmon_names_the_loop() {
    let (app, pam, eve) = team_of_pam_and_eve().await;
    let quote = app
        .create_quote_with(
            &pam,
            "H100-1X",
            &[
                ("spec.gpu_model", "H100 80GB"),
                ("spec.gpus_per_node", "1"),
                ("spec.vram_gib", "80"),
            ],
        )
        .await;
    let token = app.create_token(&eve, "ci").await;
    let q = quote.to_string();
    let result = common::vllm_result(1205.0);
    for (stamped, status) in [(true, StatusCode::CREATED), (false, StatusCode::UNPROCESSABLE_ENTITY)] {
        let smi = dmon(stamped);
        let parts: [(&str, Option<&str>, &[u8]); 4] = [
            ("result", Some("vllm.json"), &result),
            ("telemetry", Some("dcgmi.txt"), &smi),
            ("quote", None, q.as_bytes()),
            ("reserves_memory", None, b"true"),
        ];
        let res = app.multipart("/api/v1/runs", &parts, None, Some(&token)).await;
        assert_eq!(res.status, status, "{}", res.body);
        let body = json(&res.body);
        if stamped {
            let codes: Vec<&str> = body["reasons"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["code"].as_str().unwrap())
                .collect();
            assert!(codes.contains(&"run_window"), "placed in its telemetry: {body}");
            assert!(!codes.contains(&"telemetry_missing"), "{body}");
            assert_eq!(body["status"], "valid", "{body}");
        } else {
            assert!(
                res.body.contains("dcgmi dmon prints no time on its samples"),
                "{}",
                res.body
            );
            assert!(res.body.contains("while IFS= read -r l"), "{}", res.body);
        }
    }
}
