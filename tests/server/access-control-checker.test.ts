import { describe, expect, it } from "vitest";
import { inquiries } from "#server/db/schema.ts";
import { middlewareAround } from "#tests/support/route-middleware.ts";
import {
  anonymousProblems,
  origin,
  useSeededDatabase,
  type RouteModule,
} from "#tests/support/access-control.ts";

/** The access-control walk's checker (tests/support/access-control.ts) catches what it should. */

const db = useSeededDatabase();

describe("the checker itself", () => {
  const route = { file: "routes/admin/example.tsx", path: "admin/example" };

  it("flags a loader that forgot the guard", async () => {
    const leaky: RouteModule = { loader: async () => ({ inquiries: ["private"] }) };
    expect(await anonymousProblems(leaky, route, db.handle, db.seeded.ids)).toEqual([
      expect.stringMatching(/^loader answered an anonymous GET with data/),
    ]);
  });

  it("flags an action that forgot the guard, and the table it changed", async () => {
    const leaky: RouteModule = {
      action: async () => {
        await db.handle.db.update(inquiries).set({ notes: "pwned" });
        return { ok: true };
      },
    };
    const problems = await anonymousProblems(leaky, route, db.handle, db.seeded.ids);
    expect(problems).toContainEqual(expect.stringMatching(/^action answered an anonymous POST/));
    expect(problems).toContain("table inquiries changed");
    await db.handle.db.update(inquiries).set({ notes: null });
  });

  it("finds nothing wrong with the same leaky loader and action under the admin layout", async () => {
    const leaky: RouteModule = {
      loader: async () => ({ inquiries: ["private"] }),
      action: async () => {
        await db.handle.db.update(inquiries).set({ notes: "pwned" });
        return { ok: true };
      },
    };
    const underLayout = await middlewareAround("routes/admin/dashboard.tsx");
    expect(underLayout.length).toBeGreaterThan(0);
    expect(await anonymousProblems(leaky, route, db.handle, db.seeded.ids, underLayout)).toEqual(
      [],
    );
  });

  it("flags an /api route that redirects instead of answering 401", async () => {
    const api = { file: "routes/api/example.ts", path: "api/example" };
    const { requireAdmin } = await import("#server/auth/guard.server.ts");
    const redirecting: RouteModule = {
      loader: async () => {
        await requireAdmin(new Request(`${origin}/admin/example`));
      },
    };
    expect(await anonymousProblems(redirecting, api, db.handle, db.seeded.ids)).toHaveLength(1);
  });
});
