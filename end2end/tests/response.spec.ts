import { expect, test } from "@playwright/test";
import { hydrated, open, PASSWORD, signIn, signOut, watchConsole } from "./helpers";
import { call, createTeam, saveQuote } from "./api";

test.describe.configure({ mode: "serial" });

/** A one-GPU offer of `model` at ¥10.00 an hour. */
function offer(reference: string, model: string): Record<string, string> {
  return {
    vendor: "Serve Cloud", reference, received_on: "2026-11-20", valid_until: "2099-12-31",
    "spec.gpu_model": model, "spec.gpus_per_node": "1", "spec.vram_gib": "80", "spec.sharing": "exclusive",
    currency: "CNY", "price.basis": "per_node", "price.on_demand_hourly": "10.00", "price.billing_increment": "hour",
    "price.stopped_bills_compute": "no",
  };
}

/**
 * A 15-minute serving run at `concurrency` requests with the figures `vllm bench serve
 * --save-result` writes (`output_throughput`, `p95_tpot_ms`: vllm/benchmarks/serve.py), as a
 * canonical record with its telemetry. The H100 figures are the repository's vLLM fixtures
 * (app/domain/src/runs/fixtures/vllm_tp2_concurrency_{8,32,64}.json).
 */
function run(gpu: string, concurrency: number, p95: number, tps: number): string {
  const telemetry = [];
  for (let i = 0; i <= 30; i++) telemetry.push({ t: i * 30, gpu: 0, util_pct: 95, mem_used_mib: 20000, temp_c: 60, power_w: 600 });
  return JSON.stringify({
    schema: "nodeledger.run/v1", source_format: "canonical", node: { gpu_name: gpu, gpu_count: 1 },
    workload: { concurrency }, throughput: { value: tps, unit: "tokens/s" },
    // vLLM's total_token_throughput: as many input tokens as output, as in those fixtures.
    throughputs: [{ name: "total_tokens", value: tps * 2, unit: "tokens/s" }],
    latencies: { "tpot.p95": p95, "tpot.median": p95 - 0.3 }, duration_s: 900 + p95, gpu_util_mean_pct: 95,
    vram_peak_mib: 20000, throttle: { active_s: 0, reasons: [] }, telemetry,
  });
}

test("an inference workload with a p95 TPOT target: the node that serves more tokens but answers each user too slowly loses, and the chart shows why", async ({ page, request }) => {
  const consoleErrors = watchConsole(page);
  await createTeam(page, "Serve Desk", [["serve-pia@example.com", "procurement"], ["serve-ezra@example.com", "engineer"]]);

  // Procurement states the service and how fast each user must be answered.
  await signIn(page, "serve-pia@example.com");
  await open(page, "/workloads");
  await hydrated(page);
  const form = page.getByTestId("workload-form");
  await form.locator('input[name="name"]').fill("Chat service");
  await form.locator('select[name="kind"]').selectOption("inference_service");
  await form.locator('input[name="vram_peak_gib"]').fill("20");
  await form.locator('input[name="concurrency"]').fill("32");
  await form.locator('input[name="run_hours"]').fill("5");
  await form.locator('input[name="total_work_amount"]').fill("36000000");
  await form.locator('select[name="total_work_unit"]').selectOption("tokens");
  await form.locator('select[name="response_percentile"]').selectOption("p95");
  await form.locator('select[name="response_metric"]').selectOption("tpot");
  await form.locator('input[name="response_max_ms"]').fill("22");
  await form.locator('button[type="submit"]').click();
  const table = page.getByTestId("workload-table");
  await expect(table).toContainText("p95 TPOT ≤ 22 ms");
  const row = table.locator("tr", { hasText: "Chat service" });
  const workload = (await row.getByTestId("workload-plan").getAttribute("href"))!.match(/workload=(\d+)/)![1];
  const fast = await saveQuote(page, offer("FAST-PER-USER", "H100 80GB"));
  const bulk = await saveQuote(page, offer("BULK", "A100 80GB"));
  await signOut(page);

  // The engineer's script uploads runs at 8, 32 and 64 concurrent requests on each node.
  await signIn(page, "serve-ezra@example.com");
  const token = await call(page, "/api/tokens/create", { name: "bench", password: PASSWORD });
  const points: [number, string, number, number, number][] = [
    [fast, "NVIDIA H100 80GB HBM3", 8, 14.63, 551.96], [fast, "NVIDIA H100 80GB HBM3", 32, 19.36, 1676.58],
    [fast, "NVIDIA H100 80GB HBM3", 64, 26.16, 2448.93],
    [bulk, "NVIDIA A100 80GB PCIe", 8, 24, 900], [bulk, "NVIDIA A100 80GB PCIe", 32, 30, 2600],
    [bulk, "NVIDIA A100 80GB PCIe", 64, 40, 3400],
  ];
  const ids: number[] = [];
  for (const [quote, gpu, concurrency, p95, tps] of points) {
    const res = await request.post("/api/v1/runs", {
      headers: { Authorization: `Bearer ${token}` },
      multipart: {
        result: { name: "serve.json", mimeType: "application/json", buffer: Buffer.from(run(gpu, concurrency, p95, tps)) },
        quote: String(quote), workload,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    ids.push((await res.json()).id);
  }

  // A run that misses the target is kept and says so.
  await open(page, `/runs/${ids[2]}`);
  await hydrated(page);
  await expect(page.locator("main")).toContainText("Misses the workload's response-time target p95 TPOT ≤ 22 ms: measured 26.16 ms at 64 concurrent requests");
  await signOut(page);

  // The cost page reads each node at the target: the H100 first, measured; the A100, which
  // serves more tokens in total, has no run fast enough per user and is only estimated.
  await signIn(page, "serve-pia@example.com");
  await open(page, `/tco?workload=${workload}&setup_h=0&rerun_pct=0`);
  await hydrated(page);
  const first = page.getByTestId("tco-row").first();
  await expect(first).toContainText("FAST-PER-USER");
  await expect(first.getByTestId("tco-response")).toHaveText(
    `At p95 TPOT ≤ 22 ms: 1,976.4 tokens/s per node, read on the line between run #${ids[1]} (meets it) and run #${ids[2]} (misses it).`,
  );
  await expect(first.getByTestId("tco-total")).toContainText("¥60.00");
  // ¥60.00 over 36M output tokens, spread over the input and all tokens served alongside.
  await expect(first.getByTestId("tco-token-costs")).toHaveText(
    "Per 1M tokens at p95 TPOT ≤ 22 ms: output ¥1.67 · input ¥1.67 · input and output together ¥0.83",
  );
  const bulkRow = page.getByTestId("tco-row").filter({ hasText: "BULK" });
  await expect(bulkRow.getByTestId("tco-response")).toContainText("No run on this node meets p95 TPOT ≤ 22 ms: the fastest answered in 24 ms");
  const chart = page.getByTestId("chart-response");
  await expect.poll(() => chart.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const svg = await page.request.get(`/tco/response.svg?workload=${workload}&setup_h=0&rerun_pct=0`);
  const body = await svg.text();
  expect(body).toContain("Target p95 TPOT ≤ 22 ms");
  expect(body).toContain("BULK");

  // The same page in Chinese.
  await page.context().addCookies([{ name: "nl_lang", value: "zh-CN", url: page.url() }]);
  await open(page, `/tco?workload=${workload}&setup_h=0&rerun_pct=0`);
  await hydrated(page);
  await expect(page.getByTestId("tco-row").first().getByTestId("tco-response")).toContainText("在 p95 TPOT ≤ 22 ms 下：每节点 1,976.4 tokens/s");
  await expect(page.getByTestId("tco-row").first().getByTestId("tco-token-costs")).toHaveText(
    "在 p95 TPOT ≤ 22 ms 下每百万 token：输出 ¥1.67 · 输入 ¥1.67 · 输入与输出合计 ¥0.83",
  );
  expect(consoleErrors).toEqual([]);
});
