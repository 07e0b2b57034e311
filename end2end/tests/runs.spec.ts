import { expect, test } from "@playwright/test";
import path from "node:path";
import { PASSWORD, createMember, ensureAdmin, open, signIn, watchConsole } from "./helpers";

test.describe.configure({ mode: "serial" });

const FIXTURES = path.join(__dirname, "../../app/domain/src/runs/fixtures");

test("an engineer uploads a run with progress, sees the verdict and chart, and scripts upload with a token", async ({
  page,
  request,
}) => {
  const consoleErrors = watchConsole(page);
  await ensureAdmin(page);
  await createMember(page, "Bench Desk", "eli@example.com", "Eli Engineer", "engineer");
  await signIn(page, "eli@example.com");

  await page.getByRole("link", { name: "Runs", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Benchmark runs");
  await page.getByTestId("upload-run").click();
  await page.waitForURL("**/runs/new");
  await expect(page.locator("body")).toHaveAttribute("data-hydrated", "true");

  // Record whether a progress bar was ever shown (uploads to localhost are quick).
  await page.evaluate(() => {
    const w = window as unknown as { sawProgress: boolean };
    w.sawProgress = false;
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="upload-progress"]')) w.sawProgress = true;
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.getByTestId("run-node-label").fill("Acme H100 ×4 trial");
  await page.getByTestId("run-files").setInputFiles([
    path.join(FIXTURES, "vllm_serve.json"),
    path.join(FIXTURES, "smi_multi_gpu.csv"),
  ]);
  const recognised = page.getByTestId("upload-recognised");
  await expect(recognised).toHaveCount(2);
  await expect(recognised.nth(0)).toContainText("read as vLLM benchmark (vllm bench serve)");
  await expect(recognised.nth(1)).toContainText("read as nvidia-smi telemetry");
  expect(await page.evaluate(() => (window as unknown as { sawProgress: boolean }).sawProgress)).toBe(true);

  // The preview: the verdict and what the node really was, before anything is saved.
  const preview = page.getByTestId("run-preview");
  await expect(preview.getByTestId("verdict-status")).toBeVisible();
  await expect(preview.getByTestId("run-node")).toContainText("H100");

  // A file that is not a benchmark gets a clear message and is not added.
  await page.getByTestId("run-files").setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{"hello": "world"}') });
  await expect(page.getByTestId("upload-error")).toContainText("matches none of the supported formats");

  await page.getByTestId("save-run").click();
  await page.waitForURL(/\/runs\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Run #\d+/);
  await expect(page.getByTestId("run-verdict")).toBeVisible();
  await expect(page.getByTestId("run-throughput")).toContainText("tokens/s");
  const chart = page.getByTestId("telemetry-chart");
  await expect(chart).toBeVisible();
  await expect.poll(() => chart.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // A token for scripts, shown once with a curl line that works.
  await open(page, "/account/tokens");
  const form = page.getByTestId("token-form");
  await form.locator('input[name="name"]').fill("CI on node-7");
  // A token acts without the session: making one asks for the current password.
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.locator('button[type="submit"]').click();
  const token = (await page.getByTestId("new-token").textContent())?.trim() ?? "";
  expect(token).toMatch(/^nlt_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId("curl-example")).toContainText("/api/v1/runs");
  await expect(page.getByTestId("curl-fields")).toContainText("stands_for_workload=true");
  await expect(page.getByTestId("token-table")).toContainText("CI on node-7");

  const res = await request.post("/api/v1/runs", {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      result: { name: "mlperf_log_summary.txt", mimeType: "text/plain", buffer: require("node:fs").readFileSync(path.join(FIXTURES, "mlperf_offline_valid.txt")) },
      node_label: "Acme L4 trial",
    },
  });
  expect(res.status()).toBe(201);
  const body = await res.json();
  expect(body.url).toMatch(/^\/runs\/\d+$/);

  await open(page, "/runs");
  await expect(page.getByTestId("run-table").locator("tbody tr")).toHaveCount(2);
  await expect(page.getByTestId("run-table")).toContainText("Acme L4 trial");
  expect(consoleErrors).toEqual([]);
});
