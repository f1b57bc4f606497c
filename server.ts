import express from "express";
import expressStaticGzip from "express-static-gzip";
import type { Server } from "node:http";
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

const { config, log, start, stop } = appModule;
// Rate limits and sign-in throttling key on req.ip: only believe X-Forwarded-For from our proxies.
server.set("trust proxy", config.trustProxy);

try {
  await start();
} catch (error) {
  log.error({ err: error }, "start-up failed");
  console.error(`\n${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

const http: Server = server.listen(config.port, config.host, () => {
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  log.info({ port, url: config.publicUrl }, `NightWatch site listening on port ${port}`);
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "shutting down");
  // Stop accepting, let in-flight requests finish (bounded), then close the database.
  const closed = new Promise<void>((resolve) => http.close(() => resolve()));
  http.closeIdleConnections();
  const timeout = setTimeout(() => http.closeAllConnections(), 10_000);
  await closed;
  clearTimeout(timeout);
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
