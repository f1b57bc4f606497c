import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type {
  Request as ExpressRequest,
  RequestHandler,
  Response as ExpressResponse,
} from "express";
import { LRUCache } from "lru-cache";
import { isSharedPage, PAGE_QUERY_PARAMETERS } from "#app/lib/ui/http-cache.ts";

/**
 * A few-second, in-process cache of whole responses: public pages as rendered for visitors
 * without cookies.
 *
 * Only what the page itself declares shareable is kept: a 200 HTML response whose
 * Cache-Control allows a shared cache (`public`, `s-maxage`) and that sets no cookie — the same
 * responses a CDN in front of the site may keep. Such a page holds nothing of any visitor (its
 * scripts are allowed by hash, not by a per-response nonce), so every visitor gets the same
 * bytes: status, headers and body, compressed once per entry (brotli and gzip, chosen by the
 * request's Accept-Encoding) and revalidated by ETag.
 *
 * A page is kept under its path and the query parameters pages read (`pageCacheKey`): a
 * campaign tag or a cache-buster gets the same copy, and cannot make the server render each time.
 *
 * A shared render never sees anything of the visitor who triggered it: its URL is built on
 * PUBLIC_URL (a forged Host header cannot reach the cached copy) and it gets no request
 * headers. Concurrent misses for one URL wait for a single render. `clear()` (wired to admin
 * changes of the catalogue) drops everything at once, including a render that started before
 * the change, which is served to its own visitors but not kept.
 */

export interface PageCacheOptions {
  /** How long a rendered page is served (milliseconds); 0 turns the cache off. */
  ttlMs: number;
  /** Upper bound of the pages kept (all encodings), in bytes. */
  maxBytes?: number;
  publicUrl: string;
  /** Renders a page for the cache: React Router's handler, with nothing of the visitor. */
  render: (request: Request) => Promise<Response>;
}

interface CachedPage {
  status: number;
  headers: [string, string][];
  etag: string;
  bodies: Record<Encoding, Buffer>;
}

type Encoding = "br" | "gzip" | "identity";
export type PageCacheState = "hit" | "miss" | "bypass";

const DROPPED_HEADERS = new Set([
  "date",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "etag",
]);
/**
 * Not pages: the admin, API and sign-in paths, and React Router's route discovery
 * (`/__manifest?paths=…&version=…`, a JSON answer that must see its whole query).
 */
const PRIVATE_PREFIXES = ["/admin", "/api/", "/auth", "/__manifest"];

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Whether this request may be answered with (or fill) the shared copy. */
function isAnonymousPageRequest(req: ExpressRequest): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  // Anyone with a cookie (an admin session, a consent flag, anything) gets their own render.
  if (req.headers.cookie !== undefined || req.headers.authorization !== undefined) return false;
  const path = req.path;
  // Only pages: a path with a file extension is something else (client navigations' `.data`,
  // a course's artwork or Open Graph PNG, the sitemap), answered and compressed as usual.
  if (/\.[a-z0-9]+$/i.test(path)) return false;
  return !PRIVATE_PREFIXES.some((prefix) => path.startsWith(prefix));
}

const PAGE_PARAMETERS = new Set(PAGE_QUERY_PARAMETERS);

/**
 * The URL a page is kept and rendered under: its path and the query parameters some page reads,
 * in a fixed order. Anything else (`utm_*`, `fbclid`, `gclid`, a random cache-buster) changes
 * nothing on any page, so it must not cost a render.
 */
export function pageCacheKey(originalUrl: string): string {
  // The path as sent (the router reads it so); only the query is filtered.
  const question = originalUrl.indexOf("?");
  if (question < 0) return originalUrl;
  const path = originalUrl.slice(0, question);
  const kept = [...new URLSearchParams(originalUrl.slice(question + 1))].filter(([name]) =>
    PAGE_PARAMETERS.has(name),
  );
  if (kept.length === 0) return path;
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${path}?${new URLSearchParams(kept).toString()}`;
}

function isShareable(response: Response): boolean {
  if (response.status !== 200) return false;
  if (!/^text\/html\b/i.test(response.headers.get("content-type") ?? "")) return false;
  return isSharedPage(response.headers);
}

/** Compresses a page in `encoding` (brotli at quality 5: close to its best for HTML, in ms). */
function encode(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === "gzip") return gzipped(body);
  if (encoding === "identity") return Promise.resolve(body);
  return brotli(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      // A window just larger than the page compresses it as well as the default 4 MiB one, with a
      // fraction of its ≈ 10 MB of encoder state (see BROTLI_WINDOW in server/app.ts).
      [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(body.length),
    },
  });
}

/** The smallest brotli window (log2 of its size, 16–24) that holds `bytes`. */
export function brotliWindowBits(bytes: number): number {
  return Math.min(24, Math.max(16, Math.ceil(Math.log2(bytes + 16))));
}

async function compressPage(response: Response): Promise<CachedPage> {
  const identity = Buffer.from(await response.arrayBuffer());
  const [br, gz] = await Promise.all([encode(identity, "br"), encode(identity, "gzip")]);
  return {
    status: response.status,
    headers: [...response.headers].filter(([name]) => !DROPPED_HEADERS.has(name)),
    etag: `"${createHash("sha256").update(identity).digest("base64url").slice(0, 32)}"`,
    bodies: { br, gzip: gz, identity },
  };
}

/**
 * Brotli, else gzip, else plain: the smallest encoding the client takes (named with q > 0, or
 * covered by `*`). Browsers list gzip before br with equal weight, so the client's order is not
 * a preference.
 */
export function preferredEncoding(header: string | undefined): Encoding {
  if (!header) return "identity";
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    weights.set(name!.trim(), q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const takes = (name: string) => (weights.get(name) ?? weights.get("*") ?? 0) > 0;
  return takes("br") ? "br" : takes("gzip") ? "gzip" : "identity";
}

function send(req: ExpressRequest, res: ExpressResponse, page: CachedPage, state: PageCacheState) {
  res.setHeader("X-Page-Cache", state);
  for (const [name, value] of page.headers) res.setHeader(name, value);
  res.setHeader("Vary", "Accept-Encoding");
  res.setHeader("ETag", page.etag);
  if (req.fresh) return res.status(304).end();
  const encoding = preferredEncoding(req.headers["accept-encoding"]);
  const body = page.bodies[encoding];
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.status(page.status);
  if (req.method === "HEAD") return res.end();
  res.end(body);
}

export function createPageCache(options: PageCacheOptions) {
  const pages = new LRUCache<string, CachedPage>({
    maxSize: options.maxBytes ?? 32 * 1024 * 1024,
    // One huge page must not push out all the others.
    maxEntrySize: (options.maxBytes ?? 32 * 1024 * 1024) / 4,
    sizeCalculation: (page) =>
      page.bodies.identity.length + page.bodies.gzip.length + page.bodies.br.length + 1024,
    ttl: Math.max(options.ttlMs, 1),
  });
  const renders = new Map<string, Promise<CachedPage | null>>();
  // Bumped by clear(): a render that began under an older generation is not stored.
  let generation = 0;

  /** Renders the page for the cache; null when the response is not shareable (then sent as is). */
  async function render(
    key: string,
    req: ExpressRequest,
    res: ExpressResponse,
  ): Promise<CachedPage | null> {
    const startedIn = generation;
    const response = await options.render(
      new Request(new URL(key, options.publicUrl), {
        headers: { accept: "text/html" },
      }),
    );
    if (!isShareable(response)) {
      // Sent to this visitor only (a 404, a redirect), compressed like any other answer.
      const raw = Buffer.from(await response.arrayBuffer());
      const encoding = raw.length ? preferredEncoding(req.headers["accept-encoding"]) : "identity";
      const body = await encode(raw, encoding);
      res.setHeader("X-Page-Cache", "bypass" satisfies PageCacheState);
      res.status(response.status);
      for (const [name, value] of response.headers) {
        if (!DROPPED_HEADERS.has(name)) res.append(name, value);
      }
      if (encoding !== "identity") {
        res.setHeader("Content-Encoding", encoding);
        res.setHeader("Vary", "Accept-Encoding");
      }
      res.setHeader("Content-Length", body.length);
      res.end(body);
      return null;
    }
    const page = await compressPage(response);
    if (startedIn === generation) pages.set(key, page);
    send(req, res, page, "miss");
    return page;
  }

  /**
   * Answers anonymous GETs of public pages (from the cache, or rendered for it); every other
   * request (admin, forms, data requests, visitors with cookies) goes on to the next handler.
   */
  const middleware: RequestHandler = async (req, res, next) => {
    if (options.ttlMs <= 0 || !isAnonymousPageRequest(req)) return next();
    const key = pageCacheKey(req.originalUrl);
    try {
      const cached = pages.get(key);
      if (cached) return send(req, res, cached, "hit");
      const pending = renders.get(key);
      if (pending) {
        const page = await pending;
        return page ? send(req, res, page, "hit") : next();
      }
      if (req.method === "HEAD") return next();
      const rendering = render(key, req, res);
      renders.set(
        key,
        rendering.catch(() => null),
      );
      try {
        await rendering;
      } finally {
        renders.delete(key);
      }
    } catch (error) {
      next(error);
    }
  };

  return {
    middleware,
    /** Drops every kept page and any render in progress (after an admin change). */
    clear() {
      generation++;
      pages.clear();
    },
    get size() {
      return pages.size;
    },
  };
}
