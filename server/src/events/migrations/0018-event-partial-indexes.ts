import type { Kysely } from "kysely";
import { indexOnlyNotNull } from "../../storage/migrations/types.js";

/**
 * The actor and organization indexes of `event` hold only the events that name one (tables.ts `onlyNotNull`): most
 * events name neither (an OpenID token issued, a sign-in: the user, no actor, no organization), and every insert
 * wrote an entry for its nulls into both. The searches by actor or organization always name one, so they use the
 * partial indexes as before. On SQLite a token response's transaction writes two pages fewer (bench/README.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await indexOnlyNotNull(db, "event", "event_actorId_seq_idx", ["actorId", "seq"]);
  await indexOnlyNotNull(db, "event", "event_organizationId_seq_idx", ["organizationId", "seq"]);
}
