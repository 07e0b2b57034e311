import { expect, Page } from "@playwright/test";

/** A password that satisfies the policy (12–128 characters). */
export const PASSWORD = "correct horse battery staple";

/** Loads `path` and waits until the WASM bundle has hydrated the page (clicks work). */
export async function open(page: Page, path: string) {
  await page.goto(path);
  await hydrated(page);
}

/** Waits for the hydration marker the app sets from a browser-only effect. */
export async function hydrated(page: Page) {
  await expect(page.locator("body")).toHaveAttribute("data-hydrated", "true");
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
