import { writeReadableStreamToWritable } from "@react-router/node";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { constants, crc32, deflateRawSync } from "node:zlib";
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
 *
 * Each stored piece of text is also kept deflated, so a browser that accepts gzip gets a stream
 * assembled from those pieces and its own values (as stored blocks), with no compression work
 * per response. `answer()` serves a fresh copy straight from the Node request, before Express.
 */

export interface PageCacheOptions {
  /** How long a rendered page is served (milliseconds). */
  ttlMs: number;
  /** Upper bound of the pages kept (plain and deflated), in bytes. */
  maxBytes?: number;
  publicUrl: string;
  build: () => Promise<ServerBuild>;
  /**
   * The load context of a shared render: this response's CSP nonce (from res.locals) and a fresh
   * form time-stamp — nothing else of the visitor (not their address).
   */
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
  /** Each text as raw deflate blocks, flushed to a byte boundary (independent of the others). */
  deflatedTexts: Buffer[];
  slots: Slot[];
  /** Bytes of the texts, and of their deflated forms. */
  bytes: number;
  deflatedBytes: number;
  expires: number;
}

export type PageCacheState = "hit" | "miss" | "bypass";

const DROPPED_HEADERS = new Set(["date", "content-length", "transfer-encoding", "connection"]);
const PRIVATE_PREFIXES = ["/admin", "/api/", "/auth"];

/** Whether this request may be answered with (or fill) the shared copy. */
function isAnonymousPageRequest(req: IncomingMessage): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  // Anyone with a cookie (an admin session, a consent flag, anything) gets their own render.
  if (req.headers.cookie !== undefined || req.headers.authorization !== undefined) return false;
  const path = (req.url ?? "/").split("?", 1)[0]!;
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

/** Whether the client takes gzip: named with q > 0, or (not named) `*` with q > 0. */
function acceptsGzip(headers: IncomingHttpHeaders): boolean {
  const header = headers["accept-encoding"];
  if (typeof header !== "string") return false;
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    weights.set(name!.trim(), q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  return (weights.get("gzip") ?? weights.get("*") ?? 0) > 0;
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty final block with fixed Huffman codes: the end of the deflate stream. */
const DEFLATE_END = Buffer.from([0x03, 0x00]);

/**
 * `data` (a nonce or a time-stamp: well under the 65,535-byte limit of one block) as a stored,
 * uncompressed deflate block; the stream is at a byte boundary here.
 */
function storedBlock(data: Buffer): Buffer {
  const block = Buffer.allocUnsafe(5 + data.length);
  block[0] = 0; // not final, stored
  block.writeUInt16LE(data.length, 1);
  block.writeUInt16LE(~data.length & 0xffff, 3);
  data.copy(block, 5);
  return block;
}

function deflatePiece(text: Buffer): Buffer {
  // A sync flush ends on a byte boundary without a final block, so pieces can follow each other.
  return deflateRawSync(text, { finishFlush: constants.Z_SYNC_FLUSH });
}

/**
 * Writes the page with this response's values in its slots: the stored bytes as they are (no
 * copy, no re-encoding, no compression per visitor), corked into one system call.
 */
function writePage(
  res: ServerResponse,
  page: CachedPage,
  values: Record<Slot, string>,
  gzip: boolean,
) {
  const slotValues = page.slots.map((slot) => Buffer.from(values[slot]));
  let length = page.bytes;
  for (const value of slotValues) length += value.length;
  if (!gzip) {
    res.setHeader("Content-Length", length);
    res.cork();
    res.write(page.texts[0]!);
    for (let i = 0; i < slotValues.length; i++) {
      res.write(slotValues[i]!);
      res.write(page.texts[i + 1]!);
    }
    res.end();
    res.uncork();
    return;
  }
  const slotBlocks = slotValues.map(storedBlock);
  let crc = crc32(page.texts[0]!);
  let compressed = GZIP_HEADER.length + page.deflatedBytes + DEFLATE_END.length + 8;
  for (let i = 0; i < slotValues.length; i++) {
    crc = crc32(page.texts[i + 1]!, crc32(slotValues[i]!, crc));
    compressed += slotBlocks[i]!.length;
  }
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length >>> 0, 4);
  res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", compressed);
  res.cork();
  res.write(GZIP_HEADER);
  res.write(page.deflatedTexts[0]!);
  for (let i = 0; i < slotBlocks.length; i++) {
    res.write(slotBlocks[i]!);
    res.write(page.deflatedTexts[i + 1]!);
  }
  res.write(DEFLATE_END);
  res.end(trailer);
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
    bytes -= page.bytes + page.deflatedBytes;
  }

  function store(key: string, page: CachedPage) {
    const size = page.bytes + page.deflatedBytes;
    if (size > maxBytes / 4) return; // one huge page must not push out all the others
    remove(key);
    const now = Date.now();
    for (const [other, cached] of pages) if (cached.expires <= now) remove(other);
    // Oldest first (a Map iterates in insertion order).
    for (const other of pages.keys()) {
      if (bytes + size <= maxBytes) break;
      remove(other);
    }
    pages.set(key, page);
    bytes += size;
  }

  function fresh(req: IncomingMessage & { originalUrl?: string }): CachedPage | undefined {
    if (options.ttlMs <= 0 || !isAnonymousPageRequest(req)) return undefined;
    const page = pages.get(req.originalUrl ?? req.url ?? "");
    return page && page.expires > Date.now() ? page : undefined;
  }

  function send(
    req: IncomingMessage,
    res: ServerResponse,
    page: CachedPage,
    state: PageCacheState,
    values: Record<Slot, string>,
  ) {
    res.setHeader("X-Page-Cache", state);
    res.statusCode = page.status;
    for (const [name, value] of page.headers) res.setHeader(name, value);
    res.setHeader("Vary", "Accept-Encoding");
    if (req.method === "HEAD") return res.end();
    writePage(res, page, values, acceptsGzip(req.headers));
  }

  const hitValues = (nonce: string): Record<Slot, string> => ({
    nonce,
    formStarted: options.issueFormToken(),
  });

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
      res.setHeader("X-Page-Cache", "bypass" satisfies PageCacheState);
      res.status(response.status);
      for (const [name, value] of response.headers) res.append(name, value);
      if (response.body) await writeReadableStreamToWritable(response.body, res);
      else res.end();
      return null;
    }
    const html = await response.text();
    const headers = [...response.headers].filter(([name]) => !DROPPED_HEADERS.has(name));
    const values = { nonce: context.cspNonce, formStarted: context.formStarted };
    const { texts, slots } = cut(html, values);
    const deflatedTexts = texts.map(deflatePiece);
    const page: CachedPage = {
      status: response.status,
      headers,
      texts,
      deflatedTexts,
      slots,
      bytes: texts.reduce((sum, text) => sum + text.length, 0),
      deflatedBytes: deflatedTexts.reduce((sum, text) => sum + text.length, 0),
      expires: Date.now() + options.ttlMs,
    };
    if (startedIn === generation) store(key, page);
    send(req, res, page, "miss", values);
    return page;
  }

  const middleware: RequestHandler = async (req, res, next) => {
    if (options.ttlMs <= 0 || !isAnonymousPageRequest(req)) return options.fallback(req, res, next);
    const key = req.originalUrl;
    const head = req.method === "HEAD";
    try {
      const nonce = String(res.locals.cspNonce ?? "");
      const cached = fresh(req);
      if (cached) return send(req, res, cached, "hit", hitValues(nonce));
      const pending = renders.get(key);
      if (pending) {
        const page = await pending;
        if (page) return send(req, res, page, "hit", hitValues(nonce));
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
    /**
     * Answers from a fresh copy, if there is one, straight from Node's request (before Express):
     * `prepare` sets this response's headers (log, security) and returns its CSP nonce.
     */
    answer(
      req: IncomingMessage,
      res: ServerResponse,
      prepare: (req: IncomingMessage, res: ServerResponse) => string,
    ): boolean {
      const page = fresh(req);
      if (!page) return false;
      send(req, res, page, "hit", hitValues(prepare(req, res)));
      return true;
    },
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
