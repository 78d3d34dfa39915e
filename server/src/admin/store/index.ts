import type { Kysely } from "kysely";
import type { User } from "../../storage/models.js";
import type { Database } from "../../storage/schema.js";
import { toUser } from "../../storage/users.js";
import { searchUsers, type UserListQuery } from "./user-search.js";

/** The admin module's repositories: reads over every user, for site administrators. It has no table of its own. */
export function adminRepositories(db: Kysely<Database>) {
  return {
    userDirectory: {
      /** A page of users and how many match in all, for the administrators' list (see user-search.ts). */
      async listUsers(query: UserListQuery): Promise<{ users: User[]; total: number }> {
        const { rows, total } = await searchUsers(db, query);
        return { users: rows.map(toUser), total };
      },
    },
  };
}

export type AdminRepositories = ReturnType<typeof adminRepositories>;
