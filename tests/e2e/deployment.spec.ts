import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signInThroughForm } from "#tests/support/e2e-fixtures.ts";
import { createAdmin, ROOT, startSite, type Site } from "#tests/support/site-process.ts";

/**
 * The production build started the ways people deploy it, each on its own port and embedded
 * database: behind a TLS-terminating proxy (PUBLIC_URL https, TRUST_PROXY set) forms and admin
 * sign-in work; with https and no TRUST_PROXY it refuses to start and says why; on the embedded
 * defaults it can be opened as 127.0.0.1 as well as localhost.
 */

const BUILD_DIR = process.env.BUILD_DIR ?? "build";
const BASE_PORT = Number(process.env.E2E_PORT ?? 4317) + 40;
const ADMIN = { email: "deploy-admin@example.com", password: "deploy-admin-password-1" };

test.describe.configure({ mode: "serial", timeout: 120_000 });

let dataDir: string;
let site: Site | undefined;
test.beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-deploy-"));
  createAdmin({ ...ADMIN, dataDir });
});
test.afterEach(async () => {
  await site?.stop();
  site = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

test("behind a TLS-terminating proxy, forms, sign-in and client addresses work", async ({
  playwright,
}) => {
  const publicUrl = "https://nightwatch.example";
  site = await startSite({
    port: BASE_PORT,
    buildDir: BUILD_DIR,
    dataDir,
    env: { PUBLIC_URL: publicUrl, TRUST_PROXY: "loopback", FORM_RATE_LIMIT_PER_MINUTE: "1" },
  });
  // What the proxy sends on: the visitor's host, scheme and address.
  const proxied = (visitor: string) => ({
    host: "nightwatch.example",
    origin: publicUrl,
    "x-forwarded-proto": "https",
    "x-forwarded-for": visitor,
  });
  const request = await playwright.request.newContext({ baseURL: site.url });
  try {
    const enquiry = (visitor: string) =>
      request.post("/contact", {
        headers: { ...proxied(visitor), accept: "text/html" },
        form: {
          form: "enquiry",
          form_id: "contact-form",
          name: "Proxy Visitor",
          email: "proxy.visitor@example.com",
          message: "Sent through the TLS proxy.",
        },
      });
    // The limit counts posts per clock minute: started in a minute's last seconds, the third post
    // could fall in the next minute and pass. Wait for a fresh minute then.
    const second = new Date().getSeconds();
    if (second >= 50) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    const first = await enquiry("198.51.100.7");
    expect(first.status()).toBe(200);
    expect(await first.text()).toContain("Message sent successfully!");
    // One post a minute per address here: a second visitor is not throttled by the first.
    expect((await enquiry("198.51.100.8")).status()).toBe(200);
    expect((await enquiry("198.51.100.7")).status()).toBe(429);

    const signIn = await request.post("/auth", {
      headers: proxied("198.51.100.9"),
      form: ADMIN,
      maxRedirects: 0,
    });
    expect(signIn.status()).toBe(302);
    expect(signIn.headers()["location"]).toBe("/admin/dashboard");
    // Over https the session cookie is Secure.
    expect(signIn.headers()["set-cookie"]).toMatch(/__Secure-better-auth\.session_token=.*Secure/);
  } finally {
    await request.dispose();
  }
});

test("with an https PUBLIC_URL and no TRUST_PROXY it refuses to start, naming TRUST_PROXY", () => {
  const result = spawnSync(process.execPath, [path.join(BUILD_DIR, "server.js")], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      PORT: String(BASE_PORT + 1),
      HOST: "127.0.0.1",
      PUBLIC_URL: "https://nightwatch.example",
      LOG_LEVEL: "warn",
    },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/TRUST_PROXY: PUBLIC_URL is https:\/\/nightwatch\.example/);
});

test("on the embedded defaults, admin sign-in works from 127.0.0.1 as from localhost", async ({
  browser,
}) => {
  const port = BASE_PORT + 2;
  // No PUBLIC_URL: the default, http://localhost:PORT.
  site = await startSite({ port, buildDir: BUILD_DIR, dataDir, env: { PUBLIC_URL: undefined } });
  for (const host of ["127.0.0.1", "localhost"]) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInThroughForm(page, ADMIN, `http://${host}:${port}/auth`);
    await expect(page).toHaveURL(`http://${host}:${port}/admin/dashboard`);
    await context.close();
  }
});
