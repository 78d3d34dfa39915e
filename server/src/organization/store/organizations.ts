import type { Kysely, Selectable } from "kysely";
import type { Organization } from "./models.js";
import { dbBool, dbDate, toBool, toDate } from "../../storage/rows.js";
import type { OrganizationDatabase as Database, OrganizationTable } from "../tables.js";

export function toOrganization(row: Selectable<OrganizationTable>): Organization {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    logo: row.logo ?? null,
    metadata: row.metadata ?? null,
    createdAt: toDate(row.createdAt),
    // A row written before migration 0013 ran (or by another tool) has none: not required.
    requireTwoFactor: toBool(row.requireTwoFactor),
  };
}

export type OrganizationChanges = Partial<Pick<Organization, "name" | "slug" | "logo" | "metadata" | "requireTwoFactor">>;

export function organizationStore(db: Kysely<Database>) {
  return {
    async createOrganization(organization: Organization): Promise<Organization> {
      await db
        .insertInto("organization")
        .values({
          ...organization,
          createdAt: dbDate(organization.createdAt),
          requireTwoFactor: dbBool(organization.requireTwoFactor),
        })
        .execute();
      return organization;
    },

    async findOrganizationById(id: string): Promise<Organization | null> {
      const row = await db.selectFrom("organization").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? toOrganization(row) : null;
    },

    async findOrganizationBySlug(slug: string): Promise<Organization | null> {
      const row = await db.selectFrom("organization").selectAll().where("slug", "=", slug).executeTakeFirst();
      return row ? toOrganization(row) : null;
    },

    /** The organizations the user is a member of, oldest membership first. */
    async listUserOrganizations(userId: string): Promise<Organization[]> {
      const rows = await db
        .selectFrom("organization as o")
        .innerJoin("member as m", "m.organizationId", "o.id")
        .selectAll("o")
        .where("m.userId", "=", userId)
        .orderBy("m.createdAt")
        .orderBy("o.id")
        .execute();
      return rows.map(toOrganization);
    },

    async updateOrganization(id: string, changes: OrganizationChanges): Promise<Organization | null> {
      const values: Record<string, unknown> = {};
      for (const key of ["name", "slug", "logo", "metadata"] as const) {
        if (changes[key] !== undefined) values[key] = changes[key];
      }
      if (changes.requireTwoFactor !== undefined) values.requireTwoFactor = dbBool(changes.requireTwoFactor);
      if (Object.keys(values).length === 0) return this.findOrganizationById(id);
      const row = await db
        .updateTable("organization")
        .set(values)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
      return row ? toOrganization(row) : null;
    },

    /**
     * Whether the organization requires a second factor and the user has none (user.twoFactorEnabled, read here
     * and not from a session's cached user): one read of both rows. False when either is gone.
     */
    async refusesForMissingSecondFactor(organizationId: string, userId: string): Promise<boolean> {
      const row = await db
        .selectFrom("organization as o")
        .innerJoin("user as u", (join) => join.on("u.id", "=", userId))
        .select(["o.requireTwoFactor", "u.twoFactorEnabled"])
        .where("o.id", "=", organizationId)
        .executeTakeFirst();
      return !!row && toBool(row.requireTwoFactor) && !toBool(row.twoFactorEnabled);
    },

    /** Deletes the organization; members, invitations, teams and team members go with it (cascade). */
    async deleteOrganization(id: string): Promise<boolean> {
      const result = await db.deleteFrom("organization").where("id", "=", id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /**
     * Inside a transaction, takes the organization's row lock (PostgreSQL) so that checks over its members
     * (the last owner, the membership limit) and the writes that follow them are not interleaved with another
     * request's. SQLite runs one transaction at a time already. Returns false when the organization is gone.
     */
    async lockOrganization(id: string): Promise<boolean> {
      const result = await db
        .updateTable("organization")
        .set((eb) => ({ slug: eb.ref("slug") }))
        .where("id", "=", id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}

export type OrganizationStore = ReturnType<typeof organizationStore>;
