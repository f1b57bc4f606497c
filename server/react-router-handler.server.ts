/**
 * Express to React Router (in place of @react-router/express, whose handler reads the body with no
 * cap): a route reads the request body through `requestBody`, which stops at the route's cap and
 * answers 413 itself (server/request-limits.server.ts). Whatever the route then returns is dropped.
 */

import { writeReadableStreamToWritable } from "@react-router/node";
import type {
  Request as ExpressRequest,
  RequestHandler as ExpressHandler,
  Response as ExpressResponse,
} from "express";
import { RouterContextProvider, type RequestHandler } from "react-router";
import { requestScope } from "./log.server.ts";
import { requestBody } from "./request-limits.server.ts";

declare module "react-router" {
  // What the server hands every loader, action and middleware besides React Router's own context
  // values: React Router's documented way to keep a load context's fields with middleware on.
  interface RouterContextProvider {
    /** The client's address as Express sees it (honours Express's `trust proxy`). */
    clientIp?: string;
  }
}

/**
 * The context of one request (React Router's `context`): a RouterContextProvider, as route
 * middleware needs (decision 0026), carrying the client's address.
 */
export function requestContext(clientIp?: string): RouterContextProvider {
  const context = new RouterContextProvider();
  if (clientIp !== undefined) context.clientIp = clientIp;
  return context;
}

/** Seconds a client is asked to wait after the database could not answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * React Router's handler, answering 503 with Retry-After instead of a 500 when the route failed
 * because the database could not answer — a restart, a lost connection, a full disk
 * (`logFailure` in server/db/errors.server.ts notes it): the error page, or the form with its
 * message, tells the visitor to try again, and a load balancer or client may retry; nothing the
 * request meant to write was acknowledged (decision 0032). Such an answer is never cached, even
 * a page that only lost its menus.
 */
export function answeringUnavailableDatabase(handle: RequestHandler): RequestHandler {
  return async (request, context) => {
    const response = await handle(request, context);
    if (!requestScope.getStore()?.databaseUnavailable) return response;
    const headers = new Headers(response.headers);
    headers.set("Cache-Control", "no-store");
    if (response.status < 500)
      return new Response(response.body, {
        status: response.status,
        statusText: response.statusText,
        headers,
      });
    headers.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
    return new Response(response.body, {
      status: 503,
      statusText: "Service Unavailable",
      headers,
    });
  };
}

/** Reads the body through the route's cap; whatever the route then returns is dropped. */
export function reactRouterHandler(
  handle: RequestHandler,
  getLoadContext: (req: ExpressRequest) => RouterContextProvider,
): ExpressHandler {
  return async (req, res, next) => {
    let refused = false;
    let request: Request;
    try {
      request = webRequest(req, res, () => (refused = true));
    } catch {
      res.status(400).type("text/plain").send("Bad request.");
      return;
    }
    try {
      const response = await handle(request, getLoadContext(req));
      await send(res, response);
    } catch (error) {
      // A route that failed because its body was refused: the client has its 413.
      if (!refused) next(error);
    }
  };
}

/**
 * POSTs whose only authority is a signed token in their URL, never a cookie: a cross-site page
 * cannot forge one without the token, so their Origin is not checked (decision 0021).
 */
const TOKEN_AUTHORISED_POSTS = new Set(["/newsletter/unsubscribe", "/newsletter/unsubscribe.data"]);

function webRequest(req: ExpressRequest, res: ExpressResponse, onRefused: () => void): Request {
  // Express's view of the request: behind a trusted proxy (`trust proxy`), its scheme and host
  // come from X-Forwarded-Proto and X-Forwarded-Host. React Router compares this origin with the
  // browser's Origin header before running an action. A Host that makes no URL throws here.
  const url = new URL(`${req.protocol}://${req.host ?? "localhost"}${req.originalUrl}`);

  // Aborted when the client goes away before the answer is sent, or when the body is refused:
  // either way the route's outcome is not wanted (and its errors are not logged).
  let controller: AbortController | null = new AbortController();
  const abort = () => controller?.abort();
  res.on("finish", () => (controller = null));
  res.on("close", abort);

  const headers = new Headers();
  const tokenAuthorised = TOKEN_AUTHORISED_POSTS.has(req.path.toLowerCase());
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    // Mail clients post one-click unsubscribes from anywhere (RFC 8058): the signed token in
    // the URL is the authority there, so React Router's Origin check is not applied.
    if (tokenAuthorised && name === "origin") continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers,
    signal: controller.signal,
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = requestBody(req, res, () => {
      onRefused();
      abort();
    });
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

async function send(res: ExpressResponse, response: Response) {
  // Answered already (a refused body) or the client is gone.
  if (res.headersSent || res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) res.append(name, value);
  // React Router's own 405 (a POST to a page without an action) names what the page takes.
  if (response.status === 405 && !response.headers.has("Allow"))
    res.setHeader("Allow", "GET, HEAD");
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
