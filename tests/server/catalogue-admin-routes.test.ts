import { describe, expect, it } from "vitest";
import * as categoriesModule from "#app/routes/admin/categories.tsx";
import * as coursesModule from "#app/routes/admin/courses.tsx";
import * as partnersModule from "#app/routes/admin/partners.tsx";
import * as mediaRoute from "#app/routes/api/admin-media.ts";
import { listCategories } from "#server/catalogue/categories.server.ts";
import { config } from "#server/config.server.ts";
import { listAdminCourses } from "#server/catalogue/course-admin.server.ts";
import { adminCookie } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { useTemporaryMediaStorage } from "#tests/support/media-storage.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

const categoriesRoute = throughAdminLayout(categoriesModule);
const coursesRoute = throughAdminLayout(coursesModule);
const partnersRoute = throughAdminLayout(partnersModule);

/**
 * The course, category, partner and media routes behind the admin guard: anonymous readers are
 * sent to /auth, anonymous writers get 401 and nothing changes; a signed-in admin gets the
 * answers the pages show (toast texts, messages per field).
 */

useFreshDatabase();

const origin = new URL(config.publicUrl).origin;
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

useTemporaryMediaStorage("nw-routes-");

function request(
  pathname: string,
  init: { method?: string; cookie?: string; body?: FormData } = {},
) {
  const headers: Record<string, string> = { Origin: origin };
  if (init.cookie) headers.Cookie = init.cookie;
  return new Request(`${origin}${pathname}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body,
  });
}

const args = (req: Request) => ({ request: req, params: {}, context: {} }) as never;
/** An action's arguments for `fields` posted to `path` with the admin's cookie. */
const postAs = (cookie: string, path: string, fields: Record<string, string>) =>
  args(request(path, { method: "POST", cookie, body: form(fields) }));

async function thrown(run: () => Promise<unknown>): Promise<Response> {
  try {
    await run();
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected the guard to throw a Response");
}

/** What a route's loader or action returned: `data()` or a Response. */
async function unwrap(result: unknown): Promise<{ status: number; body: unknown }> {
  if (result instanceof Response) return { status: result.status, body: await result.json() };
  const d = result as { data: unknown; init?: { status?: number } | null };
  return { status: d.init?.status ?? 200, body: d.data };
}

const form = (fields: Record<string, string | File>) => {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  return body;
};

const routes = [
  ["/admin/courses", coursesRoute],
  ["/admin/categories", categoriesRoute],
  ["/admin/partners", partnersRoute],
] as const;

describe("the admin guard covers every catalogue route and action", () => {
  it.each(routes)(
    "%s: anonymous page → /auth; anonymous post → 401, nothing saved",
    async (pathname, route) => {
      const page = await thrown(() => route.loader(args(request(pathname))));
      expect(page.status).toBe(302);
      expect(page.headers.get("Location")).toBe(`/auth?redirectTo=${encodeURIComponent(pathname)}`);
      const post = await thrown(() =>
        route.action(
          args(
            request(pathname, {
              method: "POST",
              body: form({ intent: "save", name: "X", title: "X" }),
            }),
          ),
        ),
      );
      expect(post.status).toBe(401);
      const del = await thrown(() =>
        route.action(
          args(
            request(pathname, {
              method: "POST",
              body: form({ intent: "delete", id: crypto.randomUUID() }),
            }),
          ),
        ),
      );
      expect(del.status).toBe(401);
      expect(await listAdminCourses()).toEqual([]);
      expect(await listCategories()).toEqual([]);
    },
  );

  it("/api/admin/media: anonymous upload → 401 and nothing stored", async () => {
    const response = await thrown(() =>
      mediaRoute.action(
        args(
          request("/api/admin/media", {
            method: "POST",
            body: form({ file: new File([PNG], "a.png") }),
          }),
        ),
      ),
    );
    expect(response.status).toBe(401);
    expect(await thrown(() => mediaRoute.loader(args(request("/api/admin/media"))))).toHaveProperty(
      "status",
      401,
    );
  });

  it("a post from another site is refused even with an admin's cookie", async () => {
    const cookie = await adminCookie();
    const foreign = new Request(`${origin}/admin/categories`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: "https://evil.example" },
      body: form({ intent: "save", name: "X" }),
    });
    expect((await thrown(() => categoriesRoute.action(args(foreign)))).status).toBe(403);
    expect(await listCategories()).toEqual([]);
  });
});

describe("signed in", () => {
  it("creates, refuses bad input with field messages, and deletes a course", async () => {
    const cookie = await adminCookie();
    const post = (fields: Record<string, string | File>) =>
      coursesRoute.action(
        args(request("/admin/courses", { method: "POST", cookie, body: form(fields) })),
      );

    const bad = await unwrap(
      await post({
        intent: "save",
        title: "",
        price: "-1",
        duration_hours: "1.5",
        external_link: "javascript:alert(1)",
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      ok: false,
      message: "Failed to save course",
      fieldErrors: {
        title: expect.any(String),
        price: expect.any(String),
        duration_hours: expect.any(String),
        external_link: expect.any(String),
      },
    });
    expect(await listAdminCourses()).toEqual([]);

    const notImage = await unwrap(
      await post({
        intent: "save",
        title: "T",
        thumbnail: new File(["text"], "t.png", { type: "image/png" }),
      }),
    );
    expect(notImage.body).toMatchObject({
      ok: false,
      message: "Please select an image file",
      fieldErrors: { thumbnail: "Please select an image file" },
    });
    expect(await listAdminCourses()).toEqual([]);

    const created = await unwrap(
      await post({
        intent: "save",
        title: "Fraud Basics",
        content: "<p>Hi<script>x</script></p>",
        thumbnail: new File([PNG], "t.png"),
      }),
    );
    expect(created.body).toEqual({
      ok: true,
      form: "save",
      message: "Course created successfully",
    });
    const [course] = await listAdminCourses();
    expect(course).toMatchObject({ slug: "fraud-basics", status: "draft", content: "<p>Hi</p>" });
    expect(course!.thumbnailUrl).toMatch(/^\/media\/thumbnails\/course-\d+-[0-9a-f]+\.png$/);

    const loaded = await coursesRoute.loader(args(request("/admin/courses", { cookie })));
    expect(loaded.courses).toHaveLength(1);

    const updated = await unwrap(
      await post({ intent: "save", id: course!.id, title: "Fraud Basics", status: "published" }),
    );
    expect(updated.body).toMatchObject({ ok: true, message: "Course updated successfully" });
    const deleted = await unwrap(await post({ intent: "delete", id: course!.id }));
    expect(deleted.body).toMatchObject({ ok: true, message: "Course deleted successfully" });
    const again = await unwrap(await post({ intent: "delete", id: course!.id }));
    expect(again).toMatchObject({
      status: 404,
      body: { ok: false, message: "Failed to delete course" },
    });
  });

  it("categories and partners answer with the spec's toasts", async () => {
    const cookie = await adminCookie();
    const cat = await unwrap(
      await categoriesRoute.action(postAs(cookie, "/admin/categories", { name: "Fraud & Risk" })),
    );
    expect(cat.body).toMatchObject({ ok: true, message: "Category created successfully" });
    expect((await listCategories())[0]?.slug).toBe("fraud-risk");
    const partner = await unwrap(
      await partnersRoute.action(
        postAs(cookie, "/admin/partners", {
          name: "P",
          website_url: "not a url",
          contact_email: "nope",
        }),
      ),
    );
    expect(partner.body).toMatchObject({
      ok: false,
      message: "Failed to save partner",
      fieldErrors: { website_url: expect.any(String), contact_email: expect.any(String) },
    });
  });

  it("/api/admin/media stores an editor image and refuses an SVG", async () => {
    const cookie = await adminCookie();
    const upload = (file: File) =>
      mediaRoute.action(
        args(request("/api/admin/media", { method: "POST", cookie, body: form({ file }) })),
      );
    const ok = await unwrap(await upload(new File([PNG], "pic.png", { type: "image/png" })));
    expect(ok.status).toBe(201);
    expect((ok.body as { url: string }).url).toMatch(
      /^\/media\/content\/content-\d+-[0-9a-f]+\.png$/,
    );
    const svg = await unwrap(
      await upload(
        new File(["<svg><script>alert(1)</script></svg>"], "x.svg", { type: "image/svg+xml" }),
      ),
    );
    expect(svg).toEqual({ status: 400, body: { error: "Please select an image file" } });
  });
});
