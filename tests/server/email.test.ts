import type { AddressObject } from "mailparser";
import { describe, expect, it } from "vitest";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { config } from "#server/config.server.ts";
import { courses, emailOutbox, inquiries } from "#server/db/schema.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { drain, useOutbox } from "#tests/support/outbox-worker.ts";
import { callAction, formRequest, withGuards } from "#tests/support/forms.ts";
import type { ReceivedMail } from "#tests/support/smtp-sink.ts";

/**
 * The e-mails an inquiry sends (each form's admin alert and visitor confirmation: recipients,
 * subjects, every field, HTML escaped), received by a real SMTP server. Their delivery by the
 * outbox worker (outages, concurrent workers, leases): email-delivery.test.ts.
 */

const database = useFreshDatabase();

const { worker, smtpSink } = useOutbox();

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
    const sink = await smtpSink();
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
    const sink = await smtpSink();
    await post({ form: "enquiry", name: "Al", email: "al@example.com", message: "Hi" }, "/");
    await drain(worker(sink.url));
    const { admin, visitor } = byKind(sink.messages);
    expect(visitor.parsed.text).toContain("about our cybersecurity services");
    expect(admin.parsed.text).toContain("Inquiry type: General enquiry");
    expect(admin.parsed.text).not.toContain("Company:");
  });

  it("licence quote: licensing team, 2 business days, licence count and use case", async () => {
    const sink = await smtpSink();
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
    const sink = await smtpSink();
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
});
