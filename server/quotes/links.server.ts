import { config } from "../config.server.ts";
import { readSignedToken, signedToken, type SignedLink } from "../signed-links.server.ts";

/**
 * The customer's link to a quote (decision 0049): signed like a booker's (decision 0037), for
 * its own purpose, lasting 60 days past the quote's last valid day, so an expired quote still
 * opens to say so (and the customer can ask for a new one).
 */

const PURPOSE = "quote-link";
const DAY_MS = 24 * 60 * 60 * 1000;
const GRACE_DAYS = 60;

export function quotePath(token: string): string {
  return `/quotes/${token}`;
}

/** The link's expiry: the end of the last valid day (UTC) plus the grace period. */
function expiryOf(validUntil: string): Date {
  return new Date(Date.parse(`${validUntil}T23:59:59Z`) + GRACE_DAYS * DAY_MS);
}

export function quoteUrl(quoteId: string, validUntil: string): string {
  return `${config.publicUrl}${quotePath(signedToken(PURPOSE, quoteId, expiryOf(validUntil)))}`;
}

export function readQuoteToken(token: unknown, now: Date = new Date()): SignedLink {
  return readSignedToken(PURPOSE, token, now);
}
