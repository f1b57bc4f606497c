import { eq } from "drizzle-orm";
import type { AboutFormValues, AdminAboutProfile, PublicAboutPage } from "#app/lib/site/about.ts";
import { changedFields, recordAudit, type AuditActor } from "../audit.server.ts";
import { catalogueChanged } from "./write.server.ts";
import { listPublicTrainers } from "./trainers.server.ts";
import { db } from "../db/client.server.ts";
import { aboutProfile } from "../db/schema.ts";

/**
 * The About profile (docs/rules.md, Catalogue and courses): one row (id 1) that staff edit at
 * /admin/about. /about shows 'Coming Soon' until it is published, then the story,
 * accreditations and partner bodies staff wrote, with the trainers — and nothing of a draft ever
 * leaves the server. A save writes its audit row in its transaction (decision 0019) and empties
 * the page cache, which holds /about.
 */

const PROFILE_ID = 1;

const EMPTY: AdminAboutProfile = {
  published: false,
  story: null,
  accreditations: null,
  partnerBodies: null,
  updatedAt: null,
};

/** The profile as the admin edits it; an empty draft before the first save. */
export async function getAdminAboutProfile(): Promise<AdminAboutProfile> {
  const [row] = await db()
    .select({
      published: aboutProfile.published,
      story: aboutProfile.story,
      accreditations: aboutProfile.accreditations,
      partnerBodies: aboutProfile.partnerBodies,
      updatedAt: aboutProfile.updatedAt,
    })
    .from(aboutProfile)
    .where(eq(aboutProfile.id, PROFILE_ID));
  return row ?? EMPTY;
}

/** What the audit log records of the profile: every field staff set. */
const ABOUT_AUDIT_FIELDS = ["published", "story", "accreditations", "partnerBodies"] as const;

/** Saves the profile (creating its row the first time); a save that changes nothing logs nothing. */
export async function saveAboutProfile(
  values: AboutFormValues,
  actor: AuditActor,
): Promise<AdminAboutProfile> {
  const next = {
    published: values.published,
    story: values.story,
    accreditations: values.accreditations,
    partnerBodies: values.partner_bodies,
  };
  await db().transaction(async (tx) => {
    // Locked, so "before" is what this save replaced.
    const [before] = await tx
      .select()
      .from(aboutProfile)
      .where(eq(aboutProfile.id, PROFILE_ID))
      .for("update");
    const [after] = await tx
      .insert(aboutProfile)
      .values({ id: PROFILE_ID, ...next })
      .onConflictDoUpdate({ target: aboutProfile.id, set: { ...next, updatedAt: new Date() } })
      .returning();
    const changes = changedFields({ ...(before ?? EMPTY) }, after!, ABOUT_AUDIT_FIELDS);
    if (changes) {
      await recordAudit(tx, actor, {
        action: "about.update",
        subjectType: "about",
        subjectId: String(PROFILE_ID),
        summary: after!.published ? "About page (published)" : "About page (draft)",
        ...changes,
      });
    }
  });
  catalogueChanged();
  return getAdminAboutProfile();
}

/** What /about shows: `{ published: false }` alone for a draft (or no profile at all). */
export async function loadPublicAboutPage(): Promise<PublicAboutPage> {
  const [row] = await db()
    .select({
      published: aboutProfile.published,
      story: aboutProfile.story,
      accreditations: aboutProfile.accreditations,
      partnerBodies: aboutProfile.partnerBodies,
    })
    .from(aboutProfile)
    .where(eq(aboutProfile.id, PROFILE_ID));
  if (!row?.published || !row.story) return { published: false };
  return {
    published: true,
    story: row.story,
    accreditations: row.accreditations,
    partnerBodies: row.partnerBodies,
    trainers: await listPublicTrainers(),
  };
}
