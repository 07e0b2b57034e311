import { expect, Page, test } from "@playwright/test";
import { ADMIN, PASSWORD, ensureAdmin, hydrated, open, signIn, signOut, watchConsole } from "./helpers";
import { call, answerMine, saveQuote, createTeam } from "./api";

test.describe.configure({ mode: "serial" });

/** `days` days from today (UTC), as YYYY-MM-DD. */
function inDays(days: number) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** The dashboard count labelled `label`. */
function count(page: Page, label: string) {
  return page.getByTestId("dashboard-counts").locator("li", { has: page.getByText(label, { exact: true }) }).getByTestId("count-value");
}

test("each role's dashboard and the header badge show what waits for them, and follow the team's work", async ({ page }) => {
  // Three people answer a whole checklist through the API: longer than one page's default.
  test.setTimeout(180_000);
  const consoleErrors = watchConsole(page);
  await createTeam(page, "Dash Desk", [["dora@example.com", "procurement"], ["erik@example.com", "engineer"], ["mila@example.com", "manager"]]);

  // Procurement: before anything exists, the dashboard says honestly that nothing waits.
  await signIn(page, "dora@example.com");
  await expect(page.getByTestId("dashboard-todo")).toContainText("Nothing waits for you.");
  await expect(count(page, "Current quotes")).toHaveText("0");
  await expect(page.getByTestId("notify-count")).toHaveText("0");

  // A workload, a quote that lasts, one that expires in 5 days, and an order.
  const workload = await call(page, "/api/workloads/create", {
    name: "Dash encode", kind: "batch", model: "", precision: "", vram_peak_gib: "16", vram_peak_source: "measured",
    concurrency: "1", gpus_needed: "1", run_hours: "20", total_work_amount: "", total_work_unit: "", data_gb: "0", checkpoint_gb: "0", headroom_pct: "20",
  });
  const base = {
    received_on: inDays(0), "spec.gpu_model": "L4 24GB", "spec.gpus_per_node": "1", "spec.vram_gib": "24", "spec.sharing": "exclusive",
    currency: "CNY", "price.basis": "per_node", "price.on_demand_hourly": "4.00", "price.billing_increment": "hour", "price.stopped_bills_compute": "no",
  };
  const lasting = await saveQuote(page, { ...base, vendor: "Long Cloud", reference: "L4-LONG", valid_until: "2099-12-31" });
  const soon = await saveQuote(page, { ...base, vendor: "Short Cloud", reference: "L4-SHORT", valid_until: inDays(5) });
  const order = Number(await call(page, "/api/orders/create", { title: "Dash order", workload_id: String(workload) }));

  await open(page, "/");
  await expect(count(page, "Current quotes")).toHaveText("2");
  await expect(count(page, "Orders in draft")).toHaveText("1");
  const todo = page.getByTestId("dashboard-todo").getByTestId("todo-entry");
  await expect(todo).toHaveCount(2);
  await expect(todo.nth(0)).toContainText("Dash order (draft): ");
  await expect(todo.nth(0)).toContainText("no quote chosen");
  await expect(todo.nth(1)).toHaveText(`Short Cloud · 1× L4 24GB: valid until ${inDays(5)}, 5 days left`);
  await expect(todo.nth(1).locator("a")).toHaveAttribute("href", `/quotes/${soon}`);
  await expect(page.getByTestId("notify-count")).toHaveText("2");
  // Each entry leads to its place.
  await todo.nth(0).locator("a").click();
  await page.waitForURL(`**/orders/${order}`);
  await hydrated(page);

  // Procurement chooses the lasting quote with a waiver and answers its own items.
  await call(page, "/api/orders/select", { order_id: String(order), quote_id: String(lasting), waiver: "Same node type benchmarked last month." });
  await answerMine(page, order);
  await signOut(page);

  // The engineer: the order's items for engineers wait, and the one quote the order weighs lacks a
  // valid run (the quote no open order weighs asks nothing of engineers).
  await signIn(page, "erik@example.com");
  await expect(count(page, "Runs")).toHaveText("0");
  const erikTodo = page.getByTestId("dashboard-todo").getByTestId("todo-entry");
  await expect(erikTodo.first()).toContainText(/^Dash order: \d+ checklist items? for engineers unanswered$/);
  await expect(erikTodo.filter({ hasText: "no valid run yet" })).toHaveCount(1);
  await expect(erikTodo.filter({ hasText: "no valid run yet" })).toContainText("Long Cloud");
  await expect(page.getByTestId("notify-count")).toHaveText(String(await erikTodo.count()));
  await erikTodo.first().locator("a").click();
  await page.waitForURL(new RegExp(`/orders/${order}#item-`));
  await hydrated(page);
  await answerMine(page, order);
  await open(page, "/");
  await expect(page.getByTestId("dashboard-todo")).not.toContainText("Dash order");
  await signOut(page);

  // Procurement submits: the draft leaves its to-do.
  await signIn(page, "dora@example.com");
  await call(page, "/api/orders/submit", { order_id: String(order) });
  await open(page, "/");
  await expect(count(page, "Orders awaiting sign-off")).toHaveText("1");
  await expect(page.getByTestId("dashboard-todo")).not.toContainText("Dash order");
  await signOut(page);

  // The manager: the order waits with its age; the badge counts it and opens the list.
  await signIn(page, "mila@example.com");
  const milaTodo = page.getByTestId("dashboard-todo").getByTestId("todo-entry");
  await expect(milaTodo).toHaveCount(1);
  await expect(milaTodo.first()).toHaveText("Dash order (revision 1) submitted today");
  await expect(page.getByTestId("notify-count")).toHaveText("1");
  await expect(page.getByTestId("notify-panel")).toBeHidden();
  await page.getByTestId("notifications").locator("summary").click();
  const panel = page.getByTestId("notify-panel");
  await expect(panel).toBeVisible();
  await panel.getByRole("link", { name: "Dash order (revision 1) submitted today" }).click();
  await page.waitForURL(`**/orders/${order}`);
  await expect(page.getByTestId("notify-panel")).toBeHidden();
  await expect(page.getByTestId("notify-count")).toHaveText("1");

  // Signed off: after the next navigation the badge is empty and the decision is listed.
  await call(page, "/api/orders/decide", { order_id: String(order), decision: "approve", password: PASSWORD, comment: "Fine." });
  await page.getByRole("link", { name: "Dashboard", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await expect(page.getByTestId("notify-count")).toHaveText("0");
  await expect(page.getByTestId("dashboard-todo")).toContainText("Nothing waits for you.");
  await expect(page.getByTestId("dashboard-decisions").getByTestId("decision").first()).toHaveText(
    "Dash order (revision 1) approved by mila today",
  );
  expect(consoleErrors).toEqual([]);
});

test("the administrator's dashboard lists users without a team, linking to the user list", async ({ page }) => {
  await ensureAdmin(page);
  await signIn(page, ADMIN.email);
  const team = await call(page, "/api/admin/create_team", { name: "Dash Lone" });
  const user = await call(page, "/api/admin/create_user", {
    email: "lonely@example.com", display_name: "Lonely Lou", password: PASSWORD, password_confirm: PASSWORD, team_id: String(team), role: "engineer",
  });
  await call(page, "/api/admin/remove_member", { team_id: String(team), user_id: String(user) });
  await open(page, "/");
  const entry = page.getByTestId("dashboard-admin").getByTestId("todo-entry").filter({ hasText: "Lonely Lou" });
  await expect(entry).toHaveText("Lonely Lou (lonely@example.com) is in no team");
  await entry.locator("a").click();
  await page.waitForURL("**/admin/users");
});
