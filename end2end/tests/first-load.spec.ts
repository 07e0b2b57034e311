import { expect, test } from "@playwright/test";
import fs from "fs";
import os from "os";
import path from "path";
import { ADMIN, Asset, PASSWORD, hydrated, watchAssets } from "./helpers";
import { createTeam } from "./api";

const MEMBER = "first-load@example.com";

// First load: pages that only show (sign-in, the dashboard, lists) have no island, so their one
// script loads no WASM: they are ready as sent. At idle they ask the browser to prefetch the
// bundle, so the next page with an island takes it from the cache. Their forms work as plain
// posts.

/** The `/pkg/*.wasm` files among `assets`, by file name. */
function wasmFiles(assets: Map<string, Asset>): (Asset & { file: string })[] {
  return [...assets.values()]
    .map((a) => ({ ...a, file: new URL(a.url).pathname.slice("/pkg/".length) }))
    .filter((a) => a.file.endsWith(".wasm"));
}

test("a new visitor's sign-in page and dashboard load no WASM and their prefetch serves the next page", async ({ browser, playwright, baseURL }, testInfo) => {
  // Someone of a team, who may import quotes (a page with an island).
  const setup = await browser.newPage();
  await createTeam(setup, "First Load Desk", [[MEMBER, "procurement"]]);
  await setup.close();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "nl-first-"));
  const context = await playwright.chromium.launchPersistentContext(profile, { ...testInfo.project.use.launchOptions, baseURL });
  const page = await context.newPage();
  const { assets } = await watchAssets(page);

  await page.goto("/login");
  await expect(page.locator("body")).toHaveAttribute("data-hydrated", "static");
  // One script, the loader; no island, so the bundle is only named as a hint for later.
  await expect(page.locator("leptos-island")).toHaveCount(0);
  await expect(page.locator('script[type="module"]')).toHaveCount(1);
  await expect(page.locator('link[rel="prefetch"][href$=".wasm"]')).toHaveCount(1);
  await expect(page.locator('link[rel="prefetch"][href$=".js"]')).toHaveCount(1);
  // And the page's language's texts, which the bundle (built without texts) installs.
  await expect(page.locator('link[rel="prefetch"][href^="/pkg/texts/en."]')).toHaveCount(1);
  // The prefetch (and nothing that would run it) is the only WASM the page asks for.
  await expect.poll(() => wasmFiles(assets).some((w) => w.finished), { message: "the bundle is prefetched" }).toBe(true);
  expect(wasmFiles(assets).map((w) => w.file)).toEqual([expect.stringMatching(/^nodeledger\./)]);

  // A wrong password: the server sends the page back with the error, still without WASM.
  const form = page.getByTestId("login-form");
  await form.locator('input[name="email"]').fill(MEMBER);
  await form.locator('input[name="password"]').fill("not the password at all");
  await form.locator('button[type="submit"]').click();
  await expect(page.getByTestId("login-form").getByRole("alert")).toHaveText("Wrong e-mail or password.");
  await expect(page.locator("body")).toHaveAttribute("data-hydrated", "static");
  // The new page keeps the e-mail typed (a small script with the page's nonce, no WASM).
  await expect(page.getByTestId("login-form").locator('input[name="email"]')).toHaveValue(MEMBER);

  // The right one: the dashboard, also without WASM: nothing to download, the bell rendered by
  // the server and opened without a script.
  assets.clear();
  await page.getByTestId("login-form").locator('input[name="email"]').fill(MEMBER);
  await page.getByTestId("login-form").locator('input[name="password"]').fill(PASSWORD);
  await page.getByTestId("login-form").locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.pathname === "/");
  await expect(page.locator("body")).toHaveAttribute("data-hydrated", "static");
  await expect(page.locator("leptos-island")).toHaveCount(0);
  expect(wasmFiles(assets).filter((w) => !w.fromCache), "the dashboard downloads no WASM").toEqual([]);
  await expect(page.getByTestId("notify-panel")).toBeHidden();
  await page.getByTestId("notifications").locator("summary").click();
  await expect(page.getByTestId("notify-panel")).toBeVisible();

  // The next page has islands: it hydrates with the bundle the first pages prefetched.
  assets.clear();
  await page.goto("/quotes/import");
  await expect(page.locator("body")).toHaveAttribute("data-hydrated", "true");
  const main = wasmFiles(assets).filter((w) => /^nodeledger\./.test(w.file));
  expect(main, "the import page asks for the main bundle once").toHaveLength(1);
  expect(main[0].fromCache, "and takes it from the cache").toBe(true);

  // Signed in, the sign-in page sends the user on.
  await page.goto("/login");
  await page.waitForURL((url) => url.pathname === "/");
  await hydrated(page);
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
});

test("with JavaScript switched off, signing in, the dashboard and signing out still work", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  const form = page.getByTestId("login-form");
  await form.locator('input[name="email"]').fill(ADMIN.email);
  await form.locator('input[name="password"]').fill("not the password at all");
  await form.locator('button[type="submit"]').click();
  await expect(page.getByTestId("login-form").getByRole("alert")).toHaveText("Wrong e-mail or password.");
  await page.getByTestId("login-form").locator('input[name="email"]').fill(ADMIN.email);
  await page.getByTestId("login-form").locator('input[name="password"]').fill(PASSWORD);
  await page.getByTestId("login-form").locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.pathname === "/");
  expect((await context.cookies()).some((c) => c.name.endsWith("nl_session")), "a session cookie is set").toBe(true);
  // The dashboard works too: the bell opens, and signing out ends the session.
  await expect(page.getByTestId("dashboard-title")).toBeVisible();
  await page.getByTestId("notifications").locator("summary").click();
  await expect(page.getByTestId("notify-panel")).toBeVisible();
  await page.locator(".user-menu button[type=submit]").click();
  await page.waitForURL((url) => url.pathname === "/login");
  await expect(page.getByTestId("login-form")).toBeVisible();
  await context.close();
});
