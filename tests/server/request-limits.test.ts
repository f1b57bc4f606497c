import { createHash, randomBytes } from "node:crypto";
import { Agent, request, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readAdminForm } from "#server/forms/admin-form.server.ts";
import { hasNulByte } from "#server/forms/form-post.server.ts";
import { reactRouterHandler, requestContext } from "#server/react-router-handler.server.ts";
import { bodyLimit, requestLimits } from "#server/request-limits.server.ts";

/**
 * The request limits in front of React Router (server/request-limits.server.ts) and the Express
 * adapter that reads bodies through them, on a real HTTP server with a stand-in for React Router:
 * what reaches a route, what is refused before, and what the client receives.
 */

type Route = (request: Request) => Promise<Response>;

let route: Route;
let routeCalls = 0;
let base: string;
let server: Server;

beforeAll(async () => {
  const app = express();
  app.use(requestLimits());
  app.use(
    reactRouterHandler(
      (request) => {
        routeCalls++;
        return route(request);
      },
      () => requestContext(),
    ),
  );
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  routeCalls = 0;
  route = async (request) => {
    const body = new Uint8Array(await request.arrayBuffer());
    return Response.json({
      bytes: body.byteLength,
      sha256: createHash("sha256").update(body).digest("hex"),
    });
  };
});

/** A chunked body of `bytes`, made 64 KB at a time as it is sent. */
function generated(bytes: number, fill = 0x61): ReadableStream<Uint8Array> {
  let left = bytes;
  return new ReadableStream({
    pull(controller) {
      if (left <= 0) return controller.close();
      const n = Math.min(64 * 1024, left);
      left -= n;
      controller.enqueue(new Uint8Array(n).fill(fill));
    },
  });
}

function post(path: string, body: BodyInit, headers: Record<string, string> = {}) {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}

/** node:http, which sends any method and reports the raw status and headers. */
function send(path: string, method: string, agent?: Agent, body?: Buffer) {
  return new Promise<{ status?: number; allow?: string; text: string }>((resolve, reject) => {
    const req = request(`${base}${path}`, { method, agent }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (part: string) => (text += part));
      res.on("end", () => resolve({ status: res.statusCode, allow: res.headers.allow, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("caps by route", () => {
  it("gives better-auth 16 KB, the webhook 1 MB, admin uploads the upload cap, forms 128 KB", () => {
    expect(bodyLimit("/api/auth/sign-in/email")).toBe(16 * 1024);
    expect(bodyLimit("/API/Auth/sign-out")).toBe(16 * 1024);
    expect(bodyLimit("/api/stripe/webhook")).toBe(1024 * 1024);
    expect(bodyLimit("/admin/courses.data")).toBeGreaterThan(5 * 1024 * 1024);
    expect(bodyLimit("/api/admin/media")).toBeGreaterThan(5 * 1024 * 1024);
    expect(bodyLimit("/contact")).toBe(128 * 1024);
    expect(bodyLimit("/auth")).toBe(128 * 1024);
  });
});

describe("bodies", () => {
  it("a chunked body within the cap reaches the route byte for byte", async () => {
    const bytes = randomBytes(900 * 1024);
    const response = await post("/api/stripe/webhook", new Blob([bytes]).stream());
    expect(await response.json()).toEqual({
      bytes: bytes.byteLength,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    });
  });

  it("a body exactly at the cap is read; one byte more is refused", async () => {
    const limit = bodyLimit("/api/auth/sign-in/email");
    const at = await post("/api/auth/sign-in/email", generated(limit));
    expect(((await at.json()) as { bytes: number }).bytes).toBe(limit);
    const over = await post("/api/auth/sign-in/email", generated(limit + 1));
    expect(over.status).toBe(413);
  });

  it("a chunked body over the cap fails the route's read; the client gets 413, not the route's answer", async () => {
    let readError: unknown;
    let aborted = false;
    let answered!: () => void;
    const routeDone = new Promise<void>((resolve) => (answered = resolve));
    route = async (request) => {
      try {
        await request.arrayBuffer();
      } catch (error) {
        readError = error;
      }
      aborted = request.signal.aborted;
      answered();
      return Response.json({ from: "the route" }, { status: 400 });
    };
    const response = await post("/api/auth/sign-out", generated(300 * 1024 * 1024));
    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.json()).toEqual({ error: "The request is too large." });
    await routeDone;
    expect(readError).toBeInstanceOf(Error);
    expect(aborted).toBe(true);
  });

  it("a client that keeps sending after the 413 has the answer, and is cut off within bounds", async () => {
    const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
    let received = "";
    let sent = 0;
    socket.setEncoding("utf8");
    socket.on("data", (text: string) => (received += text));
    socket.on("error", () => {});
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.write(
      "POST /api/auth/sign-out HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
    );
    const chunk = `10000\r\n${"a".repeat(0x10000)}\r\n`;
    let open = true;
    void closed.then(() => (open = false));
    // Ignores the answer and keeps sending, as a careless client would.
    while (open && sent < 1024 * 1024 * 1024) {
      sent += 0x10000;
      if (!socket.write(chunk)) {
        await new Promise((resolve) => {
          socket.once("drain", resolve);
          socket.once("close", resolve);
        });
      }
    }
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toMatch(/\r\nConnection: close\r\n/i);
    // Read off up to 64 MB after the answer, then closed.
    expect(sent).toBeGreaterThan(16 * 1024 * 1024);
    expect(sent).toBeLessThan(200 * 1024 * 1024);
  });

  it("a declared Content-Length over the cap is refused before any route runs", async () => {
    const response = await post("/contact", new Uint8Array(200 * 1024), {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(response.status).toBe(413);
    expect(await response.text()).toBe("The request is too large.\n");
    expect(routeCalls).toBe(0);
  });

  it("a route that answers without reading the body leaves the connection usable", async () => {
    route = async () => new Response("early", { status: 401 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await send("/admin/courses", "POST", agent, Buffer.alloc(1024 * 1024));
      expect(first).toMatchObject({ status: 401, text: "early" });
      route = async () => new Response("second");
      const second = await send("/admin/courses", "POST", agent, Buffer.alloc(10));
      expect(second).toMatchObject({ status: 200, text: "second" });
    } finally {
      agent.destroy();
    }
  });

  it("a route that cancels its read early still answers, and the rest is read off", async () => {
    route = async (request) => {
      const reader = request.body!.getReader();
      await reader.read();
      await reader.cancel();
      return new Response("stopped reading", { status: 413 });
    };
    const response = await post("/admin/courses", generated(3 * 1024 * 1024));
    expect(response.status).toBe(413);
    expect(await response.text()).toBe("stopped reading");
  });
});

describe("methods and URLs", () => {
  it("answers methods the site does not take with 405 and Allow, before any route", async () => {
    for (const method of ["TRACE", "PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND"]) {
      const answer = await send("/", method);
      expect(answer.status, method).toBe(405);
      expect(answer.allow).toBe("GET, HEAD, POST");
    }
    expect(routeCalls).toBe(0);
  });

  it("refuses NUL bytes and malformed percent-encoding in URLs with 400", async () => {
    for (const path of ["/admin/inquiries?q=a%00b", "/courses/%00", "/%E0%A4%A", "/a%zz"]) {
      expect((await send(path, "GET")).status, path).toBe(400);
    }
    expect(routeCalls).toBe(0);
    route = async () => new Response("ok");
    expect((await send("/about?x=%E0%A4%A", "GET")).status).toBe(200);
  });

  it("adds Allow: GET, HEAD to React Router's own 405 (a POST to a page without an action)", async () => {
    route = async () => new Response("no action", { status: 405 });
    const answer = await send("/about", "POST");
    expect(answer).toMatchObject({ status: 405, allow: "GET, HEAD" });
  });
});

describe("admin forms", () => {
  const form = (body: BodyInit, type?: string) =>
    new Request("http://site.test/admin/inquiries", {
      method: "POST",
      headers: type ? { "content-type": type } : {},
      body,
    });

  it("reads a posted form", async () => {
    const posted = await readAdminForm(form(new URLSearchParams({ intent: "update" })));
    expect(posted.ok && posted.form.get("intent")).toBe("update");
  });

  it("refuses a body that is not a form, or a field with a NUL byte, with 400", async () => {
    expect(await readAdminForm(form('{"intent":"update"}', "application/json"))).toEqual({
      ok: false,
      status: 400,
    });
    expect(await readAdminForm(form(new URLSearchParams({ notes: "a\u0000b" })))).toEqual({
      ok: false,
      status: 400,
    });
    const named = new FormData();
    named.append("no\u0000te", "x");
    expect(hasNulByte(named)).toBe(true);
  });

  it("refuses random bytes, plain text, no content type and broken multipart with 400", async () => {
    const bytes = new Uint8Array(randomBytes(2048));
    for (const [body, type] of [
      [bytes, "application/octet-stream"],
      ["intent=update", "text/plain"],
      [bytes, undefined],
      [bytes, "multipart/form-data"],
      [
        '--zzz\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupdate',
        "multipart/form-data; boundary=zzz",
      ],
    ] as const) {
      expect(await readAdminForm(form(body, type)), String(type)).toEqual({
        ok: false,
        status: 400,
      });
    }
  });

  it("refuses a form over the cap with 413", async () => {
    const big = new URLSearchParams({ notes: "n".repeat(200 * 1024) });
    expect(await readAdminForm(form(big))).toEqual({ ok: false, status: 413 });
  });

  it("lets a file hold NUL bytes (they are bytes, not text)", () => {
    const withFile = new FormData();
    withFile.append("file", new Blob([new Uint8Array([0, 1, 0])]), "x.png");
    expect(hasNulByte(withFile)).toBe(false);
  });
});
