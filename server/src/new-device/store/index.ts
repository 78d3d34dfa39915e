import type { Kysely } from "kysely";
import { generateId } from "../../crypto/random.js";
import { dbDate } from "../../storage/rows.js";
import type { NewDeviceDatabase } from "../tables.js";

/** A browser at a sign-in: the user, the device cookie's key for them, and what its user agent says it is. */
export interface DeviceSighting {
  userId: string;
  deviceKey: string;
  browser: string;
  system: string;
}

/** The browsers each user has signed in from (new-device/tables.ts signInDevice). */
function signInDeviceStore(db: Kysely<NewDeviceDatabase>) {
  return {
    /**
     * A sign-in from a browser known to the user, as it was: its last sighting moves to `now`. False when the user
     * has no such row, or has it with another browser or system (the cookie moved, or the browser changed).
     */
    async touchDevice(seen: DeviceSighting, now: Date): Promise<boolean> {
      const result = await db
        .updateTable("signInDevice")
        .set({ lastSeenAt: dbDate(now) })
        .where("userId", "=", seen.userId)
        .where("deviceKey", "=", seen.deviceKey)
        .where("browser", "=", seen.browser)
        .where("system", "=", seen.system)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Whether any browser of the user is on record. */
    async hasDevices(userId: string): Promise<boolean> {
      const row = await db.selectFrom("signInDevice").select("id").where("userId", "=", userId).limit(1).executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Records a browser of the user, or the browser and system it now says it is: true when this call wrote it (a
     * new row, or a row whose browser or system changed); false when it was on record as it is, which a concurrent
     * sign-in from the same cookie may have just written. One statement, so of two such sign-ins one answers true.
     */
    async rememberDevice(seen: DeviceSighting, now: Date): Promise<boolean> {
      const row = await db
        .insertInto("signInDevice")
        .values({ id: generateId(), ...seen, createdAt: dbDate(now), lastSeenAt: dbDate(now) })
        .onConflict((oc) =>
          oc
            .columns(["userId", "deviceKey"])
            .doUpdateSet({ browser: seen.browser, system: seen.system, lastSeenAt: dbDate(now) })
            .where((eb) =>
              eb.or([eb("signInDevice.browser", "<>", seen.browser), eb("signInDevice.system", "<>", seen.system)]),
            ),
        )
        .returning("id")
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Keeps the user's list short: browsers unseen since `seenBefore` go (their cookie has expired by then), and
     * beyond the `keep` seen last (a script signing in without cookies would otherwise add a row each time).
     */
    async pruneDevices(userId: string, seenBefore: Date, keep: number): Promise<void> {
      await db
        .deleteFrom("signInDevice")
        .where("userId", "=", userId)
        .where((eb) =>
          eb.or([
            eb("lastSeenAt", "<", dbDate(seenBefore)),
            eb(
              "id",
              "not in",
              eb.selectFrom("signInDevice").select("id").where("userId", "=", userId).orderBy("lastSeenAt", "desc").limit(keep),
            ),
          ]),
        )
        .execute();
    },

    /** Forgets every browser of the user: their next sign-in is taken as their first. */
    async forgetUserDevices(userId: string): Promise<void> {
      await db.deleteFrom("signInDevice").where("userId", "=", userId).execute();
    },
  };
}

/** The new-device module's repositories over one connection (or one transaction). */
export function newDeviceRepositories(db: Kysely<NewDeviceDatabase>) {
  return { signInDevices: signInDeviceStore(db) };
}

export type NewDeviceRepositories = ReturnType<typeof newDeviceRepositories>;
