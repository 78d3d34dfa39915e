import { sql, type Kysely, type RawBuilder } from "kysely";
import type { Dialect } from "./database.js";
import type { ColumnSpec, IndexSpec, LogicalType, SchemaSpec } from "./expected-schema.js";
import { introspectSchema, type FoundSchema, type FoundTable } from "./schema-introspection.js";

/**
 * Brings an existing database up to the shape the expected schema describes (expected-schema.ts: core's tables and
 * the modules'), on every start: a database written by an
 * earlier Gatehouse, or by Better Auth (whose tables hold only the columns of the plugins it ran with). It adds
 * missing columns (nullable, or with the default the code expects) and missing indexes, and never drops or
 * rewrites anything. Tables that do not exist are left to the versioned migrations, which create them whole.
 *
 * Everything is checked before anything changes: a column of another type than ours, a column Gatehouse would
 * write null to that is NOT NULL, a column of another tool that is NOT NULL without a default (every insert
 * would fail), a required column that cannot be added, rows that break a unique index to be created. Any of these
 * stops start-up with a SchemaMismatchError naming each table and column, and the database is left as it was.
 */
export class SchemaMismatchError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `the database does not have the shape Gatehouse needs, and nothing was changed:\n` +
        problems.map((p) => `  - ${p}`).join("\n"),
    );
    this.name = "SchemaMismatchError";
  }
}

interface Change {
  description: string;
  statement: RawBuilder<unknown>;
}

/** Runs the check and the changes in one transaction; answers what was changed (empty when nothing was). */
export async function reconcileSchema(
  db: Kysely<unknown>,
  dialect: Dialect,
  schema: string | undefined,
  expected: SchemaSpec,
): Promise<string[]> {
  return exclusively(db, dialect, schema, async (conn) => {
    const found = await introspectSchema(conn, dialect, schema);
    const { changes, problems } = await planReconcile(conn, dialect, found, schema, expected);
    if (problems.length) throw new SchemaMismatchError(problems);
    for (const change of changes) await change.statement.execute(conn);
    return changes.map((c) => c.description);
  });
}

/**
 * One transaction that holds the database against another instance starting at the same moment: on SQLite a
 * write lock taken up front (`begin immediate`), on PostgreSQL an advisory lock for the schema, so the second
 * instance reads the catalog after the first has changed it.
 */
async function exclusively<T>(
  db: Kysely<unknown>,
  dialect: Dialect,
  schema: string | undefined,
  run: (conn: Kysely<unknown>) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (conn) => {
    if (dialect === "sqlite") {
      await sql`begin immediate`.execute(conn);
    } else {
      await sql`begin`.execute(conn);
      const key = sql`'gatehouse-reconcile:' || ${schema ? sql`${schema}` : sql`current_schema()`}`;
      await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(conn);
    }
    try {
      const result = await run(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw error;
    }
  });
}

async function planReconcile(
  db: Kysely<unknown>,
  dialect: Dialect,
  found: FoundSchema,
  schema: string | undefined,
  expected: SchemaSpec,
): Promise<{ changes: Change[]; problems: string[] }> {
  const columnChanges: Change[] = [];
  const indexChanges: Change[] = [];
  const problems: string[] = [];
  const tableRef = (table: string) => (schema ? sql.id(schema, table) : sql.id(table));

  for (const [table, spec] of Object.entries(expected)) {
    const existing = found.get(table);
    if (!existing) continue;
    const columns = spec.columns as Record<string, ColumnSpec>;
    const added = new Set<string>();

    for (const [name, column] of Object.entries(columns)) {
      const current = existing.columns.get(name);
      if (!current) {
        if (column.notNull && column.default === undefined) {
          problems.push(
            `table "${table}" has no column "${name}" (${ddlType(column.type, dialect)} NOT NULL), which Gatehouse ` +
              `needs and cannot add: its existing rows would have no value for it`,
          );
          continue;
        }
        added.add(name);
        columnChanges.push({
          description: `added column ${table}.${name}`,
          statement: addColumn(tableRef(table), name, column, dialect),
        });
        continue;
      }
      if (!compatibleType(column.type, dialect, current.type)) {
        problems.push(
          `column "${table}"."${name}" is ${current.type || "(no type)"}; Gatehouse needs ${describeType(column.type, dialect)}`,
        );
      }
      if (!column.notNull && column.default === undefined && current.notNull) {
        problems.push(`column "${table}"."${name}" is NOT NULL; Gatehouse stores null in it (drop the NOT NULL)`);
      }
    }

    for (const current of existing.columns.values()) {
      if (current.name in columns || !current.notNull || current.hasDefault) continue;
      problems.push(
        `column "${table}"."${current.name}" (not one of Gatehouse's) is NOT NULL without a default: every row ` +
          `Gatehouse inserts into "${table}" would be refused (give it a default, or drop it)`,
      );
    }

    for (const index of spec.indexes) {
      if (hasIndex(existing, index)) continue;
      if (index.columns.some((c) => !existing.columns.has(c) && !added.has(c))) continue; // reported above
      if (index.unique && !index.columns.some((c) => added.has(c))) {
        const duplicate = await findDuplicate(db, tableRef(table), index.columns);
        if (duplicate) {
          problems.push(
            `the unique index "${index.name}" on "${table}" (${index.columns.map((c) => `"${c}"`).join(", ")}) ` +
              `cannot be created: ${duplicate.rows} rows share the values (${duplicate.values.join(", ")})` +
              `${duplicate.more ? ", and other values are shared too" : ""}; merge or remove the duplicates, then start again`,
          );
          continue;
        }
      }
      indexChanges.push({
        description: `created index ${index.name}`,
        statement: sql`create ${sql.raw(index.unique ? "unique " : "")}index if not exists ${sql.id(index.name)}
          on ${tableRef(table)} (${sql.join(index.columns.map((c) => sql.id(c)))})${onlyNotNull(index)}`,
      });
    }
  }
  // Columns first: an index may be on a column added in the same pass.
  return { changes: [...columnChanges, ...indexChanges], problems };
}

/** The condition of an `onlyNotNull` index (expected-schema.ts), or nothing. */
function onlyNotNull(index: IndexSpec): RawBuilder<unknown> {
  return index.onlyNotNull ? sql` where ${sql.id(index.columns[0]!)} is not null` : sql``;
}

/**
 * Whether an index on the same columns exists, whatever its name (a UNIQUE constraint's index counts). A partial one
 * counts only for an `onlyNotNull` index of the same name (the one Gatehouse made); a full one serves it too.
 */
function hasIndex(table: FoundTable, index: IndexSpec): boolean {
  return table.indexes.some(
    (found) =>
      (!found.special || (index.onlyNotNull === true && found.name === index.name)) &&
      (found.unique || !index.unique) &&
      found.columns.length === index.columns.length &&
      found.columns.every((c, i) => c === index.columns[i]),
  );
}

async function findDuplicate(
  db: Kysely<unknown>,
  table: RawBuilder<unknown>,
  columns: readonly string[],
): Promise<{ values: string[]; rows: number; more: boolean } | null> {
  const ids = columns.map((c) => sql.id(c));
  // Rows with a null in the key never clash: both dialects let a unique index hold any number of them.
  const { rows } = await sql<Record<string, unknown>>`
    select ${sql.join(ids)}, count(*) as "gatehouse_rows" from ${table}
    where ${sql.join(ids.map((id) => sql`${id} is not null`), sql` and `)}
    group by ${sql.join(ids)} having count(*) > 1 limit 2`.execute(db);
  const first = rows[0];
  if (!first) return null;
  return {
    values: columns.map((c) => JSON.stringify(String(first[c]))),
    rows: Number(first.gatehouse_rows),
    more: rows.length > 1,
  };
}

function addColumn(table: RawBuilder<unknown>, name: string, column: ColumnSpec, dialect: Dialect): RawBuilder<unknown> {
  // PostgreSQL: IF NOT EXISTS as well, though the advisory lock already keeps two starts apart.
  const ifNotExists = dialect === "postgres" ? sql.raw("if not exists ") : sql.raw("");
  const notNull = column.notNull ? sql.raw(" not null") : sql.raw("");
  const defaultValue =
    column.default === undefined
      ? sql.raw("")
      : sql.raw(` default ${column.type === "bool" && dialect === "postgres" ? String(column.default !== 0) : column.default}`);
  return sql`alter table ${table} add column ${ifNotExists}${sql.id(name)} ${sql.raw(ddlType(column.type, dialect))}${notNull}${defaultValue}`;
}

/** The type a column is created with: what Better Auth's own migrations declare too. */
function ddlType(type: LogicalType, dialect: Dialect): string {
  if (dialect === "postgres") return { text: "text", date: "timestamptz", bool: "boolean", integer: "integer" }[type];
  return { text: "text", date: "date", bool: "integer", integer: "integer" }[type];
}

function describeType(type: LogicalType, dialect: Dialect): string {
  if (dialect === "postgres") {
    return {
      text: "text (or varchar)",
      date: "timestamptz (or timestamp)",
      bool: "boolean",
      integer: "integer (or bigint, smallint, numeric)",
    }[type];
  }
  return {
    text: "text",
    date: "date (ISO-8601 text; or datetime, timestamp, text)",
    bool: "integer 0/1 (or boolean)",
    integer: "integer",
  }[type];
}

/**
 * Whether a column's declared type holds what the code writes and reads. SQLite accepts any value in any column,
 * but a type with the wrong affinity converts what is written (an ISO date in a numeric column stays text, a 0/1
 * in a text column becomes '0'/'1' and no longer reads as a boolean), so types are checked there too.
 */
export function compatibleType(type: LogicalType, dialect: Dialect, declared: string): boolean {
  const found = declared.toLowerCase().replace(/\(\s*\d+(\s*,\s*\d+)?\s*\)/g, "").replace(/\s+/g, " ").trim();
  if (dialect === "postgres") {
    switch (type) {
      case "text":
        return found === "text" || found === "character varying";
      case "date":
        return found === "timestamp with time zone" || found === "timestamp without time zone";
      case "bool":
        return found === "boolean";
      case "integer":
        return ["integer", "bigint", "smallint", "numeric"].includes(found);
    }
  }
  const textAffinity = /char|clob|text/.test(found);
  switch (type) {
    case "text":
      return textAffinity;
    case "date":
      return textAffinity || ["date", "datetime", "timestamp", "timestamptz"].includes(found);
    case "bool":
      return ["integer", "int", "boolean", "bool", "tinyint", "smallint", "numeric"].includes(found);
    case "integer":
      return found.includes("int") || found === "numeric";
  }
}
