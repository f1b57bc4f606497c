import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditLog, emailOutbox, inquiries, rateLimit } from "#server/db/schema.ts";
import {
  anonymiseExpiredInquiries,
  boundedError,
  pruneSentEmailBodies,
  removeExpiredSignInTraces,
} from "#server/privacy/retention.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { count } from "#tests/support/privacy.ts";

const database = useFreshDatabase();

let outboxDir: string;
beforeEach(async () => {
  outboxDir = await mkdtemp(path.join(tmpdir(), "nw-privacy-"));
});
afterEach(async () => {
  await rm(outboxDir, { recursive: true, force: true });
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

describe("inquiry retention at volume", () => {
  it("anonymises 70,000 due inquiries, in bounded batches", async () => {
    const { db } = database();
    await db.execute(sql`
      insert into inquiries (name, email, message, created_at)
      select 'Person ' || n, 'person' || n || '@example.com', 'Hello', timestamptz '2024-01-01' + n * interval '1 second'
      from generate_series(1, 70000) as n`);
    const result = await anonymiseExpiredInquiries(new Date("2026-06-15T12:00:00Z"), {
      months: 12,
      outboxDir,
    });
    expect(result.inquiries).toBe(70_000);
    const [left] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(inquiries)
      .where(sql`${inquiries.anonymisedAt} is null`);
    expect(Number(left!.n)).toBe(0);
    // One audit row per batch of at most a thousand.
    const rows = await db.select().from(auditLog);
    expect(rows).toHaveLength(70);
    expect(rows.every((r) => (r.after as { inquiries: number }).inquiries <= 1000)).toBe(true);
  }, 240_000);

  it("a failed run is logged in one bounded line, whatever the statement carried", () => {
    const huge = new Error(`Failed query: insert ... params: ${"x,".repeat(1_000_000)}`);
    const bounded = boundedError(huge);
    expect(JSON.stringify(bounded).length).toBeLessThan(700);
    expect(bounded.message).toMatch(/^Failed query/);
  });
});

describe("sign-in traces", () => {
  it("removes old counters and old failed sign-ins for no account; keeps an account's history", async () => {
    const { db } = database();
    const now = new Date("2026-06-15T12:00:00Z");
    const day = 24 * 60 * 60 * 1000;
    await db.insert(rateLimit).values([
      {
        id: "old",
        key: "203.0.113.9/sign-in/email",
        count: 3,
        lastRequest: now.getTime() - 2 * day,
      },
      { id: "new", key: "203.0.113.8/sign-in/email", count: 1, lastRequest: now.getTime() - 1000 },
    ]);
    const failed = (at: Date, subjectId: string | null) => ({
      action: "auth.sign_in_failed",
      subjectType: "admin",
      subjectId,
      summary: "someone@example.com",
      ipAddress: "203.0.113.9",
      at,
    });
    await db
      .insert(auditLog)
      .values([
        failed(new Date(now.getTime() - 100 * day), null),
        failed(new Date(now.getTime() - 10 * day), null),
        failed(new Date(now.getTime() - 100 * day), "admin-1"),
      ]);
    expect(await removeExpiredSignInTraces(now, 90)).toEqual({ counters: 1, signIns: 1 });
    expect((await db.select().from(rateLimit)).map((r) => r.id)).toEqual(["new"]);
    const left = await db.select().from(auditLog);
    expect(left).toHaveLength(2);
    expect(left.some((r) => r.subjectId === "admin-1")).toBe(true);
    // The audit log's rule holds outside housekeeping.
    await expect(db.delete(auditLog)).rejects.toThrow();
  });
});

describe("sent e-mails' bodies", () => {
  it("are emptied after the period; the rest of each row stays, unsent ones keep theirs", async () => {
    const { db } = database();
    const now = new Date("2026-06-15T12:00:00Z");
    const day = 24 * 60 * 60 * 1000;
    const mail = (to: string, status: "sent" | "pending", sentAt: Date | null) => ({
      kind: "test",
      toAddress: to,
      subject: `To ${to}`,
      html: "<p>Dear Jane</p>",
      text: "Dear Jane",
      status,
      sentAt,
    });
    await db
      .insert(emailOutbox)
      .values([
        mail("old@example.com", "sent", new Date(now.getTime() - 200 * day)),
        mail("recent@example.com", "sent", new Date(now.getTime() - 10 * day)),
        mail("waiting@example.com", "pending", null),
      ]);
    expect(await pruneSentEmailBodies(now, 180)).toBe(1);
    const rows = await db.select().from(emailOutbox).orderBy(emailOutbox.toAddress);
    expect(rows.map((r) => [r.toAddress, r.subject, r.text])).toEqual([
      ["old@example.com", "To old@example.com", ""],
      ["recent@example.com", "To recent@example.com", "Dear Jane"],
      ["waiting@example.com", "To waiting@example.com", "Dear Jane"],
    ]);
    expect(await pruneSentEmailBodies(now, 180)).toBe(0);
  });
});
