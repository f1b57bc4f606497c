import { fieldErrorsOf } from "#app/lib/forms.ts";
import { describe, expect, it } from "vitest";
import {
  courseQuoteSchema,
  enquirySchema,
  licenceSchema,
  newsletterSchema,
  normaliseEmail,
  safeReturnPath,
  SERVICE_INTERESTS,
} from "#app/lib/inquiries/schemas.ts";
import { retryDelayMs } from "#server/email/worker.server.ts";
import { escapeHtml } from "#server/email/templates/layout.server.ts";
import {
  renderAdminAlert,
  renderVisitorConfirmation,
  type InquiryEmailData,
} from "#server/email/templates/inquiry.server.ts";
import {
  inquiryTypeForService,
  licenceMessage,
  messageWithServiceInterest,
} from "#server/inquiries/inquiries.server.ts";
import { isUniqueViolation } from "#server/db/errors.server.ts";

describe("inquiry_type from the service interest", () => {
  it.each([
    ["dark-web-monitoring", "security_consultation"],
    ["security-consultancy", "security_consultation"],
    ["counter-fraud-training", "training"],
    ["file-interrogator", "file_interrogator"],
    ["other", "general"],
    [null, "general"],
    [undefined, "general"],
    ["", "general"],
    ["something-else", "general"],
  ])("%s → %s", (service, type) => {
    expect(inquiryTypeForService(service)).toBe(type);
  });
});

describe("message prefix", () => {
  it("starts with a line naming the service, then a blank line", () => {
    expect(messageWithServiceInterest("Hello", "dark-web-monitoring")).toBe(
      "Service Interest: Dark Web Monitoring\n\nHello",
    );
    for (const service of SERVICE_INTERESTS) {
      expect(messageWithServiceInterest("x", service)).toMatch(/^Service Interest: .+\n\nx$/);
    }
  });
  it("leaves the message alone without a service", () => {
    expect(messageWithServiceInterest("Hello", null)).toBe("Hello");
    expect(messageWithServiceInterest("Hello", undefined)).toBe("Hello");
  });
  it("licence choices lead the licence message", () => {
    expect(licenceMessage({ licence_count: "2-5", use_case: "kyc", message: "Hi" })).toBe(
      "Licences: 2–5 licences\nUse case: KYC / customer due diligence\n\nHi",
    );
    expect(licenceMessage({ licence_count: "1", use_case: null, message: null })).toBe(
      "Licences: 1 licence",
    );
  });
});

describe("enquiry schema", () => {
  const valid = { name: " Jane Doe ", email: " Jane@Example.COM ", message: " Hello " };

  it("trims, lower-cases the e-mail and stores empty optionals as null", () => {
    const parsed = enquirySchema.parse({ ...valid, company: "  ", phone: "", service: "" });
    expect(parsed).toEqual({
      name: "Jane Doe",
      email: "jane@example.com",
      company: null,
      phone: null,
      service: null,
      message: "Hello",
    });
    expect(enquirySchema.parse(valid).company).toBeNull();
  });

  it("requires name, email and message with clear messages", () => {
    const result = enquirySchema.safeParse({ name: "", email: "", message: "   " });
    expect(result.success).toBe(false);
    expect(fieldErrorsOf(result.error!)).toEqual({
      name: "Please enter your full name",
      email: "Please enter your email address",
      message: "Please enter your message",
    });
  });

  it("rejects bad e-mails, unknown services, wrong types and over-long fields", () => {
    const errors = (input: object) => {
      const r = enquirySchema.safeParse({ ...valid, ...input });
      return r.success ? {} : fieldErrorsOf(r.error);
    };
    expect(errors({ email: "not-an-email" }).email).toBe("Please enter a valid email address");
    expect(errors({ email: "a@b" }).email).toBe("Please enter a valid email address");
    expect(errors({ service: "hacking" }).service).toBe("Please choose a service from the list");
    expect(errors({ name: ["a", "b"] }).name).toBeDefined();
    expect(errors({ name: new Blob(["x"]) }).name).toBeDefined();
    expect(errors({ name: "x".repeat(201) }).name).toBe("Full name must be at most 200 characters");
    expect(errors({ email: `${"a".repeat(250)}@x.co` }).email).toBe(
      "Email must be at most 254 characters",
    );
    expect(errors({ company: "x".repeat(201) }).company).toBe(
      "Company must be at most 200 characters",
    );
    expect(errors({ phone: "1".repeat(51) }).phone).toBe("Phone must be at most 50 characters");
    // Free text: extensions and labels are part of real numbers.
    expect(errors({ phone: "020 7946 0000 ext 12" })).toEqual({});
    expect(errors({ phone: "Mobile: 07700 900123" })).toEqual({});
    expect(errors({ message: "x".repeat(5001) }).message).toBe(
      "Message must be at most 5,000 characters",
    );
    expect(errors({ message: "x".repeat(5000) })).toEqual({});
  });

  it("turns control characters in single-line fields into spaces", () => {
    expect(enquirySchema.parse({ ...valid, name: "Jane\r\nBcc: x@y.z" }).name).toBe(
      "Jane Bcc: x@y.z",
    );
  });
});

describe("licence schema", () => {
  const valid = { name: "Jo", email: "jo@example.com", company: "Acme", licence_count: "6-10" };
  it("needs name, email, company and licence count", () => {
    const r = licenceSchema.safeParse({});
    expect(Object.keys(fieldErrorsOf(r.error!)).sort()).toEqual(
      ["company", "email", "licence_count", "name"].sort(),
    );
    expect(licenceSchema.parse(valid)).toMatchObject({
      phone: null,
      use_case: null,
      message: null,
    });
  });
  it("rejects unknown licence counts and use cases", () => {
    expect(licenceSchema.safeParse({ ...valid, licence_count: "1000" }).success).toBe(false);
    expect(licenceSchema.safeParse({ ...valid, use_case: "spying" }).success).toBe(false);
    expect(licenceSchema.parse({ ...valid, use_case: "forensics" }).use_case).toBe("forensics");
  });
});

describe("course quote schema", () => {
  const base = {
    course_id: "6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a6b",
    name: "Sam",
    email: "sam@example.com",
  };
  it("online: message optional, attendees and budget not kept", () => {
    const parsed = courseQuoteSchema.parse({
      ...base,
      modality: "online",
      attendees: "12",
      budget: "£1",
    });
    expect(parsed).toMatchObject({
      modality: "online",
      attendees: null,
      budget: null,
      message: null,
    });
  });
  it("face_to_face: attendees ≥ 1 and a requirements message are required", () => {
    const r = courseQuoteSchema.safeParse({ ...base, modality: "face_to_face", attendees: "" });
    expect(fieldErrorsOf(r.error!)).toEqual({
      attendees: "Please enter the number of attendees",
      message: "Please describe your training requirements",
    });
    for (const attendees of ["0", "-1", "1.5", "abc"]) {
      const bad = courseQuoteSchema.safeParse({
        ...base,
        modality: "face_to_face",
        attendees,
        message: "x",
      });
      expect(fieldErrorsOf(bad.error!).attendees).toBe(
        "Attendees must be a whole number of at least 1",
      );
    }
    expect(
      courseQuoteSchema.parse({
        ...base,
        modality: "face_to_face",
        attendees: "12",
        budget: " £5,000 ",
        message: "Team of 12",
      }),
    ).toMatchObject({ attendees: 12, budget: "£5,000", message: "Team of 12" });
  });
  it("rejects a missing modality and a malformed course id", () => {
    const r = courseQuoteSchema.safeParse({ ...base, course_id: "1; drop table", modality: "x" });
    expect(fieldErrorsOf(r.error!)).toMatchObject({
      course_id: "This course could not be found",
      modality: "Please choose online or face-to-face",
    });
  });
});

describe("newsletter schema and e-mail normalisation", () => {
  it("trims and lower-cases", () => {
    expect(normaliseEmail("  Foo@Bar.COM ")).toBe("foo@bar.com");
    expect(newsletterSchema.parse({ email: " Foo@Bar.COM " }).email).toBe("foo@bar.com");
  });
  it("empty → 'Please enter your email address'", () => {
    expect(fieldErrorsOf(newsletterSchema.safeParse({ email: "  " }).error!).email).toBe(
      "Please enter your email address",
    );
    expect(fieldErrorsOf(newsletterSchema.safeParse({}).error!).email).toBe(
      "Please enter your email address",
    );
  });
  it("recognises unique violations however wrapped", () => {
    expect(isUniqueViolation({ code: "23505" })).toBe(true);
    expect(isUniqueViolation({ message: "x", cause: { code: "23505" } })).toBe(true);
    expect(isUniqueViolation({ code: "23503" })).toBe(false);
    expect(isUniqueViolation(new Error("x"))).toBe(false);
  });
});

describe("form helpers", () => {
  it("return paths stay on this site", () => {
    expect(safeReturnPath("/courses/x?y=1")).toBe("/courses/x?y=1");
    expect(safeReturnPath("//evil.example")).toBe("/");
    expect(safeReturnPath("/\\evil.example")).toBe("/");
    expect(safeReturnPath("https://evil.example")).toBe("/");
    expect(safeReturnPath(undefined)).toBe("/");
  });
});

describe("e-mail templates", () => {
  const data: InquiryEmailData = {
    inquiryId: "11111111-2222-3333-4444-555555555555",
    inquiryType: "security_consultation",
    form: "enquiry",
    name: "<script>alert(1)</script> O'Neil",
    email: "x@example.com",
    company: "A & B",
    phone: null,
    message: "Service Interest: Dark Web Monitoring\n\n<b>hi</b>",
    serviceInterest: "dark-web-monitoring",
    courseTitle: null,
    modality: null,
    attendees: null,
    budget: null,
    licenceCount: null,
    useCase: null,
    submittedAt: new Date("2026-03-05T14:30:00Z"),
  };
  it("escapes everything the visitor typed in the HTML part", () => {
    const alert = renderAdminAlert(data, "http://localhost/admin/inquiries");
    expect(alert.html).not.toContain("<script>");
    expect(alert.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; O&#39;Neil");
    expect(alert.html).toContain("A &amp; B");
    expect(alert.html).toContain("&lt;b&gt;hi&lt;/b&gt;");
    expect(alert.text).toContain("<b>hi</b>");
    expect(escapeHtml(`"'<>&`)).toBe("&quot;&#39;&lt;&gt;&amp;");
  });
  it("confirmation: date en-GB, reference, promised response time", () => {
    const c = renderVisitorConfirmation(data);
    expect(c.text).toContain("5 March 2026 at 14:30");
    expect(c.text).toContain(data.inquiryId);
    expect(c.text).toContain("within 24 hours");
    expect(c.text).toContain("about Dark Web Monitoring");
    const home = renderVisitorConfirmation({
      ...data,
      serviceInterest: null,
      inquiryType: "general",
    });
    expect(home.text).toContain("about our cybersecurity services");
    const licence = renderVisitorConfirmation({
      ...data,
      form: "licence",
      inquiryType: "file_interrogator",
    });
    expect(licence.text).toContain("within 2 business days");
  });
  it("subjects are one line", () => {
    const alert = renderAdminAlert({ ...data, name: "A\r\nBcc: evil@x" }, "u");
    expect(alert.subject).not.toMatch(/[\r\n]/);
  });
});

describe("retry backoff", () => {
  it("doubles from the base up to the cap, with jitter", () => {
    const mid = () => 0.5;
    expect(retryDelayMs(1, 1000, 60_000, mid)).toBe(1000);
    expect(retryDelayMs(2, 1000, 60_000, mid)).toBe(2000);
    expect(retryDelayMs(5, 1000, 60_000, mid)).toBe(16_000);
    expect(retryDelayMs(30, 1000, 60_000, mid)).toBe(60_000);
    expect(retryDelayMs(1, 1000, 60_000, () => 0)).toBe(800);
    expect(retryDelayMs(1, 1000, 60_000, () => 1)).toBe(1200);
  });
});
