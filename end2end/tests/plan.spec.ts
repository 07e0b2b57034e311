import { expect, test } from "@playwright/test";
import { hydrated, open, PASSWORD, signIn, signOut, watchConsole } from "./helpers";
import { call, createTeam, saveQuote } from "./api";
import { offer as offerOf, run } from "./plan-fixtures";

/** An offer of the plan desk's vendor. */
const offer = (reference: string, gpus: string, price: string) => offerOf("Plan Cloud", reference, gpus, price);

test.describe.configure({ mode: "serial" });

test("procurement plans a rental against a deadline, orders the plan and the manager reads it on the order", async ({ page, request }) => {
  const consoleErrors = watchConsole(page);
  await createTeam(page, "Plan Desk", [
    ["plan-pia@example.com", "procurement"], ["plan-ezra@example.com", "engineer"], ["plan-mona@example.com", "manager"],
  ]);

  // Procurement describes the job with its deadline (the seed's worked example: 2,592,000
  // tokens, 72 h on one card or 24 h on four, due 48 h after the start).
  await signIn(page, "plan-pia@example.com");
  await open(page, "/workloads");
  const form = page.getByTestId("workload-form");
  await form.locator('input[name="name"]').fill("Plan batch");
  await form.locator('input[name="vram_peak_gib"]').fill("20");
  await form.locator('input[name="gpus_needed"]').fill("1");
  await form.locator('input[name="total_work_amount"]').fill("2592000");
  await form.locator('select[name="total_work_unit"]').selectOption("tokens");
  await form.locator('input[name="deadline"]').fill("48 h");
  await form.locator('input[name="earliest_start"]').fill("2030-01-15T08:00:00Z");
  await form.locator('button[type="submit"]').click();
  const table = page.getByTestId("workload-table");
  await expect(table).toContainText("Plan batch");
  const row = table.locator("tr", { hasText: "Plan batch" });
  const workload = (await row.getByTestId("workload-plan").getAttribute("href"))!.match(/workload=(\d+)/)![1];
  const small = await saveQuote(page, offer("ONE-GPU", "1", "10.00"));
  const big = await saveQuote(page, offer("FOUR-GPU", "4", "35.00"));
  await signOut(page);

  // The engineer's script uploads a measured run for each node.
  await signIn(page, "plan-ezra@example.com");
  const token = await call(page, "/api/tokens/create", { name: "bench", password: PASSWORD });
  for (const [quote, gpus, tps] of [[small, 1, 10], [big, 4, 30]]) {
    // A script sends no session cookie, only its token.
    const res = await request.post("/api/v1/runs", {
      headers: { Authorization: `Bearer ${token}` },
      multipart: {
        result: { name: "run.json", mimeType: "application/json", buffer: Buffer.from(run(gpus, tps)) },
        quote: String(quote), workload,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  await signOut(page);

  // Procurement opens the plan from the workload list: one sentence says what to rent.
  await signIn(page, "plan-pia@example.com");
  await open(page, "/workloads");
  await page.getByTestId("workload-table").locator("tr", { hasText: "Plan batch" }).getByTestId("workload-plan").click();
  await page.waitForURL(/\/plan\?workload=\d+/);
  await hydrated(page);
  await expect(page.getByTestId("plan-basis")).toContainText("Deadline: 2030-01-17 08:00 UTC (48 h after the start)");
  const sentence = page.getByTestId("plan-sentence");
  await expect(sentence).toContainText("1 node of Plan Cloud · FOUR-GPU");
  // The cost page's default assumptions apply (setup and data preparation hours, a share of
  // re-runs): 24 h of compute on four cards finishes in 27.4 h for ¥980.00.
  await expect(sentence).toContainText("done in 27.4 h (2030-01-16 11:24 UTC) for ¥980.00");
  await expect(sentence).toContainText("1 node of Plan Cloud · ONE-GPU · 1× A100 80GB, on demand would finish 32.2 h after the deadline");
  const chart = page.getByTestId("plan-chart");
  await expect.poll(() => chart.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const recommended = page.locator('[data-testid="plan-row"].recommended');
  await expect(recommended).toHaveAttribute("data-quote", String(big));
  await expect(recommended).toHaveAttribute("data-total", "980");
  await expect(page.locator(`[data-testid="plan-row"][data-quote="${small}"]`)).toContainText("Late");

  // The recommended plan leads the trade-offs; the recommendation carries the page's one
  // primary "Order this plan", the rows a secondary one each.
  await expect(page.getByTestId("plan-front").getByTestId("plan-row").first()).toHaveClass(/recommended/);
  // Where the answer is: the recommendation's button and the recommended row (the row was 8th
  // of 11, 2.5 screens down, before the recommended plan led the trade-offs).
  const screen = page.viewportSize()!.height;
  const top = (l: typeof recommended) => l.evaluate((el) => Math.round(el.getBoundingClientRect().top + window.scrollY));
  const button = await top(page.getByTestId("plan-order-recommended"));
  const rowTop = await top(recommended);
  const rows = await page.getByTestId("plan-front").getByTestId("plan-row").count();
  console.log(`plan page: "Order this plan" at ${button} px, recommended row 1 of ${rows} at ${rowTop} px (${(rowTop / screen).toFixed(1)} screens)`);
  expect(button).toBeLessThan(screen);
  await expect(recommended.getByTestId("plan-order")).toHaveClass(/secondary/);
  await expect(page.getByTestId("plan-front").locator('th abbr[title^="From the start: the vendor\'s lead time"]')).toHaveText("Done in");
  await expect(page.locator("button:not(.secondary)", { hasText: "Order this plan" })).toHaveCount(1);
  await page.getByTestId("plan-recommendation").getByTestId("plan-order-recommended").click();
  await page.waitForURL(/\/orders\/\d+\?made=created/);
  await hydrated(page);
  const card = page.getByTestId("order-plan");
  await expect(card.getByTestId("order-plan-sentence")).toContainText("done in 27.4 h (2030-01-16 11:24 UTC) for ¥980.00");
  await expect(page.getByTestId("order-chosen")).toContainText("FOUR-GPU");
  const order = page.url().match(/\/orders\/(\d+)/)![1];
  // The heading says which order and how many nodes.
  await expect(page.getByTestId("order-number")).toHaveText(`#${order}`);
  await expect(page.getByTestId("order-nodes")).toHaveText("1 node");
  // The summary names the plan in one sentence.
  await expect(page.getByTestId("order-summary-plan")).toContainText("done in 27.4 h (2030-01-16 11:24 UTC) for ¥980.00");
  await signOut(page);

  // The manager reads the plan and what it was planned against, in Chinese.
  await signIn(page, "plan-mona@example.com");
  await page.context().addCookies([{ name: "nl_lang", value: "zh-CN", url: page.url() }]);
  await open(page, `/orders/${order}`);
  const zh = page.getByTestId("order-plan");
  await expect(zh.getByTestId("order-plan-deadline")).toHaveText("截止：2030-01-17 08:00 UTC（开始后 48 小时）");
  await expect(zh.getByTestId("order-plan-sentence")).toContainText("27.4 小时后（2030-01-16 11:24 UTC）完成，共 ¥980.00");
  await expect(zh.getByTestId("order-plan-chosen")).toHaveText("规划器推荐的方案。");
  await expect(zh.getByTestId("order-plan-shortfall")).toHaveCount(0);
  await expect(page.getByTestId("order-nav")).toContainText("租用方案");
  await page.context().addCookies([{ name: "nl_lang", value: "en", url: page.url() }]);
  expect(consoleErrors).toEqual([]);
});
