import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Stripe from "stripe";
import { afterAll, describe, expect, inject, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "#tests/support/fake-stripe.ts";
import { seededRandom, withSiteDatabase } from "#tests/support/site-client.ts";
import { startSite, type Site } from "#tests/support/site-process.ts";

/**
 * Thousands of malformed submissions to every form and API of the running production server —
 * missing, huge and wrong-type fields, bad e-mails, unknown choices, control characters, random
 * bytes, wrong or broken content types, forged and signed-but-odd Stripe events — then:
 * no answer is a 5xx, none leaks a stack trace, the server still answers, and no stored row
 * breaks the rules (checked in the database afterwards).
 * FAULTS_FUZZ_COUNT (default 2,400) and FAULTS_SEED replay a run.
 */

const buildDir = inject("faultsBuildDir");
const PORT = 4554;
const STRIPE_PORT = 4555;
const COUNT = Number(process.env.FAULTS_FUZZ_COUNT ?? 2400);
const SEED = Number(process.env.FAULTS_SEED ?? Date.now() % 1_000_000);
const CONCURRENCY = 8;
const WEBHOOK_SECRET = "whsec_fuzz_0123456789abcdef";
const COURSE = "introduction-to-counter-fraud";

const random = seededRandom(SEED);
const chance = (p: number) => random() < p;
const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
function pick<T>(values: readonly T[]): T {
  return values[Math.floor(random() * values.length)]!;
}

const NASTY = [
  "",
  " ",
  "   \t  ",
  "\u0000",
  "a\u0000b",
  "\r\nBcc: victim@example.com",
  "line1\nline2",
  "<script>alert(1)</script>",
  "' or 1=1 --",
  "%00%0d%0a",
  "../../etc/passwd",
  "🦊🔥💳",
  "\u202eevil\u202c",
  "e\u0301\u0301\u0301",
  "\ud800",
  "null",
  "undefined",
  "[object Object]",
  "NaN",
  "-1",
  "0",
  "1e309",
  "9".repeat(40),
  "true",
  "{}",
  "[]",
  '{"$ne":null}',
  "\\",
  "%",
  "_",
];
const BAD_EMAILS = [
  "",
  "plain",
  "@example.com",
  "a@",
  "a@b",
  "a b@example.com",
  "a@@example.com",
  "a@example..com",
  "<a@example.com>",
  "a@example.com\r\nBcc: x@example.com",
  "a@example.com,b@example.com",
  `${"a".repeat(300)}@example.com`,
  "a@[127.0.0.1]",
  "\u0000@example.com",
  "ünïcödé@exämple.com",
];

function randomText(max: number): string {
  const n = int(0, max);
  let s = "";
  for (let i = 0; i < n; i++) {
    const r = random();
    s +=
      r < 0.6
        ? String.fromCharCode(int(32, 126))
        : r < 0.75
          ? String.fromCharCode(int(0, 31))
          : r < 0.95
            ? String.fromCodePoint(int(0xa0, 0x2fff))
            : String.fromCodePoint(int(0x1f300, 0x1f6ff));
  }
  return s;
}

function randomBytes(max: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(int(0, max));
  for (let i = 0; i < bytes.length; i++) bytes[i] = int(0, 255);
  return bytes;
}

/** One odd value for a field. */
function oddValue(): string | string[] | Blob {
  const r = random();
  if (r < 0.25) return pick(NASTY);
  if (r < 0.4) return randomText(80);
  if (r < 0.5) return "x".repeat(pick([201, 255, 5001, 20_000, 70_000, 200_000]));
  if (r < 0.6) return [pick(NASTY), randomText(10)]; // the field twice
  if (r < 0.7) return new Blob([randomBytes(200)]); // a file where text is expected
  if (r < 0.85) return Buffer.from(randomBytes(40)).toString("latin1");
  return pick(BAD_EMAILS);
}

type Fields = Record<string, string | string[] | Blob>;

/** A valid form, then 1–4 mutations of its fields (drop, oddify, add junk). */
function mutate(valid: Fields, enumFields: Record<string, readonly string[]> = {}): Fields {
  const fields: Fields = { ...valid };
  const names = Object.keys(fields);
  for (let i = int(1, 4); i > 0; i--) {
    const name = pick(names);
    const r = random();
    if (r < 0.25) delete fields[name];
    else if (r < 0.4 && enumFields[name])
      fields[name] = pick(["", "unknown", "OTHER", "1; drop table", enumFields[name]!.join(",")]);
    else if (r < 0.5 && name.includes("email")) fields[name] = pick(BAD_EMAILS);
    else if (r < 0.9) fields[name] = oddValue();
    else fields[randomText(20) || "x"] = oddValue();
  }
  return fields;
}

interface Submission {
  target: string;
  method: "POST" | "GET";
  path: string;
  headers: Record<string, string>;
  body?: BodyInit;
  describe: string;
}

function encode(
  target: string,
  pathName: string,
  fields: Fields,
  extraHeaders: Record<string, string> = {},
): Submission {
  const r = random();
  const summary = JSON.stringify(fields, (_k, v) =>
    v instanceof Blob
      ? "<file>"
      : typeof v === "string" && v.length > 60
        ? `${v.slice(0, 60)}…(${v.length})`
        : v,
  ).slice(0, 400);
  // Sometimes through React Router's data endpoint, as a JavaScript fetcher posts.
  const routePath = chance(0.1) ? dataPath(pathName) : pathName;
  const base = { target, method: "POST" as const, path: routePath, headers: { ...extraHeaders } };
  if (r < 0.65) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) {
      for (const one of Array.isArray(v) ? v : [v])
        params.append(k, one instanceof Blob ? "[blob]" : one);
    }
    return {
      ...base,
      headers: { ...base.headers, "content-type": "application/x-www-form-urlencoded" },
      body: params.toString(),
      describe: `urlencoded ${summary}`,
    };
  }
  if (r < 0.8) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) {
      for (const one of Array.isArray(v) ? v : [v]) {
        if (one instanceof Blob) form.append(k, one, "upload.bin");
        else form.append(k, one);
      }
    }
    return { ...base, body: form, describe: `multipart ${summary}` };
  }
  if (r < 0.86) {
    return {
      ...base,
      headers: { ...base.headers, "content-type": "application/json" },
      body: JSON.stringify(fields),
      describe: `json ${summary}`,
    };
  }
  if (r < 0.92) {
    return {
      ...base,
      headers: {
        ...base.headers,
        "content-type": pick([
          "application/x-www-form-urlencoded",
          "multipart/form-data",
          "multipart/form-data; boundary=zzz",
          "text/plain",
          "application/octet-stream",
        ]),
      },
      body: randomBytes(pick([0, 10, 500, 5000, 140_000])),
      describe: "random bytes",
    };
  }
  if (r < 0.96) {
    const boundary = "----fuzz" + int(0, 1e6);
    return {
      ...base,
      headers: {
        ...base.headers,
        "content-type": `multipart/form-data; boundary=${chance(0.5) ? boundary : "other"}`,
      },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nJane\r\n--${boundary}\r\nContent-Disposition: form-data; name="email"${chance(0.5) ? "" : "\r\n--" + boundary}`,
      describe: "broken multipart",
    };
  }
  return { ...base, body: "name=a&email=b", describe: "no content type" };
}

/** Percent-encodes; a lone surrogate becomes the invalid UTF-8 it would be on the wire. */
function enc(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ED%A0%80";
  }
}

function dataPath(p: string): string {
  const [pathname, query] = p.split("?");
  const data = pathname === "/" ? "/_root.data" : `${pathname}.data`;
  return query ? `${data}?${query}` : data;
}

const SERVICES = [
  "dark-web-monitoring",
  "security-consultancy",
  "counter-fraud-training",
  "file-interrogator",
  "other",
];
const LICENCES = ["1", "2-5", "6-10", "11-25", "26-50", "50+", "custom"];
const USE_CASES = ["law-enforcement", "counter-fraud", "kyc", "forensics", "other"];

function submission(courseId: string, stripeEvent: (payload: string) => string): Submission {
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
      company: "",
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

const RULES = {
  inquiries: `
    select id, left(name, 40) as name, left(email, 60) as email, inquiry_type, modality, attendees from inquiries where
      btrim(name) = '' or name ~ '[\\x01-\\x1f\\x7f]' or length(name) > 200
      or email !~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' or email <> lower(email) or length(email) > 254
      or (btrim(message) = '' and not (course_id is not null and modality = 'online'))
      or length(message) > 5300
      or coalesce(phone, '') ~ '[\\x01-\\x1f\\x7f]' or length(coalesce(phone, '')) > 50
      or coalesce(company, '') ~ '[\\x01-\\x1f\\x7f]' or length(coalesce(company, '')) > 200
      or (modality = 'face_to_face' and (attendees is null or attendees < 1 or attendees > 1000 or btrim(message) = ''))
      or (modality = 'online' and (attendees is not null or budget is not null))
      or (course_id is not null and course_title_snapshot is distinct from (select title from courses c where c.id = course_id))
      or (select count(*) from email_outbox o where o.inquiry_id = inquiries.id)
        <> case spam_reason when 'honeypot' then 0 when 'recipient_limit' then 1 else 2 end`,
  orders: `
    select o.id, o.status, o.payment_method, o.quantity, o.unit_price_cents, o.total_amount_cents from orders o
      left join courses c on c.id = o.course_id where
      o.quantity not between 1 and 10 or o.total_amount_cents <> o.unit_price_cents * o.quantity
      or c.id is null or o.unit_price_cents <> round(c.price * 100)::int
      or btrim(o.buyer_first_name) = '' or btrim(o.buyer_last_name) = ''
      or o.buyer_first_name ~ '[\\x01-\\x1f\\x7f]' or o.buyer_last_name ~ '[\\x01-\\x1f\\x7f]'
      or o.buyer_email !~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' or o.buyer_email <> lower(o.buyer_email)
      or (o.is_buyer_student and o.quantity <> 1)
      or o.quantity <> greatest(1, (select count(*) from order_students s where s.order_id = o.id))
      or (o.is_buyer_student and exists (select 1 from order_students s where s.order_id = o.id))
      or (o.payment_method = 'invoice' and o.status <> 'pending')
      or (o.spam_reason = 'honeypot' and (o.payment_method <> 'invoice'
        or exists (select 1 from email_outbox e where e.order_id = o.id)))`,
  orderStudents: `
    select id from order_students where btrim(first_name) = '' or btrim(last_name) = ''
      or email !~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' or first_name ~ '[\\x01-\\x1f\\x7f]' or last_name ~ '[\\x01-\\x1f\\x7f]'`,
  newsletter: `
    select id, email from newsletter_subscriptions where email !~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' or email <> lower(email)`,
  emailHeaders: `
    select id, kind from email_outbox where to_address ~ '[\\r\\n]' or coalesce(reply_to, '') ~ '[\\r\\n]' or subject ~ '[\\r\\n]'`,
  accounts: `select id, email from "user" where email <> 'admin@example.com'`,
};

describe(`fuzz: ${COUNT} malformed submissions (seed ${SEED})`, () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-faults-fuzz-"));
  let site: Site | undefined;
  let stripe: FakeStripe | undefined;

  afterAll(async () => {
    await site?.kill9();
    await stripe?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers no 5xx, leaks nothing, and stores no rule-breaking row", async () => {
    stripe = await startFakeStripe({ port: STRIPE_PORT });
    site = await startSite({
      port: PORT,
      buildDir,
      dataDir,
      env: {
        FORM_RATE_LIMIT_PER_MINUTE: "100000",
        STRIPE_SECRET_KEY: "sk_test_fuzz",
        STRIPE_API_BASE: stripe.url,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        LOG_LEVEL: "error",
      },
    });
    const coursePage = await (await fetch(`${site.url}/courses/${COURSE}`)).text();
    const courseId = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(
      coursePage,
    )?.[0];
    expect(courseId).toBeTruthy();
    const sign = (payload: string) =>
      Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });

    const tally = new Map<string, Map<number | string, number>>();
    const serverErrors: string[] = [];
    const leaks: string[] = [];
    let sent = 0;
    const worker = async () => {
      while (sent < COUNT) {
        sent++;
        const s = submission(courseId!, sign);
        let status: number | string;
        try {
          const response = await fetch(`${site!.url}${s.path}`, {
            method: s.method,
            // A fresh connection each time: an early answer (413, 415) to a post whose body was
            // not read may leave a kept-alive connection unusable, which would fail the next,
            // unrelated request on it.
            headers: { ...s.headers, connection: "close" },
            body: s.body,
            redirect: "manual",
            signal: AbortSignal.timeout(30_000),
          });
          const text = await response.text();
          status = response.status;
          if (status >= 500)
            serverErrors.push(
              `${status} ${s.method} ${s.path.slice(0, 120)} ${s.describe.slice(0, 300)}`,
            );
          if (
            /\n\s+at .+:\d+:\d+\)?/.test(text) ||
            /DrizzleQueryError|Failed query|invalid byte sequence/.test(text)
          ) {
            leaks.push(`${status} ${s.path.slice(0, 120)}: ${text.slice(0, 200)}`);
          }
        } catch (error) {
          status = `socket error: ${(error as Error).cause ?? (error as Error).message}`.slice(
            0,
            80,
          );
          // The server may answer a body over its limit (413) and close before it has all been
          // sent; the client then sees a reset instead. Anything else is a failure.
          const size =
            typeof s.body === "string"
              ? s.body.length
              : s.body instanceof Uint8Array
                ? s.body.length
                : 0;
          const oversized = size > 120_000 || /\(\d{6,}\)/.test(s.describe);
          if (!oversized)
            serverErrors.push(
              `${status} ${s.method} ${s.path.slice(0, 120)} ${s.describe.slice(0, 300)}`,
            );
        }
        const byStatus = tally.get(s.target) ?? new Map();
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        tally.set(s.target, byStatus);
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = Math.round((Date.now() - started) / 1000);

    console.log(`[fuzz] seed ${SEED}: ${sent} submissions in ${seconds} s`);
    for (const [target, byStatus] of [...tally].sort()) {
      const parts = [...byStatus]
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])))
        .map(([s, n]) => `${s}×${n}`);
      console.log(`  ${target.padEnd(22)} ${parts.join("  ")}`);
    }
    if (serverErrors.length) {
      // A few examples per target and status, to hand to whoever owns the route.
      const examples = new Map<string, string[]>();
      for (const line of serverErrors) {
        const key = line.split(" ").slice(0, 3).join(" ").replace(/\?.*$/, "");
        const list = examples.get(key) ?? [];
        if (list.length < 3) list.push(line.slice(0, 260));
        examples.set(key, list);
      }
      console.log(`[fuzz] ${serverErrors.length} 5xx answers or dropped connections:`);
      for (const [key, lines] of examples) console.log(`  ${key}\n    ${lines.join("\n    ")}`);
    }

    // Still alive and well after all that.
    expect((await fetch(`${site.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${site.url}/`)).status).toBe(200);
    expect(await site.stop()).toBe(0);
    site = undefined;

    const broken = await withSiteDatabase({ kind: "pglite", dataDir }, async (query) => {
      const found: Record<string, unknown[]> = {};
      for (const [name, sql] of Object.entries(RULES)) found[name] = await query(sql);
      const counts = await query<{ inquiries: number; orders: number; subscriptions: number }>(
        `select (select count(*)::int from inquiries) as inquiries, (select count(*)::int from orders) as orders,
                (select count(*)::int from newsletter_subscriptions) as subscriptions`,
      );
      console.log(`[fuzz] rows stored (valid after all): ${JSON.stringify(counts[0])}`);
      return found;
    });
    for (const [rule, rows] of Object.entries(broken)) {
      if (rows.length)
        console.log(
          `[fuzz] rule ${rule} broken by ${rows.length} rows, e.g. ${JSON.stringify(rows.slice(0, 3))}`,
        );
    }

    expect(sent).toBeGreaterThanOrEqual(2000);
    expect(leaks, "responses that show internals").toEqual([]);
    expect([...new Set(serverErrors)], "5xx answers or dropped connections").toEqual([]);
    for (const [rule, rows] of Object.entries(broken))
      expect(rows, `rows breaking the ${rule} rule`).toEqual([]);
  });
});
