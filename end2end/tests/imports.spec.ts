import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createMember, ensureAdmin, open, signIn, watchConsole } from "./helpers";

test.describe.configure({ mode: "serial" });

const FIXTURES = join(__dirname, "../../app/domain/src/quotes/fixtures");

const HEADER =
  "vendor,reference,received_on,valid_until,currency,spec.gpu_model,spec.gpus_per_node,spec.vram_gib,spec.sharing," +
  "price.basis,price.on_demand_hourly,price.billing_increment,price.stopped_bills_compute,spec.region";
// Line 3 has VRAM written with its unit ("48GB"): not a number.
const WITH_BAD_ROW = [
  HEADER,
  "智算云,ZS-H800-8,2026-11-01,2099-12-31,CNY,H800 80GB,8,80,exclusive,per_node,260.00,minute,no,华北-北京",
  "智算云,ZS-L40S-2,2026-11-01,2099-12-31,CNY,L40S 48GB,2,48GB,exclusive,per_gpu,9.80,hour,yes,华东-上海",
  ",".repeat(13), // an empty row, as spreadsheets save one
  "智算云,ZS-4090-1,2026-11-02,2099-12-31,CNY,RTX 4090 24GB,1,24,exclusive,per_node,2.60,second,no,华南-广州",
].join("\n");

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await ensureAdmin(page);
  await createMember(page, "Import Desk", "importer@example.com", "Ina Importer", "procurement");
  await page.close();
});

test("the preview lists the rows to create, marks the skipped one and shows the error at the bad cell", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await signIn(page, "importer@example.com");
  await open(page, "/quotes/import");
  await page.locator('input[type="file"]').setInputFiles({ name: "quotes.csv", mimeType: "text/csv", buffer: Buffer.from(WITH_BAD_ROW) });
  await page.getByRole("button", { name: "Check file" }).click();

  const rows = page.getByTestId("import-rows");
  await expect(rows.locator("tbody tr")).toHaveCount(4);
  const good = rows.locator('tr[data-line="2"]');
  await expect(good).toHaveAttribute("data-status", "ready");
  await expect(good.locator('td[data-col="status"]')).toHaveText("will be created");
  await expect(good.locator('td[data-col="reference"]')).toHaveText("ZS-H800-8");
  await expect(good.locator('td[data-col="gpu"]')).toHaveText("8 × H800 80GB");
  await expect(good.locator('td[data-col="vram"]')).toHaveText("80 GiB");
  await expect(good.locator('td[data-col="price"]')).toHaveText("260.00 CNY/h per node");
  await expect(good.locator('td[data-col="valid_until"]')).toHaveText("2099-12-31");
  await expect(good.locator('td[data-col="region"]')).toHaveText("华北-北京");

  // The bad row: the cell shows what the file says, with the reason in that cell only.
  const bad = rows.locator('tr[data-line="3"]');
  await expect(bad).toHaveAttribute("data-status", "error");
  const vram = bad.locator('td[data-col="vram"]');
  await expect(vram).toHaveAttribute("aria-invalid", "true");
  await expect(vram).toContainText("48GB");
  await expect(vram.locator(".field-error")).toContainText("number");
  await expect(bad.locator('td[data-col="reference"]')).toHaveText("ZS-L40S-2");
  await expect(bad.locator('td[data-col="price"] .field-error')).toHaveCount(0);
  await expect(rows.locator('tr[data-line="4"]')).toHaveAttribute("data-status", "skipped");
  await expect(rows.locator('tr[data-line="5"]')).toHaveAttribute("data-status", "ready");
  await expect(page.getByTestId("import-save")).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test("a SkyPilot catalog asks for its valid-until date before saving, then saves with it", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await signIn(page, "importer@example.com");
  await open(page, "/quotes/import");
  const form = page.getByTestId("import-form");
  await form.locator('input[name="vendor"]').fill("Lambda");
  await page.locator('input[type="file"]').setInputFiles({
    name: "vms.csv",
    mimeType: "text/csv",
    buffer: readFileSync(join(FIXTURES, "lambda_vms.csv")),
  });
  await page.getByRole("button", { name: "Check file" }).click();

  // No date is made up: the preview says so and the field starts empty.
  const ask = page.getByTestId("import-valid-until");
  await expect(ask).toContainText("states no validity date");
  const date = ask.locator('input[name="valid_until"]');
  await expect(date).toHaveValue("");
  const rows = page.getByTestId("import-rows");
  await expect(rows.locator('tr[data-status="ready"]')).toHaveCount(8);
  await expect(rows.locator('tr[data-status="skipped"]')).toHaveCount(2);
  await expect(rows.locator('tr[data-line="2"] td[data-col="valid_until"]')).toHaveText("to be entered");
  const save = page.getByTestId("import-save");
  await expect(save).toHaveText("Import 8 quotes");
  await expect(save).toBeDisabled();

  await date.fill("2099-06-30");
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByTestId("import-done")).toContainText("Imported 8 quotes");

  await open(page, "/quotes");
  await expect(page.getByTestId("quote-count")).toContainText("8 quotes");
  await expect(page.getByTestId("quote-table")).toContainText("2099-06-30");
  expect(consoleErrors).toEqual([]);
});
