import { sql } from "drizzle-orm";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { HONEYPOT_FIELD } from "#app/lib/inquiries/schemas.ts";
import { config } from "#server/config.server.ts";
import { courses, emailOutbox, inquiries } from "#server/db/schema.ts";
import {
  createCourseInquiry,
  createEnquiry,
  createLicenceInquiry,
} from "#server/inquiries/inquiries.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { callAction, formRequest, freshIp, withGuards } from "#tests/support/forms.ts";

const database = useFreshDatabase();

async function counts() {
  const { db } = database();
  const [i] = await db.select({ n: sql<number>`count(*)::int` }).from(inquiries);
  const [o] = await db.select({ n: sql<number>`count(*)::int` }).from(emailOutbox);
  return { inquiries: i!.n, outbox: o!.n };
}

async function publishedCourse(status: "published" | "draft" = "published") {
  const [course] = await database()
    .db.insert(courses)
    .values({ slug: `c-${status}`, title: `Introduction to Counter Fraud (${status})`, status })
    .returning();
  return course!;
}

describe("creating inquiries", () => {
  it("an enquiry is one row plus its two outbox e-mails", async () => {
    const inquiry = await createEnquiry({
      name: "Jane Doe",
      email: "jane@example.com",
      company: null,
      phone: null,
      service: "dark-web-monitoring",
      message: "Please call me.",
    });
    expect(inquiry).toMatchObject({
      name: "Jane Doe",
      email: "jane@example.com",
      company: null,
      phone: null,
      inquiryType: "security_consultation",
      status: "new",
      message: "Service Interest: Dark Web Monitoring\n\nPlease call me.",
    });
    const outbox = await database().db.select().from(emailOutbox).orderBy(emailOutbox.kind);
    expect(outbox.map((o) => [o.kind, o.toAddress, o.replyTo, o.status, o.inquiryId])).toEqual([
      ["admin_alert", config.adminEmails.join(", "), "jane@example.com", "pending", inquiry.id],
      ["visitor_confirmation", "jane@example.com", config.mailReplyTo, "pending", inquiry.id],
    ]);
    expect(await counts()).toEqual({ inquiries: 1, outbox: 2 });
  });

  it("is all or nothing: if an e-mail cannot be queued, the inquiry is not kept", async () => {
    await database().db.execute(
      sql`alter table email_outbox add constraint no_confirmations check (kind <> 'visitor_confirmation')`,
    );
    await expect(
      createEnquiry({
        name: "A",
        email: "a@example.com",
        company: null,
        phone: null,
        service: null,
        message: "x",
      }),
    ).rejects.toThrow();
    expect(await counts()).toEqual({ inquiries: 0, outbox: 0 });
  });

  it("a licence inquiry is file_interrogator with the choices in the message", async () => {
    const inquiry = await createLicenceInquiry({
      name: "Lee",
      email: "lee@example.com",
      company: "Police",
      licence_count: "11-25",
      phone: "0207 000 0000",
      use_case: "law-enforcement",
      message: null,
    });
    expect(inquiry).toMatchObject({
      inquiryType: "file_interrogator",
      company: "Police",
      message: "Licences: 11–25 licences\nUse case: Law enforcement",
    });
    expect(await counts()).toEqual({ inquiries: 1, outbox: 2 });
  });

  it("a course inquiry takes the title from the database, not the browser", async () => {
    const course = await publishedCourse();
    const outcome = await createCourseInquiry({
      course_id: course.id,
      modality: "face_to_face",
      name: "Sam",
      email: "sam@example.com",
      company: null,
      phone: null,
      attendees: 8,
      budget: "£4,000",
      message: "Classroom in Leeds",
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.inquiry).toMatchObject({
      inquiryType: "training",
      courseId: course.id,
      courseTitleSnapshot: course.title,
      modality: "face_to_face",
      attendees: 8,
      budget: "£4,000",
    });
    const draft = await publishedCourse("draft");
    expect(
      await createCourseInquiry({
        course_id: draft.id,
        modality: "online",
        name: "Sam",
        email: "sam@example.com",
        company: null,
        phone: null,
        attendees: null,
        budget: null,
        message: null,
      }),
    ).toEqual({ ok: false, reason: "course_not_found" });
    expect(await counts()).toEqual({ inquiries: 1, outbox: 2 });
  });
});

describe("the inquiry action", () => {
  const enquiry = {
    form: "enquiry",
    form_id: "contact-form",
    name: "Jane",
    email: "Jane@Example.com",
    company: "",
    phone: "",
    service: "counter-fraud-training",
    message: "Hello",
  };

  it("stores a valid enquiry and answers 200", async () => {
    const res = await callAction(inquiryAction, formRequest(withGuards(enquiry)));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, form: "enquiry", formId: "contact-form" });
    const [row] = await database().db.select().from(inquiries);
    expect(row).toMatchObject({
      email: "jane@example.com",
      company: null,
      phone: null,
      inquiryType: "training",
    });
  });

  it("accepts multipart posts too", async () => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(withGuards(enquiry))) fd.append(k, v);
    const res = await callAction(inquiryAction, formRequest(fd));
    expect(res.status).toBe(200);
    expect(await counts()).toEqual({ inquiries: 1, outbox: 2 });
  });

  it("stores a honeypot post marked as suspected spam, sends nothing, and answers as usual", async () => {
    const honeypot = await callAction(
      inquiryAction,
      formRequest({ ...withGuards(enquiry), [HONEYPOT_FIELD]: "http://spam.example" }),
    );
    expect(honeypot).toMatchObject({ status: 200, body: { ok: true, form: "enquiry" } });
    expect(await counts()).toEqual({ inquiries: 1, outbox: 0 });
    const [row] = await database().db.select().from(inquiries);
    expect(row).toMatchObject({ email: "jane@example.com", spamReason: "honeypot" });
  });

  it("takes a post sent at once after the page loads: no time-stamp is needed", async () => {
    const res = await callAction(inquiryAction, formRequest({ ...enquiry }));
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    expect(await counts()).toEqual({ inquiries: 1, outbox: 2 });
  });

  it("returns field errors and the submitted values (400), storing nothing", async () => {
    const res = await callAction(
      inquiryAction,
      formRequest(withGuards({ ...enquiry, email: "nope", name: "" })),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      ok: false,
      reason: "invalid",
      fieldErrors: {
        name: "Please enter your full name",
        email: "Please enter a valid email address",
      },
      values: { email: "nope", message: "Hello", service: "counter-fraud-training" },
    });
    expect(await counts()).toEqual({ inquiries: 0, outbox: 0 });
  });

  it("limits each client to FORM_RATE_LIMIT_PER_MINUTE posts per form per minute (429)", async () => {
    // The limit counts posts in fixed one-minute windows: the clock starts just after a
    // window opens, so a slow run cannot cross into the next window half-way through.
    const now = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(now - (now % 60_000) + 1_000);
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < config.formRateLimitPerMinute + 2; i++) {
      statuses.push((await callAction(inquiryAction, formRequest(withGuards(enquiry)), ip)).status);
    }
    expect(statuses.slice(0, config.formRateLimitPerMinute).every((s) => s === 200)).toBe(true);
    const limited = await callAction(inquiryAction, formRequest(withGuards(enquiry)), ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(limited.body).toMatchObject({ ok: false, reason: "rate_limited" });
    expect(limited.body.ok === false && limited.body.message).toMatch(/wait a minute/);
    // Another form, or another client, is counted apart.
    const otherForm = await callAction(
      inquiryAction,
      formRequest(
        withGuards({
          form: "licence",
          name: "L",
          email: "l@example.com",
          company: "C",
          licence_count: "1",
        }),
      ),
      ip,
    );
    expect(otherForm.status).toBe(200);
    expect((await callAction(inquiryAction, formRequest(withGuards(enquiry)))).status).toBe(200);
    expect((await counts()).inquiries).toBe(config.formRateLimitPerMinute + 2);
  });

  it("course quotes: unknown or unpublished course → 400, title from the database", async () => {
    const course = await publishedCourse();
    const post = (fields: Record<string, string>) =>
      callAction(
        inquiryAction,
        formRequest(
          withGuards({
            form: "course_quote",
            name: "Sam",
            email: "sam@example.com",
            modality: "online",
            course_title: "Forged title",
            ...fields,
          }),
          { path: `/courses/${course.slug}` },
        ),
      );
    const unknown = await post({ course_id: "6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a6b" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.ok === false && unknown.body.fieldErrors.course_id).toBeTruthy();
    const f2f = await post({ course_id: course.id, modality: "face_to_face", attendees: "" });
    expect(f2f.status).toBe(400);
    expect(f2f.body.ok === false && f2f.body.fieldErrors).toMatchObject({
      attendees: "Please enter the number of attendees",
      message: "Please describe your training requirements",
    });
    const ok = await post({ course_id: course.id });
    expect(ok).toMatchObject({ status: 200, body: { ok: true, modality: "online" } });
    const [row] = await database().db.select().from(inquiries);
    expect(row).toMatchObject({
      courseTitleSnapshot: course.title,
      modality: "online",
      attendees: null,
    });
  });

  it("a database failure is a 500 with the generic message, never an exception", async () => {
    await database().db.execute(sql`alter table inquiries rename to inquiries_gone`);
    const res = await callAction(inquiryAction, formRequest(withGuards(enquiry)));
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({
      ok: false,
      reason: "error",
      message: "Please try again later.",
    });
    await database().db.execute(sql`alter table inquiries_gone rename to inquiries`);
  });
});
