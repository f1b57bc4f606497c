import { createHash, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { db } from "../db/client.server.ts";
import { user, verification } from "../db/schema.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { renderTwoFactorMailboxCode } from "../email/templates/account.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import type { AdminUser } from "./guard.server.ts";

/**
 * The mailbox step of a first two-factor set-up (decision 0029): a 6-digit code e-mailed to the
 * account, stored hashed in better-auth's `verification` table, good for a few minutes and a few
 * tries, spent when right. /admin/account asks for it (account-security.server.ts).
 */

/** How long the e-mailed code of the mailbox step works, and how many wrong tries end it. */
export const MAILBOX_CODE_MINUTES = 15;
const MAILBOX_CODE_ATTEMPTS = 5;

const mailboxIdentifier = (userId: string) => `two-factor-mailbox:${userId}`;
const codeHash = (code: string) => createHash("sha256").update(code).digest();

/**
 * Whether turning two-factor on must first prove the mailbox (decision 0029): the first set-up of
 * any account but the one made on first start, so a stolen password alone cannot enrol the
 * thief's own authenticator.
 */
export async function mailboxStepNeeded(admin: Pick<AdminUser, "id">): Promise<boolean> {
  const [row] = await db()
    .select({ initialAdmin: user.initialAdmin, enrolledAt: user.twoFactorEnrolledAt })
    .from(user)
    .where(eq(user.id, admin.id));
  return Boolean(row) && !row!.initialAdmin && !row!.enrolledAt;
}

/** E-mails a new 6-digit code to the account (any earlier one stops working). */
export async function sendMailboxCode(
  admin: AdminUser,
  clientIp: string | undefined,
): Promise<void> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  await db().transaction(async (tx) => {
    await tx.delete(verification).where(eq(verification.identifier, mailboxIdentifier(admin.id)));
    await tx.insert(verification).values({
      id: randomUUID(),
      identifier: mailboxIdentifier(admin.id),
      value: JSON.stringify({ hash: codeHash(code).toString("hex"), attempts: 0 }),
      expiresAt: new Date(Date.now() + MAILBOX_CODE_MINUTES * 60_000),
    });
    await queueEmails(tx, [
      {
        kind: "two_factor_mailbox_code",
        to: admin.email,
        ...renderTwoFactorMailboxCode({
          email: admin.email,
          code,
          minutes: MAILBOX_CODE_MINUTES,
          ipAddress: clientIp ?? null,
        }),
      },
    ]);
  });
  nudgeOutbox();
}

/**
 * Checks the e-mailed code, spending it when right. `MAILBOX_CODE_ATTEMPTS` wrong tries, or
 * `MAILBOX_CODE_MINUTES`, end it ('expired'): a new one must be asked for.
 */
export async function spendMailboxCode(
  userId: string,
  code: string,
): Promise<"right" | "wrong" | "expired"> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(verification)
      .where(
        and(
          eq(verification.identifier, mailboxIdentifier(userId)),
          gt(verification.expiresAt, sql`now()`),
        ),
      )
      .for("update");
    if (!row) return "expired";
    const stored = JSON.parse(row.value) as { hash: string; attempts: number };
    const expected = Buffer.from(stored.hash, "hex");
    const given = codeHash(code.replace(/\s+/g, ""));
    if (expected.length === given.length && timingSafeEqual(expected, given)) {
      await tx.delete(verification).where(eq(verification.id, row.id));
      return "right";
    }
    if (stored.attempts + 1 >= MAILBOX_CODE_ATTEMPTS) {
      await tx.delete(verification).where(eq(verification.id, row.id));
      return "expired";
    }
    await tx
      .update(verification)
      .set({ value: JSON.stringify({ ...stored, attempts: stored.attempts + 1 }) })
      .where(eq(verification.id, row.id));
    return "wrong";
  });
}

export const MAILBOX_CODE_WRONG =
  "That is not the code we e-mailed you. Check the latest e-mail and try again.";
export const MAILBOX_CODE_EXPIRED =
  "That code has expired or was tried too often. Enter your password to have a new one sent.";
