import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LOAD_FAILED_MESSAGES } from "#app/lib/admin/nav.ts";
import * as categoriesModule from "#app/routes/admin/categories.tsx";
import * as coursesModule from "#app/routes/admin/courses.tsx";
import * as inquiriesModule from "#app/routes/admin/inquiries.tsx";
import * as newsletterModule from "#app/routes/admin/newsletter-subscriptions.tsx";
import * as partnersModule from "#app/routes/admin/partners.tsx";
import * as datesModule from "#app/routes/admin/dates.tsx";
import * as paymentsModule from "#app/routes/admin/payments.tsx";
import * as trainersModule from "#app/routes/admin/trainers.tsx";
import * as aboutModule from "#app/routes/admin/about.tsx";
import { config } from "#server/config.server.ts";
import { adminCookie } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

const categoriesRoute = throughAdminLayout(categoriesModule);
const coursesRoute = throughAdminLayout(coursesModule);
const inquiriesRoute = throughAdminLayout(inquiriesModule);
const newsletterRoute = throughAdminLayout(newsletterModule);
const partnersRoute = throughAdminLayout(partnersModule);
const datesRoute = throughAdminLayout(datesModule);
const paymentsRoute = throughAdminLayout(paymentsModule);
const trainersRoute = throughAdminLayout(trainersModule);
const aboutRoute = throughAdminLayout(aboutModule);

/**
 * A screen whose list cannot be read throws from its loader (no empty list with a flag); the
 * admin layout's error boundary then shows the load-failure toast for that screen.
 */
const database = useFreshDatabase();
const origin = new URL(config.publicUrl).origin;

const screens = [
  ["/admin/inquiries", inquiriesRoute, "inquiries", "Failed to fetch inquiries"],
  ["/admin/payments", paymentsRoute, "orders", "Failed to load orders"],
  [
    "/admin/newsletter-subscriptions",
    newsletterRoute,
    "newsletter_subscriptions",
    "Failed to load newsletter subscriptions",
  ],
  ["/admin/courses", coursesRoute, "courses", "Failed to fetch courses"],
  ["/admin/categories", categoriesRoute, "categories", "Failed to fetch categories"],
  ["/admin/partners", partnersRoute, "course_partners", "Failed to fetch partners"],
  ["/admin/dates", datesRoute, "course_dates", "Failed to load dates"],
  ["/admin/trainers", trainersRoute, "trainers", "Failed to fetch trainers"],
  ["/admin/about", aboutRoute, "about_profile", "Failed to load the About page"],
] as const;

describe("admin screens that cannot read their list", () => {
  it.each(screens)(
    "%s: the loader throws; the boundary's toast is the spec's",
    async (path, route, table, message) => {
      const cookie = await adminCookie();
      const load = () =>
        route.loader({
          request: new Request(`${origin}${path}`, { headers: { Cookie: cookie } }),
          params: {},
          context: {},
        } as never);
      await expect(load()).resolves.toBeTypeOf("object");

      await database().db.execute(sql.raw(`alter table ${table} rename to ${table}_away`));
      await expect(load()).rejects.toThrow();
      expect(LOAD_FAILED_MESSAGES[path]).toBe(message);
    },
  );
});
