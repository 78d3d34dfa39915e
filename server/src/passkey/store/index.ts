import type { Kysely } from "kysely";
import type { Dialect } from "../../storage/database.js";
import type { PasskeyDatabase } from "../tables.js";
import { passkeyStore } from "./passkeys.js";

export type * from "./models.js";

/** The passkey module's repositories over one connection (or one transaction). */
export function passkeyRepositories(db: Kysely<PasskeyDatabase>, dialect: Dialect) {
  return { passkeys: passkeyStore(db, dialect) };
}

export type PasskeyRepositories = ReturnType<typeof passkeyRepositories>;
