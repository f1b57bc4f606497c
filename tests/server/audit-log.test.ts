import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { inquiryUpdateSchema } from "#app/lib/inquiries/admin.ts";
import { parseAuditFilters } from "#app/lib/admin/audit.ts";
import { categoryFormSchema } from "#app/lib/catalogue/category-form.ts";
import { courseFormSchema, type CourseFormInput } from "#app/lib/catalogue/course-form.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { auditLogScreen, recordAudit } from "#server/audit.server.ts";
import { InvalidInputError } from "#server/catalogue/write.server.ts";
import { createCategory, deleteCategory } from "#server/catalogue/categories.server.ts";
import { createCourse, deleteCourse, updateCourse } from "#server/catalogue/course-admin.server.ts";
import { db } from "#server/db/client.server.ts";
import { auditLog, courses, inquiries, orders } from "#server/db/schema.ts";
import { updateInquiryForAdmin } from "#server/inquiries/admin.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { recordOrderEvent } from "#server/orders/events.server.ts";
import { transitionOrder } from "#server/orders/state-machine.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

/**
 * The audit log (decision 0019): each admin change writes one row, in the change's own transaction
 * (a change that fails leaves none), naming the admin — or no one, for what the system did —
 * with only the changed fields before and after; the table refuses UPDATE and DELETE; the
 * screen's list filters by person, kind and London dates.
 */

useFreshDatabase();

const ADMIN = { id: "admin-1", email: "editor@example.com", name: "Editor" };
const OTHER = { id: "admin-2", email: "finance@example.com" };

const course = (input: CourseFormInput) => courseFormSchema.parse(input);

function auditRows() {
  return db().select().from(auditLog).orderBy(asc(auditLog.at), asc(auditLog.id));
}

/** An invoice or card order as the checkout stores it, inserted directly. */
async function insertOrder(method: "invoice" | "stripe" = "invoice") {
  return db().transaction(async (tx) => {
    const [order] = await tx
      .insert(orders)
      .values({
        status: "pending",
        paymentMethod: method,
        buyerFirstName: "Ada",
        buyerLastName: "Lovelace",
        buyerEmail: "ada@example.com",
        buyerCompany: "Analytical Engines Ltd",
        courseTitleSnapshot: "OSINT Investigations Masterclass",
        unitPriceCents: 100_000,
        quantity: 1,
        isBuyerStudent: true,
        netAmountCents: 100_000,
        vatAmountCents: 20_000,
        vatRateBasisPoints: 2000,
        totalAmountCents: 120_000,
        billingOrganisation: "Engines Group plc",
        billingAddressLine1: "1 Difference Street",
        billingTown: "London",
        billingPostcode: "EC1A 1BB",
        billingCountry: "United Kingdom",
      })
      .returning();
    await recordOrderEvent(tx, order!.id, "created", "buyer", { paymentMethod: method });
    return order!;
  });
}

describe("catalogue changes", () => {
  it("a course update writes one row with exactly the changed fields, before and after", async () => {
    const created = await createCourse(course({ title: "Fraud Basics", price: "100" }), ADMIN);
    const [createdRow] = await auditRows();
    expect(createdRow).toMatchObject({
      actorId: ADMIN.id,
      actorEmail: ADMIN.email,
      action: "course.create",
      subjectType: "course",
      subjectId: created.id,
      summary: "Fraud Basics",
      before: null,
    });
    expect(createdRow!.after).toMatchObject({
      title: "Fraud Basics",
      slug: "fraud-basics",
      price: "100.00",
      status: "draft",
    });
    expect(createdRow!.after).not.toHaveProperty("updatedAt");

    await updateCourse(
      created.id,
      course({ title: "Fraud Essentials", slug: created.slug, price: "120.50" }),
      ADMIN,
    );
    const rows = await auditRows();
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({
      actorId: ADMIN.id,
      actorEmail: ADMIN.email,
      action: "course.update",
      subjectId: created.id,
      summary: "Fraud Essentials",
      before: { title: "Fraud Basics", price: "100.00" },
      after: { title: "Fraud Essentials", price: "120.50" },
    });
    expect(Object.keys(rows[1]!.before!).sort()).toEqual(["price", "title"]);
    expect(Object.keys(rows[1]!.after!).sort()).toEqual(["price", "title"]);

    // A status change is a changed field like any other; saving with no change writes nothing.
    const values = course({
      title: "Fraud Essentials",
      slug: created.slug,
      price: "120.50",
      status: "published",
    });
    await updateCourse(created.id, values, ADMIN);
    await updateCourse(created.id, values, ADMIN);
    const after = await auditRows();
    expect(after).toHaveLength(3);
    expect(after[2]).toMatchObject({
      before: { status: "draft" },
      after: { status: "published" },
    });
  });

  it("a long description is cut in the row, not in the course", async () => {
    const created = await createCourse(course({ title: "Long" }), ADMIN);
    const long = "x".repeat(5000);
    await updateCourse(
      created.id,
      course({ title: "Long", slug: created.slug, description: long }),
      ADMIN,
    );
    const [, row] = await auditRows();
    expect(String(row!.after!.description)).toMatch(/^x{2000}… \(5000 characters\)$/);
    const [stored] = await db().select().from(courses).where(eq(courses.id, created.id));
    expect(stored!.description).toBe(long);
  });

  it("deleting writes the snapshot as before; a category's create and delete too", async () => {
    const created = await createCourse(course({ title: "Gone Soon", price: "10" }), ADMIN);
    expect(await deleteCourse(created.id, OTHER)).toBe(true);
    expect(await deleteCourse(created.id, OTHER)).toBe(false);
    const fraud = await createCategory(categoryFormSchema.parse({ name: "Fraud" }), ADMIN);
    await deleteCategory(fraud.id, ADMIN);

    const rows = await auditRows();
    expect(rows.map((r) => r.action)).toEqual([
      "course.create",
      "course.delete",
      "category.create",
      "category.delete",
    ]);
    expect(rows[1]).toMatchObject({
      actorId: OTHER.id,
      actorEmail: OTHER.email,
      summary: "Gone Soon",
      before: { title: "Gone Soon", price: "10.00", slug: "gone-soon" },
      after: null,
    });
    expect(rows[2]).toMatchObject({
      subjectType: "category",
      summary: "Fraud",
      after: { name: "Fraud", slug: "fraud" },
    });
    expect(rows[3]).toMatchObject({ before: { name: "Fraud" }, after: null });
  });

  it("an update the database refuses writes no audit row (the same transaction)", async () => {
    const created = await createCourse(course({ title: "Stays" }), ADMIN);
    const other = await createCourse(course({ title: "Other" }), ADMIN);
    const gone = "00000000-0000-4000-8000-000000000000";
    const fk = await updateCourse(
      created.id,
      course({ title: "Renamed", slug: created.slug, category_id: gone }),
      ADMIN,
    ).catch((e: unknown) => e);
    expect(fk).toBeInstanceOf(InvalidInputError);
    const clash = await updateCourse(
      created.id,
      course({ title: "Renamed", slug: other.slug }),
      ADMIN,
    ).catch((e: unknown) => e);
    expect(clash).toBeInstanceOf(InvalidInputError);

    expect((await auditRows()).map((r) => r.action)).toEqual(["course.create", "course.create"]);
    const [stored] = await db().select().from(courses).where(eq(courses.id, created.id));
    expect(stored!.title).toBe("Stays");
  });

  it("a row written in a transaction that fails is not kept", async () => {
    await db()
      .transaction(async (tx) => {
        await recordAudit(tx, ADMIN, {
          action: "course.update",
          subjectType: "course",
          summary: "Never",
        });
        throw new Error("the change failed");
      })
      .catch(() => {});
    expect(await auditRows()).toEqual([]);
  });
});

describe("inquiries", () => {
  it("a status change records the status before and after, as the admin's", async () => {
    const [inquiry] = await db()
      .insert(inquiries)
      .values({ name: "Visitor", email: "visitor@example.com", message: "Hello", status: "new" })
      .returning();
    await updateInquiryForAdmin(
      inquiryUpdateSchema.parse({ id: inquiry!.id, status: "in_progress", notes: "" }),
      ADMIN,
    );
    const rows = await auditRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorId: ADMIN.id,
      action: "inquiry.update",
      subjectType: "inquiry",
      subjectId: inquiry!.id,
      summary: "visitor@example.com",
      before: { status: "new" },
      after: { status: "in_progress" },
    });
  });
});

describe("order transitions", () => {
  it("an admin's transition names the admin, with the invoice it issued", async () => {
    const order = await insertOrder("invoice");
    const result = await changeOrderStatusByAdmin(order.id, "invoiced", OTHER);
    expect(result.ok).toBe(true);
    const rows = await auditRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorId: OTHER.id,
      actorEmail: OTHER.email,
      action: "order.status",
      subjectType: "order",
      subjectId: order.id,
      summary: orderReference(order.id),
      before: { status: "pending" },
      after: { status: "invoiced", invoice: expect.stringMatching(/\S/) },
    });
  });

  it("a webhook's transition is the system's (no actor); a refused one writes nothing", async () => {
    const order = await insertOrder("stripe");
    const paid = await transitionOrder(order.id, "paid", {
      source: "webhook",
      eventId: "evt_audit_1",
      eventType: "checkout.session.completed",
    });
    expect(paid.kind).toBe("transitioned");
    // Refused: an admin cannot cancel a paid order; a replayed event is a duplicate.
    const refused = await changeOrderStatusByAdmin(order.id, "canceled", ADMIN);
    expect(refused).toMatchObject({ ok: false, reason: "not_allowed" });
    const replay = await transitionOrder(order.id, "paid", {
      source: "webhook",
      eventId: "evt_audit_1",
    });
    expect(replay.kind).toBe("duplicate_event");

    const rows = await auditRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorId: null,
      actorEmail: null,
      action: "order.status",
      before: { status: "pending" },
      after: { status: "paid", source: "webhook", stripeEvent: "evt_audit_1" },
    });
    expect(rows[0]!.after!.receipt).toEqual(expect.stringMatching(/\S/));
  });
});

describe("the table is append-only", () => {
  it("refuses UPDATE and DELETE", async () => {
    await recordAudit(db(), ADMIN, {
      action: "course.update",
      subjectType: "course",
      summary: "Kept",
    });
    await expect(db().execute(sql`update audit_log set summary = 'rewritten'`)).rejects.toThrow();
    await expect(db().execute(sql`delete from audit_log`)).rejects.toThrow();
    const rows = await auditRows();
    expect(rows.map((r) => r.summary)).toEqual(["Kept"]);
  });
});

describe("the list", () => {
  async function seedLog() {
    const row = (
      at: string,
      actor: { id: string; email: string } | null,
      action: string,
      subjectType: string,
      summary: string,
    ) => ({
      at: new Date(at),
      actorId: actor?.id ?? null,
      actorEmail: actor?.email ?? null,
      action,
      subjectType,
      summary,
    });
    await db()
      .insert(auditLog)
      .values([
        row("2026-06-29T10:00:00Z", ADMIN, "course.update", "course", "A"),
        // 23:30 UTC on 30 June is 00:30 on 1 July in London (BST).
        row("2026-06-30T23:30:00Z", OTHER, "order.status", "order", "B"),
        row("2026-07-01T12:00:00Z", null, "order.status", "order", "C"),
        row("2026-07-02T09:00:00Z", ADMIN, "auth.sign_in", "admin", "D"),
        row("2026-07-03T09:00:00Z", ADMIN, "admin.update", "admin", "E"),
      ]);
  }
  const list = async (query: string) => {
    const screen = await auditLogScreen(parseAuditFilters(new URLSearchParams(query)));
    return screen.items.map((i) => i.summary);
  };

  it("is newest first, and names every admin who appears for the person filter", async () => {
    await seedLog();
    expect(await list("")).toEqual(["E", "D", "C", "B", "A"]);
    const screen = await auditLogScreen(parseAuditFilters(new URLSearchParams()));
    expect(screen.people).toEqual([
      { id: ADMIN.id, email: ADMIN.email },
      { id: OTHER.id, email: OTHER.email },
    ]);
    expect(screen.total).toBe(5);
  });

  it("filters by person, System included", async () => {
    await seedLog();
    expect(await list(`person=${ADMIN.id}`)).toEqual(["E", "D", "A"]);
    expect(await list("person=system")).toEqual(["C"]);
    expect(await list("person=nobody")).toEqual([]);
  });

  it("filters by kind; sign-ins are their own kind", async () => {
    await seedLog();
    expect(await list("kind=order")).toEqual(["C", "B"]);
    expect(await list("kind=course")).toEqual(["A"]);
    expect(await list("kind=auth")).toEqual(["D"]);
    expect(await list("kind=admin")).toEqual(["E"]);
  });

  it("filters by London dates, both ends inclusive", async () => {
    await seedLog();
    expect(await list("from=2026-07-01&to=2026-07-01")).toEqual(["C", "B"]);
    expect(await list("to=2026-06-30")).toEqual(["A"]);
    expect(await list("from=2026-07-02")).toEqual(["E", "D"]);
    expect(await list(`from=2026-06-29&to=2026-07-02&person=${ADMIN.id}&kind=auth`)).toEqual(["D"]);
    // Typed the UK way (the form without JavaScript sends what was typed).
    expect(await list("from=01%2F07%2F2026&to=1.7.2026")).toEqual(["C", "B"]);
    // A date that is not one is no bound.
    expect(await list("from=2026-02-30")).toHaveLength(5);
    expect(await list("from=30/02/2026")).toHaveLength(5);
  });

  it("pages 50 at a time, and links an order that still exists to its page", async () => {
    const order = await insertOrder();
    await db()
      .insert(auditLog)
      .values(
        Array.from({ length: 51 }, (_, i) => ({
          at: new Date(Date.UTC(2026, 0, 1, 0, i)),
          action: "order.note",
          subjectType: "order",
          subjectId: i === 50 ? order.id : "00000000-0000-4000-8000-000000000000",
          summary: `N${i}`,
        })),
      );
    const first = await auditLogScreen(parseAuditFilters(new URLSearchParams()));
    expect(first).toMatchObject({ total: 51, page: 1, pageCount: 2 });
    expect(first.items).toHaveLength(50);
    expect(first.items[0]).toMatchObject({ summary: "N50", href: `/admin/payments/${order.id}` });
    expect(first.items[1]).toMatchObject({ summary: "N49", href: null });
    const second = await auditLogScreen(parseAuditFilters(new URLSearchParams("page=2")));
    expect(second.items.map((i) => i.summary)).toEqual(["N0"]);
  });
});
