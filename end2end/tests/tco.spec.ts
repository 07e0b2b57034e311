import { expect, test } from "@playwright/test";
import { createMember, ensureAdmin, hydrated, open, signIn, signOut, watchConsole } from "./helpers";
import { call, createTeam } from "./api";

test.describe.configure({ mode: "serial" });

function quote(reference: string, price: string, stoppedBills: string): Record<string, string> {
  const fields: Record<string, string> = {
    vendor: "Cost Cloud",
    reference,
    received_on: "2026-11-20",
    valid_until: "2099-12-31",
    "spec.gpu_model": "L40S 48GB",
    "spec.gpus_per_node": "1",
    "spec.vram_gib": "48",
    "spec.sharing": "exclusive",
    currency: "CNY",
    "price.basis": "per_node",
    "price.on_demand_hourly": price,
    "price.billing_increment": "hour",
    "price.stopped_bills_compute": stoppedBills,
  };
  const form: Record<string, string> = { quote_id: "" };
  for (const [k, v] of Object.entries(fields)) form[`fields[${k}]`] = v;
  return form;
}

test("procurement compares three quotes, changes an assumption and the ranking follows", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await ensureAdmin(page);
  await createMember(page, "Cost Desk", "cora@example.com", "Cora Procurement", "procurement");
  await signIn(page, "cora@example.com");

  await call(page, "/api/workloads/create", {
    name: "Nightly batch",
    kind: "batch",
    model: "",
    precision: "",
    vram_peak_gib: "20",
    vram_peak_source: "estimated",
    concurrency: "1",
    gpus_needed: "1",
    run_hours: "10",
    total_work_amount: "",
    total_work_unit: "",
    data_gb: "0",
    checkpoint_gb: "0",
    headroom_pct: "20",
  });
  await call(page, "/api/quotes/save", quote("STEADY", "10.00", "no"));
  await call(page, "/api/quotes/save", quote("PRICEY", "12.00", "no"));
  await call(page, "/api/quotes/save", quote("CHEAP-BUT-BILLS-STOPPED", "9.00", "yes"));

  await page.getByRole("link", { name: "Costs", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Total cost of ownership");
  await hydrated(page);
  const form = page.getByTestId("tco-form");
  await form.locator('input[name="setup_h"]').fill("0");
  await form.locator('input[name="rerun_pct"]').fill("0");
  await page.getByTestId("tco-compare").click();
  await page.waitForURL(/\/tco\?/);
  const rows = page.getByTestId("tco-row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText("CHEAP-BUT-BILLS-STOPPED");
  await expect(rows.nth(0)).toContainText("¥90.00");
  await expect(rows.nth(1)).toContainText("STEADY");
  await expect(rows.nth(2)).toContainText("PRICEY");
  // No run measures these quotes: they are all in the "estimated, not measured" group.
  await expect(page.getByTestId("tco-estimated-group")).toContainText("Estimated, not measured");
  await expect(page.getByTestId("tco-to-measure").first()).toContainText("10–30 minutes");
  // "Time to finish" says what it counts, and that the plan adds the vendor's lead time.
  await expect(page.locator('th abbr[title^="From when the nodes are ready"]').first()).toHaveText("Time to finish");

  // Ten hours shut down but not released: the cheap sheet keeps billing compute.
  await page.getByTestId("tco-form").locator('input[name="stopped_h"]').fill("10");
  await page.getByTestId("tco-compare").click();
  await expect(rows.nth(0)).toContainText("STEADY");
  await expect(rows.nth(0)).toContainText("¥100.00");
  await expect(rows.nth(2)).toContainText("CHEAP-BUT-BILLS-STOPPED");
  await expect(rows.nth(2)).toContainText("¥180.00");

  for (const id of ["chart-stack", "chart-hours", "chart-nodes"]) {
    const chart = page.getByTestId(id);
    await expect(chart).toBeVisible();
    await expect.poll(() => chart.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }

  // A bad assumption is named and nothing is computed from it.
  await page.getByTestId("tco-form").locator('input[name="idle_h"]').fill("-2");
  await page.getByTestId("tco-compare").click();
  await expect(page.getByText("Must not be negative.")).toBeVisible();
  await expect(rows).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test("procurement orders the quote the cost page shows in one click and lands on the draft order", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await createTeam(page, "Cost Order Desk", [["tess@example.com", "procurement"], ["tomas@example.com", "engineer"]]);
  await signIn(page, "tess@example.com");
  const workload = await call(page, "/api/workloads/create", {
    name: "Order batch", kind: "batch", model: "", precision: "", vram_peak_gib: "20", vram_peak_source: "estimated",
    concurrency: "1", gpus_needed: "1", run_hours: "10", total_work_amount: "", total_work_unit: "", data_gb: "0", checkpoint_gb: "0", headroom_pct: "20",
  });
  await call(page, "/api/quotes/save", quote("ORDER-STEADY", "10.00", "no"));
  await call(page, "/api/quotes/save", quote("ORDER-PRICEY", "12.00", "no"));

  await open(page, `/tco?workload=${workload}&setup_h=0&rerun_pct=0`);
  await expect(page.getByTestId("tco-row")).toHaveCount(2);
  const section = page.getByTestId("tco-order-this");
  await expect(section.getByTestId("tco-order-what")).toContainText("Creates a draft order for Order batch");
  await expect(section.getByTestId("tco-order-quote").locator("option:checked")).toContainText("ORDER-STEADY");
  await section.getByTestId("tco-order-this-button").click();

  await page.waitForURL(/\/orders\/\d+\?made=created/);
  await hydrated(page);
  await expect(page.getByTestId("order-made")).toContainText("Created this draft order from the cost comparison");
  await expect(page.getByTestId("order-chosen")).toContainText("ORDER-STEADY");
  await expect(page.getByTestId("order-considered")).toContainText("ORDER-STEADY");
  await expect(page.getByTestId("order-considered")).toContainText("ORDER-PRICEY");
  // The comparison goes with it, assumptions included.
  await expect(page.getByTestId("order-comparison-open")).toHaveAttribute("href", /setup_h=0/);
  const order = page.url().match(/\/orders\/(\d+)/)![1];

  // Again with the other quote: the same draft is updated, and the page says so beforehand.
  await open(page, `/tco?workload=${workload}&setup_h=0&rerun_pct=0`);
  await expect(section.getByTestId("tco-order-what")).toContainText("Updates the team's draft order");
  const pricey = section.getByTestId("tco-order-quote").locator("option", { hasText: "ORDER-PRICEY" });
  await section.getByTestId("tco-order-quote").selectOption(await pricey.getAttribute("value"));
  await section.getByTestId("tco-order-this-button").click();
  await page.waitForURL(new RegExp(`/orders/${order}\\?made=updated`));
  await hydrated(page);
  await expect(page.getByTestId("order-made")).toContainText("no new order was created");
  await expect(page.getByTestId("order-chosen")).toContainText("ORDER-PRICEY");

  // An engineer may not order: the cost page does not offer it.
  await signOut(page);
  await signIn(page, "tomas@example.com");
  await open(page, `/tco?workload=${workload}&setup_h=0&rerun_pct=0`);
  await expect(page.getByTestId("tco-row")).toHaveCount(2);
  await expect(page.getByTestId("tco-order-this")).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});
