import { expect, test } from "@playwright/test";
import { PASSWORD, hydrated, open, setupCode, signIn, signOut, watchConsole } from "./helpers";

test.describe.configure({ mode: "serial" });

test("first run: create the admin, a team and an engineer; the engineer signs in and switches language", async ({ page }) => {
  const consoleErrors = watchConsole(page);

  // An empty database sends everyone to the first-run page.
  await open(page, "/");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create the first administrator");

  // Client-side validation is backed by the server: a mismatch is reported in place.
  const setup = page.getByTestId("setup-form");
  await setup.locator('input[name="setup_code"]').fill(setupCode());
  await setup.locator('input[name="email"]').fill("admin@example.com");
  await setup.locator('input[name="display_name"]').fill("Ada Admin");
  await setup.locator('input[name="password"]').fill(PASSWORD);
  await setup.locator('input[name="password_confirm"]').fill(PASSWORD + "x");
  await setup.locator('button[type="submit"]').click();
  await expect(page.getByRole("alert")).toHaveText("The two passwords do not match.");
  await setup.locator('input[name="password_confirm"]').fill(PASSWORD);
  await setup.locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.pathname === "/");
  await hydrated(page);
  await expect(page.getByTestId("user-name")).toHaveText("Ada Admin");

  // The set-up page is gone for good.
  await open(page, "/setup");
  await expect(page).not.toHaveURL(/\/setup$/);

  // Sign out and back in.
  await signOut(page);
  await signIn(page, "admin@example.com");

  // A wrong password gets a clear message and no session.
  await signOut(page);
  await open(page, "/login");
  const login = page.getByTestId("login-form");
  await login.locator('input[name="email"]').fill("admin@example.com");
  await login.locator('input[name="password"]').fill("not the right password");
  await login.locator('button[type="submit"]').click();
  await expect(page.getByRole("alert")).toHaveText("Wrong e-mail or password.");
  await signIn(page, "admin@example.com");

  // Create a team.
  await page.getByRole("link", { name: "Teams" }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Teams");
  const teamForm = page.getByTestId("create-team-form");
  await teamForm.locator('input[name="name"]').fill("LLM Training");
  await teamForm.locator('button[type="submit"]').click();
  await expect(page.getByTestId("team-table")).toContainText("LLM Training");
  // A duplicate name is refused with a message.
  await teamForm.locator('input[name="name"]').fill("llm training");
  await teamForm.locator('button[type="submit"]').click();
  await expect(page.getByRole("alert")).toHaveText("A team with this name already exists.");

  // Create an engineer in that team.
  await page.getByRole("link", { name: "Users" }).first().click();
  const userForm = page.getByTestId("create-user-form");
  await userForm.locator('input[name="email"]').fill("eve@example.com");
  await userForm.locator('input[name="display_name"]').fill("Eve Engineer");
  await userForm.locator('input[name="password"]').fill("xq7#k");
  await userForm.locator('input[name="password_confirm"]').fill("xq7#k");
  // Bypass the browser's own minlength check to show the server's message.
  await userForm.locator('input[name="password"]').evaluate((el) => el.removeAttribute("minlength"));
  await userForm.locator('select[name="team_id"]').selectOption({ label: "LLM Training" });
  await userForm.locator('select[name="role"]').selectOption("engineer");
  await userForm.locator('button[type="submit"]').click();
  await expect(page.getByRole("alert")).toHaveText("The password must be at least 12 characters.");
  await userForm.locator('input[name="password"]').fill(PASSWORD);
  await userForm.locator('input[name="password_confirm"]').fill(PASSWORD);
  await userForm.locator('button[type="submit"]').click();
  await expect(page.getByTestId("user-table")).toContainText("eve@example.com");

  // The team page lists the engineer with the role.
  await page.getByRole("link", { name: "Teams" }).first().click();
  await page.getByRole("link", { name: "LLM Training" }).click();
  await expect(page.getByTestId("member-table")).toContainText("Eve Engineer");

  await signOut(page);

  // The engineer signs in and lands on the engineer's dashboard of the team.
  await signIn(page, "eve@example.com");
  await expect(page.getByTestId("dashboard-title")).toHaveText("LLM Training");
  await expect(page.getByTestId("dashboard-role")).toContainText("Engineer");
  await expect(page.getByTestId("active-team")).toContainText("LLM Training");
  // Engineers have no administration links.
  await expect(page.getByRole("link", { name: "Users" })).toHaveCount(0);

  // Switch to Chinese, and back; the choice survives a reload.
  await page.getByRole("button", { name: "中文" }).click();
  await hydrated(page);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page.getByTestId("dashboard-role")).toContainText("工程师");
  await expect(page.getByRole("button", { name: "退出登录" })).toBeVisible();
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("dashboard-role")).toContainText("工程师");
  await page.getByRole("button", { name: "English" }).click();
  await hydrated(page);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

  // Client-side navigation works after hydration (no full reload).
  await page.getByRole("link", { name: "Team", exact: true }).click();
  await expect(page).toHaveURL(/\/team$/);
  await expect(page.getByTestId("member-table")).toContainText("Eve Engineer");

  expect(consoleErrors, consoleErrors.join("\n")).toEqual([]);
});

test("unknown pages show a friendly 404 in the chosen language", async ({ page }) => {
  const res = await page.goto("/no/such/page");
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toContainText("Page not found");
  await page.context().addCookies([{ name: "nl_lang", value: "zh-CN", url: page.url() }]);
  await page.reload();
  await expect(page.getByTestId("not-found")).toContainText("页面不存在");
});
