import type { TableSpecs } from "../storage/expected-schema.js";
import type { Database, DbDate } from "../storage/schema.js";

/**
 * A browser a user has signed in from (new-device/): the device cookie's id, kept per user, with the browser and
 * system it was seen with. A sign-in from a browser whose row is missing (or whose browser or system changed) mails
 * the user. Rows go with their user (the foreign key cascades).
 */
export interface SignInDeviceTable {
  id: string;
  userId: string;
  /**
   * SHA-256 (hex) of the user's id and the cookie's device id (device-cookie.ts deviceKey): never the id itself, so
   * the table does not tell which users share a browser.
   */
  deviceKey: string;
  /** The browser's name as user-agent.ts reads it ("Chrome"), "" when the user agent does not say. */
  browser: string;
  /** The operating system's name ("Windows"), "" when the user agent does not say. */
  system: string;
  createdAt: DbDate;
  /** The last sign-in from it: rows unseen for longer than the cookie lives are pruned. */
  lastSeenAt: DbDate;
}

export interface NewDeviceTables {
  signInDevice: SignInDeviceTable;
}

/** Keyed by the interface above, so a column added there and not here fails to compile. */
export const NEW_DEVICE_TABLE_SPECS: TableSpecs<NewDeviceTables> = {
  signInDevice: {
    columns: {
      id: { type: "text", notNull: true },
      userId: { type: "text", notNull: true },
      deviceKey: { type: "text", notNull: true },
      browser: { type: "text", notNull: true },
      system: { type: "text", notNull: true },
      createdAt: { type: "date", notNull: true },
      lastSeenAt: { type: "date", notNull: true },
    },
    // One row per browser of a user: two first sign-ins from one cookie at once write (and mail) once.
    indexes: [{ name: "signInDevice_userId_deviceKey_uidx", columns: ["userId", "deviceKey"], unique: true }],
  },
};

/** What the module's store reads and writes: its table and the core ones. */
export interface NewDeviceDatabase extends Database, NewDeviceTables {}
