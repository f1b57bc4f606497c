import { useLocation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { LIMITS, newsletterSchema, type FormResult } from "#app/lib/inquiries/schemas.ts";
import {
  CONSENT_PAGE_FIELD,
  NEWSLETTER_CONSENT_TEXT,
  type NewsletterConsentPage,
} from "#app/lib/newsletter/consent.ts";
import type { ToastInput } from "#app/lib/ui/toast.ts";
import { controlProps, fieldIds } from "./fields.tsx";
import { HiddenFormFields, useSubmitCycle } from "./form-parts.tsx";

/** The newsletter's toasts and result texts (docs/rules.md, Newsletter and consent). */
export const NEWSLETTER_MESSAGES = {
  subscribed: {
    title: "Successfully Subscribed!",
    description: "Thank you for subscribing to our newsletter",
  },
  duplicate: {
    title: "Already Subscribed",
    description: "This email is already subscribed to our newsletter",
  },
  failed: {
    title: "Subscription Failed",
    description: "There was an error subscribing to our newsletter. Please try again.",
  },
  required: { title: "Email Required", description: "Please enter your email address" },
  invalid: { title: "Invalid Email", description: "Please enter a valid email address" },
} as const;

export const RETURN_TO_FIELD = "return_to";

/**
 * The part of /newsletter that shows a post's answer. Every newsletter form posts to
 * `/newsletter#` this, so without JavaScript the answer page opens on it.
 */
export const NEWSLETTER_ANSWER_ID = "newsletter-answer";

/** The toast (or result page text) for a newsletter answer. */
export function newsletterMessage(result: FormResult | undefined): ToastInput {
  if (!result) return NEWSLETTER_MESSAGES.failed;
  if (result.ok) return NEWSLETTER_MESSAGES.subscribed;
  if (result.reason === "duplicate") return NEWSLETTER_MESSAGES.duplicate;
  if (result.reason === "invalid") {
    return result.fieldErrors.email === NEWSLETTER_MESSAGES.required.description
      ? NEWSLETTER_MESSAGES.required
      : result.fieldErrors.email
        ? { title: NEWSLETTER_MESSAGES.invalid.title, description: result.fieldErrors.email }
        : NEWSLETTER_MESSAGES.failed;
  }
  if (result.reason === "rate_limited") {
    return { title: NEWSLETTER_MESSAGES.failed.title, description: result.message };
  }
  return NEWSLETTER_MESSAGES.failed;
}

/**
 * Footer 'Stay Updated'. Posts to /newsletter: with JavaScript through a fetcher (toast, field
 * cleared on success), without it as a normal POST that shows a small result page, opened at
 * its answer.
 */
export function NewsletterForm({
  id = "newsletter-form",
  consentPage = "footer",
  label = "Newsletter sign-up",
}: {
  id?: string;
  /** The form's accessible name: two forms on one page (the footer's and /newsletter's) need two. */
  label?: string;
  /** Which form this is, stored with the consent. */
  consentPage?: NewsletterConsentPage;
}) {
  const location = useLocation();
  const cycle = useSubmitCycle({
    form: "newsletter",
    formId: id,
    schema: newsletterSchema,
    successToast: () => NEWSLETTER_MESSAGES.subscribed,
    failureToast: (result) => newsletterMessage(result),
    invalidToast: (errors) =>
      errors.email === NEWSLETTER_MESSAGES.required.description
        ? NEWSLETTER_MESSAGES.required
        : { title: NEWSLETTER_MESSAGES.invalid.title, description: errors.email ?? "" },
  });
  const { errors, busy } = cycle;
  const { errorId } = fieldIds(id, "email");
  return (
    <cycle.fetcher.Form
      key={cycle.version}
      ref={cycle.formRef}
      id={id}
      method="post"
      action={`/newsletter#${NEWSLETTER_ANSWER_ID}`}
      noValidate
      onSubmit={cycle.onSubmit}
      onChange={cycle.onEdit}
      className="relative"
      aria-label={label}
    >
      <HiddenFormFields form="newsletter" formId={id} />
      <input type="hidden" name={RETURN_TO_FIELD} value={location.pathname + location.search} />
      <input type="hidden" name={CONSENT_PAGE_FIELD} value={consentPage} />
      <fieldset disabled={busy} className="grid gap-2">
        <div className="flex gap-2">
          <label htmlFor={`${id}-email`} className="sr-only">
            Email address
          </label>
          <Input
            {...controlProps(id, "email", errors)}
            type="email"
            autoComplete="email"
            placeholder="Enter your email"
            required
            maxLength={LIMITS.email}
          />
          <Button type="submit" className="shrink-0" aria-describedby={`${id}-consent`}>
            {busy ? "Subscribing..." : "Subscribe"}
          </Button>
        </div>
        <p id={`${id}-consent`} className="text-xs text-muted-foreground">
          {NEWSLETTER_CONSENT_TEXT}
        </p>
        {errors.email ? (
          <p id={errorId} role="alert" className="text-sm text-destructive">
            {errors.email}
          </p>
        ) : null}
      </fieldset>
    </cycle.fetcher.Form>
  );
}
