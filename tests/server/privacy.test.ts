import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as exportRoute from "#app/routes/admin/privacy-export.ts";
import * as privacyRoute from "#app/routes/admin/privacy.tsx";
import { orderReference } from "#app/lib/orders.ts";
import { describeErasure, plannedErasure } from "#app/lib/privacy.ts";
import { config } from "#server/config.server.ts";
import type { Database } from "#server/db/client.server.ts";
import {
  auditLog,
  emailOutbox,
  inquiries,
  newsletterSubscriptions,
  orderDocuments,
  orderStudents,
  orders,
} from "#server/db/schema.ts";
import {
  anonymiseExpiredInquiries,
  emailDigest,
  erasePersonalData,
  findPersonalData,
} from "#server/privacy.server.ts";
import { adminCookie } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

const database = useFreshDatabase();
const origin = new URL(config.publicUrl).origin;
const actor = { id: "admin-1", email: "staff@example.com" };
const PERSON = "jane.doe@example.com";

let outboxDir: string;
beforeEach(async () => {
  outboxDir = await mkdtemp(path.join(tmpdir(), "nw-privacy-"));
});
afterEach(async () => {
  await rm(outboxDir, { recursive: true, force: true });
});

/** Jane's inquiry, subscription, order (with her and a colleague as students), a place on
 * someone else's order, and e-mails; plus someone else's data that must not be touched. */
async function seedPerson(db: Database) {
  const [inquiry] = await db
    .insert(inquiries)
    .values({
      name: "Jane Doe",
      email: "  Jane.Doe@Example.com ",
      phone: "07700 900123",
      company: "Doe Ltd",
      message: "Please call me",
    })
    .returning();
  const [other] = await db
    .insert(inquiries)
    .values({ name: "Bob", email: "bob@example.com", message: "Hello" })
    .returning();
  await db
    .insert(newsletterSubscriptions)
    .values([{ email: "JANE.DOE@example.com", source: "footer" }, { email: "bob@example.com" }]);
  const orderValues = {
    status: "invoiced" as const,
    paymentMethod: "invoice" as const,
    courseTitleSnapshot: "OSINT",
    unitPriceCents: 10000,
    quantity: 2,
    netAmountCents: 20000,
    vatAmountCents: 4000,
    vatRateBasisPoints: 2000,
    totalAmountCents: 24000,
  };
  const [order] = await db
    .insert(orders)
    .values({
      ...orderValues,
      buyerFirstName: "Jane",
      buyerLastName: "Doe",
      buyerEmail: "jane.doe@EXAMPLE.com",
      buyerPhone: "07700 900123",
      buyerCompany: "Doe Ltd",
      billingOrganisation: "Doe Ltd",
      billingAddressLine1: "1 High Street",
      billingTown: "London",
      billingPostcode: "SW1A 1AA",
      billingCountry: "GB",
      poNumber: "PO-7",
      buyerVatNumber: "GB123456789",
      createdAt: new Date("2026-01-05T10:00:00Z"),
    })
    .returning();
  const [bobsOrder] = await db
    .insert(orders)
    .values({
      ...orderValues,
      buyerFirstName: "Bob",
      buyerLastName: "Smith",
      buyerEmail: "bob@example.com",
    })
    .returning();
  await db.insert(orderStudents).values([
    { orderId: order!.id, position: 1, firstName: "Jane", lastName: "Doe", email: PERSON },
    { orderId: order!.id, position: 2, firstName: "Ann", lastName: "Lee", email: "ann@x.com" },
    {
      orderId: bobsOrder!.id,
      position: 1,
      firstName: "Bob",
      lastName: "Smith",
      email: "bob@example.com",
    },
    {
      orderId: bobsOrder!.id,
      position: 2,
      firstName: "Jane",
      lastName: "Doe",
      email: "Jane.Doe@example.com",
    },
  ]);
  const [invoice] = await db
    .insert(orderDocuments)
    .values({
      orderId: order!.id,
      kind: "invoice",
      number: "INV-2026-0042",
      netAmountCents: 20000,
      vatAmountCents: 4000,
      totalAmountCents: 24000,
      issuedBy: "staff@example.com",
      snapshot: { number: "INV-2026-0042", customer: { name: "Jane Doe" } },
    })
    .returning();
  const mails = await db
    .insert(emailOutbox)
    .values([
      // to her, in a list, in another case
      {
        kind: "visitor_confirmation",
        toAddress: `x@example.com, ${PERSON.toUpperCase()}`,
        subject: "Thanks",
        html: "<p>Hi</p>",
        text: "Hi",
        status: "sent",
        inquiryId: inquiry!.id,
      },
      // the admin alert about her inquiry (to staff)
      {
        kind: "admin_alert",
        toAddress: "staff@example.com",
        subject: "New inquiry",
        html: "x",
        text: "Jane Doe",
        status: "pending",
        inquiryId: inquiry!.id,
      },
      // her invoice e-mail, "Name <address>" form
      {
        kind: "invoice",
        toAddress: `Jane Doe <${PERSON}>`,
        subject: "Invoice",
        html: "x",
        text: "x",
        status: "sent",
        orderId: order!.id,
      },
      // not hers: a near miss and Bob's
      {
        kind: "invoice",
        toAddress: "notjane.doe@example.com",
        subject: "Other",
        html: "x",
        text: "x",
        status: "sent",
      },
      {
        kind: "visitor_confirmation",
        toAddress: "bob@example.com",
        subject: "Bob",
        html: "x",
        text: "x",
        status: "sent",
        inquiryId: other!.id,
      },
    ])
    .returning();
  return {
    inquiry: inquiry!,
    other: other!,
    order: order!,
    bobsOrder: bobsOrder!,
    invoice: invoice!,
    mails,
  };
}

async function count(
  db: Database,
  table: typeof inquiries | typeof newsletterSubscriptions | typeof emailOutbox,
) {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table);
  return row!.n;
}

describe("finding what is held about an address", () => {
  it("finds every kind, case-insensitively and trimmed, including comma-separated recipients", async () => {
    const { db } = database();
    const seeded = await seedPerson(db);
    const data = await findPersonalData("  JANE.doe@example.COM ");
    expect(data.email).toBe(PERSON);
    expect(data.inquiries.map((i) => i.id)).toEqual([seeded.inquiry.id]);
    expect(data.orders).toHaveLength(1);
    expect(data.orders[0]).toMatchObject({
      reference: orderReference(seeded.order.id),
      totalAmountCents: 24000,
      documents: [{ number: "INV-2026-0042", kind: "invoice" }],
    });
    expect(data.orders[0]!.students.map((s) => s.firstName)).toEqual(["Jane", "Ann"]);
    expect(data.studentRecords).toHaveLength(1);
    expect(data.studentRecords[0]).toMatchObject({
      orderId: seeded.bobsOrder.id,
      position: 2,
      orderReference: orderReference(seeded.bobsOrder.id),
    });
    expect(data.subscriptions.map((s) => s.email)).toEqual(["JANE.DOE@example.com"]);
    expect(data.emails.map((e) => e.subject).sort()).toEqual(["Invoice", "New inquiry", "Thanks"]);
    expect(plannedErasure(data)).toEqual({
      inquiries: 1,
      subscriptions: 1,
      orders: 1,
      students: 2,
      emails: 3,
    });
    expect(describeErasure(plannedErasure(data))).toBe(
      "Delete 1 inquiry and 1 newsletter subscription; anonymise 1 order and 2 student records (amounts, dates and invoice numbers are kept for 6 years, as UK tax law requires); delete 3 stored e-mails.",
    );
  });
});

describe("the export download", () => {
  it("is JSON with everything, attached, not cached, and audited without the address", async () => {
    const { db } = database();
    const seeded = await seedPerson(db);
    const cookie = await adminCookie();
    const response = (await exportRoute.loader({
      request: new Request(
        `${origin}/admin/privacy/export?email=${encodeURIComponent(" Jane.Doe@example.com")}&format=json`,
        { headers: { cookie } },
      ),
      params: {},
      context: {},
    } as never)) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="personal-data-.*\.json"$/,
    );
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = (await response.json()) as Record<string, unknown[]> & { email: string };
    expect(body.email).toBe(PERSON);
    expect(body.inquiries).toHaveLength(1);
    expect(body.orders).toHaveLength(1);
    expect(body.studentRecords).toHaveLength(1);
    expect(body.subscriptions).toHaveLength(1);
    expect(body.emails).toHaveLength(3);
    expect(JSON.stringify(body)).toContain("Please call me");
    expect(JSON.stringify(body)).not.toContain("bob@example.com");

    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "privacy.export"));
    expect(audit).toMatchObject({
      subjectType: "privacy",
      subjectId: createHash("sha256").update(PERSON).digest("hex"),
      actorEmail: "staff@example.com",
    });
    expect(audit!.after).toMatchObject({ format: "json", inquiries: 1, orders: 1, emails: 3 });
    expect(JSON.stringify(audit).toLowerCase()).not.toContain(PERSON);
    expect(seeded.order.id).toBeTruthy();
  });

  it("is CSV with one line per thing held, formulas made harmless", async () => {
    const { db } = database();
    await seedPerson(db);
    await db.insert(inquiries).values({ name: "=HYPERLINK(1)", email: PERSON, message: "x" });
    const cookie = await adminCookie();
    const response = (await exportRoute.loader({
      request: new Request(`${origin}/admin/privacy/export?email=${PERSON}&format=csv`, {
        headers: { cookie },
      }),
      params: {},
      context: {},
    } as never)) as Response;
    expect(response.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename=".*\.csv"$/);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const text = await response.text();
    const lines = text
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe("Kind,Date,Reference,Status,Name,E-mail,Phone,Company,Details");
    const kinds = lines.slice(1).map((l) => l.split(",")[0]);
    expect(kinds.filter((k) => k === "Inquiry")).toHaveLength(2);
    expect(kinds.filter((k) => k === "Order")).toHaveLength(1);
    expect(kinds.filter((k) => k === "Student on the order")).toHaveLength(2);
    expect(kinds.filter((k) => k === "Student place")).toHaveLength(1);
    expect(kinds.filter((k) => k === "Newsletter subscription")).toHaveLength(1);
    expect(kinds.filter((k) => k === "E-mail")).toHaveLength(3);
    expect(text).toContain("'=HYPERLINK(1)");
    expect(text).toContain("INV-2026-0042");
  });

  it("refuses a missing address with 400", async () => {
    database();
    const cookie = await adminCookie();
    const response = (await exportRoute.loader({
      request: new Request(`${origin}/admin/privacy/export?format=json`, { headers: { cookie } }),
      params: {},
      context: {},
    } as never)) as Response;
    expect(response.status).toBe(400);
  });
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
      orders: 1,
      students: 2,
      emails: 3,
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
      after: { inquiries: 1, subscriptions: 1, orders: 1, students: 2, emails: 3 },
    });
    expect(JSON.stringify(audits[0]).toLowerCase()).not.toContain("jane.doe");

    // Nothing is found any more.
    expect(plannedErasure(await findPersonalData(PERSON))).toEqual({
      inquiries: 0,
      subscriptions: 0,
      orders: 0,
      students: 0,
      emails: 0,
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

describe("inquiry retention", () => {
  it("anonymises only inquiries older than the period, once, with one audit row per run that changed something", async () => {
    const { db } = database();
    const now = new Date("2026-06-15T12:00:00Z");
    const [old, recent, already] = await db
      .insert(inquiries)
      .values([
        {
          name: "Old One",
          email: "old@example.com",
          phone: "1",
          company: "C",
          budget: "£1k",
          message: "old",
          notes: "n",
          createdAt: new Date("2024-06-01T00:00:00Z"),
        },
        {
          name: "Recent",
          email: "recent@example.com",
          message: "recent",
          createdAt: new Date("2024-07-01T00:00:00Z"),
        },
        {
          name: "Anonymised",
          email: "x@erased.invalid",
          message: "gone",
          createdAt: new Date("2020-01-01T00:00:00Z"),
          anonymisedAt: new Date("2025-01-01T00:00:00Z"),
        },
      ])
      .returning();
    const [mail] = await db
      .insert(emailOutbox)
      .values({
        kind: "visitor_confirmation",
        toAddress: "old@example.com",
        subject: "Thanks",
        html: "x",
        text: "x",
        inquiryId: old!.id,
      })
      .returning();
    await writeFile(
      path.join(outboxDir, `2024-06-01T00-00-00-000Z-visitor_confirmation-${mail!.id}.eml`),
      "x",
    );

    expect(await anonymiseExpiredInquiries(now, { months: 24, outboxDir })).toEqual({
      inquiries: 1,
      emails: 1,
    });
    const rows = await db.select().from(inquiries);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(old!.id)).toMatchObject({
      name: "Anonymised",
      email: `inquiry-${old!.id}@erased.invalid`,
      phone: null,
      company: null,
      budget: null,
      notes: null,
      anonymisedAt: now,
      createdAt: old!.createdAt,
    });
    expect(byId.get(old!.id)!.message).not.toContain("old");
    expect(byId.get(recent!.id)).toMatchObject({
      name: "Recent",
      email: "recent@example.com",
      anonymisedAt: null,
    });
    expect(byId.get(already!.id)!.anonymisedAt).toEqual(already!.anonymisedAt);
    expect(await count(db, emailOutbox)).toBe(0);
    expect(await readdir(outboxDir)).toEqual([]);

    // Idempotent: a second run changes nothing and records nothing.
    expect(await anonymiseExpiredInquiries(now, { months: 24, outboxDir })).toEqual({
      inquiries: 0,
      emails: 0,
    });
    const audits = await db.select().from(auditLog);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      action: "privacy.retention",
      actorId: null,
      subjectType: "privacy",
      after: { inquiries: 1, emails: 1, months: 24 },
    });

    // 0 months: off.
    expect(
      await anonymiseExpiredInquiries(new Date("2030-01-01T00:00:00Z"), { months: 0, outboxDir }),
    ).toEqual({ inquiries: 0, emails: 0 });
    expect(byId.get(recent!.id)!.anonymisedAt).toBeNull();
  });
});
