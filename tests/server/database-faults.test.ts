import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { databaseReady, db } from "#server/db/client.server.ts";
import { inquiries } from "#server/db/schema.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

/**
 * The database going away under the site (a restart, a failover, an administrator ending
 * connections) is survived: the statements in flight fail — inside a transaction too — the
 * process carries on, and the next ones run on fresh connections. Readiness has a connection of
 * its own. On PostgreSQL; PGlite runs in the process and cannot lose its connection.
 */
const database = useFreshDatabase();

/** Ends every other connection to this test's database, as a server restart would. */
async function terminateBackends() {
  await db().execute(
    sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`,
  );
}

describe("database faults", () => {
  it("connections ended mid-transaction fail those statements, not the process", async (ctx) => {
    if (database().kind !== "postgres") ctx.skip();
    for (let round = 0; round < 3; round++) {
      // Transactions holding connections, each waiting inside a statement when the end comes.
      const inFlight = Array.from({ length: 3 }, () =>
        db().transaction(async (tx) => {
          await tx
            .insert(inquiries)
            .values({ name: "In flight", email: "f@example.com", message: "x" });
          await tx.execute(sql`select pg_sleep(5)`);
        }),
      );
      // Watched from the start: they fail while the backends are being ended, not after.
      const outcomes = Promise.allSettled(inFlight);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await terminateBackends();
      const settled = await outcomes;
      expect(settled.every((s) => s.status === "rejected")).toBe(true);
      // Nothing half-done was kept, and the next statements work on fresh connections.
      await db().insert(inquiries).values({ name: "After", email: "a@example.com", message: "x" });
      await expect(databaseReady()).resolves.toBeUndefined();
    }
    const rows = await db().select({ name: inquiries.name }).from(inquiries);
    expect(rows.map((r) => r.name)).toEqual(["After", "After", "After"]);
  }, 60_000);

  it("readiness answers while slow statements hold every pooled connection", async (ctx) => {
    if (database().kind !== "postgres") ctx.skip();
    const slow = Promise.all(
      Array.from({ length: 12 }, () => db().execute(sql`select pg_sleep(1.5)`)),
    );
    const started = performance.now();
    await expect(databaseReady()).resolves.toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1_000);
    await slow;
  }, 30_000);
});
