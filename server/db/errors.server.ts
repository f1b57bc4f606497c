import { log, requestScope } from "../log.server.ts";

/**
 * PostgreSQL errors by code, wherever the driver or Drizzle put them: the one place that reads
 * 23505 (unique violation) and 23503 (foreign-key violation) for every writer, and that tells a
 * lost or unavailable database from a bug.
 */

/** An error and the errors behind it (Drizzle wraps the driver's as `cause`), a few deep. */
function* errorChain(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    yield e as { code?: unknown; message?: unknown };
    e = (e as { cause?: unknown }).cause;
  }
}

/** The PostgreSQL error behind a driver or Drizzle error. */
function postgresError(error: unknown): { code?: string; constraint?: string } | undefined {
  for (const candidate of errorChain(error)) {
    if (typeof candidate.code === "string" && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      const { constraint } = candidate as { constraint?: unknown };
      return {
        code: candidate.code,
        constraint: typeof constraint === "string" ? constraint : undefined,
      };
    }
  }
  return undefined;
}

/** 23505 unique_violation, optionally on one named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = postgresError(error);
  return pg?.code === "23505" && (!constraint || !pg.constraint || pg.constraint === constraint);
}

/** 23503 foreign_key_violation, optionally on one named constraint. */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  const pg = postgresError(error);
  return pg?.code === "23503" && (!constraint || !pg.constraint || pg.constraint === constraint);
}

/**
 * SQLSTATEs of a database that is away or overloaded rather than of a wrong statement: class 08
 * (connection exception), 53100 disk full, 53300 too many connections, 57014 cancelled (the
 * statement timeout), 57P01–57P03 (shut down by an administrator, a crash, or still starting).
 */
const UNAVAILABLE_STATES = /^(08...|53100|53300|57014|57P0[123])$/;
/** Socket-level failures reaching the server (node-postgres passes them through). */
const UNAVAILABLE_SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENOSPC",
]);
/** node-postgres's own words for a connection it lost or could not get from the pool. */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|no space left on device/i;

/**
 * Whether an error means the database could not answer (a restart, a failover, a dropped
 * connection, a full disk, a statement timeout) rather than that the request was wrong: such a
 * request is answered 503 with Retry-After (decision 0032).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const { code, message } of errorChain(error)) {
    if (
      typeof code === "string" &&
      (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_SOCKET_CODES.has(code))
    )
      return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.test(message)) return true;
  }
  return false;
}

/**
 * Logs a failure caught while answering a request. One the database caused (see
 * `isDatabaseUnavailable`) is a warning, and marks the request so that its answer — the page or
 * the form with its message — goes out as a 503 with Retry-After, never cached
 * (server/react-router-handler.server.ts); anything else is an error.
 */
export function logFailure(error: unknown, fields: Record<string, unknown>, message: string): void {
  if (isDatabaseUnavailable(error)) {
    const scope = requestScope.getStore();
    if (scope) scope.databaseUnavailable = true;
    log.warn({ err: error, ...fields, databaseUnavailable: true }, message);
  } else {
    log.error({ err: error, ...fields }, message);
  }
}
