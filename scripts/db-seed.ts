import { seedDemoContent } from "#server/db/seed.server.ts";
import { withDatabase } from "./cli.ts";

await withDatabase(async (handle) => {
  const { seeded } = await seedDemoContent(handle.db);
  return seeded
    ? "Demo content inserted."
    : "The database already has courses, categories or partners: nothing inserted.";
});
