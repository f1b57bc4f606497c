import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import * as certificatePageModule from "#app/routes/site/certificate.tsx";
import * as registerModule from "#app/routes/admin/date-register.tsx";
import { CERTIFICATE_MESSAGES, CERTIFICATE_NUMBER } from "#app/lib/catalogue/certificates.ts";
import {
  certificateView,
  issueCertificates,
  revokeCertificate,
} from "#server/catalogue/certificates.server.ts";
import { dateRegister, markAttendance } from "#server/catalogue/date-register.server.ts";
import { db } from "#server/db/client.server.ts";
import {
  auditLog,
  certificates,
  courseDates,
  emailOutbox,
  orderStudents,
} from "#server/db/schema.ts";
import { OutboxWorker, smtpMailer } from "#server/email/worker.server.ts";
import { erasePersonalData } from "#server/privacy/erase.server.ts";
import { findPersonalData } from "#server/privacy/find.server.ts";
import { useAdminPosts } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourseDate } from "#tests/support/factories.ts";
import { drain } from "#tests/support/invoices.ts";
import { ADMIN, insertCourse, placeOrder } from "#tests/support/orders.ts";
import { pdfText } from "#tests/support/pdf-text.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";
import { startSmtpSink, type SmtpSink } from "#tests/support/smtp-sink.ts";

/**
 * Certificates of attendance: issued after a date ends to students marked present (all at once
 * or one place), each PDF stored with its SHA-256 and e-mailed through a real SMTP server on
 * loopback; the public page's view; revocation and re-issue; erasure; the register's posts.
 */
useFreshDatabase();

const HOUR = 3_600_000;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const registerRoute = throughAdminLayout(registerModule);
const posts = useAdminPosts();

let sink: SmtpSink | undefined;
const workers: OutboxWorker[] = [];
afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop();
  await sink?.close();
  sink = undefined;
});

/**
 * A date that ended an hour ago: the buyer attending themself (present), three students (present,
 * partial, absent), and one more place marked present whose student is not named.
 */
async function attendedDate() {
  const course = await insertCourse({ title: "Dark Web Investigations", cpdHours: "6.5" });
  const booked = await insertCourseDate(course.id);
  const self = await placeOrder(course.id, "invoice", {}, booked.id);
  const group = await placeOrder(course.id, "invoice", { quantity: 4 }, booked.id);
  if (!self.ok || !group.ok) throw new Error("not booked");
  // Booked while open; it then ran and ended an hour ago.
  const startsAt = new Date(Date.now() - 8 * HOUR);
  const [ended] = await db()
    .update(courseDates)
    .set({ startsAt, bookingClosesAt: startsAt, endsAt: new Date(startsAt.getTime() + 7 * HOUR) })
    .where(eq(courseDates.id, booked.id))
    .returning();
  await db()
    .delete(orderStudents)
    .where(and(eq(orderStudents.orderId, group.order.id), eq(orderStudents.position, 3)));
  const marked = await markAttendance(ADMIN, booked.id, [
    { orderId: self.order.id, position: 1, status: "present" },
    { orderId: group.order.id, position: 1, status: "present" },
    { orderId: group.order.id, position: 2, status: "partial" },
    { orderId: group.order.id, position: 3, status: "absent" },
    { orderId: group.order.id, position: 4, status: "present" },
  ]);
  expect(marked.ok).toBe(true);
  return { course, date: ended!, self: self.order, group: group.order };
}

describe("issuing certificates", () => {
  it("after the date ends, to each student marked present with a name: PDF, hash, e-mail, audit", async () => {
    const { date, self, group } = await attendedDate();
    const before = new Date(date.endsAt.getTime() - 60_000);
    expect(await issueCertificates(ADMIN, date.id, { now: before })).toEqual({
      ok: false,
      status: 409,
      message: CERTIFICATE_MESSAGES.notEnded,
    });

    const result = await issueCertificates(ADMIN, date.id);
    expect(result.ok && result.issued).toHaveLength(2);
    const rows = await db().select().from(certificates).orderBy(certificates.position);
    expect(rows.map((r) => [r.orderId, r.position, r.holderName, r.holderEmail])).toEqual(
      expect.arrayContaining([
        [self.id, 1, "Ada Lovelace", expect.any(String)],
        [group.id, 1, "Student1 Smith", "student1@example.com"],
      ]),
    );
    for (const row of rows) {
      expect(row.number).toMatch(CERTIFICATE_NUMBER);
      expect(row.sha256).toBe(sha256(row.pdf!));
      const text = await pdfText(row.pdf!);
      for (const words of [
        "Certificate of Attendance",
        row.holderName!,
        "Dark Web Investigations",
        "6.5 CPD hours",
        row.number,
        `/certificates/${row.number}`,
      ]) {
        expect(text).toContain(words);
      }
    }
    expect(new Set(rows.map((r) => r.number)).size).toBe(2);

    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.kind, "certificate"));
    expect(mails.map((m) => [m.toAddress, m.certificateId]).sort()).toEqual(
      rows.map((r) => [r.holderEmail, r.id]).sort(),
    );
    const audits = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "certificate.issue"));
    expect(audits).toHaveLength(2);
    // The audit row names the certificate, never the holder.
    for (const a of audits) expect(a.summary).not.toMatch(/Lovelace|Smith/);

    // Nothing more is owed; one place's again is refused.
    expect(await issueCertificates(ADMIN, date.id)).toMatchObject({
      ok: false,
      message: CERTIFICATE_MESSAGES.noneToIssue,
    });
    expect(
      await issueCertificates(ADMIN, date.id, { place: { orderId: group.id, position: 1 } }),
    ).toMatchObject({ ok: false, message: CERTIFICATE_MESSAGES.already });
    // Partial, absent and unnamed places are not owed one.
    for (const position of [2, 3, 4]) {
      expect(
        await issueCertificates(ADMIN, date.id, { place: { orderId: group.id, position } }),
      ).toMatchObject({ ok: false, message: CERTIFICATE_MESSAGES.notPresent });
    }
    const register = (await dateRegister(date.id))!;
    expect(register.ended).toBe(true);
    expect(register.places.filter((p) => p.certificate)).toHaveLength(2);
  });

  it("two admins issuing at once issue each certificate once", async () => {
    const { date } = await attendedDate();
    const results = await Promise.all([
      issueCertificates(ADMIN, date.id),
      issueCertificates(ADMIN, date.id),
    ]);
    const issued = results.flatMap((r) => (r.ok ? r.issued : []));
    expect(issued).toHaveLength(2);
    expect(await db().select().from(certificates)).toHaveLength(2);
  });

  it("is refused for a cancelled date", async () => {
    const { date } = await attendedDate();
    await db().update(courseDates).set({ state: "cancelled" }).where(eq(courseDates.id, date.id));
    expect(await issueCertificates(ADMIN, date.id)).toMatchObject({
      ok: false,
      message: CERTIFICATE_MESSAGES.cancelled,
    });
  });
});

describe("the e-mailed PDF and the verification page", () => {
  it("the attachment is the stored file: its SHA-256 is the one the page shows", async () => {
    const { date } = await attendedDate();
    await issueCertificates(ADMIN, date.id);
    sink = await startSmtpSink();
    const worker = new OutboxWorker({ mailer: smtpMailer(sink.url) });
    workers.push(worker);
    await drain(worker);
    const received = sink.messages.filter((m) => m.parsed.subject?.startsWith("Your certificate"));
    expect(received).toHaveLength(2);
    for (const message of received) {
      const [attachment] = message.parsed.attachments;
      expect(attachment).toMatchObject({ contentType: "application/pdf" });
      const number = /certificate-(NWC-[0-9A-Z-]+)\.pdf/.exec(attachment!.filename!)![1]!;
      const view = (await certificateView(number))!;
      expect(view).toMatchObject({ status: "valid", courseTitle: "Dark Web Investigations" });
      expect(sha256(attachment!.content)).toBe(view.sha256);
      expect(message.parsed.text).toContain(`/certificates/${number}`);
    }
  });

  it("the page's loader: the written form of a number, 404 for one never issued", async () => {
    const { date } = await attendedDate();
    const result = await issueCertificates(ADMIN, date.id);
    const number = result.ok ? result.issued[0]! : "";
    const load = (n: string) =>
      certificatePageModule.loader({
        params: { number: n },
        request: new Request(`http://localhost/certificates/${n}`),
        context: {},
      } as never);
    const found = await load(number);
    expect(found).toMatchObject({ certificate: { number, status: "valid" } });
    // Lower case, with O for 0 and l for 1: sent to the written form.
    const typed = number.toLowerCase().replace(/0/g, "o").replace(/1/g, "l");
    const redirected = await load(typed).catch((r: unknown) => r);
    if (typed !== number) {
      expect(redirected).toBeInstanceOf(Response);
      expect((redirected as Response).headers.get("location")).toBe(`/certificates/${number}`);
    }
    for (const unknown of ["NWC-0000-0000-0000", "not-a-number"]) {
      const thrown = await load(unknown).catch((r: unknown) => r);
      expect(thrown).toMatchObject({ init: { status: 404 } });
    }
  });
});

describe("revoking, re-issuing and erasing", () => {
  it("a revoked certificate says so; its place may be issued a corrected one", async () => {
    const { date, group } = await attendedDate();
    await issueCertificates(ADMIN, date.id);
    const [first] = await db()
      .select()
      .from(certificates)
      .where(eq(certificates.orderId, group.id));
    expect(await revokeCertificate(ADMIN, date.id, first!.id, "Name misspelt")).toEqual({
      ok: true,
      number: first!.number,
    });
    expect(await certificateView(first!.number)).toMatchObject({
      status: "revoked",
      revokedAt: expect.any(String),
      holderName: "Student1 Smith",
    });
    expect(await revokeCertificate(ADMIN, date.id, first!.id, "again")).toMatchObject({
      ok: false,
      message: CERTIFICATE_MESSAGES.alreadyRevoked,
    });
    const again = await issueCertificates(ADMIN, date.id, {
      place: { orderId: group.id, position: 1 },
    });
    expect(again.ok && again.issued).toHaveLength(1);
    const register = (await dateRegister(date.id))!;
    const place = register.places.find((p) => p.orderId === group.id && p.position === 1)!;
    expect(place.certificate).toMatchObject({ revokedAt: null });
    expect(place.certificate!.number).not.toBe(first!.number);
  });

  it("erasing the holder revokes the certificate and clears their name, address and PDF", async () => {
    const { date } = await attendedDate();
    await issueCertificates(ADMIN, date.id);
    const found = await findPersonalData("student1@example.com");
    expect(found.certificates).toHaveLength(1);
    const number = found.certificates[0]!.number;
    const erased = await erasePersonalData("student1@example.com", ADMIN);
    expect(erased.counts.certificates).toBe(1);
    expect(erased.message).toContain("revoked and anonymised 1 certificate of attendance");
    const [row] = await db().select().from(certificates).where(eq(certificates.number, number));
    expect(row).toMatchObject({
      holderName: null,
      holderEmail: null,
      pdf: null,
      sha256: null,
      erasedAt: expect.any(Date),
      revokedAt: expect.any(Date),
    });
    expect(await certificateView(number)).toMatchObject({
      holderName: null,
      erased: true,
      status: "revoked",
      sha256: null,
    });
    // The audit row that named the address no longer does.
    const audits = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "certificate.issue"));
    expect(JSON.stringify(audits)).not.toContain("student1@example.com");
  });
});

describe("the register's posts", () => {
  it("issues all, issues one, revokes with a reason; refuses what is malformed", async () => {
    const { date, self } = await attendedDate();
    const post = (fields: [string, string][]) =>
      posts(registerRoute, `/admin/dates/${date.id}/register`, { dateId: date.id }, fields);
    expect(
      await post([
        ["intent", "certificate"],
        ["orderId", self.id],
        ["position", "11"],
      ]),
    ).toMatchObject({ status: 400 });
    expect(
      await post([
        ["intent", "certificate"],
        ["orderId", self.id],
        ["position", "1"],
      ]),
    ).toMatchObject({
      status: 200,
      body: { ok: true, message: "1 certificate issued and e-mailed" },
    });
    expect(await post([["intent", "certificates"]])).toMatchObject({
      status: 200,
      body: { ok: true, message: "1 certificate issued and e-mailed" },
    });
    const [one] = await db().select().from(certificates).where(eq(certificates.orderId, self.id));
    expect(
      await post([
        ["intent", "revoke"],
        ["certificateId", one!.id],
        ["reason", "  "],
      ]),
    ).toMatchObject({ status: 400, body: { message: CERTIFICATE_MESSAGES.reasonNeeded } });
    expect(
      await post([
        ["intent", "revoke"],
        ["certificateId", one!.id],
        ["reason", "Issued in error"],
      ]),
    ).toMatchObject({ status: 200, body: { message: `Certificate ${one!.number} revoked` } });
    const [revoked] = await db().select().from(certificates).where(eq(certificates.id, one!.id));
    expect(revoked).toMatchObject({
      revocationReason: "Issued in error",
      revokedBy: expect.stringContaining("@"),
    });
  });
});
