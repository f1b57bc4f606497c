import { createHmac, timingSafeEqual } from "node:crypto";
import * as orm from "drizzle-orm";
import { derivedSecret } from "../auth/secret.server.ts";
import { config } from "../config.server.ts";
import { db, type Database, type Transaction } from "../db/client.server.ts";
import { emailOutbox, newsletterSubscriptions } from "../db/schema.ts";
import { renderNewsletterWelcome } from "../email/templates/newsletter.server.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { log } from "../log.server.ts";

/**
 * The newsletter's welcome e-mail and one-click unsubscribe (decision 0021). The link
 * carries `<subscription id>.<HMAC-SHA256 of the id>`: it needs no sign-in and does not expire,
 * so a subscriber can always leave from any e-mail they kept; only this server can make one.
 */

export const UNSUBSCRIBE_PATH = "/newsletter/unsubscribe";
export const NEWSLETTER_WELCOME_KIND = "newsletter_welcome";

function mac(id: string): Buffer {
  return createHmac("sha256", derivedSecret("newsletter-unsubscribe")).update(id).digest();
}

export function unsubscribeToken(subscriptionId: string): string {
  return `${subscriptionId}.${mac(subscriptionId).toString("base64url")}`;
}

export function unsubscribeUrl(subscriptionId: string): string {
  return `${config.publicUrl}${UNSUBSCRIBE_PATH}?token=${unsubscribeToken(subscriptionId)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The subscription id a token was made for, or null when this server did not make it. */
export function subscriptionIdOf(token: unknown): string | null {
  if (typeof token !== "string" || token.length > 200) return null;
  const dot = token.indexOf(".");
  const id = token.slice(0, dot).toLowerCase();
  if (dot < 0 || !UUID.test(id)) return null;
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const expected = mac(id);
  // timingSafeEqual needs equal lengths; the length of a MAC is no secret.
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

/**
 * Queues the welcome e-mail of a subscription (in the caller's transaction), unless one went to
 * this address since it subscribed: a release after a real sign-up never sends it twice.
 */
export async function queueNewsletterWelcome(
  tx: Transaction | Database,
  subscription: { id: string; email: string; subscribedAt: Date },
): Promise<void> {
  const [already] = await tx
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(
      orm.and(
        orm.eq(emailOutbox.kind, NEWSLETTER_WELCOME_KIND),
        orm.sql`lower(${emailOutbox.toAddress}) = ${subscription.email.toLowerCase()}`,
        orm.gte(emailOutbox.createdAt, subscription.subscribedAt),
      ),
    )
    .limit(1);
  if (already) return;
  const url = unsubscribeUrl(subscription.id);
  await queueEmails(tx, [
    {
      kind: NEWSLETTER_WELCOME_KIND,
      to: subscription.email,
      ...renderNewsletterWelcome({ unsubscribeUrl: url }),
      // RFC 2369 and RFC 8058: mail clients show their own 'Unsubscribe' and POST to the URL.
      headers: {
        "List-Unsubscribe": `<${url}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
    },
  ]);
}

export type UnsubscribeCheck = "valid" | "invalid";
export type UnsubscribeResult = "unsubscribed" | "already_unsubscribed" | "not_found" | "invalid";

/** For the page shown before the button is pressed: whether the link is ours. Changes nothing. */
export function checkUnsubscribeToken(token: unknown): UnsubscribeCheck {
  return subscriptionIdOf(token) ? "valid" : "invalid";
}

/**
 * Sets the subscription inactive and records when. Idempotent: a second post (a mail client and
 * then the visitor, or a double click) changes nothing and is answered the same way.
 */
export async function unsubscribe(token: unknown): Promise<UnsubscribeResult> {
  const id = subscriptionIdOf(token);
  if (!id) return "invalid";
  const [changed] = await db()
    .update(newsletterSubscriptions)
    .set({ isActive: false, unsubscribedAt: new Date() })
    .where(
      orm.and(
        orm.eq(newsletterSubscriptions.id, id),
        // An address staff switched back on after it left can leave again.
        orm.or(
          orm.isNull(newsletterSubscriptions.unsubscribedAt),
          orm.eq(newsletterSubscriptions.isActive, true),
        ),
      ),
    )
    .returning({ id: newsletterSubscriptions.id });
  if (changed) {
    log.info({ subscriptionId: id }, "newsletter subscription ended by its unsubscribe link");
    return "unsubscribed";
  }
  const [exists] = await db()
    .select({ id: newsletterSubscriptions.id })
    .from(newsletterSubscriptions)
    .where(orm.eq(newsletterSubscriptions.id, id));
  // Erased (a data-protection request) or deleted as spam: nothing is held, nothing is sent.
  return exists ? "already_unsubscribed" : "not_found";
}
