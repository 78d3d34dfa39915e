import { generateId } from "../crypto/random.js";
import type { User } from "../storage/models.js";

/** A user as first stored: a fresh id, unverified, without image, username, language or ban, unless `fields` say otherwise. */
export function newUserRecord(fields: Pick<User, "name" | "email" | "role"> & Partial<User>, now: Date): User {
  return {
    id: generateId(),
    emailVerified: false,
    image: null,
    createdAt: now,
    updatedAt: now,
    username: null,
    displayUsername: null,
    banned: false,
    banReason: null,
    banExpires: null,
    lang: null,
    twoFactorEnabled: false,
    ...fields,
  };
}
