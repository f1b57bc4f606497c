import { createHmac, timingSafeEqual } from "node:crypto";
import { derivedSecret } from "./auth/secret.server.ts";
import { isUuid } from "./db/sql.server.ts";

/**
 * Signed links (decision 0037): `<id>.<expiry>.<HMAC-SHA256 of both>`, the expiry in whole
 * seconds, base 36, the key derived from the auth secret for one purpose (a booker's page, a
 * customer's quote). No account and nothing stored: only this server can make one, a changed
 * character makes it worthless, and it names one record only.
 */

function mac(purpose: string, payload: string): Buffer {
  return createHmac("sha256", derivedSecret(purpose)).update(payload).digest();
}

export function signedToken(purpose: string, id: string, expiresAt: Date): string {
  const payload = `${id}.${Math.floor(expiresAt.getTime() / 1000).toString(36)}`;
  return `${payload}.${mac(purpose, payload).toString("base64url")}`;
}

export type SignedLink =
  | { ok: true; id: string; expiresAt: Date }
  /** `expired`: made here, but too old (worth saying so); `invalid`: not made here at all. */
  | { ok: false; reason: "invalid" | "expired" };

/** What a token given back says, checked before anything is read. */
export function readSignedToken(
  purpose: string,
  token: unknown,
  now: Date = new Date(),
): SignedLink {
  if (typeof token !== "string" || token.length > 200) return { ok: false, reason: "invalid" };
  const parts = token.split(".");
  if (parts.length !== 3) return { ok: false, reason: "invalid" };
  const [id, expiry, signature] = parts as [string, string, string];
  if (!isUuid(id) || !/^[0-9a-z]{1,10}$/.test(expiry)) return { ok: false, reason: "invalid" };
  // Compared as text: decoding first would let the last character's unused bits vary.
  const given = Buffer.from(signature);
  const expected = Buffer.from(mac(purpose, `${id}.${expiry}`).toString("base64url"));
  // timingSafeEqual needs equal lengths; the length of a MAC is no secret.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: "invalid" };
  }
  const expiresAt = new Date(parseInt(expiry, 36) * 1000);
  if (expiresAt <= now) return { ok: false, reason: "expired" };
  return { ok: true, id, expiresAt };
}
