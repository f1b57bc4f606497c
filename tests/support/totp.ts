import { Secret, TOTP } from "otpauth";

/**
 * Codes for two-factor sign-in (decision 0017), computed from the secret the setup shows as an
 * authenticator app would: for the server tests and the browser spec alike.
 */

/**
 * The current code for `secret` (spaces, as the page groups it, are ignored), or the code
 * `stepsAhead` 30-second steps later: the server accepts the next step's code too, and a code
 * only once, so a test that uses a second code within 30 seconds asks for the next one.
 */
export function codeFor(secret: string, stepsAhead = 0): string {
  return new TOTP({
    secret: Secret.fromBase32(secret.replace(/\s+/g, "")),
    digits: 6,
    period: 30,
    algorithm: "SHA1",
  }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

/** A wrong code: the right one with its last digit changed. */
export function wrongCode(secret: string): string {
  const right = codeFor(secret);
  return right.slice(0, 5) + String((Number(right[5]) + 5) % 10);
}
