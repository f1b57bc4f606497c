import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createAdmin, signIn, sleep, startSite, type Site } from "#tests/support/site-process.ts";
import {
  errorLines,
  rssGrowth,
  send,
  upload,
  type UploadResult,
} from "./request-limits-requests.ts";

/**
 * Bounded requests against the production server: bodies over a route's cap — sent chunked or
 * with a Content-Length, hundreds of megabytes generated as they are sent — are answered 413
 * without the server's memory growing, and the client receives that answer rather than a reset;
 * odd methods, malformed URLs and headers and non-form admin posts are client errors (4xx), never
 * a 500, and none of them is logged at error level (the server's JSON log is read back).
 */

const buildDir = inject("faultsBuildDir");
const PORT = 4558;
const MB = 1024 * 1024;
const ADMIN = { email: "limits-admin@example.com", password: "limits-password-0123" };

describe("bounded requests and clean client errors", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-faults-limits-"));
  let site: Site;
  let cookie: string;

  beforeAll(async () => {
    createAdmin({ ...ADMIN, dataDir });
    site = await startSite({
      port: PORT,
      buildDir,
      dataDir,
      // Sign-in is tried a few times here; its rate limit is not under test.
      env: { LOG_LEVEL: "info", SEED_DEMO_CONTENT: "false", SIGN_IN_RATE_LIMIT_PER_MINUTE: "1000" },
    });
    cookie = await signIn(site.url, ADMIN.email, ADMIN.password);
  });

  afterAll(async () => {
    await site?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const admin = (extra: Record<string, string> = {}) => ({
    cookie,
    origin: site.url,
    ...extra,
  });

  it.each(["/api/auth/sign-in/email", "/api/stripe/webhook"])(
    "a 300 MB chunked body to %s is answered 413, memory stays flat, the client gets the answer",
    async (route) => {
      let result: UploadResult | undefined;
      const growth = await rssGrowth(site, async () => {
        result = await upload(`${site.url}${route}`, 300 * MB);
      });
      expect(result).toMatchObject({ status: 413, connection: "close" });
      expect(result!.error).toBeUndefined();
      expect(JSON.parse(result!.body!)).toEqual({ error: "The request is too large." });
      // Refused long before the end: the client stopped sending.
      expect(result!.sent).toBeLessThan(100 * MB);
      expect(growth).toBeLessThan(50 * MB);
    },
  );

  it("ten parallel 300 MB sign-outs (no session needed) leave memory flat", async () => {
    let results: UploadResult[] = [];
    const growth = await rssGrowth(site, async () => {
      results = await Promise.all(
        Array.from({ length: 10 }, () => upload(`${site.url}/api/auth/sign-out`, 300 * MB)),
      );
    });
    for (const result of results) expect(result).toMatchObject({ status: 413 });
    expect(growth).toBeLessThan(50 * MB);
  });

  it.each(["/api/auth/sign-in/email", "/api/stripe/webhook", "/contact", "/admin/courses"])(
    "a body declared larger than the cap of %s is refused unread with 413",
    async (route) => {
      const result = await upload(`${site.url}${route}`, 300 * MB, { declareLength: true });
      expect(result).toMatchObject({ status: 413 });
      expect(result.error).toBeUndefined();
      expect(result.sent).toBeLessThan(100 * MB);
    },
  );

  it("fetch with a streamed body over the cap receives the 413 (no reset)", async () => {
    let left = 300 * MB;
    const chunk = new Uint8Array(64 * 1024);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (left <= 0) return controller.close();
        left -= chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${site.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: site.url },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "The request is too large." });
  });

  it("an early answer to a large upload from a client that sent Connection: close is not a reset", async () => {
    // React Router answers a .data post with a foreign Origin (400) before reading its body; with
    // Connection: close, Node used to close the socket at once and the client saw EPIPE instead.
    const answers: string[] = [];
    let n = 0;
    const worker = async () => {
      while (n++ < 24) {
        const form = new FormData();
        form.append("intent", "save");
        form.append("title", "T");
        form.append(
          "thumbnail",
          new File([new Uint8Array(5 * MB)], "big.png", { type: "image/png" }),
        );
        try {
          const response = await fetch(`${site.url}/admin/courses.data`, {
            method: "POST",
            headers: admin({ origin: "https://evil.example", connection: "close" }),
            body: form,
          });
          await response.arrayBuffer();
          answers.push(String(response.status));
        } catch (error) {
          const cause = (error as Error).cause as { code?: string } | undefined;
          answers.push(`no answer: ${cause?.code ?? (error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    expect(answers).toEqual(answers.map(() => "400"));
  });

  it("bodies within the caps still work, chunked or not", async () => {
    const wrong = JSON.stringify({ email: ADMIN.email, password: "not-the-password-0" });
    const chunked = await upload(`${site.url}/api/auth/sign-in/email`, 0, {
      headers: { origin: site.url },
    });
    // An empty JSON body: better-auth's own 4xx, not a cap.
    expect(chunked.status).toBeGreaterThanOrEqual(400);
    expect(chunked.status).toBeLessThan(500);
    const response = await fetch(`${site.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: site.url },
      body: wrong,
    });
    expect(response.status).toBe(401);
    expect((await fetch(`${site.url}/healthz`)).status).toBe(200);
  });

  it("TRACE, PUT and other methods the site does not take are 405 with Allow, no stack trace", async () => {
    for (const [method, url] of [
      ["TRACE", "/"],
      ["PUT", "/"],
      ["DELETE", "/about"],
      ["PATCH", "/contact"],
      ["OPTIONS", "/"],
      ["PROPFIND", "/"],
      ["TRACE", "/admin/courses"],
      ["DELETE", "/api/admin/media"],
      ["PUT", "/api/auth/sign-in/email"],
      ["OPTIONS", "/api/stripe/webhook"],
    ] as const) {
      const answer = await send(`${site.url}${url}`, method);
      expect(answer.status, `${method} ${url}`).toBe(405);
      expect(answer.allow).toBe("GET, HEAD, POST");
      expect(answer.body).not.toMatch(/\bat .+:\d+:\d+/);
    }
  });

  it("a POST to a page without an action is 405 (Allow: GET, HEAD)", async () => {
    for (const url of ["/about", "/about.data"]) {
      const response = await fetch(`${site.url}${url}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: site.url },
        body: "a=b",
      });
      await response.arrayBuffer();
      expect(response.status, url).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD");
    }
  });

  it("malformed Origin headers, percent-encoding and NUL bytes in URLs are 4xx", async () => {
    for (const origin of ["::::", "http://", "https://evil.example"]) {
      const response = await fetch(`${site.url}/contact`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: "name=a",
      });
      await response.arrayBuffer();
      expect(response.status, origin).toBe(400);
    }
    const auth = await fetch(`${site.url}/api/auth/sign-out`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "::::", cookie: "a=b" },
      body: "{}",
    });
    expect(auth.status).toBe(403);
    for (const url of ["/%E0%A4%A", "/courses/%ED%A0%80", "/%zz", "/courses/%00", "/about?x=%00"]) {
      const response = await fetch(`${site.url}${url}`);
      await response.arrayBuffer();
      expect(response.status, url).toBe(400);
    }
  });

  it("a raw NUL or control byte in the request line (not percent-encoded) is answered 400", async () => {
    for (const target of [
      "/admin/inquiries?q=a\u0000b",
      "/about\u0001",
      "/admin/payments?q=\u007f",
    ]) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(PORT, "127.0.0.1");
        let received = "";
        socket.setEncoding("latin1");
        socket.on("data", (text: string) => {
          received += text;
          // The status line and headers are enough (a kept-alive connection would stay open).
          if (received.includes("\r\n\r\n")) socket.destroy();
        });
        socket.on("error", reject);
        socket.on("close", () => resolve(received));
        socket.write(
          `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\ncookie: ${cookie}\r\n\r\n`,
          "latin1",
        );
        socket.setTimeout(10_000, () => socket.destroy(new Error("no answer within 10 s")));
      });
      expect(answer, JSON.stringify(target)).toMatch(/^HTTP\/1\.1 400 /);
    }
  });

  it("admin lists and exports with a NUL byte in the search are 400, not a failed load", async () => {
    for (const url of [
      "/admin/inquiries?q=a%00b",
      "/admin/payments?q=a%00b",
      "/admin/newsletter-subscriptions?q=a%00b",
      "/admin/inquiries/export?q=a%00b",
      "/admin/payments/export?q=%00",
      "/admin/inquiries.data?q=%00",
    ]) {
      const response = await fetch(`${site.url}${url}`, { headers: admin() });
      await response.arrayBuffer();
      expect(response.status, url).toBe(400);
    }
  });

  it("admin actions given a non-form body or a NUL byte answer 400", async () => {
    const json = JSON.stringify({ intent: "update" });
    for (const url of [
      "/admin/inquiries",
      "/admin/inquiries.data",
      "/admin/payments.data",
      "/admin/newsletter-subscriptions.data",
    ]) {
      const response = await fetch(`${site.url}${url}`, {
        method: "POST",
        headers: admin({ "content-type": "application/json" }),
        body: json,
      });
      await response.arrayBuffer();
      expect(response.status, `JSON to ${url}`).toBe(400);
    }
    const nul: [string, Record<string, string>][] = [
      [
        "/admin/inquiries.data",
        {
          intent: "update",
          id: crypto.randomUUID(),
          status: "in_progress",
          notes: "called back\u0000",
        },
      ],
      ["/admin/payments.data", { intent: "status", orderId: "\u0000", status: "paid" }],
      ["/admin/categories.data", { intent: "save", name: "Fraud\u0000", slug: "" }],
    ];
    for (const [url, fields] of nul) {
      const response = await fetch(`${site.url}${url}`, {
        method: "POST",
        headers: admin({ "content-type": "application/x-www-form-urlencoded" }),
        body: new URLSearchParams(fields).toString(),
      });
      await response.arrayBuffer();
      expect(response.status, `NUL to ${url}`).toBe(400);
    }
  });

  it("a POST to other pages without an action, signed in or not, is 405 too", async () => {
    for (const [url, headers] of [
      ["/privacy", { origin: site.url }],
      ["/terms.data", { origin: site.url }],
      ["/admin/dashboard", admin()],
      ["/admin/dashboard.data", admin()],
    ] as const) {
      const response = await fetch(`${site.url}${url}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: "intent=save",
      });
      await response.arrayBuffer();
      expect(response.status, url).toBe(405);
    }
  });

  it("malformed or foreign Origin headers on .data posts (JavaScript fetchers) are 4xx", async () => {
    for (const origin of ["::::", "http://", "null", "https://evil.example", `${site.url}.evil`]) {
      for (const [url, headers] of [
        ["/contact.data", {}],
        ["/newsletter.data", {}],
        ["/admin/inquiries.data", { cookie }],
        ["/admin/courses.data", { cookie }],
      ] as const) {
        const response = await fetch(`${site.url}${url}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", ...headers, origin },
          body: "intent=update&name=a",
        });
        await response.arrayBuffer();
        expect(response.status, `${origin} → ${url}`).toBe(400);
      }
    }
  });

  /** Each admin action with the message its screen shows (as a toast) when a post fails. */
  const ADMIN_ACTIONS = [
    ["/admin/inquiries", "Failed to update inquiry"],
    ["/admin/payments", "Failed to update order status"],
    ["/admin/newsletter-subscriptions", "Failed to update subscription status"],
    ["/admin/courses", "Failed to save course"],
    ["/admin/categories", "Failed to save category"],
    ["/admin/partners", "Failed to save partner"],
  ] as const;

  it("every admin action answers a non-form body with 400 and its screen's message", async () => {
    const bodies: [string, string, BodyInit][] = [
      ["JSON", "application/json", JSON.stringify({ intent: "save", name: "x" })],
      ["text", "text/plain", "intent=save"],
      ["random bytes", "application/octet-stream", new Uint8Array(randomBytes(4096))],
      ["multipart without a boundary", "multipart/form-data", new Uint8Array(randomBytes(512))],
      [
        "broken multipart",
        "multipart/form-data; boundary=zzz",
        '--zzz\r\nContent-Disposition: form-data; name="intent"\r\n\r\nsave',
      ],
    ];
    for (const [path, message] of ADMIN_ACTIONS) {
      for (const url of [path, `${path}.data`]) {
        for (const [what, type, body] of bodies) {
          const response = await fetch(`${site.url}${url}`, {
            method: "POST",
            headers: admin({ "content-type": type }),
            body,
          });
          const text = await response.text();
          expect(response.status, `${what} to ${url}`).toBe(400);
          // The toast's text: the screen's failure message, or the body reader's own.
          if (url.endsWith(".data"))
            expect(text, `${what} to ${url}`).toMatch(
              new RegExp(
                `"ok",false,.*"(${message}|The form could not be read\\. Please try again\\.)"`,
              ),
            );
        }
      }
    }
    // The editor's image upload (a resource route): JSON in, JSON out.
    for (const [what, type, body] of bodies) {
      const response = await fetch(`${site.url}/api/admin/media`, {
        method: "POST",
        headers: admin({ "content-type": type }),
        body,
      });
      expect(response.status, `${what} to /api/admin/media`).toBe(400);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }
  });

  it("every admin action answers a NUL byte in a field, or in a field's name, with 400", async () => {
    const id = crypto.randomUUID();
    const posts: [string, Record<string, string>][] = [
      ["/admin/inquiries", { intent: "update", id, status: "new", notes: "a\u0000" }],
      ["/admin/payments", { intent: "status", orderId: id, status: "paid\u0000" }],
      ["/admin/newsletter-subscriptions", { intent: "toggle", id, active: "true", "x\u0000": "" }],
      ["/admin/courses", { intent: "save", title: "Course\u0000", slug: "" }],
      ["/admin/categories", { intent: "save", name: "Fraud", "slug\u0000": "x" }],
      ["/admin/partners", { intent: "delete", id: `${id}\u0000` }],
    ];
    for (const [path, fields] of posts) {
      for (const multipart of [false, true]) {
        const form = new FormData();
        for (const [k, v] of Object.entries(fields)) form.append(k, v);
        const response = await fetch(`${site.url}${path}.data`, {
          method: "POST",
          headers: admin(multipart ? {} : { "content-type": "application/x-www-form-urlencoded" }),
          body: multipart ? form : new URLSearchParams(fields).toString(),
        });
        await response.arrayBuffer();
        expect(response.status, `${multipart ? "multipart" : "urlencoded"} NUL to ${path}`).toBe(
          400,
        );
      }
    }
  });

  it("none of the above was logged at error level", async () => {
    await sleep(200);
    expect(errorLines(site)).toEqual([]);
  });
});
