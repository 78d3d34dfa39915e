import type { Kysely } from "kysely";
import type { OidcDatabase } from "../tables.js";

export interface OrganizationClaim {
  id: string;
  name: string;
  slug: string;
  role: string;
}

/** What the provider reads of other parts for its claims: a user's organizations and roles, in one statement. */
export function oidcDirectoryStore(db: Kysely<OidcDatabase>) {
  const memberships = () =>
    db
      .selectFrom("member as m")
      .innerJoin("organization as o", "o.id", "m.organizationId")
      .select(["o.id as id", "o.name as name", "o.slug as slug", "m.role as role"]);
  return {
    /** The user's organizations with their role in each, oldest membership first. */
    async userOrganizations(userId: string): Promise<OrganizationClaim[]> {
      return memberships().where("m.userId", "=", userId).orderBy("m.createdAt").orderBy("o.id").execute();
    },

    /** One organization of the user's, or null when they are not (or no longer) a member. */
    async userOrganization(userId: string, organizationId: string): Promise<OrganizationClaim | null> {
      const row = await memberships().where("m.userId", "=", userId).where("o.id", "=", organizationId).executeTakeFirst();
      return row ?? null;
    },
  };
}
