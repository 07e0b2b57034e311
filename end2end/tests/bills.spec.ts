import { expect, Page, test } from "@playwright/test";
import { PASSWORD, open, signIn, signOut, watchConsole } from "./helpers";
import { answerMine, call, createTeam, saveQuote } from "./api";

test.describe.configure({ mode: "serial" });

/**
 * Records the rental of `order` (procurement signed in) through the rental section's server
 * functions: instance `i-bill-l4` and disk `vol-bill-l4`, 2026-11-28 08:00 to a stop at 18:00,
 * released 2026-11-30 08:00.
 */
async function recordRental(page: Page, order: number) {
  const o = String(order);
  await call(page, "/api/rentals/record", { order_id: o, started_at: "2026-11-28T08:00Z", resources: "i-bill-l4\nvol-bill-l4", note: "" });
  await call(page, "/api/rentals/stop", { order_id: o, stopped_at: "2026-11-28T18:00Z" });
  await call(page, "/api/rentals/release", { order_id: o, released_at: "2026-11-30T08:00Z", setup_hours: "1", data_prep_hours: "0", rerun_hours: "0" });
}

const HEADER =
  "BillingAccountId,ChargeCategory,ChargeClass,ChargeDescription,ChargePeriodStart,ChargePeriodEnd,BilledCost,BillingCurrency,ConsumedQuantity,ConsumedUnit,ListUnitPrice,ContractedUnitPrice,ResourceId,ServiceName,SkuId";

/** 30 h of the L4 at 4.40 (quoted 4.00), the stopped node's disk for two days, another team's node. */
const BILL = [
  HEADER,
  "acct,Usage,,GPU instance L4 on demand,2026-11-28T08:00:00Z,2026-11-29T14:00:00Z,132.00,CNY,30,Hours,4.40,4.40,i-bill-l4,Compute,l4-od",
  "acct,Usage,,Data disk 200 GB of stopped instance,2026-11-28T18:00:00Z,2026-11-30T08:00:00Z,1.60,CNY,0.4,GB-Mo,4.00,4.00,vol-bill-l4,Block Storage,ssd",
  "acct,Usage,,GPU instance L4 on demand,2026-11-28T08:00:00Z,2026-11-28T18:00:00Z,40.00,CNY,10,Hours,4.00,4.00,i-someone-else,Compute,l4-od",
].join("\n");

async function approvedOrder(page: Page) {
  await createTeam(page, "Bill Desk", [["bella@example.com", "procurement"], ["benno@example.com", "engineer"], ["bodil@example.com", "manager"]]);
  await signIn(page, "bella@example.com");
  const workload = await call(page, "/api/workloads/create", {
    name: "Bill render", kind: "batch", model: "", precision: "", vram_peak_gib: "16", vram_peak_source: "measured",
    concurrency: "1", gpus_needed: "1", run_hours: "20", total_work_amount: "", total_work_unit: "", data_gb: "0", checkpoint_gb: "0", headroom_pct: "20",
  });
  const quote = await saveQuote(page, {
    vendor: "Bill Cloud", reference: "L4-BILL", received_on: "2026-11-20", valid_until: "2099-12-31", "spec.gpu_model": "L4 24GB",
    "spec.gpus_per_node": "1", "spec.vram_gib": "24", "spec.sharing": "exclusive", currency: "CNY", "price.basis": "per_node",
    "price.on_demand_hourly": "4.00", "price.billing_increment": "hour", "price.stopped_bills_compute": "no",
  });
  const order = Number(await call(page, "/api/orders/create", { title: "L4 with a bill", workload_id: String(workload) }));
  await call(page, "/api/orders/select", { order_id: String(order), quote_id: String(quote), waiver: "Benchmarked last month; report on file." });
  await answerMine(page, order);
  await signOut(page);
  await signIn(page, "benno@example.com");
  await answerMine(page, order);
  await signOut(page);
  await signIn(page, "bella@example.com");
  await call(page, "/api/orders/submit", { order_id: String(order) });
  await signOut(page);
  await signIn(page, "bodil@example.com");
  await call(page, "/api/orders/decide", { order_id: String(order), decision: "approve", password: PASSWORD, comment: "ok" });
  await signOut(page);
  return order;
}

test("procurement imports the vendor's bill on a rented order, sees the variance and the chart, and prints the record", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  const order = await approvedOrder(page);
  await signIn(page, "bella@example.com");
  await open(page, `/orders/${order}`);
  await expect(page.getByTestId("bill-blocked")).toContainText("Record the rental first");
  await recordRental(page, order);

  await open(page, `/orders/${order}`);
  const card = page.getByTestId("order-bill");
  await expect(card.getByTestId("bill-none")).toBeVisible();
  // A file in no known layout is refused whole, naming the columns it lacks.
  const input = card.locator('input[type="file"][name="bill"]');
  await input.setInputFiles({ name: "statement.csv", mimeType: "text/csv", buffer: Buffer.from("date,amount_due\n2026-11-28,5\n") });
  await card.getByTestId("bill-check").click();
  await expect(card.getByTestId("bill-file-error")).toContainText("Unknown bill layout");
  await expect(card.getByTestId("bill-file-error")).toContainText("BilledCost");

  await input.setInputFiles({ name: "november.csv", mimeType: "text/csv", buffer: Buffer.from(BILL) });
  await card.getByTestId("bill-check").click();
  await expect(card.getByTestId("bill-summary")).toHaveText("FOCUS bill, 3 lines: 2 matched to the rental, 1 unmatched; 0 errors.");
  await expect(card.getByTestId("bill-preview-lines")).toContainText("i-someone-else");
  // Before importing: what was matched and what was not add up to the bill, and the line not
  // matched is listed first.
  await expect(card.getByTestId("bill-tie")).toHaveText("Matched to the rental ¥133.60 + not matched ¥40.00 = bill total ¥173.60");
  await expect(card.getByTestId("bill-preview-lines").locator("tbody tr").first()).toContainText("i-someone-else");
  await card.getByTestId("bill-save").click();

  // Saved: the reconciliation of the order, flagged above the 10 % threshold.
  await expect(card.getByTestId("bill-list")).toContainText("november.csv");
  // The saved bill still ties back to its total.
  await expect(card.getByTestId("bill-saved-tie")).toHaveText("Matched to the rental ¥133.60 + not matched ¥40.00 = bill total ¥173.60");
  const recon = card.getByTestId("bill-reconciliation");
  await expect(recon.getByTestId("bill-row-compute")).toContainText("Price: 30 h at ¥4.40 instead of the agreed ¥4.00 (30 × ¥4.40 = ¥132.00 against 30 × ¥4.00 = ¥120.00)");
  await expect(recon.getByTestId("bill-row-disk")).toContainText("Disk: billed, not planned: +¥1.60");
  await expect(recon.getByTestId("bill-billed")).toHaveText("¥133.60");
  await expect(card.getByTestId("bill-flag")).toHaveText("Bill variance above the threshold");
  await expect(recon.getByTestId("bill-verdict")).toContainText("above the team's threshold of 10 %");
  const chart = recon.getByTestId("bill-chart");
  await expect(chart).toBeVisible();
  expect(await chart.getAttribute("src")).toMatch(/^data:image\/svg\+xml/);
  expect(await chart.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(card.getByTestId("bill-unmatched")).toContainText("not a resource of this rental");

  // The same file again is refused and nothing changes.
  await card.locator('input[type="file"][name="bill"]').setInputFiles({ name: "november.csv", mimeType: "text/csv", buffer: Buffer.from(BILL) });
  await card.getByTestId("bill-check").click();
  await expect(card.getByTestId("bill-file-error")).toContainText("This file was imported before");

  // The printed record carries the reconciliation and the chart, not the import form.
  await page.emulateMedia({ media: "print" });
  await expect(recon).toBeVisible();
  await expect(chart).toBeVisible();
  await expect(card.getByTestId("bill-import")).toBeHidden();
  await page.emulateMedia({ media: "screen" });

  // The history (loaded with the page) names the import once the page is opened again.
  await open(page, `/orders/${order}`);
  await expect(page.locator("body")).toContainText("Bill imported");
  expect(consoleErrors).toEqual([]);
});
