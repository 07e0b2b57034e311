import { expect, test } from "@playwright/test";
import { createMember, ensureAdmin, hydrated, open, signIn, watchConsole } from "./helpers";

test.describe.configure({ mode: "serial" });

const HEADER =
  "vendor,reference,received_on,valid_until,currency,spec.gpu_model,spec.gpus_per_node,spec.vram_gib,spec.sharing," +
  "price.basis,price.on_demand_hourly,price.billing_increment,price.stopped_bills_compute,spec.memory_pooling";
// Memory pooling: left empty (not stated) for the A100 and the 4090, a stated "no" for the L40S.
const csv = (badVram: string) =>
  [
    HEADER,
    "星河算力,XH-A100-8,2026-11-01,2099-12-31,CNY,A100 80GB,8,80,exclusive,per_node,220.00,minute,no,",
    `星河算力,XH-L40S-2,2026-11-01,2099-12-31,CNY,L40S 48GB,2,${badVram},exclusive,per_gpu,9.80,hour,yes,no`,
    "云算科技,YS-4090-1,2026-11-02,2099-12-31,CNY,RTX 4090 24GB,1,24,fractional:0.5,per_node,2.60,second,no,",
  ].join("\n");

test("procurement enters a quote, imports a CSV after fixing a bad row, filters and compares", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await ensureAdmin(page);
  await createMember(page, "Procurement Desk", "buyer@example.com", "Bo Buyer", "procurement");
  await signIn(page, "buyer@example.com");

  // Add the vendor first.
  await page.getByRole("link", { name: "Vendors", exact: true }).click();
  const vendorForm = page.getByTestId("vendor-form");
  await vendorForm.locator('input[name="name"]').fill("德讯电讯");
  await vendorForm.locator('input[name="contact"]').fill("sales@dx.example.com");
  await vendorForm.locator('button[type="submit"]').click();
  await expect(page.getByTestId("vendor-table")).toContainText("德讯电讯");

  // The workload the quotes will be checked against: 42 GiB peak + 20 % → 50.4 GiB per GPU.
  await page.getByRole("link", { name: "Workloads", exact: true }).click();
  const workloadForm = page.getByTestId("workload-form");
  await workloadForm.locator('input[name="name"]').fill("70B inference");
  await workloadForm.locator('select[name="kind"]').selectOption("inference_service");
  await workloadForm.locator('input[name="model"]').fill("Llama-3-70B-AWQ");
  await workloadForm.locator('input[name="precision"]').fill("int4");
  await workloadForm.locator('input[name="vram_peak_gib"]').fill("42");
  await workloadForm.locator('input[name="gpus_needed"]').fill("1");
  await workloadForm.locator('input[name="run_hours"]').fill("720");
  await workloadForm.locator('input[name="data_gb"]').fill("50");
  await workloadForm.locator('input[name="checkpoint_gb"]').fill("40");
  await workloadForm.locator('input[name="headroom_pct"]').fill("20");
  await workloadForm.locator('button[type="submit"]').click();
  await expect(page.getByTestId("workload-table")).toContainText("70B inference");

  // Enter one quote by hand; a bad VRAM value is named next to its field.
  await page.getByRole("link", { name: "Quotes", exact: true }).click();
  await expect(page.getByTestId("quote-empty")).toBeVisible();
  await page.getByRole("link", { name: "New quote" }).click();
  await hydrated(page);
  const form = page.getByTestId("quote-form");
  await form.locator("#f-vendor").fill("德讯电讯");
  await form.locator("#f-reference").fill("DX-2026-1101");
  await form.locator("#f-spec-gpu_model").fill("H100 80GB");
  await form.locator("#f-spec-gpus_per_node").fill("8");
  await form.locator("#f-spec-vram_gib").fill("0");
  await form.locator("#f-price-on_demand_hourly").fill("310.00");
  await form.locator("#f-valid_until").fill("2099-06-30");
  await form.locator('button[type="submit"]').click();
  await expect(form.locator(".field-error").first()).toContainText("greater than zero");
  await form.locator("#f-spec-vram_gib").fill("80");
  await form.locator('button[type="submit"]').click();
  await page.waitForURL(/\/quotes\/\d+$/);
  await expect(page.getByTestId("quote-revision")).toContainText("Revision 1");
  await expect(page.getByTestId("quote-revision")).toContainText("¥310.00");

  // A file saved as GBK instead of UTF-8 is refused in the browser, with the offset of the first
  // bad byte (Blob.text() would have turned it into mojibake).
  await open(page, "/quotes/import");
  const gbk = Buffer.concat([Buffer.from("vendor,reference\n"), Buffer.from([0xd0, 0xc7, 0xba, 0xd3]), Buffer.from(",GBK-1\n")]);
  await page.locator('input[type="file"]').setInputFiles({ name: "gbk.csv", mimeType: "text/csv", buffer: gbk });
  await page.getByRole("button", { name: "Check file" }).click();
  await expect(page.getByTestId("import-file-problem")).toContainText("not UTF-8 (first bad byte at 17)");
  await expect(page.getByTestId("import-result")).toHaveCount(0);

  // Import a CSV with one bad row: the problem is shown in its row and cell; nothing is saved.
  await page.locator('input[type="file"]').setInputFiles({ name: "quotes.csv", mimeType: "text/csv", buffer: Buffer.from(csv("0")) });
  await page.getByRole("button", { name: "Check file" }).click();
  const badRow = page.getByTestId("import-rows").locator('tr[data-line="3"]');
  await expect(badRow).toHaveAttribute("data-status", "error");
  await expect(badRow.locator('td[data-col="vram"] .field-error')).toContainText("greater than zero");
  await expect(page.getByTestId("import-save")).toHaveCount(0);
  // Fix the file and check again: all three rows are ready; import them.
  await page.locator('input[type="file"]').setInputFiles({ name: "quotes.csv", mimeType: "text/csv", buffer: Buffer.from(csv("48")) });
  await page.getByRole("button", { name: "Check file" }).click();
  await expect(page.getByTestId("import-summary")).toContainText("3 ready");
  await page.getByTestId("import-save").click();
  await expect(page.getByTestId("import-done")).toContainText("Imported 3 quotes");

  // The list: four quotes, cheapest node-hour first; filter by GPU model and VRAM.
  await open(page, "/quotes");
  await expect(page.getByTestId("quote-count")).toContainText("4 quotes");
  await expect(page.getByTestId("quote-table").locator("tbody tr").first()).toContainText("YS-4090-1");
  const filter = page.getByTestId("quote-filter");
  await filter.locator('input[name="vram"]').fill("48");
  await filter.locator('input[name="exclusive"]').check();
  await filter.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/vram=48/);
  await expect(page.getByTestId("quote-count")).toContainText("3 quotes");
  await expect(page.getByTestId("quote-table")).not.toContainText("YS-4090-1");

  // Compare two quotes side by side; rows that differ are highlighted.
  await page.getByRole("checkbox", { name: "XH-A100-8" }).check();
  await page.getByRole("checkbox", { name: "XH-L40S-2" }).check();
  await page.getByRole("button", { name: "Compare selected" }).click();
  await expect(page).toHaveURL(/\/quotes\/compare\?/);
  const table = page.getByTestId("compare-table");
  await expect(table).toContainText("星河算力 · XH-A100-8");
  await expect(table.locator("tr.differs").filter({ hasText: "GPU model" })).toContainText("L40S 48GB");
  // A yes/no the vendor left empty reads "not stated", never "no".
  const pooling = table.locator("tr.differs").filter({ hasText: "Memory pooled across GPUs" });
  await expect(pooling).toContainText("not stated");
  // … and against the workload: the 80 GiB A100 passes the VRAM check, the 48 GiB L40S (memory
  // not pooled) fails it.
  await page.getByTestId("workload-form").locator('select[name="workload"]').selectOption({ label: "70B inference" });
  await page.getByTestId("workload-form").getByRole("button", { name: "Check" }).click();
  await expect(page).toHaveURL(/workload=\d+/);
  const vram = table.locator("tr.check-row").filter({ hasText: "VRAM with headroom" });
  await expect(vram.locator("td").filter({ hasText: "offers 80 GiB" })).toHaveAttribute("data-status", "pass");
  const l40s = vram.locator("td").filter({ hasText: "offers 48 GiB" });
  await expect(l40s).toHaveAttribute("data-status", "fail");
  await expect(l40s).toContainText("needs 50.4 GiB");

  // Export, then the Chinese UI of the same list.
  const download = await page.request.get("/quotes/export.csv");
  expect(download.status()).toBe(200);
  expect(await download.text()).toContain("XH-L40S-2");
  await open(page, "/quotes");
  await page.getByRole("button", { name: "中文" }).click();
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("报价");
  await page.getByRole("button", { name: "English" }).click();
  await hydrated(page);

  expect(consoleErrors, consoleErrors.join("\n")).toEqual([]);
});
