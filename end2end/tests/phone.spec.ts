import { expect, Locator, Page, test, TestInfo } from "@playwright/test";
import { PASSWORD, hydrated, open, signIn, signOut, watchConsole } from "./helpers";
import { call, saveQuote } from "./api";
import { desk, ordersInEveryState } from "./order-fixtures";
import { offer as offerOf, run } from "./plan-fixtures";

/** An offer of the phone desk's vendor. */
const offer = (reference: string, gpus: string, price: string) => offerOf("Phone Cloud", reference, gpus, price);

test.describe.configure({ mode: "serial" });

/** An iPhone 12-sized viewport. */
const PHONE = { width: 390, height: 844 };

/** The page does not scroll sideways. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${what}: page ${width} px wide in a ${PHONE.width} px window`).toBeLessThanOrEqual(PHONE.width);
}

/**
 * The height, in CSS pixels, of the smallest text of the chart `img` as the phone shows it: the
 * image's SVG (the file it loaded, or its `data:` URL) laid out inline at the image's rendered
 * width, each `<text>` measured with getBoundingClientRect. A chart in an `<img>` has no DOM of
 * its own to measure, so it is measured as the same SVG at the same size.
 */
async function smallestChartText(img: Locator): Promise<number> {
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
  return img.evaluate(async (i: HTMLImageElement) => {
    const src = i.currentSrc;
    // A `data:` URL is read as it is (the page's CSP lets no script fetch one).
    const svg = src.startsWith("data:") ? decodeURIComponent(src.slice(src.indexOf(",") + 1)) : await (await fetch(src)).text();
    const box = document.createElement("div");
    box.style.cssText = `position:absolute;left:0;top:0;width:${i.getBoundingClientRect().width}px;visibility:hidden`;
    box.innerHTML = svg;
    const root = box.querySelector("svg")!;
    root.style.cssText = "display:block;width:100%;height:auto";
    document.body.appendChild(box);
    const heights = Array.from(root.querySelectorAll("text"))
      .filter((t) => (t.textContent ?? "").trim() !== "")
      .map((t) => t.getBoundingClientRect().height);
    box.remove();
    return Math.min(...heights);
  });
}

const urls = { plan: "", order: "", procurement: "" };

test("a team with a plan to weigh and a rented order with its bill", async ({ page, request }) => {
  const d = await desk(page, "Phone Desk", "phone");
  const { approved } = await ordersInEveryState(page, d);
  urls.order = `/orders/${approved}`;
  urls.procurement = d.procurement;

  // A workload of 2,592,000 tokens and two measured nodes to plan it on.
  await signIn(page, d.procurement);
  const workload = await call(page, "/api/workloads/create", {
    name: "Phone batch", kind: "batch", model: "", precision: "", vram_peak_gib: "20", vram_peak_source: "measured",
    concurrency: "1", gpus_needed: "1", run_hours: "", total_work_amount: "2592000", total_work_unit: "tokens", data_gb: "0",
    checkpoint_gb: "0", headroom_pct: "20",
  });
  const quotes: Record<string, string> = {};
  for (const [reference, gpus, price] of [["PHONE-ONE", "1", "10.00"], ["PHONE-FOUR", "4", "35.00"]]) {
    quotes[gpus] = String(await saveQuote(page, offer(reference, gpus, price)));
  }
  await signOut(page);
  await signIn(page, d.engineer);
  const token = await call(page, "/api/tokens/create", { name: "phone bench", password: PASSWORD });
  for (const [gpus, tps] of [[1, 10], [4, 30]]) {
    const res = await request.post("/api/v1/runs", {
      headers: { Authorization: `Bearer ${token}` },
      multipart: {
        result: { name: "run.json", mimeType: "application/json", buffer: Buffer.from(run(gpus, tps)) },
        quote: quotes[String(gpus)], workload: String(workload),
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  await signOut(page);
  urls.plan = `/plan?workload=${workload}`;
});

test("on a 390 px phone the plan and the bill read without scrolling sideways, charts included", async ({ page }, testInfo: TestInfo) => {
  const consoleErrors = watchConsole(page);
  await page.setViewportSize(PHONE);
  await signIn(page, urls.procurement);

  // The plan: the chart drawn for a phone, its smallest text at least 10 px as shown.
  await open(page, urls.plan);
  await expect(page.getByTestId("plan-sentence")).toContainText("Phone Cloud");
  const plan = page.getByTestId("plan-chart");
  await plan.scrollIntoViewIfNeeded();
  expect(await smallestChartText(plan), "the plan chart's smallest text").toBeGreaterThanOrEqual(10);
  expect(await plan.evaluate((i: HTMLImageElement) => i.currentSrc)).toContain("narrow=1");
  await expectNoSidewaysScroll(page, urls.plan);
  await testInfo.attach("plan at 390 px", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });

  // The rental's bill: each component a card whose difference and reasons are on screen.
  await open(page, urls.order);
  const recon = page.getByTestId("order-bill").getByTestId("bill-reconciliation");
  await recon.scrollIntoViewIfNeeded();
  const row = recon.getByTestId("bill-row-compute");
  for (const cell of [row.getByTestId("bill-row-difference"), row.getByTestId("bill-row-why")]) {
    await expect(cell).toBeVisible();
    const box = (await cell.boundingBox())!;
    expect(box.x, "starts on screen").toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, "ends on screen").toBeLessThanOrEqual(PHONE.width);
  }
  await expect(row.getByTestId("bill-row-difference")).toHaveText(/¥/);
  await expect(row.getByTestId("bill-reason").first()).toBeVisible();
  const chart = recon.getByTestId("bill-chart");
  expect(await smallestChartText(chart), "the bill chart's smallest text").toBeGreaterThanOrEqual(10);
  await expectNoSidewaysScroll(page, urls.order);
  await recon.scrollIntoViewIfNeeded();
  await testInfo.attach("bill at 390 px", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
  await hydrated(page);
  expect(consoleErrors).toEqual([]);
});
