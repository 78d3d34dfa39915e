import { sql, type Kysely } from "kysely";

/**
 * The grant a user holds for a client is looked up at every authorization (store/payloads.ts userClientGrantIds:
 * account, model "Grant" and client). Over `(accountId, model)` alone, SQLite's planner, which keeps no statistics,
 * took the client's index instead and walked every code and token ever issued to that client: 30 to 50 ms per
 * authorization at 140,000 rows, with the event loop held, growing with the table. The index now names the client
 * too, so the lookup is one index search on both databases; lookups by account, or by account and model, use its
 * first columns as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists ${sql.id("oidcPayload_accountId_model_idx")}`.execute(db);
  await sql`create index ${sql.id("oidcPayload_accountId_model_clientId_idx")} on ${sql.id("oidcPayload")} (${sql.join(
    ["accountId", "model", "clientId"].map((c) => sql.id(c)),
  )})`.execute(db);
}
