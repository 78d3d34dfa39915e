import type { Kysely } from "kysely";
import type { Dialect } from "../../storage/database.js";
import type { EventDatabase } from "../tables.js";
import { eventStore } from "./events.js";

export type * from "./models.js";
export { toEventValues } from "./events.js";

/** The events module's repositories over one connection (or one transaction). */
export function eventRepositories(db: Kysely<EventDatabase>, dialect: Dialect) {
  return { events: eventStore(db, dialect) };
}

export type EventRepositories = ReturnType<typeof eventRepositories>;
