import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from "node:http";

/**
 * A small load balancer on loopback, for the fault tests, that behaves as the deployment's does
 * (deploy/Caddyfile): it checks every instance's `/readyz` every `checkEveryMs` and sends each
 * request to the next instance that last answered ready, over keep-alive connections. It does not
 * retry: a request that fails on its way to an instance is a failure the client sees (502), and
 * with no instance ready the answer is 503.
 */

export interface Balancer {
  url: string;
  /** Requests forwarded per instance, and those answered by the balancer itself. */
  stats: { forwarded: Record<string, number>; noInstance: number; upstreamErrors: string[] };
  /** When each instance was first seen not ready after being ready (ms since the epoch). */
  droppedAt: Record<string, number>;
  close(): Promise<void>;
}

export async function startBalancer(
  instances: string[],
  options: { port?: number; checkEveryMs?: number } = {},
): Promise<Balancer> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const ready = new Set<string>();
  const stats: Balancer["stats"] = { forwarded: {}, noInstance: 0, upstreamErrors: [] };
  const droppedAt: Record<string, number> = {};
  let next = 0;
  let closed = false;

  const check = async (instance: string) => {
    const ok = await fetch(`${instance}/readyz`, { signal: AbortSignal.timeout(1_000) })
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) ready.add(instance);
    else if (ready.delete(instance)) droppedAt[instance] ??= Date.now();
  };
  await Promise.all(instances.map(check));
  const checking = (async () => {
    while (!closed) {
      await new Promise((resolve) => setTimeout(resolve, options.checkEveryMs ?? 100));
      await Promise.all(instances.map(check));
    }
  })();

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const candidates = instances.filter((i) => ready.has(i));
    if (candidates.length === 0) {
      stats.noInstance++;
      res.writeHead(503, { "Retry-After": "1" }).end("no instance ready");
      return;
    }
    const instance = candidates[next++ % candidates.length]!;
    stats.forwarded[instance] = (stats.forwarded[instance] ?? 0) + 1;
    const upstream = request(
      `${instance}${req.url}`,
      { method: req.method, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on("error", () => res.destroy());
      },
    );
    upstream.on("error", (error) => {
      stats.upstreamErrors.push(`${instance}: ${error.message}`);
      if (res.headersSent) res.destroy();
      else res.writeHead(502).end(`upstream failed: ${error.message}`);
    });
    req.pipe(upstream);
  };

  const server = createServer(forward);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    droppedAt,
    async close() {
      closed = true;
      await checking;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
