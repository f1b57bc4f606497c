import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routeConfig from "#app/routes.ts";
import { ADMIN_NAV } from "#app/lib/admin-nav.ts";
import { createAdmin } from "#server/auth.server.ts";
import { config } from "#server/config.server.ts";
import { useDatabase, type DatabaseHandle } from "#server/db/client.server.ts";
import {
  auditLog,
  categories,
  coursePartners,
  courses,
  inquiries,
  newsletterSubscriptions,
  orderDocuments,
  orderStudents,
  orders,
} from "#server/db/schema.ts";
import { freshDatabase } from "#tests/support/db.ts";

/**
 * Access control, discovered from app/routes.ts: every route module under routes/admin/ and every
 * /api route (except the two below, which authenticate their callers themselves) is imported and
 * called as an anonymous visitor would call it. Its loader must send a page visit to /auth (or
 * answer 401/403 under /api); its action must answer 401/403; and no table may change.
 *
 * A new admin route without `await requireAdmin(request)` fails here without anyone listing it.
 */

/** /api routes that are not behind the admin session, and why. Add one only with a reason. */
const PUBLIC_API_ROUTES: Record<string, string> = {
  "api/auth/*": "better-auth's own HTTP API (sign-in, sign-out, session): it authenticates",
  "api/stripe/webhook": "called by Stripe, authenticated by the webhook signature",
};

interface ConfigEntry {
  file: string;
  path?: string;
  index?: boolean;
  children?: ConfigEntry[];
}

interface GuardedRoute {
  file: string;
  /** The URL path it serves ('admin/inquiries'); layouts take their first child's. */
  path: string;
}

function joinPath(parent: string, child: string | undefined): string {
  return [parent, child ?? ""].filter(Boolean).join("/");
}

function flatten(entries: readonly ConfigEntry[], parent = ""): GuardedRoute[] {
  const out: GuardedRoute[] = [];
  for (const entry of entries) {
    const full = joinPath(parent, entry.path);
    const children = flatten(entry.children ?? [], full);
    out.push({ file: entry.file, path: full || children[0]?.path || "" });
    out.push(...children);
  }
  return out;
}

const allRoutes = flatten(routeConfig as unknown as ConfigEntry[]);

export const guardedRoutes: GuardedRoute[] = allRoutes.filter(
  (route) =>
    route.file.startsWith("routes/admin/") ||
    (route.path.startsWith("api/") && !(route.path in PUBLIC_API_ROUTES)),
);

const origin = new URL(config.publicUrl).origin;
const appDirectory = path.resolve(import.meta.dirname, "../../app");

/* ------------------------------------------------------------------ the data an intruder would aim at */

interface Seeded {
  ids: string[];
  /** An order and its invoice: the document download is tried with real ids too. */
  orderId: string;
  documentId: string;
}

async function seed(handle: DatabaseHandle): Promise<Seeded> {
  const { db } = handle;
  const [category] = await db
    .insert(categories)
    .values({ name: "Fraud", slug: "fraud" })
    .returning();
  const [partner] = await db.insert(coursePartners).values({ name: "Cifas" }).returning();
  const [course] = await db
    .insert(courses)
    .values({
      slug: "osint",
      title: "OSINT",
      status: "published",
      price: "100.00",
      categoryId: category!.id,
      partnerId: partner!.id,
    })
    .returning();
  const [inquiry] = await db
    .insert(inquiries)
    .values({ name: "Visitor", email: "visitor@example.com", message: "Hello", status: "new" })
    .returning();
  const [subscription] = await db
    .insert(newsletterSubscriptions)
    .values({ email: "reader@example.com", source: "footer" })
    .returning();
  const [order] = await db
    .insert(orders)
    .values({
      status: "pending",
      paymentMethod: "invoice",
      buyerFirstName: "Buyer",
      buyerLastName: "One",
      buyerEmail: "buyer@example.com",
      courseId: course!.id,
      courseTitleSnapshot: "OSINT",
      unitPriceCents: 10000,
      quantity: 1,
      netAmountCents: 10000,
      totalAmountCents: 10000,
    })
    .returning();
  await db.insert(orderStudents).values({
    orderId: order!.id,
    position: 1,
    firstName: "S",
    lastName: "T",
    email: "s@example.com",
  });
  const [invoice] = await db
    .insert(orderDocuments)
    .values({
      orderId: order!.id,
      kind: "invoice",
      number: "INV-2026-0001",
      netAmountCents: 10000,
      vatAmountCents: 0,
      totalAmountCents: 10000,
      issuedBy: "staff@example.com",
      snapshot: { number: "INV-2026-0001" },
    })
    .returning();
  // The audit log has a row an unguarded /admin/audit would leak.
  await db.insert(auditLog).values({
    actorId: "someone",
    actorEmail: "staff@example.com",
    action: "course.update",
    subjectType: "course",
    subjectId: course!.id,
    summary: "OSINT",
    before: { price: "90.00" },
    after: { price: "100.00" },
  });
  // An admin exists, so an unguarded action has someone to act "as" by mistake.
  await createAdmin({ email: "staff@example.com", password: "correct horse battery" });
  return {
    ids: [inquiry!.id, subscription!.id, order!.id, course!.id, category!.id, partner!.id],
    orderId: order!.id,
    documentId: invoice!.id,
  };
}

/** A fingerprint of every table in the public schema (row count and content hash). */
async function fingerprint(handle: DatabaseHandle): Promise<Record<string, string>> {
  const tables = (await handle.db.execute(
    sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
  )) as unknown as { rows: { tablename: string }[] };
  const result: Record<string, string> = {};
  for (const { tablename } of tables.rows) {
    const rows = (await handle.db.execute(
      sql.raw(
        `select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from "${tablename}" t`,
      ),
    )) as unknown as { rows: { n: number; h: string }[] };
    result[tablename] = `${rows.rows[0]!.n}:${rows.rows[0]!.h}`;
  }
  return result;
}

/* ------------------------------------------------------------------ calling a module anonymously */

type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: Record<string, unknown>;
}) => unknown;

interface RouteModule {
  loader?: Handler;
  action?: Handler;
}

function paramsFor(routePath: string, id: string): { url: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const segments = routePath.split("/").map((segment) => {
    if (segment === "*") return (params["*"] = "anything");
    if (segment.startsWith(":")) {
      const name = segment.slice(1).replace(/\?$/, "");
      return (params[name] = id);
    }
    return segment;
  });
  return { url: `${origin}/${segments.join("/")}`, params };
}

const context = { clientIp: "203.0.113.99" };

async function settle(call: () => unknown): Promise<unknown> {
  try {
    return await call();
  } catch (error) {
    return error;
  }
}

/** Where the guard sends an anonymous visit to `url`: /auth, naming the page unless the dashboard. */
function signInLocation(url: string): string {
  const { pathname, search } = new URL(url);
  const asked = `${pathname}${search}`;
  return asked === "/admin" || asked === "/admin/dashboard"
    ? "/auth"
    : `/auth?redirectTo=${encodeURIComponent(asked)}`;
}

function describeOutcome(value: unknown): string {
  if (value instanceof Response)
    return `Response ${value.status} ${value.headers.get("Location") ?? ""}`;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return `data ${JSON.stringify(value)?.slice(0, 200)}`;
  } catch {
    return `data ${String(value)}`;
  }
}

const ACTION_INTENTS = ["update", "delete", "create", "toggle", "status", "save", "erase", ""];

function actionBodies(ids: string[]): URLSearchParams[] {
  const bodies: URLSearchParams[] = [];
  for (const intent of ACTION_INTENTS) {
    for (const id of ids) {
      bodies.push(
        new URLSearchParams({
          intent,
          id,
          status: "closed",
          notes: "changed by an anonymous caller",
          active: "false",
          isActive: "false",
          name: "Changed",
          title: "Changed",
          slug: "changed",
          description: "Changed",
          // The seeded visitor, so an unguarded erasure (/admin/privacy) would change a table.
          email: intent === "erase" ? "visitor@example.com" : "intruder@example.com",
          price: "1",
          to: "paid",
          next: "paid",
        }),
      );
    }
  }
  return bodies;
}

/**
 * Everything wrong with how `module` treats anonymous callers of `route` (empty: all is well).
 * Exported so the self-test below can show it catches an unguarded module.
 */
export async function anonymousProblems(
  module: RouteModule,
  route: GuardedRoute,
  handle: DatabaseHandle,
  ids: string[],
): Promise<string[]> {
  const problems: string[] = [];
  const isApi = route.path.startsWith("api/");
  const before = await fingerprint(handle);

  if (module.loader) {
    const { url, params } = paramsFor(route.path, ids[0]!);
    const outcome = await settle(() =>
      module.loader!({ request: new Request(url), params, context }),
    );
    const ok =
      outcome instanceof Response &&
      (isApi
        ? outcome.status === 401 || outcome.status === 403
        : (outcome.status >= 300 &&
            outcome.status < 400 &&
            outcome.headers.get("Location") === signInLocation(url) &&
            outcome.headers.get("X-Remix-Replace") === "true") ||
          outcome.status === 401 ||
          outcome.status === 403);
    if (!ok) problems.push(`loader answered an anonymous GET with ${describeOutcome(outcome)}`);
  }

  if (module.action) {
    const calls: { request: Request; params: Record<string, string> }[] = [];
    const post = (method: string, body: URLSearchParams) => {
      const { url, params } = paramsFor(route.path, body.get("id")!);
      const headers = { "Content-Type": "application/x-www-form-urlencoded", Origin: origin };
      calls.push({ request: new Request(url, { method, headers, body }), params });
    };
    for (const body of actionBodies(ids)) post("POST", body);
    for (const method of ["PUT", "PATCH", "DELETE"]) post(method, actionBodies([ids[0]!])[0]!);
    for (const { request, params } of calls) {
      const outcome = await settle(() => module.action!({ request, params, context }));
      if (!(outcome instanceof Response && (outcome.status === 401 || outcome.status === 403))) {
        problems.push(
          `action answered an anonymous ${request.method} with ${describeOutcome(outcome)}`,
        );
        break;
      }
    }
  }

  const after = await fingerprint(handle);
  for (const table of Object.keys({ ...before, ...after })) {
    if (before[table] !== after[table]) problems.push(`table ${table} changed`);
  }
  return problems;
}

/* ------------------------------------------------------------------ the suite */

let handle: DatabaseHandle;
let seeded: Seeded;

beforeAll(async () => {
  // One database for the file: every check compares fingerprints before and after, so they
  // need not be isolated from each other.
  handle = await freshDatabase();
  useDatabase(handle);
  seeded = await seed(handle);
});

afterAll(async () => {
  useDatabase(undefined);
  await handle?.close();
});

describe("the route table", () => {
  it("has admin pages, admin actions and the spec's sidebar paths to check", () => {
    expect(guardedRoutes.length).toBeGreaterThanOrEqual(8);
    for (const item of ADMIN_NAV) {
      const served = allRoutes.find((route) => `/${route.path}` === item.to);
      expect(served?.file, `${item.to} (${item.label})`).toMatch(/^routes\/admin\//);
    }
    // So are the downloads outside the admin layout: exports and an order's invoices.
    expect(guardedRoutes.map((r) => r.path)).toContain(
      "admin/payments/:orderId/documents/:documentId",
    );
    // The audit log's screen is read-only and guarded like the rest.
    expect(guardedRoutes.map((r) => r.path)).toContain("admin/audit");
    // Data requests: the page (search and erase) and the personal-data download.
    expect(guardedRoutes.map((r) => r.path)).toEqual(
      expect.arrayContaining(["admin/privacy", "admin/privacy/export"]),
    );
    // /admin and unknown /admin paths are guarded routes too.
    expect(guardedRoutes.some((r) => r.path === "admin/*")).toBe(true);
    expect(guardedRoutes.some((r) => r.path === "admin")).toBe(true);
  });
});

describe.each(guardedRoutes.map((r) => [r.path, r.file, r] as const))(
  "anonymous requests to /%s (%s)",
  (_path, _file, route) => {
    it("get no data and change nothing", async () => {
      const module = (await import(
        /* @vite-ignore */ path.join(appDirectory, route.file)
      )) as RouteModule;
      expect(
        module.loader || module.action,
        "a route module with neither loader nor action",
      ).toBeTruthy();
      expect(await anonymousProblems(module, route, handle, seeded.ids)).toEqual([]);
    });
  },
);

describe("an order's invoice download, asked for with real ids", () => {
  it("sends an anonymous visitor to sign in and reads nothing out", async () => {
    const route = guardedRoutes.find((r) => r.file === "routes/admin/order-document.ts")!;
    const module = (await import(
      /* @vite-ignore */ path.join(appDirectory, route.file)
    )) as RouteModule;
    const params = { orderId: seeded.orderId, documentId: seeded.documentId };
    const outcome = await settle(() =>
      module.loader!({
        request: new Request(
          `${origin}/admin/payments/${params.orderId}/documents/${params.documentId}`,
        ),
        params,
        context,
      }),
    );
    expect(describeOutcome(outcome)).toBe(
      `Response 302 ${signInLocation(
        `${origin}/admin/payments/${params.orderId}/documents/${params.documentId}`,
      )}`,
    );
  });
});

describe("one person's data, asked for with a real address", () => {
  it("sends an anonymous visitor to sign in, reads nothing out and records nothing", async () => {
    const before = await fingerprint(handle);
    for (const file of ["routes/admin/privacy-export.ts", "routes/admin/privacy.tsx"]) {
      const route = guardedRoutes.find((r) => r.file === file)!;
      const module = (await import(
        /* @vite-ignore */ path.join(appDirectory, route.file)
      )) as RouteModule;
      const outcome = await settle(() =>
        module.loader!({
          request: new Request(`${origin}/${route.path}?email=visitor%40example.com&format=json`),
          params: {},
          context,
        }),
      );
      expect(describeOutcome(outcome), file).toBe(
        `Response 302 ${signInLocation(`${origin}/${route.path}?email=visitor%40example.com&format=json`)}`,
      );
    }
    expect(await fingerprint(handle)).toEqual(before);
  });
});

describe("the checker itself", () => {
  const route = { file: "routes/admin/example.tsx", path: "admin/example" };

  it("flags a loader that forgot the guard", async () => {
    const leaky: RouteModule = { loader: async () => ({ inquiries: ["private"] }) };
    expect(await anonymousProblems(leaky, route, handle, seeded.ids)).toEqual([
      expect.stringMatching(/^loader answered an anonymous GET with data/),
    ]);
  });

  it("flags an action that forgot the guard, and the table it changed", async () => {
    const leaky: RouteModule = {
      action: async () => {
        await handle.db.update(inquiries).set({ notes: "pwned" });
        return { ok: true };
      },
    };
    const problems = await anonymousProblems(leaky, route, handle, seeded.ids);
    expect(problems).toContainEqual(expect.stringMatching(/^action answered an anonymous POST/));
    expect(problems).toContain("table inquiries changed");
    await handle.db.update(inquiries).set({ notes: null });
  });

  it("flags an /api route that redirects instead of answering 401", async () => {
    const api = { file: "routes/api/example.ts", path: "api/example" };
    const { requireAdmin } = await import("#server/auth.server.ts");
    const redirecting: RouteModule = {
      loader: async () => {
        await requireAdmin(new Request(`${origin}/admin/example`));
      },
    };
    expect(await anonymousProblems(redirecting, api, handle, seeded.ids)).toHaveLength(1);
  });
});

describe("the staff screen and the public password pages (issue 17)", () => {
  it("/admin/staff is guarded; /auth/forgot-password and /auth/reset-password are public pages", () => {
    expect(guardedRoutes.map((r) => r.file)).toContain("routes/admin/staff.tsx");
    // Visitors who cannot sign in use these: outside routes/admin/ and /api, so not guarded.
    // tests/server/password-reset.test.ts checks they give nothing away.
    for (const file of ["routes/auth/forgot-password.tsx", "routes/auth/reset-password.tsx"]) {
      expect(allRoutes.map((r) => r.file)).toContain(file);
      expect(guardedRoutes.map((r) => r.file)).not.toContain(file);
    }
  });
});
