import { CompiledQuery, type Kysely, type Selectable } from "kysely";
import type { Session, User } from "./models.js";
import { dbDate, toDate } from "./rows.js";
import { coalescingReader } from "./coalesce.js";
import type { Dialect, PreparedQuery } from "./database.js";
import { insertAsOneStatement, insertRows, type ExtraRow } from "./extra-rows.js";
import { postgresRowWriter } from "./pg-row-batch.js";
import type { Database, SessionTable, UserTable } from "./schema.js";
import { toUser } from "./users.js";

export function toSession(row: Selectable<SessionTable>): Session {
  return {
    id: row.id,
    token: row.token,
    userId: row.userId,
    expiresAt: toDate(row.expiresAt),
    ipAddress: row.ipAddress ?? null,
    userAgent: row.userAgent ?? null,
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
    activeOrganizationId: row.activeOrganizationId ?? null,
    activeTeamId: row.activeTeamId ?? null,
    impersonatedBy: row.impersonatedBy ?? null,
    loginMethod: row.loginMethod ?? null,
    factors: row.factors ? row.factors.split(",") : null,
  };
}

/** A session as a row of the session table. */
export function toSessionRow(session: Session) {
  return {
    ...session,
    expiresAt: dbDate(session.expiresAt),
    createdAt: dbDate(session.createdAt),
    updatedAt: dbDate(session.updatedAt),
    factors: session.factors && session.factors.length > 0 ? session.factors.join(",") : null,
  };
}

/**
 * A new session as a row written with another change, in that change's statement: what signIn's `store` writes
 * when a change ends in a session (session/sign-in.ts), as createSession writes it with its event.
 */
export function sessionInsert(session: Session): ExtraRow {
  return { table: "session", values: toSessionRow(session) };
}

const SESSION_COLUMNS = [
  "id",
  "token",
  "userId",
  "expiresAt",
  "ipAddress",
  "userAgent",
  "createdAt",
  "updatedAt",
  "activeOrganizationId",
  "activeTeamId",
  "impersonatedBy",
  "loginMethod",
  "factors",
] as const;
const USER_COLUMNS = [
  "id",
  "name",
  "email",
  "emailVerified",
  "image",
  "createdAt",
  "updatedAt",
  "username",
  "displayUsername",
  "role",
  "banned",
  "banReason",
  "banExpires",
  "lang",
  "twoFactorEnabled",
] as const;

export interface SessionAndUser {
  session: Session;
  user: User;
}

export interface SessionStoreOptions {
  /** The hot read as a prepared statement (see DatabaseHandle.preparedQuery). */
  preparedQuery?: PreparedQuery | undefined;
  /**
   * PostgreSQL: session reads coalesce under load (coalesce.ts), many tokens to a statement, with at most this
   * many statements out at once. Unset: every read is a statement of its own (SQLite, where a read is a call).
   */
  coalesceReads?: number | undefined;
}

/** Tokens per coalesced session read at most. */
const MAX_TOKENS_PER_READ = 64;

export function sessionStore(db: Kysely<Database>, dialect: Dialect, opts: SessionStoreOptions = {}) {
  const { preparedQuery, coalesceReads } = opts;
  // The one query behind every authenticated request: built once, run with a fresh parameter each time.
  const lookupBase = db
    .selectFrom("session as s")
    .innerJoin("user as u", "u.id", "s.userId")
    .select(SESSION_COLUMNS.map((c) => `s.${c} as s_${c}` as const))
    .select(USER_COLUMNS.map((c) => `u.${c} as u_${c}` as const));
  const lookup = lookupBase.where("s.token", "=", "").compile();
  // Many tokens at once (PostgreSQL): `= any($1)` with a text array, one index probe per token.
  const lookupMany = lookupBase.where((eb) => eb("s.token", "=", eb.fn<string>("any", [eb.val<string[]>([])]))).compile();
  const tokenColumn = SESSION_COLUMNS.indexOf("token");
  const readOne = async (token: string): Promise<unknown[] | undefined> =>
    preparedQuery
      ? (await preparedQuery("gatehouse_session_lookup", lookup.sql, [token]))[0]
      : (await db.executeQuery<unknown[]>(CompiledQuery.raw(lookup.sql, [token]))).rows.map((r) => Object.values(r))[0];
  const read =
    preparedQuery && coalesceReads
      ? coalescingReader<string, unknown[]>({
          readOne,
          readMany: (tokens) => preparedQuery("gatehouse_session_lookup_many", lookupMany.sql, [tokens]),
          keyOf: (row) => row[tokenColumn] as string,
          concurrency: coalesceReads,
          maxBatch: MAX_TOKENS_PER_READ,
        })
      : readOne;

  /**
   * Deletes a session by its token (only the user's, given one) and answers who it was (id, user, impersonating
   * administrator), in the same statement; null when there was none.
   */
  const deleteSessionReturning = async (
    token: string,
    userId?: string,
  ): Promise<Pick<Session, "id" | "userId" | "impersonatedBy"> | null> => {
    let query = db.deleteFrom("session").where("token", "=", token);
    if (userId !== undefined) query = query.where("userId", "=", userId);
    const row = await query.returning(["id", "userId", "impersonatedBy"]).executeTakeFirst();
    return row ? { id: row.id, userId: row.userId, impersonatedBy: row.impersonatedBy ?? null } : null;
  };

  return {
    /**
     * Stores a new session; with extra rows (its sign-in's event), all or nothing: one statement on PostgreSQL, a
     * transaction on SQLite (or the caller's).
     */
    async createSession(session: Session, extraRows: readonly ExtraRow[] = []): Promise<Session> {
      const row = toSessionRow(session);
      if (dialect === "postgres" && !db.isTransaction) {
        // PostgreSQL's pool: with the other sessions written in this turn of the event loop, in one statement.
        await postgresRowWriter(db)([...extraRows, { table: "session", values: row }]);
      } else if (extraRows.length === 0) {
        await db.insertInto("session").values(row).execute();
      } else if (dialect === "postgres") {
        await insertAsOneStatement(db, [...extraRows, { table: "session", values: row }]);
      } else {
        const write = async (conn: Kysely<any>) => {
          await conn.insertInto("session").values(row).execute();
          await insertRows(conn, extraRows);
        };
        await (db.isTransaction ? write(db) : db.transaction().execute(write));
      }
      return session;
    },

    async findSessionAndUser(token: string): Promise<SessionAndUser | null> {
      // Columns come in the select's order: the session's, then the user's.
      const row = await read(token);
      if (!row) return null;
      const session: Record<string, unknown> = {};
      const user: Record<string, unknown> = {};
      for (let i = 0; i < SESSION_COLUMNS.length; i++) session[SESSION_COLUMNS[i]!] = row[i];
      for (let i = 0; i < USER_COLUMNS.length; i++) user[USER_COLUMNS[i]!] = row[SESSION_COLUMNS.length + i];
      return {
        session: toSession(session as unknown as Selectable<SessionTable>),
        user: toUser(user as unknown as Selectable<UserTable>),
      };
    },

    async listUserSessions(userId: string, now: Date): Promise<Session[]> {
      const rows = await db
        .selectFrom("session")
        .selectAll()
        .where("userId", "=", userId)
        .where("expiresAt", ">", dbDate(now))
        .orderBy("createdAt")
        .execute();
      return rows.map(toSession);
    },

    /** Extends a session; returns false when the row is gone (revoked meanwhile). */
    async extendSession(token: string, expiresAt: Date, now: Date): Promise<boolean> {
      const result = await db
        .updateTable("session")
        .set({ expiresAt: dbDate(expiresAt), updatedAt: dbDate(now) })
        .where("token", "=", token)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async deleteSessionByToken(token: string): Promise<void> {
      await db.deleteFrom("session").where("token", "=", token).execute();
    },

    /** Deletes a session only when it belongs to the user; only the owner may revoke it. */
    async deleteUserSession(userId: string, token: string): Promise<boolean> {
      return (await deleteSessionReturning(token, userId)) !== null;
    },

    deleteSessionReturning,

    async deleteUserSessions(userId: string, exceptToken?: string): Promise<number> {
      let query = db.deleteFrom("session").where("userId", "=", userId);
      if (exceptToken) query = query.where("token", "!=", exceptToken);
      const result = await query.executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Ends the impersonations an administrator holds: the sessions opened as other users by them. */
    async deleteSessionsImpersonatedBy(adminId: string): Promise<number> {
      const result = await db.deleteFrom("session").where("impersonatedBy", "=", adminId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async deleteExpiredSessions(now: Date): Promise<number> {
      const result = await db.deleteFrom("session").where("expiresAt", "<=", dbDate(now)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Sets the session's active organization and team (null clears them); false when the session is gone. */
    async setActiveOrganization(token: string, organizationId: string | null, teamId: string | null): Promise<boolean> {
      const result = await db
        .updateTable("session")
        .set({ activeOrganizationId: organizationId, activeTeamId: teamId })
        .where("token", "=", token)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async setActiveTeam(token: string, teamId: string | null): Promise<boolean> {
      const result = await db
        .updateTable("session")
        .set({ activeTeamId: teamId })
        .where("token", "=", token)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Clears an organization (and its team) from every session that has it active: all users' when the
     * organization is deleted, one user's when they leave or are removed (SPEC.md section 4).
     */
    async clearActiveOrganization(organizationId: string, userId?: string): Promise<number> {
      let query = db
        .updateTable("session")
        .set({ activeOrganizationId: null, activeTeamId: null })
        .where("activeOrganizationId", "=", organizationId);
      if (userId) query = query.where("userId", "=", userId);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** Clears a team from every session that has it active (all users', or one user's). */
    async clearActiveTeam(teamId: string, userId?: string): Promise<number> {
      let query = db.updateTable("session").set({ activeTeamId: null }).where("activeTeamId", "=", teamId);
      if (userId) query = query.where("userId", "=", userId);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

export type SessionStore = ReturnType<typeof sessionStore>;
