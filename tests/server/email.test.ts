import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import type { AddressObject } from "mailparser";
import { afterEach, describe, expect, it } from "vitest";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { config } from "#server/config.server.ts";
import { courses, emailOutbox, inquiries } from "#server/db/schema.ts";
import { queueEmails } from "#server/email/outbox.server.ts";
import {
  fileMailer,
  OutboxWorker,
  smtpMailer,
  startOutboxWorker,
  stopOutboxWorker,
} from "#server/email/worker.server.ts";
import { createEnquiry } from "#server/inquiries/inquiries.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { callAction, formRequest, withGuards } from "#tests/support/forms.ts";
import {
  freePort,
  startDroppingRelay,
  startSmtpSink,
  waitFor,
  type ReceivedMail,
  type SmtpSink,
} from "#tests/support/smtp-sink.ts";

const database = useFreshDatabase();

let sink: SmtpSink | undefined;
const workers: OutboxWorker[] = [];
afterEach(async () => {
  await stopOutboxWorker();
  for (const w of workers.splice(0)) await w.stop();
  await sink?.close();
  sink = undefined;
});

function worker(url: string, extra: Partial<ConstructorParameters<typeof OutboxWorker>[0]> = {}) {
  const w = new OutboxWorker({ mailer: smtpMailer(url), pollMs: 50, ...extra });
  workers.push(w);
  return w;
}

async function drain(w: OutboxWorker) {
  while ((await w.runOnce()) > 0) {
    // until nothing is due
  }
}

const addresses = (a: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((x) => x.value.map((v) => v.address));

function byKind(messages: ReceivedMail[]) {
  const kind = (m: ReceivedMail) => m.parsed.headers.get("x-nightwatch-kind");
  const admin = messages.filter((m) => kind(m) === "admin_alert");
  const visitor = messages.filter((m) => kind(m) === "visitor_confirmation");
  expect(admin).toHaveLength(1);
  expect(visitor).toHaveLength(1);
  return { admin: admin[0]!, visitor: visitor[0]! };
}

async function post(fields: Record<string, string>, pathName = "/contact") {
  const res = await callAction(inquiryAction, formRequest(withGuards(fields), { path: pathName }));
  expect(res.status).toBe(200);
  const [row] = await database().db.select().from(inquiries);
  return row!;
}

describe("e-mails after an inquiry, through a real SMTP server", () => {
  it("enquiry: admin alert with every field, visitor confirmation, HTML escaped", async () => {
    sink = await startSmtpSink();
    const inquiry = await post({
      form: "enquiry",
      name: "Jane <b>Doe</b>",
      email: "Jane@Example.com",
      company: "Acme & Sons",
      phone: "+44 20 7946 0000",
      service: "dark-web-monitoring",
      message: "Our brand is on a forum.\n<script>alert(1)</script>",
    });
    await drain(worker(sink.url));
    expect(sink.messages).toHaveLength(2);
    const { admin, visitor } = byKind(sink.messages);

    expect(admin.envelopeTo).toEqual(config.adminEmails);
    expect(addresses(admin.parsed.to)).toEqual(config.adminEmails);
    expect(addresses(admin.parsed.replyTo)).toEqual(["jane@example.com"]);
    expect(addresses(admin.parsed.from)).toEqual([config.mailFrom.replace(/^.*<|>$/g, "")]);
    expect(admin.parsed.subject).toContain("Jane <b>Doe</b>");
    for (const text of [
      "Name: Jane <b>Doe</b>",
      "Email: jane@example.com",
      "Company: Acme & Sons",
      "Phone: +44 20 7946 0000",
      "Inquiry type: Security consultation",
      "Service interest: Dark Web Monitoring",
      `Inquiry ID: ${inquiry.id}`,
      "Service Interest: Dark Web Monitoring\n\nOur brand is on a forum.\n<script>alert(1)</script>",
    ]) {
      expect(admin.parsed.text).toContain(text);
    }
    const html = String(admin.parsed.html);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>Doe</b>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("Acme &amp; Sons");

    expect(visitor.envelopeTo).toEqual(["jane@example.com"]);
    expect(addresses(visitor.parsed.replyTo)).toEqual([config.mailReplyTo]);
    expect(visitor.parsed.subject).toBe("We've received your enquiry – NightWatch");
    const date = new Intl.DateTimeFormat("en-GB", {
      dateStyle: "long",
      timeZone: "Europe/London",
    }).format(inquiry.createdAt);
    for (const text of [
      "Dear Jane <b>Doe</b>,",
      "about Dark Web Monitoring",
      "within 24 hours",
      `Reference: ${inquiry.id}`,
      "Inquiry type: Security consultation",
      "Service interest: Dark Web Monitoring",
      date,
    ]) {
      expect(visitor.parsed.text).toContain(text);
    }
    expect(String(visitor.parsed.html)).toContain("Dear Jane &lt;b&gt;Doe&lt;/b&gt;,");

    const rows = await database().db.select().from(emailOutbox);
    expect(rows.every((r) => r.status === "sent" && r.sentAt && r.attempts === 1)).toBe(true);
  });

  it("home enquiry without a service: the confirmation speaks of our cybersecurity services", async () => {
    sink = await startSmtpSink();
    await post({ form: "enquiry", name: "Al", email: "al@example.com", message: "Hi" }, "/");
    await drain(worker(sink.url));
    const { admin, visitor } = byKind(sink.messages);
    expect(visitor.parsed.text).toContain("about our cybersecurity services");
    expect(admin.parsed.text).toContain("Inquiry type: General enquiry");
    expect(admin.parsed.text).not.toContain("Company:");
  });

  it("licence quote: licensing team, 2 business days, licence count and use case", async () => {
    sink = await startSmtpSink();
    const inquiry = await post(
      {
        form: "licence",
        name: "Lee",
        email: "lee@police.example",
        company: "Met Police",
        licence_count: "26-50",
        use_case: "law-enforcement",
        message: "For our digital forensics unit",
      },
      "/services/file-interrogator",
    );
    await drain(worker(sink.url));
    const { admin, visitor } = byKind(sink.messages);
    expect(admin.parsed.subject).toContain("File Interrogator licence quote");
    for (const text of [
      "Company: Met Police",
      "Inquiry type: File Interrogator",
      "Licences: 26–50 licences",
      "Use case: Law enforcement",
      "For our digital forensics unit",
      `Inquiry ID: ${inquiry.id}`,
    ]) {
      expect(admin.parsed.text).toContain(text);
    }
    expect(visitor.envelopeTo).toEqual(["lee@police.example"]);
    expect(visitor.parsed.subject).toBe("Your File Interrogator licence enquiry – NightWatch");
    expect(visitor.parsed.text).toContain("licensing team will contact you within 2 business days");
  });

  it("course quote: course title from the database, modality, attendees, budget, next steps", async () => {
    sink = await startSmtpSink();
    const [course] = await database()
      .db.insert(courses)
      .values({ slug: "intro", title: "Introduction to Counter Fraud", status: "published" })
      .returning();
    const inquiry = await post(
      {
        form: "course_quote",
        course_id: course!.id,
        course_title: "Not this title",
        modality: "face_to_face",
        name: "Sam",
        email: "sam@bank.example",
        company: "Bank",
        attendees: "12",
        budget: "£6,000",
        message: "Two days in Manchester",
      },
      "/courses/intro",
    );
    await drain(worker(sink.url));
    const { admin, visitor } = byKind(sink.messages);
    expect(admin.parsed.subject).toBe(
      "New inquiry (Classroom quote: Introduction to Counter Fraud) from Sam",
    );
    for (const text of [
      "Course: Introduction to Counter Fraud",
      "Modality: Face-to-face (classroom)",
      "Attendees: 12",
      "Budget: £6,000",
      "Inquiry type: Training",
      `Inquiry ID: ${inquiry.id}`,
    ]) {
      expect(admin.parsed.text).toContain(text);
    }
    expect(admin.raw).not.toContain("Not this title");
    expect(visitor.parsed.subject).toBe(
      "Your enquiry about Introduction to Counter Fraud – NightWatch",
    );
    expect(visitor.parsed.text).toContain("Next steps:");
    expect(visitor.parsed.text).toContain("custom quote for your face-to-face training");
    expect(visitor.parsed.text).toContain("training team will get back to you within 24 hours");
  });

  it("outage: SMTP closed, then refusing, 20 inquiries, SMTP back → every message exactly once", async () => {
    const port = await freePort();
    const url = `smtp://127.0.0.1:${port}`;
    startOutboxWorker({
      mailer: smtpMailer(url),
      pollMs: 30,
      retryBaseMs: 40,
      retryMaxMs: 150,
      maxAttempts: 1000,
    });
    const created: string[] = [];
    for (let i = 0; i < 20; i++) {
      const row = await createEnquiry({
        name: `Visitor ${i}`,
        email: `visitor${i}@example.com`,
        company: null,
        phone: null,
        service: null,
        message: `Message ${i}`,
      });
      created.push(row.id);
    }
    const failedAttempts = async () => {
      const [r] = await database()
        .db.select({ n: sql<number>`count(*)::int` })
        .from(emailOutbox)
        .where(sql`${emailOutbox.lastError} is not null`);
      return r!.n;
    };
    // Nothing listening: every message fails at least once.
    await waitFor(async () => (await failedAttempts()) === 40);

    // A server that answers but refuses every recipient for a while (temporary error).
    let refusing = true;
    sink = await startSmtpSink({
      port,
      reject: () =>
        refusing ? Object.assign(new Error("Try again later"), { responseCode: 451 }) : null,
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.messages).toHaveLength(0);
    refusing = false;

    await waitFor(async () => {
      const rows = await database().db.select({ status: emailOutbox.status }).from(emailOutbox);
      return rows.every((r) => r.status === "sent");
    }, 30_000);
    await new Promise((r) => setTimeout(r, 200));

    expect(sink.messages).toHaveLength(40);
    const ids = sink.messages.map((m) => m.parsed.messageId);
    expect(new Set(ids).size).toBe(40);
    for (const [i, id] of created.entries()) {
      const about = sink.messages.filter((m) => m.parsed.text?.includes(id));
      expect(about).toHaveLength(2);
      expect(about.flatMap((m) => m.envelopeTo).sort()).toEqual(
        [...config.adminEmails, `visitor${i}@example.com`].sort(),
      );
    }
    const rows = await database().db.select().from(emailOutbox);
    expect(rows.every((r) => r.attempts >= 2 && r.lastError === null && r.sentAt)).toBe(true);
  });

  it("two workers claiming at once never send a message twice (FOR UPDATE SKIP LOCKED)", async () => {
    sink = await startSmtpSink();
    for (let i = 0; i < 15; i++) {
      await createEnquiry({
        name: `V${i}`,
        email: `v${i}@example.com`,
        company: null,
        phone: null,
        service: null,
        message: "m",
      });
    }
    const a = worker(sink.url, { batchSize: 3 });
    const b = worker(sink.url, { batchSize: 3 });
    await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
    expect(sink.messages).toHaveLength(30);
    expect(new Set(sink.messages.map((m) => m.parsed.messageId)).size).toBe(30);
  });

  it("a claim whose worker died is taken over after its lease; gives up after maxAttempts", async () => {
    sink = await startSmtpSink();
    const [row] = await queueEmails(database().db, [
      { kind: "test", to: "a@example.com", subject: "s", html: "<p>h</p>", text: "t" },
    ]);
    await database()
      .db.update(emailOutbox)
      .set({ status: "sending", attempts: 1, lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(emailOutbox.id, row!.id));
    await drain(worker(sink.url));
    expect(sink.messages).toHaveLength(1);

    const [dead] = await queueEmails(database().db, [
      { kind: "test", to: "b@example.com", subject: "s", html: "h", text: "t" },
    ]);
    const down = worker(`smtp://127.0.0.1:${await freePort()}`, {
      maxAttempts: 2,
      retryBaseMs: 1,
      retryMaxMs: 1,
    });
    const read = async () =>
      (await database().db.select().from(emailOutbox).where(eq(emailOutbox.id, dead!.id)))[0]!;
    await down.runOnce();
    expect(await read()).toMatchObject({ status: "pending", attempts: 1 });
    // The retry is due about 1 ms later. Once, on a loaded machine with PostgreSQL, the next claim
    // did not pick it up, so keep claiming until the row settles: it must give up after exactly
    // maxAttempts, never before and never after.
    const deadline = Date.now() + 5_000;
    while ((await read()).status === "pending" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      await down.runOnce();
    }
    const final = await read();
    expect(final).toMatchObject({ status: "failed", attempts: 2 });
    expect(final.lastError).toMatch(/ECONNREFUSED|connect/i);
  });

  it("a slow relay: a batch outlasting its lease is never sent twice by another worker", async () => {
    for (let i = 0; i < 10; i++) {
      await queueEmails(database().db, [
        { kind: "test", to: `slow${i}@example.com`, subject: "s", html: "h", text: "t" },
      ]);
    }
    const deliveries = new Map<string, number>();
    const slowRelay = {
      async send(row: { id: string }) {
        await new Promise((r) => setTimeout(r, 120));
        deliveries.set(row.id, (deliveries.get(row.id) ?? 0) + 1);
        return "slow";
      },
      close() {},
    };
    // The whole batch takes ten times as long as its lease.
    const a = new OutboxWorker({ mailer: slowRelay, batchSize: 10, leaseMs: 300 });
    const b = new OutboxWorker({ mailer: slowRelay, batchSize: 10, leaseMs: 300 });
    const first = a.runOnce();
    // The other worker keeps looking for lapsed claims meanwhile.
    const deadline = Date.now() + 4_000;
    const other = (async () => {
      while (Date.now() < deadline && deliveries.size < 10) {
        await new Promise((r) => setTimeout(r, 50));
        await b.runOnce();
      }
    })();
    await Promise.all([first, other]);
    expect(deliveries.size).toBe(10);
    expect([...deliveries.values()].every((n) => n === 1)).toBe(true);
    const rows = await database().db.select().from(emailOutbox);
    expect(rows.every((r) => r.status === "sent")).toBe(true);
  });

  it("a relay cutting the connection mid-DATA: each message is delivered once", async () => {
    sink = await startSmtpSink();
    // Every other connection is cut after the message's first bytes, until six have been.
    let connections = 0;
    const relay = await startDroppingRelay(sink, () => connections++ % 2 === 0 && connections < 12);
    try {
      for (let i = 0; i < 10; i++) {
        await queueEmails(database().db, [
          { kind: "test", to: `cut${i}@example.com`, subject: `s${i}`, html: "h", text: "t" },
        ]);
      }
      const w = worker(relay.url, { retryBaseMs: 20, retryMaxMs: 40 });
      await waitFor(async () => {
        await w.runOnce();
        const rows = await database().db.select({ status: emailOutbox.status }).from(emailOutbox);
        return rows.every((r) => r.status === "sent");
      }, 30_000);
      expect(relay.dropped).toBe(6);
      const to = sink.messages.flatMap((m) => m.envelopeTo).sort();
      expect(to).toEqual(Array.from({ length: 10 }, (_, i) => `cut${i}@example.com`).sort());
      const rows = await database().db.select().from(emailOutbox);
      // The six cut sends were failed attempts, each tried again.
      expect(rows.reduce((n, r) => n + r.attempts - 1, 0)).toBe(6);
    } finally {
      await relay.close();
    }
  });

  it("stopping mid-batch hands the unsent messages back at once", async () => {
    for (let i = 0; i < 3; i++) {
      await queueEmails(database().db, [
        { kind: "test", to: `s${i}@example.com`, subject: "s", html: "h", text: "t" },
      ]);
    }
    let sent = 0;
    let stopping: Promise<void> | undefined;
    const w: OutboxWorker = new OutboxWorker({
      mailer: {
        async send() {
          sent += 1;
          stopping ??= w.stop();
          return "test";
        },
        close() {},
      },
    });
    await w.runOnce();
    await stopping;
    expect(sent).toBe(1);
    const rows = await database().db.select().from(emailOutbox);
    expect(rows.filter((r) => r.status === "sent")).toHaveLength(1);
    const back = rows.filter((r) => r.status === "pending");
    expect(back).toHaveLength(2);
    expect(back.every((r) => r.lockedUntil === null && r.nextAttemptAt <= new Date())).toBe(true);
  });

  it("without SMTP, messages are written as .eml files", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "nw-outbox-"));
    try {
      await createEnquiry({
        name: "File",
        email: "file@example.com",
        company: null,
        phone: null,
        service: "other",
        message: "m",
      });
      const w = new OutboxWorker({ mailer: fileMailer(dir) });
      workers.push(w);
      await drain(w);
      const files = readdirSync(dir).filter((f) => f.endsWith(".eml"));
      expect(files).toHaveLength(2);
      const confirmation = readFileSync(
        path.join(
          dir,
          files.find((f) => f.includes("visitor_confirmation"))!,
        ),
        "utf8",
      );
      expect(confirmation).toMatch(/^To: file@example\.com$/m);
      expect(confirmation).toContain("Dear File,");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
