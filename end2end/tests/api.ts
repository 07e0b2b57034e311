import { expect, Page } from "@playwright/test";
import { ADMIN, PASSWORD, ensureAdmin, signIn, signOut } from "./helpers";

/**
 * Calls a server function the way the page does (same origin, form-encoded) and expects 200.
 * `URLSearchParams` keeps repeated keys (lists such as `quote_ids`).
 */
export async function call(page: Page, path: string, form: Record<string, string> | URLSearchParams) {
  const origin = new URL(page.url()).origin;
  const headers = { Origin: origin, Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" };
  const body = form instanceof URLSearchParams ? form : new URLSearchParams(form);
  const res = await page.request.post(path, { data: body.toString(), headers });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return res.json();
}

/** A team member to create: e-mail (its local part is also the display name) and role. */
export type Member = [email: string, role: string];

/** As the administrator (created if the database is empty): a team `name` with `members`; ends signed out. */
export async function createTeam(page: Page, name: string, members: Member[]) {
  await ensureAdmin(page);
  await signIn(page, ADMIN.email);
  const team = await call(page, "/api/admin/create_team", { name });
  for (const [email, role] of members) {
    await call(page, "/api/admin/create_user", {
      email, display_name: email.split("@")[0], password: PASSWORD, password_confirm: PASSWORD, team_id: String(team), role,
    });
  }
  await signOut(page);
  return team;
}

/** Saves a quote through the API (procurement signed in); returns its id. */
export async function saveQuote(page: Page, fields: Record<string, string>) {
  const form: Record<string, string> = { quote_id: "" };
  for (const [k, v] of Object.entries(fields)) form[`fields[${k}]`] = v;
  return Number((await call(page, "/api/quotes/save", form)).quote_id);
}

/**
 * Answers, through the API, every item the signed-in user may answer except `skip`: confirmed
 * with a note where the item takes one as evidence; an item that only a run can prove is marked
 * not applicable, covered by the order's waiver. Returns the order as it was read and how many
 * items were answered.
 */
export async function answerMine(page: Page, order: number, skip: string[] = []) {
  const view = await call(page, "/api/orders/get", { id: String(order) });
  let answered = 0;
  for (const section of view.sections) {
    for (const item of section.items) {
      if (!item.can_answer || skip.includes(item.id)) continue;
      const needed: string[] = item.evidence_needed;
      const byNote = needed.length === 0 || needed.includes("note");
      await call(page, "/api/orders/answer", {
        order_id: String(order), item_id: item.id, status: byNote ? "confirmed" : "not_applicable",
        status_note: byNote ? "" : "covered by the waiver", answer: "checked", evidence_run: "", evidence_note: byNote ? "checked with the vendor" : "",
      });
      answered += 1;
    }
  }
  return { view, answered };
}
