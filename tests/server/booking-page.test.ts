import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { BOOKING_MESSAGES, type BookerPage } from "#app/lib/orders/booking.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { HONEYPOT_FIELD, type FormResult } from "#app/lib/inquiries/schemas.ts";
import * as bookingRoute from "#app/routes/site/booking.tsx";
import * as documentRoute from "#app/routes/site/booking-document.ts";
import * as calendarRoute from "#app/routes/site/booking-calendar.ts";
import { db } from "#server/db/client.server.ts";
import { auditLog, emailOutbox, orders } from "#server/db/schema.ts";
import { findBookingAction } from "#server/forms/booking-actions.server.ts";
import {
  bookingLinkExpiry,
  bookingToken,
  readBookingToken,
  sendBookingLink,
  sendBookingLinks,
} from "#server/orders/booking-links.server.ts";
import { bookerPage } from "#server/orders/booker-page.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { erasePersonalData } from "#server/privacy/erase.server.ts";
import { bookedGroup, DAY } from "#tests/support/booked-group.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { formRequest, freshIp } from "#tests/support/forms.ts";
import { ADMIN, BUYER } from "#tests/support/orders.ts";

/**
 * The booker's page: signed links (made here only, one order each, expiring), what the page
 * shows, 'find my booking' and staff's 'Send booking link', on both databases. Naming and
 * changing a place's student: student-changes.test.ts.
 */
useFreshDatabase();

async function mails(orderId: string, kinds: string[]) {
  const rows = await db().select().from(emailOutbox).where(eq(emailOutbox.orderId, orderId));
  return rows.filter((r) => kinds.includes(r.kind));
}

async function pageOf(token: string, ip = freshIp()) {
  try {
    const answer = await bookingRoute.loader({
      params: { token },
      context: { clientIp: ip },
      request: new Request(`http://localhost/bookings/${token}`),
    } as unknown as Parameters<typeof bookingRoute.loader>[0]);
    return { status: 200, page: (answer as { page: BookerPage }).page };
  } catch (thrown) {
    return { status: (thrown as { init?: ResponseInit }).init?.status ?? 500, page: null };
  }
}

describe("signed links", () => {
  it("open only the order they were made for, refuse any changed character, and expire", async () => {
    const { order, date } = await bookedGroup();
    const other = await bookedGroup(2);
    const expiresAt = bookingLinkExpiry(date.endsAt);
    expect(expiresAt.getTime()).toBeGreaterThan(date.endsAt.getTime() + 89 * DAY);
    const token = bookingToken(order.id, expiresAt);

    expect(readBookingToken(token)).toEqual({
      ok: true,
      orderId: order.id,
      expiresAt: expect.any(Date),
    });
    const opened = await pageOf(token);
    expect(opened.status).toBe(200);
    expect(opened.page?.reference).toBe(orderReference(order.id));
    expect(opened.page?.places.map((p) => p.name)).toEqual([
      "Student1 Smith",
      "Student2 Smith",
      "Student3 Smith",
    ]);

    // Every character changed in turn (the signature's last one too) is refused.
    for (let i = 0; i < token.length; i++) {
      const c = token[i]!;
      const swapped = token.slice(0, i) + (c === "A" ? "B" : "A") + token.slice(i + 1);
      if (swapped !== token) expect(readBookingToken(swapped).ok).toBe(false);
    }
    // Another order's id under this signature, and this order's expiry pushed later.
    const [, expiry, signature] = token.split(".");
    expect(readBookingToken(`${other.order.id}.${expiry}.${signature}`)).toEqual({
      ok: false,
      reason: "invalid",
    });
    const later = (parseInt(expiry!, 36) + 86_400).toString(36);
    expect(readBookingToken(`${order.id}.${later}.${signature}`).ok).toBe(false);
    expect((await pageOf(`${other.order.id}.${expiry}.${signature}`)).status).toBe(404);

    // Expired: said so (410), not 'invalid'.
    const old = bookingToken(order.id, new Date(Date.now() - 1000));
    expect(readBookingToken(old)).toEqual({ ok: false, reason: "expired" });
    expect((await pageOf(old)).status).toBe(410);
  });

  it("give the order's documents and calendar file, and nothing of another order", async () => {
    const { order, date } = await bookedGroup();
    const other = await bookedGroup(2);
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(other.order.id, "invoiced", ADMIN);
    const token = bookingToken(order.id, bookingLinkExpiry(date.endsAt));
    const page = (await pageOf(token)).page!;
    expect(page.documents.map((d) => d.kind)).toEqual(["invoice"]);
    expect(page.status).toBe("Invoiced, awaiting payment");

    const get = (
      route: typeof documentRoute | typeof calendarRoute,
      params: Record<string, string>,
    ) =>
      (route.loader as (args: LoaderFunctionArgs) => Promise<Response>)({
        params,
        context: { clientIp: freshIp() },
        request: new Request("http://localhost/"),
      } as unknown as LoaderFunctionArgs);
    const pdf = await get(documentRoute, { token, documentId: page.documents[0]!.id });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    const otherPage = await bookerPage(other.order.id);
    const foreign = await get(documentRoute, { token, documentId: otherPage!.documents[0]!.id });
    expect(foreign.status).toBe(404);

    const ics = await get(calendarRoute, { token });
    expect(ics.status).toBe(200);
    const text = await ics.text();
    expect(text).toContain("METHOD:PUBLISH");
    expect(text).toContain("SUMMARY:Open Source Intelligence");
    expect(text).not.toContain("ATTENDEE");
  });

  it("show nothing for an order held as spam or anonymised", async () => {
    const { order, date } = await bookedGroup();
    const token = bookingToken(order.id, bookingLinkExpiry(date.endsAt));
    await db().update(orders).set({ spamReason: "honeypot" }).where(eq(orders.id, order.id));
    expect((await pageOf(token)).status).toBe(404);
    await db().update(orders).set({ spamReason: null }).where(eq(orders.id, order.id));
    await erasePersonalData(BUYER.email, ADMIN);
    expect((await pageOf(token)).status).toBe(404);
  });
});

describe("find my booking", () => {
  async function find(email: string, extra: Record<string, string> = {}) {
    const answer = (await findBookingAction({
      request: formRequest({ form: "find_booking", form_id: "find-booking-form", email, ...extra }),
      params: {},
      context: { clientIp: freshIp() },
    } as unknown as ActionFunctionArgs)) as { data: FormResult; init?: ResponseInit | null };
    return { status: answer.init?.status ?? 200, body: answer.data };
  }

  it("e-mails a link to each booking of the address, and answers the same for an unknown one", async () => {
    const first = await bookedGroup();
    const second = await bookedGroup(2);
    const known = await find(" ADA@example.com ");
    const unknown = await find("nobody@example.com");
    expect(known).toEqual(unknown);
    expect(known.body).toMatchObject({ ok: true, message: BOOKING_MESSAGES.linksSent });

    const links = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, "booking_links"));
    expect(links).toHaveLength(1);
    expect(links[0]!.toAddress).toBe(BUYER.email);
    const tokens = [...links[0]!.text.matchAll(/\/bookings\/([^\s]+)/g)].map((m) => m[1]!);
    expect(
      tokens
        .map((t) => readBookingToken(t))
        .map((l) => l.ok && l.orderId)
        .sort(),
    ).toEqual([first.order.id, second.order.id].sort());
  });

  it("tells a suspected bot plainly and sends nothing; staff can send a link from the order", async () => {
    const { order } = await bookedGroup();
    const bot = await find(BUYER.email, { [HONEYPOT_FIELD]: "http://spam.example" });
    expect(bot.status).toBe(400);
    expect(bot.body.ok).toBe(false);
    expect(await sendBookingLinks("nobody@example.com")).toEqual({ ok: true, sent: 0 });
    expect(
      await db().select().from(emailOutbox).where(eq(emailOutbox.kind, "booking_links")),
    ).toHaveLength(0);

    expect(await sendBookingLink(ADMIN, order.id)).toEqual({ ok: true, to: BUYER.email });
    expect(await mails(order.id, ["booking_links"])).toHaveLength(1);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "order.booking_link"));
    expect(audit?.actorEmail).toBe(ADMIN.email);
  });
});
