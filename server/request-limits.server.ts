import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Request as ExpressRequest, RequestHandler } from "express";
import { MAX_FORM_BYTES } from "./forms/form-post.server.ts";
import { log } from "./log.server.ts";
import { FORM_BODY_LIMIT } from "./uploads.server.ts";

/**
 * What a client may send, checked before any page, form or API sees the request:
 * - methods: GET, HEAD and POST (nothing on the site takes another); anything else is 405 with
 *   `Allow`;
 * - URLs: a path whose percent-encoding is not UTF-8, or a NUL byte (%00) anywhere, is 400;
 * - bodies: each route has a cap (`bodyLimit`). A declared Content-Length over it is refused
 *   unread; a body without one (chunked) is counted as it is read (`requestBody`) and refused as
 *   soon as it passes the cap. Nothing ever holds more than the cap of one request in memory.
 *
 * - time and connections (`SERVER_TIMEOUTS`, `capConnectionsPerClient`): a request must arrive
 *   whole, body included, within REQUEST_DEADLINE_MS, so a client sending slowly holds nothing
 *   for long; and one client address holds at most `config.connectionsPerClient` connections.
 *
 * A refused request whose body is still arriving gets its whole answer (with Content-Length and
 * `Connection: close`) at once; the rest of the upload is then read and thrown away, for a bounded
 * time and number of bytes, before the connection closes. Closing a socket while the client is
 * still sending makes the kernel reset the connection, and the client would see the reset instead
 * of the answer. Clients stop sending once they have the answer (curl, browsers, Node's fetch),
 * so in practice the connection closes within milliseconds.
 */

/** How long a client has to send a whole request (headers and body), and its headers alone. */
export const REQUEST_DEADLINE_MS = 60_000;
const HEADERS_DEADLINE_MS = 20_000;

/**
 * Node's own deadlines for the server (http.createServer options): a request not received whole
 * in time is answered 408 and its connection closed, checked every few seconds.
 */
export const SERVER_TIMEOUTS = {
  requestTimeout: REQUEST_DEADLINE_MS,
  headersTimeout: HEADERS_DEADLINE_MS,
  connectionsCheckingInterval: 5_000,
} as const;

/**
 * At most `perClient` open connections from one client address (0: no cap); more are closed as
 * they open. Slow requests from one host can then hold only so much.
 */
export function capConnectionsPerClient(http: Server, perClient: number): void {
  if (perClient <= 0) return;
  const open = new Map<string, number>();
  let warned = 0;
  http.on("connection", (socket) => {
    const address = socket.remoteAddress ?? "";
    const count = (open.get(address) ?? 0) + 1;
    if (count > perClient) {
      socket.destroy();
      // One line a minute at most: a flood must not flood the log too.
      if (Date.now() - warned > 60_000) {
        warned = Date.now();
        log.warn({ perClient }, "a client reached its cap of open connections: more were closed");
      }
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/** The methods the site answers. */
export const SITE_METHODS = "GET, HEAD, POST";

/** The most a request body may weigh, by route (lower-cased path prefix; the first match wins). */
const BODY_LIMITS: readonly (readonly [prefix: string, bytes: number])[] = [
  // better-auth's JSON: an e-mail and a password, or nothing at all (sign-out).
  ["/api/auth/", 16 * 1024],
  // Stripe's events are well under this; a larger body is not from Stripe.
  ["/api/stripe/webhook", 1024 * 1024],
  // Admin forms that carry an image (courses, partners, the editor's picture upload).
  ["/api/admin/", FORM_BODY_LIMIT],
  ["/admin/", FORM_BODY_LIMIT],
];

/** Everything else: the public forms, the sign-in form, sign-out. */
const DEFAULT_BODY_LIMIT = MAX_FORM_BYTES;

/** After a refusal or an early answer, how long and how much of the rest of a body is read off. */
const DISCARD_MS = 10_000;
const DISCARD_BYTES = 64 * 1024 * 1024;

export function bodyLimit(path: string): number {
  const lower = path.toLowerCase();
  for (const [prefix, bytes] of BODY_LIMITS) if (lower.startsWith(prefix)) return bytes;
  return DEFAULT_BODY_LIMIT;
}

function hasBody(req: IncomingMessage): boolean {
  return (
    req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"]) > 0
  );
}

/** Why a URL is refused, or null: a path that does not decode, or a NUL byte anywhere. */
function urlProblem(path: string, url: string): string | null {
  if (/%00/i.test(url)) return "NUL byte in the URL";
  return decodes(path) ? null : "malformed percent-encoding in the path";
}

// The decoded path is compared, not ignored: a bundler drops a call whose result is unused.
function decodes(path: string): boolean {
  try {
    return decodeURIComponent(path).length >= 0;
  } catch {
    return false;
  }
}

/**
 * The first handler of the app: refuses what no route should see (see above), and makes sure the
 * rest of any body a route did not read is read off within bounds once the answer is sent.
 */
export function requestLimits(): RequestHandler {
  return (req, res, next) => {
    if (!SITE_METHODS.split(", ").includes(req.method)) {
      refuse(req, res, 405, "This method is not allowed.", { Allow: SITE_METHODS });
      return;
    }
    const problem = urlProblem(req.path, req.originalUrl);
    if (problem) {
      refuse(req, res, 400, "This address is not valid.", {}, problem);
      return;
    }
    if (hasBody(req)) {
      // An answer sent before the body was read (401, 405, 415, a form's own 413): Node keeps the
      // connection and reads the rest, but only so much.
      res.once("finish", () => {
        // A refusal (`refuse`) has read off what it could already and closes the connection.
        if (res.getHeader("Connection") === "close") return;
        void discardRest(req).then((whole) => {
          if (!whole) req.socket.destroy();
        });
      });
      if (Number(req.headers["content-length"]) > bodyLimit(req.path)) {
        refuseTooLarge(req, res);
        return;
      }
      // A client that sent `Connection: close` has its socket closed by Node as soon as the answer
      // ends: an early answer (a foreign Origin's 400, a 401) would reach it as a reset.
      if (!res.shouldKeepAlive) endOnceBodyReadOff(req, res);
    }
    next();
  };
}

/**
 * Holds back the end of an answer given before the request body has all arrived: what the route
 * sends goes out at once, the end (and so Node's closing of the connection) only once the rest of
 * the body has been read off, within discardRest's bounds — as `refuse` does.
 */
function endOnceBodyReadOff(req: IncomingMessage, res: ServerResponse) {
  const end = res.end;
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    res.end = end;
    if (req.complete || req.destroyed || res.getHeader("Connection") === "close")
      return (end as (...a: unknown[]) => ServerResponse).apply(res, args);
    const callback = args.find((a) => typeof a === "function") as (() => void) | undefined;
    const [chunk, encoding] = args;
    if (chunk !== undefined && chunk !== null && typeof chunk !== "function")
      res.write(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
    void discardRest(req).then(() => res.end(callback));
    return res;
  } as ServerResponse["end"];
}

/**
 * The request body as React Router reads it: nothing is read until a route asks, and past the
 * route's cap the route's read fails (`onRefused` is called) while the client gets 413. A route
 * that stops reading (cancels) leaves the rest to `requestLimits`, which reads it off.
 */
export function requestBody(
  req: ExpressRequest,
  res: ServerResponse,
  onRefused: () => void,
): ReadableStream<Uint8Array> {
  const limit = bodyLimit(req.path);
  let received = 0;
  let reading = false;
  let controller: ReadableStreamDefaultController<Uint8Array>;

  const onData = (chunk: Buffer) => {
    received += chunk.byteLength;
    if (received > limit) {
      stop();
      refuseTooLarge(req, res);
      controller.error(new Error(`The request body is larger than ${limit} bytes.`));
      onRefused();
      return;
    }
    controller.enqueue(chunk);
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = () => {
    stop();
    controller.close();
  };
  const onCutShort = () => {
    if (req.complete) return;
    stop();
    controller.error(new Error("The client stopped sending the request body."));
  };
  function stop() {
    req.off("data", onData);
    req.off("end", onEnd);
    req.off("error", onCutShort);
    req.off("close", onCutShort);
  }

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        if (!reading) {
          reading = true;
          req.on("data", onData);
          req.once("end", onEnd);
          req.once("error", onCutShort);
          req.once("close", onCutShort);
        }
        req.resume();
      },
      cancel() {
        stop();
        req.pause();
      },
    },
    // One chunk at a time, as the route reads: the socket applies back-pressure to the client.
    { highWaterMark: 0 },
  );
}

function refuseTooLarge(req: IncomingMessage & { path?: string }, res: ServerResponse) {
  const limit = bodyLimit(req.path ?? "");
  refuse(req, res, 413, "The request is too large.", {}, `body over ${limit} bytes`);
}

/**
 * Answers a refused request. If its body is still arriving, the answer goes out whole with
 * `Connection: close` but the response is only ended (and the connection closed) once the rest of
 * the body has been read off — by then the client has the answer, and stops sending.
 */
function refuse(
  req: IncomingMessage & { path?: string },
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  reason = message,
) {
  const path = req.path ?? "";
  log.warn({ method: req.method, path, status, reason }, "request refused");
  // Already answering (a route sent its response before reading the whole body): nothing to add.
  if (res.headersSent) return;
  const api = path.startsWith("/api/");
  const body = Buffer.from(api ? JSON.stringify({ error: message }) : `${message}\n`);
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader(
    "Content-Type",
    api ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
  );
  res.setHeader("Content-Length", body.byteLength);
  res.setHeader("Cache-Control", "no-store");
  if (req.complete || !hasBody(req)) {
    res.end(body);
    return;
  }
  res.setHeader("Connection", "close");
  res.write(body);
  void discardRest(req).then(() => res.end());
}

/**
 * Reads and throws away what is left of a request body, for at most DISCARD_MS and DISCARD_BYTES.
 * Resolves true when the body ended (or was already read), false when the client went away or the
 * bound was reached. Whoever was reading the body gets nothing more (as with Node's own discard).
 */
function discardRest(req: IncomingMessage): Promise<boolean> {
  if (req.complete) return Promise.resolve(true);
  if (req.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let bytes = 0;
    const done = (whole: boolean) => {
      clearTimeout(timer);
      req.off("data", count);
      req.off("end", ended);
      req.off("close", closed);
      req.off("error", closed);
      resolve(whole);
    };
    const count = (chunk: Buffer) => {
      bytes += chunk.byteLength;
      if (bytes > DISCARD_BYTES) {
        req.pause();
        done(false);
      }
    };
    const ended = () => done(true);
    const closed = () => done(req.complete);
    const timer = setTimeout(() => done(false), DISCARD_MS);
    timer.unref();
    req.removeAllListeners("data");
    req.on("data", count);
    req.once("end", ended);
    req.once("close", closed);
    req.once("error", closed);
    req.resume();
  });
}
