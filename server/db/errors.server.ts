/**
 * PostgreSQL errors by code, wherever the driver or Drizzle put them: the one place that reads
 * 23505 (unique violation) and 23503 (foreign-key violation) for every writer.
 */

/** The PostgreSQL error behind a driver or Drizzle error (Drizzle wraps it as `cause`). */
function postgresError(error: unknown): { code?: string; constraint?: string } | undefined {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const candidate = e as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof candidate.code === "string" && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return {
        code: candidate.code,
        constraint: typeof candidate.constraint === "string" ? candidate.constraint : undefined,
      };
    }
    e = candidate.cause;
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
