import type { Kysely } from "kysely";
import type { Dialect } from "../../storage/database.js";
import { columnTypes } from "../../storage/migrations/types.js";

/**
 * organization, member, invitation, team and teamMember (SPEC.md section 3, API-NOTES.md section 3).
 * Every foreign key cascades, so deleting an organization or a user removes what hangs off it in one statement.
 * invitation.teamId holds comma-joined team ids and has no foreign key (a removed team is stripped by the service).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable("organization")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("logo", "text")
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .addColumn("metadata", "text")
    .execute();

  await db.schema
    .createTable("member")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull().defaultTo("member"))
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .execute();
  // One membership per user and organization: the last line of defence against two concurrent joins.
  await db.schema
    .createIndex("member_organizationId_userId_uidx")
    .ifNotExists()
    .unique()
    .on("member")
    .columns(["organizationId", "userId"])
    .execute();
  await db.schema.createIndex("member_userId_idx").ifNotExists().on("member").column("userId").execute();

  await db.schema
    .createTable("invitation")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("role", "text")
    .addColumn("teamId", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("expiresAt", t.date, (c) => c.notNull())
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .addColumn("inviterId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .execute();
  await db.schema
    .createIndex("invitation_organizationId_idx")
    .ifNotExists()
    .on("invitation")
    .column("organizationId")
    .execute();
  await db.schema.createIndex("invitation_email_idx").ifNotExists().on("invitation").column("email").execute();

  await db.schema
    .createTable("team")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .addColumn("updatedAt", t.date)
    .execute();
  await db.schema.createIndex("team_organizationId_idx").ifNotExists().on("team").column("organizationId").execute();

  await db.schema
    .createTable("teamMember")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("teamId", "text", (c) => c.notNull().references("team.id").onDelete("cascade"))
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("teamMember_teamId_userId_uidx")
    .ifNotExists()
    .unique()
    .on("teamMember")
    .columns(["teamId", "userId"])
    .execute();
  await db.schema.createIndex("teamMember_userId_idx").ifNotExists().on("teamMember").column("userId").execute();
}
