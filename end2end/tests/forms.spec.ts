import { expect, test } from "@playwright/test";
import { ADMIN, PASSWORD, ensureAdmin, hydrated, open, signIn, signOut, watchConsole } from "./helpers";

test.describe.configure({ mode: "serial" });

test("after Create user the form is empty, a confirmation names the user, the list shows team and role", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await ensureAdmin(page);
  await signIn(page, ADMIN.email);
  await open(page, "/admin/teams");
  const teamForm = page.getByTestId("create-team-form");
  await teamForm.locator('input[name="name"]').fill("Forms Desk");
  await teamForm.locator('button[type="submit"]').click();
  await expect(page.getByTestId("team-table")).toContainText("Forms Desk");

  await open(page, "/admin/users");
  const form = page.getByTestId("create-user-form");
  await form.locator('input[name="email"]').fill("fiona@example.com");
  await form.locator('input[name="display_name"]').fill("Fiona Forms");
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.locator('input[name="password_confirm"]').fill(PASSWORD);
  await form.locator('select[name="team_id"]').selectOption({ label: "Forms Desk" });
  await form.locator('select[name="role"]').selectOption("procurement");
  await form.locator('button[type="submit"]').click();
  await expect(page.getByTestId("user-created")).toHaveText(
    "Created Fiona Forms (fiona@example.com). The form is ready for the next user.",
  );
  for (const name of ["email", "display_name", "password", "password_confirm"]) {
    await expect(form.locator(`input[name="${name}"]`)).toHaveValue("");
  }
  // The team and role stay for the next person of the same team.
  await expect(form.locator('select[name="team_id"] option:checked')).toHaveText("Forms Desk");
  await expect(form.locator('select[name="role"]')).toHaveValue("procurement");
  const users = page.getByTestId("user-table");
  const fiona = users.locator("tr", { hasText: "fiona@example.com" });
  await expect(fiona.getByTestId("user-teams")).toHaveText("Forms Desk · Procurement");

  // The next user, in no team (chosen, since the form kept the last team): confirmed by name,
  // and visibly without a team in the list.
  await form.locator('select[name="team_id"]').selectOption("");
  await form.locator('input[name="email"]').fill("nils@example.com");
  await form.locator('input[name="display_name"]').fill("Nils Noteam");
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.locator('input[name="password_confirm"]').fill(PASSWORD);
  await form.locator('button[type="submit"]').click();
  await expect(page.getByTestId("user-created")).toContainText("Created Nils Noteam (nils@example.com).");
  const nils = users.locator("tr", { hasText: "nils@example.com" });
  await expect(nils.getByTestId("user-teams")).toHaveText("No team");
  await expect(nils.locator(".tag.warn")).toBeVisible();
  // An administrator needs no team: said, not flagged.
  const admin = users.locator("tr", { hasText: ADMIN.email });
  await expect(admin.getByTestId("user-teams")).toHaveText("None needed: administers the site");
  await expect(admin.locator(".tag.warn")).toHaveCount(0);
  await expect(form.locator('input[name="email"]')).toHaveValue("");
  await signOut(page);
  expect(consoleErrors, consoleErrors.join("\n")).toEqual([]);
});

test("numbers typed as 2,000,000, 1 000 or 12,50 are saved and shown back normalised", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await signIn(page, "fiona@example.com");

  // A workload with thousands separators and a decimal comma.
  await open(page, "/workloads");
  const workloadForm = page.getByTestId("workload-form");
  await workloadForm.locator('input[name="name"]').fill("Forms LoRA");
  await workloadForm.locator('select[name="kind"]').selectOption("training");
  await workloadForm.locator('input[name="vram_peak_gib"]').fill("18,5");
  await workloadForm.locator('input[name="gpus_needed"]').fill("2");
  await workloadForm.locator('input[name="run_hours"]').fill("1 000");
  await workloadForm.locator('input[name="data_gb"]').fill("2,000,000");
  await workloadForm.locator('input[name="checkpoint_gb"]').fill("60");
  await workloadForm.locator('input[name="headroom_pct"]').fill("20");
  await workloadForm.locator('button[type="submit"]').click();
  const workloads = page.getByTestId("workload-table");
  await expect(workloads).toContainText("Forms LoRA");
  await expect(workloads).toContainText("22.2 GiB (+20 %)");
  await workloads.getByRole("link", { name: "Forms LoRA" }).click();
  await hydrated(page);
  const edit = page.getByTestId("workload-form");
  await expect(edit.locator('input[name="vram_peak_gib"]')).toHaveValue("18.5");
  await expect(edit.locator('input[name="run_hours"]')).toHaveValue("1000");
  await expect(edit.locator('input[name="data_gb"]')).toHaveValue("2000000");

  // A quote: a price with a decimal comma; a number in two styles is refused next to its field.
  await open(page, "/quotes/new");
  const form = page.getByTestId("quote-form");
  await form.locator("#f-vendor").fill("Comma Cloud");
  await form.locator("#f-reference").fill("CC-1250");
  await form.locator("#f-spec-gpu_model").fill("L4 24GB");
  await form.locator("#f-spec-gpus_per_node").fill("1");
  await form.locator("#f-spec-vram_gib").fill("24");
  await form.locator("#f-spec-ram_gib").fill("1.024.5");
  await form.locator("#f-price-on_demand_hourly").fill("1,234.5.6");
  await form.locator("#f-valid_until").fill("2099-06-30");
  await form.locator('button[type="submit"]').click();
  const fieldError = (id: string) => form.locator(`label[for="${id}"] .field-error`);
  await expect(fieldError("f-price-on_demand_hourly")).toContainText("Two number styles at once");
  await expect(fieldError("f-spec-ram_gib")).toContainText("Group digits in threes");
  await form.locator("#f-spec-ram_gib").fill("2,000");
  await form.locator("#f-price-on_demand_hourly").fill("12,50");
  await form.locator('button[type="submit"]').click();
  await page.waitForURL(/\/quotes\/\d+$/);
  await expect(page.getByTestId("quote-revision")).toContainText("¥12.50");
  await open(page, new URL(page.url()).pathname + "/edit");
  const again = page.getByTestId("quote-form");
  await expect(again.locator("#f-price-on_demand_hourly")).toHaveValue("12.50");
  await expect(again.locator("#f-spec-ram_gib")).toHaveValue("2000");
  expect(consoleErrors, consoleErrors.join("\n")).toEqual([]);
});
