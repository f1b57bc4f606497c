import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as privacyModule from "#app/routes/admin/privacy.tsx";
import { orderReference } from "#app/lib/orders/orders.ts";
import { plannedErasure } from "#app/lib/admin/privacy.ts";
import { config } from "#server/config.server.ts";
import {
  auditLog,
  emailOutbox,
  inquiries,
  newsletterSubscriptions,
  orderDocuments,
  orderEvents,
  orderStudents,
  orders,
  waitingListEntries,
} from "#server/db/schema.ts";
import { recordAudit } from "#server/audit.server.ts";
import { erasePersonalData } from "#server/privacy/erase.server.ts";
import { findPersonalData } from "#server/privacy/find.server.ts";
import { emailDigest } from "#server/privacy/matching.server.ts";
import { adminCookie } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourse, insertCourseDate } from "#tests/support/factories.ts";
import { count, PERSON, seedPerson } from "#tests/support/privacy.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

const privacyRoute = throughAdminLayout(privacyModule);

const database = useFreshDatabase();
const origin = new URL(config.publicUrl).origin;
const actor = { id: "admin-1", email: "staff@example.com" };

let outboxDir: string;
beforeEach(async () => {
  outboxDir = await mkdtemp(path.join(tmpdir(), "nw-privacy-"));
});
afterEach(async () => {
  await rm(outboxDir, { recursive: true, force: true });
});

describe("erasure", () => {
  it("deletes, anonymises and removes copies in one go, keeping the tax records", async () => {
    const { db } = database();
    const seeded = await seedPerson(db);
    const [hers1, hers2, hers3, nearMiss, bobs] = seeded.mails;
    for (const mail of seeded.mails) {
      await writeFile(
        path.join(outboxDir, `2026-01-05T10-00-00-000Z-${mail.kind}-${mail.id}.eml`),
        "x",
      );
    }
    const documentBefore = (await db.select().from(orderDocuments))[0];

    const result = await erasePersonalData(" Jane.Doe@Example.com", actor, {
      now: new Date("2026-03-01T12:00:00Z"),
      outboxDir,
    });
    expect(result.counts).toEqual({
      inquiries: 1,
      subscriptions: 1,
      waitingList: 0,
      certificates: 0,
      orders: 1,
      students: 2,
      emails: 3,
      records: 0,
      quotes: 0,
      licences: 0,
    });
    expect(result.message).toBe(
      "Deleted 1 inquiry and 1 newsletter subscription; anonymised 1 order and 2 student records (amounts, dates and invoice numbers are kept for 6 years, as UK tax law requires); deleted 3 stored e-mails.",
    );

    // Inquiries and subscriptions: hers gone, Bob's kept.
    expect((await db.select().from(inquiries)).map((i) => i.id)).toEqual([seeded.other.id]);
    expect((await db.select().from(newsletterSubscriptions)).map((s) => s.email)).toEqual([
      "bob@example.com",
    ]);

    // The order: anonymised, the money, dates, status, reference and document unchanged.
    const [order] = await db.select().from(orders).where(eq(orders.id, seeded.order.id));
    expect(order).toMatchObject({
      buyerFirstName: "Erased",
      buyerEmail: `order-${seeded.order.id}@erased.invalid`,
      buyerPhone: null,
      buyerCompany: null,
      billingOrganisation: null,
      billingAddressLine1: null,
      billingTown: null,
      billingPostcode: null,
      poNumber: null,
      buyerVatNumber: null,
      status: "invoiced",
      totalAmountCents: 24000,
      netAmountCents: 20000,
      vatAmountCents: 4000,
      createdAt: seeded.order.createdAt,
      anonymisedAt: new Date("2026-03-01T12:00:00Z"),
    });
    expect(orderReference(order!.id)).toBe(orderReference(seeded.order.id));
    expect((await db.select().from(orderDocuments))[0]).toEqual(documentBefore);

    // Students: her place on her order and on Bob's; Ann (a colleague she booked) and Bob keep
    // theirs.
    const students = await db
      .select()
      .from(orderStudents)
      .orderBy(orderStudents.orderId, orderStudents.position);
    const erased = students.filter((s) => s.firstName === "Erased");
    expect(erased).toHaveLength(2);
    expect(students.filter((s) => s.firstName === "Ann")).toHaveLength(1);
    for (const s of erased) expect(s.email).toBe(`student-${s.id}@erased.invalid`);
    expect(students.filter((s) => s.firstName === "Bob")).toHaveLength(1);
    const [bobsOrder] = await db.select().from(orders).where(eq(orders.id, seeded.bobsOrder.id));
    expect(bobsOrder).toMatchObject({ buyerFirstName: "Bob", anonymisedAt: null });

    // Outbox rows and their .eml copies: hers gone, the others kept.
    expect((await db.select().from(emailOutbox)).map((m) => m.id).sort()).toEqual(
      [nearMiss!.id, bobs!.id].sort(),
    );
    const files = await readdir(outboxDir);
    expect(files).toHaveLength(2);
    for (const mail of [hers1, hers2, hers3]) {
      expect(files.some((f) => f.includes(mail!.id))).toBe(false);
    }

    // The audit row: who, counts, the digest, never the address.
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "privacy.erase"));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorId: "admin-1",
      actorEmail: "staff@example.com",
      subjectType: "privacy",
      subjectId: emailDigest(PERSON),
      after: { inquiries: 1, subscriptions: 1, orders: 1, students: 2, emails: 3, records: 0 },
    });
    expect(JSON.stringify(audits[0]).toLowerCase()).not.toContain("jane.doe");

    // Nothing is found any more.
    expect(plannedErasure(await findPersonalData(PERSON))).toEqual({
      inquiries: 0,
      subscriptions: 0,
      waitingList: 0,
      certificates: 0,
      orders: 0,
      students: 0,
      emails: 0,
      records: 0,
      quotes: 0,
      licences: 0,
    });
  });

  it("twice at once (a double post) erases once and records once", async () => {
    const { db } = database();
    await seedPerson(db);
    const results = await Promise.all([
      erasePersonalData(PERSON, actor, { outboxDir }),
      erasePersonalData(PERSON.toUpperCase(), actor, { outboxDir }),
    ]);
    expect(results.map((r) => r.counts.orders).sort()).toEqual([0, 1]);
    expect(
      await db.select().from(auditLog).where(eq(auditLog.action, "privacy.erase")),
    ).toHaveLength(1);
  });

  it("of an unknown address changes nothing and says so", async () => {
    const { db } = database();
    await seedPerson(db);
    const before = {
      inquiries: await count(db, inquiries),
      subscriptions: await count(db, newsletterSubscriptions),
      emails: await count(db, emailOutbox),
      orders: JSON.stringify(await db.select().from(orders).orderBy(orders.id)),
    };
    const result = await erasePersonalData("nobody@example.com", actor, { outboxDir });
    expect(result.message).toBe("Nothing was held: nothing changed.");
    expect({
      inquiries: await count(db, inquiries),
      subscriptions: await count(db, newsletterSubscriptions),
      emails: await count(db, emailOutbox),
      orders: JSON.stringify(await db.select().from(orders).orderBy(orders.id)),
    }).toEqual(before);
    expect(await db.select().from(auditLog)).toEqual([]);
  });

  it("is posted through the screen's action, which answers with the toast's words", async () => {
    const { db } = database();
    await seedPerson(db);
    const cookie = await adminCookie();
    const answer = (await privacyRoute.action({
      request: new Request(`${origin}/admin/privacy?email=${PERSON}`, {
        method: "POST",
        headers: {
          cookie,
          Origin: origin,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ intent: "erase", email: PERSON }),
      }),
      params: {},
      context: {},
    } as never)) as { data: { ok: boolean; message: string } };
    expect(answer.data).toMatchObject({ ok: true, form: "erase" });
    expect(answer.data.message).toMatch(
      /^Deleted 1 inquiry and 1 newsletter subscription; anonymised 1 order/,
    );
    expect(await count(db, inquiries)).toBe(1);
  });

  it("the page answers a malformed address with a message, and lists without e-mail bodies", async () => {
    const { db } = database();
    await seedPerson(db);
    const cookie = await adminCookie();
    const load = async (query: string) =>
      (await privacyRoute.loader({
        request: new Request(`${origin}/admin/privacy?${query}`, { headers: { cookie } }),
        params: {},
        context: {},
      } as never)) as Awaited<ReturnType<typeof privacyRoute.loader>>;
    const invalid = await load("email=not-an-address");
    expect(invalid.query.state).toBe("invalid");
    expect(invalid.data).toBeNull();
    const found = await load(`email=${encodeURIComponent(PERSON.toUpperCase())}`);
    expect(found.query).toMatchObject({ state: "ok", email: PERSON, confirmErase: false });
    expect(found.data!.emails).toHaveLength(3);
    for (const email of found.data!.emails) expect(email).not.toHaveProperty("text");
  });
});

describe("erasure is complete", () => {
  /** The history that names her: audit rows and order notes, as the site writes them. */
  async function seedHistory(seeded: Awaited<ReturnType<typeof seedPerson>>) {
    const { db } = database();
    const [subscription] = await db
      .select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, "JANE.DOE@example.com"));
    const staff = { id: "admin-1", email: "staff@example.com" };
    await recordAudit(db, staff, {
      action: "inquiry.update",
      subjectType: "inquiry",
      subjectId: seeded.inquiry.id,
      summary: seeded.inquiry.email,
      before: { status: "new", notes: "" },
      after: { status: "in_progress", notes: "Called her on 07700 900123" },
    });
    await recordAudit(db, staff, {
      action: "subscription.update",
      subjectType: "subscription",
      subjectId: subscription!.id,
      summary: subscription!.email,
      before: { isActive: true },
      after: { isActive: false },
    });
    await recordAudit(db, staff, {
      action: "order.note",
      subjectType: "order",
      subjectId: seeded.order.id,
      summary: orderReference(seeded.order.id),
      after: { note: "She prefers mornings; mobile 07700 900123" },
    });
    await recordAudit(db, null, {
      action: "auth.sign_in_failed",
      subjectType: "admin",
      summary: "Jane.Doe@Example.com",
      after: { reason: "unknown_address" },
    });
    await recordAudit(db, staff, {
      action: "order.note",
      subjectType: "order",
      subjectId: seeded.bobsOrder.id,
      summary: orderReference(seeded.bobsOrder.id),
      after: { note: "Bob says jane.doe@example.com attends in his place" },
    });
    await recordAudit(db, staff, {
      action: "order.status",
      subjectType: "order",
      subjectId: seeded.order.id,
      summary: orderReference(seeded.order.id),
      before: { status: "pending" },
      after: { status: "invoiced" },
    });
    await db.insert(orderEvents).values([
      {
        orderId: seeded.order.id,
        kind: "note",
        actor: "staff@example.com",
        detail: { text: "She prefers mornings; mobile 07700 900123" },
      },
      {
        orderId: seeded.bobsOrder.id,
        kind: "note",
        actor: "staff@example.com",
        detail: { text: "cc Jane.Doe@Example.com" },
      },
      { orderId: seeded.order.id, kind: "invoiced", actor: "staff@example.com" },
    ]);
  }

  /** Every text and JSON column of every table holding `needle` (any case): table.column. */
  async function tracesOf(needle: string): Promise<string[]> {
    const { db } = database();
    const columns = (await db.execute(
      sql`select table_name, column_name from information_schema.columns
          where table_schema = 'public' and data_type in ('text', 'character varying', 'json', 'jsonb')`,
    )) as unknown as { rows: { table_name: string; column_name: string }[] };
    // The needle as a whole word: 'xjane.doe@example.com' (someone else) is no trace of her.
    const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const pattern = `(^|[^a-z0-9._%+-])${escaped}($|[^a-z0-9-])`;
    const found: string[] = [];
    for (const { table_name: table, column_name: column } of columns.rows) {
      const result = (await db.execute(
        sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)}::text ~* ${pattern}`,
      )) as unknown as { rows: { n: number }[] };
      if (Number(result.rows[0]!.n) > 0) found.push(`${table}.${column}`);
    }
    return found;
  }

  it("the search and export find the history; the erasure leaves no trace outside issued documents", async () => {
    const seeded = await seedPerson(database().db);
    await seedHistory(seeded);
    // Her place on a date's waiting list, with what she typed (decision 0034).
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 1 });
    await database().db.insert(waitingListEntries).values({
      courseId: course.id,
      courseDateId: date.id,
      firstName: "Jane",
      lastName: "Doe",
      email: "Jane.Doe@Example.com",
      organisation: "Waiting Doe Holdings",
      places: 2,
      consentAt: new Date(),
    });

    const found = await findPersonalData(PERSON);
    // Five audit rows and two notes name her; the status change names nobody.
    expect(found.records.map((r) => r.what).sort()).toEqual(
      [
        "auth.sign_in_failed",
        "inquiry.update",
        "note",
        "note",
        "order.note",
        "order.note",
        "subscription.update",
      ].sort(),
    );

    const result = await erasePersonalData(PERSON, actor, { outboxDir });
    expect(result.counts.records).toBe(7);
    expect(result.message).toContain("redacted 7 history records");

    expect(found.waitingList).toHaveLength(1);
    expect(result.counts.waitingList).toBe(1);
    for (const needle of [PERSON, "07700 900123", "prefers mornings", "Waiting Doe Holdings"]) {
      // The issued invoice keeps its snapshot (tax law); nothing else holds her.
      expect(
        (await tracesOf(needle)).filter((c) => !c.startsWith("order_documents.")),
        needle,
      ).toEqual([]);
    }
    // The rows themselves stay: when, who and what kind of change.
    const { db } = database();
    const notes = await db.select().from(auditLog).where(eq(auditLog.action, "order.note"));
    expect(notes).toHaveLength(2);
    expect(notes.map((n) => n.after)).toEqual(
      expect.arrayContaining([
        { note: "[erased]" },
        { note: "Bob says [erased] attends in his place" },
      ]),
    );
    const [status] = await db.select().from(auditLog).where(eq(auditLog.action, "order.status"));
    expect(status!.after).toEqual({ status: "invoiced" });
    expect(plannedErasure(await findPersonalData(PERSON)).records).toBe(0);
  });

  it("outside an erasure the audit log still cannot be changed or deleted", async () => {
    const seeded = await seedPerson(database().db);
    await seedHistory(seeded);
    const { db } = database();
    await expect(db.update(auditLog).set({ summary: "rewritten" })).rejects.toThrow();
    await expect(db.delete(auditLog)).rejects.toThrow();
    // Not even inside a transaction that claims to be an erasure may it change who or what.
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('nightwatch.erasure', 'on', true)`);
        await tx.update(auditLog).set({ action: "something.else" });
      }),
    ).rejects.toThrow();
  });
});
