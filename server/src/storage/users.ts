import type { Kysely, Selectable } from "kysely";
import type { Dialect } from "./database.js";
import type { User } from "./models.js";
import { precompiled, type Param } from "./precompiled.js";
import { dbBool, dbDate, toBool, toDate, toDateOrNull } from "./rows.js";
import type { Database, UserTable } from "./schema.js";

export function toUser(row: Pick<Selectable<UserTable>, (typeof USER_COLUMNS)[number]>): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: toBool(row.emailVerified),
    image: row.image ?? null,
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
    username: row.username ?? null,
    displayUsername: row.displayUsername ?? null,
    role: row.role ?? null,
    banned: toBool(row.banned),
    banReason: row.banReason ?? null,
    banExpires: toDateOrNull(row.banExpires),
    lang: row.lang ?? null,
    twoFactorEnabled: toBool(row.twoFactorEnabled),
  };
}

/** The user table's columns a User is made of (toUser), for a read that joins the user to another table's row. */
export const USER_COLUMNS = [
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

/** The user of a joined row whose user columns were selected as `u_<column>` (USER_COLUMNS). */
export function toUserFromJoined(row: Readonly<Record<string, unknown>>): User {
  const fields: Record<string, unknown> = {};
  for (const column of USER_COLUMNS) fields[column] = row[`u_${column}`];
  return toUser(fields as Selectable<UserTable>);
}

export type NewUser = Pick<User, "id" | "name" | "email" | "emailVerified" | "image" | "createdAt" | "updatedAt"> &
  Partial<Pick<User, "username" | "displayUsername" | "role" | "lang" | "banned" | "banReason" | "banExpires">>;

export type UserChanges = Partial<
  Pick<
    User,
    | "name"
    | "image"
    | "email"
    | "emailVerified"
    | "username"
    | "displayUsername"
    | "role"
    | "lang"
    | "banned"
    | "banReason"
    | "banExpires"
  >
> & { updatedAt: Date };

/** A new user as a row of the user table (dates and booleans as the dialect stores them). */
export function toUserRow(user: NewUser) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: dbBool(user.emailVerified),
    image: user.image,
    createdAt: dbDate(user.createdAt),
    updatedAt: dbDate(user.updatedAt),
    username: user.username ?? null,
    displayUsername: user.displayUsername ?? null,
    role: user.role ?? null,
    banned: dbBool(user.banned ?? false),
    banReason: user.banReason ?? null,
    banExpires: user.banExpires ? dbDate(user.banExpires) : null,
    lang: user.lang ?? null,
  };
}

function newUserModel(user: NewUser): User {
  return {
    ...user,
    username: user.username ?? null,
    displayUsername: user.displayUsername ?? null,
    role: user.role ?? null,
    banned: user.banned ?? false,
    banReason: user.banReason ?? null,
    banExpires: user.banExpires ?? null,
    lang: user.lang ?? null,
    twoFactorEnabled: false,
  };
}

/**
 * Every password sign-in's read (findUserAndPassword), compiled once (precompiled.ts), a named statement on
 * PostgreSQL: the user's columns named (no `*`), and the hash of their password.
 */
const userAndPasswordBy = (column: "email" | "username") =>
  precompiled(
    (db: Kysely<Database>, param: Param<{ value: string }>) =>
      db
        .selectFrom("user")
        .leftJoin("account", (join) =>
          join.onRef("account.userId", "=", "user.id").on("account.providerId", "=", "credential"),
        )
        .select(USER_COLUMNS.map((c) => `user.${c}` as const))
        .select("account.password as credentialPassword")
        .where(`user.${column}`, "=", param("value")),
    { named: true },
  );
const userAndPasswordByEmail = userAndPasswordBy("email");
const userAndPasswordByUsername = userAndPasswordBy("username");

export function userStore(db: Kysely<Database>, dialect: Dialect) {
  return {
    /**
     * Inside a transaction: takes the user's row lock (a no-op write), so that changes to one user's rows made
     * under it run one after another. On PostgreSQL a waiting statement then reads what the first committed.
     */
    async lockUser(id: string): Promise<void> {
      await db
        .updateTable("user")
        .set((eb) => ({ updatedAt: eb.ref("updatedAt") }))
        .where("id", "=", id)
        .execute();
    },

    async createUser(user: NewUser): Promise<User> {
      await db.insertInto("user").values(toUserRow(user)).execute();
      return newUserModel(user);
    },

    /** Bulk insert (imports, seeding), in chunks that stay under PostgreSQL's bound-parameter limit. */
    async createUsers(users: readonly NewUser[]): Promise<void> {
      for (let i = 0; i < users.length; i += 1000) {
        await db.insertInto("user").values(users.slice(i, i + 1000).map(toUserRow)).execute();
      }
    },

    async findUserByEmail(email: string): Promise<User | null> {
      const row = await db.selectFrom("user").selectAll().where("email", "=", email).executeTakeFirst();
      return row ? toUser(row) : null;
    },

    /**
     * A user by email or by username (normalised) with the hash of their password, in one read: what a password
     * sign-in needs. `password` is null for a user without a credential account (social sign-up only).
     */
    async findUserAndPassword(
      by: "email" | "username",
      value: string,
    ): Promise<{ user: User; password: string | null } | null> {
      const row = (await (by === "email" ? userAndPasswordByEmail : userAndPasswordByUsername)(db, dialect, { value })).rows[0];
      return row ? { user: toUser(row), password: row.credentialPassword ?? null } : null;
    },

    /** By username, which is stored and compared in lower case (pass it normalised). */
    async findUserByUsername(username: string): Promise<User | null> {
      const row = await db.selectFrom("user").selectAll().where("username", "=", username).executeTakeFirst();
      return row ? toUser(row) : null;
    },

    async findUserById(id: string): Promise<User | null> {
      const row = await db.selectFrom("user").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? toUser(row) : null;
    },

    /** lastLoginMethod.storeInDatabase: the method of the user's latest sign-in (not a profile change: updatedAt stays). */
    async setLastLoginMethod(id: string, method: string): Promise<void> {
      await db.updateTable("user").set({ lastLoginMethod: method }).where("id", "=", id).execute();
    },

    async updateUser(id: string, changes: UserChanges): Promise<User | null> {
      const values: Record<string, unknown> = { updatedAt: dbDate(changes.updatedAt) };
      for (const key of ["name", "image", "email", "username", "displayUsername", "role", "lang", "banReason"] as const) {
        if (changes[key] !== undefined) values[key] = changes[key];
      }
      if (changes.emailVerified !== undefined) values.emailVerified = dbBool(changes.emailVerified);
      if (changes.banned !== undefined) values.banned = dbBool(changes.banned);
      if (changes.banExpires !== undefined) values.banExpires = changes.banExpires ? dbDate(changes.banExpires) : null;
      const row = await db.updateTable("user").set(values).where("id", "=", id).returningAll().executeTakeFirst();
      return row ? toUser(row) : null;
    },

    async deleteUser(id: string): Promise<boolean> {
      const result = await db.deleteFrom("user").where("id", "=", id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type UserStore = ReturnType<typeof userStore>;
