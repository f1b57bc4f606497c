import { asc, eq, sql } from "drizzle-orm";
import type {
  AdminTrainer,
  PublicTrainer,
  TrainerFormValues,
} from "#app/lib/catalogue/trainer-form.ts";
import { auditSnapshot, changedFields, recordAudit, type AuditActor } from "../audit.server.ts";
import { catalogueChanged } from "./write.server.ts";
import { publicUrlOrNull } from "./courses.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { courseTrainers, trainers } from "../db/schema.ts";
import { discardImage, storeImage } from "../uploads.server.ts";

/**
 * Trainers (docs/rules.md, Catalogue and courses): the people who teach, as the admin maintains
 * them and as the course pages and /about show them. A photo is stored in photos/ the way a
 * partner's logo is (decision 0006); replacing or removing it, or deleting the trainer, deletes
 * the old file. Deleting a trainer takes them off their courses (ON DELETE CASCADE). Every change
 * writes its audit row in its transaction (decision 0019) and empties the page cache.
 */

const courseCount = sql<number>`(select count(*) from ${courseTrainers}
  where ${courseTrainers.trainerId} = ${trainers.id})`.mapWith(Number);

function selectAdminTrainers() {
  return db()
    .select({
      id: trainers.id,
      name: trainers.name,
      role: trainers.role,
      bio: trainers.bio,
      credentials: trainers.credentials,
      photoUrl: trainers.photoUrl,
      courseCount,
      createdAt: trainers.createdAt,
      updatedAt: trainers.updatedAt,
    })
    .from(trainers);
}

/** Every trainer by name, with how many courses name them (the Trainers screen). */
export async function listTrainers(): Promise<AdminTrainer[]> {
  return selectAdminTrainers().orderBy(asc(trainers.name), asc(trainers.id));
}

/** One trainer as the Trainers screen shows them, or null. */
export async function getAdminTrainer(id: string): Promise<AdminTrainer | null> {
  const [row] = await selectAdminTrainers().where(eq(trainers.id, id));
  return row ?? null;
}

/** Id and name, by name (the course form's choices). */
export async function listTrainerOptions(): Promise<{ id: string; name: string }[]> {
  return db()
    .select({ id: trainers.id, name: trainers.name })
    .from(trainers)
    .orderBy(asc(trainers.name), asc(trainers.id));
}

const publicColumns = {
  id: trainers.id,
  name: trainers.name,
  role: trainers.role,
  bio: trainers.bio,
  credentials: trainers.credentials,
  photoUrl: trainers.photoUrl,
};

/** A photo URL only when the public pages may show it (as partner logos). */
const forPublic = (trainer: PublicTrainer): PublicTrainer => ({
  ...trainer,
  photoUrl: publicUrlOrNull(trainer.photoUrl),
});

/** A course's trainers in the order the admin chose: one query, for the course page. */
export async function listCourseTrainers(courseId: string): Promise<PublicTrainer[]> {
  const rows = await db()
    .select(publicColumns)
    .from(courseTrainers)
    .innerJoin(trainers, eq(courseTrainers.trainerId, trainers.id))
    .where(eq(courseTrainers.courseId, courseId))
    .orderBy(asc(courseTrainers.position), asc(trainers.name));
  return rows.map(forPublic);
}

/** Every trainer by name, for /about once its profile is published. */
export async function listPublicTrainers(): Promise<PublicTrainer[]> {
  const rows = await db()
    .select(publicColumns)
    .from(trainers)
    .orderBy(asc(trainers.name), asc(trainers.id));
  return rows.map(forPublic);
}

type TrainerRow = typeof trainers.$inferSelect;

/** What the audit log records of a trainer (a new photo shows as `photoUrl`; not timestamps). */
const TRAINER_AUDIT_FIELDS = ["name", "role", "bio", "credentials", "photoUrl"] as const;

async function auditTrainer(
  tx: Transaction,
  actor: AuditActor,
  action: "create" | "update" | "delete",
  before: TrainerRow | null,
  after: TrainerRow | null,
): Promise<void> {
  const trainer = (after ?? before)!;
  const entry = {
    action: `trainer.${action}`,
    subjectType: "trainer",
    subjectId: trainer.id,
    summary: trainer.name,
  } as const;
  if (action === "update") {
    const changes = changedFields(before!, after!, TRAINER_AUDIT_FIELDS);
    if (changes) await recordAudit(tx, actor, { ...entry, ...changes });
    return;
  }
  const snapshot = auditSnapshot(trainer, TRAINER_AUDIT_FIELDS);
  await recordAudit(tx, actor, {
    ...entry,
    before: action === "delete" ? snapshot : null,
    after: action === "create" ? snapshot : null,
  });
}

function columns(values: TrainerFormValues) {
  return {
    name: values.name,
    role: values.role,
    bio: values.bio,
    credentials: values.credentials,
  };
}

/** Creates a trainer; a refused photo throws UploadError and nothing is saved. */
export async function createTrainer(
  values: TrainerFormValues,
  actor: AuditActor,
): Promise<AdminTrainer> {
  const photoUrl = values.photo ? await storeImage("photos", values.photo) : null;
  let id: string;
  try {
    id = await db().transaction(async (tx) => {
      const [row] = await tx
        .insert(trainers)
        .values({ ...columns(values), photoUrl })
        .returning();
      await auditTrainer(tx, actor, "create", null, row!);
      return row!.id;
    });
  } catch (error) {
    await discardImage(photoUrl);
    throw error;
  }
  catalogueChanged();
  return (await getAdminTrainer(id))!;
}

/**
 * Updates a trainer: a new photo replaces the old one, `remove_photo` clears it; either way the
 * old file is deleted once the row no longer points at it. Null when the trainer is gone.
 */
export async function updateTrainer(
  id: string,
  values: TrainerFormValues,
  actor: AuditActor,
): Promise<AdminTrainer | null> {
  const [existing] = await db()
    .select({ photoUrl: trainers.photoUrl })
    .from(trainers)
    .where(eq(trainers.id, id));
  if (!existing) return null;
  const newPhotoUrl = values.photo ? await storeImage("photos", values.photo) : null;
  const photoUrl = newPhotoUrl ?? (values.remove_photo ? null : existing.photoUrl);
  let found: boolean;
  try {
    found = await db().transaction(async (tx) => {
      const [before] = await tx.select().from(trainers).where(eq(trainers.id, id)).for("update");
      if (!before) return false;
      const [row] = await tx
        .update(trainers)
        .set({ ...columns(values), photoUrl, updatedAt: new Date() })
        .where(eq(trainers.id, id))
        .returning();
      await auditTrainer(tx, actor, "update", before, row!);
      return true;
    });
  } catch (error) {
    await discardImage(newPhotoUrl);
    throw error;
  }
  if (!found) {
    await discardImage(newPhotoUrl);
    return null;
  }
  if (existing.photoUrl && existing.photoUrl !== photoUrl) await discardImage(existing.photoUrl);
  catalogueChanged();
  return getAdminTrainer(id);
}

/** Deletes a trainer and their photo file; their courses no longer name them. False when absent. */
export async function deleteTrainer(id: string, actor: AuditActor): Promise<boolean> {
  const deleted = await db().transaction(async (tx) => {
    const [row] = await tx.delete(trainers).where(eq(trainers.id, id)).returning();
    if (row) await auditTrainer(tx, actor, "delete", row, null);
    return row;
  });
  if (!deleted) return false;
  await discardImage(deleted.photoUrl);
  catalogueChanged();
  return true;
}
