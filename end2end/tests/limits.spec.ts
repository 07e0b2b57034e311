import { expect, test } from "@playwright/test";
import path from "node:path";
import { createMember, ensureAdmin, open, signIn, watchConsole } from "./helpers";

// A run takes at most two distinct files, and a crafted number in a
// filter gets a message naming the field and its limit, in both languages (never a broken page).

test.describe.configure({ mode: "serial" });

const FIXTURES = path.join(__dirname, "../../app/domain/src/runs/fixtures");

test("a run with a third file says at most two, and previews again once one is removed", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await ensureAdmin(page);
  await createMember(page, "Limits Desk", "lim-eng@example.com", "Lim Engineer", "engineer");
  await signIn(page, "lim-eng@example.com");
  await open(page, "/runs/new");
  await page.getByTestId("run-node-label").fill("Three files");
  await page.getByTestId("run-files").setInputFiles([
    path.join(FIXTURES, "vllm_serve.json"),
    path.join(FIXTURES, "smi_multi_gpu.csv"),
    path.join(FIXTURES, "mlperf_offline_valid.txt"),
  ]);
  await expect(page.getByTestId("upload-recognised")).toHaveCount(3);
  await expect(page.getByTestId("run-error")).toHaveText(
    "Too many files: at most 2 at a time (a run is one result file and one telemetry file).",
  );
  await expect(page.getByTestId("run-preview")).toHaveCount(0);

  await page.getByTestId("upload-item").nth(2).getByRole("button").click();
  await expect(page.getByTestId("run-error")).toHaveCount(0);
  await expect(page.getByTestId("run-preview").getByTestId("verdict-status")).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test("a price filter past any price names the field and its limit, in English and Chinese", async ({ page, browser }) => {
  await ensureAdmin(page);
  await createMember(page, "Limits Buyers", "lim-buy@example.com", "Lim Buyer", "procurement");
  await signIn(page, "lim-buy@example.com");
  // 7.9 × 10^22: its millionths fit a Decimal, one step more did not (the server panicked).
  await open(page, "/quotes?max_price=79228162514264337593543");
  await expect(page.getByRole("alert")).toHaveText(
    "Node price per hour at most: enter a number from 0 to 1,000,000,000,000.",
  );
  await open(page, "/quotes?page=99999999999999999999");
  await expect(page.getByRole("alert")).toHaveText("Page: enter a whole number from 1 to 100,000.");

  const zh = await browser.newContext({ locale: "zh-CN" });
  const zhPage = await zh.newPage();
  await zhPage.context().addCookies(await page.context().cookies());
  await open(zhPage, "/quotes?max_price=1e308");
  await expect(zhPage.getByRole("alert")).toHaveText("节点每小时价格上限：请输入 0 到 1,000,000,000,000 之间的数字。");
  await zh.close();
});
