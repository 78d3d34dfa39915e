import { generateId } from "../crypto/random.js";
import type { Runtime } from "../runtime.js";
import { createStores, type Account, type Stores } from "../storage/index.js";
import { isUniqueViolation } from "../storage/constraint-errors.js";
import type { NewUser } from "../storage/users.js";
import { usernameTakenError } from "./username.js";

/** The account that holds a user's password: providerId "credential", accountId the user's id (API-NOTES.md 1.10). */
export function newCredentialAccount(userId: string, hash: string, now: Date): Account {
  return {
    id: generateId(),
    accountId: userId,
    providerId: "credential",
    userId,
    accessToken: null,
    refreshToken: null,
    idToken: null,
    accessTokenExpiresAt: null,
    refreshTokenExpiresAt: null,
    scope: null,
    password: hash,
    createdAt: now,
    updatedAt: now,
  };
}

/** Sets the user's password on their credential account, creating the account when they have none. */
export async function setCredentialPassword(stores: Stores, userId: string, hash: string, now: Date): Promise<void> {
  const account = await stores.accounts.findCredentialAccount(userId);
  if (account) await stores.accounts.updateAccountPassword(account.id, hash, now);
  else await stores.accounts.createAccount(newCredentialAccount(userId, hash, now));
}

/**
 * Creates a user and, given a password hash, their credential account, in one transaction. Hash before calling:
 * no connection or write lock is held while scrypt runs (PERF-NOTES.md item 3). When a racing request took the
 * username meanwhile, throws 422 username taken; when it took the email, the unique violation itself (callers word
 * that one differently).
 */
export async function insertUserWithPassword(runtime: Runtime, user: NewUser, hash: string | null): Promise<void> {
  try {
    await runtime.database.db.transaction().execute(async (trx) => {
      const stores = createStores(trx);
      await stores.users.createUser(user);
      if (hash) await stores.accounts.createAccount(newCredentialAccount(user.id, hash, user.createdAt));
    });
  } catch (error) {
    if (isUniqueViolation(error) && user.username && (await runtime.stores.users.findUserByUsername(user.username))) {
      throw usernameTakenError();
    }
    throw error;
  }
}
