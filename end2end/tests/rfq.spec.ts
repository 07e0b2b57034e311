import { Browser, expect, Page, test } from "@playwright/test";
import { hydrated, open, PASSWORD, signIn, signOut, watchConsole } from "./helpers";
import { answerMine, call, createTeam } from "./api";

// A request for quotation from start to sign-off: procurement asks two vendors; each vendor, in
// its own browser without an account (one in Chinese), fills its bid and revises it; the team
// sees who submitted but no figure until the close; at the close the bids are quotes in the
// comparison, the vendors' written answers are evidence on the checklist, and the manager signs
// an order chosen from a bid.

test.describe.configure({ mode: "serial" });

const PIA = "rfq-pia@example.com";
const ELI = "rfq-eli@example.com";
const MAX = "rfq-max@example.com";

/** Prices only the vendors type: never on a team page before the close. */
const PRICE_A = "4321.09";
const PRICE_A_REVISED = "4100.00";
const PRICE_B = "3987.65";

/** Fills and submits a bid on the vendor's page (a plain form: the page has no WASM). */
async function bid(page: Page, price: string, answer: string) {
  const form = page.getByTestId("bid-form");
  await form.locator('[name="fields[spec.gpu_model]"]').fill("H100 80GB");
  await form.locator('[name="fields[spec.vram_gib]"]').fill("80");
  await form.locator('[name="fields[price.on_demand_hourly]"]').fill(price);
  await form.locator('[name="fields[spec.nvidia_driver]"]').fill("550.54");
  await form.locator('[name="fields[spec.cuda]"]').fill("12.4");
  // The same written answer to every question (the first one is checked on the checklist).
  for (const box of await form.locator('textarea[name^="answers["]').all()) await box.fill(answer);
  await form.getByTestId("bid-submit").click();
  await page.waitForLoadState("load");
  await hydrated(page);
}

/** A vendor's own browser, without an account, in `locale`. */
async function vendorPage(browser: Browser, baseURL: string, locale: string, path: string) {
  const context = await browser.newContext({ baseURL, locale });
  const page = await context.newPage();
  await page.goto(path);
  await expect(page.locator("body")).toHaveAttribute("data-hydrated", "static");
  return page;
}

test("two vendors bid through their links, sealed until the close; the bid becomes the signed order", async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  const errors = watchConsole(page);
  await createTeam(page, "RFQ Desk", [[PIA, "procurement"], [ELI, "engineer"], [MAX, "manager"]]);
  await signIn(page, PIA);
  for (const [name, contact] of [["星河算力", "王芳，wang@xinghe.example"], ["Nimbus Compute", "Sales <sales@nimbus.example>"]]) {
    await call(page, "/api/vendors/create", {
      name, website: "", contact, notes: "", environment_setup: "", provisioning: "", resource_release: "",
      image_maintenance: "", network_setup: "", troubleshooting: "", support_notes: "",
    });
  }
  const workload = await call(page, "/api/workloads/create", {
    name: "RFQ fine-tune", kind: "batch", model: "", precision: "", vram_peak_gib: "60", vram_peak_source: "measured",
    concurrency: "1", gpus_needed: "1", run_hours: "40", total_work_amount: "", total_work_unit: "", data_gb: "500",
    checkpoint_gb: "200", headroom_pct: "20",
  });

  // Procurement makes the request from the workload: the questions come from the checklist.
  await open(page, "/requests/new");
  const form = page.getByTestId("request-form");
  await form.locator('[name="form[workload_id]"]').selectOption(String(workload));
  await form.locator('[name="form[title]"]').fill("H100 for the fine-tune");
  await form.locator('[name="form[close_local]"]').fill("2099-12-31T18:00");
  await expect(form.getByTestId("request-questions")).not.toHaveValue("");
  const firstQuestion = ((await form.getByTestId("request-questions").inputValue()).split("\n")[0] ?? "").trim();
  for (const box of await form.locator('input[type="checkbox"][name^="form[vendors]"]').all()) await box.check();
  // The price-sheet fields asked of every vendor: the usual ones are checked; this request asks
  // for the driver and the CUDA version only.
  await form.getByTestId("request-fields").locator("summary").click();
  for (const box of await form.locator('input[type="checkbox"][name^="form[fields]"]').all()) await box.uncheck();
  await form.locator('[name="form[fields][spec.nvidia_driver]"]').check();
  await form.locator('[name="form[fields][spec.cuda]"]').check();
  await form.locator('button[type="submit"]').click();
  const links = page.getByTestId("request-link");
  await expect(links).toHaveCount(2);
  const paths: Record<string, string> = {};
  for (const link of await links.all()) {
    const url = (await link.locator("code").textContent()) ?? "";
    const vendor = (await link.locator("strong").textContent()) ?? "";
    paths[vendor] = new URL(url, baseURL).pathname;
  }
  await page.getByTestId("request-open").click();
  await expect(page.getByTestId("request-submitted")).toContainText("0 of 2 submitted");
  const requestPath = new URL(page.url()).pathname;

  // The first vendor bids in English, then revises; each revision has its receipt.
  const a = await vendorPage(browser, baseURL!, "en-US", paths["星河算力"]);
  await expect(a.getByTestId("bid-title")).toHaveText("H100 for the fine-tune");
  // A bid without a field the buyer asks for comes back as typed, the field named.
  await a.getByTestId("bid-form").locator('[name="fields[spec.gpu_model]"]').fill("H100 80GB");
  await a.getByTestId("bid-submit").click();
  await a.waitForLoadState("load");
  await expect(a.getByTestId("bid-receipt")).toHaveCount(0);
  await expect(a.getByTestId("bid-form").locator('[name="fields[spec.gpu_model]"]')).toHaveValue("H100 80GB");
  await expect(a.getByTestId("bid-form")).toContainText("The buyer asks for this");
  await expect(a.locator("body")).not.toContainText("Nimbus");
  await expect(a.getByTestId("bid-answers")).toContainText(firstQuestion);
  await bid(a, PRICE_A, "Written answer: Ubuntu 22.04, driver 550.54, CUDA 12.4, Docker allowed");
  await expect(a.getByTestId("bid-receipt")).toHaveCount(1);
  await bid(a, PRICE_A_REVISED, "Written answer: Ubuntu 22.04, driver 550.54, CUDA 12.4, Docker allowed");
  await expect(a.getByTestId("bid-receipt")).toHaveCount(2);
  await expect(a.getByTestId("bid-receipt").first()).toContainText(/[0-9a-f]{64}/);

  // The second vendor reads the page in Chinese and bids, then revises its answer.
  const b = await vendorPage(browser, baseURL!, "zh-CN", paths["Nimbus Compute"]);
  await expect(b.getByTestId("bid-close-at")).toContainText("截止时间");
  await expect(b.locator("body")).not.toContainText("星河算力");
  await bid(b, PRICE_B, "书面回答：Ubuntu 22.04，驱动 550.54");
  await bid(b, PRICE_B, "书面回答：Ubuntu 22.04，驱动 550.54，可用 Docker");
  await expect(b.getByTestId("bid-receipt")).toHaveCount(2);

  // Procurement sees who submitted, never what.
  await open(page, requestPath);
  await expect(page.getByTestId("request-submitted")).toContainText("2 of 2 submitted");
  for (const price of [PRICE_A, PRICE_A_REVISED, PRICE_B, "4,100", "3,987"]) {
    await expect(page.locator("body")).not.toContainText(price);
  }

  // Closed early, with a reason: the bids are quotes now, each vendor's last revision.
  await page.locator("summary", { hasText: "Close now" }).click();
  const close = page.getByTestId("request-close");
  await close.locator('[name="reason"]').fill("Both vendors answered");
  await close.locator('button[type="submit"]').click();
  await expect(page.getByTestId("request-opened").locator("tbody tr")).toHaveCount(2);
  await expect(page.getByTestId("request-opened")).toContainText("星河算力");
  await expect(page.getByTestId("request-opened")).toContainText("Nimbus Compute");
  await expect(a.context().request.get(paths["星河算力"]).then((r) => r.status())).resolves.toBe(404);

  // An order chosen from the first bid, both bids compared.
  const quoteOf = async (vendor: string) => {
    const href = await page.getByTestId("request-opened").getByRole("link", { name: vendor }).getAttribute("href");
    return (href ?? "").split("/").pop() ?? "";
  };
  const chosen = await quoteOf("星河算力");
  const other = await quoteOf("Nimbus Compute");
  const order = Number(await call(page, "/api/orders/create", { title: "H100 from the request", workload_id: String(workload) }));
  const select = new URLSearchParams({ order_id: String(order), quote_id: chosen, waiver: "The vendor's written answers stand in for a trial run." });
  select.append("considered[]", chosen);
  select.append("considered[]", other);
  await call(page, "/api/orders/select", select);
  await open(page, `/orders/${order}`);
  await expect(page.getByTestId("order-from-bid")).toContainText("bid revision 2");
  await expect(page.getByTestId("order-tco")).toContainText("星河算力");
  await expect(page.getByTestId("order-tco")).toContainText("Nimbus Compute");
  // The vendor's written answer is shown on the item it answers, and cited in one action.
  const view = await call(page, "/api/orders/get", { id: String(order) });
  type Line = { id: string; expert: string; vendor_answer: unknown; accept: unknown; evidence_needed: string[] };
  // An item the data does not settle, which takes what the quote states as evidence.
  const answered = view.sections.flatMap((s: { items: Line[] }) => s.items)
    .find((i: Line) => i.vendor_answer && !i.accept && i.evidence_needed.includes("quote_field"));
  expect(answered, "an item the vendor answered").toBeTruthy();
  const item = page.locator(`[id="item-${answered.id}"]`);
  await expect(item.getByTestId("vendor-answer")).toContainText("driver 550.54");
  if (answered.expert === "engineer") {
    await signOut(page);
    await signIn(page, ELI);
    await open(page, `/orders/${order}`);
  }
  await page.getByTestId(`quick-${answered.id}`).locator('button[type="submit"]').click();
  await expect(page.locator(`[id="item-${answered.id}"] [data-testid="item-status"]`)).toHaveText("Confirmed");
  await expect(page.locator(`[id="item-${answered.id}"]`)).toContainText("Vendor's written answer");
  if (answered.expert === "engineer") {
    await answerMine(page, order, [answered.id]);
    await signOut(page);
    await signIn(page, PIA);
    await answerMine(page, order, []);
  } else {
    await answerMine(page, order, [answered.id]);
    await signOut(page);
    await signIn(page, ELI);
    await answerMine(page, order, []);
    await signOut(page);
    await signIn(page, PIA);
  }

  // Procurement submits; the manager signs the order chosen from the bid.
  await open(page, `/orders/${order}`);
  await expect(page.getByTestId("order-blockers")).toHaveCount(0);
  await page.getByTestId("submit-form").locator('button[type="submit"]').click();
  await expect(page.getByTestId("order-state")).toHaveText("Waiting for sign-off");
  await signOut(page);
  await signIn(page, MAX);
  await open(page, `/orders/${order}`);
  await expect(page.getByTestId("order-from-bid")).toContainText("bid revision 2");
  const decide = page.getByTestId("decide-form");
  await decide.locator('input[name="decision"][value="approve"]').check();
  await decide.locator('input[name="password"]').fill(PASSWORD);
  await decide.locator('button[type="submit"]').click();
  await expect(page.getByTestId("order-state")).toHaveText("Approved");
  expect(errors).toEqual([]);
  await a.context().close();
  await b.context().close();
});
