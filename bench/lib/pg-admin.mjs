import pg from "pg";

/**
 * The databases of this run on a PostgreSQL server whose autovacuum is off (this project's CI machines turn it off
 * in their server's configuration; a production cluster keeps it on), by name: vacuumBenchDatabases does its work
 * between loads.
 */
const unvacuumed = new Map();

/** What the reports print after PostgreSQL's version when its autovacuum is off. */
const AUTOVACUUM_OFF_NOTE = "autovacuum off, so the driver runs VACUUM (ANALYZE) on the run's databases before each load";

/**
 * Drops (if present) and creates a PostgreSQL database; returns its URL and the server's version (with
 * AUTOVACUUM_OFF_NOTE when the server's autovacuum is off).
 */
export async function recreateDatabase(adminUrl, name) {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
    const version = (await client.query("SHOW server_version")).rows[0].server_version;
    const autovacuum = (await client.query("SHOW autovacuum")).rows[0].autovacuum;
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    if (autovacuum === "off") unvacuumed.set(name, url.toString());
    return { url: url.toString(), version: autovacuum === "off" ? `${version}, ${AUTOVACUUM_OFF_NOTE}` : version };
  } finally {
    await client.end();
  }
}

/**
 * VACUUM (ANALYZE) of every database of this run on a server whose autovacuum is off: what autovacuum would have
 * done between two loads. Without it each load inherits the dead row versions of all the loads before it (the
 * OpenID part's refresh loads leave some 180,000 in Gatehouse's token table), and the faster server, which wrote
 * more of them, pays more for them; the planner also never gets statistics. Run by proc.mjs settle, before it
 * waits for the machine to be idle. A database dropped meanwhile is forgotten.
 */
export async function vacuumBenchDatabases() {
  for (const [name, url] of unvacuumed) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query("VACUUM (ANALYZE)");
    } catch {
      unvacuumed.delete(name);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

export async function dropDatabase(adminUrl, name) {
  unvacuumed.delete(name);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
