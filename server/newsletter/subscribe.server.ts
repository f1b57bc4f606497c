/**
 * Newsletter sign-ups from the site's forms: the address stored with
 * its consent and the welcome e-mail queued, or held as suspected spam.
 */
import * as orm from "drizzle-orm";
import { normaliseEmail } from "#app/lib/inquiries/schemas.ts";
import type { SpamReason } from "#app/lib/admin/suspected-spam.ts";
import { db } from "../db/client.server.ts";
import { isUniqueViolation } from "../db/errors.server.ts";
import { newsletterSubscriptions } from "../db/schema.ts";
import { log } from "../log.server.ts";
import { queueNewsletterWelcome } from "./unsubscribe.server.ts";
import {
  NEWSLETTER_CONSENT_TEXT,
  type NewsletterConsentPage,
} from "#app/lib/newsletter/consent.ts";

export const NEWSLETTER_SOURCE_FOOTER = "footer";

export type SubscribeResult =
  | { status: "subscribed"; id: string; email: string }
  | { status: "already_subscribed"; email: string };

/** What the visitor agreed to: which form, and the words it showed beside its button. */
export interface NewsletterConsent {
  page: NewsletterConsentPage;
  text: string;
}

const FOOTER_CONSENT: NewsletterConsent = { page: "footer", text: NEWSLETTER_CONSENT_TEXT };

/**
 * Stores the address trimmed and lower-cased, with its consent (when, which form, the words
 * shown), and queues the welcome e-mail with the unsubscribe link in the same transaction. A
 * second sign-up with the same address in any casing hits the unique index on lower(email)
 * (23505) and is answered 'already subscribed' — unless the row there is held as suspected spam
 * or left through its unsubscribe link and this sign-up is not suspected: then a real person has
 * asked for it, so it is subscribed again with the new consent (decision 0012). `suspected` (the
 * honeypot's mark) stores a new address marked, with no e-mail; it is not exported or counted.
 */
export async function subscribe(
  email: string,
  source: string = NEWSLETTER_SOURCE_FOOTER,
  suspected: SpamReason | null = null,
  consent: NewsletterConsent = FOOTER_CONSENT,
): Promise<SubscribeResult> {
  const normalised = normaliseEmail(email);
  const consentAt = new Date();
  const consentFields = {
    consentAt,
    consentPage: consent.page,
    consentText: consent.text,
  };
  try {
    const row = await db().transaction(async (tx) => {
      const [row] = await tx
        .insert(newsletterSubscriptions)
        .values({ email: normalised, source, spamReason: suspected, ...consentFields })
        .returning();
      // Held suspected spam gets its welcome only when released.
      if (!suspected) await queueNewsletterWelcome(tx, row!);
      return row!;
    });
    if (suspected) log.warn({ spamReason: suspected }, "newsletter sign-up held as suspected spam");
    return { status: "subscribed", id: row.id, email: normalised };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  if (suspected === null) {
    const cleared = await db().transaction(async (tx) => {
      const [row] = await tx
        .update(newsletterSubscriptions)
        .set({
          spamReason: null,
          isActive: true,
          source,
          subscribedAt: consentAt,
          unsubscribedAt: null,
          ...consentFields,
        })
        .where(
          orm.and(
            orm.sql`lower(${newsletterSubscriptions.email}) = ${normalised}`,
            orm.or(
              orm.isNotNull(newsletterSubscriptions.spamReason),
              orm.isNotNull(newsletterSubscriptions.unsubscribedAt),
            ),
          ),
        )
        .returning();
      if (row) await queueNewsletterWelcome(tx, row);
      return row;
    });
    if (cleared) return { status: "subscribed", id: cleared.id, email: normalised };
  }
  return { status: "already_subscribed", email: normalised };
}
