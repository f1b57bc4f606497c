import { asc } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { aboutFormSchema, STORY_REQUIRED_TO_PUBLISH } from "#app/lib/site/about.ts";
import { trainerFormSchema } from "#app/lib/catalogue/trainer-form.ts";
import * as aboutAdminModule from "#app/routes/admin/about.tsx";
import * as aboutPage from "#app/routes/site/about.tsx";
import {
  getAdminAboutProfile,
  loadPublicAboutPage,
  saveAboutProfile,
} from "#server/catalogue/about.server.ts";
import { createTrainer } from "#server/catalogue/trainers.server.ts";
import { onCatalogueChange } from "#server/catalogue/write.server.ts";
import { config } from "#server/config.server.ts";
import { db } from "#server/db/client.server.ts";
import { auditLog } from "#server/db/schema.ts";
import { ADMIN, adminCookie } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

/**
 * /about and its profile (server/catalogue/about.server.ts): 'Coming Soon' until staff publish,
 * then only what they entered with the trainers; a draft's words never reach the public loader.
 * Saves are audited and empty the page cache.
 */

useFreshDatabase();
const origin = new URL(config.publicUrl).origin;
const adminRoute = throughAdminLayout(aboutAdminModule);

const profile = (input: Record<string, string>) => aboutFormSchema.parse(input);
const publicLoad = () => aboutPage.loader();
const DRAFT_STORY = "A draft story nobody outside may read yet.";

describe("the About profile", () => {
  it("with no profile, or a draft, /about's data is 'Coming Soon' and nothing else", async () => {
    expect(await publicLoad()).toEqual({ about: { published: false } });
    await createTrainer(trainerFormSchema.parse({ name: "Ada", credentials: "CIPFA" }), ADMIN);
    await saveAboutProfile(
      profile({ story: DRAFT_STORY, accreditations: "ISO 27001 (draft)" }),
      ADMIN,
    );
    const data = await publicLoad();
    expect(data).toEqual({ about: { published: false } });
    expect(JSON.stringify(data)).not.toContain("draft");
    expect(await getAdminAboutProfile()).toMatchObject({ published: false, story: DRAFT_STORY });
  });

  it("published, /about shows the story, accreditations, partner bodies and the trainers", async () => {
    await createTrainer(
      trainerFormSchema.parse({ name: "Ada Lovelace", role: "Lead", credentials: "- CIPFA" }),
      ADMIN,
    );
    await saveAboutProfile(
      profile({
        story: "We train counter-fraud teams.",
        accreditations: "- CPD Certification Service",
        partner_bodies: "Cifas",
        published: "on",
      }),
      ADMIN,
    );
    expect(await publicLoad()).toEqual({
      about: {
        published: true,
        story: "We train counter-fraud teams.",
        accreditations: "- CPD Certification Service",
        partnerBodies: "Cifas",
        trainers: [
          expect.objectContaining({ name: "Ada Lovelace", role: "Lead", credentials: "- CIPFA" }),
        ],
      },
    });

    // Unpublished again: back to 'Coming Soon'.
    await saveAboutProfile(profile({ story: "We train counter-fraud teams." }), ADMIN);
    expect(await loadPublicAboutPage()).toEqual({ published: false });
  });

  it("publishing needs a story", () => {
    const refused = aboutFormSchema.safeParse({ published: "on", story: "  " });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({
      message: STORY_REQUIRED_TO_PUBLISH,
      path: ["story"],
    });
  });

  it("each change is audited once and empties the page cache; an unchanged save logs nothing", async () => {
    let changes = 0;
    const stop = onCatalogueChange(() => changes++);
    try {
      await saveAboutProfile(profile({ story: "One" }), ADMIN);
      await saveAboutProfile(profile({ story: "One", published: "on" }), ADMIN);
      await saveAboutProfile(profile({ story: "One", published: "on" }), ADMIN);
    } finally {
      stop();
    }
    expect(changes).toBe(3);
    const rows = await db().select().from(auditLog).orderBy(asc(auditLog.at), asc(auditLog.id));
    expect(rows.map((r) => [r.action, r.subjectType, r.before, r.after])).toEqual([
      ["about.update", "about", { story: null }, { story: "One" }],
      ["about.update", "about", { published: false }, { published: true }],
    ]);
  });
});

describe("/admin/about", () => {
  it("saves a post (with or without JavaScript) and answers a refused one with what was typed", async () => {
    const cookie = await adminCookie();
    const post = async (fields: Record<string, string>) => {
      const body = new FormData();
      for (const [k, v] of Object.entries(fields)) body.set(k, v);
      const result = await adminRoute.action({
        request: new Request(`${origin}/admin/about`, {
          method: "POST",
          headers: { Cookie: cookie, Origin: origin },
          body,
        }),
        params: {},
        context: {},
      } as never);
      const d = result as { data: unknown; init?: { status?: number } | null };
      return { status: d.init?.status ?? 200, body: d.data };
    };
    const refused = await post({ intent: "save", accreditations: "Kept", published: "on" });
    expect(refused).toMatchObject({
      status: 400,
      body: {
        ok: false,
        fieldErrors: { story: STORY_REQUIRED_TO_PUBLISH },
        values: { accreditations: "Kept", published: "on" },
      },
    });
    expect(await loadPublicAboutPage()).toEqual({ published: false });

    const saved = await post({ intent: "save", story: "Our story", published: "on" });
    expect(saved).toMatchObject({
      status: 200,
      body: { ok: true, message: "About page published" },
    });
    expect(await loadPublicAboutPage()).toMatchObject({ published: true, story: "Our story" });
    const loaded = await adminRoute.loader({
      request: new Request(`${origin}/admin/about`, { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    } as never);
    expect(loaded).toMatchObject({ profile: { published: true, story: "Our story" } });
  });
});
