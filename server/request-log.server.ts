import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { log } from "./log.server.ts";

/**
 * One JSON log line per request, when its response has been sent, under a request id (the
 * caller's X-Request-Id if it sent one, else a new one) that the response echoes. Takes the plain
 * Node request and response: pages served from the page cache are answered before Express.
 */
export function logRequest(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) {
  const started = process.hrtime.bigint();
  const given = req.headers["x-request-id"];
  const requestId = (typeof given === "string" ? given.slice(0, 100) : "") || randomUUID();
  res.setHeader("x-request-id", requestId);
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const url = req.originalUrl ?? req.url ?? "";
    const cache = res.getHeader("x-page-cache");
    log.info(
      {
        requestId,
        method: req.method,
        path: url.split("?", 1)[0],
        status: res.statusCode,
        ms: Math.round(ms),
        ...(cache ? { cache } : {}),
      },
      "request",
    );
  });
}
