import type { Kysely } from "kysely";
import type { Dialect } from "../database.js";
import { columnTypes } from "./types.js";

/** user, session, account and verification, with the columns SPEC.md section 3 and API-NOTES.md section 3 name. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable("user")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("emailVerified", t.bool, (c) => c.notNull().defaultTo(t.false))
    .addColumn("image", "text")
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .addColumn("updatedAt", t.date, (c) => c.notNull())
    .addColumn("username", "text", (c) => c.unique())
    .addColumn("displayUsername", "text")
    .addColumn("role", "text")
    .addColumn("banned", t.bool, (c) => c.defaultTo(t.false))
    .addColumn("banReason", "text")
    .addColumn("banExpires", t.date)
    .addColumn("lang", "text")
    .execute();

  await db.schema
    .createTable("session")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("expiresAt", t.date, (c) => c.notNull())
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .addColumn("updatedAt", t.date, (c) => c.notNull())
    .addColumn("ipAddress", "text")
    .addColumn("userAgent", "text")
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("activeOrganizationId", "text")
    .addColumn("activeTeamId", "text")
    .addColumn("impersonatedBy", "text")
    .execute();
  await db.schema.createIndex("session_userId_idx").ifNotExists().on("session").column("userId").execute();

  await db.schema
    .createTable("account")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("accountId", "text", (c) => c.notNull())
    .addColumn("providerId", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("accessToken", "text")
    .addColumn("refreshToken", "text")
    .addColumn("idToken", "text")
    .addColumn("accessTokenExpiresAt", t.date)
    .addColumn("refreshTokenExpiresAt", t.date)
    .addColumn("scope", "text")
    .addColumn("password", "text")
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .addColumn("updatedAt", t.date, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("account_userId_idx").ifNotExists().on("account").column("userId").execute();
  await db.schema
    .createIndex("account_providerId_accountId_idx")
    .ifNotExists()
    .on("account")
    .columns(["providerId", "accountId"])
    .execute();

  await db.schema
    .createTable("verification")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expiresAt", t.date, (c) => c.notNull())
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .addColumn("updatedAt", t.date, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("verification_identifier_idx")
    .ifNotExists()
    .on("verification")
    .column("identifier")
    .execute();
}
