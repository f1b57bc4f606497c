import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  migrate,
  migrationsFolder,
  wrapPGlite,
  type DatabaseHandle,
} from "#server/db/client.server.ts";
import { openPGlite } from "#server/db/pglite.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

/**
 * The admin searches' trigram indexes (decision 0045): on both databases — the embedded one
 * opens with pg_trgm — and made on an embedded database migrated before it did.
 */
const database = useFreshDatabase();

const SEARCH_INDEXES = [
  "email_outbox_to_address_trgm_idx",
  "inquiries_search_trgm_idx",
  "newsletter_subscriptions_email_trgm_idx",
  "order_students_search_trgm_idx",
  "orders_billing_search_trgm_idx",
  "orders_search_trgm_idx",
];

const TRIGRAM_INDEXES = "select indexname from pg_indexes where indexname like '%_trgm_idx'";

/** The trigram indexes of a database opened as the site opens it. */
async function trigramIndexes(handle: DatabaseHandle) {
  const result = await handle.db.execute(sql.raw(TRIGRAM_INDEXES));
  return (result as unknown as { rows: { indexname: string }[] }).rows
    .map((r) => r.indexname)
    .sort();
}

describe("the admin searches' trigram indexes", () => {
  it("exist on this database", async () => {
    expect(await trigramIndexes(database())).toEqual(SEARCH_INDEXES);
  });

  const embedded = process.env.TEST_DATABASE !== "postgres";
  it.runIf(embedded)(
    "are made on an embedded database migrated before pg_trgm was loaded",
    async () => {
      // The migrations as they were before the embedded database loaded pg_trgm, run on a PGlite
      // opened without it: the searches had no index.
      const earlier = mkdtempSync(path.join(tmpdir(), "nw-migrations-"));
      try {
        cpSync(migrationsFolder, earlier, { recursive: true });
        const journalFile = path.join(earlier, "meta", "_journal.json");
        const journal = JSON.parse(readFileSync(journalFile, "utf8")) as {
          entries: { tag: string }[];
        };
        journal.entries = journal.entries.filter((e) => e.tag < "0033");
        writeFileSync(journalFile, JSON.stringify(journal));
        const old = await PGlite.create();
        const { migrate: migrateTo } = await import("drizzle-orm/pglite/migrator");
        const { drizzle } = await import("drizzle-orm/pglite");
        await migrateTo(drizzle({ client: old }), { migrationsFolder: earlier });
        expect((await old.query(TRIGRAM_INDEXES)).rows).toEqual([]);
        await old.query(
          `insert into newsletter_subscriptions (email, source) values ('reader@example.com', 'footer')`,
        );
        const dump = await old.dumpDataDir("none");
        await old.close();

        // Opened as the site opens it now, and migrated: the indexes are there and answer.
        const upgraded = await wrapPGlite(await openPGlite(undefined, { loadDataDir: dump }));
        try {
          await migrate(upgraded);
          expect(await trigramIndexes(upgraded)).toEqual(SEARCH_INDEXES);
          const found = await upgraded.db.execute(
            sql`select email from newsletter_subscriptions where lower(email) like '%reader@%'`,
          );
          expect((found as unknown as { rows: unknown[] }).rows).toEqual([
            { email: "reader@example.com" },
          ]);
        } finally {
          await upgraded.close();
        }
      } finally {
        rmSync(earlier, { recursive: true, force: true });
      }
    },
  );
});
