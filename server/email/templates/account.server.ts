import {
  escapeHtml,
  formatSubmissionDate,
  layout,
  rowsHtml,
  rowsText,
  type RenderedEmail,
  type Row,
} from "./layout.server.ts";

/**
 * E-mails about an admin's own account (decision 0017): sent to the account's address, never to
 * anyone who merely typed it, so they may say what the sign-in page must not (that it is locked).
 */

export interface AccountLockedData {
  email: string;
  attempts: number;
  lockedUntil: Date;
  /** Where the last wrong password came from, when known. */
  ipAddress: string | null;
  signInUrl: string;
  /** The one-time "Unlock and sign in" link, and how long it works. */
  unlockUrl: string;
  unlockMinutes: number;
}

/** 'Your admin account is locked': what happened, until when, and what to do if it wasn't them. */
export function renderAccountLocked(data: AccountLockedData): RenderedEmail {
  const subject = "Your NightWatch admin account is locked for now";
  const until = formatSubmissionDate(data.lockedUntil);
  const rows: Row[] = [
    ["Account", data.email],
    ["Locked until", `${until} (UK time)`],
    ["Last attempt from", data.ipAddress],
  ];
  const happened = `Someone entered a wrong password for your NightWatch admin account ${data.attempts} times in a row, so signing in to it is refused until ${until} (UK time), even with the right password.`;
  const ifYou = `If that was you, wait until then and sign in as usual. To sign in now, even while someone keeps guessing, use the “Unlock and sign in” link below in this browser within ${data.unlockMinutes} minutes: it works once, and only for this account.`;
  const ifNot =
    "If it wasn't you, someone may be guessing your password: once the lock ends, sign in and change your password (or use “Forgot password?” on the sign-in page), make sure two-factor sign-in is on under My Account, and tell the rest of the team.";
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 16px">Your admin account is locked for now</h1>` +
      `<p>${escapeHtml(happened)}</p>` +
      `<table role="presentation" style="border-collapse:collapse;margin:16px 0">${rowsHtml(rows)}</table>` +
      `<p>${escapeHtml(ifYou)}</p>` +
      `<p><a href="${escapeHtml(data.unlockUrl)}">Unlock and sign in</a></p>` +
      `<p><strong>${escapeHtml(ifNot)}</strong></p>` +
      `<p><a href="${escapeHtml(data.signInUrl)}">Admin sign-in</a></p>`,
  );
  const text = [
    "Your admin account is locked for now",
    "",
    happened,
    "",
    rowsText(rows),
    "",
    ifYou,
    "",
    `Unlock and sign in: ${data.unlockUrl}`,
    "",
    ifNot,
    "",
    `Admin sign-in: ${data.signInUrl}`,
  ].join("\n");
  return { subject, html, text };
}

/** The code that proves the mailbox before two-factor sign-in is first turned on. */
export function renderTwoFactorMailboxCode(data: {
  email: string;
  code: string;
  minutes: number;
  ipAddress: string | null;
}): RenderedEmail {
  const subject = "Your code to turn on two-factor sign-in";
  const asked = `Someone signed in to your NightWatch admin account (${data.email}) is turning on two-factor sign-in. To go on, they must enter this code on the My Account page within ${data.minutes} minutes:`;
  const ifNot =
    "If that wasn't you, someone knows your password: do not share this code, change your password with “Forgot password?” on the sign-in page, and tell the rest of the team.";
  const rows: Row[] = [["Asked from", data.ipAddress]];
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 16px">Turning on two-factor sign-in</h1>` +
      `<p>${escapeHtml(asked)}</p>` +
      `<p style="font-size:28px;font-family:monospace;letter-spacing:4px;margin:16px 0"><strong>${escapeHtml(data.code)}</strong></p>` +
      `<table role="presentation" style="border-collapse:collapse;margin:16px 0">${rowsHtml(rows)}</table>` +
      `<p><strong>${escapeHtml(ifNot)}</strong></p>`,
  );
  const text = [
    "Turning on two-factor sign-in",
    "",
    asked,
    "",
    data.code,
    "",
    rowsText(rows),
    "",
    ifNot,
  ].join("\n");
  return { subject, html, text };
}
