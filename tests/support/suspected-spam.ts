import { eq, sql } from "drizzle-orm";
import { HONEYPOT_FIELD } from "#app/lib/inquiries/schemas.ts";
import { config } from "#server/config.server.ts";
import { db } from "#server/db/client.server.ts";
import { emailOutbox, type inquiries, type orders } from "#server/db/schema.ts";
import { withGuards } from "#tests/support/forms.ts";
import { insertCourse as insertShopCourse } from "#tests/support/orders.ts";

/**
 * Suspected spam in server tests: the public forms as a person or a bot posts them, the e-mails
 * and rows they leave, and admin routes' actions posted as a signed-in admin.
 */

const origin = new URL(config.publicUrl).origin;

/** The course the spam tests book: published, £450 a place. */
export const insertCourse = () =>
  insertShopCourse({
    slug: "osint",
    title: "OSINT Masterclass",
    price: "450.00",
    durationHours: null,
  });
export const enquiry = (email: string, extra: Record<string, string> = {}) =>
  withGuards({
    form: "enquiry",
    form_id: "contact-form",
    name: "Jane Doe",
    email,
    company: "",
    phone: "",
    service: "dark-web-monitoring",
    message: "Please call me about monitoring.",
    ...extra,
  });

export const licence = (email: string, extra: Record<string, string> = {}) =>
  withGuards({
    form: "licence",
    form_id: "licence-form",
    name: "Lee Jones",
    email,
    company: "Police",
    phone: "",
    licence_count: "11-25",
    use_case: "law-enforcement",
    message: "",
    ...extra,
  });

export const bot = { [HONEYPOT_FIELD]: "http://cheap-pills.example" };

export async function outboxOf(where: { inquiryId?: string; orderId?: string }) {
  const rows = await db()
    .select()
    .from(emailOutbox)
    .where(
      where.inquiryId
        ? eq(emailOutbox.inquiryId, where.inquiryId)
        : eq(emailOutbox.orderId, where.orderId!),
    )
    .orderBy(emailOutbox.kind);
  return rows;
}

export async function countOf(table: typeof inquiries | typeof emailOutbox | typeof orders) {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(table);
  return row!.n;
}

export type RouteAction = (args: never) => Promise<unknown>;

export async function post(
  action: RouteAction,
  path: string,
  cookie: string,
  body: Record<string, string> | string,
): Promise<{ status: number; body: { ok: boolean; message?: string } }> {
  const headers: Record<string, string> = { Origin: origin, Cookie: cookie };
  let payload: BodyInit;
  if (typeof body === "string") {
    headers["Content-Type"] = "application/json";
    payload = body;
  } else {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(body).toString();
  }
  const request = new Request(`${origin}${path}`, { method: "POST", headers, body: payload });
  const result = (await action({ request, params: {}, context: {} } as never)) as {
    data: { ok: boolean; message?: string };
    init?: { status?: number } | null;
  };
  return { status: result.init?.status ?? 200, body: result.data };
}
