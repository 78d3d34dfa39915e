import { CompiledQuery, type Kysely } from "kysely";
import type { ExtraRow } from "./extra-rows.js";
import { runNamed } from "./precompiled.js";
import { batchOrEach, turnBatcher } from "./turn-batch.js";

/**
 * PostgreSQL: rows of several changes inserted by one statement. Each table and column list (a shape) is one
 * data-modifying WITH clause that inserts from a JSON parameter (`json_populate_record` over the table's own row
 * type, so every value is read as its column's type), in the order given (`with ordinality`: the events' seq
 * follows it). Columns not named keep their defaults.
 */

/** The rows of one shape, each element `[tag, values]` (the tag lets a clause filter its rows: jsonInsertClauses). */
export interface RowShape {
  table: string;
  columns: readonly string[];
  elements: unknown[];
}

/** The rows of the writes grouped by shape, with the shapes' key (the same key, the same statement). */
export function rowShapes<W>(writes: readonly W[], rowsOf: (write: W) => readonly ExtraRow[], tagOf: (write: W) => unknown = () => null) {
  const byShape = new Map<string, RowShape>();
  for (const write of writes) {
    const tag = tagOf(write);
    for (const { table, values } of rowsOf(write)) {
      // An undefined value is no value (as the query builder takes it): its column keeps its default.
      const columns = Object.keys(values).filter((column) => values[column] !== undefined);
      const key = `${table}(${columns.join(",")})`;
      let shape = byShape.get(key);
      if (!shape) byShape.set(key, (shape = { table, columns, elements: [] }));
      shape.elements.push([tag, values]);
    }
  }
  return { key: [...byShape.keys()].join("|"), shapes: [...byShape.values()] };
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A table or column name, quoted; only plain identifiers (they come from the code, never from a request). */
export const quotedIdentifier = (name: string) => {
  if (!IDENTIFIER.test(name)) throw new Error(`pg-row-batch: "${name}" is not a plain identifier`);
  return `"${name}"`;
};

/**
 * The WITH clauses `w0`, `w1`, … inserting each shape's rows from parameter `$firstParameter + i` (a JSON array of
 * `[tag, row]`), keeping only the elements `where` accepts (SQL over `e.v ->> 0`, the tag as text), if given.
 */
export function jsonInsertClauses(shapes: readonly RowShape[], firstParameter: number, where?: string): string[] {
  return shapes.map((shape, i) => {
    const columns = shape.columns.map(quotedIdentifier);
    const table = quotedIdentifier(shape.table);
    return (
      `"w${i}" as (insert into ${table} (${columns.join(", ")}) ` +
      `select ${columns.map((c) => `r.${c}`).join(", ")} ` +
      `from json_array_elements($${firstParameter + i}::json) with ordinality as e(v, n), json_populate_record(null::${table}, e.v -> 1) as r ` +
      `${where ? `where ${where} ` : ""}order by e.n)`
    );
  });
}

/** The parameters of jsonInsertClauses: each shape's elements as JSON. */
export const jsonInsertParameters = (shapes: readonly RowShape[]) => shapes.map((shape) => JSON.stringify(shape.elements));

const insertSql = new Map<string, string>();

/** One statement inserting the rows of the writes given (all or nothing). */
async function insertTogether(db: Kysely<any>, writes: readonly (readonly ExtraRow[])[]): Promise<void> {
  const { key, shapes } = rowShapes(writes, (rows) => rows);
  if (shapes.length === 0) return;
  let text = insertSql.get(key);
  if (!text) {
    text = `with ${jsonInsertClauses(shapes, 1).join(", ")} select 1 as "written"`;
    if (insertSql.size >= 64) insertSql.clear();
    insertSql.set(key, text);
  }
  await runNamed(db, CompiledQuery.raw(text, jsonInsertParameters(shapes)));
}

const writers = new WeakMap<object, (rows: readonly ExtraRow[]) => Promise<void>>();

/**
 * PostgreSQL, a pool (not a transaction, whose statements run in order on its connection): writes one change's
 * rows (a session and its sign-in event, a challenge), all or nothing, with those the other requests of this turn
 * of the event loop hand in, in one statement (turnBatcher): one round trip and one commit for all of them. When
 * that statement fails as a whole (a key taken, the database gone), each change is written again by a statement of
 * its own, so only the one at fault fails.
 */
export function postgresRowWriter(db: Kysely<any>): (rows: readonly ExtraRow[]) => Promise<void> {
  let writer = writers.get(db);
  if (!writer) {
    writer = turnBatcher<readonly ExtraRow[], void>((batch) =>
      batchOrEach(batch, {
        runOne: (rows) => insertTogether(db, [rows]),
        runBatch: async (together) => {
          await insertTogether(db, together);
          return together.map(() => undefined);
        },
      }),
    );
    writers.set(db, writer);
  }
  return writer;
}
