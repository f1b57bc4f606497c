import { createHash } from "node:crypto";
import { and, eq, lt, or, sql } from "drizzle-orm";
import { SUBMISSION_KEY_FIELD, isSubmissionKey } from "#app/lib/forms.ts";
import { db } from "../db/client.server.ts";
import { formSubmissions } from "../db/schema.ts";

/**
 * One submission, one result (docs/rules.md, Public forms and spam): every public form that
 * creates something posts a key made with the form (SUBMISSION_KEY_FIELD). A repeated post of the
 * same form — a double click, a retry after a dropped connection, back-and-resubmit — gets the
 * first post's answer, and nothing is created twice.
 *
 * The key is hashed with what was posted: a page served from the cache gives every visitor the
 * same key until its scripts make a fresh one, so two visitors' different posts never meet; one
 * visitor's same post does. The first post claims the hash (a primary key: of posts racing, one
 * wins) and stores its answer; the others wait for that answer. A post that fails or is refused
 * lets its claim go, so correcting it and posting again works.
 */

/** A repeated post while the first is still being answered. */
export const SUBMISSION_IN_PROGRESS =
  "This form is already being sent. Please wait a moment: there is no need to send it again.";

/** How long a repeated post waits for the first one's answer before saying it is on its way. */
const WAIT_MS = 10_000;
const POLL_MS = 100;
/** A claim whose answer never came (the server stopped mid-way) is free again after this. */
const STALE_CLAIM_SECONDS = 120;
/** How long answers are kept for repeats. */
const KEEP_HOURS = 24;

/** The hash of a post: its form, its key and everything else it holds, in a stable order. */
function submissionHash(form: string, key: string, formData: FormData): string {
  const fields = [...formData.entries()]
    .filter(([name]) => name !== SUBMISSION_KEY_FIELD)
    .map(([name, value]) => [name, typeof value === "string" ? value : `file:${value.size}`])
    .sort(([a, x], [b, y]) => (a! < b! ? -1 : a! > b! ? 1 : x! < y! ? -1 : x! > y! ? 1 : 0));
  return createHash("sha256")
    .update(JSON.stringify([form, key, fields]))
    .digest("hex");
}

export type Once<Answer> =
  | { kind: "first"; answer: Answer }
  /** The same post was answered before: its answer as stored. */
  | { kind: "repeat"; stored: unknown }
  /** The same post is still being answered (after waiting WAIT_MS). */
  | { kind: "in_progress" };

/**
 * Runs `create` once per submission. `keep(answer)` says whether the answer stands (a creation:
 * stored for repeats as `store(answer)`, JSON); an answer that does not (refused, failed) lets the
 * claim go. A post without a well-formed key is simply run (nothing to tell repeats by).
 */
export async function submitOnce<Answer>(
  form: string,
  formData: FormData,
  create: () => Promise<Answer>,
  { keep, store }: { keep: (answer: Answer) => boolean; store: (answer: Answer) => unknown },
): Promise<Once<Answer>> {
  const key = formData.get(SUBMISSION_KEY_FIELD);
  if (!isSubmissionKey(key)) return { kind: "first", answer: await create() };
  const keyHash = submissionHash(form, key, formData);
  const mine = and(eq(formSubmissions.form, form), eq(formSubmissions.keyHash, keyHash));

  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (await claim(form, keyHash)) break;
    const [row] = await db()
      .select({ result: formSubmissions.result })
      .from(formSubmissions)
      .where(mine);
    if (row?.result != null) return { kind: "repeat", stored: row.result };
    if (Date.now() >= deadline) return { kind: "in_progress" };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }

  let answer: Answer;
  try {
    answer = await create();
  } catch (error) {
    await db().delete(formSubmissions).where(mine);
    throw error;
  }
  if (keep(answer)) {
    await db()
      .update(formSubmissions)
      .set({ result: store(answer) ?? {} })
      .where(mine);
  } else {
    await db().delete(formSubmissions).where(mine);
  }
  return { kind: "first", answer };
}

/**
 * Claims the hash for this post: true when no post holds it, or only a claim whose answer never
 * came (stale) or an answer past its day does — those are cleared first, by primary key. Other
 * old answers go in the hourly housekeeping (`removeOldSubmissions`), not on every post.
 */
async function claim(form: string, keyHash: string): Promise<boolean> {
  const database = db();
  await database
    .delete(formSubmissions)
    .where(
      and(
        eq(formSubmissions.form, form),
        eq(formSubmissions.keyHash, keyHash),
        or(
          lt(formSubmissions.createdAt, sql`now() - make_interval(hours => ${KEEP_HOURS})`),
          and(
            sql`${formSubmissions.result} is null`,
            lt(
              formSubmissions.createdAt,
              sql`now() - make_interval(secs => ${STALE_CLAIM_SECONDS})`,
            ),
          ),
        ),
      ),
    );
  const claimed = await database
    .insert(formSubmissions)
    .values({ form, keyHash })
    .onConflictDoNothing()
    .returning({ form: formSubmissions.form });
  return claimed.length > 0;
}

/** Deletes the answers kept for repeats once past their day (hourly, with retention). */
export async function removeOldSubmissions(): Promise<number> {
  const removed = await db()
    .delete(formSubmissions)
    .where(lt(formSubmissions.createdAt, sql`now() - make_interval(hours => ${KEEP_HOURS})`))
    .returning({ form: formSubmissions.form });
  return removed.length;
}
