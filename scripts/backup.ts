import path from "node:path";
import { config } from "#server/config.server.ts";
import { requestBackup, writeBackup } from "#server/db/backup.server.ts";
import { connect } from "#server/db/client.server.ts";
import { DataDirectoryInUseError } from "#server/db/lock.server.ts";

// npm run backup -- [FILE]: a snapshot of the embedded database (and local media) in DATA_DIR,
// taken by the running site, or read from the directory when the site is stopped
// (server/db/backup.server.ts). Restore with `npm run restore -- FILE`.
process.umask(0o077);

if (config.databaseUrl) {
  console.error(
    "DATABASE_URL is set: back up the PostgreSQL server with its own tools (pg_dump, or the " +
      "provider's snapshots), and media from DATA_DIR/media or the S3 bucket.",
  );
  process.exit(1);
}
const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "Z");
const file = path.resolve(process.argv[2] ?? `nightwatch-backup-${stamp}.tar`);

try {
  if (await requestBackup(config.dataDir, file)) {
    console.log(`Backup of the running site written to ${file}`);
  } else {
    // No site running on this directory: open it ourselves (its lock refuses if one is starting).
    const handle = await connect({ kind: "pglite", dataDir: config.dataDir });
    try {
      await writeBackup({ dataDir: config.dataDir, dump: handle.dumpDataDir!, file });
    } finally {
      await handle.close();
    }
    console.log(`Backup of the stopped site's ${config.dataDir} written to ${file}`);
  }
} catch (error) {
  const reason = error instanceof DataDirectoryInUseError ? error.message : String(error);
  console.error(`Backup failed: ${reason}`);
  process.exit(1);
}
