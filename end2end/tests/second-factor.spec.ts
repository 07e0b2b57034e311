import { expect, Page, test } from "@playwright/test";
import { createHmac } from "node:crypto";
import { PASSWORD, hydrated, open, signIn, signOut, watchConsole } from "./helpers";
import { createTeam } from "./api";

/** RFC 4648 base32 (no padding) to bytes, as an authenticator app reads a typed secret. */
function base32(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const c of text.replace(/\s+/g, "").toUpperCase()) {
    const index = alphabet.indexOf(c);
    if (index < 0) throw new Error(`not base32: ${c}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((value >>> bits) & 0xff);
    }
  }
  return Buffer.from(out);
}

/** RFC 6238 TOTP (HMAC-SHA-1, 6 digits, 30 s) for the time step `step`. */
function totp(secret: Buffer, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", secret).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, "0");
}

/** The current time step, after waiting out the last 3 s of a step (codes of this step and the next stay valid). */
async function freshStep(): Promise<number> {
  const into = (Date.now() / 1000) % 30;
  if (into > 26) await new Promise((r) => setTimeout(r, (31 - into) * 1000));
  return Math.floor(Date.now() / 1000 / 30);
}

/** The password step of the sign-in form; the page then asks for the code. */
async function passwordStep(page: Page, email: string) {
  await open(page, "/login");
  const form = page.getByTestId("login-form");
  await form.locator('input[name="email"]').fill(email);
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.locator('button[type="submit"]').click();
  await expect(page.getByTestId("login-code")).toBeVisible();
}

/** The code step: enters `code` and waits for the start page. */
async function codeStep(page: Page, code: string) {
  const form = page.getByTestId("login-code-form");
  await form.locator('input[name="code"]').fill(code);
  await form.locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.pathname === "/");
  await hydrated(page);
}

test("a user sets up an authenticator app, signs in with its code, then with a recovery code", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  const stamp = Date.now();
  const email = `totp-${stamp}@example.com`;
  await createTeam(page, `Second factor ${stamp}`, [[email, "engineer"]]);

  // Enrol on the account page: the QR code is inline SVG, the secret is typed into our "app".
  await signIn(page, email);
  await open(page, "/account");
  const section = page.getByTestId("second-factor");
  await expect(section.getByTestId("second-factor-state")).toHaveText("Second factor: off.");
  // Setting one up asks for the current password first (a stolen session cannot add its own).
  const start = section.getByTestId("enrol-start");
  await start.locator('input[name="password"]').fill("not my password");
  await section.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(section.getByRole("alert")).toContainText("The current password is wrong.");
  await start.locator('input[name="password"]').fill(PASSWORD);
  await section.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(section.locator(".qr svg")).toBeVisible();
  const secret = base32((await section.getByTestId("second-factor-secret").innerText()).trim());
  expect(secret.length).toBe(20);
  const step = await freshStep();
  const confirm = section.getByTestId("enrol-confirm");
  await confirm.locator('input[name="code"]').fill("000000");
  await confirm.locator('button[type="submit"]').click();
  await expect(confirm.getByRole("alert")).toContainText("That code is not right");
  await confirm.locator('input[name="code"]').fill(totp(secret, step));
  await confirm.locator('button[type="submit"]').click();
  const codes = section.getByTestId("recovery-codes");
  await expect(codes.locator("li")).toHaveCount(10);
  const recovery = (await codes.locator("li").allInnerTexts()).map((c) => c.trim());
  expect(recovery[0]).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/);
  await expect(codes.getByRole("link", { name: "Download" })).toHaveAttribute("download", /recovery-codes/);
  await expect(section.getByTestId("second-factor-state")).toContainText("Second factor: on.");
  await expect(section.getByTestId("recovery-codes-left")).toHaveText("Unused recovery codes: 10.");

  // The secret is not shown again.
  await open(page, "/account");
  await expect(page.getByTestId("second-factor-secret")).toHaveCount(0);
  await expect(page.getByTestId("recovery-codes")).toHaveCount(0);

  // Signing in now asks for the code; the one already used is refused, the next one works.
  await signOut(page);
  await passwordStep(page, email);
  const codeForm = page.getByTestId("login-code-form");
  await codeForm.locator('input[name="code"]').fill(totp(secret, step));
  await codeForm.locator('button[type="submit"]').click();
  await expect(codeForm.getByRole("alert")).toContainText("already used");
  await codeStep(page, totp(secret, step + 1));
  await expect(page.getByTestId("user-name")).toHaveText(email.split("@")[0]);

  // Lost the phone: a recovery code signs in once.
  await signOut(page);
  await passwordStep(page, email);
  await codeStep(page, recovery[0]);
  await open(page, "/account");
  await expect(page.getByTestId("recovery-codes-left")).toHaveText("Unused recovery codes: 9.");
  await signOut(page);
  await passwordStep(page, email);
  // The session keeps the step: a reload of the page asks for the code again.
  await page.reload();
  await hydrated(page);
  await codeForm.locator('input[name="code"]').fill(recovery[0]);
  await codeForm.locator('button[type="submit"]').click();
  await expect(codeForm.getByRole("alert")).toContainText("That code is not right");

  // "Sign in again" drops it: the password form is back, also after a reload.
  await page.getByTestId("login-start-again").click();
  await expect(page.getByTestId("login-form")).toBeVisible();
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("login-form")).toBeVisible();
  await expect(page.getByTestId("login-code")).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});
