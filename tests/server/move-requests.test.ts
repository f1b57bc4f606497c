import { and, eq } from "drizzle-orm";
import type { ActionFunctionArgs } from "react-router";
import { describe, expect, it } from "vitest";
import type { FormResult } from "#app/lib/inquiries/schemas.ts";
import { MOVE_MESSAGES } from "#app/lib/orders/moves.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import * as orderModule from "#app/routes/admin/order.tsx";
import * as bookingRoute from "#app/routes/site/booking.tsx";
import { db } from "#server/db/client.server.ts";
import { auditLog, emailOutbox, moveRequests } from "#server/db/schema.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { bookingLinkExpiry, bookingToken } from "#server/orders/booking-links.server.ts";
import { bookerPage } from "#server/orders/booker-page.server.ts";
import { requestMove } from "#server/orders/move-requests.server.ts";
import { orderPage } from "#server/orders/order-page.server.ts";
import { useAdminPosts } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourseDate } from "#tests/support/factories.ts";
import { formRequest, freshIp } from "#tests/support/forms.ts";
import { ADMIN, insertCourse, orderRow, placeOrder } from "#tests/support/orders.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

/**
 * The booker asking to move places (decision 0038): on their page by the signed link, before the
 * change window closes; staff approving it in one click (the move) or declining it; the letters,
 * on both databases.
 */
useFreshDatabase();
const posts = useAdminPosts();
const orderRoute = throughAdminLayout(orderModule);

const DAY = 24 * 60 * 60 * 1000;
let courses = 0;

async function bookedOnFirst(quantity = 3, firstInDays = 30) {
  const course = await insertCourse({
    title: "Counter-Fraud Essentials",
    slug: `counter-fraud-${++courses}`,
    price: "500.00",
  });
  const first = await insertCourseDate(course.id, {
    startsAt: new Date(Date.now() + firstInDays * DAY),
  });
  const later = await insertCourseDate(course.id, { startsAt: new Date(Date.now() + 60 * DAY) });
  const placed = await placeOrder(course.id, "invoice", { quantity }, first.id);
  if (!placed.ok) throw new Error("not booked");
  return { course, first, later, order: placed.order };
}

/** 'Ask to move' posted on the booker's page by its signed link. */
async function askOnPage(token: string, toDate: string, places: string[]) {
  const answer = (await bookingRoute.action({
    request: formRequest({
      form: "move_request",
      form_id: "move-request-form",
      to_date: toDate,
      places,
    }),
    params: { token },
    context: { clientIp: freshIp() },
  } as unknown as ActionFunctionArgs)) as { data: FormResult; init?: ResponseInit | null };
  return { status: answer.init?.status ?? 200, body: answer.data };
}

async function requestsOf(orderId: string) {
  return db().select().from(moveRequests).where(eq(moveRequests.orderId, orderId));
}

async function mailKinds(orderId: string) {
  return (await db().select().from(emailOutbox).where(eq(emailOutbox.orderId, orderId))).map(
    (m) => [m.kind, m.toAddress],
  );
}

const decide = (orderId: string, request: string, decision: "approve" | "decline") =>
  posts(
    orderRoute,
    `/admin/payments/${orderId}`,
    { orderId },
    {
      intent: "moveDecision",
      request,
      decision,
    },
  );

describe("the booker asking to move places", () => {
  it("is kept from their page, told to them and to staff, and shown on both pages", async () => {
    const { order, first, later } = await bookedOnFirst();
    const token = bookingToken(order.id, bookingLinkExpiry(first.endsAt));
    const page = await bookerPage(order.id);
    expect(page?.move?.targets.map((t) => t.id)).toEqual([later.id]);

    const answer = await askOnPage(token, later.id, ["2", "3"]);
    expect(answer).toMatchObject({
      status: 200,
      body: { ok: true, message: MOVE_MESSAGES.requested },
    });
    const [request] = await requestsOf(order.id);
    expect(request).toMatchObject({ state: "requested", places: [2, 3], toCourseDateId: later.id });
    expect(await mailKinds(order.id)).toEqual(
      expect.arrayContaining([
        ["move_requested", "ada@example.com"],
        ["move_request_alert", expect.any(String)],
      ]),
    );
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "order.move_request"), eq(auditLog.subjectId, order.id)));
    expect(audit?.actorEmail ?? null).toBeNull();
    expect((await bookerPage(order.id))?.move?.open?.places).toEqual([2, 3]);
    expect((await orderPage(order.id))?.moveRequest?.id).toBe(request!.id);

    // Asking again replaces the request.
    expect((await askOnPage(token, later.id, ["1"])).status).toBe(200);
    const states = (await requestsOf(order.id)).map((r) => r.state).sort();
    expect(states).toEqual(["requested", "withdrawn"]);
  });

  it("is refused after the cut-off and by a changed link; a paid booking may ask for some places", async () => {
    const soon = await bookedOnFirst(2, 0.5);
    expect(
      await requestMove(soon.order.id, { toDateId: soon.later.id, places: [1] }),
    ).toMatchObject({ ok: false, message: MOVE_MESSAGES.requestClosed });

    const paid = await bookedOnFirst(2);
    await changeOrderStatusByAdmin(paid.order.id, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(paid.order.id, "paid", ADMIN);
    const token = bookingToken(paid.order.id, bookingLinkExpiry(paid.first.endsAt));
    const changed = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect((await askOnPage(changed, paid.later.id, ["1", "2"])).status).toBe(404);
    expect(await requestsOf(paid.order.id)).toEqual([]);
    // Places split off a paid booking take their payment with them (decision 0046).
    expect(
      await requestMove(paid.order.id, { toDateId: paid.later.id, places: [1] }),
    ).toMatchObject({ ok: true });
  });
});

describe("staff answering a request", () => {
  it("approve it in one click: the places move and the request is answered once", async () => {
    const { order, later } = await bookedOnFirst();
    expect((await requestMove(order.id, { toDateId: later.id, places: [3] })).ok).toBe(true);
    const [request] = await requestsOf(order.id);
    const approved = await decide(order.id, request!.id, "approve");
    expect(approved.status).toBe(200);
    const movedId = (approved.body as { orderId: string }).orderId;
    expect(movedId).not.toBe(order.id);
    expect((await orderRow(movedId)).courseDateId).toBe(later.id);
    expect((await orderRow(order.id)).quantity).toBe(2);
    // The booker's page says where the place went, with the new booking's own link.
    const movedOut = (await bookerPage(order.id))?.movedOut;
    expect(movedOut).toEqual([
      {
        places: 1,
        reference: orderReference(movedId),
        url: expect.stringMatching(/^\/bookings\//),
      },
    ]);
    expect(movedOut![0]!.url).toContain(movedId);
    expect((await requestsOf(order.id))[0]).toMatchObject({
      state: "approved",
      decidedBy: expect.any(String),
    });
    expect((await decide(order.id, request!.id, "approve")).status).toBe(409);
    expect((await orderRow(order.id)).quantity).toBe(2);
  });

  it("approving a paid booking's request for a dearer date invoices the difference", async () => {
    const course = await insertCourse({
      title: "Counter-Fraud Essentials",
      slug: `counter-fraud-${++courses}`,
      price: "500.00",
    });
    const first = await insertCourseDate(course.id, {
      startsAt: new Date(Date.now() + 30 * DAY),
    });
    const dearer = await insertCourseDate(course.id, {
      startsAt: new Date(Date.now() + 60 * DAY),
      price: "550.00",
    });
    const placed = await placeOrder(course.id, "invoice", { quantity: 1 }, first.id);
    if (!placed.ok) throw new Error("not booked");
    const order = placed.order;
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(order.id, "paid", ADMIN);
    expect((await requestMove(order.id, { toDateId: dearer.id, places: [1] })).ok).toBe(true);
    const page = await orderPage(order.id);
    expect(page?.moveRequest).toMatchObject({ paidDearer: true });
    const [request] = await requestsOf(order.id);
    expect((await decide(order.id, request!.id, "approve")).status).toBe(200);
    const after = await orderRow(order.id);
    expect([after.courseDateId, after.status, after.unitPriceCents]).toEqual([
      dearer.id,
      "invoiced",
      55_000,
    ]);
    expect(after.totalAmountCents - after.receivedAmountCents).toBeGreaterThan(0);
  });

  it("decline it: nothing moves and the booker is told", async () => {
    const { order, first, later } = await bookedOnFirst();
    expect((await requestMove(order.id, { toDateId: later.id, places: [1, 2, 3] })).ok).toBe(true);
    const [request] = await requestsOf(order.id);
    const declined = await decide(order.id, request!.id, "decline");
    expect(declined).toMatchObject({ status: 200, body: { message: MOVE_MESSAGES.declined } });
    expect((await orderRow(order.id)).courseDateId).toBe(first.id);
    expect((await requestsOf(order.id))[0]?.state).toBe("declined");
    expect(await mailKinds(order.id)).toContainEqual(["move_declined", "ada@example.com"]);
    expect((await orderPage(order.id))?.moveRequest).toBeNull();
  });
});
