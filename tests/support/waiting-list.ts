import { and, eq } from "drizzle-orm";
import type { ActionFunctionArgs } from "react-router";
import { expect } from "vitest";
import type { FormResult } from "#app/lib/inquiries/schemas.ts";
import { db } from "#server/db/client.server.ts";
import { emailOutbox, waitingListEntries } from "#server/db/schema.ts";
import { waitingListAction } from "#server/forms/waiting-list-action.server.ts";
import { formRequest, freshIp } from "#tests/support/forms.ts";
import { submitCheckout } from "#server/payments/checkout.server.ts";
import { checkoutForm, datedBookingFields } from "#tests/support/orders.ts";

/**
 * Waiting lists in server tests: the fields of a join request as the waiting list form posts
 * them, the form posted, a booking by invoice through the checkout (with an offer's link when
 * given) to fill a date or claim an offer, and the entries and e-mails that follow.
 */

/** The waiting list form's fields for `email` wanting `places` on `dateId`, plus `extra`. */
export function joinFields(
  dateId: string,
  email: string,
  places = 1,
  extra: Record<string, string> = {},
) {
  return {
    form: "waiting_list",
    form_id: "waiting-list-form",
    courseDateId: dateId,
    first_name: "Wendy",
    last_name: email.split("@")[0]!,
    email,
    organisation: "Acme Counter Fraud",
    places: String(places),
    consent: "on",
    ...extra,
  };
}

/** Books `places` by invoice as buyer `n` (with an offer's token when given): the outcome. */
export async function book(slug: string, dateId: string, n: number, places = 1, offer?: string) {
  const outcome = await submitCheckout(
    slug,
    checkoutForm({
      intent: "invoice",
      ...datedBookingFields(n, dateId, places),
      ...(offer ? { waiting_list_offer: offer } : {}),
    }),
    `client-${n}`,
  );
  return outcome;
}

/** Posts the waiting list form of `slug` from client address `ip`; the status and answer. */
export async function post(slug: string, fields: Record<string, string>, ip = freshIp()) {
  const result = (await waitingListAction({
    request: formRequest(fields, { path: `/courses/${slug}/waiting-list` }),
    params: { slug },
    context: { clientIp: ip },
  } as unknown as ActionFunctionArgs)) as { data: FormResult; init?: ResponseInit | null };
  return { status: result.init?.status ?? 200, body: result.data };
}

/** Joins the list of `dateId` for `places`, expecting it accepted. */
export async function join(slug: string, dateId: string, email: string, places = 1) {
  const answer = await post(slug, joinFields(dateId, email, places));
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

/** Books `places` on `dateId` by invoice, expecting it booked; the order's id. */
export async function bookOk(slug: string, dateId: string, n: number, places = 1) {
  const outcome = await book(slug, dateId, n, places);
  if (outcome.kind !== "invoice") throw new Error(`not booked: ${JSON.stringify(outcome)}`);
  return outcome.orderId;
}

/** The waiting list entry of `email`. */
export async function entryOf(email: string) {
  const [entry] = await db()
    .select()
    .from(waitingListEntries)
    .where(eq(waitingListEntries.email, email));
  return entry!;
}

/** The e-mails of `kind` queued to `email`. */
export async function mailsTo(email: string, kind: string) {
  return db()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, email), eq(emailOutbox.kind, kind)));
}
