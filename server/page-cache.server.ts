import { writeReadableStreamToWritable } from "@react-router/node";
import type {
  Request as ExpressRequest,
  RequestHandler,
  Response as ExpressResponse,
} from "express";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "react-router";

/**
 * A few-second, in-process cache of public pages as rendered for visitors without cookies.
 *
 * Only what the page itself declares shareable is kept: a 200 HTML response whose
 * Cache-Control allows a shared cache (`public`, `s-maxage`) and that sets no cookie — the same
 * responses a CDN in front of the site may keep, for far less time. Two values in every page
 * must never be shared between visitors: the CSP nonce and the signed time-stamp of the public
 * forms. A page is rendered with values made for it and stored cut at those places, and each
 * visitor's copy is stitched together with their own fresh nonce and time-stamp.
 *
 * A shared render never sees anything of the visitor who triggered it: its URL is built on
 * PUBLIC_URL (a forged Host header cannot reach the cached copy) and it gets no request
 * headers. Concurrent misses for one URL wait for a single render. `clear()` (wired to admin
 * changes of the catalogue) drops everything at once, including a render that started before
 * the change, which is served to its own visitors but not kept.
 */

export interface PageCacheOptions {
  /** How long a rendered page is served (milliseconds). */
  ttlMs: number;
  /** Upper bound of the HTML kept, in bytes. */
  maxBytes?: number;
  publicUrl: string;
  build: () => Promise<ServerBuild>;
  /** This response's load context: its CSP nonce (from res.locals) and a fresh form time-stamp. */
  loadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
  /** Issues a new form time-stamp (for each visitor served from the cache). */
  issueFormToken: () => string;
  /** Handles every request the cache does not (admin, forms, data requests, visitors with cookies). */
  fallback: RequestHandler;
}

type Slot = "nonce" | "formStarted";

interface CachedPage {
  status: number;
  headers: [string, string][];
  /** The HTML (UTF-8) around the slots: text, slot, text, slot, …, text. */
  texts: Buffer[];
  slots: Slot[];
  bytes: number;
  expires: number;
}

export type PageCacheState = "hit" | "miss" | "bypass";

const DROPPED_HEADERS = new Set(["date", "content-length", "transfer-encoding", "connection"]);
const PRIVATE_PREFIXES = ["/admin", "/api/", "/auth"];

/** Whether this request may be answered with (or fill) the shared copy. */
function isAnonymousPageRequest(req: ExpressRequest): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  // Anyone with a cookie (an admin session, a consent flag, anything) gets their own render.
  if (req.headers.cookie !== undefined || req.headers.authorization !== undefined) return false;
  const path = req.path;
  // Client-side navigations' data requests are small and answered as usual.
  if (path.endsWith(".data")) return false;
  return !PRIVATE_PREFIXES.some((prefix) => path.startsWith(prefix));
}

function isShareable(response: Response): boolean {
  if (response.status !== 200 || response.headers.has("set-cookie")) return false;
  if (!/^text\/html\b/i.test(response.headers.get("content-type") ?? "")) return false;
  const cacheControl = (response.headers.get("cache-control") ?? "").toLowerCase();
  return /\bpublic\b/.test(cacheControl) && /\bs-maxage=\d+/.test(cacheControl);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** Cuts the page at every occurrence of its nonce and form time-stamp. */
function cut(html: string, values: Record<Slot, string>): Pick<CachedPage, "texts" | "slots"> {
  const names = (Object.keys(values) as Slot[]).filter((slot) => values[slot] !== "");
  if (names.length === 0) return { texts: [Buffer.from(html)], slots: [] };
  const bySlotValue = new Map(names.map((slot) => [values[slot], slot]));
  const pattern = new RegExp(names.map((slot) => escapeRegExp(values[slot])).join("|"), "g");
  const texts: Buffer[] = [];
  const slots: Slot[] = [];
  let last = 0;
  for (const match of html.matchAll(pattern)) {
    texts.push(Buffer.from(html.slice(last, match.index)));
    slots.push(bySlotValue.get(match[0])!);
    last = match.index + match[0].length;
  }
  texts.push(Buffer.from(html.slice(last)));
  return { texts, slots };
}

/**
 * Writes the page with this response's values in its slots. The text stays as stored bytes
 * (no copy, no re-encoding per visitor); the writes are corked into one system call.
 */
function writePage(res: ExpressResponse, page: CachedPage, values: Record<Slot, string>) {
  const slotValues = page.slots.map((slot) => Buffer.from(values[slot]));
  let length = page.bytes;
  for (const value of slotValues) length += value.length;
  res.setHeader("Content-Length", length);
  res.cork();
  res.write(page.texts[0]!);
  for (let i = 0; i < slotValues.length; i++) {
    res.write(slotValues[i]!);
    res.write(page.texts[i + 1]!);
  }
  res.end();
  res.uncork();
}

export function createPageCache(options: PageCacheOptions) {
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  const handle = createRequestHandler(options.build, process.env.NODE_ENV);
  const pages = new Map<string, CachedPage>();
  const renders = new Map<string, Promise<CachedPage | null>>();
  let bytes = 0;
  // Bumped by clear(): a render that began under an older generation is not stored.
  let generation = 0;

  function remove(key: string) {
    const page = pages.get(key);
    if (!page) return;
    pages.delete(key);
    bytes -= page.bytes;
  }

  function store(key: string, page: CachedPage) {
    if (page.bytes > maxBytes / 4) return; // one huge page must not push out all the others
    remove(key);
    const now = Date.now();
    for (const [other, cached] of pages) if (cached.expires <= now) remove(other);
    // Oldest first (a Map iterates in insertion order).
    for (const other of pages.keys()) {
      if (bytes + page.bytes <= maxBytes) break;
      remove(other);
    }
    pages.set(key, page);
    bytes += page.bytes;
  }

  function send(res: ExpressResponse, page: CachedPage, head: boolean, state: PageCacheState) {
    res.locals.pageCache = state;
    res.setHeader("X-Page-Cache", state);
    res.status(page.status);
    for (const [name, value] of page.headers) res.setHeader(name, value);
    if (head) return res.end();
    writePage(res, page, {
      nonce: String(res.locals.cspNonce ?? ""),
      formStarted: options.issueFormToken(),
    });
  }

  /** Renders the page for the cache; null when the response is not shareable (then sent as is). */
  async function render(
    req: ExpressRequest,
    res: ExpressResponse,
    key: string,
  ): Promise<CachedPage | null> {
    const startedIn = generation;
    const context = options.loadContext(req, res);
    const request = new Request(new URL(req.originalUrl, options.publicUrl), {
      headers: { accept: "text/html" },
    });
    const response = await handle(request, context);
    if (!isShareable(response)) {
      res.locals.pageCache = "bypass" satisfies PageCacheState;
      res.setHeader("X-Page-Cache", "bypass");
      res.status(response.status);
      for (const [name, value] of response.headers) res.append(name, value);
      if (response.body) await writeReadableStreamToWritable(response.body, res);
      else res.end();
      return null;
    }
    const html = await response.text();
    const headers = [...response.headers].filter(([name]) => !DROPPED_HEADERS.has(name));
    const pieces = cut(html, { nonce: context.cspNonce, formStarted: context.formStarted });
    const page: CachedPage = {
      status: response.status,
      headers,
      ...pieces,
      bytes: pieces.texts.reduce((sum, text) => sum + text.length, 0),
      expires: Date.now() + options.ttlMs,
    };
    if (startedIn === generation) store(key, page);
    res.locals.pageCache = "miss" satisfies PageCacheState;
    res.setHeader("X-Page-Cache", "miss");
    res.status(page.status);
    for (const [name, value] of headers) res.append(name, value);
    const body = Buffer.from(html);
    res.setHeader("Content-Length", body.length);
    res.end(body);
    return page;
  }

  const middleware: RequestHandler = async (req, res, next) => {
    if (options.ttlMs <= 0 || !isAnonymousPageRequest(req)) return options.fallback(req, res, next);
    const key = req.originalUrl;
    const head = req.method === "HEAD";
    try {
      const cached = pages.get(key);
      if (cached && cached.expires > Date.now()) return send(res, cached, head, "hit");
      const pending = renders.get(key);
      if (pending) {
        const page = await pending;
        if (page) return send(res, page, head, "hit");
        return options.fallback(req, res, next);
      }
      if (head) return options.fallback(req, res, next);
      const rendering = render(req, res, key);
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
      bytes = 0;
    },
    get size() {
      return pages.size;
    },
  };
}
