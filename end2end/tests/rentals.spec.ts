import { expect, test } from "@playwright/test";
import { PASSWORD, hydrated, open, signIn, signOut, watchConsole } from "./helpers";
import { answerMine, call, createTeam, saveQuote } from "./api";

/** `hours` ago (UTC), as a datetime-local field takes it: YYYY-MM-DDTHH:MM. */
function ago(hours: number) {
  return new Date(Date.now() - hours * 3_600_000).toISOString().slice(0, 16);
}

test("a rental is recorded on an approved order, stopped, listed overdue on the dashboard, released and printed", async ({ page }) => {
  test.setTimeout(180_000);
  const consoleErrors = watchConsole(page);
  await createTeam(page, "Rent Desk", [["rita@example.com", "procurement"], ["ravi@example.com", "engineer"], ["rosa@example.com", "manager"]]);

  // An approved order: a 20 h batch workload on an L4 at 4.00/h with 300 GB of disk at
  // 0.30/GB-month and an IP at 0.05/h (frozen time to finish: 1 h setup + 20 h × 1.1 = 23 h).
  await signIn(page, "rita@example.com");
  const workload = await call(page, "/api/workloads/create", {
    name: "Rent encode", kind: "batch", model: "", precision: "", vram_peak_gib: "16", vram_peak_source: "measured",
    concurrency: "1", gpus_needed: "1", run_hours: "20", total_work_amount: "", total_work_unit: "", data_gb: "0", checkpoint_gb: "0", headroom_pct: "20",
  });
  const quote = await saveQuote(page, {
    vendor: "Rent Cloud", reference: "L4-RENT", received_on: "2026-11-20", valid_until: "2099-12-31", "spec.gpu_model": "L4 24GB",
    "spec.gpus_per_node": "1", "spec.vram_gib": "24", "spec.sharing": "exclusive", "spec.system_disk_gb": "100", "spec.data_disk_gb": "200",
    currency: "CNY", "price.basis": "per_node", "price.on_demand_hourly": "4.00", "price.billing_increment": "hour",
    "price.stopped_bills_compute": "no", "price.disk_price_gb_month": "0.30", "price.public_ip_hourly": "0.05",
  });
  const order = Number(await call(page, "/api/orders/create", { title: "Rent order", workload_id: String(workload) }));
  await call(page, "/api/orders/select", { order_id: String(order), quote_id: String(quote), waiver: "Same node type benchmarked last month." });
  await answerMine(page, order);
  await open(page, `/orders/${order}`);
  await expect(page.getByTestId("rental")).toHaveCount(0);
  await signOut(page);
  await signIn(page, "ravi@example.com");
  await answerMine(page, order);
  await signOut(page);
  await signIn(page, "rita@example.com");
  await call(page, "/api/orders/submit", { order_id: String(order) });
  await signOut(page);
  await signIn(page, "rosa@example.com");
  await call(page, "/api/orders/decide", { order_id: String(order), decision: "approve", password: PASSWORD, comment: "Go." });
  // The manager sees that no rental is recorded, and has no form to record one.
  await open(page, `/orders/${order}`);
  await expect(page.getByTestId("rental-none")).toBeVisible();
  await expect(page.getByTestId("rental-record-form")).toHaveCount(0);
  await signOut(page);

  // The engineer records the rental, started three days ago: running, 49 h past its planned end.
  await signIn(page, "ravi@example.com");
  await open(page, `/orders/${order}`);
  const rental = page.getByTestId("rental");
  await expect(rental).toContainText("planned end will be the start plus the frozen estimate's time to finish: 23 h");
  const record = page.getByTestId("rental-record-form");
  await page.getByTestId("rental-started-at").fill(ago(72));
  await page.getByTestId("rental-resources-input").fill("i-rent-1\nvol rent");
  await page.getByTestId("rental-record").click();
  await expect(record.locator('[data-field="resources"]')).toHaveText("Line 2: one id per line, without spaces inside.");
  await page.getByTestId("rental-resources-input").fill("i-rent-1\nvol-rent-1");
  await page.getByTestId("rental-record").click();
  await expect(page.getByTestId("rental-state")).toHaveText("Running");
  await hydrated(page);
  await expect(page.getByTestId("rental-resources")).toHaveText("i-rent-1vol-rent-1");
  await expect(page.getByTestId("rental-per-day")).toHaveText("¥100.20");
  await expect(page.getByTestId("rental-overdue")).toHaveText(/^4[89] h past its planned end$/);

  // Stopped 30 hours ago: stopped but not released, the disks and the IP still bill.
  await page.getByTestId("rental-stopped-at").fill(ago(30));
  await page.getByTestId("rental-stop").click();
  // One badge says it once: the state and how long, not the state and then the same words again.
  await expect(page.getByTestId("rental-overdue")).toHaveText(/^Stopped (30|29) h ago, not released$/);
  await expect(page.getByTestId("rental-state")).toHaveCount(0);
  await hydrated(page);
  await expect(page.getByTestId("rental-per-day")).toHaveText("¥4.20");

  // The dashboard lists it, with what it costs per day, linking to the order.
  await open(page, "/");
  const overdue = page.getByTestId("dashboard-overdue-rentals").getByTestId("overdue-rental");
  await expect(overdue).toHaveCount(1);
  await expect(overdue).toContainText(/Rent order · Stopped (30|29) h ago, not released · ¥4.20 a day/);
  await overdue.getByRole("link", { name: "Rent order" }).click();
  await page.waitForURL(`**/orders/${order}`);
  await hydrated(page);

  // Released with the actual hours (a negative one is refused at its field).
  const release = page.getByTestId("rental-release-form");
  await page.getByTestId("rental-setup_hours").fill("-1");
  await page.getByTestId("rental-data_prep_hours").fill("1");
  // No re-runs: the field may stay empty (0).
  await expect(page.getByTestId("rental-rerun_hours")).not.toHaveAttribute("required", /.*/);
  await page.getByTestId("rental-release").click();
  await expect(release.locator('[data-field="setup_hours"]')).toHaveText("Must not be negative.");
  await page.getByTestId("rental-setup_hours").fill("3");
  await page.getByTestId("rental-release").click();
  await expect(page.getByTestId("rental-state")).toHaveText("Released");
  await hydrated(page);
  await expect(page.getByTestId("rental-actuals")).toHaveText("setup 3 h, data preparation 1 h, re-runs 0 h");
  await expect(page.getByTestId("rental-per-day")).toHaveText("¥0.00");
  await expect(page.getByTestId("order-history")).toContainText("Rental released");

  // The printed record carries the rental; the export has it too.
  await page.emulateMedia({ media: "print" });
  await expect(rental).toBeVisible();
  await expect(page.getByTestId("rental-released")).toBeVisible();
  await page.emulateMedia({ media: "screen" });
  const exported = await (await page.request.get(`/orders/${order}/export.json`)).json();
  expect(exported.rental.resources).toEqual(["i-rent-1", "vol-rent-1"]);
  expect(exported.rental.setup_hours).toBe("3");
  await open(page, "/");
  await expect(page.getByTestId("dashboard-overdue-rentals")).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});
