import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/**
 * The one way an embedded database (PGlite) is opened — by the site, its backup and restore, its
 * tests and benchmarks — with the extension the migrations use where present: pg_trgm, for the
 * admin searches' trigram indexes, as on PostgreSQL (decision 0045). Every opener must load it:
 * a database holding a trigram index cannot be written without it.
 */
export function openPGlite(dataDir?: string, options: PGliteOptions = {}): Promise<PGlite> {
  const withExtensions = { ...options, extensions: { ...options.extensions, pg_trgm } };
  return dataDir ? PGlite.create(dataDir, withExtensions) : PGlite.create(withExtensions);
}
