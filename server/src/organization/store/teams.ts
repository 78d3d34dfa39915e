import type { Kysely, Selectable } from "kysely";
import type { Team, TeamMember } from "./models.js";
import { dbDate, toDate, toDateOrNull } from "../../storage/rows.js";
import type { OrganizationDatabase as Database, TeamMemberTable, TeamTable } from "../tables.js";

export function toTeam(row: Omit<Selectable<TeamTable>, "memberCount">): Team {
  return {
    id: row.id,
    name: row.name,
    organizationId: row.organizationId,
    createdAt: toDate(row.createdAt),
    updatedAt: toDateOrNull(row.updatedAt),
  };
}

export function toTeamMember(row: Selectable<TeamMemberTable>): TeamMember {
  return { id: row.id, teamId: row.teamId, userId: row.userId, createdAt: toDate(row.createdAt) };
}

export function teamStore(db: Kysely<Database>) {
  return {
    async createTeam(team: Team): Promise<Team> {
      await db
        .insertInto("team")
        .values({
          ...team,
          memberCount: 0,
          createdAt: dbDate(team.createdAt),
          updatedAt: team.updatedAt ? dbDate(team.updatedAt) : null,
        })
        .execute();
      return team;
    },

    async findTeamById(id: string): Promise<Team | null> {
      const row = await db.selectFrom("team").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? toTeam(row) : null;
    },

    async listOrganizationTeams(organizationId: string): Promise<Team[]> {
      const rows = await db
        .selectFrom("team")
        .selectAll()
        .where("organizationId", "=", organizationId)
        .orderBy("createdAt")
        .orderBy("id")
        .execute();
      return rows.map(toTeam);
    },

    /** The organization's teams with how many members each has. */
    async listOrganizationTeamsWithCounts(organizationId: string): Promise<(Team & { memberCount: number })[]> {
      const rows = await db
        .selectFrom("team as t")
        .leftJoin("teamMember as tm", "tm.teamId", "t.id")
        // Not t.*: its stored memberCount (Better Auth's counter) would clash with the count.
        .select(["t.id", "t.name", "t.organizationId", "t.createdAt", "t.updatedAt"])
        .select((eb) => eb.fn.count<string | number>("tm.id").as("memberCount"))
        .where("t.organizationId", "=", organizationId)
        .groupBy(["t.id", "t.name", "t.organizationId", "t.createdAt", "t.updatedAt"])
        .orderBy("t.createdAt")
        .orderBy("t.id")
        .execute();
      return rows.map((row) => ({ ...toTeam(row), memberCount: Number(row.memberCount) }));
    },

    async countOrganizationTeams(organizationId: string): Promise<number> {
      const row = await db
        .selectFrom("team")
        .select((eb) => eb.fn.countAll<string | number>().as("count"))
        .where("organizationId", "=", organizationId)
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    async updateTeam(id: string, changes: { name?: string | undefined; updatedAt: Date }): Promise<Team | null> {
      const values: Record<string, unknown> = { updatedAt: dbDate(changes.updatedAt) };
      if (changes.name !== undefined) values.name = changes.name;
      const row = await db.updateTable("team").set(values).where("id", "=", id).returningAll().executeTakeFirst();
      return row ? toTeam(row) : null;
    },

    /** Deletes the team; its team-member rows go with it (cascade). */
    async deleteTeam(id: string): Promise<boolean> {
      const result = await db.deleteFrom("team").where("id", "=", id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async createTeamMember(teamMember: TeamMember): Promise<TeamMember> {
      await db
        .insertInto("teamMember")
        .values({ ...teamMember, createdAt: dbDate(teamMember.createdAt) })
        .execute();
      return teamMember;
    },

    async findTeamMember(teamId: string, userId: string): Promise<TeamMember | null> {
      const row = await db
        .selectFrom("teamMember")
        .selectAll()
        .where("teamId", "=", teamId)
        .where("userId", "=", userId)
        .executeTakeFirst();
      return row ? toTeamMember(row) : null;
    },

    async listTeamMembers(teamId: string): Promise<TeamMember[]> {
      const rows = await db
        .selectFrom("teamMember")
        .selectAll()
        .where("teamId", "=", teamId)
        .orderBy("createdAt")
        .orderBy("id")
        .execute();
      return rows.map(toTeamMember);
    },

    async countTeamMembers(teamId: string): Promise<number> {
      const row = await db
        .selectFrom("teamMember")
        .select((eb) => eb.fn.countAll<string | number>().as("count"))
        .where("teamId", "=", teamId)
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    async deleteTeamMember(teamId: string, userId: string): Promise<boolean> {
      const result = await db
        .deleteFrom("teamMember")
        .where("teamId", "=", teamId)
        .where("userId", "=", userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /** Removes the user from every team of the organization (when they leave it or are removed). */
    async deleteUserTeamMemberships(organizationId: string, userId: string): Promise<number> {
      const result = await db
        .deleteFrom("teamMember")
        .where("userId", "=", userId)
        .where("teamId", "in", (eb) => eb.selectFrom("team").select("id").where("organizationId", "=", organizationId))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /**
     * The teams the user belongs to: in one organization, or across every organization they are still a
     * member of.
     */
    async listUserTeams(userId: string, organizationId?: string): Promise<Team[]> {
      let query = db
        .selectFrom("team as t")
        .innerJoin("teamMember as tm", "tm.teamId", "t.id")
        .innerJoin("member as m", (join) =>
          join.onRef("m.organizationId", "=", "t.organizationId").on("m.userId", "=", userId),
        )
        .selectAll("t")
        .where("tm.userId", "=", userId);
      if (organizationId) query = query.where("t.organizationId", "=", organizationId);
      const rows = await query.orderBy("t.createdAt").orderBy("t.id").execute();
      return rows.map(toTeam);
    },
  };
}

export type TeamStore = ReturnType<typeof teamStore>;
