import { expect, test } from "@playwright/test";
import { createMember, ensureAdmin, hydrated, signIn, watchConsole } from "./helpers";

test.describe.configure({ mode: "serial" });

test("procurement records a vendor, a workload and an exchange rate", async ({ page }) => {
  const consoleErrors = watchConsole(page);

  // The administrator (created here when this spec runs first) sets up a team and its buyer.
  await ensureAdmin(page);
  await createMember(page, "Inference Desk", "pia@example.com", "Pia Procurement", "procurement");
  await signIn(page, "pia@example.com");

  // A vendor, with the operations tasks its support covers.
  await page.getByRole("link", { name: "Vendors", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vendors");
  await hydrated(page);
  const vendorForm = page.getByTestId("vendor-form");
  await vendorForm.locator('input[name="name"]').fill("GPU Cloud");
  await vendorForm.locator('input[name="website"]').fill("https://gpu.example.com");
  await vendorForm.locator('input[name="contact"]').fill("sales@gpu.example.com");
  await vendorForm.locator('select[name="environment_setup"]').selectOption("yes");
  await vendorForm.locator('select[name="provisioning"]').selectOption("yes");
  await vendorForm.locator('select[name="resource_release"]').selectOption("yes");
  await vendorForm.locator('button[type="submit"]').click();
  const vendors = page.getByTestId("vendor-table");
  await expect(vendors).toContainText("GPU Cloud");
  await expect(vendors).toContainText(
    "Helps with: Remote environment deployment, Instance provisioning, Resource reclamation on release.",
  );
  const site = vendors.getByRole("link", { name: "https://gpu.example.com" });
  await expect(site).toHaveAttribute("rel", "noopener noreferrer");
  await expect(vendorForm.locator('input[name="name"]')).toHaveValue("", { timeout: 5_000 });

  // The same name again is refused with a clear message.
  await vendorForm.locator('input[name="name"]').fill("gpu cloud");
  await vendorForm.locator('button[type="submit"]').click();
  await expect(page.getByRole("alert")).toHaveText("Your team already has a vendor with this name.");

  // Edit it.
  await vendors.getByRole("link", { name: "GPU Cloud" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("GPU Cloud");
  await hydrated(page);
  const editForm = page.getByTestId("vendor-form");
  await editForm.locator('input[name="contact"]').fill("Li Lei, +86 10 1234 5678");
  await editForm.locator('button[type="submit"]').click();
  await expect(page.getByRole("status")).toHaveText("Saved.");
  await page.getByRole("link", { name: "Vendors", exact: true }).first().click();
  await expect(page.getByTestId("vendor-table")).toContainText("Li Lei, +86 10 1234 5678");

  // A workload: 30 % headroom is outside the 15–25 % rule; 20 % is saved.
  await page.getByRole("link", { name: "Workloads", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Workloads");
  await hydrated(page);
  const workloadForm = page.getByTestId("workload-form");
  await expect(workloadForm).toContainText("Keep 15 % to 25 % on top of the peak");
  await workloadForm.locator('input[name="name"]').fill("Qwen2-7B LoRA");
  await workloadForm.locator('select[name="kind"]').selectOption("training");
  await workloadForm.locator('input[name="model"]').fill("Qwen2-7B");
  await workloadForm.locator('input[name="precision"]').fill("bf16");
  await workloadForm.locator('input[name="vram_peak_gib"]').fill("18.5");
  await workloadForm.locator('input[name="gpus_needed"]').fill("2");
  await workloadForm.locator('input[name="run_hours"]').fill("72");
  await workloadForm.locator('input[name="data_gb"]').fill("120");
  await workloadForm.locator('input[name="checkpoint_gb"]').fill("60");
  const headroom = workloadForm.locator('input[name="headroom_pct"]');
  await headroom.fill("30");
  await workloadForm.locator('button[type="submit"]').click();
  await expect(workloadForm.locator('[data-field="headroom_pct"]')).toHaveText("Out of range: allowed [15, 25].");
  await expect(headroom).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("alert")).toHaveText("Some fields need your attention: see the messages next to them.");
  await expect(page.getByTestId("workload-table")).toHaveCount(0);
  await headroom.fill("20");
  await workloadForm.locator('button[type="submit"]').click();
  const workloads = page.getByTestId("workload-table");
  await expect(workloads).toContainText("Qwen2-7B LoRA");
  await expect(workloads).toContainText("22.2 GiB (+20 %)");
  await expect(workloadForm.locator('[data-field="headroom_pct"]')).toHaveCount(0);

  // An exchange rate, shown with its date; a rate from a currency to itself is refused.
  await page.getByRole("link", { name: "Exchange rates", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Exchange rates");
  await hydrated(page);
  await expect(page.getByTestId("base-currency-form").locator('select[name="currency"]')).toHaveValue("CNY");
  const rateForm = page.getByTestId("rate-form");
  await rateForm.locator('select[name="from"]').selectOption("CNY");
  await rateForm.locator('select[name="to"]').selectOption("CNY");
  await rateForm.locator('input[name="rate"]').fill("1");
  await rateForm.locator('input[name="date"]').fill("2026-11-20");
  await rateForm.locator('button[type="submit"]').click();
  await expect(rateForm.locator('[data-field="to"]')).toContainText("Choose a different currency");
  await rateForm.locator('select[name="from"]').selectOption("USD");
  await rateForm.locator('input[name="rate"]').fill("7.21");
  await rateForm.locator('button[type="submit"]').click();
  await expect(page.getByTestId("latest-rates")).toHaveText("1 USD = 7.21 CNY on 2026-11-20");

  expect(consoleErrors, consoleErrors.join("\n")).toEqual([]);
});
