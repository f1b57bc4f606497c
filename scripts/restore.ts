import path from "node:path";
import { config } from "#server/config.server.ts";
import { restoreBackup } from "#server/db/backup.server.ts";

// npm run restore -- FILE: puts a backup made by `npm run backup` into DATA_DIR, which must not
// hold a database yet; e-mails that were waiting in it are held, not sent (they may have gone
// out after the backup was taken).
process.umask(0o077);

const file = process.argv[2];
if (!file) {
  console.error("Usage: DATA_DIR=/new/data/dir npm run restore -- nightwatch-backup-….tar");
  process.exit(1);
}
if (config.databaseUrl) {
  console.error(
    "DATABASE_URL is set: a backup of the embedded database restores into DATA_DIR only.",
  );
  process.exit(1);
}
try {
  const { takenAt, heldEmails } = await restoreBackup({
    file: path.resolve(file),
    dataDir: config.dataDir,
  });
  console.log(
    `Restored the backup taken at ${takenAt} into ${config.dataDir}. ` +
      (heldEmails
        ? `${heldEmails} e-mail${heldEmails === 1 ? " was" : "s were"} waiting in it: marked failed, not sent (they may have gone out after the backup).`
        : "No e-mail was waiting in it."),
  );
} catch (error) {
  console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
