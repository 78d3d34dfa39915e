import pg from "pg";

/** Drops (if present) and creates a PostgreSQL database; returns its URL. */
export async function recreateDatabase(adminUrl, name) {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
    const version = (await client.query("SHOW server_version")).rows[0].server_version;
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return { url: url.toString(), version };
  } finally {
    await client.end();
  }
}

export async function dropDatabase(adminUrl, name) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
