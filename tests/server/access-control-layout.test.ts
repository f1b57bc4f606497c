import { describe, expect, it } from "vitest";
import { ADMIN_NAV } from "#app/lib/admin/nav.ts";
import { ancestorsOf } from "#tests/support/route-middleware.ts";
import {
  ADMIN_LAYOUT,
  allRoutes,
  guardedRoutes,
  importRoute,
} from "#tests/support/access-control.ts";

/**
 * The structure the access-control walk (access-control.test.ts) relies on: the route table has
 * the admin routes to check, and every one of them sits under the admin layout, whose middleware
 * is the guard (decision 0026).
 */

describe("the route table", () => {
  it("has admin pages, admin actions and the spec's sidebar paths to check", () => {
    expect(guardedRoutes.length).toBeGreaterThanOrEqual(8);
    for (const item of ADMIN_NAV) {
      const served = allRoutes.find((route) => `/${route.path}` === item.to);
      expect(served?.file, `${item.to} (${item.label})`).toMatch(/^routes\/admin\//);
    }
    // So are the downloads: exports and an order's invoices.
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

describe("the admin layout", () => {
  it("has the guard as its middleware", async () => {
    const layout = await importRoute(ADMIN_LAYOUT);
    expect(layout.middleware?.length).toBeGreaterThan(0);
  });

  it("is around every route module under routes/admin/, pages and downloads alike", () => {
    const adminFiles = allRoutes
      .map((route) => route.file)
      .filter((file) => file.startsWith("routes/admin/") && file !== ADMIN_LAYOUT);
    expect(adminFiles).toEqual(
      expect.arrayContaining([
        "routes/admin/dashboard.tsx",
        "routes/admin/inquiries-export.ts",
        "routes/admin/order-document.ts",
      ]),
    );
    for (const file of adminFiles) expect(ancestorsOf(file), file).toContain(ADMIN_LAYOUT);
  });
});

describe("the staff screen and the public password pages (decision 0018)", () => {
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
