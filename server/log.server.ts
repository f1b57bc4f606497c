import pino from "pino";
import { config } from "./config.server.ts";

/** Structured JSON logs, one line per event. */
export const log = pino({
  level: config.logLevel,
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: ["req.headers.cookie", "req.headers.authorization", "password"],
});
