import { describe, expect, it } from "vitest";
import {
  MESSAGES,
  readCheckoutForm,
  resizeStudents,
  validateCheckout,
  type CheckoutValues,
} from "#app/lib/checkout.ts";
import {
  ORDER_STATUSES,
  PAYMENT_METHODS,
  orderReference,
  type OrderStatus,
  type PaymentMethod,
} from "#app/lib/orders/orders.ts";
import { parseOrderFilters } from "#app/lib/orders/order-filters.ts";
import { isPurchasable, orderTotal, priceToPence } from "#server/orders/pricing.server.ts";
import { BILLING_FORM } from "#tests/support/checkout.ts";
import {
  ORDER_TRANSITIONS,
  adminActions,
  canTransition,
  type TransitionSource,
} from "#server/orders/state-machine.server.ts";
import { statusForEvent } from "#server/payments/stripe-webhook.server.ts";

describe("pricing from the database's decimal strings", () => {
  it.each([
    ["1450.00", 145000],
    ["295.00", 29500],
    ["0.29", 29],
    ["0.30", 30],
    ["1450.10", 145010],
    ["19.99", 1999],
    ["0.07", 7],
    ["1.1", 110],
    ["12", 1200],
    ["100000.01", 10000001],
    ["21474836.47", 2147483647],
    ["  5.50 ", 550],
  ])("%s → %i pence, exactly", (price, pence) => {
    expect(priceToPence(price)).toBe(pence);
  });

  it("is exact where binary floats are not (0.29 × 100 = 28.999…)", () => {
    expect(0.29 * 100).not.toBe(29);
    expect(priceToPence("0.29")).toBe(29);
    expect(priceToPence("4.35")).toBe(435); // 4.35 * 100 = 434.99999999999994
    expect(priceToPence("1.005")).toBeNull(); // three decimals: not a stored price
  });

  it.each([null, undefined, "", "abc", "-5.00", "1e3", "12.345", "1,450.00", "£5", "21474836.48"])(
    "%s has no usable price",
    (price) => {
      expect(priceToPence(price as string | null | undefined)).toBeNull();
    },
  );

  it("total = unit × quantity for 1–10 places, else refused", () => {
    expect(orderTotal(29500, 1)).toBe(29500);
    expect(orderTotal(29500, 10)).toBe(295000);
    expect(orderTotal(1999, 3)).toBe(5997);
    expect(orderTotal(29500, 0)).toBeNull();
    expect(orderTotal(29500, 11)).toBeNull();
    expect(orderTotal(29500, 2.5)).toBeNull();
    expect(orderTotal(-1, 1)).toBeNull();
    // The total must fit the integer column.
    expect(orderTotal(2_147_483_647, 2)).toBeNull();
  });

  it("only published courses with a price above zero and no partner are for sale", () => {
    const own = { partnerId: null };
    expect(isPurchasable({ ...own, status: "published", price: "295.00" })).toBe(true);
    expect(isPurchasable({ ...own, status: "published", price: null })).toBe(false);
    expect(isPurchasable({ ...own, status: "published", price: "0.00" })).toBe(false);
    expect(isPurchasable({ ...own, status: "draft", price: "295.00" })).toBe(false);
    expect(isPurchasable({ ...own, status: "archived", price: "295.00" })).toBe(false);
    // A partner's course is bought through the partner's 'Buy Now', never here.
    const partnerId = "5f0c7a2e-58a4-4d56-9a3e-2f6f1f0f8a11";
    expect(isPurchasable({ partnerId, status: "published", price: "450.00" })).toBe(false);
  });
});

describe("the order state machine", () => {
  const SOURCES: TransitionSource[] = [
    "webhook",
    "success_page",
    "admin",
    "checkout",
    "move",
    "quote",
  ];
  // Every allowed (from, to, method, source); anything else must be refused.
  const ALLOWED = new Set([
    "pending→paid stripe webhook",
    "pending→paid stripe success_page",
    "pending→failed stripe webhook",
    "pending→failed stripe checkout",
    "pending→canceled stripe webhook",
    "pending→canceled stripe admin",
    "pending→invoiced invoice admin",
    // A quote accepted online (decision 0049).
    "pending→invoiced invoice quote",
    "pending→canceled invoice admin",
    "invoiced→paid invoice admin",
    "invoiced→canceled invoice admin",
    // A paid order moved to a dearer date owes the difference (decision 0046).
    "paid→invoiced invoice move",
    "paid→invoiced stripe move",
  ]);

  const cases: [OrderStatus, OrderStatus, PaymentMethod, TransitionSource][] = [];
  for (const from of ORDER_STATUSES)
    for (const to of ORDER_STATUSES)
      for (const method of PAYMENT_METHODS)
        for (const source of SOURCES) cases.push([from, to, method, source]);

  it(`covers all ${cases.length} combinations`, () => {
    expect(cases).toHaveLength(5 * 5 * 2 * 6);
  });

  it.each(cases)("%s → %s (%s order, by %s)", (from, to, method, source) => {
    const expected = ALLOWED.has(`${from}→${to} ${method} ${source}`);
    expect(canTransition({ status: from, paymentMethod: method }, to, source)).toBe(expected);
  });

  it("the table holds exactly the allowed transitions", () => {
    const listed = ORDER_TRANSITIONS.flatMap((rule) =>
      rule.methods.flatMap((m) => rule.sources.map((s) => `${rule.from}→${rule.to} ${m} ${s}`)),
    );
    expect(new Set(listed)).toEqual(ALLOWED);
    expect(listed).toHaveLength(ALLOWED.size);
  });

  it("failed and canceled are final for everyone; paid for all but a move", () => {
    for (const from of ["paid", "failed", "canceled"] as const)
      for (const to of ORDER_STATUSES)
        for (const method of PAYMENT_METHODS)
          for (const source of SOURCES) {
            const reopened = from === "paid" && to === "invoiced" && source === "move";
            expect(canTransition({ status: from, paymentMethod: method }, to, source)).toBe(
              reopened,
            );
          }
  });

  it("the admin's buttons are exactly what the machine allows them", () => {
    expect(adminActions({ status: "pending", paymentMethod: "invoice" })).toEqual([
      "invoiced",
      "canceled",
    ]);
    expect(adminActions({ status: "invoiced", paymentMethod: "invoice" })).toEqual([
      "paid",
      "canceled",
    ]);
    expect(adminActions({ status: "pending", paymentMethod: "stripe" })).toEqual(["canceled"]);
    for (const status of ["paid", "failed", "canceled"] as const)
      for (const paymentMethod of PAYMENT_METHODS)
        expect(adminActions({ status, paymentMethod })).toEqual([]);
  });
});

describe("Stripe events → order status", () => {
  const event = (type: string, payment_status = "paid") => ({
    type,
    data: { object: { payment_status } },
  });
  it("maps the four Checkout events", () => {
    expect(statusForEvent(event("checkout.session.completed"))).toBe("paid");
    expect(statusForEvent(event("checkout.session.completed", "unpaid"))).toBeNull();
    expect(statusForEvent(event("checkout.session.async_payment_succeeded"))).toBe("paid");
    expect(statusForEvent(event("checkout.session.async_payment_failed"))).toBe("failed");
    expect(statusForEvent(event("checkout.session.expired"))).toBe("canceled");
    expect(statusForEvent(event("payment_intent.succeeded"))).toBeNull();
  });
});

describe("checkout form rules", () => {
  function form(fields: Record<string, string>) {
    const data = new FormData();
    for (const [k, v] of Object.entries(fields)) data.append(k, v);
    return data;
  }
  const billing = {
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ADA@example.com ",
    ...BILLING_FORM,
  };

  it("billing first name, last name and email are required", () => {
    for (const missing of ["firstName", "lastName", "email"]) {
      const { values } = readCheckoutForm(form({ ...billing, [missing]: "  " }));
      expect(validateCheckout(values)).toEqual(MESSAGES.missingBilling);
    }
    const { values } = readCheckoutForm(form(billing));
    expect(values.buyer.email).toBe("ada@example.com");
    expect(validateCheckout(values)).toBeNull();
  });

  it("'Missing Information' wording is the spec's", () => {
    expect(MESSAGES.missingBilling).toEqual({
      title: "Missing Information",
      description: "Please fill in all required billing information",
    });
    expect(MESSAGES.missingStudent(2)).toEqual({
      title: "Missing Student Information",
      description: "Please fill in all details for student 2",
    });
    expect(MESSAGES.paymentError).toEqual({
      title: "Payment Error",
      description: "There was an error processing your request. Please try again.",
    });
    expect(MESSAGES.invoiceRequested).toEqual({
      title: "Invoice Requested",
      description: "Your booking has been submitted. We'll send you an invoice shortly.",
    });
  });

  it("self: one place, no students, whatever else is posted", () => {
    const { values } = readCheckoutForm(
      form({ ...billing, studentMode: "self", quantity: "7", "students[0].firstName": "X" }),
    );
    expect(values.quantity).toBe(1);
    expect(values.students).toEqual([]);
  });

  it("someone else: each student needs every detail, reported by number", () => {
    const student = (i: number, first = "S", last = "T", email = `s${i}@example.com`) => ({
      [`students[${i}].firstName`]: first,
      [`students[${i}].lastName`]: last,
      [`students[${i}].email`]: email,
    });
    const ok = readCheckoutForm(
      form({ ...billing, studentMode: "others", quantity: "2", ...student(0), ...student(1) }),
    );
    expect(validateCheckout(ok.values)).toBeNull();
    const second = readCheckoutForm(
      form({
        ...billing,
        studentMode: "others",
        quantity: "2",
        ...student(0),
        ...student(1, "S", ""),
      }),
    );
    expect(validateCheckout(second.values)).toEqual(MESSAGES.missingStudent(2));
    const absent = readCheckoutForm(
      form({ ...billing, studentMode: "others", quantity: "3", ...student(0) }),
    );
    expect(validateCheckout(absent.values)).toEqual(MESSAGES.missingStudent(2));
  });

  it("with 'name later' ticked, a wholly blank student is a name to follow; a half-filled one is not", () => {
    const student = (i: number, first = "S", last = "T") => ({
      [`students[${i}].firstName`]: first,
      [`students[${i}].lastName`]: last,
      [`students[${i}].email`]: `s${i}@example.com`,
    });
    const later = (extra: Record<string, string>) =>
      readCheckoutForm(
        form({ ...billing, studentMode: "others", quantity: "3", namesLater: "on", ...extra }),
      ).values;
    const blanks = later({ ...student(1) });
    expect(blanks.namesLater).toBe(true);
    expect(validateCheckout(blanks)).toBeNull();
    expect(validateCheckout(later({ ...student(0), ...student(2, "S", "") }))).toEqual(
      MESSAGES.missingStudent(3),
    );
    // Booking for oneself, the box means nothing.
    const self = readCheckoutForm(form({ ...billing, studentMode: "self", namesLater: "on" }));
    expect(self.values.namesLater).toBe(false);
  });

  it("quantity outside 1–10 is refused", () => {
    for (const quantity of ["0", "11", "-1", "abc", ""]) {
      const { values } = readCheckoutForm(form({ ...billing, studentMode: "others", quantity }));
      expect(validateCheckout(values)).toEqual(MESSAGES.invalidQuantity);
    }
  });

  it("resizing keeps what was typed and fills blanks", () => {
    const typed = [{ firstName: "A", lastName: "B", email: "a@b.c" }];
    expect(resizeStudents(typed, 3)).toHaveLength(3);
    expect(resizeStudents(typed, 3)[0]).toEqual(typed[0]);
    expect(resizeStudents(typed, 0)).toHaveLength(1);
    expect(resizeStudents(typed, 99)).toHaveLength(10);
  });

  it("a price posted by the browser is not even read", () => {
    const { values } = readCheckoutForm(
      form({ ...billing, price: "0.01", unit_price_cents: "1", total: "1" }),
    );
    expect(Object.keys(values).sort()).toEqual([
      "billing",
      "buyer",
      "namesLater",
      "quantity",
      "studentMode",
      "students",
      "termsAccepted",
    ]);
    const check: CheckoutValues = values;
    expect(check).not.toHaveProperty("price");
  });
});

describe("admin helpers", () => {
  it("reads filters from the URL, ignoring unknown values", () => {
    expect(
      parseOrderFilters(new URLSearchParams("q= ada &status=paid&method=invoice&page=3")),
    ).toEqual({
      search: "ada",
      status: "paid",
      method: "invoice",
      dates: "created",
      from: "",
      to: "",
      page: 3,
    });
    expect(parseOrderFilters(new URLSearchParams("status=bogus&method=cash&page=-2"))).toEqual({
      search: "",
      status: null,
      method: null,
      dates: "created",
      from: "",
      to: "",
      page: 1,
    });
  });

  it("order references are short and stable", () => {
    expect(orderReference("1a2b3c4d-0000-4000-8000-000000000000")).toBe("NW-1A2B3C4D");
  });
});
