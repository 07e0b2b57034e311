import { CDPSession, expect, Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** A password that satisfies the policy (12–128 characters). */
export const PASSWORD = "correct horse battery staple";

/** Loads `path` and waits until the WASM bundle has hydrated the page (clicks work). */
export async function open(page: Page, path: string) {
  await page.goto(path);
  await hydrated(page);
}

/**
 * Waits until the page is ready for clicks: the mark the page's script sets once its islands
 * are hydrated (`true`), or at once on a page without an island (`static`: nothing to hydrate;
 * its forms marked `data-in-place` now save in place, before that they would be plain posts).
 */
export async function hydrated(page: Page) {
  await expect(page.locator("body")).toHaveAttribute("data-hydrated", /^(true|static)$/);
}

/**
 * Collects browser console errors (CSP violations, hydration panics) for the test to check.
 * HTTP error statuses the test provokes on purpose (401, 409, 422…) are not errors of the page.
 */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  return errors;
}

/** Signs in through the form and waits for the dashboard. */
export async function signIn(page: Page, email: string, password = PASSWORD) {
  await open(page, "/login");
  const form = page.getByTestId("login-form");
  await form.locator('input[name="email"]').fill(email);
  await form.locator('input[name="password"]').fill(password);
  await form.locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.pathname === "/");
  await hydrated(page);
}

/** Signs out from the header and waits for the sign-in page. */
export async function signOut(page: Page) {
  await page.locator(".user-menu button[type=submit]").click();
  await page.waitForURL("**/login");
  await hydrated(page);
}

/** The administrator every spec can rely on (created on the first-run page if needed). */
export const ADMIN = { email: "admin@example.com", name: "Ada Admin" };

/**
 * The one-time setup code the server under test wrote next to its database
 * (NODELEDGER_DB=end2end/.tmp/e2e.db, playwright.config.ts); gone once set-up is done.
 */
export function setupCode(): string {
  return readFileSync(join(__dirname, "../.tmp/setup-code"), "utf8").trim();
}

/** Creates the first administrator when the database is still empty. */
export async function ensureAdmin(page: Page) {
  await open(page, "/");
  if (!page.url().endsWith("/setup")) return;
  const form = page.getByTestId("setup-form");
  await form.locator('input[name="setup_code"]').fill(setupCode());
  await form.locator('input[name="email"]').fill(ADMIN.email);
  await form.locator('input[name="display_name"]').fill(ADMIN.name);
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.locator('input[name="password_confirm"]').fill(PASSWORD);
  await form.locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.pathname === "/");
  await hydrated(page);
  await signOut(page);
}

/** As the administrator: creates `team` and a user with `role` in it; ends signed out. */
export async function createMember(page: Page, team: string, email: string, name: string, role: string) {
  await signIn(page, ADMIN.email);
  await open(page, "/admin/teams");
  const teamForm = page.getByTestId("create-team-form");
  await teamForm.locator('input[name="name"]').fill(team);
  await teamForm.locator('button[type="submit"]').click();
  await expect(page.getByTestId("team-table")).toContainText(team);
  await open(page, "/admin/users");
  const userForm = page.getByTestId("create-user-form");
  await userForm.locator('input[name="email"]').fill(email);
  await userForm.locator('input[name="display_name"]').fill(name);
  await userForm.locator('input[name="password"]').fill(PASSWORD);
  await userForm.locator('input[name="password_confirm"]').fill(PASSWORD);
  await userForm.locator('select[name="team_id"]').selectOption({ label: team });
  await userForm.locator('select[name="role"]').selectOption(role);
  await userForm.locator('button[type="submit"]').click();
  await expect(page.getByTestId("user-table")).toContainText(email);
  await signOut(page);
}

/** One `/pkg` file as the page got it: from the network (bytes on the wire) or from the cache. */
export type Asset = { url: string; fromCache: boolean; bytes: number; finished: boolean };

/** Records every `/pkg` file the page loads, through the DevTools protocol. */
export async function watchAssets(page: Page): Promise<{ cdp: CDPSession; assets: Map<string, Asset> }> {
  const cdp = await page.context().newCDPSession(page);
  const assets = new Map<string, Asset>();
  cdp.on("Network.requestWillBeSent", (e) => {
    if (new URL(e.request.url).pathname.startsWith("/pkg/"))
      assets.set(e.requestId, { url: e.request.url, fromCache: false, bytes: 0, finished: false });
  });
  cdp.on("Network.requestServedFromCache", (e) => {
    const a = assets.get(e.requestId);
    if (a) a.fromCache = true;
  });
  cdp.on("Network.responseReceived", (e) => {
    const a = assets.get(e.requestId);
    if (a && (e.response.fromDiskCache || e.response.fromPrefetchCache)) a.fromCache = true;
  });
  cdp.on("Network.loadingFinished", (e) => {
    const a = assets.get(e.requestId);
    if (a) {
      a.bytes = e.encodedDataLength;
      a.finished = true;
    }
  });
  await cdp.send("Network.enable");
  return { cdp, assets };
}
