import { expect, test } from "@playwright/test";
import { ADMIN, PASSWORD, createMember, ensureAdmin, open, signIn, signOut, watchConsole } from "./helpers";

test.describe.configure({ mode: "serial" });

test("a token shows its expiry and last use, dies with a password change, and the admin's audit log shows it all", async ({
  page,
  request,
}) => {
  const consoleErrors = watchConsole(page);
  await ensureAdmin(page);
  await createMember(page, "Token Desk", "tia@example.com", "Tia Engineer", "engineer");
  await signIn(page, "tia@example.com");

  // A token that lives 30 days: the expiry is shown with the token and in the list.
  await open(page, "/account/tokens");
  const form = page.getByTestId("token-form");
  await form.locator('input[name="name"]').fill("nightly CI");
  await expect(form.getByTestId("token-expiry")).toHaveValue("90");
  await form.getByTestId("token-expiry").selectOption("30");
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.locator('button[type="submit"]').click();
  const token = (await page.getByTestId("new-token").textContent())?.trim() ?? "";
  expect(token).toMatch(/^nlt_/);
  const in30 = new Date(Date.now() + 30 * 86400_000).toISOString().slice(0, 10);
  await expect(page.getByTestId("new-token-expiry")).toContainText(`This token expires on ${in30}`);
  const row = page.getByTestId("token-table").locator("tbody tr").first();
  await expect(row.getByTestId("token-expires")).toContainText(in30);
  await expect(row.getByTestId("token-used")).toHaveText("never");

  // A script uses it: the list shows when.
  const used = await request.post("/api/v1/runs", {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { dry_run: "true" },
  });
  expect(used.status()).not.toBe(401);
  const today = new Date().toISOString().slice(0, 10);
  await open(page, "/account/tokens");
  await expect(page.getByTestId("token-table").locator("tbody tr").first().getByTestId("token-used")).toContainText(today);

  // Changing the password revokes it.
  await open(page, "/account");
  const newPassword = "a different long passphrase";
  await page.locator('input[name="current_password"]').fill(PASSWORD);
  await page.locator('input[name="new_password"]').fill(newPassword);
  await page.locator('input[name="new_password_confirm"]').fill(newPassword);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.locator(".form-ok")).toBeVisible();
  const refused = await request.post("/api/v1/runs", {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { dry_run: "true" },
  });
  expect(refused.status()).toBe(401);
  await open(page, "/account/tokens");
  await expect(page.getByTestId("token-state").first()).toContainText("(password changed)");
  await signOut(page);

  // The administrator's audit log lists these actions, in both languages.
  await signIn(page, ADMIN.email);
  await page.getByRole("link", { name: "Audit log", exact: true }).click();
  await page.waitForURL("**/admin/audit");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Audit log");
  await expect(page.getByTestId("audit-head")).toContainText(/The chain holds \d+ events; its head is [0-9a-f]{64}/);
  const events = page.getByTestId("audit-event");
  await expect(events.first()).toHaveAttribute("data-action", "password_changed");
  await expect(events.first()).toContainText("Tia Engineer <tia@example.com>");
  await expect(events.first()).toContainText("tia@example.com; 1 API tokens revoked");
  const created = page.locator('[data-testid="audit-event"][data-action="token_created"]').first();
  await expect(created).toContainText("“nightly CI” for tia@example.com in Token Desk as Engineer");
  await expect(page.locator('[data-testid="audit-event"][data-action="user_created"]').first()).toContainText(
    "tia@example.com joins Token Desk as Engineer",
  );
  await page.context().addCookies([{ name: "nl_lang", value: "zh-CN", url: page.url() }]);
  await open(page, "/admin/audit");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("审计日志");
  await expect(page.getByTestId("audit-event").first()).toContainText("修改密码");
  await expect(page.getByTestId("audit-event").first()).toContainText("已吊销 1 个 API 令牌");
  await page.context().addCookies([{ name: "nl_lang", value: "en", url: page.url() }]);
  expect(consoleErrors).toEqual([]);
});
