import type { Kysely } from "kysely";
import type { Dialect } from "../../storage/database.js";
import { columnTypes } from "../../storage/migrations/types.js";

/**
 * passkey (Better Auth's table, API-NOTES-PLUGINS.md 3.1, with our userHandle and registeredBySession) and
 * passkeyUserHandle (each user's WebAuthn user handle). Both go with their user (foreign keys cascade). A database
 * Better Auth wrote has `passkey` already: it is kept, and the reconcile step adds our two columns and the indexes.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable("passkey")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text")
    .addColumn("publicKey", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("credentialID", "text", (c) => c.notNull())
    .addColumn("counter", "integer", (c) => c.notNull())
    .addColumn("deviceType", "text", (c) => c.notNull())
    .addColumn("backedUp", t.bool, (c) => c.notNull())
    .addColumn("transports", "text")
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .addColumn("aaguid", "text")
    .addColumn("userHandle", "text")
    .addColumn("registeredBySession", "text")
    .execute();
  await db.schema.createIndex("passkey_userId_idx").ifNotExists().on("passkey").column("userId").execute();
  await db.schema
    .createIndex("passkey_credentialID_uidx")
    .ifNotExists()
    .unique()
    .on("passkey")
    .column("credentialID")
    .execute();

  await db.schema
    .createTable("passkeyUserHandle")
    .ifNotExists()
    .addColumn("userId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("userHandle", "text", (c) => c.notNull())
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("passkeyUserHandle_userHandle_uidx")
    .ifNotExists()
    .unique()
    .on("passkeyUserHandle")
    .column("userHandle")
    .execute();
}
