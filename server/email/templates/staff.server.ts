import { escapeHtml, headerText, layout, type RenderedEmail } from "./layout.server.ts";

/**
 * The staff e-mails (decision 0018): `password_reset` ("Forgot password?") and `staff_invitation`
 * (an admin was invited from the Staff screen). Both carry one single-use link to
 * /auth/reset-password; the link is the only thing in them that grants anything.
 */

export interface PasswordLinkEmailData {
  /** The admin's address (also the recipient). */
  email: string;
  /** `${publicUrl}/auth/reset-password?token=…` */
  url: string;
  /** "1 hour" */
  lifetime: string;
  /** The site's address, for "sign in at …" and "ask for a new link at …". */
  publicUrl: string;
}

function button(url: string, label: string): string {
  return `<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 18px;background:#111827;color:#fff;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(label)}</a></p>`;
}

export function renderPasswordResetEmail(data: PasswordLinkEmailData): RenderedEmail {
  const subject = "Reset your NightWatch admin password";
  const again = `${data.publicUrl}/auth/forgot-password`;
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 16px">Reset your password</h1>` +
      `<p>Someone (we hope you) asked to reset the password of the NightWatch admin account ${escapeHtml(data.email)}.</p>` +
      button(data.url, "Choose a new password") +
      `<p>Or copy this address into your browser:<br><span style="word-break:break-all">${escapeHtml(data.url)}</span></p>` +
      `<p>The link works once and expires in ${escapeHtml(data.lifetime)}. When you change your password, every device signed in to this account is signed out.</p>` +
      `<p>If you did not ask for this, ignore this e-mail: your password stays as it is. If it keeps happening, tell the other admins.</p>`,
  );
  const text = [
    "Reset your password",
    "",
    `Someone (we hope you) asked to reset the password of the NightWatch admin account ${data.email}.`,
    "",
    "Choose a new password here:",
    data.url,
    "",
    `The link works once and expires in ${data.lifetime}. When you change your password, every device signed in to this account is signed out.`,
    `Expired? Ask for a new link at ${again}`,
    "",
    "If you did not ask for this, ignore this e-mail: your password stays as it is. If it keeps happening, tell the other admins.",
  ].join("\n");
  return { subject, html, text };
}

export function renderStaffInvitationEmail(
  data: PasswordLinkEmailData & { invitedBy: string | null },
): RenderedEmail {
  const subject = "You have been invited to the NightWatch admin area";
  const again = `${data.publicUrl}/auth/forgot-password`;
  const who = data.invitedBy ? headerText(data.invitedBy, 254) : "An administrator";
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 16px">Set your password</h1>` +
      `<p>${escapeHtml(who)} has given you an admin account on the NightWatch website, for ${escapeHtml(data.email)}.</p>` +
      `<p>Choose your password to start using it:</p>` +
      button(data.url, "Set your password") +
      `<p>Or copy this address into your browser:<br><span style="word-break:break-all">${escapeHtml(data.url)}</span></p>` +
      `<p>The link works once and expires in ${escapeHtml(data.lifetime)}. If it has expired, ask for a new one at <a href="${escapeHtml(again)}">${escapeHtml(again)}</a> with this address, or ask ${escapeHtml(who === "An administrator" ? "an administrator" : who)} to resend the invitation.</p>` +
      `<p>If you were not expecting this, ignore this e-mail.</p>`,
  );
  const text = [
    "Set your password",
    "",
    `${who} has given you an admin account on the NightWatch website, for ${data.email}.`,
    "",
    "Choose your password to start using it:",
    data.url,
    "",
    `The link works once and expires in ${data.lifetime}. If it has expired, ask for a new one at ${again} with this address, or ask ${who === "An administrator" ? "an administrator" : who} to resend the invitation.`,
    "",
    "If you were not expecting this, ignore this e-mail.",
  ].join("\n");
  return { subject, html, text };
}
