import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import Stripe from "stripe";

/**
 * The fake Stripe API's state and its operations, apart from the HTTP server that answers with
 * them (fake-stripe.ts): sessions, refunds, idempotency keys, the recorded requests, and the
 * signed webhooks it sends.
 */

export interface FakeSession {
  id: string;
  object: "checkout.session";
  mode: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid" | "no_payment_required";
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  expires_at: number;
  created: number;
  livemode: false;
  payment_intent: string | null;
  url: string | null;
  line_items: { name: string; unit_amount: number; currency: string; quantity: number }[];
}

/** A refund as Stripe's API returns it (the fields the site reads, and a few more). */
export interface FakeRefund {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string;
  status: "pending" | "requires_action" | "succeeded" | "failed" | "canceled";
  reason: "duplicate" | "fraudulent" | "requested_by_customer" | null;
  metadata: Record<string, string>;
  created: number;
  failure_reason?: string;
  balance_transaction: string | null;
  receipt_number: string | null;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  /** The form body, decoded into nested objects/arrays (Stripe's bracket notation). */
  params: Record<string, unknown>;
}

export const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;

/** The switches a test (or the control endpoints) sets, and where the fake is reachable. */
export interface FakeStripeControls {
  webhook: { url: string; secret: string } | null;
  refundWebhookFirst: boolean;
  failNext: number | null;
  refundFailure: number | null;
  base: string;
}

export type RefundRefusal = { status: number; error: Record<string, unknown> };

export function fakeStripeState(webhook: { url: string; secret: string } | null) {
  const controls: FakeStripeControls = {
    webhook,
    refundWebhookFirst: false,
    failNext: null,
    refundFailure: null,
    base: "",
  };
  const sessions = new Map<string, FakeSession>();
  const refunds = new Map<string, FakeRefund>();
  const requests: RecordedRequest[] = [];
  // Like Stripe: a key names one request (its endpoint and parameters) and its first answer.
  const idempotent = new Map<string, { path: string; body: string; result: unknown }>();

  function event(type: string, object: FakeSession | FakeRefund, eventId = id("evt")) {
    return {
      id: eventId,
      object: "event",
      api_version: Stripe.API_VERSION,
      created: Math.floor(Date.now() / 1000),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: { ...object } },
    };
  }

  async function deliverWebhook(type: string, object: FakeSession | FakeRefund) {
    const webhook = controls.webhook;
    if (!webhook) return;
    const payload = JSON.stringify(event(type, object));
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: webhook.secret,
    });
    try {
      await fetch(webhook.url, {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": signature },
        body: payload,
      });
    } catch (error) {
      console.error(`fake-stripe: webhook delivery failed: ${String(error)}`);
    }
  }

  function pay(sessionId: string): FakeSession {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no such session ${sessionId}`);
    if (session.status === "open") {
      session.status = "complete";
      session.payment_status = "paid";
      session.payment_intent = id("pi");
      session.url = null;
    }
    return session;
  }

  function expire(sessionId: string): FakeSession {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no such session ${sessionId}`);
    if (session.status === "open") {
      session.status = "expired";
      session.url = null;
    }
    return session;
  }

  /** The paid session of a PaymentIntent, and what is left of it to refund. */
  function refundable(paymentIntent: string): { session: FakeSession; left: number } | null {
    const session = [...sessions.values()].find((s) => s.payment_intent === paymentIntent);
    if (!session || session.payment_status !== "paid") return null;
    const refunded = [...refunds.values()]
      .filter((r) => r.payment_intent === paymentIntent)
      .filter((r) => r.status !== "failed" && r.status !== "canceled")
      .reduce((sum, r) => sum + r.amount, 0);
    return { session, left: session.amount_total - refunded };
  }

  function createRefund(params: Record<string, unknown>): FakeRefund | RefundRefusal {
    const invalid = (message: string, extra: Record<string, unknown> = {}): RefundRefusal => ({
      status: 400,
      error: { type: "invalid_request_error", message, ...extra },
    });
    const paymentIntent = params.payment_intent;
    if (typeof paymentIntent !== "string" || paymentIntent === "") {
      return invalid("You must pass either a charge or a payment_intent.");
    }
    const found = refundable(paymentIntent);
    if (!found) {
      return {
        status: 404,
        error: {
          type: "invalid_request_error",
          code: "resource_missing",
          param: "payment_intent",
          message: `No such payment_intent: '${paymentIntent}'`,
        },
      };
    }
    const amount = params.amount === undefined ? found.left : Number(params.amount);
    if (!Number.isInteger(amount) || amount <= 0) {
      return invalid("Invalid positive integer", { param: "amount" });
    }
    if (found.left <= 0) {
      return invalid(`Charge for PaymentIntent ${paymentIntent} has already been refunded.`, {
        code: "charge_already_refunded",
      });
    }
    if (amount > found.left) {
      return invalid(
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${found.left})`,
        { code: "amount_too_large", param: "amount" },
      );
    }
    const reason = params.reason;
    if (
      reason !== undefined &&
      reason !== "duplicate" &&
      reason !== "fraudulent" &&
      reason !== "requested_by_customer"
    ) {
      return invalid("Invalid reason", { param: "reason" });
    }
    const refund: FakeRefund = {
      id: id("re"),
      object: "refund",
      amount,
      currency: found.session.currency,
      payment_intent: paymentIntent,
      charge: `ch_${paymentIntent.slice(3)}`,
      // Card refunds succeed at once in test mode.
      status: "succeeded",
      reason: reason ?? null,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      created: Math.floor(Date.now() / 1000),
      balance_transaction: id("txn"),
      receipt_number: null,
    };
    refunds.set(refund.id, refund);
    return refund;
  }

  async function refundInDashboard(
    paymentIntent: string,
    refundOptions: { amount?: number; reason?: FakeRefund["reason"] } = {},
  ): Promise<FakeRefund> {
    const created = createRefund({
      payment_intent: paymentIntent,
      ...(refundOptions.amount !== undefined ? { amount: String(refundOptions.amount) } : {}),
      ...(refundOptions.reason ? { reason: refundOptions.reason } : {}),
    });
    if ("error" in created) throw new Error(String(created.error.message));
    await deliverWebhook("refund.created", created);
    return created;
  }

  async function failRefund(
    refundId: string,
    status: "failed" | "canceled" = "failed",
  ): Promise<FakeRefund> {
    const refund = refunds.get(refundId);
    if (!refund) throw new Error(`no such refund ${refundId}`);
    refund.status = status;
    if (status === "failed") refund.failure_reason = "expired_or_canceled_card";
    await deliverWebhook(status === "failed" ? "refund.failed" : "refund.updated", refund);
    return refund;
  }

  /** The Idempotency-Key check of a create request: a replay, a refusal, or go ahead. */
  function idempotencyCheck(
    key: string | string[] | undefined,
    path: string,
    body: string,
  ): { replay: unknown } | { refuse: true } | null {
    if (typeof key !== "string") return null;
    const seen = idempotent.get(key);
    if (!seen) return null;
    if (seen.path !== path || seen.body !== body) return { refuse: true };
    return { replay: seen.result };
  }

  function createSession(params: Record<string, unknown>): FakeSession | string {
    // The posted shape, as Stripe's API reads it; anything else fails the checks below.
    type PostedLineItem = {
      quantity?: unknown;
      price_data?: { unit_amount?: unknown; currency?: unknown; product_data?: { name?: unknown } };
    };
    const lineItems = (params.line_items as PostedLineItem[] | undefined) ?? [];
    if (params.mode !== "payment") return "mode must be payment";
    if (typeof params.success_url !== "string" || typeof params.cancel_url !== "string") {
      return "success_url and cancel_url are required";
    }
    if (lineItems.length === 0) return "line_items is required";
    const items = lineItems.map((item) => ({
      name: String(item.price_data?.product_data?.name ?? ""),
      unit_amount: Number(item.price_data?.unit_amount),
      currency: String(item.price_data?.currency ?? ""),
      quantity: Number(item.quantity),
    }));
    if (items.some((i) => !Number.isInteger(i.unit_amount) || !Number.isInteger(i.quantity))) {
      return "line item amounts and quantities must be integers";
    }
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = params.expires_at ? Number(params.expires_at) : now + 24 * 3600;
    // Stripe's own bounds: at least 30 minutes and at most 24 hours ahead.
    if (expiresAt < now + 30 * 60 - 60 || expiresAt > now + 24 * 3600 + 60) {
      return "expires_at must be between 30 minutes and 24 hours from now";
    }
    const total = items.reduce((sum, i) => sum + i.unit_amount * i.quantity, 0);
    const sessionId = id("cs");
    const session: FakeSession = {
      id: sessionId,
      object: "checkout.session",
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      amount_subtotal: total,
      amount_total: total,
      currency: items[0]!.currency,
      customer_email: typeof params.customer_email === "string" ? params.customer_email : null,
      client_reference_id:
        typeof params.client_reference_id === "string" ? params.client_reference_id : null,
      metadata: (params.metadata as Record<string, string>) ?? {},
      success_url: params.success_url,
      cancel_url: params.cancel_url,
      expires_at: expiresAt,
      created: now,
      livemode: false,
      payment_intent: null,
      url: `${controls.base}/pay/${sessionId}`,
      line_items: items,
    };
    sessions.set(sessionId, session);
    return session;
  }

  return {
    controls,
    sessions,
    refunds,
    requests,
    idempotent,
    event,
    deliverWebhook,
    pay,
    expire,
    createRefund,
    refundInDashboard,
    failRefund,
    idempotencyCheck,
    createSession,
  };
}
