import { expect, Page } from "@playwright/test";
import { PASSWORD, signIn, signOut } from "./helpers";
import { answerMine, call, createTeam, saveQuote } from "./api";

/** A team with one member of each role, a workload and two quotes for it. */
export type Desk = {
  team: number;
  procurement: string;
  engineer: string;
  manager: string;
  workload: number;
  quote: number;
  other: number;
};

/** A team `name` whose members' e-mails start with `prefix`; ends signed out. */
export async function desk(page: Page, name: string, prefix: string): Promise<Desk> {
  const procurement = `${prefix}-procurement@example.com`;
  const engineer = `${prefix}-engineer@example.com`;
  const manager = `${prefix}-manager@example.com`;
  const team = await createTeam(page, name, [[procurement, "procurement"], [engineer, "engineer"], [manager, "manager"]]);
  await signIn(page, procurement);
  const workload = Number(
    await call(page, "/api/workloads/create", {
      name: `${name} render`, kind: "batch", model: "", precision: "", vram_peak_gib: "16", vram_peak_source: "measured",
      concurrency: "1", gpus_needed: "1", run_hours: "20", total_work_amount: "", total_work_unit: "", data_gb: "0", checkpoint_gb: "0", headroom_pct: "20",
    }),
  );
  const base = {
    received_on: "2026-11-20", valid_until: "2099-12-31", "spec.gpu_model": "L4 24GB", "spec.gpus_per_node": "1", "spec.vram_gib": "24",
    "spec.sharing": "exclusive", currency: "CNY", "price.basis": "per_node", "price.billing_increment": "hour", "price.stopped_bills_compute": "no",
  };
  const quote = await saveQuote(page, { ...base, vendor: `${name} Cloud`, reference: "L4-A", "price.on_demand_hourly": "4.00" });
  const other = await saveQuote(page, { ...base, vendor: `${name} Other`, reference: "L4-B", "price.on_demand_hourly": "4.50" });
  await signOut(page);
  return { team, procurement, engineer, manager, workload, quote, other };
}

/** As procurement (signed in): a draft choosing the first quote against the second, with a waiver. */
export async function draft(page: Page, d: Desk, title: string) {
  const order = Number(await call(page, "/api/orders/create", { title, workload_id: String(d.workload) }));
  const select = new URLSearchParams({ order_id: String(order), quote_id: String(d.quote), waiver: "Same node type benchmarked last month; report on file." });
  select.append("considered[]", String(d.quote));
  select.append("considered[]", String(d.other));
  await call(page, "/api/orders/select", select);
  return order;
}

/**
 * Orders of `d` in every state: a draft, one waiting for the manager's sign-off, one approved
 * (with a rental recorded and released and a bill imported), one rejected and one reopened
 * after approval (revision 2 a draft). `rounds` answers every item that many times (each
 * answer is an event of the history). Ends signed out.
 */
export async function ordersInEveryState(page: Page, d: Desk, rounds = 1) {
  await signIn(page, d.procurement);
  const draftOrder = await draft(page, d, "Draft order");
  const submitted = await draft(page, d, "Order waiting for sign-off");
  const approved = await draft(page, d, "Approved order with rental and bill");
  const rejected = await draft(page, d, "Rejected order");
  const reopened = await draft(page, d, "Reopened order");
  const full = [submitted, approved, rejected, reopened];
  for (let i = 0; i < rounds; i++) for (const o of [draftOrder, ...full]) await answerMine(page, o);
  await signOut(page);
  await signIn(page, d.engineer);
  for (let i = 0; i < rounds; i++) for (const o of full) await answerMine(page, o);
  await signOut(page);
  await signIn(page, d.procurement);
  for (const o of full) await call(page, "/api/orders/submit", { order_id: String(o) });
  await signOut(page);
  await signIn(page, d.manager);
  for (const o of [approved, reopened]) {
    await call(page, "/api/orders/decide", { order_id: String(o), decision: "approve", password: PASSWORD, comment: "Cheapest that passes." });
  }
  await call(page, "/api/orders/decide", { order_id: String(rejected), decision: "reject", password: PASSWORD, comment: "Ask for a better price first." });
  await signOut(page);
  await signIn(page, d.procurement);
  await call(page, "/api/orders/reopen", { order_id: String(reopened) });
  await rentAndBill(page, approved);
  await signOut(page);
  return { draft: draftOrder, submitted, approved, rejected, reopened };
}

const HEADER =
  "BillingAccountId,ChargeCategory,ChargeClass,ChargeDescription,ChargePeriodStart,ChargePeriodEnd,BilledCost,BillingCurrency,ConsumedQuantity,ConsumedUnit,ListUnitPrice,ContractedUnitPrice,ResourceId,ServiceName,SkuId";

/** 30 h of the L4 at 4.40 (quoted 4.00), the stopped node's disk, another team's node. */
const BILL = [
  HEADER,
  "acct,Usage,,GPU instance L4 on demand,2026-11-28T08:00:00Z,2026-11-29T14:00:00Z,132.00,CNY,30,Hours,4.40,4.40,i-fix-l4,Compute,l4-od",
  "acct,Usage,,Data disk 200 GB of stopped instance,2026-11-28T18:00:00Z,2026-11-30T08:00:00Z,1.60,CNY,0.4,GB-Mo,4.00,4.00,vol-fix-l4,Block Storage,ssd",
  "acct,Usage,,GPU instance L4 on demand,2026-11-28T08:00:00Z,2026-11-28T18:00:00Z,40.00,CNY,10,Hours,4.00,4.00,i-someone-else,Compute,l4-od",
].join("\n");

/** As procurement (signed in): records, stops and releases the rental of `order`, then imports a bill. */
async function rentAndBill(page: Page, order: number) {
  const o = String(order);
  await call(page, "/api/rentals/record", { order_id: o, started_at: "2026-11-28T08:00Z", resources: "i-fix-l4\nvol-fix-l4", note: "" });
  await call(page, "/api/rentals/stop", { order_id: o, stopped_at: "2026-11-28T18:00Z" });
  await call(page, "/api/rentals/release", { order_id: o, released_at: "2026-11-30T08:00Z", setup_hours: "1", data_prep_hours: "0", rerun_hours: "0" });
  const origin = new URL(page.url()).origin;
  const res = await page.request.post("/api/orders/bills/import", {
    data: JSON.stringify({ request: { order_id: order, file_name: "november.csv", content: BILL }, save: true }),
    headers: { Origin: origin, Accept: "application/json", "Content-Type": "application/json" },
  });
  expect(res.status(), await res.text()).toBe(200);
}
