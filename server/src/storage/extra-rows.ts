import type { Kysely } from "kysely";

/**
 * A row of another part's table written with a change, in the same statement where one can be (a module's row:
 * the security event of the sign-up or sign-in, events/emit.ts). Values are as the table stores them.
 */
export interface ExtraRow {
  table: string;
  values: Record<string, unknown>;
}

/**
 * PostgreSQL: several inserts as one statement, every one but the last a data-modifying WITH clause of the last
 * (all or nothing; the constraints are checked at the statement's end). PostgreSQL runs WITH clauses in no set
 * order, so consecutive rows of one table go in one multi-row insert: they are written in the order given (the
 * events' seq follows it).
 */
export async function insertAsOneStatement(db: Kysely<any>, inserts: readonly ExtraRow[]): Promise<void> {
  const groups: { table: string; values: Record<string, unknown>[] }[] = [];
  for (const row of inserts) {
    const last = groups[groups.length - 1];
    if (last && last.table === row.table) last.values.push(row.values);
    else groups.push({ table: row.table, values: [row.values] });
  }
  const main = groups[groups.length - 1]!;
  let query: any = db;
  groups.slice(0, -1).forEach((group, i) => {
    query = query.with(`w${i}`, (q: Kysely<any>) => q.insertInto(group.table).values(group.values));
  });
  await query.insertInto(main.table).values(main.values).execute();
}

/** Inserts the rows in order on the connection given (call it inside a transaction). */
export async function insertRows(db: Kysely<any>, rows: readonly ExtraRow[]): Promise<void> {
  for (const row of rows) await db.insertInto(row.table).values(row.values).execute();
}
