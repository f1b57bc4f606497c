import { randomBytes, randomUUID } from "node:crypto";
import { count, sql } from "drizzle-orm";
import { z } from "zod";
import { config } from "../config.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { account, user } from "../db/schema.ts";
import { auth, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./config.server.ts";
import type { AdminUser } from "./guard.server.ts";
import { isUniqueViolation } from "../db/errors.server.ts";

/**
 * Admin accounts: creating one (`npm run admin:create`, a staff invitation, the first start's
 * ADMIN_EMAIL), its password rules, and counting them. Never a public sign-up.
 */

/** Why an admin account could not be created, in words for the command line. */
export class AdminAccountError extends Error {
  override name = "AdminAccountError";
}

export function checkAdminPassword(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `The password must be at most ${MAX_PASSWORD_LENGTH} characters long.`;
  return null;
}

/** A random password for a new admin: 24 URL-safe characters (144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * Creates an admin who can sign in with this e-mail (stored lower-cased) and password.
 * Throws AdminAccountError for a bad address, a too short password or an e-mail already in use.
 * `invitation`: invited from the Staff screen (the password is random, known to nobody);
 * `withinTransaction` runs in the same transaction (the invitation's audit row).
 */
export async function createAdmin(
  input: { email: string; password: string },
  options: {
    invitation?: boolean;
    /** The admin made on first start (see `user.initialAdmin`). */
    initial?: boolean;
    withinTransaction?: (tx: Transaction, created: AdminUser) => Promise<void>;
  } = {},
): Promise<AdminUser> {
  const email = input.email.trim().toLowerCase();
  if (!z.email().safeParse(email).success)
    throw new AdminAccountError(`'${input.email}' is not an e-mail address.`);
  const problem = checkAdminPassword(input.password);
  if (problem) throw new AdminAccountError(problem);
  const exists = await db()
    .select({ id: user.id })
    .from(user)
    .where(sql`lower(${user.email}) = ${email}`)
    .limit(1);
  if (exists.length)
    throw new AdminAccountError(`An admin with the e-mail ${email} already exists.`);

  // Hashed by better-auth itself, so its sign-in verifies it (scrypt by default).
  const hash = await (await auth().$context).password.hash(input.password);
  const id = randomUUID();
  try {
    await db().transaction(async (tx) => {
      await tx.insert(user).values({
        id,
        name: email,
        email,
        emailVerified: true,
        invitationPending: options.invitation ?? false,
        initialAdmin: options.initial ?? false,
      });
      // What better-auth's own sign-up writes for an e-mail/password account.
      await tx.insert(account).values({
        id: randomUUID(),
        accountId: id,
        providerId: "credential",
        userId: id,
        password: hash,
      });
      await options.withinTransaction?.(tx, {
        id,
        email,
        name: email,
        twoFactorEnabled: false,
        twoFactorVerified: false,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AdminAccountError(`An admin with the e-mail ${email} already exists.`);
    throw error;
  }
  return { id, email, name: email, twoFactorEnabled: false, twoFactorVerified: false };
}

export async function countAdmins(): Promise<number> {
  const [row] = await db().select({ n: count() }).from(user);
  return row?.n ?? 0;
}

/**
 * First start: with no admin at all, creates ADMIN_EMAIL with a random password and returns it
 * (to be printed once). Never a fixed default password. Null when an admin already exists
 * (including one created at the same moment by another instance).
 */
export async function ensureInitialAdmin(
  email: string = config.adminEmail,
): Promise<{ email: string; password: string } | null> {
  if ((await countAdmins()) > 0) return null;
  const password = generatePassword();
  try {
    const created = await createAdmin({ email, password }, { initial: true });
    return { email: created.email, password };
  } catch (error) {
    if (error instanceof AdminAccountError && (await countAdmins()) > 0) return null;
    throw error;
  }
}
