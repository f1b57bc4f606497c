import type { CheckoutBilling } from "#app/lib/checkout.ts";

/**
 * A complete billing address, as the checkout's rules want it (decision 0015), for tests that place
 * orders: `BILLING` for `createOrder`'s values (with `termsAccepted: true`), `BILLING_FORM` for
 * a posted checkout form (the organisation is posted as `company`).
 */
export const BILLING: CheckoutBilling = {
  addressLine1: "12 Babbage Street",
  addressLine2: "",
  town: "London",
  postcode: "EC1A 1BB",
  country: "United Kingdom",
  poNumber: "",
  vatNumber: "",
};

export const BILLING_FORM: Record<string, string> = {
  company: "Analytical Engines Ltd",
  addressLine1: BILLING.addressLine1,
  town: BILLING.town,
  postcode: BILLING.postcode,
  country: BILLING.country,
  acceptTerms: "on",
};
