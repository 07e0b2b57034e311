import { expect, test } from "@playwright/test";
import { ADMIN, PASSWORD, ensureAdmin, hydrated, open, signIn } from "./helpers";

// Common passwords are refused with the reason, and a throttled sign-in says when to
// try again, in both languages.

test("a common password is refused with the reason and advice, in English and Chinese", async ({ page }) => {
  await ensureAdmin(page);
  await signIn(page, ADMIN.email);
  await open(page, "/account");
  const form = page.locator("form").filter({ has: page.locator('input[name="current_password"]') });
  const tryNew = async (password: string) => {
    await form.locator('input[name="current_password"]').fill(PASSWORD);
    await form.locator('input[name="new_password"]').fill(password);
    await form.locator('input[name="new_password_confirm"]').fill(password);
    await form.locator('button[type="submit"]').click();
  };
  // On the list of the 100,000 most common passwords (and 12 characters long).
  await tryNew("123123qweqwe");
  await expect(form.getByRole("alert")).toContainText("100,000 most common passwords");
  await expect(form.getByRole("alert")).toContainText("Use a few unrelated words");

  await page.context().addCookies([{ name: "nl_lang", value: "zh-CN", url: page.url() }]);
  await page.reload();
  await hydrated(page);
  // Off the list, but zxcvbn finds a repeat: the reason is ours, not zxcvbn's English.
  await tryNew("aaaaaaaaaaaaaaaa");
  await expect(form.getByRole("alert")).toContainText("重复字符");
  await expect(form.getByRole("alert")).not.toContainText("Repeats like");
  await page.context().addCookies([{ name: "nl_lang", value: "en", url: page.url() }]);
});

test("after ten failed sign-ins the page says when to try again", async ({ page }) => {
  await ensureAdmin(page);
  await open(page, "/login");
  // Signed out, the sign-in page comes without WASM: each try is a plain post, and
  // the server sends the page back with the answer. Waits for that new page before going on.
  const send = async () => {
    await page.evaluate(() => document.body.setAttribute("data-sent", ""));
    await page.getByTestId("login-form").locator('button[type="submit"]').click();
    await page.locator("body:not([data-sent])").waitFor();
    await hydrated(page);
  };
  const form = page.getByTestId("login-form");
  for (let i = 0; i < 10; i++) {
    await form.locator('input[name="email"]').fill("mallory@example.com");
    await form.locator('input[name="password"]').fill(`wrong guess number ${i}`);
    await send();
    await expect(form.getByRole("alert")).toHaveText("Wrong e-mail or password.");
    await expect(form.locator('button[type="submit"]')).toBeEnabled();
  }
  await form.locator('input[name="email"]').fill("mallory@example.com");
  await form.locator('input[name="password"]').fill("one more guess here");
  await send();
  await expect(form.getByRole("alert")).toHaveText("Too many failed password attempts. Try again in 15 min.");
});
