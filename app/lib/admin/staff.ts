import { z } from "zod/mini";
import type { FormAnswer } from "../forms.ts";

/**
 * The staff forms (decision 0018): "Forgot password?", the set-a-new-password form behind an
 * e-mailed link, and the Staff screen's invite / resend / remove. One zod schema per form, run in
 * the browser before posting and on the server on the posted body. Safe on both sides.
 *
 * zod "mini": the two /auth pages are public pages, where every kilobyte of script counts.
 */

/** better-auth's limits for admin passwords (MIN/MAX_PASSWORD_LENGTH in
 * server/auth/config.server.ts). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/** How long a reset or invitation link works, in words (PASSWORD_LINK_EXPIRES_IN on the server). */
export const PASSWORD_LINK_LIFETIME = "1 hour";

/** The one answer "Forgot password?" gives, whether or not the address is an admin's. */
export const RESET_REQUESTED_MESSAGE = `If that address belongs to an admin account, we have sent a link to reset the password. It works once and expires in ${PASSWORD_LINK_LIFETIME}.`;

export const PASSWORD_CHANGED_MESSAGE =
  "Your password has been changed. Sign in with your new password.";
export const PASSWORD_SET_MESSAGE = "Your password has been set. Sign in with your new password.";

/** A reset or invitation link that no longer works: used, expired, or never issued. */
export const LINK_INVALID_MESSAGE =
  "This link has expired or has already been used. Each link works once, for " +
  `${PASSWORD_LINK_LIFETIME}.`;

const EMAIL_REQUIRED = "Please enter an e-mail address";
const EMAIL_INVALID = "Please enter a valid e-mail address";

/** An admin's e-mail: trimmed and lower-cased (how accounts are stored), a valid address. */
const adminEmail = z.pipe(
  z
    .string({ error: EMAIL_REQUIRED })
    .check(
      z.trim(),
      z.toLowerCase(),
      z.minLength(1, EMAIL_REQUIRED),
      z.maxLength(254, "An e-mail address has at most 254 characters"),
    ),
  z.email({ error: EMAIL_INVALID }),
);

/** /auth/forgot-password. */
export const forgotPasswordSchema = z.object({ email: adminEmail });
export type ForgotPasswordInput = z.output<typeof forgotPasswordSchema>;

/** /auth/reset-password: the token from the link, the new password twice. */
export const resetPasswordSchema = z
  .object({
    token: z
      .string({ error: LINK_INVALID_MESSAGE })
      .check(z.minLength(1, LINK_INVALID_MESSAGE), z.maxLength(200, LINK_INVALID_MESSAGE)),
    password: z
      .string({ error: "Please enter a new password" })
      .check(
        z.minLength(
          PASSWORD_MIN_LENGTH,
          `The password must be at least ${PASSWORD_MIN_LENGTH} characters long`,
        ),
        z.maxLength(
          PASSWORD_MAX_LENGTH,
          `The password must be at most ${PASSWORD_MAX_LENGTH} characters long`,
        ),
      ),
    confirmPassword: z.string({ error: "Please enter the new password again" }),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.password !== v.confirmPassword) {
        ctx.addIssue({
          code: "custom",
          path: ["confirmPassword"],
          message: "The two passwords do not match",
        });
      }
    }),
  );
export type ResetPasswordInput = z.output<typeof resetPasswordSchema>;

/** The Staff screen's "Invite admin". */
export const staffInviteSchema = z.object({ email: adminEmail });

/** The Staff screen's row actions ("Resend invitation", "Remove"): which admin. */
export const staffMemberSchema = z.object({
  userId: z.string().check(z.minLength(1), z.maxLength(100)),
});

/** One row of the Staff screen. */
export interface StaffMember {
  id: string;
  email: string;
  createdAt: string;
  twoFactorEnabled: boolean;
  invitationPending: boolean;
  /** The newest session's start: when they last signed in (null: never, or all ended). */
  lastSignInAt: string | null;
}

/** What the Staff screen's action answers; `email` names the admin concerned. */
export type StaffAnswer = FormAnswer<{ email?: string }>;
