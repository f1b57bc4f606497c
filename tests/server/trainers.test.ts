import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { asc } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { NOT_AN_IMAGE } from "#app/lib/admin/image-upload.ts";
import { TRAINER_NAME_REQUIRED, trainerFormSchema } from "#app/lib/catalogue/trainer-form.ts";
import * as trainersModule from "#app/routes/admin/trainers.tsx";
import { createCourse } from "#server/catalogue/course-admin.server.ts";
import { courseFormSchema } from "#app/lib/catalogue/course-form.ts";
import {
  createTrainer,
  deleteTrainer,
  listCourseTrainers,
  listTrainerOptions,
  listTrainers,
  updateTrainer,
} from "#server/catalogue/trainers.server.ts";
import { onCatalogueChange } from "#server/catalogue/write.server.ts";
import { config } from "#server/config.server.ts";
import { db } from "#server/db/client.server.ts";
import { auditLog } from "#server/db/schema.ts";
import { UploadError } from "#server/uploads.server.ts";
import { ADMIN, adminCookie } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { useTemporaryMediaStorage } from "#tests/support/media-storage.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

/**
 * Trainers (server/catalogue/trainers.server.ts and /admin/trainers): create, edit and delete,
 * each audited and emptying the page cache; a photo stored like a partner's logo, a file that is
 * not an image refused with nothing stored; the screen's answers with and without JavaScript.
 */

useFreshDatabase();
const mediaDir = useTemporaryMediaStorage("nw-trainers-");
const trainersRoute = throughAdminLayout(trainersModule);
const origin = new URL(config.publicUrl).origin;

// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const values = (input: Record<string, unknown>) => trainerFormSchema.parse(input);
const photos = () =>
  existsSync(path.join(mediaDir(), "photos")) ? readdirSync(path.join(mediaDir(), "photos")) : [];
const auditRows = () => db().select().from(auditLog).orderBy(asc(auditLog.at), asc(auditLog.id));

describe("trainers", () => {
  it("creates, edits and deletes, each audited and emptying the page cache", async () => {
    let changes = 0;
    const stop = onCatalogueChange(() => changes++);
    try {
      const created = await createTrainer(
        values({
          name: " Ada Lovelace ",
          role: "Lead trainer",
          bio: "Teaches fraud.",
          credentials: "- CIPFA\n- ACFS",
          photo: new File([PNG], "ada.png", { type: "image/png" }),
        }),
        ADMIN,
      );
      expect(created).toMatchObject({
        name: "Ada Lovelace",
        role: "Lead trainer",
        credentials: "- CIPFA\n- ACFS",
        courseCount: 0,
      });
      expect(created.photoUrl).toMatch(/^\/media\/photos\/trainer-\d+-[0-9a-f]{12}\.png$/);
      expect(photos()).toHaveLength(1);

      const updated = await updateTrainer(
        created.id,
        values({ name: "Ada Lovelace", role: "Principal trainer", remove_photo: "on" }),
        ADMIN,
      );
      expect(updated).toMatchObject({ role: "Principal trainer", bio: null, photoUrl: null });
      // The old photo's file went with it.
      expect(photos()).toEqual([]);

      expect(await deleteTrainer(created.id, ADMIN)).toBe(true);
      expect(await deleteTrainer(created.id, ADMIN)).toBe(false);
      expect(await listTrainers()).toEqual([]);
      expect(changes).toBe(3);

      const rows = await auditRows();
      expect(rows.map((r) => [r.action, r.subjectType, r.summary])).toEqual([
        ["trainer.create", "trainer", "Ada Lovelace"],
        ["trainer.update", "trainer", "Ada Lovelace"],
        ["trainer.delete", "trainer", "Ada Lovelace"],
      ]);
      expect(rows[0]!.actorEmail).toBe(ADMIN.email);
      expect(rows[1]!.before).toMatchObject({ role: "Lead trainer", bio: "Teaches fraud." });
      expect(rows[1]!.after).toMatchObject({
        role: "Principal trainer",
        bio: null,
        photoUrl: null,
      });
      expect(rows[2]!.before).toMatchObject({ name: "Ada Lovelace", role: "Principal trainer" });
    } finally {
      stop();
    }
  });

  it("a file that is not an image is refused: nothing saved, nothing stored", async () => {
    const text = new File(["I am text"], "photo.png", { type: "image/png" });
    const error = await createTrainer(values({ name: "Ada", photo: text }), ADMIN).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UploadError);
    expect((error as Error).message).toBe(NOT_AN_IMAGE);
    expect(await listTrainers()).toEqual([]);
    expect(photos()).toEqual([]);
    expect(await auditRows()).toEqual([]);

    // An SVG is refused by the form's schema already.
    const svg = trainerFormSchema.safeParse({
      name: "Ada",
      photo: new File(["<svg/>"], "a.svg", { type: "image/svg+xml" }),
    });
    expect(svg.success).toBe(false);
  });

  it("lists by name, counts courses, and leaves courses without a deleted trainer", async () => {
    const zed = await createTrainer(values({ name: "Zed" }), ADMIN);
    const amy = await createTrainer(values({ name: "Amy" }), ADMIN);
    const course = await createCourse(
      courseFormSchema.parse({ title: "C", trainer_ids: [zed.id, amy.id] }),
      ADMIN,
    );
    expect((await listTrainerOptions()).map((t) => t.name)).toEqual(["Amy", "Zed"]);
    expect((await listTrainers()).map((t) => [t.name, t.courseCount])).toEqual([
      ["Amy", 1],
      ["Zed", 1],
    ]);
    await deleteTrainer(zed.id, ADMIN);
    expect((await listCourseTrainers(course.id)).map((t) => t.name)).toEqual(["Amy"]);
  });
});

describe("/admin/trainers", () => {
  const post = async (cookie: string, fields: Record<string, string | File>) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    const result = await trainersRoute.action({
      request: new Request(`${origin}/admin/trainers`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: origin },
        body,
      }),
      params: {},
      context: {},
    } as never);
    const d = result as { data: unknown; init?: { status?: number } | null };
    return { status: d.init?.status ?? 200, body: d.data as Record<string, unknown> };
  };

  it("answers with toasts; a refused save keeps what was typed (the page form without JavaScript)", async () => {
    const cookie = await adminCookie();
    const refused = await post(cookie, { intent: "save", name: " ", bio: "Kept bio" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      ok: false,
      message: "Failed to save trainer",
      fieldErrors: { name: TRAINER_NAME_REQUIRED },
      values: { name: " ", bio: "Kept bio" },
    });

    const notImage = await post(cookie, {
      intent: "save",
      name: "Ada",
      photo: new File(["text"], "a.png", { type: "image/png" }),
    });
    expect(notImage.body).toMatchObject({
      ok: false,
      message: NOT_AN_IMAGE,
      fieldErrors: { photo: NOT_AN_IMAGE },
    });
    expect(await listTrainers()).toEqual([]);

    const created = await post(cookie, { intent: "save", name: "Ada" });
    expect(created.body).toMatchObject({ ok: true, message: "Trainer created successfully" });
    const [ada] = await listTrainers();

    const loaded = await trainersRoute.loader({
      request: new Request(`${origin}/admin/trainers?delete=${ada!.id}`, {
        headers: { Cookie: cookie },
      }),
      params: {},
      context: {},
    } as never);
    expect(loaded).toMatchObject({ adding: false, editing: null, deleting: { name: "Ada" } });

    const deleted = await post(cookie, { intent: "delete", id: ada!.id });
    expect(deleted.body).toMatchObject({ ok: true, message: "Trainer deleted successfully" });
    expect(await listTrainers()).toEqual([]);
  });
});
