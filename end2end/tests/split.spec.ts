import { expect, Locator, Page, test } from "@playwright/test";
import { hydrated, open, signIn, watchConsole } from "./helpers";
import { createTeam } from "./api";

// Code splitting: the hydrating dashboard loads only the main bundle; each area's pages
// come in one chunk (pages/areas.rs), fetched the first time the area is shown and never again.

test.describe.configure({ mode: "serial" });

const MEMBER = "splitter@example.com";
/** The main bundle (`nodeledger.wasm`, or with a content hash in its name). */
const MAIN = /^nodeledger[.\w-]*\.wasm$/;

/** Every `/pkg/*.wasm` file the page requests, in order (file names only). */
function watchWasm(page: Page): string[] {
  const files: string[] = [];
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith("/pkg/") && path.endsWith(".wasm")) files.push(path.slice("/pkg/".length));
  });
  return files;
}

/** What was requested since `from` (an index into the list `watchWasm` returns). */
function since(files: string[], from: number) {
  return files.slice(from);
}

/** Clicks `link` (a client-side navigation) and waits for the next page's heading. */
async function follow(page: Page, link: Locator, heading: string) {
  await link.click();
  await expect(page.locator("main h1")).toHaveText(heading);
}

/** The header link `name` (a desktop window: the header shows its links without the menu). */
function navLink(page: Page, name: string) {
  return page.locator(".main-nav").getByRole("link", { name, exact: true });
}

test("the dashboard loads only the main bundle and each area's chunk is fetched once", async ({ page }) => {
  test.setTimeout(120_000);
  await createTeam(page, "Split Desk", [[MEMBER, "procurement"]]);
  await signIn(page, MEMBER);
  // A browser that has been sent the bundle (a page that hydrates sets the `nl_bundle` cookie):
  // its dashboard hydrates. A browser that never was gets it without WASM (first-load.spec.ts).
  await open(page, "/account");
  await expect(page.locator("body")).toHaveAttribute("data-hydrated", "true");

  // A first load of the dashboard: the main bundle and nothing else.
  const wasm = watchWasm(page);
  const errors = watchConsole(page);
  await open(page, "/");
  await expect(page.getByTestId("dashboard-counts")).toBeVisible();
  await expect(page.locator("body")).toHaveAttribute("data-hydrated", "true");
  expect(wasm).toHaveLength(1);
  expect(wasm[0]).toMatch(MAIN);

  // Each area: its first page fetches the area's chunk (and maybe a chunk it shares only with
  // areas not shown yet); a second page of the same area fetches nothing.
  type Step = [() => Locator, string];
  const areas: [string, Step, Step | null][] = [
    ["quotes", [() => navLink(page, "Quotes"), "Quotes"], [() => navLink(page, "Vendors"), "Vendors"]],
    ["costs", [() => navLink(page, "Costs"), "Total cost of ownership"], [() => navLink(page, "Workloads"), "Workloads"]],
    // A procurement member sees the run list only (uploading is the engineers').
    ["runs", [() => navLink(page, "Runs"), "Benchmark runs"], null],
    ["orders", [() => navLink(page, "Orders"), "Orders"], null],
    ["admin", [() => navLink(page, "Team"), "Split Desk"], [() => page.getByTestId("user-name"), "Your account"]],
  ];
  for (const [area, [first, heading], second] of areas) {
    const before = wasm.length;
    await follow(page, first(), heading);
    const fetched = since(wasm, before);
    expect(fetched.filter((f) => f.includes(`${area}_area`)), `${area}: ${fetched}`).toHaveLength(1);
    expect(fetched.filter((f) => MAIN.test(f)), `${area} fetches the main bundle again`).toEqual([]);
    if (second) {
      const after = wasm.length;
      await follow(page, second[0](), second[1]);
      expect(since(wasm, after), `${area}: a second page of the area`).toEqual([]);
    }
  }

  // No file is ever fetched twice, and the way back through the history fetches nothing.
  expect(new Set(wasm).size).toBe(wasm.length);
  const beforeBack = wasm.length;
  for (const heading of ["Split Desk", "Orders", "Benchmark runs", "Workloads"]) {
    await page.goBack();
    await expect(page.locator("main h1")).toHaveText(heading);
  }
  expect(since(wasm, beforeBack)).toEqual([]);
  expect(errors).toEqual([]);
});

test("a first load of an area's page fetches its chunk and hydrates it", async ({ page }) => {
  await signIn(page, MEMBER);
  const errors = watchConsole(page);
  const wasm = watchWasm(page);
  const response = await page.goto("/orders");
  const html = (await response?.text()) ?? "";
  // Leptos names the area's chunk in the head only when the lazy route was polled before the
  // shell was flushed (streamed rendering), which depends on scheduling: when it does, the
  // chunk named is the orders area's and nothing else's.
  const areaPreloads = (html.match(/<link[^>]*rel="preload"[^>]*>/g) ?? []).filter((l) => /split_\w+_area/.test(l));
  for (const link of areaPreloads) expect(link, html.slice(0, 2000)).toMatch(/split_orders_area/);
  await hydrated(page);
  await expect(page.locator("main h1")).toHaveText("Orders");
  // Either way the page gets its area's chunk (the preload and the loader may both ask for it),
  // and no other area's.
  expect(wasm.filter((f) => /^split_orders_area/.test(f)).length).toBeGreaterThanOrEqual(1);
  expect(wasm.filter((f) => /^split_(quotes|runs|costs|admin)_area/.test(f))).toEqual([]);
  // Hydrated means working: a client-side navigation from the lazily loaded page.
  await follow(page, navLink(page, "Quotes"), "Quotes");
  expect(errors).toEqual([]);
});
