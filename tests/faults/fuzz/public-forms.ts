import { BILLING_FORM } from "#tests/support/checkout.ts";
import { PORT, COURSE } from "./settings.ts";
import {
  random,
  chance,
  int,
  pick,
  NASTY,
  randomText,
  randomBytes,
  type Fields,
  mutate,
  type Submission,
  encode,
  enc,
} from "./values.ts";

/**
 * Malformed submissions to the public forms and APIs (enquiry, licence, course quote,
 * newsletter, checkout, Stripe webhooks), each a mutation of a valid one.
 */

export const SERVICES = [
  "dark-web-monitoring",
  "security-consultancy",
  "counter-fraud-training",
  "file-interrogator",
  "other",
];
export const LICENCES = ["1", "2-5", "6-10", "11-25", "26-50", "50+", "custom"];
export const USE_CASES = ["law-enforcement", "counter-fraud", "kyc", "forensics", "other"];

export function submission(courseId: string, stripeEvent: (payload: string) => string): Submission {
  const guards = () => ({
    contact_website: chance(0.95) ? "" : "http://spam.example",
  });
  const r = random();
  if (r < 0.2) {
    const valid = {
      form: "enquiry",
      ...guards(),
      name: "Jane Doe",
      email: "jane@example.com",
      company: "Acme",
      phone: "+44 20 7946 0000",
      service: pick(SERVICES),
      message: "Hello",
    };
    return encode(
      "enquiry",
      pick([
        "/contact",
        "/?index",
        "/quote",
        "/services/dark-web-monitoring",
        "/services/security-consultancy",
      ]),
      mutate(valid, { service: SERVICES, form: ["enquiry", "licence", "course_quote"] }),
    );
  }
  if (r < 0.3) {
    const valid = {
      form: "licence",
      ...guards(),
      name: "Lee",
      email: "lee@example.com",
      company: "Acme",
      licence_count: pick(LICENCES),
      phone: "",
      use_case: pick(USE_CASES),
      message: "",
    };
    return encode(
      "licence",
      "/services/file-interrogator",
      mutate(valid, { licence_count: LICENCES, use_case: USE_CASES }),
    );
  }
  if (r < 0.42) {
    const valid = {
      form: "course_quote",
      ...guards(),
      course_id: chance(0.9) ? courseId : "00000000-0000-4000-8000-000000000000",
      modality: pick(["online", "face_to_face"]),
      name: "Sam",
      email: "sam@example.com",
      company: "",
      phone: "",
      attendees: String(int(1, 12)),
      budget: "£2k",
      message: "Team of analysts",
    };
    return encode(
      "course quote",
      pick([`/courses/${COURSE}`, `/courses/${COURSE}/checkout`]),
      mutate(valid, { modality: ["online", "face_to_face"] }),
    );
  }
  if (r < 0.52) {
    const valid = { ...guards(), email: `news${int(0, 1e6)}@example.com`, return_to: "/about" };
    return encode("newsletter", "/newsletter", mutate(valid));
  }
  if (r < 0.7) {
    const quantity = int(1, 10);
    const valid: Fields = {
      intent: pick(["invoice", "invoice", "card", "update"]),
      firstName: "Pat",
      lastName: "Buyer",
      email: `buyer${int(0, 1e6)}@example.com`,
      phone: "",
      ...BILLING_FORM,
      studentMode: pick(["self", "others"]),
      quantity: String(quantity),
      enhanced: pick(["", "1"]),
    };
    for (let i = 0; i < quantity; i++) {
      valid[`students[${i}].firstName`] = `S${i}`;
      valid[`students[${i}].lastName`] = "Student";
      valid[`students[${i}].email`] = `s${i}-${int(0, 1e6)}@example.com`;
    }
    const fields = mutate(valid, {
      intent: ["card", "invoice", "update"],
      studentMode: ["self", "others"],
    });
    if (chance(0.3))
      fields.quantity = pick(["0", "-1", "11", "1000000", "2.5", "1e1", "", "abc", "0x3", " 3 "]);
    const slug = chance(0.9)
      ? COURSE
      : pick(["no-such-course", "%00", "..%2f..", "a".repeat(3000), enc("🦊"), "%ED%A0%80"]);
    return encode("checkout", `/courses/${slug}/checkout`, fields);
  }
  if (r < 0.76) {
    const fields = mutate({ email: "admin@example.com", password: "wrong-password-123" });
    return encode("/auth sign-in form", "/auth", fields);
  }
  if (r < 0.84) {
    const origin = `http://127.0.0.1:${PORT}`;
    const which = random();
    const body = chance(0.7)
      ? JSON.stringify(
          mutate({ email: "admin@example.com", password: "wrong-password-123", name: "X" }),
          (_k, v) => (v instanceof Blob ? { blob: true } : v),
        )
      : Buffer.from(randomBytes(300)).toString("latin1");
    const apiPath =
      which < 0.5
        ? "/api/auth/sign-in/email"
        : which < 0.7
          ? "/api/auth/sign-up/email"
          : which < 0.8
            ? "/api/auth/sign-out"
            : `/api/auth/${pick(["", "get-session", "reset-password", "..%2f", "x".repeat(500), "update-user", "change-password"])}`;
    return {
      target: "/api/auth",
      method: "POST",
      path: apiPath,
      headers: {
        "content-type": pick([
          "application/json",
          "application/json",
          "text/plain",
          "application/x-www-form-urlencoded",
        ]),
        ...(chance(0.8) ? { origin } : { origin: "https://evil.example" }),
      },
      body,
      describe: `${apiPath} ${body.slice(0, 200)}`,
    };
  }
  if (r < 0.94) {
    const types = [
      "checkout.session.completed",
      "checkout.session.async_payment_succeeded",
      "checkout.session.async_payment_failed",
      "checkout.session.expired",
      "payment_intent.succeeded",
      "unknown.type",
      "",
    ];
    const object = mutate({
      id: `cs_fuzz_${int(0, 1e6)}`,
      object: "checkout.session",
      client_reference_id: pick([
        crypto.randomUUID(),
        "not-a-uuid",
        "",
        "00000000-0000-0000-0000-000000000000",
      ]),
      payment_status: pick(["paid", "unpaid", "no_payment_required", "??"]),
      status: pick(["complete", "open", "expired"]),
      amount_total: String(int(-100, 1e9)),
    });
    const event = chance(0.8)
      ? JSON.stringify(
          {
            id: `evt_fuzz_${int(0, 1e9)}`,
            object: "event",
            type: pick(types),
            data: chance(0.9)
              ? {
                  object: {
                    ...object,
                    metadata: chance(0.5)
                      ? { orderId: pick([crypto.randomUUID(), "x", ""]) }
                      : undefined,
                  },
                }
              : null,
          },
          (_k, v) => (v instanceof Blob ? "blob" : v),
        )
      : pick(["", "null", "[]", "{", Buffer.from(randomBytes(100)).toString("latin1")]);
    const sign = random();
    const signature =
      sign < 0.5
        ? stripeEvent(event)
        : sign < 0.7
          ? `t=${Math.floor(Date.now() / 1000)},v1=${"ab".repeat(32)}`
          : sign < 0.85
            ? ""
            : randomText(100);
    return {
      target: "/api/stripe/webhook",
      method: "POST",
      path: "/api/stripe/webhook",
      headers: {
        "content-type": pick(["application/json", "text/plain"]),
        ...(signature ? { "stripe-signature": signature.replace(/[^\x20-\x7e]/g, "?") } : {}),
      },
      body: event,
      describe: `signed=${sign < 0.5} ${event.slice(0, 200)}`,
    };
  }
  if (r < 0.97) {
    const p = pick([
      "/api/admin/media",
      "/admin/inquiries",
      "/admin/courses",
      "/admin/categories",
      "/admin/partners",
      "/auth/sign-out",
      "/admin/inquiries/export",
    ]);
    const form = new FormData();
    const name = pick(["file", "intent", "id"]);
    if (chance(0.5)) form.append(name, new Blob([randomBytes(2000)]), "x.png");
    else form.append(name, pick(NASTY));
    return {
      target: "admin without session",
      method: "POST",
      path: p,
      headers: {},
      body: form,
      describe: `${p} multipart`,
    };
  }
  // Odd URLs and query strings on the pages that read them.
  const p = pick([
    `/services/counter-fraud-training?partner=${enc(pick(NASTY))}`,
    `/courses/${enc(pick(NASTY) || "x")}`,
    `/courses/${enc(pick(NASTY) || "x")}/success?session_id=${enc(pick(NASTY))}`,
    `/courses/${COURSE}/success?session_id=${enc(pick(["cs_test_x", "", "\u0000", "a".repeat(5000)]))}`,
    `/courses/${COURSE}/success?invoice=${enc(pick(NASTY))}`,
    `/admin/inquiries?page=${enc(pick(NASTY))}`,
    `/newsletter?return_to=${enc(pick(NASTY))}`,
    `/%${pick(["", "E0%A4%A", "zz", "00"])}`,
  ]);
  return { target: "GET odd URLs", method: "GET", path: p, headers: {}, describe: p };
}

/* ------------------------------------------------------------------------------------------ */
/* The admin area, signed in                                                                    */
