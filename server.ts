import express from "express";
import expressStaticGzip from "express-static-gzip";
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";

/**
 * The production (and `--dev`) entry: static assets, then the app built from server/app.ts.
 * Opens the database before listening and closes it on SIGTERM/SIGINT.
 * `npm run build` compiles this file to BUILD_DIR/server.js, beside the app it serves, and
 * production runs that with plain Node; `npm run dev` runs this source with tsx and Vite.
 */

type AppModule = typeof import("./server/app.ts");

// Whatever this process creates is the server's user's alone (decision 0021). PGlite does not
// honour it for its files (it writes them 0666), so DATA_DIR is also tightened after it opens.
process.umask(0o077);

const dev = process.argv.includes("--dev");
// React and React Router pick their production builds from NODE_ENV: set it before loading them.
// A write, not a read: settings are still read in server/config.server.ts only.
// eslint-disable-next-line no-restricted-properties -- must run before React is imported
process.env.NODE_ENV ??= dev ? "development" : "production";
const server = express();
server.disable("x-powered-by");

/*
 * The process's phase, for every request it answers: starting (503 until the database is open
 * and the workers run), serving, or draining after SIGTERM — `/readyz` answers 503 at once, so a
 * load balancer stops sending, and each response closes its connection. Requests in flight are
 * counted, so shutdown waits for them and logs any it has to cut.
 */
let phase: "starting" | "serving" | "draining" = "starting";
const inFlight = new Map<object, string>();
server.use((req, res, next) => {
  const entry = {};
  inFlight.set(entry, `${req.method} ${req.path}`);
  res.once("close", () => inFlight.delete(entry));
  if (phase === "serving") return next();
  res.setHeader("Cache-Control", "no-store");
  if (phase === "starting") {
    if (req.path === "/healthz") return next();
    res.setHeader("Retry-After", "1");
    res.status(503).json({ status: "starting" });
    return;
  }
  res.setHeader("Connection", "close");
  if (req.path === "/readyz") {
    res.status(503).json({ status: "draining" });
    return;
  }
  next();
});

let appModule: AppModule;
if (dev) {
  const vite = await import("vite").then((v) =>
    v.createServer({ server: { middlewareMode: true } }),
  );
  server.use(vite.middlewares);
  appModule = (await vite.ssrLoadModule("./server/app.ts")) as AppModule;
  server.use(async (req, res, next) => {
    try {
      const fresh = (await vite.ssrLoadModule("./server/app.ts")) as AppModule;
      fresh.app(req, res, next);
    } catch (error) {
      if (error instanceof Error) vite.ssrFixStacktrace(error);
      next(error);
    }
  });
} else {
  // Compiled into the build directory: the app and its browser files are beside this file.
  appModule = (await import(new URL("./server/index.js", import.meta.url).href)) as AppModule;
  const clientDir = fileURLToPath(new URL("./client", import.meta.url));
  // Files are answered before the app's security headers; a browser must still take each one
  // as the type it is sent as.
  const setHeaders = (res: { setHeader(name: string, value: string): unknown }) =>
    res.setHeader("X-Content-Type-Options", "nosniff");
  // Hashed file names never change content: cache them for a year. Each was compressed at build
  // time (vite.config.ts): the brotli or gzip copy is sent to a browser that takes it.
  server.use(
    "/assets",
    expressStaticGzip(`${clientDir}/assets`, {
      enableBrotli: true,
      orderPreference: ["br", "gzip"],
      serveStatic: { immutable: true, maxAge: "1y", index: false, setHeaders },
    }),
  );
  // Other public files (favicon): only names with an extension can be files, so page requests
  // skip the file-system lookup.
  const publicFiles = express.static(clientDir, {
    maxAge: "1h",
    index: false,
    setHeaders,
  });
  server.use((req, res, next) => (/\.\w+$/.test(req.path) ? publicFiles(req, res, next) : next()));
  server.use(appModule.app);
}

const { config, log, start, stop, SERVER_TIMEOUTS, capConnectionsPerClient } = appModule;
// Rate limits and sign-in throttling key on req.ip: only believe X-Forwarded-For from our proxies.
server.set("trust proxy", config.trustProxy);

// Node's own server, with deadlines for slow requests and a cap per client address
// (server/request-limits.server.ts). It listens before anything starts, so a port already in use
// ends the process before any worker sends an e-mail or runs a job.
const http: Server = createServer(SERVER_TIMEOUTS, server);
capConnectionsPerClient(http, config.connectionsPerClient);
try {
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(config.port, config.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
} catch (error) {
  const inUse = (error as NodeJS.ErrnoException).code === "EADDRINUSE";
  const message = inUse
    ? `Port ${config.port} is already in use (is the site already running?): set PORT to a free one.`
    : `Cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`;
  log.error({ err: error, port: config.port }, message);
  console.error(`\n${message}\n`);
  process.exit(1);
}

try {
  await start();
} catch (error) {
  log.error({ err: error }, "start-up failed");
  console.error(`\n${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
phase = "serving";
{
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  log.info({ port, url: config.publicUrl }, `NightWatch site listening on port ${port}`);
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  const { graceMs, timeoutMs } = config.shutdown;
  log.info({ signal, graceMs, timeoutMs }, "shutting down: /readyz now answers 503");
  // Draining: /readyz fails at once while requests are still served for the grace period, so a
  // load balancer stops sending before new connections are refused.
  phase = "draining";
  await new Promise((resolve) => setTimeout(resolve, graceMs));
  const closed = new Promise<void>((resolve) => http.close(() => resolve()));
  http.closeIdleConnections();
  // Requests in flight finish, up to the deadline; any still going then are cut, and said so.
  const deadline = Date.now() + timeoutMs;
  while (inFlight.size > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (inFlight.size > 0) {
    log.warn(
      { cut: inFlight.size, requests: [...inFlight.values()].slice(0, 20) },
      "requests cut at shutdown: still running at the deadline",
    );
  }
  http.closeAllConnections();
  await closed;
  try {
    await stop();
  } catch (error) {
    log.error({ err: error }, "error while closing the database");
    process.exitCode = 1;
  }
  log.info("stopped");
  process.exit();
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
