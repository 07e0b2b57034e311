import { expect, Page, test } from "@playwright/test";
import fs from "fs";
import os from "os";
import path from "path";
import { Asset, hydrated, signIn, watchAssets } from "./helpers";
import { createTeam } from "./api";

const MEMBER = "cache@example.com";

// "Warm cache": the WASM, JS and CSS names (and the page's texts for the bundle) carry their
// content hash and are kept a year, so a second visit takes them from the browser's cache and
// asks the network for none.

/** Opens `path` in a new tab of the same browser profile and returns the `/pkg` files it loaded. */
async function visit(page: Page, path: string): Promise<Asset[]> {
  const { cdp, assets } = await watchAssets(page);
  await page.goto(path);
  await hydrated(page);
  // A page without an island prefetches the bundle once idle: wait for that to arrive, so a
  // request cut off by ending the watch is not taken for one that went to the network.
  if ((await page.locator("body").getAttribute("data-hydrated")) === "static")
    await expect(page.locator('link[rel="prefetch"]')).not.toHaveCount(0);
  await expect.poll(() => [...assets.values()].filter((a) => !a.finished && !a.fromCache).map((a) => a.url)).toEqual([]);
  await cdp.detach();
  return [...assets.values()];
}

test("a second visit fetches no WASM, JS or CSS from the network", async ({ browser, playwright, baseURL }, testInfo) => {
  // Someone of a team, who may import quotes (a page with an island).
  const setup = await browser.newPage();
  await createTeam(setup, "Cache Desk", [[MEMBER, "procurement"]]);
  await setup.close();
  // A profile on disk, as people have: a fresh context keeps its cache in memory, and that
  // drops files as large as the debug build's WASM.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "nl-cache-"));
  const context = await playwright.chromium.launchPersistentContext(profile, {
    ...testInfo.project.use.launchOptions,
    baseURL,
  });
  // The first visit: the sign-in page and the dashboard after signing in (no island, no WASM;
  // they prefetch the bundle), then the quote import, whose island hydrates.
  const page = await context.newPage();
  const { cdp, assets } = await watchAssets(page);
  await signIn(page, MEMBER);
  await page.goto("/quotes/import");
  await expect(page.locator("body")).toHaveAttribute("data-hydrated", "true");
  await cdp.detach();
  const first = [...assets.values()];
  const kinds = (list: Asset[]) => list.map((a) => new URL(a.url).pathname.split(".").pop()).sort();
  expect(kinds(first)).toEqual(expect.arrayContaining(["css", "js", "wasm"]));
  const fetched = first.filter((a) => !a.fromCache);
  expect(fetched.length, "the first visit downloads the bundle").toBeGreaterThan(0);
  for (const a of first) expect(a.url, "names carry a content hash").toMatch(/\.[A-Za-z0-9_-]{22}\.(wasm|js|css|json)$/);

  // The second: the dashboard and the quote import again.
  const second = [...(await visit(await context.newPage(), "/")), ...(await visit(await context.newPage(), "/quotes/import"))];
  expect(kinds(second), "the second visit uses the same files").toEqual(expect.arrayContaining(["css", "js", "wasm"]));
  const again = second.filter((a) => !a.fromCache || a.bytes > 0);
  expect(again, "nothing from the network, not even a revalidation").toEqual([]);
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
});
