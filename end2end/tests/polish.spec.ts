import { expect, Page, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ADMIN, PASSWORD, ensureAdmin, open, signIn, signOut, watchConsole } from "./helpers";
import { call, saveQuote } from "./api";

// Numbers, labels and small things a reader meets on every page: money in minor units, labels
// instead of ids, times in the reader's zone, nothing wider than a phone.
test.describe.configure({ mode: "serial" });

const FIXTURES = path.join(__dirname, "../../app/domain/src/runs/fixtures");
/** An iPhone 12-sized viewport. */
const PHONE = { width: 390, height: 844 };
const TEAM = "Polish Desk";
const BUYER = "pia.polish@example.com";
const SECOND = "paul.polish@example.com";
const ENGINEER = "pete.polish@example.com";

/** Built by the first tests. */
const ids = { quote: 0, workload: 0, run: 0 };

/** The page does not scroll sideways; names the innermost elements that reach past the window. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const { scroll, client, wide } = await page.evaluate(() => {
    const wide = Array.from(document.querySelectorAll("body *"))
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((el) => !Array.from(el.children).some((c) => c.getBoundingClientRect().right > window.innerWidth + 1))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)} (${Math.round(el.getBoundingClientRect().right)} px)`);
    const root = document.scrollingElement as HTMLElement;
    return { scroll: root.scrollWidth, client: root.clientWidth, wide };
  });
  expect.soft(scroll, `${what}: page width ${scroll} in a ${client} px window; ${wide.join(", ")}`).toBeLessThanOrEqual(client);
}

/** Fills the create-user form's own fields (name, e-mail, password), leaving team and role. */
async function fillUser(page: Page, email: string) {
  const form = page.getByTestId("create-user-form");
  await form.locator('input[name="email"]').fill(email);
  await form.locator('input[name="display_name"]').fill(email.split("@")[0]);
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.locator('input[name="password_confirm"]').fill(PASSWORD);
}

test("the admin's create-user form keeps the team and role for the next person", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await ensureAdmin(page);
  await signIn(page, ADMIN.email);
  await call(page, "/api/admin/create_team", { name: TEAM });
  await open(page, "/admin/users");
  const form = page.getByTestId("create-user-form");
  const team = page.getByTestId("create-user-team");
  const role = page.getByTestId("create-user-role");

  await fillUser(page, BUYER);
  await team.selectOption({ label: TEAM });
  await role.selectOption("procurement");
  await form.locator('button[type="submit"]').click();
  await expect(page.getByTestId("user-created")).toContainText(BUYER);
  await expect(page.getByTestId("user-table")).toContainText(BUYER);
  // Cleared for the next person, but still in the same team and role.
  await expect(form.locator('input[name="email"]')).toHaveValue("");
  await expect(team.locator("option:checked")).toHaveText(TEAM);
  await expect(role).toHaveValue("procurement");

  await fillUser(page, SECOND);
  await form.locator('button[type="submit"]').click();
  await expect(page.getByTestId("user-table")).toContainText(SECOND);
  const second = page.getByTestId("user-table").locator("tr", { hasText: SECOND });
  await expect(second.getByTestId("user-teams")).toHaveText(`${TEAM} · Procurement`);

  await role.selectOption("engineer");
  await fillUser(page, ENGINEER);
  await form.locator('button[type="submit"]').click();
  const engineer = page.getByTestId("user-table").locator("tr", { hasText: ENGINEER });
  await expect(engineer.getByTestId("user-teams")).toHaveText(`${TEAM} · Engineer`);
  await expect(team.locator("option:checked")).toHaveText(TEAM);
  await expect(role).toHaveValue("engineer");
  expect(consoleErrors).toEqual([]);
  await signOut(page);
});

test("quotes, a workload and a run, typed the way people type them", async ({ page, request }) => {
  await signIn(page, BUYER);
  ids.workload = await call(page, "/api/workloads/create", {
    name: "Serve 7B", kind: "inference_service", model: "", precision: "", vram_peak_gib: "18 GiB", vram_peak_source: "measured",
    concurrency: "1", gpus_needed: "8", run_hours: "72", total_work_amount: "2,000,000,000", total_work_unit: "tokens",
    data_gb: "50", checkpoint_gb: "0", headroom_pct: "20",
  });
  const base = {
    received_on: "2026-11-20", valid_until: "2099-12-31", "spec.gpus_per_node": "8", "spec.sharing": "exclusive",
    "spec.region": "cn-north-1", currency: "CNY", "price.basis": "per_node", "price.billing_increment": "hour",
    "price.stopped_bills_compute": "no",
  };
  // "80 GiB" in a field labelled GiB is 80; 117.7936 a node-hour is ¥14.7242 a GPU-hour.
  ids.quote = await saveQuote(page, {
    ...base, vendor: "Zhisuan Cloud Computing", reference: "ZS-H800-8X-RESERVED-2026Q4-NORTH",
    "spec.gpu_model": "H800 80GB", "spec.vram_gib": "80 GiB", "price.on_demand_hourly": "117.7936",
  });
  await signOut(page);

  await signIn(page, ENGINEER);
  const token: string = await call(page, "/api/tokens/create", { name: "bench", password: PASSWORD });
  const res = await request.post("/api/v1/runs", {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      result: { name: "benchmark_serving.json", mimeType: "application/json", buffer: readFileSync(path.join(FIXTURES, "vllm_legacy.json")) },
      quote: String(ids.quote),
      workload: String(ids.workload),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  ids.run = Number(String((await res.json()).url).split("/").pop());

  // The token page's example names the team's own quote and workload.
  await open(page, "/account/tokens");
  const form = page.getByTestId("token-form");
  await form.locator('input[name="name"]').fill("nightly");
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.locator('button[type="submit"]').click();
  await expect(page.getByTestId("curl-example")).toContainText(`-F quote=${ids.quote} -F workload=${ids.workload}`);
  await signOut(page);
});

test.describe("in Beijing time", () => {
  test.use({ timezoneId: "Asia/Shanghai" });

  test("runs read with labels, grouped numbers and local times", async ({ page }) => {
    const consoleErrors = watchConsole(page);
    await signIn(page, ENGINEER);
    await open(page, "/runs");
    const table = page.getByTestId("run-table");
    await expect(table.getByTestId("run-format")).toHaveText("vLLM benchmark (older benchmark_serving.py)");
    await expect(table).toContainText("1,041.7 tokens/s");
    await expect(table.locator("time")).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\+8$/);
    await expect(page.locator("main")).not.toContainText("vllm_legacy");

    await open(page, `/runs/${ids.run}`);
    await expect(page.getByTestId("run-figures")).toContainText("Total tokens (input and output): 2,206.65 tokens/s");
    // What is read (the stored record, in its closed disclosure, keeps the ids).
    const shown = await page.locator("main").innerText();
    expect(shown).not.toContain("total_tokens");
    expect(shown).not.toContain("vllm_legacy");
    expect(consoleErrors).toEqual([]);
  });
});

test("at 390 px: the runs, a quote and the cost page fit, money is in minor units, the bell is a drawing", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await page.setViewportSize(PHONE);
  await signIn(page, BUYER);

  // The bell is an inline SVG (no emoji font needed) with its name for screen readers.
  const bell = page.locator(".site-header .notify-button");
  await expect(bell.locator("svg")).toHaveCount(1);
  await expect(bell).toContainText("Notifications");
  await expect(bell).not.toContainText("🔔");

  await open(page, "/runs");
  await expect(page.getByTestId("run-table")).toBeVisible();
  await expectNoSidewaysScroll(page, "/runs");

  await open(page, `/quotes/${ids.quote}`);
  await expect(page.getByTestId("quote-id")).toHaveText(`Quote #${ids.quote}`);
  await expect(page.getByTestId("quote-revision")).toContainText("¥14.72");
  await expect(page.locator("main")).toContainText("80");
  await expectNoSidewaysScroll(page, "a quote");

  await open(page, "/quotes");
  await expect(page.getByTestId("quote-row").first().getByTestId("quote-id")).toHaveText(`#${ids.quote}`);
  await open(page, "/workloads");
  await expect(page.getByTestId("workload-id")).toHaveText(`Workload #${ids.workload}`);
  await expect(page.getByTestId("workload-table")).toContainText("2,000,000,000");

  await open(page, `/tco?workload=${ids.workload}&picked=1&q=${ids.quote}`);
  await expect(page.getByTestId("tco-gpu-hour").first()).toHaveText(/^¥[\d,]+\.\d{2}$/);
  // Cell by cell (the text of a whole row runs one cell into the next). Amounts are in minor
  // units; a cost line's unit price keeps the digits the vendor wrote (¥14.7242 a GPU-hour is
  // ¥117.7936 a node-hour), so that quantity × price = cost adds up as shown.
  const texts = await page.locator("main").locator("td:not([data-label='Price']), th, li, p, dd, summary").allInnerTexts();
  const long = texts.flatMap((text) => text.match(/[¥$€][\d,]*\.\d{3,}/g) ?? []);
  expect(long, "money with more than two decimals").toEqual([]);
  await expect(page.locator("main td[data-label='Price']", { hasText: "¥117.7936" })).not.toHaveCount(0);
  await expectNoSidewaysScroll(page, "/tco");
  // The cost form alone, before anything is compared.
  await open(page, "/tco");
  await expect(page.getByTestId("tco-form")).toBeVisible();
  await expectNoSidewaysScroll(page, "the cost form");

  // A rate is entered the day it is read: the date starts at today.
  await open(page, "/rates");
  await expect(page.getByTestId("rate-date")).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
  expect(consoleErrors).toEqual([]);
});

test("an estimated row says once that it is not measured", async ({ page }) => {
  await signIn(page, BUYER);
  const workload = await call(page, "/api/workloads/create", {
    name: "Fine-tune", kind: "batch", model: "", precision: "", vram_peak_gib: "60", vram_peak_source: "measured",
    concurrency: "1", gpus_needed: "8", run_hours: "100", total_work_amount: "", total_work_unit: "", data_gb: "0",
    checkpoint_gb: "0", headroom_pct: "20",
  });
  await open(page, `/tco?workload=${workload}&picked=1&q=${ids.quote}`);
  const row = page.getByTestId("tco-estimated").getByTestId("tco-row").first();
  await expect(row.getByTestId("tco-to-measure")).toContainText("Estimated, not measured");
  await expect(row).not.toContainText("No valid run: compute time is the workload's stated run length");
});
