import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import {
  fakeStripeState,
  type FakeRefund,
  type FakeSession,
  type RecordedRequest,
} from "./fake-stripe-state.ts";

/**
 * A small fake of the Stripe API on 127.0.0.1, for tests only. The real `stripe` SDK is pointed
 * at it (STRIPE_API_BASE → the SDK's host/port/protocol options). It implements:
 *
 *   POST /v1/checkout/sessions      create (form-encoded, Bearer key, Idempotency-Key honoured)
 *   GET  /v1/checkout/sessions/:id  retrieve
 *   POST /v1/checkout/sessions/:id/expire   expire an open session (400 if it is not open: a
 *                                   paid one stays paid); checkout.session.expired webhook sent
 *   GET  /pay/:id                   a hosted payment page with 'Pay' and 'Cancel'
 *   POST /pay/:id                   "pays": session complete + paid, the signed
 *                                   checkout.session.completed webhook is sent (when configured)
 *                                   and the browser is redirected (303) to success_url
 *   POST /v1/refunds                create a refund of a paid session's PaymentIntent (payment_intent,
 *                                   amount — default: what is left —, reason, metadata; never more than
 *                                   is left; Idempotency-Key honoured); refund.created webhook sent
 *   GET  /v1/refunds/:id            retrieve
 *   POST /__fake/fail-next-create?status=400   the next session creation or expiry fails (test control)
 *   POST /__fake/fail-refunds?status=503       refund creation fails until ?status= is empty
 *   POST /__fake/refund?payment_intent=pi_…&amount=1000   a refund made in Stripe's dashboard
 *   POST /__fake/fail-refund?id=re_…&status=failed        a refund fails (or is canceled) later
 *
 * Run standalone: `tsx tests/support/fake-stripe.ts --port 12111 [--webhook-url URL
 * --webhook-secret whsec_…]`; in-process: `startFakeStripe()`.
 */

export type { FakeRefund, FakeSession, RecordedRequest } from "./fake-stripe-state.ts";

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
  /** The next session creation or expiry answers with an API error of this HTTP status. */
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

/**
 * For server-module tests of the shop: `startFakeStripeForServerTests` with the shop served over
 * https behind a TLS-terminating proxy on loopback, and two staff addresses (`env` overrides).
 */
export function startFakeStripeForShopTests(env: Record<string, string> = {}): Promise<FakeStripe> {
  return startFakeStripeForServerTests({
    PUBLIC_URL: "https://shop.example.co.uk",
    TRUST_PROXY: "loopback", // https is served through a TLS-terminating proxy
    ADMIN_EMAILS: "sales@example.co.uk,ops@example.co.uk",
    ...env,
  });
}

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const host = options.host ?? "127.0.0.1";
  const state = fakeStripeState(options.webhook ?? null);
  const { controls, sessions, refunds, requests, idempotent } = state;
  const { event, deliverWebhook, pay, expire, createRefund, refundInDashboard, failRefund } = state;
  const { idempotencyCheck, createSession } = state;

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

  function noSuchSession(res: ServerResponse, id: string) {
    return stripeError(res, 404, {
      type: "invalid_request_error",
      code: "resource_missing",
      param: "session",
      message: `No such checkout.session: '${id}'`,
    });
  }

  /** The failure `failNextCreate` asked for, once. */
  function failNextRequest(res: ServerResponse) {
    const status = controls.failNext ?? 400;
    controls.failNext = null;
    return stripeError(res, status, { type: "api_error", message: "Fake failure" });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", controls.base);
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
        if (controls.failNext !== null) return failNextRequest(res);
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
        if (controls.refundFailure !== null) {
          return stripeError(res, controls.refundFailure, {
            type: "api_error",
            message: "Fake failure",
          });
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
        if (controls.refundWebhookFirst) await deliverWebhook("refund.created", created);
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
      const expiring = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
      if (req.method === "POST" && expiring) {
        const session = sessions.get(decodeURIComponent(expiring[1]!));
        if (!session) return noSuchSession(res, expiring[1]!);
        if (controls.failNext !== null) return failNextRequest(res);
        // Like Stripe: only an open session can be expired (a paid one stays paid).
        if (session.status !== "open") {
          return stripeError(res, 400, {
            type: "invalid_request_error",
            message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
          });
        }
        expire(session.id);
        void deliverWebhook("checkout.session.expired", session);
        return json(res, 200, session);
      }
      const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
      if (req.method === "GET" && match) {
        const session = sessions.get(decodeURIComponent(match[1]!));
        if (!session) return noSuchSession(res, match[1]!);
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
      controls.failNext = Number(url.searchParams.get("status") ?? 400);
      return json(res, 200, { failNext: controls.failNext });
    }
    if (req.method === "POST" && path === "/__fake/fail-refunds") {
      const status = url.searchParams.get("status");
      controls.refundFailure = status ? Number(status) : null;
      return json(res, 200, { refundFailure: controls.refundFailure });
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
  controls.base = `http://${host}:${port}`;

  return {
    url: controls.base,
    host,
    port,
    sessions,
    refunds,
    requests,
    pay,
    expire,
    event,
    failNextCreate: (status) => {
      controls.failNext = status;
    },
    failRefunds: (status) => {
      controls.refundFailure = status;
    },
    refundInDashboard,
    failRefund,
    deliverWebhooksTo: (to, deliveryOptions = {}) => {
      controls.webhook = to;
      controls.refundWebhookFirst = deliveryOptions.refundWebhookFirst ?? false;
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
