import { defineModule } from "../gatehouse-module.js";
import {
  acceptInvitation,
  getInvitation,
  listUserInvitations,
  rejectInvitation,
} from "./invitation-recipient-routes.js";
import { cancelInvitation, inviteMember, listInvitations } from "./invitation-routes.js";
import {
  addMember,
  getActiveMember,
  getActiveMemberRole,
  leaveOrganization,
  listMembers,
  removeMember,
  updateMemberRole,
} from "./member-routes.js";
import { handOverOrganizations } from "./membership.js";
import { ORG_MESSAGES } from "./messages.js";
import * as organizationTables from "./migrations/0002-organization.js";
import * as teamMemberCount from "./migrations/0008-team-member-count.js";
import * as requireTwoFactor from "./migrations/0013-organization-require-two-factor.js";
import {
  checkOrganizationSlug,
  createOrganization,
  deleteOrganization,
  getFullOrganization,
  getOrganization,
  listOrganizations,
  setActiveOrganization,
  updateOrganization,
} from "./organization-routes.js";
import { hasPermission } from "./permission-routes.js";
import { organizationRepositories } from "./store/index.js";
import { ORGANIZATION_TABLE_SPECS } from "./tables.js";
import {
  addTeamMember,
  createTeam,
  listTeamMembers,
  listTeams,
  listUserTeams,
  removeTeam,
  removeTeamMember,
  setActiveTeam,
  updateTeam,
} from "./team-routes.js";

/**
 * Organizations, members, invitations and teams (SPEC.md section 6). No option turns it off today: it is on in every
 * configuration, as it always was; the module boundary is where such an option would act.
 */
export const organizationModule = defineModule({
  name: "organization",
  enabled: () => true,
  endpoints: {
    createOrganization,
    checkOrganizationSlug,
    updateOrganization,
    deleteOrganization,
    listOrganizations,
    getOrganization,
    getFullOrganization,
    setActiveOrganization,
    leaveOrganization,
    removeMember,
    updateMemberRole,
    addMember,
    getActiveMember,
    getActiveMemberRole,
    listMembers,
    inviteMember,
    acceptInvitation,
    rejectInvitation,
    cancelInvitation,
    getInvitation,
    listInvitations,
    listUserInvitations,
    createTeam,
    updateTeam,
    removeTeam,
    listTeams,
    addTeamMember,
    removeTeamMember,
    setActiveTeam,
    listUserTeams,
    listTeamMembers,
    hasPermission,
  },
  // The names they had when they lived in storage/migrations: databases record them, so they never change.
  migrations: {
    "0002-organization": organizationTables,
    "0008-team-member-count": teamMemberCount,
    "0013-organization-require-two-factor": requireTwoFactor,
  },
  tables: ORGANIZATION_TABLE_SPECS,
  repositories: organizationRepositories,
  errors: ORG_MESSAGES,
  // An organization the user was the only member of goes with them; one they were the only owner of is handed over.
  async beforeUserRemoved(stores, userId, config) {
    const { deleted, handedOver } = await handOverOrganizations({ config }, stores, userId);
    return { organizationsDeleted: deleted, ownershipHandedOver: handedOver };
  },
});
