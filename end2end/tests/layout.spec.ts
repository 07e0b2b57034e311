import { expect, Locator, Page, test } from "@playwright/test";
import { ADMIN, PASSWORD, ensureAdmin, hydrated, open, signIn, signOut, watchConsole } from "./helpers";
import { call, saveQuote } from "./api";

// Layout assertions (boxes measured in the browser), not screenshots: they hold across fonts.
test.describe.configure({ mode: "serial" });

const DESKTOP = { width: 1280, height: 800 };
/** An iPhone 12-sized viewport. */
const PHONE = { width: 390, height: 844 };
const USER = "lena@example.com";

/** The URLs of the pages under test, built once by the first test. */
const urls = { compare: "", tco: "", order: "" };

/**
 * Every cell of `table` lies inside the table and inside its row, and the cells of one row share a
 * top (a cell that stopped being a table cell stacks under its neighbour); the table's right edge
 * is inside its container unless the container scrolls on purpose.
 */
async function expectTableIntact(table: Locator) {
  await expect(table).toBeVisible();
  const problems = await table.evaluate((t) => {
    const out: string[] = [];
    const tb = t.getBoundingClientRect();
    const inside = (r: DOMRect, o: DOMRect) =>
      r.left >= o.left - 1 && r.right <= o.right + 1 && r.top >= o.top - 1 && r.bottom <= o.bottom + 1;
    t.querySelectorAll("tr").forEach((tr, i) => {
      const rb = tr.getBoundingClientRect();
      const cells = Array.from(tr.children) as HTMLElement[];
      const tops = cells.map((c) => c.getBoundingClientRect().top);
      if (Math.max(...tops) - Math.min(...tops) > 2) out.push(`row ${i}: cell tops ${tops.map(Math.round).join(", ")}`);
      cells.forEach((c, j) => {
        const cb = c.getBoundingClientRect();
        if (getComputedStyle(c).display !== "table-cell") out.push(`row ${i} cell ${j}: display ${getComputedStyle(c).display}`);
        if (!inside(cb, tb)) out.push(`row ${i} cell ${j} outside the table`);
        if (!inside(cb, rb)) out.push(`row ${i} cell ${j} outside its row`);
      });
    });
    const container = t.parentElement as HTMLElement;
    const cs = getComputedStyle(container);
    const scrolls = ["auto", "scroll"].includes(cs.overflowX) && container.scrollWidth > container.clientWidth;
    if (!scrolls && tb.right > container.getBoundingClientRect().right + 1) out.push("the last column is cut off");
    return out;
  });
  expect(problems).toEqual([]);
}

/** The page does not scroll sideways. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const { scroll, inner, wide } = await page.evaluate(() => {
    // The innermost elements that reach past the window, to name in a failure.
    const wide = Array.from(document.querySelectorAll("body *"))
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((el) => !Array.from(el.children).some((c) => c.getBoundingClientRect().right > window.innerWidth + 1))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)} (${Math.round(el.getBoundingClientRect().right)} px)`);
    return { scroll: document.documentElement.scrollWidth, inner: window.innerWidth, wide };
  });
  expect.soft(scroll, `${what}: page width ${scroll} in a ${inner} px window; ${wide.join(", ")}`).toBeLessThanOrEqual(inner);
}

test("a quote comparison, a cost comparison and an order to lay out", async ({ page }) => {
  await ensureAdmin(page);
  await signIn(page, ADMIN.email);
  const team = await call(page, "/api/admin/create_team", { name: "Layout Lab" });
  await call(page, "/api/admin/create_user", {
    email: USER, display_name: "Lena Layout", password: PASSWORD, password_confirm: PASSWORD, team_id: String(team), role: "procurement",
  });
  await signOut(page);
  await signIn(page, USER);
  const workload = await call(page, "/api/workloads/create", {
    name: "Fine-tune 70B", kind: "batch", model: "", precision: "", vram_peak_gib: "60", vram_peak_source: "measured",
    concurrency: "1", gpus_needed: "8", run_hours: "200", total_work_amount: "", total_work_unit: "", data_gb: "500", checkpoint_gb: "200", headroom_pct: "20",
  });
  const base = {
    received_on: "2026-11-20", valid_until: "2099-12-31", "spec.gpus_per_node": "8", "spec.sharing": "exclusive", "spec.region": "cn-shanghai-2",
    currency: "CNY", "price.basis": "per_node", "price.billing_increment": "hour", "price.stopped_bills_compute": "no",
  };
  const ids = [
    await saveQuote(page, { ...base, vendor: "Alpha Compute", reference: "H100-SXM-8X-RESERVED-2026", "spec.gpu_model": "H100 80GB", "spec.vram_gib": "80", "price.on_demand_hourly": "180.00" }),
    await saveQuote(page, { ...base, vendor: "Beta Cloud Services", reference: "A100-80G-8X-SPOT", "spec.gpu_model": "A100 80GB", "spec.vram_gib": "80", "price.on_demand_hourly": "120.00" }),
    await saveQuote(page, { ...base, vendor: "Gamma GPU Rental", reference: "L40S-48G-8X", "spec.gpu_model": "L40S 48GB", "spec.vram_gib": "48", "price.on_demand_hourly": "70.00" }),
  ];
  const order = Number(await call(page, "/api/orders/create", { title: "Fine-tune nodes for the 70B model", workload_id: String(workload) }));
  const select = new URLSearchParams({ order_id: String(order), quote_id: String(ids[0]), waiver: "Same node type benchmarked last quarter." });
  for (const id of ids) select.append("considered[]", String(id));
  await call(page, "/api/orders/select", select);
  urls.compare = `/quotes/compare?${ids.map((id) => `id=${id}`).join("&")}&workload=${workload}`;
  urls.tco = `/tco?workload=${workload}&picked=1&${ids.map((id) => `q=${id}`).join("&")}`;
  urls.order = `/orders/${order}`;
  // The set-up the layout tests below measure: three distinct quotes, and the order names the
  // chosen one.
  expect(new Set(ids).size).toBe(3);
  expect(order).toBeGreaterThan(0);
  await open(page, urls.order);
  await expect(page.getByTestId("order-chosen")).toContainText("Alpha Compute");
});

test("at 1280 px the compare, cost and order tables keep every cell in its row and column", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await page.setViewportSize(DESKTOP);
  await signIn(page, USER);

  await open(page, urls.compare);
  const compare = page.getByTestId("compare-table");
  await expect(compare.locator("td.check").first()).toBeVisible();
  await expectTableIntact(compare);
  // The field names are a narrow column: the quotes get the room.
  const widths = await compare.evaluate((t) => ({
    table: t.getBoundingClientRect().width,
    names: t.querySelector('th[scope="row"]')!.getBoundingClientRect().width,
  }));
  expect(widths.names, `field names ${widths.names} of ${widths.table} px`).toBeLessThanOrEqual(widths.table * 0.3);

  await open(page, urls.tco);
  // No benchmark runs: every quote is ranked in the "estimated" table.
  await expectTableIntact(page.getByTestId("tco-estimated"));
  await expectTableIntact(page.getByTestId("tco-breakdown").first().locator("table"));

  await open(page, urls.order);
  await expectTableIntact(page.getByTestId("order-tco"));

  // The wide header shows the links in one row, no menu button.
  await expect(page.locator(".nav-menu-toggle")).toBeHidden();
  await expect(page.locator(".main-nav").getByRole("link", { name: "Quotes", exact: true })).toBeVisible();
  // One row in both languages: brand, links, team, user, language and bell share a line.
  for (const lang of ["en", "zh-CN"]) {
    await page.context().addCookies([{ name: "nl_lang", value: lang, url: page.url() }]);
    await open(page, "/");
    const row = await page.evaluate(() => {
      const header = document.querySelector(".site-header")!.getBoundingClientRect();
      const brand = document.querySelector(".brand")!.getBoundingClientRect();
      const bell = document.querySelector(".site-header > .notifications")!.getBoundingClientRect();
      const nav = document.querySelector(".main-nav")!;
      return {
        height: header.height, brandMiddle: brand.top + brand.height / 2, bellMiddle: bell.top + bell.height / 2,
        hiddenLinks: nav.scrollWidth - nav.clientWidth,
      };
    });
    // Every link in view: none scrolled out of the nav at 1280 px.
    expect(row.hiddenLinks, `${lang}: links scrolled out of view`).toBeLessThanOrEqual(1);
    expect(row.height, `${lang}: header ${row.height} px high`).toBeLessThanOrEqual(64);
    expect(Math.abs(row.bellMiddle - row.brandMiddle), `${lang}: the bell beside the brand`).toBeLessThanOrEqual(8);
    await expectNoSidewaysScroll(page, `${lang} header`);
  }
  await page.context().addCookies([{ name: "nl_lang", value: "en", url: page.url() }]);
  expect(consoleErrors).toEqual([]);
});

test("at 390 px the header is a menu, the filters fold away, and no page scrolls sideways", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await page.setViewportSize(PHONE);
  await signIn(page, USER);
  await open(page, "/quotes");

  // Header: brand, language and a closed menu fit in at most two rows.
  const header = page.locator(".site-header");
  const headerBox = await header.boundingBox();
  expect(headerBox?.height ?? 999).toBeLessThanOrEqual(120);
  await expect(page.locator(".main-nav")).toBeHidden();

  // Filters are folded; the first quote (its reference) is on the first screen, as a card.
  const filters = page.getByTestId("quote-filters");
  expect(await filters.getAttribute("open"), "closed without a filter").toBeNull();
  await expect(page.getByTestId("quote-filter").locator('input[name="gpu"]')).toBeHidden();
  const firstQuote = page.getByTestId("quote-row").first().getByRole("link");
  await expect(firstQuote).toBeVisible();
  expect((await firstQuote.boundingBox())?.y ?? 9999).toBeLessThan(PHONE.height - 40);
  await expect(page.getByTestId("quote-row").first().locator("td").nth(6)).toBeVisible(); // node price
  await expectNoSidewaysScroll(page, "/quotes");

  // A filter that is set keeps the disclosure open and says so.
  await open(page, "/quotes?gpu=H100");
  await expect(page.getByTestId("quote-filters")).toHaveAttribute("open", "");
  await expect(page.getByTestId("quote-filters").locator("summary")).toContainText("1 active");
  await expect(page.getByTestId("quote-filter").locator('input[name="gpu"]')).toHaveValue("H100");
  // Closed filters open with one tap.
  await open(page, "/quotes");
  await page.getByTestId("quote-filters").locator("summary").click();
  await expect(page.getByTestId("quote-filter").locator('input[name="gpu"]')).toBeVisible();

  // The menu opens over the page and closes after following a link.
  await page.locator(".nav-menu-toggle").click();
  const costLink = page.locator(".main-nav").getByRole("link", { name: "Costs", exact: true });
  await expect(costLink).toBeVisible();
  await expect(page.getByTestId("user-name")).toBeVisible();
  await costLink.click();
  await page.waitForURL("**/tco");
  await expect(page.locator(".main-nav")).toBeHidden();

  for (const url of [urls.compare, urls.tco, urls.order]) {
    await open(page, url);
    await expect(page.locator("main h1")).toBeVisible();
    await expectNoSidewaysScroll(page, url);
  }
  // The compare matrix scrolls inside its box, the requirement names stay in view.
  await open(page, urls.compare);
  const scroller = page.getByTestId("compare-table").locator("xpath=..");
  await scroller.evaluate((el) => el.scrollBy(400, 0));
  const firstColumn = page.getByTestId("compare-table").locator('th[scope="row"]').first();
  expect((await firstColumn.boundingBox())?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect(consoleErrors).toEqual([]);
});

/** The element that has focus, described for a failure message. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return "none";
    return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.className ? `.${String(el.className).split(" ").join(".")}` : ""}`;
  });
}

test("the keyboard: the skip link comes first and lands in main; a closed phone menu is one tab stop", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, USER);
  await open(page, "/quotes/new");
  await page.keyboard.press("Tab");
  const skip = page.locator(".skip-link");
  await expect(skip).toBeFocused();
  const box = await skip.boundingBox();
  expect(box && box.x >= 0 && box.y >= 0, "the focused skip link is on screen").toBe(true);
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
  // The next Tab goes to the page's first control, past the header's links.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => !!document.activeElement?.closest("main")), await focused(page)).toBe(true);

  // On a phone the header is brand, language and the menu button: the links are not tab stops.
  await page.setViewportSize(PHONE);
  await open(page, "/quotes/new");
  const stops: string[] = [];
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    const inHeader = await page.evaluate(() => !!document.activeElement?.closest(".site-header"));
    const inMain = await page.evaluate(() => !!document.activeElement?.closest("main"));
    if (inMain) break;
    stops.push(inHeader ? await focused(page) : `outside: ${await focused(page)}`);
  }
  // The menu's one stop (the bell beside it is a disclosure of its own).
  const inMenu = stops.filter((s) => s.startsWith("summary.nav-menu-toggle"));
  expect(inMenu, stops.join(" | ")).toHaveLength(1);
  expect(stops.length, stops.join(" | ")).toBeLessThanOrEqual(6);
  // Opened from the keyboard, the menu's links follow the button.
  await page.locator(".nav-menu-toggle").focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(page.locator(".main-nav a").first()).toBeFocused();
  await hydrated(page);
});
