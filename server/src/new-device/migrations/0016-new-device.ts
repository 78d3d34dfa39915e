import type { Kysely } from "kysely";
import type { Dialect } from "../../storage/database.js";
import { columnTypes } from "../../storage/migrations/types.js";

/** signInDevice: the browsers each user has signed in from (new-device/tables.ts). Goes with its user. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable("signInDevice")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("deviceKey", "text", (c) => c.notNull())
    .addColumn("browser", "text", (c) => c.notNull())
    .addColumn("system", "text", (c) => c.notNull())
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .addColumn("lastSeenAt", t.date, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("signInDevice_userId_deviceKey_uidx")
    .ifNotExists()
    .unique()
    .on("signInDevice")
    .columns(["userId", "deviceKey"])
    .execute();
}
