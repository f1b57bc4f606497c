import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { newsletterAction } from "#server/forms/newsletter-action.server.ts";
import { courses, emailOutbox, inquiries, newsletterSubscriptions } from "#server/db/schema.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { callAction, formRequest, withGuards } from "#tests/support/forms.ts";

/**
 * 1,200 malformed posts to the form actions — missing fields, huge fields, wrong types, bad
 * e-mails, unknown choices, broken bodies — must each get a 4xx answer and store nothing.
 */

const database = useFreshDatabase();

// A small seeded generator, so a failure can be replayed.
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Fields = Record<string, string | string[]>;
type Form = "enquiry" | "licence" | "course_quote" | "newsletter";

const REQUIRED: Record<Form, string[]> = {
  enquiry: ["name", "email", "message"],
  licence: ["name", "email", "company", "licence_count"],
  course_quote: ["course_id", "modality", "name", "email", "attendees", "message"],
  newsletter: ["email"],
};

function base(form: Form, courseId: string): Fields {
  switch (form) {
    case "enquiry":
      return { form, name: "Jane", email: "jane@example.com", service: "other", message: "Hello" };
    case "licence":
      return { form, name: "Lee", email: "lee@example.com", company: "Acme", licence_count: "2-5" };
    case "course_quote":
      return {
        form,
        course_id: courseId,
        modality: "face_to_face",
        name: "Sam",
        email: "sam@example.com",
        attendees: "3",
        message: "Needs",
      };
    case "newsletter":
      return { email: "news@example.com" };
  }
}

const BAD_EMAILS = [
  "",
  "   ",
  "plain",
  "a@",
  "@b.com",
  "a b@c.com",
  "a@b",
  "<a@b.com>",
  "a@b..com",
  "x".repeat(300) + "@b.com",
  "a@b.com\nBcc: c@d.com",
];

interface Post {
  form: Form;
  fields: Fields;
  kind: string;
  body?: "json" | "huge" | "multipart-file" | "garbage-multipart";
}

function mutate(form: Form, fields: Fields, pick: <T>(xs: T[]) => T, rnd: () => number): Post {
  const required = REQUIRED[form];
  const field = pick(required);
  const kinds = [
    "missing",
    "empty",
    "bad-email",
    "huge",
    "array",
    "unknown-choice",
    "json",
    "huge-body",
    "file",
    "garbage-multipart",
    "form-name",
  ];
  const kind = pick(kinds);
  const f = { ...fields };
  switch (kind) {
    case "missing":
      delete f[field];
      break;
    case "empty":
      f[field] = pick(["", " ", "\t\n "]);
      break;
    case "bad-email":
      f.email = pick(BAD_EMAILS);
      break;
    case "huge": {
      const limits: Record<string, number> = {
        name: 200,
        email: 254,
        company: 200,
        message: 5000,
        attendees: 7,
      };
      const target = limits[field] ? field : "name";
      f[target] = "x".repeat((limits[target] ?? 200) + 1 + Math.floor(rnd() * 20_000));
      break;
    }
    case "array":
      f[field] = [String(f[field] ?? "a"), "b"];
      break;
    case "unknown-choice":
      if (form === "enquiry") f.service = pick(["hacking", "DARK-WEB-MONITORING", "1", "<script>"]);
      else if (form === "licence") f.licence_count = pick(["0", "1000", "lots", "2 - 5"]);
      else if (form === "course_quote")
        Object.assign(
          f,
          pick([
            { modality: "onsite" },
            { course_id: "not-a-uuid" },
            { course_id: "6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a6b" },
            { attendees: pick(["0", "-3", "2.5", "ten", "99999999"]) },
          ]),
        );
      else f.email = pick(BAD_EMAILS);
      break;
    case "form-name":
      if (form === "newsletter") f.email = "";
      else f.form = pick(["", "admin", "ENQUIRY", "enquiry ", "order"]);
      break;
  }
  const body =
    kind === "json"
      ? "json"
      : kind === "huge-body"
        ? "huge"
        : kind === "file"
          ? "multipart-file"
          : kind === "garbage-multipart"
            ? "garbage-multipart"
            : undefined;
  return { form, fields: f, kind, body };
}

function toRequest(post: Post): Request {
  const path = post.form === "newsletter" ? "/newsletter" : "/contact";
  const guarded = withGuards({}) as Fields;
  const all: Fields = { ...guarded, ...post.fields };
  if (post.body === "json") {
    return formRequest(JSON.stringify(all), { path, contentType: "application/json" });
  }
  if (post.body === "huge") {
    return formRequest({ ...all, message: "y".repeat(200_000) }, { path });
  }
  if (post.body === "garbage-multipart") {
    return formRequest("--xx\r\nthis is not multipart", {
      path,
      contentType: "multipart/form-data; boundary=yy",
    });
  }
  if (post.body === "multipart-file") {
    const fd = new FormData();
    for (const [k, v] of Object.entries(all)) {
      for (const one of Array.isArray(v) ? v : [v]) fd.append(k, one);
    }
    const target = post.form === "newsletter" ? "email" : "name";
    fd.set(target, new File(["<?php echo 1; ?>"], "x.php", { type: "application/x-php" }));
    return formRequest(fd, { path });
  }
  return formRequest(all as Record<string, string | string[]>, { path });
}

describe("malformed posts", () => {
  it("1,200 malformed posts → 4xx each, nothing stored, never a 5xx", async () => {
    const [course] = await database()
      .db.insert(courses)
      .values({ slug: "c", title: "Course", status: "published" })
      .returning();
    const rnd = random(20260305);
    const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const forms: Form[] = ["enquiry", "licence", "course_quote", "newsletter"];
    const seen = new Map<string, number>();
    for (let i = 0; i < 1200; i++) {
      const form = forms[i % forms.length]!;
      const post = mutate(form, base(form, course!.id), pick, rnd);
      const action = form === "newsletter" ? newsletterAction : inquiryAction;
      const res = await callAction(action, toRequest(post));
      const key = `${form}/${post.kind}/${res.status}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      if (res.status < 400 || res.status >= 500 || res.body.ok) {
        throw new Error(
          `post ${i} (${form}, ${post.kind}) answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
        );
      }
    }
    const { db } = database();
    const count = async (
      table: typeof inquiries | typeof emailOutbox | typeof newsletterSubscriptions,
    ) => (await db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;
    expect({
      inquiries: await count(inquiries),
      outbox: await count(emailOutbox),
      subs: await count(newsletterSubscriptions),
    }).toEqual({ inquiries: 0, outbox: 0, subs: 0 });
    // Every form met every kind of damage.
    const kinds = new Set([...seen.keys()].map((k) => k.split("/").slice(0, 2).join("/")));
    expect(kinds.size).toBeGreaterThanOrEqual(40);
  }, 600_000);

  // Methods other than GET, HEAD and POST never reach an action (server/request-limits.server.ts).
  it("an empty body or one that is not a form is a 4xx too", async () => {
    const empty = await callAction(inquiryAction, formRequest(""));
    expect(empty.status).toBe(400);
    const noType = await callAction(
      inquiryAction,
      new Request("http://localhost/contact", { method: "POST", body: "x" }),
    );
    expect(noType.status).toBe(415);
  });
});
