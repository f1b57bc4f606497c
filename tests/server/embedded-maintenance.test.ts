import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { maintainDatabase } from "#server/db/client.server.ts";
import { inquiries } from "#server/db/schema.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

/**
 * The embedded database's upkeep (decision 0045): PGlite has no autovacuum, so the hourly
 * housekeeping vacuums and analyses the tables its thresholds pick; on PostgreSQL its own autovacuum does, and the
 * housekeeping leaves it alone.
 */
const database = useFreshDatabase();
const embedded = process.env.TEST_DATABASE !== "postgres";

/**
 * The statistics a second old are what the upkeep reads; a test reads them at once, so this
 * backend's pending counts are flushed first (PostgreSQL flushes them at most once a second).
 */
async function flushStats() {
  await database().db.execute(sql`select pg_stat_force_next_flush()`);
  await database().db.execute(sql`select 1`);
}

async function statsOf(table: string) {
  const result = await database().db.execute(
    sql`select s.last_vacuum, s.last_analyze, c.reltuples::int as reltuples, c.relallvisible
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = ${table}`,
  );
  return (
    result as unknown as {
      rows: {
        last_vacuum: Date | null;
        last_analyze: Date | null;
        reltuples: number;
        relallvisible: number;
      }[];
    }
  ).rows[0]!;
}

describe("the embedded database's upkeep", () => {
  it.runIf(embedded)(
    "vacuums and analyses the tables autovacuum would, which nothing else does",
    async () => {
      await database()
        .db.insert(inquiries)
        .values(
          Array.from({ length: 500 }, (_, i) => ({
            name: `Visitor ${i}`,
            email: `visitor${i}@example.com`,
            message: "Hello",
            inquiryType: "general" as const,
          })),
        );
      const before = await statsOf("inquiries");
      expect(before.last_analyze).toBeNull();
      expect(before.relallvisible).toBe(0);

      await flushStats();
      const upkeep = await maintainDatabase();
      expect(upkeep!.analysed).toBeGreaterThanOrEqual(1);
      const after = await statsOf("inquiries");
      expect(after.last_analyze).not.toBeNull();
      expect(after.reltuples).toBe(500);

      // Few changes since: nothing is due, as autovacuum would leave it.
      await database()
        .db.update(inquiries)
        .set({ notes: "Called back." })
        .where(sql`${inquiries.email} = 'visitor1@example.com'`);
      await flushStats();
      expect(await maintainDatabase()).toMatchObject({ vacuumed: 0, analysed: 0 });

      // Most rows changed: vacuumed (pages all-visible again) and analysed.
      await database().db.update(inquiries).set({ status: "replied" });
      await flushStats();
      expect((await maintainDatabase())!.vacuumed).toBeGreaterThanOrEqual(1);
      const vacuumed = await statsOf("inquiries");
      expect(vacuumed.last_vacuum).not.toBeNull();
      expect(vacuumed.relallvisible).toBeGreaterThan(0);
    },
  );

  it.runIf(!embedded)("is left to PostgreSQL's autovacuum", async () => {
    expect(await maintainDatabase()).toBeNull();
  });
});
