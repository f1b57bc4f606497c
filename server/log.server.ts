import { AsyncLocalStorage } from "node:async_hooks";
import os from "node:os";
import pino from "pino";
import { config } from "./config.server.ts";

/**
 * The request a piece of work belongs to (server/request-log.server.ts opens it): every log line
 * written while answering it carries its request id, errors included. It also notes a database
 * that failed the request, so that the answer is a 503 (server/react-router-handler.server.ts).
 */
export const requestScope = new AsyncLocalStorage<{
  requestId: string;
  /** Set when a loader or action failed because the database could not answer. */
  databaseUnavailable?: boolean;
}>();

/**
 * Structured JSON logs, one line per event. Each line names the instance that wrote it (host and
 * process), so the lines of several instances can be told apart once gathered.
 */
export const log = pino({
  level: config.logLevel,
  base: { instance: `${os.hostname()}:${process.pid}` },
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: ["req.headers.cookie", "req.headers.authorization", "password"],
  mixin() {
    const scope = requestScope.getStore();
    return scope ? { requestId: scope.requestId } : {};
  },
});
