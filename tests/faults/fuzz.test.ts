import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Stripe from "stripe";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "#tests/support/fake-stripe.ts";
import { withSiteDatabase } from "#tests/support/site-client.ts";
import { createAdmin, signIn, startSite, type Site } from "#tests/support/site-process.ts";
import {
  buildDir,
  PORT,
  STRIPE_PORT,
  COUNT,
  ADMIN_SHARE,
  ADMIN,
  PUBLIC_FORMS,
  SEED,
  CONCURRENCY,
  WEBHOOK_SECRET,
  COURSE,
} from "./fuzz/settings.ts";
import { chance, type Submission } from "./fuzz/values.ts";
import { submission } from "./fuzz/public-forms.ts";
import { adminSubmission, readPools } from "./fuzz/admin-forms.ts";

/**
 * Thousands of malformed submissions to every form and API of the running production server,
 * public and admin (the admin signed in through better-auth, the site's Origin on most posts) —
 * missing, huge and wrong-type fields, bad e-mails, unknown choices and intents, ids of real,
 * deleted and impossible rows, control characters, random bytes, images that are not (SVG, HTML,
 * junk, empty, over the cap, odd file names), wrong or broken content types, forged and
 * signed-but-odd Stripe events, admin lists with NUL bytes and bad percent-encoding — then:
 * no answer is a 5xx, no connection is reset or left unanswered, none leaks a stack trace,
 * nothing is logged at error level, the server still answers and the session still holds, and
 * no stored row or media file breaks the rules (checked in the database and on disk afterwards).
 * FAULTS_FUZZ_COUNT (default 2,800, 40 % of it admin) and FAULTS_SEED replay a run (the same
 * submissions; the admin part's ids are those its lists show at the time, so they may differ).
 */

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
        <> case spam_reason when 'honeypot' then 0 when 'recipient_limit' then 1 else 2 end
      or notes = '' or notes <> btrim(notes) or length(notes) > 5000`,
  orders: `
    select o.id, o.status, o.payment_method, o.quantity, o.unit_price_cents, o.total_amount_cents from orders o
      left join courses c on c.id = o.course_id where
      -- the orders placed during the run: the demo content's bookings (placed by the system, on
      -- demo courses this run may reprice or delete) are checked by the seed's own test
      not exists (select 1 from order_events e where e.order_id = o.id and e.kind = 'created' and e.actor = 'system') and (
      o.quantity not between 1 and 10 or o.total_amount_cents <> o.unit_price_cents * o.quantity
      or c.id is null or o.unit_price_cents <> round(c.price * 100)::int
      or btrim(o.buyer_first_name) = '' or btrim(o.buyer_last_name) = ''
      or o.buyer_first_name ~ '[\\x01-\\x1f\\x7f]' or o.buyer_last_name ~ '[\\x01-\\x1f\\x7f]'
      or o.buyer_email !~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' or o.buyer_email <> lower(o.buyer_email)
      or (o.is_buyer_student and o.quantity <> 1)
      or o.quantity <> greatest(1, (select count(*) from order_students s where s.order_id = o.id))
      or (o.is_buyer_student and exists (select 1 from order_students s where s.order_id = o.id))
      -- what the order state machine allows (an admin moves invoice orders on; never 'invoiced' by card)
      or (o.payment_method = 'invoice' and o.status not in ('pending', 'invoiced', 'paid', 'canceled'))
      or (o.payment_method = 'stripe' and o.status = 'invoiced')
      -- a honeypot checkout is held as an invoice request with no e-mail until staff act on it
      or (o.spam_reason = 'honeypot' and (o.payment_method <> 'invoice'
        or (o.status = 'pending' and exists (select 1 from email_outbox e where e.order_id = o.id)))))`,
  orderStudents: `
    select id from order_students where btrim(first_name) = '' or btrim(last_name) = ''
      or email !~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' or first_name ~ '[\\x01-\\x1f\\x7f]' or last_name ~ '[\\x01-\\x1f\\x7f]'`,
  newsletter: `
    select id, email from newsletter_subscriptions where email !~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' or email <> lower(email)`,
  emailHeaders: `
    select id, kind from email_outbox where to_address ~ '[\\r\\n]' or coalesce(reply_to, '') ~ '[\\r\\n]' or subject ~ '[\\r\\n]'`,
  accounts: `select id, email from "user" where email <> 'admin@example.com'`,
  // What the admin screens write: the form schemas' limits, well-formed unique slugs, prices
  // and durations in range, http(s) links only, sanitised course HTML, stored image names.
  courses: `
    select id, left(slug, 60) as slug, left(title, 40) as title, length(short_description) as short_description,
      length(description) as description, price, duration_hours, delivery_type, group_type,
      left(external_link, 80) as external_link, thumbnail_url, left(content, 200) as content from courses where
      slug !~ '^[a-z0-9]+(-[a-z0-9]+)*$' or length(slug) > 210
      or (select count(*) from courses c2 where lower(c2.slug) = lower(courses.slug)) > 1
      or btrim(title) = '' or title <> btrim(title) or length(title) > 200 or title ~ '[\\x01-\\x1f\\x7f]'
      or short_description = '' or length(short_description) > 500
      or description = '' or length(description) > 10000
      or price < 0 or price > 99999999.99 or duration_hours not between 0 and 10000
      or delivery_type not in ('online', 'classroom') or group_type not in ('individual', 'group')
      or external_link !~ '^https?://[^\\s]+$' or length(external_link) > 2000
      or thumbnail_url !~ '^/media/thumbnails/course-[0-9]+-[0-9a-f]{12}\\.(png|gif|jpg|jpeg|bmp|ico|webp)$'
      or content ~* '<(script|iframe|object|embed|svg|math|style|form|input|link|meta|base)\\y|<[^>]*\\son[a-z]+\\s*=|(href|src)\\s*=\\s*["'']?\\s*(javascript|data|vbscript):|style\\s*=\\s*["''][^"'']*(javascript:|expression\\()'`,
  categories: `
    select id, left(name, 40) as name, left(slug, 60) as slug from categories where
      slug !~ '^[a-z0-9]+(-[a-z0-9]+)*$' or length(slug) > 130
      or (select count(*) from categories c2 where lower(c2.slug) = lower(categories.slug)) > 1
      or btrim(name) = '' or name <> btrim(name) or length(name) > 120 or name ~ '[\\x01-\\x1f\\x7f]'
      or description = '' or length(description) > 2000`,
  partners: `
    select id, left(name, 40) as name, length(description) as description, left(website_url, 80) as website_url,
      left(purchase_url, 80) as purchase_url, left(contact_email, 80) as contact_email, logo_url from course_partners where
      btrim(name) = '' or name <> btrim(name) or length(name) > 200 or name ~ '[\\x01-\\x1f\\x7f]'
      or description = '' or length(description) > 2000
      or website_url !~ '^https?://[^\\s]+$' or length(website_url) > 2000
      or purchase_url !~ '^https?://[^\\s]+$' or length(purchase_url) > 2000
      or contact_email !~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' or length(contact_email) > 254
      or logo_url !~ '^/media/logos/partner-[0-9]+-[0-9a-f]{12}\\.(png|gif|jpg|jpeg|bmp|ico|webp)$'`,
};

/** Leading bytes of the raster types the site stores (never SVG, HTML or anything else). */
function isStoredImage(bytes: Buffer, extension: string): boolean {
  const starts = (hex: string) => bytes.subarray(0, hex.length / 2).equals(Buffer.from(hex, "hex"));
  const kind = starts("89504e470d0a1a0a")
    ? "png"
    : starts("474946383761") || starts("474946383961")
      ? "gif"
      : starts("ffd8ff")
        ? "jpg jpeg"
        : starts("424d")
          ? "bmp"
          : starts("00000100")
            ? "ico"
            : starts("52494646") && bytes.subarray(8, 12).toString("latin1") === "WEBP"
              ? "webp"
              : "";
  return kind.split(" ").includes(extension);
}

/** Files under DATA_DIR/media, as site URLs (/media/<folder>/<name>). */
function mediaFiles(dataDir: string): string[] {
  const root = path.join(dataDir, "media");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/media/${path.relative(root, path.join(entry.parentPath, entry.name))}`);
}

/** The targets every run must reach (each at least MIN_PER_TARGET times in a full run). */
const TARGETS = [
  "enquiry",
  "licence",
  "course quote",
  "newsletter",
  "checkout",
  "/auth sign-in form",
  "/api/auth",
  "/api/stripe/webhook",
  "admin without session",
  "GET odd URLs",
  "admin courses",
  "admin categories",
  "admin partners",
  "admin payments",
  "admin inquiries",
  "admin newsletter",
  "admin media upload",
  "admin pages, no action",
  "admin lists GET",
];
const MIN_PER_TARGET = 20;

describe(`fuzz: ${COUNT} malformed submissions, public and admin (seed ${SEED})`, () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-faults-fuzz-"));
  let site: Site | undefined;
  let stripe: FakeStripe | undefined;

  afterAll(async () => {
    await site?.kill9();
    await stripe?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers no 5xx, drops no connection, leaks nothing, and stores no rule-breaking row", async () => {
    createAdmin({ ...ADMIN, dataDir });
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
    const siteUrl = site.url;
    // Signed in once, before the public part's wrong passwords run into the sign-in rate limit.
    const cookie = await signIn(siteUrl, ADMIN.email, ADMIN.password);
    const coursePage = await (await fetch(`${siteUrl}/courses/${COURSE}`)).text();
    const courseId = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(
      coursePage,
    )?.[0];
    expect(courseId).toBeTruthy();
    const sign = (payload: string) =>
      Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });

    const tally = new Map<string, Map<number | string, number>>();
    const serverErrors: string[] = [];
    const dropped: string[] = [];
    const leaks: string[] = [];
    const signedOut: string[] = [];
    let pools = await readPools(siteUrl, cookie, courseId!);
    let refreshing = false;
    let sent = 0;
    let posts = 0;
    const worker = async () => {
      while (sent < COUNT) {
        sent++;
        // Now and then, what the admin screens list now (new rows, deleted ones gone).
        if (sent % 300 === 0 && !refreshing) {
          refreshing = true;
          try {
            pools = await readPools(siteUrl, cookie, courseId!);
          } catch (error) {
            serverErrors.push(`admin lists for the pools: ${(error as Error).message}`);
          } finally {
            refreshing = false;
          }
        }
        let s: Submission;
        if (chance(ADMIN_SHARE)) {
          s = adminSubmission(siteUrl, cookie, pools);
        } else {
          s = submission(courseId!, sign);
          // The signed-in admin also uses the public forms (never /api/auth: a sign-out there
          // would end the session the admin part uses).
          if (PUBLIC_FORMS.has(s.target) && chance(0.3)) s.headers = { ...s.headers, cookie };
        }
        if (s.method === "POST") posts++;
        const line = () => `${s.method} ${s.path.slice(0, 120)} ${s.describe.slice(0, 300)}`;
        let status: number | string;
        try {
          const response = await fetch(`${siteUrl}${s.path}`, {
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
          if (status >= 500) serverErrors.push(`${status} ${line()}`);
          if (
            /\n\s+at .+:\d+:\d+\)?/.test(text) ||
            /DrizzleQueryError|Failed query|invalid byte sequence/.test(text)
          ) {
            leaks.push(`${status} ${s.path.slice(0, 120)}: ${text.slice(0, 200)}`);
          }
          // The admin's session must hold through the run: a sign-in page or 401 for a
          // signed-in request with the site's Origin would mean the admin part tested nothing.
          // (A redirect answered to a .data request is a 202 with X-Remix-Redirect.)
          const location =
            response.headers.get("location") ?? response.headers.get("x-remix-redirect") ?? "";
          if (
            s.target.startsWith("admin ") &&
            s.headers.cookie &&
            (s.method === "GET" || s.headers.origin === siteUrl) &&
            (status === 401 || /^(https?:\/\/[^/]+)?\/auth\b/.test(location))
          )
            signedOut.push(`${status} ${location} ${line()}`);
        } catch (error) {
          // Reset, closed before the answer, or no answer in 30 s: always a failure, whatever
          // the size of the body (an oversized one must get its 413).
          const cause = (error as Error).cause as { code?: string; message?: string } | undefined;
          status = `no answer: ${cause?.code ?? cause?.message ?? (error as Error).message}`.slice(
            0,
            60,
          );
          dropped.push(`${status} ${line()}`);
        }
        const byStatus = tally.get(s.target) ?? new Map();
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        tally.set(s.target, byStatus);
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = Math.round((Date.now() - started) / 1000);

    console.log(`[fuzz] seed ${SEED}: ${sent} submissions (${posts} posts) in ${seconds} s`);
    const perTarget: Record<string, number> = {};
    for (const [target, byStatus] of [...tally].sort()) {
      perTarget[target] = [...byStatus.values()].reduce((a, b) => a + b, 0);
      const parts = [...byStatus]
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])))
        .map(([s, n]) => `${s}×${n}`);
      console.log(
        `  ${target.padEnd(24)} ${String(perTarget[target]).padStart(5)}  ${parts.join("  ")}`,
      );
    }
    for (const [title, lines] of [
      ["5xx answers", serverErrors],
      ["connections reset or unanswered", dropped],
      ["signed-in admin requests answered as signed out", signedOut],
    ] as const) {
      if (!lines.length) continue;
      // A few examples per target and status, to hand to whoever owns the route.
      const examples = new Map<string, string[]>();
      for (const one of lines) {
        const key = one.split(" ").slice(0, 3).join(" ").replace(/\?.*$/, "");
        const list = examples.get(key) ?? [];
        if (list.length < 3) list.push(one.slice(0, 260));
        examples.set(key, list);
      }
      console.log(`[fuzz] ${lines.length} ${title}:`);
      for (const [key, some] of examples) console.log(`  ${key}\n    ${some.join("\n    ")}`);
    }

    // Still alive and well after all that, and still signed in.
    expect((await fetch(`${siteUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${siteUrl}/`)).status).toBe(200);
    expect((await fetch(`${siteUrl}/admin/courses.data`, { headers: { cookie } })).status).toBe(
      200,
    );
    const outputLines = site
      .output()
      .split("\n")
      .filter((l) => l.trim() !== "");
    // Node's own process warnings (stderr, not the site's log). Seen: MaxListenersExceededWarning,
    // 'drain' listeners on a compressed response — React Router's writer waits for 'drain' with
    // once/off, and compression hands the listener to its zlib stream, where off does not reach.
    // Shown, not counted as errors.
    const nodeWarnings = outputLines.filter((l) => /^\(node:\d+\) |^\(Use `node --trace/.test(l));
    if (nodeWarnings.length)
      console.log(`[fuzz] Node warnings:\n  ${nodeWarnings.slice(0, 4).join("\n  ")}`);
    const errorLog = outputLines
      .filter((l) => !nodeWarnings.includes(l))
      .filter((l) => {
        try {
          const entry = JSON.parse(l) as { level?: number; msg?: string };
          // A correctly signed Stripe event for an order the site does not know is logged as an
          // error on purpose (staff must look: money may have moved); the fuzz signs such events.
          return entry.level! >= 50 && !entry.msg?.startsWith("Stripe event for no known order");
        } catch {
          return true;
        }
      });
    if (errorLog.length) {
      const kinds = new Map<string, number>();
      for (const l of errorLog) {
        let kind = l.slice(0, 200);
        try {
          const entry = JSON.parse(l) as { msg?: string; err?: { message?: string } };
          kind = `${entry.msg} ${entry.err?.message ?? ""}`.slice(0, 200);
        } catch {
          // not JSON: the line itself
        }
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      console.log(`[fuzz] ${errorLog.length} lines logged at error level:`);
      for (const [kind, n] of kinds) console.log(`  ${n}× ${kind}`);
    }
    expect(await site.stop()).toBe(0);
    site = undefined;

    const broken = await withSiteDatabase({ kind: "pglite", dataDir }, async (query) => {
      const found: Record<string, unknown[]> = {};
      for (const [name, sql] of Object.entries(RULES)) found[name] = await query(sql);
      // Stored media: every file an image of the type its name says; every URL in a row a file.
      const files = mediaFiles(dataDir);
      found.mediaFiles = files.filter(
        (url) =>
          !isStoredImage(
            readFileSync(path.join(dataDir, url.slice(1))),
            path.extname(url).slice(1).toLowerCase(),
          ),
      );
      const referenced = await query<{ url: string }>(
        `select thumbnail_url as url from courses where thumbnail_url like '/media/%'
         union all select logo_url from course_partners where logo_url like '/media/%'`,
      );
      const onDisk = new Set(files);
      found.mediaReferences = referenced.filter((row) => !onDisk.has(row.url));
      const counts = await query(
        `select (select count(*)::int from inquiries) as inquiries, (select count(*)::int from orders) as orders,
                (select count(*)::int from orders where status <> 'pending') as "orders moved on",
                (select count(*)::int from newsletter_subscriptions) as subscriptions,
                (select count(*)::int from newsletter_subscriptions where not is_active) as "subscriptions inactive",
                (select count(*)::int from inquiries where status <> 'new') as "inquiries updated",
                (select count(*)::int from courses) as courses, (select count(*)::int from categories) as categories,
                (select count(*)::int from course_partners) as partners`,
      );
      const unreferenced = files.filter(
        (url) => !url.startsWith("/media/content/") && !referenced.some((row) => row.url === url),
      ).length;
      console.log(
        `[fuzz] rows stored (valid after all): ${JSON.stringify(counts[0])}; media files ${files.length} (${unreferenced} thumbnails/logos no row points at)`,
      );
      return found;
    });
    for (const [rule, rows] of Object.entries(broken)) {
      if (rows.length)
        console.log(
          `[fuzz] rule ${rule} broken by ${rows.length} rows, e.g. ${JSON.stringify(rows.slice(0, 3))}`,
        );
    }

    expect(posts, "malformed posts sent").toBeGreaterThanOrEqual(2000);
    if (COUNT >= 2000)
      for (const target of TARGETS)
        expect(perTarget[target] ?? 0, `posts to ${target}`).toBeGreaterThanOrEqual(MIN_PER_TARGET);
    expect(leaks, "responses that show internals").toEqual([]);
    expect([...new Set(serverErrors)], "5xx answers").toEqual([]);
    expect(dropped.slice(0, 10), `connections reset or unanswered (${dropped.length})`).toEqual([]);
    expect(signedOut.slice(0, 10), "signed-in admin requests answered as signed out").toEqual([]);
    expect(errorLog.slice(0, 10), "lines logged at error level").toEqual([]);
    for (const [rule, rows] of Object.entries(broken))
      expect(rows, `rows breaking the ${rule} rule`).toEqual([]);
    // A few minutes on a busy two-core machine (≈ 70–140 s of posts, plus start-up and checks).
  }, 480_000);
});
