import { sql, type Kysely } from "kysely";
import type { Dialect } from "../../storage/database.js";
import { columnTypes } from "../../storage/migrations/types.js";

/**
 * Second factors (two-factor/tables.ts): Better Auth's `twoFactor` table with Gatehouse's columns, the hashed backup
 * codes, the pending second steps and the trusted devices, every row going with its user (foreign keys cascade). And
 * two columns of core tables: user.twoFactorEnabled (Better Auth's, false by default) and session.factors.
 * Everything is created only when missing, so a database written by Better Auth keeps its rows.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await addColumn(db, dialect, "user", "twoFactorEnabled", dialect === "postgres" ? sql`boolean default false` : sql`integer default 0`);
  await addColumn(db, dialect, "session", "factors", sql`text`);

  await db.schema
    .createTable("twoFactor")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("backupCodes", "text", (c) => c.notNull())
    .addColumn("verified", t.bool, (c) => c.defaultTo(dialect === "postgres" ? sql`true` : sql`1`))
    .addColumn("failedVerificationCount", "integer", (c) => c.defaultTo(0))
    .addColumn("lockedUntil", t.date)
    .addColumn("lastTotpStep", "integer")
    .addColumn("pendingAttempts", "integer", (c) => c.defaultTo(0))
    .addColumn("totpEnabledAt", t.date)
    .addColumn("otpEnabledAt", t.date)
    .addColumn("createdAt", t.date)
    .addColumn("updatedAt", t.date)
    .execute();
  await db.schema.createIndex("twoFactor_userId_uidx").ifNotExists().unique().on("twoFactor").column("userId").execute();

  await db.schema
    .createTable("twoFactorBackupCode")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("codeHash", "text", (c) => c.notNull())
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("twoFactorBackupCode_userId_codeHash_idx")
    .ifNotExists()
    .on("twoFactorBackupCode")
    .columns(["userId", "codeHash"])
    .execute();

  await db.schema
    .createTable("twoFactorChallenge")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("method", "text")
    .addColumn("factors", "text")
    .addColumn("rememberMe", t.bool, (c) => c.notNull().defaultTo(dialect === "postgres" ? sql`true` : sql`1`))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("otpHash", "text")
    .addColumn("otpExpiresAt", t.date)
    .addColumn("expiresAt", t.date, (c) => c.notNull())
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("twoFactorChallenge_userId_idx").ifNotExists().on("twoFactorChallenge").column("userId").execute();

  await db.schema
    .createTable("twoFactorTrustedDevice")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("tokenHash", "text", (c) => c.notNull())
    .addColumn("userAgent", "text")
    .addColumn("expiresAt", t.date, (c) => c.notNull())
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .addColumn("lastUsedAt", t.date, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("twoFactorTrustedDevice_userId_idx")
    .ifNotExists()
    .on("twoFactorTrustedDevice")
    .column("userId")
    .execute();
}

/** Adds a column to a core table unless it is there (the reconcile step may have added it already). */
async function addColumn(db: Kysely<unknown>, dialect: Dialect, table: string, column: string, type: ReturnType<typeof sql>) {
  if (dialect === "postgres") {
    await sql`alter table ${sql.table(table)} add column if not exists ${sql.ref(column)} ${type}`.execute(db);
    return;
  }
  const { rows } = await sql<{ name: string }>`select name from pragma_table_xinfo(${table}) where name = ${column}`.execute(db);
  if (rows.length === 0) await sql`alter table ${sql.table(table)} add column ${sql.ref(column)} ${type}`.execute(db);
}
