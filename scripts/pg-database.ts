import pg from "pg";

/**
 * `tsx scripts/pg-database.ts create|drop NAME` against the server of PG_ADMIN_URL
 * (default: the local trust-auth server's `postgres` database). Used by CI to give the
 * PostgreSQL test pass a database of its own.
 */
const [command, name] = process.argv.slice(2);
if (!command || !["create", "drop"].includes(command) || !name || !/^[a-z0-9_]+$/.test(name)) {
  console.error(
    "usage: tsx scripts/pg-database.ts create|drop NAME (lower-case letters, digits, _)",
  );
  process.exit(2);
}
const client = new pg.Client({
  connectionString: process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
});
await client.connect();
try {
  if (command === "create") await client.query(`create database "${name}"`);
  else await client.query(`drop database if exists "${name}" with (force)`);
} finally {
  await client.end();
}
