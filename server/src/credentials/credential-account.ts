import { generateId } from "../crypto/random.js";
import { limitPasswordCheck } from "../http/account-limits.js";
import { APIError } from "../http/errors.js";
import type { Runtime } from "../runtime.js";
import type { Account, CoreStores as Stores, Session } from "../storage/index.js";
import { needsRehash, storedHashFormat } from "./hash-formats.js";
import { isUniqueViolation } from "../storage/constraint-errors.js";
import type { ExtraRow } from "../storage/new-user.js";
import type { NewUser } from "../storage/users.js";
import { CREDENTIAL_MESSAGES } from "./messages.js";
import { usernameTakenError } from "./username.js";
import { RESET_PASSWORD_PREFIX } from "../verification/identifiers.js";

/** A bare account row: a provider identity of the user, with no tokens (and a password only for "credential"). */
export function newAccountRow(userId: string, providerId: string, accountId: string, now: Date, password: string | null = null): Account {
  return {
    id: generateId(),
    accountId,
    providerId,
    userId,
    accessToken: null,
    refreshToken: null,
    idToken: null,
    accessTokenExpiresAt: null,
    refreshTokenExpiresAt: null,
    scope: null,
    password,
    createdAt: now,
    updatedAt: now,
  };
}

/** The account that holds a user's password: providerId "credential", accountId the user's id (API-NOTES.md 1.10). */
export function newCredentialAccount(userId: string, hash: string, now: Date): Account {
  return newAccountRow(userId, "credential", userId, now, hash);
}

/**
 * Sets the user's password on their credential account, creating the account when they have none, and deletes
 * every password-reset token the user still holds: after any new password (reset, change, set, or an
 * administrator's), no reset link mailed before it works. Pass a transaction's stores to make both one change.
 */
export async function setCredentialPassword(stores: Stores, userId: string, hash: string, now: Date): Promise<void> {
  const account = await stores.accounts.findCredentialAccount(userId);
  if (account) await stores.accounts.updateAccountPassword(account.id, hash, now);
  else await stores.accounts.createAccount(newCredentialAccount(userId, hash, now));
  await stores.verifications.deleteUserVerifications(RESET_PASSWORD_PREFIX, userId);
}

/**
 * Creates a user and, given a password hash, their credential account, and, given one, their first session (and
 * the extra rows: the sign-up's events): all or nothing (storage/new-user.ts). Hash before calling: no connection or write lock is held while scrypt runs
 * (PERF-NOTES.md item 3). When a racing request took the username meanwhile, throws 422 username taken; when it
 * took the email, the unique violation itself (callers word that one differently).
 */
export async function insertUserWithPassword(
  runtime: { stores: Stores },
  user: NewUser,
  hash: string | null,
  session?: Session,
  extraRows: readonly ExtraRow[] = [],
): Promise<void> {
  try {
    await runtime.stores.signUps.insertNewUser({
      user,
      account: hash ? newCredentialAccount(user.id, hash, user.createdAt) : null,
      session,
      extraRows,
    });
  } catch (error) {
    if (isUniqueViolation(error) && user.username && (await runtime.stores.users.findUserByUsername(user.username))) {
      throw usernameTakenError();
    }
    throw error;
  }
}

/**
 * Checks a signed-in user's current password before a sensitive change (change-password, delete-user): 400
 * credential account not found when they have no password, 400 invalid password when it is wrong, 429 after
 * repeated wrong ones (the account's limit, shared with sign-in: http/account-limits.ts), so a stolen session is no
 * password oracle. Answers their credential account.
 */
export async function checkCurrentPassword(
  runtime: Runtime,
  userId: string,
  password: string,
  opts: { rehash?: boolean } = {},
): Promise<Account> {
  const account = await runtime.stores.accounts.findCredentialAccount(userId);
  if (!account?.password) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.CREDENTIAL_ACCOUNT_NOT_FOUND);
  const stored = account.password;
  if (!(await limitPasswordCheck(runtime, `user:${userId}`, () => runtime.hasher.verify(stored, password)))) {
    throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.INVALID_PASSWORD);
  }
  if (opts.rehash !== false) await upgradePasswordHash(runtime, userId, account.password, password);
  return account;
}

/**
 * After a password was verified against an imported hash (bcrypt, Argon2, PBKDF2, Firebase scrypt: hash-formats.ts),
 * replaces that hash with Gatehouse's scrypt of the same password, in the same request. The update is conditional
 * (only while the stored hash is still the one verified), so a concurrent change or reset wins. A failure (the hash
 * queue full, the database away) leaves the imported hash in place for the next sign-in and is only logged: the
 * password was right.
 */
export async function upgradePasswordHash(runtime: Runtime, userId: string, verified: string, password: string): Promise<void> {
  if (!needsRehash(verified)) return;
  try {
    const hash = await runtime.hasher.hash(password);
    const replaced = await runtime.stores.accounts.replaceCredentialPassword(userId, verified, hash, runtime.now());
    if (replaced) runtime.logger.info({ userId, from: storedHashFormat(verified) }, "imported password hash replaced by scrypt");
  } catch (error) {
    runtime.logger.warn({ userId, err: (error as Error).message }, "could not rehash an imported password hash");
  }
}
