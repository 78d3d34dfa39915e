import { sql, type Kysely, type Selectable } from "kysely";
import { containsPattern } from "../../storage/like.js";
import type { Member, MemberWithUser } from "./models.js";
import { dbDate, toDate } from "../../storage/rows.js";
import type { OrganizationDatabase as Database, MemberTable } from "../tables.js";

export function toMember(row: Selectable<MemberTable>): Member {
  return {
    id: row.id,
    organizationId: row.organizationId,
    userId: row.userId,
    role: row.role,
    createdAt: toDate(row.createdAt),
  };
}

type MemberUserRow = Selectable<MemberTable> & { userName: string; userEmail: string; userImage: string | null };

function toMemberWithUser(row: MemberUserRow): MemberWithUser {
  return {
    ...toMember(row),
    user: { id: row.userId, name: row.userName, email: row.userEmail, image: row.userImage ?? null },
  };
}

export interface MemberListOptions {
  limit: number;
  offset: number;
  sortBy: "createdAt" | "role" | "name" | "email";
  sortDirection: "asc" | "desc";
  filter?: { field: "role" | "userId" | "email"; operator: "eq" | "ne" | "contains"; value: string } | undefined;
}

const SORT_COLUMNS = { createdAt: "m.createdAt", role: "m.role", name: "u.name", email: "u.email" } as const;
const FILTER_COLUMNS = { role: "m.role", userId: "m.userId", email: "u.email" } as const;

export function memberStore(db: Kysely<Database>) {
  const withUser = () =>
    db
      .selectFrom("member as m")
      .innerJoin("user as u", "u.id", "m.userId")
      .selectAll("m")
      .select(["u.name as userName", "u.email as userEmail", "u.image as userImage"]);

  return {
    async createMember(member: Member): Promise<Member> {
      await db
        .insertInto("member")
        .values({ ...member, createdAt: dbDate(member.createdAt) })
        .execute();
      return member;
    },

    /** A member by id, only within the organization (an id of another organization is not found). */
    async findOrganizationMember(organizationId: string, memberId: string): Promise<MemberWithUser | null> {
      const row = await withUser()
        .where("m.organizationId", "=", organizationId)
        .where("m.id", "=", memberId)
        .executeTakeFirst();
      return row ? toMemberWithUser(row) : null;
    },

    async findMemberByUserId(organizationId: string, userId: string): Promise<MemberWithUser | null> {
      const row = await withUser()
        .where("m.organizationId", "=", organizationId)
        .where("m.userId", "=", userId)
        .executeTakeFirst();
      return row ? toMemberWithUser(row) : null;
    },

    async findMemberByEmail(organizationId: string, email: string): Promise<MemberWithUser | null> {
      const row = await withUser()
        .where("m.organizationId", "=", organizationId)
        .where("u.email", "=", email)
        .executeTakeFirst();
      return row ? toMemberWithUser(row) : null;
    },

    async listMembers(
      organizationId: string,
      options: MemberListOptions,
    ): Promise<{ members: MemberWithUser[]; total: number }> {
      let base = db
        .selectFrom("member as m")
        .innerJoin("user as u", "u.id", "m.userId")
        .where("m.organizationId", "=", organizationId);
      const filter = options.filter;
      if (filter) {
        const column = FILTER_COLUMNS[filter.field];
        if (filter.operator === "eq") base = base.where(column, "=", filter.value);
        else if (filter.operator === "ne") base = base.where(column, "!=", filter.value);
        else base = base.where(sql<boolean>`${sql.ref(column)} like ${containsPattern(filter.value)} escape '\\'`);
      }
      const [rows, count] = await Promise.all([
        base
          .selectAll("m")
          .select(["u.name as userName", "u.email as userEmail", "u.image as userImage"])
          .orderBy(SORT_COLUMNS[options.sortBy], options.sortDirection)
          .orderBy("m.id", options.sortDirection)
          .limit(options.limit)
          .offset(options.offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<string | number>().as("count")).executeTakeFirst(),
      ]);
      return { members: rows.map(toMemberWithUser), total: Number(count?.count ?? 0) };
    },

    /** Members whose role string mentions `role` (callers parse the roles to be exact). */
    async listMembersMentioningRole(organizationId: string, role: string): Promise<Member[]> {
      const rows = await db
        .selectFrom("member")
        .selectAll()
        .where("organizationId", "=", organizationId)
        .where(sql<boolean>`${sql.ref("role")} like ${containsPattern(role)} escape '\\'`)
        .execute();
      return rows.map(toMember);
    },

    async countOrganizationMembers(organizationId: string): Promise<number> {
      const row = await db
        .selectFrom("member")
        .select((eb) => eb.fn.countAll<string | number>().as("count"))
        .where("organizationId", "=", organizationId)
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    /** Every membership of a user, oldest first. */
    async listUserMemberships(userId: string): Promise<Member[]> {
      const rows = await db.selectFrom("member").selectAll().where("userId", "=", userId).orderBy("createdAt").execute();
      return rows.map(toMember);
    },

    /** The organization's members other than `exceptUserId`, longest-standing first, at most `limit`. */
    async listOtherMembers(organizationId: string, exceptUserId: string, limit: number): Promise<Member[]> {
      const rows = await db
        .selectFrom("member")
        .selectAll()
        .where("organizationId", "=", organizationId)
        .where("userId", "!=", exceptUserId)
        .orderBy("createdAt")
        .orderBy("id")
        .limit(limit)
        .execute();
      return rows.map(toMember);
    },

    async countUserMemberships(userId: string): Promise<number> {
      const row = await db
        .selectFrom("member")
        .select((eb) => eb.fn.countAll<string | number>().as("count"))
        .where("userId", "=", userId)
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    async updateMemberRole(organizationId: string, memberId: string, role: string): Promise<Member | null> {
      const row = await db
        .updateTable("member")
        .set({ role })
        .where("organizationId", "=", organizationId)
        .where("id", "=", memberId)
        .returningAll()
        .executeTakeFirst();
      return row ? toMember(row) : null;
    },

    async deleteMember(organizationId: string, memberId: string): Promise<boolean> {
      const result = await db
        .deleteFrom("member")
        .where("organizationId", "=", organizationId)
        .where("id", "=", memberId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type MemberStore = ReturnType<typeof memberStore>;
