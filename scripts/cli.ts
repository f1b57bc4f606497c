import { closeDatabase, openDatabase, type DatabaseHandle } from "#server/db/client.server.ts";
import { DataDirectoryInUseError } from "#server/db/lock.server.ts";
import { configuredTarget, describeTarget } from "#server/db/target.server.ts";

// Whatever a command creates under DATA_DIR is the server's user's alone (decision 0021).
process.umask(0o077);

/**
 * Runs a command-line task against the configured database (migrated first). On the embedded
 * database the directory lock makes this refuse, clearly, while the site is running.
 */
export async function withDatabase(task: (handle: DatabaseHandle) => Promise<string | void>) {
  const target = configuredTarget();
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase(target);
  } catch (error) {
    if (error instanceof DataDirectoryInUseError) {
      console.error(`Refusing to run: ${error.message}`);
    } else {
      console.error(`Could not open the database (${describeTarget(target)}):`, error);
    }
    process.exit(1);
  }
  try {
    const message = await task(handle);
    if (message) console.log(message);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    await closeDatabase();
  }
}
