import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The production server (server.ts on a BUILD_DIR build) as a child process, for benchmarks and
 * fault tests: started on its own port and data directory, waited for on /readyz, stopped with
 * SIGTERM or killed with SIGKILL — always by the pid we spawned, never by name.
 */

export const ROOT = path.resolve(import.meta.dirname, "../..");

export interface SiteOptions {
  port: number;
  buildDir: string;
  /** DATA_DIR (embedded database, media, outbox copies). */
  dataDir: string;
  /** A PostgreSQL database instead of the embedded one. */
  databaseUrl?: string;
  /** Extra environment (wins over the defaults below). */
  env?: Record<string, string | undefined>;
  /** How long start-up may take (a first PGlite initdb is ≈ 5–20 s on a busy machine). */
  readyTimeoutMs?: number;
  /** "ignore": drop stdout (the JSON logs) so that a benchmark does not pay for reading them. */
  stdout?: "pipe" | "ignore";
  /** Node options before the script (e.g. `--expose-gc`, `--import` of a benchmark's probe). */
  nodeArgs?: string[];
  /** Opens an IPC channel to the server (`child.send`, `'message'`), for a benchmark's probe. */
  ipc?: boolean;
}

export interface Site {
  readonly port: number;
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** stdout + stderr so far (the last ≈ 2 MB). */
  output(): string;
  /** Resident memory of the server process in bytes (Linux /proc), or null. */
  rss(): number | null;
  /** SIGTERM (graceful) and wait for the exit; SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<number | null>;
  /** SIGKILL, as a crash would, and wait for the exit. */
  kill9(): Promise<void>;
  readonly exited: Promise<number | null>;
}

const OUTPUT_LIMIT = 2_000_000;

/**
 * This process's environment without its test settings (DATABASE_URL, NODE_ENV, VITEST_*), which
 * must not leak into a production server or script started from a test.
 */
export function parentEnvForProduction(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      value === undefined ||
      key === "DATABASE_URL" ||
      key.startsWith("VITEST") ||
      key === "NODE_ENV"
    )
      continue;
    env[key] = value;
  }
  return env;
}

/** Spawns `node BUILD_DIR/server.js` and resolves once /readyz answers 200. */
export async function startSite(options: SiteOptions): Promise<Site> {
  const url = `http://127.0.0.1:${options.port}`;
  const env = parentEnvForProduction();
  Object.assign(env, {
    NODE_ENV: "production",
    BUILD_DIR: options.buildDir,
    DATA_DIR: options.dataDir,
    PORT: String(options.port),
    HOST: "127.0.0.1",
    PUBLIC_URL: url,
    LOG_LEVEL: "warn",
    BETTER_AUTH_SECRET: "bench-and-fault-tests-secret-0123456789abcdef",
    // These runs sign in with a password only (on by default in production, two-factor sign-in
    // has its own tests: tests/server/two-factor*.test.ts, tests/e2e/two-factor.spec.ts).
    REQUIRE_ADMIN_2FA: "false",
  });
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), path.join(options.buildDir, "server.js")],
    {
      cwd: ROOT,
      env,
      stdio: ["ignore", options.stdout ?? "pipe", "pipe", ...(options.ipc ? ["ipc" as const] : [])],
    },
  );
  let output = "";
  const keep = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    if (output.length > OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT / 2);
  };
  child.stdout?.on("data", keep);
  child.stderr!.on("data", keep);
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code, signal) => {
      exitCode = code ?? (signal ? null : code);
      resolve(code);
    });
  });
  const pid = child.pid!;

  const site: Site = {
    port: options.port,
    url,
    pid,
    child,
    exited,
    output: () => output,
    rss: () => processRss(pid),
    async stop(timeoutMs = 20_000) {
      if (exitCode !== undefined) return exitCode;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill9() {
      if (exitCode !== undefined) return;
      child.kill("SIGKILL");
      await exited;
    },
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  for (;;) {
    if (exitCode !== undefined) {
      throw new Error(
        `The site exited during start-up (code ${exitCode}):\n${output.slice(-4000)}`,
      );
    }
    try {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.ok) return site;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await site.kill9();
      throw new Error(`The site did not become ready on ${url}:\n${output.slice(-4000)}`);
    }
    await sleep(200);
  }
}

export function processRss(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Builds the app into `buildDir` (relative to the project) unless told not to. */
export function buildSite(buildDir: string): void {
  const started = Date.now();
  // `npm run build`: the site (React Router) and the compiled server entry.
  const result = spawnSync("npm", ["run", "--silent", "build"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", BUILD_DIR: buildDir },
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(`npm run build failed:\n${result.stdout}\n${result.stderr}`);
  }
  console.log(`built ${buildDir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export function isBuilt(buildDir: string): boolean {
  return existsSync(path.join(ROOT, buildDir, "server/index.js"));
}

/* ------------------------------------------------------------------------------------------ */
/* Scratch PostgreSQL databases                                                                 */

/** The PostgreSQL server to use: DATABASE_URL, else the local trust-auth server. */
export function postgresBaseUrl(): string {
  return process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
}

export async function postgresReachable(base = postgresBaseUrl()): Promise<boolean> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: base, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** Creates an empty database on the server of `base` (dropped by `drop()`). */
export async function createScratchDatabase(
  prefix: string,
  base = postgresBaseUrl(),
): Promise<ScratchDatabase> {
  const { default: pg } = await import("pg");
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "_");
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/* ------------------------------------------------------------------------------------------ */
/* Talking to the site like a browser                                                           */

/** Creates an admin with scripts/admin-create.ts (before the site starts, for PGlite). */
export function createAdmin(options: {
  email: string;
  password: string;
  dataDir: string;
  databaseUrl?: string;
}): void {
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  delete env.DATABASE_URL;
  delete env.NODE_ENV;
  Object.assign(env, { DATA_DIR: options.dataDir, LOG_LEVEL: "warn", SEED_DEMO_CONTENT: "false" });
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", "scripts/admin-create.ts", "--email", options.email],
    { cwd: ROOT, env, input: `${options.password}\n`, encoding: "utf8" },
  );
  if (result.status !== 0) {
    throw new Error(`admin-create failed:\n${result.stdout}\n${result.stderr}`);
  }
}

/** Signs in through better-auth's endpoint and returns the Cookie header to reuse. */
export async function signIn(siteUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${siteUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: siteUrl },
    body: JSON.stringify({ email, password }),
  });
  const body = await response.text();
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${body.slice(0, 300)}`);
  const cookies = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .filter(Boolean);
  if (!cookies.some((c) => c.includes("session_token")))
    throw new Error("sign-in set no session cookie");
  return cookies.join("; ");
}
