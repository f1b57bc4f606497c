/**
 * What a newsletter form shows beside its button, stored word for word with each sign-up as the
 * record of consent (UK GDPR Art. 7): change the words here and new sign-ups record the new ones.
 */
export const NEWSLETTER_CONSENT_TEXT =
  "By subscribing you agree to receive occasional e-mails from NightWatch. Every e-mail has a one-click unsubscribe link.";

/** Where a sign-up's consent was given: which form, on which page. */
export const NEWSLETTER_CONSENT_PAGES = ["footer", "newsletter_page"] as const;
export type NewsletterConsentPage = (typeof NEWSLETTER_CONSENT_PAGES)[number];

/** The hidden field that tells the server which form was used. */
export const CONSENT_PAGE_FIELD = "consent_page";

/** Anything else (an old page, a hand-made post) counts as the footer, the form on every page. */
export function consentPageOf(value: unknown): NewsletterConsentPage {
  return NEWSLETTER_CONSENT_PAGES.find((p) => p === value) ?? "footer";
}
