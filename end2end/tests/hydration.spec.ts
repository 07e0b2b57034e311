import { expect, Page, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createHmac } from "node:crypto";
import { ADMIN, PASSWORD, signIn, signOut } from "./helpers";
import { call } from "./api";
import { Desk, desk, ordersInEveryState } from "./order-fixtures";

test.describe.configure({ mode: "serial" });

const RUN_FIXTURES = join(__dirname, "../../app/domain/src/runs/fixtures");

/**
 * Console errors and uncaught exceptions (hydration panics: "unreachable", mismatched nodes) of
 * every page load, each prefixed with the page it came from. Resources the server answers with
 * an error status are the page's business, not a broken page.
 */
function watch(page: Page) {
  const state = { at: "", errors: [] as string[] };
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) {
      state.errors.push(`${state.at}: ${m.text()}`);
      console.log(`console error on ${state.at}: ${m.text()}`);
    }
  });
  page.on("pageerror", (e) => {
    state.errors.push(`${state.at}: ${String(e)}`);
    console.log(`page error on ${state.at}: ${String(e)}`);
  });
  return state;
}

/**
 * Loads `path`, waits until it hydrated and everything it loads in the browser arrived, and
 * records a page that never hydrates as an error rather than stopping at it.
 */
async function visit(page: Page, state: { at: string; errors: string[] }, path: string, lang = "en") {
  state.at = lang === "en" ? path : `${path} (${lang})`;
  await page.goto(path);
  try {
    await expect(page.locator("body")).toHaveAttribute("data-hydrated", /^(true|static)$/, { timeout: 15_000 });
  } catch {
    state.errors.push(`${state.at}: did not hydrate`);
  }
  // A panic in an effect or in a part loaded after hydration (the bill) comes a moment later.
  await page.waitForTimeout(400);
}

/** The pages every team member reaches, with the ids of `d`'s data and `orders`. */
function memberPages(d: Desk, orders: Record<string, number>, run: number, vendor: string, request: string) {
  return [
    "/",
    "/team",
    "/account",
    "/account/tokens",
    "/quotes",
    "/quotes/new",
    "/quotes/import",
    `/quotes/compare?id=${d.quote}&id=${d.other}`,
    `/quotes/${d.quote}`,
    `/quotes/${d.quote}/edit`,
    "/vendors",
    vendor,
    "/requests",
    "/requests/new",
    request,
    "/workloads",
    `/workloads/${d.workload}`,
    "/rates",
    `/tco?workload=${d.workload}`,
    `/tco?workload=${d.workload}&picked=1&q=${d.quote}&q=${d.other}`,
    "/runs",
    "/runs/new",
    `/runs/${run}`,
    "/orders",
    `/orders/${orders.draft}`,
    `/orders/${orders.submitted}`,
    `/orders/${orders.approved}`,
    `/orders/${orders.rejected}`,
    `/orders/${orders.reopened}`,
    `/orders/${orders.reopened}?rev=1`,
    "/no-such-page",
  ];
}

/** RFC 4648 base32 (no padding) to bytes. */
function base32(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const c of text.replace(/\s+/g, "").toUpperCase()) {
    value = (value << 5) | alphabet.indexOf(c);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((value >>> bits) & 0xff);
    }
  }
  return Buffer.from(out);
}

/** RFC 6238 TOTP of the current 30 s step. */
function totp(secret: Buffer): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 1000 / 30)));
  const mac = createHmac("sha1", secret).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

test("every page of every role hydrates without a console error in both languages, the manager's sign-off page included", async ({ page, request }) => {
  test.setTimeout(1_200_000);
  const state = watch(page);
  const d = await desk(page, "Hydration Desk", "hydra");
  const orders = await ordersInEveryState(page, d);

  // A run of the team, uploaded with a token as a script does (without the browser's session).
  await signIn(page, d.engineer);
  const token = String(await call(page, "/api/tokens/create", { name: "hydration", expires_in_days: "7", password: PASSWORD }));
  const uploaded = await request.post("/api/v1/runs", {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      result: { name: "mlperf_log_summary.txt", mimeType: "text/plain", buffer: readFileSync(join(RUN_FIXTURES, "mlperf_offline_valid.txt")) },
      node_label: "Hydration L4 trial",
    },
  });
  expect(uploaded.status()).toBe(201);
  const run = Number(String((await uploaded.json()).url).split("/").pop());
  await signOut(page);
  await signIn(page, d.procurement);
  const vendor = `/vendors/${await call(page, "/api/vendors/create", { name: "Hydration Cloud", website: "https://example.com" })}`;
  // A request for quotation to a vendor with an e-mail address, and that vendor's page.
  const bidder = await call(page, "/api/vendors/create", { name: "Hydration Bids", contact: "bids@hydration.example" });
  const created = await call(page, "/api/requests/create", {
    "form[workload_id]": String(d.workload), "form[title]": "Hydration request", "form[region]": "", "form[budget]": "",
    "form[currency]": "CNY", "form[questions]": "Which driver?", "form[close_local]": "2099-12-31T18:00",
    "form[utc_offset]": "+08:00", [`form[vendors][${bidder}]`]: "on",
  });
  const requestPage = `/requests/${created.id}`;
  await signOut(page);

  // Signed out: the sign-in page, and a vendor's page (sent without WASM).
  await visit(page, state, "/login");
  await visit(page, state, created.links[0].path);
  await page.context().addCookies([{ name: "nl_lang", value: "zh-CN", url: page.url() }]);
  await visit(page, state, created.links[0].path, "zh-CN");

  for (const who of [d.procurement, d.engineer, d.manager]) {
    await signIn(page, who);
    // Every page in both languages (the language cookie, as the header's switch sets it).
    for (const lang of ["zh-CN", "en"]) {
      await page.context().addCookies([{ name: "nl_lang", value: lang, url: page.url() }]);
      for (const path of memberPages(d, orders, run, vendor, requestPage)) await visit(page, state, path, lang);
    }
    // Into the order page from the list, as a click (the page's code arrives with the click).
    state.at = `${who}: /orders → /orders/${orders.submitted}`;
    await visit(page, state, "/orders");
    await page.getByRole("link", { name: "Order waiting for sign-off" }).first().click();
    await page.waitForURL(`**/orders/${orders.submitted}`);
    await expect(page.getByTestId("order-state")).toBeVisible();
    await page.waitForTimeout(400);
    await signOut(page);
  }

  await signIn(page, ADMIN.email);
  for (const path of ["/", "/admin/teams", `/admin/teams/${d.team}`, "/admin/users", "/admin/security", "/admin/audit", "/account"]) {
    await visit(page, state, path);
  }
  await signOut(page);

  // The manager with an authenticator app: the sign-off form asks for its code.
  await signIn(page, d.manager);
  const enrolment = await call(page, "/api/second_factor/start", { password: PASSWORD });
  const secret = base32(enrolment.secret);
  await call(page, "/api/second_factor/confirm", { code: totp(secret) });
  await visit(page, state, "/account");
  await visit(page, state, `/orders/${orders.submitted}`);
  await expect(page.getByTestId("sign-off-code")).toBeVisible();

  expect(state.errors).toEqual([]);
});
