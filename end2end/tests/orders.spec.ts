import { expect, Page, test } from "@playwright/test";
import { PASSWORD, hydrated, open, signIn, signOut, watchConsole } from "./helpers";
import { call, answerMine, saveQuote, createTeam } from "./api";

test.describe.configure({ mode: "serial" });

/** The totals of a cost table by quote id: `rows` are table rows, `id` reads a row's quote. */
async function totalsByQuote(page: Page, rowTestId: string, totalTestId: string, id: (row: import("@playwright/test").Locator) => Promise<string>) {
  const rows = page.getByTestId(rowTestId);
  const out: Record<string, string> = {};
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    out[await id(row)] = ((await row.getByTestId(totalTestId).textContent()) ?? "").trim();
  }
  return out;
}

test("engineer and procurement complete the checklist, the manager approves with password, a change reopens review", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await createTeam(page, "Order Desk", [["olga@example.com", "procurement"], ["enzo@example.com", "engineer"], ["mona@example.com", "manager"]]);

  // Procurement: a workload, a quote, and an order for it.
  await signIn(page, "olga@example.com");
  await call(page, "/api/workloads/create", {
    name: "Render farm", kind: "batch", model: "", precision: "", vram_peak_gib: "16", vram_peak_source: "measured",
    concurrency: "1", gpus_needed: "1", run_hours: "20", total_work_amount: "", total_work_unit: "", data_gb: "0", checkpoint_gb: "0", headroom_pct: "20",
  });
  const quote: Record<string, string> = { quote_id: "" };
  for (const [k, v] of Object.entries({
    vendor: "Order Cloud", reference: "L4-ORDER", received_on: "2026-11-20", valid_until: "2099-12-31", "spec.gpu_model": "L4 24GB",
    "spec.gpus_per_node": "1", "spec.vram_gib": "24", "spec.sharing": "exclusive", currency: "CNY", "price.basis": "per_node",
    "price.on_demand_hourly": "4.00", "price.billing_increment": "hour", "price.stopped_bills_compute": "no",
  })) quote[`fields[${k}]`] = v;
  await call(page, "/api/quotes/save", quote);

  await page.getByRole("link", { name: "Orders", exact: true }).click();
  await hydrated(page);
  const form = page.getByTestId("order-form");
  await form.locator('input[name="title"]').fill("L4 for the render farm");
  await form.locator('button[type="submit"]').click();
  await page.waitForURL(/\/orders\/\d+$/);
  await hydrated(page);
  const order = Number(page.url().split("/").pop());
  await expect(page.getByTestId("order-state")).toHaveText("Draft");
  await expect(page.getByTestId("order-blockers")).toContainText("Choose the quote to rent.");
  // The order's number beside its title; a new draft lists the first few things to do with
  // their count, the rest folded away.
  await expect(page.getByTestId("order-number")).toHaveText(`#${order}`);
  const blockers = page.getByTestId("order-blockers");
  const toDo = Number((await blockers.getByTestId("order-blockers-count").innerText()).match(/\d+/)![0]);
  expect(toDo).toBeGreaterThan(5);
  await expect(blockers.locator(":scope > ul > li")).toHaveCount(5);
  await expect(blockers.getByTestId("order-blockers-more").locator("summary")).toHaveText(`The other ${toDo - 5}`);

  const selection = page.getByTestId("selection-form");
  await selection.locator('select[name="quote_id"]').selectOption({ label: "Order Cloud · L4-ORDER · 1× L4 24GB" });
  await selection.locator('textarea[name="waiver"]').fill("Same node type benchmarked last month; report on file.");
  await selection.locator('button[type="submit"]').click();
  await expect(page.getByTestId("order-chosen")).toContainText("L4-ORDER");
  // Saved: the page opens again at the selection, not at the top.
  await expect(page).toHaveURL(/#order-selection$/);
  await hydrated(page);
  await expect(page.getByTestId("order-selection")).toBeInViewport();

  // Procurement answers its items (one through the page), then the engineer answers theirs.
  const { view } = await answerMine(page, order, []);
  expect(view.can_submit).toBe(true);
  await signOut(page);
  await signIn(page, "enzo@example.com");
  await open(page, `/orders/${order}`);
  const mine = page.locator('[data-testid^="answer-"]');
  const first = mine.first();
  const firstId = ((await first.getAttribute("data-testid")) ?? "").replace("answer-", "");
  await answerMine(page, order, [firstId]);
  await open(page, `/orders/${order}`);
  const itemForm = page.getByTestId(`answer-${firstId}`);
  await itemForm.locator('select[name="status"]').selectOption("confirmed");
  await itemForm.locator('input[name="answer"]').fill("Verified on the trial node");
  await itemForm.locator('input[name="evidence_note"]').fill("nvidia-smi on the trial node");
  const before = page.url();
  await itemForm.locator('button[type="submit"]').click();
  await expect(page.locator(`[id="item-${firstId}"] [data-testid="item-status"]`)).toHaveText("Confirmed");
  await expect(itemForm.getByTestId("item-saved")).toHaveText("Saved.");
  expect(page.url(), "saved in place").toBe(before);
  await signOut(page);

  // Procurement submits.
  await signIn(page, "olga@example.com");
  await open(page, `/orders/${order}`);
  await expect(page.getByTestId("order-blockers")).toHaveCount(0);
  await page.getByTestId("submit-form").locator('button[type="submit"]').click();
  await expect(page.getByTestId("order-state")).toHaveText("Waiting for sign-off");
  await signOut(page);

  // The manager reviews everything on one page and approves with the password.
  await signIn(page, "mona@example.com");
  await open(page, `/orders/${order}`);
  await expect(page.getByTestId("order-tco")).toContainText("L4-ORDER");
  await expect(page.getByTestId("order-checklist")).toContainText("Verified on the trial node");
  // The sign-off form is near the top, and nothing is decided for the manager.
  await expect(page.getByTestId("order-waits-for")).toHaveText("The manager's sign-off");
  const decide = page.getByTestId("decide-form");
  await expect(decide.locator('input[name="decision"]:checked')).toHaveCount(0);
  await decide.locator('input[name="password"]').fill(PASSWORD);
  await decide.locator('button[type="submit"]').click();
  await expect(decide.locator('[data-field="decision"]')).toHaveText("Choose approve or reject.");
  await expect(decide.getByRole("radiogroup")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("order-state")).toHaveText("Waiting for sign-off");
  await decide.locator('input[name="decision"][value="approve"]').check();
  await decide.locator('input[name="password"]').fill("wrong password entirely");
  await decide.locator('button[type="submit"]').click();
  await expect(page.getByText("The password is wrong.")).toBeVisible();
  await decide.locator('textarea[name="comment"]').fill("Cheapest that passes; waiver accepted.");
  await decide.locator('input[name="password"]').fill(PASSWORD);
  await decide.locator('button[type="submit"]').click();
  await expect(page.getByTestId("order-state")).toHaveText("Approved");
  await expect(page.getByTestId("chain-status")).toContainText("Audit chain verified");
  const head = (await page.getByTestId("head-hash").textContent()) ?? "";
  expect(head).toMatch(/^[0-9a-f]{64}$/);

  // The printable record keeps the hashes and drops the forms.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByTestId("head-hash")).toBeVisible();
  await expect(page.getByTestId("content-hash")).toBeVisible();
  await expect(page.getByTestId("order-actions")).toBeHidden();
  await page.emulateMedia({ media: "screen" });
  await signOut(page);

  // A later change reopens review as revision 2; revision 1 stays approved.
  await signIn(page, "olga@example.com");
  await open(page, `/orders/${order}`);
  await page.getByTestId("reopen-form").locator('button[type="submit"]').click();
  await expect(page.getByTestId("order-state")).toHaveText("Draft");
  await expect(page.getByRole("link", { name: "Revision 1 (Approved)" })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test("the comparison procurement set on the cost page, with a per-quote override, is what the manager signs", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await createTeam(page, "Signed Comparison", [["petra@example.com", "procurement"], ["emil@example.com", "engineer"], ["mara@example.com", "manager"]]);

  // Procurement: a workload, two quotes, an order considering both.
  await signIn(page, "petra@example.com");
  const workload = await call(page, "/api/workloads/create", {
    name: "Nightly encode", kind: "batch", model: "", precision: "", vram_peak_gib: "16", vram_peak_source: "measured",
    concurrency: "1", gpus_needed: "1", run_hours: "30", total_work_amount: "", total_work_unit: "", data_gb: "0", checkpoint_gb: "0", headroom_pct: "20",
  });
  const base = {
    received_on: "2026-11-20", valid_until: "2099-12-31", "spec.gpu_model": "L4 24GB", "spec.gpus_per_node": "1", "spec.vram_gib": "24",
    "spec.sharing": "exclusive", currency: "CNY", "price.basis": "per_node", "price.billing_increment": "hour", "price.stopped_bills_compute": "no",
  };
  const a = await saveQuote(page, { ...base, vendor: "Alpha Cloud", reference: "L4-A", "price.on_demand_hourly": "4.00" });
  const b = await saveQuote(page, { ...base, vendor: "Beta Cloud", reference: "L4-B", "price.on_demand_hourly": "4.50" });
  const order = Number(await call(page, "/api/orders/create", { title: "Encode nodes", workload_id: String(workload) }));
  const select = new URLSearchParams({ order_id: String(order), quote_id: String(a), waiver: "Same node type benchmarked last quarter; report on file." });
  select.append("considered[]", String(a));
  select.append("considered[]", String(b));
  const origin = new URL(page.url()).origin;
  const selected = await page.request.post("/api/orders/select", {
    data: select.toString(), headers: { Origin: origin, Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
  });
  expect(selected.status(), await selected.text()).toBe(200);

  // The default comparison first, as the order page shows it.
  await open(page, `/orders/${order}`);
  const byQuote = (row: import("@playwright/test").Locator) => row.getAttribute("data-quote").then((q) => q ?? "");
  const before = await totalsByQuote(page, "order-tco-row", "order-tco-total", byQuote);
  expect(Object.keys(before).sort()).toEqual([String(a), String(b)].sort());

  // On the cost page: 6 h of setup for quote A only, through the page's override fields.
  await open(page, `/tco?workload=${workload}&picked=1&q=${a}&q=${b}`);
  await page.getByTestId("tco-overrides").locator("summary").click();
  await page.locator(`input[name="setup_h_${a}"]`).fill("6");
  await page.getByTestId("tco-compare").click();
  await page.waitForURL((url) => url.searchParams.get(`setup_h_${a}`) === "6");
  await hydrated(page);
  await expect(page.getByTestId("tco-row")).toHaveCount(2);
  const comparisonUrl = page.url();
  const onCostPage = await totalsByQuote(page, "tco-row", "tco-total", async (row) => {
    const href = (await row.locator('a[href^="/quotes/"]').first().getAttribute("href")) ?? "";
    return href.replace("/quotes/", "");
  });
  expect(onCostPage[String(b)]).toBe(before[String(b)]);
  expect(onCostPage[String(a)]).not.toBe(before[String(a)]);

  // Use this comparison for the order: paste the cost page's address.
  await open(page, `/orders/${order}`);
  const comparisonForm = page.getByTestId("comparison-form");
  await comparisonForm.locator('input[name="link"]').fill(comparisonUrl);
  await comparisonForm.locator('button[type="submit"]').click();
  await expect(page.getByTestId("order-comparison")).toContainText("Comparison chosen by procurement");
  expect(await totalsByQuote(page, "order-tco-row", "order-tco-total", byQuote)).toEqual(onCostPage);

  // The checklist, then submission.
  await answerMine(page, order, []);
  await signOut(page);
  await signIn(page, "emil@example.com");
  await answerMine(page, order, []);
  await signOut(page);
  await signIn(page, "petra@example.com");
  await open(page, `/orders/${order}`);
  await expect(page.getByTestId("order-blockers")).toHaveCount(0);
  await page.getByTestId("submit-form").locator('button[type="submit"]').click();
  await expect(page.getByTestId("order-state")).toHaveText("Waiting for sign-off");
  await signOut(page);

  // The manager's review page shows the totals the comparison page showed, frozen.
  await signIn(page, "mara@example.com");
  await open(page, `/orders/${order}`);
  await expect(page.getByTestId("order-comparison")).toContainText("Frozen at submission");
  expect(await totalsByQuote(page, "order-tco-row", "order-tco-total", byQuote)).toEqual(onCostPage);
  const scenario = await page.request.get((await page.getByTestId("order-scenario").getAttribute("href")) ?? "");
  expect(scenario.status()).toBe(200);
  const frozen = await scenario.json();
  const overridden = frozen.quotes.find((q: { id: string }) => q.id === String(a));
  expect(overridden.assumption_overrides?.setup_h ?? frozen.assumptions.setup_h).toBe("6");
  expect(consoleErrors).toEqual([]);
});
