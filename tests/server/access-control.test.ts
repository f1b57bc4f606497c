import { describe, expect, it } from "vitest";
import { middlewareAround } from "#tests/support/route-middleware.ts";
import {
  anonymousProblems,
  callRoute,
  describeOutcome,
  fingerprint,
  guardedRoutes,
  importRoute,
  origin,
  signInLocation,
  useSeededDatabase,
} from "#tests/support/access-control.ts";

/**
 * Every route module under routes/admin/ and every /api route, discovered from app/routes.ts, is
 * called as an anonymous visitor would call it, behind the middleware React Router runs for it
 * (decision 0026); helpers and the reasons for the two public /api routes:
 * tests/support/access-control.ts. The structural checks (route table, admin layout) are in
 * access-control-layout.test.ts; the checker's self-test in access-control-checker.test.ts.
 */

const db = useSeededDatabase();

describe.each(guardedRoutes.map((r) => [r.path, r.file, r] as const))(
  "anonymous requests to /%s (%s)",
  (_path, _file, route) => {
    it("get no data and change nothing", async () => {
      const module = await importRoute(route.file);
      expect(
        module.loader || module.action,
        "a route module with neither loader nor action",
      ).toBeTruthy();
      expect(await anonymousProblems(module, route, db.handle, db.seeded.ids)).toEqual([]);
    });
  },
);

describe("an order's invoice download, asked for with real ids", () => {
  it("sends an anonymous visitor to sign in and reads nothing out", async () => {
    const route = guardedRoutes.find((r) => r.file === "routes/admin/order-document.ts")!;
    const module = await importRoute(route.file);
    const params = { orderId: db.seeded.orderId, documentId: db.seeded.documentId };
    const outcome = await callRoute(
      module,
      module.loader!,
      {
        request: new Request(
          `${origin}/admin/payments/${params.orderId}/documents/${params.documentId}`,
        ),
        params,
      },
      await middlewareAround(route.file),
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
    const before = await fingerprint(db.handle);
    for (const file of ["routes/admin/privacy-export.ts", "routes/admin/privacy.tsx"]) {
      const route = guardedRoutes.find((r) => r.file === file)!;
      const module = await importRoute(route.file);
      const outcome = await callRoute(
        module,
        module.loader!,
        {
          request: new Request(`${origin}/${route.path}?email=visitor%40example.com&format=json`),
          params: {},
        },
        await middlewareAround(route.file),
      );
      expect(describeOutcome(outcome), file).toBe(
        `Response 302 ${signInLocation(`${origin}/${route.path}?email=visitor%40example.com&format=json`)}`,
      );
    }
    expect(await fingerprint(db.handle)).toEqual(before);
  });
});
