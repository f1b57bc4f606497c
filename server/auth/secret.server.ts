import { createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { config } from "../config.server.ts";
import type { Database } from "../db/client.server.ts";
import { appSecrets } from "../db/schema.ts";
import { log } from "../log.server.ts";

/**
 * The secret that signs admin sessions (better-auth's `secret`), and keys derived from it for the
 * site's other signed cookies and links.
 */

let generatedSecret: string | undefined;

/**
 * On PostgreSQL without BETTER_AUTH_SECRET: the secret every instance shares, kept in the
 * database (`app_secrets`) — made by whichever instance starts first, read by the others — so
 * sessions, unsubscribe links and signed cookies work whichever instance answers. Called once at
 * start, before anything signs.
 */
export async function loadSharedAuthSecret(database: Database): Promise<void> {
  if (config.authSecret) return;
  await database
    .insert(appSecrets)
    .values({ name: "auth", value: randomBytes(32).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await database
    .select({ value: appSecrets.value })
    .from(appSecrets)
    .where(eq(appSecrets.name, "auth"));
  if (!row) throw new Error("The shared auth secret could not be read from the database.");
  generatedSecret = row.value;
  log.info("BETTER_AUTH_SECRET is not set: using the secret shared through the database");
}

/**
 * BETTER_AUTH_SECRET; else, on PostgreSQL, the secret shared through the database
 * (`loadSharedAuthSecret`, at start); else a random secret generated once and kept in
 * DATA_DIR/auth-secret, so the embedded set-up needs no configuration and sessions survive
 * restarts.
 */
export function authSecret(): string {
  if (config.authSecret) return config.authSecret;
  if (generatedSecret) return generatedSecret;
  // Tests run on throw-away databases: a per-process secret, nothing written to disk.
  if (config.env === "test") return (generatedSecret = randomBytes(32).toString("base64url"));
  const file = path.join(config.dataDir, "auth-secret");
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      // Another process wrote it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  generatedSecret = readFileSync(file, "utf8").trim();
  log.warn(
    { file },
    "BETTER_AUTH_SECRET is not set: admin sessions are signed with the secret generated in DATA_DIR/auth-secret.",
  );
  return generatedSecret;
}

/**
 * A key for another signed cookie of the site, derived from the auth secret and its purpose, so
 * the admin sessions' secret itself signs nothing else and one setting covers every instance.
 */
export function derivedSecret(purpose: string): string {
  return createHmac("sha256", authSecret()).update(`nightwatch:${purpose}`).digest("base64url");
}
