import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import Stripe from "stripe";

/**
 * A small fake of the Stripe API on 127.0.0.1, for tests only. The real `stripe` SDK is pointed
 * at it (STRIPE_API_BASE → the SDK's host/port/protocol options). It implements:
 *
 *   POST /v1/checkout/sessions      create (form-encoded, Bearer key, Idempotency-Key honoured)
 *   GET  /v1/checkout/sessions/:id  retrieve
 *   GET  /pay/:id                   a hosted payment page with 'Pay' and 'Cancel'
 *   POST /pay/:id                   "pays": session complete + paid, the signed
 *                                   checkout.session.completed webhook is sent (when configured)
 *                                   and the browser is redirected (303) to success_url
 *   POST /v1/refunds                create a refund of a paid session's PaymentIntent (payment_intent,
 *                                   amount — default: what is left —, reason, metadata; never more than
 *                                   is left; Idempotency-Key honoured); refund.created webhook sent
 *   GET  /v1/refunds/:id            retrieve
 *   POST /__fake/fail-next-create?status=400   the next session creation fails (test control)
 *   POST /__fake/fail-refunds?status=503       refund creation fails until ?status= is empty
 *   POST /__fake/refund?payment_intent=pi_…&amount=1000   a refund made in Stripe's dashboard
 *   POST /__fake/fail-refund?id=re_…&status=failed        a refund fails (or is canceled) later
 *
 * Run standalone: `tsx tests/support/fake-stripe.ts --port 12111 [--webhook-url URL
 * --webhook-secret whsec_…]`; in-process: `startFakeStripe()`.
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

export interface FakeStripeOptions {
  port?: number;
  host?: string;
  /** Where to deliver signed webhooks when a session is paid, and the signing secret. */
  webhook?: { url: string; secret: string };
}

export interface FakeStripe {
  url: string;
  host: string;
  port: number;
  sessions: Map<string, FakeSession>;
  refunds: Map<string, FakeRefund>;
  requests: RecordedRequest[];
  /** Marks a session paid (as the hosted page does) and returns it. */
  pay(sessionId: string): FakeSession;
  /** Marks a session expired and returns it. */
  expire(sessionId: string): FakeSession;
  /** A Stripe event wrapping a session or a refund (as a webhook delivers it). */
  event(type: string, object: FakeSession | FakeRefund, id?: string): Record<string, unknown>;
  /** The next create request answers with an API error of this HTTP status. */
  failNextCreate(status: number): void;
  /** Every refund creation answers with an API error of this HTTP status, until set to null. */
  failRefunds(status: number | null): void;
  /**
   * A refund made in Stripe's dashboard (no metadata from the site): recorded here, and its
   * refund.created webhook delivered (awaited) when webhooks are configured.
   */
  refundInDashboard(
    paymentIntent: string,
    options?: { amount?: number; reason?: FakeRefund["reason"] },
  ): Promise<FakeRefund>;
  /** A refund that fails (or is canceled) after it was made; refund.failed / refund.updated sent. */
  failRefund(refundId: string, status?: "failed" | "canceled"): Promise<FakeRefund>;
  /**
   * Where signed webhooks go from now on (null: nowhere), e.g. a test's own listener.
   * `refundWebhookFirst`: a created refund's webhook is delivered (and answered) before the API
   * answers, as happens with Stripe now and then.
   */
  deliverWebhooksTo(
    webhook: { url: string; secret: string } | null,
    options?: { refundWebhookFirst?: boolean },
  ): void;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;

/** `a[b][0][c]=x` → { a: { b: [ { c: 'x' } ] } }, as Stripe reads its form bodies. */
export function decodeStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const key: string | number = Array.isArray(node) ? Number(part) : part;
      const container = node as Record<string | number, unknown>;
      if (last) {
        container[key] = value;
        return;
      }
      if (container[key] === undefined) container[key] = /^\d+$/.test(parts[i + 1]!) ? [] : {};
      node = container[key] as Record<string, unknown> | unknown[];
    });
  }
  return root;
}

function stripeError(res: ServerResponse, status: number, error: Record<string, unknown>) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ error }));
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function idempotencyRefusal(res: ServerResponse) {
  stripeError(res, 400, {
    type: "idempotency_error",
    message:
      "Keys for idempotent requests can only be used with the same parameters they were first used with.",
  });
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The Stripe keys server-module tests give the site (see `startFakeStripeForServerTests`). */
export const TEST_STRIPE_KEYS = {
  secretKey: "sk_test_nightwatch",
  webhookSecret: "whsec_test_nightwatch",
} as const;

/**
 * For server-module tests: starts the fake on a free port and points the site's Stripe settings
 * (and any `env` given) at it. Call it inside `vi.hoisted`, so that the environment is set before
 * the configuration module is first imported:
 *
 *   const fake = await vi.hoisted(async () =>
 *     (await import("../support/fake-stripe.ts")).startFakeStripeForServerTests(),
 *   );
 *   afterAll(() => fake.close());
 */
export async function startFakeStripeForServerTests(
  env: Record<string, string> = {},
): Promise<FakeStripe> {
  const started = await startFakeStripe();
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: TEST_STRIPE_KEYS.secretKey,
    STRIPE_WEBHOOK_SECRET: TEST_STRIPE_KEYS.webhookSecret,
    STRIPE_API_BASE: started.url,
    ...env,
  });
  return started;
}

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const host = options.host ?? "127.0.0.1";
  let webhook = options.webhook ?? null;
  let refundWebhookFirst = false;
  const sessions = new Map<string, FakeSession>();
  const refunds = new Map<string, FakeRefund>();
  const requests: RecordedRequest[] = [];
  // Like Stripe: a key names one request (its endpoint and parameters) and its first answer.
  const idempotent = new Map<string, { path: string; body: string; result: unknown }>();
  let failNext: number | null = null;
  let refundFailure: number | null = null;
  let base = "";

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

  type RefundRefusal = { status: number; error: Record<string, unknown> };

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
      url: `${base}/pay/${sessionId}`,
      line_items: items,
    };
    sessions.set(sessionId, session);
    return session;
  }

  function hostedPage(session: FakeSession): string {
    const amount = new Intl.NumberFormat("en-GB", {
      style: "currency",
      currency: session.currency.toUpperCase(),
    }).format(session.amount_total / 100);
    const items = session.line_items
      .map((i) => `<li>${escapeHtml(i.name)} × ${i.quantity}</li>`)
      .join("");
    const body =
      session.status === "open"
        ? `<form method="post" action="/pay/${session.id}"><button type="submit">Pay ${escapeHtml(amount)}</button></form>
           <p><a href="${escapeHtml(session.cancel_url)}">Cancel and return</a></p>`
        : `<p>This checkout session is ${session.status}.</p>`;
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Stripe Checkout</title></head>
      <body><h1>Fake Stripe Checkout</h1><p>Test mode: no real card is charged.</p>
      <ul>${items}</ul><p>Total: <strong>${escapeHtml(amount)}</strong></p>
      <p>Email: ${escapeHtml(session.customer_email ?? "")}</p>${body}</body></html>`;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", base);
    const body = req.method === "POST" ? await readBody(req) : "";
    const path = url.pathname;

    if (path.startsWith("/v1/")) {
      const params = decodeStripeForm(body);
      requests.push({ method: req.method ?? "GET", path, headers: req.headers, params });
      const auth = req.headers.authorization ?? "";
      if (!/^Bearer (sk|rk)_test_\S+$/.test(auth)) {
        return stripeError(res, 401, {
          type: "invalid_request_error",
          message: "Invalid API Key provided",
        });
      }
      if (req.method === "POST" && path === "/v1/checkout/sessions") {
        if (failNext !== null) {
          const status = failNext;
          failNext = null;
          return stripeError(res, status, { type: "api_error", message: "Fake failure" });
        }
        const key = req.headers["idempotency-key"];
        const check = idempotencyCheck(key, path, body);
        if (check && "refuse" in check) return idempotencyRefusal(res);
        if (check) return json(res, 200, check.replay, { "idempotent-replayed": "true" });
        const created = createSession(params);
        if (typeof created === "string") {
          return stripeError(res, 400, { type: "invalid_request_error", message: created });
        }
        if (typeof key === "string") idempotent.set(key, { path, body, result: created });
        return json(res, 200, created);
      }
      if (req.method === "POST" && path === "/v1/refunds") {
        if (refundFailure !== null) {
          return stripeError(res, refundFailure, { type: "api_error", message: "Fake failure" });
        }
        const key = req.headers["idempotency-key"];
        const check = idempotencyCheck(key, path, body);
        if (check && "refuse" in check) return idempotencyRefusal(res);
        if (check) return json(res, 200, check.replay, { "idempotent-replayed": "true" });
        const created = createRefund(params);
        // A refused request is not kept under its key: corrected, it may be sent again.
        if ("error" in created) return stripeError(res, created.status, created.error);
        if (typeof key === "string") idempotent.set(key, { path, body, result: created });
        // Like Stripe: the webhook goes out while the API answers, so the two race.
        if (refundWebhookFirst) await deliverWebhook("refund.created", created);
        else void deliverWebhook("refund.created", created);
        return json(res, 200, created);
      }
      const refundMatch = /^\/v1\/refunds\/([^/]+)$/.exec(path);
      if (req.method === "GET" && refundMatch) {
        const refund = refunds.get(decodeURIComponent(refundMatch[1]!));
        if (!refund) {
          return stripeError(res, 404, {
            type: "invalid_request_error",
            code: "resource_missing",
            param: "id",
            message: `No such refund: '${refundMatch[1]}'`,
          });
        }
        return json(res, 200, refund);
      }
      const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
      if (req.method === "GET" && match) {
        const session = sessions.get(decodeURIComponent(match[1]!));
        if (!session) {
          return stripeError(res, 404, {
            type: "invalid_request_error",
            code: "resource_missing",
            param: "session",
            message: `No such checkout.session: '${match[1]}'`,
          });
        }
        return json(res, 200, session);
      }
      return stripeError(res, 404, {
        type: "invalid_request_error",
        message: `Unrecognized request URL (${req.method}: ${path}).`,
      });
    }

    const pageMatch = /^\/pay\/([^/]+)$/.exec(path);
    if (pageMatch) {
      const session = sessions.get(decodeURIComponent(pageMatch[1]!));
      if (!session) {
        res.writeHead(404, { "content-type": "text/plain" });
        return res.end("No such checkout session");
      }
      if (req.method === "POST") {
        const wasOpen = session.status === "open";
        pay(session.id);
        // Like Stripe: the webhook goes out while the browser returns, so the two race.
        if (wasOpen) void deliverWebhook("checkout.session.completed", session);
        res.writeHead(303, {
          location: session.success_url.replace("{CHECKOUT_SESSION_ID}", session.id),
        });
        return res.end();
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(hostedPage(session));
    }

    // Test control (for tests that run the fake in another process).
    if (req.method === "POST" && path === "/__fake/fail-next-create") {
      failNext = Number(url.searchParams.get("status") ?? 400);
      return json(res, 200, { failNext });
    }
    if (req.method === "POST" && path === "/__fake/fail-refunds") {
      const status = url.searchParams.get("status");
      refundFailure = status ? Number(status) : null;
      return json(res, 200, { refundFailure });
    }
    if (req.method === "POST" && path === "/__fake/refund") {
      const amount = url.searchParams.get("amount");
      try {
        const refund = await refundInDashboard(url.searchParams.get("payment_intent") ?? "", {
          ...(amount ? { amount: Number(amount) } : {}),
        });
        return json(res, 200, refund);
      } catch (error) {
        return json(res, 400, { error: String(error) });
      }
    }
    if (req.method === "POST" && path === "/__fake/fail-refund") {
      try {
        const status = url.searchParams.get("status") === "canceled" ? "canceled" : "failed";
        return json(res, 200, await failRefund(url.searchParams.get("id") ?? "", status));
      } catch (error) {
        return json(res, 400, { error: String(error) });
      }
    }
    if (path === "/") return json(res, 200, { fake: "stripe", sessions: sessions.size });
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("Not found");
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) stripeError(res, 500, { type: "api_error", message: String(error) });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  base = `http://${host}:${port}`;

  return {
    url: base,
    host,
    port,
    sessions,
    refunds,
    requests,
    pay,
    expire,
    event,
    failNextCreate: (status) => {
      failNext = status;
    },
    failRefunds: (status) => {
      refundFailure = status;
    },
    refundInDashboard,
    failRefund,
    deliverWebhooksTo: (to, deliveryOptions = {}) => {
      webhook = to;
      refundWebhookFirst = deliveryOptions.refundWebhookFirst ?? false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Standalone: `tsx tests/support/fake-stripe.ts --port 12111 --webhook-url … --webhook-secret …`
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const webhookUrl = arg("webhook-url");
  const webhookSecret = arg("webhook-secret");
  const fake = await startFakeStripe({
    port: Number(arg("port") ?? 12111),
    webhook: webhookUrl && webhookSecret ? { url: webhookUrl, secret: webhookSecret } : undefined,
  });
  console.log(`fake Stripe listening on ${fake.url}`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
