import { describe, expect, it } from "vitest";
import { parseForm } from "#app/lib/forms.ts";
import {
  newRefundNonce,
  penceToPounds,
  poundsToPence,
  REFUND_MESSAGES,
  refundFormSchemaFor,
  refundReasonText,
} from "#app/lib/orders/refunds.ts";

describe("the refund form's amount: pounds as typed → whole pence, without floats", () => {
  it.each([
    ["12.50", 1250],
    ["12.5", 1250],
    ["12", 1200],
    ["12.", 1200],
    [".5", 50],
    ["0.01", 1],
    ["£1,450.00", 145000],
    ["  £ 7.05 ", 705],
    ["1450", 145000],
    // 0.29 * 100 is 28.999999999999996 as a float: read as digits, it is 29.
    ["0.29", 29],
    ["9999999.99", 999999999],
    ["0", 0],
  ])("%j → %i", (typed, pence) => {
    expect(poundsToPence(typed)).toBe(pence);
  });

  it.each(["", ".", "12.505", "-1", "1e3", "12,50", "1,45", "abc", "£", "12.5.0", "10000000"])(
    "%j is not an amount",
    (typed) => {
      expect(poundsToPence(typed)).toBeNull();
    },
  );

  it("pence back to the field's text", () => {
    expect([0, 1, 50, 1250, 145000].map(penceToPounds)).toEqual([
      "0.00",
      "0.01",
      "0.50",
      "12.50",
      "1450.00",
    ]);
  });
});

describe("the refund form's schema", () => {
  const orderId = "6f1c6b3e-2a4d-4c8e-9b7a-1d2e3f4a5b6c";
  const post = (fields: Record<string, string>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return parseForm(form, refundFormSchemaFor(5000));
  };
  const base = { intent: "refund", orderId, reason: "duplicate", nonce: newRefundNonce() };

  it("reads the amount in pence, the reason, the note (empty → null) and the nonce", () => {
    expect(post({ ...base, amount: "12.50", note: "  " })).toEqual({
      ok: true,
      value: { ...base, amountCents: 1250, note: null },
    });
    expect(post({ ...base, amount: "50", note: "Paid twice" })).toMatchObject({
      ok: true,
      value: { amountCents: 5000, note: "Paid twice" },
    });
  });

  it("says what is wrong, per field", () => {
    expect(post({ ...base, amount: "" })).toEqual({
      ok: false,
      fieldErrors: { amount: REFUND_MESSAGES.amountMissing },
    });
    expect(post({ ...base, amount: "0.00" })).toMatchObject({
      fieldErrors: { amount: REFUND_MESSAGES.amountZero },
    });
    expect(post({ ...base, amount: "50.01" })).toMatchObject({
      fieldErrors: { amount: "You can refund at most £50.00 on this order" },
    });
    // Every field's message at once: too much, and no reason.
    expect(post({ ...base, amount: "60", reason: "" })).toEqual({
      ok: false,
      fieldErrors: {
        amount: "You can refund at most £50.00 on this order",
        reason: REFUND_MESSAGES.reasonMissing,
      },
    });
    expect(post({ ...base, amount: "1", reason: "because" })).toMatchObject({
      fieldErrors: { reason: REFUND_MESSAGES.reasonMissing },
    });
    expect(post({ ...base, amount: "1", note: "x".repeat(501) })).toMatchObject({
      fieldErrors: { note: REFUND_MESSAGES.noteTooLong },
    });
    expect(post({ ...base, amount: "1", nonce: "short" })).toMatchObject({
      fieldErrors: { nonce: REFUND_MESSAGES.formUnreadable },
    });
  });

  it("nonces are fresh and fit the schema", () => {
    const a = newRefundNonce();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newRefundNonce()).not.toBe(a);
  });

  it("a refund's reason in words", () => {
    expect(refundReasonText("requested_by_customer", "Dates clash")).toBe(
      "Requested by the customer: Dates clash",
    );
    expect(refundReasonText(null, null)).toBe("Refunded in Stripe");
    expect(refundReasonText("expired_uncaptured_charge", null)).toBe("expired uncaptured charge");
  });
});
