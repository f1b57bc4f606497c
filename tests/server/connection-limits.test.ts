import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  capConnectionsPerClient,
  REQUEST_DEADLINE_MS,
  SERVER_TIMEOUTS,
} from "#server/request-limits.server.ts";

/**
 * Slow requests cannot pile up (server/request-limits.server.ts): one client address holds at
 * most its cap of open connections — on a real HTTP server built as server.ts builds it — and a
 * request must arrive whole within the deadline.
 */
const CAP = 5;
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer(SERVER_TIMEOUTS, (_req, res) => res.end("ok"));
  capConnectionsPerClient(server, CAP);
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Opens a connection that starts a request and trickles nothing more: a slow body. */
function slowClient(): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write("POST /contact HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\nab");
      resolve({ socket, closed });
    });
    const closed = new Promise<void>((done) => socket.once("close", () => done()));
    socket.on("error", () => {});
  });
}

describe("connections per client", () => {
  it(`holds at most ${CAP} from one address; more are closed as they open, and room comes back`, async () => {
    const clients = await Promise.all(Array.from({ length: CAP + 3 }, slowClient));
    const settled = await Promise.all(
      clients.map(({ closed }) =>
        Promise.race([closed.then(() => "closed"), new Promise((r) => setTimeout(r, 500, "open"))]),
      ),
    );
    expect(settled.filter((s) => s === "open")).toHaveLength(CAP);
    expect(settled.filter((s) => s === "closed")).toHaveLength(3);

    // One of the held ones goes away: a new connection is served.
    const held = clients.filter((_, i) => settled[i] === "open");
    held[0]!.socket.destroy();
    await held[0]!.closed;
    await new Promise((r) => setTimeout(r, 50));
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(port, "127.0.0.1", () =>
        socket.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
      );
      let text = "";
      socket.on("data", (chunk) => (text += chunk));
      socket.on("close", () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    for (const { socket } of held) socket.destroy();
  });

  it("a request must arrive whole within a minute, body included", () => {
    expect(SERVER_TIMEOUTS.requestTimeout).toBe(REQUEST_DEADLINE_MS);
    expect(REQUEST_DEADLINE_MS).toBeLessThanOrEqual(60_000);
    expect(SERVER_TIMEOUTS.connectionsCheckingInterval).toBeLessThanOrEqual(5_000);
  });
});
