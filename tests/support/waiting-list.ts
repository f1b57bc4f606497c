import { submitCheckout } from "#server/payments/checkout.server.ts";
import { checkoutForm } from "#tests/support/orders.ts";

/**
 * Waiting lists in server tests: the fields of a join request as the waiting list form posts
 * them, and a booking by invoice through the checkout (with an offer's link when given) to fill
 * a date or claim an offer.
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
      firstName: "Buyer",
      lastName: `Number${n}`,
      email: `buyer${n}@example.com`,
      courseDateId: dateId,
      ...(offer ? { waiting_list_offer: offer } : {}),
      ...(places === 1
        ? { studentMode: "self" }
        : {
            studentMode: "others",
            quantity: String(places),
            ...Object.fromEntries(
              Array.from({ length: places }, (_, i) => [
                [`students[${i}].firstName`, "Student"],
                [`students[${i}].lastName`, `${n}-${i}`],
                [`students[${i}].email`, `student${n}-${i}@example.com`],
              ]).flat(),
            ),
          }),
    }),
    `client-${n}`,
  );
  return outcome;
}
