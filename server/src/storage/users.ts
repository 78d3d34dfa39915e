import type { Kysely, Selectable } from "kysely";
import type { User } from "./models.js";
import { dbBool, dbDate, toBool, toDate, toDateOrNull } from "./rows.js";
import type { Database, UserTable } from "./schema.js";

export function toUser(row: Selectable<UserTable>): User {
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
  };
}

export type NewUser = Pick<User, "id" | "name" | "email" | "emailVerified" | "image" | "createdAt" | "updatedAt"> &
  Partial<Pick<User, "username" | "displayUsername" | "role" | "lang">>;

export type UserChanges = Partial<
  Pick<User, "name" | "image" | "email" | "emailVerified" | "username" | "displayUsername" | "role" | "lang">
> & { updatedAt: Date };

export function userStore(db: Kysely<Database>) {
  return {
    async createUser(user: NewUser): Promise<User> {
      const row = {
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
        banned: 0,
        lang: user.lang ?? null,
      };
      await db.insertInto("user").values(row).execute();
      return { ...user, username: row.username, displayUsername: row.displayUsername, role: row.role, banned: false, banReason: null, banExpires: null, lang: row.lang };
    },

    async findUserByEmail(email: string): Promise<User | null> {
      const row = await db.selectFrom("user").selectAll().where("email", "=", email).executeTakeFirst();
      return row ? toUser(row) : null;
    },

    async findUserById(id: string): Promise<User | null> {
      const row = await db.selectFrom("user").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? toUser(row) : null;
    },

    async updateUser(id: string, changes: UserChanges): Promise<User | null> {
      const values: Record<string, unknown> = { updatedAt: dbDate(changes.updatedAt) };
      for (const key of ["name", "image", "email", "username", "displayUsername", "role", "lang"] as const) {
        if (changes[key] !== undefined) values[key] = changes[key];
      }
      if (changes.emailVerified !== undefined) values.emailVerified = dbBool(changes.emailVerified);
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
