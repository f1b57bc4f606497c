import { z } from "zod/mini";

/**
 * The /admin/account page's forms (decision 0017), one schema each, for the page and its action.
 * Safe on both sides: no server imports here.
 */

const password = z.string().check(z.minLength(1, "Enter your password."), z.maxLength(1024));

/** Turn on (step 1), turn off and new backup codes: the admin's password. */
export const accountPasswordSchema = z.object({ password });

/** Turn on, the mailbox step (a first set-up): the code we e-mailed, and the password again. */
export const mailboxCodeSchema = z.object({
  password,
  mailboxCode: z
    .string()
    .check(z.trim(), z.regex(/^\d{3}\s?\d{3}$/, "Enter the 6-digit code we e-mailed you.")),
});

/** Turn on (step 2): the 6-digit code the app shows, spaces allowed. */
export const twoFactorCodeSchema = z.object({
  code: z
    .string()
    .check(
      z.trim(),
      z.regex(/^\d{3}\s?\d{3}$/, "Enter the 6-digit code from your authenticator app."),
    ),
});

export const sessionIdSchema = z.object({
  sessionId: z.string().check(z.minLength(1), z.maxLength(100)),
});

export type AccountIntent =
  | "enable-start"
  | "enable-mailbox"
  | "enable-confirm"
  | "disable"
  | "backup-codes"
  | "revoke-session"
  | "revoke-others";

/** What the page shows of a session (dates as the loader sends them). */
export interface AccountSessionView {
  id: string;
  device: string;
  ipAddress: string | null;
  createdAt: Date | string;
  lastActiveAt: Date | string;
  current: boolean;
}

export interface TwoFactorSetupView {
  qrSvg: string;
  secret: string;
  backupCodes: string[] | null;
}
