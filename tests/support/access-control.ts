import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import routeConfig from "#app/routes.ts";
import { createAdmin } from "#server/auth/accounts.server.ts";
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
import {
  middlewareAround,
  runThroughMiddleware,
  type Middleware,
} from "#tests/support/route-middleware.ts";

/**
 * Helpers for the access-control suite (tests/server/access-control*.test.ts).
 *
 * Access control, discovered from app/routes.ts: every route module under routes/admin/ and every
 * /api route (except the two below, which authenticate their callers themselves) is imported and
 * called as an anonymous visitor would call it, behind the middleware React Router runs for it
 * (for admin routes, the admin layout's guard: decision 0026). Its loader must send a page visit
 * to /auth (or answer 401/403 under /api); its action must answer 401/403; and no table may change.
 *
 * A new admin route outside the admin layout, or an /api route without `requireAdmin`, fails here
 * without anyone listing it.
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

export interface GuardedRoute {
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

export const allRoutes = flatten(routeConfig as unknown as ConfigEntry[]);

export const guardedRoutes: GuardedRoute[] = allRoutes.filter(
  (route) =>
    route.file.startsWith("routes/admin/") ||
    (route.path.startsWith("api/") && !(route.path in PUBLIC_API_ROUTES)),
);

export const origin = new URL(config.publicUrl).origin;
export const ADMIN_LAYOUT = "routes/admin/layout.tsx";
export const appDirectory = path.resolve(import.meta.dirname, "../../app");

/* ------------------------------------------------------------------ the data an intruder would aim
 * at */

export interface Seeded {
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
export async function fingerprint(handle: DatabaseHandle): Promise<Record<string, string>> {
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

/* ------------------------------------------------------------------ calling a module anonymously
 */

type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: Record<string, unknown>;
}) => unknown;

export interface RouteModule {
  loader?: Handler;
  action?: Handler;
  middleware?: Middleware[];
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

/** Where the guard sends an anonymous visit to `url`: /auth, naming the page unless the dashboard.
 */
export function signInLocation(url: string): string {
  const { pathname, search } = new URL(url);
  const asked = `${pathname}${search}`;
  return asked === "/admin" || asked === "/admin/dashboard"
    ? "/auth"
    : `/auth?redirectTo=${encodeURIComponent(asked)}`;
}

export function describeOutcome(value: unknown): string {
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
 * Calls `module`'s loader or action as React Router would: behind the middleware of the routes
 * around it (`around`, from app/routes.ts unless given) and its own.
 */
export async function callRoute(
  module: RouteModule,
  handler: Handler,
  args: { request: Request; params: Record<string, string> },
  around: Middleware[],
): Promise<unknown> {
  const chain = [...around, ...(module.middleware ?? [])];
  return settle(() => runThroughMiddleware(chain, { ...args, context }, handler as never));
}

/**
 * Everything wrong with how `module` treats anonymous callers of `route` (empty: all is well).
 * Exported so the checker's self-test can show it catches an unguarded module.
 */
export async function anonymousProblems(
  module: RouteModule,
  route: GuardedRoute,
  handle: DatabaseHandle,
  ids: string[],
  around?: Middleware[],
): Promise<string[]> {
  const problems: string[] = [];
  const isApi = route.path.startsWith("api/");
  const before = await fingerprint(handle);
  const middleware = around ?? (await middlewareAround(route.file));

  if (module.loader) {
    const { url, params } = paramsFor(route.path, ids[0]!);
    const outcome = await callRoute(
      module,
      module.loader,
      { request: new Request(url), params },
      middleware,
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
      const outcome = await callRoute(module, module.action, { request, params }, middleware);
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

/** Imports a route module from app/ by its file in app/routes.ts. */
export async function importRoute(file: string): Promise<RouteModule> {
  return (await import(/* @vite-ignore */ path.join(appDirectory, file))) as RouteModule;
}

/**
 * One seeded database for a test file: every check compares fingerprints before and after, so
 * they need not be isolated from each other. Read `handle` and `seeded` inside tests.
 */
export function useSeededDatabase(): { readonly handle: DatabaseHandle; readonly seeded: Seeded } {
  const state = {} as { handle: DatabaseHandle; seeded: Seeded };
  beforeAll(async () => {
    state.handle = await freshDatabase();
    useDatabase(state.handle);
    state.seeded = await seed(state.handle);
  });
  afterAll(async () => {
    useDatabase(undefined);
    await state.handle?.close();
  });
  return state;
}
