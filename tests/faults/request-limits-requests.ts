import { request } from "node:http";
import { sleep, type Site } from "#tests/support/site-process.ts";

/**
 * Requests for the request-limit fault tests: huge uploads made on the fly, any method through
 * node:http, the server's memory growth while they run, and its error-level log lines.
 */

export interface UploadResult {
  status?: number;
  body?: string;
  /** The answer's Connection header ('close': the server ends the connection after the 413). */
  connection?: string;
  /** Bytes written before the answer came (or the connection failed). */
  sent: number;
  /** A socket error before any answer: a reset instead of the 413. */
  error?: string;
}

/**
 * POSTs `total` bytes made on the fly (64 KB at a time, never held whole), chunked unless
 * `declareLength`. Like a browser, it stops sending once the answer arrives.
 */
export function upload(
  url: string,
  total: number,
  options: { declareLength?: boolean; headers?: Record<string, string> } = {},
): Promise<UploadResult> {
  const chunk = Buffer.alloc(64 * 1024, "a");
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const req = request(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(options.declareLength ? { "content-length": String(total) } : {}),
        ...options.headers,
      },
    });
    req.setTimeout(60_000, () => req.destroy(new Error("no answer within 60 s")));
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (text: string) => (body += text));
      res.on("end", () => {
        resolve({ status: res.statusCode, body, sent, connection: res.headers.connection });
        req.destroy();
      });
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (!answered) resolve({ sent, error: error.code ?? error.message });
    });
    const write = () => {
      while (!answered && sent < total) {
        const part = chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += part.length;
        if (!req.write(part)) {
          req.once("drain", write);
          return;
        }
      }
      if (!answered) req.end();
    };
    write();
  });
}

/** One request with node:http, which sends any method (fetch refuses TRACE). */
export function send(
  url: string,
  method: string,
): Promise<{ status?: number; allow?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (text: string) => (body += text));
      res.on("end", () => resolve({ status: res.statusCode, allow: res.headers.allow, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Runs `work` while sampling the server's RSS every 20 ms; returns the growth over the start. */
export async function rssGrowth(site: Site, work: () => Promise<unknown>): Promise<number> {
  const before = site.rss() ?? 0;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, site.rss() ?? 0)), 20);
  try {
    await work();
    // Memory a reader took would still be held a moment after the answer.
    await sleep(200);
    peak = Math.max(peak, site.rss() ?? 0);
  } finally {
    clearInterval(sampler);
  }
  return peak - before;
}

/** The server's log lines at error level or worse, and anything it printed that is not JSON. */
export function errorLines(site: Site): string[] {
  return site
    .output()
    .split("\n")
    .filter((line) => line.trim() !== "")
    .filter((line) => {
      try {
        return (JSON.parse(line) as { level?: number }).level! >= 50;
      } catch {
        return true;
      }
    });
}
