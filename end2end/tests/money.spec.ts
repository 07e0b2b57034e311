import { expect, Page, test } from "@playwright/test";
import { PASSWORD, hydrated, open, signIn, signOut, watchConsole } from "./helpers";
import { answerMine, call, createTeam, saveQuote } from "./api";

test.describe.configure({ mode: "serial" });

/** What every sheet of this story shares: one L4 per node, CNY, per-node prices. */
const SHEET: Record<string, string> = {
  vendor: "Sheet Cloud",
  received_on: "2026-11-20",
  valid_until: "2099-12-31",
  "spec.gpu_model": "L4 24GB",
  "spec.gpus_per_node": "1",
  "spec.vram_gib": "24",
  "spec.sharing": "exclusive",
  currency: "CNY",
  "price.basis": "per_node",
  "price.stopped_bills_compute": "no",
  "price.disk_price_gb_month": "0",
  "price.snapshot_price_gb_month": "0",
  "price.ingress_price_gb": "0",
  "price.public_ip_hourly": "0",
};

/**
 * FOCUS 1.2 columns (FOCUS_Spec `specification/columns`: EffectiveCost, ChargeClass, PricingUnit,
 * ServiceCategory): December's bill of the rental with 6 % VAT, and January's, which corrects one
 * hour of December with December's charge period, as FOCUS writes a correction.
 */
const FOCUS = "BilledCost,BillingCurrency,ChargeCategory,ChargeClass,ChargeDescription,ChargePeriodStart,ChargePeriodEnd,ConsumedQuantity,ConsumedUnit,ContractedUnitPrice,EffectiveCost,PricingQuantity,PricingUnit,ResourceId,ServiceCategory,ServiceName";
const DECEMBER = [
  FOCUS,
  "121.00,CNY,Usage,,L4 node billed per 10 minutes,2026-12-01T08:00:00Z,2026-12-02T04:10:00Z,20.1667,Hours,6.00,121.00,20.1667,Hours,i-sheet-l4,Compute,GPU Cloud",
  "7.26,CNY,Tax,,VAT 6 %,2026-12-01T08:00:00Z,2026-12-02T04:10:00Z,,,,7.26,,,,Other,Tax",
].join("\n");
const JANUARY = [
  FOCUS,
  "-6.00,CNY,Usage,Correction,One hour of December credited,2026-12-01T08:00:00Z,2026-12-02T04:10:00Z,,,,-6.00,,,i-sheet-l4,Compute,GPU Cloud",
].join("\n");

/** The team, the workload (20.05 h of one job on one GPU, 3,000 GB of results to send out). */
async function desk(page: Page) {
  await createTeam(page, "Sheet Desk", [["sela@example.com", "procurement"], ["sven@example.com", "engineer"], ["sofia@example.com", "manager"]]);
  await signIn(page, "sela@example.com");
  return call(page, "/api/workloads/create", {
    name: "Render batch", kind: "batch", model: "", precision: "", vram_peak_gib: "16", vram_peak_source: "measured",
    concurrency: "1", gpus_needed: "1", run_hours: "20.05", total_work_amount: "", total_work_unit: "", data_gb: "0",
    checkpoint_gb: "3000", headroom_pct: "20",
  });
}

/** The cost page's row of the quote `reference`. */
function row(page: Page, reference: string) {
  return page.getByTestId("tco-row").filter({ hasText: reference });
}

/** The order for `quote`, answered by procurement and the engineer, approved by the manager. */
async function approve(page: Page, workload: number, quote: number) {
  const order = Number(await call(page, "/api/orders/create", { title: "Render on the 10-minute sheet", workload_id: String(workload) }));
  await call(page, "/api/orders/select", { order_id: String(order), quote_id: String(quote), waiver: "Benchmarked last month; report on file." });
  await answerMine(page, order);
  await signOut(page);
  await signIn(page, "sven@example.com");
  await answerMine(page, order);
  await signOut(page);
  await signIn(page, "sela@example.com");
  await call(page, "/api/orders/submit", { order_id: String(order) });
  await signOut(page);
  await signIn(page, "sofia@example.com");
  await call(page, "/api/orders/decide", { order_id: String(order), decision: "approve", password: PASSWORD, comment: "ok" });
  await signOut(page);
  return order;
}

/** Checks a FOCUS file on the order's bill card and saves it. */
async function importBill(page: Page, name: string, text: string) {
  const card = page.getByTestId("order-bill");
  await card.locator('input[type="file"][name="bill"]').setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
  await card.getByTestId("bill-check").click();
  await expect(card.getByTestId("bill-save")).toBeVisible();
  await card.getByTestId("bill-save").click();
  await expect(card.getByTestId("bill-list")).toContainText(name);
  return card.getByTestId("bill-reconciliation");
}

test("sheets as vendors write them are costed as written, and a FOCUS bill with tax and a later correction reconciles in words", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  const workload = await desk(page);

  // A package-only sheet entered by hand: no on-demand price is "not offered", never 0.00.
  await open(page, "/quotes/new");
  await hydrated(page);
  const form = page.getByTestId("quote-form");
  await form.locator("#f-vendor").fill("Sheet Cloud");
  await form.locator("#f-reference").fill("MONTHLY-ONLY");
  await form.locator("#f-spec-gpu_model").fill("L4 24GB");
  await form.locator("#f-spec-gpus_per_node").fill("1");
  await form.locator("#f-spec-vram_gib").fill("24");
  await form.locator("#f-price-monthly_price").fill("2000");
  await form.locator("#f-price-commitment_months").fill("1");
  await form.locator("#f-price-egress_price_gb").fill("0");
  await form.locator("#f-valid_until").fill("2099-12-31");
  await form.locator('button[type="submit"]').click();
  await page.waitForURL(/\/quotes\/\d+$/);
  await expect(page.getByTestId("quote-revision")).toContainText("not offered");

  // A sheet billed per 10 minutes, and one with egress in tiers.
  const tenMinutes = await saveQuote(page, {
    ...SHEET, reference: "TEN-MINUTES", "price.on_demand_hourly": "6.00", "price.billing_increment": "10 min",
    "price.egress_price_gb": "0", "price.free_egress_gb": "0",
  });
  await saveQuote(page, {
    ...SHEET, reference: "TIERED-EGRESS", "price.on_demand_hourly": "5.00", "price.billing_increment": "hour",
    "price.egress_tiers": "1000: 0.80\n*: 0.50", "price.free_egress_gb": "0",
  });

  await open(page, `/tco?workload=${workload}&setup_h=0&rerun_pct=0`);
  await hydrated(page);
  // 20.05 h billed per 10 minutes is 20 h 10 min: 20.1667 h × ¥6.00 = ¥121.00 (per hour it would
  // be 21 h, ¥126.00).
  await expect(row(page, "TEN-MINUTES").getByTestId("tco-total")).toContainText("¥121.00");
  // 21 h × ¥5.00 = ¥105.00, and 3,000 GB out: 1,000 GB at ¥0.80 + 2,000 GB at ¥0.50 = ¥1,800.00.
  await expect(row(page, "TIERED-EGRESS").getByTestId("tco-total")).toContainText("¥1,905.00");
  // The package covers the rental: one month at ¥2,000.00, not ¥0.00, and not first.
  await expect(row(page, "MONTHLY-ONLY").getByTestId("tco-total")).toContainText("¥2,000.00");
  await expect(page.getByTestId("tco-row").first()).toContainText("TEN-MINUTES");
  // The 10-minute line (first, so open) reads as it adds up: 20.1667 node-hours × ¥6.00 = ¥121.00.
  const tenLines = page.getByTestId("tco-breakdown").filter({ hasText: "TEN-MINUTES" });
  await expect(tenLines).toContainText("20.1667");
  await expect(tenLines).toContainText("¥6.00");
  // The tiered line is shown band by band, each GB × price = cost, adding up to ¥1,800.00.
  const tiered = page.getByTestId("tco-breakdown").filter({ hasText: "TIERED-EGRESS" });
  await tiered.locator("summary").click();
  const bands = tiered.getByTestId("traffic-band");
  await expect(bands).toHaveCount(2);
  await expect(bands.nth(0)).toContainText("Outbound, 0–1,000 GB");
  await expect(bands.nth(0)).toContainText("¥800.00");
  await expect(bands.nth(1)).toContainText("Outbound, above 1,000 GB");
  await expect(bands.nth(1)).toContainText("2,000");
  await expect(bands.nth(1)).toContainText("¥1,000.00");

  // The 10-minute sheet is ordered, approved and rented; its bills come in.
  const order = await approve(page, workload, tenMinutes);
  await signIn(page, "sela@example.com");
  const o = String(order);
  await call(page, "/api/rentals/record", { order_id: o, started_at: "2026-12-01T08:00Z", resources: "i-sheet-l4", note: "" });
  await call(page, "/api/rentals/stop", { order_id: o, stopped_at: "2026-12-02T04:10Z" });
  await call(page, "/api/rentals/release", { order_id: o, released_at: "2026-12-02T04:10Z", setup_hours: "0", data_prep_hours: "0", rerun_hours: "0" });
  await open(page, `/orders/${order}`);
  await hydrated(page);
  let recon = await importBill(page, "december.csv", DECEMBER);
  await expect(recon.getByTestId("bill-row-tax")).toContainText("Tax");
  await expect(recon.getByTestId("bill-verdict")).toContainText("Of what was billed, ¥7.26 is tax. Before tax the difference is");

  // January corrects an hour of December: applied to December's period, not refused as an overlap.
  recon = await importBill(page, "january.csv", JANUARY);
  await expect(recon.getByTestId("bill-row-compute")).toContainText(
    "Correction of 2026-12-01 08:00 UTC – 2026-12-02 04:10 UTC (a period billed before): -¥6.00",
  );
  expect(consoleErrors).toEqual([]);
});
