import { sql, type Kysely, type RawBuilder } from "kysely";
import pg from "pg";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The PostgreSQL server of the machine; every test file gets a schema of its own in it. */
export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export interface TestDatabase {
  dialect: "sqlite" | "postgres";
  url: string;
  schema?: string;
  /** Removes what the test made: the SQLite file's folder, or the PostgreSQL schema. */
  drop(): Promise<void>;
}

export type DialectName = TestDatabase["dialect"];
export const DIALECTS: DialectName[] = ["sqlite", "postgres"];

export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "gatehouse-test-"));
    return {
      dialect,
      url: `sqlite://${join(dir, "test.db")}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`create schema ${schema}`);
  } finally {
    await client.end();
  }
  return {
    dialect,
    url: POSTGRES_URL,
    schema,
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      try {
        await c.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * Makes the database refuse the inserts into `table` whose new row matches `when` (SQL with literals only; a column
 * of the new row is `new."column"` on both databases), failing them with `message`: a trigger on SQLite, a trigger
 * and its function on PostgreSQL. Answers what removes it. For tests of what a failed write leaves behind.
 */
export async function refuseInserts(
  db: Kysely<any>,
  dialect: DialectName,
  { name, table, when, message }: { name: string; table: string; when: RawBuilder<unknown>; message: string },
): Promise<() => Promise<void>> {
  const trigger = sql.raw(name);
  if (dialect === "sqlite") {
    await sql`create trigger ${trigger} before insert on ${sql.table(table)} when ${when} begin select raise(abort, ${sql.lit(message)}); end`.execute(db);
    return async () => {
      await sql`drop trigger ${trigger}`.execute(db);
    };
  }
  await sql`create function ${trigger}() returns trigger language plpgsql as $$ begin if ${when} then raise exception ${sql.lit(message)}; end if; return new; end $$`.execute(db);
  await sql`create trigger ${trigger} before insert on ${sql.table(table)} for each row execute function ${trigger}()`.execute(db);
  return async () => {
    await sql`drop trigger ${trigger} on ${sql.table(table)}`.execute(db);
    await sql`drop function ${trigger}()`.execute(db);
  };
}

/** The PostgreSQL server's autovacuum setting ("on" or "off"): a server setting, the same in every database. */
export async function postgresAutovacuum(): Promise<string> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return (await client.query<{ autovacuum: string }>("show autovacuum")).rows[0]!.autovacuum;
  } finally {
    await client.end();
  }
}
