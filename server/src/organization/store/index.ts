import type { Kysely } from "kysely";
import type { OrganizationDatabase } from "../tables.js";
import { organizationDirectoryStore } from "./directory.js";
import { invitationStore } from "./invitations.js";
import { memberStore } from "./members.js";
import { organizationStore } from "./organizations.js";
import { teamStore } from "./teams.js";

export type * from "./models.js";

/** The organization module's repositories over one connection (or one transaction). */
export function organizationRepositories(db: Kysely<OrganizationDatabase>) {
  return {
    organizations: organizationStore(db),
    members: memberStore(db),
    invitations: invitationStore(db),
    teams: teamStore(db),
    /** Every organization, for site administrators (read-only). */
    organizationDirectory: organizationDirectoryStore(db),
  };
}

export type OrganizationRepositories = ReturnType<typeof organizationRepositories>;
