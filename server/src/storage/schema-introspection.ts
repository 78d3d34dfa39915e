import { sql, type Kysely } from "kysely";
import type { DatabaseHandle, Dialect } from "./database.js";

/** What a database holds, read from its catalog: the tables of one schema with their columns and indexes. */
export interface FoundColumn {
  name: string;
  /** The type as declared (SQLite) or as PostgreSQL formats it (`timestamp with time zone`). */
  type: string;
  notNull: boolean;
  hasDefault: boolean;
}

export interface FoundIndex {
  name: string;
  columns: string[];
  unique: boolean;
  /** Partial, on expressions, or not a B-tree (a trigram index): it never stands in for a plain index. */
  special: boolean;
}

export interface FoundTable {
  columns: Map<string, FoundColumn>;
  indexes: FoundIndex[];
}

export type FoundSchema = Map<string, FoundTable>;

/**
 * Reads the tables of the database (PostgreSQL: of `schema`, else of the connection's current schema) straight
 * from the catalog. Kysely's introspector is not used: on PostgreSQL it reads every schema of the server, and it
 * does not report indexes.
 */
export async function introspectSchema(db: Kysely<unknown>, dialect: Dialect, schema?: string): Promise<FoundSchema> {
  return dialect === "postgres" ? introspectPostgres(db, schema) : introspectSqlite(db);
}

async function introspectSqlite(db: Kysely<unknown>): Promise<FoundSchema> {
  const found: FoundSchema = new Map();
  const { rows: tables } = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\'`.execute(db);
  for (const { name } of tables) {
    const { rows: columns } = await sql<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>`
      select name, type, "notnull", dflt_value, pk from pragma_table_xinfo(${name}) where hidden = 0`.execute(db);
    const { rows: indexList } = await sql<{ name: string; unique: number; partial: number }>`
      select name, "unique", partial from pragma_index_list(${name})`.execute(db);
    const indexes: FoundIndex[] = [];
    for (const index of indexList) {
      const { rows: parts } = await sql<{ name: string | null }>`
        select name from pragma_index_info(${index.name}) order by seqno`.execute(db);
      indexes.push({
        name: index.name,
        columns: parts.map((p) => p.name ?? ""),
        unique: index.unique === 1,
        special: index.partial === 1 || parts.some((p) => p.name === null),
      });
    }
    found.set(name, {
      columns: new Map(
        columns.map((c) => [
          c.name,
          // An INTEGER PRIMARY KEY is the rowid: it always has a value.
          { name: c.name, type: c.type, notNull: c.notnull === 1 || c.pk > 0, hasDefault: c.dflt_value !== null },
        ]),
      ),
      indexes,
    });
  }
  return found;
}

async function introspectPostgres(db: Kysely<unknown>, schema?: string): Promise<FoundSchema> {
  const found: FoundSchema = new Map();
  const namespace = schema ? sql`${schema}` : sql`current_schema()`;
  const { rows: columns } = await sql<{ table: string; name: string; type: string; not_null: boolean; has_default: boolean }>`
    select c.relname as "table", a.attname as "name", format_type(a.atttypid, a.atttypmod) as "type",
      a.attnotnull as "not_null", (a.atthasdef or a.attidentity <> '' or a.attgenerated <> '') as "has_default"
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${namespace} and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
    order by c.relname, a.attnum`.execute(db);
  for (const column of columns) {
    let table = found.get(column.table);
    if (!table) found.set(column.table, (table = { columns: new Map(), indexes: [] }));
    table.columns.set(column.name, {
      name: column.name,
      type: column.type,
      notNull: column.not_null,
      hasDefault: column.has_default,
    });
  }
  const { rows: indexes } = await sql<{ table: string; name: string; unique: boolean; special: boolean; columns: string[] }>`
    select t.relname as "table", i.relname as "name", x.indisunique as "unique",
      (x.indpred is not null or x.indexprs is not null or am.amname <> 'btree') as "special",
      array(
        select coalesce(a.attname::text, '')
        from unnest(x.indkey::int2[]) with ordinality k(attnum, ord)
        left join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
        order by k.ord
      ) as "columns"
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_am am on am.oid = i.relam
    join pg_class t on t.oid = x.indrelid
    join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = ${namespace}
    order by t.relname, i.relname`.execute(db);
  for (const index of indexes) {
    found.get(index.table)?.indexes.push({
      name: index.name,
      columns: index.columns,
      unique: index.unique,
      special: index.special,
    });
  }
  return found;
}

/**
 * Whether the database holds Gatehouse's tables (its migrations' bookkeeping table), or a user table: a database
 * written by Better Auth has no bookkeeping, and the migrations bring it up to date (storage/reconcile.ts). On
 * PostgreSQL they are looked up on the connection's search_path: the configured schema, or public.
 */
export async function hasGatehouseTables(database: DatabaseHandle): Promise<boolean> {
  if (database.dialect === "sqlite") {
    const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table' and name in ('kysely_migration', 'user')`.execute(
      database.db,
    );
    return Number(rows[0]?.n ?? 0) > 0;
  }
  const { rows } = await sql<{ present: boolean }>`
    select (to_regclass('kysely_migration') is not null or to_regclass('"user"') is not null) as present`.execute(database.db);
  return rows[0]?.present === true;
}

/**
 * What `gatehouse serve` warns about in the database's own settings (logged at start-up, after the migrations).
 * PostgreSQL with autovacuum off: the session, token, challenge and event tables are written and deleted all day,
 * and without vacuum their dead row versions are never reclaimed, so every read of them gets slower and the tables
 * grow (bench/README.md measured about a quarter fewer OpenID token requests per second after a few minutes of
 * load), and the planner never gets statistics. SQLite reuses freed pages itself: nothing to say.
 */
export async function databaseWarnings(database: DatabaseHandle): Promise<string[]> {
  if (database.dialect !== "postgres") return [];
  const { rows } = await sql<{ autovacuum: string }>`select current_setting('autovacuum') as autovacuum`.execute(database.db);
  if (rows[0]?.autovacuum !== "off") return [];
  return [
    "PostgreSQL's autovacuum is off: Gatehouse's session, token and event tables keep their dead rows and slow down; turn autovacuum on, or run VACUUM (ANALYZE) on this database regularly",
  ];
}
