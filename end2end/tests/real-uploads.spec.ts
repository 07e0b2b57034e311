import { expect, test } from "@playwright/test";
import { PASSWORD, hydrated, open, signIn, signOut, watchConsole } from "./helpers";
import { call, createTeam, saveQuote } from "./api";

test.describe.configure({ mode: "serial" });

/**
 * A default `vllm bench serve --save-result` file (vllm/benchmarks/serve.py: `date` is
 * "%Y%m%d-%H%M%S" local time when the benchmark ended, `backend`/`endpoint_type` "openai",
 * `duration` in seconds): a 20-minute run at 850 output tokens/s.
 */
function vllmResult(duration: number): Buffer {
  return Buffer.from(JSON.stringify({
    date: "20261201-102005", endpoint_type: "openai", backend: "openai", label: null,
    model_id: "Qwen/Qwen2.5-7B-Instruct", num_prompts: 4000, request_rate: "inf", max_concurrency: 32,
    duration, completed: 4000, failed: 0, request_throughput: 3.3, output_throughput: 850.0,
    total_token_throughput: 4250.0, mean_ttft_ms: 180.2, median_ttft_ms: 171.0, p99_ttft_ms: 402.1,
  }));
}

/**
 * nvidia-smi `--query-gpu=… --format=csv -l 5` on an 8 × H100 node (one row per GPU per sample,
 * units in the values; the SXM H100 is "NVIDIA H100 80GB HBM3" with 81559 MiB): GPU 0 serves
 * with vLLM's reservation flat at ≈ 91 % of the card while its utilisation follows the load;
 * GPUs 1–7 idle at 4 MiB.
 */
function telemetry(cards: number): Buffer {
  const lines = ["timestamp, index, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB], clocks_event_reasons.active"];
  const load = [62, 97, 35, 88, 71, 94, 48];
  for (let i = 0; i < 265; i++) {
    const t = 9 * 3600 + 59 * 60 + i * 5;
    const hh = String(Math.floor(t / 3600)).padStart(2, "0");
    const mm = String(Math.floor(t / 60) % 60).padStart(2, "0");
    const ss = String(t % 60).padStart(2, "0");
    for (let gpu = 0; gpu < cards; gpu++) {
      const [util, mem] = gpu === 0 ? [load[i % 7], 74213 + (i % 3)] : [0, 4];
      lines.push(`2026/12/01 ${hh}:${mm}:${ss}.${100 + gpu * 4}, ${gpu}, NVIDIA H100 80GB HBM3, ${util} %, ${mem} MiB, 81559 MiB, 0x0000000000000000`);
    }
  }
  return Buffer.from(lines.join("\n") + "\n");
}

test("a one-card vLLM run on an 8-GPU node is valid and the cost page ranks its quote as measured", async ({ page, request }) => {
  const consoleErrors = watchConsole(page);
  await createTeam(page, "Serving Desk", [["sara.serving@example.com", "procurement"], ["enzo.serving@example.com", "engineer"]]);
  await signIn(page, "sara.serving@example.com");

  // The workload form asks how the workload uses a node's GPUs.
  await open(page, "/workloads");
  const form = page.getByTestId("workload-form");
  await expect(form.locator('select[name="gpu_use"]')).toBeVisible();
  const workload = await call(page, "/api/workloads/create", {
    name: "Qwen chat, a task per card", kind: "inference_service", model: "Qwen/Qwen2.5-7B-Instruct", precision: "bf16",
    vram_peak_gib: "20", vram_peak_source: "measured", concurrency: "32", gpus_needed: "1", gpu_use: "task_per_gpu",
    run_hours: "", total_work_amount: "244800000", total_work_unit: "tokens", data_gb: "0", checkpoint_gb: "0", headroom_pct: "20",
  });
  await open(page, "/workloads");
  await expect(page.getByTestId("workload-table")).toContainText("One task per GPU");
  const quote = await saveQuote(page, {
    vendor: "Serving Cloud", reference: "H100-8X", received_on: "2026-11-20", valid_until: "2099-12-31", "spec.gpu_model": "H100 80GB",
    "spec.gpus_per_node": "8", "spec.vram_gib": "80", "spec.sharing": "exclusive", currency: "CNY", "price.basis": "per_node",
    "price.on_demand_hourly": "160.00", "price.billing_increment": "hour", "price.stopped_bills_compute": "no",
  });
  await signOut(page);

  await signIn(page, "enzo.serving@example.com");
  const token: string = await call(page, "/api/tokens/create", { name: "serving bench", password: PASSWORD });
  const res = await request.post("/api/v1/runs", {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      result: { name: "openai-infqps-concurrency32-Qwen2.5-7B-Instruct-20261201-102005.json", mimeType: "application/json", buffer: vllmResult(1205) },
      telemetry: { name: "nvidia-smi.csv", mimeType: "text/csv", buffer: telemetry(8) },
      quote: String(quote),
      workload: String(workload),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = await res.json();
  expect(body.status).toBe("valid");
  const codes = body.reasons.map((r: { code: string }) => r.code);
  expect(codes).toEqual(expect.arrayContaining(["gpus_used", "vram_reserved", "part_of_node"]));

  // The run page says which GPUs worked and that the memory was the server's reservation.
  await open(page, body.url);
  await expect(page.getByTestId("run-verdict")).toContainText("1, 2, 3, 4, 5, 6, 7");
  await expect(page.getByTestId("run-verdict")).toContainText("held by the serving engine up front");
  await signOut(page);

  await signIn(page, "sara.serving@example.com");
  await open(page, `/tco?workload=${workload}&setup_h=0&rerun_pct=0&efficiency_pct=100&egress_gb=0&ingress_gb=0`);
  await hydrated(page);
  const measured = page.getByTestId("tco-ranking");
  await expect(measured.getByTestId("tco-row")).toHaveCount(1);
  await expect(measured).toContainText("H100-8X");
  await expect(measured).toContainText("used 1 of the node's 8 GPUs");
  await expect(page.getByTestId("tco-estimated")).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test("an order whose quote got a newer revision says so, and re-pinning prices it at that revision", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await createTeam(page, "Pin Desk", [["pina.pinned@example.com", "procurement"]]);
  await signIn(page, "pina.pinned@example.com");
  const workload = await call(page, "/api/workloads/create", {
    name: "Pinned render", kind: "batch", model: "", precision: "", vram_peak_gib: "16", vram_peak_source: "measured",
    concurrency: "1", gpus_needed: "1", run_hours: "20", total_work_amount: "", total_work_unit: "", data_gb: "0", checkpoint_gb: "0", headroom_pct: "20",
  });
  const fields: Record<string, string> = {
    vendor: "Pin Cloud", reference: "L4-PIN", received_on: "2026-11-20", valid_until: "2099-12-31", "spec.gpu_model": "L4 24GB",
    "spec.gpus_per_node": "1", "spec.vram_gib": "24", "spec.sharing": "exclusive", currency: "CNY", "price.basis": "per_node",
    "price.on_demand_hourly": "4.00", "price.billing_increment": "hour", "price.stopped_bills_compute": "no",
  };
  const quote = await saveQuote(page, fields);
  const order = Number(await call(page, "/api/orders/create", { title: "Pinned at revision 1", workload_id: String(workload) }));
  await call(page, "/api/orders/select", { order_id: String(order), quote_id: String(quote), waiver: "Benchmarked last month; report on file." });

  // The vendor sends a new price: revision 2 of the same quote.
  const revised: Record<string, string> = { quote_id: String(quote) };
  for (const [k, v] of Object.entries({ ...fields, "price.on_demand_hourly": "9.00" })) revised[`fields[${k}]`] = v;
  await call(page, "/api/quotes/save", revised);

  await open(page, `/orders/${order}`);
  await hydrated(page);
  const notice = page.getByTestId("order-newer-revision");
  await expect(notice).toContainText("Revision 2 of this quote exists; this order is priced at revision 1.");
  await notice.getByRole("button", { name: "Re-pin to revision 2" }).click();
  await expect(page.getByTestId("order-newer-revision")).toHaveCount(0);
  const view = await call(page, "/api/orders/get", { id: String(order) });
  expect(view.newer_quote_revision).toBeNull();
  expect(consoleErrors).toEqual([]);
});
