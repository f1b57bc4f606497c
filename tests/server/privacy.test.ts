import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as exportModule from "#app/routes/admin/privacy-export.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { describeErasure, plannedErasure } from "#app/lib/admin/privacy.ts";
import { config } from "#server/config.server.ts";
import { auditLog, inquiries } from "#server/db/schema.ts";
import { findPersonalData } from "#server/privacy/find.server.ts";
import { adminCookie } from "#tests/support/admin-session.ts";
import { emailDigest } from "#server/privacy/matching.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { PERSON, seedPerson } from "#tests/support/privacy.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

const exportRoute = throughAdminLayout(exportModule);

const database = useFreshDatabase();
const origin = new URL(config.publicUrl).origin;

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
      waitingList: 0,
      certificates: 0,
      orders: 1,
      students: 2,
      emails: 3,
      records: 0,
      quotes: 0,
      licences: 0,
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
      subjectId: emailDigest(PERSON),
      actorEmail: "staff@example.com",
    });
    expect(audit!.after).toMatchObject({ format: "json", inquiries: 1, orders: 1, emails: 3 });
    expect(JSON.stringify(audit).toLowerCase()).not.toContain(PERSON);
    // A keyed hash: a guessed address cannot be confirmed from the log by hashing it.
    expect(audit!.subjectId).not.toBe(createHash("sha256").update(PERSON).digest("hex"));
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
