import type { Kysely, Selectable } from "kysely";
import type { Invitation, InvitationStatus } from "./models.js";
import { dbDate, toDate } from "../../storage/rows.js";
import type { OrganizationDatabase as Database, InvitationTable } from "../tables.js";

const STATUSES: readonly InvitationStatus[] = ["pending", "accepted", "rejected", "canceled"];

export function toInvitation(row: Selectable<InvitationTable>): Invitation {
  return {
    id: row.id,
    organizationId: row.organizationId,
    email: row.email,
    role: row.role ?? "member",
    teamId: row.teamId ?? null,
    status: (STATUSES as readonly string[]).includes(row.status) ? (row.status as InvitationStatus) : "pending",
    expiresAt: toDate(row.expiresAt),
    createdAt: toDate(row.createdAt),
    inviterId: row.inviterId,
  };
}

export type InvitationWithOrganization = Invitation & { organizationName: string; organizationSlug: string };

export function invitationStore(db: Kysely<Database>) {
  return {
    async createInvitation(invitation: Invitation): Promise<Invitation> {
      await db
        .insertInto("invitation")
        .values({
          ...invitation,
          expiresAt: dbDate(invitation.expiresAt),
          createdAt: dbDate(invitation.createdAt),
        })
        .execute();
      return invitation;
    },

    async findInvitationById(id: string): Promise<Invitation | null> {
      const row = await db.selectFrom("invitation").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? toInvitation(row) : null;
    },

    /** The newest pending, unexpired invitation of `email` to the organization. */
    async findPendingInvitation(organizationId: string, email: string, now: Date): Promise<Invitation | null> {
      const row = await db
        .selectFrom("invitation")
        .selectAll()
        .where("organizationId", "=", organizationId)
        .where("email", "=", email)
        .where("status", "=", "pending")
        .where("expiresAt", ">", dbDate(now))
        .orderBy("createdAt", "desc")
        .executeTakeFirst();
      return row ? toInvitation(row) : null;
    },

    /** Every invitation of the organization, whatever its status, newest first. */
    async listOrganizationInvitations(organizationId: string): Promise<Invitation[]> {
      const rows = await db
        .selectFrom("invitation")
        .selectAll()
        .where("organizationId", "=", organizationId)
        .orderBy("createdAt", "desc")
        .orderBy("id")
        .execute();
      return rows.map(toInvitation);
    },

    /** Pending, unexpired invitations sent to `email`, with the name and slug of their organization. */
    async listPendingInvitationsByEmail(email: string, now: Date): Promise<InvitationWithOrganization[]> {
      const rows = await db
        .selectFrom("invitation as i")
        .innerJoin("organization as o", "o.id", "i.organizationId")
        .selectAll("i")
        .select(["o.name as organizationName", "o.slug as organizationSlug"])
        .where("i.email", "=", email)
        .where("i.status", "=", "pending")
        .where("i.expiresAt", ">", dbDate(now))
        .orderBy("i.createdAt", "desc")
        .orderBy("i.id")
        .execute();
      return rows.map((row) => ({
        ...toInvitation(row),
        organizationName: row.organizationName,
        organizationSlug: row.organizationSlug,
      }));
    },

    async countPendingInvitations(organizationId: string, now: Date): Promise<number> {
      const row = await db
        .selectFrom("invitation")
        .select((eb) => eb.fn.countAll<string | number>().as("count"))
        .where("organizationId", "=", organizationId)
        .where("status", "=", "pending")
        .where("expiresAt", ">", dbDate(now))
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    /**
     * Moves a pending, unexpired invitation to `status` in one conditional statement, and returns it; null
     * when it was not pending (or had expired) at that moment. Of two concurrent answers to one invitation,
     * exactly one gets it back.
     */
    async settlePendingInvitation(
      id: string,
      status: Exclude<InvitationStatus, "pending">,
      now: Date,
    ): Promise<Invitation | null> {
      const row = await db
        .updateTable("invitation")
        .set({ status })
        .where("id", "=", id)
        .where("status", "=", "pending")
        .where("expiresAt", ">", dbDate(now))
        .returningAll()
        .executeTakeFirst();
      return row ? toInvitation(row) : null;
    },

    /** Resending: a still-pending invitation gets a new expiry; null when it is no longer pending. */
    async renewInvitation(id: string, expiresAt: Date): Promise<Invitation | null> {
      const row = await db
        .updateTable("invitation")
        .set({ expiresAt: dbDate(expiresAt) })
        .where("id", "=", id)
        .where("status", "=", "pending")
        .returningAll()
        .executeTakeFirst();
      return row ? toInvitation(row) : null;
    },

    async cancelPendingInvitations(organizationId: string, email: string): Promise<number> {
      const result = await db
        .updateTable("invitation")
        .set({ status: "canceled" })
        .where("organizationId", "=", organizationId)
        .where("email", "=", email)
        .where("status", "=", "pending")
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** Pending invitations of the organization that name at least one team. */
    async listPendingTeamInvitations(organizationId: string): Promise<Invitation[]> {
      const rows = await db
        .selectFrom("invitation")
        .selectAll()
        .where("organizationId", "=", organizationId)
        .where("status", "=", "pending")
        .where("teamId", "is not", null)
        .execute();
      return rows.map(toInvitation);
    },

    async setInvitationTeams(id: string, teamId: string | null): Promise<void> {
      await db.updateTable("invitation").set({ teamId }).where("id", "=", id).execute();
    },
  };
}

export type InvitationStore = ReturnType<typeof invitationStore>;
