import path from "node:path";

/** Posting to a running site as a browser without JavaScript would, and reading its database. */

export interface Answer {
  status: number;
  location: string | null;
  /** The Retry-After header (a 503 from a database that could not answer carries one). */
  retryAfter: string | null;
  body: string;
}

/** POSTs a urlencoded form (or any body with its content type); never follows redirects. */
export async function post(
  url: string,
  body: Record<string, string> | URLSearchParams | string | Uint8Array | FormData,
  options: {
    contentType?: string | null;
    headers?: Record<string, string>;
    timeoutMs?: number;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  let payload: BodyInit;
  if (body instanceof FormData) {
    payload = body;
  } else if (typeof body === "string" || body instanceof Uint8Array) {
    payload = body as BodyInit;
    if (options.contentType !== null)
      headers["content-type"] = options.contentType ?? "application/x-www-form-urlencoded";
  } else {
    payload = (body instanceof URLSearchParams ? body : new URLSearchParams(body)).toString();
    if (options.contentType !== null)
      headers["content-type"] = options.contentType ?? "application/x-www-form-urlencoded";
  }
  if (options.contentType && body instanceof FormData)
    headers["content-type"] = options.contentType;
  const response = await fetch(url, {
    method: "POST",
    body: payload,
    headers,
    redirect: "manual",
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  return {
    status: response.status,
    location: response.headers.get("location"),
    retryAfter: response.headers.get("retry-after"),
    body: await response.text(),
  };
}

export type DatabaseRef = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

/**
 * Runs queries on the site's database. PGlite: only while the site is stopped (the embedded
 * database admits one process at a time).
 */
export async function withSiteDatabase<T>(
  ref: DatabaseRef,
  task: (
    query: <R = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<R[]>,
  ) => Promise<T>,
): Promise<T> {
  if (ref.kind === "postgres") {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: ref.url });
    await client.connect();
    try {
      return await task(async (sql, params) => (await client.query(sql, params)).rows);
    } finally {
      await client.end();
    }
  }
  const { openPGlite } = await import("#server/db/pglite.server.ts");
  const db = await openPGlite(path.join(ref.dataDir, "db"));
  try {
    return await task(
      async <R>(sql: string, params?: unknown[]) => (await db.query<R>(sql, params)).rows,
    );
  } finally {
    await db.close();
  }
}

/** A small seeded generator, so a failing run can be replayed with the same seed. */
export function seededRandom(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
