import { randomUUID } from "node:crypto";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import "react-router";
import { config } from "./config.server.ts";
import { closeDatabase, openDatabase } from "./db/client.server.ts";
import { seedDemoContent } from "./db/seed.server.ts";
import { configuredTarget, describeTarget } from "./db/target.server.ts";
import { log } from "./log.server.ts";

/**
 * The application as one module graph: the Express handler for React Router plus the
 * lifecycle (`start`, `stop`) that server.ts drives. Built by Vite as the SSR entry, so
 * route modules and this file share one database handle.
 */

export { config, log };

export const app = express();
app.disable("x-powered-by");

app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  const requestId = (req.get("x-request-id") ?? "").slice(0, 100) || randomUUID();
  res.setHeader("x-request-id", requestId);
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    log.info(
      { requestId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms) },
      "request",
    );
  });
  next();
});

app.use(
  createRequestHandler({
    build: () => import("virtual:react-router/server-build"),
  }),
);

export async function start(): Promise<void> {
  const target = configuredTarget();
  const handle = await openDatabase(target);
  log.info({ database: describeTarget(target) }, "database ready");
  if (config.seedDemoContent) {
    const { seeded } = await seedDemoContent(handle.db);
    if (seeded) log.info("demo content inserted into the empty database");
  }
}

export async function stop(): Promise<void> {
  await closeDatabase();
}
