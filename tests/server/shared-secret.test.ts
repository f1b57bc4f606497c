import { describe, expect, it } from "vitest";
import { authSecret, loadSharedAuthSecret } from "#server/auth/secret.server.ts";
import { config } from "#server/config.server.ts";
import { appSecrets } from "#server/db/schema.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

/**
 * Instances on one PostgreSQL without BETTER_AUTH_SECRET share one secret, kept in the database:
 * the first to start makes it, the others read it, so a session signed by one is accepted by all.
 */
const database = useFreshDatabase();

describe("the shared auth secret", () => {
  it("is made once and read by every instance after", async () => {
    const saved = config.authSecret;
    config.authSecret = undefined;
    try {
      const { db } = database();
      // Three instances starting at once.
      await Promise.all([1, 2, 3].map(() => loadSharedAuthSecret(db)));
      const rows = await db.select().from(appSecrets);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(authSecret()).toBe(rows[0]!.value);
      // A later start reads the same.
      await loadSharedAuthSecret(db);
      expect(authSecret()).toBe(rows[0]!.value);
    } finally {
      config.authSecret = saved;
    }
  });

  it("BETTER_AUTH_SECRET, when set, is used as it is and nothing is stored", async () => {
    const saved = config.authSecret;
    config.authSecret = "set-by-the-operator-0123456789abcdef";
    try {
      await loadSharedAuthSecret(database().db);
      expect(await database().db.select().from(appSecrets)).toHaveLength(0);
      expect(authSecret()).toBe("set-by-the-operator-0123456789abcdef");
    } finally {
      config.authSecret = saved;
    }
  });
});
