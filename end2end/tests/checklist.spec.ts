import { expect, Page, test } from "@playwright/test";
import { PASSWORD, open, signIn, signOut, watchConsole } from "./helpers";
import { call, answerMine, createTeam } from "./api";

test.describe.configure({ mode: "serial" });

/** The item `id`'s list entry on the order page. */
const item = (page: Page, id: string) => page.locator(`[id="item-${id}"]`);

test("a checklist item saves in place, the next open item is one key away, and a problem found reaches the manager first", async ({ page }) => {
  test.slow();
  const consoleErrors = watchConsole(page);
  await createTeam(page, "Checklist Desk", [["cara@example.com", "procurement"], ["cole@example.com", "engineer"], ["cleo@example.com", "manager"]]);

  // Procurement: a workload, a quote, an order choosing it with a waiver, its own items answered.
  await signIn(page, "cara@example.com");
  const workload = await call(page, "/api/workloads/create", {
    name: "Checklist batch", kind: "batch", model: "", precision: "", vram_peak_gib: "16", vram_peak_source: "measured",
    concurrency: "1", gpus_needed: "1", run_hours: "10", total_work_amount: "", total_work_unit: "", data_gb: "0", checkpoint_gb: "0", headroom_pct: "20",
  });
  const quote = new URLSearchParams({ quote_id: "" });
  for (const [k, v] of Object.entries({
    vendor: "List Cloud", reference: "L4-LIST", received_on: "2026-11-20", valid_until: "2099-12-31", "spec.gpu_model": "L4 24GB",
    "spec.gpus_per_node": "1", "spec.vram_gib": "24", "spec.sharing": "exclusive", currency: "CNY", "price.basis": "per_node",
    "price.on_demand_hourly": "4.00", "price.billing_increment": "hour", "price.stopped_bills_compute": "no",
  })) quote.append(`fields[${k}]`, v);
  const quoteId = String((await call(page, "/api/quotes/save", quote)).quote_id);
  const order = Number(await call(page, "/api/orders/create", { title: "Checklist order", workload_id: String(workload) }));
  const select = new URLSearchParams({ order_id: String(order), quote_id: quoteId, waiver: "Benchmarked last month; report on file." });
  select.append("considered[]", quoteId);
  await call(page, "/api/orders/select", select);
  await answerMine(page, order, []);
  await signOut(page);

  // The engineer saves the last item of the page: no navigation, same scroll, focus stays.
  await signIn(page, "cole@example.com");
  await open(page, `/orders/${order}`);
  await expect(page.getByTestId("next-open-hint")).toContainText("press N");
  // The last of the engineer's items that a note can prove.
  const view = await call(page, "/api/orders/get", { id: String(order) });
  const mine = view.sections.flatMap((s: { items: { id: string; can_answer: boolean; evidence_needed: string[] }[] }) => s.items)
    .filter((i: { can_answer: boolean; evidence_needed: string[] }) => i.can_answer && (i.evidence_needed.length === 0 || i.evidence_needed.includes("note")));
  const lastId: string = mine[mine.length - 1].id;
  const last = page.getByTestId(`answer-${lastId}`);
  const url = page.url();
  await page.evaluate(() => { (window as unknown as { stayed: boolean }).stayed = true; });
  await last.locator('select[name="status"]').selectOption("confirmed");
  await last.locator('input[name="answer"]').fill("Checked on the trial node");
  await last.locator('input[name="evidence_note"]').fill("nvidia-smi output on file");
  const save = last.locator('button[type="submit"]');
  await save.scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(1000);
  await save.click();
  await expect(item(page, lastId).getByTestId("item-status")).toHaveText("Confirmed");
  await expect(last.getByTestId("item-saved")).toHaveText("Saved.");
  await expect(item(page, lastId).getByTestId("item-answer")).toContainText("Checked on the trial node");
  await expect(item(page, lastId).getByTestId("item-answered")).toContainText("cole");
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  expect(page.url()).toBe(url);
  // The page stays where it was (the browser may shift it by the height of the shorter blocker
  // list above, to keep the item still on screen): no jump to the top, the button still in view.
  expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled), "no jump").toBeLessThan(200);
  await expect(save).toBeInViewport();
  await expect(save).toBeFocused();
  await expect(item(page, lastId)).toHaveAttribute("data-open", "false");

  // N moves to the next open item (wrapping to the first), again to the one after; not while typing.
  const openItems = page.locator('[data-testid="checklist-item"][data-open="true"]');
  expect(await openItems.count()).toBeGreaterThan(2);
  await page.keyboard.press("n");
  await expect(openItems.nth(0)).toBeFocused();
  await page.keyboard.press("n");
  await expect(openItems.nth(1)).toBeFocused();
  const typing = openItems.nth(1).locator('input[name="answer"]');
  await typing.focus();
  await page.keyboard.press("n");
  await expect(typing).toBeFocused();
  await expect(typing).toHaveValue("n");
  await typing.fill("");

  // Not applicable without a reason is refused at the item: the message is at the reason field.
  const naId = ((await openItems.nth(0).getAttribute("id")) ?? "").replace("item-", "");
  const na = page.getByTestId(`answer-${naId}`);
  await na.locator('select[name="status"]').selectOption("not_applicable");
  await na.locator('button[type="submit"]').click();
  const reasonError = na.locator('[data-field="status_note"]');
  await expect(reasonError).toHaveText("Give the reason why this item does not apply. Nothing was saved.");
  await expect(na.locator('input[name="status_note"]')).toHaveAttribute("aria-invalid", "true");
  await expect(item(page, naId).getByTestId("item-status")).toHaveText("Open");
  await expect(page.getByText("see the messages next to them")).toHaveCount(0);
  await na.locator('input[name="status_note"]').fill("Single node: no GPU interconnect");
  await na.locator('button[type="submit"]').click();
  await expect(item(page, naId).getByTestId("item-status")).toHaveText("Not applicable");
  await expect(reasonError).toHaveCount(0);

  // A problem found needs its explanation; explained, it is listed at the top of the page.
  const problemId = ((await openItems.nth(0).getAttribute("id")) ?? "").replace("item-", "");
  const problem = page.getByTestId(`answer-${problemId}`);
  await problem.locator('select[name="status"]').selectOption("problem");
  await problem.locator('button[type="submit"]').click();
  await expect(problem.locator('[data-field="status_note"]')).toContainText("Explain the problem");
  await expect(page.getByTestId("order-problems")).toHaveCount(0);
  await problem.locator('input[name="status_note"]').fill("Driver 470 only; CUDA 12 needs 525 or later");
  await problem.locator('button[type="submit"]').click();
  await expect(item(page, problemId).getByTestId("item-status")).toHaveText("Problem found");
  await expect(page.getByTestId("order-problems")).toContainText("Driver 470 only");
  await answerMine(page, order, [lastId, naId, problemId]);
  await signOut(page);

  // Procurement submits: only with the problem acknowledged, refused at the acknowledgement.
  await signIn(page, "cara@example.com");
  await open(page, `/orders/${order}`);
  await expect(page.getByTestId("order-blockers")).toHaveCount(0);
  await expect(page.getByTestId("order-problem")).toHaveCount(1);
  const submit = page.getByTestId("submit-form");
  await submit.locator('button[type="submit"]').click();
  await expect(submit.locator('[data-field="acknowledge_problems"]')).toContainText("Tick the acknowledgement");
  await expect(page.getByTestId("order-state")).toHaveText("Draft");
  await submit.getByTestId("acknowledge-problems").check();
  await submit.locator('button[type="submit"]').click();
  await expect(page.getByTestId("order-state")).toHaveText("Waiting for sign-off");
  await signOut(page);

  // The manager's review lists the problem first, with who acknowledged it.
  await signIn(page, "cleo@example.com");
  await open(page, `/orders/${order}`);
  const problems = page.getByTestId("order-problems");
  await expect(problems.getByTestId("order-problem-note")).toHaveText("Driver 470 only; CUDA 12 needs 525 or later");
  await expect(page.getByTestId("order-problems-acknowledged")).toContainText("Acknowledged by cara");
  const top = async (testId: string) => (await page.getByTestId(testId).boundingBox())?.y ?? Infinity;
  expect(await top("order-problems")).toBeLessThan(await top("order-selection"));
  expect(await top("order-selection")).toBeLessThan(await top("order-checklist"));

  // A rejection without a comment: the message is next to the comment field.
  const decide = page.getByTestId("decide-form");
  await decide.locator('input[name="decision"][value="reject"]').check();
  await decide.locator('input[name="password"]').fill(PASSWORD);
  await decide.locator('button[type="submit"]').click();
  await expect(decide.locator('[data-field="comment"]')).toHaveText("A rejection needs a comment: say what must change before it can be approved.");
  await expect(decide.locator('textarea[name="comment"]')).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("see the messages next to them")).toHaveCount(0);
  await expect(page.getByTestId("order-state")).toHaveText("Waiting for sign-off");
  await decide.locator('textarea[name="comment"]').fill("Upgrade the driver first.");
  await decide.locator('input[name="password"]').fill(PASSWORD);
  await decide.locator('button[type="submit"]').click();
  await expect(page.getByTestId("order-state")).toHaveText("Rejected");
  expect(consoleErrors).toEqual([]);
});
