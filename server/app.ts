import compression from "compression";
import type { Server } from "node:http";
import { constants as zlibConstants } from "node:zlib";
import express from "express";
import { createRequestHandler as createReactRouterHandler } from "react-router";
import { config } from "./config.server.ts";
import { onCatalogueChange } from "./catalogue/write.server.ts";
import { closeDatabase, databaseReady, openDatabase } from "./db/client.server.ts";
import { serveBackups } from "./db/backup.server.ts";
import { seedDemoContent } from "./db/seed.server.ts";
import { configuredTarget, describeTarget } from "./db/target.server.ts";
import { refuseWritesWhenDiskLow, startDiskWatch, stopDiskWatch } from "./disk-space.server.ts";
import { startOutboxWorker, stopOutboxWorker } from "./email/worker.server.ts";
import { startRetentionSchedule, stopRetentionSchedule } from "./privacy/retention.server.ts";
import {
  onSellerSettingsChange,
  startSellerSettings,
  stopSellerSettings,
} from "./seller-settings.server.ts";
import { ensureInitialAdmin } from "./auth/accounts.server.ts";
import { loadSharedAuthSecret } from "./auth/secret.server.ts";
import { log, requestScope } from "./log.server.ts";
import { createPageCache } from "./page-cache.server.ts";
import {
  answeringUnavailableDatabase,
  reactRouterHandler,
  requestContext,
} from "./react-router-handler.server.ts";
import { requestLimits } from "./request-limits.server.ts";
import { logRequest } from "./request-log.server.ts";
import { metricsEndpoint, watchDatabasePool } from "./metrics.server.ts";
import { securityHeaders } from "./security-headers.server.ts";
import { serveLocalMedia } from "./storage/local.server.ts";

/**
 * The application as one module graph: the Express router for React Router plus the
 * lifecycle (`start`, `stop`) that server.ts drives. Built by Vite as the SSR entry, so
 * route modules and this file share one database handle.
 */

export { config, log };
// For server.ts, which builds the HTTP server around the app.
export { capConnectionsPerClient, SERVER_TIMEOUTS } from "./request-limits.server.ts";

// A router, not a second Express application: mounting an application would re-run Express's
// per-request set-up on every request. server.ts owns the application and its settings
// (`trust proxy` from config: rate limits and sign-in throttling key on req.ip).
export const app = express.Router();

app.use((req, res, next) => {
  const requestId = logRequest(req, res);
  requestScope.run({ requestId }, next);
});

app.use(securityHeaders());

// Methods, URLs and body sizes no route should see are refused here (405, 400, 413); bodies are
// read through a cap per route (server/request-limits.server.ts).
app.use(requestLimits());
// Below MIN_FREE_DISK_MB free, posts are refused at once: the disk is never allowed to fill.
app.use(refuseWritesWhenDiskLow());

// Liveness: the process answers. Readiness: it can reach its database.
app.get("/healthz", (_req, res) => {
  res.setHeader("Cache-Control", "no-store");
  res.json({ status: "ok" });
});
// Prometheus metrics, to a bearer of METRICS_TOKEN (no such page without it).
app.get("/metrics", metricsEndpoint());
app.get("/readyz", async (_req, res) => {
  res.setHeader("Cache-Control", "no-store");
  try {
    // On a connection of its own, with a short timeout: slow pages cannot make it slow.
    await databaseReady();
    res.json({ status: "ready" });
  } catch (error) {
    log.warn({ err: error }, "readiness check failed");
    res.status(503).json({ status: "unavailable" });
  }
});

// Uploaded images on local disk (with S3_BUCKET set they are served by the bucket instead).
if (config.media.kind === "local") app.use("/media", serveLocalMedia(config.media.dir));

const build = () => import("virtual:react-router/server-build");
const mode = config.env === "development" ? "development" : "production";

// Public pages for visitors without cookies come from a few-second cache of whole responses
// (compressed once per page); everything else is rendered by React Router and compressed as sent.
// A route the database failed (restart, lost connection, full disk) answers 503 + Retry-After.
const handleRequest = answeringUnavailableDatabase(createReactRouterHandler(build, mode));
const pageCache = createPageCache({
  ttlMs: config.env === "development" ? 0 : config.pageCacheMs,
  publicUrl: config.publicUrl,
  // A shared render knows nothing of the visitor: no headers, no address.
  render: (request) => handleRequest(request, requestContext()),
});
onCatalogueChange(() => pageCache.clear());
// Pages show the seller's name and address in their footer.
onSellerSettingsChange(() => pageCache.clear());
app.use(pageCache.middleware);
// Brotli's default window (4 MiB) gives every compressed response ≈ 10 MB of encoder state. It is
// freed when the response ends, but the C allocator keeps much of it in its per-thread arenas: in
// five minutes of mixed traffic (npm run bench -- --only soak) its heaps grew by ~250 MB and were
// still growing. With a 256 KiB window (≈ 2 MB of state) they grow by ~100 MB and level off; the
// window is larger than any page the site renders, so pages compress just as well.
const BROTLI_WINDOW = { params: { [zlibConstants.BROTLI_PARAM_LGWIN]: 18 } };
app.use(
  compression({ brotli: BROTLI_WINDOW }),
  // For per-client rate limits on public forms (Express's `trust proxy` decides what req.ip is).
  reactRouterHandler(handleRequest, (req) =>
    requestContext(req.ip ?? req.socket.remoteAddress ?? ""),
  ),
);

let backupSocket: Server | undefined;

export async function start(): Promise<void> {
  const target = configuredTarget();
  const handle = await openDatabase(target);
  log.info({ database: describeTarget(target) }, "database ready");
  await startDiskWatch(config.dataDir, config.minFreeDiskBytes);
  // `npm run backup` asks the running site for a snapshot of its embedded database.
  if (target.kind === "pglite" && handle.dumpDataDir) {
    backupSocket = await serveBackups(target.dataDir, handle.dumpDataDir);
  }
  if (handle.poolStats) watchDatabasePool(handle.poolStats);
  // Several instances on one PostgreSQL share one secret (unless BETTER_AUTH_SECRET sets it).
  if (handle.kind === "postgres") await loadSharedAuthSecret(handle.db);
  if (config.seedDemoContent) {
    const { seeded } = await seedDemoContent(handle.db);
    if (seeded) log.info("demo content inserted into the empty database");
  }
  // First start with no admin at all: one from ADMIN_EMAIL, with a random password shown once.
  const initialAdmin = await ensureInitialAdmin();
  if (initialAdmin) {
    log.warn(
      { email: initialAdmin.email },
      `First admin account created: ${initialAdmin.email} with password ${initialAdmin.password} ` +
        `— sign in at ${config.publicUrl}/auth. This password is not shown again ` +
        "(create more admins with `npm run admin:create -- --email you@example.com`).",
    );
  }
  // The seller's settings saved on the admin Settings screen, over the environment's.
  await startSellerSettings();
  if (!config.seller.bank) {
    log.warn(
      config.seller.paymentInstructions
        ? "invoices carry no bank details: they print PAYMENT_INSTRUCTIONS instead"
        : "invoices carry no bank details and no PAYMENT_INSTRUCTIONS: they tell buyers to contact you (set BANK_* or PAYMENT_INSTRUCTIONS)",
    );
  }
  // Sends queued e-mail in the background (SMTP, or .eml files without SMTP_URL).
  startOutboxWorker();
  // Anonymises inquiries past INQUIRY_RETENTION_MONTHS, hourly (idempotent on every instance).
  startRetentionSchedule();
}

export async function stop(): Promise<void> {
  backupSocket?.close();
  // Let the message being sent finish before the database goes.
  await stopOutboxWorker();
  await stopRetentionSchedule();
  stopSellerSettings();
  await closeDatabase();
  stopDiskWatch();
}
