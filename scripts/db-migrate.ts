import { describeTarget, configuredTarget } from "#server/db/target.server.ts";
import { withDatabase } from "./cli.ts";

// Opening the database applies every pending migration.
await withDatabase(async () => `Migrations applied to the ${describeTarget(configuredTarget())}.`);
