/**
 * The embedded database's upkeep. PGlite runs PostgreSQL in one process with no autovacuum
 * launcher: its `autovacuum` setting reads "on", yet 200,000 rows inserted stayed unanalysed
 * (no statistics, `reltuples` -1) and no page was marked all-visible. So nothing would give the
 * planner its statistics, let counts read an index alone, or make the space of updated and
 * deleted rows reusable. The hourly housekeeping does it here (decision 0045), on the tables that
 * autovacuum's default thresholds would pick, one at a time so requests are answered between
 * tables. PostgreSQL's autovacuum does the same on its own; nothing runs there.
 */

type Query = <Row>(text: string) => Promise<{ rows: Row[] }>;

/**
 * The tables due, by autovacuum's defaults: a vacuum once dead rows pass 50 + 20% of the table
 * or inserts since the last one pass 1,000 + 20%; an analyse once changed rows pass 50 + 10%.
 * A table never analysed counts as empty, so any change makes it due.
 */
const DUE = `
  select quote_ident(s.relname) as name,
         s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
           or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0) as vacuum,
         s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) as analyse
  from pg_stat_user_tables s join pg_class c on c.oid = s.relid
  where s.schemaname = 'public'
  order by s.relname`;

export async function vacuumDueTables(
  query: Query,
): Promise<{ vacuumed: number; analysed: number; ms: number }> {
  const started = performance.now();
  const { rows } = await query<{ name: string; vacuum: boolean; analyse: boolean }>(DUE);
  let vacuumed = 0;
  let analysed = 0;
  for (const table of rows) {
    if (table.vacuum) {
      await query(`vacuum (analyze) ${table.name}`);
      vacuumed += 1;
      analysed += 1;
    } else if (table.analyse) {
      await query(`analyze ${table.name}`);
      analysed += 1;
    }
  }
  return { vacuumed, analysed, ms: Math.round(performance.now() - started) };
}
