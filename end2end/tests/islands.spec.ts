import { expect, Page, test } from "@playwright/test";
import { open, signIn, watchConsole } from "./helpers";
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
  await open(page, "/quotes/new");
  await expect(page.locator("body")).toHaveAttribute("data-hydrated", "true");
  await expect(page.locator("leptos-island")).not.toHaveCount(0);
  expect(wasm.filter((f) => MAIN.test(f)), `${wasm}`).toHaveLength(1);
  // Hydrated means working: the form checks a field in place, without a new page.
  const url = page.url();
  await page.getByTestId("quote-form").locator('button[type="submit"]').click();
  await expect(page.getByTestId("quote-form").getByRole("alert").first()).toBeVisible();
  expect(page.url()).toBe(url);
  // The header and the menu are plain HTML around the islands.
  await expect(page.locator("header leptos-island")).toHaveCount(0);
  expect(errors).toEqual([]);
});
