import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { log } from "./log.server.ts";
import { observeRequest } from "./metrics.server.ts";

/**
 * One JSON log line per request, when its response has been sent, under a request id (the
 * caller's X-Request-Id if it sent one, else a new one) that the response echoes; a request whose
 * connection closed before its answer was sent is logged as aborted. Each answered request is
 * counted for /metrics. Returns the request id, for `requestScope` (every line written while
 * answering carries it). Takes the plain Node request and response: pages served from the page
 * cache are answered before Express.
 */
export function logRequest(
  req: IncomingMessage & { originalUrl?: string },
  res: ServerResponse,
): string {
  const started = process.hrtime.bigint();
  const given = req.headers["x-request-id"];
  const requestId = (typeof given === "string" ? given.slice(0, 100) : "") || randomUUID();
  res.setHeader("x-request-id", requestId);
  const path = () => (req.originalUrl ?? req.url ?? "").split("?", 1)[0]!;
  const elapsed = () => Math.round(Number(process.hrtime.bigint() - started) / 1e6);
  res.on("finish", () => {
    const ms = elapsed();
    const cache = res.getHeader("x-page-cache");
    const entry = {
      method: req.method ?? "",
      path: path(),
      status: res.statusCode,
      ms,
      ...(typeof cache === "string" ? { cache } : {}),
    };
    log.info({ requestId, ...entry }, "request");
    observeRequest(entry);
  });
  res.on("close", () => {
    if (res.writableFinished) return;
    log.warn(
      { requestId, method: req.method, path: path(), ms: elapsed() },
      "request aborted: the connection closed before the answer was sent",
    );
  });
  return requestId;
}
