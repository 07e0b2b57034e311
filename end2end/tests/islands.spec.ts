import { expect, Page, test } from "@playwright/test";
import { PASSWORD, open, signIn, watchConsole } from "./helpers";
import { createTeam } from "./api";

// Islands: every page is rendered on the server; only the parts that need the browser are
// islands (`<leptos-island>`). A page without one loads no WASM at all (it may prefetch the
// bundle at idle, for the next page); a page with one loads the main bundle and its islands'
// chunks, and hydrates them.

test.describe.configure({ mode: "serial" });

const MEMBER = "islander@example.com";
/** The main bundle (`nodeledger.wasm`, or with a content hash in its name). */
const MAIN = /^nodeledger[.\w-]*\.wasm$/;

/**
 * Every `/pkg/*.wasm` file the page fetches to run it, by file name: the loader and the chunk
 * loader `fetch()` them; a page without an island only hints them (`<link rel="prefetch">`,
 * which Chromium reports as another kind of request).
 */
function watchWasm(page: Page): string[] {
  const files: string[] = [];
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith("/pkg/") && path.endsWith(".wasm") && r.resourceType() === "fetch") {
      files.push(path.slice("/pkg/".length));
    }
  });
  return files;
}

test("pages that only show load no WASM and are ready as sent", async ({ page }) => {
  await createTeam(page, "Island Desk", [[MEMBER, "procurement"]]);
  await signIn(page, MEMBER);
  const errors = watchConsole(page);
  const wasm = watchWasm(page);
  for (const [path, heading] of [
    ["/", "Island Desk"],
    ["/quotes", "Quotes"],
    ["/orders", "Orders"],
    ["/runs", "Benchmark runs"],
    ["/requests", "Requests for quotation"],
  ]) {
    await open(page, path);
    await expect(page.locator("body")).toHaveAttribute("data-hydrated", "static");
    await expect(page.locator("main h1")).toHaveText(heading);
    await expect(page.locator("leptos-island")).toHaveCount(0);
  }
  expect(wasm, "no page ran WASM").toEqual([]);
  expect(errors).toEqual([]);
});

test("a page with an island loads the main bundle and its chunks, and the island works", async ({ page }) => {
  await signIn(page, MEMBER);
  const errors = watchConsole(page);
  const wasm = watchWasm(page);
  await open(page, "/quotes/import");
  await expect(page.locator("body")).toHaveAttribute("data-hydrated", "true");
  await expect(page.locator("leptos-island")).not.toHaveCount(0);
  expect(wasm.filter((f) => MAIN.test(f)), `${wasm}`).toHaveLength(1);
  // Hydrated means working: the import reads the file in the browser and shows its preview
  // in place, without a new page.
  const url = page.url();
  await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));
  await page.getByTestId("import-form").locator('input[type="file"]').setInputFiles({
    name: "one.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("vendor,reference\n"),
  });
  await page.getByTestId("import-form").getByRole("button", { name: "Check file" }).click();
  await expect(page.getByTestId("import-result")).toBeVisible();
  expect(page.url()).toBe(url);
  expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
  // The header and the menu are plain HTML around the islands.
  await expect(page.locator("header leptos-island")).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("a list's add form saves in place without WASM: an error keeps what was typed, a save shows the new row", async ({ page }) => {
  await signIn(page, MEMBER);
  const errors = watchConsole(page);
  const wasm = watchWasm(page);
  await open(page, "/workloads");
  await expect(page.locator("body")).toHaveAttribute("data-hydrated", "static");
  await expect(page.locator("leptos-island")).toHaveCount(0);
  // A mark on this document: still there afterwards means no new page was loaded.
  await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));
  const form = page.getByTestId("workload-form");
  await form.locator('input[name="name"]').fill("Island LoRA");
  await form.locator('input[name="model"]').fill("Qwen2-7B");
  await form.locator('input[name="vram_peak_gib"]').fill("18.5");
  await form.locator('input[name="run_hours"]').fill("72");
  await form.locator('input[name="headroom_pct"]').fill("40");
  await form.locator('button[type="submit"]').click();
  await expect(form.locator('[data-field="headroom_pct"]')).toHaveText("Out of range: allowed [15, 25].");
  await expect(form.locator('input[name="name"]')).toHaveValue("Island LoRA");
  await expect(form.locator('input[name="vram_peak_gib"]')).toHaveValue("18.5");
  await expect(form.locator('input[name="run_hours"]')).toHaveValue("72");
  await expect(page).toHaveURL(/\/workloads$/);
  await form.locator('input[name="headroom_pct"]').fill("20");
  await form.locator('button[type="submit"]').click();
  await expect(page.getByTestId("workload-table")).toContainText("Island LoRA");
  await expect(form.locator('input[name="name"]')).toHaveValue("");
  expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
  expect(wasm, "the page ran no WASM").toEqual([]);
  expect(errors).toEqual([]);
});

test("with JavaScript switched off, the same kind of form saves as an ordinary post", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  const login = page.getByTestId("login-form");
  await login.locator('input[name="email"]').fill(MEMBER);
  await login.locator('input[name="password"]').fill(PASSWORD);
  await login.locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.pathname === "/");
  await page.goto("/vendors");
  const form = page.getByTestId("vendor-form");
  await form.locator('input[name="name"]').fill("Plain Post Cloud");
  await form.locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.pathname === "/vendors");
  await expect(page.getByTestId("vendor-table")).toContainText("Plain Post Cloud");
  // The same name again: the error comes back on the page.
  await page.getByTestId("vendor-form").locator('input[name="name"]').fill("plain post cloud");
  await page.getByTestId("vendor-form").locator('button[type="submit"]').click();
  await expect(page.getByRole("alert")).toHaveText("Your team already has a vendor with this name.");
  await context.close();
});
